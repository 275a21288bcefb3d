"""GCPay: pay application #1 reads back as the book has it; a draft #2 derives G703 columns and
the G702 totals exactly (Decimal) from the agent's per-line figures; locks and guards hold."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.fixtures.envs import app_digest

D = Decimal


def _money(x) -> Decimal:
    return D(str(x))


def test_app1_reads_back_as_the_book(open_env):
    env = open_env(["gcpay"])
    out = env.call("gcpay.pay_apps.get", job_number="1042", application_number=1)
    assert out["ok"], out
    head = out["data"]["pay_application"]
    book = env.con.execute(
        "SELECT original_contract_sum, net_change_orders, total_completed_stored, retainage, previous_certificates, "
        "current_payment_due, period_start, period_end FROM book.owner_pay_apps WHERE job_number='1042' AND "
        "app_number=1"
    ).fetchone()
    assert [
        _money(head[k])
        for k in (
            "original_contract_sum",
            "net_change_by_change_orders",
            "total_completed_stored",
            "retainage",
            "less_previous_certificates",
            "current_payment_due",
        )
    ] == list(book[:6])
    assert head["period_from"] == book[6].isoformat() and head["period_to"] == book[7].isoformat()
    assert head["status"] == "Certified"
    lines = env.con.execute(
        "SELECT line_no, scheduled_value, from_previous, this_period, materials_stored, total_completed_stored, "
        "retainage "
        "FROM book.owner_pay_app_lines WHERE job_number='1042' AND app_number=1 ORDER BY line_no"
    ).fetchall()
    got = [
        (
            ln["item_no"],
            *(
                _money(ln[k])
                for k in (
                    "scheduled_value",
                    "from_previous_application",
                    "this_period",
                    "materials_presently_stored",
                    "total_completed_stored",
                    "retainage",
                )
            ),
        )
        for ln in out["data"]["lines"]
    ]
    assert got == [tuple(r) for r in lines]
    line3 = out["data"]["lines"][2]
    assert line3["percent_complete"] == "19.75" and line3["balance_to_finish"] == "1926000.00"


def test_draft_app2_derives_g702_exactly(open_env):
    env = open_env(["gcpay"])
    lines = [
        {"item_no": 1, "work_this_period": "60000.00"},
        {"item_no": 2, "work_this_period": "270000.00", "materials_stored": "15000.00"},
        {"item_no": 3, "work_this_period": "336000.00", "retainage": "39300.00"},
        {"item_no": 4, "work_this_period": "24000.01"},
    ]
    out = env.call(
        "gcpay.pay_apps.create_draft",
        job_number="1042",
        application_number=2,
        period_to="2026-01-31",
        lines=lines,
        retainage_percent="10",
    )
    assert out["ok"], out
    head, rows = out["data"]["pay_application"], {r["item_no"]: r for r in out["data"]["lines"]}
    assert head["pay_app_id"] == "PA-1042-002" and head["status"] == "Draft"
    assert head["period_from"] == "2026-01-01"
    # D is the previous application's D+E (stored materials are not carried into D)
    assert rows[3]["from_previous_application"] == "450000.00"
    assert rows[3]["total_completed_stored"] == "786000.00"  # 450000 + 336000 + 0
    assert rows[3]["retainage"] == "39300.00"  # the agent's own figure
    assert rows[2]["total_completed_stored"] == "1095000.00"  # 810000 + 270000 + 15000
    assert rows[2]["retainage"] == "109500.00"  # 10% of G
    assert rows[4]["total_completed_stored"] == "36000.01"
    assert rows[4]["retainage"] == "3600.00"  # round(3600.001, 2)
    assert rows[4]["percent_complete"] == "30.00"
    assert rows[4]["balance_to_finish"] == "83999.99"
    g = sum(D(r["total_completed_stored"]) for r in rows.values())
    ret = sum(D(r["retainage"]) for r in rows.values())
    assert D(head["total_completed_stored"]) == g == D("2157000.01")
    assert D(head["retainage"]) == ret == D("176400.00")
    assert D(head["contract_sum_to_date"]) == D("4920000.00")
    assert D(head["total_earned_less_retainage"]) == g - ret
    assert D(head["less_previous_certificates"]) == D("1328400.00")
    assert D(head["current_payment_due"]) == g - ret - D("1328400.00") == D("652200.01")
    assert D(head["balance_to_finish"]) == D("4920000.00") - (g - ret)
    # stored in the app exactly as returned
    stored = env.con.execute(
        "SELECT current_payment_due FROM gcpay.pay_applications WHERE pay_app_id='PA-1042-002'"
    ).fetchone()
    assert stored[0] == D("652200.01")


def test_redraft_replaces_and_update_line_rederives(open_env):
    env = open_env(["gcpay"])
    base = dict(job_number="1042", application_number=2, period_to="2026-01-31", retainage_percent="10")
    assert env.call("gcpay.pay_apps.create_draft", lines=[{"item_no": 1, "work_this_period": "1000.00"}], **base)["ok"]
    out = env.call("gcpay.pay_apps.create_draft", lines=[{"item_no": 2, "work_this_period": "2000.00"}], **base)
    assert out["ok"] and out["data"]["replaced_draft"] is True
    assert (
        env.con.execute("SELECT count(*) FROM gcpay.pay_applications WHERE contract_id='GCP-PC-1042'").fetchone()[0]
        == 2
    )
    rows = {r["item_no"]: r for r in out["data"]["lines"]}
    assert rows[1]["this_period"] == "0.00" and rows[2]["this_period"] == "2000.00"
    upd = env.call(
        "gcpay.pay_apps.update_line",
        pay_app_id="PA-1042-002",
        item_no=1,
        work_this_period="500.00",
        retainage="68000.00",
    )
    assert upd["ok"], upd
    h = upd["data"]["pay_application"]
    assert D(h["total_completed_stored"]) == D("1476000.00") - D("24000.00") + D("2500.00")
    assert D(h["current_payment_due"]) == D(h["total_earned_less_retainage"]) - D("1328400.00")


@pytest.mark.parametrize(
    "bad, kind",
    [
        ({"lines": [{"item_no": 9, "work_this_period": "1.00"}]}, "invalid_argument"),
        ({"lines": [{"item_no": 1, "work_this_period": "-1.00"}]}, "invalid_argument"),
        ({"lines": [{"item_no": 1, "work_this_period": "1.005"}]}, "invalid_argument"),
        ({"lines": [{"item_no": 1, "work_this_period": "999999999.00"}]}, "invalid_argument"),
        ({"application_number": 3}, "invalid_argument"),
        ({"application_number": 1}, "conflict"),
        ({"retainage_percent": None}, "invalid_argument"),
        ({"period_to": "2025-12-15"}, "invalid_argument"),
    ],
)
def test_create_draft_validation(open_env, bad, kind):
    env = open_env(["gcpay"])
    args = dict(
        job_number="1042",
        application_number=2,
        period_to="2026-01-31",
        retainage_percent="10",
        lines=[{"item_no": 1, "work_this_period": "1000.00"}],
    )
    args.update(bad)
    before = app_digest(env)
    out = env.call("gcpay.pay_apps.create_draft", **{k: v for k, v in args.items() if v is not None})
    assert not out["ok"] and out["error_type"] == kind, out
    assert app_digest(env) == before


def test_certified_app_is_locked(open_env):
    env = open_env(["gcpay"])
    out = env.call("gcpay.pay_apps.update_line", pay_app_id="PA-1042-001", item_no=1, work_this_period="1.00")
    assert not out["ok"] and out["error_type"] == "rejected"


def test_reads(open_env):
    env = open_env(["gcpay"])
    assert env.call("gcpay.contracts.list", job_number="1042")["data"]["count"] == 1
    sov = env.call("gcpay.contracts.sov", job_number="1042")["data"]
    assert sov["count"] == 4 and sov["items"][3]["source"] == "Change Order" and len(sov["change_orders"]) == 1
    assert env.call("gcpay.pay_apps.list", job_number="1042")["data"]["count"] == 1
    assert env.call("gcpay.pay_apps.list", status="Certified")["data"]["pay_applications"][0]["job_number"] == "1042"
    assert env.call("gcpay.lien_waivers.list", job_number="1042")["data"]["count"] == 2
    assert env.call("gcpay.contracts.sov", job_number="0000")["error_type"] == "not_found"
