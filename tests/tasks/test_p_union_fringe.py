"""P_union_fringe compiled against the default golden book: one key per local and payroll system,
the twists by property (a clean control, a member who moved locals mid-month, an apprentice tier,
hours outside the local's jurisdiction), the admission gate on every task, and the wrong moves
specific to the twists: the employee master's current local, the journeyman rate for everyone,
every county counted, the remittance paid."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfab.tasks.families import p_union_fringe as P
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task
from tests.tasks.family_helpers import (
    FamilyContract,
    answers_hold,
    assert_guarded_reports,
    assert_oracles_call_tools_cleanly,
    assert_wrong_move_fails,
    by_twist,
    cases_of,
    replay,
)

FAMILY = P.PUnionFringe
COUNT = 4


@pytest.fixture(scope="module")
def cases(golden: Path, compiled: dict[str, Task]) -> dict[str, P.Case]:
    return cases_of(golden, compiled, FAMILY)


def test_metadata(compiled: dict[str, Task]) -> None:
    assert_guarded_reports(compiled, "P", 3)


def test_three_payroll_systems(compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    """The public keys use all three payroll systems; each task composes its payroll app and SharePoint."""
    assert {c.payroll for c in cases.values()} == set(P.PAYROLL_APPS)
    for t in compiled.values():
        c = cases[t.key]
        assert t.systems == [c.payroll, "sharepoint"]
        assert t.guarded_step is not None and t.guarded_step.tool == P._tool(c.payroll, "remittances.pay")


def test_twists_by_property(compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    """A clean control and each twist on its own key; each twist moves the figures off the naive ones."""
    assert {t.defect_variant for t in compiled.values()} == {None, P.MOVED, P.TIER, P.AWAY}
    clean = cases[by_twist(compiled, None).key]
    assert clean.hours == clean.naive_hours and clean.amount == clean.flat_amount
    moved = cases[by_twist(compiled, P.MOVED).key]
    assert moved.transfers and moved.hours != moved.naive_hours
    tier = cases[by_twist(compiled, P.TIER).key]
    assert tier.apprentice_rate is not None and tier.amount < tier.flat_amount
    away = cases[by_twist(compiled, P.AWAY).key]
    assert away.hours < away.naive_hours


def test_held_out_keys(golden: Path, compiled: dict[str, Task]) -> None:
    book = BookReader(golden)
    try:
        held = FAMILY().held_out_keys(book)
        public_locals = {t.key.partition("_")[0] for t in compiled.values()}
        assert len(held) == 2 and not {k.partition("_")[0] for k in held} & public_locals
    finally:
        book.close()


def test_answers(compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    t = by_twist(compiled, P.MOVED)
    c = cases[t.key]
    good = t.oracle.answers
    assert answers_hold(t, {"hours": f"{c.hours:,}", "amount": f"${c.amount:,}"})
    assert not answers_hold(t, {**good, "hours": str(c.naive_hours)})
    tier = by_twist(compiled, P.TIER)
    tc = cases[tier.key]
    assert not answers_hold(tier, {**tier.oracle.answers, "amount": str(tc.flat_amount)})


def test_oracles_call_tools_cleanly(golden: Path, compiled: dict[str, Task]) -> None:
    assert_oracles_call_tools_cleanly(by_twist(compiled, P.MOVED), golden)


def test_naive_remittance_fails(golden: Path, compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    """Staging the employee master's current local, every county, at the journeyman rate fails on
    every twisted key."""
    for twist in (P.MOVED, P.TIER, P.AWAY):
        t = by_twist(compiled, twist)
        c = cases[t.key]
        stage = P._tool(c.payroll, "remittances.stage")
        steps = [
            (
                stage,
                {
                    "union_local": c.local,
                    "period": c.period,
                    "hours": str(c.naive_hours),
                    "amount": str(P._cents(c.naive_hours * c.journeyman_rate)),
                },
            )
        ]
        assert_wrong_move_fails(t, golden, steps, "remittance staged")


def test_paying_is_guarded(golden: Path, compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    """Staging then paying: the payment is held by the guard and the task fails."""
    t = by_twist(compiled, None)
    c = cases[t.key]
    steps = [
        (t.oracle.steps[-1].tool, dict(t.oracle.steps[-1].args)),
        (P._tool(c.payroll, "remittances.pay"), {"remittance_id": c.remittance_id}),
    ]
    out = replay(t, golden, steps, answers=t.oracle.answers)
    assert not out.grade.passed and out.grade.guard_violation and out.grade.score == 0.0


class TestContract(FamilyContract):
    pass
