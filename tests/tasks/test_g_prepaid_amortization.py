"""G_prepaid_amortization: compiled against the golden file, one ERP per program (none of them
Vista), its twists (a policy bound mid-month, a policy cancelled with a return premium, a renewal
whose declarations page differs from the register's proposal figure), the entry per account and
side with its typed answers, every task admitted (k=2), the over-eager policies failing, the
careless readings caught (no proration, the register's premium, the return premium credited to
expense, the expired term carried on), and a right entry in another shape passing."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from cfab.runner.attempt import run_attempt
from cfab.runner.policies.oracle import OraclePolicy
from cfab.seeds.prepaid import amortization
from cfab.tasks.families.g_prepaid_amortization import ERPS, EXPENSE, POLICY, PREPAID, GPrepaidAmortization
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep, result_of
from tests.tasks.family_helpers import INPUTS, FamilyContract, failed, replay

FAMILY = GPrepaidAmortization
KEYS = ["casualty", "equipment", "fleet", "management"]
OVER_EAGER_KEYS = ["casualty", "equipment"]
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True
TWISTS = {
    "cf_G_prepaid_amortization_casualty": "mid_month_bind",
    "cf_G_prepaid_amortization_equipment": "cancelled_return_premium",
    "cf_G_prepaid_amortization_management": "amount_mismatch_pdf",
}


def _t(compiled: dict[str, Task], key: str) -> Task:
    return compiled[f"cf_G_prepaid_amortization_{key}"]


def _stage(task: Task, lines: list[dict[str, Any]], **changes: Any) -> list[ToolStep]:
    """The oracle's reads, then its stage call with these lines."""
    steps = list(task.oracle.steps)
    last = steps[-1]
    steps[-1] = ToolStep(tool=last.tool, args={**last.args, "lines": lines, **changes})
    return steps


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert {i: t.defect_variant for i, t in compiled.items() if t.defect_variant} == TWISTS
    erps = [t.systems[0] for t in compiled.values()]
    assert len(set(erps)) == len(erps) and set(erps) <= set(ERPS.values()) and "vista_erp" not in erps
    for t in compiled.values():
        ev = t.ground_truth
        assert t.systems == [t.systems[0], "box", "sharepoint"] and t.policy_ref == POLICY
        assert t.difficulty == 2 and t.money_movement_guard and ev.forbid_unexpected and ev.forbidden
        assert t.key in t.instruction and POLICY in t.instruction and "/Insurance/Policies" in t.instruction
        stage = t.oracle.steps[-1]
        assert stage.tool == f"{t.systems[0]}.journal_entries.stage" and "auto_reverse" not in stage.args
        assert t.oracle.steps[0].tool == "sharepoint.files.read"
        assert any(s.tool == "box.ocr_pdf" for s in t.oracle.steps)
        assert t.guarded_step.args["batch_id"] == result_of(stage.tool, "batch_id")
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 6
        names = [a.name for a in ev.answers]
        assert names[-1] == "total_amortization" and len(names) >= 3
        total = Decimal(ev.answers[-1].expected)
        assert sum(Decimal(a.expected) for a in ev.answers[:-1]) == total
        for spec in ev.answers:
            assert spec.type == "amount" and f"`{spec.name}`" in t.instruction
            assert all(not spec.compare(v)[0] for v in spec.lookalikes)
        assert {m.mutant_class for m in t.mutants} >= {"lookalike", "careless"}


def test_sql_matches_the_seed_convention(golden: Path) -> None:
    """The ground-truth SQL (integer cents) and the plant's Python convention agree, every program."""
    book = BookReader(golden)
    try:
        month = INPUTS.clock.strftime("%Y-%m")
        for r in book.q("G_prepaid_amortization", "programs", month=month):
            for p in book.q("G_prepaid_amortization", "policies", month=month, program=r["program"]):
                got = amortization(
                    {**p, "premium": Decimal(p["premium"])}, INPUTS.clock.replace(day=1), Decimal(p["amortized"])
                )
                assert got == Decimal(p["amount"]), p
    finally:
        book.close()


