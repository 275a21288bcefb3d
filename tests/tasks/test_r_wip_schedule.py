"""R_wip_schedule: compiled against the golden file, one ERP per project manager's portfolio, the
workbook graded by what its cells show (typed numbers or formulas), the twists (a pending owner
change order, an estimate raised this month, a loss job) caught, the careless readings failing
(a copy of the seeded workbook, the pending CO counted, the old estimate, the loss in proportion, a
cent off, rows in another order), every task admitted (k=2) and the over-eager policies failing."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from cfab.runner.attempt import run_attempt
from cfab.runner.policies.oracle import OraclePolicy
from cfab.tasks.families.r_wip_schedule import ERPS, HEADERS, POLICY, SHEET, RWipSchedule
from cfab.tasks.model import Task, ToolStep
from tests.tasks.family_helpers import INPUTS, FamilyContract, failed, replay

FAMILY = RWipSchedule
KEYS = ["Dale_Wagner", "Emily_Hartmann", "Gregory_Castillo", "Karen_Lopez", "Laura_Morrison"]
OVER_EAGER_KEYS = ["Dale_Wagner", "Karen_Lopez"]
TWISTS = {
    "cf_R_wip_schedule_Dale_Wagner": "unapproved_co",
    "cf_R_wip_schedule_Emily_Hartmann": "estimate_raised",
    "cf_R_wip_schedule_Gregory_Castillo": "loss_job",
    "cf_R_wip_schedule_Laura_Morrison": "unapproved_co",
}


def _t(compiled: dict[str, Task], key: str) -> Task:
    return compiled[f"cf_R_wip_schedule_{key}"]


def _sheet(task: Task) -> list[list]:
    return task.oracle.steps[-1].args["sheets"][SHEET]


def _with_sheet(task: Task, sheet: list[list]) -> list[ToolStep]:
    steps = list(task.oracle.steps)
    last = steps[-1]
    steps[-1] = ToolStep(tool=last.tool, args={**last.args, "sheets": {SHEET: sheet}})
    return steps


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert {i: t.defect_variant for i, t in compiled.items() if t.defect_variant} == TWISTS
    erps = [t.systems[0] for t in compiled.values()]
    assert len(set(erps)) == len(erps) and set(erps) <= set(ERPS)
    for t in compiled.values():
        assert t.systems == [t.systems[0], "excel", "sharepoint"] and t.policy_ref == POLICY
        assert t.difficulty == 4 and not t.money_movement_guard and t.ground_truth.forbid_unexpected
        assert t.oracle.steps[0].tool == "sharepoint.files.read" and t.oracle.steps[-1].tool == "excel.workbooks.create"
        assert POLICY in t.instruction and all(f"`{a.name}`" in t.instruction for a in t.ground_truth.answers)
        sheet = _sheet(t)
        assert sheet[0] == HEADERS and [r[0] for r in sheet[1:]] == sorted(r[0] for r in sheet[1:])
        assert 3 <= len(sheet) - 1 <= 6 and all(r[0] in t.instruction for r in sheet[1:])
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 6
        assert {m.mutant_class for m in t.mutants} >= {"lookalike", "careless", "contradicting_report", "shortcut"}


def test_twists_change_the_figures(compiled: dict[str, Task]) -> None:
    """The loss job's earned revenue is contract - estimated cost to complete; the pending CO and the
    old estimate are the mutants' lookalikes."""
    t = _t(compiled, "Gregory_Castillo")
    loss = [r for r in _sheet(t)[1:] if Decimal(r[5]) > Decimal(r[2])]
    assert len(loss) == 1
    (row,) = loss
    assert Decimal(row[7]) == Decimal(row[2]) - Decimal(row[4]) and "loss job" in t.oracle.reply
    labels = {m.label.split(":")[0] for m in t.mutants}
    assert "the loss recognised in proportion to completion" in labels
    assert "last month's estimate to complete (no fade)" in labels
    assert "the pending owner change order counted in the contract value" in {
        m.label.split(":")[0] for m in _t(compiled, "Dale_Wagner").mutants
    }
    assert "pending owner change order" in _t(compiled, "Laura_Morrison").oracle.reply


def test_the_policy_is_readable_and_says_how(compiled: dict[str, Task], golden: Path) -> None:
    out = run_attempt(_t(compiled, "Gregory_Castillo"), OraclePolicy(), golden=golden, inputs=INPUTS)
    assert out.grade.passed and all(c.ok for c in out.tool_log)
    text = str(out.tool_log[0].result)
    assert "entire estimated" in text and "approved" in text and "never netted" in text


def test_the_erp_shows_the_pending_change_order(compiled: dict[str, Task], golden: Path) -> None:
    t = _t(compiled, "Dale_Wagner")
    out = run_attempt(t, OraclePolicy(), golden=golden, inputs=INPUTS)
    listed = [c.result for c in out.tool_log if c.tool.endswith(".change_orders.list")]
    assert any("Pending" in str(r) for r in listed)


def test_formulas_and_typed_numbers_both_pass(compiled: dict[str, Task], golden: Path) -> None:
    for key in ("Gregory_Castillo", "Karen_Lopez"):
        t = _t(compiled, key)
        formulas = next(a for a in t.alternatives if "formulas" in a.label)
        out = replay(t, golden, list(formulas.steps), answers=t.oracle.answers)
        assert out.grade.passed, (key, str(out.grade))


def test_careless_workbooks_fail(compiled: dict[str, Task], golden: Path) -> None:
    t = _t(compiled, "Gregory_Castillo")
    sheet = _sheet(t)
    cent = [list(r) for r in sheet]
    cent[2][7] = str(Decimal(cent[2][7]) + Decimal("0.01"))
    out = replay(t, golden, _with_sheet(t, cent), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "expected")
    swapped = [sheet[0], sheet[2], sheet[1], *sheet[3:]]
    out = replay(t, golden, _with_sheet(t, swapped), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "expected")
    # the loss in proportion: earned revenue = contract x percent complete on the loss job
    prop = [list(r) for r in sheet]
    for r in prop[1:]:
        if Decimal(r[5]) > Decimal(r[2]):
            r[7] = str((Decimal(r[2]) * Decimal(r[3]) / Decimal(r[5])).quantize(Decimal("0.01")))
    out = replay(t, golden, _with_sheet(t, prop), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "expected")


def test_wrong_answers_fail(compiled: dict[str, Task], golden: Path) -> None:
    t = _t(compiled, "Laura_Morrison")
    over = Decimal(t.oracle.answers["total_overbillings"])
    under = Decimal(t.oracle.answers["total_underbillings"])
    assert under > 0
    out = replay(t, golden, list(t.oracle.steps), answers={**t.oracle.answers, "total_overbillings": str(over - under)})
    assert not out.grade.passed and failed(out, "answer")


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
