"""Bank archetype: BAI2 round trip, positive-pay exception file and decisions, the guarded
transfer on every bank (valid and invalid), the rules, and every tool callable."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from cfab.apps.bank.bai2 import parse_bai2
from cfab.apps.registry import get_app
from tests.apps.money.money_helpers import ALL_BANKS, BANK_OF, BANKS, guard_rows, table_rows
from tests.fixtures import money_book
from tests.fixtures.envs import app_digest

BOOK = money_book.rows()


def accounts_at(bank: str) -> dict[str, tuple]:
    return {a[0]: a for a in BOOK["bank_accounts"] if a[1] == bank}


def tool(app: str, local: str) -> str:
    cls = get_app(app)
    return f"{app}.{cls.TOOL_NAMES.get(local, local)}"


@pytest.mark.parametrize("app", BANKS)
def test_bai2_parses_back_with_the_books_activity(app: str, open_env) -> None:
    env = open_env([app])
    start, end = date(2026, 1, 23), date(2026, 1, 30)
    res = env.call(tool(app, "statements.bai2"), date_from=start.isoformat(), date_to=end.isoformat())
    assert res["ok"], res
    parsed = parse_bai2(res["data"]["content"])
    assert parsed.errors == []
    accts = accounts_at(BANK_OF[app])
    numbers = {a[3]: a[0] for a in accts.values()}
    txns = [t for t in BOOK["bank_transactions"] if t[1] in accts and start <= t[2] <= end]
    details = [(g.as_of, a.account_number, d) for g in parsed.groups for a in g.accounts for d in a.details]
    assert len(details) == len(txns) == res["data"]["transactions"]
    assert sum(d["amount_cents"] for _, _, d in details) == sum(int(abs(t[3]) * 100) for t in txns)
    assert sorted((numbers[a], d["type_code"], d["amount_cents"]) for _, a, d in details) == sorted(
        (t[1], t[4], int(abs(t[3]) * 100)) for t in txns
    )
    # one group per day with a balance report; summaries agree with the book's closing balances
    assert len(parsed.groups) == 8
    for g in parsed.groups:
        for a in g.accounts:
            bal = next(
                b
                for b in BOOK["bank_balances"]
                if b[0] == numbers[a.account_number] and b[1].strftime("%y%m%d") == g.as_of
            )
            assert a.summaries["015"] == int(bal[2] * 100) and a.summaries["045"] == int(bal[3] * 100)
            day = [t for t in txns if t[1] == numbers[a.account_number] and t[2].strftime("%y%m%d") == g.as_of]
            assert a.summaries["010"] == int((bal[2] - sum((t[3] for t in day), Decimal(0))) * 100)
    total = sum(a.control_total for g in parsed.groups for a in g.accounts)
    assert parsed.control_total == total
    assert parsed.records == len(res["data"]["content"].splitlines())


@pytest.mark.parametrize("app", BANKS)
def test_bai2_single_account_and_default_day(app: str, open_env) -> None:
    env = open_env([app])
    acct = next(iter(accounts_at(BANK_OF[app]).values()))
    res = env.call(tool(app, "statements.bai2"), account=acct[2])  # by nickname, latest day
    assert res["ok"], res
    parsed = parse_bai2(res["data"]["content"])
    assert parsed.errors == [] and len(parsed.groups) == 1 and parsed.groups[0].as_of == "260130"
    assert [a.account_number for a in parsed.groups[0].accounts] == [acct[3]]


def test_bai2_parser_catches_a_bad_control_total(open_env) -> None:
    env = open_env(["bofa_cashpro"])
    content = env.call("bofa_cashpro.information_reporting.bai2_download", date_from="2026-01-26")["data"]["content"]
    lines = content.splitlines()
    bad = [ln if not ln.startswith("49,") else "49,1," + ln.split(",")[2] for ln in lines]
    assert parse_bai2("\n".join(bad)).errors


@pytest.mark.parametrize("app", BANKS)
def test_exception_file_holds_exactly_the_books_items(app: str, open_env) -> None:
    env = open_env([app])
    res = env.call(tool(app, "positive_pay.exceptions"), status="all")
    assert res["ok"], res
    accts = accounts_at(BANK_OF[app])
    numbers = {a[0]: a[3] for a in accts.values()}
    expected = sorted((numbers[e[1]], e[3], str(e[4]), e[5]) for e in BOOK["positive_pay_exceptions"] if e[1] in accts)
    got = sorted(
        (x["account_number"], x["check_number"], x["presented_amount"], x["presented_payee"])
        for x in res["data"]["exceptions"]
    )
    assert got == expected and got
    pending = get_app(app).D.decisions.pending
    assert {x["decision"] for x in res["data"]["exceptions"]} == {pending}
    # the issue-file payee is truncated to the bank's field width where the book registers it
    for x in res["data"]["exceptions"]:
        if x["issued_payee"] is not None:
            width = next(a[6] for a in accts.values() if a[3] == x["account_number"])
            assert len(x["issued_payee"]) <= max(width, len(x["issued_payee"]))


def test_truncated_payee_follows_the_divergence_registry(open_env) -> None:
    env = open_env(["bofa_cashpro"])
    issued = {
        r["check_number"]: r
        for r in env.call("bofa_cashpro.positive_pay.issue_records.list", account="Operating")["data"]["issued_checks"]
    }
    assert issued[10452]["payee_name"] == "Midwest Concrete & Masonry Inc"  # registered: cut to 30
    assert issued[10453]["payee_name"] == "Acme Rebar Supply Co"  # short: as issued
    ex = {x["check_number"]: x for x in env.call("bofa_cashpro.positive_pay.exceptions.list")["data"]["exceptions"]}
    assert ex[10452]["issued_payee"] == "Midwest Concrete & Masonry Inc"
    assert ex[10499]["issued_amount"] is None and ex[10499]["exception_reason"] == "Paid Not Issued"


@pytest.mark.parametrize("app", BANKS)
def test_decide_writes_one_row_per_decision(app: str, open_env) -> None:
    env = open_env([app])
    cls = get_app(app)
    table = f"{app}.{cls.D.tables.exception_queue}"
    items = env.call(tool(app, "positive_pay.exceptions"))["data"]["exceptions"]
    before = table_rows(env, table)
    for i, item in enumerate(items):
        decision = "pay" if i % 2 == 0 else "return"
        res = env.call(
            tool(app, "positive_pay.decide"), exception_id=item["exception_id"], decision=decision, reason=f"test {i}"
        )
        assert res["ok"], res
        assert res["data"]["decision"] == (cls.D.decisions.pay if decision == "pay" else cls.D.decisions.return_item)
    after = table_rows(env, table)
    changed = after - before
    assert len(changed) == len(items) == len(before - after)
    assert len(after) == len(before)
    written = env.con.execute(
        "SELECT count(*) FROM cfab_internal.written_rows WHERE table_name = ?", [table]
    ).fetchone()[0]
    assert written == len(items)
    assert env.call(tool(app, "positive_pay.exceptions"))["data"]["count"] == 0
    assert env.call(tool(app, "positive_pay.exceptions"), status="decided")["data"]["count"] == len(items)


@pytest.mark.parametrize("app", BANKS)
def test_redecision_allowed_before_the_deadline_rejected_after(app: str, open_env) -> None:
    env = open_env([app])
    cls = get_app(app)
    item = env.call(tool(app, "positive_pay.exceptions"))["data"]["exceptions"][0]
    assert env.call(tool(app, "positive_pay.decide"), exception_id=item["exception_id"], decision="pay")["ok"]
    # before the deadline (the clock is on or before decision_due) a decision may change
    res = env.call(tool(app, "positive_pay.decide"), exception_id=item["exception_id"], decision="return")
    assert res["ok"] and res["data"]["previous_decision"] == cls.D.decisions.pay
    # the deadline passes: the clock moves past decision_due
    env.con.execute("UPDATE cfab_internal.meta SET value = '2026-02-03' WHERE key = 'clock'")
    digest = app_digest(env, app)
    res = env.call(tool(app, "positive_pay.decide"), exception_id=item["exception_id"], decision="pay")
    assert not res["ok"] and res["error_type"] == "rejected"
    assert "cannot be re-decided" in res["error"]
    assert app_digest(env, app) == digest


def test_first_decision_on_an_item_past_its_deadline_is_allowed_once(open_env) -> None:
    env = open_env(["pnc_pinacle"])
    item = next(
        x
        for x in env.call("pnc_pinacle.positive_pay.exception_items")["data"]["exceptions"]
        if x["check_number"] == 2202
    )
    assert item["decision_due"] == "2026-01-30"  # already past at the clock
    assert env.call("pnc_pinacle.positive_pay.decision", exception_id=item["exception_id"], decision="return")["ok"]
    res = env.call("pnc_pinacle.positive_pay.decision", exception_id=item["exception_id"], decision="pay")
    assert res["error_type"] == "rejected"


@pytest.mark.parametrize("app", BANKS)
def test_decide_unknown_item_and_bad_decision(app: str, open_env) -> None:
    env = open_env([app])
    assert env.call(tool(app, "positive_pay.decide"), exception_id="NOPE", decision="pay")["error_type"] == "not_found"
    item = env.call(tool(app, "positive_pay.exceptions"))["data"]["exceptions"][0]
    res = env.call(tool(app, "positive_pay.decide"), exception_id=item["exception_id"], decision="approve")
    assert res["error_type"] == "invalid_argument"


def _transfer_args(app: str) -> tuple[dict, list[dict]]:
    if app == "plaid":
        return None, []  # plaid's accounts are looked up at run time
    accts = list(accounts_at(BANK_OF[app]).values())
    valid = {
        "from_account": accts[0][3],
        "payee_name": "Walsh Electrical Contractors",
        "payee_account": "000123456789",
        "payee_routing": "071000013",
        "amount": "12500.00",
        "method": "wire",
        "memo": "SC-1042-0 pay app 7",
    }
    invalid = [
        dict(valid, amount="-5.00"),
        dict(valid, amount="10.001"),
        dict(valid, from_account="999"),
        dict(valid, payee_routing="123456789"),
        {"from_account": accts[0][3]},
        dict(valid, amount="abc"),
    ]
    return valid, invalid


@pytest.mark.parametrize("app", ALL_BANKS)
def test_transfer_is_guarded_valid_and_invalid(app: str, open_env) -> None:
    env = open_env([app])
    name = f"{app}.bank_initiate_transfer"
    if app == "plaid":
        accts = env.call("plaid.accounts.get")["data"]["accounts"]
        valid = {
            "account_id": accts[0]["account_id"],
            "amount": "250.00",
            "type": "credit",
            "network": "ach",
            "legal_name": "Walsh Electrical Contractors, LLC",
            "description": "SC-1042-0 PAY",
        }
        invalid = [
            dict(valid, amount="0"),
            dict(valid, account_id="nope"),
            dict(valid, description="X" * 30),
            dict(valid, amount="1.234"),
            {k: v for k, v in valid.items() if k != "legal_name"},
            dict(valid, network="carrier-pigeon"),
        ]
    else:
        valid, invalid = _transfer_args(app)
    whole = app == "bofa_cashpro"  # one whole-file digest per archetype; the app's schema elsewhere
    digest = env.digest() if whole else app_digest(env, app)
    res = env.call(name, **valid)
    assert res["ok"] and res["status"] == "pending_human_approval", res
    assert "would" in next(iter(res["data"]))
    for bad in invalid:
        res = env.call(name, **bad)
        assert not res["ok"], bad
    assert (env.digest() if whole else app_digest(env, app)) == digest
    rows = guard_rows(env)
    assert len(rows) == 1 + len(invalid)
    assert all(r[0] == app and r[1] == name and r[2] is False for r in rows)
    assert [r[3] for r in rows] == [True] + [False] * len(invalid)


@pytest.mark.parametrize("app", BANKS)
def test_book_transfer_between_own_accounts(app: str, open_env) -> None:
    env = open_env([app])
    accts = list(accounts_at(BANK_OF[app]).values())
    res = env.call(f"{app}.bank_initiate_transfer", from_account=accts[0][2], to_account=accts[0][2], amount="10.00")
    assert res["error_type"] == "invalid_argument"  # same account
    if len(accts) > 1:
        res = env.call(
            f"{app}.bank_initiate_transfer",
            from_account="Operating",
            to_account="Payroll",
            amount="3577.04",
            memo="Fund payroll",
        )
        assert res["status"] == "pending_human_approval"
        assert res["data"]["would_initiate"]["method"] == "BOOK"


@pytest.mark.parametrize("app", BANKS)
def test_bank_rules_fire(app: str, open_env) -> None:
    env = open_env([app], sql_write=True)
    cls = get_app(app)
    digest = app_digest(env, app)
    acct = next(iter(accounts_at(BANK_OF[app]).values()))[3]
    attempts = [
        f"UPDATE {app}.{cls.D.tables.activity} SET amount = 1 WHERE account_number = '{acct}'",
        f"DELETE FROM {app}.{cls.D.tables.balance_reports} WHERE account_number = '{acct}'",
        f"UPDATE {app}.{cls.D.tables.accounts} SET status = 'Closed'",
        f"UPDATE {app}.{cls.D.tables.exception_queue} SET presented_amount = 1",
        f"DELETE FROM {app}.{cls.D.tables.exception_queue}",
        f"UPDATE {app}.{cls.D.tables.exception_queue} SET decision = 'Maybe'",
    ]
    if env.con.execute(f"SELECT count(*) FROM {app}.{cls.D.tables.issue_file}").fetchone()[0]:
        attempts.append(f"UPDATE {app}.{cls.D.tables.issue_file} SET amount = 1")
    for sql in attempts:
        res = env.call("sql.execute", sql=sql)
        assert not res["ok"] and res["error_type"] == "rejected", (sql, res)
    res = env.call(
        "sql.execute",
        sql=(
            f"INSERT INTO {app}.{cls.D.tables.payments} VALUES ('X1', '{acct}', 'WIRE', 'Mallory', '1', '071000013', "
            "100.00, "
            f"DATE '2026-02-02', 'x', 'Completed', 'agent')"
        ),
    )
    assert res.get("status") == "pending_human_approval", res
    assert app_digest(env, app) == digest
    assert [r[1] for r in guard_rows(env)] == ["sql.execute"]
    # a decision through SQL is a normal write
    first = env.con.execute(f"SELECT min(exception_id) FROM {app}.{cls.D.tables.exception_queue}").fetchone()[0]
    res = env.call(
        "sql.execute",
        sql=f"UPDATE {app}.{cls.D.tables.exception_queue} SET decision = '{cls.D.decisions.return_item}' "
        f"WHERE exception_id = '{first}'",
    )
    assert res["ok"], res


def test_plaid_rules_fire(open_env) -> None:
    env = open_env(["plaid"], sql_write=True)
    digest = app_digest(env, "plaid")
    for sql in ["UPDATE plaid.transactions SET amount = 0", "DELETE FROM plaid.accounts", "DELETE FROM plaid.items"]:
        assert env.call("sql.execute", sql=sql)["error_type"] == "rejected"
    acct = env.con.execute("SELECT min(account_id) FROM plaid.accounts").fetchone()[0]
    res = env.call(
        "sql.execute",
        sql=(
            f"INSERT INTO plaid.transfers VALUES ('t1', 'a1', '{acct}', 'credit', 'ach', 5.00, 'X', 'Mallory', "
            f"'pending', TIMESTAMP '2026-01-31 17:00:00')"
        ),
    )
    assert res.get("status") == "pending_human_approval", res
    assert app_digest(env, "plaid") == digest


@pytest.mark.parametrize("app", BANKS)
def test_every_portal_tool_answers(app: str, open_env) -> None:
    env = open_env([app])
    acct = next(iter(accounts_at(BANK_OF[app]).values()))
    calls = {
        "accounts.list": {},
        "balances.get": {"account": acct[3], "as_of_date": "2026-01-27"},
        "transactions.list": {"account": acct[2], "date_from": "2026-01-01", "date_to": "2026-01-31"},
        "statements.bai2": {},
        "positive_pay.exceptions": {"status": "all"},
        "positive_pay.issued_checks": {"date_from": "2026-01-01"},
    }
    for local, args in calls.items():
        res = env.call(tool(app, local), **args)
        assert res["ok"], (local, res)
    bal = env.call(tool(app, "balances.get"), account=acct[3], as_of_date="2026-01-27")["data"]["balances"][0]
    book = next(b for b in BOOK["bank_balances"] if b[0] == acct[0] and b[1] == date(2026, 1, 27))
    assert bal["closing_ledger"] == str(book[2]) and bal["closing_available"] == str(book[3])
    assert env.call(tool(app, "balances.get"), account="nope")["error_type"] == "not_found"
    assert (
        env.call(tool(app, "transactions.list"), date_from="2026-02-01", date_to="2026-01-01")["error_type"]
        == "invalid_argument"
    )


def test_check_filters_and_plaid_reads(open_env) -> None:
    env = open_env(["bofa_cashpro", "plaid"])
    res = env.call("bofa_cashpro.information_reporting.transactions", check_number=10451)
    assert [t["amount"] for t in res["data"]["transactions"]] == ["18250.00"]
    assert res["data"]["transactions"][0]["dr_cr"] == "DR"
    items = env.call("plaid.items.list")["data"]
    assert items["count"] == 4
    accts = env.call("plaid.accounts.get")["data"]
    assert accts["count"] == len(BOOK["bank_accounts"])
    bal = env.call("plaid.accounts.balance.get", account_ids=[accts["accounts"][0]["account_id"]])["data"]
    assert bal["count"] == 1 and "current" in bal["accounts"][0]["balances"]
    tx = env.call("plaid.transactions.get", start_date="2026-01-01", end_date="2026-01-31", count=500)["data"]
    assert tx["total_transactions"] == len(BOOK["bank_transactions"])
    wire = next(t for t in tx["transactions"] if t["name"] == "WIRE OUT PRAIRIE STEEL")
    assert wire["amount"] == "35000.00"  # Plaid: positive = money out


@pytest.mark.parametrize("app", BANKS)
def test_monthly_statement_ties_to_the_reported_balances(app: str, open_env) -> None:
    env = open_env([app])
    acct = next(iter(accounts_at(BANK_OF[app]).values()))
    res = env.call(tool(app, "statements.get"), account=acct[3], month="2026-01")
    assert res["ok"], res
    st = res["data"]
    opening, closing = Decimal(st["opening_balance"]), Decimal(st["closing_balance"])
    assert opening + Decimal(st["total_credits"]) - Decimal(st["total_debits"]) == closing
    assert st["count"] == st["credit_count"] + st["debit_count"] == len(st["transactions"])
    assert all("2026-01-01" <= str(t["posted_date"]) <= st["statement_end"] for t in st["transactions"])
    book = [b for b in BOOK["bank_balances"] if b[0] == acct[0] and b[1] <= date.fromisoformat(st["statement_end"])]
    if book:
        latest = max(book, key=lambda b: b[1])
        txns = [t for t in BOOK["bank_transactions"] if t[1] == acct[0] and latest[1] < t[2] <= date(2026, 1, 31)]
        assert closing == latest[2] + sum((t[3] for t in txns), Decimal("0.00"))
    assert env.call(tool(app, "statements.get"), account=acct[3], month="2027-01")["error_type"] == "not_found"
    assert env.call(tool(app, "statements.get"), account="nope", month="2026-01")["error_type"] == "not_found"
