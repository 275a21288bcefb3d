"""The company's own insurance policies: a declarations page per policy and, for a cancelled
policy, the carrier's cancellation endorsement.

The declarations page is the record of the premium and the policy period (the prepaid insurance
register carries the broker's proposal figures, stale where a policy bound at another premium);
the endorsement states the cancellation date and the return premium. Pure functions of the
``book.insurance_policies`` row and the document's date.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from cfab.seeds.documents.common import Canvas, Row, long_date, mdy, usd
from cfab.seeds.documents.sql import rows

DOC_TYPES = ("insurance_policy",)


@dataclass(frozen=True)
class PolicyDocData:
    policy: Row


def load(con: duckdb.DuckDBPyConnection, ids: list[str] | None) -> dict[str, PolicyDocData]:
    """Every insurance-policy document in ``ids`` (None: all)."""
    return {r["document_id"]: PolicyDocData(r) for r in rows(con, "insurance_policy_rows", ids=ids)}


def render(doc: Row, data: PolicyDocData, company: Row) -> bytes:
    p = data.policy
    c = Canvas(created=doc["created_date"], title=doc["title"], author=p["insurer"])
    L, R = c.left, c.right
    c.text(L, 52, p["insurer"], size=13, style="B")
    c.text(R, 52, "POLICY NUMBER " + p["policy_number"], size=9, style="B", align="R")
    c.rule(L, 60, R, 0.8)
    heading = "CANCELLATION ENDORSEMENT" if p["is_cancellation"] else "COMMON POLICY DECLARATIONS"
    c.text((L + R) / 2, 82, heading, size=12, style="B", align="C")
    c.text((L + R) / 2, 96, p["coverage_name"].upper(), size=10, style="B", align="C")
    y = 124.0
    insured = [company["name"], company["address"], f"{company['city']}, {company['state']} {company['zip']}"]
    c.text(L, y, "NAMED INSURED AND MAILING ADDRESS", size=7, style="B")
    c.text(R - 200, y, "PRODUCER", size=7, style="B")
    for i, line in enumerate(insured):
        c.text(L, y + 13 + 11 * i, line, size=9, style="B" if i == 0 else "")
    c.text(R - 200, y + 13, p["producer"], size=9, style="")
    y += 62
    c.field(L, y, "Policy number:", p["policy_number"], size=9)
    y += 16
    c.field(
        L,
        y,
        "Policy period:",
        f"From {mdy(p['effective_date'])} to {mdy(p['expiry_date'])} at 12:01 A.M. standard time at the "
        "address of the named insured",
        size=9,
    )
    y += 16
    c.field(L, y, "Coverage part:", p["coverage_name"], size=9)
    y += 24
    if p["is_cancellation"]:
        text = (
            f"In consideration of the request of the named insured, this policy is cancelled effective "
            f"{long_date(p['cancelled_date'])} at 12:01 A.M. standard time. The premium is adjusted pro rata "
            f"for the period the policy was in force; the unearned premium is returned to the named insured."
        )
        y = c.paragraph(L, y, R - L, text, size=9) + 12
        c.field(L, y, "Cancellation effective date:", mdy(p["cancelled_date"]), size=9)
        y += 16
        c.field(L, y, "Policy premium:", usd(p["premium"]), size=9)
        y += 16
        c.field(L, y, "Return premium:", usd(p["return_premium"]), size=9)
        y += 28
        c.text(L, y, "All other terms and conditions of the policy remain unchanged.", size=8.5, style="")
    else:
        c.box(L, y, R - L, 22, fill=230)
        c.text(L + 6, y + 14, "COVERAGE PART", size=7.5, style="B")
        c.text(R - 6, y + 14, "PREMIUM", size=7.5, style="B", align="R")
        y += 22
        c.text(L + 6, y + 14, p["coverage_name"], size=9, style="")
        c.text(R - 6, y + 14, usd(p["premium"]), size=9, style="", align="R")
        y += 22
        c.rule(L, y, R, 0.4)
        c.text(L + 6, y + 14, "TOTAL POLICY PREMIUM (fully earned over the policy period)", size=9, style="B")
        c.text(R - 6, y + 14, usd(p["premium"]), size=9, style="B", align="R")
        y += 22
        c.box(L, y - 66, R - L, 66)
        y += 18
        note = (
            "Premium is payable in full at inception. Terms: twelve months. This declarations page, together "
            "with the common policy conditions, coverage forms and endorsements, completes the policy."
        )
        y = c.paragraph(L, y, R - L, note, size=8.5) + 10
    c.text(L, y + 30, "Countersigned by authorized representative", size=8, style="I")
    c.text(L, c.bottom + 10, f"Issued {mdy(doc['created_date'])}   {p['insurer']}", size=6.5, style="")
    return c.output()
