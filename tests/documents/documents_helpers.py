"""Helpers shared by the document tests (imported by basename, so the name is unique)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from cfab.schema.catalog import schema_ddl

HERE = Path(__file__).parent


def make_fixture_book() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB holding the hand-made fixture book (schema/book.sql + fixture_book.sql)."""
    con = duckdb.connect()
    con.execute(schema_ddl("book"))
    con.execute((HERE / "fixture_book.sql").read_text(encoding="utf-8"))
    return con
