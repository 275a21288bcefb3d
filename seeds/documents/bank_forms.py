"""The Vendor Banking Change Form a vendor signs to move its remittance to a new account.

The fields are the book's ``vendor_bank_change_requests`` row: the vendor, the account on file
(``vendor_remittance``) it replaces, the new bank, routing and account numbers, and the
signature of the person who sent the request. The form lists the vendor's phone as the request
gives it (a forged form carries the fraudster's number): the policy's callback goes to the
number in the ERP vendor master, never the one on the form.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from cfab.seeds.documents.common import Canvas, Row, mdy
from cfab.seeds.documents.sql import rows

DOC_TYPES = ("bank_change_form",)


@dataclass(frozen=True)
class FormData:
    header: Row


def load(con: duckdb.DuckDBPyConnection, ids: list[str] | None) -> dict[str, FormData]:
    """Every banking change form in ``ids`` (None: all) with its request and the account on file."""
    return {h["document_id"]: FormData(h) for h in rows(con, "bank_change_forms", ids=ids)}


def _mask(number: str) -> str:
    return "*" * max(len(number) - 4, 0) + number[-4:]


def render(doc: Row, data: FormData, company: Row) -> bytes:
    """One form: vendor, current account (masked), new account, authorization and signature."""
    h = data.header
    c = Canvas(created=doc["created_date"], title=doc["title"], author=h["legal_name"])
    L, R = c.left, c.right
    c.text((L + R) / 2, 64, "VENDOR BANKING CHANGE FORM", size=13, style="B", align="C")
    c.text((L + R) / 2, 80, f"ACH remittance instructions for payments from {company['name']}", size=9, align="C")
    y = 110.0
    sections = [
        (
            "Vendor",
            [
                ("Company name:", h["legal_name"]),
                ("Address:", f"{h['address']}, {h['city']}, {h['state']} {h['zip']}"),
                ("Contact phone:", h["phone_in_email"]),
                ("Contact email:", h["from_addr"]),
            ],
        ),
        (
            "Current account (to be replaced)",
            [
                ("Bank name:", h["old_bank_name"] or ""),
                ("Account number:", _mask(h["old_account"] or "")),
            ],
        ),
        (
            "New account",
            [
                ("Bank name:", h["new_bank_name"]),
                ("Routing number (ABA):", h["new_routing"]),
                ("Account number:", h["new_account"]),
                ("Account type:", h["new_account_type"].title()),
                ("Effective date:", mdy(h["received_at"].date())),
            ],
        ),
    ]
    for title, fields in sections:
        c.text(L, y, title, size=10, style="B")
        y += 16
        for label, value in fields:
            c.field(L, y, label, value, width=140, size=9)
            y += 15
        y += 10
    text = (
        f"I authorize {company['name']} to deposit payments due to the company named above into the new account "
        "by ACH credit, and certify that I am authorized to sign for the company."
    )
    y = c.paragraph(L, y, R - L, text, size=9) + 24
    c.text(L, y, "Authorized signature:", size=9, style="B")
    c.text(L + 150, y - 2, h["signer_name"], size=15, style="I", family="Times")
    c.rule(L + 145, y + 3, L + 390, 0.5)
    y += 18
    for label, value in (("Print name:", h["signer_name"]), ("Date:", mdy(h["received_at"].date()))):
        c.field(L, y, label, value, width=150, size=9)
        c.rule(L + 145, y + 3, L + 390, 0.3)
        y += 18
    c.footer_all(f"{h['legal_name']} - vendor banking change {h['request_id']}")
    return c.output()
