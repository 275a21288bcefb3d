"""A sixth bank added as one dialect: Summit Bank (fictitious), with its own table names, words,
id prefixes, tool names, bank code and routing prefix, defined here and nowhere else.

Its schema, views, entity projections and rules are rendered by the bank generator
(``cfab.apps.bank.gen.artifacts``), carried by its class (``ARTIFACTS``: no file is written),
and it joins the registry for this module only (``cfab.apps.registry.registered``). A small book
(the money fixture book plus Summit's accounts, checks, activity, balances and exception file)
is projected into it, Bank of America CashPro, Plaid and Vista, and the environment composes
them. Summit then passes the conformance checks the real banks pass: the registry and manifest
checks, the tool-surface checks and the hostile-argument sweep of tests/conformance (the same
functions, called on Summit), the bank archetype's behaviour (BAI2, the exception queue and its
decisions, the guarded transfer, the gate's rules) and the consistency check against the ERP's
check register. Each behaviour check runs on Bank of America too, so they are the checks a
committed bank passes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pytest
import sqlglot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot import exp

from cfab.apps.bank import TreasuryPortal, gen
from cfab.apps.bank.bai2 import parse_bai2
from cfab.apps.bank.dialects import (
    BANK_OF_AMERICA_CASHPRO,
    DecisionWords,
    ExceptionReasons,
    IssueStatuses,
    PortalDialect,
    PortalTables,
    ReferencePrefixes,
)
from cfab.apps.bank.model import PORTAL_TABLES
from cfab.apps.registry import get_app, load_all, registered
from cfab.apps.world.environment import Environment
from cfab.seeds.reference import Bank, routing_number
from cfab.triggers.rules import parse_rule_text
from cfab.views import consistency
from tests.conformance import conformance_helpers as helpers
from tests.conformance import test_conformance_registry as registry_checks
from tests.conformance import test_conformance_tools as tool_checks
from tests.conformance.conformance_helpers import check_result, guard_rows, schema_fingerprint
from tests.conformance.new_vendor_helpers import foreign_ids, golden_tables
from tests.conformance.test_conformance_fuzz import Fuzzer, _sweep_payloads, arguments
from tests.fixtures import money_book
from tests.fixtures.golden import CLOCK, build_fixture_golden

D = Decimal

# ------------------------------------------------------------------------------ the sixth bank
SUMMIT_BANK = Bank("summit", "Summit Bank", "0420")
SUMMIT = PortalDialect(
    app="summit_bank",
    label="Summit Bank Treasury Online",
    description="Summit Bank Treasury Online: cash position, check positive pay, wire transfers.",
    bank=SUMMIT_BANK,
    tables=PortalTables(
        balance_reports="daily_positions",
        activity="account_activity",
        issue_file="check_issue_file",
        exception_queue="exception_decisions",
        payments="wire_transfers",
        accounts="deposit_accounts",
    ),
    decisions=DecisionWords(pending="Awaiting Decision", pay="Honor", return_item="Dishonor"),
    exception_reasons=ExceptionReasons(
        payee_mismatch="Payee Differs",
        amount_mismatch="Amount Differs",
        no_issue_record="Not On Issue File",
        duplicate_presentment="Presented Twice",
        stale_dated="Stale Item",
        void_presented="Cancelled Item Presented",
    ),
    issue_statuses=IssueStatuses(issued="Open", paid="Cashed", void="Cancelled"),
    payment_status="Released",
    reference_prefixes=ReferencePrefixes(transaction="SMT", exception="SBX", payment="SWT"),
    decision_cutoff="15:30 ET",
    default_decision="return",
    bai2_receiver="COMPANYA-SUMMIT",
    example_exception="SBX0C4E1A9B27",
    example_account="7300418825",
    tool_names={
        "balances.get": "cash_position.balances",
        "transactions.list": "cash_position.activity",
        "statements.bai2": "cash_position.bai2_file",
        "statements.get": "cash_position.statements",
        "positive_pay.exceptions": "positive_pay.decisions.list",
        "positive_pay.issued_checks": "positive_pay.issue_file.list",
        "positive_pay.decide": "positive_pay.decisions.submit",
        "payments.list": "wire_transfers.list",
    },
    scheduled_status="Future Value Date",
)


class SummitBank(TreasuryPortal):
    D = SUMMIT
    ARTIFACTS = gen.artifacts(SUMMIT)


APP = SUMMIT.app
PORTALS = (BANK_OF_AMERICA_CASHPRO, SUMMIT)  # each behaviour check: a committed bank, then Summit
APPS = [APP, BANK_OF_AMERICA_CASHPRO.app, "plaid", "vista_erp"]

# ------------------------------------------------------------------------------ its book
OPER, RESERVE = "BA-SUMMIT", "BA-SUMMIT-RES"
ROUTING = routing_number(SUMMIT_BANK.routing_prefix + "1187")
ACCOUNTS = [
    (OPER, SUMMIT_BANK.code, "Summit Operating", "7300418825", ROUTING, "1010", 24),
    (RESERVE, SUMMIT_BANK.code, "Summit Reserve", "7300418833", ROUTING, "1020", 24),
]
CHECKS = [
    (
        "CK-S1",
        OPER,
        7001,
        date(2026, 1, 21),
        "V1000",
        "Walsh Electrical Contractors, LLC",
        D("12000.00"),
        "cleared",
        date(2026, 1, 26),
    ),
    ("CK-S2", OPER, 7002, date(2026, 1, 27), "V1003", "Midwest Concrete & Masonry", D("3100.00"), "issued", None),
    ("CK-S3", OPER, 7003, date(2026, 1, 28), "V1006", "Acme Rebar Supply Co", D("880.25"), "issued", None),
    ("CK-S4", OPER, 7004, date(2026, 1, 12), "V1001", "JSM Supply", D("500.00"), "void", None),
]
ACTIVITY = [
    ("TS1", OPER, date(2026, 1, 26), D("-12000.00"), "475", "CHECK 7001", 7001, None),
    ("TS2", OPER, date(2026, 1, 27), D("64000.00"), "165", "ACH CREDIT LAKEVIEW PARTNERS", None, "INV-3100-8"),
    ("TS3", OPER, date(2026, 1, 28), D("-15000.00"), "495", "WIRE OUT PRAIRIE STEEL", None, "WIRE-0128"),
    ("TS4", OPER, date(2026, 1, 28), D("-25.00"), "699", "WIRE FEE", None, None),
    ("TS5", OPER, date(2026, 1, 29), D("-5000.00"), "501", "BOOK TRANSFER TO RESERVE", None, "SWEEP-0129"),
    ("TS6", RESERVE, date(2026, 1, 29), D("5000.00"), "506", "BOOK TRANSFER FROM OPERATING", None, "SWEEP-0129"),
]
OPENING = {OPER: D("80000.00"), RESERVE: D("150000.00")}
EXCEPTIONS = [
    ("PPE-S1", OPER, CLOCK, 7002, D("3100.00"), "Midwest Concrete and Masonry", "payee_mismatch", CLOCK),
    ("PPE-S2", OPER, CLOCK, 7003, D("8800.25"), "Acme Rebar Supply Co", "amount_mismatch", CLOCK),
    ("PPE-S3", OPER, CLOCK, 7050, D("1999.00"), "Quick Cash Services", "no_issue_record", CLOCK),
    (
        "PPE-S4",
        OPER,
        date(2026, 1, 29),
        7001,
        D("12000.00"),
        "Walsh Electrical Contractors, LLC",
        "duplicate_presentment",
        date(2026, 1, 30),
    ),
]


def balances() -> list[tuple]:
    out = []
    for acct, running in OPENING.items():
        for offset in range(8):  # 2026-01-23 .. 2026-01-30
            day = date(2026, 1, 23) + timedelta(days=offset)
            running += sum((t[3] for t in ACTIVITY if t[1] == acct and t[2] == day), D("0"))
            bal = (acct, day, running, running)
            out.append(bal)
    return out


BOOK: dict[str, list[tuple]] = {
    "bank_accounts": ACCOUNTS,
    "checks": CHECKS,
    "bank_transactions": ACTIVITY,
    "bank_balances": balances(),
    "positive_pay_exceptions": EXCEPTIONS,
}


def summit_book(con: duckdb.DuckDBPyConnection) -> None:
    """The money fixture book (accounts at every bank) plus Summit's rows."""
    money_book.load(con)
    for table, rows in BOOK.items():
        marks = ", ".join("?" for _ in rows[0])
        con.executemany(f"INSERT INTO book.{table} VALUES ({marks})", [list(r) for r in rows])


