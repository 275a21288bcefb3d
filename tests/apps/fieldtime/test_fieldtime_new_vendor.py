"""A third field-time vendor, ClockShark, defined here as a dialect alone: the generator renders its
schema, views, entity projections and rules, they load into a copy of the book next to Rhumbix (the
book's Rhumbix timecards handed to it), and ClockShark projects, approves, summarises and refuses
exactly as Rhumbix does, in its own words and ids."""

from __future__ import annotations

import re
from dataclasses import asdict, fields, replace
from datetime import timedelta
from pathlib import Path

import pytest

from cfab.apps.fieldtime import Rhumbix, gen
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
from tests.apps.payroll.new_vendor import (
    Composition,
    entity_rows,
    load_vendor,
    packaged,
    rules_problems,
    table_columns,
    table_names,
    tool_surface_problems,
    writable_copy,
)

CLOCKSHARK = FieldTimeDialect(
    app="clockshark",
    label="ClockShark",
    tables=FieldTimeTables(projects="jobs", cost_codes="tasks", workers="users", crews="crews", timecards="timesheets"),
    words=FieldTimeWords(timecard_pending="submitted", timecard_approved="approved", record_active="enabled",
                         record_inactive="disabled"),
    project_ids=HashedIds(prefix="job-", namespace="clockshark:job:", length=8),
    crew_ids=JobNumberIds(),
    timecard_ids=UuidIds(namespace="clockshark:sheet:"),
    examples=FieldTimeExamples(worker="cs-rbx-100001", timecard="0c2d4e6f-8a9b-4c1d-9e2f-3a4b5c6d7e8f"),
    tool_names={"timecards.list": "timesheets.list", "timecards.get": "timesheets.get",
                "timecards.approve": "timesheets.approve", "workers.list": "users.list",
                "cost_codes.list": "tasks.list", "payroll_export.summary": "reports.payroll"},
)
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


class ClockShark(FieldTimeApp):
    """ClockShark: defined by its dialect alone (not registered)."""

    D = CLOCKSHARK


class Reference(FieldTimeApp):
    """The archetype's own tool names (no native renames)."""

    D = replace(CLOCKSHARK, app="reference", label="Reference", tool_names={})


@pytest.fixture(scope="module")
def clockshark_files() -> dict[str, str]:
    return gen.render(CLOCKSHARK)


@pytest.fixture(scope="module")
def clockshark_book(golden_for, clockshark_files, tmp_path_factory) -> Path:
    """The book with hh2 and Rhumbix, plus ClockShark: the seeds' part done by hand (its employee ids,
    cs-<Rhumbix id>, in the identity map and hh2's crosswalk; Rhumbix's timecards as its own, after
    Rhumbix was projected), then its generated schema and views."""
    path = tmp_path_factory.mktemp("clockshark") / "golden.duckdb"
    con = writable_copy(golden_for(["hh2", "rhumbix"]), path)
    con.execute("INSERT INTO book.employee_identities SELECT employee_id, 'clockshark', 'cs-' || system_employee_id "
                "FROM book.employee_identities WHERE system = 'rhumbix'")
    con.execute("INSERT INTO hh2.employee_map SELECT master_employee_id, 'clockshark', 'cs-' || system_employee_id, "
                "employee_name FROM hh2.employee_map WHERE system = 'rhumbix'")
    con.execute("UPDATE book.timecards SET source_system = 'clockshark' WHERE source_system = 'rhumbix'")
    load_vendor(con, clockshark_files)
    con.close()
    return path


@pytest.fixture
def con(clockshark_book, tmp_path):
    c = writable_copy(clockshark_book, tmp_path / "attempt.duckdb")
    yield c
    c.close()


@pytest.fixture
def comp(con, clockshark_files) -> Composition:
    return Composition.open(con, [ClockShark, Rhumbix], {"clockshark": clockshark_files["rules"],
                                                         "rhumbix": packaged("rules", "rhumbix")})


def rows(con, schema: str, table: str, drop: tuple[str, ...] = ()) -> list[tuple]:
    cur = con.execute(f"SELECT * FROM {schema}.{table}")
    names = [d[0] for d in cur.description]
    keep = [i for i, n in enumerate(names) if n not in drop]
    return sorted((tuple(r[i] for i in keep) for r in cur.fetchall()), key=repr)


def test_the_new_vendor_gets_the_archetype_schema(con):
    assert table_names(con, "clockshark") == set(asdict(CLOCKSHARK.tables).values())
    for t in TABLES:
        ours, theirs = getattr(CLOCKSHARK.tables, t.name), getattr(RHUMBIX.tables, t.name)
        assert table_columns(con, "clockshark", ours) == table_columns(con, "rhumbix", theirs), t.name


