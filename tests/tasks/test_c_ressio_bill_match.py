"""C_ressio_bill_match (Ressio supplier bills against their POs): compiled against the golden
file, its keys chosen by property (a bill over its PO and a matched one), the typed answers,
every task admitted (k=2) and the over-eager policies failing."""

from __future__ import annotations

from cfab.tasks.families.c_ressio_bill_match import CRessioBillMatch
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_pm_shape, assert_typed_answers

FAMILY = CRessioBillMatch
COUNT = 2
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True  # its forbidden list names none of the extra moves


def test_metadata_guards_and_twists(compiled: dict[str, Task]) -> None:
    assert_pm_shape(compiled, {"ressio"}, reports=True)
    assert "bill_po_mismatch" in {t.defect_variant for t in compiled.values()}


def test_typed_answers_alternatives_and_wrong_trajectories(compiled: dict[str, Task]) -> None:
    assert_typed_answers(compiled, {"match_result": "choice", "amount_over_po": "amount"})
    results = {
        t.defect_variant: (t.ground_truth.answers[0].expected, t.ground_truth.answers[1].expected)
        for t in compiled.values()
    }
    assert results[None] == ("matched", "0.00")
    assert results["bill_po_mismatch"][0] == "exception" and results["bill_po_mismatch"][1] != "0.00"


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
