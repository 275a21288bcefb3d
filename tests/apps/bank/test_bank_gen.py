"""The bank vendors as data: the committed files are the generator's, every portal is one
dialect registered once, and each bank's code and routing prefix live in one place."""

from __future__ import annotations

import dataclasses

import duckdb
import pytest
import sqlglot
from sqlglot import exp

from cfab.apps.bank import PORTALS, Plaid, TreasuryPortal, gen
from cfab.apps.bank.dialects import DIALECTS, PLAID
from cfab.apps.bank.model import AGGREGATOR_TABLES, PORTAL_TABLES
from cfab.apps.codegen import paths, stale
from cfab.apps.registry import load_all
from cfab.apps.world.golden import ensure_golden
from cfab.seeds.determinism import BuildInputs
from cfab.seeds.reference import BANKS, Bank
from cfab.triggers.rules import load_rules

APPS = [*DIALECTS, PLAID.app]


def test_generated_files_match_generator():
    assert not stale(gen.outputs()), "regenerate with python -m cfab.apps.bank.gen"


def test_the_generator_writes_exactly_the_bank_apps_files():
    assert set(gen.outputs()) == {p for app in APPS for p in paths(app).values()}


@pytest.mark.parametrize("app", APPS)
def test_rendered_ddl_declares_the_models_tables_under_the_dialects_names(app):
    d = DIALECTS.get(app, PLAID)
    model = PORTAL_TABLES if app in DIALECTS else AGGREGATOR_TABLES
    text = gen.render_portal(d)["schema"] if app in DIALECTS else gen.render_aggregator(PLAID)["schema"]
    declared = {}
    for stmt in sqlglot.parse(text, read="duckdb"):
        if isinstance(stmt, exp.Create) and stmt.kind == "TABLE":
            table = stmt.find(exp.Table)
            assert table.db == app
            declared[table.name] = [c.name for c in stmt.find_all(exp.ColumnDef)]
    assert declared == {d.tables.native(logical): t.names for logical, t in model.items()}


def test_every_portal_dialect_is_registered_once_and_reads_its_dialect():
    registry = load_all()
    assert set(PORTALS) == set(DIALECTS)
    for app, cls in PORTALS.items():
        assert registry[app] is cls and cls.D is DIALECTS[app]
        assert (cls.name, cls.label, cls.TOOL_NAMES) == (cls.D.app, cls.D.label, cls.D.tool_names)
        assert cls.ARTIFACTS is None  # committed: its files are packaged
    assert {n for n, c in registry.items() if isinstance(c, type) and issubclass(c, TreasuryPortal)} == set(DIALECTS)
    assert registry[PLAID.app] is Plaid and Plaid.D is PLAID


def test_dialects_are_full_words_without_abbreviated_constants():
    """No ``T_EXC``-style constants are left on the bank classes: the tools read the dialect."""
    for cls in [*PORTALS.values(), Plaid]:
        for klass in cls.__mro__:
            left = [
                k
                for k in vars(klass)
                if k.isupper() and k not in ("D", "ARTIFACTS", "TOOL_NAMES", "DISABLED_TOOLS", "DERIVED_TABLES")
            ]
            assert not left, f"{klass.__name__} still has class constants {left}"


def test_bank_codes_and_routing_prefixes_live_in_one_place():
    """Each bank is one :class:`Bank` of the book's reference data; the dialects hold those
    objects (no second spelling of a code or prefix), and Plaid lists every bank the book uses."""
    banks = [d.bank for d in DIALECTS.values()]
    assert all(b is BANKS[b.code] for b in banks)
    assert len({b.code for b in banks}) == len(banks) == len(BANKS)
    assert all(len(b.routing_prefix) == 4 and b.routing_prefix.isdigit() for b in banks)
    assert [i.bank for i in PLAID.institutions] == list(BANKS.values())
    for d in DIALECTS.values():  # every field of a dialect is its own data
        assert {f.name for f in dataclasses.fields(d)} >= {"bank", "tables", "decisions", "exception_reasons"}
        assert isinstance(d.bank, Bank)


def test_real_book_accounts_carry_their_banks_routing_prefix():
    """The book's generator draws each account's routing number from its bank's prefix; every
    portal shows the accounts of its own bank only."""
    con = duckdb.connect(str(ensure_golden(BuildInputs())), read_only=True)
    try:
        for d in DIALECTS.values():
            rows = con.execute(
                f"SELECT p.routing_number, b.bank FROM {d.app}.{d.tables.accounts} p "
                "JOIN book.bank_accounts b ON b.account_number = p.account_number"
            ).fetchall()
            assert rows, d.app
            assert {bank for _, bank in rows} == {d.bank.code}
            assert all(r.startswith(d.bank.routing_prefix) for r, _ in rows), (d.app, rows)
    finally:
        con.close()


@pytest.mark.parametrize("app", APPS)
def test_rules_are_in_the_gate_for_every_table(app):
    """Every table of a bank app is protected by a generated rule (read-only, guarded, or the
    exception queue's decision rules)."""
    rules = load_rules()
    d = DIALECTS.get(app, PLAID)
    model = PORTAL_TABLES if app in DIALECTS else AGGREGATOR_TABLES
    for logical in model:
        table = f"{app}.{d.tables.native(logical)}"
        assert rules.for_table(table, "insert") or rules.for_table(table, "update"), table
