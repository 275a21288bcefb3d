"""Owner pay applications: AIA G702 (application and certificate) + G703 (continuation).

Page 1 is the G702 with lines 1-9; the following landscape pages are the G703 with columns
A-I, one row per ``owner_pay_app_lines`` row and a grand-total row. Lines 1, 2, 4, 5, 7 and
8 are the book's header values; 3, 6 and 9 are the form's own arithmetic on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import duckdb

from cfab.seeds.determinism import pct_of
from cfab.seeds.documents.common import Canvas, Column, Row, mdy, num, pct, usd
from cfab.seeds.documents.sql import by_key, rows

DOC_TYPES = ("pay_app",)
ZERO = Decimal("0")


@dataclass(frozen=True)
class PayAppData:
    header: Row
    lines: tuple[Row, ...]


def load(con: duckdb.DuckDBPyConnection, ids: list[str] | None) -> dict[str, PayAppData]:
    """Every pay-application document in ``ids`` (None: all) with its G703 lines."""
    heads = rows(con, "payapp_headers", ids=ids)
    lines = by_key(rows(con, "payapp_lines", keys=[h["payapp_key"] for h in heads]), "payapp_key")
    return {h["document_id"]: PayAppData(h, tuple(lines.get(h["payapp_key"], ()))) for h in heads}


def retainage_rate(h: Row) -> Decimal:
    """The contract's stated rate, or the step-down rate once the job is past the threshold."""
    rate = Decimal(h.get("contract_retainage_pct") or 10)
    step, at = h.get("retainage_step_down_pct"), h.get("step_down_at_pct")
    contract = Decimal(h["original_contract_sum"]) + Decimal(h["net_change_orders"])
    if (
        step is not None
        and at is not None
        and contract
        and Decimal(h["total_completed_stored"]) * 100 / contract >= Decimal(at)
    ):
        rate = Decimal(step)
    return rate


def g702_lines(h: Row, stored: Decimal) -> list[tuple[str, Decimal]]:
    """Lines 1-9 of the G702. 5a/5b are the book's split (``owner_pay_app_retainage``, summed from
    the G703 lines); without one, the retainage rate on the stored material total."""
    l1, l2 = Decimal(h["original_contract_sum"]), Decimal(h["net_change_orders"])
    l4, l5 = Decimal(h["total_completed_stored"]), Decimal(h["retainage"])
    if h.get("stored_material_retainage") is not None:
        rate = Decimal(h["split_retainage_pct"])
        l5b = Decimal(h["stored_material_retainage"])
    else:
        rate = retainage_rate(h)
        l5b = min(pct_of(stored, rate), l5) if stored else ZERO
    l6 = l4 - l5
    return [
        ("1. ORIGINAL CONTRACT SUM", l1),
        ("2. NET CHANGE BY CHANGE ORDERS", l2),
        ("3. CONTRACT SUM TO DATE (Line 1 +/- 2)", l1 + l2),
        ("4. TOTAL COMPLETED & STORED TO DATE (Column G on G703)", l4),
        (f"    a. {pct(rate)} of Completed Work (Columns D + E on G703)", l5 - l5b),
        (f"    b. {pct(rate)} of Stored Material (Column F on G703)", l5b),
        ("5. TOTAL RETAINAGE (Lines 5a + 5b or Total in Column I of G703)", l5),
        ("6. TOTAL EARNED LESS RETAINAGE (Line 4 minus Line 5 Total)", l6),
        (
            "7. LESS PREVIOUS CERTIFICATES FOR PAYMENT (Line 6 from prior Certificate)",
            Decimal(h["previous_certificates"]),
        ),
        ("8. CURRENT PAYMENT DUE", Decimal(h["current_payment_due"])),
        ("9. BALANCE TO FINISH, INCLUDING RETAINAGE (Line 3 minus Line 6)", l1 + l2 - l6),
    ]


