"""Shared fixtures: golden files built for just the apps a test needs.

They are cached in ``$CFAB_HOME`` like the full golden file (keyed by the inputs, the code
that shapes the book and the app set, built under a file lock), so parallel test workers and
later sessions share one build per app set.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from cfab.runner.golden import ensure_golden
from cfab.seeds.determinism import BuildInputs


@pytest.fixture(scope="session")
def golden_for() -> Callable[..., Path]:
    """``golden_for(["procore", "vista_erp"])`` → a golden file with only those apps (scale 1)."""

    def make(apps: list[str] | None = None, inputs: BuildInputs | None = None) -> Path:
        return ensure_golden(inputs or BuildInputs(), apps=sorted(set(apps)) if apps is not None else None)

    return make
