"""Lien waivers in the four statutory shapes (conditional / unconditional, progress / final).

The through date, amount and signer are the book's ``lien_waivers`` values, shown beside the
invoice the waiver answers, so a waiver whose through date misses its invoice period is
visible only by comparing the two on the page. An unsigned (requested) waiver has blank
signature lines.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from cfab.seeds.documents.common import Canvas, Row, mdy, usd
from cfab.seeds.documents.sql import rows

DOC_TYPES = ("lien_waiver",)

TITLES = {
    "conditional_progress": "CONDITIONAL WAIVER AND RELEASE ON PROGRESS PAYMENT",
    "unconditional_progress": "UNCONDITIONAL WAIVER AND RELEASE ON PROGRESS PAYMENT",
    "conditional_final": "CONDITIONAL WAIVER AND RELEASE ON FINAL PAYMENT",
    "unconditional_final": "UNCONDITIONAL WAIVER AND RELEASE ON FINAL PAYMENT",
}

NOTICE_CONDITIONAL = (
    "NOTICE: THIS DOCUMENT WAIVES THE CLAIMANT'S LIEN, STOP PAYMENT NOTICE, AND PAYMENT BOND "
    "RIGHTS EFFECTIVE ON RECEIPT OF PAYMENT. A PERSON SHOULD NOT RELY ON THIS DOCUMENT UNLESS "
    "SATISFIED THAT THE CLAIMANT HAS RECEIVED PAYMENT."
)
NOTICE_UNCONDITIONAL = (
    "NOTICE TO CLAIMANT: THIS DOCUMENT WAIVES AND RELEASES LIEN, STOP PAYMENT NOTICE, AND PAYMENT "
    "BOND RIGHTS UNCONDITIONALLY AND STATES THAT YOU HAVE BEEN PAID FOR GIVING UP THOSE RIGHTS. "
    "THIS DOCUMENT IS ENFORCEABLE AGAINST YOU IF YOU SIGN IT, EVEN IF YOU HAVE NOT BEEN PAID. IF "
    "YOU HAVE NOT BEEN PAID, USE A CONDITIONAL WAIVER AND RELEASE FORM."
)


@dataclass(frozen=True)
class WaiverData:
    header: Row


def load(con: duckdb.DuckDBPyConnection, ids: list[str] | None) -> dict[str, WaiverData]:
    """Every lien-waiver document in ``ids`` (None: all) with its job, owner and invoice."""
    return {h["document_id"]: WaiverData(h) for h in rows(con, "waiver_headers", ids=ids)}


def _body(kind: str, claimant: str, customer: str) -> tuple[str, str]:
    """The operative paragraph and the label of the amount line for one waiver type."""
    progress = kind.endswith("progress")
    if kind.startswith("conditional"):
        scope = (
            "to the customer on this job through the Through Date of this document"
            if progress
            else "to the customer on this job"
        )
        text = (
            f"This document waives and releases lien, stop payment notice, and payment bond rights "
            f"the claimant has for labor and service provided, and equipment and material "
            f"delivered, {scope}. Rights based upon labor or service provided, or equipment or "
            f"material delivered, pursuant to a written change order that has been fully executed "
            f"by the parties prior to the date that this document is signed by the claimant, are "
            f"waived and released by this document, unless listed as an Exception below. This "
            f"document is effective only on the claimant's receipt of payment from the financial "
            f"institution on which the following check is drawn:"
        )
        return text, "Amount of Check:"
    if progress:
        text = (
            f"This document waives and releases lien, stop payment notice, and payment bond rights "
            f"the claimant has for labor and service provided, and equipment and material "
            f"delivered, to the customer on this job through the Through Date of this document. "
            f"{claimant} has received the following progress payment from {customer}:"
        )
        return text, "Progress Payment Received:"
    text = (
        "The claimant has been paid in full for all labor and service provided, and equipment "
        "and material delivered, to the customer on this job. This document waives and releases "
        "lien, stop payment notice, and payment bond rights the claimant has for that work, "
        "other than disputed claims stated below."
    )
    return text, "Amount of Final Payment:"


def render(doc: Row, data: WaiverData, company: Row) -> bytes:
    """One waiver: title, notice, identifying information, release text, exceptions, signature."""
    h = data.header
    kind = h["waiver_type"]
    c = Canvas(created=doc["created_date"], title=doc["title"], author=h["claimant_name"])
    L, R = c.left, c.right
    mid = (L + R) / 2
    c.text(mid, 64, TITLES.get(kind, kind.replace("_", " ").upper()), size=12.5, style="B", align="C")
    notice = NOTICE_CONDITIONAL if kind.startswith("conditional") else NOTICE_UNCONDITIONAL
    c.box(L, 76, R - L, 44)
    y = c.paragraph(L + 6, 88, R - L - 12, notice, size=7.5, style="B")

    y = max(y, 120.0) + 18
    c.text(L, y, "Identifying Information", size=10, style="B")
    y += 16
    location = (
        f"Job #{h['job_number']} - {h['job_name']}, {h['job_address']}, {h['job_city']}, {h['job_state']}"
        if h.get("job_name")
        else f"Job #{h['job_number']}"
    )
    ident = [
        ("Name of Claimant:", h["claimant_name"]),
        ("Name of Customer:", company["name"]),
        ("Job Location:", location),
        ("Owner:", h.get("owner_name") or ""),
        ("Through Date:", mdy(h["through_date"])),
    ]
    if h.get("invoice_number"):
        period = ""
        if h.get("invoice_period_start") or h.get("invoice_period_end"):
            period = f" (billing period {mdy(h['invoice_period_start'])} - {mdy(h['invoice_period_end'])})"
        ident.append(("Invoice / Pay Request No.:", f"{h['invoice_number']}{period}"))
    for label, value in ident:
        c.field(L, y, label, value, width=130, size=9)
        y += 15

    y += 8
    heading = "Conditional Waiver and Release" if kind.startswith("conditional") else "Unconditional Waiver and Release"
    c.text(L, y, heading, size=10, style="B")
    body, amount_label = _body(kind, h["claimant_name"], company["name"])
    y = c.paragraph(L, y + 15, R - L, body, size=9) + 16
    if kind.startswith("conditional"):
        pay = [
            ("Maker of Check:", company["name"]),
            (amount_label, usd(h["amount"])),
            ("Check Payable to:", h["claimant_name"]),
        ]
    elif kind.endswith("final"):
        pay = [(amount_label, usd(h["amount"])), ("Disputed Claims:", usd(0))]
    else:
        pay = [(amount_label, usd(h["amount"]))]
    for label, value in pay:
        c.field(L + 20, y, label, value, width=150, size=9)
        y += 15

    y += 8
    c.text(L, y, "Exceptions", size=10, style="B")
    exc = (
        "This document does not affect any of the following: (1) Retentions. (2) Extras for which "
        "the claimant has not received payment. (3) Contract rights, including (A) a right based on "
        "rescission, abandonment, or breach of contract, and (B) the right to recover compensation "
        "for work not compensated by the payment."
        if kind.endswith("progress")
        else "Disputed claims for extras in the amount of: $0.00"
    )
    y = c.paragraph(L, y + 15, R - L, exc, size=9) + 22

    c.text(L, y, "Signature", size=10, style="B")
    y += 22
    signer = h.get("signer") or ""
    title = ""
    if signer:
        title = (
            h["vendor_signer_title"]
            if h.get("vendor_signer_name") == signer and h.get("vendor_signer_title")
            else "Authorized Representative"
        )
    c.text(L, y, "Claimant's Signature:", size=9, style="B")
    if signer:
        c.text(L + 150, y - 2, signer, size=15, style="I", family="Times")
    c.rule(L + 145, y + 3, L + 390, 0.5)
    y += 18
    for label, value in (
        ("Print Name:", signer),
        ("Claimant's Title:", title),
        ("Date of Signature:", mdy(h.get("signed_date"))),
    ):
        c.field(L, y, label, value, width=150, size=9)
        c.rule(L + 145, y + 3, L + 390, 0.3)
        y += 18
    c.footer_all(f"{h['claimant_name']} - lien waiver {h['waiver_id']}")
    return c.output()
