"""SQL boolean expressions in predicates: parsed and refused with sqlglot, run in DuckDB.

An expression is parsed once (duckdb dialect) and must be a single scalar expression over
columns: no statements, subqueries, table references, ``*``, parameters, aggregates or
window functions, no functions that read files, reach the network, read settings or the
environment, or are non-deterministic (``read_*``, ``glob``, ``query``, ``getenv``,
``current_*``, ``now``, ``random``, ``nextval``, …). Column references are rewritten to
internal aliases, so the SQL DuckDB finally runs is generated from the checked tree, never
the raw text; it runs on a per-thread in-memory connection with external access disabled
and configuration locked, over a relation holding only the rows being graded.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import duckdb
import pyarrow as pa
import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from .catalog import quote_ident
from .values import cast_back_sql, sql_type_for

_DENY_NAMES = {
    "glob",
    "query",
    "query_table",
    "sniff_csv",
    "getenv",
    "getvariable",
    "nextval",
    "currval",
    "setseed",
    "rand",
    "random",
    "uuid",
    "uuidv4",
    "uuidv7",
    "gen_random_uuid",
    "now",
    "today",
    "get_current_time",
    "get_current_timestamp",
    "transaction_timestamp",
    "localtime",
    "localtimestamp",
    "load",
    "install",
    "checkpoint",
    "force_checkpoint",
    "current_setting",
    "txid_current",
    "version",
    "system",
    "shell",
    "sql_auto_complete",
    "which_secret",
    "summary",
    "from_substrait",
    "get_substrait",
    "json_execute_serialized_sql",
    "json_serialize_sql",
    "json_deserialize_sql",
    "read_blob",
    "read_text",
    "range_table",
    "unnest",
    "generate_subscripts",
    "stats",
    "error",
}
_DENY_PREFIXES = (
    "read_",
    "parquet_",
    "iceberg_",
    "delta_",
    "sqlite_",
    "postgres_",
    "mysql_",
    "duckdb_",
    "pragma_",
    "pg_",
    "has_",
    "current_",
    "http",
    "s3",
    "write_",
    "copy",
    "export",
    "import",
    "test_",
    "icu_",
    "tpch",
    "tpcds",
    "fts_",
)
_DENY_NODES: tuple[type[exp.Expr], ...] = (
    exp.Query,
    exp.Subquery,
    exp.Table,
    exp.From,
    exp.Join,
    exp.Star,
    exp.Placeholder,
    exp.Parameter,
    exp.Window,
    exp.AggFunc,
    exp.Command,
    exp.DDL,
    exp.DML,
    exp.Into,
    exp.Pragma,
    exp.Set,
    exp.Use,
    exp.Block,
)
_NODE_WORDS = {
    exp.Query: "queries",
    exp.Subquery: "subqueries",
    exp.Table: "table references",
    exp.Star: "'*'",
    exp.Placeholder: "parameters",
    exp.Window: "window functions",
    exp.AggFunc: "aggregate functions",
    exp.Block: "multiple statements",
}


class UnsafeExpression(ValueError):
    """The expression is not a plain boolean expression over columns."""


def _func_name(node: exp.Func) -> str:
    return (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()


def parse_expression(text: str) -> exp.Expr:
    """Parse and vet one expression; raises :class:`UnsafeExpression` with the reason."""
    if not isinstance(text, str) or not text.strip():
        raise UnsafeExpression("empty SQL expression")
    try:
        tree = sqlglot.parse_one(text, read="duckdb")
    except SqlglotError as e:
        raise UnsafeExpression(f"cannot parse SQL expression {text!r}: {e}") from None
    if tree is None:
        raise UnsafeExpression(f"cannot parse SQL expression {text!r}")
    for node in tree.walk():
        if isinstance(node, _DENY_NODES):
            word = next((w for k, w in _NODE_WORDS.items() if isinstance(node, k)), f"{type(node).__name__} nodes")
            raise UnsafeExpression(f"{word} are not allowed in a predicate: {text!r}")
        if isinstance(node, exp.Func):
            name = _func_name(node)
            if name in _DENY_NAMES or name.startswith(_DENY_PREFIXES):
                raise UnsafeExpression(f"function {name}() is not allowed in a predicate: {text!r}")
        if isinstance(node, exp.Column) and (node.args.get("db") or node.args.get("catalog")):
            raise UnsafeExpression(f"column reference {node.sql()} has too many parts: {text!r}")
    return tree


def _lambda_params(node: exp.Expr) -> set[str]:
    names: set[str] = set()
    parent = node.parent
    while parent is not None:
        if isinstance(parent, exp.Lambda):
            names |= {e.name.lower() for e in parent.expressions}
        parent = parent.parent
    return names


_SIDES = ("before", "after")


def _ref_of(col: exp.Column) -> tuple[str | None, str, str | None] | None:
    """(side, column, struct field) of a column node; None for a lambda parameter.

    ``before.X``/``after.X`` name a side; any other qualifier is a struct field access
    (``Doc.size`` on a BLOB column, which predicates see as a struct(sha256, size))."""
    if not col.table:
        return None if col.name.lower() in _lambda_params(col) else (None, col.name, None)
    if col.table.lower() in _SIDES:
        return col.table.lower(), col.name, None
    return None, col.table, col.name


def column_refs(tree: exp.Expr) -> list[tuple[str | None, str]]:
    """``(side, column)`` pairs the expression references (side: before/after/None)."""
    out: list[tuple[str | None, str]] = []
    for col in tree.find_all(exp.Column):
        ref = _ref_of(col)
        if ref is not None and ref[:2] not in out:
            out.append(ref[:2])
    return out


def rewrite(tree: exp.Expr, resolve: Callable[[str | None, str], str]) -> str:
    """DuckDB SQL for ``tree`` with every column replaced by ``resolve(side, name)``."""

    def fix(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Column):
            ref = _ref_of(node)
            if ref is None:
                return node
            new = exp.column(resolve(ref[0], ref[1]), quoted=True)
            if ref[2] is None:
                return new
            return exp.Dot(this=new, expression=exp.to_identifier(ref[2]))
        return node

    return tree.copy().transform(fix).sql(dialect="duckdb")


# --------------------------------------------------------------------------- execution

_local = threading.local()


def eval_connection() -> duckdb.DuckDBPyConnection:
    """This thread's locked-down connection for predicate evaluation."""
    con = getattr(_local, "con", None)
    if con is None:
        con = duckdb.connect(config={"enable_external_access": False})
        con.execute("SET lock_configuration = true")
        _local.con = con
    return con


