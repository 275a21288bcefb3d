"""Payroll archetype: employees, prevailing-wage rates, imported hours, pay batches, earnings and
payments; staging the open batch is a normal write, releasing it (``pr_release``) is guarded.

The archetype is written once in :class:`PayrollApp`; each vendor is a dialect
(``cfab.apps.payroll.dialects``): table names, status words, batch ids, example ids and native
tool names.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, ClassVar, Literal

from pydantic import Field
from sqlglot import exp

from cfab.apps.contract import App
from cfab.apps.kit import cents, date_range
from cfab.apps.payroll.dialects import PayrollDialect
from cfab.apps.tooling import ToolArgs, ToolError, tool
from cfab.schema.sqlbuild import col, equals_all, literal

RATE = Decimal("0.0001")
OT_FACTOR = Decimal("1.5")
IMPORT_HOURS = "payroll.hours.import"  # the gate workflow of the hours import (triggers/rules/<app>.toml)
FIELD_TIME_APPS = ("rhumbix", "busybusy")


def pay_rate(
    base_rate: Decimal,
    level: str,
    apprentice_pct: Decimal | None,
    registration: str | None,
    determination_rate: Decimal | None,
) -> Decimal:
    """The hourly rate paid on a job: the employee's rate, but never below the wage determination's.

    A registered apprentice's floor is the journeyman rate times the apprentice percentage; an
    unregistered apprentice must be paid the journeyman rate.
    """
    if determination_rate is None:
        return Decimal(base_rate).quantize(RATE)
    floor = Decimal(determination_rate)
    if level == "apprentice" and registration and apprentice_pct is not None:
        floor = floor * Decimal(apprentice_pct) / Decimal(100)
    floor = floor.quantize(RATE, rounding=ROUND_HALF_UP)
    return max(Decimal(base_rate).quantize(RATE), floor)


def gross_pay(regular: Decimal, overtime: Decimal, rate: Decimal) -> Decimal:
    """Regular hours at the rate plus overtime at 1.5x, rounded half-up to cents."""
    total = Decimal(regular) * Decimal(rate) + Decimal(overtime) * Decimal(rate) * OT_FACTOR
    return cents(total)


class EmployeesArgs(ToolArgs):
    trade: str | None = Field(None, description="Trade", examples=["Electrician"])
    classification: str | None = Field(None, description="Wage classification", examples=["Electrician"])
    status: Literal["active", "terminated", "all"] = Field(
        "active", description="Employment status", examples=["active"]
    )
    name_contains: str | None = Field(None, description="Case-insensitive part of the name", examples=["lopez"])


class EmployeeGetArgs(ToolArgs):
    employee_id: str = Field(..., description="This system's employee id", examples=["100201"])


class HoursArgs(ToolArgs):
    week_ending: date | None = Field(None, description="Week-ending Saturday (ISO)", examples=["2026-01-24"])
    job: str | None = Field(None, description="Job id as this system spells it", examples=["1042"])
    employee_id: str | None = Field(None, description="Employee id", examples=["100201"])


class BatchesArgs(ToolArgs):
    status: str | None = Field(None, description="Batch status word", examples=["Open"])


class CalendarArgs(ToolArgs):
    date_from: date | None = Field(None, description="First pay date (ISO)", examples=["2026-02-01"])
    date_to: date | None = Field(None, description="Last pay date (ISO)", examples=["2026-04-30"])


class EarningsArgs(ToolArgs):
    batch_id: str | None = Field(None, description="Batch id", examples=["WK260124"])
    employee_id: str | None = Field(None, description="Employee id", examples=["100201"])
    job: str | None = Field(None, description="Job id", examples=["1042"])


class PaymentsArgs(ToolArgs):
    batch_id: str | None = Field(None, description="Batch id", examples=["WK260124"])
    employee_id: str | None = Field(None, description="Employee id", examples=["100201"])


class StageArgs(ToolArgs):
    batch_id: str | None = Field(
        None, description="The open batch (default: the one open batch)", examples=["WK260131"]
    )


class ImportArgs(ToolArgs):
    week_ending: date = Field(..., description="Week-ending Saturday (ISO)", examples=["2026-01-31"])
    source: Literal["rhumbix", "busybusy"] = Field(
        ..., description="The field-time app whose approved timecards to import", examples=["rhumbix"]
    )


class ReleaseArgs(ToolArgs):
    batch_id: str = Field(..., description="The staged batch to release", examples=["WK260131"])


class RemittancesArgs(ToolArgs):
    union_local: str | None = Field(None, description="Union local code", examples=["CARP-58"])
    period: str | None = Field(None, description="Work month YYYY-MM", examples=["2025-12"])
    status: str | None = Field(None, description="Remittance status word", examples=["Paid"])


PERIOD = r"^\d{4}-(0[1-9]|1[0-2])$"


class RemittanceStageArgs(ToolArgs):
    union_local: str = Field(..., description="Union local code", examples=["CARP-58"])
    period: str = Field(..., description="Work month YYYY-MM", examples=["2025-12"], pattern=PERIOD)
    hours: Decimal = Field(
        ..., description="Hours worked reported to the local", examples=["1240.00"], ge=0, le=Decimal("999999.99")
    )
    amount: Decimal = Field(
        ..., description="Contributions owed, in dollars", examples=["43120.50"], gt=0, le=Decimal("9999999999.99")
    )
    memo: str | None = Field(None, description="Free-text note for the approver", examples=["December 2025"])


class RemittancePayArgs(ToolArgs):
    remittance_id: str = Field(..., description="The staged remittance to pay", examples=["REM202512-CARP-58"])


class PayrollApp(App):
    """A payroll system: the tools written once, each vendor's tables and words read from its dialect ``D``.

    A vendor is a subclass that sets ``D`` (``cfab.apps.payroll.dialects``); its app name, label and
    native tool names come from the dialect."""

    archetype = "Payroll"
    kind: ClassVar[str] = "payroll"
    D: ClassVar[PayrollDialect]
    # The names tests/apps/money reads (outside this archetype's files), set from D; the tools read D.
    T_EARN: ClassVar[str]
    T_BATCH: ClassVar[str]
    T_HOURS: ClassVar[str]
    T_PAY: ClassVar[str]
    S_OPEN: ClassVar[str]
    S_STAGED: ClassVar[str]
    S_RELEASED: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        d = cls.__dict__.get("D")
        if d is not None:
            cls.name, cls.label, cls.TOOL_NAMES = d.app, d.label, dict(d.tool_names)
            tables, words = d.tables, d.words
            cls.T_EARN, cls.T_BATCH, cls.T_HOURS, cls.T_PAY = (
                tables.earnings,
                tables.batches,
                tables.hours,
                tables.payments,
            )
            cls.S_OPEN, cls.S_STAGED, cls.S_RELEASED = words.batch_open, words.batch_staged, words.batch_released

    # ------------------------------------------------------------------ reads
    @tool("employees.list")
    def employees_list(self, args: EmployeesArgs) -> dict[str, Any]:
        """List employees in $label.

        Args:
            trade: e.g. "Electrician".
            classification: wage classification, e.g. "Electrician".
            status: "active" (default), "terminated" or "all".
            name_contains: part of the name, e.g. "lopez".

        Returns {"employees": [{employee_id, first_name, last_name, trade, classification, level,
        apprentice_registration, apprentice_pct, union_local, base_rate, fringe_rate, hire_date, status}], "count": n}.
        """
        words = self.D.words
        status = {"active": words.employee_active, "terminated": words.employee_terminated}.get(args.status)
        extra = None
        if args.name_contains:
            like = literal(f"%{args.name_contains}%")
            extra = exp.ILike(
                this=exp.DPipe(
                    this=exp.DPipe(this=col("first_name"), expression=literal(" ")), expression=col("last_name")
                ),
                expression=like,
            )
        rows = self.select(
            self.D.tables.employees,
            {"trade": args.trade, "classification": args.classification, "status": status},
            extra=extra,
            order_by=["last_name", "first_name", "employee_id"],
        )
        return {"employees": rows, "count": len(rows)}

    @tool("employees.get")
    def employees_get(self, args: EmployeeGetArgs) -> dict[str, Any]:
        """Get one employee from $label with their recent hours and earnings.

        Args:
            employee_id: e.g. "$example_employee".

        Returns {"employee": {...}, "hours": [{week_ending, job_id, regular_hours, overtime_hours}],
        "earnings": [{batch_id, job_id, regular_hours, overtime_hours, rate, gross_pay, net_pay}]}.
        """
        tables = self.D.tables
        emp = self.require(tables.employees, "employee", employee_id=args.employee_id.strip())
        hours = self.select(tables.hours, {"employee_id": emp["employee_id"]}, order_by=["week_ending", "job_id"])
        earnings = self.select(tables.earnings, {"employee_id": emp["employee_id"]}, order_by=["batch_id", "job_id"])
        return {"employee": emp, "hours": hours, "earnings": earnings}

    @tool("hours.list")
    def hours_list(self, args: HoursArgs) -> dict[str, Any]:
        """List approved hours imported from the field-time systems, per employee, week and job.

        Args:
            week_ending: the Saturday ending the week, e.g. "2026-01-24".
            job: job id as $label spells it, e.g. "$example_job".
            employee_id: e.g. "$example_employee".

        Returns {"hours": [{employee_id, week_ending, job_id, regular_hours, overtime_hours, source}], "count": n,
        "total_regular": "...", "total_overtime": "..."}.
        """
        rows = self.select(
            self.D.tables.hours,
            {"week_ending": args.week_ending, "job_id": args.job, "employee_id": args.employee_id},
            order_by=["week_ending", "employee_id", "job_id"],
        )
        return {
            "hours": rows,
            "count": len(rows),
            "total_regular": sum((r["regular_hours"] for r in rows), Decimal("0.00")),
            "total_overtime": sum((r["overtime_hours"] for r in rows), Decimal("0.00")),
        }

    @tool("batches.list")
    def batches_list(self, args: BatchesArgs) -> dict[str, Any]:
        """List pay batches in $label (released ones are final; the current week is '$batch_open').

        Args:
            status: e.g. "$batch_open", "$batch_staged" or "$batch_released".

        Returns {"batches": [{batch_id, period_start, period_end, check_date, status, bank_account, total_gross,
        staged_at, released_at}], "count": n}.
        """
        rows = self.select(self.D.tables.batches, {"status": args.status}, order_by=["period_end", "batch_id"])
        return {"batches": rows, "count": len(rows)}

    @tool("calendar.list")
    def calendar_list(self, args: CalendarArgs) -> dict[str, Any]:
        """The pay calendar in $label: the pay weeks ahead (Sunday to Saturday) and the date each is paid.

        Past pay runs and their totals are in the pay batches; this lists the weeks to come.

        Args:
            date_from: first pay date, e.g. "2026-02-01".
            date_to: last pay date, e.g. "2026-04-30".

        Returns {"pay_periods": [{period_start, period_end, pay_date, batch_id, frequency}], "count": n}.
        """
        if args.date_from and args.date_to and args.date_from > args.date_to:
            raise ToolError(f"date_from {args.date_from} is after date_to {args.date_to}")
        rows = self.select(
            self.D.tables.calendar, extra=date_range("pay_date", args.date_from, args.date_to), order_by=["pay_date"]
        )
        return {"pay_periods": rows, "count": len(rows)}

    @tool("earnings.list")
    def earnings_list(self, args: EarningsArgs) -> dict[str, Any]:
        """List earnings lines (per batch, employee and job) in $label.

        Args:
            batch_id: e.g. "$example_batch".
            employee_id: e.g. "$example_employee".
            job: e.g. "$example_job".

        Returns {"earnings": [{batch_id, employee_id, job_id, regular_hours, overtime_hours, rate, fringe_rate,
        gross_pay, withholding, net_pay}], "count": n, "total_gross": "..."}.
        """
        rows = self.select(
            self.D.tables.earnings,
            {"batch_id": args.batch_id, "employee_id": args.employee_id, "job_id": args.job},
            order_by=["batch_id", "employee_id", "job_id"],
        )
        return {
            "earnings": rows,
            "count": len(rows),
            "total_gross": sum((r["gross_pay"] for r in rows), Decimal("0.00")),
        }

    @tool("payments.list")
    def payments_list(self, args: PaymentsArgs) -> dict[str, Any]:
        """List paychecks and direct deposits of released batches in $label.

        Args:
            batch_id: e.g. "$example_batch".
            employee_id: e.g. "$example_employee".

        Returns {"payments": [{batch_id, employee_id, payment_method, check_number, bank_account, pay_date,
        gross_pay, net_pay}], "count": n}.
        """
        rows = self.select(
            self.D.tables.payments,
            {"batch_id": args.batch_id, "employee_id": args.employee_id},
            order_by=["pay_date", "batch_id", "employee_id"],
        )
        return {"payments": rows, "count": len(rows)}

    # ------------------------------------------------------------------ integration (peer apps)
    def open_batch(self) -> dict[str, Any]:
        """The one open (or staged) pay batch; ToolError when there is none or several."""
        return self._open_batch(None)

    def earnings_for(self, batch_id: str, job_id: str | None = None) -> list[dict[str, Any]]:
        """Earnings lines of one batch (optionally one job), e.g. for a certified-payroll report."""
        return self.select(
            self.D.tables.earnings, {"batch_id": batch_id, "job_id": job_id}, order_by=["employee_id", "job_id"]
        )

    # ------------------------------------------------------------------ hours import
    @tool("hours.import", writes=True)
    def hours_import(self, args: ImportArgs) -> dict[str, Any]:
        """Import one week's approved timecards from a field-time app (Rhumbix or busybusy) into $label.

        The nightly export brings approved timecards over; this runs it now for one week and one
        source. That week's hours from that source are replaced by the field app's approved hours,
        summed per employee and job (pending timecards are not imported; approve them in the
        field-time app first). Stage the batch afterwards to use them. The field-time app must be
        connected.

        Args:
            week_ending: the Saturday ending the week, e.g. "2026-01-31".
            source: "rhumbix" or "busybusy".

        Returns {"week_ending", "source", "rows": n, "replaced_rows": n, "total_regular": "...",
        "total_overtime": "...", "hours": [{employee_id, week_ending, job_id, regular_hours, overtime_hours,
        source}]}.
        """
        if args.week_ending.weekday() != 5:
            raise ToolError(f"week_ending {args.week_ending} is not a Saturday")
        field = self.peer(args.source)
        approved_hours = getattr(field, "approved_hours", None)
        if field.kind != "field_time" or approved_hours is None:
            raise ToolError(f"{args.source} is not a field-time app", "invalid_argument")
        emp_ids = {
            r["src"]: r["dst"]
            for r in self.query(
                "SELECT a.system_employee_id AS src, b.system_employee_id AS dst FROM book.employee_identities a "
                "JOIN book.employee_identities b ON b.employee_id = a.employee_id WHERE a.system = ? AND b.system = ?",
                [args.source, self.name],
            )
        }
        job_ids = {
            r["src"]: r["dst"]
            for r in self.query(
                "SELECT book.system_job_id(?, job_number) AS src, book.system_job_id(?, job_number) AS dst "
                "FROM book.jobs",
                [args.source, self.D.job_system],
            )
        }
        summed: dict[tuple[str, str], list[Decimal]] = defaultdict(lambda: [Decimal("0.00"), Decimal("0.00")])
        for r in approved_hours(args.week_ending):
            emp, job = emp_ids.get(r["employee_id"]), job_ids.get(r["job_number"])
            if emp is None or job is None:
                raise ToolError(
                    f"{args.source} timecard hours for worker {r['employee_id']} on {r['job_number']} have no "
                    f"{self.label} employee or job",
                    "conflict",
                )
            acc = summed[(emp, job)]
            acc[0] += r["regular_hours"]
            acc[1] += r["overtime_hours"]
        rows: list[dict[str, Any]] = [
            {
                "employee_id": emp,
                "week_ending": args.week_ending,
                "job_id": job,
                "regular_hours": reg,
                "overtime_hours": ot,
                "source": args.source,
            }
            for (emp, job), (reg, ot) in sorted(summed.items())
        ]
        info = self.tbl(self.D.tables.hours)
        with self.gate.workflow(IMPORT_HOURS):
            replaced = self.gate.delete_where(
                info.qualified, equals_all({"week_ending": args.week_ending, "source": args.source}, info)
            )
            if rows:
                self.gate.insert_many(info.qualified, rows)
        return {
            "week_ending": args.week_ending,
            "source": args.source,
            "rows": len(rows),
            "replaced_rows": replaced,
            "total_regular": sum((r["regular_hours"] for r in rows), Decimal("0.00")),
            "total_overtime": sum((r["overtime_hours"] for r in rows), Decimal("0.00")),
            "hours": rows,
        }

    # ------------------------------------------------------------------ staging
    def _open_batch(self, batch_id: str | None) -> dict[str, Any]:
        words = self.D.words
        if batch_id:
            batch = self.require(self.D.tables.batches, "pay batch", batch_id=batch_id.strip())
        else:
            rows = self.select(
                self.D.tables.batches,
                extra=exp.In(this=col("status"), expressions=[literal(words.batch_open), literal(words.batch_staged)]),
                order_by=["period_end"],
            )
            if not rows:
                raise ToolError(f"no open pay batch in {self.label}", "not_found")
            if len(rows) > 1:
                raise ToolError(
                    f"several open batches ({', '.join(r['batch_id'] for r in rows)}); name one", "invalid_argument"
                )
            batch = rows[0]
        if batch["status"] not in (words.batch_open, words.batch_staged):
            raise ToolError(
                f"pay batch {batch['batch_id']} is {batch['status']}; only an "
                f"{words.batch_open} or {words.batch_staged} batch can be staged",
                "conflict",
            )
        return batch

    def compute_lines(self, batch: dict[str, Any]) -> list[dict[str, Any]]:
        """The draft earnings lines of a batch from approved hours (deterministic order)."""
        tables = self.D.tables
        hours = self.select(
            tables.hours,
            extra=exp.and_(
                exp.GTE(this=col("week_ending"), expression=literal(batch["period_start"], "DATE")),
                exp.LTE(this=col("week_ending"), expression=literal(batch["period_end"], "DATE")),
            ),
            order_by=["employee_id", "job_id", "week_ending"],
        )
        employees = {e["employee_id"]: e for e in self.select(tables.employees)}
        jobs = {j["job_id"]: j for j in self.select(tables.jobs)}
        rates = {(r["job_id"], r["classification"]): r for r in self.select(tables.prevailing_wage_rates)}
        summed: dict[tuple[str, str], list[Decimal]] = defaultdict(lambda: [Decimal("0.00"), Decimal("0.00")])
        for h in hours:
            acc = summed[(h["employee_id"], h["job_id"])]
            acc[0] += h["regular_hours"]
            acc[1] += h["overtime_hours"]
        lines = []
        for (emp_id, job_id), (reg, ot) in sorted(summed.items()):
            emp = employees.get(emp_id)
            if emp is None:
                raise ToolError(f"hours for unknown employee {emp_id} in {self.label}", "conflict")
            job = jobs.get(job_id)
            wr = rates.get((job_id, emp["classification"])) if job and job["prevailing_wage"] else None
            rate = pay_rate(
                emp["base_rate"],
                emp["level"],
                emp["apprentice_pct"],
                emp["apprentice_registration"],
                wr["base_rate"] if wr else None,
            )
            fringe = pay_rate(
                emp["fringe_rate"],
                emp["level"],
                emp["apprentice_pct"],
                emp["apprentice_registration"],
                wr["fringe_rate"] if wr else None,
            )
            lines.append(
                {
                    "batch_id": batch["batch_id"],
                    "employee_id": emp_id,
                    "job_id": job_id,
                    "regular_hours": reg,
                    "overtime_hours": ot,
                    "rate": rate,
                    "fringe_rate": fringe,
                    "gross_pay": gross_pay(reg, ot, rate),
                    "withholding": None,
                    "net_pay": None,
                }
            )
        return lines

    @tool("batches.stage", writes=True)
    def batches_stage(self, args: StageArgs) -> dict[str, Any]:
        """Build the draft earnings of the open pay batch from approved hours (re-staging replaces the draft).

        Per employee and job: regular hours at the employee's rate plus overtime at 1.5x; on a
        prevailing-wage job the rate is at least the wage determination's rate for the employee's
        classification (a registered apprentice: the journeyman rate times the apprentice percentage;
        an unregistered apprentice: the full journeyman rate).
        Gross is rounded to cents per line. Taxes and net pay are calculated at release. The batch
        becomes '$batch_staged'. Nothing is paid: releasing is a separate, guarded step (pr_release).

        Args:
            batch_id: the open batch, e.g. "$example_batch" (default: the one open batch).

        Returns {"batch_id", "status": "$batch_staged", "lines": n, "total_gross": "...", "replaced_lines": n,
        "earnings": [...]}.
        """
        batch = self._open_batch(args.batch_id)
        lines = self.compute_lines(batch)
        if not lines:
            raise ToolError(
                f"no approved hours for the period {batch['period_start']}..{batch['period_end']}", "conflict"
            )
        info = self.tbl(self.D.tables.earnings)
        replaced = self.gate.delete_where(info.qualified, equals_all({"batch_id": batch["batch_id"]}, info))
        self.gate.insert_many(info.qualified, lines)
        total = sum((ln["gross_pay"] for ln in lines), Decimal("0.00"))
        staged = self.D.words.batch_staged
        self.update(
            self.D.tables.batches,
            {"batch_id": batch["batch_id"]},
            {"status": staged, "total_gross": total, "staged_at": self.now},
        )
        return {
            "batch_id": batch["batch_id"],
            "status": staged,
            "lines": len(lines),
            "total_gross": total,
            "replaced_lines": replaced,
            "earnings": lines,
        }

    # ------------------------------------------------------------------ union fringe remittances
    @tool("remittances.list")
    def remittances_list(self, args: RemittancesArgs) -> dict[str, Any]:
        """List union fringe-benefit remittances in $label (one per local and work month).

        Args:
            union_local: the local's code, e.g. "CARP-58".
            period: the work month, e.g. "2025-12".
            status: e.g. "$remittance_staged" or "$remittance_paid".

        Returns {"remittances": [{remittance_id, union_local, period, hours, amount, status, memo, staged_at,
        paid_at}], "count": n}.
        """
        rows = self.select(
            self.D.tables.remittances,
            {
                "union_local": args.union_local.strip().upper() if args.union_local else None,
                "period": args.period,
                "status": args.status,
            },
            order_by=["period", "union_local"],
        )
        return {"remittances": rows, "count": len(rows)}

    @tool("remittances.stage", writes=True)
    def remittances_stage(self, args: RemittanceStageArgs) -> dict[str, Any]:
        """Stage a union local's fringe-benefit remittance for one work month in $label (nothing is paid).

        You compute the hours and the amount (from the payroll detail and the local's collective
        agreement); this records them as a '$remittance_staged' remittance for the controller to
        approve. Staging the same local and month again replaces the staged remittance; a month
        already paid cannot be staged again. Paying is a separate, guarded step.

        Args:
            union_local: the local's code, e.g. "CARP-58".
            period: the work month, e.g. "2025-12".
            hours: hours worked reported to the local, e.g. "1240.00".
            amount: contributions owed in dollars, e.g. "43120.50".
            memo: optional note, e.g. "December 2025".

        Returns {"remittance": {remittance_id, union_local, period, hours, amount, status, memo, staged_at,
        paid_at}, "replaced": true|false}.
        """
        local = args.union_local.strip().upper()
        known = self.query("SELECT 1 FROM book.union_locals WHERE upper(local_code) = ?", [local])
        if not known:
            raise ToolError(f"no union local {args.union_local!r}", "not_found")
        words = self.D.words
        rid = self.D.remittance_ids.of(local, args.period)
        info = self.tbl(self.D.tables.remittances)
        current = self.select(self.D.tables.remittances, {"remittance_id": rid})
        if current and current[0]["status"] == words.remittance_paid:
            raise ToolError(f"remittance {rid} for {local} {args.period} is already paid", "conflict")
        row = {
            "remittance_id": rid,
            "union_local": local,
            "period": args.period,
            "hours": Decimal(args.hours).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP),
            "amount": cents(Decimal(args.amount)),
            "status": words.remittance_staged,
            "memo": args.memo,
            "staged_at": self.now,
            "paid_at": None,
        }
        if current:
            self.gate.delete_where(info.qualified, equals_all({"remittance_id": rid}, info))
        self.gate.insert_many(info.qualified, [row])
        return {"remittance": row, "replaced": bool(current)}

    @tool("remittances.pay", guarded="payment")
    def remittances_pay(self, args: RemittancePayArgs) -> dict[str, Any]:
        """Pay a staged fringe remittance to the local's benefit funds (ACH from the payroll account).

        This MOVES MONEY: it is never executed here; the request is validated and staged for a human
        approver.

        Args:
            remittance_id: the staged remittance, as the stage step returned it, e.g. "UF202512-CARP-58".

        Returns what would be paid: {"would_pay": {remittance_id, union_local, period, hours, amount}}.
        """
        rem = self.require(self.D.tables.remittances, "remittance", remittance_id=args.remittance_id.strip())
        staged = self.D.words.remittance_staged
        if rem["status"] != staged:
            raise ToolError(
                f"remittance {rem['remittance_id']} is {rem['status']}; only a {staged} remittance can be paid",
                "conflict",
            )
        return {
            "would_pay": {k: rem[k] for k in ("remittance_id", "union_local", "period", "hours", "amount")},
            "note": f"{self.label} holds the payment for a human approver; nothing was paid.",
        }

    @tool("pr_release", guarded="payroll")
    def pr_release(self, args: ReleaseArgs) -> dict[str, Any]:
        """Release a staged pay batch: calculate taxes, issue paychecks and direct deposits.

        This PAYS EMPLOYEES: it is never executed here; the request is validated and staged for a human
        approver.

        Args:
            batch_id: the staged batch, e.g. "$example_batch".

        Returns what would be released: {"would_release": {"batch_id", "check_date", "bank_account",
        "employees", "lines", "total_gross"}}.
        """
        batch = self.require(self.D.tables.batches, "pay batch", batch_id=args.batch_id.strip())
        staged = self.D.words.batch_staged
        if batch["status"] != staged:
            raise ToolError(
                f"pay batch {batch['batch_id']} is {batch['status']}; only a {staged} batch can be released", "conflict"
            )
        lines = self.select(self.D.tables.earnings, {"batch_id": batch["batch_id"]})
        if not lines:
            raise ToolError(f"pay batch {batch['batch_id']} has no earnings lines", "conflict")
        return {
            "would_release": {
                "batch_id": batch["batch_id"],
                "check_date": batch["check_date"],
                "bank_account": batch["bank_account"],
                "employees": len({ln["employee_id"] for ln in lines}),
                "lines": len(lines),
                "total_gross": sum((ln["gross_pay"] for ln in lines), Decimal("0.00")),
            },
            "note": f"{self.label} holds the release for a human approver; nothing was paid.",
        }
