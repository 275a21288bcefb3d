"""Vendor identities per system (with the planted spellings) and certificates of insurance.

C_coi_hold: the five vendors in ``anchors.EXPIRED_COI_VENDORS`` hold a current general-liability
certificate that expired within the last two months (Procore still shows them compliant:
``coi_status_stale``); each has a similarly named lookalike vendor whose certificate is valid; the
ERP, the lien-waiver service and the compliance portal spell them differently
(``vendor_spelling``). Every other subcontractor's current certificates are valid (but the
held-out partition's, ``held_out.plant_coi``); one of them just sent a renewal (the mailbox
distractor).
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING

from cfab.seeds import anchors, names
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import stable_id
from cfab.seeds.identities import SPELLERS, Sage300Codes, vendor_identity_rows
from cfab.seeds.reference import COMPANY
from cfab.seeds.timeline import add_months

if TYPE_CHECKING:
    from cfab.seeds.vendors import VendorPlan

HOLDER = f"{COMPANY['name']}, {COMPANY['address']}, {COMPANY['city']}, {COMPANY['state']} {COMPANY['zip']}"
LIMITS = {
    "general_liability": ("1000000.00", "2000000.00"),
    "auto": ("1000000.00", "1000000.00"),
    "workers_comp": ("1000000.00", "1000000.00"),
    "umbrella": ("5000000.00", "5000000.00"),
}
POLICY_PREFIX = {"general_liability": "CPP", "auto": "BA", "workers_comp": "WC", "umbrella": "CUP"}
RENEWAL_VENDOR = "V1004"  # renewed its certificate this month: a distractor, not expired


def build_identities(ctx: Ctx) -> None:
    fragmented = list(anchors.EXPIRED_COI_VENDORS) + ["V1001"]
    extra = sorted(k for k, v in ctx.vendors.items() if v.role == "sub" and k not in anchors.ANCHOR_VENDORS)
    fragmented += ctx.rng("fragmented").sample(extra, 2)
    spelled: dict[tuple[str, str], str] = {}
    for key in fragmented:
        legal = ctx.vendors[key].legal_name
        systems = ("vista_erp", "levelset", "lcptracker") if key in anchors.EXPIRED_COI_VENDORS else ("vista_erp",)
        for system in systems:
            spelling = SPELLERS[system](legal)
            if spelling == legal:
                continue
            spelled[(key, system)] = spelling
            ctx.diverge(
                "vendor_spelling",
                key,
                apps=[system],
                suffix=system,
                reason=f"{system} keys {key} as {spelling!r}; legal name {legal!r}",
            )
    ordered = [(i, k, ctx.vendors[k].legal_name) for i, k in enumerate(sorted(ctx.vendors))]
    codes = Sage300Codes()
    ctx.notes["sage300_codes"] = codes
    for key, system, sid, name in vendor_identity_rows(ordered, spelled, codes):
        ctx.add("vendor_identities", vendor_key=key, system=system, system_vendor_id=sid, spelled_name=name)


def _coi(ctx: Ctx, vendor: str, coverage: str, effective: date, expiry: date, current: bool) -> str:
    r = ctx.rng("coi", vendor, coverage, effective.isoformat())
    coi_id = stable_id("coi", vendor, coverage, effective.isoformat())
    occ, agg = LIMITS[coverage]
    if coverage == "umbrella" and r.random() < 0.4:
        occ = agg = "10000000.00"
    ctx.add(
        "certificates_of_insurance",
        coi_id=coi_id,
        vendor_key=vendor,
        insurer=r.choice(names.INSURERS),
        policy_number=f"{POLICY_PREFIX[coverage]}{r.randint(1000000, 9999999)}",
        coverage_type=coverage,
        each_occurrence=Decimal(occ),
        aggregate_limit=Decimal(agg),
        effective_date=effective,
        expiry_date=expiry,
        certificate_holder=HOLDER,
        is_current=current,
        document_id=stable_id("coi", coi_id),
    )
    return coi_id


def insured(v: VendorPlan) -> bool:
    """Whether the company requires the vendor's certificates (subcontractors, lookalikes, site services)."""
    return v.role in ("sub", "lookalike") or v.trade in (
        "Trucking",
        "Portable Sanitation",
        "Waste Hauling",
        "Testing & Inspection",
        "Equipment Rental",
    )


def build_cois(ctx: Ctx) -> None:
    clock = ctx.clock
    for key, v in sorted(ctx.vendors.items()):
        if not insured(v):
            continue
        r = ctx.rng("coi-dates", key)
        coverages = ["general_liability", "auto"]
        if v.role == "sub":
            coverages.append("workers_comp")
            if r.random() < 0.5:
                coverages.append("umbrella")
        for coverage in coverages:
            if coverage == "general_liability" and key in anchors.EXPIRED_COI_VENDORS:
                expiry = clock - timedelta(days=r.randint(8, 55))
            elif coverage == "general_liability" and key == RENEWAL_VENDOR:
                expiry = add_months(clock - timedelta(days=9), 12)
            else:
                expiry = clock + timedelta(days=r.randint(25, 340))
            effective = add_months(expiry, -12)
            coi_id = _coi(ctx, key, coverage, effective, expiry, True)
            if coverage == "general_liability" and key == RENEWAL_VENDOR:
                ctx.notes["renewal_coi"] = coi_id
            if coverage == "general_liability" and (key == RENEWAL_VENDOR or r.random() < 0.4):
                _coi(ctx, key, coverage, add_months(effective, -12), effective, False)
        if key in anchors.EXPIRED_COI_VENDORS:
            ctx.diverge(
                "coi_status_stale",
                key,
                apps=["procore", "box"],
                reason=f"{key}'s current general-liability certificate expired before {clock}; "
                "Procore still shows the vendor compliant",
            )


