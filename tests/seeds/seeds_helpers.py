"""Helpers shared by the seeds tests."""

from __future__ import annotations

from datetime import date

import duckdb

from cfab.seeds import BuildInputs, build_book

CLOCK = date(2026, 1, 31)


def fresh_book(inputs: BuildInputs) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    build_book(con, inputs)
    return con


def rows(con: duckdb.DuckDBPyConnection, sql: str, *params: object) -> list[tuple]:
    return con.execute(sql, list(params)).fetchall()


def one(con: duckdb.DuckDBPyConnection, sql: str, *params: object) -> object:
    return con.execute(sql, list(params)).fetchone()[0]
