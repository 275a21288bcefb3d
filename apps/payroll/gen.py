"""Generate each payroll system's DDL, projection views, entity projections and write rules from its dialect.

``python -m cfab.apps.payroll.gen`` (re)writes, for every payroll vendor:
  schema/<app>.sql, views/<app>.sql, views/entities/<app>.sql, triggers/rules/<app>.toml.
The files are committed; ``tests/apps/payroll`` checks they match this generator, so the native
schema, the views, the rules and the tools (which read the same dialect) never drift apart.

The first part renders an archetype written as a model (``Table``/``Column``: DDL with column
notes, one INSERT ... SELECT per table) on top of :mod:`cfab.apps.codegen` (archetype SQL for one
vendor, rule files, writing the outputs); ``cfab.apps.fieldtime.gen`` uses it too. The second
part is the payroll archetype's: its vendor pieces and its rules.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from sqlglot import exp

from cfab.apps.codegen import (
    ALL_OPS,
    ROOT,
    VendorSql,
    entities_sql,
    lit,
    main_for,
    rule,
    rules_toml,
    sql_comments,
    sql_text,
    vendor_outputs,
)
from cfab.apps.contract import Artifacts
from cfab.apps.payroll.base import IMPORT_HOURS, OT_FACTOR
from cfab.apps.payroll.dialects import DIALECTS, DatedBatchIds, PayrollDialect
from cfab.apps.payroll.model import ENTITIES, PROJECTIONS, TABLES, Column, Table


# =============================================================================================
# An archetype written as a model (Table/Column) plus SQL, rendered for one vendor: the DDL with
# its column notes and one INSERT ... SELECT per table (cfab.apps.codegen holds the rest)
# =============================================================================================
def comment_lines(text: str, width: int = 110) -> list[str]:
    """``text`` as SQL comment lines of at most ``width`` characters."""
    return sql_comments(textwrap.wrap(text, width - 3))


def qualified_column(name: str, table: str, schema: str) -> exp.Column:
    """``schema.table.name``: a column of the row an assertion checks, inside a subquery."""
    return exp.column(name, table=table, db=schema)


def column_note(c: Column, words: Mapping[str, str]) -> str:
    if c.words:
        return " | ".join(f"'{words[w]}'" for w in c.words)
    return c.note


def ddl(d: VendorSql, model: Sequence[Table], header: Iterable[str], words: Mapping[str, str], label: str) -> str:
    """CREATE SCHEMA and one CREATE TABLE per model table, each column with its note."""
    lines = [
        *header,
        "",
        sql_text(exp.Create(kind="SCHEMA", this=exp.Table(this=exp.to_identifier(d.schema)), exists=True)) + ";",
        "",
    ]
    for t in model:
        names = {c.name: sql_text(exp.to_identifier(c.name)) for c in t.columns}
        width = max(len(n) for n in names.values())
        body: list[tuple[str, str]] = []
        for c in t.columns:
            kind = sql_text(exp.DataType.build(c.type, dialect="duckdb"))
            text = f"    {names[c.name].ljust(width)} {kind}{' NOT NULL' if c.required else ''},"
            body.append((text, column_note(c, words).replace("{label}", label)))
        key = exp.PrimaryKey(expressions=[exp.to_identifier(k) for k in t.primary_key])
        body.append(("    " + sql_text(key), ""))
        noted = max(len(text) for text, note in body if note) if any(note for _, note in body) else 0
        lines += comment_lines(t.comment)
        lines.append(f"CREATE TABLE {sql_text(d.table(t.name))} (")
        lines += [(text.ljust(noted) + f"  -- {note}") if note else text for text, note in body]
        lines += [");", ""]
    return "\n".join(lines)


def projection_sql(
    d: VendorSql, model: Sequence[Table], projections: Mapping[str, tuple[str, str]], header: Iterable[str]
) -> str:
    """One INSERT ... SELECT per model table, the archetype's SELECT rendered for the vendor."""
    out = [*header, ""]
    for t in model:
        comment, select = projections[t.name]
        insert = exp.insert(d.render(select), d.table(t.name), columns=t.column_names)
        native = d.tables[t.name]
        title = native if native == t.name else f"{native} ({t.name})"
        out += comment_lines(f"{title}: {comment}" if comment else title)
        out += [insert.sql(dialect="duckdb", pretty=True) + ";", ""]
    return "\n".join(out)


# =============================================================================================
# Payroll
# =============================================================================================
def batch_id(d: PayrollDialect, book_batch_id: exp.Expr, period_end: exp.Expr) -> exp.Expr:
    """The vendor's id of a pay batch, from the book's batch id and the batch's period end."""
    f = d.batch_ids
    if isinstance(f, DatedBatchIds):
        return exp.DPipe(this=lit(f.prefix), expression=exp.func("strftime", period_end, lit(f.date_format)))
    return exp.func(
        "substr",
        exp.func("md5", exp.DPipe(this=lit(f.namespace), expression=book_batch_id)),
        exp.Literal.number(1),
        exp.Literal.number(f.length),
    )


