"""Field time, weekly payroll and the WH-347 certified payrolls.

Timecards (rhumbix or busybusy, by job) cover the eight weeks ending at the clock; payroll
earnings for those weeks are the timecards' sums, earlier weeks are paid from the crew schedule.
The certified payroll for each P_certified_payroll job (week ending ``Timeline.cert_week_ending``)
repeats the payroll's hours and rates; its violations are computed by the rules of
``certified_payroll_policy.md`` and must be exactly the planted ones.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from functools import cache

from cfab.seeds import anchors, names
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, rate, rng, stable_id, stable_int
from cfab.seeds.people import Worker, pay_rates, wage_rate
from cfab.seeds.reference import APPRENTICE_RATIOS, TRADES

EIGHT, ZERO = Decimal("8.00"), Decimal("0.00")


@cache
def source_system(job: str) -> str:
    """The field-time app a job's crews use (by job, stable across seeds)."""
    return "rhumbix" if stable_int("field-app", job) % 2 == 0 else "busybusy"


def _day_hours(ctx: Ctx, w: Worker, job: str, day: date, r: random.Random) -> tuple[Decimal, Decimal] | None:
    tl = ctx.tl
    week_end = day + timedelta(days=(5 - day.weekday()) % 7)
    draws = (r.random(), r.random(), r.choice((4, 6, 8)), r.choice((0, 0, 0, 0, 0, 1, 2)))
    if job in anchors.CERT_PLANS and week_end == tl.cert_week_ending:
        plan = anchors.CERT_PLANS[job]
        if day.weekday() == 6:
            return None
        if day.weekday() == 5:
            return (ZERO, Decimal("4.00")) if job == "1990" else None
        if (
            plan.defect == "apprentice_over_ratio"
            and w.trade == plan.defect_trade
            and w.level == "journeyman"
            and day.weekday() == 2
            and ctx.notes.get("absent") in (None, w.employee_id)
        ):
            ctx.notes["absent"] = w.employee_id
            return None
        return EIGHT, ZERO
    if day.weekday() == 6:
        return None
    if day.weekday() == 5:
        return (ZERO, Decimal(draws[2])) if draws[0] < 0.15 else None
    if draws[1] < 0.04:
        return None
    return EIGHT, Decimal(draws[3])


def build_timecards(ctx: Ctx) -> None:
    tl = ctx.tl
    workers: dict[str, Worker] = ctx.notes["workers"]
    open_from = tl.payroll_weeks[-1] - timedelta(days=6)
    for w in workers.values():
        if w.terminated:
            continue
        job = ctx.jobs[w.home_job]
        day = max(tl.timecard_start, job.start)
        r = ctx.rng("days", w.employee_id)
        while day <= tl.clock:
            hours = _day_hours(ctx, w, w.home_job, day, r)
            pending = r.random() < 0.5
            if hours:
                approved = not (day >= open_from and pending)
                ctx.add(
                    "timecards",
                    timecard_id=stable_id("timecard", w.employee_id, day.isoformat(), w.home_job),
                    employee_id=w.employee_id,
                    job_number=w.home_job,
                    work_date=day,
                    cost_code=TRADES[w.trade][1],
                    hours_regular=hours[0],
                    hours_overtime=hours[1],
                    source_system=source_system(w.home_job),
                    approved=approved,
                )
            day += timedelta(days=1)


def _other_job(ctx: Ctx, w: Worker, start: date, end: date) -> str | None:
    """Where a worker whose home job had not started yet worked that week (one pick per month)."""
    lives = ctx.notes.setdefault("live_jobs", {})
    if start not in lives:
        lives[start] = sorted(j.number for j in ctx.jobs.values() if j.start <= start and (j.active or j.end >= end))
    live = lives[start]
    if not live:
        return None
    return live[ctx.draw("assign", w.employee_id, start.year, start.month) % len(live)]


