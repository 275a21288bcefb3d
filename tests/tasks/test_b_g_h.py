"""B_aia_g702, G_sub_accrual, H_procore_erp_sync: compiled against the golden file, their keys,
twists and evaluators, every task admitted (k=2), the over-eager policies (execute,
do-everything) failing, and the wrong answers a pattern-matching agent gives failing too.

Runtime: every task's admission runs (about 25 attempts each: k=2 oracle runs, the no-op, the
mutants, the alternatives), then ``execute`` and ``do-everything``. Attempts copy the composed-
apps template of the golden file, so each costs a fraction of a second on an idle machine.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
from cfab.runner.attempt import run_attempt
from cfab.apps.world.golden import ensure_golden
from cfab.runner.policies.oracle import DoEverythingPolicy, ExecutePolicy, OraclePolicy
from cfab.seeds.determinism import BuildInputs
from cfab.runner.admit import admit_task
from cfab.tasks.families.b_aia_g702 import BAiaG702
from cfab.tasks.families.g_sub_accrual import GSubAccrual
from cfab.tasks.families.h_procore_erp_sync import HProcoreErpSync
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep, Trajectory, result_of

FAMILIES = (BAiaG702, GSubAccrual, HProcoreErpSync)
EXPECTED_KEYS = {
    "B_aia_g702": ["1042", "1990", "2014", "2200", "3100", "3412"],
    "G_sub_accrual": ["1042", "2014", "2200", "3100", "3412", "4012"],
    "H_procore_erp_sync": ["1042", "2014", "2041", "2200", "3100", "4012"],
}
TWISTS = {
    "cf_B_aia_g702_1990": "co_added_sov_line", "cf_B_aia_g702_2200": "retainage_step_down",
    "cf_B_aia_g702_3412": "step_down_not_reached",
    "cf_G_sub_accrual_1042": "commitment_cap_exceeded", "cf_G_sub_accrual_2014": "billed_ahead_of_progress",
    "cf_G_sub_accrual_3412": "billed_ahead_of_progress",
    **{f"cf_H_procore_erp_sync_{k}": "already_synced" for k in EXPECTED_KEYS["H_procore_erp_sync"]},
}
INPUTS = BuildInputs()


def _compile(path: Path) -> dict[str, Task]:
    book = BookReader(path)
    try:
        out: dict[str, Task] = {}
        for cls in FAMILIES:
            fam = cls()
            assert fam.keys(book) == EXPECTED_KEYS[fam.family]
            for key in fam.keys(book):
                task = fam.task(key, book)
                out[task.instance_id] = task
        return out
    finally:
        book.close()


@pytest.fixture(scope="module")
def golden() -> Path:
    return ensure_golden(INPUTS)


@pytest.fixture(scope="module")
def compiled(golden: Path) -> dict[str, Task]:
    out = _compile(golden)
    book = BookReader(golden)
    try:
        for t in out.values():
            t.ground_truth.validate_against(book.con)
        policies = {r["policy_id"] for r in book.rows("SELECT policy_id FROM book.policies")}
        assert {t.policy_ref for t in out.values()} <= policies
    finally:
        book.close()
    return out


def _ids() -> list[str]:
    return [f"cf_{fam}_{k}" for fam, keys in EXPECTED_KEYS.items() for k in keys]


def _run(task: Task, golden: Path, steps: list[ToolStep], reply: str | None = None):
    wrong = task.model_copy(update={"oracle": Trajectory(label="wrong", steps=steps,
                                                         reply=task.oracle.reply if reply is None else reply)})
    return run_attempt(wrong, OraclePolicy(), golden=golden, inputs=INPUTS)


def _failed(outcome, kind: str) -> list[str]:
    return [c.label for c in outcome.grade.failed_checks() if c.kind == kind]


# --------------------------------------------------------------------------- shape
def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert sorted(compiled) == sorted(_ids())
    assert {i: t.defect_variant for i, t in compiled.items() if t.defect_variant} == TWISTS
    for fam in EXPECTED_KEYS:
        tasks = [t for t in compiled.values() if t.family == fam]
        assert 2 * sum(bool(t.defect_variant) for t in tasks) >= len(tasks)
    for t in compiled.values():
        ev = t.ground_truth
        assert t.difficulty == 3 and ev.forbid_unexpected and (ev.required_outputs or ev.answers) and ev.forbidden
        assert len(t.alternatives) >= 1 and t.guarded_step is not None
        assert t.key in t.instruction
        assert t.money_movement_guard == (t.family != "H_procore_erp_sync")
        steps = [s.tool for s in t.oracle.steps]
        assert t.guarded_step.tool not in steps
        writes = [i for i, s in enumerate(steps) if s.endswith(("create_draft", "stage", "sync_invoice"))]
        assert writes and min(writes) > 0, "the oracle reads before it writes"
    for t in compiled.values():
        if t.family == "H_procore_erp_sync":
            assert {c.tool for c in t.ground_truth.forbidden_calls} >= {t.guarded_step.tool, "vista_erp.vista_post"}


def test_aia_amounts(compiled: dict[str, Task]) -> None:
    stepped, plain, below = (compiled[f"cf_B_aia_g702_{k}"] for k in ("2200", "1042", "3412"))
    assert stepped.oracle.steps[-1].args["retainage_percent"] == "5.00"
    assert plain.oracle.steps[-1].args["retainage_percent"] == "10.00"
    assert below.oracle.steps[-1].args["retainage_percent"] == "10.00"
    for t in compiled.values():
        if t.family != "B_aia_g702":
            continue
        head = t.ground_truth.expected[0]
        assert (head.table, head.op, head.count) == ("pay_applications", "added", 1)
        assert head.assert_["status"] == "Draft" and head.assert_["period_to"] == "2026-01-31"
        due = head.assert_["current_payment_due"]
        (spec,) = t.ground_truth.answers
        assert (spec.name, spec.type, spec.expected) == ("current_payment_due", "amount", due)
        assert "`current_payment_due`" in t.instruction and not t.ground_truth.required_outputs
        assert spec.compare(f"${Decimal(due):,}")[0] and spec.compare(float(due))[0]
        assert str(head.assert_["total_completed_stored"]) in spec.lookalikes  # G702 line 4 is not line 8
        assert all(not spec.compare(v)[0] for v in spec.lookalikes)
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 6
        assert due not in t.instruction and f"{Decimal(due):,}" not in t.instruction
        lines = t.oracle.steps[-1].args["lines"]
        assert [e.count for e in t.ground_truth.expected[1:]] == [len(lines)] * 3
    co = compiled["cf_B_aia_g702_1990"]
    assert "change order" in co.oracle.reply
    # the step-down crossed on 2200 (10% is wrong) and not reached on 3412 (5% is wrong): the due at the
    # other rate is a declared wrong answer
    for k in ("2200", "3412"):
        assert any(m.mutant_class == "stale" and "retainage at" in m.label for m in compiled[f"cf_B_aia_g702_{k}"].mutants)


def test_accrual_amounts(compiled: dict[str, Task]) -> None:
    for t in compiled.values():
        if t.family != "G_sub_accrual":
            continue
        debit, credit = t.ground_truth.expected[1], t.ground_truth.expected[2]
        dr, cr = debit.total, credit.total  # per account, whatever the number of lines
        assert debit.count is None and credit.count is None
        assert Decimal(dr["Amount"]) > 0 and Decimal(cr["Amount"]) == -Decimal(dr["Amount"])
        assert debit.assert_["Job"] == credit.assert_["Job"] == f"{t.key}-"
        assert any(a.label == "one debit line per subcontract" for a in t.alternatives)
        stage = t.oracle.steps[-1]
        assert stage.tool == "vista_erp.journal_entries.stage" and stage.args["auto_reverse"] is True
        assert t.guarded_step.args["batch_id"] == result_of(stage.tool, "batch_id")  # the batch the oracle staged
        (spec,) = t.ground_truth.answers
        assert (spec.name, spec.type, spec.expected) == ("accrual_amount", "amount", dr["Amount"])
        assert "`accrual_amount`" in t.instruction and not t.ground_truth.required_outputs
        assert spec.compare(f"${Decimal(dr['Amount']):,}")[0] and spec.lookalikes
        assert all(not spec.compare(v)[0] for v in spec.lookalikes)
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 6
    for k in ("2014", "3412"):
        assert "ahead of its progress and contributes nothing" in compiled[f"cf_G_sub_accrual_{k}"].oracle.reply


def test_sync_counts(compiled: dict[str, Task]) -> None:
    for t in compiled.values():
        if t.family != "H_procore_erp_sync":
            continue
        syncs = [s for s in t.oracle.steps if s.tool == "procore.erp.sync_invoice"]
        flips = [e for e in t.ground_truth.expected if e.table == "requisitions"]
        assert len(syncs) == len(flips) == 2
        assert {s.args["requisition_id"] for s in syncs} == {e.where["_pk"] for e in flips}
        m = re.match(r"Synced (\d+), skipped (\d+)\.", t.oracle.reply)
        assert m and int(m.group(1)) == 2 and int(m.group(2)) >= 3
        answers = {a.name: a for a in t.ground_truth.answers}
        assert set(answers) == {"synced_count", "skipped_count"} and not t.ground_truth.required_outputs
        assert (answers["synced_count"].expected, answers["skipped_count"].expected) == (2, int(m.group(2)))
        assert "`synced_count`" in t.instruction and "`skipped_count`" in t.instruction
        assert answers["synced_count"].compare("two")[0] and not answers["synced_count"].compare(3)[0]
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 6


# --------------------------------------------------------------------------- admission and policies
@pytest.mark.parametrize("instance_id", _ids())
def test_admitted(compiled: dict[str, Task], golden: Path, instance_id: str) -> None:
    task = compiled[instance_id]
    adm = admit_task(task, golden, INPUTS, k=2)
    survived = [m.name for m in adm.mutants if not m.killed]
    assert adm.admitted, (survived, adm.problems, adm.alternatives)
    for policy in (ExecutePolicy(), DoEverythingPolicy()):
        out = run_attempt(task, policy, golden=golden, inputs=INPUTS)
        assert not out.grade.passed and out.grade.score == 0.0, (policy.name, out.grade.reason)
    if task.money_movement_guard:
        assert out.grade.guard_violation
    else:
        assert _failed(out, "forbidden_call")


# --------------------------------------------------------------------------- the twists catch wrong answers
def _with_draft_args(task: Task, **changes) -> list[ToolStep]:
    steps = list(task.oracle.steps)
    last = steps[-1]
    steps[-1] = ToolStep(tool=last.tool, args={**last.args, **changes})
    return steps


def test_aia_wrong_answers_fail(compiled: dict[str, Task], golden: Path) -> None:
    # the step-down crossed on 2200 (10% is wrong) and not reached on 3412 (5% is wrong)
    for key, wrong in (("2200", "10.00"), ("3412", "5.00")):
        out = _run(compiled[f"cf_B_aia_g702_{key}"], golden,
                   _with_draft_args(compiled[f"cf_B_aia_g702_{key}"], retainage_percent=wrong))
        assert not out.grade.passed
        assert any("column I" in label for label in _failed(out, "expected"))
    # the owner CO line added since application #1 left unbilled on 1990
    t = compiled["cf_B_aia_g702_1990"]
    item = next(ln["item_no"] for ln in reversed(t.oracle.steps[-1].args["lines"]))
    lines = [ln for ln in t.oracle.steps[-1].args["lines"] if ln["item_no"] != item]
    out = _run(t, golden, _with_draft_args(t, lines=lines))
    assert not out.grade.passed and any("column E" in label for label in _failed(out, "expected"))
    # last period's stored materials treated as billed work (E = G now − G before) on 1042
    t = compiled["cf_B_aia_g702_1042"]
    book = BookReader(golden)
    try:
        prev = {r["item_no"]: Decimal(r["materials_presently_stored"]) for r in book.rows(
            "SELECT item_no, materials_presently_stored FROM gcpay.pay_application_items WHERE pay_app_id = 'PA-1042-001'")}
    finally:
        book.close()
    assert any(prev.values()), "application #1 of 1042 carries stored materials"
    lines = [{**ln, "work_this_period": str(max(Decimal(ln["work_this_period"]) - prev.get(ln["item_no"], 0), 0))}
             for ln in t.oracle.steps[-1].args["lines"]]
    out = _run(t, golden, _with_draft_args(t, lines=lines))
    assert not out.grade.passed


def _accrual(golden: Path, job: str, statuses: tuple[str, ...], types: tuple[str, ...], floor: bool) -> str:
    book = BookReader(golden)
    try:
        rows = book.rows(
            "SELECT c.id, (SELECT coalesce(sum(l.work_completed), 0) FROM procore.commitment_line_items l "
            "WHERE l.commitment_id = c.id) - (SELECT coalesce(sum(r.gross_amount), 0) FROM procore.requisitions r "
            "WHERE r.commitment_id = c.id AND list_contains($st, r.status)) AS diff "
            "FROM procore.commitments c JOIN procore.projects p ON p.id = c.project_id "
            "WHERE p.project_number = $job AND list_contains($ty, c.commitment_type)",
            {"job": job, "st": list(statuses), "ty": list(types)})
    finally:
        book.close()
    total = sum((max(Decimal(r["diff"]), Decimal(0)) if floor else Decimal(r["diff"]) for r in rows), Decimal(0))
    return str(total.quantize(Decimal("0.01")))


def _stage_amount(task: Task, amount: str, **changes) -> list[ToolStep]:
    steps = list(task.oracle.steps)
    last = steps[-1]
    lines = [{**ln, ("debit" if "debit" in ln else "credit"): amount} for ln in last.args["lines"]]
    steps[-1] = ToolStep(tool=last.tool, args={**last.args, "lines": lines, **changes})
    return steps


def test_accrual_wrong_answers_fail(compiled: dict[str, Task], golden: Path) -> None:
    sub, po = ("WorkOrderContract",), ("WorkOrderContract", "PurchaseOrderContract")
    cases = [
        ("2014", _accrual(golden, "2014", ("approved",), sub, floor=False)),       # netted against billed-ahead
        ("3412", _accrual(golden, "3412", ("approved",), sub, floor=False)),
        ("1042", _accrual(golden, "1042", ("approved", "under_review"), sub, floor=True)),  # eApp under review as billed
        ("4012", _accrual(golden, "4012", ("approved",), po, floor=True)),         # purchase orders as subcontract work
    ]
    for key, wrong in cases:
        t = compiled[f"cf_G_sub_accrual_{key}"]
        right = t.ground_truth.expected[1].total["Amount"]
        assert wrong != right, key
        assert wrong in t.ground_truth.answers[0].lookalikes, key  # the careless total is a declared lookalike
        traj = Trajectory(label="wrong", steps=_stage_amount(t, wrong), reply=t.oracle.reply.replace(
            f"{Decimal(right):,}", f"{Decimal(wrong):,}"), answers={"accrual_amount": wrong})
        out = run_attempt(t.model_copy(update={"oracle": traj}), OraclePolicy(), golden=golden, inputs=INPUTS)
        assert not out.grade.passed and _failed(out, "expected") and _failed(out, "answer"), key
    t = compiled["cf_G_sub_accrual_2200"]
    out = _run(t, golden, _stage_amount(t, t.ground_truth.expected[1].total["Amount"], auto_reverse=False))
    assert not out.grade.passed


def test_sync_wrong_answers_fail(compiled: dict[str, Task], golden: Path) -> None:
    t = compiled["cf_H_procore_erp_sync_2041"]
    # the skipped count restricted to the already-synced ones (the drafts / under review forgotten)
    wrong = t.model_copy(update={"oracle": t.oracle.model_copy(update={
        "answers": {**t.oracle.answers, "skipped_count": 2}})})
    out = run_attempt(wrong, OraclePolicy(), golden=golden, inputs=INPUTS)
    assert not out.grade.passed and _failed(out, "answer") == [
        "answer skipped_count: how many of this month's requisitions on the job you skipped"]
    # entering the AP invoices by hand in Vista instead of syncing: Procore never learns of it
    t = compiled["cf_H_procore_erp_sync_3100"]
    book = BookReader(golden)
    try:
        phase = book.rows("SELECT Phase FROM vista_erp.JCCH WHERE Job = '3100-' AND CostType = 3 ORDER BY Phase")[0]["Phase"]
    finally:
        book.close()
    steps: list[ToolStep] = []
    for e in t.ground_truth.expected:
        if e.table == "APHB":
            steps.append(ToolStep(tool="vista_erp.ap_invoices.create", args={
                "vendor_id": str(e.where["Vendor"]), "job_id": e.assert_["Job"], "invoice_number": e.where["APRef"],
                "invoice_date": "2026-01-30", "amount": e.assert_["InvTotal"], "phase": phase, "cost_type": 3,
                "retainage": e.assert_["RetainageAmt"], "commitment_id": e.assert_["SL"]}))
    out = _run(t, golden, steps)
    assert not out.grade.passed
    assert any("synced and locked" in label for label in _failed(out, "expected"))


def test_task_json_roundtrip(compiled: dict[str, Task]) -> None:
    for t in compiled.values():
        again = Task.model_validate_json(t.model_dump_json(by_alias=True))
        assert again == t
        assert json.loads(t.model_dump_json(by_alias=True))["contamination_meta"]["sha256"].startswith("sha256:")
