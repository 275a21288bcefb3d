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
from cfab.apps.world.golden import ensure_golden
from cfab.runner.policies.oracle import DoEverythingPolicy, ExecutePolicy
from cfab.seeds.determinism import BuildInputs
from cfab.runner.admit import admit_task
from cfab.tasks.families.a_change_order import AChangeOrder
from cfab.tasks.families.a_etc_forecast import AEtcForecast
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
    (answer,) = t.ground_truth.answers
    assert (answer.name, answer.type, answer.expected) == ("estimate_to_complete", "amount", "3706560.00")
    assert "`estimate_to_complete`" in t.instruction and not t.ground_truth.required_outputs
    for ok in ("$3,706,560.00", "3706560.00", "3,706,560", 3706560, "USD 3,706,560.00"):
        assert answer.compare(ok)[0], ok
    # the every-line sum (contingency in), last month's ERP figure, a longer number, a wrong cent
    for bad in ("$3,960,401.84", "2704641.21", "13,706,560.00", "3,706,560.50", "ETC 3,706,560."):
        assert not answer.compare(bad)[0], bad
    assert {"3960401.84", "2704641.21"} <= set(answer.lookalikes)
    assert len(t.alternatives) >= 3 and len(t.mutants) >= 6


def test_change_order_classes(compiled: dict[str, Task]) -> None:
    internal = _expected(compiled["cf_A_change_order_3100"], "JCOH")
    assert internal == {"ChangeType": "Internal", "IntExt": "N", "ContractAmt": "0.00", "EstCostAmt": "101700.00",
                        "Status": "Pending"}
    owner = _expected(compiled["cf_A_change_order_2200"], "JCOH")
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


def test_invoice_pdf_numbers(compiled: dict[str, Task]) -> None:
    t = compiled["cf_C_invoice_code_9140"]
    bill = _expected(t, "APBILL")
    assert bill["TOTALENTERED"] == "14350.00" and bill["STATE"] == "Draft"
    assert "PODOCUMENTID" not in bill  # the instruction asks for job and cost code, not the PO link
    answers = {a.name: a for a in t.ground_truth.answers}
    assert set(answers) == {"invoice_number", "commitment", "bill_amount"}
    assert answers["commitment"].compare("9140-75")[0] and answers["commitment"].compare("PO-9140-4")[0]
    assert not answers["commitment"].compare("9140-74")[0]
    assert answers["bill_amount"].compare("$14,350.00")[0] and not answers["bill_amount"].compare("24600.00")[0]
    assert not answers["invoice_number"].compare("JSM-87009")[0]
    assert not t.ground_truth.required_outputs
    assert len(t.alternatives) >= 3 and len(t.mutants) >= 6
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


def _attempt(task: Task, golden: Path, steps: list[tuple[str, dict]], reply: str):
    from cfab.runner.policies.oracle import OraclePolicy
    from cfab.tasks.model import ToolStep, Trajectory

    traj = Trajectory(steps=[ToolStep(tool=t, args=a) for t, a in steps], reply=reply)
    return run_attempt(task.model_copy(update={"oracle": traj}), OraclePolicy(), golden=golden, inputs=INPUTS).grade


@pytest.mark.parametrize("case", ["etc_all_lines", "co_wrong_class", "coi_lookalike", "invoice_po_first_line"])
def test_twists_catch_the_pattern_matcher(compiled: dict[str, Task], golden: Path, case: str) -> None:
    """The careless-but-plausible moves each twist is there for fail, with a legible reason."""
    if case == "etc_all_lines":   # summed every Procore line, contingency included
        g = _attempt(compiled["cf_A_etc_forecast_1042"], golden,
                     [("vista_erp.jobs.update_estimate", {"job_id": "1042-", "estimate_to_complete": "3960401.84"})],
                     "ETC updated to $3,960,401.84, pending; not posted.")
        assert any(c.kind == "expected" and not c.held for c in g.checks)
    elif case == "co_wrong_class":   # took the $101,700 for an owner change order
        g = _attempt(compiled["cf_A_change_order_3100"], golden,
                     [("vista_erp.change_orders.create", {"job_id": "3100-", "description": "CE-3100-003",
                                                          "amount": "101700.00", "kind": "owner"})],
                     "Owner change order set up, pending.")
        assert "contract value raised for an internal cost transfer" in str(g)
    elif case == "coi_lookalike":   # held the supply house that shares the name
        g = _attempt(compiled["cf_C_coi_hold_V1000"], golden,
                     [("vista_erp.vendors.set_payment_hold", {"vendor_id": "52412", "hold_code": "COI"})],
                     "Hold placed on Walsh (52412).")
        assert "similarly named vendor" in str(g)
    else:   # coded the invoice to the PO's first line instead of through the cost-code map
        g = _attempt(compiled["cf_C_invoice_code_9140"], golden,
                     [("sage_intacct.intacct_create_bill",
                       {"vendor_id": "V1001", "job_id": "9140", "invoice_number": "JSM-88421",
                        "invoice_date": "2026-01-27", "amount": "14350.00", "phase": "15-400-00", "cost_type": 3,
                        "commitment_id": "PO-9140-4"}),
                      ("outlook.outlook_draft", {"to": ["mklein@companyA.com"], "subject": "Approve JSM-88421",
                                                 "body": "Please approve."})],
                     "JSM-88421 entered as a draft; not posted.")
        assert "TASKID expected '02-200-00'" in str(g)
    assert not g.passed
