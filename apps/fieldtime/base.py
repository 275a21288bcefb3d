"""FieldTime archetype: projects, cost codes, workers, crews and daily timecards; supervisors
approve timecards (a normal write); approved cards exported to payroll are locked. The crews also
log equipment hours (per unit, project, cost code and day, working or standing by), read here.

Written once in :class:`FieldTimeApp`; each vendor is a dialect (``cfab.apps.fieldtime.dialects``):
table names, status words, id formats, example ids and native tool names.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import Field
from sqlglot import exp

from cfab.apps.contract import App
from cfab.apps.fieldtime.dialects import FieldTimeDialect
from cfab.apps.kit import date_range, ieq
from cfab.apps.tooling import ToolArgs, ToolError, tool
from cfab.schema.sqlbuild import col, literal

MAX_ROWS = 500
DEFAULT_APPROVER = "payroll@companyA.com"  # who approves when no approver is named


def week_ending(day: date) -> date:
    """The Saturday ending the Sunday–Saturday week of ``day``."""
    return day + timedelta(days=(5 - day.weekday()) % 7)


class ProjectsArgs(ToolArgs):
    status: Literal["active", "inactive", "all"] = Field("active", description="Project status", examples=["active"])


class CostCodesArgs(ToolArgs):
    project: str = Field(..., description="Project id or company job number", examples=["1042"])


class WorkersArgs(ToolArgs):
    trade: str | None = Field(None, description="Trade", examples=["Electrician"])
    name_contains: str | None = Field(None, description="Case-insensitive part of the name", examples=["lopez"])
    project: str | None = Field(
        None, description="Only workers with timecards on this project (id or job number)", examples=["1042"]
    )


class TimecardsArgs(ToolArgs):
    project: str | None = Field(None, description="Project id or company job number", examples=["1042"])
    worker: str | None = Field(None, description="Worker (employee) id", examples=["RX-1001"])
    date_from: date | None = Field(None, description="First work date (ISO)", examples=["2026-01-25"])
    date_to: date | None = Field(None, description="Last work date (ISO)", examples=["2026-01-31"])
    approved: bool | None = Field(None, description="true: approved only; false: pending only", examples=[False])
    cost_code: str | None = Field(None, description="Cost code", examples=["26-100"])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[200])


class TimecardGetArgs(ToolArgs):
    timecard_id: str = Field(..., description="Timecard id", examples=["te_3f9a0c12d4e5b6a7"])


class ApproveArgs(ToolArgs):
    timecard_id: str = Field(..., description="The pending timecard to approve", examples=["te_3f9a0c12d4e5b6a7"])
    approver: str | None = Field(None, description="Approving supervisor (default: you)", examples=["Sam Super"])


class ApproveManyArgs(ToolArgs):
    timecard_ids: list[str] = Field(
        ...,
        min_length=1,
        max_length=MAX_ROWS,
        description="The pending timecards to approve",
        examples=[["te_3f9a0c12d4e5b6a7"]],
    )
    approver: str | None = Field(None, description="Approving supervisor (default: you)", examples=["Sam Super"])


class SummaryArgs(ToolArgs):
    project: str | None = Field(None, description="Project id or company job number", examples=["1042"])
    week_ending: date | None = Field(None, description="Week-ending Saturday (ISO)", examples=["2026-01-24"])
    worker: str | None = Field(None, description="Worker (employee) id", examples=["RX-1001"])
    include_pending: bool = Field(False, description="Also count pending (unapproved) timecards", examples=[False])


class EquipmentArgs(ToolArgs):
    status: Literal["active", "inactive", "all"] = Field("active", description="Unit status", examples=["active"])


class EquipmentLogsArgs(ToolArgs):
    project: str | None = Field(None, description="Project id or company job number", examples=["1042"])
    equipment: str | None = Field(None, description="Equipment id or unit number", examples=["EX-104"])
    date_from: date | None = Field(None, description="First work date (ISO)", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Last work date (ISO)", examples=["2026-01-31"])
    hour_type: str | None = Field(None, description="Working or standing-by hours only", examples=["operating"])
    cost_code: str | None = Field(None, description="Cost code", examples=["31-230"])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[200])


class EquipmentSummaryArgs(ToolArgs):
    date_from: date | None = Field(None, description="First work date (ISO)", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Last work date (ISO)", examples=["2026-01-31"])
    project: str | None = Field(None, description="Project id or company job number", examples=["1042"])
    equipment: str | None = Field(None, description="Equipment id or unit number", examples=["EX-104"])


class FieldTimeApp(App):
    """A field time-tracking app: the tools written once, each vendor's tables and words read from its
    dialect ``D``.

    A vendor is a subclass that sets ``D`` (``cfab.apps.fieldtime.dialects``); its app name, label
    and native tool names come from the dialect."""

    archetype = "FieldTime"
    kind: ClassVar[str] = "field_time"
    D: ClassVar[FieldTimeDialect]
    # The names tests/apps/money reads (outside this archetype's files), set from D; the tools read D.
    T_TC: ClassVar[str]
    PENDING: ClassVar[str]
    APPROVED: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        d = cls.__dict__.get("D")
        if d is not None:
            cls.name, cls.label, cls.TOOL_NAMES = d.app, d.label, dict(d.tool_names)
            cls.T_TC, cls.PENDING, cls.APPROVED = (
                d.tables.timecards,
                d.words.timecard_pending,
                d.words.timecard_approved,
            )

    # ------------------------------------------------------------------ helpers
    def _project(self, ref: str | None) -> dict[str, Any] | None:
        if ref is None:
            return None
        ref = ref.strip()
        projects = self.D.tables.projects
        rows = self.select(projects, {"project_id": ref}) or self.select(projects, {"job_number": ref})
        if not rows:
            raise ToolError(f"no project {ref!r} in {self.label}", "not_found")
        return rows[0]

    def _project_id(self, ref: str | None) -> str | None:
        p = self._project(ref)
        return p["project_id"] if p else None

    # ------------------------------------------------------------------ integration (peer apps)
    def approved_hours(self, week_ending: date, project: str | None = None) -> list[dict[str, Any]]:
        """Approved hours per worker, project and cost code for one week (what the payroll export sends)."""
        return self.payroll_export_summary(SummaryArgs(week_ending=week_ending, project=project))["rows"]

    # ------------------------------------------------------------------ reads
    @tool("projects.list")
    def projects_list(self, args: ProjectsArgs) -> dict[str, Any]:
        """List projects in $label.

        Args:
            status: "active" (default), "inactive" or "all".

        Returns {"projects": [{project_id, job_number, name, superintendent, city, state, status}], "count": n}.
        """
        status = {"active": self.D.words.record_active, "inactive": self.D.words.record_inactive}.get(args.status)
        rows = self.select(self.D.tables.projects, {"status": status}, order_by=["job_number"])
        return {"projects": rows, "count": len(rows)}

    @tool("cost_codes.list")
    def cost_codes_list(self, args: CostCodesArgs) -> dict[str, Any]:
        """List the cost codes enabled on a project in $label.

        Args:
            project: project id or job number, e.g. "1042".

        Returns {"project_id", "cost_codes": [{cost_code, description}], "count": n}.
        """
        pid = self._project_id(args.project)
        rows = self.select(
            self.D.tables.cost_codes, {"project_id": pid}, columns=["cost_code", "description"], order_by=["cost_code"]
        )
        return {"project_id": pid, "cost_codes": rows, "count": len(rows)}

    @tool("workers.list")
    def workers_list(self, args: WorkersArgs) -> dict[str, Any]:
        """List field workers in $label.

        Args:
            trade: e.g. "Electrician".
            name_contains: part of the name, e.g. "lopez".
            project: only workers with timecards on this project, e.g. "1042".

        Returns {"workers": [{employee_id, first_name, last_name, trade, classification, level, union_local,
        status}], "count": n}.
        """
        extras: list[exp.Expr] = []
        if args.name_contains:
            full = exp.DPipe(
                this=exp.DPipe(this=col("first_name"), expression=literal(" ")), expression=col("last_name")
            )
            extras.append(exp.ILike(this=full, expression=literal(f"%{args.name_contains}%")))
        if args.project:
            pid = self._project_id(args.project)
            sub = (
                exp.select(col("employee_id"))
                .from_(self.tbl(self.D.tables.timecards).table_expr())
                .where(exp.EQ(this=col("project_id"), expression=literal(pid)))
            )
            extras.append(exp.In(this=col("employee_id"), query=sub.subquery()))
        rows = self.select(
            self.D.tables.workers,
            {"trade": args.trade},
            extra=exp.and_(*extras) if extras else None,
            order_by=["last_name", "first_name", "employee_id"],
        )
        return {"workers": rows, "count": len(rows)}

    @tool("crews.list")
    def crews_list(self, args: CostCodesArgs) -> dict[str, Any]:
        """List the crews of a project in $label with their members.

        Args:
            project: project id or job number, e.g. "1042".

        Returns {"crews": [{crew_id, name, trade, foreman_employee_id, members: [employee_id, ...]}], "count": n}.
        """
        pid = self._project_id(args.project)
        crews = self.select(self.D.tables.crews, {"project_id": pid}, order_by=["name", "crew_id"])
        members: dict[str, set[str]] = defaultdict(set)
        for r in self.select(self.D.tables.timecards, {"project_id": pid}, columns=["crew_id", "employee_id"]):
            members[r["crew_id"]].add(r["employee_id"])
        out = [dict(c, members=sorted(members.get(c["crew_id"], ()))) for c in crews]
        return {"crews": out, "count": len(out)}

    @tool("timecards.list")
    def timecards_list(self, args: TimecardsArgs) -> dict[str, Any]:
        """List timecards in $label.

        Args:
            project: project id or job number, e.g. "1042".
            worker: worker id, e.g. "$example_worker".
            date_from: first work date, e.g. "2026-01-25".
            date_to: last work date, e.g. "2026-01-31".
            approved: true for approved only, false for pending only.
            cost_code: e.g. "26-100".
            limit: most rows, e.g. 200 (default 500).

        Returns {"timecards": [{timecard_id, employee_id, project_id, crew_id, cost_code, work_date, regular_hours,
        overtime_hours, status, approved_by, approved_at, exported_to_payroll, exported_at}], "count": n,
        "truncated": bool}.
        """
        if args.date_from and args.date_to and args.date_from > args.date_to:
            raise ToolError(f"date_from {args.date_from} is after date_to {args.date_to}")
        words = self.D.words
        status = None
        if args.approved is not None:
            status = words.timecard_approved if args.approved else words.timecard_pending
        parts: list[exp.Expr] = []
        if args.date_from:
            parts.append(exp.GTE(this=col("work_date"), expression=literal(args.date_from, "DATE")))
        if args.date_to:
            parts.append(exp.LTE(this=col("work_date"), expression=literal(args.date_to, "DATE")))
        rows = self.select(
            self.D.tables.timecards,
            {
                "project_id": self._project_id(args.project),
                "employee_id": args.worker,
                "status": status,
                "cost_code": args.cost_code,
            },
            extra=exp.and_(*parts) if parts else None,
            order_by=["work_date", "project_id", "employee_id", "timecard_id"],
            limit=args.limit + 1,
        )
        return {
            "timecards": rows[: args.limit],
            "count": min(len(rows), args.limit),
            "truncated": len(rows) > args.limit,
        }

    @tool("timecards.get")
    def timecards_get(self, args: TimecardGetArgs) -> dict[str, Any]:
        """Get one timecard from $label with its worker and project.

        Args:
            timecard_id: e.g. "$example_timecard".

        Returns {"timecard": {...}, "worker": {...}, "project": {...}}.
        """
        tc = self.require(self.D.tables.timecards, "timecard", timecard_id=args.timecard_id.strip())
        worker = self.select(self.D.tables.workers, {"employee_id": tc["employee_id"]})
        project = self.select(self.D.tables.projects, {"project_id": tc["project_id"]})
        return {"timecard": tc, "worker": worker[0] if worker else None, "project": project[0] if project else None}

    @tool("payroll_export.summary")
    def payroll_export_summary(self, args: SummaryArgs) -> dict[str, Any]:
        """Summarise hours per worker, week and cost code: what the payroll export sends.

        Args:
            project: project id or job number, e.g. "1042".
            week_ending: the Saturday ending the week, e.g. "2026-01-24".
            worker: worker id, e.g. "$example_worker".
            include_pending: also count pending timecards (default false: approved only).

        Returns {"rows": [{employee_id, week_ending, project_id, job_number, cost_code, regular_hours,
        overtime_hours, timecards, exported}], "count": n, "total_regular": "...", "total_overtime": "..."}.
        """
        parts = []
        if args.week_ending:
            parts += [
                exp.GTE(this=col("work_date"), expression=literal(args.week_ending - timedelta(days=6), "DATE")),
                exp.LTE(this=col("work_date"), expression=literal(args.week_ending, "DATE")),
            ]
        status = None if args.include_pending else self.D.words.timecard_approved
        cards = self.select(
            self.D.tables.timecards,
            {"project_id": self._project_id(args.project), "employee_id": args.worker, "status": status},
            extra=exp.and_(*parts) if parts else None,
            order_by=["work_date", "timecard_id"],
        )
        jobs = {p["project_id"]: p["job_number"] for p in self.select(self.D.tables.projects)}
        acc: dict[tuple, dict[str, Any]] = {}
        for c in cards:
            key = (c["employee_id"], week_ending(c["work_date"]), c["project_id"], c["cost_code"])
            row = acc.setdefault(
                key,
                {
                    "employee_id": key[0],
                    "week_ending": key[1],
                    "project_id": key[2],
                    "job_number": jobs.get(key[2]),
                    "cost_code": key[3],
                    "regular_hours": Decimal("0.00"),
                    "overtime_hours": Decimal("0.00"),
                    "timecards": 0,
                    "exported": True,
                },
            )
            row["regular_hours"] += c["regular_hours"]
            row["overtime_hours"] += c["overtime_hours"]
            row["timecards"] += 1
            row["exported"] = row["exported"] and bool(c["exported_to_payroll"])
        rows = [acc[k] for k in sorted(acc, key=lambda k: (k[1], k[0], k[2], k[3]))]
        return {
            "rows": rows,
            "count": len(rows),
            "total_regular": sum((r["regular_hours"] for r in rows), Decimal("0.00")),
            "total_overtime": sum((r["overtime_hours"] for r in rows), Decimal("0.00")),
        }

    # ------------------------------------------------------------------ equipment
    def _equipment_id(self, ref: str | None) -> str | None:
        if ref is None:
            return None
        ref = ref.strip()
        table = self.D.tables.equipment
        rows = self.select(table, {"equipment_id": ref}) or self.select(table, extra=ieq("equipment_number", ref))
        if not rows:
            raise ToolError(f"no equipment {ref!r} in {self.label}", "not_found")
        return rows[0]["equipment_id"]

    def _hour_type(self, kind: str | None) -> str | None:
        if kind is None:
            return None
        words = self.D.words
        k = kind.strip().lower()
        if k in ("operating", words.hours_operating.lower()):
            return words.hours_operating
        if k in ("idle", words.hours_idle.lower()):
            return words.hours_idle
        raise ToolError(
            f"hour_type is {words.hours_operating!r} (operating) or {words.hours_idle!r} (idle), not {kind!r}",
            "invalid_argument",
        )

    def _equipment_logs(
        self,
        project: str | None,
        equipment: str | None,
        date_from: date | None,
        date_to: date | None,
        **where: Any,
    ) -> list[dict[str, Any]]:
        """Logs matching the filters, oldest first, each with its unit number and job number."""
        if date_from and date_to and date_from > date_to:
            raise ToolError(f"date_from {date_from} is after date_to {date_to}")
        rows = self.select(
            self.D.tables.equipment_logs,
            {"project_id": self._project_id(project), "equipment_id": self._equipment_id(equipment), **where},
            extra=date_range("work_date", date_from, date_to),
            order_by=["work_date", "equipment_id", "project_id", "log_id"],
        )
        units = {u["equipment_id"]: u["equipment_number"] for u in self.select(self.D.tables.equipment)}
        jobs = {p["project_id"]: p["job_number"] for p in self.select(self.D.tables.projects)}
        return [
            {**r, "equipment_number": units.get(r["equipment_id"]), "job_number": jobs.get(r["project_id"])}
            for r in rows
        ]

    @tool("equipment.list")
    def equipment_list(self, args: EquipmentArgs) -> dict[str, Any]:
        """List the equipment units in $label that crews log hours against.

        Args:
            status: "active" (default), "inactive" or "all".

        Returns {"equipment": [{equipment_id, equipment_number, name, make, model, model_year, hourly_rate,
        status}], "count": n}.
        """
        status = {"active": self.D.words.record_active, "inactive": self.D.words.record_inactive}.get(args.status)
        rows = self.select(self.D.tables.equipment, {"status": status}, order_by=["equipment_number"])
        return {"equipment": rows, "count": len(rows)}

    @tool("equipment_logs.list")
    def equipment_logs_list(self, args: EquipmentLogsArgs) -> dict[str, Any]:
        """List the daily equipment hours logged in $label: one row per unit, project, cost code, day and
        hour type ("$hours_operating": working; "$hours_idle": on site, standing by).

        Args:
            project: project id or job number, e.g. "1042".
            equipment: equipment id or unit number, e.g. "EX-104".
            date_from: first work date, e.g. "2026-01-01".
            date_to: last work date, e.g. "2026-01-31".
            hour_type: "$hours_operating" or "$hours_idle".
            cost_code: e.g. "31-230".
            limit: most rows, e.g. 200 (default 500).

        Returns {"logs": [{log_id, equipment_id, equipment_number, project_id, job_number, cost_code, work_date,
        hour_type, hours}], "count": n, "truncated": bool}.
        """
        rows = self._equipment_logs(
            args.project,
            args.equipment,
            args.date_from,
            args.date_to,
            hour_type=self._hour_type(args.hour_type),
            cost_code=args.cost_code,
        )
        return {"logs": rows[: args.limit], "count": min(len(rows), args.limit), "truncated": len(rows) > args.limit}

    @tool("equipment_logs.summary")
    def equipment_logs_summary(self, args: EquipmentSummaryArgs) -> dict[str, Any]:
        """Summarise equipment hours in $label per unit and project: hours working and hours standing by.

        Args:
            date_from: first work date, e.g. "2026-01-01".
            date_to: last work date, e.g. "2026-01-31".
            project: project id or job number, e.g. "1042".
            equipment: equipment id or unit number, e.g. "EX-104".

        Returns {"rows": [{equipment_id, equipment_number, project_id, job_number, operating_hours, idle_hours,
        days}], "count": n, "total_operating": "...", "total_idle": "..."}.
        """
        logs = self._equipment_logs(args.project, args.equipment, args.date_from, args.date_to)
        idle, zero = self.D.words.hours_idle, Decimal("0.00")
        acc: dict[tuple[str, str], dict[str, Any]] = {}
        days: dict[tuple[str, str], set[date]] = defaultdict(set)
        for x in logs:
            key = (x["equipment_id"], x["project_id"])
            row = acc.setdefault(
                key,
                {
                    "equipment_id": key[0],
                    "equipment_number": x["equipment_number"],
                    "project_id": key[1],
                    "job_number": x["job_number"],
                    "operating_hours": zero,
                    "idle_hours": zero,
                    "days": 0,
                },
            )
            row["idle_hours" if x["hour_type"] == idle else "operating_hours"] += x["hours"]
            days[key].add(x["work_date"])
            row["days"] = len(days[key])
        rows = sorted(acc.values(), key=lambda r: (r["equipment_number"] or "", r["job_number"] or ""))
        return {
            "rows": rows,
            "count": len(rows),
            "total_operating": sum((r["operating_hours"] for r in rows), zero),
            "total_idle": sum((r["idle_hours"] for r in rows), zero),
        }

    # ------------------------------------------------------------------ writes
    @tool("timecards.approve", writes=True)
    def timecards_approve(self, args: ApproveArgs) -> dict[str, Any]:
        """Approve a pending timecard in $label (the payroll export picks it up afterwards).

        Args:
            timecard_id: the pending timecard, e.g. "$example_timecard".
            approver: approving supervisor, e.g. "Sam Super" (default: you).

        Returns {"timecard_id", "status": "$timecard_approved", "approved_by", "approved_at"}.
        """
        timecards, approved = self.D.tables.timecards, self.D.words.timecard_approved
        tc = self.require(timecards, "timecard", timecard_id=args.timecard_id.strip())
        if tc["status"] == approved:
            raise ToolError(f"timecard {tc['timecard_id']} is already approved (by {tc['approved_by']})", "conflict")
        approver = (args.approver or DEFAULT_APPROVER).strip()
        self.update(
            timecards,
            {"timecard_id": tc["timecard_id"]},
            {"status": approved, "approved_by": approver, "approved_at": self.now},
        )
        return {"timecard_id": tc["timecard_id"], "status": approved, "approved_by": approver, "approved_at": self.now}

    @tool("timecards.approve_many", writes=True)
    def timecards_approve_many(self, args: ApproveManyArgs) -> dict[str, Any]:
        """Approve several pending timecards in $label at once (all or none: an unknown or already
        approved timecard refuses the whole call).

        Args:
            timecard_ids: the pending timecards, e.g. ["$example_timecard"] (at most 500).
            approver: approving supervisor, e.g. "Sam Super" (default: you).

        Returns {"approved": n, "timecard_ids": [...], "status": "$timecard_approved", "approved_by", "approved_at"}.
        """
        timecards, approved = self.D.tables.timecards, self.D.words.timecard_approved
        ids = list(dict.fromkeys(t.strip() for t in args.timecard_ids))
        for tid in ids:
            tc = self.require(timecards, "timecard", timecard_id=tid)
            if tc["status"] == approved:
                raise ToolError(
                    f"timecard {tid} is already approved (by {tc['approved_by']}); nothing was approved", "conflict"
                )
        approver = (args.approver or DEFAULT_APPROVER).strip()
        for tid in ids:
            stamp = {"status": approved, "approved_by": approver, "approved_at": self.now}
            self.update(timecards, {"timecard_id": tid}, stamp)
        return {
            "approved": len(ids),
            "timecard_ids": ids,
            "status": approved,
            "approved_by": approver,
            "approved_at": self.now,
        }
