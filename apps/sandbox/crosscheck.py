"""Second static layer: DuckDB's own parser re-checks the SQL the guard will execute.

The sqlglot layer (`cfab.apps.sandbox.read`) decides and rewrites; this module takes the SQL
text that will actually be sent to the engine and asks DuckDB how *it* parses that text
(`extract_statements` and `json_serialize_sql`, both pure parsing — nothing is bound or
executed, and the private parser connection has no file, no external access and a
locked configuration). The JSON syntax tree is then walked with an allow-list of node
kinds. A parser differential between sqlglot and DuckDB therefore cannot smuggle a
second statement, a write, a file read or a hidden schema past the guard: both parsers
must agree that the statement is harmless.
"""

from __future__ import annotations

import contextlib
import json
import threading
from typing import Any

import duckdb

from cfab.apps.sandbox.policy import (
    ALLOWED_TABLE_FUNCTIONS,
    CATALOG_FUNCTIONS,
    CATALOG_VIEWS,
    SqlRefused,
    banned_function_reason,
    looks_like_file,
    schema_refusal,
)

__all__ = ["crosscheck_read", "crosscheck_row_expression", "crosscheck_write_kind"]

_QUERY_NODES = frozenset({"SELECT_NODE", "SET_OPERATION_NODE", "RECURSIVE_CTE_NODE", "CTE_NODE"})
_PASS_THROUGH_REFS = frozenset({"SUBQUERY", "JOIN", "EXPRESSION_LIST", "PIVOT", "EMPTY"})
# Every TableReferenceType DuckDB may emit (table refs are recognised by type as well as shape).
_TABLE_REF_TYPES = _PASS_THROUGH_REFS | frozenset(
    {"BASE_TABLE", "TABLE_FUNCTION", "SHOW_REF", "COLUMN_DATA", "DELIM_GET", "CTE", "BOUND_TABLE_REF", "INVALID"}
)
_SHOW_TYPES = frozenset({"DESCRIBE", "SUMMARY"})

_lock = threading.Lock()
_parser: duckdb.DuckDBPyConnection | None = None
_builtins: frozenset[str] = frozenset()


def _parser_connection() -> duckdb.DuckDBPyConnection:
    """A private in-memory connection used only for parsing (created once per process)."""
    global _parser, _builtins
    if _parser is None:
        con = duckdb.connect(
            ":memory:",
            config={
                "enable_external_access": False,
                "autoinstall_known_extensions": False,
                "autoload_known_extensions": False,
                "allow_community_extensions": False,
                "python_enable_replacements": False,
                "threads": 1,
            },
        )
        with contextlib.suppress(duckdb.Error):  # json is statically linked in the Python wheel; make sure it is loaded
            con.execute("LOAD json")
        con.execute("SET lock_configuration = true")
        # The parser database is pristine, so this lists exactly DuckDB's built-in functions:
        # user macros in the environment's file (any schema) are not callable by agents.
        _builtins = frozenset(
            str(r[0]).lower() for r in con.execute("SELECT DISTINCT function_name FROM duckdb_functions()").fetchall()
        )
        _parser = con
    return _parser


def _check_function_name(obj: dict[str, Any]) -> None:
    """Refuse qualified, banned or non-built-in function calls in DuckDB's tree."""
    name = str(obj.get("function_name", ""))
    if obj.get("schema") or obj.get("catalog"):
        raise SqlRefused(f"qualified function names are not allowed ({name})")
    why = banned_function_reason(name, "expression")
    if why:
        raise SqlRefused(f"function {name} is not allowed: {why}")
    if name.lower() not in _builtins:
        raise SqlRefused(f"function {name} is not available: only DuckDB's built-in functions can be used")


def _one_statement(con: duckdb.DuckDBPyConnection, sql: str) -> Any:
    """DuckDB's one statement in `sql` (parsed, not bound), or refuse; call under `_lock`."""
    try:
        statements = con.extract_statements(sql)
    except duckdb.Error as exc:
        raise SqlRefused(f"DuckDB cannot parse this statement: {_first_line(exc)}") from None
    if len(statements) != 1:
        raise SqlRefused("only one statement per call")
    return statements[0]


def _engine_parse(sql: str) -> dict[str, Any]:
    """DuckDB's parse of `sql`: exactly one SELECT-type statement, as a JSON tree."""
    with _lock:
        con = _parser_connection()
        statement = _one_statement(con, sql)
        if statement.type != duckdb.StatementType.SELECT:
            kind = str(statement.type).rsplit(".", 1)[-1]
            raise SqlRefused(f"{kind} statements are not allowed: only SELECT queries can be run")
        try:
            raw = con.execute("SELECT json_serialize_sql(?)", [sql]).fetchone()
        except duckdb.Error as exc:
            raise SqlRefused(f"DuckDB cannot parse this statement: {_first_line(exc)}") from None
    tree: dict[str, Any] = json.loads(raw[0]) if raw and raw[0] else {"error": True, "error_message": "empty"}
    if tree.get("error"):
        raise SqlRefused(f"this statement cannot be verified: {tree.get('error_message', 'unknown')}")
    if len(tree.get("statements", [])) != 1:
        raise SqlRefused("only one statement per call")
    return tree["statements"][0]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


