"""Every rule of the five PM rule files fires on the write it is about (through the one write
gate, as agent SQL reaches it), guarded tools and guard rules stage instead of executing, and
state is untouched afterwards."""

from __future__ import annotations

from typing import Any

import pytest

from cfab.apps.sandbox.write import parse_write
from cfab.schema.catalog import content_digest
from cfab.triggers.gate import GuardTripped, WriteRejected
from cfab.triggers.rules import load_rules
from tests.fixtures.pm_book import PM_APPS

APPS = ["hh2", *PM_APPS]

# rule id -> (setup tool calls, SQL that must trip it)
CASES: dict[str, tuple[list[tuple[str, dict[str, Any]]], str]] = {
    # procore ------------------------------------------------------------------------------
    "procore.commitment_locked_after_sync": (
        [],
        "UPDATE procore.commitments SET title = 'x' WHERE contract_code = 'SC-1042-0'",
    ),
    "procore.commitment_lines_locked_after_sync": (
        [],
        "UPDATE procore.commitment_line_items SET description = 'x' WHERE id = 2000004001",
    ),
    "procore.commitment_lines_no_add_when_synced": (
        [],
        "INSERT INTO procore.commitment_line_items VALUES (2000004009, 2000004, 9, '26-100', 'x', 1.00, 0, 0, false)",
    ),
    "procore.requisition_locked_after_sync": (
        [],
        "UPDATE procore.requisitions SET gross_amount = 1 WHERE invoice_number = 'WE-1003'",
    ),
    "procore.requisition_lines_locked_after_sync": (
        [],
        "UPDATE procore.requisition_line_items SET description = 'x' WHERE requisition_id = 1000003",
    ),
    "procore.sync_only_through_erp": (
        [],
        "UPDATE procore.requisitions SET erp_sync_status = 'synced' WHERE invoice_number = 'WE-1004'",
    ),
    "procore.commitment_sync_only_through_erp": (
        [],
        "UPDATE procore.commitments SET erp_sync_status = 'synced' WHERE contract_code = 'SC-1042-1'",
    ),
    "procore.requisitions_from_subcontractors": (
        [],
        "INSERT INTO procore.requisitions VALUES (1999999, 2068235, 2000004, 4410287, 9, 'WE-9', '2026-01-31', "
        "'2026-03-02', NULL, NULL, 'draft', 'x', 1.00, 0.00, 1.00, 'not_synced', NULL, NULL, false)",
    ),
    "procore.direct_cost_locked_after_sync": (
        [],
        "UPDATE procore.direct_costs SET description = 'x' WHERE invoice_number = 'BP-9'",
    ),
    "procore.original_budget_locked": (
        [],
        "UPDATE procore.budget_line_items SET original_budget_amount = 1 WHERE cost_code = '26-100'",
    ),
    "procore.commitment_amounts_by_change_order": (
        [],
        "UPDATE procore.commitments SET grand_total = 1 WHERE contract_code = 'SC-1042-1'",
    ),
    "procore.commitment_lines_by_change_order": (
        [],
        "UPDATE procore.commitment_line_items SET amount = 1 WHERE id = 2000005001",
    ),
    "procore.requisition_approval_guard": (
        [],
        "UPDATE procore.requisitions SET status = 'approved' WHERE invoice_number = 'WE-1005'",
    ),
    "procore.requisition_lines_of_synced": (
        [],
        "INSERT INTO procore.requisition_line_items VALUES (1000003, 9, NULL, '26-100', 'x', 0, 0, false)",
    ),
    "procore.requisition_lines_from_subcontractors": (
        [],
        "INSERT INTO procore.requisition_line_items VALUES (1000005, 9, NULL, '26-100', 'x', 0, 0, false)",
    ),
    "procore.direct_cost_lines_locked_after_sync": (
        [],
        "UPDATE procore.direct_cost_line_items SET amount = 1 WHERE direct_cost_id = 6000001",
    ),
    "procore.change_order_approval_guard": (
        [],
        "INSERT INTO procore.change_orders VALUES (4599999, 1, 'PrimeContract', NULL, '009', 'x', 'approved', "
        "NULL, 1.00, true, NULL, 'PCO-X')",
    ),
    "procore.approved_change_order_locked": ([], "UPDATE procore.change_orders SET grand_total = 1 WHERE id = 4500001"),
    "procore.approved_change_order_lines_locked": (
        [],
        "DELETE FROM procore.change_order_line_items WHERE change_order_id = 4500002",
    ),
    "procore.prime_contract_amounts_by_change_order": (
        [],
        "UPDATE procore.prime_contracts SET revised_contract_amount = 1 WHERE id = 3000001",
    ),
    "procore.erp_cost_code_map_maintained_by_integration": (
        [],
        "UPDATE procore.erp_cost_code_mappings SET erp_phase = '99-999-99' WHERE cost_code = '26-100'",
    ),
    "procore.vendor_erp_link": ([], "UPDATE procore.vendors SET origin_id = '1' WHERE id = 4410287"),
    "procore.project_erp_link": ([], "DELETE FROM procore.projects WHERE id = 2068235"),
    "procore.prime_contract_sov_by_change_order": (
        [],
        "UPDATE procore.prime_contract_line_items SET amount = 1 WHERE id = 3000001001",
    ),
    # redteam ------------------------------------------------------------------------------
    "redteam.locked_commitment_amounts": (
        [],
        "UPDATE redteam.commitments SET revised_amount = 700000 WHERE commitment_number = 'SC-1042-0'",
    ),
    "redteam.change_order_approval_guard": (
        [],
        "INSERT INTO redteam.change_orders VALUES (759999, 'RT1042', 'OCO-009', 'Owner', NULL, 'x', 1.00, "
        "'Approved', NULL, 'PCO-X')",
    ),
    "redteam.approved_change_order_locked": (
        [],
        "UPDATE redteam.change_orders SET amount = 1 WHERE co_number = 'SCO-001'",
    ),
    "redteam.eapp_review_through_tool": (
        [],
        "UPDATE redteam.eapps SET status = 'Approved' WHERE invoice_number = 'WE-1005'",
    ),
    "redteam.approved_sov_fixed": (
        [],
        "UPDATE redteam.commitment_sov SET scheduled_value = 1 WHERE commitment_id = 700004 AND line_no = 1",
    ),
    "redteam.eapp_payment_guard": (
        [],
        "UPDATE redteam.eapps SET payment_status = 'Approved for Payment' WHERE invoice_number = 'WE-1004'",
    ),
    "redteam.paid_eapp_locked": ([], "UPDATE redteam.eapps SET review_reason = 'x' WHERE invoice_number = 'WE-1001'"),
    "redteam.eapp_amounts_are_the_subs": (
        [],
        "UPDATE redteam.eapps SET amount_this_period = 1 WHERE invoice_number = 'WE-1005'",
    ),
    "redteam.eapp_status_vocabulary": ([], "UPDATE redteam.eapps SET status = 'Paid' WHERE invoice_number = 'WE-1005'"),
    "redteam.eapps_from_subcontractors": ([], "DELETE FROM redteam.eapps WHERE invoice_number = 'WE-1005'"),
    "redteam.eapp_lines_fixed": ([], "UPDATE redteam.eapp_lines SET description = 'x' WHERE eapp_id = 800005"),
    # ingenious_build ----------------------------------------------------------------------
    "ingenious_build.invoice_payment_guard": (
        [],
        "UPDATE ingenious_build.invoices SET status = 'Paid' WHERE custom_id = 'WE-1004'",
    ),
    "ingenious_build.invoice_approval_guard": (
        [],
        "UPDATE ingenious_build.invoices SET status = 'Approved' WHERE custom_id = 'KC-502'",
    ),
    "ingenious_build.paid_invoice_locked": (
        [],
        "UPDATE ingenious_build.invoices SET description = 'x' WHERE custom_id = 'WE-1001'",
    ),
    "ingenious_build.invoice_amounts_are_the_vendors": (
        [],
        "UPDATE ingenious_build.invoices SET gross_amount = 1 WHERE custom_id = 'KC-502'",
    ),
    "ingenious_build.funding_approval_guard": (
        [],
        "INSERT INTO ingenious_build.invoice_funding VALUES (950008, 'FS-1', 'IB1042', 36000.00, 100, "
        "'Approved', '2026-01-31 17:00:00')",
    ),
    "ingenious_build.funding_fixed_once_routed": (
        [],
        "INSERT INTO ingenious_build.invoice_funding VALUES (950012, 'FS-1', 'IB1042', 54000.00, 100, "
        "'Draft', '2026-01-31 17:00:00')",
    ),
    "ingenious_build.approval_decision_guard": (
        [],
        "INSERT INTO ingenious_build.approval_requests VALUES ('APR-X', 'IB1042', 'Invoice', '950008', 1, "
        "'Owner''s Representative', 'Approved', '2026-01-31 17:00:00', 'x')",
    ),
    "ingenious_build.funding_draws_are_the_lenders": (
        [],
        "UPDATE ingenious_build.funding_sources SET drawn_to_date = 0 WHERE project_id = 'IB1042' "
        "AND funding_source_id = 'FS-1'",
    ),
    "ingenious_build.invoice_routed_locked": (
        [],
        "UPDATE ingenious_build.invoices SET funding_status = 'Unallocated' WHERE custom_id = 'WE-1004'",
    ),
    "ingenious_build.invoice_lines_are_the_vendors": (
        [],
        "UPDATE ingenious_build.invoice_lines SET amount = 1 WHERE invoice_id = 950002",
    ),
    "ingenious_build.approvals_routed_by_submit": (
        [],
        "INSERT INTO ingenious_build.approval_requests VALUES ('APR-Y', 'IB1042', 'Invoice', '950008', 1, "
        "'Owner''s Representative', 'Pending', '2026-01-31 17:00:00', 'x')",
    ),
    "ingenious_build.forecast_approval_guard": (
        [],
        "INSERT INTO ingenious_build.forecast_revisions VALUES ('FR-X', 'IB1042', '26-100', 1.00, 2.00, 'x', "
        "'Approved', '2026-01-31 17:00:00')",
    ),
    "ingenious_build.executed_contract_by_change_order": (
        [],
        "UPDATE ingenious_build.contracts SET current_value = 1 WHERE contract_number = 'SC-1042-0'",
    ),
    "ingenious_build.executed_sov_by_change_order": (
        [],
        "UPDATE ingenious_build.contract_sov SET scheduled_value = 1 WHERE contract_id = 900004",
    ),
    "ingenious_build.budget_forecast_approval_guard": (
        [
            (
                "ingenious_build.forecasts.update",
                {"project_number": "1042", "cost_code": "26-100", "forecast_to_complete": "1000.00", "note": "x"},
            )
        ],
        "UPDATE ingenious_build.budget_lines SET forecast_status = 'Approved' WHERE project_id = 'IB1042' "
        "AND cost_code = '26-100'",
    ),
    "ingenious_build.approved_forecast_kept": (
        [],
        "UPDATE ingenious_build.budget_lines SET forecast_to_complete = 1 WHERE project_id = 'IB1042' "
        "AND cost_code = '26-100'",
    ),
    "ingenious_build.original_budget_locked": (
        [],
        "UPDATE ingenious_build.budget_lines SET original_budget = 1 WHERE project_id = 'IB1042' "
        "AND cost_code = '26-100'",
    ),
    # ressio -------------------------------------------------------------------------------
    "ressio.bill_payment_guard": ([], "UPDATE ressio.bills SET status = 'Paid' WHERE bill_name = 'JSM-88500'"),
    "ressio.paid_bill_locked": ([], "UPDATE ressio.bills SET description = 'x' WHERE bill_name = 'JSM-88007'"),
    "ressio.bill_amounts_are_the_vendors": ([], "UPDATE ressio.bills SET total = 1 WHERE bill_name = 'JSM-88500'"),
    "ressio.bill_approval_guard": ([], "UPDATE ressio.bills SET status = 'Approved' WHERE bill_name = 'JSM-88500'"),
    "ressio.match_status_by_match_po": (
        [],
        "UPDATE ressio.bills SET match_status = 'Matched' WHERE bill_name = 'JSM-88500'",
    ),
    "ressio.bill_item_amounts_are_the_vendors": ([], "UPDATE ressio.bill_items SET amount = 1 WHERE bill_id = 500007"),
    "ressio.match_results_are_a_record": (
        [("ressio.bills.match_po", {"bill_id": 500007})],
        "UPDATE ressio.bill_po_matches SET reason = 'x' WHERE bill_id = 500007",
    ),
    "ressio.approved_po_amounts": ([], "UPDATE ressio.purchase_orders SET total = 1 WHERE po_number = '9140-76'"),
    "ressio.approved_po_items": ([], "UPDATE ressio.po_items SET amount = 1 WHERE po_id = 400003"),
    # smartbuild ---------------------------------------------------------------------------
    "smartbuild.claim_lodge_guard": (
        [("smartbuild.claims.create_draft", {"job_number": "1042", "period_end": "2026-01-31"})],
        "UPDATE smartbuild.progress_claims SET status = 'Lodged' WHERE claim_id = 'SB-1042-PC02'",
    ),
    "smartbuild.lodged_claim_locked": (
        [],
        "UPDATE smartbuild.progress_claims SET amount_due = 1 WHERE claim_id = 'SB-1042-PC01'",
    ),
    "smartbuild.lodged_claim_lines_locked": (
        [],
        "UPDATE smartbuild.progress_claim_lines SET pct_complete = 1 WHERE claim_id = 'SB-1042-PC01'",
    ),
    "smartbuild.accepted_estimate_kept": (
        [],
        "UPDATE smartbuild.boq_items SET quantity = 1 WHERE estimate_id = 'EST-1042' AND item_no = 1",
    ),
    "smartbuild.committed_subcontract_by_variation": (
        [],
        "UPDATE smartbuild.subcontracts SET contract_value = 1 WHERE sc_number = 'SC-1042-0'",
    ),
    "smartbuild.committed_subcontract_items": (
        [],
        "UPDATE smartbuild.subcontract_items SET value = 1 WHERE subcontract_id = 600004",
    ),
    "smartbuild.approved_variation_locked": (
        [],
        "UPDATE smartbuild.variations SET amount = 1 WHERE variation_no = 'V001'",
    ),
    "smartbuild.contract_by_variation": (
        [],
        "UPDATE smartbuild.claim_schedule SET contract_value = 1 WHERE job_id = 'SB-1042' AND item_no = 1",
    ),
    "smartbuild.variation_approval_guard": (
        [],
        "INSERT INTO smartbuild.variations VALUES ('PCO-1042-009', 'SB-1042', 'V009', 'Client', 'x', 100.00, "
        "'Approved', '2026-01-31')",
    ),
}


