"""C_coi_hold: compiled against the golden file, the hold on the right Vista vendor (any hold
code), the typed answer, every task admitted (k=2), the over-eager policies failing, and the
lookalike vendor caught."""

from __future__ import annotations

from pathlib import Path

from cfab.tasks.families.c_coi_hold import CCoiHold
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_guard_or_forbidden_step, replay

FAMILY = CCoiHold
KEYS = ["V1000", "V1002", "V1003", "V1006", "V1007"]
OVER_EAGER_KEYS = ["V1003"]


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert_guard_or_forbidden_step(compiled, money_guard=True)
    assert compiled["cf_C_coi_hold_V1000"].difficulty == 1


def test_coi_identity(compiled: dict[str, Task]) -> None:
    t = compiled["cf_C_coi_hold_V1000"]
    exp = t.ground_truth.expected[0]
    assert (exp.table, exp.op, exp.count) == ("APVH", "added", 1)
    # the instruction names no hold code, so any hold Vista offers is right; the vendor is what counts
    assert exp.where == {"VendorGroup": 1, "Vendor": 13571} and exp.assert_ is None
    assert t.instruction.startswith("Walsh Electrical Contractors, LLC's certificate of insurance has expired.")
    assert any("52412" in str(f.where) for f in t.ground_truth.forbidden)  # Walsh Electric Supply Co.
    (held,) = t.ground_truth.answers
    assert held.name == "vista_vendor_id" and "`vista_vendor_id`" in t.instruction
    for right in ("13571", 13571, "13,571", "WALSH ELEC CONTR LLC"):
        assert held.compare(right)[0], right
    for wrong in ("52412", "V1000", "13572"):  # the lookalike, the Procore/master id, a typo
        assert not held.compare(wrong)[0], wrong
    assert not t.ground_truth.required_outputs
    assert len(t.alternatives) >= 3 and len(t.mutants) >= 6


def test_lookalike_vendor_fails(compiled: dict[str, Task], golden: Path) -> None:
    """Held the supply house that shares the name: fails, naming the similarly named vendor."""
    g = replay(
        compiled["cf_C_coi_hold_V1000"],
        golden,
        [("vista_erp.vendors.set_payment_hold", {"vendor_id": "52412", "hold_code": "COI"})],
        "Hold placed on Walsh (52412).",
    ).grade
    assert "similarly named vendor" in str(g)
    assert not g.passed


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
