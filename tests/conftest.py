"""Test tiers and shared fixtures.

Tiers: the default run is the quick tier. Tests marked ``slow`` (one golden book per case, or a
second whole build) run with ``--run-slow``, or alone with ``-m slow``. Tests marked ``fuzz``
(Hypothesis properties, fuzzers and state machines) run in every tier; the Hypothesis profile
sets their depth: ``default`` runs each test's own small count, derandomized (the same examples
every run, no example database), ``fuzz`` (``--hypothesis-profile fuzz``) ten times as many
random examples, keeping failures in ``.hypothesis/`` to replay first. ``--run-fuzz`` is
``-m fuzz --hypothesis-profile fuzz``: the fuzz campaign alone.

Fixtures: golden files holding just the apps a test needs. They are derived from the one full
golden file (built once per code version and cached in ``$CFAB_HOME`` under a file lock) the way
attempts derive their templates: the same rows of the same apps, the book carried along, so a
test session pays for one build however many app sets its tests use.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

from cfab.apps.world.golden import ensure_composed, ensure_golden
from cfab.seeds.determinism import BuildInputs

_HYPOTHESIS = settings.get_profile("default")  # Hypothesis's own defaults (random, with an example database)
settings.register_profile("default", parent=_HYPOTHESIS, derandomize=True, database=None, deadline=None)
settings.register_profile("fuzz", parent=_HYPOTHESIS, max_examples=10 * _HYPOTHESIS.max_examples, deadline=None)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="also run the tests marked slow (e.g. every family compiled at eleven seeds and three "
        "clocks: one golden book each); `-m slow` runs only those",
    )
    parser.addoption(
        "--run-fuzz",
        action="store_true",
        default=False,
        help="the fuzz campaign: only the tests marked fuzz (unless -m says otherwise), under the "
        "Hypothesis profile fuzz (ten times the examples, random); the same as "
        "`-m fuzz --hypothesis-profile fuzz`",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--run-fuzz"):
        settings.load_profile("fuzz")
        if not config.option.markexpr:
            config.option.markexpr = "fuzz"


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