def _trip(env, sql: str) -> tuple[str, str | None, str]:
    """Apply one SQL write intent through the gate in a rolled-back transaction."""
    intent = parse_write(sql, PM_APPS)
    table = f"{intent.schema}.{intent.table}"
    env.con.begin()
    env.gate.begin(10_000)
    try:
        if intent.op == "insert":
            info = env.catalog.get(table)
            cols = intent.columns or list(info.columns)
            env.gate.insert_many(table, [dict(zip(cols, v, strict=False)) for v in intent.rows])
        elif intent.op == "update":
            env.gate.update_where(table, intent.where, intent.assignments)
        else:
            env.gate.delete_where(table, intent.where)
        return "allowed", None, ""
    except WriteRejected as e:
        return "reject", e.rule_id, e.message
    except GuardTripped as g:
        return "guard", g.rule.id, g.rule.message
    finally:
        env.con.rollback()


def test_every_pm_rule_has_a_case() -> None:
    ids = {r.id for r in load_rules().rules if r.id.split(".")[0] in PM_APPS}
    assert ids == set(CASES)


@pytest.fixture(scope="module")
def rules_env(pm_golden):
    from cfab.apps.world.environment import Environment

    env = Environment.open(apps=APPS, golden=pm_golden, sql_write=True)
    yield env
    env.close()


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_rule_fires(rules_env, rule_id: str) -> None:
    env = rules_env
    setup, sql = CASES[rule_id]
    snap = env.snapshot() if setup else None
    try:
        for name, args in setup:
            out = env.call(name, **args)
            assert out["ok"], out
        schema = rule_id.split(".")[0]
        d0 = content_digest(env.con, [schema])
        action, fired, message = _trip(env, sql)
        rule = next(r for r in load_rules().rules if r.id == rule_id)
        assert (action, fired) == (rule.action, rule_id), (action, fired, message)
        assert message and "{" not in message, message
        assert content_digest(env.con, [schema]) == d0
    finally:
        if snap is not None:
            env.reset(snap)


