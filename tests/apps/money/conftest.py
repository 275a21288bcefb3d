"""Fixtures for the money apps (banks, payroll, field time): a golden file built from the
fixture book with every money app projected, and fresh environments over it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from fixture_book import build_fixture_golden  # noqa: E402

BANKS = ["bofa_cashpro", "chase_treasury", "wells", "pnc_pinacle"]
ALL_BANKS = [*BANKS, "plaid"]
PAYROLLS = ["foundation_payroll", "adp", "rippling"]
FIELD = ["rhumbix", "busybusy"]
MONEY_APPS = [*ALL_BANKS, *PAYROLLS, *FIELD]
BANK_OF = {"bofa_cashpro": "bofa", "chase_treasury": "chase", "wells": "wells", "pnc_pinacle": "pnc"}


@pytest.fixture(scope="session")
def money_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("money") / "golden.duckdb"
    return build_fixture_golden(out, MONEY_APPS)


@pytest.fixture
def open_env(money_golden: Path):
    """``open_env(["adp"], sql_write=False)`` → an Environment over a fresh copy (closed after the test)."""
    from cfab.runner.environment import Environment

    opened = []

    def make(apps: list[str], sql_write: bool = False):
        env = Environment.open(apps=apps, golden=money_golden, sql_write=sql_write)
        opened.append(env)
        return env

    yield make
    for env in opened:
        env.close()


def guard_rows(env) -> list[tuple]:
    return env.con.execute(
        "SELECT app, tool, executed, valid, reason FROM cfab_internal.guard_log ORDER BY seq").fetchall()


def table_rows(env, table: str) -> set[tuple]:
    return set(env.con.execute(f"SELECT * FROM {table}").fetchall())


def app_digest(env, app: str) -> str:
    """Content digest of one app's schema (cheaper than the whole file's)."""
    from cfab.schema.catalog import content_digest

    return content_digest(env.con, [app])
