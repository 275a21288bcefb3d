"""T_cash_forecast: compiled against the golden file, one bank portal per key (Bank of America the
clean control; Chase, Wells Fargo and PNC each holding a payment Treasury scheduled for the first
week, visible in that portal only), the workbook graded by what its cells show (typed numbers or
formulas), the policy's clauses caught (the reserve outside opening cash, the checks in transit in
week 1, owner receipts net of retainage, the reserve draw a receipt, the payroll tax on the payroll
line), the careless readings failing, every task admitted and the over-eager policies failing."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from cfab.runner.attempt import run_attempt
from cfab.runner.policies.oracle import OraclePolicy
from cfab.tasks.families import t_cash_forecast as T
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep
from tests.tasks.family_helpers import INPUTS, FamilyContract, failed, replay

FAMILY = T.TCashForecast
KEYS = ["bofa_cashpro", "chase_treasury", "wells", "pnc_pinacle"]
OVER_EAGER_KEYS = ["wells"]
TWISTS = {
    "cf_T_cash_forecast_chase_treasury": "scheduled_payroll_tax",
    "cf_T_cash_forecast_wells": "reserve_transfer",
    "cf_T_cash_forecast_pnc_pinacle": "scheduled_loan_prepayment",
}


def _t(compiled: dict[str, Task], key: str) -> Task:
    return compiled[f"cf_T_cash_forecast_{key}"]


def _sheet(task: Task) -> list[list]:
    return task.oracle.steps[-1].args["sheets"][T.SHEET]


def _with_sheet(task: Task, sheet: list[list]) -> list[ToolStep]:
    steps = list(task.oracle.steps)
    last = steps[-1]
    steps[-1] = ToolStep(tool=last.tool, args={**last.args, "sheets": {T.SHEET: sheet}})
    return steps


def _row(task: Task, row: int) -> list[Decimal]:
    return [Decimal(x) for x in _sheet(task)[row - 1][1:]]


@pytest.fixture(scope="module")
def cases(golden: Path, compiled: dict[str, Task]) -> dict[str, T.Case]:
    book = BookReader(golden)
    try:
        return {t.key: FAMILY().case(t.key, book) for t in compiled.values()}
    finally:
        book.close()


def test_keys_metadata_and_twists(compiled: dict[str, Task], cases: dict[str, T.Case]) -> None:
    assert {i: t.defect_variant for i, t in compiled.items() if t.defect_variant} == TWISTS
    erps = [cases[t.key].erp for t in compiled.values()]
    assert len(set(erps)) == len(erps)
    assert {cases[t.key].payroll for t in compiled.values()} == {"adp", "rippling", "foundation_payroll"}
    for t in compiled.values():
        c = cases[t.key]
        assert t.systems == [c.erp, c.payroll, "gcpay", "plaid", t.key, "sharepoint", "excel"]
        assert t.difficulty == 4 and not t.money_movement_guard and t.ground_truth.forbid_unexpected
        assert t.policy_ref == T.POLICY and T.POLICY in t.instruction
        assert all(f"`{a.name}`" in t.instruction for a in t.ground_truth.answers)
        assert t.oracle.steps[0].tool == "sharepoint.files.read" and t.oracle.steps[-1].tool == "excel.workbooks.create"
        assert any(s.tool.startswith(f"{t.key}.") for s in t.oracle.steps)
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 6
        assert {m.mutant_class for m in t.mutants} >= {"lookalike", "careless", "stale", "contradicting_report"}
        # 91 graded cells (13 weeks x 6 lines and ending cash) + week 1's opening + the workbook
        assert len(t.ground_truth.expected) == 1 + 1 + T.WEEKS * 7


def test_held_out_keys_compose_two_portals(golden: Path, compiled: dict[str, Task]) -> None:
    book = BookReader(golden)
    try:
        fam = FAMILY()
        held = fam.held_out_keys(book)
        assert len(held) == 2 and not set(held) & set(KEYS)
        for key in held:
            c = fam.case(key, book)
            assert len(c.portals) == 2 and len(c.items) == 2 and "bofa_cashpro" not in c.portals
            assert fam.defect_variant(c) and "+" in str(fam.defect_variant(c))
    finally:
        book.close()


def test_the_forecast_adds_up(compiled: dict[str, Task]) -> None:
    """Ending cash = opening + receipts - disbursements every week; each week opens at the last one's end;
    the lowest week and its ending cash are the answers."""
    for t in compiled.values():
        opening, owner, reserve, rec, ap, pay, debt, other, dis, net, end = (_row(t, r) for r in range(2, 13))
        for k in range(T.WEEKS):
            assert rec[k] == owner[k] + reserve[k] and dis[k] == ap[k] + pay[k] + debt[k] + other[k]
            assert net[k] == rec[k] - dis[k] and end[k] == opening[k] + net[k]
            assert k == 0 or opening[k] == end[k - 1]
        low = min(range(T.WEEKS), key=lambda k: (end[k], k))
        assert t.oracle.answers["lowest_ending_cash"] == str(end[low])
        assert t.oracle.answers["lowest_week_ending"] == _sheet(t)[0][1 + low]


def test_each_twist_moves_its_line_in_week_one(compiled: dict[str, Task], cases: dict[str, T.Case]) -> None:
    """The scheduled payment lands on its line in week 1 (the reserve draw a receipt, the payroll tax on
    payroll, the prepayment on debt service) and moves every ending cash by its amount."""
    clean = _t(compiled, "bofa_cashpro")
    for key, line, sign in (("chase_treasury", 7, -1), ("wells", 4, 1), ("pnc_pinacle", 8, -1)):
        t, (item,) = _t(compiled, key), cases[key].items
        amount = Decimal(item["amount"])
        assert _row(t, line)[0] - _row(clean, line)[0] == amount
        assert all(a - b == sign * amount for a, b in zip(_row(t, 12), _row(clean, 12), strict=True))
        assert t.oracle.answers["lowest_ending_cash"] != clean.oracle.answers["lowest_ending_cash"]


def test_policy_clauses_shape_the_control(compiled: dict[str, Task], cases: dict[str, T.Case]) -> None:
    """On the control: the reserve is not opening cash, the checks in transit are week 1's AP, owner
    receipts are net of the owner's retainage; each careless reading is a mutant of the task."""
    t, c = _t(compiled, "bofa_cashpro"), cases["bofa_cashpro"]
    reserve = next(a for a in c.accounts if a["bank_account_id"] == T.RESERVE)
    assert _row(t, 2)[0] == sum(Decimal(a["ledger_balance"]) for a in c.accounts) - Decimal(reserve["ledger_balance"])
    in_transit = sum(Decimal(x["amount"]) for x in c.inputs["checks_in_transit"] if x["bank_account_id"] != T.RESERVE)
    assert in_transit > 0 and _row(t, 6)[0] >= in_transit
    assert {"reserve", "float", "gross", "last_run", "shift"} <= set(c.careless)
    labels = {m.label.split(":")[0] for m in t.mutants}
    assert "the reserve money market counted in opening cash" in labels
    assert "owner receipts at the gross billed (retainage ignored)" in labels


