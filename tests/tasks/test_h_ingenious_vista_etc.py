"""H_ingenious_vista_etc (the INGENIOUS.BUILD forecast into Vista's ETC): compiled against the
golden file, its key chosen by property (3412, whose owner forecast leaves out its contingency
line), the expected ETC as the book's forecast, no report asked (a terse "Done" passes), the task
admitted (k=2) and the over-eager policies failing."""

from __future__ import annotations

from pathlib import Path

from cfab.tasks.families.h_ingenious_vista_etc import HIngeniousVistaEtc
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_a_terse_done_passes, assert_pm_shape, only

FAMILY = HIngeniousVistaEtc
COUNT = 1


def test_metadata_guards_and_twists(compiled: dict[str, Task]) -> None:
    assert_pm_shape(compiled, None, reports=False)
    assert only(compiled).defect_variant == "unmapped_cost_code"


def test_book_anchor_values(compiled: dict[str, Task], golden: Path) -> None:
    """The ETC the task expects is the job's owner forecast (contingency left out)."""
    ib = compiled.get("cf_H_ingenious_vista_etc_3412") or only(compiled)
    book = BookReader(golden)
    try:
        j = book.q("H_ingenious_vista_etc", "job", job=ib.key)[0]
    finally:
        book.close()
    assert ib.ground_truth.expected[0].assert_["EstCostToComplete"] == str(j["forecast"])
    assert not ib.ground_truth.required_outputs and not ib.ground_truth.answers  # the instruction asks no report


def test_no_report_task_passes_a_terse_done(compiled: dict[str, Task], golden: Path) -> None:
    assert_a_terse_done_passes(only(compiled), golden)


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
