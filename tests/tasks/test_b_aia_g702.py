"""B_aia_g702: compiled against the golden file, its keys and twists (a change-order SOV line,
the retainage step-down crossed or not reached), the G702 amounts and typed answer, every task
admitted (k=2) with the over-eager policies failing, and the wrong retainage, the unbilled CO
line and stored materials taken for billed work caught."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from cfab.tasks.families.b_aia_g702 import BAiaG702
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep
from tests.tasks.family_helpers import FamilyContract, assert_staged_write_shape, failed, replay

FAMILY = BAiaG702
KEYS = ["1042", "1990", "2014", "2200", "3100", "3412"]
OVER_EAGER_KEYS = KEYS
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True  # its forbidden list names none of the extra moves
TWISTS = {
    "cf_B_aia_g702_1990": "co_added_sov_line",
    "cf_B_aia_g702_2200": "retainage_step_down",
    "cf_B_aia_g702_3412": "step_down_not_reached",
}


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert_staged_write_shape(compiled, TWISTS, money_guard=True)


def test_aia_amounts(compiled: dict[str, Task]) -> None:
    stepped, plain, below = (compiled[f"cf_B_aia_g702_{k}"] for k in ("2200", "1042", "3412"))
    assert stepped.oracle.steps[-1].args["retainage_percent"] == "5.00"
    assert plain.oracle.steps[-1].args["retainage_percent"] == "10.00"
    assert below.oracle.steps[-1].args["retainage_percent"] == "10.00"
    for t in compiled.values():
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
        mutants = compiled[f"cf_B_aia_g702_{k}"].mutants
        assert any(m.mutant_class == "stale" and "retainage at" in m.label for m in mutants)


def _with_draft_args(task: Task, **changes) -> list[ToolStep]:
    steps = list(task.oracle.steps)
    last = steps[-1]
    steps[-1] = ToolStep(tool=last.tool, args={**last.args, **changes})
    return steps


def test_aia_wrong_answers_fail(compiled: dict[str, Task], golden: Path) -> None:
    # the step-down crossed on 2200 (10% is wrong) and not reached on 3412 (5% is wrong)
    for key, wrong in (("2200", "10.00"), ("3412", "5.00")):
        out = replay(
            compiled[f"cf_B_aia_g702_{key}"],
            golden,
            _with_draft_args(compiled[f"cf_B_aia_g702_{key}"], retainage_percent=wrong),
        )
        assert not out.grade.passed
        assert any("column I" in label for label in failed(out, "expected"))
    # the owner CO line added since application #1 left unbilled on 1990
    t = compiled["cf_B_aia_g702_1990"]
    item = next(ln["item_no"] for ln in reversed(t.oracle.steps[-1].args["lines"]))
    lines = [ln for ln in t.oracle.steps[-1].args["lines"] if ln["item_no"] != item]
    out = replay(t, golden, _with_draft_args(t, lines=lines))
    assert not out.grade.passed and any("column E" in label for label in failed(out, "expected"))
    # last period's stored materials treated as billed work (E = G now − G before) on 1042
    t = compiled["cf_B_aia_g702_1042"]
    book = BookReader(golden)
    try:
        prev = {
            r["item_no"]: Decimal(r["materials_presently_stored"])
            for r in book.rows(
                "SELECT item_no, materials_presently_stored FROM gcpay.pay_application_items "
                "WHERE pay_app_id = 'PA-1042-001'"
            )
        }
    finally:
        book.close()
    assert any(prev.values()), "application #1 of 1042 carries stored materials"
    lines = [
        {**ln, "work_this_period": str(max(Decimal(ln["work_this_period"]) - prev.get(ln["item_no"], 0), 0))}
        for ln in t.oracle.steps[-1].args["lines"]
    ]
    out = replay(t, golden, _with_draft_args(t, lines=lines))
    assert not out.grade.passed


def test_held_out_drafts_the_next_application(golden: Path) -> None:
    """Off the AIA anchor jobs a job has billed several applications: the held-out task drafts the
    one after its last certified one, with D from that one, never #2 over an existing #2."""
    book = BookReader(golden)
    try:
        fam = BAiaG702()
        held_out = fam.held_out_keys(book)
        assert len(held_out) == 3 and not set(held_out) & set(KEYS), held_out
        for key in held_out:
            last = book.one(
                "SELECT max(p.application_number) AS n FROM gcpay.pay_applications p "
                "JOIN gcpay.contracts c USING (contract_id) WHERE c.job_number = ? AND p.status <> 'Draft'",
                [key],
            )["n"]
            t = fam.task(key, book, partition="held_out")
            t.ground_truth.validate_against(book.con)
            head = t.ground_truth.expected[0]
            assert head.where["application_number"] == last + 1 and head.assert_["period_to"] == "2026-01-31"
            assert f"application #{last + 1} " in t.instruction and f"application #{last})" in t.instruction
            create = t.oracle.steps[-1]
            assert create.args["application_number"] == last + 1
            assert t.oracle.steps[2].args["application_number"] == last  # the previous application read
    finally:
        book.close()


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