def book_rows(table: str, bank: str) -> list[tuple]:
    """A book table's rows for one bank's accounts (both books: the money book's and Summit's)."""
    accounts = {a[0] for a in (*money_book.rows()["bank_accounts"], *ACCOUNTS) if a[1] == bank}
    rows = (
        (*money_book.rows()[table], *BOOK[table])
        if table != "bank_accounts"
        else (*money_book.rows()[table], *ACCOUNTS)
    )
    return [r for r in rows if (r[0] if table == "bank_accounts" else r[1]) in accounts]


# ------------------------------------------------------------------------------ fixtures
@pytest.fixture(scope="module")
def registry() -> Iterator[dict[str, Any]]:
    with registered(SummitBank):
        yield load_all()


@pytest.fixture(scope="module")
def golden(registry, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sixth-bank") / "golden.duckdb"
    return build_fixture_golden(out, APPS, book=summit_book)


@pytest.fixture(scope="module")
def world(golden: Path) -> Iterator[Environment]:
    env = Environment.open(apps=APPS, golden=golden, sql_write=True)
    env.__dict__["_opening"] = env.snapshot()
    yield env
    env.close()


@pytest.fixture
def env(world: Environment) -> Environment:
    """The module's environment, reset to its opening state."""
    world.reset(world.__dict__["_opening"])
    return world


def tool(d: PortalDialect, local: str) -> str:
    return f"{d.app}.{d.tool_names.get(local, local)}"


# ------------------------------------------------------------------------------ one dialect, rendered
def test_the_generator_renders_the_sixth_bank_from_its_dialect():
    files = gen.render_portal(SUMMIT)
    assert SummitBank.ARTIFACTS is not None and dataclasses.asdict(SummitBank.ARTIFACTS) == files
    tables = {}
    for stmt in sqlglot.parse(files["schema"], read="duckdb"):
        if isinstance(stmt, exp.Create) and stmt.kind == "TABLE":
            t = stmt.find(exp.Table)
            tables[f"{t.db}.{t.name}"] = [c.name for c in stmt.find_all(exp.ColumnDef)]
    assert tables == {f"{APP}.{SUMMIT.tables.native(lg)}": t.names for lg, t in PORTAL_TABLES.items()}
    rules = parse_rule_text(files["rules"], "summit rules")
    assert {r.table for r in rules.rules} == set(tables) and all(r.id.startswith(f"{APP}.") for r in rules.rules)
    assert f"'{SUMMIT_BANK.code}'" in files["views"] and "bofa" not in files["views"]
    queries = consistency.parse_entity_file(APP, files["entities"])
    assert [q.entity for q in queries] == ["check"]
    # the sixth bank's names are its own: nothing of another vendor's vocabulary leaks in
    for word in ("bofa_cashpro", "exception_items", "No Decision", "PPX"):
        assert word not in "".join(files.values())


def test_registration_is_one_class_and_lasts_for_the_block(registry):
    assert registry[APP] is SummitBank and get_app(APP) is SummitBank
    assert (SummitBank.name, SummitBank.label, SummitBank.TOOL_NAMES) == (APP, SUMMIT.label, SUMMIT.tool_names)
    other = type("SummitBankTwo", (TreasuryPortal,), {"D": dataclasses.replace(SUMMIT, app="summit_bank_two")})
    with registered(other):
        assert get_app("summit_bank_two") is other
    assert "summit_bank_two" not in load_all()
    impostor = type("Impostor", (TreasuryPortal,), {"D": dataclasses.replace(SUMMIT, label="Impostor")})
    with pytest.raises(ValueError, match="already registered"), registered(impostor):
        pass


# ------------------------------------------------------------------------------ registry and manifest
@pytest.fixture
def as_a_bank(monkeypatch: pytest.MonkeyPatch) -> None:
    """The conformance lists (typed in from the paper) name 35 apps; the sixth bank joins them as a Bank."""
    monkeypatch.setitem(helpers.ARCHETYPE_OF, APP, "Bank")
    monkeypatch.setitem(registry_checks.REQUIRED_GUARDED, APP, ("bank_initiate_transfer",))


@pytest.mark.parametrize("app", [BANK_OF_AMERICA_CASHPRO.app, APP])
def test_registry_and_manifest_checks(registry, golden, as_a_bank, app):
    tables, pks = golden_tables(golden)
    registry_checks.test_manifest_fields(registry, app)
    registry_checks.test_state_tables_equal_the_golden_file(registry, tables, pks, app)
    registry_checks.test_tool_names_are_namespaced_and_shaped(registry, app)
    registry_checks.test_money_guarded_tools_are_the_guarded_ones(registry, app)
    registry_checks.test_money_moving_surfaces_are_guarded(registry, app)
    assert registry[app].tools()[f"{app}.bank_initiate_transfer"].guarded == "payment"


def test_paper_named_guarded_endpoint_resolves(world):
    registry_checks.test_paper_named_tools_resolve(world, f"{APP}.bank_initiate_transfer")
    assert world.resolve(f"{APP}.bank_initiate_transfer").guarded


# ------------------------------------------------------------------------------ tools as an agent sees them
def _specs(env: Environment, app: str) -> dict[str, Any]:
    return {n: s for n, s in env.tools.items() if s.app == app}


@pytest.mark.parametrize("app", [BANK_OF_AMERICA_CASHPRO.app, APP])
def test_tool_surface_checks(world, app):
    specs = _specs(world, app)
    assert len(specs) == 10
    by_sanitized = {s.sanitized: n for n, s in world.tools.items()}
    descriptions = {by_sanitized[e["function"]["name"]]: e["function"]["description"] for e in world.tool_specs()}
    tool_checks.test_docstrings_say_what_how_and_returns(specs, descriptions)
    tool_checks.test_every_argument_field_has_description_and_example(specs)
    tool_checks.test_tool_specs_are_openai_function_schemas(world, dict(world.tools))


def test_the_sixth_banks_tools_are_the_committed_banks_under_its_names(world):
    """The same tools, arguments and docstrings as a committed portal, in Summit's names and words."""
    bofa = {s.method: s for s in _specs(world, BANK_OF_AMERICA_CASHPRO.app).values()}
    summit = {s.method: s for s in _specs(world, APP).values()}
    assert bofa.keys() == summit.keys()
    ours = BANK_OF_AMERICA_CASHPRO
    for method, spec in summit.items():
        other = bofa[method]
        assert (spec.args_model, spec.writes, spec.guarded) == (other.args_model, other.writes, other.guarded)
        archetype = next((k for k, v in ours.tool_names.items() if v == other.local), other.local)
        assert spec.local == SUMMIT.tool_names.get(archetype, archetype)
        text = other.description
        for theirs, mine in (
            (ours.label, SUMMIT.label),
            (ours.example_exception, SUMMIT.example_exception),
            (ours.example_account, SUMMIT.example_account),
            (ours.decisions.pending, SUMMIT.decisions.pending),
            (ours.scheduled_status, SUMMIT.scheduled_status),
        ):
            text = text.replace(theirs, mine)
        assert spec.description == text, method


@pytest.mark.parametrize("all_fields", [False, True], ids=["required_examples", "all_examples"])
@pytest.mark.parametrize("app", [BANK_OF_AMERICA_CASHPRO.app, APP])
def test_every_tool_accepts_its_documented_examples(env, app, all_fields):
    tool_checks.test_every_tool_accepts_its_documented_examples(env, _specs(env, app), all_fields)


# ------------------------------------------------------------------------------ hostile arguments
@pytest.fixture(scope="module")
def fuzzer(golden: Path) -> Iterator[Fuzzer]:
    env = Environment.open(apps=APPS, golden=golden, sql_write=True)
    patch = pytest.MonkeyPatch()
    patch.setitem(helpers.APP_GROUPS, "sixth_bank", ((APP,), ()))
    try:
        yield Fuzzer(env, "sixth_bank")
    finally:
        patch.undo()
        env.close()


@pytest.fixture(scope="module")
def hostile_ids(golden: Path) -> list[Any]:
    return foreign_ids(golden)


def test_every_tool_with_hostile_payloads(fuzzer, hostile_ids):
    assert fuzzer.tools == sorted(_specs(fuzzer.env, APP))
    for salt, name in enumerate(fuzzer.tools):
        for args in _sweep_payloads(fuzzer.env.tools[name], hostile_ids, salt):
            fuzzer.call(name, args, check_failed_writes=False)


def test_random_arguments(fuzzer, hostile_ids):
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(fuzzer.tools), label="tool")
        fuzzer.call(name, data.draw(arguments(fuzzer.env.tools[name], hostile_ids), label="args"))

    run()


