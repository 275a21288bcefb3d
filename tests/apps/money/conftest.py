"""Fixtures for the money apps (banks, payroll, field time): a golden file built from the
money book with every money app projected, and fresh environments over it."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from tests.apps.money.money_helpers import MONEY_APPS
from tests.fixtures import money_book
from tests.fixtures.envs import environments
from tests.fixtures.golden import build_fixture_golden


@pytest.fixture(scope="session")
def money_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture_golden(tmp_path_factory.mktemp("money") / "golden.duckdb", MONEY_APPS, book=money_book.load)


@pytest.fixture
def open_env(money_golden: Path):
    """``open_env(["adp"], sql_write=False)`` → an Environment over a fresh copy (closed after the test)."""
    with environments() as make:
        yield partial(make, money_golden)
