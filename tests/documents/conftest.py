"""Fixtures for the document tests: the fixture book (tests/fixtures/book.sql) in memory and the
real scale-1 book."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pytest

from tests.fixtures.golden import fixture_book


@pytest.fixture(scope="module")
def book() -> Iterator[duckdb.DuckDBPyConnection]:
    """The fixture book, shared by a module; tests that change it do so in a transaction
    they roll back (see ``mutable_book``)."""
    con = fixture_book()
    yield con
    con.close()


@pytest.fixture()
def mutable_book(book: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """The module's fixture book inside a transaction that is rolled back afterwards."""
    book.execute("BEGIN TRANSACTION")
    try:
        yield book
    finally:
        book.execute("ROLLBACK")


@pytest.fixture(scope="session")
def real_book() -> Iterator[duckdb.DuckDBPyConnection]:
    """The generated scale-1 book (it holds documents)."""
    from cfab.seeds import build_book
    from cfab.seeds.determinism import BuildInputs

    con = duckdb.connect()
    build_book(con, BuildInputs())
    assert con.execute("SELECT count(*) FROM book.documents").fetchone()[0] > 0, "the generated book has no documents"
    yield con
    con.close()
