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


def _draft(env, date="2026-02-05"):
    out = env.call("corpay.batches.create_draft", funding_account_id="FA-BA-OPER", payment_date=date)
    assert out["ok"], out
    return out["data"]["batch"]["batch_id"]


def test_draft_batch_is_built_and_edited(open_env):
    env = open_env(["corpay"])
    batch_id = _draft(env)
    assert batch_id == "PB-BA-OPER-20260205-D1" and _draft(env) == "PB-BA-OPER-20260205-D2"
    lines = [{"invoice_number": "WEC-2026-004", "amount": "500.00"}, {"invoice_number": "BC-7", "amount": "-120.50"}]
    added = env.call("corpay.batches.add_payment", batch_id=batch_id, vendor_id="CP-558201", invoices=lines)
    assert added["ok"], added
    pay = added["data"]["payment"]
    assert pay["amount"] == "379.50" and pay["status"] == "Draft" and pay["payment_date"] == "2026-02-05"
    assert added["data"]["batch"]["payment_count"] == 1 and added["data"]["batch"]["total_amount"] == "379.50"
    again = env.call("corpay.batches.add_payment", batch_id=batch_id, vendor_id="CP-558201", invoices=lines[:1])
    assert again["error_type"] == "conflict"
    got = env.call("corpay.batches.get", batch_id=batch_id)["data"]
    assert [ln["amount_paid"] for ln in got["payments"][0]["invoices"]] == ["500.00", "-120.50"]
    assert env.call("corpay.payments.list", batch_id=batch_id)["data"]["total_amount"] == "379.50"
    gone = env.call("corpay.batches.remove_payment", batch_id=batch_id, payment_id=pay["payment_id"])
    assert (
        gone["ok"] and gone["data"]["batch"]["payment_count"] == 0 and gone["data"]["batch"]["total_amount"] == "0.00"
    )
    assert env.call("corpay.remittances.list", payment_id=pay["payment_id"])["data"]["count"] == 0
    assert env.call("corpay.batches.discard", batch_id=batch_id)["data"]["discarded"] == batch_id
    assert env.call("corpay.batches.get", batch_id=batch_id)["error_type"] == "not_found"


def test_draft_payment_validation(open_env):
    env = open_env(["corpay"])
    batch_id = _draft(env)
    call = lambda **kw: env.call(  # noqa: E731
        "corpay.batches.add_payment", **{"batch_id": batch_id, "vendor_id": "CP-558201", **kw}
    )
    credit_only = call(invoices=[{"invoice_number": "BC-7", "amount": "-10.00"}])
    assert credit_only["error_type"] == "invalid_argument" and "more than zero" in credit_only["error"]
    assert call(invoices=[{"invoice_number": "A", "amount": "0"}])["error_type"] == "invalid_argument"
    assert call(invoices=[{"invoice_number": "A", "amount": "1.005"}])["error_type"] == "invalid_argument"
    twice = [{"invoice_number": "A", "amount": "1.00"}, {"invoice_number": "a", "amount": "2.00"}]
    assert call(invoices=twice)["error_type"] == "invalid_argument"
    assert call(vendor_id="CP-0", invoices=[{"invoice_number": "A", "amount": "1.00"}])["error_type"] == "not_found"
    past = env.call("corpay.batches.create_draft", funding_account_id="FA-BA-OPER", payment_date="2025-01-01")
    assert past["error_type"] == "invalid_argument"
    processed = env.call(
        "corpay.batches.add_payment",
        batch_id="PB-BA-OPER-20260110",
        vendor_id="CP-558201",
        invoices=[{"invoice_number": "A", "amount": "1.00"}],
    )
    assert processed["error_type"] == "rejected" and "Processed" in processed["error"]


def test_release_is_staged_and_processed_history_is_locked(open_env):
    env = open_env(["corpay"])
    batch_id = _draft(env)
    empty = env.call("corpay.batches.release", batch_id=batch_id)
    assert not empty["ok"]
    env.call(
        "corpay.batches.add_payment",
        batch_id=batch_id,
        vendor_id="CP-558201",
        payment_method="Check",
        invoices=[{"invoice_number": "WEC-2026-004", "amount": "500.00"}],
    )
    out = env.call("corpay.batches.release", batch_id=batch_id)
    assert out["ok"] and out["status"] == "pending_human_approval"
    assert env.call("corpay.batches.get", batch_id=batch_id)["data"]["batch"]["status"] == "Draft"
    assert env.call("corpay.batches.discard", batch_id="PB-BA-OPER-20260110")["error_type"] == "rejected"
