"""Field employees (self-performed trades, union locals, journeymen / apprentices / foremen),
their identities per system, prevailing-wage determinations and apprentice ratio rules.

Crews: each P_certified_payroll job gets the crew its ``anchors.CERT_PLANS`` entry describes
(exclusive to that job for the timecard window); every other active job gets one or two workers
per self-performed trade. The planted defects live on the people: the electrician on 1042 whose
own rate is below the determination, the plumber on 3100 whose fringe is short, the ironworker
apprentice on 2200 with no registration.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds import anchors, names
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, rate
from cfab.seeds.identities import employee_identity_rows
from cfab.seeds.reference import APPRENTICE_RATIOS, TRADES, UNION_LOCALS

COUNTY_FACTOR = {
    "Cook": "1.0000",
    "DuPage": "1.0000",
    "Lake": "1.0000",
    "Kane": "0.9950",
    "Will": "1.0000",
    "McHenry": "0.9800",
    "Kendall": "0.9700",
    "DeKalb": "0.9300",
    "Winnebago": "0.9000",
    "Peoria": "0.8900",
    "Champaign": "0.8800",
    "Sangamon": "0.8700",
}


@dataclass
class Worker:
    employee_id: str
    trade: str
    level: str  # journeyman|apprentice|foreman
    home_job: str
    apprentice_pct: Decimal | None
    base_rate: Decimal
    fringe_rate: Decimal
    registration: str | None
    hire: date
    terminated: date | None = None
    defect: str | None = None

    @property
    def apprentice_share(self) -> Decimal:
        """An apprentice's percentage of the journeyman rate (only apprentices have one)."""
        if self.apprentice_pct is None:
            raise ValueError(f"{self.employee_id} has no apprentice percentage")
        return self.apprentice_pct


def build_people(ctx: Ctx) -> None:
    for trade, (local, union, city, _scale, fringe) in UNION_LOCALS.items():
        ctx.add("union_locals", local_code=local, union_name=union, trade=trade, city=city, fringe_rate=Decimal(fringe))
    for trade, (per, source) in APPRENTICE_RATIOS.items():
        ctx.add("apprentice_ratio_rules", trade=trade, journeymen_per_apprentice=per, source=source)
    slots: list[tuple[str, str, str, str | None]] = []  # (job, trade, level, defect)
    for job, plan in anchors.CERT_PLANS.items():
        for trade, (fm, jm, ap) in plan.crews.items():
            levels = ["foreman"] * fm + ["journeyman"] * jm + ["apprentice"] * ap
            for i, level in enumerate(levels):
                defect = None
                if plan.defect and trade == plan.defect_trade:
                    wants = "apprentice" if plan.defect.startswith("apprentice") else "journeyman"
                    if level == wants and levels.index(wants) == i:
                        defect = plan.defect
                slots.append((job, trade, level, defect))
    for job_plan in sorted(ctx.jobs.values(), key=lambda j: j.number):
        if job_plan.number in anchors.CERT_PLANS or not job_plan.active:
            continue
        r = ctx.rng("crew", job_plan.number)
        for trade in job_plan.crews:
            slots.append((job_plan.number, trade, "journeyman", None))
            if r.random() < 0.15:
                slots.append((job_plan.number, trade, r.choice(("foreman", "apprentice")), None))
    first_job = min(ctx.jobs.values(), key=lambda j: j.start).number
    for _ in range(4):
        slots.append((first_job, "Laborer", "journeyman", "terminated"))
    workers = [_worker(ctx, i, *s) for i, s in enumerate(slots)]
    ctx.notes["workers"] = {w.employee_id: w for w in workers}
    for emp, system, sid in employee_identity_rows([(i, w.employee_id) for i, w in enumerate(workers)]):
        ctx.add("employee_identities", employee_id=emp, system=system, system_employee_id=sid)
    _determinations(ctx)


