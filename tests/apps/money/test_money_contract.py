"""Contract checks for the money apps: manifests match the DDL and tools, every tool documents
itself, the views run on an empty book, the rule files name real tables and columns."""

from __future__ import annotations

import re

import duckdb
import pytest
import sqlglot
from sqlglot import exp

from cfab.apps.registry import get_app, load_all
from cfab.schema.catalog import Catalog, has_sql_resource, run_script, schema_ddl, sql_resource
from cfab.seeds.determinism import BuildInputs
from cfab.triggers.rules import load_rules
from tests.apps.money.money_helpers import ALL_BANKS, MONEY_APPS, PAYROLLS


@pytest.mark.parametrize("app", MONEY_APPS)
def test_registered_and_manifest(app: str) -> None:
    cls = load_all()[app]
    m = cls.manifest()
    assert m.app == app and m.label and m.schema_name == app
    assert m.archetype == ("Bank" if app in ALL_BANKS else "Payroll" if app in PAYROLLS else "FieldTime")
    ddl_tables = [
        f"{t.db}.{t.name}"
        for t in (
            s.find(exp.Table)
            for s in sqlglot.parse(schema_ddl(app), read="duckdb")
            if isinstance(s, exp.Create) and s.kind == "TABLE"
        )
    ]
    assert m.state_tables == ddl_tables and ddl_tables
    assert m.tools == sorted(cls.tools())
    # payroll apps release payroll and pay a union's fringe remittance (P_union_fringe)
    guarded = {"payment"} if app in ALL_BANKS else {"payroll", "payment"} if app in PAYROLLS else set()
    assert {cls.tools()[t].guarded for t in m.money_guarded_tools} == guarded
    if app in ALL_BANKS:
        assert m.money_guarded_tools == [f"{app}.bank_initiate_transfer"]
    elif app in PAYROLLS:
        pay = cls.TOOL_NAMES.get("remittances.pay", "remittances.pay")
        assert sorted(m.money_guarded_tools) == sorted([f"{app}.pr_release", f"{app}.{pay}"])
    else:
        assert m.money_guarded_tools == []


@pytest.mark.parametrize("app", MONEY_APPS)
def test_every_table_has_a_primary_key_and_decimal_money(app: str) -> None:
    con = duckdb.connect()
    run_script(con, schema_ddl(app))
    cat = Catalog.load(con, [app])
    assert cat.in_schema(app)
    for info in cat.in_schema(app):
        assert info.pk, f"{info.qualified} has no primary key"
        for c, t in info.columns.items():
            if (
                any(w in c for w in ("amount", "balance", "gross", "net_pay", "total_"))
                and "count" not in c
                and "datetime" not in c
            ):
                assert t.startswith("DECIMAL(18,2)"), f"{info.qualified}.{c} is {t}"


@pytest.mark.parametrize("app", MONEY_APPS)
def test_tools_document_themselves(app: str) -> None:
    for name, spec in get_app(app).tools().items():
        assert "Returns" in spec.description, name
        assert "$" not in re.sub(r"\$\d", "", spec.description.replace("$label", "")), f"unfilled placeholder in {name}"
        schema = spec.parameters_schema()
        for arg, prop in schema.get("properties", {}).items():
            assert prop.get("description"), f"{name}.{arg} has no description"
            assert prop.get("examples"), f"{name}.{arg} has no example"
            assert arg in spec.description, f"{name} docstring does not mention {arg}"


def test_views_run_on_an_empty_book() -> None:
    con = duckdb.connect()
    run_script(con, schema_ddl("cfab_internal"))
    con.execute("INSERT INTO cfab_internal.meta VALUES ('clock', '2026-01-31')")
    run_script(con, schema_ddl("book"))
    for app in ["hh2", *MONEY_APPS]:
        get_app(app).seed(con, BuildInputs())
    for app in MONEY_APPS:
        for info in Catalog.load(con, [app]).in_schema(app):
            assert con.execute(f'SELECT count(*) FROM "{app}"."{info.name}"').fetchone()[0] == 0


def test_rules_name_real_tables_and_columns() -> None:
    con = duckdb.connect()
    for app in MONEY_APPS:
        run_script(con, schema_ddl(app))
    cat = Catalog.load(con)
    rules = load_rules()
    mine = [r for r in rules.rules if r.table.split(".")[0] in MONEY_APPS]
    assert len({r.table.split(".")[0] for r in mine}) == len(MONEY_APPS)
    for rule in mine:
        info = cat.get(rule.table)
        for column in sqlglot.parse_one(rule.when, read="duckdb").find_all(exp.Column):
            if column.table.lower() in ("new", "old"):
                info.column(column.name)  # raises if absent
    for a in rules.assertions:
        if a.table.split(".")[0] in MONEY_APPS:
            info = cat.get(a.table)
            for c in a.group_by:
                info.column(c)


@pytest.mark.parametrize("app", MONEY_APPS)
def test_entity_projections_run(app: str, money_golden) -> None:
    assert has_sql_resource("cfab.views", f"entities/{app}.sql")
    text = sql_resource("cfab.views", f"entities/{app}.sql")
    sections = re.split(r"^-- entity:\s*(\S+)\s*$", text, flags=re.M)[1:]
    con = duckdb.connect(str(money_golden), read_only=True)
    try:
        for entity, body in zip(sections[::2], sections[1::2], strict=False):
            rows = con.execute(body.strip().rstrip(";")).fetchall()
            names = [d[0] for d in con.description]
            assert names[0] == "entity_key", (app, entity)
            assert rows, f"{app} {entity} projection is empty on the fixture book"
            keys = [r[0] for r in rows]
            assert len(keys) == len(set(keys)), f"{app} {entity}: duplicate keys"
    finally:
        con.close()
