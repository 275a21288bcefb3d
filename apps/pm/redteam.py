"""RedTeam Go: commercial GC platform — commitments with subcontractor SOVs, change orders and
eApps (subcontractor electronic pay applications) held to the commitment cap."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import Field

from cfab.apps.kit import cents, date_range, dec, in_list
from cfab.apps.pm.base import MAX_ROWS, PMApp
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool

APPROVED = "Approved"
SUBMITTED = "Submitted"
HELD = "Held"
REJECTED = "Rejected"
DRAFT = "Draft"


class SovArgs(ToolArgs):
    commitment_id: str = Field(
        ..., description="RedTeam commitment id, company code or agreement number", examples=["SC-1042-0"]
    )


class EappsArgs(ToolArgs):
    project_number: str | None = Field(None, description="Company job number", examples=["1042"])
    commitment_id: str | None = Field(None, description="Commitment id, company code or number", examples=["SC-1042-0"])
    company_id: str | None = Field(None, description="RedTeam company id of the subcontractor", examples=["RT-C-1000"])
    status: Literal["Draft", "Submitted", "Approved", "Held", "Rejected"] | None = Field(
        None, description="Draft, Submitted, Approved, Held or Rejected", examples=["Submitted"]
    )
    date_from: date | None = Field(None, description="First submitted date (ISO)", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Last submitted date (ISO)", examples=["2026-01-31"])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[100])


class EappGetArgs(ToolArgs):
    eapp_id: int = Field(..., description="RedTeam eApp id", examples=[800004])


class ReviewArgs(ToolArgs):
    eapp_id: int = Field(..., description="RedTeam eApp id", examples=[800004])
    action: Literal["approve", "hold", "reject"] = Field(
        ...,
        description="approve, hold (keep it open with a reason, e.g. over the commitment cap) or reject",
        examples=["hold"],
    )
    reason: str | None = Field(
        None,
        max_length=400,
        description="Why (required to hold or reject)",
        examples=["Bills past the commitment cap: remaining 317,000.00"],
    )


@register
class RedTeam(PMApp):
    """RedTeam Go: projects, companies, commitments (SOV), change orders and eApps."""

    name: ClassVar[str] = "redteam"
    label: ClassVar[str] = "RedTeam Go"
    tier = "B"

    T_PROJECT = "projects"
    P_ID = "project_id"
    P_NUMBER = "job_number"
    P_NAME = "project_name"
    P_STATUS = "project_status"
    T_VENDOR = "companies"
    V_ID = "company_id"
    V_NAME = "company_name"
    V_TRADE = "trade"
    T_COMMIT = "commitments"
    C_ID = "commitment_id"
    C_PROJECT = "project_id"
    C_VENDOR = "company_id"
    C_NUMBER = "pm_number"
    C_CODE = "commitment_number"
    C_STATUS = "status"
    C_TYPE = "commitment_type"
    C_AMOUNT = "revised_amount"
    C_RETAINAGE = "retainage_pct"
    T_COMMIT_LINES = "commitment_sov"
    CL_FK = "commitment_id"
    CL_ORDER = "line_no"
    T_CO = "change_orders"
    CO_PROJECT = "project_id"
    CO_STATUS = "status"
    CO_ORDER = ("project_id", "co_number")
    EX_VENDORS = "companies"
    TOOL_NAMES: ClassVar[dict[str, str]] = {"vendors.list": "companies.list"}
    EX_PROJECT_STATUS = "In Progress"
    EX_VENDOR_ID = "RT-C-1000"
    EX_COMMITMENT_STATUS = "Locked"
    EX_COMMITMENT_TYPE = "Subcontract"
    EX_CO_STATUS = "Approved"

    # ------------------------------------------------------------------ billing against the cap
    def _billing(self, commitment: dict[str, Any], exclude_eapp: int | None = None) -> dict[str, Any]:
        """Approved billing on a commitment (optionally without one eApp) and what remains under its cap."""
        eapps = self.select("eapps", {"commitment_id": commitment["commitment_id"], "status": APPROVED})
        eapps = [e for e in eapps if e["eapp_id"] != exclude_eapp]
        billed = cents(sum((dec(e["amount_this_period"]) for e in eapps), Decimal("0")))
        lines_billed: dict[int, Decimal] = {}
        if eapps:
            for ln in self.select("eapp_lines", extra=in_list("eapp_id", [e["eapp_id"] for e in eapps], "BIGINT")):
                if ln["sov_line_no"] is not None:
                    sov = ln["sov_line_no"]
                    lines_billed[sov] = lines_billed.get(sov, Decimal("0")) + dec(ln["this_period"])
        cap = dec(commitment["revised_amount"])
        return {
            "commitment_cap": cents(cap),
            "approved_billed_to_date": billed,
            "remaining": cents(cap - billed),
            "lines_billed": lines_billed,
        }

    def _cap_check(self, eapp: dict[str, Any]) -> dict[str, Any]:
        commitment = self.select("commitments", {"commitment_id": eapp["commitment_id"]})[0]
        bill = self._billing(commitment, exclude_eapp=eapp["eapp_id"])
        amount = dec(eapp["amount_this_period"])
        sov = {ln["line_no"]: ln for ln in self._commitment_lines(commitment["commitment_id"])}
        line_checks = []
        for ln in self.select("eapp_lines", {"eapp_id": eapp["eapp_id"]}, order_by=["line_no"]):
            s = sov.get(ln["sov_line_no"])
            if s is None:
                continue
            open_amt = cents(dec(s["scheduled_value"]) - bill["lines_billed"].get(ln["sov_line_no"], Decimal("0")))
            line_checks.append(
                {
                    "line_no": ln["line_no"],
                    "sov_line_no": ln["sov_line_no"],
                    "cost_code": ln["cost_code"],
                    "this_period": ln["this_period"],
                    "sov_remaining": open_amt,
                    "over_line": dec(ln["this_period"]) > open_amt,
                }
            )
        over = amount > bill["remaining"]
        return {
            "commitment_number": commitment["commitment_number"],
            "commitment_cap": bill["commitment_cap"],
            "approved_billed_to_date_excluding_this": bill["approved_billed_to_date"],
            "remaining_before_this": bill["remaining"],
            "amount_this_period": cents(amount),
            "over_commitment_cap": over,
            "over_by": cents(amount - bill["remaining"]) if over else Decimal("0.00"),
            "lines": line_checks,
        }

    def _eapp(self, eapp_id: int) -> dict[str, Any]:
        rows = self.select("eapps", {"eapp_id": eapp_id})
        if not rows:
            raise ToolError(f"no eApp with id {eapp_id} in RedTeam Go", "not_found")
        return rows[0]

    def _commitment_extra(self, row: dict[str, Any]) -> dict[str, Any]:
        bill = self._billing(row)
        return {
            "commitment_cap": bill["commitment_cap"],
            "approved_billed_to_date": bill["approved_billed_to_date"],
            "remaining": bill["remaining"],
        }

    # ------------------------------------------------------------------ reads
    @tool("commitments.sov")
    def commitments_sov(self, args: SovArgs) -> dict[str, Any]:
        """A commitment's schedule of values with what approved eApps have billed per line.

        Args:
            commitment_id: RedTeam id, company code "SC-1042-0" or agreement number "1042-01".

        Returns {"commitment": {...}, "sov": [{line_no, cost_code, description, scheduled_value, pct_complete,
        billed_to_date, remaining}], "commitment_cap", "approved_billed_to_date", "remaining"}.
        """
        row = self._commitment(args.commitment_id)
        bill = self._billing(row)
        sov = []
        for ln in self._commitment_lines(row["commitment_id"]):
            billed = cents(bill["lines_billed"].get(ln["line_no"], Decimal("0")))
            sov.append({**ln, "billed_to_date": billed, "remaining": cents(dec(ln["scheduled_value"]) - billed)})
        return {
            "commitment": self._decorate_commitments([row])[0],
            "sov": sov,
            "commitment_cap": bill["commitment_cap"],
            "approved_billed_to_date": bill["approved_billed_to_date"],
            "remaining": bill["remaining"],
        }

    @tool("eapps.list")
    def eapps_list(self, args: EappsArgs) -> dict[str, Any]:
        """List eApps: subcontractor electronic pay applications submitted against commitment SOVs.

        Args:
            project_number: company job number, e.g. "1042".
            commitment_id: commitment id, company code "SC-1042-0" or number.
            company_id: RedTeam company id, e.g. "RT-C-1000".
            status: Draft, Submitted, Approved, Held or Rejected.
            date_from: first submitted date, e.g. "2026-01-01".
            date_to: last submitted date, e.g. "2026-01-31".
            limit: most rows, e.g. 100.

        Returns {"eapps": [{eapp_id, project_id, commitment_id, company_id, app_number, invoice_number, period_start,
        period_end, submitted_date, due_date, amount_this_period, retainage_this_period, net_due, status,
        review_reason, reviewed_at, payment_status, commitment_number}], "count": n, "truncated": bool}.
        """
        commitment = self._commitment(args.commitment_id)["commitment_id"] if args.commitment_id else None
        rows = self.select(
            "eapps",
            {
                "project_id": self._project_id(args.project_number),
                "commitment_id": commitment,
                "company_id": args.company_id,
                "status": args.status,
            },
            extra=date_range("submitted_date", args.date_from, args.date_to),
            order_by=["project_id", "commitment_id", "app_number"],
            limit=args.limit,
        )
        if rows:
            cms = {
                c["commitment_id"]: c["commitment_number"]
                for c in self.select(
                    "commitments", extra=in_list("commitment_id", {r["commitment_id"] for r in rows}, "BIGINT")
                )
            }
            rows = [{**r, "commitment_number": cms.get(r["commitment_id"])} for r in rows]
        return {"eapps": rows, "count": len(rows), "truncated": len(rows) >= args.limit}

    @tool("eapps.get")
    def eapps_get(self, args: EappGetArgs) -> dict[str, Any]:
        """One eApp with its lines and the commitment-cap check (what is left to bill before this eApp).

        Args:
            eapp_id: RedTeam eApp id, e.g. 800004.

        Returns {"eapp": {...}, "lines": [{line_no, sov_line_no, cost_code, description, this_period, retainage}],
        "cap_check": {commitment_number, commitment_cap, approved_billed_to_date_excluding_this,
        remaining_before_this, amount_this_period, over_commitment_cap, over_by, lines: [...]}}.
        """
        eapp = self._eapp(args.eapp_id)
        lines = self.select("eapp_lines", {"eapp_id": eapp["eapp_id"]}, order_by=["line_no"])
        return {"eapp": eapp, "lines": lines, "cap_check": self._cap_check(eapp)}

    # ------------------------------------------------------------------ writes
    @tool("eapps.review", writes=True)
    def eapps_review(self, args: ReviewArgs) -> dict[str, Any]:
        """Review a submitted eApp: approve it, hold it, or reject it (hold and reject need a reason).

        An eApp that bills past the commitment's remaining amount (its commitment cap) must not be
        approved: hold it with the reason. Approving here does not pay anything; paying is the
        separate, guarded eapps.approve_for_payment.

        Args:
            eapp_id: RedTeam eApp id, e.g. 800004.
            action: "approve", "hold" or "reject".
            reason: why, e.g. "Bills past the commitment cap: remaining 317,000.00".

        Returns {"eapp_id", "status", "review_reason", "reviewed_at", "cap_check": {...}, "warnings": [...]}.
        """
        eapp = self._eapp(args.eapp_id)
        what = f"eApp {eapp['eapp_id']} (#{eapp['app_number']}, invoice {eapp['invoice_number']})"
        if eapp["status"] == DRAFT:
            raise ToolError(f"{what} is a Draft: the subcontractor has not submitted it yet", "rejected")
        if eapp["status"] in (APPROVED, REJECTED):
            raise ToolError(f"{what} was already reviewed ({eapp['status']})", "conflict")
        reason = (args.reason or "").strip() or None
        if args.action in ("hold", "reject") and not reason:
            raise ToolError(f"a reason is required to {args.action} {what}")
        status = {"approve": APPROVED, "hold": HELD, "reject": REJECTED}[args.action]
        check = self._cap_check(eapp)
        warnings = []
        if args.action == "approve" and check["over_commitment_cap"]:
            warnings.append(
                f"approved although it bills {check['amount_this_period']} against a remaining "
                f"{check['remaining_before_this']} on {check['commitment_number']} "
                f"(over the commitment cap by {check['over_by']})"
            )
        with self.gate.workflow("redteam.eapps.review"):  # triggers/rules/redteam.toml: review only here
            self.update(
                "eapps",
                {"eapp_id": eapp["eapp_id"]},
                {"status": status, "review_reason": reason, "reviewed_at": self.now},
            )
        return {
            "eapp_id": eapp["eapp_id"],
            "status": status,
            "review_reason": reason,
            "reviewed_at": self.now,
            "cap_check": check,
            "warnings": warnings,
        }

    @tool("eapps.approve_for_payment", guarded="payment")
    def eapps_approve_for_payment(self, args: EappGetArgs) -> dict[str, Any]:
        """Approve an approved eApp for payment to the subcontractor (money movement: staged for a human, never executed).

        Args:
            eapp_id: RedTeam eApp id, e.g. 800004.

        Returns a description of the payment that would be released: {"eapp_id", "company_id", "net_due",
        "commitment_number"}.
        """  # noqa: E501
        eapp = self._eapp(args.eapp_id)
        what = f"eApp {eapp['eapp_id']} (invoice {eapp['invoice_number']})"
        if eapp["status"] != APPROVED:
            raise ToolError(f"{what} is {eapp['status']}; only approved eApps can be approved for payment", "rejected")
        if eapp["payment_status"] in ("Paid", "Approved for Payment"):
            raise ToolError(f"{what} is already {eapp['payment_status']}", "conflict")
        check = self._cap_check(eapp)
        if check["over_commitment_cap"]:
            raise ToolError(
                f"{what} bills past the commitment cap of {check['commitment_number']} "
                f"by {check['over_by']}; it cannot be paid",
                "rejected",
            )
        return {
            "would": "approve for payment",
            "eapp_id": eapp["eapp_id"],
            "company_id": eapp["company_id"],
            "net_due": eapp["net_due"],
            "commitment_number": check["commitment_number"],
        }
