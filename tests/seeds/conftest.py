"""Books built once per session: the default scale-1 book and a scale-3 book (in memory)."""

from __future__ import annotations

import duckdb
import pytest

from cfab.seeds import BuildInputs
from tests.seeds.seeds_helpers import fresh_book


@pytest.fixture(scope="session")
def book() -> duckdb.DuckDBPyConnection:
    return fresh_book(BuildInputs())


@pytest.fixture(scope="session")
def book3() -> duckdb.DuckDBPyConnection:
    return fresh_book(BuildInputs(scale=3))
