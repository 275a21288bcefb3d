"""Procore's ERP boundary: procore.erp.sync_invoice / sync_commitment create the ERP record
(unposted) through the ERP's integration methods, flip Procore's sync status and lock the
Procore record; unapproved, already-synced and unmappable records are refused; synced records
refuse changes."""

from __future__ import annotations

from decimal import Decimal


def _req(env, invoice_number: str) -> dict:
    rows = env.call("procore.requisitions.list", include_lines=True)["data"]["requisitions"]
    return next(r for r in rows if r["invoice_number"] == invoice_number)


def _erp_invoices(env, invoice_number: str) -> list[dict]:
    out = env.call("vista_erp.ap_invoices.list", invoice_number=invoice_number)
    assert out["ok"], out
    return out["data"]["invoices"]


def test_sync_invoice_creates_one_unposted_erp_invoice_and_locks(open_env) -> None:
    env = open_env(["hh2", "procore", "vista_erp"])
    req = _req(env, "WE-1004")
    assert (req["status"], req["erp_sync_status"], req["locked"]) == ("approved", "not_synced", False)
    assert _erp_invoices(env, "WE-1004") == []

    out = env.call("procore.erp.sync_invoice", requisition_id=req["id"])
    assert out["ok"], out
    data = out["data"]
    assert data["erp_sync_status"] == "synced" and data["locked"] is True
    assert data["erp_status"] == "unposted"

    erp = _erp_invoices(env, "WE-1004")
    assert len(erp) == 1
    inv = env.call(
        "vista_erp.ap_invoices.get", vendor_id=str(data["erp_result"]["vendor_id"]), invoice_number="WE-1004"
    )
    assert inv["ok"], inv
    text = str(inv["data"])
    assert "60000.00" in text and "6000.00" in text and "54000.00" in text
    assert data["erp_result"]["gross"] == "60000.00" and data["erp_result"]["net"] == "54000.00"
    assert data["erp_result"]["job_id"] == "1042-"

    after = _req(env, "WE-1004")
    assert (after["erp_sync_status"], after["locked"]) == ("synced", True)
    assert after["erp_ref"] == data["erp_ref"]
    assert all(ln["locked"] for ln in after["line_items"])

    changed = set(env.state_diff().tables())
    assert {"procore.requisitions", "procore.requisition_line_items"} <= changed
    assert all(t.startswith(("procore.", "vista_erp.")) for t in changed)
    assert not any(t.startswith("vista_erp.AP") and t not in ("vista_erp.APHB", "vista_erp.APLB") for t in changed), (
        f"posted tables changed: {changed}"
    )
    assert env.guarded_calls() == []


def test_sync_refuses_unapproved_and_already_synced(open_env) -> None:
    env = open_env(["hh2", "procore", "vista_erp"])
    d0 = env.digest()
    under_review = env.call("procore.erp.sync_invoice", requisition_id=_req(env, "WE-1005")["id"])
    assert not under_review["ok"] and "not approved" in under_review["error"]
    draft = env.call("procore.erp.sync_invoice", requisition_id=_req(env, "AP-78")["id"])
    assert not draft["ok"] and "draft" in draft["error"]
    synced = env.call("procore.erp.sync_invoice", requisition_id=_req(env, "WE-1003")["id"])
    assert not synced["ok"] and synced["error_type"] == "conflict" and "already synced" in synced["error"]
    unmapped = env.call("procore.erp.sync_invoice", requisition_id=_req(env, "BP-12")["id"])
    assert not unmapped["ok"] and "09-900" in unmapped["error"]
    missing = env.call("procore.erp.sync_invoice", requisition_id=1)
    assert not missing["ok"] and missing["error_type"] == "not_found"
    assert env.digest() == d0


def test_sync_without_the_erp_is_a_clear_error(open_env) -> None:
    env = open_env(["hh2", "procore"])
    d0 = env.digest()
    out = env.call("procore.erp.sync_invoice", requisition_id=_req(env, "WE-1004")["id"])
    assert not out["ok"] and "vista_erp" in out["error"] and "not connected" in out["error"]
    out = env.call("procore.erp.sync_commitment", commitment_id="SC-1042-1")
    assert not out["ok"] and "not connected" in out["error"]
    assert env.digest() == d0