# ---------------------------------------------------------------------------------------------
# What the ACORD 25 carries beyond the coverage: the producer (the insured's broker, one per
# vendor from a pool of Midwest agencies) and each insurer's NAIC company code.
# ---------------------------------------------------------------------------------------------
PRODUCERS: tuple[tuple[str, str, str, str, str, str, str, str], ...] = (
    # id, name, address, city, state, zip, phone, certificate-desk email
    (
        "PRD-01",
        "Lakeshore Risk Partners, LLC",
        "200 W Madison St, Suite 1400",
        "Chicago",
        "IL",
        "60606",
        "(312) 555-0188",
        "certificates@lakeshorerisk.com",
    ),
    (
        "PRD-02",
        "DuPage Commercial Insurance Services, Inc.",
        "2001 Butterfield Rd, Suite 1020",
        "Downers Grove",
        "IL",
        "60515",
        "(630) 555-0143",
        "coi@dupagecommercial.com",
    ),
    (
        "PRD-03",
        "Prairie State Insurance Group",
        "401 E Jackson St",
        "Springfield",
        "IL",
        "62701",
        "(217) 555-0176",
        "certs@prairiestateins.com",
    ),
    (
        "PRD-04",
        "Fox Valley Insurance Agency, Inc.",
        "1755 W Wilson St",
        "Batavia",
        "IL",
        "60510",
        "(630) 555-0119",
        "certificates@foxvalleyins.com",
    ),
    (
        "PRD-05",
        "Great Lakes Surety & Insurance Services",
        "111 E Wisconsin Ave, Suite 1800",
        "Milwaukee",
        "WI",
        "53202",
        "(414) 555-0162",
        "certificates@greatlakessurety.com",
    ),
    (
        "PRD-06",
        "Northwest Suburban Insurance Agency",
        "1501 E Woodfield Rd, Suite 300",
        "Schaumburg",
        "IL",
        "60173",
        "(847) 555-0130",
        "coi@nwsuburbanins.com",
    ),
    (
        "PRD-07",
        "Keystone Contractors Insurance Services",
        "One Tower Ln, Suite 1700",
        "Oakbrook Terrace",
        "IL",
        "60181",
        "(630) 555-0157",
        "certificates@keystonecis.com",
    ),
    (
        "PRD-08",
        "Rock River Insurance Associates",
        "120 W State St",
        "Rockford",
        "IL",
        "61101",
        "(815) 555-0124",
        "certs@rockriverins.com",
    ),
    (
        "PRD-09",
        "Calumet Risk Management, Inc.",
        "8585 Broadway, Suite 600",
        "Merrillville",
        "IN",
        "46410",
        "(219) 555-0191",
        "certificates@calumetrisk.com",
    ),
    (
        "PRD-10",
        "Heartland Builders Insurance Brokerage",
        "1100 Jorie Blvd, Suite 238",
        "Oak Brook",
        "IL",
        "60523",
        "(630) 555-0108",
        "coi@heartlandbuildersins.com",
    ),
)
# Each insurer's NAIC company code (the named companies' published codes).
NAIC: dict[str, str] = {
    "Travelers Property Casualty Co. of America": "25674",
    "The Cincinnati Insurance Company": "10677",
    "Zurich American Insurance Company": "16535",
    "Liberty Mutual Fire Insurance Company": "23035",
    "West Bend Mutual Insurance Company": "15350",
    "Acuity, A Mutual Insurance Company": "14184",
    "Westfield Insurance Company": "24112",
    "Auto-Owners Insurance Company": "18988",
    "Hartford Fire Insurance Company": "19682",
    "Selective Insurance Company of America": "12572",
    "Erie Insurance Exchange": "26271",
    "Society Insurance": "15261",
    "Old Republic General Insurance Corporation": "24139",
    "Federated Mutual Insurance Company": "13935",
}


def build_coi_details(ctx: Ctx) -> None:
    """Producers, and per certificate: the insured's broker and account manager, the insurer's NAIC."""
    for pid, name, address, city, state, zp, phone, email in PRODUCERS:
        ctx.add(
            "insurance_producers",
            producer_id=pid,
            name=name,
            address=address,
            city=city,
            state=state,
            zip=zp,
            phone=phone,
            email=email,
        )
    brokers: dict[str, tuple[str, str, str]] = {}
    for coi in ctx.rows("certificates_of_insurance"):
        vendor = coi["vendor_key"]
        if vendor not in brokers:
            r = ctx.rng("coi-producer", vendor)
            producer = r.choice(PRODUCERS)
            first, last = names.person(r)
            brokers[vendor] = (
                producer[0],
                f"{first} {last}",
                f"{first[0].lower()}{names.slug(last)}@{producer[7].split('@', 1)[1]}",
            )
        pid, contact, email = brokers[vendor]
        ctx.add(
            "coi_details",
            coi_id=coi["coi_id"],
            producer_id=pid,
            producer_contact=contact,
            producer_contact_email=email,
            insurer_naic=NAIC[coi["insurer"]],
        )
