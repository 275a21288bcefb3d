"""Behaviour of each platform's finance surface on the fixture book, with known answers."""

from __future__ import annotations

from decimal import Decimal

D = Decimal


# --------------------------------------------------------------------------- Procore reads
def test_procore_projection_facts(open_env) -> None:
    env = open_env(["hh2", "procore"])
    budget = env.call("procore.budget.get", project_number="1042")["data"]
    assert D(budget["totals"]["forecast_to_complete"]) == D("1285000.00")  # every PM line
    assert D(budget["totals"]["forecast_to_complete_erp_lines"]) == D("1240000.00")  # without contingency
    assert budget["project"]["origin_id"] == "1042-"
    line = next(r for r in budget["line_items"] if r["cost_code"] == "26-100")
    assert D(line["committed_costs"]) == D("392000.00") and D(line["approved_cos"]) == D("40000.00")

    ce = env.call("procore.change_events.list", project_number="3100")["data"]["change_events"][0]
    assert (ce["rom_amount"], ce["status"], ce["scope"]) == ("101700.00", "pending", "tbd")
    assert ce["attachment_filename"] == "CE-3100-004_geotech_memo.pdf"

    vendors = {v["name"]: v for v in env.call("procore.vendors.list")["data"]["vendors"]}
    assert vendors["Keystone Concrete"]["insurance_status"] == "compliant"  # stale (registered)
    assert vendors["Brightline Painting"]["insurance_status"] == "expired"
    assert vendors["Walsh Electrical"]["origin_id"] == "3010"

    sov = env.call("procore.prime_contracts.sov", project_number="1042")["data"]
    assert D(sov["totals"]["scheduled_value"]) == D("2425000.00")
    assert D(sov["totals"]["work_completed"]) == D("932500.00")
    assert D(sov["totals"]["previous_work_completed"]) == D("650000.00")

    man = env.call("procore.daily_logs.list_manpower", project_number="1042", trade="electrician")["data"]
    assert man["count"] == 5 and D(man["total_hours"]) == D("80.00")

    com = env.call("procore.commitments.get", commitment_id="SC-1042-0")["data"]
    assert D(com["billed_to_date_approved"]) == D("375000.00") and D(com["remaining_to_bill"]) == D("257000.00")


# --------------------------------------------------------------------------- RedTeam: the commitment cap
def test_redteam_over_cap_eapp_is_flagged_and_can_be_held(open_env) -> None:
    env = open_env(["hh2", "redteam"])
    eapps = {e["invoice_number"]: e for e in env.call("redteam.eapps.list", commitment_id="SC-1042-0")["data"]["eapps"]}
    over = eapps["WE-1005"]
    assert over["status"] == "Submitted" and D(over["amount_this_period"]) == D("288600.00")
    check = env.call("redteam.eapps.get", eapp_id=over["eapp_id"])["data"]["cap_check"]
    assert check["over_commitment_cap"] is True
    assert D(check["remaining_before_this"]) == D("257000.00") and D(check["over_by"]) == D("31600.00")

    no_reason = env.call("redteam.eapps.review", eapp_id=over["eapp_id"], action="hold")
    assert not no_reason["ok"] and "reason" in no_reason["error"]
    held = env.call("redteam.eapps.review", eapp_id=over["eapp_id"], action="hold", reason="over the commitment cap")
    assert held["ok"] and held["data"]["status"] == "Held" and held["data"]["warnings"] == []
    again = env.call("redteam.eapps.get", eapp_id=over["eapp_id"])["data"]["eapp"]
    assert (again["status"], again["review_reason"]) == ("Held", "over the commitment cap")
    # the held eApp cannot be paid
    pay = env.call("redteam.eapps.approve_for_payment", eapp_id=over["eapp_id"])
    assert not pay["ok"] and "Held" in pay["error"]
    diff = env.state_diff()
    assert diff.tables() == ["redteam.eapps"]


def test_redteam_approving_over_cap_warns(open_env) -> None:
    env = open_env(["hh2", "redteam"])
    over = next(
        e
        for e in env.call("redteam.eapps.list", status="Submitted")["data"]["eapps"]
        if e["invoice_number"] == "WE-1005"
    )
    out = env.call("redteam.eapps.review", eapp_id=over["eapp_id"], action="approve")
    assert out["ok"] and out["data"]["warnings"] and "over the commitment cap" in out["data"]["warnings"][0]
    reviewed = env.call("redteam.eapps.review", eapp_id=over["eapp_id"], action="reject", reason="x")
    assert not reviewed["ok"] and reviewed["error_type"] == "conflict"