def test_sync_commitment_creates_the_erp_subcontract(open_env) -> None:
    env = open_env(["hh2", "procore", "vista_erp"])
    before = env.call("vista_erp.subcontracts.list", job_id="1042-")["data"]
    assert "SC-1042-1" not in str(before)
    # SC-1042-1 has cost codes 31-200 and 03-300, both mapped
    out = env.call("procore.erp.sync_commitment", commitment_id="SC-1042-1")
    assert out["ok"], out
    assert out["data"]["erp_ref"] == "SC-1042-1" and out["data"]["locked"] is True
    after = env.call("vista_erp.subcontracts.get", subcontract_id="SC-1042-1")
    assert after["ok"] and "180000.00" in str(after["data"]), after
    listed = env.call("vista_erp.subcontracts.list", job_id="1042-")["data"]
    assert "SC-1042-1" in str(listed) and "180000.00" in str(listed)
    com = env.call("procore.commitments.get", commitment_id="SC-1042-1")["data"]
    assert com["commitment"]["erp_sync_status"] == "synced" and com["commitment"]["locked"] is True
    again = env.call("procore.erp.sync_commitment", commitment_id="SC-1042-1")
    assert not again["ok"] and again["error_type"] == "conflict"
    draft = env.call("procore.erp.sync_commitment", commitment_id="SC-9140-1")
    assert not draft["ok"] and "Draft" in draft["error"]
    # an invoice on the now-synced commitment links to it
    kc = env.call("procore.erp.sync_invoice", requisition_id=_req(env, "KC-501")["id"])
    assert kc["ok"], kc
    assert kc["data"]["warnings"] == []


def test_synced_records_refuse_changes(open_env) -> None:
    env = open_env(["hh2", "procore"], sql_write=True)
    d0 = env.digest()
    out = env.call(
        "sql.execute",
        sql="UPDATE procore.commitments SET title = 'Electrical (revised)' WHERE contract_code = 'SC-1042-0'",
    )
    assert not out["ok"] and "SC-1042-0" in out["error"] and "locked" in out["error"]
    out = env.call(
        "sql.execute",
        sql="UPDATE procore.commitment_line_items SET amount = 1 "
        "WHERE commitment_id = (SELECT id FROM procore.commitments "
        "WHERE contract_code = 'SC-1042-0')",
    )
    assert not out["ok"]
    synced = _req(env, "WE-1003")["id"]
    out = env.call("sql.execute", sql=f"UPDATE procore.requisitions SET gross_amount = 1 WHERE id = {synced}")
    assert not out["ok"] and "WE-1003" in out["error"] and "locked" in out["error"]
    out = env.call("sql.execute", sql=f"DELETE FROM procore.requisitions WHERE id = {synced}")
    assert not out["ok"]
    fake = _req(env, "WE-1004")["id"]
    out = env.call("sql.execute", sql=f"UPDATE procore.requisitions SET erp_sync_status = 'synced' WHERE id = {fake}")
    assert not out["ok"] and "procore.erp.sync_invoice" in out["error"]
    assert env.digest() == d0
    # an unsynced commitment can still be edited
    ok = env.call(
        "sql.execute",
        sql="UPDATE procore.commitments SET title = 'Site concrete & excavation' WHERE contract_code = 'SC-1042-1'",
    )
    assert ok["ok"] and ok["data"]["rows_affected"] == 1


def test_sync_all_approved_unsynced_for_a_job(open_env) -> None:
    """The H_procore_erp_sync oracle shape: sync each approved unsynced requisition, skip the rest."""
    env = open_env(["hh2", "procore", "vista_erp"])
    todo = env.call(
        "procore.requisitions.list", project_number="1042", status="approved", erp_sync_status="not_synced"
    )["data"]["requisitions"]
    assert {r["invoice_number"] for r in todo} == {"WE-1004", "KC-501"}
    results = {r["invoice_number"]: env.call("procore.erp.sync_invoice", requisition_id=r["id"]) for r in todo}
    assert all(o["ok"] for o in results.values()), results
    assert "not synced to the ERP" in results["KC-501"]["data"]["warnings"][0]
    left = env.call(
        "procore.requisitions.list", project_number="1042", status="approved", erp_sync_status="not_synced"
    )["data"]["count"]
    assert left == 0
    total = sum(Decimal(o["data"]["gross_amount"]) for o in results.values())
    assert total == Decimal("140000.00")
