"""P_certified_payroll compiled against the default golden book: keys and metadata, the flags
against the book's planted exceptions, the typed answers, the admission gate on every task, and
the policies (and a few specific wrong moves) that must fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfab.tasks.families import p_certified_payroll as P
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep
from tests.tasks.family_helpers import (
    FamilyContract,
    answers_hold,
    assert_guarded_reports,
    assert_oracles_call_tools_cleanly,
    assert_wrong_move_fails,
)

FAMILY = P.PCertifiedPayroll
PAPER_KEYS = ["1042", "2041", "2014", "2200", "1990", "3100"]
KEYS = [*PAPER_KEYS, "1636"]  # + the first further WH-347 (seeds/cert_extra.py: a misclassified line)
OVER_EAGER_KEYS = PAPER_KEYS


@pytest.fixture(scope="module")
def facts(golden: Path) -> dict:
    """The week's payroll of each job, its line checks and planted exceptions, read once."""
    book = BookReader(golden)
    try:
        week = book.q(P.FAMILY, "cert_week")[0]["week_ending"]
        lines, planted, pays = {}, {}, {}
        for job in KEYS:
            pay = pays[job] = book.q(P.FAMILY, "payroll", project_id=job, week_ending=week)[0]
            lines[job] = book.q(P.FAMILY, "line_checks", payroll_id=pay["payroll_id"])
            planted[job] = book.q(P.FAMILY, "planted", payroll_id=pay["payroll_id"])
        return {"lines": lines, "planted": planted, "pay": pays}
    finally:
        book.close()


def test_metadata(compiled: dict[str, Task]) -> None:
    assert_guarded_reports(compiled, "P", 3)


def test_flags_are_the_planted_exceptions(compiled: dict[str, Task], facts: dict) -> None:
    for job, lines in facts["lines"].items():
        found = {(ln["employee_id"], ln["code"]) for ln in lines if ln["code"]}
        planted = {(p["lcp_employee_id"], P.BOOK_KIND_TO_CODE[p["kind"]]) for p in facts["planted"][job]}
        assert found == planted, job
        task = compiled[f"cf_P_certified_payroll_{job}"]
        flagged = {
            (e.where["line_number"], e.where["code"])
            for e in task.ground_truth.expected
            if isinstance(e.where, dict) and "code" in e.where
        }
        assert flagged == {(ln["line_number"], ln["code"]) for ln in lines if ln["code"]}
        assert task.defect_variant == ("+".join(sorted(c for _, c in planted)) or None)
    assert not facts["planted"]["2041"] and not facts["planted"]["1990"]
    # the clean weeks' trap: an apprentice paid far below the journeyman base, at the registered percentage
    for job in ("2041", "1990"):
        apprentices = [ln for ln in facts["lines"][job] if ln["level"] == "Apprentice"]
        assert apprentices and all(ln["rate_paid"] < ln["wd_base"] for ln in apprentices)
        assert all(ln["rate_paid"] >= ln["required_rate"] for ln in apprentices)
    # the ratio twist is a single day
    ratio = [ln for ln in facts["lines"]["2014"] if ln["code"] == "apprentice_ratio"]
    assert len(ratio) == 1 and len(ratio[0]["days_over"]) == 1