def _typed_select(columns: Sequence[tuple[str, str, str]], source: str | None) -> str:
    """``SELECT`` of ``cast_sql`` AS alias for (alias, cast_sql, type) columns."""
    if not columns:
        return f"SELECT 1 AS __cfab_dummy{'' if source is None else ' FROM ' + source}"
    body = ", ".join(f"{cast} AS {quote_ident(alias)}" for alias, cast, _ in columns)
    return f"SELECT {body}" + ("" if source is None else f" FROM {source}")


def result_type(sql: str, columns: Sequence[tuple[str, str]]) -> str:
    """DuckDB's type of ``sql`` over typed NULL columns (alias, declared type): binds,
    never runs on data. Raises :class:`duckdb.Error` on unknown columns or functions."""
    cols = [(a, f"CAST(NULL AS {sql_type_for(t)})", t) for a, t in columns]
    rows = (
        eval_connection().execute(f"DESCRIBE SELECT ({sql}) AS __r FROM ({_typed_select(cols, None)}) __row").fetchall()
    )
    return str(rows[0][1]) if rows else ""


def evaluate(sql: str, columns: Sequence[tuple[str, str]], rows: Sequence[dict[str, Any]]) -> list[bool]:
    """Evaluate ``sql`` once per row. ``columns``: (alias, declared DuckDB type); each row
    maps alias → :func:`to_text` of the normalised value (or None); the text is cast back
    to the column's type (BLOB → struct(sha256, size)). A NULL result counts as False."""
    if not rows:
        return []
    con = eval_connection()
    name = f"__cfab_rows_{uuid.uuid4().hex[:12]}"
    data: dict[str, Any] = {"__i": pa.array(range(len(rows)), type=pa.int64())}
    for alias, _ in columns:
        data[f"v_{alias}"] = pa.array([r.get(alias) for r in rows], type=pa.string())
    body = ", ".join(["__i"] + [f"{cast_back_sql(quote_ident('v_' + a), t)} AS {quote_ident(a)}" for a, t in columns])
    con.register(name, pa.table(data))
    try:
        hits = {
            r[0] for r in con.execute(f"SELECT __i FROM (SELECT {body} FROM {name}) __row WHERE ({sql})").fetchall()
        }
    finally:
        con.unregister(name)
    return [i in hits for i in range(len(rows))]
