"""Change-event backup: owner directives and internal budget-transfer memos.

Whether a change is an owner change order (contract and budget increase) or an internal
cost transfer (budget only) is decidable from the wording, and only from it: out-of-scope
events are directives or acknowledgements issued by or to the owner that state the
Contract Sum will change; in-scope events are internal memoranda that state the Contract
Sum does not change and the owner will not be billed, even when the owner asked for the
work (the owner_vs_internal twist).
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from cfab.seeds.documents.common import Canvas, Column, Row, long_date, usd
from cfab.seeds.documents.sql import by_key, rows

DOC_TYPES = ("change_backup",)


@dataclass(frozen=True)
class ChangeData:
    header: Row
    lines: tuple[Row, ...]


def load(con: duckdb.DuckDBPyConnection, ids: list[str] | None) -> dict[str, ChangeData]:
    """Every change-backup document in ``ids`` (None: all) with its cost-code breakdown."""
    heads = rows(con, "change_headers", ids=ids)
    lines = by_key(rows(con, "change_lines", keys=[h["change_event_id"] for h in heads]), "change_event_id")
    return {h["document_id"]: ChangeData(h, tuple(lines.get(h["change_event_id"], ()))) for h in heads}


def is_owner_change(h: Row) -> bool:
    """Out-of-scope work is the owner's: the contract sum changes."""
    return h["scope"] == "out_of_scope"


def owner_text(h: Row, company: Row) -> tuple[str, list[str]]:
    """Title and paragraphs of an owner-side document for an out-of-scope change."""
    amt, job = usd(h["amount"]), f"{h['job_number']} - {h['job_name']}"
    reason = h["reason"]
    if reason == "design_change":
        title = "CONSTRUCTION CHANGE DIRECTIVE"
        first = (
            f"The Owner, through its design team, has revised the Contract Documents for {job}: "
            f"{h['description']} The Contractor is directed to proceed with the revised Work "
            f"immediately."
        )
    elif reason == "unforeseen_condition":
        title = "OWNER ACKNOWLEDGEMENT OF CONCEALED CONDITION"
        first = (
            f"The Contractor gave notice of a concealed condition at {job}: {h['description']} The "
            f"Owner's representative has inspected the condition and agrees that it differs "
            f"materially from the conditions indicated in the Contract Documents."
        )
    elif reason == "allowance":
        title = "OWNER DIRECTIVE - ALLOWANCE OVERRUN"
        first = (
            f"The selections made for {job} exceed the allowance carried in the Contract: "
            f"{h['description']} The Owner approves the overrun."
        )
    else:
        title = "OWNER DIRECTIVE"
        first = (
            f"The Owner requests and directs the Contractor to perform the following additional "
            f"work at {job}, which is not included in the Contract Documents: {h['description']}"
        )
    money = (
        f"This is a change to the Work outside the Contract scope. The Contract Sum will be "
        f"increased by {amt} by Owner Change Order, and the Contractor is authorized to bill this "
        f"amount to the Owner on its next application for payment. Track all costs under change "
        f"event {h['change_event_id']}."
    )
    return title, [first, money]


def internal_text(h: Row, company: Row) -> tuple[str, list[str]]:
    """Title and paragraphs of an internal memo for an in-scope change."""
    amt, job = usd(h["amount"]), f"{h['job_number']} - {h['job_name']}"
    reason = h["reason"]
    if reason == "owner_request":
        first = (
            f"The Owner's representative asked about the following item at {job}: {h['description']} "
            f"After review of the Contract Documents and our bid scope, this work is already "
            f"included in the base Contract. We will not issue a change order request to the Owner."
        )
    elif reason == "unforeseen_condition":
        first = (
            f"Field condition at {job}: {h['description']} The condition was identified in the bid "
            f"documents (geotechnical report and existing-conditions survey); the risk is ours under "
            f"the Contract and there is no basis for a claim to the Owner."
        )
    elif reason == "design_change":
        first = (
            f"Coordination change at {job}: {h['description']} This is a means-and-methods / "
            f"coordination item within our responsibility under the Contract, not an Owner change."
        )
    elif reason == "allowance":
        first = (
            f"Allowance draw at {job}: {h['description']} The cost is covered by the allowance "
            f"already carried in the Contract Sum."
        )
    else:
        first = f"Budget reallocation at {job}: {h['description']} The work is within the base Contract scope."
    money = (
        f"There is no change to the Contract Sum and the Owner will not be billed. Process the "
        f"{amt} as an internal budget transfer between cost codes (budget only, no change to "
        f"contract value) under change event {h['change_event_id']}."
    )
    return "INTERNAL MEMORANDUM - BUDGET TRANSFER", [first, money]


def render(doc: Row, data: ChangeData, company: Row) -> bytes:
    """A one-page directive (owner letterhead) or memo (company letterhead)."""
    h, lines = data.header, data.lines
    owner = is_owner_change(h)
    title, paras = owner_text(h, company) if owner else internal_text(h, company)
    author = h["owner_name"] if owner else company["name"]
    c = Canvas(created=doc["created_date"], title=doc["title"], author=author)
    L, R = c.left, c.right
    c.text(L, 52, author, size=13, style="B")
    c.text(
        L,
        64,
        h["owner_address"]
        if owner
        else f"{company['address']}, {company['city']}, {company['state']} {company['zip']}",
        size=8,
        style="",
    )
    c.rule(L, 72, R, 1.0)
    c.text(L, 96, title, size=13, style="B")
    if owner:
        head = [
            ("Date:", long_date(doc["created_date"])),
            ("To:", company["name"]),
            ("Attn:", h["project_manager"]),
            ("From:", f"{h['owner_contact']}, {h['owner_name']}"),
            ("Project:", f"{h['job_number']} - {h['job_name']}"),
            ("Contract No.:", h.get("contract_number") or ""),
            ("Change Event:", h["change_event_id"]),
            ("Subject:", h["title"]),
        ]
    else:
        head = [
            ("Date:", long_date(doc["created_date"])),
            ("To:", "Project Accounting"),
            ("From:", f"{h['project_manager']}, Project Manager"),
            ("Project:", f"{h['job_number']} - {h['job_name']}"),
            ("Change Event:", h["change_event_id"]),
            ("Subject:", h["title"]),
        ]
    y = 118.0
    for label, value in head:
        c.field(L, y, label, value, width=80, size=9)
        y += 13
    c.rule(L, y - 4, R, 0.4)
    y += 10
    for para in paras:
        y = c.paragraph(L, y, R - L, para, size=9.5) + 18
    c.field(L, y + 4, "Amount:", usd(h["amount"]), width=80, size=10)
    y += 22
    c.y = y
    if lines:
        cols = [Column("Cost Code", 80, "C"), Column("Description", 330), Column("Amount", 122, "R")]
        y = (
            c.table(
                L,
                y,
                cols,
                [[ln["cost_code"], ln.get("cost_code_description") or "", usd(ln["amount"])] for ln in lines],
                size=8.5,
            )
            + 10
        )
    y = c.ensure(60) + 20
    signer = h["owner_contact"] if owner else h["project_manager"]
    c.text(L, y, signer, size=14, style="I", family="Times")
    c.rule(L, y + 4, L + 220, 0.5)
    c.text(L, y + 14, signer + (f", for {h['owner_name']}" if owner else ", Project Manager"), size=8, style="")
    c.footer_all(f"{author} - {h['change_event_id']}")
    return c.output()