def test_answers(compiled: dict[str, Task], facts: dict) -> None:
    """P asks for the determination, the line count, the flagged workers and the finding. A clean
    week's right report is the determination, the count, no worker and ``compliant``; the trap
    apprentice reported, a count off by one, the previous modification or a contradicting finding
    fail. A dirty week's report names the flagged worker (id, name or line) and the policy's code;
    "compliant", the lookalike line's worker, or no worker fail."""
    clean = compiled["cf_P_certified_payroll_2041"]
    lines = facts["lines"]["2041"]
    pay = facts["pay"]["2041"]
    wd, num, mod, n = pay["decision_id"], pay["wd_number"], pay["modification"], pay["line_count"]
    assert n == len(lines)
    appr = next(ln for ln in lines if ln["level"] == "Apprentice")
    assert {a.name: a.type for a in clean.ground_truth.answers} == {
        "wage_determination": "id",
        "lines_reviewed": "count",
        "flagged_workers": "id_list",
        "finding": "choice",
    }
    for a in clean.ground_truth.answers:
        assert f"`{a.name}`" in clean.instruction
    right = {"wage_determination": wd, "lines_reviewed": n, "flagged_workers": [], "finding": "compliant"}
    for given in (
        right,
        {**right, "wage_determination": f"{num} mod {mod}", "lines_reviewed": "eight"},
        {
            **right,
            "wage_determination": num,
            "lines_reviewed": str(n),
            "flagged_workers": "",
            "finding": "No exceptions",
        },
        {**right, "wage_determination": f"{num} Modification {mod}", "finding": "clean"},
    ):
        assert answers_hold(clean, given), given
    for given in (
        {**right, "flagged_workers": [appr["employee_id"]], "finding": "underpayment"},
        {**right, "flagged_workers": [appr["employee_id"]]},
        {**right, "lines_reviewed": n - 1},
        {**right, "lines_reviewed": n + 1},
        {**right, "wage_determination": f"{num}-mod{int(mod) - 1}"},
        {**right, "finding": "underpayment"},
        {**right, "finding": "no idea"},
        {k: v for k, v in right.items() if k != "finding"},
    ):
        assert not answers_hold(clean, given), given

    dirty = compiled["cf_P_certified_payroll_1042"]
    lines = facts["lines"]["1042"]
    flagged = next(ln for ln in lines if ln["code"])
    last, _, first = (x.strip() for x in flagged["employee_name"].partition(","))
    right = dict(dirty.oracle.answers)
    assert right["flagged_workers"] == [flagged["employee_id"]] and right["finding"] == flagged["code"]
    for worker in (
        [flagged["employee_id"]],
        [flagged["employee_name"]],
        [f"{first} {last}"],
        f"line {flagged['line_number']}",
        flagged["employee_id"].lower(),
    ):
        assert answers_hold(dirty, {**right, "flagged_workers": worker}), worker
    assert answers_hold(dirty, {**right, "finding": "underpaid_rate"})
    neighbour = next(ln for ln in lines if not ln["code"] and ln["classification"] == flagged["classification"])
    for given in (
        {**right, "flagged_workers": [], "finding": "compliant"},
        {**right, "flagged_workers": [neighbour["employee_id"]]},
        {**right, "flagged_workers": [flagged["employee_id"], neighbour["employee_id"]]},
        {**right, "finding": "fringe_shortfall"},
        {**right, "flagged_workers": [last]},
    ):
        assert not answers_hold(dirty, given), given


def test_oracles_call_tools_cleanly(compiled: dict[str, Task], golden: Path) -> None:
    for task in compiled.values():
        assert_oracles_call_tools_cleanly(task, golden)


def test_specific_wrong_moves_fail(compiled: dict[str, Task], facts: dict, golden: Path) -> None:
    # clean week: flagging the apprentice as underpaid against the journeyman rate
    clean = compiled["cf_P_certified_payroll_1990"]
    appr = next(ln for ln in facts["lines"]["1990"] if ln["level"] == "Apprentice")
    assert_wrong_move_fails(
        clean,
        golden,
        clean.oracle.steps
        + [
            ToolStep(
                tool="lcptracker.lines.flag",
                args={
                    "payroll_id": appr["payroll_id"],
                    "line_number": appr["line_number"],
                    "code": "underpayment",
                    "note": "below journeyman base",
                },
            )
        ],
        "a flag on a compliant line",
    )
    # unregistered apprentice: a second code on the same line (the policy says one)
    unreg = compiled["cf_P_certified_payroll_2200"]
    line = next(ln for ln in facts["lines"]["2200"] if ln["code"] == "unregistered_apprentice")
    assert_wrong_move_fails(
        unreg,
        golden,
        unreg.oracle.steps
        + [
            ToolStep(
                tool="lcptracker.lines.flag",
                args={
                    "payroll_id": line["payroll_id"],
                    "line_number": line["line_number"],
                    "code": "underpayment",
                    "note": "paid below journeyman rate",
                },
            )
        ],
        "a code other than",
    )


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""


def test_misclassification_twist(compiled: dict[str, Task], facts: dict, golden: Path) -> None:
    """The further WH-347: one journeyman line under a classification the determination does not
    list, flagged ``misclassification`` (the planted divergence); the held-out keys are the other
    further WH-347s, each with the same twist, disjoint from the public keys."""
    lines = facts["lines"]["1636"]
    bad = [ln for ln in lines if ln["code"]]
    assert len(bad) == 1 and bad[0]["code"] == "misclassification" and bad[0]["wd_base"] is None
    assert bad[0]["level"] == "Journeyman" and not any(ln["level"] == "Apprentice" for ln in lines)
    task = compiled["cf_P_certified_payroll_1636"]
    assert task.defect_variant == "misclassification"
    finding = next(a for a in task.ground_truth.answers if a.name == "finding")
    assert finding.expected == "misclassification" and "misclassification" in finding.options
    book = BookReader(golden)
    try:
        held = P.PCertifiedPayroll().held_out_keys(book)
    finally:
        book.close()
    assert len(held) == 3 and not set(held) & set(KEYS)
