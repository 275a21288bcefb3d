"""INGENIOUS.BUILD: the owner/developer side — project budget ladder with the owner's ETC
forecast, contracts, vendor invoices, funding sources and funding allocation, approvals."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import Field

from cfab.apps.kit import PERCENT_STEP, cents, date_range, dec, money_arg
from cfab.apps.pm.base import MAX_ROWS, PMApp
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool

OPEN_STATUSES = ("Draft", "Submitted", "Rejected")


class BudgetArgs(ToolArgs):
    project_number: str = Field(..., description="Company job number", examples=["1042"])
    cost_code: str | None = Field(None, description="One cost code", examples=["26-100"])


class FundingArgs(ToolArgs):
    project_number: str = Field(..., description="Company job number", examples=["1042"])


class InvoicesArgs(ToolArgs):
    project_number: str | None = Field(None, description="Company job number", examples=["1042"])
    company_id: str | None = Field(None, description="INGENIOUS.BUILD company id of the vendor", examples=["IB-C-1000"])
    contract_number: str | None = Field(None, description="Contract number (company code)", examples=["SC-1042-0"])
    status: Literal["Draft", "Submitted", "Pending Approval", "Approved", "Rejected", "Paid"] | None = Field(
        None, description="Draft, Submitted, Pending Approval, Approved, Rejected or Paid", examples=["Submitted"]
    )
    funding_status: Literal["Unallocated", "Draft Allocation", "Allocated"] | None = Field(
        None, description="Unallocated, Draft Allocation or Allocated", examples=["Unallocated"]
    )
    date_from: date | None = Field(None, description="First invoice date (ISO)", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Last invoice date (ISO)", examples=["2026-01-31"])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[100])


class InvoiceGetArgs(ToolArgs):
    invoice_id: int = Field(..., description="INGENIOUS.BUILD invoice id", examples=[950004])


class Allocation(ToolArgs):
    funding_source_id: str = Field(..., description="Funding source id on the invoice's project", examples=["FS-1"])
    amount: Decimal = Field(..., description="Amount funded from this source (two decimals)", examples=["85500.00"])


class AllocateArgs(ToolArgs):
    invoice_id: int = Field(..., description="INGENIOUS.BUILD invoice id", examples=[950004])
    allocations: list[Allocation] = Field(
        ...,
        min_length=1,
        description="The split: one entry per funding source; the amounts must add up to the invoice's net amount",
        examples=[[{"funding_source_id": "FS-1", "amount": "85500.00"}]],
    )


class SubmitArgs(ToolArgs):
    object_type: Literal["invoice", "forecast"] = Field(
        ..., description="What to route: an invoice or a forecast revision", examples=["invoice"]
    )
    object_id: str = Field(..., description="The invoice id or the forecast revision id", examples=["950004"])
    note: str | None = Field(
        None, max_length=400, description="Note to the approver", examples=["Funded from equity per the draw order"]
    )


class ForecastArgs(ToolArgs):
    project_number: str = Field(..., description="Company job number", examples=["1042"])
    cost_code: str = Field(..., description="Budget line cost code", examples=["26-100"])
    forecast_to_complete: Decimal = Field(
        ..., description="New estimate to complete (two decimals, >= 0)", examples=["185000.00"]
    )
    note: str = Field(
        ..., max_length=400, description="Basis of the new forecast", examples=["PM re-forecast after CO 3"]
    )


@register
class IngeniousBuild(PMApp):
    """INGENIOUS.BUILD: owner budgets, contracts, invoices, funding sources and approvals."""

    name: ClassVar[str] = "ingenious_build"
    label: ClassVar[str] = "INGENIOUS.BUILD"
    tier = "B"

    T_PROJECT = "projects"
    P_ID = "project_id"
    P_NUMBER = "project_code"
    P_NAME = "name"
    P_STATUS = "status"
    T_VENDOR = "companies"
    V_ID = "company_id"
    V_NAME = "name"
    V_TRADE = "trade"
    T_COMMIT = "contracts"
    C_ID = "contract_id"
    C_PROJECT = "project_id"
    C_VENDOR = "company_id"
    C_NUMBER = "contract_number"
    C_CODE = "contract_number"
    C_STATUS = "status"
    C_TYPE = "contract_type"
    C_AMOUNT = "current_value"
    T_COMMIT_LINES = "contract_sov"
    CL_FK = "contract_id"
    CL_ORDER = "line_no"
    EX_VENDORS = "companies"
    EX_COMMITMENTS = "contracts"
    EX_COMMITMENT = "contract"
    TOOL_NAMES: ClassVar[dict[str, str]] = {
        "vendors.list": "companies.list",
        "commitments.list": "contracts.list",
        "commitments.get": "contracts.get",
    }
    DISABLED_TOOLS: ClassVar[frozenset[str]] = frozenset({"change_orders.list"})
    EX_PROJECT_STATUS = "Active"
    EX_VENDOR_ID = "IB-C-1000"
    EX_COMMITMENT_STATUS = "Executed"
    EX_COMMITMENT_TYPE = "Subcontract"

    # ------------------------------------------------------------------ helpers
    def _invoice(self, invoice_id: Any) -> dict[str, Any]:
        text = str(invoice_id).strip()
        if not text.isdigit():
            raise ToolError(f"invoice ids are numbers, got {text!r}", "invalid_argument")
        rows = self.select("invoices", {"invoice_id": int(text)})
        if not rows:
            raise ToolError(f"no invoice with id {text} in INGENIOUS.BUILD", "not_found")
        return rows[0]

    def _sources(self, project_id: str) -> list[dict[str, Any]]:
        """Funding sources with what is still available (less other invoices' draft allocations)."""
        sources = self.select("funding_sources", {"project_id": project_id}, order_by=["draw_priority"])
        drafts = self.select("invoice_funding", {"project_id": project_id, "status": "Draft"})
        out = []
        for s in sources:
            pending = sum(
                (dec(d["amount"]) for d in drafts if d["funding_source_id"] == s["funding_source_id"]), Decimal("0")
            )
            available = cents(dec(s["allocation_to_project"]) - dec(s["drawn_to_date"]) - pending)
            out.append({**s, "pending_draft_allocations": cents(pending), "available": available})
        return out

    def _budget_totals(self, rows: list[dict[str, Any]]) -> dict[str, Decimal]:
        cols = [
            "original_budget",
            "budget_changes",
            "current_budget",
            "committed",
            "applied_actuals",
            "uncommitted",
            "forecast_to_complete",
            "estimate_at_completion",
        ]
        out = {c: cents(sum((dec(r[c]) for r in rows), Decimal("0"))) for c in cols}
        out["forecast_to_complete_accounting_lines"] = cents(
            sum((dec(r["forecast_to_complete"]) for r in rows if r["accounting_integrated"]), Decimal("0"))
        )
        return out

    # ------------------------------------------------------------------ reads
    @tool("budgets.get")
    def budgets_get(self, args: BudgetArgs) -> dict[str, Any]:
        """The project budget: Original -> Committed -> Applied Actuals ladder per cost code, with the owner's ETC forecast.

        accounting_integrated is false for owner-only lines (e.g. contingency) that the
        contractor's ERP does not carry.

        Args:
            project_number: company job number, e.g. "1042".
            cost_code: one cost code, e.g. "26-100".

        Returns {"project": {...}, "budget_lines": [{project_id, cost_code, category, description, original_budget,
        budget_changes, current_budget, committed, applied_actuals, uncommitted, forecast_to_complete,
        estimate_at_completion, forecast_status, forecast_updated_at, accounting_integrated}], "totals": {...,
        forecast_to_complete_accounting_lines (the lines carried in the contractor's ERP)}, "count": n}.
        """  # noqa: E501
        project = self._project(args.project_number)
        rows = self.select(
            "budget_lines", {"project_id": project["project_id"], "cost_code": args.cost_code}, order_by=["cost_code"]
        )
        return {"project": project, "budget_lines": rows, "totals": self._budget_totals(rows), "count": len(rows)}

    @tool("funding_sources.list")
    def funding_sources_list(self, args: FundingArgs) -> dict[str, Any]:
        """List a project's funding sources in draw order, with what is still available to allocate.

        The project's funding policy is its draw order: draw_priority 1 is drawn first (equity,
        then grants, then loans); an invoice's net amount is funded from the first source with
        available balance and spills over to the next.

        Args:
            project_number: company job number, e.g. "1042".

        Returns {"funding_sources": [{project_id, funding_source_id, name, source_type, funding_method,
        allocation_to_project, drawn_to_date, draw_priority, pending_draft_allocations, available}], "count": n}.
        """
        project = self._project(args.project_number)
        rows = self._sources(project["project_id"])
        return {"funding_sources": rows, "count": len(rows)}

    @tool("invoices.list")
    def invoices_list(self, args: InvoicesArgs) -> dict[str, Any]:
        """List vendor invoices (contracted against a contract's SoV, or non-contracted).

        Args:
            project_number: company job number, e.g. "1042".
            company_id: vendor company id, e.g. "IB-C-1000".
            contract_number: contract number, e.g. "SC-1042-0".
            status: Draft, Submitted, Pending Approval, Approved, Rejected or Paid.
            funding_status: Unallocated, Draft Allocation or Allocated.
            date_from: first invoice date, e.g. "2026-01-01".
            date_to: last invoice date, e.g. "2026-01-31".
            limit: most rows, e.g. 100.

        Returns {"invoices": [{invoice_id, project_id, contract_id, company_id, invoice_type, custom_id, invoice_date,
        start_date, end_date, due_date, description, gross_amount, retainage_amount, net_amount, status,
        funding_status, approved_at}], "count": n, "truncated": bool}.
        """
        contract = self._commitment(args.contract_number)["contract_id"] if args.contract_number else None
        rows = self.select(
            "invoices",
            {
                "project_id": self._project_id(args.project_number),
                "company_id": args.company_id,
                "contract_id": contract,
                "status": args.status,
                "funding_status": args.funding_status,
            },
            extra=date_range("invoice_date", args.date_from, args.date_to),
            order_by=["project_id", "invoice_date", "invoice_id"],
            limit=args.limit,
        )
        return {"invoices": rows, "count": len(rows), "truncated": len(rows) >= args.limit}

    @tool("invoices.get")
    def invoices_get(self, args: InvoiceGetArgs) -> dict[str, Any]:
        """One invoice with its lines, its funding allocation and its approval requests.

        Args:
            invoice_id: invoice id, e.g. 950004.

        Returns {"invoice": {...}, "lines": [...], "funding": [{funding_source_id, amount, percent, status}],
        "funded_total", "unfunded", "approvals": [...], "contract": {...} | null}.
        """
        inv = self._invoice(args.invoice_id)
        lines = self.select("invoice_lines", {"invoice_id": inv["invoice_id"]}, order_by=["line_no"])
        funding = self.select("invoice_funding", {"invoice_id": inv["invoice_id"]}, order_by=["funding_source_id"])
        funded = cents(sum((dec(f["amount"]) for f in funding), Decimal("0")))
        approvals = self.select(
            "approval_requests",
            {"object_type": "Invoice", "object_id": str(inv["invoice_id"])},
            order_by=["submitted_at", "approval_id"],
        )
        contract = None
        if inv["contract_id"] is not None:
            contract = self.select("contracts", {"contract_id": inv["contract_id"]})[0]
        return {
            "invoice": inv,
            "lines": lines,
            "funding": funding,
            "funded_total": funded,
            "unfunded": cents(dec(inv["net_amount"]) - funded),
            "approvals": approvals,
            "contract": contract,
        }

    # ------------------------------------------------------------------ writes
    @tool("invoices.allocate_funding", writes=True)
    def invoices_allocate_funding(self, args: AllocateArgs) -> dict[str, Any]:
        """Split an invoice's net amount across the project's funding sources (a draft allocation).

        Follow the project's draw order (funding_sources.list): the first source with available
        balance funds first, the next takes the rest. The amounts must add up exactly to the
        invoice's net amount and no source may go past what it has available. Replaces any earlier
        draft allocation of this invoice. Nothing is drawn or paid.

        Args:
            invoice_id: invoice id, e.g. 950004.
            allocations: e.g. [{"funding_source_id": "FS-1", "amount": "85500.00"}].

        Returns {"invoice_id", "funding_status": "Draft Allocation", "allocations": [{funding_source_id, amount,
        percent}], "net_amount"}.
        """
        inv = self._invoice(args.invoice_id)
        what = f"invoice {inv['invoice_id']} ({inv['custom_id']})"
        if inv["status"] not in OPEN_STATUSES:
            raise ToolError(f"{what} is {inv['status']}; its funding can no longer change", "rejected")
        sources = {s["funding_source_id"]: s for s in self._sources(inv["project_id"])}
        existing = self.select("invoice_funding", {"invoice_id": inv["invoice_id"]})
        for e in existing:  # this invoice's own drafts do not count against availability
            if e["funding_source_id"] in sources:
                s = sources[e["funding_source_id"]]
                s["available"] = cents(s["available"] + dec(e["amount"]))
        seen: set[str] = set()
        plan = []
        for a in args.allocations:
            sid = a.funding_source_id.strip()
            if sid not in sources:
                known = ", ".join(sources) or "none"
                raise ToolError(f"no funding source {sid!r} on {what}'s project; sources: {known}", "not_found")
            if sid in seen:
                raise ToolError(f"funding source {sid} appears twice; give one amount per source")
            seen.add(sid)
            amount = money_arg(a.amount, f"amount for {sid}", allow_zero=False)
            if amount > sources[sid]["available"]:
                raise ToolError(
                    f"funding source {sid} has {sources[sid]['available']} available; {amount} is too much", "rejected"
                )
            plan.append((sid, amount))
        net = dec(inv["net_amount"])
        total = cents(sum((amt for _, amt in plan), Decimal("0")))
        if total != cents(net):
            raise ToolError(f"the allocations add up to {total} but {what}'s net amount is {cents(net)}")
        for e in existing:
            self.delete(
                "invoice_funding", {"invoice_id": inv["invoice_id"], "funding_source_id": e["funding_source_id"]}
            )
        out = []
        for sid, amount in plan:
            pct = (amount * 100 / net).quantize(PERCENT_STEP) if net else Decimal("0")
            self.insert(
                "invoice_funding",
                {
                    "invoice_id": inv["invoice_id"],
                    "funding_source_id": sid,
                    "project_id": inv["project_id"],
                    "amount": amount,
                    "percent": pct,
                    "status": "Draft",
                    "allocated_at": self.now,
                },
            )
            out.append({"funding_source_id": sid, "amount": amount, "percent": pct})
        self.update("invoices", {"invoice_id": inv["invoice_id"]}, {"funding_status": "Draft Allocation"})
        return {
            "invoice_id": inv["invoice_id"],
            "funding_status": "Draft Allocation",
            "allocations": out,
            "net_amount": inv["net_amount"],
        }

    @tool("approvals.submit", writes=True)
    def approvals_submit(self, args: SubmitArgs) -> dict[str, Any]:
        """Route an invoice (funding allocated) or a forecast revision for approval.

        An invoice must be Draft, Submitted or Rejected and fully funded by a draft allocation; it
        becomes "Pending Approval". A forecast revision must be Draft; it and its budget line become
        "Pending Approval". Approving is the approver's step, not this tool's.

        Args:
            object_type: "invoice" or "forecast".
            object_id: the invoice id (e.g. "950004") or the forecast revision id.
            note: note to the approver, e.g. "Funded from equity per the draw order".

        Returns {"approval_id", "object_type", "object_id", "status": "Pending", "approver_role"}.
        """
        with self.gate.workflow("ingenious_build.approvals.submit"):  # triggers/rules/ingenious_build.toml
            note = (args.note or "").strip()
            if args.object_type == "invoice":
                inv = self._invoice(args.object_id)
                what = f"invoice {inv['invoice_id']} ({inv['custom_id']})"
                if inv["status"] not in OPEN_STATUSES:
                    raise ToolError(f"{what} is {inv['status']}; it cannot be routed for approval", "rejected")
                funding = self.select("invoice_funding", {"invoice_id": inv["invoice_id"]})
                funded = cents(sum((dec(f["amount"]) for f in funding), Decimal("0")))
                if funded != cents(dec(inv["net_amount"])):
                    raise ToolError(
                        f"{what} is funded {funded} of {inv['net_amount']}; allocate its funding first "
                        f"(invoices.allocate_funding)",
                        "rejected",
                    )
                project_id, object_type, object_id, role = (
                    inv["project_id"],
                    "Invoice",
                    str(inv["invoice_id"]),
                    "Owner's Representative",
                )
                self.update("invoices", {"invoice_id": inv["invoice_id"]}, {"status": "Pending Approval"})
            else:
                revs = self.select("forecast_revisions", {"revision_id": args.object_id.strip()})
                if not revs:
                    raise ToolError(f"no forecast revision {args.object_id!r} in INGENIOUS.BUILD", "not_found")
                rev = revs[0]
                if rev["status"] != "Draft":
                    raise ToolError(f"forecast revision {rev['revision_id']} is {rev['status']}", "rejected")
                project_id, object_type, object_id, role = (
                    rev["project_id"],
                    "Forecast",
                    rev["revision_id"],
                    "Project Manager",
                )
                self.update("forecast_revisions", {"revision_id": rev["revision_id"]}, {"status": "Pending Approval"})
                self.update(
                    "budget_lines",
                    {"project_id": rev["project_id"], "cost_code": rev["cost_code"]},
                    {"forecast_status": "Pending Approval"},
                )
            prior = self.select("approval_requests", {"object_type": object_type, "object_id": object_id})
            approval_id = "APR-" + self.new_id(object_type, object_id, len(prior) + 1, length=10).upper()
            self.insert(
                "approval_requests",
                {
                    "approval_id": approval_id,
                    "project_id": project_id,
                    "object_type": object_type,
                    "object_id": object_id,
                    "step": 1,
                    "approver_role": role,
                    "status": "Pending",
                    "submitted_at": self.now,
                    "note": note,
                },
            )
        return {
            "approval_id": approval_id,
            "object_type": object_type,
            "object_id": object_id,
            "status": "Pending",
            "approver_role": role,
        }

    @tool("forecasts.update", writes=True)
    def forecasts_update(self, args: ForecastArgs) -> dict[str, Any]:
        """Set the owner's estimate to complete (ETC) for one budget line; recorded as a Draft forecast revision.

        Args:
            project_number: company job number, e.g. "1042".
            cost_code: budget line cost code, e.g. "26-100".
            forecast_to_complete: new ETC, e.g. "185000.00".
            note: basis, e.g. "PM re-forecast after CO 3".

        Returns {"revision_id", "project_id", "cost_code", "previous_forecast", "forecast_to_complete",
        "estimate_at_completion", "forecast_status": "Draft", "project_forecast_to_complete"}.
        """
        project = self._project(args.project_number)
        rows = self.select("budget_lines", {"project_id": project["project_id"], "cost_code": args.cost_code.strip()})
        if not rows:
            raise ToolError(f"project {args.project_number} has no budget line {args.cost_code!r}", "not_found")
        line = rows[0]
        amount = money_arg(args.forecast_to_complete, "forecast_to_complete")
        eac = cents(dec(line["applied_actuals"]) + amount)
        prior = self.select("forecast_revisions", {"project_id": project["project_id"], "cost_code": line["cost_code"]})
        revision_id = "FR-" + self.new_id(project["project_id"], line["cost_code"], len(prior) + 1, length=10).upper()
        self.insert(
            "forecast_revisions",
            {
                "revision_id": revision_id,
                "project_id": project["project_id"],
                "cost_code": line["cost_code"],
                "previous_forecast": line["forecast_to_complete"],
                "forecast_to_complete": amount,
                "note": args.note.strip(),
                "status": "Draft",
                "created_at": self.now,
            },
        )
        with self.gate.workflow("ingenious_build.forecasts.update"):  # a new draft replaces an approved forecast
            self.update(
                "budget_lines",
                {"project_id": project["project_id"], "cost_code": line["cost_code"]},
                {
                    "forecast_to_complete": amount,
                    "estimate_at_completion": eac,
                    "forecast_status": "Draft",
                    "forecast_updated_at": self.now,
                },
            )
        total = self.query(
            "SELECT sum(forecast_to_complete) AS t FROM ingenious_build.budget_lines WHERE project_id = ?",
            [project["project_id"]],
        )[0]["t"]
        return {
            "revision_id": revision_id,
            "project_id": project["project_id"],
            "cost_code": line["cost_code"],
            "previous_forecast": line["forecast_to_complete"],
            "forecast_to_complete": amount,
            "estimate_at_completion": eac,
            "forecast_status": "Draft",
            "project_forecast_to_complete": total,
            "accounting_integrated": line["accounting_integrated"],
        }

    @tool("invoices.approve_for_payment", guarded="payment")
    def invoices_approve_for_payment(self, args: InvoiceGetArgs) -> dict[str, Any]:
        """Approve an approved, fully funded invoice for payment (money movement: staged for a human, never executed).

        Args:
            invoice_id: invoice id, e.g. 950004.

        Returns a description of the payment that would be released: {"invoice_id", "company_id", "net_amount",
        "funding": [...]}.
        """
        inv = self._invoice(args.invoice_id)
        what = f"invoice {inv['invoice_id']} ({inv['custom_id']})"
        if inv["status"] == "Paid":
            raise ToolError(f"{what} is already paid", "conflict")
        if inv["status"] != "Approved":
            raise ToolError(
                f"{what} is {inv['status']}; only approved invoices can be approved for payment", "rejected"
            )
        funding = self.select("invoice_funding", {"invoice_id": inv["invoice_id"]})
        funded = cents(sum((dec(f["amount"]) for f in funding), Decimal("0")))
        if inv["funding_status"] != "Allocated" and funded != cents(dec(inv["net_amount"])):
            raise ToolError(f"{what} is not fully funded ({funded} of {inv['net_amount']})", "rejected")
        return {
            "would": "approve for payment",
            "invoice_id": inv["invoice_id"],
            "company_id": inv["company_id"],
            "net_amount": inv["net_amount"],
            "funding": funding,
        }