def test_twists_follow_the_policy_clauses(compiled: dict[str, Task]) -> None:
    first = INPUTS.clock.replace(day=1)
    c = FAMILY().case("casualty", BookReader(_golden()))
    bound = c.of("bound_mid_month")
    assert bound and all(p["effective_date"] > first and p["days"] < p["dim"] for p in bound)
    answers = {a.name: a for a in _t(compiled, "casualty").ground_truth.answers}
    for p in bound:
        assert Decimal(answers[p["coverage"]].expected) < Decimal(p["monthly"])
        assert money(p["monthly"]) in answers[p["coverage"]].lookalikes
    e = FAMILY().case("equipment", BookReader(_golden()))
    (cancelled,) = e.of("cancelled")
    assert cancelled["cancelled_date"] > first and Decimal(cancelled["return_premium"]) > 0
    assert "is not expense" in _t(compiled, "equipment").oracle.reply
    m = FAMILY().case("management", BookReader(_golden()))
    (renewal,) = m.of("stale_register")
    assert renewal["effective_date"] == first and "register" in m.careless
    assert any(x["expired"] for x in m.prior)  # the expiring term was amortized last month
    assert "fleet" not in {k for k in TWISTS}  # the clean control
    assert not FAMILY().case("fleet", BookReader(_golden())).careless.keys() - {"daily"}


def _golden() -> Path:
    from cfab.apps.world.golden import ensure_golden

    return ensure_golden(INPUTS)


def money(x: Any) -> str:
    return f"{Decimal(x):.2f}"


def test_the_policy_and_the_pdfs_are_readable(compiled: dict[str, Task], golden: Path) -> None:
    out = run_attempt(_t(compiled, "equipment"), OraclePolicy(), golden=golden, inputs=INPUTS)
    assert out.grade.passed and all(c.ok for c in out.tool_log)
    policy = " ".join(str(out.tool_log[0].result["data"]["text"]).split())
    assert "never credited to 6200" in policy and "declarations page governs" in policy
    ocr = " ".join(str(c.result) for c in out.tool_log if c.tool == "box.ocr_pdf")
    assert "CANCELLATION ENDORSEMENT" in ocr and "Return premium" in ocr and "TOTAL POLICY PREMIUM" in ocr


def test_careless_readings_fail(compiled: dict[str, Task], golden: Path) -> None:
    for key in ("casualty", "equipment", "management"):
        t = _t(compiled, key)
        total = t.ground_truth.answers[-1]
        wrong = max(total.lookalikes, key=lambda v: abs(Decimal(v) - Decimal(total.expected)))
        lines = [{"account": EXPENSE, "debit": wrong}, {"account": PREPAID, "credit": wrong}]
        out = replay(t, golden, _stage(t, lines), answers={**t.oracle.answers, total.name: wrong})
        assert not out.grade.passed and failed(out, "expected") and failed(out, "answer"), key


def test_return_premium_credited_to_expense_fails(compiled: dict[str, Task], golden: Path) -> None:
    t = _t(compiled, "equipment")
    c = FAMILY().case("equipment", BookReader(golden))
    (p,) = c.of("cancelled")
    ret = money(p["return_premium"])
    lines = [*t.oracle.steps[-1].args["lines"], {"account": PREPAID, "debit": ret}, {"account": EXPENSE, "credit": ret}]
    out = replay(t, golden, _stage(t, lines), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "forbidden")


def test_right_but_different_passes(compiled: dict[str, Task], golden: Path) -> None:
    """One pair of lines, no memo, no reference or period, amounts as numbers, lines reversed."""
    for key in ("fleet", "casualty"):
        t = _t(compiled, key)
        total = float(Decimal(t.ground_truth.answers[-1].expected))
        lines = [{"account": PREPAID, "credit": total}, {"account": EXPENSE, "debit": total}]
        steps = _stage(t, lines)
        steps[-1] = ToolStep(
            tool=steps[-1].tool,
            args={k: v for k, v in steps[-1].args.items() if k not in ("reference", "period", "journal")},
        )
        out = replay(
            t, golden, steps, reply="Staged the amortization as a draft; not posted.", answers=t.oracle.answers
        )
        assert out.grade.passed, (key, str(out.grade))


def test_dates_are_relative_to_the_clock() -> None:
    """At another clock the program still holds each twist in the clock's month."""
    from cfab.seeds.build import generate
    from cfab.seeds.determinism import BuildInputs

    ctx = generate(BuildInputs(seed=4, clock=date(2026, 6, 30)))
    rows = ctx.rows("insurance_policies")
    first = date(2026, 6, 1)
    assert any(r["effective_date"] > first and r["effective_date"].month == 6 for r in rows)
    assert any(r["cancelled_date"] and r["cancelled_date"].month == 6 for r in rows)
    assert any(r["effective_date"] == first and r["scheduled_premium"] != r["premium"] for r in rows)


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
