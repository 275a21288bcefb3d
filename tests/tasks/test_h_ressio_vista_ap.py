"""H_ressio_vista_ap (Ressio supplier bills booked in Vista AP): compiled against the golden
file, its key chosen by property, the booked and exception bills as typed answers (the exception
bills forbidden in APHB), the task admitted (k=2) and the over-eager policies failing."""

from __future__ import annotations

from cfab.tasks.families.h_ressio_vista_ap import HRessioVistaAp
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_pm_shape, assert_typed_answers, only

FAMILY = HRessioVistaAp
COUNT = 1


def test_metadata_guards_and_twists(compiled: dict[str, Task]) -> None:
    assert_pm_shape(compiled, None, reports=True)
    assert only(compiled).defect_variant == "bill_po_mismatch"


def test_typed_answers_alternatives_and_wrong_trajectories(compiled: dict[str, Task]) -> None:
    assert_typed_answers(compiled, {"booked_bills": "id_list", "exception_bills": "id_list"})


def test_the_answers_come_from_the_book(compiled: dict[str, Task]) -> None:
    """The exception bills are not booked, and booking them in APHB is forbidden."""
    t = only(compiled)
    booked, exceptions = t.ground_truth.answers
    assert exceptions.expected and not set(exceptions.expected) & set(booked.expected)
    bad = [e for e in t.ground_truth.forbidden if e.table == "APHB"]
    assert all(f"'{b}'" in bad[0].where for b in exceptions.expected)


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
