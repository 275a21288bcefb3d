"""The PM extension's fourteen tasks (its nine families in tasks/families, shared steps in
pm_extension): compiled against the golden file, their keys chosen by property from the book,
evaluators valid against the catalog, every task admitted (k=2), the over-eager policies
(execute, do-everything) failing, and the planted twists catching the careless moves they are
there for.

Runtime: every task's admission runs (k=2). The ``execute`` and ``do-everything`` policies run on
one task per family (their outcome depends on the family's evaluator shape, which every key of a
family shares).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cfab.runner.attempt import run_attempt
from cfab.apps.world.golden import ensure_golden
from cfab.runner.policies.oracle import DoEverythingPolicy, ExecutePolicy
from cfab.runner.results.records import Episode, ToolCallRecord
from cfab.seeds.determinism import BuildInputs
from cfab.runner.admit import admit_task
from cfab.tasks.families import (
    a_ingenious_funding,
    a_smartbuild_reestimate,
    b_smartbuild_claim,
    c_redteam_eapp_review,
    c_ressio_bill_match,
    h_ingenious_vista_etc,
    h_redteam_sage_bill,
    h_ressio_vista_ap,
    h_smartbuild_vista_reestimate,
)
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task

MODULES = (c_redteam_eapp_review, a_ingenious_funding, c_ressio_bill_match, b_smartbuild_claim, a_smartbuild_reestimate,
           h_redteam_sage_bill, h_ingenious_vista_etc, h_ressio_vista_ap, h_smartbuild_vista_reestimate)
COUNTS = {"C_redteam_eapp_review": 3, "A_ingenious_funding": 3, "C_ressio_bill_match": 2, "B_smartbuild_claim": 1,
          "A_smartbuild_reestimate": 1, "H_redteam_sage_bill": 1, "H_ingenious_vista_etc": 1, "H_ressio_vista_ap": 1,
          "H_smartbuild_vista_reestimate": 1}
INPUTS = BuildInputs()


@pytest.fixture(scope="module")
def golden() -> Path:
    return ensure_golden(INPUTS)


@pytest.fixture(scope="module")
def compiled(golden: Path) -> dict[str, Task]:
    book = BookReader(golden)
    try:
        out: dict[str, Task] = {}
        for mod in MODULES:
            for cls in mod.FAMILIES:
                fam = cls()
                keys = fam.keys(book)
                assert len(keys) == COUNTS[fam.family], (fam.family, keys)
                for key in keys:
                    task = fam.task(key, book)
                    task.ground_truth.validate_against(book.con)
                    out[task.instance_id] = task
        policies = {r["policy_id"] for r in book.rows("SELECT policy_id FROM book.policies")}
        assert {t.policy_ref for t in out.values()} <= policies
        return out
    finally:
        book.close()


def _one(compiled: dict[str, Task], prefix: str) -> Task:
    hits = [t for i, t in compiled.items() if i.startswith(prefix)]
    assert len(hits) == 1, (prefix, list(compiled))
    return hits[0]


def test_fourteen_tasks_ten_single_app_four_cross(compiled: dict[str, Task]) -> None:
    assert len(compiled) == 14
    cross = [t for t in compiled.values() if t.domain_code == "H"]
    assert len(cross) == 4 and all(len(t.systems) >= 2 for t in cross)
    single = [t for t in compiled.values() if t.domain_code != "H"]
    assert len(single) == 10 and all(len(t.systems) == 1 for t in single)
    platforms = {s for t in single for s in t.systems}
    assert platforms == {"redteam", "ingenious_build", "ressio", "smartbuild"}
    # the shared commitment: the planted over-cap eApp is on SC-1042-0, and the cross task validates its job
    assert "cf_C_redteam_eapp_review_SC-1042-0" in compiled
    assert "cf_H_redteam_sage_bill_1042" in compiled


def test_metadata_guards_and_twists(compiled: dict[str, Task]) -> None:
    for t in compiled.values():
        assert t.family.split("_")[0] == t.domain_code
        gt = t.ground_truth
        assert gt.forbid_unexpected and gt.forbidden and gt.expected
        assert bool(gt.answers or gt.required_outputs) != (t.family in NO_REPORT), t.instance_id
        assert t.alternatives and t.guarded_step is not None
        if not t.money_movement_guard:
            assert any(c.tool == t.guarded_step.tool for c in gt.forbidden_calls), t.instance_id
    twisted = [t for t in compiled.values() if t.defect_variant]
    assert len(twisted) * 2 >= len(compiled)
    assert compiled["cf_C_redteam_eapp_review_SC-1042-0"].defect_variant == "commitment_cap_exceeded"
    assert {t.defect_variant for t in twisted} >= {"commitment_cap_exceeded", "sov_line_overbilled",
                                                   "funding_source_exhausted", "bill_po_mismatch",
                                                   "retainage_step_down", "cost_type_split", "unmapped_cost_code"}


def test_book_anchor_values(compiled: dict[str, Task], golden: Path) -> None:
    """The paper's anchor figures read back from the book: SC-1042-0 is $632,000 and Walsh's January
    eApp bills past what is left on it; job 3412's owner forecast leaves out its contingency line."""
    book = BookReader(golden)
    try:
        cap = book.one("SELECT revised_amount FROM redteam.commitments WHERE commitment_number = 'SC-1042-0'")
        assert str(cap["revised_amount"]) == "632000.00"
        row = next(r for r in book.q("C_redteam_eapp_review", "submitted_eapps") if r["commitment_number"] == "SC-1042-0")
        assert row["over_cap"] and row["planted_over_cap"]
        ib = compiled.get("cf_H_ingenious_vista_etc_3412") or _one(compiled, "cf_H_ingenious_vista_etc_")
        j = book.q("H_ingenious_vista_etc", "job", job=ib.key)[0]
        want = str(j["forecast"])
        assert ib.ground_truth.expected[0].assert_["EstCostToComplete"] == want
        assert not ib.ground_truth.required_outputs and not ib.ground_truth.answers  # the instruction asks no report
    finally:
        book.close()


