"""A third field-time vendor, ClockShark, defined here as a dialect alone: its own table names,
words, id formats (hashed project ids, job:trade crew ids, UUID timecard ids), example ids and
tool names, and nothing else.

The generator renders its schema, views, entity projections and rules (``gen.artifacts``); its
class carries them and joins the registry for this module. A copy of the book with hh2 and
Rhumbix gets ClockShark's employee ids and Rhumbix's timecards (the seeds' part for a new
field-time vendor, by hand, after Rhumbix was projected), ClockShark is seeded from its
artifacts, and an Environment composes hh2, Rhumbix and ClockShark. Then ClockShark passes the
conformance suite's per-app checks as Rhumbix does, projects the same timecards in its own ids and
words, and approves, summarises and refuses through the same tools and the same gate.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import asdict, fields
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from cfab.apps.fieldtime import gen
from cfab.apps.fieldtime.base import FieldTimeApp
from cfab.apps.fieldtime.dialects import (
    RHUMBIX,
    FieldTimeDialect,
    FieldTimeExamples,
    FieldTimeTables,
    FieldTimeWords,
    HashedIds,
    JobNumberIds,
    UuidIds,
)
from cfab.apps.fieldtime.model import TABLES
from cfab.apps.registry import get_app, load_all, registered
from cfab.apps.world.environment import Environment
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
from tests.conformance.conformance_helpers import schema_fingerprint

CLOCKSHARK = FieldTimeDialect(
    app="clockshark",
    label="ClockShark",
    tables=FieldTimeTables(
        projects="jobs",
        cost_codes="tasks",
        workers="users",
        crews="crews",
        timecards="timesheets",
        equipment="assets",
        equipment_logs="asset_time",
    ),
    words=FieldTimeWords(
        timecard_pending="submitted",
        timecard_approved="approved",
        record_active="enabled",
        record_inactive="disabled",
        hours_operating="in use",
        hours_idle="standby",
    ),
    project_ids=HashedIds(prefix="job-", namespace="clockshark:job:", length=8),
    crew_ids=JobNumberIds(),
    timecard_ids=UuidIds(namespace="clockshark:sheet:"),
    equipment_ids=HashedIds(prefix="asset-", namespace="clockshark:asset:", length=8),
    equipment_log_ids=UuidIds(namespace="clockshark:asset_time:"),
    examples=FieldTimeExamples(
        worker="cs-rbx-100001", timecard="0c2d4e6f-8a9b-4c1d-9e2f-3a4b5c6d7e8f", equipment="asset-3c9e1f20"
    ),
    tool_names={
        "timecards.list": "timesheets.list",
        "timecards.get": "timesheets.get",
        "timecards.approve": "timesheets.approve",
        "workers.list": "users.list",
        "cost_codes.list": "tasks.list",
        "payroll_export.summary": "reports.payroll",
        "equipment.list": "assets.list",
        "equipment_logs.list": "asset_time.list",
        "equipment_logs.summary": "reports.asset_usage",
    },
)
APP = CLOCKSHARK.app
APPS = ["hh2", RHUMBIX.app, APP]
# The seeds' part for a new field-time vendor: its employee ids (cs-<Rhumbix id>) in the identity
# map and hh2, and its share of the book's timecards and equipment (here all of Rhumbix's, already
# projected).
BOOK_SQL = (
    "INSERT INTO book.employee_identities SELECT employee_id, 'clockshark', 'cs-' || system_employee_id "
    "FROM book.employee_identities WHERE system = 'rhumbix'",
    "INSERT INTO hh2.employee_map SELECT master_employee_id, 'clockshark', 'cs-' || system_employee_id, "
    "employee_name FROM hh2.employee_map WHERE system = 'rhumbix'",
    "UPDATE book.timecards SET source_system = 'clockshark' WHERE source_system = 'rhumbix'",
    "UPDATE book.equipment SET field_system = 'clockshark' WHERE field_system = 'rhumbix'",
)
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class ClockShark(FieldTimeApp):
    """ClockShark: defined by its dialect alone."""

    D = CLOCKSHARK
    ARTIFACTS = gen.artifacts(CLOCKSHARK)


def tool(d: FieldTimeDialect, local: str) -> str:
    return f"{d.app}.{d.tool_names.get(local, local)}"


@pytest.fixture(scope="module")
def registry() -> Iterator[dict[str, Any]]:
    with registered(ClockShark):
        yield load_all()


@pytest.fixture(scope="module")
def golden(registry, golden_for, tmp_path_factory) -> Path:
    return golden_with(
        golden_for(["hh2", RHUMBIX.app]), tmp_path_factory.mktemp("clockshark") / "golden.duckdb", ClockShark, BOOK_SQL
    )


@pytest.fixture(scope="module")
def world(golden: Path) -> Iterator[Environment]:
    with opened(golden, APPS) as env:
        yield env


@pytest.fixture
def env(world: Environment) -> Environment:
    return reset(world)


def rows(env: Environment, d: FieldTimeDialect, logical: str) -> list[tuple]:
    """A table's rows without its own ids (project, crew, timecard, equipment, equipment log), in
    Rhumbix's words and employee ids."""
    words = {getattr(d.words, f.name): getattr(RHUMBIX.words, f.name) for f in fields(FieldTimeWords)}
    cur = env.con.execute(f"SELECT * FROM {d.app}.{getattr(d.tables, logical)}")
    names = [c[0] for c in cur.description]
    own = ("project_id", "crew_id", "timecard_id", "equipment_id", "log_id")
    keep = [i for i, n in enumerate(names) if n not in own]

    def plain(name: str, value: Any) -> Any:
        if name in ("employee_id", "foreman_employee_id") and value is not None:
            return value.removeprefix("cs-")
        return words.get(value, value) if name in ("status", "hour_type") else value

    return sorted((tuple(plain(names[i], r[i]) for i in keep) for r in cur.fetchall()), key=repr)


