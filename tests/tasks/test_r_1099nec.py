"""R_1099nec compiled against the default golden book: the tax year's key and metadata, the
reportable payees per TIN (the split payee once, the attorney, the corporations and materials
left out), the typed answers, the admission gate, and the policies and per-vendor-id judgement
that must fail; the one-payee keys (a B-notice correcting the TIN or a sole proprietor's line-1
name, a corporation, a payee also paid by virtual card) and their held-out keys."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from cfab.tasks.families import r_1099nec as R
from cfab.tasks.family import BookReader, held_out_count
from cfab.tasks.kit.steps import step
from cfab.tasks.model import Task
from tests.tasks.family_helpers import (
    INPUTS,
    FamilyContract,
    answers_hold,
    assert_guarded_reports,
    assert_oracles_call_tools_cleanly,
    assert_wrong_move_fails,
    replay,
)

YEAR = INPUTS.clock.year - 1
KEY = f"cf_R_1099nec_{YEAR}"
FAMILY = R.R1099nec
COUNT = 5  # the year's filing, a B-notice of each kind, a corporation, a card payee (chosen by property)


@pytest.fixture(scope="module")
def facts(golden: Path) -> dict:
    """The tax year's payees by TIN, Vista's payment register and the split payee, read once."""
    book = BookReader(golden)
    try:
        return {
            "tins": book.q(R.FAMILY, "by_tin", tax_year=YEAR),
            "vista": book.q(R.FAMILY, "vista_payments", tax_year=YEAR),
            "split": book.q(R.FAMILY, "split_payee"),
            "notices": book.q(R.FAMILY, "notices"),
            "cards": book.q(R.FAMILY, "card_paid", tax_year=YEAR),
            "keys": FAMILY().keys(book),
            "held_out": FAMILY().held_out_keys(book),
        }
    finally:
        book.close()


def test_metadata(compiled: dict[str, Task]) -> None:
    assert_guarded_reports(compiled, "R", 3)


def test_keys_by_situation(compiled: dict[str, Task], facts: dict) -> None:
    """One public key per situation; the held-out keys are further ones of the same kinds."""
    keys, held = facts["keys"], facts["held_out"]
    assert keys[0] == str(YEAR)
    kinds = [k.split("-")[1] for k in keys[1:]]
    assert sorted(kinds) == ["bnotice", "bnotice", "card", "corp"]
    assert {compiled[f"cf_R_1099nec_{k}"].defect_variant for k in keys} == {
        "duplicate_vendor_id",
        "bnotice_name_line",
        "card_payments_1099k",
        None,
    }
    assert len(held) == held_out_count(len(keys)) and not set(held) & set(keys)
    assert all(k.split("-")[1] in ("bnotice", "corp", "card") for k in held)
    for n in facts["notices"]:  # Track1099 still carries what was filed
        assert (n["record_tin"], n["w9_tin"] == n["vendor_tin"]) == (n["filed_tin"], True)
        assert (n["record_tin"] != n["w9_tin"]) == (n["mismatch"] == "tin")
    assert {c["vendor_key"] for c in facts["cards"]}.isdisjoint(n["vendor_key"] for n in facts["notices"])


def _key(compiled: dict[str, Task], kind: str, mismatch: str | None = None, facts: dict | None = None) -> Task:
    for k, t in compiled.items():
        if f"-{kind}-" in k and (mismatch is None or facts is None or _notice(facts, k)["mismatch"] == mismatch):
            return t
    raise AssertionError(kind)


def _notice(facts: dict, key: str) -> dict:
    return next(n for n in facts["notices"] if key.endswith(f"-{n['vendor_key']}"))


def test_one_payee_oracles_call_tools_cleanly(compiled: dict[str, Task], golden: Path) -> None:
    for key, task in compiled.items():
        if key != KEY:
            assert_oracles_call_tools_cleanly(task, golden)


def test_bnotice_name_line(compiled: dict[str, Task], facts: dict, golden: Path) -> None:
    """The W-9 shows the TIN was right: the owner's name goes on line 1, the business on line 2.
    "Correcting" the TIN, or only line 1, fails; the W-9's lines written in one call pass."""
    task = _key(compiled, "bnotice", "name", facts)
    n = _notice(facts, task.key)
    rid = n["recipient_id"]
    fix = "track1099.payees.update"
    assert {a.name: a.expected for a in task.ground_truth.answers} == {
        "corrected_field": "name",
        "payee_tin": n["w9_tin"],
    }
    swapped = task.oracle.steps[-1].model_copy(update={"args": {"recipient_id": rid, "tin": n["filed_tin"][::-1]}})
    assert_wrong_move_fails(task, golden, [swapped], "line 1")
    line1 = task.oracle.steps[-1].model_copy(update={"args": {"recipient_id": rid, "name": n["w9_name"]}})
    assert_wrong_move_fails(task, golden, [line1], "line 1")
    both = task.oracle.steps[-1].model_copy(
        update={"args": {"recipient_id": rid, "name": n["w9_name"], "business_name": n["w9_business_name"]}}
    )
    assert both.tool == fix
    assert replay(task, golden, [both], answers={"corrected_field": "Name", "payee_tin": n["w9_tin"]}).grade.passed


def test_bnotice_tin(compiled: dict[str, Task], facts: dict, golden: Path) -> None:
    """The TIN keyed wrong: the W-9's TIN fixes it; the Vista vendor master is AP's."""
    task = _key(compiled, "bnotice", "tin", facts)
    n = _notice(facts, task.key)
    assert task.defect_variant is None  # the clean B-notice
    fix = task.oracle.steps[-1]
    assert fix.args == {"recipient_id": n["recipient_id"], "tin": n["w9_tin"]}
    out = replay(task, golden, [fix], answers={"corrected_field": "tin", "payee_tin": n["filed_tin"]})
    assert not out.grade.passed  # the TIN as filed reported


def test_card_payments_excluded(compiled: dict[str, Task], facts: dict, golden: Path) -> None:
    """Box 1 is the checks: the Corpay virtual-card payments are the processor's 1099-K."""
    task = _key(compiled, "card")
    card = next(c for c in facts["cards"] if task.key.endswith(f"-{c['vendor_key']}"))
    create = next(s for s in task.oracle.steps if s.tool == "track1099.forms.create")
    box1 = Decimal(create.args["box1_nonemployee_compensation"])
    assert card["card_total"] > 0 and "corpay" in task.systems
    assert {a.name: a.expected for a in task.ground_truth.answers} == {"reportable": "yes", "box1_amount": str(box1)}
    with_card = create.model_copy(
        update={"args": {**create.args, "box1_nonemployee_compensation": str(box1 + card["card_total"])}}
    )
    assert_wrong_move_fails(task, golden, [with_card], "1099-K")


def test_corporation_not_reportable(compiled: dict[str, Task], facts: dict, golden: Path) -> None:
    task = _key(compiled, "corp")
    payee = next(t for t in facts["tins"] if task.key.endswith(f"-{t['vendor_keys'][0]}"))
    assert payee["verdict"] == "corporation" and payee["total"] >= 600 and not payee["is_attorney"]
    assert not task.ground_truth.expected  # nothing to create: the answers carry it
    assert {a.name: a.expected for a in task.ground_truth.answers} == {"reportable": "no", "box1_amount": "0.00"}
    form = step(
        "track1099.forms.create",
        recipient_id=payee["recipient_ids"][0],
        tax_year=YEAR,
        box1_nonemployee_compensation=str(payee["total"]),
    )
    assert_wrong_move_fails(task, golden, [form], "corporation")


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
