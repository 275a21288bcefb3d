"""G_sub_accrual: compiled against the golden file, its keys and twists (a commitment cap
exceeded, billing ahead of progress; on the ERP extension's keys a pay request under review and an
ERP without auto-reversing entries), the accrual entry and typed answer, every task admitted (k=2)
with the over-eager policies failing, and the careless totals (netting billed-ahead work, an eApp
under review as billed, purchase orders as subcontract work, no auto-reverse) caught."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from cfab.apps.erp.vendors import ERP_APPS
from cfab.tasks.families import g_sub_accrual as G
from cfab.tasks.families.g_sub_accrual import GSubAccrual
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep, result_of
from tests.tasks.family_helpers import (
    FamilyContract,
    assert_oracles_call_tools_cleanly,
    assert_staged_write_shape,
    failed,
    replay,
)

FAMILY = GSubAccrual
VISTA_KEYS = ["1042", "2014", "2200", "3100", "3412", "4012"]
ERP_KEYS = ["2041_acumatica_construction", "1636_qbo", "2209_sage_intacct"]  # the extension, by property
KEYS = VISTA_KEYS + ERP_KEYS
OVER_EAGER_KEYS = KEYS
# do-everything's example arguments name Vista's ids: in the other ERPs its extra writes are refused
# (no such vendor or job), so only the guard stops it there.
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = ERP_KEYS
TWISTS = {
    "cf_G_sub_accrual_1042": "commitment_cap_exceeded",
    "cf_G_sub_accrual_2014": "billed_ahead_of_progress",
    "cf_G_sub_accrual_3412": "billed_ahead_of_progress",
    "cf_G_sub_accrual_2041_acumatica_construction": "pay_request_under_review",
    "cf_G_sub_accrual_1636_qbo": "no_auto_reverse",
}


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    vista = {i: t for i, t in compiled.items() if t.key in VISTA_KEYS}
    assert_staged_write_shape(vista, {i: v for i, v in TWISTS.items() if i in vista}, money_guard=True)
    for key in ERP_KEYS:
        t = compiled[f"cf_G_sub_accrual_{key}"]
        assert t.defect_variant == TWISTS.get(t.instance_id)
        assert f"job {key.partition('_')[0]}" in t.instruction and t.difficulty == 3 and t.money_movement_guard
        assert t.ground_truth.forbid_unexpected and t.ground_truth.forbidden and len(t.mutants) >= 6


def test_accrual_amounts(compiled: dict[str, Task]) -> None:
    for t in (compiled[f"cf_G_sub_accrual_{k}"] for k in VISTA_KEYS):
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


def _accrual(golden: Path, job: str, statuses: tuple[str, ...], types: tuple[str, ...], floor: bool) -> str:
    book = BookReader(golden)
    try:
        rows = book.rows(
            "SELECT c.id, (SELECT coalesce(sum(l.work_completed), 0) FROM procore.commitment_line_items l "
            "WHERE l.commitment_id = c.id) - (SELECT coalesce(sum(r.gross_amount), 0) FROM procore.requisitions r "
            "WHERE r.commitment_id = c.id AND list_contains($st, r.status)) AS diff "
            "FROM procore.commitments c JOIN procore.projects p ON p.id = c.project_id "
            "WHERE p.project_number = $job AND list_contains($ty, c.commitment_type)",
            {"job": job, "st": list(statuses), "ty": list(types)},
        )
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
        ("2014", _accrual(golden, "2014", ("approved",), sub, floor=False)),  # netted against billed-ahead
        ("3412", _accrual(golden, "3412", ("approved",), sub, floor=False)),
        # an eApp under review taken as billed
        ("1042", _accrual(golden, "1042", ("approved", "under_review"), sub, floor=True)),
        ("4012", _accrual(golden, "4012", ("approved",), po, floor=True)),  # purchase orders as subcontract work
    ]
    for key, wrong in cases:
        t = compiled[f"cf_G_sub_accrual_{key}"]
        right = t.ground_truth.expected[1].total["Amount"]
        assert wrong != right, key
        assert wrong in t.ground_truth.answers[0].lookalikes, key  # the careless total is a declared lookalike
        out = replay(
            t,
            golden,
            _stage_amount(t, wrong),
            reply=t.oracle.reply.replace(f"{Decimal(right):,}", f"{Decimal(wrong):,}"),
            answers={"accrual_amount": wrong},
        )
        assert not out.grade.passed and failed(out, "expected") and failed(out, "answer"), key
    t = compiled["cf_G_sub_accrual_2200"]
    out = replay(t, golden, _stage_amount(t, t.ground_truth.expected[1].total["Amount"], auto_reverse=False))
    assert not out.grade.passed


def _erp_task(compiled: dict[str, Task], key: str) -> tuple[Task, str]:
    return compiled[f"cf_G_sub_accrual_{key}"], key.partition("_")[2]


def test_erp_extension_shape(compiled: dict[str, Task]) -> None:
    """Each extension key stages in its own ERP, composes Procore, that ERP and SharePoint, gives no
    rule in its instruction (the policy in SharePoint does) and asserts the amount on the ERP's own
    journal-line columns; the ERP without auto-reversing entries stages a plain draft."""
    erps = set()
    for key in ERP_KEYS:
        t, erp = _erp_task(compiled, key)
        erps.add(erp)
        assert t.systems == ["procore", erp, "sharepoint"]
        assert "month_end_close_policy.md" in t.instruction and "5200" not in t.instruction
        assert "under review" not in t.instruction and ERP_APPS[erp].label in t.instruction
        assert t.oracle.steps[0].tool == "sharepoint.files.read"
        stage = t.oracle.steps[-1]
        assert stage.tool == f"{erp}.journal_entries.stage"
        assert stage.args.get("auto_reverse", False) is ERP_APPS[erp].D.supports_auto_reverse
        assert t.guarded_step.tool == f"{erp}.{ERP_APPS[erp].TOOL_NAMES['post']}"
        tables = {e.table for e in t.ground_truth.expected}
        assert tables == {ERP_APPS[erp].D.t("je_open_hdr").table, ERP_APPS[erp].D.t("je_open_line").table}
        (spec,) = t.ground_truth.answers
        assert spec.compare(f"${Decimal(spec.expected):,}")[0] and spec.lookalikes
    assert len(erps) == len(ERP_KEYS) and "vista_erp" not in erps


def test_erp_extension_held_out(golden: Path, compiled: dict[str, Task]) -> None:
    """Held out: the Vista jobs, then an extension key on a job no public key uses."""
    book = BookReader(golden)
    try:
        held = GSubAccrual().held_out_keys(book)
    finally:
        book.close()
    ext = [k for k in held if "_" in k]
    assert ext and len(held) == 4
    public_jobs = {t.key.partition("_")[0] for t in compiled.values()}
    assert not {k.partition("_")[0] for k in held} & public_jobs


def test_erp_oracle_calls_tools_cleanly(golden: Path, compiled: dict[str, Task]) -> None:
    """The oracle's calls all succeed (its alternatives include calls QuickBooks Online refuses: an
    unbalanced entry, an auto-reversing one, each followed by the right one)."""
    t = compiled["cf_G_sub_accrual_1636_qbo"]
    assert_oracles_call_tools_cleanly(t.model_copy(update={"alternatives": []}), golden)


def test_erp_extension_wrong_moves_fail(golden: Path, compiled: dict[str, Task]) -> None:
    """The pay request under review counted as billed, the accrual left non-reversing where the
    ERP can reverse it, and (in QuickBooks Online) a reversal staged beside the accrual all fail."""
    t, erp = _erp_task(compiled, "2041_acumatica_construction")
    (spec,) = t.ground_truth.answers
    book = BookReader(golden)
    try:
        variants = book.q(G.FAMILY, "variants", job="2041")[0]
    finally:
        book.close()
    wrong = str(variants["under_review_billed"])
    assert wrong != spec.expected and wrong in spec.lookalikes
    out = replay(t, golden, _stage_amount(t, wrong), answers={"accrual_amount": wrong})
    assert not out.grade.passed and failed(out, "expected") and failed(out, "answer")
    plain = _stage_amount(t, spec.expected)
    plain[-1] = ToolStep(tool=plain[-1].tool, args={k: v for k, v in plain[-1].args.items() if k != "auto_reverse"})
    out = replay(t, golden, plain, answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "forbidden")
    q, _ = _erp_task(compiled, "1636_qbo")
    accrual = q.oracle.steps[-1]
    reversal = [
        {"account": "2100", "debit": q.ground_truth.answers[0].expected, "job_id": ln["job_id"]}
        if ln["account"] == "5200"
        else {"account": "5200", "credit": q.ground_truth.answers[0].expected, "job_id": ln["job_id"]}
        for ln in accrual.args["lines"]
    ]
    steps = [*q.oracle.steps, ToolStep(tool=accrual.tool, args={**accrual.args, "lines": reversal})]
    out = replay(q, golden, steps, answers=q.oracle.answers)
    assert not out.grade.passed and failed(out, "expected")


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
