"""R_wip_schedule plant: the month-end WIP schedule's twists, one project manager's portfolio each.

The WIP schedule is built per project manager (a portfolio of three to six active jobs). The
portfolios are taken in the PMs' name order and given, in turn, one twist on one of their jobs
that no other family anchors on:

* ``unapproved_co`` — an owner change order the owner has not approved (``pending``, lines on
  its cost codes): the ERP lists it, the contract value excludes it;
* ``estimate_raised`` — the ERP's estimate to complete raised this month (the job's largest
  ERP-carried budget line and the job master, together) while the PM's forecast in Procore (and
  so the seeded WIP workbook) still shows the old one: the fade, registered as divergence
  ``wip_estimate_raised``;
* ``loss_job`` — the same raise, large enough that the estimated total cost exceeds the contract:
  the whole loss is recognised this month (the WIP policy);
* none — the portfolio's control.

The accounting policy (``wip_schedule_policy.md``) says how each column is computed.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money
from cfab.seeds.policies import add_late_policy

STREAM = "wip_schedule"
TWISTS = ("unapproved_co", "estimate_raised", "loss_job", None)
MIN_JOBS, MAX_JOBS = 3, 6
POLICY_ID = "wip_schedule_policy.md"
POLICY_TITLE = "Work-in-Progress Schedule Policy"
POLICY_BODY = """
The work-in-progress (WIP) schedule is prepared at each month end, per project manager's
portfolio, from the ERP (the system of record for contracts, cost and billing). Sureties and our
bank receive it; every column is computed exactly as below.

## Columns

1. **Contract value** — the prime contract's original amount plus the owner change orders the
   owner has **approved**. Pending (unapproved) change orders are excluded until approved, however
   likely they are.