# ------------------------------------------------------------------------------ the archetype's behaviour
@pytest.mark.parametrize("d", PORTALS, ids=lambda d: d.app)
def test_bai2_parses_back_with_the_books_activity(env, d):
    res = check_result(env.call(tool(d, "statements.bai2"), date_from="2026-01-23", date_to="2026-01-30"), d.app)
    assert res["ok"], res
    parsed = parse_bai2(res["data"]["content"])
    assert parsed.errors == [] and parsed.receiver == d.bai2_receiver
    txns = [t for t in book_rows("bank_transactions", d.bank.code) if date(2026, 1, 23) <= t[2] <= date(2026, 1, 30)]
    details = [x for g in parsed.groups for a in g.accounts for x in a.details]
    assert len(details) == len(txns) == res["data"]["transactions"] > 0
    assert sum(x["amount_cents"] for x in details) == sum(int(abs(t[3]) * 100) for t in txns)
    assert all(x["bank_reference"].startswith(d.reference_prefixes.transaction) for x in details)


@pytest.mark.parametrize("d", PORTALS, ids=lambda d: d.app)
def test_exception_queue_holds_the_books_items_in_the_banks_words(env, d):
    items = env.call(tool(d, "positive_pay.exceptions"), status="all")["data"]["exceptions"]
    numbers = {a[0]: a[3] for a in book_rows("bank_accounts", d.bank.code)}
    expected = sorted((numbers[e[1]], e[3], str(e[4])) for e in book_rows("positive_pay_exceptions", d.bank.code))
    assert sorted((x["account_number"], x["check_number"], x["presented_amount"]) for x in items) == expected
    assert {x["decision"] for x in items} == {d.decisions.pending}
    assert {x["default_decision"] for x in items} == {d.default_decision_word}
    assert {x["exception_reason"] for x in items} <= set(dataclasses.astuple(d.exception_reasons))
    assert all(x["exception_id"].startswith(d.reference_prefixes.exception) for x in items)
    issued = env.call(tool(d, "positive_pay.issued_checks"))["data"]["issued_checks"]
    assert {x["item_status"] for x in issued} <= set(dataclasses.astuple(d.issue_statuses))


