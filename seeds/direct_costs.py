"""Non-committed invoices: services, professionals and small vendors billed straight to a job.

They also carry the R_1099nec plants: the janitor paid under $600 in the tax year, the handyman
(single-member LLC) over it, and the drywall-repair payee set up twice under one SSN whose two
vendor ids are each under $600 but together over it (``vendor_id_split``).
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds.ap import Draft
from cfab.seeds.context import Ctx
from cfab.seeds.util import round_to

# trade -> (cost code, invoices per year per job, jobs, amount range in dollars, description)
SERVICE_PLANS: dict[str, tuple[str, int, int, tuple[int, int], str]] = {
    "Testing & Inspection": ("01-450", 6, 2, (1200, 4800), "Concrete and soils testing services"),
    "Portable Sanitation": ("01-500", 6, 2, (280, 640), "Portable toilet and hand-wash station service"),
    "Waste Hauling": ("01-740", 6, 2, (650, 2400), "Roll-off container hauls"),
    "Land Surveying": ("01-250", 4, 4, (1250, 4800), "Construction staking and layout"),
    "Civil Engineering": ("01-250", 3, 3, (3500, 9500), "Civil engineering and SWPPP inspections"),
    "Safety Consulting": ("01-250", 5, 5, (650, 1450), "Site safety audit and toolbox talk"),
    "Trucking": ("01-540", 6, 3, (1800, 4200), "Trucking - haul-off of excess spoils"),
    "Steel Supply": ("01-560", 2, 2, (900, 3800), "Misc. steel shapes and plate"),
    "Roofing Supply": ("01-560", 2, 2, (700, 2600), "Roofing accessories and flashing"),
    "Fire Equipment": ("01-500", 2, 2, (350, 900), "Fire extinguisher service and inspection tags"),
}
# 1099 plants: trade -> invoice amounts inside the tax year
TAX_PLANTS: dict[str, tuple[str, ...]] = {
    "Janitorial Services": ("185.00", "240.00"),
    "Handyman Services": ("275.00", "410.00", "365.00"),
    "Legal Services": ("4850.00", "2312.50"),  # a law firm (a professional corporation): reportable
}
SPLIT_AMOUNTS = ("385.00", "420.00")  # first key, second key (same SSN): each < 600, together >= 600


def _tax_dates(ctx: Ctx, n: int, r: random.Random) -> list[date]:
    tl = ctx.tl
    first_job = min(j.start for j in ctx.jobs.values())
    lo = max(first_job + timedelta(days=7), date(tl.tax_year, 1, 1))
    hi = min(tl.clock - timedelta(days=40), date(tl.tax_year, 12, 31) - timedelta(days=45))
    hi = max(hi, lo)
    span = (hi - lo).days
    return sorted(lo + timedelta(days=r.randint(0, span)) for _ in range(n))


def _jobs_on(ctx: Ctx, when: date) -> list[str]:
    return sorted(j.number for j in ctx.jobs.values() if j.start <= when and (j.active or j.end >= when))


def direct_cost_drafts(ctx: Ctx) -> list[Draft]:
    tl = ctx.tl
    out: list[Draft] = []
    for key, v in sorted(ctx.vendors.items()):
        r = ctx.rng("direct", key)
        if v.trade in SERVICE_PLANS and not v.package:
            code, per_year, n_jobs, (lo, hi), desc = SERVICE_PLANS[v.trade]
            early = [j for j in sorted(ctx.jobs) if ctx.jobs[j].active and ctx.jobs[j].start <= tl.months[2]]
            jobs = r.sample(early, min(n_jobs, len(early)))
            step = max(1, 12 // per_year)
            for job in jobs:
                for i in range(0, 13, step):
                    when = tl.months[i] + timedelta(days=r.randint(3, 26))
                    if when > tl.clock or when < ctx.jobs[job].start:
                        continue
                    amt = (
                        round_to(Decimal(r.randint(lo, hi)), 5)
                        if per_year > 4
                        else Decimal(r.randint(lo * 4, hi * 4)) / 4
                    )
                    out.append(_draft(ctx, key, job, when, code, f"{desc} - {when:%B %Y}", amt))
        elif v.trade in TAX_PLANTS:
            amounts = TAX_PLANTS[v.trade]
            for when, amount in zip(_tax_dates(ctx, len(amounts), r), amounts, strict=True):
                job = r.choice(_jobs_on(ctx, when))
                code = {"Handyman Services": "01-500", "Legal Services": "01-250"}.get(v.trade, "01-740")
                desc = (
                    "Legal services - mechanics lien and contract review"
                    if v.trade == "Legal Services"
                    else f"{v.trade} - {when:%B %Y}"
                )
                out.append(_draft(ctx, key, job, when, code, desc, Decimal(amount)))
        elif v.role == "split":
            first = min(k for k, p in ctx.vendors.items() if p.role == "split")
            amt = Decimal(SPLIT_AMOUNTS[0 if key == first else 1])
            (when,) = _tax_dates(ctx, 1, r)
            job = r.choice(_jobs_on(ctx, when))
            out.append(_draft(ctx, key, job, when, "01-500", "Punch-list drywall patch and repair", amt))
    return out


def _draft(ctx: Ctx, vendor: str, job: str, when: date, code: str, desc: str, amount: Decimal) -> Draft:
    erp = "unposted" if when > ctx.tl.clock - timedelta(days=6) else "posted"
    return Draft(
        vendor,
        job,
        None,
        when,
        [(None, code, desc, amount.quantize(Decimal("0.01")), Decimal("0.00"))],
        None,
        erp,
        False,
        desc,
    )
