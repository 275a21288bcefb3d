"""Assemble the AP invoice register: drafts from commitments and direct costs, the clock-month
staging and plants, vendor invoice numbers in each vendor's own style, rows and divergences."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds import anchors, held_out
from cfab.seeds.ap import (
    Draft,
    apply_clock_month,
    billed_ahead,
    commitment_drafts,
    po_mismatch,
    ressio_unbooked,
)
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import stable_id
from cfab.seeds.direct_costs import direct_cost_drafts

TERMS_DAYS = {"Net 30": 30, "2% 10 Net 30": 30, "Net 45": 45, "Due on receipt": 0}


def build_ap(ctx: Ctx) -> None:
    held_out.plant_coi(ctx)  # the held-out partition's plants that need the commitments made
    ctx.notes["pct_overrides"] = {}
    drafts: list[Draft] = []
    for cid in sorted(ctx.notes["commitments"]):
        drafts += commitment_drafts(ctx, ctx.notes["commitments"][cid])
    drafts = apply_clock_month(ctx, drafts)
    billed_ahead(ctx, drafts)
    ressio_unbooked(ctx, drafts)
    drafts.append(po_mismatch(ctx, drafts))
    held_out.plant_unsynced(ctx, drafts)
    drafts += direct_cost_drafts(ctx)
    _number(ctx, drafts)
    drafts += held_out.plant_unentered(ctx, drafts, lambda vendor, when: _next_number(ctx, vendor, when))
    terms = {v["vendor_key"]: v["payment_terms"] for v in ctx.rows("vendors")}
    for d in sorted(drafts, key=lambda d: (d.invoice_date, d.vendor, d.number or "")):
        _write(ctx, d, TERMS_DAYS[terms[d.vendor]])


def _style(ctx: Ctx, vendor: str) -> str:
    if vendor in anchors.INVOICE_PREFIX:
        return "prefix"
    return ctx.rng("invoice-style", vendor).choice(("prefix", "numeric", "year", "inv"))


class _Numbers:
    """One vendor's invoice numbers in its own style, in sequence."""

    def __init__(self, ctx: Ctx, vendor: str, reserved: set[tuple[str, str]]) -> None:
        self.vendor, self.plan, self.reserved = vendor, ctx.vendors[vendor], reserved
        self.r = ctx.rng("invoice-numbers", vendor)
        self.style = _style(ctx, vendor)
        self.n = self.plan.invoice_start

    def next(self, invoice_date: date) -> str:
        while True:
            self.n += self.r.randint(1, 9) if self.style != "year" else 1
            if self.style == "prefix":
                num = f"{self.plan.invoice_prefix}-{self.n}"
            elif self.style == "numeric":
                num = str(self.n)
            elif self.style == "year":
                num = f"{invoice_date:%y}-{self.n % 10000:04d}"
            else:
                num = f"INV-{self.n:06d}"
            if (self.vendor, num) not in self.reserved:
                break
        self.reserved.add((self.vendor, num))
        return num


def _number(ctx: Ctx, drafts: list[Draft]) -> None:
    reserved = {(anchors.JSM_VENDOR, anchors.JSM_INVOICE)}
    by_vendor: dict[str, list[Draft]] = {}
    for d in drafts:
        by_vendor.setdefault(d.vendor, []).append(d)
    numbers: dict[str, _Numbers] = {}
    for vendor, items in sorted(by_vendor.items()):
        seq = numbers[vendor] = _Numbers(ctx, vendor, reserved)
        for d in sorted(items, key=lambda d: (d.invoice_date, d.cid or "", d.requisition or 0, d.gross)):
            if d.number:
                continue
            d.number = seq.next(d.invoice_date)
    ctx.notes["invoice_numbers"] = numbers


def _next_number(ctx: Ctx, vendor: str, invoice_date: date) -> str:
    """The vendor's next invoice number after every numbered draft (for a plant added last)."""
    return ctx.notes["invoice_numbers"][vendor].next(invoice_date)


def _write(ctx: Ctx, d: Draft, due_days: int) -> None:
    tl = ctx.tl
    inv_id = stable_id("invoice", d.vendor, d.number)
    gross = d.gross
    retainage = sum((x[4] for x in d.lines), Decimal("0.00"))
    recent = d.invoice_date > tl.prior_month_end - timedelta(days=31)
    doc = stable_id("invoice", inv_id) if (d.with_document or recent) else None
    row = ctx.add(
        "ap_invoices",
        invoice_id=inv_id,
        vendor_key=d.vendor,
        job_number=d.job,
        commitment_id=d.cid,
        invoice_number=d.number,
        requisition_number=d.requisition,
        invoice_date=d.invoice_date,
        due_date=d.invoice_date + timedelta(days=due_days),
        period_start=d.period[0] if d.period else None,
        period_end=d.period[1] if d.period else None,
        gross_amount=gross,
        retainage_amount=retainage,
        net_amount=gross - retainage,
        pm_status=d.pm_status,
        erp_status=d.erp_status,
        erp_synced=d.erp_synced,
        paid_amount=Decimal("0.00"),
        description=d.description,
        document_id=doc,
    )
    ctx.invoices[inv_id] = row
    lines = []
    for no, (cl_no, code, desc, amount, ret) in enumerate(d.lines, start=1):
        lines.append(
            ctx.add(
                "ap_invoice_lines",
                invoice_id=inv_id,
                line_no=no,
                commitment_line_no=cl_no,
                cost_code=code,
                description=desc,
                amount=amount,
                retainage=ret,
            )
        )
    ctx.invoice_lines[inv_id] = lines
    if d.plant == "unsynced":
        ctx.diverge(
            "unsynced_invoice",
            inv_id,
            reason=f"{d.number} ({d.cid}, gross {gross}) is approved in Procore but not synced: "
            "the ERP has no AP invoice",
        )
    elif d.plant == "unentered":
        ctx.notes.setdefault("held_out_unentered", []).append(inv_id)
        ctx.diverge(
            "unentered_invoice",
            inv_id,
            reason=f"{d.number} for {gross} (PO {ctx.notes['commitments'][d.cid].number}) arrived by email as a PDF "
            "and is not entered in any system",
        )
    elif d.plant == "jsm":
        ctx.notes["jsm_invoice_id"] = inv_id
        ctx.diverge(
            "unentered_invoice",
            inv_id,
            reason=f"{d.number} for {gross} (PO {anchors.JSM_PO_NUMBER}, cost code {anchors.JSM_COST_CODE}) "
            "arrived by email as a PDF and is not entered in any system",
        )
    elif d.plant == "cap":
        ctx.notes["cap_invoice_id"] = inv_id
        ctx.diverge(
            "commitment_cap_exceeded",
            inv_id,
            apps=["redteam", "procore"],
            reason=f"{d.number} bills {gross} against {d.cid} whose remaining amount is "
            f"{d.extra['remaining']}: {d.extra['over']} past the cap",
        )
    elif d.plant == "po_mismatch":
        ctx.notes["po_mismatch_invoice_id"] = inv_id
        ctx.diverge(
            "bill_po_mismatch",
            inv_id,
            apps=["ressio", "vista_erp"],
            reason=f"{d.number} bills {gross} on a PO line of {d.extra['po_line']} "
            f"({d.extra['billed']} already billed)",
        )
    if d.plant in ("po_mismatch", "unbooked"):
        ctx.diverge(
            "unbooked_bill",
            inv_id,
            reason=f"Ressio bill {d.number} ({d.cid}, {gross}) is {d.pm_status} in Ressio and not booked in the ERP",
        )
