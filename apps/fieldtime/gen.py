"""Generate each field-time app's DDL, projection views, entity projections and write rules from its dialect.

``python -m cfab.apps.fieldtime.gen`` (re)writes, for every field-time vendor:
  schema/<app>.sql, views/<app>.sql, views/entities/<app>.sql, triggers/rules/<app>.toml.
The files are committed; ``tests/apps/fieldtime`` checks they match this generator, so the native
schema, the views, the rules and the tools (which read the same dialect) never drift apart.
"""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from sqlglot import exp

from cfab.apps.codegen import ROOT, VendorSql, entities_sql, lit, main_for, rule, rules_toml, sql_text, vendor_outputs
from cfab.apps.contract import Artifacts
from cfab.apps.fieldtime.dialects import DIALECTS, FieldTimeDialect, HashedIds, IdFormat, UuidIds
from cfab.apps.fieldtime.model import ENTITIES, PROJECTIONS, TABLES
from cfab.apps.payroll.gen import comment_lines, ddl, projection_sql, system_job_id

UUID_GROUPS = ((1, 8), (9, 4), (13, 4), (17, 4), (21, 12))  # (start, length) of each md5 group


def _md5(namespace: str, key: exp.Expr) -> exp.Expr:
    return exp.func("md5", exp.DPipe(this=lit(namespace), expression=key))


def record_id(d: FieldTimeDialect, ids: IdFormat, key: exp.Expr) -> exp.Expr:
    """The vendor's id of a book record with key ``key`` (a job number, job:trade, a timecard id)."""
    if isinstance(ids, HashedIds):
        digits = exp.func("substr", _md5(ids.namespace, key), exp.Literal.number(1), exp.Literal.number(ids.length))
        return exp.DPipe(this=lit(ids.prefix), expression=digits)
    if isinstance(ids, UuidIds):
        groups = [
            exp.func("substr", _md5(ids.namespace, key), exp.Literal.number(start), exp.Literal.number(n))
            for start, n in UUID_GROUPS
        ]
        uuid: exp.Expr = groups[0]
        for g in groups[1:]:
            uuid = exp.DPipe(this=exp.DPipe(this=uuid, expression=lit("-")), expression=g)
        return exp.paren(uuid)
    return system_job_id(d.app, key)


def vendor_sql(d: FieldTimeDialect) -> VendorSql:
    return VendorSql(
        schema=d.app,
        tables=asdict(d.tables),
        functions={
            "job_number": lambda job: system_job_id(d.app, job),
            "project_id": lambda job: record_id(d, d.project_ids, job),
            "crew_id": lambda key: record_id(d, d.crew_ids, key),
            "timecard_id": lambda key: record_id(d, d.timecard_ids, key),
            "equipment_id": lambda key: record_id(d, d.equipment_ids, key),
            "equipment_log_id": lambda key: record_id(d, d.equipment_log_ids, key),
        },
        values={"system": lit(d.app), **{k: lit(v) for k, v in asdict(d.words).items()}},
    )


def _vocabulary(rule_id: str, table: str, column: str, words: list[str], what: str, row: str) -> dict[str, Any]:
    """A reject rule: ``column`` of a ``row`` written to ``table`` is one of ``words`` (``what`` is
    how the message names the column)."""
    return rule(
        rule_id,
        table,
        "reject",
        f"{what} is " + " or ".join(f"'{x}'" for x in words),
        on=["insert", "update"],
        partial=f"validates the {column.replace('_', ' ')} {row} is written with; a DELETE writes none",
        when=sql_text(exp.not_(exp.In(this=exp.column(column, table="new"), expressions=[lit(x) for x in words]))),
    )


def _per_row(assert_id: str, table: str, key: str, check: exp.Expr, message: str) -> dict[str, Any]:
    """An assertion that ``check`` holds on every row written to ``table`` (grouped by its key)."""
    return {
        "id": assert_id,
        "table": table,
        "group_by": [key],
        "check": sql_text(exp.Anonymous(this="bool_and", expressions=[check])),
        "message": message,
    }


