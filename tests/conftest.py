"""Shared fixtures: golden files holding just the apps a test needs.

They are derived from the one full golden file (built once per code version and cached in
``$CFAB_HOME`` under a file lock) the way attempts derive their templates: the same rows of
the same apps, the book carried along, so a test session pays for one build however many app
sets its tests use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from cfab.apps.world.golden import ensure_composed, ensure_golden
from cfab.seeds.determinism import BuildInputs


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", default=False,
                     help="also run the tests marked slow (e.g. every family compiled at ten seeds and three "
                          "clocks: one golden book each); `-m slow` runs only those")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run with ``--run-slow`` or when ``-m`` names the marker; else they are skipped."""
    if config.getoption("--run-slow") or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow (or -m slow)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def golden_for() -> Callable[..., Path]:
    """``golden_for(["procore", "vista_erp"])`` → a golden file with only those apps (scale 1)."""

    def make(apps: list[str] | None = None, inputs: BuildInputs | None = None) -> Path:
        golden = ensure_golden(inputs or BuildInputs())
        return golden if apps is None else ensure_composed(golden, sorted(set(apps)))

    return make
