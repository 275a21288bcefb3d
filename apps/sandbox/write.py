"""The write parser for the per-task `sql.execute` write tool: turn one INSERT / UPDATE / DELETE into
a `WriteIntent` the write gate (triggers/) can resolve and apply. Nothing is executed here.

Accepted shapes (anything else is refused with `SqlRefused`):

* `INSERT INTO app.table [(col, …)] VALUES (literal, …)[, (…)]` — literals only
  (numbers, strings, NULL, TRUE/FALSE, `DATE '…'`, `TIMESTAMP '…'`, casts of literals);
* `UPDATE app.table [[AS] t] SET col = <row expression>, … [WHERE <row predicate>]`;
* `DELETE FROM app.table [[AS] t] [WHERE <row predicate>]`.

A row expression / predicate uses only literals, the target row's own columns
(optionally qualified by the table name or alias), operators, CASE/COALESCE/CAST and
deterministic scalar functions; no subqueries, aggregates, window functions,
parameters, clock or random functions. No RETURNING, ON CONFLICT, OR REPLACE, BY NAME,
DEFAULT VALUES, INSERT … SELECT, UPDATE … FROM, DELETE … USING, WITH, LIMIT.
Column qualifiers are stripped in the returned SQL fragments, so `where` and the
assignment values can be placed directly in `SELECT … FROM "app"."table" WHERE <where>`.
"""

from __future__ import annotations

import datetime as dt
import warnings
from collections.abc import Collection
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from sqlglot import exp

from cfab.apps.sandbox.crosscheck import crosscheck_row_expression, crosscheck_write_kind
from cfab.apps.sandbox.parse import parse_one_statement, render_sql
from cfab.apps.sandbox.policy import (
    SqlRefused,
    banned_function_reason,
    function_call_name,
    normalize_allowed,
    schema_refusal,
)
from cfab.apps.sandbox.size import check_value_size
from cfab.schema.models import FrozenModel

__all__ = ["WriteIntent", "parse_write"]

_ROOT_ARGS: dict[type[exp.Expression], frozenset[str]] = {
    exp.Insert: frozenset({"this", "expression"}),
    exp.Update: frozenset({"this", "expressions", "where"}),
    exp.Delete: frozenset({"this", "where"}),
}
_OPS = {exp.Insert: "insert", exp.Update: "update", exp.Delete: "delete"}
_DENIED_IN_ROW_EXPR: tuple[type[exp.Expression], ...] = tuple(
    c
    for c in (
        getattr(exp, n, None)
        for n in (
            "Query",
            "Subquery",
            "Exists",
            "Table",
            "AggFunc",
            "Window",
            "Star",
            "Placeholder",
            "Parameter",
            "SessionParameter",
            "Lambda",
            "Command",
            "DML",
            "DDL",
            "Unnest",
            "Any",
            "All",
        )
    )
    if isinstance(c, type)
)
_NONDETERMINISTIC = frozenset(
    {
        "now",
        "today",
        "random",
        "rand",
        "setseed",
        "uuid",
        "gen_random_uuid",
        "uuidv4",
        "uuidv7",
        "get_current_time",
        "get_current_timestamp",
        "localtime",
        "localtimestamp",
        "transaction_timestamp",
        "statement_timestamp",
        "epoch_ms_now",
        "current_date",
    }
)


with warnings.catch_warnings():
    # `schema` is the field name the write gate expects; it deliberately shadows pydantic's
    # deprecated BaseModel.schema() classmethod (use model_json_schema() instead).
    warnings.filterwarnings("ignore", message='Field name "schema"')

    class WriteIntent(FrozenModel):
        """One parsed agent write, for the write gate. `where`/assignment values are SQL text."""

        op: Literal["insert", "update", "delete"]
        schema: str  # type: ignore[assignment]  # lower-case app schema; shadows BaseModel.schema() on purpose
        table: str  # as written by the agent
        columns: list[str] | None = None  # INSERT column list, None when omitted
        rows: list[list[Any]] = []  # INSERT literal rows: str, int, Decimal, bool, None, date, datetime
        assignments: dict[str, str] = {}  # UPDATE: column -> SQL expression over the row's columns
        where: str | None = None  # UPDATE/DELETE predicate over the row's columns; None = every row
        sql: str = ""  # the normalized statement (comments dropped), for logs