# ------------------------------------------------------------------------------ one dialect, rendered
def test_the_generator_renders_the_new_vendor_from_its_dialect(registry):
    files = asdict(ClockShark.ARTIFACTS)
    assert files == gen.render(CLOCKSHARK)
    for word in ("rhumbix", "busybusy", "PENDING", "timekeeping_entries", "'te_'", "'crew_'"):
        assert word not in "".join(files.values()), word
    assert registry[APP] is ClockShark and get_app(APP) is ClockShark
    assert (ClockShark.name, ClockShark.label, ClockShark.TOOL_NAMES) == (APP, CLOCKSHARK.label, CLOCKSHARK.tool_names)


# ------------------------------------------------------------------------------ the conformance checks
@pytest.mark.parametrize("app", [RHUMBIX.app, APP])
def test_conformance_checks(registry, world, golden, monkeypatch, app):
    conformance_checks(registry, world, golden, app, "FieldTime", (), monkeypatch)


def test_the_new_vendors_tools_are_rhumbixs_in_its_names_and_words(world):
    theirs = {s.method: s for s in app_specs(world, RHUMBIX.app).values()}
    ours = {s.method: s for s in app_specs(world, APP).values()}
    assert theirs.keys() == ours.keys()
    words = [(getattr(RHUMBIX.words, f.name), getattr(CLOCKSHARK.words, f.name)) for f in fields(FieldTimeWords)]
    examples = [
        (getattr(RHUMBIX.examples, f.name), getattr(CLOCKSHARK.examples, f.name)) for f in fields(FieldTimeExamples)
    ]
    for method, spec in ours.items():
        other = theirs[method]
        assert (spec.args_model, spec.writes, spec.guarded) == (other.args_model, other.writes, other.guarded)
        archetype = next((k for k, v in RHUMBIX.tool_names.items() if v == other.local), other.local)
        assert spec.local == CLOCKSHARK.tool_names.get(archetype, archetype)
        assert same_description(
            spec.description, other.description, [(RHUMBIX.label, CLOCKSHARK.label), *examples, *words]
        )


def test_hostile_arguments(world, golden, monkeypatch):
    hostile_arguments(world, golden, APP, monkeypatch)


# ------------------------------------------------------------------------------ the book, as Rhumbix had it
def test_the_new_vendor_gets_the_archetype_schema(env):
    for t in TABLES:
        ours, theirs = getattr(CLOCKSHARK.tables, t.name), getattr(RHUMBIX.tables, t.name)
        assert table_columns(env.con, APP, ours) == table_columns(env.con, RHUMBIX.app, theirs), t.name


def test_the_new_vendor_projects_the_timecards_rhumbix_did_with_its_own_ids(env):
    for t in TABLES:
        ours = rows(env, CLOCKSHARK, t.name)
        assert ours and ours == rows(env, RHUMBIX, t.name), t.name
    con, tb = env.con, CLOCKSHARK.tables
    projects = con.execute(f"SELECT project_id FROM {APP}.{tb.projects}").fetchall()
    assert all(re.fullmatch(r"job-[0-9a-f]{8}", p) for (p,) in projects)
    assert all(UUID.fullmatch(t) for (t,) in con.execute(f"SELECT timecard_id FROM {APP}.{tb.timecards}").fetchall())
    units = con.execute(f"SELECT equipment_id FROM {APP}.{tb.equipment}").fetchall()
    assert units and all(re.fullmatch(r"asset-[0-9a-f]{8}", u) for (u,) in units)
    assert all(UUID.fullmatch(x) for (x,) in con.execute(f"SELECT log_id FROM {APP}.{tb.equipment_logs}").fetchall())
    crews = con.execute(
        f"SELECT c.crew_id, p.job_number, c.trade FROM {APP}.{tb.crews} c JOIN {APP}.{tb.projects} p USING (project_id)"
    ).fetchall()
    assert crews and all(crew == f"{job}:{trade}" for crew, job, trade in crews)
    orphans = con.execute(
        f"SELECT count(*) FROM {APP}.{tb.timecards} t LEFT JOIN {APP}.{tb.projects} p "
        f"USING (project_id) LEFT JOIN {APP}.{tb.crews} c USING (crew_id) "
        f"WHERE p.project_id IS NULL OR c.crew_id IS NULL"
    ).fetchone()[0]
    assert orphans == 0


