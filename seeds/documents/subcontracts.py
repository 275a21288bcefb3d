"""Subcontract agreements and purchase orders, with the schedule of values as an exhibit.

The parties are the legal names (a contract binds legal entities). The sum is the
commitment's original amount; the exhibit lists the current SOV lines with original,
approved change orders and revised sum, so the document agrees with the PM app's
commitment (SC-1042-0 reads $632,000.00 everywhere).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import duckdb

from cfab.seeds.documents.common import Canvas, Column, Row, long_date, pct, usd
from cfab.seeds.documents.sql import by_key, rows

DOC_TYPES = ("subcontract",)


@dataclass(frozen=True)
class SubcontractData:
    header: Row
    lines: tuple[Row, ...]


def load(con: duckdb.DuckDBPyConnection, ids: list[str] | None) -> dict[str, SubcontractData]:
    """Every subcontract / PO document in ``ids`` (None: all) with its SOV lines."""
    heads = rows(con, "subcontract_headers", ids=ids)
    lines = by_key(rows(con, "subcontract_lines", keys=[h["commitment_id"] for h in heads]), "commitment_id")
    return {h["document_id"]: SubcontractData(h, tuple(lines.get(h["commitment_id"], ()))) for h in heads}


def render(doc: Row, data: SubcontractData, company: Row) -> bytes:
    """Agreement articles, signatures and Exhibit A (schedule of values)."""
    h, lines = data.header, data.lines
    is_po = h["commitment_type"] == "purchase_order"
    party = "Supplier" if is_po else "Subcontractor"
    kind = "PURCHASE ORDER" if is_po else "SUBCONTRACT AGREEMENT"
    sum_label = "Purchase Order Total:" if is_po else "Subcontract Sum:"
    c = Canvas(created=doc["created_date"], title=doc["title"], author=company["name"])
    L, R = c.left, c.right
    c.text(L, 50, company["name"], size=11, style="B")
    c.text(
        L,
        61,
        f"{company['address']}, {company['city']}, {company['state']} {company['zip']}  |  {company['phone']}",
        size=7.5,
        style="",
    )
    c.text((L + R) / 2, 90, kind, size=15, style="B", align="C")
    c.rule(L, 98, R, 1.0)
    y = 114.0
    meta = [
        (("Purchase Order No.:" if is_po else "Subcontract No.:"), h["number"]),
        ("Commitment ID:", h["commitment_id"]),
        ("Agreement Date:", long_date(h["executed_date"])),
        ("Job No.:", h["job_number"]),
        ("Project:", f"{h['job_number']} - {h['job_name']}"),
        ("Project Location:", f"{h['job_address']}, {h['job_city']}, {h['job_state']}"),
        ("Owner:", h["owner_name"]),
    ]
    for label, value in meta:
        c.field(L, y, label, value, width=110, size=9)
        y += 13
    y += 8
    intro = (
        f"THIS AGREEMENT is made as of {long_date(h['executed_date'])} by and between "
        f'{company["name"]} ("Contractor"), and {h["vendor_legal_name"]}, {h["v_address"]}, '
        f'{h["v_city"]}, {h["v_state"]} {h["v_zip"]} ("{party}"), for the Project named above.'
    )
    c.paragraph(L, y, R - L, intro, size=9)
    scope_items = "; ".join(f"{ln['cost_code']} {ln['description']}" for ln in lines)
    articles = [
        (
            "ARTICLE 1 - SCOPE OF WORK",
            f"{party} shall furnish all labor, materials, equipment and services for: {h['title']}, "
            f"comprising {scope_items or 'the work described in Exhibit A'}, as more fully described in "
            f"Exhibit A, in accordance with the Contract Documents between Contractor and Owner.",
        ),
        ("ARTICLE 2 - CONTRACT SUM", None),
        ("ARTICLE 3 - RETAINAGE", None),
        (
            "ARTICLE 4 - PAYMENT",
            f"{party} shall submit monthly applications for payment through the Contractor's project "
            f"management system referencing {('PO' if is_po else 'Subcontract')} No. {h['number']}, with a "
            f"schedule of values in the form of Exhibit A and a conditional lien waiver for the amount "
            f"requested. Payment is due within ten days after Contractor receives payment from Owner.",
        ),
        (
            "ARTICLE 5 - INSURANCE",
            f"Before starting work {party} shall furnish certificates of insurance naming {company['name']} "
            f"as certificate holder and additional insured: commercial general liability of not less than "
            f"$1,000,000 each occurrence and $2,000,000 aggregate, automobile liability, workers "
            f"compensation as required by law, and umbrella coverage. Certificates shall be kept current.",
        ),
        (
            "ARTICLE 6 - CHANGES",
            "Changes in the Work shall be made only by written change order signed by Contractor. No "
            "extra work shall be paid unless authorized in writing before it is performed.",
        ),
    ]
    for title, text in articles:
        y = c.ensure(70) + 20
        c.text(L, y, title, size=9.5, style="B")
        y += 14
        if title.endswith("CONTRACT SUM"):
            y = (
                c.paragraph(
                    L,
                    y,
                    R - L,
                    f"Contractor shall pay {party} for performance of the Work, subject "
                    f"to additions and deductions by change order, the sum of:",
                    size=9,
                )
                + 12
            )
            c.field(L + 20, y, sum_label, usd(h["original_amount"]), size=10)
            c.y = y + 4
        elif title.endswith("RETAINAGE"):
            if Decimal(h["retainage_pct"]):
                y = (
                    c.paragraph(
                        L,
                        y,
                        R - L,
                        "Contractor shall withhold retainage from each progress payment "
                        "at the rate below, to be released upon final completion and acceptance of "
                        "the Work and receipt of an unconditional final lien waiver.",
                        size=9,
                    )
                    + 12
                )
            c.field(L + 20, y, "Retainage:", pct(h["retainage_pct"]), size=10)
            c.y = y + 4
        else:
            c.paragraph(L, y, R - L, text, size=9)

    y = c.ensure(110) + 30
    half = (R - L) / 2
    vendor_signer = h.get("vendor_signer_name") or ""
    vendor_title = h.get("vendor_signer_title") or ""
    signers = (
        (f"CONTRACTOR: {company['name']}", h["project_manager"], "Project Manager"),
        (f"{party.upper()}: {h['vendor_legal_name']}", vendor_signer, vendor_title),
    )
    for i, (who, signer, title) in enumerate(signers):
        x = L + i * half
        c.text(x, y, who, size=8.5, style="B")
        c.text(x, y + 28, signer, size=14, style="I", family="Times")
        c.rule(x, y + 32, x + half - 20, 0.5)
        c.text(x, y + 42, "By (signature)", size=7, style="")
        if signer:
            c.field(x, y + 56, "Name / Title:", f"{signer}, {title}" if title else signer, size=8)
        c.field(x, y + 70 if signer else y + 56, "Date:", long_date(h["executed_date"]), size=8)

    c.new_page()
    c.text(L, 52, "EXHIBIT A - SCHEDULE OF VALUES", size=12, style="B")
    c.text(
        L,
        66,
        f"{kind.title()} {h['number']} ({h['commitment_id']}) - {h['vendor_legal_name']} - "
        f"Job {h['job_number']} {h['job_name']}",
        size=8.5,
        style="",
    )
    cols = [
        Column("Line", 40, "C"),
        Column("Cost Code", 70, "C"),
        Column("Description", 282),
        Column("Scheduled Value", 140, "R"),
    ]
    body = [[str(ln["line_no"]), ln["cost_code"], ln["description"], usd(ln["amount"])] for ln in lines]
    y = c.table(L, 78, cols, body, size=8.5)
    y = c.ensure(60) + 18
    for label, value, bold in (
        (f"Original {sum_label}", h["original_amount"], False),
        ("Approved Change Orders:", h["approved_co_amount"], False),
        (f"Revised {sum_label}", h["amount"], True),
    ):
        c.text(R - 150, y, label, size=9, style="B", align="R")
        c.text(R, y, usd(value), size=9, style="B" if bold else "", align="R")
        y += 14
    c.footer_all(f"{company['name']} - {kind.title()} {h['number']}")
    return c.output()
