"""The app catalog of a DuckDB database: tables, column types, primary keys.

Only app schemas count: every schema except :data:`NON_APP_SCHEMAS` (or an explicit list).
Names keep the case DuckDB stores; lookups are case-insensitive because DuckDB identifiers
are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import duckdb

NON_APP_SCHEMAS = frozenset({"book", "cfab_internal", "main", "information_schema", "pg_catalog", "temp", "system"})


@dataclass(frozen=True)
class TableInfo:
    """One app table: ``schema.name``, its columns (name, DuckDB type) and PK columns."""

    schema: str
    name: str
    columns: tuple[tuple[str, str], ...]
    pk: tuple[str, ...]

    @property
    def qualified(self) -> str:
        return f"{self.schema}.{self.name}"

    @property
    def types(self) -> dict[str, str]:
        return dict(self.columns)


def quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def quote_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def is_app_schema(schema: str, schemas: Iterable[str] | None = None) -> bool:
    """App schemas: every schema outside :data:`NON_APP_SCHEMAS`, or those in ``schemas``."""
    if schemas is not None:
        return schema.lower() in {s.lower() for s in schemas}
    return schema.lower() not in NON_APP_SCHEMAS


def read_catalogs(con: duckdb.DuckDBPyConnection, databases: Iterable[str]) -> dict[str, dict[str, TableInfo]]:
    """Every base table of each database, keyed by database then lower-cased
    ``schema.table`` (all schemas; filter with :func:`is_app_schema`). Three catalog
    queries in all, whatever the number of databases."""
    dbs = list(dict.fromkeys(databases))
    marks = ", ".join("?" for _ in dbs)
    tables = con.execute(
        f"SELECT database_name, schema_name, table_name FROM duckdb_tables() "
        f"WHERE database_name IN ({marks}) AND NOT temporary",
        dbs,
    ).fetchall()
    cols = con.execute(
        f"SELECT database_name, schema_name, table_name, column_name, data_type "
        f"FROM duckdb_columns() WHERE database_name IN ({marks}) "
        f"ORDER BY database_name, schema_name, table_name, column_index",
        dbs,
    ).fetchall()
    pks = con.execute(
        f"SELECT database_name, schema_name, table_name, constraint_column_names "
        f"FROM duckdb_constraints() WHERE database_name IN ({marks}) "
        f"AND constraint_type = 'PRIMARY KEY'",
        dbs,
    ).fetchall()
    by_table: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    for d, s, t, c, ty in cols:
        by_table.setdefault((d, s, t), []).append((c, ty))
    pk_of = {(d, s, t): tuple(names) for d, s, t, names in pks}
    out: dict[str, dict[str, TableInfo]] = {d: {} for d in dbs}
    for d, s, t in sorted(tables):
        info = TableInfo(s, t, tuple(by_table.get((d, s, t), ())), pk_of.get((d, s, t), ()))
        out[d][info.qualified.lower()] = info
    return out


def read_catalog(
    con: duckdb.DuckDBPyConnection, database: str | None = None, schemas: Iterable[str] | None = None
) -> dict[str, TableInfo]:
    """Base tables of the app schemas of ``database`` (default: the current database),
    keyed by lower-cased ``schema.table``."""
    if database is None:
        database = str(con.execute("SELECT current_database()").fetchall()[0][0])
    wanted = None if schemas is None else list(schemas)
    return {k: v for k, v in read_catalogs(con, [database])[database].items() if is_app_schema(v.schema, wanted)}


def catalog_mapping(source: Mapping[str, Mapping[str, str]] | duckdb.DuckDBPyConnection) -> dict[str, dict[str, str]]:
    """``'app.table' → {column: type}`` from a mapping or a connection to a golden file."""
    if isinstance(source, duckdb.DuckDBPyConnection):
        return {info.qualified: info.types for info in read_catalog(source).values()}
    return {str(k): {str(c): str(t) for c, t in v.items()} for k, v in source.items()}