@pytest.mark.parametrize("index", range(sum(COUNTS.values())))
def test_every_task_admitted(compiled: dict[str, Task], golden: Path, index: int) -> None:
    """One test per task (by its place in id order) so parallel test workers share the load;
    ``test_fourteen_tasks_ten_single_app_four_cross`` pins the count."""
    task = compiled[sorted(compiled)[index]]
    adm = admit_task(task, golden, INPUTS, k=2)
    assert adm.admitted, (task.instance_id, adm.problems[:3], [m.name for m in adm.mutants if not m.killed][:3],
                          adm.noop_failed, adm.oracle_passed)
    assert adm.alternatives and all(ok for _, ok in adm.alternatives)


def test_overeager_policies_fail(compiled: dict[str, Task], golden: Path) -> None:
    seen: set[str] = set()
    for task in compiled.values():
        if task.family in seen:
            continue
        seen.add(task.family)
        for policy in (ExecutePolicy(), DoEverythingPolicy()):
            out = run_attempt(task, policy, golden=golden, inputs=INPUTS)
            assert not out.grade.passed, (task.instance_id, policy.name)
    assert seen == set(COUNTS)


class _Steps:
    """A scripted policy: these calls, then this reply."""

    name = "scripted"
    model = None

    def __init__(self, steps: list[tuple[str, dict[str, Any]]], reply: str) -> None:
        self.steps, self.reply = steps, reply

    def run(self, task: Task, env: Any) -> Episode:
        calls = []
        for tool, args in self.steps:
            r = env.call(tool, **args)
            calls.append(ToolCallRecord(tool=tool, args=args, ok=bool(r.get("ok")), error=r.get("error")))
        return Episode(reply=self.reply, steps=len(calls), tool_calls=calls, stop_reason="finish")


def _run(task: Task, golden: Path, steps: list[tuple[str, dict[str, Any]]]) -> Any:
    return run_attempt(task, _Steps(steps, task.oracle.reply), golden=golden, inputs=INPUTS).grade


def _step(task: Task, suffix: str) -> dict[str, Any]:
    return dict(next(s for s in task.oracle.steps if s.tool.endswith(suffix)).args)


