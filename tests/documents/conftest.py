"""Fixtures for the document tests: a small hand-made book (schema/book.sql + fixture_book.sql)
and, when the generator has landed, the real scale-1 book."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pytest
from documents_helpers import make_fixture_book


@pytest.fixture(scope="module")
def book() -> Iterator[duckdb.DuckDBPyConnection]:
    """The fixture book, shared by a module; tests that change it do so in a transaction
    they roll back (see ``mutable_book``)."""
    con = make_fixture_book()
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
    """The generated scale-1 book, or a skip saying why it is not available yet."""
    try:
        from cfab.seeds import build_book  # type: ignore[attr-defined]
    except ImportError as exc:
        pytest.skip(f"cfab.seeds.build_book is not available yet ({exc}); the fixture book covers the renderers")
    from cfab.seeds.determinism import BuildInputs

    con = duckdb.connect()
    build_book(con, BuildInputs())
    if con.execute("SELECT count(*) FROM book.documents").fetchone()[0] == 0:
        pytest.skip("the generated book has no rows in book.documents yet")
    yield con
    con.close()