def _g702(c: Canvas, h: Row, company: Row, stored: Decimal) -> None:
    L, R = c.left, c.right
    c.text(L, 52, "APPLICATION AND CERTIFICATE FOR PAYMENT", size=13, style="B")
    c.text(R, 52, "AIA DOCUMENT G702", size=9, style="B", align="R")
    c.rule(L, 58, R, 1.0)
    x2 = 372.0
    left = [
        ("TO OWNER:", h["owner_name"]),
        ("", h["owner_address"]),
        ("FROM CONTRACTOR:", company["name"]),
        ("", f"{company['address']}, {company['city']}, {company['state']} {company['zip']}"),
        ("PROJECT:", f"{h['job_number']} - {h['job_name']}"),
        ("", f"{h['job_address']}, {h['job_city']}, {h['job_state']}"),
        ("VIA ARCHITECT:", h.get("architect_firm") or ""),
    ]
    if h.get("architect_firm"):
        left.append(
            ("", f"{h['architect_address']}, {h['architect_city']}, {h['architect_state']} {h['architect_zip']}")
        )
    right = [
        ("APPLICATION NO:", str(h["app_number"])),
        ("PERIOD FROM:", mdy(h["period_start"])),
        ("PERIOD TO:", mdy(h["period_end"])),
        ("APPLICATION DATE:", mdy(h["submitted_date"])),
        ("CONTRACT NO:", h.get("contract_number") or ""),
        ("CONTRACT DATE:", mdy(h.get("contract_date"))),
        ("PROJECT NO:", h["job_number"]),
    ]
    for i, (label, value) in enumerate(left):
        c.field(L, 74 + 12 * i, label, value, width=92, size=8)
    for i, (label, value) in enumerate(right):
        c.field(x2, 74 + 12 * i, label, value, width=100, size=8)

    y = 172.0
    c.box(L, y, R - L, 15, fill=230)
    c.text(L + 4, y + 10.5, "CONTRACTOR'S APPLICATION FOR PAYMENT", size=9, style="B")
    c.text(
        R - 4,
        y + 10.5,
        "Application is made for payment, as shown below, in connection with the Contract.",
        size=6.5,
        style="",
        align="R",
    )
    y += 30
    for label, value in g702_lines(h, stored):
        bold = label[0].isdigit() and label[:2] in ("3.", "5.", "8.")
        c.text(L + 4, y, label, size=8.5, style="B" if bold else "")
        c.text(R - 4, y, usd(value), size=8.5, style="B" if bold else "", align="R")
        c.rule(R - 120, y + 3, R - 4, 0.3)
        y += 17

    y += 10
    cert = (
        "The undersigned Contractor certifies that to the best of the Contractor's knowledge, "
        "information and belief the Work covered by this Application for Payment has been completed "
        "in accordance with the Contract Documents, that all amounts have been paid by the Contractor "
        "for Work for which previous Certificates for Payment were issued and payments received from "
        "the Owner, and that current payment shown herein is now due."
    )
    y = c.paragraph(L, y, (R - L) / 2 - 10, cert, size=7)
    c.field(L, y + 14, "CONTRACTOR:", company["name"], size=8)
    signer = f"{h['signer_name']}, {h['signer_title']}" if h.get("signer_name") else "Project Accounting"
    c.field(L, y + 28, "By:", signer, size=8)
    c.field(L, y + 42, "Date:", mdy(h["submitted_date"]), size=8)

    xa = L + (R - L) / 2 + 10
    ya = 200.0 + 17 * 11 + 10
    c.text(xa, ya, "ARCHITECT'S CERTIFICATE FOR PAYMENT", size=8.5, style="B")
    arch = (
        "In accordance with the Contract Documents, based on on-site observations and the data "
        "comprising this application, the Architect certifies to the Owner that to the best of the "
        "Architect's knowledge, information and belief the Work has progressed as indicated, the "
        "quality of the Work is in accordance with the Contract Documents, and the Contractor is "
        "entitled to payment of the AMOUNT CERTIFIED."
    )
    ya = c.paragraph(xa, ya + 12, R - xa, arch, size=7)
    certified = usd(h["current_payment_due"]) if h.get("certified_date") else ""
    c.field(xa, ya + 14, "AMOUNT CERTIFIED:", certified, size=8.5)
    c.field(xa, ya + 28, "Date Certified:", mdy(h.get("certified_date")), size=8)
    c.field(xa, ya + 42, "Status:", str(h["status"]).upper(), size=8)
    if h.get("architect_firm"):
        c.field(xa, ya + 56, "ARCHITECT:", h["architect_firm"], size=8)
        by = f"{h['architect_contact']}, {h['architect_title']}" if h.get("certified_date") else ""
        c.field(xa, ya + 70, "By:", by, size=8)


