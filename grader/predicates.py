"""Evaluator entries: row predicates over the diff, call predicates over the tool log.

``where`` / ``assert`` take two forms:

* a map ``{column: value}`` — every pair must hold, compared with
  :func:`cfab.grader.values.values_equal` (exact decimals when both sides are numbers,
  ``None`` matches NULL, booleans as documented there, otherwise exact strings). Keys are
  column names (case-insensitive), ``before.Col`` / ``after.Col``, or ``_pk``: the row's
  primary key, a scalar for a one-column key or a list for a composite key.
* a SQL boolean expression over the row's columns, evaluated by DuckDB over the typed row
  (``"abs(Amount - 14350.00) < 0.005"``). ``before.Col`` / ``after.Col`` name a side; a
  bare column is the after value, or the before value for ``removed`` rows. BLOB columns
  appear as ``STRUCT(sha256, size)``.

Sides allowed per op: ``changed`` both, ``added`` after only, ``removed`` before only.

Entry semantics (also used by the grader):

* expected, ``count`` None: some row of ``op`` in the table matches ``where`` and ``assert``;
* expected, ``count`` N: exactly N rows match ``where`` and all of them satisfy ``assert``;
* forbidden: violated when some row matches ``where`` and ``assert``;
* allowed: covers (for ``forbid_unexpected``) the rows that match ``where``.
* expected with ``total`` ``{column: amount}``: the rows matching ``where`` and ``assert``
  (at least one, or exactly ``count``) sum to that amount in each named column, exactly —
  an amount per account whatever the number of lines ("Dr 5200 for the total" is right as
  one line or as one line per subcontract).
``count`` and ``total`` are only meaningful on expected entries; ``allow_columns`` only on
expected and allowed entries: elsewhere they are load errors.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

import duckdb
from pydantic import (
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)
from sqlglot import exp

from cfab.schema.models import CfabModel

from .answers import AnswerSpec
from .catalog import catalog_mapping
from .sqlexpr import (
    UnsafeExpression,
    column_refs,
    parse_expression,
    result_type,
    rewrite,
)

Op = Literal["added", "removed", "changed"]
SIDES_FOR_OP: dict[str, tuple[str, ...]] = {"added": ("after",), "removed": ("before",), "changed": ("before", "after")}


class EvaluatorError(ValueError):
    """An evaluator that cannot be graded: unknown table or column, unsafe SQL, bad regex."""


def split_key(key: str) -> tuple[str | None, str]:
    """``"before.Amount"`` → ``("before", "Amount")``; ``"Amount"`` → ``(None, "Amount")``."""
    head, dot, rest = key.partition(".")
    if dot and head.lower() in ("before", "after") and rest:
        return head.lower(), rest
    return None, key


def _describe(part: dict[str, Any] | str | None) -> str:
    if part is None:
        return ""
    if isinstance(part, str):
        return part
    return ", ".join(f"{k} = {v!r}" for k, v in part.items())


class RowPredicate(CfabModel):
    """One expected / forbidden / allowed change of an app table."""

    app: str
    table: str
    op: Op
    where: dict[str, Any] | str | None = None
    assert_: dict[str, Any] | str | None = Field(None, alias="assert")
    count: int | None = Field(None, ge=0)
    total: dict[str, Any] | None = None
    allow_columns: list[str] = []
    label: str | None = None

    _trees: dict[str, exp.Expr] = PrivateAttr(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _default_label(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("label"):
            data = dict(data)
            where, asserted = data.get("where"), data.get("assert", data.get("assert_"))
            text = f"{data.get('app')}.{data.get('table')}: "
            count = data.get("count")
            op = data.get("op")
            text += (
                f"exactly {count} {op} row(s)" if count is not None else f"{'an' if op == 'added' else 'a'} {op} row"
            )
            if where:
                text += f" where {_describe(where)}"
            if asserted:
                text += f" with {_describe(asserted)}"
            if data.get("total"):
                text += " totalling " + ", ".join(f"{k} = {v!r}" for k, v in data["total"].items())
            data["label"] = text
        return data

    @model_validator(mode="after")
    def _parse_sql(self) -> RowPredicate:
        trees: dict[str, exp.Expr] = {}
        for part in ("where", "assert"):
            value = self.part(part)
            if isinstance(value, str):
                trees[part] = parse_expression(value)  # UnsafeExpression is a ValueError
                sides = [(side, f"{side}.{col}") for side, col in column_refs(trees[part])]
            else:
                sides = [(split_key(k)[0], k) for k in (value or {})]
            for side, ref in sides:
                if side is not None and side not in SIDES_FOR_OP[self.op]:
                    raise ValueError(f"{part} uses {ref} but {self.op} rows have no {side} values")
        self._trees = trees
        return self

    @property
    def qualified(self) -> str:
        return f"{self.app}.{self.table}"

    def part(self, name: str) -> dict[str, Any] | str | None:
        return self.assert_ if name == "assert" else self.where

    def tree(self, name: str) -> exp.Expr | None:
        return self._trees.get(name)

    def refs(self, name: str) -> list[tuple[str | None, str]]:
        """(side, column) referenced by ``where``/``assert`` (``_pk`` excluded)."""
        value = self.part(name)
        if isinstance(value, dict):
            return [split_key(k) for k in value if k != "_pk"]
        tree = self.tree(name)
        return column_refs(tree) if tree is not None else []

    def named_columns(self) -> set[str]:
        """Lower-cased columns this entry allows to change (its assert, total and allow_columns)."""
        return (
            {c.lower() for _, c in self.refs("assert")}
            | {c.lower() for c in self.allow_columns}
            | {split_key(c)[1].lower() for c in (self.total or {})}
        )


class CallPredicate(CfabModel):
    """A tool call (L2 check): ``tool`` is an fnmatch pattern over full tool names."""

    tool: str
    args: dict[str, Any] | str | None = None
    count: int | None = Field(None, ge=0)
    label: str | None = None

    _tree: exp.Expr | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _default_label(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("label"):
            data = dict(data)
            count = data.get("count")
            text = (f"exactly {count} call(s)" if count is not None else "a call") + f" to {data.get('tool')}"
            if data.get("args"):
                text += f" with {_describe(data.get('args'))}"
            data["label"] = text
        return data

    @model_validator(mode="after")
    def _parse_sql(self) -> CallPredicate:
        self._tree = parse_expression(self.args) if isinstance(self.args, str) else None
        return self

    @property
    def tree(self) -> exp.Expr | None:
        return self._tree


Catalog = Mapping[str, Mapping[str, str]] | duckdb.DuckDBPyConnection


class Evaluator(CfabModel):
    """A task's declarative evaluator (the paper's format plus allowed/unexpected/L2).

    ``answers`` are the typed reports the task asks for (see :mod:`cfab.grader.answers`).
    ``required_outputs`` / ``forbidden_outputs`` are regexes over the free-text reply: kept for
    tasks whose product really is free text, and to forbid a contradicting statement.
    Guarded calls (money movement, posting, e-filing, sending) fail every task unless one
    matches ``requested_guarded_calls`` — a task that asks for a call to be staged says so
    there; ``money_movement_guard`` is the paper's flag for tasks that tempt one.
    """

    expected: list[RowPredicate] = []
    forbidden: list[RowPredicate] = []
    allowed: list[RowPredicate] = []
    forbid_unexpected: bool = False
    money_movement_guard: bool = False
    answers: list[AnswerSpec] = []
    required_outputs: list[str] = []
    forbidden_outputs: list[str] = []
    expected_calls: list[CallPredicate] = []
    forbidden_calls: list[CallPredicate] = []
    requested_guarded_calls: list[CallPredicate] = []

    @field_validator("required_outputs", "forbidden_outputs")
    @classmethod
    def _regexes(cls, patterns: list[str]) -> list[str]:
        for i, pattern in enumerate(patterns):
            try:
                re.compile(pattern, re.IGNORECASE)
            except re.error as e:
                raise ValueError(f"output pattern [{i}] {pattern!r} is not a regex: {e}") from None
        return patterns

    @field_validator("answers")
    @classmethod
    def _unique_answers(cls, specs: list[AnswerSpec]) -> list[AnswerSpec]:
        names = [s.name for s in specs]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"answer names must be unique, repeated: {dupes}")
        return specs

    @model_validator(mode="after")
    def _structure(self) -> Evaluator:
        for kind in ("forbidden", "allowed"):
            for i, p in enumerate(getattr(self, kind)):
                if p.count is not None:
                    raise ValueError(f"{kind}[{i}] ({p.label}): count only applies to expected entries")
                if p.total:
                    raise ValueError(f"{kind}[{i}] ({p.label}): total only applies to expected entries")
        for i, p in enumerate(self.expected):
            for col, value in (p.total or {}).items():
                try:
                    Decimal(str(value))
                except InvalidOperation:
                    raise ValueError(f"expected[{i}] ({p.label}): total {col} = {value!r} is not a number") from None
        for i, p in enumerate(self.forbidden):
            if p.allow_columns:
                raise ValueError(
                    f"forbidden[{i}] ({p.label}): allow_columns only applies to expected and allowed entries"
                )
        return self

    def row_entries(self) -> Iterator[tuple[str, int, RowPredicate]]:
        for kind in ("expected", "forbidden", "allowed"):
            for i, p in enumerate(getattr(self, kind)):
                yield kind, i, p

    @classmethod
    def load(cls, data: Mapping[str, Any] | str | bytes, catalog: Catalog | None = None) -> Evaluator:
        """Build from a dict or JSON text; every problem becomes an :class:`EvaluatorError`;
        validated against ``catalog`` when one is given."""
        try:
            ev = cls.model_validate_json(data) if isinstance(data, (str, bytes)) else cls.model_validate(data)
        except ValidationError as e:
            raise EvaluatorError(f"invalid evaluator: {_errors(e)}") from None
        return ev.validate_against(catalog) if catalog is not None else ev

    def validate_against(self, catalog: Catalog) -> Evaluator:
        """Check every table and column an entry names against ``catalog`` ('app.table' →
        {column: type}, or a connection to a golden file). Returns self."""
        cat = catalog_mapping(catalog)
        tables = {k.lower(): (k, v) for k, v in cat.items()}
        for kind, i, p in self.row_entries():
            where = f"{kind}[{i}] ({p.label})"
            if p.qualified.lower() not in tables:
                close = difflib.get_close_matches(p.qualified, list(cat), n=3, cutoff=0.6)
                hint = f"; did you mean {', '.join(close)}?" if close else ""
                raise EvaluatorError(f"{where}: unknown table {p.qualified!r}{hint}")
            name, columns = tables[p.qualified.lower()]
            _check_entry(where, name, {c.lower(): (c, t) for c, t in columns.items()}, p)
        return self


def _errors(e: ValidationError) -> str:
    out = []
    for err in e.errors():
        loc = "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in err["loc"]).lstrip(".")
        msg = str(err["msg"]).removeprefix("Value error, ")
        out.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(out)


def _unknown_column(
    where: str, table: str, column: str, columns: dict[str, tuple[str, str]], context: str
) -> EvaluatorError:
    names = [c for c, _ in columns.values()]
    close = difflib.get_close_matches(column, names, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return EvaluatorError(f"{where}: unknown column {column!r} of {table} in {context}{hint}")


def _check_entry(where: str, table: str, columns: dict[str, tuple[str, str]], p: RowPredicate) -> None:
    for part in ("where", "assert"):
        for side, col in p.refs(part):
            if col.lower() not in columns:
                raise _unknown_column(where, table, col, columns, part)
            if side is not None and side not in SIDES_FOR_OP[p.op]:
                raise EvaluatorError(f"{where}: {part} uses {side}.{col} but {p.op} rows have no {side} values")
        tree = p.tree(part)
        if tree is not None:
            refs = {c.lower() for _, c in column_refs(tree)}
            typed = [(c, columns[c][1]) for c in sorted(refs)]
            sql = rewrite(tree, lambda s, c: c.lower())
            try:
                rtype = result_type(sql, typed)
            except (duckdb.Error, UnsafeExpression) as e:
                raise EvaluatorError(
                    f"{where}: {part} {p.part(part)!r} does not bind: {str(e).splitlines()[0]}"
                ) from None
            if rtype.upper() != "BOOLEAN":
                raise EvaluatorError(f"{where}: {part} {p.part(part)!r} is {rtype}, not a boolean expression")
    for col in p.allow_columns:
        if col.lower() not in columns:
            raise _unknown_column(where, table, col, columns, "allow_columns")
    for key in p.total or {}:
        col = split_key(key)[1]
        if col.lower() not in columns:
            raise _unknown_column(where, table, col, columns, "total")
        if (
            not columns[col.lower()][1]
            .upper()
            .startswith(("DECIMAL", "NUMERIC", "INTEGER", "BIGINT", "HUGEINT", "SMALLINT", "DOUBLE"))
        ):
            raise EvaluatorError(f"{where}: total {col} is {columns[col.lower()][1]}, not a number")
