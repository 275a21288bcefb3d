"""T_bank_rec: compiled against the golden file, one portal and one ERP per key; the reconciliation
ties (adjusted bank = adjusted book) on every key; the twists (an owner check returned NSF, a
wire fee charged twice, last month's deposit booked again, a check keyed for a transposed
amount) each change the entry the way the policy says; every task admitted (k=2), the over-eager
policies failing; wrong entries caught (the duplicate fee booked, the NSF check expensed, the
duplicate deposit left as in transit, timing items booked in the closed period's control) and a
right entry in another shape (one cash line per item, lines reordered) passing."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from cfab.runner.attempt import run_attempt
from cfab.runner.policies.oracle import OraclePolicy
from cfab.tasks.families.t_bank_rec import AR, FEES, INTEREST, POLICY, TBankRec
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep, result_of
from tests.tasks.family_helpers import INPUTS, FamilyContract, failed, replay

FAMILY = TBankRec
KEYS = ["bofa_cashpro_2025-12", "bofa_cashpro_2026-01", "wells_2026-01", "pnc_pinacle_2026-01"]
OVER_EAGER_KEYS = ["bofa_cashpro_2025-12", "wells_2026-01"]
# the ERPs' and portals' example arguments name no row of their books: the extra writes are refused,
# the guard alone stops it
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True
TWISTS = {
    "cf_T_bank_rec_bofa_cashpro_2026-01": "nsf_returned_deposit",
    "cf_T_bank_rec_wells_2026-01": "duplicate_bank_fee",
    "cf_T_bank_rec_pnc_pinacle_2026-01": "duplicate_deposit_in_transit",
}
ANSWERS = [
    "bank_ending_balance",
    "outstanding_checks_count",
    "outstanding_checks_total",
    "deposits_in_transit_total",
    "adjusted_balance",
]


def _t(compiled: dict[str, Task], key: str) -> Task:
    return compiled[f"cf_T_bank_rec_{key}"]


def _stage(task: Task) -> ToolStep:
    return task.oracle.steps[-1]


def _with_lines(task: Task, lines: list[dict[str, Any]]) -> list[ToolStep]:
    steps = list(task.oracle.steps)
    steps[-1] = ToolStep(tool=steps[-1].tool, args={**steps[-1].args, "lines": lines})
    return steps


def _by_account(task: Task) -> dict[tuple[str, str], Decimal]:
    out: dict[tuple[str, str], Decimal] = {}
    for ln in _stage(task).args["lines"]:
        side = "debit" if "debit" in ln else "credit"
        out[(ln["account"], side)] = out.get((ln["account"], side), Decimal(0)) + Decimal(str(ln[side]))
    return out


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert {i: t.defect_variant for i, t in compiled.items() if t.defect_variant} == TWISTS
    erps = [t.systems[1] for t in compiled.values()]
    portals = {t.systems[0] for t in compiled.values()}
    assert len(set(erps)) == len(erps) and "vista_erp" not in erps
    assert portals == {"bofa_cashpro", "wells", "pnc_pinacle"}
    assert "plaid" in _t(compiled, "wells_2026-01").systems
    for t in compiled.values():
        ev = t.ground_truth
        assert t.difficulty == 3 and t.money_movement_guard and ev.forbid_unexpected and ev.forbidden
        assert t.key in t.instruction and POLICY in t.instruction and t.policy_ref == POLICY
        assert [a.name for a in ev.answers] == ANSWERS
        assert all(f"`{a}`" in t.instruction for a in ANSWERS)
        assert t.oracle.steps[0].tool == "sharepoint.files.read"
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 6
        assert {m.mutant_class for m in t.mutants} >= {"lookalike", "stale", "careless", "shortcut"}
        assert t.guarded_step is not None and t.guarded_step.tool.endswith("post")


def test_every_reconciliation_ties(golden: Path) -> None:
    book = BookReader(golden)
    try:
        fam = TBankRec()
        for key in [*fam.keys(book), *fam.held_out_keys(book)]:
            c = fam.case(key, book)
            r = c.rec
            assert r["adjusted_bank"] == r["adjusted_book"], key
            assert (
                r["bank_ending"] + r["dit_total"] - r["outstanding_total"] + r["duplicate_charges"]
                == r["adjusted_bank"]
            )
        assert fam.held_out_keys(book) == ["chase_treasury_2026-01", "wells_2025-12"]
        chase = fam.case("chase_treasury_2026-01", book)
        assert chase.rec["check_difference"] > 0 and chase.offsets["check_difference"][0] == "2200"
    finally:
        book.close()


def test_entries_follow_the_policy(compiled: dict[str, Task]) -> None:
    control = _t(compiled, "bofa_cashpro_2025-12")
    assert not any(s.tool.endswith("journal_entries.stage") for s in control.oracle.steps)
    assert "closed" in control.oracle.reply
    nsf = _by_account(_t(compiled, "bofa_cashpro_2026-01"))
    assert set(nsf) == {(AR, "debit"), (FEES, "debit"), ("1000", "credit")}
    ar_line = next(ln for ln in _stage(_t(compiled, "bofa_cashpro_2026-01")).args["lines"] if ln["account"] == AR)
    assert ar_line.get("job_id")
    wells = _t(compiled, "wells_2026-01")
    fees = _by_account(wells)
    assert set(fees) == {(FEES, "debit"), ("1020", "credit")}
    dup = Decimal(wells.ground_truth.answers[-1].expected)  # adjusted balance keeps the duplicate added back
    assert any(Decimal(v) != dup for v in wells.ground_truth.answers[-1].lookalikes)
    pnc = _by_account(_t(compiled, "pnc_pinacle_2026-01"))
    assert set(pnc) == {("4100", "debit"), (INTEREST, "credit"), ("1030", "credit")}
    spec = next(
        a for a in _t(compiled, "pnc_pinacle_2026-01").ground_truth.answers if a.name == "deposits_in_transit_total"
    )
    assert spec.lookalikes  # the duplicate counted as in transit
    for key in KEYS[1:]:
        t = _t(compiled, key)
        assert t.guarded_step.args["batch_id"] == result_of(_stage(t).tool, "batch_id")


def test_the_statement_is_read_in_each_portals_words(compiled: dict[str, Task], golden: Path) -> None:
    tools = {t.systems[0]: t.oracle.steps[1].tool for t in compiled.values()}
    assert tools == {
        "bofa_cashpro": "bofa_cashpro.information_reporting.statements",
        "wells": "wells.reporting.account_statement",
        "pnc_pinacle": "pnc_pinacle.information_reporting.statement",
    }
    out = run_attempt(_t(compiled, "wells_2026-01"), OraclePolicy(), golden=golden, inputs=INPUTS)
    assert out.grade.passed and all(c.ok for c in out.tool_log)
    res = out.tool_log[1].result
    st = res.get("data", res) if isinstance(res, dict) else res
    assert str(st["closing_balance"]) == _t(compiled, "wells_2026-01").oracle.answers["bank_ending_balance"]
    fees = [x for x in st["transactions"] if x["description"].startswith("OUTGOING WIRE FEE")]
    assert len(fees) == 2 and fees[0]["amount"] == fees[1]["amount"]


def test_duplicate_fee_booked_fails(compiled: dict[str, Task], golden: Path) -> None:
    """The second wire fee booked with the first (the entry's 6600 total off by it), the answers right."""
    t = _t(compiled, "wells_2026-01")
    wrong = next(m for m in t.mutants if m.label == "the duplicate charge booked as a fee")
    out = replay(t, golden, list(wrong.steps), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "expected")


def test_nsf_expensed_and_duplicate_deposit_in_transit_fail(compiled: dict[str, Task], golden: Path) -> None:
    t = _t(compiled, "bofa_cashpro_2026-01")
    lines = [({**ln, "account": FEES} if ln["account"] == AR else dict(ln)) for ln in _stage(t).args["lines"]]
    lines = [{k: v for k, v in ln.items() if not (k == "job_id" and ln["account"] == FEES)} for ln in lines]
    out = replay(t, golden, _with_lines(t, lines), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "expected")
    p = _t(compiled, "pnc_pinacle_2026-01")
    spec = next(a for a in p.ground_truth.answers if a.name == "deposits_in_transit_total")
    out = replay(p, golden, list(p.oracle.steps), answers={**p.oracle.answers, spec.name: spec.lookalikes[0]})
    assert not out.grade.passed and failed(out, "answer")


def test_an_entry_in_the_closed_months_control_fails(compiled: dict[str, Task], golden: Path) -> None:
    t = _t(compiled, "bofa_cashpro_2026-01")
    c = _t(compiled, "bofa_cashpro_2025-12")
    staged = ToolStep(
        tool=f"{c.systems[1]}.journal_entries.stage",
        args={**_stage(t).args, "entry_date": "2026-01-01", "period": "2026-01"},
    )
    out = replay(c, golden, [*c.oracle.steps, staged], answers=c.oracle.answers)
    assert not out.grade.passed and failed(out, "forbidden")


def test_right_but_different_passes(compiled: dict[str, Task], golden: Path) -> None:
    """One cash line per item, lines reversed, amounts as numbers, no memo, reference or period."""
    for key in KEYS[1:]:
        t = _t(compiled, key)
        stage = _stage(t)
        gl = next(ln["account"] for ln in stage.args["lines"] if ln["account"].startswith("10"))
        lines: list[dict[str, Any]] = []
        for ln in stage.args["lines"]:
            if ln["account"] == gl:
                continue
            side = "debit" if "debit" in ln else "credit"
            other = "credit" if side == "debit" else "debit"
            lines.append({k: (float(v) if k == side else v) for k, v in ln.items() if k != "memo"})
            lines.append({"account": gl, other: float(ln[side])})
        steps = list(t.oracle.steps)
        args = {k: v for k, v in stage.args.items() if k not in ("reference", "period", "journal")}
        steps[-1] = ToolStep(tool=stage.tool, args={**args, "lines": list(reversed(lines))})
        out = replay(
            t, golden, steps, reply="Reconciled; the adjustments are staged, not posted.", answers=t.oracle.answers
        )
        assert out.grade.passed, (key, str(out.grade))


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
