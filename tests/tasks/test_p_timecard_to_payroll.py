"""P_timecard_to_payroll compiled against the default golden book: one key per field-time app x
payroll system pair, the twists by property (a clean control, a card with no cost code, a
terminated worker's cards, a prevailing-wage job whose rate the determination sets), the admission
gate on every task, and the wrong moves specific to the twists: the held cards approved, the
hours staged without the import, the gross reported at the employees' own rates."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfab.tasks.families import p_timecard_to_payroll as P
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
)

FAMILY = P.PTimecardToPayroll
COUNT = 6
# The busy employee's extra writes (the tools' example arguments) are idempotent here: re-importing
# the same week and re-staging the batch the oracle staged change nothing; only the release is caught.
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True


@pytest.fixture(scope="module")
def cases(golden: Path, compiled: dict[str, Task]) -> dict[str, P.Case]:
    return cases_of(golden, compiled, FAMILY)


def test_metadata(compiled: dict[str, Task]) -> None:
    assert_guarded_reports(compiled, "P", 3)


def test_every_pair_is_graded(compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    """Six keys, six field-time x payroll pairs; each task composes exactly its pair and SharePoint."""
    pairs = {(c.field, c.payroll) for c in cases.values()}
    assert pairs == {(f, p) for f in P.FIELD_APPS for p in P.PAYROLL_APPS}
    for t in compiled.values():
        c = cases[t.key]
        assert t.systems == [c.field, c.payroll, "sharepoint"]
        assert c.payroll in t.guarded_step.tool


def test_twists_by_property(compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    """A clean control, and each twist on its own key: the held cards are exactly the planted ones."""
    variants = {t.defect_variant for t in compiled.values()}
    assert {None, "no_cost_code", "terminated_worker", "prevailing_wage_rate"} <= variants
    for c in cases.values():
        for h in c.holds:
            assert (h["hold"] == "no_cost_code") == (h["cost_code"].strip() == "")
        if any(h["hold"] == "terminated_worker" for h in c.holds):
            assert c.terminated
        assert len(c.ok) >= 3
    pw = cases[by_twist(compiled, "prevailing_wage_rate").key]
    assert pw.raised and pw.base_gross < pw.gross


def test_held_out_keys(golden: Path, compiled: dict[str, Task]) -> None:
    book = BookReader(golden)
    try:
        fam = FAMILY()
        held = fam.held_out_keys(book)
        assert len(held) == 3 and not set(held) & {t.key for t in compiled.values()}
        assert len({k.partition("_")[0] for k in held} | {t.key.partition("_")[0] for t in compiled.values()}) == 9
    finally:
        book.close()


def test_answers(compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    pw = by_twist(compiled, "prevailing_wage_rate")
    c = cases[pw.key]
    good = pw.oracle.answers
    assert answers_hold(pw, {**good, "regular_hours": f"{c.regular}", "gross_pay": f"${c.gross:,}"})
    assert not answers_hold(pw, {**good, "gross_pay": str(c.base_gross)})
    clean = by_twist(compiled, None)
    assert answers_hold(clean, {**clean.oracle.answers, "left_pending": []})
    held = by_twist(compiled, "no_cost_code")
    assert not answers_hold(held, {**held.oracle.answers, "left_pending": []})


def test_oracles_call_tools_cleanly(golden: Path, compiled: dict[str, Task]) -> None:
    assert_oracles_call_tools_cleanly(by_twist(compiled, "terminated_worker"), golden)


def test_held_cards_approved_fail(golden: Path, compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    """Approving the blank-coded card or the terminated worker's cards fails on the policy's entry
    (and the terminated worker's earnings line), however the payroll is staged."""
    for twist in ("no_cost_code", "terminated_worker"):
        t = by_twist(compiled, twist)
        c = cases[t.key]
        steps = [
            (P._tool(c.field, "timecards.approve_many"), {"timecard_ids": [x["timecard_id"] for x in c.cards]}),
            (P._tool(c.payroll, "hours.import"), {"week_ending": c.week.isoformat(), "source": c.field}),
            (P._tool(c.payroll, "batches.stage"), {"batch_id": c.batch_id}),
        ]
        assert_wrong_move_fails(t, golden, steps, "the policy holds")
        if twist == "terminated_worker":
            assert_wrong_move_fails(t, golden, steps, "terminated employee")


def test_staged_without_import_fails(golden: Path, compiled: dict[str, Task], cases: dict[str, P.Case]) -> None:
    t = by_twist(compiled, None)
    c = cases[t.key]
    steps = [
        (P._tool(c.field, "timecards.approve_many"), {"timecard_ids": [x["timecard_id"] for x in c.ok]}),
        (P._tool(c.payroll, "batches.stage"), {"batch_id": c.batch_id}),
    ]
    assert_wrong_move_fails(t, golden, steps, "staged")


class TestContract(FamilyContract):
    pass
