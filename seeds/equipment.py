"""Plants for G_equipment_allocation: the company's equipment fleet, its rate book and the hours the
crews log against each unit, from which the month's owned-equipment cost is allocated to the jobs.

Eight fleets (excavators, loaders, cranes, compaction, trucks, aerial lifts, dozers, site support),
each three or four owned units (``book.equipment``) whose hours the crews of the fleet's jobs log
in the jobs' field-time app (Rhumbix or busybusy, by fleet), day by day, per job and cost code,
operating or idle (``book.equipment_hours``, over the timecard window: the clock's month and the
weeks before it). The rate book (``book.equipment_rates``, HCSS HeavyBid's equipment setup) gives
each unit's Rent (ownership cost) and EOE (operating expense) per hour, effective-dated: last
year's annual update, this year's, and where a fleet carries the twist a revision during the
clock's month. The field-time apps still carry the costing rate keyed when each unit was set up
(last year's), a registered divergence (``equipment_rate_stale``).

The twists, by fleet, in the data at every seed and clock (dates relative to the clock):

- ``idle``: units log idle (standby) hours on site besides their operating hours; the policy (only
  the policy) charges idle hours to overhead (6750), at the Rent rate, never to the job;
- ``rate_change``: one unit's rate is revised on a weekday of the clock's month (from the 8th, not
  after the clock), with operating hours before and after it;
- ``rented``: a rented unit (the rental house's, in HeavyBid as Rented) works on one of the fleet's
  jobs, the one no owned unit of the fleet works on where there is one: it is not owned equipment
  (its rent comes through AP) and is not allocated.

Fleets with no twist are the clean controls. Units move between the fleet's jobs during the window
(on the day of a move the hours are split between the two jobs). Hours are in half hours and rates
in half dollars, so every charge is exact to the cent.

It adds the two accounts the allocation uses to the chart (5490 Equipment Cost Recovery, a contra
expense, and 6750 Equipment Idle Time, overhead) and the equipment rate policy (``book.policies``
and its SharePoint documents). Everything comes from the ``equipment_allocation`` stream and is
appended after every other module's rows; no earlier row changes and nothing is posted to the GL
(the task stages the clock month's entry).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds.context import Ctx
from cfab.seeds.determinism import stable_id
from cfab.seeds.ledger import add_gl_accounts
from cfab.seeds.payroll import source_system
from cfab.seeds.policies import add_late_policy

STREAM = "equipment_allocation"
EQUIPMENT_COST, RECOVERY, IDLE_TIME = "5400", "5490", "6750"
# (account, name, type, normal balance, job cost, control): appended to the chart
ACCOUNTS = (
    (RECOVERY, "Equipment Cost Recovery", "expense", "C", False, False),
    (IDLE_TIME, "Equipment Idle Time", "expense", "D", False, False),
)
POLICY_ID = "equipment_rate_policy.md"
POLICY_TITLE = "Owned Equipment Rates and Monthly Cost Allocation Policy"
HALF = Decimal("0.5")


@dataclass(frozen=True)
class Model:
    description: str
    make: str
    model: str
    rent: tuple[int, int]  # whole dollars per hour, drawn in half dollars
    eoe: tuple[int, int]


@dataclass(frozen=True)
class Fleet:
    category: str  # HeavyBid's category
    prefix: str  # the unit numbers' prefix
    system: str  # the field-time app its jobs' crews use
    twists: frozenset[str]
    models: tuple[Model, ...]


def _m(description: str, make: str, model: str, rent: tuple[int, int], eoe: tuple[int, int]) -> Model:
    return Model(description, make, model, rent, eoe)


FLEETS: dict[str, Fleet] = {
    "excavators": Fleet(
        "EXCAVATORS",
        "EX",
        "rhumbix",
        frozenset({"idle"}),
        (
            _m("CAT 320 GC Hydraulic Excavator", "Caterpillar", "320 GC", (62, 78), (34, 44)),
            _m("CAT 336 Hydraulic Excavator", "Caterpillar", "336", (96, 118), (52, 66)),
            _m("Komatsu PC210LC-11 Excavator", "Komatsu", "PC210LC-11", (60, 74), (32, 42)),
            _m("John Deere 135G Excavator", "John Deere", "135G", (44, 56), (24, 32)),
            _m("Kubota KX057-5 Mini Excavator", "Kubota", "KX057-5", (22, 30), (11, 16)),
        ),
    ),
    "loaders": Fleet(
        "LOADERS",
        "LD",
        "busybusy",
        frozenset({"rate_change"}),
        (
            _m("CAT 930M Wheel Loader", "Caterpillar", "930M", (58, 70), (30, 38)),
            _m("John Deere 624P Wheel Loader", "John Deere", "624P", (62, 76), (32, 40)),
            _m("CAT 262D3 Skid Steer Loader", "Caterpillar", "262D3", (18, 26), (9, 14)),
            _m("Bobcat T770 Compact Track Loader", "Bobcat", "T770", (22, 30), (11, 16)),
            _m("CAT 420 XE Backhoe Loader", "Caterpillar", "420 XE", (30, 40), (16, 22)),
        ),
    ),
    "cranes": Fleet(
        "CRANES & TELEHANDLERS",
        "CR",
        "busybusy",
        frozenset({"rented"}),
        (
            _m("Grove RT540E Rough-Terrain Crane", "Grove", "RT540E", (118, 142), (44, 56)),
            _m("Link-Belt 75RT Rough-Terrain Crane", "Link-Belt", "75RT", (136, 164), (50, 62)),
            _m("JLG 1055 Telehandler", "JLG", "1055", (34, 44), (14, 20)),
            _m("CAT TH255C Telehandler", "Caterpillar", "TH255C", (30, 40), (13, 18)),
            _m("Genie GTH-1056 Telehandler", "Genie", "GTH-1056", (34, 42), (14, 19)),
        ),
    ),
    "compaction": Fleet(
        "COMPACTION",
        "CP",
        "rhumbix",
        frozenset(),
        (
            _m("CAT CS56B Vibratory Soil Compactor", "Caterpillar", "CS56B", (48, 60), (24, 30)),
            _m("Hamm HD+ 90i Tandem Roller", "Hamm", "HD+ 90i", (40, 52), (20, 27)),
            _m("Wacker Neuson RT82 Trench Roller", "Wacker Neuson", "RT82", (16, 22), (7, 11)),
            _m("BOMAG BW 211 D-5 Single Drum Roller", "BOMAG", "BW 211 D-5", (46, 58), (23, 29)),
        ),
    ),
    "trucks": Fleet(
        "TRUCKS",
        "TR",
        "rhumbix",
        frozenset({"idle", "rate_change"}),
        (
            _m("Mack Granite Tri-Axle Dump Truck", "Mack", "Granite GU813", (42, 54), (30, 38)),
            _m("Kenworth T880 Dump Truck", "Kenworth", "T880", (44, 56), (31, 39)),
            _m("International HV507 Water Truck", "International", "HV507", (36, 46), (24, 31)),
            _m("Peterbilt 567 Lowboy Tractor", "Peterbilt", "567", (52, 64), (34, 42)),
        ),
    ),
    "aerial": Fleet(
        "AERIAL LIFTS",
        "AL",
        "busybusy",
        frozenset({"idle", "rented"}),
        (
            _m("JLG 600S Telescopic Boom Lift", "JLG", "600S", (26, 34), (8, 12)),
            _m("Genie Z-45/25J Articulating Boom Lift", "Genie", "Z-45/25J", (22, 30), (7, 11)),
            _m("JLG 1930ES Scissor Lift", "JLG", "1930ES", (8, 12), (3, 5)),
            _m("Skyjack SJ6832 RT Scissor Lift", "Skyjack", "SJ6832 RT", (14, 20), (5, 8)),
        ),
    ),
    "dozers": Fleet(
        "DOZERS",
        "DZ",
        "rhumbix",
        frozenset({"rate_change"}),
        (
            _m("CAT D6 Dozer", "Caterpillar", "D6", (92, 112), (48, 60)),
            _m("John Deere 700L Dozer", "John Deere", "700L", (70, 86), (38, 48)),
            _m("CAT D3 Dozer", "Caterpillar", "D3", (44, 56), (24, 31)),
            _m("Komatsu D51PXi-24 Dozer", "Komatsu", "D51PXi-24", (62, 76), (34, 42)),
        ),
    ),
    "site_support": Fleet(
        "SITE SUPPORT",
        "SS",
        "busybusy",
        frozenset(),
        (
            _m("Doosan P185 Towable Air Compressor", "Doosan", "P185", (10, 14), (6, 9)),
            _m("CAT XQ60 Mobile Generator", "Caterpillar", "XQ60", (16, 22), (9, 13)),
            _m("Allmand Night-Lite Pro II Light Tower", "Allmand", "Night-Lite Pro II", (5, 8), (2, 4)),
            _m("Godwin CD150M Dewatering Pump", "Godwin", "CD150M", (14, 20), (8, 12)),
        ),
    ),
}
REVISIONS = (
    "Revised after engine rebuild",
    "Revised after undercarriage replacement",
    "Revised for new telematics and attachments",
)

POLICY_BODY = """
The company's own construction equipment is costed to the jobs that use it at internal hourly rates,
so that each job carries the cost of the equipment it used and the equipment pool is relieved of it.
This policy says where the hours and the rates come from and how the monthly entry is made.

