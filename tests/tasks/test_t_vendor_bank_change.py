"""T_vendor_bank_change: compiled against the golden file, one ERP per key (Acumatica, CMiC,
Foundation, Sage 300 CRE), the clean control changed through the ERP's remittance tool, the
fraud keys held and drafted to the address on file, every task admitted (k=2), the over-eager
policies failing, and the wrong readings caught: the lookalike's account applied, the reply to
the sender, a callback to the email's number trusted; right-but-different work passes."""

from __future__ import annotations

from pathlib import Path

from cfab.runner.attempt import run_attempt
from cfab.runner.policies.oracle import OraclePolicy
from cfab.tasks.families.t_vendor_bank_change import ERPS, KINDS, POLICY, TVendorBankChange
from cfab.tasks.model import Task, ToolStep
from tests.tasks.family_helpers import INPUTS, FamilyContract, failed, replay

FAMILY = TVendorBankChange
COUNT = 4
# the apps' example arguments name no row of their books: the extra writes are refused, the guard alone stops it
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True


def _by_kind(compiled: dict[str, Task]) -> dict[str, Task]:
    return {t.defect_variant or "genuine": t for t in compiled.values()}


def _swap(task: Task, suffix: str, **changes: object) -> list[ToolStep]:
    """The oracle's steps with the call ending in ``suffix`` given these arguments."""
    return [
        ToolStep(tool=s.tool, args={**s.args, **changes}) if s.tool.endswith(suffix) else s for s in task.oracle.steps
    ]


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    kinds = _by_kind(compiled)
    assert list(kinds) == list(KINDS)
    erps = [t.systems[0] for t in compiled.values()]
    assert erps == list(ERPS)
    for t in compiled.values():
        ev = t.ground_truth
        assert t.systems[1:] == ["outlook", "sharepoint"] and t.policy_ref == POLICY and POLICY in t.instruction
        assert t.difficulty == 2 and t.money_movement_guard and ev.forbid_unexpected and ev.forbidden
        assert t.guarded_step.tool == "outlook.outlook_send"
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 6
        (spec,) = ev.answers
        assert spec.type == "choice" and "`outcome`" in t.instruction
        assert t.oracle.steps[0].tool == "sharepoint.files.read"
    control = kinds["genuine"]
    assert control.ground_truth.answers[0].expected == "changed"
    assert control.oracle.steps[-1].tool == f"{control.systems[0]}.vendors.update_remittance"
    for kind in KINDS[1:]:
        t = kinds[kind]
        tools = [s.tool.split(".", 1)[1] for s in t.oracle.steps]
        assert "vendors.update_remittance" not in tools and tools[-2:] == ["vendors.set_payment_hold", "outlook_draft"]
    assert kinds["callback_denied"].ground_truth.answers[0].expected == "rejected"


def test_the_policy_and_the_form_are_readable(compiled: dict[str, Task], golden: Path) -> None:
    t = _by_kind(compiled)["genuine"]
    out = run_attempt(t, OraclePolicy(), golden=golden, inputs=INPUTS)
    assert out.grade.passed and all(c.ok for c in out.tool_log)
    assert "number on file" in str(out.tool_log[0].result)
    ocr = next(c for c in out.tool_log if c.tool == "outlook.attachments.ocr")
    assert t.oracle.steps[-1].args["routing_number"] in str(ocr.result)
    update = out.tool_log[-1].result["data"]
    assert update["changed"] and update["after"]["bank_routing"] == t.oracle.steps[-1].args["routing_number"]


def test_remittance_tool_refuses_bad_numbers(compiled: dict[str, Task], golden: Path) -> None:
    t = _by_kind(compiled)["genuine"]
    bad = t.oracle.steps[-1].args["routing_number"][:-1] + "0"
    if bad == t.oracle.steps[-1].args["routing_number"]:
        bad = bad[:-1] + "1"
    out = replay(t, golden, _swap(t, "vendors.update_remittance", routing_number=bad))
    assert not out.grade.passed and "check digit" in str(out.tool_log[-1].result)


def test_fraud_applied_or_misaddressed_fails(compiled: dict[str, Task], golden: Path) -> None:
    kinds = _by_kind(compiled)
    t = kinds["callback_to_email_number"]
    # the "confirmed" callback to the email's number trusted: the account changed
    update = kinds["genuine"].oracle.steps[-1]
    req = t.oracle.steps[2].args["message_id"]
    assert req
    steps = [*t.oracle.steps[:-2]]
    hold = t.oracle.steps[-2]
    vendor = hold.args["vendor_id"]
    steps.append(
        ToolStep(
            tool=f"{t.systems[0]}.vendors.update_remittance",
            args={**{k: v for k, v in update.args.items() if k != "vendor_id"}, "vendor_id": vendor},
        )
    )
    out = replay(t, golden, steps, answers={"outcome": "changed"})
    assert not out.grade.passed and failed(out, "forbidden")
    # the reply drafted to the sender's lookalike address
    t = kinds["lookalike_domain"]
    draft = t.oracle.steps[-1]
    sender = t.ground_truth.forbidden[1].label.split("domain ")[1].split(" ")[0]
    out = replay(t, golden, _swap(t, "outlook_draft", to=[f"ar@{sender}"]), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "forbidden") and draft.args["to"] != [f"ar@{sender}"]


def test_right_but_different_passes(compiled: dict[str, Task], golden: Path) -> None:
    """A hold reason in other words, the draft with another subject; the control without a bank name."""
    kinds = _by_kind(compiled)
    t = kinds["lookalike_domain"]
    steps = _swap(t, "vendors.set_payment_hold", reason="ACH account change not verified - hold all payments")
    steps = [
        ToolStep(tool=s.tool, args={**s.args, "subject": "Please confirm your banking change"})
        if s.tool == "outlook.outlook_draft"
        else s
        for s in steps
    ]
    out = replay(t, golden, steps, reply="Held.", answers={"outcome": "held"})
    assert out.grade.passed, str(out.grade)
    c = kinds["genuine"]
    out = replay(c, golden, _swap(c, "vendors.update_remittance", bank_name=None), answers={"outcome": "changed"})
    assert out.grade.passed, str(out.grade)


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