@pytest.mark.parametrize("d", PORTALS, ids=lambda d: d.app)
def test_decisions_write_one_row_each_and_close_with_the_window(env, d):
    table = f"{d.app}.{d.tables.exception_queue}"
    pending = env.call(tool(d, "positive_pay.exceptions"))["data"]["exceptions"]
    open_items = [x for x in pending if x["decision_due"] >= CLOCK.isoformat()]
    assert open_items
    for i, item in enumerate(open_items):
        res = env.call(
            tool(d, "positive_pay.decide"),
            exception_id=item["exception_id"],
            decision="pay" if i % 2 == 0 else "return",
            reason=f"conformance {i}",
        )
        assert res["ok"], res
        assert res["data"]["decision"] == (d.decisions.pay if i % 2 == 0 else d.decisions.return_item)
    written = env.con.execute(
        "SELECT count(*) FROM cfab_internal.written_rows WHERE table_name = ?", [table]
    ).fetchone()[0]
    assert written == len(open_items)
    first = open_items[0]["exception_id"]
    again = env.call(tool(d, "positive_pay.decide"), exception_id=first, decision="return")
    assert again["ok"] and again["data"]["previous_decision"] == d.decisions.pay
    env.con.execute("UPDATE cfab_internal.meta SET value = '2026-02-03' WHERE key = 'clock'")
    late = env.call(tool(d, "positive_pay.decide"), exception_id=first, decision="pay")
    assert late["ok"] is False and late["error_type"] == "rejected" and "cannot be re-decided" in late["error"]


