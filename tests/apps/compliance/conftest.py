"""Fixtures for the PayApp, Lien/CertPayroll/Tax and estimating apps.

``fixture_golden``: a golden file built from the fixture book (tests/fixtures/book.sql) with hh2
and every app of this folder, so the tools, views, rules and guard run end to end on known rows.
``generated_golden``: the same apps on the generated book.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from tests.fixtures.envs import environments
from tests.fixtures.golden import build_fixture_golden

MY_APPS = ["gcpay", "levelset", "lcptracker", "avalara", "track1099", "corpay", "hcss_heavybid"]


@pytest.fixture(scope="session")
def fixture_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture_golden(tmp_path_factory.mktemp("compliance") / "golden.duckdb", MY_APPS)


@pytest.fixture
def open_env(fixture_golden: Path):
    """``open_env(["gcpay"])`` → an Environment over a fresh copy (closed after the test)."""
    with environments() as make:
        yield partial(make, fixture_golden)


@pytest.fixture(scope="session")
def generated_golden(golden_for: Callable[..., Path]) -> Path:
    return golden_for(["hh2", *MY_APPS])
