"""Fixtures for the conformance suite: the real golden file (all 35 apps, in the golden cache
shared with tests/views; environments composing a few apps copy its cached per-apps template)
and environments shared per session so the folder stays fast."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cfab.apps.world.environment import Environment
from cfab.apps.world.golden import ensure_golden
from cfab.seeds.determinism import BuildInputs
from tests.conformance.conformance_helpers import file_sha256, group_apps


@pytest.fixture(scope="session")
def full_golden() -> Iterator[Path]:
    """The golden file with every app (built once into the golden cache, like tests/views);
    its bytes must be the same after every test that used it."""
    path = ensure_golden(BuildInputs())
    before = file_sha256(path)
    yield path
    assert file_sha256(path) == before, "the golden file's bytes changed during the conformance tests"


@pytest.fixture(scope="session")
def all_env(full_golden: Path) -> Iterator[Environment]:
    """One environment with all 35 apps and the SQL write tool (shared; tests may change it)."""
    env = Environment.open(golden=full_golden, sql_write=True)
    yield env
    env.close()


@pytest.fixture(scope="session")
def group_env(full_golden: Path) -> Iterator[Callable[[str], Environment]]:
    """``group_env("erp_a")``: one environment per app group for the whole session."""
    opened: dict[str, Environment] = {}

    def get(group: str) -> Environment:
        if group not in opened:
            opened[group] = Environment.open(apps=group_apps(group), golden=full_golden, sql_write=True)
        return opened[group]

    yield get
    for env in opened.values():
        env.close()