def _target(node: exp.Expression, allowed: tuple[str, ...], *, alias_ok: bool) -> tuple[str, str, str]:
    """(schema, table, alias-or-table) of the write target, or refuse."""
    if not isinstance(node, exp.Table) or not isinstance(node.this, exp.Identifier):
        raise SqlRefused("the write target must be one table named <app>.<table>")
    if node.args.get("catalog") is not None:
        raise SqlRefused("catalog-qualified names are not allowed: use <app>.<table>")
    extra = [k for k, v in node.args.items() if v and k not in ("this", "db", "alias")]
    if extra or (node.args.get("alias") is not None and not alias_ok):
        raise SqlRefused("the write target must be a plain <app>.<table>")
    alias_node = node.args.get("alias")
    if alias_node is not None and alias_node.columns:
        raise SqlRefused("column aliases on the write target are not allowed")
    schema_id = node.args.get("db")
    table = node.name
    if not isinstance(schema_id, exp.Identifier) or not schema_id.name:
        raise SqlRefused(f"table {table} must be schema-qualified with one of your apps: {', '.join(allowed)}")
    schema = schema_id.name
    if not (schema.isascii() and schema.lower() in allowed):
        raise schema_refusal(schema, table, allowed)
    return schema.lower(), table, (node.alias or table)


def _literal(node: exp.Expression, where: str) -> Any:
    """The Python value of an INSERT literal, or refuse."""
    if isinstance(node, exp.Paren):
        return _literal(node.this, where)
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Boolean):
        return bool(node.this)
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal) and not node.this.is_string:
        return -_literal(node.this, where)
    if isinstance(node, exp.RawString):  # $$dollar-quoted$$
        return str(node.this)
    if isinstance(node, exp.Literal):
        if node.is_string:
            return node.this
        text = str(node.this)
        try:
            return int(text) if text.lstrip("-").isdigit() else Decimal(text)
        except (ValueError, InvalidOperation):
            raise SqlRefused(f"{where}: {text} is not a number") from None
    if isinstance(node, exp.Cast) and isinstance(node.to, exp.DataType):
        value = _literal(node.this, where)
        kind = node.to.this
        try:
            if kind == exp.DataType.Type.DATE and isinstance(value, str):
                return dt.date.fromisoformat(value)
            if (kind.value.upper().startswith("TIMESTAMP") or kind.value.upper() == "DATETIME") and isinstance(
                value, str
            ):
                return dt.datetime.fromisoformat(value)
        except ValueError:
            raise SqlRefused(f"{where}: {value!r} is not a valid {kind.value.lower()}") from None
        return value
    raise SqlRefused(
        f"{where}: INSERT values must be literals (numbers, strings, NULL, "
        f"TRUE/FALSE, DATE '…'), not {node.sql(dialect='duckdb')[:60]}"
    )


def _row_expression(node: exp.Expression, table: str, alias: str, what: str) -> str:
    """Validate an expression over the target row, strip qualifiers, return its SQL text."""
    node = node.copy()
    for sub in node.walk():
        if isinstance(sub, _DENIED_IN_ROW_EXPR):
            raise SqlRefused(
                f"{what} may only use literals and the row's own columns (no {type(sub).__name__.lower()})"
            )
        if isinstance(sub, exp.Dot) and isinstance(sub.expression, exp.Func):
            raise SqlRefused(f"{what}: method-style or qualified function calls are not allowed")
        if isinstance(sub, exp.Func) and not isinstance(sub, exp.Binary):
            called = function_call_name(sub)  # what DuckDB will look up (None: syntax such as CASE)
            names = [sub.name] if isinstance(sub, exp.Anonymous) else list(type(sub).sql_names())
            for name in [*names, *([called] if called else [])]:
                low = str(name).lower()
                if low in _NONDETERMINISTIC or low.startswith("current_"):
                    raise SqlRefused(f"{what}: {low} is not allowed in a write; use a literal value")
            if called:
                why = banned_function_reason(called)
                if why:
                    raise SqlRefused(f"{what}: function {called} is not allowed: {why}")
            check_value_size(sub)
        if isinstance(sub, exp.Column):
            if sub.args.get("catalog") is not None or sub.args.get("db") is not None:
                raise SqlRefused(f"{what}: column references must be plain column names")
            qualifier = sub.table
            if qualifier and qualifier.lower() not in (table.lower(), alias.lower()):
                raise SqlRefused(f"{what} may only reference columns of {table} (found {qualifier}.{sub.name})")
            sub.set("table", None)
    return node.sql(dialect="duckdb", comments=False)


