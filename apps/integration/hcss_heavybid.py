"""HCSS HeavyBid: the estimating system (estimates, bid items, resources). Read-only."""

from __future__ import annotations

from datetime import date
from typing import Any, ClassVar

from pydantic import Field

from cfab.apps.contract import App
from cfab.apps.kit import date_range
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool


class EstimateListArgs(ToolArgs):
    job_number: str | None = Field(None, description="Job number the estimate is for", examples=["1042"])
    status: str | None = Field(None, description="Awarded, Lost or Open", examples=["Awarded"])
    bid_date_from: date | None = Field(None, description="Earliest bid date", examples=["2024-01-01"])
    bid_date_to: date | None = Field(None, description="Latest bid date", examples=["2025-12-31"])


class EstimateRefArgs(ToolArgs):
    estimate_id: str | None = Field(
        None, description="Estimate id; or give job_number for its awarded estimate", examples=["EST-1042"]
    )
    job_number: str | None = Field(
        None, description="Job number (returns the awarded estimate, else the latest)", examples=["1042"]
    )


class BidItemListArgs(ToolArgs):
    estimate_id: str = Field(..., description="Estimate id", examples=["EST-1042"])
    cost_code: str | None = Field(None, description="Only items with this cost code", examples=["26-100"])


class ResourceListArgs(ToolArgs):
    estimate_id: str = Field(..., description="Estimate id", examples=["EST-1042"])
    resource_type: str | None = Field(
        None, description="Labor, Material, Subcontract, Equipment or Other", examples=["Subcontract"]
    )


@register
class HcssHeavyBid(App):
    """HCSS HeavyBid: estimates and their bid items and resources."""

    name: ClassVar[str] = "hcss_heavybid"
    label: ClassVar[str] = "HCSS HeavyBid"
    kind: ClassVar[str] = "estimating"
    archetype = "Integration/Estimating"
    tier = "C"

    def _estimate(self, estimate_id: str | None, job_number: str | None) -> dict[str, Any]:
        if estimate_id:
            return self.require("estimates", "estimate", estimate_id=estimate_id)
        if not job_number:
            raise ToolError("give estimate_id or job_number", "invalid_argument")
        rows = self.select("estimates", {"job_number": job_number}, order_by=["bid_date", "estimate_id"])
        if not rows:
            raise ToolError(f"no estimate for job {job_number} in {self.label}", "not_found")
        awarded = [r for r in rows if r["status"] == "Awarded"]
        return (awarded or rows)[-1]

    @tool("estimates.list")
    def estimates_list(self, args: EstimateListArgs) -> dict[str, Any]:
        """List estimates (bids).

        Args:
            job_number: e.g. "1042".
            status: "Awarded", "Lost" or "Open".
            bid_date_from: e.g. "2024-01-01".
            bid_date_to: e.g. "2025-12-31".

        Returns {"estimates": [{estimate_id, estimate_code, job_number, estimate_name, bid_date, status, total_cost,
        markup_percent, bid_total, item_count}], "count": n}.
        """
        rows = self.select(
            "estimates",
            {"job_number": args.job_number, "status": args.status},
            extra=date_range("bid_date", args.bid_date_from, args.bid_date_to),
            order_by=["job_number", "bid_date", "estimate_id"],
        )
        return {"estimates": rows, "count": len(rows)}

    @tool("estimates.get")
    def estimates_get(self, args: EstimateRefArgs) -> dict[str, Any]:
        """One estimate with its bid items (cost code, quantity, units, unit cost, total).

        Args:
            estimate_id: e.g. "EST-1042"; or job_number.
            job_number: e.g. "1042" (the awarded estimate, else the latest).

        Returns {"estimate": {...}, "biditems": [{biditem_code, item_no, cost_code, description, quantity, units,
        unit_cost, total_cost}], "count": n}.
        """
        est = self._estimate(args.estimate_id, args.job_number)
        items = self.select("biditems", {"estimate_id": est["estimate_id"]}, order_by=["item_no"])
        return {"estimate": est, "biditems": items, "count": len(items)}

    @tool("bid_items.list")
    def bid_items_list(self, args: BidItemListArgs) -> dict[str, Any]:
        """List the bid items of an estimate.

        Args:
            estimate_id: e.g. "EST-1042".
            cost_code: e.g. "26-100".

        Returns {"biditems": [{estimate_id, biditem_code, item_no, cost_code, description, quantity, units, unit_cost,
        total_cost}], "count": n}.
        """
        self.require("estimates", "estimate", estimate_id=args.estimate_id)
        rows = self.select(
            "biditems", {"estimate_id": args.estimate_id, "cost_code": args.cost_code}, order_by=["item_no"]
        )
        return {"biditems": rows, "count": len(rows)}

    @tool("resources.list")
    def resources_list(self, args: ResourceListArgs) -> dict[str, Any]:
        """List the resources (labor, material, subcontract, equipment) behind an estimate's bid items.

        Args:
            estimate_id: e.g. "EST-1042".
            resource_type: e.g. "Subcontract".

        Returns {"resources": [{biditem_code, resource_code, resource_type, description, quantity, units, unit_price,
        total}], "count": n}.
        """
        self.require("estimates", "estimate", estimate_id=args.estimate_id)
        rows = self.select(
            "resources",
            {"estimate_id": args.estimate_id, "resource_type": args.resource_type},
            order_by=["biditem_code", "resource_code"],
        )
        return {"resources": rows, "count": len(rows)}

    # ------------------------------------------------------------------ integration (Python-level)
    def estimate_for_job(self, job_number: str) -> dict[str, Any] | None:
        """The awarded (else latest) estimate of a job with its bid items, or None (for budget seeding)."""
        try:
            return self.estimates_get(EstimateRefArgs(job_number=job_number))
        except ToolError:
            return None
