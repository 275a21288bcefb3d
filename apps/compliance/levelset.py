"""Levelset: lien-waiver exchange and lien notices.

The lien-waiver archetype: the companies (subcontractors, suppliers) as Levelset spells them,
the company's jobs, collected waivers, waiver requests and notices. Drafting a waiver request
is a normal write; sending it out for e-signature and paying against a waiver are guarded.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import Field

from cfab.apps.contract import App
from cfab.apps.kit import date_range, ilike, money_arg
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool

WaiverType = Literal["Conditional Progress", "Unconditional Progress", "Conditional Final", "Unconditional Final"]


class CompanyListArgs(ToolArgs):
    name_contains: str | None = Field(None, description="Part of the company name", examples=["walsh"])
    company_id: str | None = Field(None, description="Levelset company id", examples=["LS-20417"])
    role: str | None = Field(
        None, description="Subcontractor, Supplier, Professional or Service", examples=["Subcontractor"]
    )


class JobListArgs(ToolArgs):
    status: str | None = Field(None, description="Active or Closed", examples=["Active"])
    name_contains: str | None = Field(None, description="Part of the job name", examples=["library"])


class WaiverListArgs(ToolArgs):
    job_id: str | None = Field(None, description="Levelset job number (the company job number)", examples=["1042"])
    company_id: str | None = Field(None, description="Levelset company id", examples=["LS-20417"])
    status: str | None = Field(None, description="Requested, Received, Approved or Rejected", examples=["Received"])
    waiver_type: WaiverType | None = Field(None, description="Waiver type", examples=["Conditional Progress"])
    through_from: date | None = Field(None, description="Earliest through date", examples=["2025-12-01"])
    through_to: date | None = Field(None, description="Latest through date", examples=["2026-01-31"])


class RequestListArgs(ToolArgs):
    job_id: str | None = Field(None, description="Levelset job number", examples=["1042"])
    company_id: str | None = Field(None, description="Levelset company id", examples=["LS-20417"])
    status: str | None = Field(None, description="Draft, Sent, Signed or Cancelled", examples=["Draft"])


class RequestCreateArgs(ToolArgs):
    job_id: str = Field(..., description="Levelset job number", examples=["1042"])
    company_id: str = Field(..., description="Levelset company id of the vendor", examples=["LS-20417"])
    waiver_type: WaiverType = Field(..., description="Waiver type to request", examples=["Conditional Progress"])
    amount: Decimal = Field(..., description="Payment amount the waiver covers", examples=["43650.00"])
    through_date: date = Field(..., description="Work through date the waiver covers", examples=["2026-01-31"])
    payment_reference: str | None = Field(
        None, description="The vendor's invoice / pay request number", examples=["WEC-2026-004"]
    )
    due_date: date | None = Field(
        None, description="When the signed waiver is due (default: 14 days from today)", examples=["2026-02-14"]
    )
    note: str | None = Field(
        None, description="Message to the vendor", examples=["Waiver for January progress billing"]
    )


class RequestRefArgs(ToolArgs):
    request_id: str = Field(..., description="Waiver request id", examples=["c0ffee123456"])


class NoticeListArgs(ToolArgs):
    job_id: str | None = Field(None, description="Levelset job number", examples=["1042"])


class PaymentArgs(ToolArgs):
    job_id: str = Field(..., description="Levelset job number", examples=["1042"])
    company_id: str = Field(..., description="Levelset company id", examples=["LS-20417"])
    waiver_id: str = Field(..., description="The waiver received for this payment", examples=["LW-V1000-3"])
    amount: Decimal = Field(..., description="Amount to pay", examples=["43650.00"])


class LienWaiverArchetype(App):
    """Lien-waiver exchange: companies, jobs, waivers, waiver requests, notices."""

    archetype = "Lien/CertPayroll/Tax"
    kind: ClassVar[str] = "lien_waivers"

    # ------------------------------------------------------------------ reads
    @tool("companies.list")
    def companies_list(self, args: CompanyListArgs) -> dict[str, Any]:
        """List companies (subcontractors and suppliers) as $label knows them.

        Args:
            name_contains: part of the name, e.g. "walsh".
            company_id: e.g. "LS-20417".
            role: e.g. "Subcontractor".

        Returns {"companies": [{company_id, company_name, role, trade, email, phone, address, city, state, zip}], "count": n}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        rows = self.select(
            "companies",
            {"company_id": args.company_id, "role": args.role},
            extra=ilike("company_name", args.name_contains),
        )
        return {"companies": rows, "count": len(rows)}

    @tool("jobs.list")
    def jobs_list(self, args: JobListArgs) -> dict[str, Any]:
        """List the company's jobs in $label.

        Args:
            status: "Active" or "Closed".
            name_contains: part of the job name, e.g. "library".

        Returns {"jobs": [{job_id, job_name, job_address, city, state, county, owner_name, project_type,
        first_furnished_date, status}], "count": n}.
        """
        rows = self.select("jobs", {"status": args.status}, extra=ilike("job_name", args.name_contains))
        return {"jobs": rows, "count": len(rows)}

    @tool("waivers.list")
    def waivers_list(self, args: WaiverListArgs) -> dict[str, Any]:
        """List lien waivers collected from vendors.

        Args:
            job_id: e.g. "1042".
            company_id: e.g. "LS-20417".
            status: "Requested", "Received", "Approved" or "Rejected".
            waiver_type: e.g. "Conditional Progress".
            through_from: e.g. "2025-12-01".
            through_to: e.g. "2026-01-31".

        Returns {"waivers": [{waiver_id, job_id, company_id, company_name, waiver_type, amount, through_date,
        payment_reference, status, signer_name, signed_date, document_id}], "count": n}.
        """
        rows = self.select(
            "waivers",
            {
                "job_id": args.job_id,
                "company_id": args.company_id,
                "status": args.status,
                "waiver_type": args.waiver_type,
            },
            extra=date_range("through_date", args.through_from, args.through_to),
            order_by=["job_id", "through_date", "waiver_id"],
        )
        names = {c["company_id"]: c["company_name"] for c in self.select("companies")}
        rows = [{**r, "company_name": names.get(r["company_id"])} for r in rows]
        return {"waivers": rows, "count": len(rows)}

    @tool("waiver_requests.list")
    def waiver_requests_list(self, args: RequestListArgs) -> dict[str, Any]:
        """List waiver requests sent to (or drafted for) vendors.

        Args:
            job_id: e.g. "1042".
            company_id: e.g. "LS-20417".
            status: "Draft", "Sent", "Signed" or "Cancelled".

        Returns {"requests": [{request_id, job_id, company_id, waiver_type, amount, through_date, payment_reference,
        due_date, status, waiver_id, note, created_at}], "count": n}.
        """
        rows = self.select(
            "waiver_requests",
            {"job_id": args.job_id, "company_id": args.company_id, "status": args.status},
            order_by=["job_id", "created_at", "request_id"],
        )
        return {"requests": rows, "count": len(rows)}

    @tool("notices.list")
    def notices_list(self, args: NoticeListArgs) -> dict[str, Any]:
        """List lien notices (preliminary notices, notices of intent) on the company's jobs.

        Args:
            job_id: e.g. "1042".

        Returns {"notices": [{notice_id, job_id, notice_type, recipient, sent_date, deadline_date, status}], "count": n}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        rows = self.select("notices", {"job_id": args.job_id}, order_by=["job_id", "sent_date"])
        return {"notices": rows, "count": len(rows)}

    # ------------------------------------------------------------------ writes
    @tool("waiver_requests.create", writes=True)
    def waiver_requests_create(self, args: RequestCreateArgs) -> dict[str, Any]:
        """Draft a lien-waiver request to a vendor for a payment. The draft is not sent: sending it for
        e-signature is a separate, guarded step (waivers.send_for_signature).

        Args:
            job_id: e.g. "1042".
            company_id: e.g. "LS-20417".
            waiver_type: e.g. "Conditional Progress".
            amount: e.g. "43650.00".
            through_date: e.g. "2026-01-31".
            payment_reference: e.g. "WEC-2026-004".
            due_date: e.g. "2026-02-14".
            note: e.g. "Waiver for January progress billing".

        Returns {"request": {request_id, job_id, company_id, waiver_type, amount, through_date, due_date, status "Draft", ...}}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        self.require("jobs", "job", job_id=args.job_id)
        self.require("companies", "company", company_id=args.company_id)
        amount = money_arg(args.amount, "amount")
        if amount <= 0:
            raise ToolError("amount must be greater than zero", "invalid_argument")
        same = self.select(
            "waiver_requests",
            {
                "company_id": args.company_id,
                "job_id": args.job_id,
                "waiver_type": args.waiver_type,
                "through_date": args.through_date,
                "amount": amount,
            },
        )
        dup = [r for r in same if r["status"] != "Cancelled"]
        if dup:
            raise ToolError(
                f"a {args.waiver_type} request for {amount} through {args.through_date} already exists "
                f"({dup[0]['request_id']}, {dup[0]['status']})",
                "conflict",
            )
        due = args.due_date or (self.today + timedelta(days=14))
        if due < self.today:
            raise ToolError(f"due_date {due} is in the past", "invalid_argument")
        row = {
            "request_id": "",
            "job_id": args.job_id,
            "company_id": args.company_id,
            "waiver_type": args.waiver_type,
            "amount": amount,
            "through_date": args.through_date,
            "payment_reference": args.payment_reference,
            "due_date": due,
            "status": "Draft",
            "waiver_id": None,
            "note": args.note,
            "created_at": self.now,
        }
        # the id is derived from the natural key (and how many cancelled requests share it)
        request_id = self.new_id(
            "waiver_request", args.company_id, args.job_id, args.waiver_type, args.through_date, amount, len(same)
        )
        row["request_id"] = request_id
        self.insert("waiver_requests", row)
        return {"request": row}

    @tool("waiver_requests.cancel", writes=True)
    def waiver_requests_cancel(self, args: RequestRefArgs) -> dict[str, Any]:
        """Cancel a DRAFT waiver request (sent requests are cancelled with the vendor, not here).

        Args:
            request_id: e.g. "c0ffee123456".

        Returns {"request": {..., status "Cancelled"}}.
        """
        req = self.require("waiver_requests", "waiver request", request_id=args.request_id)
        if req["status"] != "Draft":
            raise ToolError(
                f"request {args.request_id} is {req['status']}; only drafts can be cancelled here", "rejected"
            )
        with self.gate.workflow("levelset.waiver_requests.cancel"):  # triggers/rules/levelset.toml
            self.update("waiver_requests", {"request_id": args.request_id}, {"status": "Cancelled"})
        return {"request": self.require("waiver_requests", "waiver request", request_id=args.request_id)}

    # ------------------------------------------------------------------ guarded
    @tool("waivers.send_for_signature", guarded="esign")
    def waivers_send_for_signature(self, args: RequestRefArgs) -> dict[str, Any]:
        """Send a drafted waiver request to the vendor for e-signature (GUARDED: staged for human
        approval, never executed).

        Args:
            request_id: the draft request, e.g. "c0ffee123456".

        Returns {"would_send": {request_id, company_id, company_name, email, waiver_type, amount, through_date}, "status": "pending_human_approval"}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        req = self.require("waiver_requests", "waiver request", request_id=args.request_id)
        if req["status"] != "Draft":
            raise ToolError(f"request {args.request_id} is {req['status']}, not a draft", "rejected")
        company = self.require("companies", "company", company_id=req["company_id"])
        return {
            "would_send": {
                "request_id": req["request_id"],
                "company_id": company["company_id"],
                "company_name": company["company_name"],
                "email": company["email"],
                "waiver_type": req["waiver_type"],
                "amount": req["amount"],
                "through_date": req["through_date"],
            },
            "status": "pending_human_approval",
        }

    @tool("payments.create", guarded="payment")
    def payments_create(self, args: PaymentArgs) -> dict[str, Any]:
        """Pay a vendor through Levelset against a received waiver (GUARDED: staged for human approval,
        never executed).

        Args:
            job_id: e.g. "1042".
            company_id: e.g. "LS-20417".
            waiver_id: e.g. "LW-V1000-3".
            amount: e.g. "43650.00".

        Returns {"would_pay": {company_id, job_id, waiver_id, amount}, "status": "pending_human_approval"}.
        """
        waiver = self.require("waivers", "waiver", waiver_id=args.waiver_id)
        if waiver["company_id"] != args.company_id or waiver["job_id"] != args.job_id:
            raise ToolError(
                f"waiver {args.waiver_id} is not from {args.company_id} on job {args.job_id}", "invalid_argument"
            )
        if waiver["status"] not in ("Received", "Approved"):
            raise ToolError(
                f"waiver {args.waiver_id} is {waiver['status']}; no signed waiver to pay against", "rejected"
            )
        amount = money_arg(args.amount, "amount")
        if amount <= 0 or amount > waiver["amount"]:
            raise ToolError(f"amount must be > 0 and at most the waiver amount {waiver['amount']}", "invalid_argument")
        return {
            "would_pay": {
                "company_id": args.company_id,
                "job_id": args.job_id,
                "waiver_id": args.waiver_id,
                "amount": amount,
            },
            "status": "pending_human_approval",
        }

    # ------------------------------------------------------------------ integration (Python-level)
    def waivers_for(self, company_id: str, job_id: str | None = None) -> list[dict[str, Any]]:
        """Waivers of one company (optionally on one job), for AP holds and pay-app packages."""
        return self.select(
            "waivers", {"company_id": company_id, "job_id": job_id}, order_by=["through_date", "waiver_id"]
        )


@register
class Levelset(LienWaiverArchetype):
    """Levelset."""

    name: ClassVar[str] = "levelset"
    label: ClassVar[str] = "Levelset"
    tier = "A"
