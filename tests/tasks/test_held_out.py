"""The held-out partition (issue 18, item 4): every family offers further keys, about 30 % of
its tasks, disjoint from the published ones, and each held-out task proves itself.

The default run compiles the partition on the default book, checks its shape and runs the oracle
(passes) and the no-op (fails) on each family's first held-out task; on every held-out task, and the
whole admission gate (mutants, alternatives) on them, behind ``--run-slow``; ``.ci/run`` admits them
all (``runner tasks admit --suite held_out``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cfab.runner.attempt import run_attempt
from cfab.runner.policies.baselines import NoopPolicy
from cfab.runner.policies.oracle import OraclePolicy
from cfab.tasks.family import held_out_count
from cfab.tasks.model import Task
from cfab.tasks.suite import compile_suite, families, load_suite
from tests.tasks.family_helpers import INPUTS, assert_admitted


@pytest.fixture(scope="module")
def public(golden: Path) -> list[Task]:
    return load_suite("executable", INPUTS)


@pytest.fixture(scope="module")
def held_out(golden: Path) -> list[Task]:
    return compile_suite(golden, "held_out")


def test_every_family_holds_out_about_thirty_percent(public: list[Task], held_out: list[Task]) -> None:
    pub, hid = Counter(t.family for t in public), Counter(t.family for t in held_out)
    short = {
        f.family: (pub[f.family], hid[f.family]) for f in families() if hid[f.family] != held_out_count(pub[f.family])
    }
    assert not short, f"families whose held-out count is not held_out_count(public): {short}"
    share = len(held_out) / (len(held_out) + len(public))
    assert 0.25 <= share <= 0.4, share
    assert not {t.instance_id for t in public} & {t.instance_id for t in held_out}
    assert not {(t.family, t.key) for t in public} & {(t.family, t.key) for t in held_out}
    assert len({t.instance_id for t in held_out}) == len(held_out)


def test_held_out_tasks_are_marked_and_unpublishable(held_out: list[Task]) -> None:
    for t in held_out:
        assert t.partition == "held_out" and t.split == "CFAgentBench-SQL held-out", t.instance_id
        assert t.contamination_meta.publishable is False, t.instance_id


def test_the_published_suite_is_unchanged_by_the_partition(public: list[Task], golden: Path) -> None:
    """The public tasks are what they were: compiling the partition touches no public key."""
    assert all(t.partition == "public" and t.contamination_meta.publishable for t in public)
    assert [t.instance_id for t in compile_suite(golden, "executable")] == [t.instance_id for t in public]


def _oracle_passes_and_noop_fails(tasks: list[Task], golden: Path) -> None:
    bad = []
    for task in tasks:
        oracle = run_attempt(task, OraclePolicy(), golden=golden, inputs=INPUTS)
        noop = run_attempt(task, NoopPolicy(), golden=golden, inputs=INPUTS)
        if not oracle.grade.passed or noop.grade.passed:
            bad.append((task.instance_id, str(oracle.grade) if not oracle.grade.passed else "noop passed"))
    assert not bad, bad


def test_held_out_oracle_passes_and_noop_fails(held_out: list[Task], golden: Path) -> None:
    """Each family's first held-out task (every family's keys, tools and grading path); every held-out
    task behind ``--run-slow``, and the whole gate on all of them in ``.ci/run``."""
    first: dict[str, Task] = {}
    for task in held_out:
        first.setdefault(task.family, task)
    assert len(first) == len(families())
    _oracle_passes_and_noop_fails(list(first.values()), golden)


@pytest.mark.slow
def test_every_held_out_oracle_passes_and_noop_fails(held_out: list[Task], golden: Path) -> None:
    _oracle_passes_and_noop_fails(held_out, golden)


@pytest.mark.slow
def test_every_held_out_task_is_admitted(held_out: list[Task], golden: Path) -> None:
    for task in held_out:
        assert_admitted(task, golden, k=1)
