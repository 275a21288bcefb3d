"""G_sub_accrual: compiled against the golden file, its keys and twists (a commitment cap
exceeded, billing ahead of progress), the accrual entry and typed answer, every task admitted
(k=2) with the over-eager policies failing, and the careless totals (netting billed-ahead work,
an eApp under review as billed, purchase orders as subcontract work, no auto-reverse) caught."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from cfab.tasks.families.g_sub_accrual import GSubAccrual
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep, result_of
from tests.tasks.family_helpers import FamilyContract, assert_staged_write_shape, failed, replay

FAMILY = GSubAccrual
KEYS = ["1042", "2014", "2200", "3100", "3412", "4012"]
OVER_EAGER_KEYS = KEYS
TWISTS = {
    "cf_G_sub_accrual_1042": "commitment_cap_exceeded",
    "cf_G_sub_accrual_2014": "billed_ahead_of_progress",
    "cf_G_sub_accrual_3412": "billed_ahead_of_progress",
}


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert_staged_write_shape(compiled, TWISTS, money_guard=True)


def test_accrual_amounts(compiled: dict[str, Task]) -> None:
    for t in compiled.values():
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


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
