"""The PM apps on the generator's book: the projections build, SC-1042-0 reads $632,000.00 / Walsh in all five, the apps agree with each
other and with the ERP through the crosswalks, and Procore's sync works on real rows."""

from __future__ import annotations

from decimal import Decimal

import duckdb
import pytest

from cfab.apps.world.environment import Environment
from cfab.views.consistency import check_consistency
from tests.fixtures.pm_book import PM_APPS

APPS = ["hh2", *PM_APPS, "vista_erp"]
GET = {
    "procore": ("procore.commitments.get", "commitment", "grand_total"),
    "redteam": ("redteam.commitments.get", "commitment", "revised_amount"),
    "ingenious_build": ("ingenious_build.contracts.get", "contract", "current_value"),
    "ressio": ("ressio.purchase_orders.get", "purchase_order", "total"),
    "smartbuild": ("smartbuild.subcontracts.get", "subcontract", "contract_value"),
}


@pytest.fixture(scope="module")
def real_golden(golden_for):
    return golden_for(APPS)


def test_sc_1042_0_in_all_five(real_golden) -> None:
    with Environment.open(apps=APPS, golden=real_golden) as env:
        for app, (tool, key, amount) in GET.items():
            out = env.call(tool, commitment_id="SC-1042-0")
            assert out["ok"], (app, out)
            head = out["data"][key]
            assert Decimal(head[amount]) == Decimal("632000.00"), app
            assert "walsh" in head["vendor_name"].lower(), app


def test_consistent_with_each_other_and_the_erp(real_golden) -> None:
    con = duckdb.connect(str(real_golden), read_only=True)
    report = check_consistency(con, APPS)
    assert not report.unregistered, report.summary()


def test_every_list_tool_runs(real_golden) -> None:
    with Environment.open(apps=APPS, golden=real_golden) as env:
        for name in [
            "procore.projects.list",
            "procore.commitments.list",
            "procore.requisitions.list",
            "procore.direct_costs.list",
            "procore.change_events.list",
            "procore.prime_contracts.list",
            "procore.change_orders.list",
            "procore.erp.cost_code_map",
            "procore.vendors.list",
            "redteam.eapps.list",
            "redteam.commitments.list",
            "ingenious_build.invoices.list",
            "ingenious_build.contracts.list",
            "ressio.bills.list",
            "ressio.purchase_orders.list",
            "smartbuild.claims.list",
            "smartbuild.subcontracts.list",
            "smartbuild.jobs.list",
        ]:
            out = env.call(name)
            assert out["ok"], (name, out)
        for job in ("1042", "3100"):
            assert env.call("procore.budget.get", project_number=job)["ok"]
            assert env.call("procore.prime_contracts.sov", project_number=job)["ok"]
            assert env.call("ingenious_build.budgets.get", project_number=job)["ok"]


def test_sync_every_approved_unsynced_requisition_of_1042(real_golden) -> None:
    with Environment.open(apps=APPS, golden=real_golden) as env:
        todo = env.call(
            "procore.requisitions.list", project_number="1042", status="approved", erp_sync_status="not_synced"
        )["data"]["requisitions"]
        for r in todo:
            out = env.call("procore.erp.sync_invoice", requisition_id=r["id"])
            assert out["ok"], (r["invoice_number"], out)
            erp = env.call("vista_erp.ap_invoices.list", invoice_number=r["invoice_number"])["data"]["invoices"]
            assert len(erp) == 1
        assert env.guarded_calls() == []


def _planted(env, kind: str) -> list[tuple[str, str]]:
    """(vendor_key, invoice_number) of the book's invoices carrying a divergence of ``kind``."""
    return env.con.execute(
        "SELECT i.vendor_key, i.invoice_number FROM book.ap_invoices i JOIN book.divergences d "
        "ON d.kind = ? AND d.entity_key IN (i.invoice_id, i.vendor_key || '|' || i.invoice_number) "
        "ORDER BY 1, 2",
        [kind],
    ).fetchall()


def test_planted_pm_defects_surface(real_golden) -> None:
    with Environment.open(apps=APPS, golden=real_golden) as env:
        for _, number in _planted(env, "commitment_cap_exceeded"):
            eapp = next(
                e for e in env.call("redteam.eapps.list", limit=5000)["data"]["eapps"] if e["invoice_number"] == number
            )
            check = env.call("redteam.eapps.get", eapp_id=eapp["eapp_id"])["data"]["cap_check"]
            assert check["over_commitment_cap"] is True, number
            held = env.call("redteam.eapps.review", eapp_id=eapp["eapp_id"], action="hold", reason="over the cap")
            assert held["ok"], held
        for _, number in _planted(env, "bill_po_mismatch"):
            bill = next(
                b for b in env.call("ressio.bills.list", limit=5000)["data"]["bills"] if b["bill_name"] == number
            )
            assert bill["match_status"] == "Unmatched"
            out = env.call("ressio.bills.match_po", bill_id=bill["bill_id"])
            assert out["ok"] and out["data"]["match_status"] == "Exception", out


def test_next_progress_claim_for_every_job_with_a_claim(real_golden) -> None:
    with Environment.open(apps=APPS, golden=real_golden) as env:
        jobs = {c["job_id"] for c in env.call("smartbuild.claims.list")["data"]["claims"]}
        numbers = {j["job_id"]: j["job_no"] for j in env.call("smartbuild.jobs.list")["data"]["jobs"]}
        for job_id in sorted(jobs):
            out = env.call("smartbuild.claims.create_draft", job_number=numbers[job_id], period_end="2026-02-28")
            assert out["ok"], (job_id, out)