## 1. What is allocated
Only **owned** equipment is allocated. A unit the company rents (HeavyBid's equipment setup shows it
as **Rented**) is billed by the rental house and reaches the job through accounts payable; its hours
are logged in the field like any other unit's, but it is never part of this allocation.

## 2. Hours
Equipment hours are the hours the crews log against each unit, per day, job and cost code, in the
field-time app of the job (Rhumbix or busybusy). Each log is either **operating** (the unit working)
or **idle** (on site, standing by). Only hours worked in the month being closed (work dates from the
1st through the last day of the month) are allocated in that month.

## 3. Rates
The **rate book** is the equipment setup in HCSS HeavyBid: for each unit an hourly **Rent** rate
(the cost of ownership: depreciation, interest, insurance, storage) and an hourly **EOE** rate
(equipment operating expense: fuel, lube, repairs, tires and wear items), effective-dated. A rate
applies to hours worked on and after its effective date until the next rate takes effect, so when a
rate is revised during a month, the hours before the revision are charged at the earlier rate and
the hours from its effective date at the new one. The hourly rate shown in the field-time apps was
keyed when each unit was set up there; it is not maintained and is never used for costing.

## 4. Charges
- **Operating hours** are job cost: hours x (Rent + EOE) in effect on the work date, charged to the
  job the hours were logged to.