def _worker(ctx: Ctx, i: int, job: str, trade: str, level: str, defect: str | None) -> Worker:
    emp = f"E{1001 + i}"
    r = ctx.rng("employee", emp)
    local, _union, _city, scale_s, fringe_s = UNION_LOCALS[trade]
    scale, fringe = Decimal(scale_s), Decimal(fringe_s)
    pct = None
    if level == "foreman":
        base = scale + Decimal("3.0000")
    elif level == "apprentice":
        pct = rate(r.choice((50, 55, 60, 65, 70, 75, 80, 85)))
        base = rate(scale * pct / 100)
    else:
        base = scale
    if defect == "underpaid_rate":
        base = scale - anchors.UNDERPAY_SHORTFALL
    if defect == "fringe_short":
        fringe = fringe - anchors.FRINGE_SHORTFALL
    reg = None
    if level == "apprentice" and defect != "apprentice_unregistered":
        reg = f"IL-{ctx.tl.clock.year - r.randint(1, 4)}-{r.randint(100000, 999999)}"
    hire = (
        ctx.tl.window_start - timedelta(days=r.randint(30, 3000))
        if r.random() < 0.85
        else ctx.tl.window_start + timedelta(days=r.randint(0, 120))
    )
    if job in anchors.CERT_PLANS:
        hire = min(hire, ctx.tl.timecard_start - timedelta(days=30))
    first, last = names.person(r)
    term = ctx.tl.window_start + timedelta(days=r.randint(90, 200)) if defect == "terminated" else None
    w = Worker(emp, trade, level, job, pct, base, fringe, reg, hire, term, defect if defect != "terminated" else None)
    ctx.add(
        "employees",
        employee_id=emp,
        first_name=first,
        last_name=last,
        ssn_last4=f"{r.randint(1, 9999):04d}",
        trade=trade,
        classification=TRADES[trade][0],
        level=level,
        apprentice_registration=reg,
        apprentice_pct=pct,
        union_local=local,
        base_rate=base,
        fringe_rate=fringe,
        hire_date=hire,
        status="terminated" if term else "active",
    )
    return w


def _determinations(ctx: Ctx) -> None:
    used: set[str] = set()
    wds: dict[str, str] = {}
    rates: dict[tuple[str, str], tuple[Decimal, Decimal]] = {}
    for job in sorted(ctx.jobs.values(), key=lambda j: j.number):
        if not job.pw:
            continue
        r = ctx.rng("wd", job.number)
        year = job.start.year
        while True:
            number = f"{job.state}{year}{r.randint(1, 60):04d}"
            if number not in used:
                used.add(number)
                break
        mod = r.randint(0, 6)
        det = f"{number}-mod{mod}"
        wds[job.number] = det
        ctx.add(
            "wage_determinations",
            determination_id=det,
            job_number=job.number,
            wd_number=number,
            modification=mod,
            county=job.county,
            state=job.state,
            effective_date=job.start - timedelta(days=r.randint(40, 120)),
        )
        factor = Decimal(COUNTY_FACTOR.get(job.county, "0.9500"))
        for trade, (cls, _code) in TRADES.items():
            _l, _u, _c, scale, fringe = UNION_LOCALS[trade]
            base, fr = rate(money(Decimal(scale) * factor)), rate(money(Decimal(fringe) * factor))
            ctx.add("wage_rates", determination_id=det, classification=cls, base_rate=base, fringe_rate=fr)
            rates[(job.number, trade)] = (base, fr)
    ctx.notes["determinations"] = wds
    ctx.notes["wage_rates"] = rates


def wage_rate(ctx: Ctx, job: str, trade: str) -> tuple[Decimal, Decimal] | None:
    """The determination's (base, fringe) for a trade on a prevailing-wage job, else None."""
    return ctx.notes["wage_rates"].get((job, trade))


def pay_rates(ctx: Ctx, w: Worker, job: str) -> tuple[Decimal, Decimal]:
    """(rate paid, fringe paid) for a worker on a job: prevailing wage applied except the planted defects."""
    wd = wage_rate(ctx, job, w.trade)
    if wd is None:
        return w.base_rate, w.fringe_rate
    base, fringe = wd
    need = rate(base * w.apprentice_share / 100) if w.level == "apprentice" else base
    paid = w.base_rate if w.defect == "underpaid_rate" else max(w.base_rate, need)
    fringe_paid = w.fringe_rate if w.defect == "fringe_short" else max(w.fringe_rate, fringe)
    return paid, fringe_paid
