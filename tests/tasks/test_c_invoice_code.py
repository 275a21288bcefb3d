"""C_invoice_code: compiled against the golden file, the numbers read from the invoice PDF (none
of them in the instruction), the typed answers, the task admitted (k=2), the over-eager policies
failing, and coding to the PO's first line caught."""

from __future__ import annotations

from pathlib import Path

from cfab.tasks.families.c_invoice_code import CInvoiceCode
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_guard_or_forbidden_step, expected_assert, replay

FAMILY = CInvoiceCode
KEYS = ["9140"]
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True  # its forbidden list names none of the extra moves


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert_guard_or_forbidden_step(compiled, money_guard=True)


def test_invoice_pdf_numbers(compiled: dict[str, Task]) -> None:
    t = compiled["cf_C_invoice_code_9140"]
    bill = expected_assert(t, "APBILL")
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
    line = expected_assert(t, "APBILLITEM")
    assert line["TASKID"] == "02-200-00" and line["COSTTYPEID"] == 3
    assert t.ground_truth.expected[0].where == {"VENDORID": "V1001", "RECORDID": "JSM-88421"}
    for secret in ("JSM-88421", "14,350", "9140-75", "31-200"):
        assert secret not in t.instruction
    assert [s.tool for s in t.oracle.steps][:2] == ["box.box_list", "box.ocr_pdf"]
    assert t.oracle.steps[-1].tool == "outlook.outlook_draft"


def test_coding_to_the_po_first_line_fails(compiled: dict[str, Task], golden: Path) -> None:
    """Coded the invoice to the PO's first line instead of through the cost-code map."""
    g = replay(
        compiled["cf_C_invoice_code_9140"],
        golden,
        [
            (
                "sage_intacct.intacct_create_bill",
                {
                    "vendor_id": "V1001",
                    "job_id": "9140",
                    "invoice_number": "JSM-88421",
                    "invoice_date": "2026-01-27",
                    "amount": "14350.00",
                    "phase": "15-400-00",
                    "cost_type": 3,
                    "commitment_id": "PO-9140-4",
                },
            ),
            (
                "outlook.outlook_draft",
                {"to": ["mklein@companyA.com"], "subject": "Approve JSM-88421", "body": "Please approve."},
            ),
        ],
        "JSM-88421 entered as a draft; not posted.",
    ).grade
    assert "TASKID expected '02-200-00'" in str(g)
    assert not g.passed


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