class _Walker:
    """Allow-list walk over DuckDB's JSON syntax tree of one SELECT statement."""

    def __init__(self, allowed: tuple[str, ...]) -> None:
        self.allowed = allowed
        self.approved: set[int] = set()  # ids of catalog refs wrapped in our schema filter

    # -- dispatch ---------------------------------------------------------------------
    def walk(self, obj: Any, scope: frozenset[str]) -> None:
        if isinstance(obj, list):
            for item in obj:
                self.walk(item, scope)
            return
        if not isinstance(obj, dict):
            return
        kind = obj.get("type")
        if "cte_map" in obj and isinstance(kind, str):
            self.query_node(obj, scope)
        elif "class" in obj:
            self.expression(obj, scope)
        elif isinstance(kind, str) and (kind in _TABLE_REF_TYPES or ("sample" in obj and "alias" in obj)):
            self.table_ref(obj, scope)
        elif isinstance(kind, str) and kind.endswith("_NODE"):
            raise SqlRefused(f"statement kind {kind} is not allowed: only SELECT queries can be run")
        else:
            for value in obj.values():
                self.walk(value, scope)

    # -- query nodes ------------------------------------------------------------------
    def query_node(self, node: dict[str, Any], scope: frozenset[str]) -> None:
        kind = node["type"]
        if kind not in _QUERY_NODES:
            raise SqlRefused(
                "writes are not allowed in the read tool (found "
                f"{kind.replace('_QUERY_NODE', '').replace('_NODE', '')} inside the query)"
            )
        entries = (node.get("cte_map") or {}).get("map") or []
        names = [str(e.get("key", "")).lower() for e in entries]
        for i, entry in enumerate(entries):
            body = entry.get("value") or {}
            recursive = (body.get("query_node") or {}).get("type") == "RECURSIVE_CTE_NODE"
            inner = scope | frozenset(names[:i]) | (frozenset({names[i]}) if recursive else frozenset())
            self.walk(body, inner)
        full = scope | frozenset(names)
        if kind == "SELECT_NODE":
            self._approve_catalog_wrapper(node)
        for key, value in node.items():
            if key != "cte_map":
                self.walk(value, full)

    def _approve_catalog_wrapper(self, node: dict[str, Any]) -> None:
        """Approve `SELECT … FROM <catalog relation> WHERE <schema col> IN (<allowed>)`."""
        ref = node.get("from_table")
        if not isinstance(ref, dict):
            return
        column: str | None = None
        if ref.get("type") == "BASE_TABLE" and str(ref.get("schema_name", "")).lower() == "information_schema":
            column = CATALOG_VIEWS.get(str(ref.get("table_name", "")).lower())
        elif ref.get("type") == "TABLE_FUNCTION":
            fn = ref.get("function") or {}
            if not fn.get("arguments"):
                column = CATALOG_FUNCTIONS.get(str(fn.get("function_name", "")).lower())
        if column is None or not self._is_schema_filter(node.get("where_clause"), column):
            return
        self.approved.add(id(ref))

    def _is_schema_filter(self, where: Any, column: str) -> bool:
        if not isinstance(where, dict) or where.get("type") != "COMPARE_IN":
            return False
        children = where.get("children") or []
        if len(children) < 2:
            return False
        col = children[0]
        if col.get("class") != "COLUMN_REF" or [c.lower() for c in col.get("column_names", [])] != [column]:
            return False
        for const in children[1:]:
            lit = const.get("literal") or {}
            if const.get("class") != "CONSTANT" or lit.get("kind") != "STRING":
                return False
            if lit.get("text") not in self.allowed:
                return False
        return True

    # -- table references -------------------------------------------------------------
    def table_ref(self, ref: dict[str, Any], scope: frozenset[str]) -> None:
        kind = ref["type"]
        if kind == "BASE_TABLE":
            self._base_table(ref, scope)
        elif kind == "TABLE_FUNCTION":
            fn = ref.get("function") or {}
            name = str(fn.get("function_name", "")).lower()
            if fn.get("schema") or fn.get("catalog"):
                raise SqlRefused(f"qualified table function {name} is not allowed")
            if not (name in CATALOG_FUNCTIONS and id(ref) in self.approved):
                why = banned_function_reason(name, "table")
                if why or name not in ALLOWED_TABLE_FUNCTIONS or name not in _builtins:
                    raise SqlRefused(
                        f"table function {name} is not allowed: "
                        f"{why or 'only the reviewed generators can be used in FROM'}"
                    )
            self.walk(fn.get("arguments"), scope)
            self.walk(ref.get("sample"), scope)
        elif kind == "SHOW_REF":
            if ref.get("show_type") not in _SHOW_TYPES or ref.get("table_name") or not ref.get("query"):
                raise SqlRefused("SHOW is not allowed: query information_schema.tables instead")
            self.walk(ref.get("query"), scope)
        elif kind in _PASS_THROUGH_REFS:
            for value in ref.values():
                self.walk(value, scope)
        else:
            raise SqlRefused(f"table reference kind {kind} is not allowed")

    def _base_table(self, ref: dict[str, Any], scope: frozenset[str]) -> None:
        schema = str(ref.get("schema_name", ""))
        table = str(ref.get("table_name", ""))
        if ref.get("catalog_name"):
            raise SqlRefused(f"catalog-qualified name {ref['catalog_name']}.{schema}.{table} is not allowed")
        low = schema.lower()
        if not schema:
            if table.lower() not in scope:
                raise SqlRefused(f"table {table} must be schema-qualified with one of your apps")
        elif low == "information_schema":
            if id(ref) not in self.approved:
                raise SqlRefused(f"information_schema.{table} is not available")
        elif not (schema.isascii() and low in self.allowed):
            raise schema_refusal(schema, table, self.allowed)
        elif looks_like_file(table):
            raise SqlRefused(f"table name {schema}.{table} looks like a file: agents cannot read files")
        self.walk(ref.get("at_clause"), scope)
        self.walk(ref.get("sample"), scope)

    # -- expressions ------------------------------------------------------------------
    def expression(self, expr: dict[str, Any], scope: frozenset[str]) -> None:
        if "function_name" in expr:
            _check_function_name(expr)
        if expr.get("class") == "TYPE" and (expr.get("catalog") or expr.get("schema")):
            raise SqlRefused("schema-qualified types are not allowed")
        for value in expr.values():
            self.walk(value, scope)


