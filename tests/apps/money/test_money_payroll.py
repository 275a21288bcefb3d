"""Payroll archetype: staging computes gross exactly and deterministically, re-staging replaces
the draft, pr_release is guarded (valid and invalid), the rules fire, every tool answers."""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

import pytest

from cfab.apps.payroll.base import gross_pay, pay_rate
from cfab.apps.registry import get_app
from tests.apps.money.money_helpers import PAYROLLS, guard_rows, table_rows
from tests.fixtures import money_book
from tests.fixtures.envs import app_digest

BOOK = money_book.rows()


def tool(app: str, local: str) -> str:
    return f"{app}.{get_app(app).TOOL_NAMES.get(local, local)}"


def ident(app: str) -> dict[str, str]:
    return {e: s for e, sysname, s in BOOK["employee_identities"] if sysname == app}


def expected_open_week(app: str) -> dict[tuple[str, str], Decimal]:
    """Gross per (system employee id, job) for the clock week, computed independently from the book."""
    emps = {e[0]: e for e in BOOK["employees"]}
    rates = {(r[0], r[1]): r[2] for r in BOOK["wage_rates"]}
    pw_jobs = {j[0]: j[5] for j in BOOK["jobs"]}
    det = {d[1]: d[0] for d in BOOK["wage_determinations"]}
    hours: dict[tuple[str, str], list[Decimal]] = defaultdict(lambda: [Decimal(0), Decimal(0)])
    for t in BOOK["timecards"]:
        if t[8] and date(2026, 1, 25) <= t[3] <= date(2026, 1, 31):
            hours[(t[1], t[2])][0] += t[5]
            hours[(t[1], t[2])][1] += t[6]
    ids = ident(app)
    out = {}
    for (emp, job), (reg, ot) in hours.items():
        e = emps[emp]
        rate = e[10]
        if pw_jobs[job]:
            floor = rates[(det[job], e[5])]
            if e[6] == "apprentice" and e[7]:
                floor = (floor * e[8] / 100).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
            rate = max(rate, floor)
        gross = (reg * rate + ot * rate * Decimal("1.5")).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        job_id = f"{job}-00" if app == "foundation_payroll" else job
        out[(ids[emp], job_id)] = gross
    return out


def open_batch(env, app: str) -> str:
    cls = get_app(app)
    rows = env.call(tool(app, "batches.list"), status=cls.S_OPEN)["data"]["batches"]
    assert len(rows) == 1
    return rows[0]["batch_id"]


def test_rate_rules() -> None:
    assert pay_rate(Decimal("47"), "journeyman", None, None, Decimal("48.5")) == Decimal("48.5000")
    assert pay_rate(Decimal("50"), "journeyman", None, None, Decimal("48.5")) == Decimal("50.0000")
    assert pay_rate(Decimal("26.5"), "apprentice", Decimal("60"), "REG-1", Decimal("48.5")) == Decimal("29.1000")
    assert pay_rate(Decimal("26.5"), "apprentice", Decimal("60"), None, Decimal("48.5")) == Decimal("48.5000")
    assert pay_rate(Decimal("26.5"), "apprentice", Decimal("60"), "REG-1", None) == Decimal("26.5000")
    assert gross_pay(Decimal("40"), Decimal("4"), Decimal("48.5")) == Decimal("2231.00")
    assert gross_pay(Decimal("1"), Decimal("0"), Decimal("0.005")) == Decimal("0.01")


