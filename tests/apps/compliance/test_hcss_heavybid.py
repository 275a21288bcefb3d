"""HCSS HeavyBid: estimates, bid items and resources read back as the book has them."""

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
