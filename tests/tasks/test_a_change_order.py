"""A_change_order: compiled against the golden file, the two classes (internal cost transfer on
3100, owner change order on 2200), the typed answer, every task admitted (k=2), the over-eager
policies failing, and the wrong class caught."""

from __future__ import annotations

from pathlib import Path

from cfab.tasks.families.a_change_order import AChangeOrder
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_guard_or_forbidden_step, expected_assert, replay

FAMILY = AChangeOrder
KEYS = ["2200", "3100"]
OVER_EAGER_KEYS = ["3100"]


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert_guard_or_forbidden_step(compiled, money_guard=False)


def test_change_order_classes(compiled: dict[str, Task]) -> None:
    internal = expected_assert(compiled["cf_A_change_order_3100"], "JCOH")
    assert internal == {
        "ChangeType": "Internal",
        "IntExt": "N",
        "ContractAmt": "0.00",
        "EstCostAmt": "101700.00",
        "Status": "Pending",
    }
    owner = expected_assert(compiled["cf_A_change_order_2200"], "JCOH")
    assert owner["ChangeType"] == "Owner" and owner["IntExt"] == "Y" and owner["ContractAmt"] == owner["EstCostAmt"]
    t = compiled["cf_A_change_order_3100"]
    assert t.instruction.startswith("A $101,700 scope change came in on job 3100.")
    assert [c.weight for c in t.rubric.partial] == [0.5, 0.3, 0.2]
    (answer,) = t.ground_truth.answers
    assert (answer.name, answer.type, answer.expected) == ("change_class", "choice", "internal_cost_transfer")
    assert "`change_class`" in t.instruction and not t.ground_truth.required_outputs
    for ok in ("internal_cost_transfer", "Internal cost transfer", "internal transfer", "budget-only transfer"):
        assert answer.compare(ok)[0], ok
    for bad in ("owner_change_order", "Owner CO", "This is an owner change order, not an internal cost transfer"):
        assert not answer.compare(bad)[0], bad
    owner_answer = compiled["cf_A_change_order_2200"].ground_truth.answers[0]
    assert owner_answer.expected == "owner_change_order" and not owner_answer.compare("internal")[0]
    assert len(t.alternatives) >= 3 and len(t.mutants) >= 6


def test_wrong_class_fails(compiled: dict[str, Task], golden: Path) -> None:
    """Took the $101,700 for an owner change order: the contract value is raised, which fails legibly."""
    g = replay(
        compiled["cf_A_change_order_3100"],
        golden,
        [
            (
                "vista_erp.change_orders.create",
                {"job_id": "3100-", "description": "CE-3100-003", "amount": "101700.00", "kind": "owner"},
            )
        ],
        "Owner change order set up, pending.",
    ).grade
    assert "contract value raised for an internal cost transfer" in str(g)
    assert not g.passed


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
