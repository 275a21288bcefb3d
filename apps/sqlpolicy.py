"""Shared policy for agent SQL: the refusal exception, the names that are never allowed,
the few table functions that are, and the catalog relations that get rewritten.

Everything here is data or tiny pure helpers, used by both static layers
(`cfab.apps.sqlguard`, the sqlglot layer, and `cfab.apps.sqlcrosscheck`, the DuckDB
parser layer) and by the write parser (`cfab.apps.sqlwrite`), so the two layers can
never disagree about *what* is allowed, only about *how* a statement parses.
"""

from __future__ import annotations

import re
from collections.abc import Collection

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

#: Table functions an agent may call in FROM: pure generators over their arguments.
ALLOWED_TABLE_FUNCTIONS: frozenset[str] = frozenset(
    {"range", "generate_series", "unnest", "json_each", "json_tree"}
)

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

# Exact function names (lower case) that are refused anywhere, with the reason shown.
_BANNED_EXACT: dict[str, str] = {
    "query": "agents cannot run SQL text from inside SQL",
    "query_table": "agents cannot run SQL text from inside SQL",
    "json_execute_serialized_sql": "agents cannot run SQL text from inside SQL",
    "glob": "agents cannot list or read files",
    "sniff_csv": "agents cannot list or read files",
    "nextval": "sequences cannot be advanced or read by agents",
    "currval": "sequences cannot be advanced or read by agents",
    "setval": "sequences cannot be advanced or read by agents",
    "getenv": "agents cannot read the environment or settings",
    "getvariable": "agents cannot read the environment or settings",
    "current_setting": "agents cannot read the environment or settings",
    "load_extension": "extensions cannot be loaded",
    "sleep_ms": "agents cannot pause the engine",
    "pg_sleep": "agents cannot pause the engine",
    "write_log": "agents cannot write to the engine log",
    "parse_duckdb_log_message": "agents cannot read the engine log",
    "checkpoint": "maintenance functions are not available",
    "force_checkpoint": "maintenance functions are not available",
    "which_secret": "agents cannot inspect secrets",
    "summary": "use SELECT with aggregates instead",
    "pg_get_viewdef": "agents cannot read catalog definitions",
    "pg_get_expr": "agents cannot read catalog definitions",
    "pg_get_constraintdef": "agents cannot read catalog definitions",
    "col_description": "agents cannot read catalog definitions",
    "repeat_row": "use range() instead",
    "test_all_types": "test functions are not available",
    "test_vector_types": "test functions are not available",
}

# Name patterns refused anywhere (checked after the exact names).
_BANNED_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^read_"), "agents cannot read files"),
    (re.compile(r"_scan$"), "agents cannot scan files or other databases"),
    (re.compile(r"_metadata$"), "agents cannot read file metadata"),
    (re.compile(r"^parquet_"), "agents cannot read files"),
    (re.compile(r"^(pragma_|duckdb_)"), "engine catalog and pragma functions are not available"),
    (re.compile(r"^(enable|disable|truncate)_"), "engine settings cannot be changed"),
    (re.compile(r"^__"), "internal functions are not available"),
    (re.compile(r"^has_.*privilege$"), "privilege functions are not available"),
    (re.compile(r"(^|_)(secrets?|extensions?)(_|$)"), "engine internals are not available"),
    (re.compile(r"^(register|deregister|destroy|create)_external_"), "engine internals are not available"),
    (re.compile(r"grammar_extension"), "engine internals are not available"),
)


#: Names DuckDB would try to read as a file when no such table exists (replacement scans
#: also fire for qualified names: `procore.csv` reads ./procore.csv).
_FILE_SUFFIXES: frozenset[str] = frozenset({
    "csv", "tsv", "txt", "json", "jsonl", "ndjson", "parquet", "arrow", "feather", "avro", "orc",
    "xlsx", "xls", "duckdb", "db", "sqlite", "sqlite3", "gz", "zst", "zstd", "bz2", "xz", "zip",
    "tar", "blob", "text", "wal", "tmp",
})


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


def banned_function_reason(name: str) -> str | None:
    """Why the function `name` may never be called by an agent, or None if it may."""
    low = name.strip().lower()
    if low in _BANNED_EXACT:
        return _BANNED_EXACT[low]
    for pattern, why in _BANNED_PATTERNS:
        if pattern.search(low):
            return why
    return None


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
    return SqlRefused(
        f"table {schema}.{table} is not readable: schema {schema} is not one of your apps: {apps}"
    )
