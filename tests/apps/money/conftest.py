"""Fixtures for the money apps (banks, payroll, field time): a golden file built from the
fixture book with every money app projected, and fresh environments over it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from money_fixture_book import build_fixture_golden  # noqa: E402
from money_helpers import MONEY_APPS  # noqa: E402


@pytest.fixture(scope="session")
def money_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("money") / "golden.duckdb"
    return build_fixture_golden(out, MONEY_APPS)


@pytest.fixture
def open_env(money_golden: Path):
    """``open_env(["adp"], sql_write=False)`` → an Environment over a fresh copy (closed after the test)."""
    from cfab.apps.world.environment import Environment

    opened = []

    def make(apps: list[str], sql_write: bool = False):
        env = Environment.open(apps=apps, golden=money_golden, sql_write=sql_write)
        opened.append(env)
        return env

    yield make
    for env in opened:
        env.close()
