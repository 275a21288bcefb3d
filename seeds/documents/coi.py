"""Certificates of liability insurance in the ACORD 25 layout.

One document may carry several coverages (every ``certificates_of_insurance`` row that
points at it); each coverage is one ruled row with its policy number, effective and expiry
dates and two limits. The dates are the book's, so a certificate that expired last month
reads as expired on the page and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import duckdb

from cfab.seeds.determinism import stable_int
from cfab.seeds.documents.common import Canvas, Row, mdy, usd
from cfab.seeds.documents.sql import by_key, rows

DOC_TYPES = ("coi",)

COVERAGE_NAMES = {
    "general_liability": (
        "COMMERCIAL GENERAL LIABILITY",
        "CLAIMS-MADE  [X] OCCUR",
        "EACH OCCURRENCE",
        "GENERAL AGGREGATE",
    ),
    "auto": ("AUTOMOBILE LIABILITY", "[X] ANY AUTO", "COMBINED SINGLE LIMIT (Ea accident)", "AGGREGATE"),
    "umbrella": ("UMBRELLA LIAB", "[X] OCCUR  EXCESS LIAB", "EACH OCCURRENCE", "AGGREGATE"),
    "workers_comp": (
        "WORKERS COMPENSATION",
        "AND EMPLOYERS' LIABILITY",
        "E.L. EACH ACCIDENT",
        "E.L. DISEASE - POLICY LIMIT",
    ),
}

# A book without ``coi_details`` / ``insurance_producers`` rows (a hand-made fixture) gets a
# producer chosen from the insured's key and a NAIC code hashed from the insurer's name.
PRODUCERS = (
    ("Lakeshore Risk Partners, LLC", "200 W Madison St, Suite 1400", "Chicago, IL 60606"),
    ("Heartland Insurance Brokers", "1100 Walnut St, Suite 900", "Kansas City, MO 64106"),
    ("Summit Surety & Insurance Agency", "75 Federal St, 6th Floor", "Boston, MA 02110"),
    ("Keystone Commercial Insurance Services", "1650 Market St, Suite 3100", "Philadelphia, PA 19103"),
    ("Prairie State Insurance Group", "401 E Jackson St", "Springfield, IL 62701"),
)


@dataclass(frozen=True)
class CoiData:
    coverages: tuple[Row, ...]


def load(con: duckdb.DuckDBPyConnection, ids: list[str] | None) -> dict[str, CoiData]:
    """Every coverage row of every COI document in ``ids`` (None: all)."""
    out: dict[str, CoiData] = {}
    for doc_id, items in by_key(rows(con, "coi_rows", ids=ids), "document_id").items():
        seen: dict[str, Row] = {}
        for item in items:
            seen.setdefault(item["coi_id"], item)
        out[doc_id] = CoiData(tuple(seen.values()))
    return out


def _limit(value: Decimal) -> str:
    return usd(value, cents=False, space=True)


def render(doc: Row, data: CoiData, company: Row) -> bytes:
    """ACORD 25-style certificate: producer, insured, insurers, coverages, holder."""
    cov = data.coverages
    first = cov[0]
    c = Canvas(created=doc["created_date"], title=doc["title"], author=first["insured_name"])
    L, R = c.left, c.right
    mid = L + (R - L) / 2
    c.text(L, 52, "ACORD", size=16, style="B")
    c.text(mid + 20, 52, "CERTIFICATE OF LIABILITY INSURANCE", size=13, style="B", align="C")
    c.text(R, 46, "DATE (MM/DD/YYYY)", size=6.5, style="B", align="R")
    c.text(R, 58, mdy(doc["created_date"]), size=9, style="", align="R")
    disclaimer = (
        "THIS CERTIFICATE IS ISSUED AS A MATTER OF INFORMATION ONLY AND CONFERS NO RIGHTS UPON THE "
        "CERTIFICATE HOLDER. THIS CERTIFICATE DOES NOT AFFIRMATIVELY OR NEGATIVELY AMEND, EXTEND OR "
        "ALTER THE COVERAGE AFFORDED BY THE POLICIES BELOW. THIS CERTIFICATE OF INSURANCE DOES NOT "
        "CONSTITUTE A CONTRACT BETWEEN THE ISSUING INSURER(S), AUTHORIZED REPRESENTATIVE OR PRODUCER, "
        "AND THE CERTIFICATE HOLDER."
    )
    c.box(L, 64, R - L, 34)
    c.paragraph(L + 4, 72, R - L - 8, disclaimer, size=6)

    # producer / contact / insurers
    top = 104.0
    c.box(L, top, mid - L, 150)
    c.box(mid, top, R - mid, 150)
    if first.get("producer_name"):
        prod = (
            first["producer_name"],
            first["producer_address"],
            f"{first['producer_city']}, {first['producer_state']} {first['producer_zip']}",
        )
        contact, email, phone = first["producer_contact"], first["producer_contact_email"], first["producer_phone"]
    else:
        prod = PRODUCERS[stable_int("producer", first["vendor_key"]) % len(PRODUCERS)]
        contact, email, phone = "Certificate Desk", "certificates@" + prod[0].split()[0].lower() + "risk.com", ""
    c.text(L + 4, top + 10, "PRODUCER", size=6.5, style="B")
    for i, line in enumerate(prod):
        c.text(L + 4, top + 22 + 11 * i, line, size=8.5, style="")
    c.field(mid + 4, top + 12, "CONTACT NAME:", contact, size=7)
    c.field(mid + 4, top + 24, "E-MAIL:", email, size=7)
    if phone:
        c.field(R - 110, top + 12, "PHONE:", phone, size=7)
    c.text(mid + 4, top + 42, "INSURER(S) AFFORDING COVERAGE", size=6.5, style="B")
    c.text(R - 4, top + 42, "NAIC #", size=6.5, style="B", align="R")
    letters: dict[str, str] = {}
    naic: dict[str, str] = {}
    for row in cov:
        letters.setdefault(row["insurer"], "ABCDEF"[len(letters) % 6])
        naic.setdefault(
            row["insurer"], row.get("insurer_naic") or str(10000 + stable_int("naic", row["insurer"], digits=5) % 90000)
        )
    for i, (insurer, letter) in enumerate(letters.items()):
        y = top + 56 + 12 * i
        c.field(mid + 4, y, f"INSURER {letter} :", insurer, size=8)
        c.text(R - 4, y, naic[insurer], size=8, style="", align="R")
    c.text(L + 4, top + 76, "INSURED", size=6.5, style="B")
    insured = [first["insured_name"], first["v_address"], f"{first['v_city']}, {first['v_state']} {first['v_zip']}"]
    for i, line in enumerate(insured):
        c.text(L + 4, top + 88 + 11 * i, line, size=8.5, style="B" if i == 0 else "")

    # coverages
    y = top + 160
    c.text(L, y, "COVERAGES", size=8, style="B")
    c.field(L + 150, y, "CERTIFICATE NUMBER:", first["coi_id"], size=7)
    c.field(R - 120, y, "REVISION NUMBER:", "0", size=7)
    y += 6
    note = (
        "THIS IS TO CERTIFY THAT THE POLICIES OF INSURANCE LISTED BELOW HAVE BEEN ISSUED TO THE "
        "INSURED NAMED ABOVE FOR THE POLICY PERIOD INDICATED, NOTWITHSTANDING ANY REQUIREMENT, TERM "
        "OR CONDITION OF ANY CONTRACT OR OTHER DOCUMENT WITH RESPECT TO WHICH THIS CERTIFICATE MAY BE "
        "ISSUED OR MAY PERTAIN."
    )
    y = c.paragraph(L, y + 8, R - L, note, size=6) + 2
    xs = [L, L + 24, L + 160, L + 250, L + 306, L + 362, R]
    heads = [
        "INSR\nLTR",
        "TYPE OF INSURANCE",
        "POLICY NUMBER",
        "POLICY EFF\n(MM/DD/YYYY)",
        "POLICY EXP\n(MM/DD/YYYY)",
        "LIMITS",
    ]
    c.box(L, y, R - L, 22, fill=230)
    for i, head in enumerate(heads):
        for j, part in enumerate(head.split("\n")):
            c.text((xs[i] + xs[i + 1]) / 2, y + 9 + 8 * j, part, size=6.5, style="B", align="C")
    rows_top = y
    y += 22
    for row in cov:
        name, sub, l1, l2 = COVERAGE_NAMES.get(
            row["coverage_type"], (row["coverage_type"].replace("_", " ").upper(), "", "EACH OCCURRENCE", "AGGREGATE")
        )
        c.text(xs[0] + 12, y + 12, letters[row["insurer"]], size=8, style="", align="C")
        c.text(xs[1] + 3, y + 12, name, size=7.5, style="B")
        c.text(xs[2] + 3, y + 12, row["policy_number"], size=8, style="")
        c.text(xs[3] + 28, y + 12, mdy(row["effective_date"]), size=8, style="", align="C")
        c.text(xs[4] + 28, y + 12, mdy(row["expiry_date"]), size=8, style="", align="C")
        c.text(xs[5] + 3, y + 12, l1, size=6.5, style="")
        c.text(R - 3, y + 12, _limit(row["each_occurrence"]), size=8, style="", align="R")
        c.text(xs[1] + 3, y + 25, sub, size=6.5, style="")
        c.text(xs[5] + 3, y + 25, l2, size=6.5, style="")
        c.text(R - 3, y + 25, _limit(row["aggregate_limit"]), size=8, style="", align="R")
        y += 32
        c.rule(L, y, R, 0.4)
    c.box(L, rows_top, R - L, y - rows_top)
    for x in xs[1:-1]:
        c.vline(x, rows_top, y, 0.4)

    # description, holder, cancellation
    y += 12
    c.text(L, y, "DESCRIPTION OF OPERATIONS / LOCATIONS / VEHICLES", size=6.5, style="B")
    desc = (
        f"Certificate holder is included as additional insured on a primary and non-contributory "
        f"basis where required by written contract with respect to work performed for "
        f"{company['name']}. Waiver of subrogation applies where required by written contract."
    )
    y = c.paragraph(L, y + 11, R - L, desc, size=7.5) + 6
    c.box(L, y, mid - L, 84)
    c.box(mid, y, R - mid, 84)
    c.text(L + 4, y + 10, "CERTIFICATE HOLDER", size=6.5, style="B")
    # the book's holder may carry its address ("Company A ..., 1200 ... Rd, ..."): name first
    name, _, address = str(first["certificate_holder"]).partition(", " + company["address"])
    holder = [name, company["address"], f"{company['city']}, {company['state']} {company['zip']}"]
    if address and not address.lstrip(", ").startswith(company["city"]):
        holder[1] = company["address"] + address.split(f", {company['city']}")[0]
    c.font(9, "B")
    lines = [ln for part in holder for ln in c.wrap(part, mid - L - 8)]
    for i, line in enumerate(lines[:5]):
        c.text(L + 4, y + 24 + 11 * i, line, size=9, style="B" if i == 0 else "")
    c.text(mid + 4, y + 10, "CANCELLATION", size=6.5, style="B")
    cancel = (
        "SHOULD ANY OF THE ABOVE DESCRIBED POLICIES BE CANCELLED BEFORE THE EXPIRATION DATE "
        "THEREOF, NOTICE WILL BE DELIVERED IN ACCORDANCE WITH THE POLICY PROVISIONS."
    )
    c.paragraph(mid + 4, y + 20, R - mid - 8, cancel, size=6.5)
    c.text(mid + 4, y + 62, "AUTHORIZED REPRESENTATIVE", size=6.5, style="B")
    c.text(mid + 4, y + 76, contact if first.get("producer_name") else prod[0], size=10, style="I", family="Times")
    c.text(
        L, c.bottom + 10, "ACORD 25 (2016/03)   The ACORD name and logo are registered marks of ACORD", size=6, style=""
    )
    return c.output()
