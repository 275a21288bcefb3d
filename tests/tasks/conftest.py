"""Fixtures for the task tests.

``golden``: the default golden book (built once into the golden cache; looked up per module, so a
module that starts after the code changed uses that code's book). A family's test module
(tests/tasks/test_<family id>.py) names its family: ``FAMILY`` (the class), ``KEYS`` (its keys,
exactly) or ``COUNT`` (how many, when the keys are chosen by property), and optionally
``OVER_EAGER_KEYS`` (the tasks the over-eager policies run on; the first key by default). Its
``compiled`` fixture is then that family compiled, and its ``TestContract(FamilyContract)`` runs
the checks every family passes, one ``task`` per key. The whole admission gate (mutants,
alternatives) runs on the family's first key in the quick tier and on every key with
``--run-slow``; every other key's oracle and no-op run in both (``.ci/run`` admits the whole packaged
suite with ``runner tasks admit``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cfab.apps.world.golden import ensure_golden
from cfab.tasks.model import Task
from tests.tasks.family_helpers import INPUTS, OVER_EAGER, compile_family


@pytest.fixture(scope="module")
def golden() -> Path:
    return ensure_golden(INPUTS)


@pytest.fixture(scope="module")
def compiled(request: pytest.FixtureRequest, golden: Path) -> dict[str, Task]:
    """The module's ``FAMILY`` compiled against the golden book, by instance id, in key order."""
    mod = request.module
    tasks = compile_family(golden, mod.FAMILY, getattr(mod, "KEYS", None))
    if hasattr(mod, "COUNT"):
        assert len(tasks) == mod.COUNT, list(tasks)
    return tasks


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``task_index``: each task of the module's family (ids: its keys when known); ``over_eager``:
    (task index, policy) for the ``OVER_EAGER_KEYS`` and both over-eager policies."""
    mod = metafunc.module
    keys = getattr(mod, "KEYS", None)
    if "task_index" in metafunc.fixturenames:
        indexes = range(len(keys) if keys else mod.COUNT)
        if metafunc.definition.get_closest_marker("sample_in_quick_tier"):
            # The whole gate on every task is the slow tier's (and .ci/run's `runner tasks admit`);
            # the quick tier runs it on the family's first key.
            params = [pytest.param(i, marks=() if i == 0 else pytest.mark.slow) for i in indexes]
            metafunc.parametrize("task_index", params, ids=keys)
        elif metafunc.definition.get_closest_marker("beyond_the_quick_tier_sample"):
            # The first key's oracle and no-op already run in its admission, in every tier.
            rest = [i for i in indexes if i != 0]
            metafunc.parametrize("task_index", rest, ids=[keys[i] for i in rest] if keys else None)
        else:
            metafunc.parametrize("task_index", indexes, ids=keys)
    if "over_eager" in metafunc.fixturenames:
        chosen = getattr(mod, "OVER_EAGER_KEYS", None)
        indexes = [keys.index(k) for k in chosen] if chosen else [0]
        cases = [(i, policy) for i in indexes for policy in OVER_EAGER.values()]
        ids = [f"{keys[i] if keys else i}-{name}" for i in indexes for name in OVER_EAGER]
        metafunc.parametrize("over_eager", cases, ids=ids)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A family of one key has no key beyond its admitted first: its empty case is deselected
    (rather than reported as a skip)."""
    empty = [
        item
        for item in items
        if item.get_closest_marker("beyond_the_quick_tier_sample")
        and not isinstance(getattr(item, "callspec", None) and item.callspec.params.get("task_index"), int)
    ]
    if empty:
        config.hook.pytest_deselected(items=empty)
        items[:] = [item for item in items if item not in empty]
