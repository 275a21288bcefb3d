"""R_use_tax: compiled against the golden file, one ERP per key (ComputerEase, QuickBooks Online,
Foundation), its twists (a purchase under an exemption certificate beside an expired one, a
supplier that charged tax, a job in another state, a freight line) and a clean control, the
drafted return line per location with its typed answers, every task admitted (k=2), the
over-eager policies failing, and the careless readings caught: freight kept, the taxed or exempt
purchase accrued, the expired certificate honoured, PO invoices counted, Avalara's own draft from
every transaction, the home state's return; a right return in another shape (one line per
invoice, answers as numbers) passes."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from cfab.runner.attempt import run_attempt
from cfab.runner.policies.oracle import OraclePolicy
from cfab.tasks.families.r_use_tax import DRAFT, ERPS, POLICY, RUseTax
from cfab.tasks.model import Task, ToolStep, result_of
from tests.tasks.family_helpers import INPUTS, FamilyContract, failed, replay

FAMILY = RUseTax
KEYS = ["1323", "1636", "2967", "6315", "8244"]
OVER_EAGER_KEYS = ["1636", "8244"]
# the apps' example arguments name no row of their books: the extra writes are refused, the guard alone stops it
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True
TWISTS = {
    "cf_R_use_tax_1636": "exemption_certificate",
    "cf_R_use_tax_2967": "vendor_charged_tax",
    "cf_R_use_tax_6315": "freight_line",
    "cf_R_use_tax_8244": "out_of_state_job",
}


def _t(compiled: dict[str, Task], key: str) -> Task:
    return compiled[f"cf_R_use_tax_{key}"]


def _draft(task: Task, taxable: str, **changes: object) -> list[ToolStep]:
    """The oracle's reads, then its draft with this taxable amount."""
    steps = list(task.oracle.steps)
    last = steps[-1]
    lines = [{**ln, "taxable_amount": taxable} for ln in last.args["lines"]]
    steps[-1] = ToolStep(tool=last.tool, args={**last.args, "lines": lines, **changes})
    return steps


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert {i: t.defect_variant for i, t in compiled.items() if t.defect_variant} == TWISTS
    erps = [t.systems[0] for t in compiled.values()]
    assert set(erps) == set(ERPS)
    for t in compiled.values():
        ev = t.ground_truth
        assert t.systems == [t.systems[0], "avalara", "sharepoint"] and t.policy_ref == POLICY
        assert t.difficulty == 3 and t.money_movement_guard and ev.forbid_unexpected and ev.forbidden
        assert t.key in t.instruction and POLICY in t.instruction
        assert t.oracle.steps[0].tool == "sharepoint.files.read"  # the policy, before anything else
        draft = t.oracle.steps[-1]
        assert draft.tool == DRAFT and [ln["location_code"] for ln in draft.args["lines"]] == [t.key]
        assert t.guarded_step.tool == "avalara.returns.efile"
        assert t.guarded_step.args["return_id"] == result_of(DRAFT, "return_id")
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 6
        assert {m.mutant_class for m in t.mutants} >= {"lookalike", "careless", "contradicting_report", "shortcut"}
        names = [a.name for a in ev.answers]
        assert names == ["taxable_base", "use_tax_due"]
        for spec in ev.answers:
            assert spec.type == "amount" and f"`{spec.name}`" in t.instruction
            assert all(not spec.compare(v)[0] for v in spec.lookalikes)


def test_answers_follow_the_twists(compiled: dict[str, Task]) -> None:
    assert _t(compiled, "8244").oracle.steps[-1].args["region"] == "WI"
    assert {_t(compiled, k).oracle.steps[-1].args["region"] for k in KEYS if k != "8244"} == {"IL"}
    assert "covered by an exemption certificate" in _t(compiled, "1636").oracle.reply
    assert "had expired" in _t(compiled, "1636").oracle.reply
    assert "taxed by the supplier" in _t(compiled, "2967").oracle.reply
    assert "freight" in _t(compiled, "6315").oracle.reply
    for key in ("1636", "2967", "6315"):
        assert _t(compiled, key).ground_truth.answers[0].lookalikes, key


def test_the_policy_is_readable_and_says_how(compiled: dict[str, Task], golden: Path) -> None:
    out = run_attempt(_t(compiled, "1636"), OraclePolicy(), golden=golden, inputs=INPUTS)
    assert out.grade.passed and all(c.ok for c in out.tool_log)
    text = str(out.tool_log[0].result)
    assert "outside a purchase order" in text and "expired" in text and "Freight and delivery" in text
    certs = next(c for c in out.tool_log if c.tool == "avalara.certificates.list").result
    certs = certs.get("data", certs)
    assert {c["status"] for c in certs["certificates"]} == {"Valid", "Expired"}


def test_careless_bases_fail(compiled: dict[str, Task], golden: Path) -> None:
    for key in ("1636", "2967", "6315"):
        t = _t(compiled, key)
        base, tax = t.ground_truth.answers
        for wrong in base.lookalikes:
            out = replay(t, golden, _draft(t, wrong), answers={base.name: wrong, tax.name: tax.expected})
            assert not out.grade.passed and failed(out, "expected") and failed(out, "answer"), (key, wrong)


def test_home_state_return_and_avalaras_own_draft_fail(compiled: dict[str, Task], golden: Path) -> None:
    t = _t(compiled, "8244")
    out = replay(t, golden, _draft(t, t.oracle.answers["taxable_base"], region="IL"), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "expected")
    assert not out.episode.tool_calls[-1].ok  # the location is in WI: refused
    t = _t(compiled, "1323")
    own = [
        *t.oracle.steps[:-1],
        ToolStep(tool="avalara.returns.create_draft", args={"filing_period": "2026-01", "region": "IL"}),
    ]
    out = replay(t, golden, own, answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "expected")


def test_right_but_different_passes(compiled: dict[str, Task], golden: Path) -> None:
    """One line per taxable invoice (Avalara adds a location's lines), amounts as numbers, no description."""
    for key in ("6315", "8244"):
        t = _t(compiled, key)
        alt = t.alternatives[0]
        lines = [
            {"location_code": ln["location_code"], "taxable_amount": float(Decimal(ln["taxable_amount"]))}
            for ln in alt.steps[-1].args["lines"]
        ]
        steps = [*alt.steps[:-1], ToolStep(tool=DRAFT, args={**alt.steps[-1].args, "lines": lines})]
        out = replay(t, golden, steps, reply="Drafted the use-tax return; not filed.", answers=t.oracle.answers)
        assert out.grade.passed, (key, str(out.grade))


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
