"""The money apps on the real Company-A book (scale 1): every tool answers with data-derived
arguments, the positive-pay file is the book's, BAI2 parses back, staging matches an
independent computation, guarded tools stage, approvals write one row, and the consistency
check finds no unregistered difference."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal

import duckdb
import pytest

from cfab.apps.bank.bai2 import parse_bai2
from cfab.apps.registry import get_app
from tests.apps.money.money_helpers import BANK_OF, BANKS, FIELD, MONEY_APPS, PAYROLLS, guard_rows
from tests.fixtures.envs import app_digest


def tool(app: str, local: str) -> str:
    return f"{app}.{get_app(app).TOOL_NAMES.get(local, local)}"


@pytest.fixture(scope="module")
def real_golden(golden_for):
    return golden_for(["hh2", *MONEY_APPS])


@pytest.fixture
def real_env(real_golden):
    from cfab.apps.world.environment import Environment

    opened = []

    def make(apps, sql_write=False):
        env = Environment.open(apps=apps, golden=real_golden, sql_write=sql_write)
        opened.append(env)
        return env

    yield make
    for env in opened:
        env.close()


def book(env, sql: str, params=None) -> list[tuple]:
    return env.con.execute(sql, params or []).fetchall()


def test_consistency_of_the_money_apps(real_golden) -> None:
    from cfab.views.consistency import check_consistency

    con = duckdb.connect(str(real_golden), read_only=True)
    try:
        report = check_consistency(con, ["hh2", *MONEY_APPS])
    finally:
        con.close()
    assert report.ok, report.summary()


@pytest.mark.parametrize("app", BANKS)
def test_bank_on_the_real_book(app: str, real_env) -> None:
    env = real_env([app])
    accts = book(env, "SELECT bank_account_id, account_number FROM book.bank_accounts WHERE bank = ?", [BANK_OF[app]])
    res = env.call(tool(app, "accounts.list"))
    assert res["ok"] and res["data"]["count"] == len(accts)
    exc = env.call(tool(app, "positive_pay.exceptions"), status="all")["data"]["exceptions"]
    expected = book(
        env,
        """SELECT a.account_number, e.check_number, e.presented_amount FROM book.positive_pay_exceptions e
                            JOIN book.bank_accounts a USING (bank_account_id) WHERE a.bank = ?""",
        [BANK_OF[app]],
    )
    assert sorted((x["account_number"], x["check_number"], Decimal(x["presented_amount"])) for x in exc) == sorted(
        expected
    )
    for acct_id, number in accts:
        last = book(env, "SELECT max(posted_date) FROM book.bank_transactions WHERE bank_account_id = ?", [acct_id])[0][
            0
        ]
        if last is None:
            continue
        start = last - timedelta(days=13)
        res = env.call(
            tool(app, "statements.bai2"), account=number, date_from=start.isoformat(), date_to=last.isoformat()
        )
        assert res["ok"], res
        parsed = parse_bai2(res["data"]["content"])
        assert parsed.errors == []
        want = book(
            env,
            """SELECT count(*), coalesce(sum(abs(amount)), 0) FROM book.bank_transactions
                            WHERE bank_account_id = ? AND posted_date BETWEEN ? AND ?""",
            [acct_id, start, last],
        )[0]
        details = [d for g in parsed.groups for a in g.accounts for d in a.details]
        assert len(details) == want[0] and sum(d["amount_cents"] for d in details) == int(want[1] * 100)
        # every reported day's closing ledger agrees with the book's balances where the book has one
        for day, ledger in book(
            env,
            "SELECT as_of_date, ledger_balance FROM book.bank_balances "
            "WHERE bank_account_id = ? AND as_of_date BETWEEN ? AND ?",
            [acct_id, start, last],
        ):
            bal = env.call(tool(app, "balances.get"), account=number, as_of_date=day.isoformat())["data"]["balances"]
            assert Decimal(bal[0]["closing_ledger"]) == ledger
        for local, args in {
            "transactions.list": {"account": number, "limit": 50},
            "positive_pay.issued_checks": {"account": number, "limit": 50},
            "balances.get": {"account": number},
        }.items():
            assert env.call(tool(app, local), **args)["ok"]
        digest = app_digest(env, app)
        res = env.call(
            f"{app}.bank_initiate_transfer",
            from_account=number,
            payee_name="Test Payee",
            payee_account="000123456789",
            payee_routing="071000013",
            amount="100.00",
        )
        assert res["status"] == "pending_human_approval"
        assert app_digest(env, app) == digest
    for i, x in enumerate(exc):
        res = env.call(
            tool(app, "positive_pay.decide"),
            exception_id=x["exception_id"],
            decision="pay" if i == 0 else "return",
            reason="test",
        )
        assert res["ok"], res


def test_plaid_on_the_real_book(real_env) -> None:
    env = real_env(["plaid"])
    n_accts = book(env, "SELECT count(*) FROM book.bank_accounts")[0][0]
    accts = env.call("plaid.accounts.get")["data"]
    assert accts["count"] == n_accts
    assert (
        env.call("plaid.items.list")["data"]["count"]
        == book(env, "SELECT count(DISTINCT bank) FROM book.bank_accounts")[0][0]
    )
    tx = env.call("plaid.transactions.get", start_date="2026-01-01", end_date="2026-01-31", count=500)["data"]
    assert (
        tx["total_transactions"]
        == book(
            env,
            "SELECT count(*) FROM book.bank_transactions "
            "WHERE posted_date BETWEEN DATE '2026-01-01' AND DATE '2026-01-31'",
        )[0][0]
    )
    assert env.call("plaid.accounts.balance.get")["ok"]
    res = env.call(
        "plaid.bank_initiate_transfer",
        account_id=accts["accounts"][0]["account_id"],
        amount="10.00",
        legal_name="Test Payee",
        description="TEST",
    )
    assert res["status"] == "pending_human_approval"


def _expected_open_batch(env, app: str) -> dict[tuple[str, str], Decimal]:
    rows = book(
        env,
        """
        SELECT ei.system_employee_id, book.system_job_id(?, t.job_number), e.base_rate, e.level, e.apprentice_pct,
               e.apprentice_registration, j.is_prevailing_wage, e.classification, t.job_number,
               sum(t.hours_regular), sum(t.hours_overtime)
        FROM book.timecards t
        JOIN book.payroll_batches b ON b.status = 'open' AND t.work_date BETWEEN b.period_start AND b.period_end
        JOIN book.employees e USING (employee_id)
        JOIN book.jobs j ON j.job_number = t.job_number
        JOIN book.employee_identities ei ON ei.employee_id = t.employee_id AND ei.system = ?
        WHERE t.approved
        GROUP BY ALL""",
        ["foundation_erp" if app == "foundation_payroll" else app, app],
    )
    det = defaultdict(dict)
    for job, cls, base in book(
        env,
        """
            SELECT d.job_number, r.classification, r.base_rate FROM book.wage_determinations d
            JOIN book.wage_rates r USING (determination_id)
            QUALIFY row_number() OVER (PARTITION BY d.job_number, r.classification
                                       ORDER BY d.effective_date DESC, d.modification DESC, d.determination_id) = 1""",
    ):
        det[job][cls] = base
    out = {}
    for emp, job_id, base, level, pct, reg_no, pw, cls, job, reg, ot in rows:
        rate = Decimal(base)
        floor = det[job].get(cls) if pw else None
        if floor is not None:
            if level == "apprentice" and reg_no and pct is not None:
                floor = (floor * pct / 100).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
            rate = max(rate, floor)
        out[(emp, job_id)] = (reg * rate + ot * rate * Decimal("1.5")).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return out


@pytest.mark.parametrize("app", PAYROLLS)
def test_payroll_on_the_real_book(app: str, real_env) -> None:
    env = real_env([app])
    cls = get_app(app)
    n_emp = book(env, "SELECT count(*) FROM book.employee_identities WHERE system = ?", [app])[0][0]
    assert env.call(tool(app, "employees.list"), status="all")["data"]["count"] == n_emp
    emp = env.call(tool(app, "employees.list"))["data"]["employees"][0]["employee_id"]
    assert env.call(tool(app, "employees.get"), employee_id=emp)["ok"]
    released = env.call(tool(app, "batches.list"), status=cls.S_RELEASED)["data"]["batches"]
    assert released and env.call(tool(app, "earnings.list"), batch_id=released[-1]["batch_id"])["data"]["count"]
    assert env.call(tool(app, "payments.list"), batch_id=released[-1]["batch_id"])["data"]["count"]
    assert env.call(tool(app, "hours.list"), week_ending=released[-1]["period_end"])["data"]["count"]
    res = env.call(tool(app, "batches.stage"))
    assert res["ok"], res
    got = {(ln["employee_id"], ln["job_id"]): Decimal(ln["gross_pay"]) for ln in res["data"]["earnings"]}
    assert got == _expected_open_batch(env, app)
    digest = app_digest(env, app)
    res = env.call(f"{app}.pr_release", batch_id=res["data"]["batch_id"])
    assert res["status"] == "pending_human_approval"
    assert app_digest(env, app) == digest
    assert [r[3] for r in guard_rows(env)] == [True]


@pytest.mark.parametrize("app", BANKS)
def test_scheduled_payments_on_the_real_book(app: str, real_env) -> None:
    """``payments.list``: the payments Treasury set up for a future value date at this bank (the
    book's scheduled payments, in the portal's status word), apart from the completed ones."""
    env = real_env([app])
    want = book(
        env,
        """SELECT s.value_date, s.amount, s.memo FROM book.bank_scheduled_payments s
           JOIN book.bank_accounts a USING (bank_account_id) WHERE a.bank = ?""",
        [BANK_OF[app]],
    )
    cls = get_app(app)
    got = env.call(tool(app, "payments.list"), status="scheduled")["data"]["payments"]
    assert sorted((x["value_date"], Decimal(x["amount"]), x["memo"]) for x in got) == sorted(
        (d.isoformat(), a, m) for d, a, m in want
    )
    assert {x["status"] for x in got} <= {cls.D.scheduled_status}
    done = env.call(tool(app, "payments.list"), status="completed", limit=5)["data"]
    assert all(x["status"] == cls.D.payment_status for x in done["payments"])
    everything = env.call(tool(app, "payments.list"))["data"]["count"]
    assert everything >= len(got) + done["count"] - (5 if done["truncated"] else 0)
    bad = env.call(tool(app, "payments.list"), date_from="2026-03-01", date_to="2026-02-01")
    assert not bad["ok"] and "after" in bad["error"]


@pytest.mark.parametrize("app", PAYROLLS)
def test_pay_calendar_on_the_real_book(app: str, real_env) -> None:
    """``calendar.list``: the weekly pay calendar ahead, each week paid the Thursday after it ends,
    the first pay date the first one after the clock; a date window narrows it."""
    env = real_env([app])
    cal = env.call(tool(app, "calendar.list"))["data"]["pay_periods"]
    assert len(cal) == book(env, "SELECT count(*) FROM book.payroll_calendar")[0][0] == 16
    clock = book(env, "SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock'")[0][0]
    assert cal[0]["pay_date"] > clock.isoformat() and all(p["frequency"] == "Weekly" for p in cal)
    open_batches = env.call(tool(app, "batches.list"), status=get_app(app).S_OPEN)["data"]["batches"]
    assert {b["batch_id"] for b in open_batches} <= {p["batch_id"] for p in cal}
    some = env.call(tool(app, "calendar.list"), date_from=cal[2]["pay_date"], date_to=cal[4]["pay_date"])["data"]
    assert some["count"] == 3


@pytest.mark.parametrize("app", FIELD)
def test_field_on_the_real_book(app: str, real_env) -> None:
    env = real_env([app], sql_write=True)
    cls = get_app(app)
    n = book(env, "SELECT count(*) FROM book.timecards WHERE source_system = ?", [app])[0][0]
    assert env.call(tool(app, "timecards.list"), limit=5000)["data"]["count"] == n
    project = env.call(tool(app, "projects.list"))["data"]["projects"][0]["job_number"]
    for local in ("cost_codes.list", "crews.list"):
        assert env.call(tool(app, local), project=project)["ok"]
    assert env.call(tool(app, "workers.list"), project=project)["ok"]
    assert env.call(tool(app, "payroll_export.summary"), week_ending="2026-01-24")["data"]["count"]
    pending = env.call(tool(app, "timecards.list"), approved=False, limit=1)["data"]["timecards"]
    if pending:
        before = book(env, f"SELECT count(*) FROM {app}.{cls.T_TC} WHERE status = ?", [cls.APPROVED])[0][0]
        assert env.call(tool(app, "timecards.approve"), timecard_id=pending[0]["timecard_id"])["ok"]
        assert book(env, f"SELECT count(*) FROM {app}.{cls.T_TC} WHERE status = ?", [cls.APPROVED])[0][0] == before + 1
    done = env.call(tool(app, "timecards.list"), approved=True, limit=1)["data"]["timecards"][0]
    res = env.call(
        "sql.execute", sql=f"UPDATE {app}.{cls.T_TC} SET regular_hours = 1 WHERE timecard_id = '{done['timecard_id']}'"
    )
    assert res["error_type"] == "rejected"
