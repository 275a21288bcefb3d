"""Fixtures for the ERP archetype: one golden over the fixture book with hh2 and all eight ERPs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from erp_fixture_book import ERPS, build_fixture_golden  # noqa: E402


@pytest.fixture(scope="session")
def erp_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("erp") / "golden.duckdb"
    return build_fixture_golden(out, ERPS)


@pytest.fixture
def open_env(erp_golden: Path):
    from cfab.apps.world.environment import Environment

    opened = []

    def make(apps: list[str], sql_write: bool = False):
        env = Environment.open(apps=["hh2", *apps], golden=erp_golden, sql_write=sql_write)
        opened.append(env)
        return env

    yield make
    for env in opened:
        env.close()