def test_the_new_vendors_entities_agree_with_rhumbixs(env):
    ours = entity_rows(env.con, APP, ClockShark.ARTIFACTS.entities)
    theirs = entity_rows(env.con, RHUMBIX.app, packaged("entities", RHUMBIX.app))
    assert set(ours) == {"employee", "job", "equipment"} and ours == theirs and all(ours.values())


# ------------------------------------------------------------------------------ the archetype's behaviour
def test_the_new_vendor_answers_as_rhumbix_does(env):
    job = env.con.execute(f"SELECT min(job_number) FROM {APP}.{CLOCKSHARK.tables.projects}").fetchone()[0]
    last = env.con.execute(f"SELECT max(work_date) FROM {APP}.{CLOCKSHARK.tables.timecards}").fetchone()[0]
    week = (last + timedelta(days=(5 - last.weekday()) % 7)).isoformat()
    calls = (
        ("projects.list", {}),
        ("workers.list", {"project": job}),
        ("cost_codes.list", {"project": job}),
        ("crews.list", {"project": job}),
        ("timecards.list", {"project": job, "limit": 5000}),
        ("payroll_export.summary", {"week_ending": week, "include_pending": True}),
        ("equipment.list", {}),
        ("equipment_logs.list", {"limit": 5000}),
        ("equipment_logs.list", {"hour_type": "idle"}),
        ("equipment_logs.summary", {}),
    )
    for local, args in calls:
        ours, theirs = env.call(tool(CLOCKSHARK, local), **args), env.call(tool(RHUMBIX, local), **args)
        assert ours["ok"] and theirs["ok"], (local, ours, theirs)
        assert ours["data"]["count"] == theirs["data"]["count"] > 0, local
    ours, theirs = (
        env.call(tool(d, "payroll_export.summary"), week_ending=week)["data"] for d in (CLOCKSHARK, RHUMBIX)
    )
    totals = ("count", "total_regular", "total_overtime")
    assert [ours[k] for k in totals] == [theirs[k] for k in totals]


@pytest.mark.parametrize("d", [RHUMBIX, CLOCKSHARK], ids=lambda d: d.app)
def test_approval_and_the_gate(env, d):
    t, w, s = d.tables, d.words, d.app
    pending, exported = (
        env.con.execute(f"SELECT min(timecard_id) FROM {s}.{t.timecards} WHERE status = ?", [word]).fetchone()[0]
        for word in (w.timecard_pending, w.timecard_approved)
    )
    done = env.call(tool(d, "timecards.approve"), timecard_id=pending, approver="Sam Super")
    assert done["ok"] and done["data"]["status"] == w.timecard_approved, done
    again = env.call(tool(d, "timecards.approve"), timecard_id=pending)
    assert again["ok"] is False and "already approved" in again["error"]
    other = env.con.execute(
        f"SELECT min(timecard_id) FROM {s}.{t.timecards} WHERE status = ?", [w.timecard_pending]
    ).fetchone()[0]
    before = schema_fingerprint(env.con, env.catalog, [s])
    where = f"WHERE timecard_id = '{other}'"
    for statement, needle in (
        (f"UPDATE {s}.{t.timecards} SET regular_hours = 1 WHERE timecard_id = '{exported}'", "exported to payroll"),
        (f"UPDATE {s}.{t.timecards} SET exported_to_payroll = true {where}", "nightly payroll export"),
        (f"UPDATE {s}.{t.timecards} SET status = 'OK' {where}", "a timecard status is"),
        (f"UPDATE {s}.{t.timecards} SET overtime_hours = 20, regular_hours = 8 {where}", "between 0 and 24"),
    ):
        res = sql(env, statement)
        assert res["ok"] is False and needle in res["error"], (statement, res)
    assert schema_fingerprint(env.con, env.catalog, [s]) == before
    assert sql(env, f"UPDATE {s}.{t.timecards} SET regular_hours = 7.5 {where}")["ok"]
    assert not env.guarded_calls()


def test_the_shared_golden_file_never_holds_the_new_vendor(registry):
    """While the test has ClockShark registered, a golden build (which may happen now, on a cold
    cache, for any test of this worker) still seeds only the shipped apps."""
    from cfab.apps.registry import shipped_apps

    assert APP in load_all() and APP not in shipped_apps()
    assert set(shipped_apps()) == set(load_all()) - {APP}