def _parse_insert(root: exp.Insert, allowed: tuple[str, ...]) -> dict[str, Any]:
    target = root.this
    columns: list[str] | None = None
    if isinstance(target, exp.Schema):
        columns = []
        for ident in target.expressions:
            if not isinstance(ident, exp.Identifier):
                raise SqlRefused("the INSERT column list must be plain column names")
            columns.append(ident.name)
        if len({c.lower() for c in columns}) != len(columns):
            raise SqlRefused("a column appears twice in the INSERT column list")
        target = target.this
    schema, table, _ = _target(target, allowed, alias_ok=False)
    values = root.expression
    if not isinstance(values, exp.Values) or values.args.get("alias") is not None:
        raise SqlRefused("INSERT must use VALUES with literal rows (INSERT … SELECT is not allowed)")
    rows: list[list[Any]] = []
    for r, tup in enumerate(values.expressions, start=1):
        items = tup.expressions if isinstance(tup, exp.Tuple) else [tup]
        rows.append([_literal(v, f"row {r}, value {c}") for c, v in enumerate(items, start=1)])
    if not rows:
        raise SqlRefused("INSERT needs at least one row")
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise SqlRefused("every INSERT row must have the same number of values")
    if columns is not None and widths != {len(columns)}:
        raise SqlRefused(f"the column list names {len(columns)} columns but rows have {widths.pop()} values")
    return {"op": "insert", "schema": schema, "table": table, "columns": columns, "rows": rows}


def _parse_update(root: exp.Update, allowed: tuple[str, ...]) -> dict[str, Any]:
    schema, table, alias = _target(root.this, allowed, alias_ok=True)
    assignments: dict[str, str] = {}
    for item in root.expressions:
        if not isinstance(item, exp.EQ) or not isinstance(item.this, exp.Column):
            raise SqlRefused("UPDATE SET must be a list of column = expression")
        column = item.this
        if column.args.get("db") is not None or (
            column.table and column.table.lower() not in (table.lower(), alias.lower())
        ):
            raise SqlRefused(f"UPDATE may only set columns of {table}")
        if (
            isinstance(item.expression, (exp.Column, exp.Var))
            and not item.expression.args.get("table")
            and item.expression.name.upper() == "DEFAULT"
        ):
            raise SqlRefused(f"SET {column.name} = DEFAULT is not supported: give the value")
        if column.name.lower() in {c.lower() for c in assignments}:
            raise SqlRefused(f"column {column.name} is set twice")
        text = _row_expression(item.expression, table, alias, f"the value for {column.name}")
        crosscheck_row_expression(text, schema, table)
        assignments[column.name] = text
    if not assignments:
        raise SqlRefused("UPDATE needs at least one SET column = value")
    return {
        "op": "update",
        "schema": schema,
        "table": table,
        "assignments": assignments,
        "where": _where(root, schema, table, alias),
    }


def _where(root: exp.Expr, schema: str, table: str, alias: str) -> str | None:
    where = root.args.get("where")
    if where is None:
        return None
    text = _row_expression(where.this, table, alias, "WHERE")
    crosscheck_row_expression(text, schema, table)
    return text


def parse_write(sql: str, allowed_schemas: Collection[str]) -> WriteIntent:
    """Parse one agent write into a `WriteIntent`, or raise `SqlRefused` saying why."""
    allowed = normalize_allowed(allowed_schemas)
    root = parse_one_statement(sql)
    kind = next((k for k in _ROOT_ARGS if type(root) is k), None)
    if kind is None:
        raise SqlRefused(
            "sql.execute runs exactly one INSERT, UPDATE or DELETE on one app table; use the read tool for queries"
        )
    extra = sorted(k for k, v in root.args.items() if v and k not in _ROOT_ARGS[kind])
    if extra:
        shown = {
            "returning": "RETURNING",
            "conflict": "ON CONFLICT",
            "alternative": "INSERT OR …",
            "by_name": "BY NAME",
            "default": "DEFAULT VALUES",
            "with_": "WITH",
            "with": "WITH",
            "from_": "UPDATE … FROM",
            "from": "UPDATE … FROM",
            "using": "DELETE … USING",
            "limit": "LIMIT",
            "order": "ORDER BY",
        }
        raise SqlRefused(f"{', '.join(shown.get(k, k) for k in extra)} is not allowed in sql.execute")
    if isinstance(root, exp.Insert):  # kind is the exact type, so these match it
        fields = _parse_insert(root, allowed)
    elif isinstance(root, exp.Update):
        fields = _parse_update(root, allowed)
    else:
        schema, table, alias = _target(root.this, allowed, alias_ok=True)
        fields = {"op": "delete", "schema": schema, "table": table, "where": _where(root, schema, table, alias)}
    text = render_sql(root)
    crosscheck_write_kind(text, fields["op"])
    return WriteIntent(sql=text, **fields)
