"""A fourth payroll vendor, Gusto, defined here as a dialect alone: its own table names, words,
batch ids, example ids and tool names, and nothing else.

The generator renders its schema, views, entity projections and rules (``gen.artifacts``: no file
is written); its class carries them and joins the registry for this module. A copy of the book
with hh2 and ADP gets Gusto's employee ids (the seeds' part for a new vendor, by hand), Gusto is
seeded from its artifacts, and an Environment composes hh2, ADP and Gusto. Then Gusto passes the
conformance suite's per-app checks as ADP does, projects the book row for row as ADP does in its
own ids and words, and stages, guards and refuses through the same tools and the same gate.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import pytest
import sqlglot
from sqlglot import exp

from cfab.apps.payroll import gen
from cfab.apps.payroll.base import PayrollApp
from cfab.apps.payroll.dialects import (
    ADP,
    HashedBatchIds,
    PayrollDialect,
    PayrollExamples,
    PayrollTables,
    PayrollWords,
)
from cfab.apps.payroll.model import TABLES
from cfab.apps.registry import get_app, load_all, registered
from cfab.apps.world.environment import Environment
from cfab.triggers.rules import parse_rule_text
from tests.apps.payroll.new_vendor import (
    app_specs,
    conformance_checks,
    entity_rows,
    golden_with,
    hostile_arguments,
    opened,
    packaged,
    reset,
    same_description,
    sql,
    table_columns,
)
from tests.conformance.conformance_helpers import guard_rows, schema_fingerprint

GUSTO = PayrollDialect(
    app="gusto",
    label="Gusto Payroll",
    tables=PayrollTables(
        employees="people",
        jobs="jobs",
        prevailing_wage_rates="wage_rates",
        hours="hours",
        batches="payrolls",
        earnings="payroll_items",
        payments="disbursements",
    ),
    words=PayrollWords(
        employee_active="onboarded",
        employee_terminated="dismissed",
        batch_open="unprocessed",
        batch_staged="calculated",
        batch_released="processed",
        payment_check="check",
        payment_direct_deposit="direct_deposit",
        job_active="open",
        job_closed="archived",
    ),
    batch_ids=HashedBatchIds(namespace="gusto:payroll:", length=20),
    examples=PayrollExamples(employee="g-100201", batch="3f2a9c0d1e4b5a6f7e8d", job="1042"),
    tool_names={
        "batches.list": "payrolls.list",
        "batches.stage": "payrolls.calculate",
        "payments.list": "disbursements.list",
    },
)
APP = GUSTO.app
APPS = ["hh2", ADP.app, APP]
# The seeds' part for a new payroll vendor: its employee ids (g-<ADP id>) in the identity map and hh2.
BOOK_SQL = (
    "INSERT INTO book.employee_identities SELECT employee_id, 'gusto', 'g-' || system_employee_id "
    "FROM book.employee_identities WHERE system = 'adp'",
    "INSERT INTO hh2.employee_map SELECT master_employee_id, 'gusto', 'g-' || system_employee_id, employee_name "
    "FROM hh2.employee_map WHERE system = 'adp'",
)


class Gusto(PayrollApp):
    """Gusto: defined by its dialect alone."""

    D = GUSTO
    ARTIFACTS = gen.artifacts(GUSTO)


def tool(d: PayrollDialect, local: str) -> str:
    return f"{d.app}.{d.tool_names.get(local, local)}"


@pytest.fixture(scope="module")
def registry() -> Iterator[dict[str, Any]]:
    with registered(Gusto):
        yield load_all()


@pytest.fixture(scope="module")
def golden(registry, golden_for, tmp_path_factory) -> Path:
    return golden_with(
        golden_for(["hh2", ADP.app]), tmp_path_factory.mktemp("gusto") / "golden.duckdb", Gusto, BOOK_SQL
    )


@pytest.fixture(scope="module")
def world(golden: Path) -> Iterator[Environment]:
    with opened(golden, APPS) as env:
        yield env


@pytest.fixture
def env(world: Environment) -> Environment:
    return reset(world)


# ------------------------------------------------------------------------------ one dialect, rendered
def test_the_generator_renders_the_new_vendor_from_its_dialect(registry):
    files = asdict(Gusto.ARTIFACTS)
    assert files == gen.render(GUSTO)
    tables = {}
    for stmt in sqlglot.parse(files["schema"], read="duckdb"):
        if isinstance(stmt, exp.Create) and stmt.kind == "TABLE":
            t = stmt.find(exp.Table)
            tables[f"{t.db}.{t.name}"] = [c.name for c in stmt.find_all(exp.ColumnDef)]
    assert tables == {f"{APP}.{getattr(GUSTO.tables, t.name)}": t.column_names for t in TABLES}
    rules = parse_rule_text(files["rules"], "gusto rules")
    assert {r.table for r in [*rules.rules, *rules.assertions]} <= set(tables)
    assert all(r.id.startswith(f"{APP}.") for r in [*rules.rules, *rules.assertions])
    # its vocabulary is its own: nothing of another vendor's leaks in
    for word in ("adp", "rippling", "foundation", "Processed", "PAID", "'WK'", "payroll_runs", "time_cards"):
        assert word not in "".join(files.values()), word
    assert registry[APP] is Gusto and get_app(APP) is Gusto
    assert (Gusto.name, Gusto.label, Gusto.TOOL_NAMES) == (APP, GUSTO.label, GUSTO.tool_names)


# ------------------------------------------------------------------------------ the conformance checks
@pytest.mark.parametrize("app", [ADP.app, APP])
def test_conformance_checks(registry, world, golden, monkeypatch, app):
    conformance_checks(registry, world, golden, app, "Payroll", ("pr_release",), monkeypatch)


def test_the_new_vendors_tools_are_adps_in_its_names_and_words(world):
    adp = {s.method: s for s in app_specs(world, ADP.app).values()}
    gusto = {s.method: s for s in app_specs(world, APP).values()}
    assert adp.keys() == gusto.keys()
    words = [(getattr(ADP.words, f.name), getattr(GUSTO.words, f.name)) for f in fields(PayrollWords)]
    examples = [(getattr(ADP.examples, f.name), getattr(GUSTO.examples, f.name)) for f in fields(PayrollExamples)]
    for method, spec in gusto.items():
        other = adp[method]
        assert (spec.args_model, spec.writes, spec.guarded) == (other.args_model, other.writes, other.guarded)
        archetype = next((k for k, v in ADP.tool_names.items() if v == other.local), other.local)
        assert spec.local == GUSTO.tool_names.get(archetype, archetype)
        assert same_description(spec.description, other.description, [(ADP.label, GUSTO.label), *examples, *words])


def test_hostile_arguments(world, golden, monkeypatch):
    hostile_arguments(world, golden, APP, monkeypatch)


# ------------------------------------------------------------------------------ the book, as ADP has it
def test_the_new_vendor_gets_the_archetype_schema(env):
    for t in TABLES:
        ours, theirs = getattr(GUSTO.tables, t.name), getattr(ADP.tables, t.name)
        assert table_columns(env.con, APP, ours) == table_columns(env.con, ADP.app, theirs), t.name


def test_the_new_vendor_projects_the_book_as_adp_does_in_its_own_words(env):
    """Row for row ADP's tables, once Gusto's employee ids, batch ids and words are read as ADP's."""
    con = env.con
    words = {getattr(GUSTO.words, f.name): getattr(ADP.words, f.name) for f in fields(PayrollWords)}
    batches = dict(
        con.execute(
            f"SELECT g.batch_id, a.batch_id FROM {APP}.{GUSTO.tables.batches} g "
            f"JOIN {ADP.app}.{ADP.tables.batches} a USING (period_end)"
        ).fetchall()
    )
    assert len(batches) == con.execute(f"SELECT count(*) FROM {ADP.app}.{ADP.tables.batches}").fetchone()[0] > 1
    assert all(len(b) == GUSTO.batch_ids.length for b in batches)
    batches |= dict(  # the pay calendar names the weeks ahead by the batch they will be paid in
        con.execute(
            f"SELECT g.batch_id, a.batch_id FROM {APP}.{GUSTO.tables.calendar} g "
            f"JOIN {ADP.app}.{ADP.tables.calendar} a USING (period_end)"
        ).fetchall()
    )

    def as_adp(name: str, value: Any) -> Any:
        if name == "employee_id":
            return value.removeprefix("g-")
        if name == "batch_id":
            return batches[value]
        if name == "remittance_id":  # the default prefix (Gusto names none) read as ADP's
            return ADP.remittance_ids.prefix + value.removeprefix(GUSTO.remittance_ids.prefix)
        return words.get(value, value) if name in ("status", "payment_method") else value

    for t in TABLES:
        ours = con.execute(f"SELECT * FROM {APP}.{getattr(GUSTO.tables, t.name)}")
        names = [d[0] for d in ours.description]
        got = sorted(
            (tuple(as_adp(n, v) for n, v in zip(names, row, strict=True)) for row in ours.fetchall()), key=repr
        )
        want = sorted(con.execute(f"SELECT * FROM {ADP.app}.{getattr(ADP.tables, t.name)}").fetchall(), key=repr)
        assert got and got == want, t.name