def build_payroll(ctx: Ctx) -> None:
    tl = ctx.tl
    workers: dict[str, Worker] = ctx.notes["workers"]
    cards: dict[tuple[date, str], dict[str, list[Decimal]]] = defaultdict(dict)
    for tc in ctx.rows("timecards"):
        week_end = tc["work_date"] + timedelta(days=(5 - tc["work_date"].weekday()) % 7)
        acc = cards[(week_end, tc["employee_id"])].setdefault(tc["job_number"], [ZERO, ZERO])
        acc[0] += tc["hours_regular"]
        acc[1] += tc["hours_overtime"]
    rngs: dict[str, random.Random] = {}
    rates: dict[tuple[str, str], tuple[Decimal, Decimal]] = {}
    withholding: dict[str, Decimal] = {}
    for week_end in tl.payroll_weeks:
        batch = f"PR-{week_end.isoformat()}"
        check = tl.batch_check_date(week_end)
        ctx.add(
            "payroll_batches",
            batch_id=batch,
            period_start=week_end - timedelta(days=6),
            period_end=week_end,
            check_date=check,
            status="released" if check <= tl.clock else "open",
            bank_account_id="BA-PAYR",
        )
        start = week_end - timedelta(days=6)
        for w in workers.values():
            if week_end >= tl.timecard_start:
                entries = list(cards.get((week_end, w.employee_id), {}).items())
            else:
                if w.hire > start or (w.terminated and w.terminated < start):
                    continue
                home = ctx.jobs[w.home_job]
                job = w.home_job if home.start <= start else _other_job(ctx, w, start, week_end)
                if job is None:
                    continue
                r = rngs.setdefault(w.employee_id, ctx.rng("weeks", w.employee_id))
                entries = [(job, [Decimal(r.choice((40, 40, 40, 32))), Decimal(r.choice((0, 0, 0, 2, 4, 6)))])]
            for job, (reg, ot) in sorted(entries):
                if (w.employee_id, job) not in rates:
                    rates[(w.employee_id, job)] = pay_rates(ctx, w, job)
                paid, fringe = rates[(w.employee_id, job)]
                gross = money(reg * paid + ot * paid * Decimal("1.5"))
                if w.employee_id not in withholding:
                    withholding[w.employee_id] = Decimal(18 + ctx.draw("withholding", w.employee_id) % 10) / 100
                wh = money(gross * withholding[w.employee_id])
                ctx.add(
                    "payroll_earnings",
                    batch_id=batch,
                    employee_id=w.employee_id,
                    job_number=job,
                    hours_regular=reg,
                    hours_overtime=ot,
                    rate_paid=paid,
                    fringe_paid=fringe,
                    gross_pay=gross,
                    withholding=wh,
                    net_pay=gross - wh,
                )


def build_certified_payrolls(ctx: Ctx) -> None:
    tl = ctx.tl
    week = tl.cert_week_ending
    batch = f"PR-{week.isoformat()}"
    workers: dict[str, Worker] = ctx.notes["workers"]
    earn = {(e["employee_id"], e["job_number"]): e for e in ctx.rows("payroll_earnings") if e["batch_id"] == batch}
    days = [week - timedelta(days=6 - i) for i in range(7)]  # Sunday .. Saturday
    hours: dict[tuple[str, str], dict[date, Decimal]] = defaultdict(dict)
    for tc in ctx.rows("timecards"):
        if days[0] <= tc["work_date"] <= week:
            hours[(tc["job_number"], tc["employee_id"])][tc["work_date"]] = tc["hours_regular"] + tc["hours_overtime"]
    for job in anchors.CERT_JOBS:
        sub_id = f"CP-{job}-{week.isoformat()}"
        ctx.add(
            "certified_payrolls",
            submission_id=sub_id,
            job_number=job,
            determination_id=ctx.notes["determinations"][job],
            payroll_number=(week - ctx.jobs[job].start).days // 7 + 1,
            week_ending=week,
            status="draft",
            document_id=stable_id("wh347", sub_id),
        )
        crew = sorted(e for (j, e) in hours if j == job)
        lines = []
        for n, emp in enumerate(crew, start=1):
            w, e, h = workers[emp], earn[(emp, job)], hours[(job, emp)]
            per_day = [h.get(d, ZERO) for d in days]
            lines.append(
                ctx.add(
                    "certified_payroll_lines",
                    submission_id=sub_id,
                    line_no=n,
                    employee_id=emp,
                    classification=TRADES[w.trade][0],
                    level="apprentice" if w.level == "apprentice" else "journeyman",
                    apprentice_registration=w.registration,
                    hours_sun=per_day[0],
                    hours_mon=per_day[1],
                    hours_tue=per_day[2],
                    hours_wed=per_day[3],
                    hours_thu=per_day[4],
                    hours_fri=per_day[5],
                    hours_sat=per_day[6],
                    total_hours=sum(per_day, ZERO),
                    rate_paid=e["rate_paid"],
                    fringe_paid=e["fringe_paid"],
                    gross_this_project=e["gross_pay"],
                )
            )
        flags = violations(ctx, job, lines, days)
        planned = {w.employee_id: w.defect for w in workers.values() if w.home_job == job and w.defect}
        if flags != planned:
            raise RuntimeError(f"certified payroll {sub_id}: computed flags {flags} != planted {planned}")
        for emp, code in sorted(flags.items()):
            ctx.diverge(
                "certified_payroll_exception",
                emp,
                apps=["lcptracker"],
                suffix=sub_id,
                reason=f"{sub_id} line for {emp}: {code}",
            )


