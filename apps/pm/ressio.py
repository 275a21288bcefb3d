"""Ressio: residential builder software — purchase orders with cost items, bills, and
bill-to-PO matching (a bill item past what is open on its PO item is an exception)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import Field

from cfab.apps.kit import cents, date_range, dec, in_list
from cfab.apps.pm.base import MAX_ROWS, PMApp
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool

COUNTS_AGAINST_PO = ("Approved", "Paid")

MATCH_WORKFLOW = "ressio.bills.match_po"  # triggers/rules/ressio.toml: match records are written only here


class BillsArgs(ToolArgs):
    project_number: str | None = Field(None, description="Company job number", examples=["9140"])
    vendor_id: str | None = Field(None, description="Ressio vendor id", examples=["RV-1001"])
    po_number: str | None = Field(None, description="PO number or company commitment code", examples=["9140-75"])
    status: Literal["Draft", "Pending Approval", "Approved", "Rejected", "Paid"] | None = Field(
        None, description="Draft, Pending Approval, Approved, Rejected or Paid", examples=["Pending Approval"]
    )
    match_status: Literal["Unmatched", "Matched", "Exception"] | None = Field(
        None, description="Unmatched, Matched or Exception", examples=["Unmatched"]
    )
    accounting_status: Literal["Synced", "Not Synced"] | None = Field(
        None, description="Synced or Not Synced (to the ERP)", examples=["Not Synced"]
    )
    date_from: date | None = Field(None, description="First issued-on date (ISO)", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Last issued-on date (ISO)", examples=["2026-01-31"])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[100])


class BillGetArgs(ToolArgs):
    bill_id: int = Field(..., description="Ressio bill id", examples=[500007])


class MatchArgs(ToolArgs):
    bill_id: int = Field(..., description="Ressio bill id", examples=[500007])
    po_number: str | None = Field(
        None,
        description="The PO to match against (PO number or company code); default the PO already on the bill",
        examples=["9140-75"],
    )


@register
class Ressio(PMApp):
    """Ressio: projects, vendors, purchase orders, bills and bill-to-PO matching."""

    name: ClassVar[str] = "ressio"
    label: ClassVar[str] = "Ressio"
    tier = "B"

    T_PROJECT = "projects"
    P_ID = "project_id"
    P_NUMBER = "job_number"
    P_NAME = "project_name"
    P_STATUS = "status"
    T_VENDOR = "vendors"
    V_ID = "vendor_id"
    V_NAME = "vendor_name"
    V_TRADE = "trade"
    T_COMMIT = "purchase_orders"
    C_ID = "po_id"
    C_PROJECT = "project_id"
    C_VENDOR = "vendor_id"
    C_NUMBER = "po_number"
    C_CODE = "commitment_ref"
    C_STATUS = "status"
    C_TYPE = "po_type"
    C_AMOUNT = "total"
    T_COMMIT_LINES = "po_items"
    CL_FK = "po_id"
    CL_ORDER = "item_no"
    EX_COMMITMENTS = "purchase_orders"
    EX_COMMITMENT = "purchase_order"
    TOOL_NAMES: ClassVar[dict[str, str]] = {
        "commitments.list": "purchase_orders.list",
        "commitments.get": "purchase_orders.get",
    }
    DISABLED_TOOLS: ClassVar[frozenset[str]] = frozenset({"change_orders.list"})
    EX_PROJECT_STATUS = "Active"
    EX_VENDOR_ID = "RV-1001"
    EX_COMMITMENT_STATUS = "Approved"
    EX_COMMITMENT_TYPE = "Material"

    # ------------------------------------------------------------------ helpers
    def _bill(self, bill_id: int) -> dict[str, Any]:
        rows = self.select("bills", {"bill_id": bill_id})
        if not rows:
            raise ToolError(f"no bill with id {bill_id} in Ressio", "not_found")
        return rows[0]

    def _po_open(self, po_id: int, exclude_bill: int | None) -> dict[int, Decimal]:
        """What is still open per PO item: item amount less the items of bills that count against the PO."""
        items = {i["item_no"]: dec(i["amount"]) for i in self._commitment_lines(po_id)}
        bills = [
            b
            for b in self.select("bills", {"po_id": po_id})
            if b["bill_id"] != exclude_bill and (b["status"] in COUNTS_AGAINST_PO or b["match_status"] == "Matched")
        ]
        if bills:
            for bi in self.select("bill_items", extra=in_list("bill_id", [b["bill_id"] for b in bills], "BIGINT")):
                no = bi["po_item_no"]
                if no in items:
                    items[no] -= dec(bi["amount"])
        return {k: cents(v) for k, v in items.items()}

    def _po_item_for(self, item: dict[str, Any], po_items: list[dict[str, Any]]) -> dict[str, Any] | None:
        if item["po_item_no"] is not None:
            for p in po_items:
                if p["item_no"] == item["po_item_no"]:
                    return p
        same = [p for p in po_items if p["cost_code"] == item["cost_code"]]
        return same[0] if same else None

    def _commitment_extra(self, row: dict[str, Any]) -> dict[str, Any]:
        open_items = self._po_open(row["po_id"], None)
        return {
            "open_by_item": [{"item_no": k, "open_amount": v} for k, v in sorted(open_items.items())],
            "open_total": cents(sum(open_items.values(), Decimal("0"))),
        }

    # ------------------------------------------------------------------ reads
    @tool("bills.list")
    def bills_list(self, args: BillsArgs) -> dict[str, Any]:
        """List bills (vendor invoices) with their approval, PO-match and accounting-sync status.

        Args:
            project_number: company job number, e.g. "9140".
            vendor_id: Ressio vendor id, e.g. "RV-1001".
            po_number: PO number "9140-75" or company commitment code.
            status: Draft, Pending Approval, Approved, Rejected or Paid.
            match_status: Unmatched, Matched or Exception.
            accounting_status: Synced or Not Synced (to the ERP).
            date_from: first issued-on date, e.g. "2026-01-01".
            date_to: last issued-on date, e.g. "2026-01-31".
            limit: most rows, e.g. 100.

        Returns {"bills": [{bill_id, bill_name, project_id, vendor_id, po_id, issued_on, due_date, description,
        subtotal, retainage, total, status, match_status, accounting_status, file_name}], "count": n, "truncated": bool}.
        """  # noqa: E501
        po = self._commitment(args.po_number)["po_id"] if args.po_number else None
        rows = self.select(
            "bills",
            {
                "project_id": self._project_id(args.project_number),
                "vendor_id": self._vendor_key(args.vendor_id),
                "po_id": po,
                "status": args.status,
                "match_status": args.match_status,
                "accounting_status": args.accounting_status,
            },
            extra=date_range("issued_on", args.date_from, args.date_to),
            order_by=["project_id", "issued_on", "bill_id"],
            limit=args.limit,
        )
        return {"bills": rows, "count": len(rows), "truncated": len(rows) >= args.limit}

    @tool("bills.get")
    def bills_get(self, args: BillGetArgs) -> dict[str, Any]:
        """One bill with its cost items, vendor, project and PO, and what is still open on each PO item.

        Everything needed to book the bill elsewhere is here: vendor, job number, PO number and
        company commitment code, cost codes and amounts.

        Args:
            bill_id: Ressio bill id, e.g. 500007.

        Returns {"bill": {...}, "items": [{item_no, po_item_no, cost_code, description, amount, retainage,
        po_open_amount}], "vendor": {...}, "project": {job_number, project_name, ...}, "purchase_order": {...} | null,
        "matches": [...]}.
        """
        bill = self._bill(args.bill_id)
        items = self.select("bill_items", {"bill_id": bill["bill_id"]}, order_by=["item_no"])
        po = None
        if bill["po_id"] is not None:
            po = self.select("purchase_orders", {"po_id": bill["po_id"]})[0]
            open_items = self._po_open(po["po_id"], bill["bill_id"])
            items = [
                {**i, "po_open_amount": open_items.get(i["po_item_no"]) if i["po_item_no"] is not None else None}
                for i in items
            ]
        vendor = self.select("vendors", {"vendor_id": bill["vendor_id"]})
        project = self.select("projects", {"project_id": bill["project_id"]})
        matches = self.select("bill_po_matches", {"bill_id": bill["bill_id"]}, order_by=["item_no"])
        return {
            "bill": bill,
            "items": items,
            "vendor": vendor[0] if vendor else None,
            "project": project[0] if project else None,
            "purchase_order": po,
            "matches": matches,
        }

    # ------------------------------------------------------------------ writes
    @tool("bills.match_po", writes=True)
    def bills_match_po(self, args: MatchArgs) -> dict[str, Any]:
        """Match a bill to its purchase order, item by item, and record the result.

        Each bill item is checked against its PO item (by PO item, else by cost code): if the
        bill item is more than what is still open on the PO item, the bill is an Exception (flag
        it, do not pay or book it as matched); otherwise it is Matched. The results are kept in
        bill_po_matches and the bill's match_status is set. A bill is matched once.

        Args:
            bill_id: Ressio bill id, e.g. 500007.
            po_number: the PO, e.g. "9140-75" (default: the PO on the bill).

        Returns {"bill_id", "po_number", "match_status": "Matched" | "Exception", "items": [{item_no, po_item_no,
        result, bill_amount, po_open_amount, variance, reason}]}.
        """
        bill = self._bill(args.bill_id)
        what = f"bill {bill['bill_id']} ({bill['bill_name']})"
        if bill["status"] in ("Paid", "Rejected"):
            raise ToolError(f"{what} is {bill['status']}; it cannot be matched", "rejected")
        if bill["match_status"] != "Unmatched" or self.select("bill_po_matches", {"bill_id": bill["bill_id"]}):
            raise ToolError(f"{what} was already matched ({bill['match_status']})", "conflict")
        if args.po_number:
            po = self._commitment(args.po_number)
        elif bill["po_id"] is not None:
            po = self.select("purchase_orders", {"po_id": bill["po_id"]})[0]
        else:
            raise ToolError(f"{what} has no PO; give po_number", "invalid_argument")
        if bill["po_id"] is not None and po["po_id"] != bill["po_id"]:
            raise ToolError(f"{what} is on PO id {bill['po_id']}, not {po['po_number']}", "invalid_argument")
        if po["project_id"] != bill["project_id"] or po["vendor_id"] != bill["vendor_id"]:
            raise ToolError(f"PO {po['po_number']} is for another project or vendor than {what}", "rejected")
        if po["status"] == "Draft":
            raise ToolError(f"PO {po['po_number']} is a Draft; bills cannot be matched to it", "rejected")
        po_items = self._commitment_lines(po["po_id"])
        open_items = self._po_open(po["po_id"], bill["bill_id"])
        results = []
        for item in self.select("bill_items", {"bill_id": bill["bill_id"]}, order_by=["item_no"]):
            target = self._po_item_for(item, po_items)
            amount = dec(item["amount"])
            if target is None:
                open_amt, result = Decimal("0.00"), "Exception"
                reason = f"no PO item for cost code {item['cost_code']}"
            else:
                open_amt = open_items.get(target["item_no"], Decimal("0"))
                if amount > open_amt:
                    result = "Exception"
                    reason = (
                        f"bill item {cents(amount)} exceeds the {cents(open_amt)} open on PO item "
                        f"{target['item_no']} ({target['cost_code']})"
                    )
                else:
                    result, reason = "Matched", "within the open PO amount"
            variance = cents(amount - open_amt) if result == "Exception" else Decimal("0.00")
            row = {
                "bill_id": bill["bill_id"],
                "item_no": item["item_no"],
                "po_id": po["po_id"],
                "po_item_no": target["item_no"] if target else None,
                "result": result,
                "bill_amount": cents(amount),
                "po_open_amount": cents(open_amt),
                "variance": variance,
                "reason": reason,
                "matched_at": self.now,
            }
            with self.gate.workflow(MATCH_WORKFLOW):
                self.insert("bill_po_matches", row)
            results.append(
                {
                    k: row[k]
                    for k in ("item_no", "po_item_no", "result", "bill_amount", "po_open_amount", "variance", "reason")
                }
            )
        if not results:
            raise ToolError(f"{what} has no cost items to match", "rejected")
        status = "Exception" if any(r["result"] == "Exception" for r in results) else "Matched"
        with self.gate.workflow(MATCH_WORKFLOW):
            self.update("bills", {"bill_id": bill["bill_id"]}, {"match_status": status, "po_id": po["po_id"]})
        return {
            "bill_id": bill["bill_id"],
            "po_number": po["po_number"],
            "commitment_ref": po["commitment_ref"],
            "match_status": status,
            "items": results,
        }

    @tool("bills.pay", guarded="payment")
    def bills_pay(self, args: BillGetArgs) -> dict[str, Any]:
        """Pay a bill (money movement: staged for a human, never executed).

        Args:
            bill_id: Ressio bill id, e.g. 500007.

        Returns a description of the payment that would be made: {"bill_id", "vendor_id", "total"}.
        """
        bill = self._bill(args.bill_id)
        what = f"bill {bill['bill_id']} ({bill['bill_name']})"
        if bill["status"] == "Paid":
            raise ToolError(f"{what} is already paid", "conflict")
        if bill["match_status"] == "Exception":
            raise ToolError(f"{what} is a PO-match exception; it cannot be paid", "rejected")
        return {
            "would": "pay bill",
            "bill_id": bill["bill_id"],
            "vendor_id": bill["vendor_id"],
            "total": bill["total"],
            "status": bill["status"],
            "match_status": bill["match_status"],
        }