def test_agent_sql_guard_stages_and_reject_explains(rules_env) -> None:
    env = rules_env
    d0 = env.digest()
    n0 = len(env.guarded_calls())
    out = env.call("sql.execute", sql="UPDATE ressio.bills SET status = 'Paid' WHERE bill_name = 'JSM-88500'")
    assert out["ok"] and out["status"] == "pending_human_approval"
    out = env.call(
        "sql.execute", sql="UPDATE redteam.eapps SET amount_this_period = 1 WHERE invoice_number = 'WE-1005'"
    )
    assert not out["ok"] and "subcontractor's submission" in out["error"]
    calls = env.guarded_calls()[n0:]
    assert len(calls) == 1 and calls[0].executed is False and "ressio.bill_payment_guard" in calls[0].reason
    assert env.digest() == d0


GUARDED_TOOLS = {
    "redteam": (
        "redteam.eapps.approve_for_payment",
        lambda env: {
            "eapp_id": next(
                e["eapp_id"]
                for e in env.call("redteam.eapps.list", status="Approved")["data"]["eapps"]
                if e["payment_status"] == "Unpaid" and e["invoice_number"] == "WE-1004"
            )
        },
    ),
    "ingenious_build": (
        "ingenious_build.invoices.approve_for_payment",
        lambda env: {
            "invoice_id": next(
                i["invoice_id"]
                for i in env.call("ingenious_build.invoices.list", status="Approved")["data"]["invoices"]
                if i["custom_id"] == "WE-1004"
            )
        },
    ),
    "ressio": (
        "ressio.bills.pay",
        lambda env: {
            "bill_id": next(b["bill_id"] for b in env.call("ressio.bills.list", status="Approved")["data"]["bills"])
        },
    ),
    "smartbuild": (
        "smartbuild.claims.lodge",
        lambda env: {
            "claim_id": env.call("smartbuild.claims.create_draft", job_number="3100", period_end="2026-01-31")["data"][
                "claim"
            ]["claim_id"]
        },
    ),
}


