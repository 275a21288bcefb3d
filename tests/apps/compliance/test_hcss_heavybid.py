"""HCSS HeavyBid: estimates, bid items and resources, and the equipment setup with its
effective-dated rate book, read back as the book has them."""

from __future__ import annotations

from decimal import Decimal


def test_reads(open_env):
    env = open_env(["hcss_heavybid"])
    ests = env.call("hcss_heavybid.estimates.list", job_number="1042")["data"]
    assert ests["count"] == 1 and ests["estimates"][0]["status"] == "Awarded"
    assert ests["estimates"][0]["estimate_code"] == "B1042-1" and ests["estimates"][0]["item_count"] == 3
    got = env.call("hcss_heavybid.estimates.get", job_number="1042")["data"]
    assert got["estimate"]["estimate_id"] == "EST-1042" and got["count"] == 3
    assert sum(Decimal(i["total_cost"]) for i in got["biditems"]) == Decimal(got["estimate"]["total_cost"])
    items = env.call("hcss_heavybid.bid_items.list", estimate_id="EST-1042", cost_code="26-100")["data"]
    assert items["count"] == 1 and items["biditems"][0]["biditem_code"] == "0030"
    res = env.call("hcss_heavybid.resources.list", estimate_id="EST-1042", resource_type="Subcontract")["data"]
    assert {r["resource_code"] for r in res["resources"]} == {"SUB-03-300", "SUB-26-100"}
    assert env.call("hcss_heavybid.estimates.list", status="Lost", bid_date_from="2025-01-01")["data"]["count"] == 1
    assert env.call("hcss_heavybid.estimates.get", estimate_id="nope")["error_type"] == "not_found"
    assert env.apps["hcss_heavybid"].estimate_for_job("4999") is None


def test_equipment_setup_and_rate_book(open_env):
    env = open_env(["hcss_heavybid"])
    units = env.call("hcss_heavybid.equipment.list", category="excavators")["data"]
    assert [u["equipment_code"] for u in units["equipment"]] == ["EX-104", "EX-R17"]
    owned, rented = units["equipment"]
    assert (owned["ownership"], rented["ownership"]) == ("Owned", "Rented") and owned["rent_unit"] == "HR"
    # the rates in effect today (the clock, 2026-01-31): the revision of the 19th
    assert (owned["rent_rate"], owned["eoe_rate"], owned["total_rate"]) == ("72.00", "38.50", "110.50")
    assert str(owned["rate_effective_date"]) == "2026-01-19"
    assert env.call("hcss_heavybid.equipment.list", ownership="rented")["data"]["count"] == 1
    got = env.call("hcss_heavybid.equipment.get", equipment_code="ex-104")["data"]
    assert [str(r["effective_date"]) for r in got["rates"]] == ["2025-01-01", "2026-01-01", "2026-01-19"]
    assert all(Decimal(r["total_rate"]) == Decimal(r["rent_rate"]) + Decimal(r["eoe_rate"]) for r in got["rates"])
    mid = env.call("hcss_heavybid.equipment_rates.list", category="EXCAVATORS", as_of="2026-01-15")["data"]
    in_effect = {(r["equipment_code"], str(r["effective_date"])) for r in mid["rates"]}
    assert in_effect == {("EX-104", "2026-01-01"), ("EX-R17", "2026-01-12")}
    before = env.call("hcss_heavybid.equipment_rates.list", as_of="2026-01-11")["data"]
    assert [r["equipment_code"] for r in before["rates"]] == ["EX-104"]  # not yet on rent
    one = env.call("hcss_heavybid.equipment_rates.list", equipment_code="EX-104")["data"]
    assert one["count"] == 3
    assert env.call("hcss_heavybid.equipment.get", equipment_code="EX-999")["error_type"] == "not_found"
