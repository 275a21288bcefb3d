"""HCSS HeavyBid: the estimating system (estimates, bid items, resources) and its equipment setup
(each unit with its effective-dated hourly Rent and EOE rates: the company's rate book). Read-only."""

from __future__ import annotations

from datetime import date
from typing import Any, ClassVar

from pydantic import Field
from sqlglot import exp

from cfab.apps.contract import App
from cfab.apps.kit import all_of, date_range, ieq, in_list
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool
from cfab.schema.sqlbuild import col, literal


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


class EquipmentListArgs(ToolArgs):
    category: str | None = Field(None, description="Equipment category", examples=["EXCAVATORS"])
    ownership: str | None = Field(None, description="Owned or Rented", examples=["Owned"])


class EquipmentRefArgs(ToolArgs):
    equipment_code: str = Field(..., description="Equipment code (the unit number)", examples=["EX-104"])


class EquipmentRatesArgs(ToolArgs):
    equipment_code: str | None = Field(None, description="Only this unit", examples=["EX-104"])
    category: str | None = Field(None, description="Only units of this category", examples=["EXCAVATORS"])
    as_of: date | None = Field(
        None, description="Only the rate in effect on this date, one per unit (ISO)", examples=["2026-01-15"]
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

    # ------------------------------------------------------------------ equipment setup
    def _rates(self, codes: list[str] | None, as_of: date | None, code: str | None = None) -> list[dict[str, Any]]:
        """Rate-book rows of these units (all when None; ``code`` compared case-insensitively), oldest
        first; with ``as_of`` only the row in effect on that date per unit."""
        rows = self.select(
            "equipment_rates",
            extra=all_of(
                in_list("equipment_code", codes) if codes is not None else None,
                ieq("equipment_code", code),
                exp.LTE(this=col("effective_date"), expression=literal(as_of, "DATE")) if as_of else None,
            ),
            order_by=["equipment_code", "effective_date"],
        )
        if as_of is None:
            return rows
        latest = {r["equipment_code"]: r for r in rows}  # the last row on or before the date, per unit
        return list(latest.values())

    def _units(self, category: str | None, ownership: str | None) -> list[dict[str, Any]]:
        where = all_of(ieq("category", category), ieq("ownership", ownership))
        return self.select("equipment", extra=where, order_by=["equipment_code"])

    @tool("equipment.list")
    def equipment_list(self, args: EquipmentListArgs) -> dict[str, Any]:
        """List the equipment setup: each unit with the hourly rates in effect today.

        Args:
            category: e.g. "EXCAVATORS".
            ownership: "Owned" or "Rented".

        Returns {"equipment": [{equipment_code, description, category, ownership, make, model, model_year,
        serial_number, rental_vendor, rent_unit, rent_rate, eoe_rate, total_rate, rate_effective_date}], "count": n}.
        Rates are per hour: Rent (ownership cost, or the rental) + EOE (operating expense) = total; see
        equipment.get or equipment_rates.list for each unit's rate history.
        """
        units = self._units(args.category, args.ownership)
        now = {r["equipment_code"]: r for r in self._rates([u["equipment_code"] for u in units], self.today)}
        out = []
        for u in units:
            r = now.get(u["equipment_code"], {})
            out.append(
                {
                    **u,
                    "rent_rate": r.get("rent_rate"),
                    "eoe_rate": r.get("eoe_rate"),
                    "total_rate": r.get("total_rate"),
                    "rate_effective_date": r.get("effective_date"),
                }
            )
        return {"equipment": out, "count": len(out)}

    @tool("equipment.get")
    def equipment_get(self, args: EquipmentRefArgs) -> dict[str, Any]:
        """One unit of the equipment setup with its rate history (every effective-dated rate).

        Args:
            equipment_code: e.g. "EX-104".

        Returns {"equipment": {...}, "rates": [{effective_date, rent_rate, eoe_rate, total_rate, note}], "count": n}.
        A rate is in effect from its effective date until the next one's.
        """
        code = args.equipment_code.strip()
        unit = self.select("equipment", extra=ieq("equipment_code", code))
        if not unit:
            raise ToolError(f"no equipment {code!r} in {self.label} (equipment codes look like 'EX-104')", "not_found")
        rates = self._rates([unit[0]["equipment_code"]], None)
        return {"equipment": unit[0], "rates": rates, "count": len(rates)}

    @tool("equipment_rates.list")
    def equipment_rates_list(self, args: EquipmentRatesArgs) -> dict[str, Any]:
        """List the equipment rate book: effective-dated hourly Rent and EOE rates per unit.

        Args:
            equipment_code: e.g. "EX-104".
            category: e.g. "EXCAVATORS".
            as_of: e.g. "2026-01-15": only the rate in effect on that date, one per unit.

        Returns {"rates": [{equipment_code, effective_date, rent_rate, eoe_rate, total_rate, note}], "count": n}.
        """
        codes = [u["equipment_code"] for u in self._units(args.category, None)] if args.category else None
        rows = self._rates(codes, args.as_of, args.equipment_code)
        return {"rates": rows, "count": len(rows)}

    # ------------------------------------------------------------------ integration (Python-level)
    def estimate_for_job(self, job_number: str) -> dict[str, Any] | None:
        """The awarded (else latest) estimate of a job with its bid items, or None (for budget seeding)."""
        try:
            return self.estimates_get(EstimateRefArgs(job_number=job_number))
        except ToolError:
            return None
