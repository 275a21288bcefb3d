"""Owners, jobs and their progress curves, and the HeavyBid estimates the budgets come from.

A job's progress on a cost code at a date is a smooth S-curve over the code's activity window
(a fraction of the job's duration, see ``reference.COST_CODES``); the PM's percent complete is that
curve rounded to a tenth of a percent. Owner billing, subcontractor pay requests and forecasts all
read the same curve, so they agree with each other.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from functools import lru_cache

from cfab.seeds import anchors, names
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, rate
from cfab.seeds.reference import CODES, DOMAIN, PACKAGES, TRADES
from cfab.seeds.timeline import add_months, month_start

TENTH = Decimal("0.1")
GC_CODES = ("01-250", "01-310", "01-450", "01-500", "01-710", "01-740")
# relative cost weight of each code in a job's estimate
CODE_WEIGHTS: dict[str, int] = {
    "01-250": 8,
    "01-310": 45,
    "01-500": 20,
    "01-540": 14,
    "01-560": 5,
    "01-710": 22,
    "01-900": 25,
    "02-410": 18,
    "03-100": 20,
    "03-200": 22,
    "03-300": 60,
    "03-310": 30,
    "03-350": 10,
    "04-200": 40,
    "05-050": 12,
    "05-120": 55,
    "05-500": 14,
    "06-100": 18,
    "06-110": 12,
    "06-200": 20,
    "07-200": 10,
    "07-500": 30,
    "07-900": 5,
    "08-110": 10,
    "08-400": 18,
    "08-800": 22,
    "09-200": 35,
    "09-300": 12,
    "09-650": 14,
    "09-900": 16,
    "10-280": 3,
    "14-200": 30,
    "21-100": 20,
    "22-010": 10,
    "22-100": 45,
    "23-050": 55,
    "23-300": 35,
    "26-050": 70,
    "26-060": 20,
    "26-100": 12,
    "26-500": 22,
    "27-100": 10,
    "28-300": 9,
    "31-100": 6,
    "31-200": 30,
    "31-230": 10,
    "32-120": 18,
    "32-300": 10,
    "32-900": 6,
    "33-100": 12,
    "33-300": 12,
    "33-400": 14,
}
UNITS: dict[str, tuple[str, int, int]] = {  # code prefix -> (unit, min qty, max qty)
    "03": ("CY", 300, 4200),
    "04": ("SF", 4000, 30000),
    "05": ("TON", 40, 650),
    "07": ("SF", 8000, 90000),
    "09": ("SF", 10000, 120000),
    "31": ("CY", 2000, 40000),
    "32": ("SY", 1500, 20000),
    "33": ("LF", 400, 6000),
    "22": ("EA", 20, 240),
    "26": ("SF", 15000, 160000),
    "23": ("TON", 40, 500),
    "21": ("SF", 15000, 160000),
}


@dataclass
class JobPlan:
    number: str
    name: str
    owner_id: str
    status: str
    job_type: str
    pw: bool
    start: date
    end: date
    contract_target: Decimal
    packages: tuple[str, ...]
    crews: tuple[str, ...]  # self-performed trades
    city: str
    county: str
    state: str
    pm: str
    pm_email: str
    superintendent: str
    address: str
    contingency: bool = False
    budget_codes: list[str] = field(default_factory=list)
    budget_original: dict[str, Decimal] = field(default_factory=dict)
    contract_amount: Decimal = Decimal(0)
    bills_monthly_from: date | None = None  # first owner pay-app period end

    @property
    def active(self) -> bool:
        return self.status == "active"


def fraction(job: JobPlan, t: date) -> Decimal:
    total = (job.end - job.start).days
    done = (t - job.start).days
    return min(Decimal(1), max(Decimal(0), Decimal(done) / Decimal(total)))


def progress(job: JobPlan, code: str, t: date) -> Decimal:
    """Percent complete (0..100, one decimal) of ``code`` on ``job`` at ``t``."""
    return _progress(job.start, job.end, code, t)


@lru_cache(maxsize=200_000)
def _progress(start: date, end: date, code: str, t: date) -> Decimal:
    cc = CODES[code]
    f = min(Decimal(1), max(Decimal(0), Decimal((t - start).days) / Decimal((end - start).days)))
    x = min(Decimal(1), max(Decimal(0), (f - cc.start) / (cc.end - cc.start)))
    s = x * x * (3 - 2 * x)
    return (s * 100).quantize(TENTH)


def _staff(ctx: Ctx) -> tuple[list[tuple[str, str]], list[str]]:
    r = ctx.rng("staff")
    pms: list[tuple[str, str]] = []
    seen: set[str] = set()
    while len(pms) < 7:
        first, last = names.person(r)
        email = f"{first[0].lower()}{names.slug(last)}@{DOMAIN}"
        if email not in seen:
            seen.add(email)
            pms.append((f"{first} {last}", email))
    supers = [" ".join(names.person(r)) for _ in range(9)]
    return pms, supers


_FACILITIES = {
    "public": (
        "Public Works Facility",
        "Police Station Renovation",
        "Elementary School Addition",
        "Community Center",
        "Village Hall Renovation",
        "Water Treatment Plant Upgrades",
        "Fieldhouse and Aquatic Center",
        "Transit Center",
    ),
    "commercial": (
        "Medical Office Building",
        "Retail Center",
        "Office Building Renovation",
        "Hotel",
        "Bank Branch",
        "Corporate Headquarters Fit-Out",
        "Senior Living Community",
        "Mixed-Use Building",
    ),
    "industrial": (
        "Distribution Center",
        "Manufacturing Plant Expansion",
        "Cold Storage Warehouse",
        "Logistics Center Phase 2",
    ),
    "residential": ("Townhomes", "Custom Residence", "Condominiums", "Rowhomes"),
}
_OPTIONAL = (
    "steel",
    "masonry",
    "roofing",
    "glazing",
    "drywall",
    "finishes",
    "fire_protection",
    "earthwork",
    "utilities",
    "paving",
    "elevator",
    "casework",
    "demolition",
    "landscaping",
)
_PROFILE = (  # job type, public?, count, contract range (k$)
    ("public", True, 5, (2500, 9000)),
    ("commercial", False, 9, (1800, 12000)),
    ("industrial", False, 3, (6000, 16000)),
    ("residential", False, 3, (700, 2600)),
    ("commercial", False, 2, (3000, 8000)),  # owner-side modelled (ingenious.build)
)


def _packages(r: random.Random, job_type: str) -> tuple[str, ...]:
    if job_type == "residential":
        return (
            "earthwork",
            "concrete",
            "roofing",
            "plumbing",
            "electrical",
            "mechanical",
            "drywall",
            "finishes",
            "casework",
            "lumber",
            "doors",
        )
    if job_type == "industrial":
        return (
            "earthwork",
            "utilities",
            "concrete",
            "steel",
            "roofing",
            "fire_protection",
            "electrical",
            "mechanical",
            "plumbing",
            "paving",
            "readymix",
            "rental",
        )
    core = ["concrete", "electrical", "mechanical", "plumbing"]
    core += r.sample(_OPTIONAL, r.randint(3, 6))
    core += r.sample(("readymix", "doors", "lumber", "rental", "elec_gear"), r.randint(1, 2))
    return tuple(core)


def build_jobs(ctx: Ctx) -> None:
    tl = ctx.tl
    r = ctx.rng("jobs")
    pms, supers = _staff(ctx)
    taken = {a.number for a in anchors.ANCHOR_JOBS}
    used_names = {a.name for a in anchors.ANCHOR_JOBS}
    specs: list[dict] = []
    for a in anchors.ANCHOR_JOBS:
        specs.append(
            dict(
                number=a.number,
                name=a.name,
                owner=a.owner,
                owner_type=a.owner_type,
                job_type=a.job_type,
                city=a.city,
                county=a.county,
                state="IL",
                contract=a.contract,
                start=add_months(month_start(tl.clock), -a.start_months),
                months=a.duration_months,
                packages=a.packages,
                status="active",
                pw=a.owner_type == "public",
            )
        )

    def new_number() -> str:
        while True:
            n = str(r.randint(1000, 9899))
            if n not in taken and not ("1900" <= n <= "2099"):
                taken.add(n)
                return n

    for prof_i, (jtype, public, count, (lo, hi)) in enumerate(_PROFILE):
        for _ in range(count):
            city, county, state, _zp, _ac = names.city(r, ("IL",) if public or r.random() < 0.8 else ("IL", "WI", "IN"))
            fac = r.choice(_FACILITIES[jtype])
            if jtype == "residential":
                fac = (
                    f"{r.choice(names.LAST_NAMES)} Residence"
                    if fac == "Custom Residence"
                    else f"{r.choice(names.STREETS).rsplit(' ', 1)[0]} {fac}"
                )
            owner = (
                r.choice((f"Village of {city}", f"{city} Park District", f"{county} County", f"City of {city}"))
                if public
                else f"{r.choice(names.PLACE_STEMS)} "
                f"{r.choice(('Development', 'Holdings', 'Properties', 'Partners', 'Realty'))}, LLC"
            )
            start = tl.window_start + timedelta(days=r.randint(10, 250))
            name = f"{city} {fac}"
            if name in used_names:
                name = f"{city} {fac} - Phase {sum(n.startswith(name) for n in used_names) + 1}"
            used_names.add(name)
            specs.append(
                dict(
                    number=new_number(),
                    name=name,
                    owner=owner,
                    owner_type="public" if public else "private",
                    job_type=jtype,
                    city=city,
                    county=county,
                    state=state,
                    contract=Decimal(r.randint(lo, hi) * 1000),
                    start=start,
                    months=r.randint(9, 14) if jtype == "residential" else r.randint(14, 26),
                    packages=_packages(r, jtype),
                    status="active",
                    pw=public,
                    owner_side=prof_i == 4,
                )
            )
    for _ in range(3):  # closed tenant-improvement jobs finished during the window
        city, county, state, _zp, _ac = names.city(r)
        start = tl.window_start + timedelta(days=r.randint(5, 60))
        kind, owner_kind = r.choice(
            (
                ("Dental Office", "Family Dental, LLC"),
                ("Bank Branch", "Community Bank"),
                ("Restaurant", "Hospitality Group, LLC"),
            )
        )
        specs.append(
            dict(
                number=new_number(),
                name=f"{city} {kind} Tenant Improvement",
                owner=f"{r.choice(names.LAST_NAMES)} {owner_kind}",
                owner_type="private",
                job_type="commercial",
                city=city,
                county=county,
                state=state,
                contract=Decimal(r.randint(180, 650) * 1000),
                start=start,
                months=r.randint(4, 6),
                packages=("drywall", "finishes", "electrical", "rental"),
                status="closed",
                pw=False,
            )
        )
    owners: dict[str, str] = {}
    for i, s in enumerate(specs):
        _add_job(ctx, s, i, owners, pms, supers)


def _add_job(ctx: Ctx, s: dict, i: int, owners: dict[str, str], pms: list[tuple[str, str]], supers: list[str]) -> None:
    r = ctx.rng("job", s["number"])
    if s["owner"] not in owners:
        oid = f"O{100 + len(owners)}"
        owners[s["owner"]] = oid
        first, last = names.person(r)
        tld = "org" if s["owner_type"] == "public" else "com"
        dom = names.slug(s["owner"].replace(", LLC", "").replace(", Inc.", ""), 22) + "." + tld
        _c, _co, _st, zp, _ac = next((c for c in names.CITIES if c[0] == s["city"]), names.CITIES[0])
        ctx.add(
            "owners",
            owner_id=oid,
            name=s["owner"],
            owner_type=s["owner_type"],
            contact_name=f"{first} {last}",
            email=f"{first[0].lower()}{names.slug(last)}@{dom}",
            address=f"{names.street_address(r)}, {s['city']}, {s['state']} {names.zip_code(r, zp)}",
        )
    anchored = s["number"] in {a.number for a in anchors.ANCHOR_JOBS}
    start = s["start"] + timedelta(days=r.randint(0, 12)) if anchored else s["start"]
    end = add_months(start, s["months"])
    if s["status"] == "closed":
        end = min(end, ctx.tl.clock - timedelta(days=75))
    pm, pm_email = pms[i % len(pms)]
    crews = _crew_trades(r, s)
    job = JobPlan(
        number=s["number"],
        name=s["name"],
        owner_id=owners[s["owner"]],
        status=s["status"],
        job_type=s["job_type"],
        pw=s["pw"],
        start=start,
        end=end,
        contract_target=s["contract"],
        packages=tuple(s["packages"]),
        crews=crews,
        city=s["city"],
        county=s["county"],
        state=s["state"],
        pm=pm,
        pm_email=pm_email,
        superintendent=supers[i % len(supers)],
        address=names.street_address(r),
    )
    job.contingency = s["number"] in anchors.CONTINGENCY_JOBS or (
        s["number"] not in anchors.ETC_JOBS and s["status"] == "active" and r.random() < 0.3
    )
    if s.get("owner_side"):
        ctx.notes.setdefault("owner_side_jobs", []).append(job.number)
    ctx.jobs[job.number] = job


def _crew_trades(r: random.Random, s: dict) -> tuple[str, ...]:
    plan = anchors.CERT_PLANS.get(s["number"])
    if plan:
        return tuple(plan.crews)
    if s["status"] == "closed" or s["job_type"] == "residential":
        return ("Carpenter", "Laborer")
    return tuple(sorted(r.sample(("Carpenter", "Laborer", "Cement Mason", "Operating Engineer"), r.choice((2, 2, 3)))))


def budget_codes(job: JobPlan) -> list[str]:
    codes = set(GC_CODES)
    for p in job.packages:
        codes.update(PACKAGES[p][2])
    for t in job.crews:
        codes.add(TRADES[t][1])
    if job.contingency:
        codes.add("01-900")
    return sorted(codes)


def build_estimates(ctx: Ctx) -> None:
    """HeavyBid estimates (awarded) → original budgets → contract amounts."""
    for job in ctx.jobs.values():
        r = ctx.rng("estimate", job.number)
        job.budget_codes = budget_codes(job)
        markup = rate(Decimal(r.randint(60, 110)) / 10)
        cost_target = job.contract_target / (1 + markup / 100)
        weights = {c: CODE_WEIGHTS.get(c, 8) * r.randint(80, 120) for c in job.budget_codes}
        total_w = sum(weights.values())
        targets = {c: cost_target * w / total_w for c, w in weights.items()}
        if job.number == "1042":  # Walsh's $632k subcontract must fit under the electrical budget
            elec = PACKAGES["electrical"][2]
            have = sum(targets[c] for c in elec)
            for c in elec:
                targets[c] = targets[c] * (anchors.SC_1042_0_AMOUNT / Decimal("0.955")) / have
        est_id = f"EST-{job.number}"
        items: list[tuple[str, str, Decimal, str, Decimal]] = []
        for c in job.budget_codes:
            for desc, q, unit, u in _items_for(r, c, targets[c]):
                items.append((c, desc, q, unit, u))
        total = Decimal(0)
        for n, (c, desc, q, unit, u) in enumerate(items, start=1):
            line_total = money(q * u)
            total += line_total
            job.budget_original[c] = job.budget_original.get(c, Decimal(0)) + line_total
            ctx.add(
                "estimate_items",
                estimate_id=est_id,
                item_no=n,
                cost_code=c,
                description=desc,
                quantity=q,
                unit=unit,
                unit_cost=u,
                total_cost=line_total,
            )
        job.contract_amount = money(total * (1 + markup / 100))
        ctx.add(
            "estimates",
            estimate_id=est_id,
            job_number=job.number,
            name=f"{job.name} - Bid",
            bid_date=job.start - timedelta(days=r.randint(45, 100)),
            status="awarded",
            total_cost=total,
            markup_pct=markup,
            bid_total=job.contract_amount,
        )


def _items_for(r: random.Random, code: str, target: Decimal) -> list[tuple[str, Decimal, str, Decimal]]:
    cc = CODES[code]
    unit_spec = UNITS.get(cc.division)
    if unit_spec is None or cc.cost_type in ("O", "L", "E") and code != "03-100":
        if cc.cost_type == "L":
            hours = Decimal(max(40, int(target / Decimal(78))))
            return [(f"{cc.description} - crew hours", hours, "HR", (target / hours).quantize(Decimal("0.0001")))]
        return [(cc.description, Decimal(1), "LS", target.quantize(Decimal("0.0001")))]
    unit, lo, hi = unit_spec
    if r.random() < 0.35 and target > 60000:
        main = target * Decimal(r.randint(78, 92)) / 100
        rest = target - main
        q = Decimal(r.randint(lo, hi))
        return [
            (cc.description, q, unit, (main / q).quantize(Decimal("0.0001"))),
            (
                f"{cc.description} - mobilization and general requirements",
                Decimal(1),
                "LS",
                rest.quantize(Decimal("0.0001")),
            ),
        ]
    q = Decimal(r.randint(lo, hi))
    return [(cc.description, q, unit, (target / q).quantize(Decimal("0.0001")))]
