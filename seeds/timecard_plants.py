"""The open payroll week's field-time exceptions (P_timecard_to_payroll) and the policy that rules them.

The clock's payroll week (``Timeline.payroll_weeks[-1]``) has about half of its timecards pending
approval in Rhumbix or busybusy. For each field-time app this module picks, on its own RNG stream,
three jobs with pending cards (none of the paper's anchored jobs) and plants on them:

* ``no_cost_code`` (first and third job): one pending card's cost code blanked (the card is
  costed nowhere: the policy says leave it pending and report it);
* ``terminated_worker`` (second and third job): a terminated employee's pending cards (8 regular
  hours on up to two weekdays of the week, not after the clock) with the open batch's book
  earnings for them, so ``earnings_match_timecards`` holds (the open batch's earnings are not
  projected into any app).

It also writes the weekly timecard and payroll staging policy (``book.policies`` and its SharePoint
documents). It runs last in ``generate()``: no earlier row but the blanked cost codes changes.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from decimal import Decimal

from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, rng, stable_id
from cfab.seeds.payroll import source_system
from cfab.seeds.people import Worker, pay_rates
from cfab.seeds.policies import add_late_policy
from cfab.seeds.reference import TRADES

FIELD_APPS = ("rhumbix", "busybusy")
# The paper's anchored jobs (other families' keys): no plant lands on them.
RESERVED_JOBS = frozenset({"1042", "1990", "2014", "2041", "2200", "3100", "3412", "4012", "9140"})
MIN_PENDING = 3  # a planted job keeps at least this many other pending cards
POLICY_ID = "timecard_payroll_policy.md"
POLICY_TITLE = "Weekly Timecard Approval and Payroll Staging Policy"
EIGHT, ZERO = Decimal("8.00"), Decimal("0.00")

POLICY_BODY = """
Applies to the weekly payroll of field employees. Hours are recorded on daily timecards in the
field-time app of the job (Rhumbix or busybusy) and paid through the payroll system (ADP,
Rippling or Foundation Payroll).

## 1. Approving the week

1. The week's pending timecards of a job are approved in its field-time app by the payroll
   administrator on the superintendent's behalf, after checking each card.
2. **No cost code, no approval.** A timecard without a cost code is costed to nothing: leave it
   pending and report it (timecard id, worker, date, hours) so the superintendent can code it.
3. **Only active employees are paid.** Do not approve hours of a worker who is no longer active
   (inactive or archived in the field-time app, terminated in payroll): leave the cards pending and
   report them to HR. A terminated employee is never paid through the weekly batch.
4. Do not edit hours, dates or cost codes; corrections are made by the crew's foreman.

## 2. Staging the payroll

1. Approved timecards reach payroll with the nightly export. When the batch is prepared the same
   day, import the week's approved hours into the payroll system from the field-time app first.
2. Then stage the week's pay batch (ADP: preview; Rippling: draft; Foundation: calculate). Hours
   are paid as recorded on the timecards, overtime at 1.5 times the rate. On a prevailing-wage job
   the rate is never below the wage determination's rate for the worker's classification; the
   payroll system applies the determination when it stages.
3. Report the job's regular hours, overtime hours and gross pay from the staged batch, and every
   timecard left pending under section 1.

## 3. Release

Releasing a batch pays employees. It is never done by the preparer: the staged batch waits for the
payroll manager's approval. Do not release the payroll.
"""


def build_timecard_plants(ctx: Ctx) -> None:
    tl = ctx.tl
    week = tl.payroll_weeks[-1]
    start = week - timedelta(days=6)
    batch = f"PR-{week.isoformat()}"
    workers: dict[str, Worker] = ctx.notes["workers"]
    r = rng(ctx.inputs.seed, "timecard-plants")
    pending: dict[str, list[dict]] = defaultdict(list)
    for tc in ctx.rows("timecards"):
        if start <= tc["work_date"] <= week and not tc["approved"]:
            pending[tc["job_number"]].append(tc)
    gone = sorted((w for w in workers.values() if w.terminated), key=lambda w: w.employee_id)
    days = [d for d in (start + timedelta(days=i) for i in range(1, 6)) if d <= tl.clock][:2]
    used: set[str] = set()
    for app in FIELD_APPS:
        jobs = sorted(
            j
            for j, cards in pending.items()
            if source_system(j) == app and j not in RESERVED_JOBS and ctx.jobs[j].active and len(cards) > MIN_PENDING
        )
        picks = r.sample(jobs, min(3, len(jobs)))
        for i, job in enumerate(picks):
            if i in (0, 2):
                card = r.choice(sorted(pending[job], key=lambda c: c["timecard_id"]))
                card["cost_code"] = ""
            if i in (1, 2) and days:
                free = [w for w in gone if w.employee_id not in used] or gone
                if free:
                    w = r.choice(free)
                    used.add(w.employee_id)
                    _terminated_cards(ctx, w, job, app, days, batch)
    add_late_policy(ctx, POLICY_ID, POLICY_TITLE, POLICY_BODY)


def _terminated_cards(ctx: Ctx, w: Worker, job: str, app: str, days: list, batch: str) -> None:
    """A terminated worker's pending cards on ``job`` and the open batch's book earnings for them."""
    for day in days:
        ctx.add(
            "timecards",
            timecard_id=stable_id("timecard", w.employee_id, day.isoformat(), job),
            employee_id=w.employee_id,
            job_number=job,
            work_date=day,
            cost_code=TRADES[w.trade][1],
            hours_regular=EIGHT,
            hours_overtime=ZERO,
            source_system=app,
            approved=False,
        )
    reg = EIGHT * len(days)
    paid, fringe = pay_rates(ctx, w, job)
    gross = money(reg * paid)
    wh = money(gross * Decimal(18 + ctx.draw("withholding", w.employee_id) % 10) / 100)
    ctx.add(
        "payroll_earnings",
        batch_id=batch,
        employee_id=w.employee_id,
        job_number=job,
        hours_regular=reg,
        hours_overtime=ZERO,
        rate_paid=paid,
        fringe_paid=fringe,
        gross_pay=gross,
        withholding=wh,
        net_pay=gross - wh,
    )