@pytest.mark.parametrize("d", PORTALS, ids=lambda d: d.app)
def test_transfer_is_guarded_valid_and_invalid(env, d):
    account = book_rows("bank_accounts", d.bank.code)[0]
    valid = {
        "from_account": account[3],
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
        {"from_account": account[3]},
    ]
    before = schema_fingerprint(env.con, env.catalog, [d.app])
    res = env.call(f"{d.app}.bank_initiate_transfer", **valid)
    assert res["ok"] and res["status"] == "pending_human_approval", res
    for bad in invalid:
        assert env.call(f"{d.app}.bank_initiate_transfer", **bad)["ok"] is False, bad
    assert schema_fingerprint(env.con, env.catalog, [d.app]) == before
    rows = [r for r in guard_rows(env.con) if r[1] == d.app]
    assert [(r[2], r[3], r[4]) for r in rows] == [
        (f"{d.app}.bank_initiate_transfer", False, v) for v in [True] + [False] * len(invalid)
    ]


@pytest.mark.parametrize("d", PORTALS, ids=lambda d: d.app)
def test_the_gate_keeps_the_banks_records(env, d):
    t, app = d.tables, d.app
    account = book_rows("bank_accounts", d.bank.code)[0][3]
    before = schema_fingerprint(env.con, env.catalog, [app])
    for sql in (
        f"UPDATE {app}.{t.activity} SET amount = 1 WHERE account_number = '{account}'",
        f"DELETE FROM {app}.{t.balance_reports} WHERE account_number = '{account}'",
        f"UPDATE {app}.{t.accounts} SET status = 'Closed'",
        f"UPDATE {app}.{t.issue_file} SET amount = 1",
        f"UPDATE {app}.{t.exception_queue} SET presented_amount = 1",
        f"DELETE FROM {app}.{t.exception_queue}",
        f"UPDATE {app}.{t.exception_queue} SET decision = 'Maybe'",
    ):
        res = check_result(env.call("sql.execute", sql=sql), sql)
        assert res["ok"] is False and res["error_type"] == "rejected", (sql, res)
    staged = env.call(
        "sql.execute",
        sql=(
            f"INSERT INTO {app}.{t.payments} VALUES ('X1', '{account}', 'WIRE', 'Mallory', '1', '071000013', 100.00, "
            f"DATE '2026-02-02', 'x', '{d.payment_status}', 'agent')"
        ),
    )
    assert staged.get("status") == "pending_human_approval", staged
    assert schema_fingerprint(env.con, env.catalog, [app]) == before
    first = env.con.execute(
        f"SELECT min(exception_id) FROM {app}.{t.exception_queue} WHERE decision_due >= DATE '{CLOCK}'"
    ).fetchone()[0]
    res = env.call(
        "sql.execute",
        sql=f"UPDATE {app}.{t.exception_queue} SET decision = '{d.decisions.return_item}' "
        f"WHERE exception_id = '{first}'",
    )
    assert res["ok"], res