def test_the_portal_holds_what_plaid_does_not(compiled: dict[str, Task], golden: Path) -> None:
    """The scheduled payment is only in the portal: its scheduled-payments read shows it, Plaid's
    transactions never do; the policy says the reserve draw is a receipt."""
    out = run_attempt(_t(compiled, "wells"), OraclePolicy(), golden=golden, inputs=INPUTS)
    assert out.grade.passed and all(c.ok for c in out.tool_log)
    policy = str(out.tool_log[0].result)
    assert "from the reserve into a forecast account" in policy and "not** part of" in policy
    portal = next(c for c in out.tool_log if c.tool == "wells.payment_manager.payments")
    assert "RESERVE DRAW" in str(portal.result) and "Scheduled" in str(portal.result)
    t = _t(compiled, "wells")
    window = {"start_date": "2025-01-01", "end_date": "2026-12-31", "count": 500}
    plaid = replay(t, golden, [ToolStep(tool="plaid.transactions.get", args=window)])
    assert "RESERVE DRAW" not in str(plaid.tool_log[0].result)


def test_formulas_and_typed_numbers_both_pass(compiled: dict[str, Task], golden: Path) -> None:
    for key in ("bofa_cashpro", "pnc_pinacle"):
        t = _t(compiled, key)
        formulas = next(a for a in t.alternatives if "formulas" in a.label)
        out = replay(t, golden, list(formulas.steps), answers=t.oracle.answers)
        assert out.grade.passed, (key, str(out.grade))


def test_careless_workbooks_fail(compiled: dict[str, Task], golden: Path) -> None:
    t = _t(compiled, "chase_treasury")
    sheet = _sheet(t)
    cent = [list(r) for r in sheet]
    cent[6][3] = str(Decimal(cent[6][3]) + Decimal("0.01"))  # week 3 payroll a cent high
    out = replay(t, golden, _with_sheet(t, cent), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "expected")
    # the payroll tax filed under other disbursements: payroll and other wrong, ending cash right
    item = Decimal(_row(t, 7)[0] - _row(_t(compiled, "bofa_cashpro"), 7)[0])
    moved = [list(r) for r in sheet]
    moved[6][1] = str(Decimal(moved[6][1]) - item)
    moved[8][1] = str(Decimal(moved[8][1]) + item)
    out = replay(t, golden, _with_sheet(t, moved), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "expected")


def test_wrong_answers_fail(compiled: dict[str, Task], golden: Path) -> None:
    t = _t(compiled, "wells")
    control = _t(compiled, "bofa_cashpro")
    out = replay(t, golden, list(t.oracle.steps), answers={**t.oracle.answers, **control.oracle.answers})
    assert not out.grade.passed and failed(out, "answer")


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