@pytest.mark.parametrize("app", PAYROLLS)
def test_stage_computes_gross_exactly(app: str, open_env) -> None:
    env = open_env([app])
    cls = get_app(app)
    batch = open_batch(env, app)
    res = env.call(tool(app, "batches.stage"))
    assert res["ok"], res
    data = res["data"]
    assert data["batch_id"] == batch and data["status"] == cls.S_STAGED and data["replaced_lines"] == 0
    got = {(ln["employee_id"], ln["job_id"]): Decimal(ln["gross_pay"]) for ln in data["earnings"]}
    assert got == expected_open_week(app)
    assert Decimal(data["total_gross"]) == sum(got.values())
    stored = env.call(tool(app, "earnings.list"), batch_id=batch)["data"]
    assert {(r["employee_id"], r["job_id"]): Decimal(r["gross_pay"]) for r in stored["earnings"]} == got
    b = env.call(tool(app, "batches.list"), status=cls.S_STAGED)["data"]["batches"]
    assert [x["batch_id"] for x in b] == [batch] and Decimal(b[0]["total_gross"]) == sum(got.values())


@pytest.mark.parametrize("app", PAYROLLS)
def test_stage_is_deterministic_and_restaging_replaces(app: str, open_env) -> None:
    env1, env2 = open_env([app]), open_env([app])
    r1 = env1.call(tool(app, "batches.stage"))
    r2 = env2.call(tool(app, "batches.stage"))
    assert r1["data"] == r2["data"]
    assert app_digest(env1, app) == app_digest(env2, app)
    table = f"{app}.{get_app(app).T_EARN}"
    before = table_rows(env1, table)
    again = env1.call(tool(app, "batches.stage"), batch_id=r1["data"]["batch_id"])
    assert again["ok"] and again["data"]["replaced_lines"] == r1["data"]["lines"]
    assert table_rows(env1, table) == before
    assert app_digest(env1, app) == app_digest(env2, app)


@pytest.mark.parametrize("app", PAYROLLS)
def test_stage_refuses_a_released_batch(app: str, open_env) -> None:
    env = open_env([app])
    cls = get_app(app)
    released = env.call(tool(app, "batches.list"), status=cls.S_RELEASED)["data"]["batches"][0]["batch_id"]
    assert env.call(tool(app, "batches.stage"), batch_id=released)["error_type"] == "conflict"
    assert env.call(tool(app, "batches.stage"), batch_id="nope")["error_type"] == "not_found"


@pytest.mark.parametrize("app", PAYROLLS)
def test_pr_release_is_guarded_valid_and_invalid(app: str, open_env) -> None:
    env = open_env([app])
    cls = get_app(app)
    batch = open_batch(env, app)
    name = f"{app}.pr_release"
    # not staged yet: attempted, invalid
    digest0 = app_digest(env, app)
    assert env.call(name, batch_id=batch)["error_type"] == "conflict"
    assert env.call(name, batch_id="nope")["error_type"] == "not_found"
    assert env.call(name)["error_type"] == "invalid_argument"
    assert env.call(name, batch_id=batch, force=True)["error_type"] == "invalid_argument"
    assert app_digest(env, app) == digest0
    staged = env.call(tool(app, "batches.stage"))["data"]
    whole = app == "adp"  # one whole-file digest per archetype; the app's schema elsewhere
    digest = env.digest() if whole else app_digest(env, app)
    res = env.call(name, batch_id=batch)
    assert res["ok"] and res["status"] == "pending_human_approval", res
    assert res["data"]["would_release"]["total_gross"] == staged["total_gross"]
    assert (env.digest() if whole else app_digest(env, app)) == digest
    assert env.call(tool(app, "batches.list"), status=cls.S_STAGED)["data"]["count"] == 1
    rows = guard_rows(env)
    assert [(r[1], r[2], r[3]) for r in rows] == [(name, False, False)] * 4 + [(name, False, True)]


