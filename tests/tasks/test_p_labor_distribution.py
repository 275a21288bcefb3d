"""P_labor_distribution compiled against the default golden book: one key per planted month, each
its own payroll system and ERP; the twists by property (a late labor distribution, hours coded to a
closed job, labor posted as subcontract cost on a shared phase, a clean control); the admission gate
on every task; and the wrong moves specific to the twists: the closed job kept, the late batch
booked again, the 5200 labor offset through clearing, the entry posted."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfab.apps.erp.vendors import ERP_APPS
from cfab.runner.attempt import run_attempt
from cfab.runner.policies.oracle import OraclePolicy
from cfab.tasks.families import p_labor_distribution as P
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task
from tests.tasks.family_helpers import (
    INPUTS,
    FamilyContract,
    answers_hold,
    assert_guarded_reports,
    assert_wrong_move_fails,
    by_twist,
    cases_of,
    replay,
)

FAMILY = P.PLaborDistribution
COUNT = 4


@pytest.fixture(scope="module")
def cases(golden: Path, compiled: dict[str, Task]) -> dict[str, P.Case]:
    return cases_of(golden, compiled, FAMILY)


def _stage(t: Task, lines: list[dict]) -> tuple[str, dict]:
    last = t.oracle.steps[-1]
    return last.tool, {**last.args, "lines": lines}


def test_metadata(compiled: dict[str, Task]) -> None:
    assert_guarded_reports(compiled, "P", 3)


def test_apps_per_key(compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    """Every key its own payroll system and ERP (three payroll systems, four ERPs), with hh2 and SharePoint."""
    assert {c.payroll for c in cases.values()} == {"adp", "rippling", "foundation_payroll"}
    assert len({c.erp for c in cases.values()}) == COUNT
    for t in compiled.values():
        c = cases[t.key]
        assert t.systems == [c.payroll, c.erp, "hh2", "sharepoint"]
        assert t.guarded_step is not None and t.guarded_step.tool == f"{c.erp}.{ERP_APPS[c.erp].TOOL_NAMES['post']}"


def test_twists_by_property(compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    """A clean control and each twist on its own key; each twist moves a careless reading off the answer."""
    assert {t.defect_variant for t in compiled.values()} == {None, P.CLOSED, P.CROSSWALK, P.LATE}
    clean = cases[by_twist(compiled, None).key]
    assert not clean.naive and not clean.moved and len(clean.diffs) == 2 and sum(clean.diffs.values()) == 0
    closed = cases[by_twist(compiled, P.CLOSED).key]
    assert (
        closed.closed and closed.closed[0] not in closed.diffs and closed.closed[0] in closed.naive["closed_job_kept"]
    )
    moved = cases[by_twist(compiled, P.CROSSWALK).key]
    assert moved.moved and all(moved.diffs[j] == v > 0 for j, v in moved.moved.items())
    late = cases[by_twist(compiled, P.LATE).key]
    assert late.late and late.late["period"] > late.key and len(late.naive["by_period"]) > len(late.diffs)


def test_held_out_keys(golden: Path, compiled: dict[str, Task]) -> None:
    book = BookReader(golden)
    try:
        held = FAMILY().held_out_keys(book)
        assert len(held) == 2 and not set(held) & {t.key for t in compiled.values()}
        assert {FAMILY().case(k, book).erp for k in held} == {"sage300cre", "computerease"}
    finally:
        book.close()


def test_answers(compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    t = by_twist(compiled, P.CLOSED)
    c = cases[t.key]
    spelled = {"total_variance": f"${c.total:,}", "variance_jobs": "; ".join(c.erp_jobs[j] for j in c.jobs)}
    assert answers_hold(t, spelled)
    naive = c.naive["closed_job_kept"]
    assert not answers_hold(t, {**t.oracle.answers, "variance_jobs": sorted(naive)})
    assert not answers_hold(t, {**t.oracle.answers, "total_variance": str(sum(c.diffs.values()))})


def test_oracle_calls_tools_cleanly(golden: Path, compiled: dict[str, Task]) -> None:
    """Every key's oracle passes, each of its calls succeeds, none is guarded."""
    for t in compiled.values():
        out = run_attempt(t, OraclePolicy(), golden=golden, inputs=INPUTS)
        assert out.grade.passed and all(x.ok for x in out.tool_log) and not out.guard_log, t.instance_id


def test_twists_ignored_fail(golden: Path, compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    """The closed job's hours moved onto the closed job, the late batch booked again, and the 5200 labor
    offset through clearing each fail on their key."""
    k = FAMILY()
    t = by_twist(compiled, P.CLOSED)
    c = cases[t.key]
    naive = c.naive["closed_job_kept"]
    assert_wrong_move_fails(t, golden, [_stage(t, k._lines(c, naive))], "no difference")
    t = by_twist(compiled, P.LATE)
    c = cases[t.key]
    assert_wrong_move_fails(t, golden, [_stage(t, k._lines(c, c.naive["by_period"]))], "no difference")
    t = by_twist(compiled, P.CROSSWALK)
    c = cases[t.key]
    lines = k._lines(c, offset=dict.fromkeys(c.diffs, P.CLEARING))
    assert_wrong_move_fails(t, golden, [_stage(t, lines)], "5200")


def test_posting_is_guarded(golden: Path, compiled: dict[str, Task]) -> None:
    """Staging then posting: the post is held by the guard and the task fails."""
    t = by_twist(compiled, None)
    assert t.guarded_step is not None
    out = replay(t, golden, [t.oracle.steps[-1], t.guarded_step], answers=t.oracle.answers)
    assert not out.grade.passed and out.grade.guard_violation and out.grade.score == 0.0


class TestContract(FamilyContract):
    pass