def test_the_new_vendor_projects_the_book_as_rhumbix_does_with_its_own_ids_and_words(con):
    """Rhumbix's rows once ClockShark's ids are set aside and its words and employee ids read as
    Rhumbix's; and ClockShark's own ids have its formats and hold together."""
    words = {getattr(CLOCKSHARK.words, f.name): getattr(RHUMBIX.words, f.name) for f in fields(FieldTimeWords)}
    ids = ("project_id", "crew_id", "timecard_id")
    for t in TABLES:
        ours = [tuple(words.get(v, v) if isinstance(v, str) else v for v in r)
                for r in rows(con, "clockshark", getattr(CLOCKSHARK.tables, t.name), ids)]
        ours = sorted((tuple(v.removeprefix("cs-") if isinstance(v, str) else v for v in r) for r in ours), key=repr)
        assert ours and ours == rows(con, "rhumbix", getattr(RHUMBIX.tables, t.name), ids), t.name
    projects = dict(con.execute("SELECT project_id, job_number FROM clockshark.jobs").fetchall())
    assert all(re.fullmatch(r"job-[0-9a-f]{8}", p) for p in projects)
    assert all(UUID.match(t) for (t,) in con.execute("SELECT timecard_id FROM clockshark.timesheets").fetchall())
    crews = con.execute("SELECT c.crew_id, p.job_number, c.trade FROM clockshark.crews c "
                        "JOIN clockshark.jobs p USING (project_id)").fetchall()
    assert crews and all(crew == f"{job}:{trade}" for crew, job, trade in crews)
    orphans = con.execute("SELECT count(*) FROM clockshark.timesheets t LEFT JOIN clockshark.jobs p USING (project_id) "
                          "LEFT JOIN clockshark.crews c USING (crew_id) "
                          "WHERE p.project_id IS NULL OR c.crew_id IS NULL").fetchone()[0]
    assert orphans == 0


def test_the_new_vendor_entities_agree_with_rhumbix(con, clockshark_files):
    ours = entity_rows(con, "clockshark", clockshark_files["entities"])
    theirs = entity_rows(con, "rhumbix", packaged("entities", "rhumbix"))
    assert set(ours) == {"employee", "job"} and ours == theirs and all(ours.values())


def test_the_new_vendor_passes_the_conformance_checks_of_its_tools_and_rules(con, clockshark_files):
    assert tool_surface_problems(ClockShark, {}) == []
    assert set(ClockShark.tools()) == {f"clockshark.{ClockShark.TOOL_NAMES.get(s.local, s.local)}"
                                       for s in Reference.tools().values()}
    assert rules_problems(con, clockshark_files["rules"], "clockshark") == []
    assert '"status": "approved"' in ClockShark.tools()["clockshark.timesheets.approve"].description


def test_the_new_vendor_answers_as_rhumbix_does(comp, con):
    job = con.execute("SELECT job_number FROM clockshark.jobs ORDER BY job_number LIMIT 1").fetchone()[0]
    week = con.execute("SELECT max(work_date) FROM clockshark.timesheets").fetchone()[0]
    week = week + timedelta(days=(5 - week.weekday()) % 7)
    calls = (("projects.list", {}), ("workers.list", {"project": job}), ("cost_codes.list", {"project": job}),
             ("crews.list", {"project": job}), ("timecards.list", {"project": job, "limit": 5000}),
             ("payroll_export.summary", {"week_ending": week, "include_pending": True}))
    for local, args in calls:
        ours, theirs = comp.call("clockshark", local, **args), comp.call("rhumbix", local, **args)
        assert ours["ok"] and theirs["ok"], (local, ours, theirs)
        assert ours["data"]["count"] == theirs["data"]["count"], local
    ours, theirs = (comp.call(app, "payroll_export.summary", week_ending=week)["data"]
                    for app in ("clockshark", "rhumbix"))
    totals = ("count", "total_regular", "total_overtime")
    assert [ours[k] for k in totals] == [theirs[k] for k in totals] and ours["count"] > 0


def test_the_new_vendor_approves_and_its_rules_fire(comp, con):
    pending, exported = (con.execute(f"SELECT timecard_id FROM clockshark.timesheets WHERE status = '{w}' "
                                     f"ORDER BY timecard_id LIMIT 1").fetchone()[0] for w in ("submitted", "approved"))
    done = comp.call("clockshark", "timecards.approve", timecard_id=pending, approver="Sam Super")
    assert done["ok"] and done["data"]["status"] == "approved", done
    again = comp.call("clockshark", "timecards.approve", timecard_id=pending)
    assert again["ok"] is False and "already approved" in again["error"]
    other = con.execute("SELECT timecard_id FROM clockshark.timesheets WHERE status = 'submitted' "
                        "ORDER BY timecard_id LIMIT 1").fetchone()[0]

    def outcome(timecard: str, **assignments: str) -> str:
        res = comp.write(lambda g: g.update_where("clockshark.timesheets", f"timecard_id = '{timecard}'", assignments))
        return res.get("rule") or ("ok" if res["ok"] else res["error"])

    assert outcome(exported, regular_hours="1") == "clockshark.exported_timecard_locked"
    assert outcome(other, exported_to_payroll="true") == "clockshark.export_by_integration"
    assert outcome(other, status="'OK'") == "clockshark.status_vocabulary"
    assert outcome(other, overtime_hours="20", regular_hours="8") == "clockshark.hours_in_a_day"
    assert outcome(other, regular_hours="7.5") == "ok"