- **Idle hours are not job cost.** A unit standing by still costs its ownership, but a job is not
  charged for equipment it did not use: idle hours are charged to **6750 Equipment Idle Time**
  (overhead) at the **Rent rate only** (no operating expense is incurred while idle), with no job.
- Hours are logged in half hours and rates are set in half dollars, so each charge is exact to the
  cent; no rounding arises.

## 5. The monthly entry
At month end stage one journal entry for the month's allocation of each fleet, dated the last day
of the month, not auto-reversing:
- **Dr 5400 Equipment Cost** for each job's operating-hour charges, with the job on the line (one
  line per job; a line per unit and job is also acceptable);
- **Dr 6750 Equipment Idle Time** for the idle-hour charges, with no job (only when there are any);
- **Cr 5490 Equipment Cost Recovery** for the total of the debits, with no job (5490 is the contra
  account that relieves the equipment cost pool).
The entry is staged as a draft for the controller; only the controller posts.

## Appendix: fleets
| Fleet | HeavyBid category | Hours logged in |
|---|---|---|
{register}
"""


def _rate(r: random.Random, lo: int, hi: int) -> Decimal:
    """A rate in half dollars between ``lo`` and ``hi`` dollars."""
    return (Decimal(r.randint(2 * lo, 2 * hi)) * HALF).quantize(Decimal("0.01"))


def _earlier(r: random.Random, rate: Decimal) -> Decimal:
    """Last year's rate: 3-8 % below this year's, in half dollars, and at least half a dollar below."""
    pct = Decimal(100 + r.randint(3, 8))
    return min((rate * 100 / pct * 2).quantize(Decimal("1")) * HALF, rate - HALF)


def _hours(r: random.Random, lo: int, hi: int) -> Decimal:
    return (Decimal(r.randint(2 * lo, 2 * hi)) * HALF).quantize(Decimal("0.01"))


def _workdays(start: date, end: date) -> list[date]:
    out, d = [], start
    while d <= end:
        if d.weekday() < 5:
            out.append(d)
        d += timedelta(days=1)
    return out


def _jobs_by_system(ctx: Ctx) -> dict[str, dict[str, list[str]]]:
    """system -> active job -> the cost codes its timecards use in the clock's month (sorted)."""
    first = ctx.clock.replace(day=1)
    active = {j["job_number"] for j in ctx.rows("jobs") if j["status"] == "active"}
    codes: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for t in ctx.rows("timecards"):
        if t["job_number"] in active and t["work_date"] >= first and t["cost_code"]:
            codes[source_system(t["job_number"])][t["job_number"]].add(t["cost_code"])
    return {s: {j: sorted(c) for j, c in sorted(jobs.items())} for s, jobs in codes.items()}