@pytest.mark.parametrize("d", PORTALS, ids=lambda d: d.app)
def test_payments_and_accounts_are_the_books(env, d):
    accounts = env.call(tool(d, "accounts.list"))["data"]["accounts"]
    assert sorted(a["account_number"] for a in accounts) == sorted(
        a[3] for a in book_rows("bank_accounts", d.bank.code)
    )
    payments = env.call("sql.query", sql=f"SELECT * FROM {d.app}.{d.tables.payments}")["data"]["rows"]
    outgoing = [
        t for t in book_rows("bank_transactions", d.bank.code) if t[4] in ("495", "455", "501", "506") and t[3] < 0
    ]
    assert len(payments) == len(outgoing)


def test_the_sixth_banks_routing_numbers_carry_its_prefix(env):
    accounts = env.call(tool(SUMMIT, "accounts.list"))["data"]["accounts"]
    assert {a["routing_number"][:4] for a in accounts} == {SUMMIT_BANK.routing_prefix}


def test_the_aggregator_links_the_sixth_bank(env):
    items = env.call("plaid.items.list", institution_name=SUMMIT_BANK.code)["data"]["items"]
    assert [(i["institution_id"], i["institution_name"]) for i in items] == [
        (f"ins_{SUMMIT_BANK.code}", SUMMIT_BANK.code)
    ]
    linked = env.call("plaid.accounts.get", item_id=items[0]["item_id"])["data"]["accounts"]
    assert sorted(a["mask"] for a in linked) == sorted(a[3][-4:] for a in ACCOUNTS)


def test_the_issue_file_agrees_with_the_erps_register(golden, monkeypatch):
    """The consistency check over the ERP's register and both banks' issue files: the sixth bank's
    checks agree with Vista's (only Bank of America's registered truncations differ)."""
    carried = consistency.parse_entity_file(APP, gen.render_portal(SUMMIT)["entities"])
    packaged = consistency.load_entity_queries
    monkeypatch.setattr(
        consistency,
        "load_entity_queries",
        lambda apps: packaged([a for a in apps if a != APP]) + (carried if APP in apps else []),
    )
    con = duckdb.connect(str(golden), read_only=True)
    try:
        report = consistency.check_consistency(con, ["vista_erp", BANK_OF_AMERICA_CASHPRO.app, APP])
    finally:
        con.close()
    assert not report.registry_errors, report.registry_errors
    assert not report.unregistered, [d.describe() for d in report.unregistered]
    summit_pairs = [d for d in report.differences if APP in (d.app_a, d.app_b)]
    assert summit_pairs == []
    assert report.compared_values >= 3 * len(CHECKS)  # amount, payee, date of each Summit check
