"""The vendor master: subcontractors, suppliers, professionals and services (``V1000`` …).

The roster is fixed by role (what each vendor is for: the anchors, the C_coi_hold lookalikes, the
1099 plants); names, TINs and addresses come from seeded pools. Identities per system live in
``identities.py``, certificates of insurance in ``insurance.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cfab.seeds import anchors, names
from cfab.seeds.context import Ctx
from cfab.seeds.reference import PACKAGES

TRADE_WORDS: dict[str, tuple[str, ...]] = {
    "electrical": ("Electric", "Electrical Contractors", "Electric Company", "Power & Light"),
    "mechanical": ("Mechanical", "Mechanical Services", "Heating & Cooling", "Mechanical Contractors"),
    "plumbing": ("Plumbing", "Plumbing & Heating", "Plumbing Contractors"),
    "fire_protection": ("Fire Protection", "Fire Sprinkler", "Fire Protection Services"),
    "concrete": ("Concrete", "Concrete Construction", "Concrete Contractors"),
    "steel": ("Steel Erectors", "Ironworks", "Structural Steel"),
    "masonry": ("Masonry", "Brick & Stone", "Masonry Contractors"),
    "drywall": ("Drywall", "Interiors", "Acoustical & Drywall"),
    "finishes": ("Painting", "Floor Covering", "Painting & Decorating"),
    "roofing": ("Roofing", "Roofing & Sheet Metal", "Roofing Company"),
    "glazing": ("Glass & Glazing", "Glass", "Architectural Glass"),
    "earthwork": ("Excavating", "Earthmoving", "Grading & Excavating"),
    "utilities": ("Underground", "Sewer & Water", "Underground Utilities"),
    "paving": ("Paving", "Asphalt Paving"),
    "landscaping": ("Landscaping", "Landscape Services"),
    "demolition": ("Wrecking", "Demolition"),
    "elevator": ("Elevator", "Elevator Company"),
    "casework": ("Millwork", "Woodworking", "Architectural Millwork"),
    "readymix": ("Ready Mix", "Concrete Supply", "Materials"),
    "lumber": ("Lumber", "Building Supply", "Lumber & Millwork"),
    "doors": ("Door & Hardware", "Doors & Hardware", "Architectural Hardware"),
    "elec_gear": ("Electric Supply", "Electrical Supply", "Electric Supply Co."),
    "rental": ("Equipment Rental", "Rent-All", "Equipment Co."),
}
LOOKALIKE_WORDS = {
    "electrical": "Electric Supply",
    "concrete": "Concrete Supply",
    "steel": "Steel Supply",
    "roofing": "Roofing Supply",
    "fire_protection": "Fire Equipment",
}
SUB_COUNTS = {
    "electrical": 4,
    "mechanical": 3,
    "plumbing": 2,
    "fire_protection": 2,
    "concrete": 3,
    "steel": 2,
    "masonry": 2,
    "drywall": 3,
    "finishes": 3,
    "roofing": 2,
    "glazing": 2,
    "earthwork": 3,
    "utilities": 2,
    "paving": 1,
    "landscaping": 1,
    "demolition": 2,
    "elevator": 1,
    "casework": 1,
}
SUB_ENTITIES = (
    "c_corporation",
    "s_corporation",
    "s_corporation",
    "llc_partnership",
    "llc_partnership",
    "llc_single_member",
    "c_corporation",
    "partnership",
)


@dataclass
class VendorPlan:
    key: str
    role: str  # sub|lookalike|supplier|professional|service|split|small
    vendor_type: str  # subcontractor|supplier|professional|service
    package: str | None  # the trade package it is bought for
    trade: str
    entity_type: str
    legal_name: str = ""
    dba_name: str | None = None
    tin: str = ""
    is_attorney: bool = False
    materials_only: bool = False
    stem: str = ""
    lookalike_of: str | None = None
    email: str = ""
    invoice_prefix: str = ""
    invoice_start: int = 0


def _roster() -> list[tuple[str, str, str | None, str, str]]:
    """(role, vendor_type, package, trade, entity_type) per base vendor, V1000 first."""
    out: list[tuple[str, str, str | None, str, str]] = []
    for key in sorted(anchors.ANCHOR_VENDORS):
        _name, pkg, ent = anchors.ANCHOR_VENDORS[key]
        out.append(("sub", "subcontractor", pkg, PACKAGES[pkg][0], ent))
    counts = dict(SUB_COUNTS)
    for _name, pkg, _ent in anchors.ANCHOR_VENDORS.values():
        counts[pkg] -= 1
    i = 0
    for pkg, n in counts.items():
        for _ in range(n):
            out.append(("sub", "subcontractor", pkg, PACKAGES[pkg][0], SUB_ENTITIES[i % len(SUB_ENTITIES)]))
            i += 1
    for key in anchors.EXPIRED_COI_VENDORS:  # lookalikes V1040…V1044
        pkg = anchors.ANCHOR_VENDORS[key][1]
        vtype = "service" if pkg == "fire_protection" else "supplier"
        look_pkg = {"electrical": "elec_gear", "concrete": "readymix"}.get(pkg)
        out.append(("lookalike:" + key, vtype, look_pkg, LOOKALIKE_WORDS[pkg], "c_corporation"))
    out += [
        ("supplier", "supplier", "readymix", "Ready-Mix Concrete", "c_corporation"),
        ("supplier", "supplier", "lumber", "Lumber & Building Materials", "llc_partnership"),  # materials only
        ("supplier", "supplier", "lumber", "Lumber & Building Materials", "c_corporation"),
        ("supplier", "supplier", "doors", "Doors & Hardware", "s_corporation"),
        ("supplier", "supplier", "elec_gear", "Electrical Supply", "c_corporation"),
        ("supplier", "supplier", "rental", "Equipment Rental", "c_corporation"),
        ("supplier", "supplier", "rental", "Equipment Rental", "s_corporation"),
        ("professional", "professional", None, "Testing & Inspection", "c_corporation"),
        ("professional", "professional", None, "Land Surveying", "sole_proprietor"),
        ("professional", "professional", None, "Civil Engineering", "llc_partnership"),
        ("attorney", "professional", None, "Legal Services", "c_corporation"),
        ("professional", "professional", None, "Safety Consulting", "individual"),
        ("service", "service", None, "Portable Sanitation", "s_corporation"),
        ("service", "service", None, "Waste Hauling", "c_corporation"),
        ("service", "service", None, "Trucking", "partnership"),
        ("small", "service", None, "Janitorial Services", "sole_proprietor"),
        ("split", "service", None, "Drywall Repair", "individual"),
        ("split", "service", None, "Drywall Repair", "sole_proprietor"),
        ("small", "service", None, "Handyman Services", "llc_single_member"),
    ]
    return out


def _suffix(entity: str, r: random.Random) -> str:
    if entity in ("c_corporation", "s_corporation"):
        return r.choice((", Inc.", ", Inc.", " Co.", " Corporation"))
    if entity.startswith("llc"):
        return ", LLC"
    return ""


def _name(plan: VendorPlan, r: random.Random, taken: set[str], anchor_name: str | None) -> None:
    first, last = names.person(r)
    if anchor_name:
        plan.legal_name = anchor_name
        plan.stem = anchor_name.split(" ")[0] if not anchor_name.startswith("J. S.") else "J. S. Mitchell"
        return
    for _attempt in range(50):
        stem = last if r.random() < 0.6 else r.choice(names.PLACE_STEMS)
        if plan.role == "attorney":
            name = f"{last}, {r.choice(names.LAST_NAMES)} & {r.choice(names.LAST_NAMES)}, P.C."
            stem = last
        elif plan.entity_type in ("individual", "sole_proprietor") or plan.role == "split":
            name = f"{first} {last}"
            plan.dba_name = f"{last} {plan.trade}" if plan.entity_type == "sole_proprietor" else None
            stem = last
        elif plan.entity_type == "partnership":
            name = f"{last} & Sons {plan.trade}" if r.random() < 0.5 else f"{last} Brothers {plan.trade}"
            stem = last
        else:
            words = r.choice(TRADE_WORDS.get(plan.package or "", (plan.trade,)))
            name = f"{stem} {words}{_suffix(plan.entity_type, r)}"
        if name not in taken:
            plan.legal_name, plan.stem = name, stem
            return
    raise RuntimeError(f"could not name vendor {plan.key}")


def _tin(r: random.Random, ssn: bool, taken: set[str]) -> str:
    while True:
        if ssn:
            tin = (
                f"{r.choice([n for n in range(1, 900) if n != 666]):03d}-"
                f"{r.randint(1, 99):02d}-{r.randint(1, 9999):04d}"
            )
        else:
            tin = (
                f"{r.choice((20, 26, 27, 32, 35, 36, 37, 38, 39, 45, 46, 47, 81, 82, 83, 84, 88, 90, 92)):02d}-"
                f"{r.randint(1000000, 9999999)}"
            )
        if tin not in taken:
            taken.add(tin)
            return tin


def build_vendors(ctx: Ctx) -> None:
    taken_names: set[str] = set()
    taken_tins: set[str] = set()
    plans: list[VendorPlan] = []
    for i, (role, vtype, pkg, trade, ent) in enumerate(_roster()):
        key = f"V{1000 + i}"
        plan = VendorPlan(
            key=key,
            role=role.split(":")[0],
            vendor_type=vtype,
            package=pkg,
            trade=trade,
            entity_type=ent,
            is_attorney=role == "attorney",
            materials_only=vtype == "supplier" and pkg in ("readymix", "lumber", "doors", "elec_gear"),
        )
        r = ctx.rng("vendor", key)
        if role.startswith("lookalike:"):
            plan.lookalike_of = role.split(":")[1]
            base = ctx.vendors[plan.lookalike_of]
            plan.legal_name = f"{base.stem} {trade}" + (" Co." if plan.lookalike_of == "V1000" else ", Inc.")
            plan.stem = base.stem
        else:
            _name(plan, r, taken_names, anchors.ANCHOR_VENDORS.get(key, (None,))[0])
        taken_names.add(plan.legal_name)
        ssn = ent in ("individual", "sole_proprietor")
        if role == "split" and any(p.role == "split" for p in plans):
            twin = next(p for p in plans if p.role == "split")
            plan.tin = twin.tin
            plan.legal_name = f"{twin.stem} {trade}"  # same payee, set up again under the business name
            plan.dba_name, plan.stem = None, twin.stem
            ctx.diverge(
                "vendor_id_split",
                key,
                reason=f"{key} ({plan.legal_name}) and {twin.key} ({twin.legal_name}) are one payee: "
                f"same TIN {plan.tin}; 1099 amounts aggregate by TIN",
            )
        else:
            plan.tin = _tin(r, ssn, taken_tins)
        plan.invoice_prefix = (
            anchors.INVOICE_PREFIX.get(key)
            or "".join(w[0] for w in plan.legal_name.replace(",", "").split()[:3] if w[0].isalpha()).upper()
        )
        plan.invoice_start = 87000 if key == anchors.JSM_VENDOR else r.randint(1000, 60000)
        ctx.vendors[key] = plan
        plans.append(plan)
        _write(ctx, plan, r)


def company_domain(name: str, taken: set[str] | None = None) -> str:
    """``Walsh Electrical Contractors, LLC`` -> ``walshelectrical.com``; ``J. S. Mitchell …`` -> ``jsmitchell.com``.

    With ``taken``, words are added (then a number) until the domain is not in it; it is then added."""
    words = [w for w in name.replace(",", " ").split() if w not in ("Inc.", "LLC", "Co.", "Corporation", "P.C.", "&")]
    out, n = "", 0
    for i, w in enumerate(words):
        out += names.slug(w, 20)
        if len(out) >= 8 and (taken is None or f"{out}.com" not in taken or i == len(words) - 1):
            break
    out = out or "vendor"
    domain = f"{out}.com"
    while taken is not None and domain in taken:
        n += 1
        domain = f"{out}{n}.com"
    if taken is not None:
        taken.add(domain)
    return domain


def _write(ctx: Ctx, plan: VendorPlan, r: random.Random) -> None:
    city, _county, state, zp, area = names.city(r, ("IL", "IL", "IL", "WI", "IN"))
    domain = company_domain(plan.dba_name or plan.legal_name, ctx.notes.setdefault("vendor_domains", set()))
    local = "ar" if plan.vendor_type in ("subcontractor", "supplier") else "billing"
    if plan.entity_type in ("individual", "sole_proprietor"):
        domain = "gmail.com"
        local = names.slug(plan.legal_name, 20)
    plan.email = f"{local}@{domain}"
    terms = (
        "Net 30"
        if plan.vendor_type == "subcontractor"
        else r.choice(("Net 30", "Net 30", "2% 10 Net 30", "Net 45", "Due on receipt"))
    )
    ctx.add(
        "vendors",
        vendor_key=plan.key,
        legal_name=plan.legal_name,
        dba_name=plan.dba_name,
        vendor_type=plan.vendor_type,
        trade=plan.trade,
        tin=plan.tin,
        tin_type="SSN" if plan.entity_type in ("individual", "sole_proprietor") else "EIN",
        entity_type=plan.entity_type,
        is_attorney=plan.is_attorney,
        materials_only=plan.materials_only,
        address=names.street_address(r),
        city=city,
        state=state,
        zip=names.zip_code(r, zp),
        email=plan.email,
        phone=names.phone(r, area),
        payment_terms=terms,
        status="active",
    )