def test_the_new_vendors_entities_agree_with_adps(env):
    ours = entity_rows(env.con, APP, Gusto.ARTIFACTS.entities)
    theirs = entity_rows(env.con, ADP.app, packaged("entities", ADP.app))
    assert set(ours) == {"employee", "job", "check"}
    assert ours == theirs and all(ours.values())


# ------------------------------------------------------------------------------ the archetype's behaviour
@pytest.mark.parametrize("d", [ADP, GUSTO], ids=lambda d: d.app)
def test_stage_then_release_is_guarded(env, d):
    for local in ("employees.list", "hours.list", "earnings.list", "payments.list"):
        res = env.call(tool(d, local))
        assert res["ok"] and res["data"]["count"] > 0, (local, res)
    batches = env.call(tool(d, "batches.list"), status=d.words.batch_open)["data"]["batches"]
    assert len(batches) == 1
    staged = env.call(tool(d, "batches.stage"))
    assert staged["ok"] and staged["data"]["status"] == d.words.batch_staged and staged["data"]["lines"] > 0, staged
    before = schema_fingerprint(env.con, env.catalog, [d.app])
    release = env.call(f"{d.app}.pr_release", batch_id=batches[0]["batch_id"])
    assert release["ok"] and release["status"] == "pending_human_approval", release
    released = env.call(tool(d, "batches.list"), status=d.words.batch_released)["data"]["batches"][-1]["batch_id"]
    again = env.call(f"{d.app}.pr_release", batch_id=released)
    assert again["ok"] is False and f"only a {d.words.batch_staged} batch" in again["error"]
    assert schema_fingerprint(env.con, env.catalog, [d.app]) == before
    rows = [r for r in guard_rows(env.con) if r[1] == d.app]
    assert [(r[2], r[3], r[4]) for r in rows] == [
        (f"{d.app}.pr_release", False, True),
        (f"{d.app}.pr_release", False, False),
    ]


