"""LCPtracker: certified payroll (WH-347) and prevailing-wage compliance.

The certified-payroll archetype: projects, contractors, employees, wage determinations with
their rates, apprentice ratio rules, WH-347 submissions with their lines, and the compliance
flags a reviewer raises. ``submissions.validate`` does FORMAT checks only (required fields,
hours add up, totals): judging the lines against the wage determination and the apprentice
ratio is the reviewer's (the agent's) job, recorded with ``lines.flag``. Certifying / e-filing a
WH-347 is guarded.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import Field
from sqlglot import exp

from cfab.apps.contract import App
from cfab.apps.kit import cents, date_range, ilike
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool
from cfab.schema.sqlbuild import equals_all

FlagCode = Literal[
    "underpayment", "fringe_shortfall", "apprentice_ratio", "unregistered_apprentice", "misclassification", "other"
]
DAYS = ("hours_sun", "hours_mon", "hours_tue", "hours_wed", "hours_thu", "hours_fri", "hours_sat")


class ProjectListArgs(ToolArgs):
    status: str | None = Field(None, description="Active or Closed", examples=["Active"])
    name_contains: str | None = Field(None, description="Part of the project name", examples=["library"])


class ProjectRefArgs(ToolArgs):
    project_id: str = Field(..., description="LCPtracker project code (the job number)", examples=["1042"])


class ContractorListArgs(ToolArgs):
    project_id: str | None = Field(None, description="Only contractors on this project", examples=["1042"])
    name_contains: str | None = Field(None, description="Part of the contractor name", examples=["walsh"])


class EmployeeListArgs(ToolArgs):
    contractor_id: str | None = Field(None, description="Employer contractor id", examples=["C00001"])
    classification: str | None = Field(None, description="Wage classification", examples=["Electrician"])
    name_contains: str | None = Field(None, description="Part of the first or last name", examples=["alvarez"])


class SubmissionListArgs(ToolArgs):
    project_id: str | None = Field(None, description="Project code (job number)", examples=["1042"])
    status: str | None = Field(None, description="Draft, Submitted or Accepted", examples=["Submitted"])
    week_ending: date | None = Field(None, description="Exact week-ending date", examples=["2026-01-24"])
    week_ending_from: date | None = Field(None, description="Earliest week ending", examples=["2026-01-01"])
    week_ending_to: date | None = Field(None, description="Latest week ending", examples=["2026-01-31"])


class SubmissionRefArgs(ToolArgs):
    payroll_id: str | None = Field(
        None, description="WH-347 payroll id; or give project_id and week_ending", examples=["CP-1042-2026-01-24"]
    )
    project_id: str | None = Field(None, description="Project code (job number)", examples=["1042"])
    week_ending: date | None = Field(None, description="Week-ending date", examples=["2026-01-24"])


class FlagArgs(ToolArgs):
    payroll_id: str = Field(..., description="The WH-347 payroll id", examples=["CP-1042-2026-01-24"])
    line_number: int = Field(..., ge=1, description="Line number on the payroll", examples=[3])
    code: FlagCode = Field(
        ...,
        description="underpayment | fringe_shortfall | apprentice_ratio | "
        "unregistered_apprentice | misclassification | other",
        examples=["underpayment"],
    )
    note: str = Field(
        ...,
        min_length=1,
        description="What is wrong, with the figures",
        examples=["Paid $45.00/hr base; determination IL20250012-mod3 requires $48.50 for Electrician"],
    )


class FlagListArgs(ToolArgs):
    payroll_id: str | None = Field(None, description="Only flags on this payroll", examples=["CP-1042-2026-01-24"])
    project_id: str | None = Field(None, description="Only flags on this project's payrolls", examples=["1042"])
    code: FlagCode | None = Field(None, description="Only this code", examples=["apprentice_ratio"])


class FlagRefArgs(ToolArgs):
    flag_id: str = Field(..., description="Flag id returned by lines.flag / flags.list", examples=["3f9a0c1b2d4e"])


class CertifiedPayrollArchetype(App):
    """Certified payroll portal: WH-347 submissions, wage determinations, compliance flags."""

    archetype = "Lien/CertPayroll/Tax"
    kind: ClassVar[str] = "certified_payroll"
    REVIEWER: ClassVar[str] = "api.reviewer"  # who the agent's flags are recorded as
    PRIME_ID: ClassVar[str] = "C00001"

    # ------------------------------------------------------------------ helpers
    def _project(self, project_id: str) -> dict[str, Any]:
        return self.require("projects", "project", project_id=project_id)

    def _payroll(self, payroll_id: str | None, project_id: str | None, week_ending: date | None) -> dict[str, Any]:
        if payroll_id:
            return self.require("payrolls", "certified payroll", payroll_id=payroll_id)
        if not project_id or week_ending is None:
            raise ToolError("give payroll_id, or project_id and week_ending", "invalid_argument")
        rows = self.select("payrolls", {"project_id": project_id, "week_ending": week_ending})
        if not rows:
            raise ToolError(
                f"no certified payroll for project {project_id} week ending {week_ending} in {self.label}", "not_found"
            )
        return rows[0]

    def _lines(self, payroll_id: str) -> list[dict[str, Any]]:
        return self.select("payroll_lines", {"payroll_id": payroll_id}, order_by=["line_number"])

    # ------------------------------------------------------------------ reads
    @tool("projects.list")
    def projects_list(self, args: ProjectListArgs) -> dict[str, Any]:
        """List prevailing-wage projects in $label.

        Args:
            status: "Active" or "Closed".
            name_contains: part of the name, e.g. "library".

        Returns {"projects": [{project_id, project_name, awarding_body, prime_contractor_id, address, city,
        county, state, decision_id, start_date, status}], "count": n}.
        """
        rows = self.select("projects", {"status": args.status}, extra=ilike("project_name", args.name_contains))
        return {"projects": rows, "count": len(rows)}

    @tool("contractors.list")
    def contractors_list(self, args: ContractorListArgs) -> dict[str, Any]:
        """List contractors (the prime and its subcontractors) in $label.

        Args:
            project_id: only contractors on this project, e.g. "1042".
            name_contains: part of the name, e.g. "walsh".

        Returns {"contractors": [{contractor_id, contractor_name, fein, trade, is_prime, tier, contract_amount}], "count": n}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        rows = self.select("contractors", extra=ilike("contractor_name", args.name_contains))
        if args.project_id:
            links = {r["contractor_id"]: r for r in self.select("project_contractors", {"project_id": args.project_id})}
            rows = [
                {
                    **r,
                    "tier": links[r["contractor_id"]]["tier"],
                    "contract_amount": links[r["contractor_id"]]["contract_amount"],
                }
                for r in rows
                if r["contractor_id"] in links
            ]
        return {"contractors": rows, "count": len(rows)}

    @tool("employees.list")
    def employees_list(self, args: EmployeeListArgs) -> dict[str, Any]:
        """List workers on file in $label (classification, level, apprentice registration, rates).

        Args:
            contractor_id: employer, e.g. "C00001" (Company A, the prime).
            classification: e.g. "Electrician".
            name_contains: part of the first or last name, e.g. "alvarez".

        Returns {"employees": [{employee_id, contractor_id, first_name, last_name, trade, classification, level,
        apprentice_registration, apprentice_percent, union_local, base_rate, fringe_rate, status}], "count": n}.
        """
        extra = None
        if args.name_contains:
            extra = exp.or_(ilike("first_name", args.name_contains), ilike("last_name", args.name_contains))
        rows = self.select(
            "employees",
            {"contractor_id": args.contractor_id, "classification": args.classification},
            extra=extra,
            columns=[
                "employee_id",
                "contractor_id",
                "first_name",
                "last_name",
                "trade",
                "classification",
                "level",
                "apprentice_registration",
                "apprentice_percent",
                "union_local",
                "base_rate",
                "fringe_rate",
                "status",
            ],
        )
        return {"employees": rows, "count": len(rows)}

    @tool("wage_determinations.get")
    def wage_determinations_get(self, args: ProjectRefArgs) -> dict[str, Any]:
        """The wage determination in force on a project: base and fringe rate per classification, and
        the apprentice ratio rules per trade.

        Args:
            project_id: the project code (job number), e.g. "1042".

        Returns {"project_id", "decision": {decision_id, wd_number, modification, county, state, effective_date},
        "rates": [{classification, base_rate, fringe_rate}], "apprentice_ratios": [{trade,
        journeymen_per_apprentice, source}]}.
        """
        project = self._project(args.project_id)
        if not project["decision_id"]:
            raise ToolError(f"project {args.project_id} has no wage determination on file", "not_found")
        decision = self.require("wage_decisions", "wage decision", decision_id=project["decision_id"])
        rates = self.select(
            "wage_decision_rates", {"decision_id": decision["decision_id"]}, order_by=["classification"]
        )
        ratios = self.select("apprentice_ratios", order_by=["trade"])
        return {"project_id": args.project_id, "decision": decision, "rates": rates, "apprentice_ratios": ratios}

    @tool("submissions.list")
    def submissions_list(self, args: SubmissionListArgs) -> dict[str, Any]:
        """List WH-347 certified payroll submissions.

        Args:
            project_id: e.g. "1042".
            status: "Draft", "Submitted" or "Accepted".
            week_ending: exact week ending, e.g. "2026-01-24".
            week_ending_from: earliest week ending, e.g. "2026-01-01".
            week_ending_to: latest week ending, e.g. "2026-01-31".

        Returns {"submissions": [{payroll_id, project_id, contractor_id, decision_id, payroll_number, week_ending,
        is_final, status, certified_by, certified_date, line_count}], "count": n}.
        """
        rows = self.select(
            "payrolls",
            {"project_id": args.project_id, "status": args.status, "week_ending": args.week_ending},
            extra=date_range("week_ending", args.week_ending_from, args.week_ending_to),
            order_by=["project_id", "week_ending"],
        )
        counts = {
            r["payroll_id"]: r["n"]
            for r in self.query("SELECT payroll_id, count(*) AS n FROM lcptracker.payroll_lines GROUP BY payroll_id")
        }
        rows = [{**r, "line_count": counts.get(r["payroll_id"], 0)} for r in rows]
        return {"submissions": rows, "count": len(rows)}

    @tool("submissions.get")
    def submissions_get(self, args: SubmissionRefArgs) -> dict[str, Any]:
        """One WH-347 submission with its lines (employee, classification, level, apprentice registration,
        hours by day, total, straight-time and overtime hours, rate and fringe paid, gross for this project).

        Args:
            payroll_id: e.g. "CP-1042-2026-01-24"; or project_id + week_ending.
            project_id: e.g. "1042".
            week_ending: e.g. "2026-01-24".

        Returns {"submission": {...header...}, "lines": [{line_number, employee_id, employee_name, classification,
        level, apprentice_registration, hours_sun..hours_sat, total_hours, straight_time_hours, overtime_hours,
        rate_paid, fringe_paid, gross_this_project}], "count": n}.
        """
        payroll = self._payroll(args.payroll_id, args.project_id, args.week_ending)
        lines = self._lines(payroll["payroll_id"])
        return {"submission": payroll, "lines": lines, "count": len(lines)}

    @tool("submissions.validate")
    def submissions_validate(self, args: SubmissionRefArgs) -> dict[str, Any]:
        """Run LCPtracker's FORMAT validation on a WH-347: required fields present, hours per day within
        0-24, daily hours add up to the total, straight time + overtime = total, gross = straight-time
        hours x rate paid + overtime hours x 1.5 x rate paid, no duplicate workers.

        This does NOT check the lines against the wage determination or the apprentice ratio
        (prevailing-wage compliance is the reviewer's job; raise findings with lines.flag).

        Args:
            payroll_id: e.g. "CP-1042-2026-01-24"; or project_id + week_ending.
            project_id: e.g. "1042".
            week_ending: e.g. "2026-01-24".

        Returns {"payroll_id", "format_valid": bool, "errors": [{line_number, field, message}],
        "checks": [...names of the checks run...], "lines_checked": n, "scope": "format only"}.
        """
        payroll = self._payroll(args.payroll_id, args.project_id, args.week_ending)
        lines = self._lines(payroll["payroll_id"])
        errors: list[dict[str, Any]] = []

        def err(line: int | None, fieldname: str, message: str) -> None:
            errors.append({"line_number": line, "field": fieldname, "message": message})

        for fieldname in ("project_id", "contractor_id", "payroll_number", "week_ending", "decision_id"):
            if payroll.get(fieldname) in (None, ""):
                err(None, fieldname, f"{fieldname} is required")
        if not lines:
            err(None, "lines", "the payroll has no employee lines (file a no-work payroll instead)")
        seen: dict[str, int] = {}
        for ln in lines:
            no = ln["line_number"]
            for fieldname in ("employee_id", "employee_name", "classification", "level"):
                if ln.get(fieldname) in (None, ""):
                    err(no, fieldname, f"{fieldname} is required")
            for day in DAYS:
                h = ln[day]
                if h is None or h < 0 or h > 24:
                    err(no, day, f"{day} must be between 0 and 24 hours, got {h}")
            total = sum((ln[d] or Decimal(0) for d in DAYS), Decimal("0.00"))
            if total != ln["total_hours"]:
                err(no, "total_hours", f"daily hours add up to {total}, the line says {ln['total_hours']}")
            if ln["rate_paid"] is None or ln["rate_paid"] <= 0:
                err(no, "rate_paid", "rate paid is required and must be positive")
            if ln["fringe_paid"] is None or ln["fringe_paid"] < 0:
                err(no, "fringe_paid", "fringe paid cannot be negative")
            if ln["straight_time_hours"] + ln["overtime_hours"] != ln["total_hours"]:
                err(
                    no,
                    "overtime_hours",
                    f"straight time {ln['straight_time_hours']} + overtime "
                    f"{ln['overtime_hours']} hours do not add up to the total {ln['total_hours']}",
                )
            if ln["rate_paid"] is not None:
                gross = cents(
                    ln["straight_time_hours"] * ln["rate_paid"]
                    + ln["overtime_hours"] * ln["rate_paid"] * Decimal("1.5")
                )
                if gross != ln["gross_this_project"]:
                    err(
                        no,
                        "gross_this_project",
                        f"straight time x rate + overtime x 1.5 x rate = {gross}, "
                        f"the line says {ln['gross_this_project']}",
                    )
            if ln["employee_id"] in seen:
                err(
                    no, "employee_id", f"employee {ln['employee_id']} already appears on line {seen[ln['employee_id']]}"
                )
            seen.setdefault(ln["employee_id"], no)
        return {
            "payroll_id": payroll["payroll_id"],
            "format_valid": not errors,
            "errors": errors,
            "checks": [
                "required_fields",
                "daily_hours_range",
                "hours_total",
                "overtime_split",
                "gross_arithmetic",
                "duplicate_worker",
            ],
            "lines_checked": len(lines),
            "scope": "format only",
        }

    @tool("flags.list")
    def flags_list(self, args: FlagListArgs) -> dict[str, Any]:
        """List compliance flags raised on payroll lines.

        Args:
            payroll_id: e.g. "CP-1042-2026-01-24".
            project_id: e.g. "1042".
            code: e.g. "apprentice_ratio".

        Returns {"flags": [{flag_id, payroll_id, line_number, code, note, status, created_by, created_at}], "count": n}.
        """
        extra = None
        if args.project_id:
            ids = [r["payroll_id"] for r in self.select("payrolls", {"project_id": args.project_id})]
            extra = equals_all({"payroll_id": ids or ["<none>"]})
        rows = self.select(
            "compliance_flags",
            {"payroll_id": args.payroll_id, "code": args.code},
            extra=extra,
            order_by=["payroll_id", "line_number", "code"],
        )
        return {"flags": rows, "count": len(rows)}

    # ------------------------------------------------------------------ writes
    @tool("lines.flag", writes=True)
    def lines_flag(self, args: FlagArgs) -> dict[str, Any]:
        """Raise a compliance flag on one WH-347 line (one row per line and code).

        Codes: underpayment (base rate below the determination), fringe_shortfall (fringe below the
        determination), apprentice_ratio (apprentice over the allowed ratio), unregistered_apprentice
        (apprentice without a registration), misclassification, other. Flagging the same line with
        the same code twice is a conflict.

        Args:
            payroll_id: e.g. "CP-1042-2026-01-24".
            line_number: e.g. 3.
            code: e.g. "underpayment".
            note: e.g. "Paid $45.00/hr; determination requires $48.50 for Electrician".

        Returns {"flag": {flag_id, payroll_id, line_number, code, note, status, created_by, created_at}}.
        """
        self.require("payrolls", "certified payroll", payroll_id=args.payroll_id)
        if not self.select("payroll_lines", {"payroll_id": args.payroll_id, "line_number": args.line_number}):
            raise ToolError(f"payroll {args.payroll_id} has no line {args.line_number}", "not_found")
        dup = self.select(
            "compliance_flags", {"payroll_id": args.payroll_id, "line_number": args.line_number, "code": args.code}
        )
        if dup:
            raise ToolError(
                f"line {args.line_number} of {args.payroll_id} is already flagged {args.code} "
                f"(flag {dup[0]['flag_id']})",
                "conflict",
            )
        row = {
            "flag_id": self.new_id("flag", args.payroll_id, args.line_number, args.code),
            "payroll_id": args.payroll_id,
            "line_number": args.line_number,
            "code": args.code,
            "note": args.note.strip(),
            "status": "Open",
            "created_by": self.REVIEWER,
            "created_at": self.now,
        }
        self.insert("compliance_flags", row)
        return {"flag": row}

    @tool("flags.delete", writes=True)
    def flags_delete(self, args: FlagRefArgs) -> dict[str, Any]:
        """Remove a flag you raised yourself (flags raised by others cannot be removed).

        Args:
            flag_id: e.g. "3f9a0c1b2d4e".

        Returns {"deleted": flag_id}.
        """
        flag = self.require("compliance_flags", "flag", flag_id=args.flag_id)
        if flag["created_by"] != self.REVIEWER:
            raise ToolError(
                f"flag {args.flag_id} was raised by {flag['created_by']}; you can only remove your own", "rejected"
            )
        self.delete("compliance_flags", {"flag_id": args.flag_id})
        return {"deleted": args.flag_id}

    # ------------------------------------------------------------------ guarded
    @tool("submissions.submit", guarded="efile", aliases=("lcp_submit",))
    def submissions_submit(self, args: SubmissionRefArgs) -> dict[str, Any]:
        """Certify the WH-347 (Statement of Compliance) and e-file it to the awarding body
        (GUARDED: staged for human approval, never executed).

        Args:
            payroll_id: e.g. "CP-1042-2026-01-24"; or project_id + week_ending.
            project_id: e.g. "1042".
            week_ending: e.g. "2026-01-24".

        Returns {"would_certify_and_file": {payroll_id, project_id, week_ending, lines, open_flags}, "status": "pending_human_approval"}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        payroll = self._payroll(args.payroll_id, args.project_id, args.week_ending)
        if payroll["status"] == "Accepted":
            raise ToolError(f"payroll {payroll['payroll_id']} was already accepted by the agency", "rejected")
        flags = self.select("compliance_flags", {"payroll_id": payroll["payroll_id"], "status": "Open"})
        return {
            "would_certify_and_file": {
                "payroll_id": payroll["payroll_id"],
                "project_id": payroll["project_id"],
                "week_ending": payroll["week_ending"],
                "lines": len(self._lines(payroll["payroll_id"])),
                "open_flags": len(flags),
            },
            "status": "pending_human_approval",
        }

    # ------------------------------------------------------------------ integration (Python-level)
    def open_flags(self, project_id: str | None = None) -> list[dict[str, Any]]:
        """Open compliance flags (for payroll apps that hold a release on flagged lines)."""
        return self.flags_list(FlagListArgs(project_id=project_id))["flags"]


@register
class LCPtracker(CertifiedPayrollArchetype):
    """LCPtracker Pro."""

    name: ClassVar[str] = "lcptracker"
    label: ClassVar[str] = "LCPtracker"
    tier = "A"
