"""H_smartbuild_vista_reestimate (a SmarteBuild re-estimate reconciled into Vista): compiled
against the golden file, its key chosen by property (a Vista phase split across cost types), no
report asked (a terse "Done" passes), the task admitted (k=2), the over-eager policies failing,
and the wrong cost type caught."""

from __future__ import annotations

from pathlib import Path

from cfab.tasks.families.a_smartbuild_reestimate import ASmartbuildReestimate
from cfab.tasks.families.h_smartbuild_vista_reestimate import HSmartbuildVistaReestimate
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task
from tests.tasks.family_helpers import (
    FamilyContract,
    assert_a_terse_done_passes,
    assert_pm_shape,
    only,
    scripted,
    step_args,
)

FAMILY = HSmartbuildVistaReestimate
COUNT = 1


def test_metadata_guards_and_twists(compiled: dict[str, Task]) -> None:
    assert_pm_shape(compiled, None, reports=False)
    assert only(compiled).defect_variant == "cost_type_split"


def test_no_report_task_passes_a_terse_done(compiled: dict[str, Task], golden: Path) -> None:
    assert_a_terse_done_passes(only(compiled), golden)


def test_the_wrong_cost_type_fails(compiled: dict[str, Task], golden: Path) -> None:
    """Reconciling the wrong cost type of the split Vista phase."""
    t = only(compiled)
    upd = step_args(t, "update_estimate")
    phase = dict(upd["phases"][0])
    phase["cost_type"] = 3 if phase["cost_type"] != 3 else 2
    g = scripted(
        t,
        golden,
        [
            ("smartbuild.estimates.reestimate", step_args(t, "estimates.reestimate")),
            ("vista_erp.jobs.update_estimate", {**upd, "phases": [phase]}),
        ],
    )
    assert not g.passed and "forbidden" in g.reason


def test_held_out_keys_share_no_cost_code_with_the_single_app_family(golden: Path) -> None:
    """The two re-estimate families draw from one pool of cost codes: their public and held-out
    keys are all different cost codes, so no held-out task re-estimates an item a public task (or the
    other family's held-out task) already shows the answer for."""
    book = BookReader(golden)
    try:
        single, cross = ASmartbuildReestimate(), HSmartbuildVistaReestimate()
        keys = [*single.keys(book), *cross.keys(book), *single.held_out_keys(book), *cross.held_out_keys(book)]
    finally:
        book.close()
    assert len(keys) == 4 and len(set(keys)) == 4, keys


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