# --------------------------------------------------------------------------- INGENIOUS.BUILD
def test_ingenious_funding_allocation_and_approval_routing(open_env) -> None:
    env = open_env(["hh2", "ingenious_build"])
    inv = {
        i["custom_id"]: i for i in env.call("ingenious_build.invoices.list", project_number="1042")["data"]["invoices"]
    }
    kc = inv["KC-502"]
    assert (kc["status"], kc["funding_status"], kc["net_amount"]) == ("Submitted", "Unallocated", "36000.00")
    src = {
        s["funding_source_id"]: s
        for s in env.call("ingenious_build.funding_sources.list", project_number="1042")["data"]["funding_sources"]
    }
    assert src["FS-1"]["draw_priority"] == 1 and D(src["FS-1"]["available"]) == D("150000.00")

    short = env.call(
        "ingenious_build.invoices.allocate_funding",
        invoice_id=kc["invoice_id"],
        allocations=[{"funding_source_id": "FS-1", "amount": "30000.00"}],
    )
    assert not short["ok"] and "36000.00" in short["error"]
    too_much = env.call(
        "ingenious_build.invoices.allocate_funding",
        invoice_id=kc["invoice_id"],
        allocations=[{"funding_source_id": "FS-1", "amount": "150000.01"}],
    )
    assert not too_much["ok"]
    unknown = env.call(
        "ingenious_build.invoices.allocate_funding",
        invoice_id=kc["invoice_id"],
        allocations=[{"funding_source_id": "FS-9", "amount": "36000.00"}],
    )
    assert not unknown["ok"] and unknown["error_type"] == "not_found"
    ok = env.call(
        "ingenious_build.invoices.allocate_funding",
        invoice_id=kc["invoice_id"],
        allocations=[
            {"funding_source_id": "FS-1", "amount": "30000.00"},
            {"funding_source_id": "FS-2", "amount": "6000.00"},
        ],
    )
    assert ok["ok"], ok
    redo = env.call(
        "ingenious_build.invoices.allocate_funding",
        invoice_id=kc["invoice_id"],
        allocations=[{"funding_source_id": "FS-1", "amount": "36000.00"}],
    )
    assert redo["ok"]
    got = env.call("ingenious_build.invoices.get", invoice_id=kc["invoice_id"])["data"]
    assert [(f["funding_source_id"], f["amount"]) for f in got["funding"]] == [("FS-1", "36000.00")]
    assert D(got["unfunded"]) == 0
    src = {
        s["funding_source_id"]: s
        for s in env.call("ingenious_build.funding_sources.list", project_number="1042")["data"]["funding_sources"]
    }
    assert D(src["FS-1"]["available"]) == D("114000.00")

    routed = env.call("ingenious_build.approvals.submit", object_type="invoice", object_id=str(kc["invoice_id"]))
    assert routed["ok"] and routed["data"]["status"] == "Pending"
    locked = env.call(
        "ingenious_build.invoices.allocate_funding",
        invoice_id=kc["invoice_id"],
        allocations=[{"funding_source_id": "FS-2", "amount": "36000.00"}],
    )
    assert not locked["ok"]
    pay = env.call("ingenious_build.invoices.approve_for_payment", invoice_id=kc["invoice_id"])
    assert not pay["ok"] and "Pending Approval" in pay["error"]


def test_ingenious_forecast_update(open_env) -> None:
    env = open_env(["hh2", "ingenious_build"])
    out = env.call(
        "ingenious_build.forecasts.update",
        project_number="1042",
        cost_code="26-500",
        forecast_to_complete="455000.00",
        note="owner re-forecast",
    )
    assert out["ok"], out
    data = out["data"]
    assert (data["previous_forecast"], data["forecast_to_complete"]) == ("480000.00", "455000.00")
    assert D(data["project_forecast_to_complete"]) == D("1260000.00")
    line = env.call("ingenious_build.budgets.get", project_number="1042", cost_code="26-500")["data"]["budget_lines"][0]
    assert (line["forecast_to_complete"], line["forecast_status"]) == ("455000.00", "Draft")
    bad = env.call(
        "ingenious_build.forecasts.update",
        project_number="1042",
        cost_code="99-999",
        forecast_to_complete="1.00",
        note="x",
    )
    assert not bad["ok"] and bad["error_type"] == "not_found"


