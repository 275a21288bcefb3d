"""Fixtures for the ERP archetype: one golden over the ERP book with hh2 and all eight ERPs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures import erp_book
from tests.fixtures.envs import environments
from tests.fixtures.golden import build_fixture_golden


@pytest.fixture(scope="session")
def erp_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture_golden(tmp_path_factory.mktemp("erp") / "golden.duckdb", erp_book.ERPS, book=erp_book.load)


@pytest.fixture
def open_env(erp_golden: Path):
    """``open_env(["cmic"], sql_write=False)`` → an Environment with hh2 and those apps (closed after the test)."""
    with environments() as make:
        yield lambda apps, sql_write=False: make(erp_golden, ["hh2", *apps], sql_write)
