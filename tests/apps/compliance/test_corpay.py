"""Corpay: enrollment and payment history as the book has it; payments.create validates."""

from __future__ import annotations


def test_reads(open_env):
    env = open_env(["corpay"])
    vendors = env.call("corpay.vendors.list")["data"]
    assert vendors["count"] == 2
    assert {v["payment_method"] for v in vendors["vendors"]} <= {"VirtualCard", "ACH", "Check"}
    pays = env.call("corpay.payments.list", vendor_id="CP-558201")["data"]
    assert pays["count"] == 2 and pays["total_amount"] == "215000.00"
    one = env.call("corpay.payments.get", payment_id="PMT-BA-OPER-10003")["data"]
    assert one["payment"]["status"] == "Issued" and one["remittance"][0]["invoice_number"] == "WEC-2026-003"
    assert env.call("corpay.payments.list", date_from="2026-01-01")["data"]["count"] == 1
    assert env.call("corpay.batches.list")["data"]["count"] == 4
    assert env.call("corpay.funding_accounts.list")["data"]["funding_accounts"][0]["account_last4"] == "6789"
    assert env.call("corpay.remittances.list", invoice_number="WEC-2026-003")["data"]["count"] == 1


def test_payment_validation(open_env):
    env = open_env(["corpay"])
    base = dict(
        vendor_id="CP-558201",
        funding_account_id="FA-BA-OPER",
        amount="100.00",
        payment_method="Check",
        invoices=[{"invoice_number": "WEC-2026-003", "amount": "60.00"}],
    )
    out = env.call("corpay.payments.create", **base)
    assert not out["ok"] and out["error_type"] == "invalid_argument"
    ok = env.call("corpay.payments.create", **{**base, "amount": "60.00"})
    assert ok["ok"] and ok["status"] == "pending_human_approval"
    assert env.call("corpay.payments.create", **{**base, "vendor_id": "CP-0"})["error_type"] == "not_found"