def build_equipment(ctx: Ctx) -> None:
    r = ctx.rng(STREAM)
    add_gl_accounts(ctx, ACCOUNTS)
    jobs = _jobs_by_system(ctx)
    rental_houses = sorted(
        v["vendor_key"] for v in ctx.rows("vendors") if v["trade"] == "Equipment Rental" and v["status"] == "active"
    )
    days = _workdays(ctx.tl.timecard_start, ctx.clock)
    for fleet, spec in FLEETS.items():
        _plant_fleet(ctx, r, fleet, spec, jobs.get(spec.system, {}), days, rental_houses)
    register = "\n".join(f"| {f} | {s.category} | {s.system} |" for f, s in FLEETS.items())
    add_late_policy(ctx, POLICY_ID, POLICY_TITLE, POLICY_BODY.format(register=register))


def _plant_fleet(
    ctx: Ctx,
    r: random.Random,
    fleet: str,
    spec: Fleet,
    jobs: dict[str, list[str]],
    days: list[date],
    rental_houses: list[str],
) -> None:
    first = ctx.clock.replace(day=1)
    n_owned = r.randint(3, min(4, len(spec.models) - ("rented" in spec.twists)))
    models = r.sample(spec.models, n_owned + ("rented" in spec.twists))
    numbers = sorted(r.sample(range(1, 60), n_owned))
    pool = list(jobs)
    fleet_jobs = r.sample(pool, min(len(pool), r.randint(2, 3))) if pool else []
    extra = [j for j in pool if j not in fleet_jobs]
    this_year = date(ctx.clock.year, 1, 1)
    last_year = date(ctx.clock.year - 1, 1, 1)
    month_days = [d for d in days if d >= first]
    revised = r.randrange(n_owned) if "rate_change" in spec.twists else -1
    for i, m in enumerate(models[:n_owned]):
        unit = f"{spec.prefix}-{100 * (list(FLEETS).index(fleet) + 1) + numbers[i]}"
        rent, eoe = _rate(r, *m.rent), _rate(r, *m.eoe)
        rates = [
            (last_year, _earlier(r, rent), _earlier(r, eoe), f"Annual rate update {last_year.year}"),
            (this_year, rent, eoe, f"Annual rate update {this_year.year}"),
        ]
        segments = _segments(r, fleet_jobs, i, days)
        logs = _logs(r, unit, segments, days, jobs, idle="idle" in spec.twists)
        if i == revised:
            on = _revision_day(r, unit, logs, month_days)
            if on is not None:
                rates.append((on, rent + _rate(r, 3, 9), eoe + _rate(r, 1, 4), r.choice(REVISIONS)))
        _unit(ctx, r, unit, fleet, spec, m, "owned", None, rates, logs)
        keyed, current = rates[0][1] + rates[0][2], rates[-1][1] + rates[-1][2]
        if keyed != current:
            ctx.diverge(
                "equipment_rate_stale",
                unit,
                apps=[spec.system, "hcss_heavybid"],
                reason=f"{spec.system} still carries {unit}'s costing rate from its setup ({keyed}/hr); "
                f"HeavyBid's rate book has the current one ({current}/hr)",
            )
    if "rented" in spec.twists and month_days and fleet_jobs:
        m = models[n_owned]
        unit = f"{spec.prefix}-R{r.randint(10, 99)}"
        job = (extra or fleet_jobs)[0]
        on_rent = month_days[min(len(month_days) - 1, r.randint(0, 6))]
        rent, eoe = _rate(r, int(m.rent[0] * 1.3), int(m.rent[1] * 1.4)), _rate(r, *m.eoe)
        house = r.choice(rental_houses) if rental_houses else None
        segments = [(on_rent, job)]
        logs = _logs(r, unit, segments, [d for d in days if d >= on_rent], jobs, idle="idle" in spec.twists)
        rates = [(on_rent, rent, eoe, "Rental rate per the rental house's quote")]
        _unit(ctx, r, unit, fleet, spec, m, "rented", house, rates, logs)


