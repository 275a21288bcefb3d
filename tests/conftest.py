"""Shared fixtures: golden files built for just the apps a test needs (cached per session)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from cfab.runner.golden import build_golden
from cfab.seeds.determinism import BuildInputs


@pytest.fixture(scope="session")
def golden_for(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """``golden_for(["procore", "vista_erp"])`` → a golden file with only those apps (scale 1)."""
    cache: dict[tuple, Path] = {}

    def make(apps: list[str] | None = None, inputs: BuildInputs | None = None) -> Path:
        inputs = inputs or BuildInputs()
        key = (tuple(sorted(apps)) if apps is not None else None, inputs)
        if key not in cache:
            out = tmp_path_factory.mktemp("golden") / "golden.duckdb"
            build_golden(inputs, out, apps=sorted(apps) if apps is not None else None)
            cache[key] = out
        return cache[key]

    return make