def remittance_id(d: PayrollDialect, local: exp.Expr, month: exp.Expr) -> exp.Expr:
    """The vendor's id of a fringe remittance: prefix + the month's ``%Y%m`` + '-' + the local
    (``RemittanceIds.of`` in Python)."""
    return exp.DPipe(
        this=exp.DPipe(
            this=exp.DPipe(this=lit(d.remittance_ids.prefix), expression=exp.func("strftime", month, lit("%Y%m"))),
            expression=lit("-"),
        ),
        expression=local,
    )


def system_job_id(system: str, job_number: exp.Expr) -> exp.Expr:
    """``book.system_job_id(system, job_number)``: how ``system`` spells a job number."""
    return exp.Dot(
        this=exp.to_identifier("book"),
        expression=exp.Anonymous(this="system_job_id", expressions=[lit(system), job_number]),
    )


def vendor_sql(d: PayrollDialect) -> VendorSql:
    words = asdict(d.words)
    return VendorSql(
        schema=d.app,
        tables=asdict(d.tables),
        functions={
            "job_id": lambda job_number: system_job_id(d.job_system, job_number),
            "batch_id": lambda book_id, period_end: batch_id(d, book_id, period_end),
            "remittance_id": lambda local, month: remittance_id(d, local, month),
        },
        values={"system": lit(d.app), "job_system": lit(d.job_system), **{k: lit(v) for k, v in words.items()}},
    )


def _status(alias: str) -> exp.Expr:
    """lower(trim(<alias>.status)): a status word compared case- and space-insensitively."""
    return exp.func("lower", exp.func("trim", exp.column("status", table=alias)))


def rules(d: PayrollDialect) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The gate's rules and assertions: released payroll is final (releasing it is guarded), paying is
    guarded, hours come from the field, and an earnings line's gross is its hours at its rate."""
    v, s, released = vendor_sql(d), d.app, d.words.batch_released
    batches, earnings, hours, payments, remittances = (
        sql_text(v.table(n)) for n in ("batches", "earnings", "hours", "payments", "remittances")
    )
    is_released = lit(released.lower())
    became_released = exp.and_(
        exp.EQ(this=_status("new"), expression=is_released),
        exp.not_(exp.func("coalesce", exp.EQ(this=_status("old"), expression=is_released), exp.false())),
    )
    locked = f"{s}.released_batch_locked"
    paid = lit(d.words.remittance_paid.lower())
    became_paid = exp.and_(
        exp.EQ(this=_status("new"), expression=paid),
        exp.not_(exp.func("coalesce", exp.EQ(this=_status("old"), expression=paid), exp.false())),
    )
    rs = [
        rule(
            f"{s}.release_payroll",
            batches,
            "guard",
            "releasing payroll pays employees and needs a human approver.",
            on=["update", "insert"],
            when=sql_text(became_released),
            guarded_kind="payroll",
        ),
        rule(
            locked,
            batches,
            "reject",
            f"payroll {{batch_id}} is released ({released}) and cannot be changed; corrections go in a new batch",
            fact=sql_text(exp.EQ(this=_status("row"), expression=is_released)),
        ),
        rule(
            f"{s}.released_earnings_locked",
            earnings,
            "reject",
            "earnings of released payroll {batch_id} cannot be changed",
            parent=(
                locked,
                sql_text(
                    exp.EQ(this=exp.column("batch_id", table="parent"), expression=exp.column("batch_id", table="row"))
                ),
            ),
        ),
        {
            "id": f"{s}.hours_from_field",
            "table": hours,
            "on": ALL_OPS,
            "except_in": [IMPORT_HOURS],  # the hours import (base.py) is the one writer
            "action": "reject",
            "message": "hours are imported from the field-time system; correct the timecard there",
        },
        rule(
            f"{s}.payment_issue",
            payments,
            "guard",
            "issuing a paycheck or direct deposit pays an employee and needs a human approver.",
            on=["insert"],
            guarded_kind="payroll",
        ),
        rule(
            f"{s}.payments_final",
            payments,
            "reject",
            "payment to {employee_id} in {batch_id} was issued and cannot be changed; void it from a human session",
            on=["update", "delete"],
            partial=f"an INSERT here is issuing a payment, which {s}.payment_issue stages for a human "
            f"(a guard, not a lock)",
        ),
        rule(
            f"{s}.remittance_pay",
            remittances,
            "guard",
            "paying a union fringe remittance moves money to the local's benefit funds and needs a human approver.",
            on=["update", "insert"],
            when=sql_text(became_paid),
            guarded_kind="payment",
        ),
        rule(
            f"{s}.paid_remittance_locked",
            remittances,
            "reject",
            f"remittance {{remittance_id}} is paid ({d.words.remittance_paid}) and cannot be changed; "
            f"a correction is a new remittance",
            fact=sql_text(exp.EQ(this=_status("row"), expression=paid)),
        ),
    ]
    released_batch_of_line = (
        exp.select(exp.Literal.number(1))
        .from_(v.table("batches", "b"))
        .where(
            exp.and_(
                exp.EQ(
                    this=exp.column("batch_id", table="b"),
                    expression=qualified_column("batch_id", d.tables.earnings, s),
                ),
                exp.EQ(this=exp.column("status", table="b"), expression=lit(released)),
            )
        )
    )
    regular, overtime, rate = (exp.column(c) for c in ("regular_hours", "overtime_hours", "rate"))
    gross = exp.Add(
        this=exp.Mul(this=regular, expression=rate),
        expression=exp.Mul(this=exp.Mul(this=overtime, expression=rate), expression=exp.Literal.number(str(OT_FACTOR))),
    )
    line_key = ["batch_id", "employee_id", "job_id"]
    asserts = [
        {
            "id": f"{s}.no_lines_added_to_released_payroll",
            "table": earnings,
            "group_by": line_key,
            "check": sql_text(exp.not_(exp.Exists(this=released_batch_of_line))),
            "message": f"payroll {{batch_id}} is released ({released}): earnings cannot be added to it",
        },
        {
            "id": f"{s}.earnings_gross",
            "table": earnings,
            "group_by": line_key,
            "check": sql_text(
                exp.Anonymous(
                    this="bool_and",
                    expressions=[
                        exp.EQ(this=exp.column("gross_pay"), expression=exp.func("round", gross, exp.Literal.number(2)))
                    ],
                )
            ),
            "message": f"earnings line {{batch_id}}/{{employee_id}}/{{job_id}}: gross_pay must be regular_hours x rate "
            f"+ overtime_hours x {OT_FACTOR} x rate",
        },
    ]
    return rs, asserts


