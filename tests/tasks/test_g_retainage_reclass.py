"""G_retainage_reclass: compiled against the golden file, one ERP per key (none of them Vista),
its twists (a released retainage on a finished subcontract, invoices already split at posting,
entered-but-unposted invoices), the reclass entry per account and side with its typed answers,
every task admitted (k=2), the over-eager policies failing, and the careless readings caught:
the release ignored or reclassed the wrong way, the already-split or unposted retainage reclassed
again; a right entry in another shape (one pair of lines per invoice, lines reordered) passes."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from cfab.runner.attempt import run_attempt
from cfab.runner.policies.oracle import OraclePolicy
from cfab.tasks.families.g_retainage_reclass import AP, ERPS, POLICY, RET, GRetainageReclass
from cfab.tasks.model import Task, ToolStep, result_of
from tests.tasks.family_helpers import INPUTS, FamilyContract, failed, replay

FAMILY = GRetainageReclass
KEYS = ["1636", "2209", "3032", "3884", "8244"]
OVER_EAGER_KEYS = ["2209", "3884"]
# the ERPs' example arguments name no row of their books: the extra writes are refused, the guard alone stops it
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True
TWISTS = {
    "cf_G_retainage_reclass_1636": "unposted_invoices",
    "cf_G_retainage_reclass_2209": "retainage_already_split",
    "cf_G_retainage_reclass_3884": "retainage_released",
    "cf_G_retainage_reclass_8244": "retainage_released",
}


def _t(compiled: dict[str, Task], key: str) -> Task:
    return compiled[f"cf_G_retainage_reclass_{key}"]


def _stage(task: Task, lines: list[dict[str, Any]], **changes: Any) -> list[ToolStep]:
    """The oracle's reads, then its stage call with these lines."""
    steps = list(task.oracle.steps)
    last = steps[-1]
    steps[-1] = ToolStep(tool=last.tool, args={**last.args, "lines": lines, **changes})
    return steps


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert {i: t.defect_variant for i, t in compiled.items() if t.defect_variant} == TWISTS
    erps = [t.systems[0] for t in compiled.values()]
    assert len(set(erps)) == len(erps) and set(erps) <= set(ERPS) and "vista_erp" not in erps
    for t in compiled.values():
        ev = t.ground_truth
        assert t.systems == [t.systems[0], "sharepoint"] and t.policy_ref == POLICY
        assert t.difficulty == 2 and t.money_movement_guard and ev.forbid_unexpected and ev.forbidden
        assert t.key in t.instruction and POLICY in t.instruction
        stage = t.oracle.steps[-1]
        assert stage.tool == f"{t.systems[0]}.journal_entries.stage" and "auto_reverse" not in stage.args
        assert t.oracle.steps[0].tool == "sharepoint.files.read"  # the policy, before anything else
        assert t.guarded_step.tool.startswith(f"{t.systems[0]}.") and t.guarded_step.tool.endswith("_post")
        assert t.guarded_step.args["batch_id"] == result_of(stage.tool, "batch_id")
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 5
        for spec in ev.answers:
            assert spec.type == "amount" and f"`{spec.name}`" in t.instruction
            assert all(not spec.compare(v)[0] for v in spec.lookalikes)


def test_answers_follow_the_twists(compiled: dict[str, Task]) -> None:
    for key in ("3884", "8244"):  # release only: the reverse reclass, nothing withheld
        t = _t(compiled, key)
        assert [a.name for a in t.ground_truth.answers] == ["retainage_released"]
        assert {ln["account"] for ln in t.oracle.steps[-1].args["lines"] if "debit" in ln} == {RET}
        assert "on lines of their own" in t.oracle.reply
    for key in ("2209", "3032", "1636"):
        t = _t(compiled, key)
        assert [a.name for a in t.ground_truth.answers] == ["retainage_withheld"]
        assert {ln["account"] for ln in t.oracle.steps[-1].args["lines"] if "debit" in ln} == {AP}
    assert _t(compiled, "2209").ground_truth.answers[0].lookalikes  # every posted invoice's retainage
    assert "already posted their retainage" in _t(compiled, "2209").oracle.reply
    assert _t(compiled, "1636").ground_truth.answers[0].lookalikes  # the unposted invoices counted
    assert "still unposted" in _t(compiled, "1636").oracle.reply


def test_the_policy_is_readable_and_says_how(compiled: dict[str, Task], golden: Path) -> None:
    out = run_attempt(_t(compiled, "3884"), OraclePolicy(), golden=golden, inputs=INPUTS)
    assert out.grade.passed and all(c.ok for c in out.tool_log)
    text = str(out.tool_log[0].result)
    assert "Dr 2010 / Cr 2000" in text and "do not net" in text and "no 2010 line" in text


def test_release_mishandled_fails(compiled: dict[str, Task], golden: Path) -> None:
    t = _t(compiled, "3884")
    x = t.ground_truth.answers[0].expected
    job = t.oracle.steps[-1].args["lines"][0]["job_id"]
    wrong_way = [{"account": AP, "debit": x, "job_id": job}, {"account": RET, "credit": x, "job_id": job}]
    out = replay(t, golden, _stage(t, wrong_way), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "expected") and failed(out, "forbidden")
    out = replay(t, golden, list(t.oracle.steps[:-1]), answers=t.oracle.answers)  # the release ignored
    assert not out.grade.passed and failed(out, "expected")


def test_already_split_and_unposted_retainage_fail(compiled: dict[str, Task], golden: Path) -> None:
    for key in ("2209", "1636"):
        t = _t(compiled, key)
        (spec,) = t.ground_truth.answers
        (wrong,) = spec.lookalikes
        assert Decimal(wrong) > Decimal(spec.expected)
        lines = [{**ln, ("debit" if "debit" in ln else "credit"): wrong} for ln in t.oracle.steps[-1].args["lines"]]
        out = replay(t, golden, _stage(t, lines), answers={spec.name: wrong})
        assert not out.grade.passed and failed(out, "expected") and failed(out, "answer"), key


def test_right_but_different_passes(compiled: dict[str, Task], golden: Path) -> None:
    """The release's lines first, no memo, no reference or period (the entry date's month), amounts as numbers."""
    for key in ("8244", "3032"):
        t = _t(compiled, key)
        lines = [
            {k: (float(v) if k in ("debit", "credit") else v) for k, v in ln.items() if k != "memo"}
            for ln in reversed(t.oracle.steps[-1].args["lines"])
        ]
        steps = _stage(t, lines)
        steps[-1] = ToolStep(
            tool=steps[-1].tool,
            args={k: v for k, v in steps[-1].args.items() if k not in ("reference", "period", "journal")},
        )
        out = replay(t, golden, steps, reply="Staged the reclass as a draft; not posted.", answers=t.oracle.answers)
        assert out.grade.passed, (key, str(out.grade))


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
