"""sqlglot expression builders shared by the write gate, the apps and the grader.

Values become typed literals (``CAST('14350.00' AS DECIMAL(18,2))``) so comparisons stay
exact; identifiers are always quoted. Nothing here formats SQL with f-strings.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import sqlglot
from sqlglot import exp

from cfab.schema.catalog import TableInfo

DIALECT = "duckdb"


def ident(name: str) -> exp.Identifier:
    return exp.to_identifier(name, quoted=True)


def col(name: str, table: str | None = None) -> exp.Column:
    return exp.column(ident(name), table=ident(table) if table else None)


def parse_type(type_text: str) -> exp.DataType:
    return exp.DataType.build(type_text, dialect=DIALECT)


def literal(value: Any, type_text: str | None = None) -> exp.Expr:
    """A SQL literal for a Python value, cast to ``type_text`` when given."""
    if value is None:
        node: exp.Expr = exp.Null()
    elif isinstance(value, bool):
        node = exp.Boolean(this=value)
    elif isinstance(value, (bytes, bytearray, memoryview)):
        node = exp.func("from_hex", exp.Literal.string(bytes(value).hex()))
        return node if type_text is None else exp.cast(node, parse_type(type_text))
    elif isinstance(value, (int, Decimal)) and type_text is None:
        node = exp.Literal.number(str(value))
    elif isinstance(value, float):
        node = exp.Literal.number(repr(value))
    elif isinstance(value, (date, datetime)):
        node = exp.Literal.string(value.isoformat(sep=" ") if isinstance(value, datetime) else value.isoformat())
    elif isinstance(value, (dict, list)):
        node = exp.Literal.string(json.dumps(value, sort_keys=True, default=str))
    else:
        node = exp.Literal.string(str(value))
    if type_text is None or isinstance(node, exp.Null):
        return node
    return exp.cast(node, parse_type(type_text))


def key_predicate(info: TableInfo, keys: Sequence[Sequence[Any]], alias: str | None = None) -> exp.Expr:
    """``pk IN (...)`` (or a tuple IN for composite keys) with typed literals."""
    if not info.pk:
        raise ValueError(f"{info.qualified} has no primary key")
    if not keys:
        return exp.false()
    types = [info.columns[c] for c in info.pk]
    if len(info.pk) == 1:
        return exp.In(this=col(info.pk[0], alias), expressions=[literal(k[0], types[0]) for k in keys])
    lhs = exp.Tuple(expressions=[col(c, alias) for c in info.pk])
    rhs = [exp.Tuple(expressions=[literal(v, t) for v, t in zip(k, types, strict=True)]) for k in keys]
    return exp.In(this=lhs, expressions=rhs)


def equals_all(filters: Mapping[str, Any], info: TableInfo | None = None, alias: str | None = None) -> exp.Expr:
    """AND of ``col = value`` (``IS NULL`` for None) for a filter mapping."""
    parts: list[exp.Expr] = []
    for name, value in filters.items():
        column = info.column(name) if info is not None else name
        type_text = info.columns[column] if info is not None else None
        ref = col(column, alias)
        if value is None:
            parts.append(exp.Is(this=ref, expression=exp.Null()))
        elif isinstance(value, (list, tuple, set)):
            parts.append(exp.In(this=ref, expressions=[literal(v, type_text) for v in value]))
        else:
            parts.append(exp.EQ(this=ref, expression=literal(value, type_text)))
    if not parts:
        return exp.true()
    return exp.and_(*parts)


def parse_expr(text: str) -> exp.Expr:
    return sqlglot.parse_one(text, read=DIALECT)


def to_sql(node: exp.Expr) -> str:
    return node.sql(dialect=DIALECT)


def pk_key(values: Iterable[Any]) -> str:
    """The canonical written-row key: JSON array of the PK values as strings."""
    return json.dumps([_key_str(v) for v in values], separators=(",", ":"))


def _key_str(value: Any) -> str:
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return str(value)
