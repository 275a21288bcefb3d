"""Further WH-347s for P_certified_payroll: the certified week of the other prevailing-wage jobs.

``payroll.build_certified_payrolls`` writes the paper's six submissions (``anchors.CERT_JOBS``).
This module, last in ``generate()`` and on its own RNG stream, writes the same week's draft
WH-347 (lines and details, from the released payroll and the timecards, exactly as the paper's)
for every other active prevailing-wage job whose crew that week has two or more workers, no
violation and no daily overtime under 40 hours (each line's gross is then straight time x rate +
overtime x 1.5 x rate, so the format check stays silent on wages), and plants on each the
``misclassification`` twist: one journeyman line (drawn from the stream) carries a
classification that is not on the job's wage determination (the classification the payroll
system keeps for the worker is unchanged). These crews have no apprentice, so a clean week there
would have no false-positive trap; every one carries the twist. The twist is registered
as a ``certified_payroll_exception`` divergence like the paper's plants.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, rate, rng, stable_id
from cfab.seeds.payroll import DAY_KEYS, deductions, violations
from cfab.seeds.people import Worker
from cfab.seeds.reference import TRADES

ZERO = Decimal("0.00")
FORTY = Decimal("40.00")  # the WH-347 straight-time hours of a week
# What the misclassified line is called instead (a classification no determination lists).
MISCLASSIFIED = "{classification} - Residential"


def build_extra_certified_payrolls(ctx: Ctx) -> None:
    tl = ctx.tl
    week = tl.cert_week_ending
    batch = f"PR-{week.isoformat()}"
    workers: dict[str, Worker] = ctx.notes["workers"]
    days = [week - timedelta(days=6 - i) for i in range(7)]
    hours: dict[tuple[str, str], dict[date, Decimal]] = defaultdict(dict)
    split: dict[tuple[str, str, date], tuple[Decimal, Decimal]] = {}
    for tc in ctx.rows("timecards"):
        if days[0] <= tc["work_date"] <= week:
            hours[(tc["job_number"], tc["employee_id"])][tc["work_date"]] = tc["hours_regular"] + tc["hours_overtime"]
            split[(tc["job_number"], tc["employee_id"], tc["work_date"])] = (tc["hours_regular"], tc["hours_overtime"])
    earn = {(e["employee_id"], e["job_number"]): e for e in ctx.rows("payroll_earnings") if e["batch_id"] == batch}
    done = {s["job_number"] for s in ctx.rows("certified_payrolls") if s["week_ending"] == week}
    candidates = sorted(
        j.number
        for j in ctx.jobs.values()
        if j.pw and j.active and j.number not in anchors.CERT_JOBS and j.number not in done
    )
    plans = []
    for job in candidates:
        crew = sorted(e for (j, e) in hours if j == job)
        if len(crew) < 2:
            continue
        if any((e, job) not in earn for e in crew):
            continue
        if not all(_weekly_split(earn[(e, job)]) for e in crew):
            continue
        lines = [_line(job, n, workers[e], earn[(e, job)], hours[(job, e)], days) for n, e in enumerate(crew, 1)]
        if violations(ctx, job, lines, days):
            continue
        plans.append((job, lines))
    r = rng(ctx.inputs.seed, "cert-extra")
    r.shuffle(plans)
    profiles = {p["employee_id"]: p for p in ctx.rows("employee_tax_profiles")}
    emps = {e["employee_id"]: e for e in ctx.rows("employees")}
    week_pay: dict[str, list[Decimal]] = defaultdict(lambda: [ZERO, ZERO, ZERO])
    for e in ctx.rows("payroll_earnings"):
        if e["batch_id"] == batch:
            acc = week_pay[e["employee_id"]]
            acc[0] += e["gross_pay"]
            acc[1] += e["withholding"]
            acc[2] += e["net_pay"]
    for job, lines in plans:
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
        ctx.add(
            "documents",
            document_id=stable_id("wh347", sub_id),
            doc_type="wh347",
            natural_key=sub_id,
            store="sharepoint",
            folder=f"/Payroll/Certified Payroll/{job}",
            filename=f"WH-347_{job}_{week:%Y-%m-%d}.pdf",
            mime_type="application/pdf",
            title=f"WH-347 certified payroll #{(week - ctx.jobs[job].start).days // 7 + 1} - job {job} "
            f"week ending {week}",
            job_number=job,
            vendor_key=None,
            created_date=min(week + timedelta(days=3), tl.clock),
        )
        journeymen = [
            ln for ln in lines if ln["level"] == "journeyman" and workers[ln["employee_id"]].level != "foreman"
        ]
        bad = r.choice(journeymen or [ln for ln in lines if ln["level"] == "journeyman"])
        bad["classification"] = MISCLASSIFIED.format(classification=bad["classification"])
        ctx.diverge(
            "certified_payroll_exception",
            bad["employee_id"],
            apps=["lcptracker"],
            suffix=sub_id,
            reason=f"{sub_id} line for {bad['employee_id']}: misclassification",
        )
        for ln in lines:
            ctx.add("certified_payroll_lines", submission_id=sub_id, **ln)
            emp = ln["employee_id"]
            per_day = [split.get((job, emp, d), (ZERO, ZERO)) for d in days]
            gross, withheld, net = week_pay[emp]
            fica, federal, state, other = deductions(
                gross, withheld, profiles[emp]["state_allowances"], emps[emp]["union_local"]
            )
            ctx.add(
                "certified_payroll_line_details",
                submission_id=sub_id,
                line_no=ln["line_no"],
                **{f"st_{k}": st for k, (st, _ot) in zip(DAY_KEYS, per_day, strict=True)},
                **{f"ot_{k}": ot for k, (_st, ot) in zip(DAY_KEYS, per_day, strict=True)},
                overtime_rate=rate(ln["rate_paid"] * Decimal("1.5")),
                gross_all_work=gross,
                fica=fica,
                federal_withholding=federal,
                state_withholding=state,
                other_deductions=other,
                total_deductions=withheld,
                net_pay=net,
            )


def _weekly_split(e: dict) -> bool:
    """Whether the earnings' hours split as the WH-347 splits them (straight time = the week's first
    40 hours, the rest overtime), so its gross is straight x rate + overtime x 1.5 x rate to the cent.

    A crew whose week paid daily overtime (over 8 hours a day) under 40 hours would show the format
    check a wage defect the plant does not mean; such a job gets no further WH-347.
    """
    total = e["hours_regular"] + e["hours_overtime"]
    st, ot = min(total, FORTY), max(total - FORTY, ZERO)
    return (
        e["hours_regular"] == st and money(st * e["rate_paid"] + ot * e["rate_paid"] * Decimal("1.5")) == e["gross_pay"]
    )


def _line(job: str, n: int, w: Worker, e: dict, h: dict[date, Decimal], days: list[date]) -> dict:
    per_day = [h.get(d, ZERO) for d in days]
    return {
        "line_no": n,
        "employee_id": w.employee_id,
        "classification": TRADES[w.trade][0],
        "level": "apprentice" if w.level == "apprentice" else "journeyman",
        "apprentice_registration": w.registration,
        **{f"hours_{k}": v for k, v in zip(DAY_KEYS, per_day, strict=True)},
        "total_hours": sum(per_day, ZERO),
        "rate_paid": e["rate_paid"],
        "fringe_paid": e["fringe_paid"],
        "gross_this_project": e["gross_pay"],
    }