# --------------------------------------------------------------------------- Ressio: bill to PO
def test_ressio_match_and_exception(open_env) -> None:
    env = open_env(["hh2", "ressio"])
    bills = {b["bill_name"]: b for b in env.call("ressio.bills.list", project_number="9140")["data"]["bills"]}
    assert set(bills) == {"JSM-88500", "JSM-88512"}  # 88421 is not entered anywhere
    good, over = bills["JSM-88500"], bills["JSM-88512"]
    assert (good["accounting_status"], good["match_status"]) == ("Not Synced", "Unmatched")
    detail = env.call("ressio.bills.get", bill_id=good["bill_id"])["data"]
    assert detail["project"]["job_number"] == "9140"
    assert detail["purchase_order"]["po_number"] == "9140-76"
    assert detail["purchase_order"]["commitment_ref"] == "PO-9140-3"
    assert detail["items"][0]["cost_code"] == "06-100" and detail["items"][0]["po_open_amount"] == "22000.00"
    assert detail["vendor"]["vendor_name"] == "JSM Supply"

    m = env.call("ressio.bills.match_po", bill_id=over["bill_id"])
    assert m["ok"] and m["data"]["match_status"] == "Exception"
    assert D(m["data"]["items"][0]["variance"]) == D("2750.00")
    m = env.call("ressio.bills.match_po", bill_id=good["bill_id"], po_number="9140-76")
    assert m["ok"] and m["data"]["match_status"] == "Matched"
    wrong_po = env.call("ressio.bills.match_po", bill_id=good["bill_id"], po_number="9140-75")
    assert not wrong_po["ok"]
    pay = env.call("ressio.bills.pay", bill_id=over["bill_id"])
    assert not pay["ok"] and "exception" in pay["error"]


# --------------------------------------------------------------------------- SmarteBuild
def test_smartbuild_claim_arithmetic(open_env) -> None:
    env = open_env(["hh2", "smartbuild"])
    out = env.call(
        "smartbuild.claims.create_draft",
        job_number="1042",
        period_end="2026-01-31",
        progress=[{"item_no": 4, "pct_complete": "60"}],
    )
    assert out["ok"], out
    claim, lines = out["data"]["claim"], {ln["item_no"]: ln for ln in out["data"]["lines"]}
    assert claim["claim_id"] == "SB-1042-PC02" and claim["status"] == "Draft"
    assert lines[4]["value_to_date"] == "15000.00"
    assert (lines[2]["value_to_date"], lines[2]["materials_on_site"]) == ("567500.00", "15000.00")
    assert D(claim["value_completed_to_date"]) == D("952500.00")
    assert D(claim["retention_to_date"]) == D("95250.00")
    assert D(claim["less_previous_claims"]) == D("585000.00")
    assert D(claim["amount_due"]) == D("272250.00")
    assert D(claim["this_claim"]) == D("302500.00")

    bad_pct = env.call(
        "smartbuild.claims.create_draft",
        job_number="9140",
        period_end="2026-01-31",
        progress=[{"item_no": 1, "pct_complete": "120"}],
    )
    assert not bad_pct["ok"]
    over = env.call(
        "smartbuild.claims.create_draft",
        job_number="9140",
        period_end="2026-01-31",
        progress=[{"item_no": 1, "pct_complete": "100", "materials_on_site": "1.00"}],
    )
    assert not over["ok"] and "contract value" in over["error"]
    dup = env.call("smartbuild.claims.create_draft", job_number="1042", period_end="2026-02-28")
    assert not dup["ok"] and dup["error_type"] == "conflict"


def test_smartbuild_step_down_and_backwards(open_env) -> None:
    env = open_env(["hh2", "smartbuild"])
    full = [{"item_no": i, "pct_complete": "80"} for i in (1, 2, 3, 4)]
    out = env.call("smartbuild.claims.create_draft", job_number="1042", period_end="2026-01-31", progress=full)
    assert out["ok"] and out["data"]["claim"]["retention_pct"] == "5.0000"  # past 50% complete
    lines = env.call("smartbuild.claims.get", claim_id="SB-1042-PC02")["data"]["lines"]
    assert all(ln["pct_complete"] == "80.0000" for ln in lines)
    other = env.call(
        "smartbuild.claims.create_draft",
        job_number="3100",
        period_end="2026-01-31",
        progress=[{"item_no": 9, "pct_complete": "10"}],
    )
    assert not other["ok"] and other["error_type"] == "not_found"


def test_smartbuild_reestimate_keeps_the_estimate(open_env) -> None:
    env = open_env(["hh2", "smartbuild"])
    out = env.call(
        "smartbuild.estimates.reestimate",
        estimate_id="EST-3100",
        item_no=1,
        quantity="9200",
        rate="41.25",
        note="survey",
    )
    assert out["ok"], out
    assert out["data"]["reestimate_total"] == "379500.00" and out["data"]["change"] == "39500.00"
    assert out["data"]["cost_centre"]["cost_code"] == "31-200"
    boq = env.call("smartbuild.boq.get", job_number="3100", cost_code="31-200")["data"]
    assert boq["items"][0]["cost_total"] == "340000.00" and boq["items"][0]["reestimate_status"] == "Re-estimated"
    assert boq["totals"]["current_total"] == "379500.00"
    none = env.call("smartbuild.estimates.reestimate", estimate_id="EST-3100", item_no=1, note="nothing")
    assert not none["ok"]
