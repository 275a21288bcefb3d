"""The budget ladder per job and cost code, the PM's forecast-to-complete, the ERP's stale
estimate, and the ``book.jobs`` rows (which carry the ERP's job-level estimate).

On the A_etc_forecast jobs the PM has re-forecast in the PM app this month while the ERP still
holds last month's estimate (``pm_forecast_vs_erp_estimate``); elsewhere the two agree. A PM-only
contingency line (``01-900``) is never carried in the ERP (``include_in_erp`` false, ERP estimate 0).
On job 1042 the PM forecast over the ERP lines sums to the paper's $3,706,560.00.

A few further jobs carry the same stale estimate for the family's held-out partition
(:data:`HELD_OUT_ETC_JOBS` of them, drawn from their own RNG stream ``etc-held-out`` among the
active jobs that are not ETC anchors and not owner-side modelled, so no other row moves).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money
from cfab.seeds.jobs import JobPlan, progress

#: Further jobs with a stale ERP estimate (the A_etc_forecast held-out partition: about 3 per 7
#: of the 8 ETC anchor jobs).
HELD_OUT_ETC_JOBS = 3
HELD_OUT_STREAM = "etc-held-out"


def held_out_etc_jobs(ctx: Ctx) -> set[str]:
    """The further jobs whose ERP still holds last month's estimate: active, not ETC anchors, not
    owner-side modelled (their estimate is INGENIOUS.BUILD's family's), started before last
    month end and not finished at the clock; drawn from the ``etc-held-out`` stream only."""
    tl = ctx.tl
    owner_side = set(anchors.OWNER_SIDE_JOBS) | set(ctx.notes.get("owner_side_jobs", []))
    pool = sorted(
        j.number
        for j in ctx.jobs.values()
        if j.active
        and j.number not in anchors.ETC_JOBS
        and j.number not in owner_side
        and j.start < tl.prior_month_end
        and j.end > tl.clock
    )
    return set(ctx.rng(HELD_OUT_STREAM).sample(pool, min(len(pool), HELD_OUT_ETC_JOBS)))


def build_budgets(ctx: Ctx) -> None:
    tl = ctx.tl
    changes: dict[tuple[str, str], Decimal] = {}
    co_type = {co["co_id"]: co for co in ctx.rows("change_orders")}
    held_out = held_out_etc_jobs(ctx)
    for line in ctx.rows("change_order_lines"):
        co = co_type[line["co_id"]]
        if co["status"] == "approved" and co["co_type"] in ("owner", "internal"):
            key = (co["job_number"], line["cost_code"])
            changes[key] = changes.get(key, Decimal("0.00")) + line["amount"]
    for job in ctx.jobs.values():
        r = ctx.rng("budget", job.number)
        hr = ctx.rng(HELD_OUT_STREAM, job.number)  # drawn from on the held-out jobs only
        codes = sorted(set(job.budget_codes) | {c for (j, c) in changes if j == job.number})
        rows: list[dict[str, Any]] = []
        for code in codes:
            original = job.budget_original.get(code, Decimal("0.00"))
            approved = changes.get((job.number, code), Decimal("0.00"))
            revised = original + approved
            include = code != "01-900"
            if job.status == "closed":
                forecast = erp = Decimal("0.00")
            else:
                left = (100 - progress(job, code, tl.clock)) / 100
                forecast = money(revised * left * Decimal(r.randint(95, 108)) / 100)
                if code == "01-900":
                    forecast = money(revised * Decimal(r.randint(40, 90)) / 100)
                if job.number in anchors.ETC_JOBS:
                    stale = (100 - progress(job, code, tl.prior_month_end)) / 100
                    erp = money(revised * stale * Decimal(r.randint(96, 104)) / 100)
                elif job.number in held_out:
                    stale = (100 - progress(job, code, tl.prior_month_end)) / 100
                    erp = money(revised * stale * Decimal(hr.randint(96, 104)) / 100)
                else:
                    erp = forecast
                if not include:
                    erp = Decimal("0.00")
            rows.append(
                dict(
                    job_number=job.number,
                    cost_code=code,
                    original_budget=original,
                    approved_changes=approved,
                    revised_budget=revised,
                    pm_forecast_to_complete=forecast,
                    erp_estimate=erp,
                    include_in_erp=include,
                )
            )
        if job.number == "1042":
            _pin_forecast(rows, anchors.ETC_1042)
        for row in rows:
            ctx.add("budget_lines", **row)
        pm_total = sum((x["pm_forecast_to_complete"] for x in rows if x["include_in_erp"]), Decimal("0.00"))
        erp_total = sum((x["erp_estimate"] for x in rows if x["include_in_erp"]), Decimal("0.00"))
        _write_job(ctx, job, erp_total)
        if job.number in anchors.ETC_JOBS or (job.number in held_out and pm_total != erp_total):
            if pm_total == erp_total:
                raise RuntimeError(f"job {job.number}: PM forecast equals the ERP estimate")
            ctx.diverge(
                "pm_forecast_vs_erp_estimate",
                job.number,
                reason=f"PM forecast-to-complete {pm_total} (Procore, over ERP-carried lines) vs the ERP's "
                f"stale estimate {erp_total}",
            )


def _pin_forecast(rows: list[dict], target: Decimal) -> None:
    """Scale the ERP-carried forecasts so they sum exactly to ``target`` (the largest absorbs cents)."""
    carried = [x for x in rows if x["include_in_erp"]]
    natural = sum((x["pm_forecast_to_complete"] for x in carried), Decimal("0.00"))
    for x in carried:
        x["pm_forecast_to_complete"] = money(x["pm_forecast_to_complete"] * target / natural)
    biggest = max(carried, key=lambda x: (x["pm_forecast_to_complete"], x["cost_code"]))
    biggest["pm_forecast_to_complete"] += target - sum((x["pm_forecast_to_complete"] for x in carried), Decimal(0))


def _write_job(ctx: Ctx, job: JobPlan, erp_total: Decimal) -> None:
    ctx.add(
        "jobs",
        job_number=job.number,
        name=job.name,
        owner_id=job.owner_id,
        status=job.status,
        job_type=job.job_type,
        is_prevailing_wage=job.pw,
        start_date=job.start,
        est_completion_date=job.end,
        project_manager=job.pm,
        pm_email=job.pm_email,
        superintendent=job.superintendent,
        address=job.address,
        city=job.city,
        state=job.state,
        county=job.county,
        erp_est_cost_to_complete=erp_total,
    )
