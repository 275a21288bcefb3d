"""FieldTime archetype: approval writes one row, exported cards refuse changes, the payroll-export
summary adds up, the rules fire, every tool answers."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from cfab.apps.registry import get_app
from tests.apps.money.money_helpers import FIELD, table_rows
from tests.fixtures import money_book
from tests.fixtures.envs import app_digest

BOOK = money_book.rows()


def tool(app: str, local: str) -> str:
    return f"{app}.{get_app(app).TOOL_NAMES.get(local, local)}"


def book_cards(app: str) -> list[tuple]:
    return [t for t in BOOK["timecards"] if t[7] == app]


@pytest.mark.parametrize("app", FIELD)
def test_timecards_are_the_books(app: str, open_env) -> None:
    env = open_env([app])
    res = env.call(tool(app, "timecards.list"), limit=5000)["data"]
    assert res["count"] == len(book_cards(app))
    pending = env.call(tool(app, "timecards.list"), approved=False)["data"]
    assert pending["count"] == sum(1 for t in book_cards(app) if not t[8])
    for card in pending["timecards"]:
        assert card["exported_to_payroll"] is False and card["approved_by"] is None


@pytest.mark.parametrize("app", FIELD)
def test_approval_writes_one_row(app: str, open_env) -> None:
    env = open_env([app])
    cls = get_app(app)
    table = f"{app}.{cls.T_TC}"
    card = env.call(tool(app, "timecards.list"), approved=False)["data"]["timecards"][0]
    before = table_rows(env, table)
    res = env.call(tool(app, "timecards.approve"), timecard_id=card["timecard_id"], approver="Sam Super")
    assert res["ok"], res
    after = table_rows(env, table)
    assert len(after - before) == 1 and len(before - after) == 1
    (row,) = [r for r in env.call(tool(app, "timecards.get"), timecard_id=card["timecard_id"])["data"].values()][:1]
    assert row["status"] == cls.APPROVED and row["approved_by"] == "Sam Super"
    assert row["approved_at"] == "2026-01-31T17:00:00" and row["exported_to_payroll"] is False
    assert env.call(tool(app, "timecards.approve"), timecard_id=card["timecard_id"])["error_type"] == "conflict"
    assert env.call(tool(app, "timecards.approve"), timecard_id="nope")["error_type"] == "not_found"


@pytest.mark.parametrize("app", FIELD)
def test_exported_timecard_refuses_changes(app: str, open_env) -> None:
    env = open_env([app], sql_write=True)
    cls = get_app(app)
    card = env.call(tool(app, "timecards.list"), approved=True, limit=1)["data"]["timecards"][0]
    assert card["exported_to_payroll"] is True
    digest = app_digest(env, app)
    for sql in [
        f"UPDATE {app}.{cls.T_TC} SET regular_hours = 10 WHERE timecard_id = '{card['timecard_id']}'",
        f"UPDATE {app}.{cls.T_TC} SET status = '{cls.PENDING}' WHERE timecard_id = '{card['timecard_id']}'",
        f"DELETE FROM {app}.{cls.T_TC} WHERE timecard_id = '{card['timecard_id']}'",
    ]:
        res = env.call("sql.execute", sql=sql)
        assert res["error_type"] == "rejected" and "exported to payroll" in res["error"], res
    assert app_digest(env, app) == digest


@pytest.mark.parametrize("app", FIELD)
def test_field_rules_fire(app: str, open_env) -> None:
    env = open_env([app], sql_write=True)
    cls = get_app(app)
    card = env.call(tool(app, "timecards.list"), approved=False)["data"]["timecards"][0]
    tid = card["timecard_id"]
    assert (
        env.call(
            "sql.execute", sql=f"UPDATE {app}.{cls.T_TC} SET exported_to_payroll = true WHERE timecard_id = '{tid}'"
        )["error_type"]
        == "rejected"
    )
    assert (
        env.call("sql.execute", sql=f"UPDATE {app}.{cls.T_TC} SET status = 'OK' WHERE timecard_id = '{tid}'")[
            "error_type"
        ]
        == "rejected"
    )
    res = env.call("sql.execute", sql=f"UPDATE {app}.{cls.T_TC} SET overtime_hours = 20 WHERE timecard_id = '{tid}'")
    assert res["error_type"] == "rejected" and "24" in res["error"]
    # a pending card may still be corrected
    ok = env.call("sql.execute", sql=f"UPDATE {app}.{cls.T_TC} SET regular_hours = 7.5 WHERE timecard_id = '{tid}'")
    assert ok["ok"], ok


@pytest.mark.parametrize("app", FIELD)
def test_payroll_export_summary(app: str, open_env) -> None:
    env = open_env([app])
    res = env.call(tool(app, "payroll_export.summary"), week_ending="2026-01-24")["data"]
    week = [t for t in book_cards(app) if t[8] and date(2026, 1, 18) <= t[3] <= date(2026, 1, 24)]
    assert Decimal(res["total_regular"]) == sum((t[5] for t in week), Decimal(0))
    assert Decimal(res["total_overtime"]) == sum((t[6] for t in week), Decimal(0))
    assert all(r["week_ending"] == "2026-01-24" and r["exported"] for r in res["rows"])
    assert len(res["rows"]) == len({(t[1], t[2], t[4]) for t in week})
    open_week = env.call(tool(app, "payroll_export.summary"), week_ending="2026-01-31", include_pending=True)["data"]
    all_open = [t for t in book_cards(app) if date(2026, 1, 25) <= t[3] <= date(2026, 1, 31)]
    assert Decimal(open_week["total_regular"]) == sum((t[5] for t in all_open), Decimal(0))


@pytest.mark.parametrize("app", FIELD)
def test_every_field_tool_answers(app: str, open_env) -> None:
    env = open_env([app])
    job = book_cards(app)[0][2]
    projects = env.call(tool(app, "projects.list"))["data"]
    assert {p["job_number"] for p in projects["projects"]} == {j[0] for j in BOOK["jobs"]}
    codes = env.call(tool(app, "cost_codes.list"), project=job)["data"]
    assert {c["cost_code"] for c in codes["cost_codes"]} == {t[4] for t in book_cards(app) if t[2] == job}
    workers = env.call(tool(app, "workers.list"), project=job)["data"]
    assert workers["count"] == len({t[1] for t in book_cards(app) if t[2] == job})
    assert env.call(tool(app, "workers.list"), name_contains="khan")["data"]["count"] == 1
    crews = env.call(tool(app, "crews.list"), project=job)["data"]
    assert sum(len(c["members"]) for c in crews["crews"]) == workers["count"]
    cards = env.call(tool(app, "timecards.list"), project=job, date_from="2026-01-26", date_to="2026-01-26")["data"]
    assert cards["count"] == sum(1 for t in book_cards(app) if t[2] == job and t[3] == date(2026, 1, 26))
    one = env.call(tool(app, "timecards.get"), timecard_id=cards["timecards"][0]["timecard_id"])["data"]
    assert one["worker"] and one["project"]["job_number"] == job
    assert env.call(tool(app, "cost_codes.list"), project="0000")["error_type"] == "not_found"


@pytest.mark.parametrize("app", FIELD)
def test_equipment_hours_are_the_books(app: str, open_env) -> None:
    """The units and their daily logs in the vendor's words; the summary splits working from
    standing-by hours; filters by unit number, project, date and hour type; bad values refused."""
    env = open_env([app])
    words = get_app(app).D.words
    units = [u for u in BOOK["equipment"] if u[10] == app]
    logs = [h for h in BOOK["equipment_hours"] if h[1] in {u[0] for u in units}]
    listed = env.call(tool(app, "equipment.list"))["data"]
    assert [(u["equipment_number"], u["hourly_rate"]) for u in listed["equipment"]] == [
        (u[0], str(u[11])) for u in units
    ]
    got = env.call(tool(app, "equipment_logs.list"))["data"]
    assert got["count"] == len(logs) and not got["truncated"]
    assert {x["hour_type"] for x in got["logs"]} <= {words.hours_operating, words.hours_idle}
    unit, job = units[0][0], logs[0][2]
    assert all(x["equipment_number"] == unit and x["job_number"] == job for x in got["logs"])
    idle = [h for h in logs if h[5] == "idle"]
    for kind in ("idle", words.hours_idle, words.hours_idle.upper()):
        assert env.call(tool(app, "equipment_logs.list"), hour_type=kind)["data"]["count"] == len(idle)
    one_day = env.call(tool(app, "equipment_logs.list"), equipment=unit, project=job, date_from="2026-01-27",
                       date_to="2026-01-27")["data"]  # fmt: skip
    assert one_day["count"] == sum(1 for h in logs if h[4] == date(2026, 1, 27))
    summary = env.call(tool(app, "equipment_logs.summary"), date_from="2026-01-01", date_to="2026-01-31")["data"]
    assert summary["count"] == 1 and summary["rows"][0]["days"] == 5
    assert Decimal(summary["total_operating"]) == sum((h[6] for h in logs if h[5] == "operating"), Decimal(0))
    assert Decimal(summary["total_idle"]) == sum((h[6] for h in idle), Decimal(0))
    by_id = env.call(tool(app, "equipment_logs.summary"), equipment=got["logs"][0]["equipment_id"])["data"]
    assert by_id["rows"] == summary["rows"]
    assert env.call(tool(app, "equipment_logs.list"), hour_type="broken")["error_type"] == "invalid_argument"
    assert env.call(tool(app, "equipment_logs.list"), equipment="ZZ-999")["error_type"] == "not_found"
    late = env.call(tool(app, "equipment_logs.list"), date_from="2026-01-31", date_to="2026-01-01")
    assert late["ok"] is False


def test_integration_methods_agree_with_the_tools(open_env) -> None:
    env = open_env(["rhumbix", "adp", "bofa_cashpro"])
    rx, adp, bofa = env.apps["rhumbix"], env.apps["adp"], env.apps["bofa_cashpro"]
    from cfab.apps.tooling import jsonable

    rows = rx.approved_hours(date(2026, 1, 24))
    assert (
        rows and jsonable(rows) == env.call("rhumbix.reports.payroll_export", week_ending="2026-01-24")["data"]["rows"]
    )
    assert adp.open_batch()["batch_id"] == "WK260131"
    assert len(adp.earnings_for("WK260124")) == 2 and adp.earnings_for("WK260124", "3100")[0]["gross_pay"] == Decimal(
        "2240.30"
    )
    assert bofa.issue_record("4451029387", 10452)["payee_name"] == "Midwest Concrete & Masonry Inc"
    assert bofa.issue_record("4451029387", 1) is None
    assert len(bofa.exception_queue()) == 4
