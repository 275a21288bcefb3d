"""Fixtures for the PM apps (Procore, RedTeam Go, INGENIOUS.BUILD, Ressio, SmarteBuild).

``pm_golden``: a golden file built from the PM book (tests/fixtures/pm_book.py) with hh2, the five
PM apps and vista_erp (the ERP that Procore syncs to). ``open_env`` opens Environments over it.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from tests.fixtures import pm_book
from tests.fixtures.envs import environments
from tests.fixtures.golden import build_fixture_golden


@pytest.fixture(scope="session")
def pm_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture_golden(
        tmp_path_factory.mktemp("pm") / "golden.duckdb", [*pm_book.PM_APPS, "vista_erp"], book=pm_book.load
    )


@pytest.fixture
def open_env(pm_golden: Path):
    """``open_env(["procore"], sql_write=False)`` → an Environment over a fresh copy (closed after the test)."""
    with environments() as make:
        yield partial(make, pm_golden)
