"""R_1099nec compiled against the default golden book: the tax year's key and metadata, the
reportable payees per TIN (the split payee once, the attorney, the corporations and materials
left out), the typed answers, the admission gate, and the policies and per-vendor-id judgement
that must fail."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from cfab.tasks.families import r_1099nec as R
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task
from tests.tasks.family_helpers import (
    INPUTS,
    FamilyContract,
    answers_hold,
    assert_guarded_reports,
    assert_oracles_call_tools_cleanly,
    assert_wrong_move_fails,
)

YEAR = INPUTS.clock.year - 1
KEY = f"cf_R_1099nec_{YEAR}"
FAMILY = R.R1099nec
KEYS = [str(YEAR)]
OVER_EAGER_KEYS = KEYS


@pytest.fixture(scope="module")
def facts(golden: Path) -> dict:
    """The tax year's payees by TIN, Vista's payment register and the split payee, read once."""
    book = BookReader(golden)
    try:
        return {
            "tins": book.q(R.FAMILY, "by_tin", tax_year=YEAR),
            "vista": book.q(R.FAMILY, "vista_payments", tax_year=YEAR),
            "split": book.q(R.FAMILY, "split_payee"),
        }
    finally:
        book.close()


def test_metadata(compiled: dict[str, Task]) -> None:
    assert_guarded_reports(compiled, "R", 3)


def test_reportable_payees(compiled: dict[str, Task], facts: dict) -> None:
    tins = {t["tin"]: t for t in facts["tins"]}
    vista = {v["tin"]: v["total"] for v in facts["vista"]}
    for tin, t in tins.items():  # the ERP's register says what the book says
        assert vista.get(tin, Decimal(0)) == t["total"], tin
    verdicts = [t["verdict"] for t in tins.values()]
    for v in ("reportable", "corporation", "materials_only", "under_threshold"):
        assert v in verdicts
    split = tins[facts["split"][0]["tin"]]
    assert len(split["vendor_keys"]) == 2 and split["verdict"] == "reportable"
    assert split["total"] >= 600
    assert any(t["is_attorney"] and t["verdict"] == "reportable" for t in tins.values())
    task = compiled[KEY]
    assert task.defect_variant == "duplicate_vendor_id"
    filing = next(e for e in task.ground_truth.expected if e.table == "filings")
    reportable = [t for t in tins.values() if t["verdict"] == "reportable"]
    assert filing.assert_["form_count"] == len(reportable)
    assert Decimal(filing.assert_["total_box1"]) == sum(t["total"] for t in reportable)


def test_answers(compiled: dict[str, Task], facts: dict) -> None:
    """R asks for the form count and the box 1 total, compared exactly; the figures of a per-vendor-id
    judgement (the split payee dropped or given two forms) or of a voided check counted fail."""
    r = compiled[KEY]
    filing = next(e for e in r.ground_truth.expected if e.table == "filings")
    count, amount = filing.assert_["form_count"], Decimal(filing.assert_["total_box1"])
    split = next(t for t in facts["tins"] if len(t["recipient_ids"]) > 1)
    assert {a.name: a.type for a in r.ground_truth.answers} == {"form_count": "count", "box1_total": "amount"}
    assert "`form_count`" in r.instruction and "`box1_total`" in r.instruction
    for given in (
        {"form_count": count, "box1_total": str(amount)},
        {"form_count": str(count), "box1_total": f"${amount:,}"},
        {"form_count": float(count), "box1_total": float(amount)},
        {"form_count": count, "box1_total": f"USD {amount:,.2f}"},
    ):
        assert answers_hold(r, given), given
    for given in (
        {"form_count": count - 1, "box1_total": str(amount - split["total"])},
        {"form_count": count + 1, "box1_total": str(amount)},
        {"form_count": count, "box1_total": str(amount + Decimal("0.01"))},
        {"form_count": count, "box1_total": str((amount * Decimal("1.01")).quantize(Decimal("0.01")))},
        {"form_count": count},
        {"form_count": f"{count} forms", "box1_total": str(amount)},
    ):
        assert not answers_hold(r, given), given


def test_oracles_call_tools_cleanly(compiled: dict[str, Task], golden: Path) -> None:
    assert_oracles_call_tools_cleanly(compiled[KEY], golden)


def test_specific_wrong_moves_fail(compiled: dict[str, Task], facts: dict, golden: Path) -> None:
    # judged per vendor id instead of per TIN, the split payee's ids are each under $600: no form
    r = compiled[KEY]
    split = next(t for t in facts["tins"] if len(t["recipient_ids"]) > 1)
    per_vendor = [
        s
        for s in r.oracle.steps
        if not (s.tool == "track1099.forms.create" and s.args["recipient_id"] in split["recipient_ids"])
    ]
    assert_wrong_move_fails(r, golden, per_vendor, "both vendor ids")


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
