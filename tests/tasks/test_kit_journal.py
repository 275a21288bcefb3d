"""The family kit's staged-entry entries (tasks/kit/journal.py) in each ERP's journal-line layout:
debit and credit columns, a transaction type with an absolute amount, one signed amount."""

from __future__ import annotations

from decimal import Decimal

from cfab.apps.erp.vendors import ERP_APPS
from cfab.tasks.kit import expect_entry, expect_side_total, forbid_reversing, line_side


def test_line_side_per_layout() -> None:
    dc, tr, signed = (ERP_APPS[a].D for a in ("foundation_erp", "sage_intacct", "vista_erp"))
    assert line_side(dc, "5100", True) == ("account = '5100' AND debit > 0", "debit")
    assert line_side(tr, "1090", False) == ("ACCOUNTNO = '1090' AND TR_TYPE = -1", "AMOUNT")
    assert line_side(signed, "5100", False) == ("GLAcct = '5100' AND Amount < 0", "Amount")


def test_side_total_signs_credits_only_in_a_signed_layout() -> None:
    value = Decimal("125.40")
    vista = expect_side_total("vista_erp", ERP_APPS["vista_erp"].D, "5100", False, value, label="Cr 5100")
    assert vista.total == {"Amount": "-125.40"} and vista.op == "added" and vista.table == "GLDB"
    cmic = ERP_APPS["cmic"].D
    narrowed = expect_side_total("cmic", cmic, "5100", False, value, where="JOB_CODE = '001042'", label="Cr")
    assert narrowed.total == {"CREDIT": "125.40"} and narrowed.where == (
        "ACCOUNT = '5100' AND CREDIT > 0 AND JOB_CODE = '001042'"
    )


def test_entry_and_reversing() -> None:
    qbo, intacct = ERP_APPS["qbo"].D, ERP_APPS["sage_intacct"].D
    entry = expect_entry("qbo", qbo, "2026-01-31", "one entry")
    assert entry.count == 1 and entry.table == qbo.t("je_open_hdr").table
    hdr = intacct.t("je_open_hdr")
    rev = forbid_reversing("sage_intacct", intacct, "reverses")
    assert [r.table for r in rev] == ([hdr.table] if hdr.has("auto_reverse") else [])
