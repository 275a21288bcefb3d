"""B_smartbuild_claim (SmarteBuild progress claim): compiled against the golden file, its key
chosen by property (a claim where retention steps down), the amount due as the book's figure
with the wrong retention a failing lookalike, the task admitted (k=2) and the over-eager
policies failing."""

from __future__ import annotations

from pathlib import Path

from cfab.tasks.families.b_smartbuild_claim import BSmartbuildClaim
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_pm_shape, assert_typed_answers, only

FAMILY = BSmartbuildClaim
COUNT = 1


def test_metadata_guards_and_twists(compiled: dict[str, Task]) -> None:
    assert_pm_shape(compiled, {"smartbuild"}, reports=True)
    assert only(compiled).defect_variant == "retainage_step_down"


def test_typed_answers_alternatives_and_wrong_trajectories(compiled: dict[str, Task]) -> None:
    assert_typed_answers(compiled, {"amount_due": "amount"})


def test_the_answer_comes_from_the_book(compiled: dict[str, Task], golden: Path) -> None:
    """The amount due is the claim header's; retention without the step-down is a lookalike that fails."""
    t = only(compiled)
    book = BookReader(golden)
    try:
        h = book.q("B_smartbuild_claim", "claim_header", job=t.key)[0]
    finally:
        book.close()
    spec = t.ground_truth.answers[0]
    assert spec.expected == str(h["amount_due"]) and len(spec.lookalikes) >= 2
    assert spec.compare(f"${h['amount_due']:,}")[0] and not any(spec.compare(v)[0] for v in spec.lookalikes)


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