def violations(ctx: Ctx, job: str, lines: list[dict], days: list[date]) -> dict[str, str]:
    """One code per violating line (precedence: unregistered, over ratio, underpaid rate, fringe short)."""
    workers: dict[str, Worker] = ctx.notes["workers"]
    found: dict[str, list[str]] = defaultdict(list)
    keys = ("hours_sun", "hours_mon", "hours_tue", "hours_wed", "hours_thu", "hours_fri", "hours_sat")
    for i, _d in enumerate(days):
        by_trade: dict[str, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
        for ln in lines:
            if ln[keys[i]] > 0:
                w = workers[ln["employee_id"]]
                by_trade[w.trade][1 if ln["level"] == "apprentice" else 0].append(w.employee_id)
        for trade, (jm, ap) in by_trade.items():
            if len(ap) > len(jm) // APPRENTICE_RATIOS[trade][0]:
                for emp in ap:
                    found[emp].append("apprentice_over_ratio")
    for ln in lines:
        w = workers[ln["employee_id"]]
        wd = wage_rate(ctx, job, w.trade)
        assert wd is not None  # a certified job's determination covers every trade on its payroll
        base, fringe = wd
        need = rate(base * w.apprentice_share / 100) if ln["level"] == "apprentice" else base
        if ln["level"] == "apprentice" and ln["apprentice_registration"] is None:
            found[w.employee_id].insert(0, "apprentice_unregistered")
        if ln["rate_paid"] < need:
            found[w.employee_id].append("underpaid_rate")
        if ln["fringe_paid"] < fringe:
            found[w.employee_id].append("fringe_short")
    return {emp: codes[0] for emp, codes in found.items()}


# ---------------------------------------------------------------------------------------------
# What the WH-347 carries beyond the submission lines: each employee's home address and
# withholding elections, the straight-time / overtime split of every day, and the week's
# deductions (FICA, federal and Illinois withholding, union dues check-off) that take the
# payroll's gross to its net. The split of ``payroll_earnings.withholding`` is exact: FICA at
# 7.65%, Illinois at 4.95% of wages less the IL-W-4 allowances ($2,850 a year each), dues at the
# local's working-dues rate, federal income tax the rest.
# ---------------------------------------------------------------------------------------------
FICA_RATE = Decimal("0.0765")
IL_RATE = Decimal("0.0495")
IL_ALLOWANCE = Decimal(2850)
WORKING_DUES: dict[str, Decimal] = {  # union local -> working-dues check-off, share of gross
    "IBEW-134": Decimal("0.0250"),
    "CARP-58": Decimal("0.0200"),
    "LIUNA-2": Decimal("0.0225"),
    "IW-1": Decimal("0.0275"),
    "UA-130": Decimal("0.0250"),
    "IUOE-150": Decimal("0.0200"),
    "OPCMIA-502": Decimal("0.0225"),
}
DAY_KEYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")


def employee_profile(seed: int, employee_id: str, exemptions: int) -> dict:
    """Home address and filing status for one employee (its own stream, so replicas get their own)."""
    r = rng(seed, "employee-profile", employee_id)
    city, _county, state, zp, _area = names.city(r, ("IL",))
    if exemptions >= 2:
        status = r.choice(("married", "married", "head_of_household"))
    else:
        status = r.choice(("single", "single", "married"))
    return {
        "address": names.street_address(r),
        "city": city,
        "state": state,
        "zip": names.zip_code(r, zp),
        "filing_status": status,
    }


def withholding_exemptions(ctx: Ctx, employee_id: str) -> int:
    """W-4 allowances that go with the employee's withholding rate (18% .. 27% of gross)."""
    pct = 18 + ctx.draw("withholding", employee_id) % 10
    return max(0, (27 - pct) // 2)


def build_employee_profiles(ctx: Ctx) -> None:
    for e in ctx.rows("employees"):
        n = withholding_exemptions(ctx, e["employee_id"])
        ctx.add(
            "employee_tax_profiles",
            employee_id=e["employee_id"],
            **employee_profile(ctx.inputs.seed, e["employee_id"], n),
            withholding_exemptions=n,
            state_allowances=n + 1,
        )


def deductions(
    gross: Decimal, withholding: Decimal, state_allowances: int, union_local: str | None
) -> tuple[Decimal, Decimal, Decimal, Decimal]:
    """(FICA, federal, state, other) for one week's wages; they sum to ``withholding``."""
    fica = money(gross * FICA_RATE)
    state = max(Decimal("0.00"), money((gross - IL_ALLOWANCE * state_allowances / 52) * IL_RATE))
    other = money(gross * WORKING_DUES.get(union_local or "", Decimal(0)))
    federal = withholding - fica - state - other
    if federal < 0:
        raise RuntimeError(f"withholding {withholding} on {gross} does not cover FICA, state and dues")
    return fica, federal, state, other


def build_certified_payroll_details(ctx: Ctx) -> None:
    emps = {e["employee_id"]: e for e in ctx.rows("employees")}
    profiles = {p["employee_id"]: p for p in ctx.rows("employee_tax_profiles")}
    subs = {s["submission_id"]: s for s in ctx.rows("certified_payrolls")}
    batches = {f"PR-{s['week_ending'].isoformat()}" for s in subs.values()}
    week: dict[tuple[str, str], list[Decimal]] = defaultdict(lambda: [ZERO, ZERO, ZERO])
    for e in ctx.rows("payroll_earnings"):
        if e["batch_id"] in batches:
            acc = week[(e["batch_id"], e["employee_id"])]
            acc[0] += e["gross_pay"]
            acc[1] += e["withholding"]
            acc[2] += e["net_pay"]
    cards: dict[tuple[str, str, date], tuple[Decimal, Decimal]] = {}
    for tc in ctx.rows("timecards"):
        cards[(tc["job_number"], tc["employee_id"], tc["work_date"])] = (tc["hours_regular"], tc["hours_overtime"])
    for ln in ctx.rows("certified_payroll_lines"):
        s = subs[ln["submission_id"]]
        emp = ln["employee_id"]
        days = [s["week_ending"] - timedelta(days=6 - i) for i in range(7)]
        split = [cards.get((s["job_number"], emp, d), (ZERO, ZERO)) for d in days]
        gross, withheld, net = week[(f"PR-{s['week_ending'].isoformat()}", emp)]
        fica, federal, state, other = deductions(
            gross, withheld, profiles[emp]["state_allowances"], emps[emp]["union_local"]
        )
        ctx.add(
            "certified_payroll_line_details",
            submission_id=ln["submission_id"],
            line_no=ln["line_no"],
            **{f"st_{k}": st for k, (st, _ot) in zip(DAY_KEYS, split, strict=True)},
            **{f"ot_{k}": ot for k, (_st, ot) in zip(DAY_KEYS, split, strict=True)},
            overtime_rate=rate(ln["rate_paid"] * Decimal("1.5")),
            gross_all_work=gross,
            fica=fica,
            federal_withholding=federal,
            state_withholding=state,
            other_deductions=other,
            total_deductions=withheld,
            net_pay=net,
        )
