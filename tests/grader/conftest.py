"""Fixtures for the grader tests (files built by :mod:`grader_helpers`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.grader.grader_helpers import build_golden


@pytest.fixture(scope="session")
def golden_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_golden(tmp_path_factory.mktemp("golden") / "golden.duckdb")


@pytest.fixture()
def golden(tmp_path: Path, golden_master: Path) -> Path:
    dest = tmp_path / "golden.duckdb"
    shutil.copyfile(golden_master, dest)
    return dest


@pytest.fixture()
def attempt(tmp_path: Path, golden: Path) -> Path:
    dest = tmp_path / "attempt.duckdb"
    shutil.copyfile(golden, dest)
    return dest