GENERATED = (
    "GENERATED by cfab.apps.payroll.gen from the payroll archetype (cfab/apps/payroll/model.py, gen.py) "
    "and this vendor's dialect (dialects.py); edit those and regenerate, never this file."
)


def render(d: PayrollDialect) -> dict[str, str]:
    """The four files of one payroll vendor, by kind: schema, views, entities, rules."""
    v = vendor_sql(d)
    schema = ddl(
        v,
        TABLES,
        [
            f"-- {d.app}: {d.label}. Employees, prevailing-wage rate tables per job, hours imported from the",
            "-- field-time systems (approved timecards per employee/week/job), pay batches, earnings lines,",
            "-- the checks / direct deposits of released batches and union fringe remittances. Releasing",
            "-- payroll and paying a remittance are guarded.",
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
            f"-- {d.app}: projection of the book's people, time and payroll tables.",
            f"-- Employee ids come from book.employee_identities (system '{d.app}'); jobs are numbered as",
            f"-- book.system_job_id('{d.job_system}', job) spells them. No divergence is honoured here: the payroll",
            "-- system agrees with the book (certified-payroll exceptions live in the certified-payroll app).",
            "-- The open (clock-week) batch has no earnings until it is staged from approved hours.",
            *comment_lines(GENERATED),
        ],
    )
    entities = entities_sql(
        v,
        ENTITIES,
        [
            f"-- {d.app}: consistency-check projections (employee ids resolved through hh2.employee_map,",
            f"-- job ids through hh2.job_map as '{d.job_system}' spells them).",
            *comment_lines(GENERATED),
        ],
    )
    rs, asserts = rules(d)
    rules_text = rules_toml(
        [
            f"# {d.app} ({d.label}): released payroll is final; releasing is guarded; hours come from the field.",
            "# Assertions are checked once per call over the batches it touched (cheaper than a per-row insert rule).",
            *("#" + line.removeprefix("--") for line in comment_lines(GENERATED)),
        ],
        rs,
        asserts,
    )
    return {"schema": schema, "views": views, "entities": entities, "rules": rules_text}


def artifacts(d: PayrollDialect) -> Artifacts:
    """What a vendor defined outside the committed ones (a test's, a plug-in's) carries as its
    ``ARTIFACTS``: the same four texts, not written to files."""
    return Artifacts(**render(d))


def outputs(root: Path = ROOT) -> dict[Path, str]:
    return vendor_outputs(DIALECTS, render, root)


if __name__ == "__main__":
    sys.exit(main_for(outputs, sys.argv[1:]))
