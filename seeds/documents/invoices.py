"""Subcontractor pay requests and supplier invoices, on the vendor's own letterhead.

The vendor is spelled as the vendor spells itself (its Box identity, else its legal name),
so the PDF carries the identity puzzle of reality 3. The amounts are the book's
``ap_invoices`` / ``ap_invoice_lines`` values verbatim, so a defect row (an invoice whose
amount differs from its commitment line) renders exactly as defective as the book says.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import duckdb

from cfab.seeds.documents.common import Canvas, Column, Row, mdy, pct, usd
from cfab.seeds.documents.sql import by_key, rows

DOC_TYPES = ("invoice",)


@dataclass(frozen=True)
class InvoiceData:
    header: Row
    lines: tuple[Row, ...]


def load(con: duckdb.DuckDBPyConnection, ids: list[str] | None) -> dict[str, InvoiceData]:
    """The header and lines of every invoice document in ``ids`` (None: all)."""
    heads = rows(con, "invoice_headers", ids=ids)
    lines = by_key(rows(con, "invoice_lines", keys=[h["invoice_id"] for h in heads]), "invoice_id")
    return {h["document_id"]: InvoiceData(h, tuple(lines.get(h["invoice_id"], ()))) for h in heads}


def cost_code_label(lines: tuple[Row, ...]) -> str:
    """One cost code when every line shares it, else the distinct codes in line order."""
    codes: list[str] = []
    for line in lines:
        if line["cost_code"] not in codes:
            codes.append(line["cost_code"])
    return ", ".join(codes)


def render(doc: Row, data: InvoiceData, company: Row) -> bytes:
    """One invoice PDF: letterhead, invoice block, bill-to/remit-to, project, lines, totals."""
    h, lines = data.header, data.lines
    c = Canvas(created=doc["created_date"], title=doc["title"], author=h["vendor_name"])
    L, R = c.left, c.right
    # letterhead
    c.text(L, 58, h["vendor_name"], size=16, style="B", color=(20, 45, 95))
    credit = Decimal(h["net_amount"]) < 0  # a credit memo (a back-charge the vendor accepted)
    c.text(R, 58, "CREDIT MEMO" if credit else "INVOICE", size=20, style="B", align="R")
    addr = [h["v_address"], f"{h['v_city']}, {h['v_state']} {h['v_zip']}", f"Phone {h['v_phone']}", h["v_email"]]
    for i, line in enumerate(addr):
        c.text(L, 74 + 11 * i, line, size=8.5, style="")
    c.rule(L, 124, R, 1.2)

    # invoice block (right) and bill-to / remit-to (left)
    x, lx = 372.0, 480.0
    meta = [
        ("Invoice No.:", h["invoice_number"]),
        ("Invoice Date:", mdy(h["invoice_date"])),
        ("Due Date:", mdy(h["due_date"])),
        ("Terms:", h["payment_terms"]),
        ("PO / Commitment No.:", h["commitment_number"] or "N/A"),
    ]
    if h.get("requisition_number") is not None:
        meta.append(("Pay Request No.:", str(h["requisition_number"])))
    y = 142.0
    for label, value in meta:
        c.field(x, y, label, value, width=lx - x)
        y += 13
    c.text(L, 142, "Bill To:", size=9, style="B")
    bill = [
        company["name"],
        "Attn: Accounts Payable",
        company["address"],
        f"{company['city']}, {company['state']} {company['zip']}",
    ]
    for i, line in enumerate(bill):
        c.text(L, 155 + 12 * i, line, size=9, style="")
    c.text(L + 170, 142, "Remit To:", size=9, style="B")
    remit = [h["vendor_name"], h["v_address"], f"{h['v_city']}, {h['v_state']} {h['v_zip']}"]
    for i, line in enumerate(remit):
        c.text(L + 170, 155 + 12 * i, line, size=9, style="")

    # project block
    y = max(y, 210.0) + 6
    c.box(L, y, R - L, 16, fill=235)
    c.text(L + 4, y + 11, "PROJECT INFORMATION", size=8.5, style="B")
    y += 30
    c.field(L, y, "Project:", f"{h['job_number']} - {h['job_name']}", width=70)
    c.field(x, y, "Job No.:", h["job_number"], width=lx - x)
    y += 13
    c.field(L, y, "Job Site:", f"{h['job_address']}, {h['job_city']}, {h['job_state']}", width=70)
    codes = cost_code_label(lines)
    c.field(x, y, "Cost Code:" if "," not in codes else "Cost Codes:", codes or "N/A", width=lx - x)
    y += 13
    if h.get("period_start") or h.get("period_end"):
        c.field(L, y, "Billing Period:", f"{mdy(h['period_start'])} - {mdy(h['period_end'])}", width=70)
        y += 13
    c.field(L, y, "Description:", h["description"], width=70)
    y += 18

    # lines
    cols = [
        Column("Item", 34, "C"),
        Column("Cost Code", 62, "C"),
        Column("Description", 236),
        Column("Amount", 80, "R"),
        Column("Retainage", 60, "R"),
        Column("Net Amount", 60, "R"),
    ]
    body = [
        [
            str(ln["line_no"]),
            ln["cost_code"],
            ln["description"],
            usd(ln["amount"]),
            usd(ln["retainage"]),
            usd(Decimal(ln["amount"]) - Decimal(ln["retainage"])),
        ]
        for ln in lines
    ]
    y = c.table(L, y, cols, body, size=8)

    # totals
    y = c.ensure(70) + 18
    rp = h.get("retainage_pct")
    ret_label = f"Less Retainage ({pct(rp)}):" if rp and Decimal(h["retainage_amount"]) != 0 else "Less Retainage:"
    tx = R - 120
    for label, value, bold in (
        ("Subtotal:", h["gross_amount"], False),
        (ret_label, h["retainage_amount"], False),
        ("Total Amount Due:", h["net_amount"], True),
    ):
        c.text(tx, y, label, size=10 if bold else 9, style="B", align="R")
        c.text(R, y, usd(value), size=10 if bold else 9, style="B" if bold else "", align="R")
        y += 15
    c.rule(tx - 90, y - 27, R, 0.8)

    # remittance note
    y += 14
    note = (
        f"Please reference invoice {h['invoice_number']} with your payment. Make checks payable "
        f"to {h['vendor_name']}. Questions about this invoice: {h['v_email']} or {h['v_phone']}."
    )
    c.paragraph(L, y, R - L, note, size=8)
    c.footer_all(f"{h['vendor_name']} - Invoice {h['invoice_number']}")
    return c.output()


def describe(data: Any) -> str:
    """A short human label (used in error messages and timing reports)."""
    return f"invoice {data.header['invoice_number']}"