@pytest.mark.parametrize("app", sorted(GUARDED_TOOLS))
def test_guarded_tool_leaves_state_unchanged(open_env, app: str) -> None:
    env = open_env(["hh2", app])
    tool, make_args = GUARDED_TOOLS[app]
    args = make_args(env)
    d0 = env.digest()
    out = env.call(tool, **args)
    assert out["ok"] and out["status"] == "pending_human_approval", out
    assert env.digest() == d0
    calls = env.guarded_calls()
    assert len(calls) == 1
    g = calls[0]
    assert (g.tool, g.executed, g.valid, g.app) == (tool, False, True, app)
    assert env.tool_log()[-1].guarded is True


@pytest.mark.parametrize("app", sorted(GUARDED_TOOLS))
def test_invalid_guarded_call_is_logged_invalid(open_env, app: str) -> None:
    env = open_env(["hh2", app])
    tool, _ = GUARDED_TOOLS[app]
    bad = {
        "redteam": {"eapp_id": 1},
        "ingenious_build": {"invoice_id": 1},
        "ressio": {"bill_id": 1},
        "smartbuild": {"claim_id": "SB-1042-PC01"},
    }[app]
    d0 = env.digest()
    out = env.call(tool, **bad)
    assert not out["ok"]
    assert env.digest() == d0
    g = env.guarded_calls()
    assert len(g) == 1 and g[0].valid is False and g[0].executed is False
