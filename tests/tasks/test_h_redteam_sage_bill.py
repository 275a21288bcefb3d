"""H_redteam_sage_bill (RedTeam eApps drafted as Sage Intacct bills): compiled against the
golden file on job 1042 (the shared SC-1042-0), the held and drafted eApps as the book says (the
planted over-cap one held), the task admitted (k=2) and the over-eager policies failing."""

from __future__ import annotations

from pathlib import Path

from cfab.tasks.families.h_redteam_sage_bill import HRedteamSageBill
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_pm_shape, assert_typed_answers, only

FAMILY = HRedteamSageBill
KEYS = ["1042"]
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True  # its forbidden list names none of the extra moves


def test_metadata_guards_and_twists(compiled: dict[str, Task]) -> None:
    assert_pm_shape(compiled, None, reports=True)


def test_typed_answers_alternatives_and_wrong_trajectories(compiled: dict[str, Task]) -> None:
    assert_typed_answers(compiled, {"held_eapps": "id_list", "drafted_eapps": "id_list"})


def test_the_answers_come_from_the_book(compiled: dict[str, Task], golden: Path) -> None:
    """The planted over-cap eApp is held, not drafted."""
    t = only(compiled)
    held, drafted = t.ground_truth.answers
    book = BookReader(golden)
    try:
        planted = next(r for r in book.q("C_redteam_eapp_review", "submitted_eapps") if r["planted_over_cap"])
    finally:
        book.close()
    assert planted["invoice_number"] in held.expected and planted["invoice_number"] not in drafted.expected
    assert held.compare([planted["eapp_id"]])[0] and not drafted.compare(held.expected)[0]


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
