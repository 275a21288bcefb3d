"""Shared policy for agent SQL: the refusal exception, the function allow-list lookup
(`cfab.apps.sandbox.functions`, reviewed data in functions.toml), the few table functions
allowed in FROM, and the catalog relations that get rewritten.

Everything here is data or tiny pure helpers, used by both static layers
(`cfab.apps.sandbox.read`, the sqlglot layer, and `cfab.apps.sandbox.crosscheck`, the DuckDB
parser layer) and by the write parser (`cfab.apps.sandbox.write`), so the two layers can
never disagree about *what* is allowed, only about *how* a statement parses.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from cfab.apps.sandbox.functions import function_refusal, policy

__all__ = [
    "SqlRefused",
    "HIDDEN_SCHEMAS",
    "RESERVED_SCHEMAS",
    "ALLOWED_TABLE_FUNCTIONS",
    "CATALOG_VIEWS",
    "CATALOG_FUNCTIONS",
    "MAX_SQL_CHARS",
    "normalize_allowed",
    "banned_function_reason",
    "function_call_name",
    "SYNTAX_HEADS",
    "schema_refusal",
    "looks_like_file",
]

#: Longest SQL text accepted by the guard (characters).
MAX_SQL_CHARS = 32_000  # parsing cost grows with size and is not under the query timer

#: Schemas that hold the hidden ground truth and the environment's own bookkeeping.
HIDDEN_SCHEMAS: frozenset[str] = frozenset({"book", "cfab_internal"})

#: Schemas an attempt may never be composed with (hidden, system or default schemas).
RESERVED_SCHEMAS: frozenset[str] = HIDDEN_SCHEMAS | frozenset(
    {"information_schema", "pg_catalog", "main", "temp", "system", "memory"}
)

#: Table functions an agent may call in FROM: pure generators over their arguments
#: (the reviewed list's `allowed_table.generators`).
ALLOWED_TABLE_FUNCTIONS: frozenset[str] = policy().categories["allowed_table.generators"]

#: information_schema views that are rewritten to a filtered subquery, and the column
#: holding the schema name in each. Any other information_schema view is refused.
CATALOG_VIEWS: dict[str, str] = {
    "tables": "table_schema",
    "columns": "table_schema",
    "schemata": "schema_name",
    "table_constraints": "table_schema",
    "key_column_usage": "table_schema",
}

#: duckdb_* catalog table functions that are rewritten the same way (column = schema).
CATALOG_FUNCTIONS: dict[str, str] = {
    "duckdb_tables": "schema_name",
    "duckdb_columns": "schema_name",
    "duckdb_schemas": "schema_name",
    "duckdb_constraints": "schema_name",
}
if set(CATALOG_FUNCTIONS) != policy().categories["allowed_table.catalog"]:
    raise RuntimeError("functions.toml allowed_table.catalog must list exactly the rewritten catalog functions")

#: Names DuckDB would try to read as a file when no such table exists (replacement scans
#: also fire for qualified names: `procore.csv` reads ./procore.csv).
_FILE_SUFFIXES: frozenset[str] = frozenset(
    {
        "csv",
        "tsv",
        "txt",
        "json",
        "jsonl",
        "ndjson",
        "parquet",
        "arrow",
        "feather",
        "avro",
        "orc",
        "xlsx",
        "xls",
        "duckdb",
        "db",
        "sqlite",
        "sqlite3",
        "gz",
        "zst",
        "zstd",
        "bz2",
        "xz",
        "zip",
        "tar",
        "blob",
        "text",
        "wal",
        "tmp",
    }
)


def looks_like_file(name: str) -> bool:
    """True for table names DuckDB might resolve to a file or URL instead of a table."""
    low = name.lower()
    return any(ch in name for ch in "/\\.:*?~$[]{}") or low in _FILE_SUFFIXES


class SqlRefused(ValueError):
    """Raised when agent SQL is refused; `reason` is a one-line, agent-readable message."""

    def __init__(self, reason: str) -> None:
        # Agent-written names are echoed in reasons: keep them on one printable line.
        text = " ".join("".join(ch if ch.isprintable() else " " for ch in str(reason)).split())
        if len(text) > 400:
            text = text[:397] + "..."
        super().__init__(text)
        self.reason = text


def banned_function_reason(name: str, context: str = "expression") -> str | None:
    """Why the built-in function `name` may not be called by an agent in `context`
    ("expression" or "table"), or None if it may.

    An allow-list (`cfab.apps.sandbox.functions`, data in functions.toml): a name nobody
    reviewed is refused too, with a message saying so."""
    return function_refusal(name, context)  # type: ignore[arg-type]


#: sqlglot renders these typed nodes as syntax that DuckDB's parser does not turn into a
#: function call (CAST(x AS T), EXTRACT(f FROM d), COALESCE, …): no name to look up.
SYNTAX_HEADS: frozenset[str] = frozenset(
    {
        "cast",
        "try_cast",
        "extract",
        "coalesce",
        "columns",
        "exists",
        "grouping",
        "grouping_id",
        "unpack",
    }
)

_HEAD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def function_call_name(node: Any) -> str | None:
    """The name DuckDB will look up for a sqlglot function node, lower case, as the
    rendered SQL calls it (`exp.Anonymous` keeps the agent's spelling; a typed node such
    as `exp.Transform` is rendered, LIST_TRANSFORM(...)). None when the node renders as
    syntax (operators, CAST, CASE, literals) rather than as a call."""
    from sqlglot import exp
    from sqlglot.errors import ErrorLevel

    if isinstance(node, exp.Anonymous):
        return str(node.name).lower()
    shallow = (
        node.copy()
        if len(node.args) <= 0
        else type(node)(
            **{
                k: (exp.Null() if isinstance(v, exp.Expression) else v)
                for k, v in node.args.items()
                if not isinstance(v, list)
            }
            | {k: [exp.Null() for _ in v] for k, v in node.args.items() if isinstance(v, list)}
        )
    )
    try:
        text = shallow.sql(dialect="duckdb", comments=False, unsupported_level=ErrorLevel.IGNORE)
    except Exception:  # a generator that needs its real arguments
        text = node.sql(dialect="duckdb", comments=False, unsupported_level=ErrorLevel.IGNORE)
    match = _HEAD.match(text)
    if not match:
        return None
    head = match.group(1).lower()
    return None if head in SYNTAX_HEADS else head


def normalize_allowed(allowed_schemas: Collection[str]) -> tuple[str, ...]:
    """Lower-case, de-duplicate and sort the composed app schemas.

    A reserved schema (book, cfab_internal, information_schema, main, …) in the list is a
    programming error of the caller, not an agent mistake, so it raises ValueError.
    """
    if isinstance(allowed_schemas, str):
        raise ValueError("allowed_schemas must be a collection of schema names, not a string")
    out: set[str] = set()
    for name in allowed_schemas:
        low = str(name).strip().lower()
        if not low or not low.isascii() or not re.fullmatch(r"[a-z_][a-z0-9_]*", low):
            raise ValueError(f"invalid app schema name: {name!r}")
        if low in RESERVED_SCHEMAS:
            raise ValueError(f"schema {low!r} can never be exposed to agent SQL")
        out.add(low)
    return tuple(sorted(out))


def schema_refusal(schema: str, table: str, allowed: tuple[str, ...]) -> SqlRefused:
    """The refusal for a table in a schema outside the attempt's apps."""
    apps = ", ".join(allowed) if allowed else "(none)"
    return SqlRefused(f"table {schema}.{table} is not readable: schema {schema} is not one of your apps: {apps}")