@pytest.mark.parametrize("app", PAYROLLS)
def test_payroll_rules_fire(app: str, open_env) -> None:
    env = open_env([app], sql_write=True)
    cls = get_app(app)
    released = env.call(tool(app, "batches.list"), status=cls.S_RELEASED)["data"]["batches"][0]["batch_id"]
    batch = open_batch(env, app)
    digest = app_digest(env, app)
    for sql in [
        f"UPDATE {app}.{cls.T_BATCH} SET check_date = DATE '2026-02-01' WHERE batch_id = '{released}'",
        f"DELETE FROM {app}.{cls.T_EARN} WHERE batch_id = '{released}'",
        f"UPDATE {app}.{cls.T_HOURS} SET regular_hours = 80",
        f"UPDATE {app}.{cls.T_PAY} SET net_pay = 1",
    ]:
        res = env.call("sql.execute", sql=sql)
        assert res["error_type"] == "rejected", (sql, res)
    res = env.call(
        "sql.execute", sql=f"UPDATE {app}.{cls.T_BATCH} SET status = '{cls.S_RELEASED}' WHERE batch_id = '{batch}'"
    )
    assert res.get("status") == "pending_human_approval", res
    emp = next(iter(ident(app).values()))
    res = env.call(
        "sql.execute",
        sql=f"INSERT INTO {app}.{cls.T_PAY} VALUES ('{batch}', '{emp}', 'Check', 1, "
        f"'4451029395', DATE '2026-02-06', 10.00, 8.00)",
    )
    assert res.get("status") == "pending_human_approval", res
    assert app_digest(env, app) == digest
    # the gross assertion: a hand-written earnings line must compute
    job = "1042-00" if app == "foundation_payroll" else "1042"
    bad = env.call(
        "sql.execute",
        sql=f"INSERT INTO {app}.{cls.T_EARN} VALUES ('{batch}', '{emp}', '{job}', 8, 0, "
        f"50.0000, 30.0000, 123.45, NULL, NULL)",
    )
    assert bad["error_type"] == "rejected" and "gross_pay" in bad["error"]
    good = env.call(
        "sql.execute",
        sql=f"INSERT INTO {app}.{cls.T_EARN} VALUES ('{batch}', '{emp}', '{job}', 8, 2, "
        f"50.0000, 30.0000, 550.00, NULL, NULL)",
    )
    assert good["ok"], good
    late = env.call(
        "sql.execute",
        sql=f"INSERT INTO {app}.{cls.T_EARN} VALUES ('{released}', '{emp}', 'X-1', 8, 2, "
        f"50.0000, 30.0000, 550.00, NULL, NULL)",
    )
    assert late["error_type"] == "rejected" and "released" in late["error"], late


@pytest.mark.parametrize("app", PAYROLLS)
def test_every_payroll_tool_answers(app: str, open_env) -> None:
    env = open_env([app])
    ids = ident(app)
    emp = ids["E1001"]
    job = "1042-00" if app == "foundation_payroll" else "1042"
    lst = env.call(tool(app, "employees.list"), trade="Electrician")["data"]
    assert {e["employee_id"] for e in lst["employees"]} == {ids["E1001"], ids["E1002"]}
    assert env.call(tool(app, "employees.list"), name_contains="ORTEGA")["data"]["count"] == 1
    got = env.call(tool(app, "employees.get"), employee_id=emp)["data"]
    assert got["employee"]["base_rate"] == "47.0000" and got["hours"]
    assert env.call(tool(app, "employees.get"), employee_id="nope")["error_type"] == "not_found"
    hours = env.call(tool(app, "hours.list"), week_ending="2026-01-24", job=job)["data"]
    expected = sum(
        (t[5] for t in BOOK["timecards"] if t[8] and t[2] == "1042" and date(2026, 1, 18) <= t[3] <= date(2026, 1, 24)),
        Decimal(0),
    )
    assert Decimal(hours["total_regular"]) == expected
    earn = env.call(tool(app, "earnings.list"), employee_id=emp)["data"]
    assert earn["count"] == 2 and earn["total_gross"] == "4462.00"
    pays = env.call(tool(app, "payments.list"), employee_id=emp)["data"]["payments"]
    assert [(p["payment_method"].lower().replace("_", " "), p["check_number"]) for p in pays] == [
        ("check", 5001),
        ("direct deposit", None),
    ]