def test_the_new_vendor_stages_what_adp_stages(env):
    gross = {d.app: env.call(tool(d, "batches.stage"))["data"]["total_gross"] for d in (ADP, GUSTO)}
    assert gross[APP] == gross[ADP.app] != "0.00"


@pytest.mark.parametrize("d", [ADP, GUSTO], ids=lambda d: d.app)
def test_the_gate_keeps_released_payroll(env, d):
    t, w, s = d.tables, d.words, d.app
    released = env.con.execute(
        f"SELECT batch_id FROM {s}.{t.batches} WHERE status = ? ORDER BY period_end DESC LIMIT 1", [w.batch_released]
    ).fetchone()[0]
    open_id = env.con.execute(f"SELECT batch_id FROM {s}.{t.batches} WHERE status = ?", [w.batch_open]).fetchone()[0]
    emp = env.con.execute(f"SELECT min(employee_id) FROM {s}.{t.employees}").fetchone()[0]
    before = schema_fingerprint(env.con, env.catalog, [s])
    staged = sql(env, f"UPDATE {s}.{t.batches} SET status = '{w.batch_released}' WHERE batch_id = '{open_id}'")
    assert staged["ok"] and staged["status"] == "pending_human_approval", staged
    refused = [
        (
            f"UPDATE {s}.{t.batches} SET check_date = DATE '2026-02-02' WHERE batch_id = '{released}'",
            "cannot be changed",
        ),
        (f"DELETE FROM {s}.{t.earnings} WHERE batch_id = '{released}'", "cannot be changed"),
        (f"UPDATE {s}.{t.hours} SET regular_hours = 80", "field-time system"),
        (f"UPDATE {s}.{t.payments} SET net_pay = 1 WHERE batch_id = '{released}'", "was issued"),
        (
            f"INSERT INTO {s}.{t.earnings} VALUES ('{open_id}', '{emp}', 'X-1', 8, 2, 10, 1, 100, NULL, NULL)",
            "gross_pay must be",
        ),
    ]
    for statement, needle in refused:
        res = sql(env, statement)
        assert res["ok"] is False and needle in res["error"], (statement, res)
    assert schema_fingerprint(env.con, env.catalog, [s]) == before
    paid = sql(
        env,
        f"INSERT INTO {s}.{t.payments} VALUES ('{open_id}', '{emp}', '{w.payment_check}', 1, '1', "
        f"DATE '2026-02-06', 1, 1)",
    )
    assert paid["ok"] and paid["status"] == "pending_human_approval", paid
    good = sql(env, f"INSERT INTO {s}.{t.earnings} VALUES ('{open_id}', '{emp}', 'X-1', 8, 2, 10, 1, 110, NULL, NULL)")
    assert good["ok"] and good.get("status") is None, good
    diff = env.state_diff()
    assert diff.tables() == [f"{s}.{t.earnings}"] and len(diff[f"{s}.{t.earnings}"].added) == 1
