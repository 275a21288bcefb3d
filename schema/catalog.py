"""Packaged DDL, catalog introspection and the canonical content digest.

DDL files are read with ``importlib.resources`` (never ``__file__`` paths): ``book.sql``,
``cfab_internal.sql`` and one ``<app>.sql`` per app schema.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import duckdb
import sqlglot
from sqlglot import exp

HIDDEN_SCHEMAS = frozenset({"book", "cfab_internal"})
SYSTEM_SCHEMAS = frozenset({"main", "information_schema", "pg_catalog", "temp", "system"})


def sql_resource(package: str, name: str) -> str:
    """Text of a packaged ``.sql`` file, e.g. ``sql_resource("cfab.schema", "book.sql")``."""
    ref = resources.files(package).joinpath(name)
    if not ref.is_file():
        raise FileNotFoundError(f"no SQL resource {name!r} in package {package}")
    return ref.read_text(encoding="utf-8")


def has_sql_resource(package: str, name: str) -> bool:
    return resources.files(package).joinpath(name).is_file()


def schema_ddl(name: str) -> str:
    """DDL of one schema: ``book``, ``cfab_internal`` or an app name."""
    return sql_resource("cfab.schema", f"{name}.sql")


@lru_cache(maxsize=256)
def _statements(script: str) -> tuple[str, ...]:
    """``script`` split into its statements, each as DuckDB SQL (parsed once per process: an app's
    DDL is run for every composed file)."""
    return tuple(s.sql(dialect="duckdb") for s in sqlglot.parse(script, read="duckdb") if s is not None)


def run_script(con: duckdb.DuckDBPyConnection, script: str) -> None:
    """Execute a multi-statement SQL script statement by statement (clear errors per statement)."""
    for sql in _statements(script):
        try:
            con.execute(sql)
        except duckdb.Error as exc:  # name the statement that failed
            head = sql if len(sql) < 300 else sql[:300] + " ..."
            raise RuntimeError(f"{exc}\n  while executing: {head}") from exc


def defer_primary_keys(script: str) -> tuple[str, list[str]]:
    """``script`` with each table-level ``PRIMARY KEY (...)`` clause taken out, and the
    ``ALTER TABLE ... ADD PRIMARY KEY (...)`` statements that put them back (for loading a
    table before its key index exists; DuckDB's catalog entry comes out the same). Column-level
    keys (``id BIGINT PRIMARY KEY``) stay where they are."""
    statements, keys = [], []
    for statement in sqlglot.parse(script, read="duckdb"):
        if statement is None:
            continue
        schema = statement.this if isinstance(statement, exp.Create) and statement.kind == "TABLE" else None
        if isinstance(schema, exp.Schema):
            for pk in [e for e in schema.expressions if isinstance(e, exp.PrimaryKey)]:
                cols = ", ".join(c.sql(dialect="duckdb") for c in pk.expressions)
                pk.pop()
                keys.append(f"ALTER TABLE {schema.this.sql(dialect='duckdb')} ADD PRIMARY KEY ({cols})")
        statements.append(statement.sql(dialect="duckdb") + ";")
    return "\n".join(statements), keys


@dataclass(frozen=True)
class TableInfo:
    """One table: qualified name, ordered columns with DuckDB types, primary key columns."""

    schema: str
    name: str
    columns: dict[str, str]
    pk: tuple[str, ...]

    @property
    def qualified(self) -> str:
        return f"{self.schema}.{self.name}"

    def column(self, name: str) -> str:
        """The column's declared spelling (case-insensitive lookup); KeyError naming it if absent."""
        for col in self.columns:
            if col.lower() == name.lower():
                return col
        raise KeyError(f"{self.qualified} has no column {name!r}; columns: {', '.join(self.columns)}")

    def table_expr(self) -> exp.Table:
        return exp.table_(exp.to_identifier(self.name, quoted=True), db=exp.to_identifier(self.schema, quoted=True))


@dataclass
class Catalog:
    """Tables of a database file by qualified name (lookups are case-insensitive)."""

    tables: dict[str, TableInfo] = field(default_factory=dict)

    @classmethod
    def load(
        cls, con: duckdb.DuckDBPyConnection, schemas: Iterable[str] | None = None, database: str | None = None
    ) -> Catalog:
        wanted = {s.lower() for s in schemas} if schemas is not None else None
        db_filter = "database_name = current_database()" if database is None else "database_name = ?"
        params = [] if database is None else [database]
        cols = con.execute(
            f"""SELECT schema_name, table_name, column_name, data_type
                FROM duckdb_columns() WHERE {db_filter}
                ORDER BY schema_name, table_name, column_index""",
            params,
        ).fetchall()
        pks = con.execute(
            f"""SELECT schema_name, table_name, constraint_column_names
                FROM duckdb_constraints() WHERE {db_filter} AND constraint_type = 'PRIMARY KEY'""",
            params,
        ).fetchall()
        pk_map = {(s, t): tuple(c) for s, t, c in pks}
        grouped: dict[tuple[str, str], dict[str, str]] = {}
        for s, t, c, ty in cols:
            if s in SYSTEM_SCHEMAS:
                continue
            if wanted is not None and s.lower() not in wanted:
                continue
            grouped.setdefault((s, t), {})[c] = ty
        cat = cls()
        for (s, t), columns in grouped.items():
            info = TableInfo(schema=s, name=t, columns=columns, pk=pk_map.get((s, t), ()))
            cat.tables[info.qualified.lower()] = info
        return cat

    def get(self, qualified: str) -> TableInfo:
        try:
            return self.tables[qualified.lower()]
        except KeyError:
            raise KeyError(f"unknown table {qualified!r}") from None

    def __contains__(self, qualified: str) -> bool:
        return qualified.lower() in self.tables

    def in_schema(self, schema: str) -> list[TableInfo]:
        return sorted(
            (t for t in self.tables.values() if t.schema.lower() == schema.lower()), key=lambda t: t.name.lower()
        )

    def schemas(self) -> list[str]:
        return sorted({t.schema for t in self.tables.values()})


def table_fingerprint(con: duckdb.DuckDBPyConnection, info: TableInfo, database: str | None = None) -> tuple[int, int]:
    """``(count(*), sum(hash(row))::HUGEINT)`` — a sum, not XOR, so duplicate rows don't cancel."""
    tbl = info.table_expr()
    if database is not None:
        tbl.set("catalog", exp.to_identifier(database, quoted=True))
    query = exp.select("count(*)", "coalesce(sum(hash(t))::HUGEINT, 0)").from_(tbl.as_("t"))
    row = con.execute(query.sql(dialect="duckdb")).fetchone()
    assert row is not None  # an aggregate without GROUP BY returns exactly one row
    count, total = row
    return int(count), int(total)


def content_digest(
    con: duckdb.DuckDBPyConnection,
    schemas: Iterable[str] | None = None,
    exclude: Iterable[str] = ("cfab_internal",),
    workers: int = 1,
) -> str:
    """Canonical content digest of a database: independent of file bytes and insertion order.

    Covers every table of ``schemas`` (default: all but ``exclude``): its qualified name, its
    column names and types, its row count and the sum of its row hashes. ``workers`` > 1
    fingerprints tables on that many cursors at once (same digest).
    """
    cat = Catalog.load(con, schemas)
    skip = {s.lower() for s in exclude}
    infos = [cat.tables[key] for key in sorted(cat.tables) if cat.tables[key].schema.lower() not in skip]
    if workers > 1 and len(infos) > 1:
        from concurrent.futures import ThreadPoolExecutor

        local = threading.local()
        cursors: list[duckdb.DuckDBPyConnection] = []

        def fingerprint(info: TableInfo) -> tuple[int, int]:
            cur = getattr(local, "cur", None)
            if cur is None:
                cur = local.cur = con.cursor()
                cursors.append(cur)
            return table_fingerprint(cur, info)

        try:
            with ThreadPoolExecutor(workers) as pool:
                prints = list(pool.map(fingerprint, infos))
        finally:
            for cur in cursors:
                cur.close()
    else:
        prints = [table_fingerprint(con, info) for info in infos]
    h = hashlib.sha256()
    for info, (count, total) in zip(infos, prints, strict=True):
        cols = ",".join(f"{c}:{t}" for c, t in info.columns.items())
        h.update(f"{info.qualified}|{cols}|{count}|{total}\n".encode())
    return h.hexdigest()