def crosscheck_read(sql: str, allowed: tuple[str, ...]) -> None:
    """Refuse `sql` unless DuckDB parses it as one harmless SELECT over `allowed` schemas."""
    statement = _engine_parse(sql)
    try:
        _Walker(allowed).walk(statement.get("node"), frozenset())
    except RecursionError:
        raise SqlRefused("SQL is nested too deeply") from None


def crosscheck_write_kind(sql: str, op: str) -> None:
    """Refuse unless DuckDB also sees exactly one statement of kind `op` (insert/update/delete)."""
    with _lock:
        statement = _one_statement(_parser_connection(), sql)
    kind = str(statement.type).rsplit(".", 1)[-1].lower()
    if kind != op:
        raise SqlRefused(f"DuckDB reads this statement as {kind.upper()}, not {op.upper()}")


def crosscheck_row_expression(expr_sql: str, schema: str, table: str) -> None:
    """Refuse a write fragment (WHERE or SET value) unless DuckDB sees a plain row expression.

    The fragment is parsed as `SELECT (<expr>) FROM "schema"."table"`; DuckDB must see
    exactly that: one SELECT over the one base table, no subquery, no table function,
    no banned function, and only unqualified column references.
    """
    quoted = '"' + schema.replace('"', '""') + '"."' + table.replace('"', '""') + '"'
    statement = _engine_parse(f"SELECT ({expr_sql}) FROM {quoted}")
    node = statement.get("node") or {}
    ref = node.get("from_table") or {}
    if (
        node.get("type") != "SELECT_NODE"
        or (node.get("cte_map") or {}).get("map")
        or ref.get("type") != "BASE_TABLE"
        or str(ref.get("schema_name")) != schema
        or str(ref.get("table_name")) != table
        or len(node.get("select_list") or []) != 1
        or any(node.get(k) for k in ("where_clause", "having", "qualify", "group_expressions", "modifiers"))
    ):
        raise SqlRefused("the expression does not stand on its own: it must only use the row's columns")
    try:
        _check_row_expression(node["select_list"][0])
    except RecursionError:
        raise SqlRefused("the expression is nested too deeply") from None


def _check_row_expression(obj: Any) -> None:
    if isinstance(obj, list):
        for item in obj:
            _check_row_expression(item)
        return
    if not isinstance(obj, dict):
        return
    cls = obj.get("class")
    if cls in ("SUBQUERY", "WINDOW", "STAR", "PARAMETER", "LAMBDA"):
        raise SqlRefused(f"{cls.lower()} expressions are not allowed in a write")
    if cls == "COLUMN_REF" and len(obj.get("column_names", [])) != 1:
        raise SqlRefused("column references in a write must be plain column names")
    if "cte_map" in obj or ("sample" in obj and "alias" in obj and "class" not in obj):
        raise SqlRefused("queries are not allowed inside a write")
    if "function_name" in obj:
        _check_function_name(obj)
    for value in obj.values():
        _check_row_expression(value)
