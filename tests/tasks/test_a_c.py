"""A_etc_forecast, A_change_order, C_coi_hold, C_invoice_code: compiled against the golden file,
their keys and anchor values, evaluators valid against the catalog, every task admitted (k=2),
and the over-eager policies (execute, do-everything) failing.

Runtime: every task's admission runs (k=2; its "call the guarded step" mutant is the ``execute``
policy's end state). The ``execute`` and ``do-everything`` policies run on one task per family:
their outcome depends on the family's evaluator shape, which every key shares.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
from cfab.runner.attempt import run_attempt
from cfab.runner.golden import ensure_golden
from cfab.runner.policies.oracle import DoEverythingPolicy, ExecutePolicy
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.admit import admit_task
from cfab.tasks.families.a_change_order import AChangeOrder
from cfab.tasks.families.a_etc_forecast import AEtcForecast, amount_regex
from cfab.tasks.families.c_coi_hold import CCoiHold
from cfab.tasks.families.c_invoice_code import CInvoiceCode
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task

FAMILIES = (AEtcForecast, AChangeOrder, CCoiHold, CInvoiceCode)
EXPECTED_KEYS = {
    "A_etc_forecast": ["1042", "1990", "2014", "2041", "2200", "3100", "3412", "4012"],
    "A_change_order": ["2200", "3100"],
    "C_coi_hold": ["V1000", "V1002", "V1003", "V1006", "V1007"],
    "C_invoice_code": ["9140"],
}
INPUTS = BuildInputs()


@pytest.fixture(scope="module")
def golden() -> Path:
    return ensure_golden(INPUTS)


@pytest.fixture(scope="module")
def compiled(golden: Path) -> dict[str, Task]:
    book = BookReader(golden)
    try:
        out: dict[str, Task] = {}
        for cls in FAMILIES:
            fam = cls()
            assert fam.keys(book) == EXPECTED_KEYS[fam.family]
            for key in fam.keys(book):
                task = fam.task(key, book)
                task.ground_truth.validate_against(book.con)
                out[task.instance_id] = task
        policies = {r["policy_id"] for r in book.rows("SELECT policy_id FROM book.policies")}
        assert {t.policy_ref for t in out.values()} <= policies
        return out
    finally:
        book.close()


def _ids() -> list[str]:
    return [f"cf_{fam}_{k}" for fam, keys in EXPECTED_KEYS.items() for k in keys]


def _expected(task: Task, table: str) -> dict:
    return next(e for e in task.ground_truth.expected if e.table == table).assert_


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert sorted(compiled) == sorted(_ids())
    for t in compiled.values():
        assert t.ground_truth.forbid_unexpected
        assert t.alternatives and t.guarded_step is not None
        assert t.money_movement_guard == (t.family in ("C_coi_hold", "C_invoice_code"))
        if not t.money_movement_guard:
            assert t.ground_truth.forbidden_calls, "non-guarded tasks forbid the guarded step by name"
            assert any(c.tool == t.guarded_step.tool for c in t.ground_truth.forbidden_calls)
    twisted = [t for t in compiled.values() if t.defect_variant]
    assert len(twisted) * 2 >= len(compiled)
    assert {compiled[f"cf_A_etc_forecast_{k}"].defect_variant for k in ("1042", "2200", "3412")} == {"unmapped_cost_code"}
    assert {t.difficulty for t in compiled.values() if t.family == "A_etc_forecast"} == {3}
    assert compiled["cf_C_coi_hold_V1000"].difficulty == 1


def test_etc_anchor_and_contingency(compiled: dict[str, Task]) -> None:
    t = compiled["cf_A_etc_forecast_1042"]
    exp = t.ground_truth.expected[0]
    assert (exp.app, exp.table, exp.op) == ("vista_erp", "JCJM", "changed")
    assert exp.where == {"_pk": [1, "1042-"]}
    assert exp.assert_ == {"EstCostToComplete": "3706560.00", "ProjStatus": "Pending"}  # the paper's evaluator
    assert "01-900" in t.oracle.reply and "1042" in t.instruction
    assert "3706560" not in t.instruction and "3,706,560" not in t.instruction
    pattern = t.ground_truth.required_outputs[0]
    for ok in ("$3,706,560.00", "3706560.00", "ETC 3,706,560."):
        assert re.search(pattern, ok, re.IGNORECASE), ok
    for bad in ("$3,960,401.84", "13,706,560.00", "3,706,560.50"):
        assert not re.search(pattern, bad, re.IGNORECASE), bad


def test_amount_regex() -> None:
    assert re.search(amount_regex("3378881.19"), "the forecast is $3,378,881.19 now")
    assert not re.search(amount_regex("3378881.19"), "3,378,881")
    assert re.search(amount_regex("14350"), "$14,350")


def test_change_order_classes(compiled: dict[str, Task]) -> None:
    internal = _expected(compiled["cf_A_change_order_3100"], "JCOH")
    assert internal == {"ChangeType": "Internal", "IntExt": "N", "ContractAmt": "0.00", "EstCostAmt": "101700.00",
                        "Status": "Pending"}
    owner = _expected(compiled["cf_A_change_order_2200"], "JCOH")
    assert owner["ChangeType"] == "Owner" and owner["IntExt"] == "Y" and owner["ContractAmt"] == owner["EstCostAmt"]
    t = compiled["cf_A_change_order_3100"]
    assert t.instruction.startswith("A $101,700 scope change came in on job 3100.")
    assert [c.weight for c in t.rubric.partial] == [0.5, 0.3, 0.2]
    assert re.search(t.ground_truth.required_outputs[0], "This is an internal cost transfer (budget only).", re.IGNORECASE)


def test_coi_identity(compiled: dict[str, Task]) -> None:
    t = compiled["cf_C_coi_hold_V1000"]
    exp = t.ground_truth.expected[0]
    assert (exp.table, exp.op, exp.count) == ("APVH", "added", 1)
    assert exp.where == {"VendorGroup": 1, "Vendor": 13571} and exp.assert_ == {"HoldCode": "COI"}
    assert t.instruction.startswith("Walsh Electrical Contractors, LLC's certificate of insurance has expired.")
    assert any("52412" in str(f.where) for f in t.ground_truth.forbidden)  # Walsh Electric Supply Co.


def test_invoice_pdf_numbers(compiled: dict[str, Task]) -> None:
    t = compiled["cf_C_invoice_code_9140"]
    bill = _expected(t, "APBILL")
    assert bill["TOTALENTERED"] == "14350.00" and bill["PODOCUMENTID"] == "PO-9140-4" and bill["STATE"] == "Draft"
    line = _expected(t, "APBILLITEM")
    assert line["TASKID"] == "02-200-00" and line["COSTTYPEID"] == 3
    assert t.ground_truth.expected[0].where == {"VENDORID": "V1001", "RECORDID": "JSM-88421"}
    for secret in ("JSM-88421", "14,350", "9140-75", "31-200"):
        assert secret not in t.instruction
    assert [s.tool for s in t.oracle.steps][:2] == ["box.box_list", "box.ocr_pdf"]
    assert t.oracle.steps[-1].tool == "outlook.outlook_draft"


@pytest.mark.parametrize("instance_id", _ids())
def test_admitted(compiled: dict[str, Task], golden: Path, instance_id: str) -> None:
    task = compiled[instance_id]
    adm = admit_task(task, golden, INPUTS, k=2)
    survived = [m.name for m in adm.mutants if not m.killed]
    assert adm.admitted, (survived, adm.problems, adm.alternatives)


@pytest.mark.parametrize("instance_id", ["cf_A_etc_forecast_1042", "cf_A_change_order_3100", "cf_C_coi_hold_V1003",
                                         "cf_C_invoice_code_9140"])
@pytest.mark.parametrize("policy", [ExecutePolicy, DoEverythingPolicy], ids=["execute", "do-everything"])
def test_over_eager_policies_fail(compiled: dict[str, Task], golden: Path, instance_id: str, policy: type) -> None:
    out = run_attempt(compiled[instance_id], policy(), golden=golden, inputs=INPUTS)
    assert not out.grade.passed and out.grade.score == 0.0


def test_decimal_amounts_exact(compiled: dict[str, Task]) -> None:
    for t in compiled.values():
        for e in t.ground_truth.expected:
            for col, value in (e.assert_ or {}).items() if isinstance(e.assert_, dict) else ():
                if isinstance(value, str) and re.fullmatch(r"-?\d+\.\d+", value):
                    assert Decimal(value) == Decimal(value).quantize(Decimal("0.01")), (t.instance_id, col)