def _g703(c: Canvas, h: Row, lines: tuple[Row, ...]) -> None:
    def page_header(cv: Canvas) -> float:
        cv.text(cv.left, 46, "CONTINUATION SHEET", size=12, style="B")
        cv.text(cv.right, 46, "AIA DOCUMENT G703", size=9, style="B", align="R")
        cv.text(
            cv.left,
            58,
            "AIA Document G702, APPLICATION AND CERTIFICATE FOR PAYMENT, containing "
            "Contractor's signed certification, is attached.",
            size=7,
            style="",
        )
        cv.field(cv.left, 72, "APPLICATION NO:", str(h["app_number"]), size=8)
        cv.field(cv.left + 150, 72, "APPLICATION DATE:", mdy(h["submitted_date"]), size=8)
        cv.field(cv.left + 330, 72, "PERIOD TO:", mdy(h["period_end"]), size=8)
        cv.field(cv.left + 470, 72, "PROJECT:", f"{h['job_number']} - {h['job_name']}", size=8)
        return 82.0

    c.page_header = page_header
    y = c.new_page("L")
    cols = [
        Column("A\nITEM NO.", 38, "C"),
        Column("B\nDESCRIPTION OF WORK", 170),
        Column("C\nSCHEDULED VALUE", 70, "R"),
        Column("D\nFROM PREVIOUS APPLICATION (D + E)", 72, "R"),
        Column("E\nTHIS PERIOD", 66, "R"),
        Column("F\nMATERIALS PRESENTLY STORED (NOT IN D OR E)", 72, "R"),
        Column("G\nTOTAL COMPLETED AND STORED TO DATE (D+E+F)", 76, "R"),
        Column("%\n(G / C)", 38, "R"),
        Column("H\nBALANCE TO FINISH (C - G)", 66, "R"),
        Column("I\nRETAINAGE", 60, "R"),
    ]
    body: list[list[str]] = []
    tot = [ZERO] * 7
    for ln in lines:
        sv, prev, this = Decimal(ln["scheduled_value"]), Decimal(ln["from_previous"]), Decimal(ln["this_period"])
        mat, g, ret = Decimal(ln["materials_stored"]), Decimal(ln["total_completed_stored"]), Decimal(ln["retainage"])
        body.append(
            [
                ln.get("item_number") or f"{ln['line_no']:03d}",
                ln.get("description") or "",
                num(sv),
                num(prev),
                num(this),
                num(mat),
                num(g),
                pct(g * 100 / sv if sv else ZERO),
                num(sv - g),
                num(ret),
            ]
        )
        tot = [a + b for a, b in zip(tot, (sv, prev, this, mat, g, sv - g, ret), strict=True)]
    body.append(
        [
            "",
            "GRAND TOTAL",
            num(tot[0]),
            num(tot[1]),
            num(tot[2]),
            num(tot[3]),
            num(tot[4]),
            pct(tot[4] * 100 / tot[0] if tot[0] else ZERO),
            num(tot[5]),
            num(tot[6]),
        ]
    )
    c.table(c.left, y + 4, cols, body, size=7.5, header_size=6, bold_rows=(len(body) - 1,))


def render(doc: Row, data: PayAppData, company: Row) -> bytes:
    """G702 then G703 for one owner pay application."""
    h = data.header
    c = Canvas(created=doc["created_date"], title=doc["title"], author=company["name"])
    stored = sum((Decimal(ln["materials_stored"]) for ln in data.lines), ZERO)
    _g702(c, h, company, stored)
    _g703(c, h, data.lines)
    c.footer_all(f"{company['name']} - Job {h['job_number']} Pay Application #{h['app_number']}")
    return c.output()
