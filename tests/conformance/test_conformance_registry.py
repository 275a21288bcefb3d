"""Registry and manifests: the 35 apps of docs/architecture.md under the paper's ten archetype labels,
manifests that match the golden file, tool names of the documented shape, and every guarded
(money-moving) surface the paper names, resolvable through the Environment."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from cfab.apps.contract import AppManifest
from cfab.apps.registry import load_all
from tests.conformance.conformance_helpers import (
    ALL_APPS,
    ARCHETYPE_OF,
    ARCHETYPES,
    GUARD_KINDS,
    PAPER_NATIVE_LOCAL,
    PAPER_TOOLS,
    PROCORE_TOOLS,
    RESOURCE_VERB_LOCAL,
)

# Guarded steps every app with a money-moving surface must have (paper: "Money-guarded endpoints",
# the inventory's Guarded column, and the four added PM platforms' pay/lodge step).
REQUIRED_GUARDED: dict[str, tuple[str, ...]] = {
    **{b: ("bank_initiate_transfer",) for b in ARCHETYPES["Bank"]},
    **{p: ("pr_release",) for p in ARCHETYPES["Payroll"]},
    "gcpay": ("pay_apps.approve", "pay_apps.submit"),
    "lcptracker": ("submissions.submit",),
    "outlook": ("outlook_send",),
    "track1099": ("filings.efile",),
    "avalara": ("returns.efile",),
    "corpay": ("payments.create", "batches.release"),
    "levelset": ("waivers.send_for_signature",),
    "redteam": ("eapps.approve_for_payment",),
    "ingenious_build": ("invoices.approve_for_payment",),
    "ressio": ("bills.pay",),
    "smartbuild": ("claims.lodge",),
}
# Apps whose archetype has no guarded surface in the paper's inventory (FieldTime,
# Integration/Estimating, Docs, excel) and procore ("reads are free ... the two ERP-boundary
# sync writes ... are permitted").
UNGUARDED = {"rhumbix", "busybusy", "hh2", "hcss_heavybid", "box", "sharepoint", "excel", "procore"}


@pytest.fixture(scope="module")
def registry():
    return load_all()


@pytest.fixture(scope="module")
def golden_tables(full_golden: Path) -> dict[str, set[str]]:
    con = duckdb.connect(str(full_golden), read_only=True)
    try:
        rows = con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database()"
        ).fetchall()
    finally:
        con.close()
    out: dict[str, set[str]] = {}
    for schema, table in rows:
        out.setdefault(schema, set()).add(f"{schema}.{table}")
    return out


@pytest.fixture(scope="module")
def golden_pks(full_golden: Path) -> dict[str, tuple[str, ...]]:
    con = duckdb.connect(str(full_golden), read_only=True)
    try:
        rows = con.execute(
            "SELECT schema_name, table_name, constraint_column_names FROM duckdb_constraints() "
            "WHERE database_name = current_database() AND constraint_type = 'PRIMARY KEY'"
        ).fetchall()
    finally:
        con.close()
    return {f"{s}.{t}": tuple(c) for s, t, c in rows}


def test_exactly_the_35_apps(registry):
    assert len(registry) == 35
    assert set(registry) == set(ALL_APPS)
    assert len(ALL_APPS) == len(set(ALL_APPS)) == 35


def test_ten_archetype_labels_as_in_the_paper(registry):
    labels = {cls.archetype for cls in registry.values()}
    assert labels == set(ARCHETYPES), labels ^ set(ARCHETYPES)
    assert len(labels) == 10
    wrong = {n: (cls.archetype, ARCHETYPE_OF[n]) for n, cls in registry.items() if cls.archetype != ARCHETYPE_OF[n]}
    assert not wrong, f"apps under the wrong archetype (is, should be): {wrong}"


@pytest.mark.parametrize("app", ALL_APPS)
def test_manifest_fields(registry, app):
    m = registry[app].manifest()
    assert isinstance(m, AppManifest)
    assert m.app == app and m.schema_name == app
    assert m.label.strip() and m.kind.strip()
    assert m.archetype == ARCHETYPE_OF[app]
    assert m.tier in ("A", "B", "C")
    assert m.tools, f"{app} declares no tools"
    assert len(m.tools) == len(set(m.tools))


@pytest.mark.parametrize("app", ALL_APPS)
def test_state_tables_equal_the_golden_file(registry, golden_tables, golden_pks, app):
    m = registry[app].manifest()
    declared = set(m.state_tables)
    assert len(declared) == len(m.state_tables), f"{app}: a state table is listed twice"
    actual = golden_tables.get(m.schema_name, set())
    assert declared - actual == set(), f"{app}: manifest tables missing from the golden file"
    assert actual - declared == set(), f"{app}: golden tables the manifest does not declare"
    no_pk = sorted(t for t in actual if not golden_pks.get(t))
    assert not no_pk, f"{app}: tables without a primary key: {no_pk}"


def test_no_table_outside_an_app_schema(golden_tables):
    """Every schema in the golden file is an app, the hidden book or cfab_internal."""
    extra = set(golden_tables) - set(ALL_APPS) - {"book", "cfab_internal"}
    assert not extra, f"schemas that belong to no app: {sorted(extra)}"


@pytest.mark.parametrize("app", ALL_APPS)
def test_tool_names_are_namespaced_and_shaped(registry, app):
    specs = registry[app].tools()
    bad = []
    for name, spec in specs.items():
        names = [name, *spec.aliases]
        for n in names:
            if not n.startswith(app + "."):
                bad.append(f"{n}: not under {app}.")
                continue
            local = n[len(app) + 1 :]
            if not (RESOURCE_VERB_LOCAL.fullmatch(local) or PAPER_NATIVE_LOCAL.fullmatch(local)):
                bad.append(f"{n}: neither app.resource.verb nor a paper-named native tool")
        assert spec.app == app and spec.name == name
    assert not bad, bad


@pytest.mark.parametrize("app", ALL_APPS)
def test_money_guarded_tools_are_the_guarded_ones(registry, app):
    cls = registry[app]
    m = cls.manifest()
    guarded = {n for n, s in cls.tools().items() if s.guarded}
    assert set(m.money_guarded_tools) == guarded
    assert len(m.money_guarded_tools) == len(guarded)
    kinds = {s.guarded for s in cls.tools().values() if s.guarded}
    assert kinds <= GUARD_KINDS, f"{app}: unknown guard kinds {kinds - GUARD_KINDS}"
    # a guarded tool never declares itself a state-changing write: it is recorded, not executed
    assert not [n for n, s in cls.tools().items() if s.guarded and s.writes]


@pytest.mark.parametrize("app", ALL_APPS)
def test_money_moving_surfaces_are_guarded(registry, app):
    m = registry[app].manifest()
    guarded = set(m.money_guarded_tools)
    if ARCHETYPE_OF[app] == "ERP":
        posts = [t for t in guarded if t.endswith("_post")]
        assert posts, f"{app}: no guarded *_post tool"
        assert registry[app].tools()[posts[0]].guarded == "post"
        assert f"{app}.payments.create" in guarded, f"{app}: paying AP is not guarded"
    for local in REQUIRED_GUARDED.get(app, ()):
        assert f"{app}.{local}" in guarded, f"{app}.{local} must be guarded"
    if app in UNGUARDED:
        assert not guarded, f"{app} guards {guarded} although its archetype moves no money"
    else:
        assert guarded, f"{app} has a money-moving surface but no guarded tool"


def test_guard_kinds_of_named_endpoints(registry):
    kinds = {n: s.guarded for cls in registry.values() for n, s in cls.tools().items() if s.guarded}
    for b in ARCHETYPES["Bank"]:
        assert kinds[f"{b}.bank_initiate_transfer"] == "payment"
    for p in ARCHETYPES["Payroll"]:
        assert kinds[f"{p}.pr_release"] == "payroll"
    assert kinds["lcptracker.submissions.submit"] == "efile"
    assert kinds["track1099.filings.efile"] == kinds["avalara.returns.efile"] == "efile"
    assert kinds["outlook.outlook_send"] == "send"
    assert kinds["levelset.waivers.send_for_signature"] == "esign"


def test_procore_exposes_exactly_the_paper_sixteen(registry):
    assert sorted(registry["procore"].tools()) == sorted(PROCORE_TOOLS)
    writes = {n for n, s in registry["procore"].tools().items() if s.writes}
    assert writes == {"procore.erp.sync_commitment", "procore.erp.sync_invoice"}


@pytest.mark.parametrize("name", PAPER_TOOLS)
def test_paper_named_tools_resolve(all_env, name):
    spec = all_env.resolve(name)
    assert name == spec.name or name in spec.aliases
    assert all_env.resolve(spec.sanitized) is spec


def test_paper_named_guarded_endpoints_are_guarded(all_env):
    for name in (
        "vista_erp.vista_post",
        "gcpay.gcpay_approve",
        "lcptracker.lcp_submit",
        "outlook.outlook_send",
        "avalara.efile_submit",
        "track1099.efile_submit",
        *(f"{b}.bank_initiate_transfer" for b in ARCHETYPES["Bank"]),
        *(f"{p}.pr_release" for p in ARCHETYPES["Payroll"]),
    ):
        assert all_env.resolve(name).guarded, f"{name} is not guarded"


def test_every_registered_tool_is_offered_once(all_env, registry):
    expected = {n for cls in registry.values() for n in cls.tools()} | {"sql.query", "sql.execute"}
    assert set(all_env.tools) == expected
    sanitized = [s.sanitized for s in all_env.tools.values()]
    assert len(sanitized) == len(set(sanitized))
