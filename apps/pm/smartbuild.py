"""SmarteBuild: residential estimating — the estimate's bill of quantities (with re-estimates),
cost centres, the client claim schedule, progress claims and variations."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar, Literal

from pydantic import Field

from cfab.apps.kit import cents, dec, money_arg, percent_arg
from cfab.apps.pm.base import PMApp
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool

Q4 = Decimal("0.0001")


class BoqArgs(ToolArgs):
    job_number: str | None = Field(None, description="Company job number (its accepted estimate)", examples=["1042"])
    estimate_id: str | None = Field(None, description="Estimate id instead of the job", examples=["EST-1042"])
    cost_code: str | None = Field(None, description="Only items of this cost code", examples=["26-100"])


class ReestimateArgs(ToolArgs):
    estimate_id: str | None = Field(None, description="Estimate id", examples=["EST-1042"])
    job_number: str | None = Field(
        None, description="Company job number (its accepted estimate) instead of estimate_id", examples=["1042"]
    )
    item_no: int = Field(..., description="BOQ item number", examples=[3])
    quantity: Decimal | None = Field(None, description="Re-estimated quantity (default: unchanged)", examples=["1400"])
    rate: Decimal | None = Field(
        None, description="Re-estimated rate per unit (default: unchanged)", examples=["86.50"]
    )
    note: str = Field(
        ..., max_length=400, description="Basis of the re-estimate", examples=["Measured on site 2026-01-28"]
    )


class ClaimsArgs(ToolArgs):
    job_number: str | None = Field(None, description="Company job number", examples=["1042"])
    status: Literal["Draft", "Lodged", "Certified", "Paid"] | None = Field(
        None, description="Draft, Lodged, Certified or Paid", examples=["Certified"]
    )


class ClaimGetArgs(ToolArgs):
    claim_id: str = Field(..., description="Progress claim id", examples=["SB-1042-PC01"])


class Progress(ToolArgs):
    item_no: int = Field(..., description="Claim schedule item number", examples=[1])
    pct_complete: Decimal = Field(..., description="Cumulative work percent complete, 0..100", examples=["45.5"])
    materials_on_site: Decimal | None = Field(
        None, description="Materials stored on site for the item (default: the claim schedule's)", examples=["15000.00"]
    )


class CreateClaimArgs(ToolArgs):
    job_number: str = Field(..., description="Company job number", examples=["1042"])
    period_end: date = Field(..., description="Claim period end (ISO)", examples=["2026-01-31"])
    progress: list[Progress] | None = Field(
        None,
        description="Cumulative work percent complete (and optionally "
        "materials on site) per claim item; items not given use the claim "
        "schedule's current site progress",
        examples=[[{"item_no": 1, "pct_complete": "45.5"}]],
    )


@register
class SmarteBuild(PMApp):
    """SmarteBuild: jobs, estimates/BOQ, cost centres, progress claims, variations, subcontracts."""

    name: ClassVar[str] = "smartbuild"
    label: ClassVar[str] = "SmarteBuild"
    tier = "B"

    T_PROJECT = "jobs"
    P_ID = "job_id"
    P_NUMBER = "job_no"
    P_NAME = "job_name"
    P_STATUS = "status"
    T_VENDOR = "suppliers"
    V_ID = "supplier_id"
    V_NAME = "supplier_name"
    V_TRADE = "trade"
    T_COMMIT = "subcontracts"
    C_ID = "subcontract_id"
    C_PROJECT = "job_id"
    C_VENDOR = "supplier_id"
    C_NUMBER = "order_no"
    C_CODE = "sc_number"
    C_STATUS = "status"
    C_TYPE = "order_type"
    C_AMOUNT = "contract_value"
    C_RETAINAGE = "retention_pct"
    T_COMMIT_LINES = "subcontract_items"
    CL_FK = "subcontract_id"
    CL_ORDER = "item_no"
    T_CO = "variations"
    CO_PROJECT = "job_id"
    CO_STATUS = "status"
    CO_ORDER = ("job_id", "variation_no")
    EX_PROJECTS = "jobs"
    EX_VENDORS = "suppliers"
    EX_COMMITMENTS = "subcontracts"
    EX_COMMITMENT = "subcontract"
    EX_CHANGE_ORDERS = "variations"
    TOOL_NAMES: ClassVar[dict[str, str]] = {
        "projects.list": "jobs.list",
        "vendors.list": "suppliers.list",
        "commitments.list": "subcontracts.list",
        "commitments.get": "subcontracts.get",
        "change_orders.list": "variations.list",
    }
    EX_PROJECT_STATUS = "Construction"
    EX_VENDOR_ID = "SUP-1000"
    EX_COMMITMENT_STATUS = "Committed"
    EX_COMMITMENT_TYPE = "Subcontract"
    EX_CO_STATUS = "Approved"

    # ------------------------------------------------------------------ helpers
    def _estimate(self, estimate_id: str | None, job_number: str | None) -> dict[str, Any]:
        if estimate_id:
            rows = self.select("estimates", {"estimate_id": estimate_id.strip()})
            if not rows:
                raise ToolError(f"no estimate {estimate_id!r} in SmarteBuild", "not_found")
            return rows[0]
        if not job_number:
            raise ToolError("give estimate_id or job_number")
        job = self._project(job_number)
        rows = self.select("estimates", {"job_id": job["job_id"]}, order_by=["estimate_date", "estimate_id"])
        accepted = [r for r in rows if r["status"] == "Accepted"]
        if not (accepted or rows):
            raise ToolError(f"job {job_number} has no estimate in SmarteBuild", "not_found")
        return (accepted or rows)[-1]

    def _claim(self, claim_id: str) -> dict[str, Any]:
        rows = self.select("progress_claims", {"claim_id": claim_id.strip()})
        if not rows:
            raise ToolError(f"no progress claim {claim_id!r} in SmarteBuild", "not_found")
        return rows[0]

    @staticmethod
    def _boq_totals(items: list[dict[str, Any]]) -> dict[str, Decimal]:
        est = sum((dec(i["cost_total"]) for i in items), Decimal("0"))
        cur = sum(
            (dec(i["reestimate_total"] if i["reestimate_total"] is not None else i["cost_total"]) for i in items),
            Decimal("0"),
        )
        return {"estimate_total": cents(est), "current_total": cents(cur), "change": cents(cur - est)}

    # ------------------------------------------------------------------ reads
    @tool("boq.get")
    def boq_get(self, args: BoqArgs) -> dict[str, Any]:
        """The bill of quantities of a job's accepted estimate (or a given estimate), with any re-estimates.

        Each item is quantity x rate = cost_total; a re-estimate records a new quantity and/or rate
        (reestimate_total). current_total uses the re-estimate where there is one.

        Args:
            job_number: company job number, e.g. "1042".
            estimate_id: an estimate id instead, e.g. "EST-1042".
            cost_code: only this cost code, e.g. "26-100".

        Returns {"estimate": {...}, "items": [{estimate_id, item_no, cost_code, description, quantity, unit, rate,
        cost_total, reestimate_quantity, reestimate_rate, reestimate_total, reestimate_status, reestimate_note,
        reestimated_at}], "totals": {estimate_total, current_total, change}, "by_cost_code": [...]}.
        """
        est = self._estimate(args.estimate_id, args.job_number)
        items = self.select(
            "boq_items", {"estimate_id": est["estimate_id"], "cost_code": args.cost_code}, order_by=["item_no"]
        )
        by: dict[str, list] = {}
        for i in items:
            by.setdefault(i["cost_code"], []).append(i)
        return {
            "estimate": est,
            "items": items,
            "totals": self._boq_totals(items),
            "by_cost_code": [{"cost_code": c, **self._boq_totals(v)} for c, v in sorted(by.items())],
        }

    @tool("claims.list")
    def claims_list(self, args: ClaimsArgs) -> dict[str, Any]:
        """List progress claims to the client.

        Args:
            job_number: company job number, e.g. "1042".
            status: Draft, Lodged, Certified or Paid.

        Returns {"claims": [{claim_id, job_id, claim_no, period_end, claim_date, status, contract_sum,
        value_completed_to_date, retention_to_date, less_previous_claims, this_claim, amount_due, certified_amount,
        created_at}], "count": n}.
        """
        rows = self.select(
            "progress_claims",
            {"job_id": self._project_id(args.job_number), "status": args.status},
            order_by=["job_id", "claim_no"],
        )
        return {"claims": rows, "count": len(rows)}

    @tool("claims.get")
    def claims_get(self, args: ClaimGetArgs) -> dict[str, Any]:
        """One progress claim with its lines.

        Args:
            claim_id: progress claim id, e.g. "SB-1042-PC01".

        Returns {"claim": {...}, "lines": [{item_no, description, contract_value, pct_complete, materials_on_site,
        value_to_date, previous_value, this_claim}]}.
        """
        claim = self._claim(args.claim_id)
        lines = self.select("progress_claim_lines", {"claim_id": claim["claim_id"]}, order_by=["item_no"])
        return {"claim": claim, "lines": lines}

    # ------------------------------------------------------------------ writes
    @tool("claims.create_draft", writes=True)
    def claims_create_draft(self, args: CreateClaimArgs) -> dict[str, Any]:
        """Create the next progress claim for a job as a Draft, from cumulative percent complete per claim item.

        Per item: value to date = contract value x work percent complete + materials on site; this
        claim = value to date - the previous claim's value to date (negative when stored materials
        were used up). Retention is the job's retention % of the value to date (the step-down %
        once the job is past its step-down point); amount due = value to date - retention - the
        previous claim's value less retention. A job has one Draft claim at a time. Nothing is sent
        to the client (lodging is guarded).

        Args:
            job_number: company job number, e.g. "1042".
            period_end: claim period end, e.g. "2026-01-31".
            progress: e.g. [{"item_no": 1, "pct_complete": "45.5"}] (optionally "materials_on_site"); other
                items use the schedule's site progress and materials on site.

        Returns {"claim": {claim_id, claim_no, status: "Draft", contract_sum, value_completed_to_date,
        retention_to_date, less_previous_claims, this_claim, amount_due, ...}, "lines": [...]}.
        """
        job = self._project(args.job_number)
        claims = self.select("progress_claims", {"job_id": job["job_id"]}, order_by=["claim_no"])
        if any(c["status"] == "Draft" for c in claims):
            draft = next(c for c in claims if c["status"] == "Draft")
            raise ToolError(
                f"job {job['job_no']} already has a Draft claim ({draft['claim_id']}); finish or lodge it first",
                "conflict",
            )
        previous = claims[-1] if claims else None
        if previous is not None and args.period_end <= previous["period_end"]:
            raise ToolError(
                f"period_end {args.period_end} is not after the previous claim's period end {previous['period_end']}"
            )
        schedule = self.select("claim_schedule", {"job_id": job["job_id"]}, order_by=["item_no"])
        if not schedule:
            raise ToolError(f"job {job['job_no']} has no claim schedule", "not_found")
        given: dict[int, Decimal] = {}
        stored: dict[int, Decimal] = {}
        known = {s["item_no"] for s in schedule}
        for p in args.progress or []:
            if p.item_no not in known:
                raise ToolError(
                    f"job {job['job_no']} has no claim item {p.item_no}; items: "
                    f"{', '.join(str(k) for k in sorted(known))}",
                    "not_found",
                )
            if p.item_no in given:
                raise ToolError(f"claim item {p.item_no} is given twice")
            given[p.item_no] = percent_arg(p.pct_complete, f"pct_complete of item {p.item_no}")
            if p.materials_on_site is not None:
                stored[p.item_no] = money_arg(p.materials_on_site, f"materials_on_site of item {p.item_no}")
        prev_lines = {}
        if previous is not None:
            prev_lines = {
                ln["item_no"]: ln for ln in self.select("progress_claim_lines", {"claim_id": previous["claim_id"]})
            }
        claim_no = (previous["claim_no"] + 1) if previous else 1
        claim_id = f"{job['job_id']}-PC{claim_no:02d}"
        lines = []
        for s in schedule:
            pct = given.get(s["item_no"], dec(s["pct_complete"]))
            materials = stored.get(s["item_no"], dec(s["materials_on_site"]))
            value = cents(dec(s["contract_value"]) * pct / 100) + materials
            if value > dec(s["contract_value"]):
                raise ToolError(
                    f"item {s['item_no']}: {value} to date (work plus materials on site) is more than "
                    f"its contract value {s['contract_value']}"
                )
            prev_value = dec(prev_lines[s["item_no"]]["value_to_date"]) if s["item_no"] in prev_lines else Decimal("0")
            lines.append(
                {
                    "claim_id": claim_id,
                    "item_no": s["item_no"],
                    "description": s["description"],
                    "contract_value": s["contract_value"],
                    "pct_complete": pct.quantize(Q4),
                    "materials_on_site": cents(materials),
                    "value_to_date": cents(value),
                    "previous_value": cents(prev_value),
                    "this_claim": cents(value - prev_value),
                }
            )
        contract_sum = cents(sum((dec(s["contract_value"]) for s in schedule), Decimal("0")))
        to_date = cents(sum((ln["value_to_date"] for ln in lines), Decimal("0")))
        ret_pct = dec(job["retention_pct"])
        if (
            job["step_down_at_pct"] is not None
            and job["retention_step_down_pct"] is not None
            and contract_sum
            and to_date * 100 / contract_sum >= dec(job["step_down_at_pct"])
        ):
            ret_pct = dec(job["retention_step_down_pct"])
        retention = cents(to_date * ret_pct / 100)
        less_previous = Decimal("0.00")
        prev_to_date = Decimal("0.00")
        if previous is not None:
            prev_to_date = dec(previous["value_completed_to_date"])
            less_previous = cents(prev_to_date - dec(previous["retention_to_date"]))
        claim = {
            "claim_id": claim_id,
            "job_id": job["job_id"],
            "claim_no": claim_no,
            "period_end": args.period_end,
            "claim_date": self.today,
            "status": "Draft",
            "contract_sum": contract_sum,
            "value_completed_to_date": to_date,
            "retention_to_date": retention,
            "less_previous_claims": less_previous,
            "this_claim": cents(to_date - prev_to_date),
            "amount_due": cents(to_date - retention - less_previous),
            "certified_amount": None,
            "created_at": self.now,
        }
        self.insert("progress_claims", claim)
        self.insert_many("progress_claim_lines", lines)
        return {"claim": {**claim, "retention_pct": ret_pct}, "lines": lines}

    @tool("estimates.reestimate", writes=True)
    def estimates_reestimate(self, args: ReestimateArgs) -> dict[str, Any]:
        """Record a re-estimate of one BOQ item (new quantity and/or rate); the original estimate is kept.

        Args:
            estimate_id: estimate id, e.g. "EST-1042" (or job_number for the job's accepted estimate).
            job_number: company job number, e.g. "1042".
            item_no: BOQ item number, e.g. 3.
            quantity: re-estimated quantity, e.g. "1400".
            rate: re-estimated rate, e.g. "86.50".
            note: basis, e.g. "Measured on site 2026-01-28".

        Returns {"item": {...}, "previous_total", "reestimate_total", "change", "cost_code_totals": {estimate_total,
        current_total, change}, "cost_centre": {job budget line for the cost code} | null}.
        """
        est = self._estimate(args.estimate_id, args.job_number)
        rows = self.select("boq_items", {"estimate_id": est["estimate_id"], "item_no": args.item_no})
        if not rows:
            raise ToolError(f"estimate {est['estimate_id']} has no BOQ item {args.item_no}", "not_found")
        item = rows[0]
        if args.quantity is None and args.rate is None:
            raise ToolError("give a new quantity, a new rate, or both")
        qty = dec(args.quantity) if args.quantity is not None else dec(item["reestimate_quantity"] or item["quantity"])
        rate = dec(args.rate) if args.rate is not None else dec(item["reestimate_rate"] or item["rate"])
        if qty < 0 or rate < 0 or not qty.is_finite() or not rate.is_finite():
            raise ToolError("quantity and rate must be zero or more")
        try:
            exact = qty == qty.quantize(Q4) and rate == rate.quantize(Q4)
            total = cents(qty * rate)
        except InvalidOperation:  # beyond 28 significant digits (e.g. 1e309)
            raise ToolError(f"quantity or rate out of range: {args.quantity}, {args.rate}") from None
        if not exact:
            raise ToolError("quantity and rate take at most four decimal places")
        previous = dec(item["reestimate_total"] if item["reestimate_total"] is not None else item["cost_total"])
        self.update(
            "boq_items",
            {"estimate_id": item["estimate_id"], "item_no": item["item_no"]},
            {
                "reestimate_quantity": qty,
                "reestimate_rate": rate,
                "reestimate_total": total,
                "reestimate_status": "Re-estimated",
                "reestimate_note": args.note.strip(),
                "reestimated_at": self.now,
            },
        )
        same = self.select("boq_items", {"estimate_id": item["estimate_id"], "cost_code": item["cost_code"]})
        centre = self.select("cost_centres", {"job_id": est["job_id"], "cost_code": item["cost_code"]})
        updated = self.select("boq_items", {"estimate_id": item["estimate_id"], "item_no": item["item_no"]})[0]
        return {
            "item": updated,
            "previous_total": cents(previous),
            "reestimate_total": total,
            "change": cents(total - previous),
            "cost_code_totals": self._boq_totals(same),
            "cost_centre": centre[0] if centre else None,
        }

    @tool("claims.lodge", guarded="send")
    def claims_lodge(self, args: ClaimGetArgs) -> dict[str, Any]:
        """Lodge a Draft progress claim with the client (a send: staged for a human, never executed).

        Args:
            claim_id: progress claim id, e.g. "SB-1042-PC02".

        Returns a description of the claim that would be lodged: {"claim_id", "job_id", "amount_due", ...}.
        """
        claim = self._claim(args.claim_id)
        if claim["status"] != "Draft":
            raise ToolError(
                f"claim {claim['claim_id']} is {claim['status']}; only a Draft claim can be lodged", "rejected"
            )
        lines = self.select("progress_claim_lines", {"claim_id": claim["claim_id"]})
        total = cents(sum((dec(ln["value_to_date"]) for ln in lines), Decimal("0")))
        if total != cents(dec(claim["value_completed_to_date"])):
            raise ToolError(
                f"claim {claim['claim_id']}: lines add up to {total}, the claim says "
                f"{claim['value_completed_to_date']}",
                "rejected",
            )
        return {
            "would": "lodge claim with the client",
            "claim_id": claim["claim_id"],
            "job_id": claim["job_id"],
            "claim_no": claim["claim_no"],
            "period_end": claim["period_end"],
            "amount_due": claim["amount_due"],
        }