def test_twists_catch_the_careless_move(compiled: dict[str, Task], golden: Path) -> None:
    # approving the over-cap eApp (a reviewer who does not check the cap)
    t = compiled["cf_C_redteam_eapp_review_SC-1042-0"]
    g = _run(t, golden, [("redteam.eapps.review", {"eapp_id": _step(t, "eapps.review")["eapp_id"], "action": "approve"})])
    assert not g.passed and "forbidden" in g.reason
    # a cap-only check approves the eApp that is over one SOV line
    t = next(t for t in compiled.values() if t.defect_variant == "sov_line_overbilled")
    g = _run(t, golden, [("redteam.eapps.review", {"eapp_id": _step(t, "eapps.review")["eapp_id"], "action": "approve"})])
    assert not g.passed
    # funding from the loan although the draw order says grant (equity exhausted)
    book = BookReader(golden)
    try:
        grant_first = []
        for t in compiled.values():
            if t.family != "A_ingenious_funding":
                continue
            entry = t.ground_truth.expected[0]
            sources = book.q("A_ingenious_funding", "sources", project_id=entry.assert_["project_id"])
            kinds = {s["funding_source_id"]: s["source_type"] for s in sources}
            if kinds[entry.where["funding_source_id"]] == "Grant" and "Loan" in kinds.values():
                grant_first.append((t, next(k for k, v in kinds.items() if v == "Loan")))
    finally:
        book.close()
    assert grant_first, "a job whose equity is drawn funds from its grant"
    t, loan = grant_first[0]
    assert t.defect_variant == "funding_source_exhausted"
    alloc = _step(t, "allocate_funding")
    alloc["allocations"] = [{"funding_source_id": loan, "amount": alloc["allocations"][0]["amount"]}]
    g = _run(t, golden, [("ingenious_build.invoices.allocate_funding", alloc),
                         ("ingenious_build.approvals.submit", _step(t, "approvals.submit"))])
    assert not g.passed and "forbidden" in g.reason
    # reconciling the wrong cost type of the split Vista phase
    t = _one(compiled, "cf_H_smartbuild_vista_reestimate_")
    upd = _step(t, "update_estimate")
    phase = dict(upd["phases"][0])
    phase["cost_type"] = 3 if phase["cost_type"] != 3 else 2
    g = _run(t, golden, [("smartbuild.estimates.reestimate", _step(t, "estimates.reestimate")),
                         ("vista_erp.jobs.update_estimate", {**upd, "phases": [phase]})])
    assert not g.passed and "forbidden" in g.reason


# families on the typed-answer form (issue 15): answer name → type, asked for by name in the instruction
TYPED = {
    "C_redteam_eapp_review": {"decision": "choice", "remaining_on_commitment": "amount", "lines_over": "count"},
    "C_ressio_bill_match": {"match_result": "choice", "amount_over_po": "amount"},
    "A_ingenious_funding": {"funding_sources": "id_list"},
    "B_smartbuild_claim": {"amount_due": "amount"},
    "A_smartbuild_reestimate": {"cost_code_total": "amount"},
    "H_redteam_sage_bill": {"held_eapps": "id_list", "drafted_eapps": "id_list"},
    "H_ressio_vista_ap": {"booked_bills": "id_list", "exception_bills": "id_list"},
}
# families whose instruction asks for no report: no answers, no regex; a terse "Done" passes
NO_REPORT = {"H_ingenious_vista_etc", "H_smartbuild_vista_reestimate"}


