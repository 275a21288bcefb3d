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

from cfab.runner.golden import ensure_composed, ensure_golden
from cfab.seeds.determinism import BuildInputs


@pytest.fixture(scope="session")
def golden_for() -> Callable[..., Path]:
    """``golden_for(["procore", "vista_erp"])`` → a golden file with only those apps (scale 1)."""

    def make(apps: list[str] | None = None, inputs: BuildInputs | None = None) -> Path:
        golden = ensure_golden(inputs or BuildInputs())
        return golden if apps is None else ensure_composed(golden, sorted(set(apps)))

    return make