def rules(d: FieldTimeDialect) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The gate's rules: approved timecards exported to payroll are locked (exporting is the
    integration's), a timecard's status is one of the two words, its hours fit in a day, and an
    equipment log is operating or idle, for some hours of one day."""
    s, w = d.app, d.words
    timecards = sql_text(vendor_sql(d).table("timecards"))
    logs = sql_text(vendor_sql(d).table("equipment_logs"))
    exported = {alias: exp.column("exported_to_payroll", table=alias) for alias in ("new", "old", "row")}
    rs = [
        rule(
            f"{s}.export_by_integration",
            timecards,
            "reject",
            "timecards are exported to payroll by the nightly payroll export, not by edits",
            on=["insert", "update"],
            partial=f"the transition into exported, named for its message; {s}.exported_timecard_locked "
            f"covers every operation",
            when=sql_text(exp.and_(exported["new"], exp.not_(exp.func("coalesce", exported["old"], exp.false())))),
        ),
        rule(
            f"{s}.exported_timecard_locked",
            timecards,
            "reject",
            "timecard {timecard_id} was approved and exported to payroll on {exported_at}; it cannot change here "
            "(correct it with an adjustment in payroll)",
            fact=sql_text(exp.func("coalesce", exported["row"], exp.false())),
        ),
        _vocabulary(
            f"{s}.status_vocabulary",
            timecards,
            "status",
            [w.timecard_pending, w.timecard_approved],
            "a timecard status",
            "a timecard",
        ),
        _vocabulary(
            f"{s}.equipment_hour_type_vocabulary",
            logs,
            "hour_type",
            [w.hours_operating, w.hours_idle],
            "an equipment log's hour type",
            "a log",
        ),
    ]
    regular, overtime, hours = exp.column("regular_hours"), exp.column("overtime_hours"), exp.column("hours")
    zero, day = exp.Literal.number(0), exp.Literal.number(24)
    asserts = [
        _per_row(
            f"{s}.hours_in_a_day",
            timecards,
            "timecard_id",
            exp.and_(
                exp.GTE(this=regular, expression=zero),
                exp.GTE(this=overtime, expression=zero),
                exp.LTE(this=exp.Add(this=regular, expression=overtime), expression=day),
            ),
            "timecard {timecard_id}: hours must be between 0 and 24 in a day",
        ),
        _per_row(
            f"{s}.equipment_hours_in_a_day",
            logs,
            "log_id",
            exp.and_(exp.GT(this=hours, expression=zero), exp.LTE(this=hours, expression=day)),
            "equipment log {log_id}: hours must be more than 0 and at most 24 in a day",
        ),
    ]
    return rs, asserts


GENERATED = (
    "GENERATED by cfab.apps.fieldtime.gen from the field-time archetype (cfab/apps/fieldtime/model.py, "
    "gen.py) and this vendor's dialect (dialects.py); edit those and regenerate, never this file."
)


def render(d: FieldTimeDialect) -> dict[str, str]:
    """The four files of one field-time vendor, by kind: schema, views, entities, rules."""
    v = vendor_sql(d)
    schema = ddl(
        v,
        TABLES,
        [
            f"-- {d.app}: {d.label}, the field time-tracking app. Projects and their cost codes, workers and",
            "-- crews, and the daily timecards the crews enter; a supervisor approves them and approved cards",
            "-- are exported to payroll (then they are locked). The crews also log the hours of the equipment",
            "-- units they use, per day, project and cost code, working or standing by.",
            *comment_lines(GENERATED),
        ],
        asdict(d.words),
        d.label,
    )
    views = projection_sql(
        v,
        TABLES,
        PROJECTIONS,
        [
            f"-- {d.app}: projection of the book's timecards whose source system is {d.app}, with the projects,",
            "-- cost codes, workers and crews they use. Worker ids come from book.employee_identities (system",
            f"-- '{d.app}'). Approved cards have been exported to payroll (the payroll apps hold their hours):",
            "-- approved at 18:00 on the work day, exported by the nightly run (on the clock day: at midday).",
            f"-- The equipment units whose hours {d.label}'s crews log, with those logs (book.equipment_hours);",
            "-- a unit's hourly rate is the one keyed at setup (divergence equipment_rate_stale).",
            *comment_lines(GENERATED),
        ],
    )
    entities = entities_sql(
        v,
        ENTITIES,
        [
            f"-- {d.app}: consistency projections (ids resolved through hh2.employee_map / hh2.job_map).",
            *comment_lines(GENERATED),
        ],
    )
    rs, asserts = rules(d)
    rules_text = rules_toml(
        [
            f"# {d.app} ({d.label}): approved timecards exported to payroll are locked; hours stay in a day.",
            *("#" + line.removeprefix("--") for line in comment_lines(GENERATED)),
        ],
        rs,
        asserts,
    )
    return {"schema": schema, "views": views, "entities": entities, "rules": rules_text}


def artifacts(d: FieldTimeDialect) -> Artifacts:
    """What a vendor defined outside the committed ones (a test's, a plug-in's) carries as its
    ``ARTIFACTS``: the same four texts, not written to files."""
    return Artifacts(**render(d))


def outputs(root: Path = ROOT) -> dict[Path, str]:
    return vendor_outputs(DIALECTS, render, root)


if __name__ == "__main__":
    sys.exit(main_for(outputs, sys.argv[1:]))