2. **Cost to date** — posted job cost through the month end (the ERP's actual cost to date).
3. **Estimated cost to complete** — the ERP's **current** estimate to complete on the job master.
   When an estimate was revised during the month, the revised estimate is used (the fade or gain
   shows in this month's schedule); the PM's forecast in Procore and last figures in earlier
   workbooks are not sources for the schedule.
4. **Estimated total cost** — cost to date plus estimated cost to complete.
5. **Percent complete** — cost to cost: cost to date divided by estimated total cost. It is not
   rounded before it is applied.
6. **Earned revenue** — contract value multiplied by cost to date and divided by estimated total
   cost, rounded to the cent (half up).
   **Loss jobs:** when the estimated total cost exceeds the contract value, the entire estimated
   loss is recognised in the current month, not in proportion to completion: earned revenue is
   cost to date minus the estimated loss (estimated total cost minus contract value), so that the
   gross profit to date equals the whole loss.
7. **Billed to date** — the job's contract billings through the month end (revenue account 4000,
   the owner pay applications' work completed and stored to date).
8. **Over/(under) billing** — billed to date minus earned revenue. A positive amount is an
   overbilling (billings in excess of costs and estimated earnings, a liability); a negative amount
   is an underbilling (costs and estimated earnings in excess of billings, an asset).

## Totals

Total overbillings is the sum of the positive over/(under) amounts; total underbillings is the sum
of the negative ones, stated as a positive amount. The two are never netted.
"""


def portfolios(ctx: Ctx) -> dict[str, list[str]]:
    """Active jobs by project manager (PMs with three to six of them), in job order."""
    by_pm: dict[str, list[str]] = defaultdict(list)
    for j in ctx.rows("jobs"):
        if j["status"] == "active":
            by_pm[j["project_manager"]].append(j["job_number"])
    return {pm: sorted(jobs) for pm, jobs in sorted(by_pm.items()) if MIN_JOBS <= len(jobs) <= MAX_JOBS}


def build_wip_schedule(ctx: Ctx) -> None:
    r = ctx.rng(STREAM)
    excluded = set(
        anchors.ETC_JOBS
        + anchors.AIA_JOBS
        + anchors.ACCRUAL_JOBS
        + anchors.SYNC_JOBS
        + anchors.CERT_JOBS
        + anchors.BILLED_AHEAD_JOBS
        + anchors.CONTINGENCY_JOBS
        + anchors.OWNER_SIDE_JOBS
    ) | {"9140"}
    excluded |= {d["entity_key"] for d in ctx.rows("divergences") if d["entity"] == "job"}
    contracts = {c["job_number"]: c["original_amount"] for c in ctx.rows("prime_contracts")}
    for co in ctx.rows("change_orders"):
        if co["co_type"] == "owner" and co["increases_contract"] and co["status"] == "approved":
            contracts[co["job_number"]] += co["amount"]
    jobs = {j["job_number"]: j for j in ctx.rows("jobs")}
    cost = _cost_to_date(ctx)
    budget: dict[str, list[dict]] = defaultdict(list)
    for b in ctx.rows("budget_lines"):
        budget[b["job_number"]].append(b)
    for i, pm_jobs in enumerate(portfolios(ctx).values()):
        twist = TWISTS[i % len(TWISTS)]
        eligible = [j for j in pm_jobs if j not in excluded and any(b["include_in_erp"] for b in budget[j])]
        if twist is None or not eligible:
            continue
        if twist != "unapproved_co":  # a re-estimate only where work remains
            eligible = [j for j in eligible if jobs[j]["erp_est_cost_to_complete"] > 0]
            if not eligible:
                continue
        job = r.choice(eligible)
        if twist == "unapproved_co":
            _pending_co(ctx, r, job, contracts[job], budget[job])
            continue
        row = jobs[job]
        old_total = cost.get(job, Decimal("0.00")) + row["erp_est_cost_to_complete"]
        contract = contracts[job]
        if twist == "loss_job":
            new_total = money(contract * (1 + Decimal(r.randint(150, 450)) / 10000))
        else:  # a fade: the margin shrinks but stays positive
            new_total = old_total + money((contract - old_total) * Decimal(r.randint(35, 65)) / 100)
        raise_by = new_total - old_total
        if raise_by <= 0:
            continue
        line = max((b for b in budget[job] if b["include_in_erp"]), key=lambda b: (b["erp_estimate"], b["cost_code"]))
        old_etc = row["erp_est_cost_to_complete"]
        line["erp_estimate"] += raise_by
        row["erp_est_cost_to_complete"] += raise_by
        ctx.diverge(
            "wip_estimate_raised",
            job,
            reason=f"{ctx.clock:%B %Y} re-estimate in the ERP: estimate to complete {old_etc} raised by {raise_by} "
            f"to {row['erp_est_cost_to_complete']} ({'a loss job' if twist == 'loss_job' else 'a fade'}); "
            "the PM's forecast in Procore still shows the old figure",
        )
    add_late_policy(ctx, POLICY_ID, POLICY_TITLE, POLICY_BODY)


def _cost_to_date(ctx: Ctx) -> dict[str, Decimal]:
    """Posted job cost through the clock by job (job-cost expense accounts)."""
    job_cost = {a["account"] for a in ctx.rows("gl_accounts") if a["is_job_cost"] and a["account_type"] == "expense"}
    dated = {e["je_id"] for e in ctx.rows("journal_entries") if e["entry_date"] <= ctx.clock}
    out: dict[str, Decimal] = defaultdict(lambda: Decimal("0.00"))
    for ln in ctx.rows("journal_lines"):
        if ln["job_number"] and ln["account"] in job_cost and ln["je_id"] in dated:
            out[ln["job_number"]] += ln["debit"] - ln["credit"]
    return out


def _pending_co(ctx: Ctx, r, job: str, contract: Decimal, lines: list[dict]) -> None:
    """An owner change order submitted this month and not yet approved by the owner."""
    number = 1 + max(
        (co["number"] for co in ctx.rows("change_orders") if co["job_number"] == job and co["co_type"] == "owner"),
        default=0,
    )
    amount = money(contract * Decimal(r.randint(120, 380)) / 10000)
    code = r.choice(sorted(b["cost_code"] for b in lines if b["include_in_erp"]))
    co_id = f"PCO-{job}-{number:03d}"
    ctx.add(
        "change_orders",
        co_id=co_id,
        job_number=job,
        co_type="owner",
        number=number,
        change_event_id=None,
        commitment_id=None,
        description="Owner-requested scope addition (submitted, awaiting owner approval)",
        amount=amount,
        increases_contract=True,
        status="pending",
        approved_date=None,
    )
    ctx.add("change_order_lines", co_id=co_id, line_no=1, cost_code=code, amount=amount)
