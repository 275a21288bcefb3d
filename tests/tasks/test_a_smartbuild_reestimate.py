"""A_smartbuild_reestimate (SmarteBuild BOQ re-estimate): compiled against the golden file, its
key chosen by property (a lump-sum BOQ item), the cost-code total as the typed answer with the
item alone a lookalike, the task admitted (k=2) and the over-eager policies failing."""

from __future__ import annotations

from cfab.tasks.families.a_smartbuild_reestimate import ASmartbuildReestimate
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_pm_shape, assert_typed_answers, only

FAMILY = ASmartbuildReestimate
COUNT = 1


def test_metadata_guards_and_twists(compiled: dict[str, Task]) -> None:
    assert_pm_shape(compiled, {"smartbuild"}, reports=True)


def test_typed_answers_alternatives_and_wrong_trajectories(compiled: dict[str, Task]) -> None:
    assert_typed_answers(compiled, {"cost_code_total": "amount"})
    t = only(compiled)
    item_alone = t.ground_truth.expected[0].assert_["reestimate_total"]
    assert item_alone in t.ground_truth.answers[0].lookalikes


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