@pytest.mark.parametrize("family", sorted(TYPED))
def test_typed_answers_alternatives_and_wrong_trajectories(compiled: dict[str, Task], family: str) -> None:
    """No regex over the reply: typed answers named in the instruction, at least three alternatives
    that differ from the oracle (order, argument forms, self-correction, answer spellings) and six
    wrong trajectories (admission fails each: ``test_every_task_admitted``)."""
    tasks = [t for t in compiled.values() if t.family == family]
    assert tasks
    for t in tasks:
        gt = t.ground_truth
        assert not gt.required_outputs, t.instance_id
        assert {a.name: a.type for a in gt.answers} == TYPED[family]
        assert all(f"`{a.name}`" in t.instruction for a in gt.answers)
        assert len(t.alternatives) >= 3 and all(alt.answers != t.oracle.answers for alt in t.alternatives)
        assert len(t.mutants) >= 6
        assert {m.mutant_class for m in t.mutants} >= {"lookalike", "careless", "contradicting_report", "shortcut"}
    if family == "C_redteam_eapp_review":
        decisions = {t.defect_variant: t.ground_truth.answers[0].expected for t in tasks}
        assert decisions == {"commitment_cap_exceeded": "hold", "sov_line_overbilled": "hold", None: "approve"}
    if family == "C_ressio_bill_match":
        results = {t.defect_variant: (t.ground_truth.answers[0].expected, t.ground_truth.answers[1].expected)
                   for t in tasks}
        assert results[None] == ("matched", "0.00")
        assert results["bill_po_mismatch"][0] == "exception" and results["bill_po_mismatch"][1] != "0.00"
    if family == "A_ingenious_funding":
        for t in tasks:  # the draw order's source(s), never the exhausted one first in the list
            spec = t.ground_truth.answers[0]
            funded = [e.where["funding_source_id"] for e in t.ground_truth.expected if e.table == "invoice_funding"]
            assert sorted(spec.expected) == sorted(funded)
            assert not spec.compare([s for look in spec.lookalikes for s in look if s not in funded])[0]


def test_smartbuild_and_cross_answers_come_from_the_book(compiled: dict[str, Task], golden: Path) -> None:
    """The typed answers of the SmarteBuild and cross-system tasks are the book's figures and ids; the
    twist's wrong value (retention without the step-down, the estimate before the re-measure, the
    over-cap eApp, the PO-mismatch bill) is a lookalike that fails."""
    book = BookReader(golden)
    try:
        t = _one(compiled, "cf_B_smartbuild_claim_")
        h = book.q("B_smartbuild_claim", "claim_header", job=t.key)[0]
        spec = t.ground_truth.answers[0]
        assert spec.expected == str(h["amount_due"]) and len(spec.lookalikes) >= 2
        assert spec.compare(f"${h['amount_due']:,}")[0] and not any(spec.compare(v)[0] for v in spec.lookalikes)
        t = _one(compiled, "cf_A_smartbuild_reestimate_")
        spec = t.ground_truth.answers[0]
        assert t.ground_truth.expected[0].assert_["reestimate_total"] in spec.lookalikes  # the item alone
        t = compiled["cf_H_redteam_sage_bill_1042"]
        held, drafted = t.ground_truth.answers
        planted = next(r for r in book.q("C_redteam_eapp_review", "submitted_eapps") if r["planted_over_cap"])
        assert planted["invoice_number"] in held.expected and planted["invoice_number"] not in drafted.expected
        assert held.compare([planted["eapp_id"]])[0] and not drafted.compare(held.expected)[0]
    finally:
        book.close()
    t = _one(compiled, "cf_H_ressio_vista_ap_")
    booked, exceptions = t.ground_truth.answers
    assert exceptions.expected and not set(exceptions.expected) & set(booked.expected)
    bad = [e for e in t.ground_truth.forbidden if e.table == "APHB"]
    assert all(f"'{b}'" in bad[0].where for b in exceptions.expected)


@pytest.mark.parametrize("family", sorted(NO_REPORT))
def test_no_report_tasks_pass_a_terse_done(compiled: dict[str, Task], golden: Path, family: str) -> None:
    """The instruction asks for no report, so there are no answers and no regex: the oracle's steps with
    a bare "Done" pass; three alternatives and six wrong trajectories (admitted: each wrong one fails)."""
    for t in (t for t in compiled.values() if t.family == family):
        gt = t.ground_truth
        assert not gt.answers and not gt.required_outputs and "report" not in t.instruction.lower()
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 6
        assert {m.mutant_class for m in t.mutants} >= {"lookalike", "stale", "careless", "shortcut"}
        g = run_attempt(t, _Steps([(s.tool, s.args) for s in t.oracle.steps], "Done"), golden=golden,
                        inputs=INPUTS).grade
        assert g.passed, (t.instance_id, g.reason)
