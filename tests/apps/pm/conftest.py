"""Fixtures for the PM apps (Procore, RedTeam Go, INGENIOUS.BUILD, Ressio, SmarteBuild).

``pm_golden`` builds a golden file from the hand-made fixture book (pm_fixture_book.py) with hh2,
the five PM apps and, when the ERP archetype is registered, vista_erp (the ERP that Procore
syncs to), exactly as build_golden does: cfab_internal + book + each app's seed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from pm_fixture_book import PM_APPS, build_fixture_golden  # noqa: E402

from cfab.apps.registry import load_all  # noqa: E402
from cfab.apps.world.environment import Environment  # noqa: E402


def erp_available() -> bool:
    return "vista_erp" in load_all()


@pytest.fixture(scope="session")
def pm_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    apps = PM_APPS + (["vista_erp"] if erp_available() else [])
    return build_fixture_golden(tmp_path_factory.mktemp("pm") / "golden.duckdb", apps)


@pytest.fixture
def open_env(pm_golden: Path) -> Iterator[Callable[..., Environment]]:
    opened: list[Environment] = []

    def make(apps: list[str], sql_write: bool = False) -> Environment:
        env = Environment.open(apps=apps, golden=pm_golden, sql_write=sql_write)
        opened.append(env)
        return env

    yield make
    for env in opened:
        env.close()