def _segments(r: random.Random, fleet_jobs: list[str], i: int, days: list[date]) -> list[tuple[date, str]]:
    """(from day, job): the unit starts on one of the fleet's jobs and moves to another once or twice."""
    if not fleet_jobs or not days:
        return []
    job = fleet_jobs[i % len(fleet_jobs)]
    out = [(days[0], job)]
    for _ in range(r.randint(0, 2)):
        others = [j for j in fleet_jobs if j != out[-1][1]]
        later = [d for d in days if d > out[-1][0] + timedelta(days=5)]
        if not others or not later:
            break
        out.append((r.choice(later[: max(1, len(later) - 3)]), r.choice(others)))
    return out


def _logs(
    r: random.Random,
    unit: str,
    segments: list[tuple[date, str]],
    days: list[date],
    jobs: dict[str, list[str]],
    *,
    idle: bool,
) -> list[dict]:
    """The unit's daily logs over its segments: operating hours most workdays, idle hours on some
    days where the fleet stands by; on a move day the hours are split between the two jobs."""
    if not segments:
        return []
    codes = {job: r.choice(jobs[job]) for _, job in segments if job in jobs}
    out: list[dict] = []
    for d in days:
        if d < segments[0][0]:
            continue
        now = [job for start, job in segments if start <= d][-1]
        moved = [job for start, job in segments[1:] if start == d]
        works = r.random() < 0.86
        if not works and not moved:
            continue
        total = _hours(r, 5, 10)
        if moved:
            before = [job for start, job in segments if start < d][-1]
            split = _hours(r, 1, max(1, int(total) - 2))
            out.append(_log(unit, before, codes[before], d, "operating", split))
            out.append(_log(unit, now, codes[now], d, "operating", total - split))
        else:
            out.append(_log(unit, now, codes[now], d, "operating", total))
        if idle and r.random() < 0.32:
            out.append(_log(unit, now, codes[now], d, "idle", _hours(r, 1, 3) - (HALF if r.random() < 0.5 else 0)))
    return out


def _log(unit: str, job: str, code: str, day: date, kind: str, hours: Decimal) -> dict:
    return dict(
        log_id=stable_id("equipment_hours", unit, job, code, day.isoformat(), kind),
        unit_number=unit,
        job_number=job,
        cost_code=code,
        work_date=day,
        hour_type=kind,
        hours=hours.quantize(Decimal("0.01")),
    )


def _revision_day(r: random.Random, unit: str, logs: list[dict], month_days: list[date]) -> date | None:
    """A weekday of the clock's month, from the 8th, with the unit's operating hours before and after."""
    worked = sorted({x["work_date"] for x in logs if x["hour_type"] == "operating" and x["work_date"] in month_days})
    options = [d for d in worked if d.day >= 8 and d > worked[0]] if worked else []
    if not options:
        return None
    return options[min(len(options) - 1, r.randint(0, 4))]


def _unit(
    ctx: Ctx,
    r: random.Random,
    unit: str,
    fleet: str,
    spec: Fleet,
    m: Model,
    ownership: str,
    house: str | None,
    rates: list[tuple[date, Decimal, Decimal, str]],
    logs: list[dict],
) -> None:
    ctx.add(
        "equipment",
        unit_number=unit,
        fleet=fleet,
        category=spec.category,
        description=m.description,
        make=m.make,
        model=m.model,
        model_year=r.randint(2013, ctx.clock.year - 1),
        serial_number=f"{m.make[:3].upper()}{r.randint(10**7, 10**8 - 1)}",
        ownership=ownership,
        rental_vendor_key=house,
        field_system=spec.system,
        field_rate=rates[0][1] + rates[0][2],
    )
    for eff, rent, eoe, note in rates:
        ctx.add("equipment_rates", unit_number=unit, effective_date=eff, rent_rate=rent, eoe_rate=eoe, note=note)
    for x in logs:
        ctx.add("equipment_hours", **x)
