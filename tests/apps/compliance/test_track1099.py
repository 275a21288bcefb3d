"""Track1099: payees as the W-9 says (split payee under one TIN), draft forms with a duplicate
conflict, draft-only edits, filings.build totals."""

from __future__ import annotations


def test_payees(open_env):
    env = open_env(["track1099"])
    out = env.call("track1099.payees.list", tin="412-55-6789")["data"]
    assert out["count"] == 2 and {p["reference_id"] for p in out["payees"]} == {"V1002", "V1003"}
    corp = env.call("track1099.payees.list", reference_id="V1001")["data"]["payees"][0]
    assert corp["federal_tax_classification"] == "C Corporation" and corp["exempt_payee_code"] == "5"
    atty = env.call("track1099.payees.list", reference_id="V1004")["data"]["payees"][0]
    assert atty["exempt_payee_code"] is None
    llc = env.call("track1099.payees.list", name_contains="walsh")["data"]["payees"][0]
    assert llc["llc_tax_classification"] == "P"
    assert env.call("track1099.payer.get")["data"]["payer"]["tin"] == "36-1234567"


def test_forms_create_duplicate_update_delete_and_build(open_env):
    env = open_env(["track1099"])
    a = env.call(
        "track1099.forms.create",
        recipient_id="T1099-0003",
        tax_year=2025,
        box1_nonemployee_compensation="13200.00",
        state_code="il",
        state_income="13200.00",
    )
    assert a["ok"], a
    form = a["data"]["form"]
    assert (
        form["status"] == "Draft" and form["box1_nonemployee_compensation"] == "13200.00" and form["state_code"] == "IL"
    )
    dup = env.call(
        "track1099.forms.create", recipient_id="T1099-0003", tax_year=2025, box1_nonemployee_compensation="1.00"
    )
    assert not dup["ok"] and dup["error_type"] == "conflict"
    assert (
        env.call(
            "track1099.forms.create", recipient_id="T1099-0001", tax_year=2025, box1_nonemployee_compensation="0.00"
        )["error_type"]
        == "invalid_argument"
    )
    assert (
        env.call(
            "track1099.forms.create", recipient_id="T1099-0001", tax_year=2025, box1_nonemployee_compensation="10.001"
        )["error_type"]
        == "invalid_argument"
    )
    assert (
        env.call("track1099.forms.create", recipient_id="NOPE", tax_year=2025, box1_nonemployee_compensation="10.00")[
            "error_type"
        ]
        == "not_found"
    )
    b = env.call(
        "track1099.forms.create", recipient_id="T1099-0001", tax_year=2025, box1_nonemployee_compensation="5000.00"
    )
    assert b["ok"]
    built = env.call("track1099.filings.build", tax_year=2025)
    assert built["ok"], built
    filing = built["data"]["filing"]
    assert filing["form_count"] == 2 and filing["total_box1"] == "18200.00" and filing["status"] == "Draft"
    upd = env.call("track1099.forms.update", form_id=form["form_id"], box1_nonemployee_compensation="14200.00")
    assert upd["ok"] and upd["data"]["form"]["box1_nonemployee_compensation"] == "14200.00"
    assert env.call("track1099.filings.list", tax_year=2025)["data"]["filings"][0]["total_box1"] == "19200.00"
    assert env.call("track1099.forms.delete", form_id=b["data"]["form"]["form_id"])["ok"]
    f = env.call("track1099.filings.list", tax_year=2025)["data"]["filings"][0]
    assert (f["form_count"], f["total_box1"]) == (1, "14200.00")
    assert env.call("track1099.forms.list", tax_year=2025)["data"]["count"] == 1
    # ids are deterministic from natural keys
    assert form["form_id"] == env.apps["track1099"].new_id("1099-NEC", "T1099-0003", 2025)


def test_filed_form_is_locked(open_env):
    env = open_env(["track1099"])
    form = env.call(
        "track1099.forms.create", recipient_id="T1099-0003", tax_year=2025, box1_nonemployee_compensation="100.00"
    )["data"]["form"]
    env.con.execute("UPDATE track1099.forms_1099_nec SET status = 'Accepted' WHERE form_id = ?", [form["form_id"]])
    out = env.call("track1099.forms.update", form_id=form["form_id"], box1_nonemployee_compensation="200.00")
    assert not out["ok"] and out["error_type"] == "rejected"
    assert env.call("track1099.forms.delete", form_id=form["form_id"])["error_type"] == "rejected"
