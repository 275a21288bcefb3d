"""Owner side: prime contracts, schedules of values, the PM's progress, owner pay applications
(AIA G702/G703) and owner funding sources.

Owner pay applications are monthly from the first month end after mobilization through the month
before the clock; on the AIA-family jobs (``anchors.AIA_JOBS``) the first application covers
mobilization through that month end, so application #1 is the certified one and #2 (through the
clock) is what a task drafts. ``sov_progress`` holds the PM's percent complete at the end of the
month before the clock (the last application) and at the clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds import anchors
from cfab.seeds.changes import OwnerCO
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, pct_of, rate, split_money, stable_id
from cfab.seeds.jobs import JobPlan, progress
from cfab.seeds.reference import CODES
from cfab.seeds.timeline import month_end, month_start
from cfab.seeds.util import round_to

TEN, FIVE, FIFTY = Decimal("10.0000"), Decimal("5.0000"), Decimal("50.0000")


@dataclass
class SovLine:
    line_no: int
    code: str
    scheduled: Decimal
    co: OwnerCO | None

    def pct(self, job: JobPlan, t: date) -> Decimal:
        if self.co is not None and t < self.co.approved:
            return Decimal("0.0")
        return progress(job, self.code, t)

    def exists(self, t: date) -> bool:
        return self.co is None or self.co.approved <= t


def sov_lines(ctx: Ctx, job: JobPlan) -> list[SovLine]:
    codes = [c for c in job.budget_codes if c != "01-900"]
    weights = [int(job.budget_original[c] * 100) or 1 for c in codes]
    lines = [
        SovLine(i, c, amt, None)
        for i, (c, amt) in enumerate(zip(codes, split_money(job.contract_amount, weights), strict=True), start=1)
    ]
    for co in ctx.notes["owner_cos"].get(job.number, []):
        lines.append(SovLine(len(lines) + 1, co.cost_code, co.amount, co))
    return lines


def stored_materials(ctx: Ctx, job: JobPlan, line: SovLine, t: date) -> Decimal:
    pct = line.pct(job, t)
    if CODES[line.code].cost_type not in ("S", "M") or pct <= 0 or pct >= 95 or job.status == "closed":
        return Decimal("0.00")
    memo = ctx.notes.setdefault("stored_draws", {})
    key = (job.number, line.line_no, t)
    draw = memo.get(key)
    if draw is None:
        draw = memo[key] = ctx.draw("stored", job.number, line.line_no, t.isoformat())
    if draw % 1000 >= 120:  # materials stored on about one line in eight
        return Decimal("0.00")
    remaining = line.scheduled - pct_of(line.scheduled, pct)
    return min(round_to(remaining * (5 + (draw // 1000) % 21) / 100, 100), remaining)


def overall_pct(ctx: Ctx, job: JobPlan, lines: list[SovLine], t: date) -> Decimal:
    live = [ln for ln in lines if ln.exists(t)]
    done = sum((pct_of(ln.scheduled, ln.pct(job, t)) + stored_materials(ctx, job, ln, t) for ln in live), Decimal(0))
    return done * 100 / sum((ln.scheduled for ln in live), Decimal(0))


def tune_schedules(ctx: Ctx) -> None:
    """Pick completion dates that put the step-down jobs on the right side of 50% at each app.

    The crossing job goes from below 50% complete at application #1 to at least 50% at the clock;
    the other stays below 50%. Comfortable margins are preferred; with a clock only days after
    the month end any crossing will do (and with none possible the closest schedule is kept)."""
    tl = ctx.tl
    for number, wants in (
        (anchors.STEP_DOWN_JOB, ((38, 47, 53, 70), (0, Decimal("49.99"), 50, 100))),
        (anchors.STEP_DOWN_UNCROSSED_JOB, ((15, 40, 30, 46), (1, 49, 1, Decimal("49.99")))),
    ):
        job = ctx.jobs[number]
        lines = sov_lines(ctx, job)
        trials: list[tuple[date, Decimal, Decimal]] = []
        for days in range(120, 900, 2):
            end = job.start + timedelta(days=days)
            if end <= tl.clock + timedelta(days=45):
                continue
            job.end = end
            trials.append(
                (end, overall_pct(ctx, job, lines, tl.prior_month_end), overall_pct(ctx, job, lines, tl.clock))
            )
        for lo1, hi1, lo2, hi2 in wants:
            hit = next((t for t in trials if lo1 <= t[1] <= hi1 and lo2 <= t[2] <= hi2), None)
            if hit:
                job.end = hit[0]
                break
        else:  # no schedule crosses (the clock is too close to the month end): keep the nearest
            job.end = min(trials, key=lambda t: (abs(t[2] - 50) + abs(t[1] - 49), t[0]))[0]


def build_billing(ctx: Ctx) -> None:
    tl = ctx.tl
    for job in ctx.jobs.values():
        r = ctx.rng("prime", job.number)
        lines = sov_lines(ctx, job)
        stepped = job.number in (anchors.STEP_DOWN_JOB, anchors.STEP_DOWN_UNCROSSED_JOB)
        base = Decimal("0.0000") if job.status == "closed" else (TEN if job.pw or stepped or r.random() < 0.8 else FIVE)
        step = stepped or (job.active and job.number not in anchors.AIA_JOBS and base == TEN and r.random() < 0.15)
        ctx.add(
            "prime_contracts",
            job_number=job.number,
            contract_number=f"PC-{job.number}",
            owner_id=job.owner_id,
            original_amount=job.contract_amount,
            retainage_pct=base,
            retainage_step_down_pct=FIVE if step else None,
            step_down_at_pct=FIFTY if step else None,
            executed_date=job.start - timedelta(days=r.randint(10, 35)),
            status="closed" if job.status == "closed" else "executed",
        )
        for ln in lines:
            ctx.add(
                "prime_sov_lines",
                job_number=job.number,
                line_no=ln.line_no,
                item_number=f"{ln.line_no:03d}",
                description=(f"CO #{ln.co.number:02d} - {ln.co.title}" if ln.co else CODES[ln.code].description),
                cost_code=ln.code,
                scheduled_value=ln.scheduled,
                source="change_order" if ln.co else "original",
                co_id=ln.co.co_id if ln.co else None,
            )
        for as_of in (tl.prior_month_end, tl.clock):
            if as_of < job.start:
                continue
            for ln in lines:
                if not ln.exists(as_of):
                    continue
                pct = rate(ln.pct(job, as_of))
                ctx.add(
                    "sov_progress",
                    job_number=job.number,
                    line_no=ln.line_no,
                    as_of=as_of,
                    pct_complete=pct,
                    work_completed=pct_of(ln.scheduled, pct),
                    materials_stored=stored_materials(ctx, job, ln, as_of),
                )
        _pay_apps(ctx, job, lines, base, step)
    _funding(ctx)


def _app_period_ends(ctx: Ctx, job: JobPlan) -> list[date]:
    tl = ctx.tl
    if job.number in anchors.AIA_JOBS:
        return [tl.prior_month_end]
    last = min(tl.prior_month_end, month_end(job.end))
    ends, m = [], month_start(job.start)
    while month_end(m) <= last:
        if month_end(m) >= job.start + timedelta(days=20):
            ends.append(month_end(m))
        m = month_end(m) + timedelta(days=1)
    return ends


def _pay_apps(ctx: Ctx, job: JobPlan, lines: list[SovLine], base: Decimal, step: bool) -> None:
    tl = ctx.tl
    r = ctx.rng("payapps", job.number)
    prev_work: dict[int, Decimal] = {}
    prev_total = prev_ret = previous_certs = Decimal("0.00")
    period_start = job.start
    for n, end in enumerate(_app_period_ends(ctx, job), start=1):
        live = [ln for ln in lines if ln.exists(end)]
        rows = []
        for ln in live:
            work = pct_of(ln.scheduled, ln.pct(job, end))
            stored = stored_materials(ctx, job, ln, end)
            rows.append((ln, work, stored, work + stored))
        total = sum((x[3] for x in rows), Decimal(0))
        sum_to_date = sum((ln.scheduled for ln in live), Decimal(0))
        ret_rate = FIVE if step and total * 100 >= FIFTY * sum_to_date else base
        retainage = Decimal("0.00")
        for ln, work, stored, tot in rows:
            line_ret = pct_of(tot, ret_rate)
            retainage += line_ret
            ctx.add(
                "owner_pay_app_lines",
                job_number=job.number,
                app_number=n,
                line_no=ln.line_no,
                scheduled_value=ln.scheduled,
                from_previous=prev_work.get(ln.line_no, Decimal("0.00")),
                this_period=work - prev_work.get(ln.line_no, Decimal("0.00")),
                materials_stored=stored,
                total_completed_stored=tot,
                retainage=line_ret,
            )
            prev_work[ln.line_no] = work
        net_cos = sum((ln.scheduled for ln in live if ln.co), Decimal("0.00"))
        due = total - retainage - previous_certs
        submitted = min(tl.clock, end + timedelta(days=r.randint(2, 6)))
        certified = min(tl.clock, submitted + timedelta(days=r.randint(5, 12)))
        paid_on = certified + timedelta(days=r.randint(25, 40))
        status = "paid" if paid_on <= tl.clock else "certified"
        ctx.add(
            "owner_pay_apps",
            job_number=job.number,
            app_number=n,
            period_start=period_start,
            period_end=end,
            status=status,
            submitted_date=submitted,
            certified_date=certified,
            original_contract_sum=job.contract_amount,
            net_change_orders=net_cos,
            total_completed_stored=total,
            retainage=retainage,
            previous_certificates=previous_certs,
            current_payment_due=due,
            document_id=stable_id("pay_app", f"{job.number}:{n}"),
        )
        ctx.notes.setdefault("owner_billing", []).append(
            dict(
                job=job.number,
                app=n,
                period_end=end,
                revenue=total - prev_total,
                retainage=retainage - prev_ret,
                due=due,
                paid_on=paid_on if status == "paid" else None,
            )
        )
        previous_certs += due
        prev_total, prev_ret = total, retainage
        period_start = end + timedelta(days=1)


def _funding(ctx: Ctx) -> None:
    billed: dict[str, Decimal] = {}
    for b in ctx.notes.get("owner_billing", []):
        billed[b["job"]] = billed.get(b["job"], Decimal(0)) + b["due"]
    jobs = list(anchors.OWNER_SIDE_JOBS) + list(ctx.notes.get("owner_side_jobs", []))
    for number in jobs:
        job = ctx.jobs[number]
        r = ctx.rng("funding", number)
        budget = round_to(job.contract_amount * Decimal("1.06"), 1000)
        lender = r.choice(("First Midwest Bank", "Wintrust Bank", "Old Second National Bank", "BMO Harris Bank"))
        sources = [
            ("EQ", "Owner equity", "equity", r.randint(25, 35)),
            ("LN", f"Construction loan - {lender}", "loan", r.randint(55, 70)),
        ]
        if r.random() < 0.5:
            sources.append(("GR", f"TIF grant - City of {job.city}", "grant", r.randint(4, 9)))
        amounts = split_money(budget, [s[3] for s in sources])
        drawn_left = money(billed.get(number, Decimal(0)))
        for (sid, name, kind, _w), amt in zip(sources, amounts, strict=True):
            drawn = min(amt, drawn_left)
            drawn_left -= drawn
            ctx.add(
                "funding_sources",
                job_number=number,
                source_id=f"FS-{number}-{sid}",
                name=name,
                source_type=kind,
                amount=amt,
                drawn_to_date=drawn,
            )
