"""Plants for P_labor_distribution: months whose payroll labor does not tie to the ERP's job cost.

The payroll system is the book of record for labor; the ERP's payroll interface posts each pay
batch's journal on its check date (Dr 5100 Direct Labor by job and the trade's labor phase, ...).
For up to six closed months (the most recent ones whose pay batches all predate the timecard
window and the union-fringe work month, so no earnings row another family reads moves) this module
plants, on its own RNG stream and after every other module:

* in every month, the plain difference: one employee's week re-coded in payroll from job J to job
  K after the interface ran (the ERP still carries it on J). Both jobs are in one county, so the
  union locals' jurisdictions and remittances do not move, and the ERP is unchanged;
* by the month's slot, one twist:

  - ``closed_job_labor``: another employee's week re-coded in payroll to a closed job completed
    before the week began, in the same county; the ERP carries it on the employee's job of the month. The policy
    (only the policy) says such labor belongs to the job the employee worked the most hours on
    that month: no difference;
  - ``labor_cost_type_misposted``: one labor line of a batch's journal (a trade whose labor phase
    the hh2 crosswalk shares with a subcontract cost code) posted as subcontract cost, 5200 on the
    shared phase's subcontract code, on a job that already carries that phase; the correction
    moves it back from 5200;
  - ``labor_distribution_late``: the month's last batch posted its labor distribution in the next
    period (its journal debits 1090 Payroll Clearing instead of 5100; a journal on the first day
    of the next month moves it to 5100 by job): a timing difference, not corrected.

A job's cumulative job cost at the clock never changes (the WIP schedule reads it), and no cash
line moves. It adds the 1090 Payroll Clearing account, registers each difference
(``book.divergences``) and writes the labor distribution policy (SharePoint ``/Policies``).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal
from typing import Any

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.ledger import add_gl_accounts, post_entry
from cfab.seeds.policies import add_late_policy
from cfab.seeds.timeline import add_months, month_end, period_of

STREAM = "labor-distribution"
POLICY_ID = "labor_distribution_policy.md"
POLICY_TITLE = "Payroll Labor Distribution Policy"
CLEARING = "1090"
LABOR, SUBCONTRACT = "5100", "5200"
CONTROL, CLOSED, CROSSWALK, LATE = "control", "closed_job_labor", "labor_cost_type_misposted", "labor_distribution_late"
# the months' twists, most recent month first: four public months, then two held out (the late
# distribution lands in the month after: only the most recent month's successor is no key's month)
SLOTS = (LATE, CONTROL, CLOSED, CROSSWALK, CROSSWALK, CLOSED)
# a trade's labor cost code -> the subcontract cost code whose ERP phase it shares (hh2 crosswalk)
SHARED_PHASE = {"22-010": "22-100", "05-050": "05-120", "31-230": "31-200"}
RESERVED_JOBS = frozenset({"1042", "1990", "2014", "2041", "2200", "3100", "3412", "4012", "9140", *anchors.CERT_PLANS})
Z = Decimal("0.00")


def plant_months(ctx: Ctx) -> list[date]:
    """The closed months the plant may use, most recent first: every batch paid (check date) in the
    month released, ending before the timecard window and before the union-fringe work month."""
    tl = ctx.tl
    limit = min(tl.timecard_start, tl.months[-2])
    batches = ctx.rows("payroll_batches")
    out = []
    for m in reversed(tl.months[:-2]):
        paid = [b for b in batches if m <= b["check_date"] <= month_end(m)]
        if paid and all(b["status"] == "released" and b["period_end"] < limit for b in paid):
            out.append(m)
    return out


def build_labor_distribution(ctx: Ctx) -> None:
    r = ctx.rng(STREAM)
    jobs = {j["job_number"]: j for j in ctx.rows("jobs")}
    if not any(a["account"] == CLEARING for a in ctx.rows("gl_accounts")):
        add_gl_accounts(ctx, ((CLEARING, "Payroll Clearing", "asset", "D", False, False),))
    for month, slot in zip(plant_months(ctx), SLOTS, strict=False):
        batches = sorted(
            (b for b in ctx.rows("payroll_batches") if month <= b["check_date"] <= month_end(month)),
            key=lambda b: b["check_date"],
        )
        ids = {b["batch_id"] for b in batches}
        earnings = [e for e in ctx.rows("payroll_earnings") if e["batch_id"] in ids]
        used: set[str] = set()
        base = _recode(ctx, r, month, earnings, jobs, used)
        if base is None:
            continue
        if slot == CLOSED:
            _closed_job(ctx, r, month, earnings, jobs, used)
        elif slot == CROSSWALK:
            _cost_type(ctx, r, month, batches, jobs, used)
        elif slot == LATE:
            _late(ctx, month, batches[-1])
    add_late_policy(ctx, POLICY_ID, POLICY_TITLE, _policy())


def _county_pairs(
    earnings: list[dict[str, Any]], jobs: dict[str, dict[str, Any]], used: set[str]
) -> dict[str, list[str]]:
    by_county: dict[str, set[str]] = defaultdict(set)
    for e in earnings:
        j = jobs[e["job_number"]]
        if j["status"] == "active" and e["job_number"] not in used:
            by_county[j["county"]].add(e["job_number"])
    return {c: sorted(js) for c, js in by_county.items() if len(js) >= 2}


def _recode(
    ctx: Ctx,
    r: Any,
    month: date,
    earnings: list[dict[str, Any]],
    jobs: dict[str, dict[str, Any]],
    used: set[str],
) -> dict[str, Any] | None:
    """One employee's week moved in payroll from job J to job K of the same county (ERP unchanged)."""
    pairs = _county_pairs(earnings, jobs, used)
    taken = {(e["batch_id"], e["employee_id"], e["job_number"]) for e in earnings}
    rows = sorted(
        (e for e in earnings if jobs[e["job_number"]]["county"] in pairs and e["job_number"] not in used),
        key=lambda e: (e["batch_id"], e["employee_id"], e["job_number"]),
    )
    r.shuffle(rows)
    for e in rows:
        others = [
            k
            for k in pairs[jobs[e["job_number"]]["county"]]
            if k != e["job_number"] and (e["batch_id"], e["employee_id"], k) not in taken
        ]
        if not others or e["gross_pay"] <= 0:
            continue
        k = r.choice(others)
        j = e["job_number"]
        e["job_number"] = k
        used.update({j, k})
        ctx.diverge(
            "labor_recoded_after_interface",
            k,
            suffix=f"{period_of(month)}:{e['batch_id']}",
            reason=f"{e['batch_id']}: employee {e['employee_id']}'s week re-coded in payroll from job {j} to {k} "
            f"after the ERP interface ran; the ERP still carries {e['gross_pay']} of wages on {j}",
        )
        return {"from_job": j, "to_job": k}
    return None


def _closed_job(
    ctx: Ctx,
    r: Any,
    month: date,
    earnings: list[dict[str, Any]],
    jobs: dict[str, dict[str, Any]],
    used: set[str],
) -> bool:
    """One employee's week re-coded in payroll to a job completed before the week began (same county)."""
    starts = {b["batch_id"]: b["period_start"] for b in ctx.rows("payroll_batches")}
    closed = {j["job_number"]: j for j in jobs.values() if j["status"] == "closed"}
    hours: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for e in earnings:
        hours[(e["employee_id"], e["job_number"])] += e["hours_regular"] + e["hours_overtime"]
    rows = sorted(
        (
            e
            for e in earnings
            if e["job_number"] not in used
            and jobs[e["job_number"]]["status"] == "active"
            and any(
                x["county"] == jobs[e["job_number"]]["county"] and x["est_completion_date"] < starts[e["batch_id"]]
                for x in closed.values()
            )
            and e["gross_pay"] > 0
        ),
        key=lambda e: (e["batch_id"], e["employee_id"], e["job_number"]),
    )
    r.shuffle(rows)
    for e in rows:
        emp, j = e["employee_id"], e["job_number"]
        week = e["hours_regular"] + e["hours_overtime"]
        rest = hours[(emp, j)] - week
        other = max((h for (x, jj), h in hours.items() if x == emp and jj != j), default=Z)
        if rest <= max(week, other):  # the job must stay the employee's job of the month
            continue
        x = sorted(
            c
            for c, x in closed.items()
            if x["county"] == jobs[j]["county"] and x["est_completion_date"] < starts[e["batch_id"]]
        )[0]
        e["job_number"] = x
        used.add(j)
        ctx.diverge(
            "closed_job_labor",
            x,
            suffix=f"{period_of(month)}:{e['batch_id']}",
            reason=f"{e['batch_id']}: employee {emp}'s week coded in payroll to closed job {x}; the ERP keeps "
            f"{e['gross_pay']} of wages on {j}, the employee's job of the month, where the policy charges it",
        )
        return True
    return False


def _cost_type(
    ctx: Ctx, r: Any, month: date, batches: list[dict[str, Any]], jobs: dict[str, dict[str, Any]], used: set[str]
) -> bool:
    """One labor line of a batch's journal posted as subcontract cost on its shared phase (5200)."""
    carries: set[tuple[str, str]] = set()
    for b in ctx.rows("budget_lines"):
        if b["include_in_erp"]:
            carries.add((b["job_number"], b["cost_code"]))
    for ln in ctx.rows("journal_lines"):
        if ln["job_number"] and ln["cost_code"]:
            carries.add((ln["job_number"], ln["cost_code"]))
    refs = {b["batch_id"] for b in batches}
    je = {e["je_id"]: e for e in ctx.rows("journal_entries") if e["journal"] == "PR" and e["source_ref"] in refs}
    lines = sorted(
        (
            ln
            for ln in ctx.rows("journal_lines")
            if ln["je_id"] in je
            and ln["account"] == LABOR
            and ln["cost_code"] in SHARED_PHASE
            and ln["job_number"] not in used
            and ln["job_number"] not in RESERVED_JOBS
            and jobs[ln["job_number"]]["status"] == "active"
            and (ln["job_number"], SHARED_PHASE[ln["cost_code"]]) in carries
            and ln["debit"] > 0
        ),
        key=lambda ln: (ln["je_id"], ln["line_no"]),
    )
    if not lines:
        return False
    ln = r.choice(lines)
    labor = ln["cost_code"]
    ln["account"], ln["cost_code"] = SUBCONTRACT, SHARED_PHASE[labor]
    used.add(ln["job_number"])
    ctx.diverge(
        "labor_cost_type_misposted",
        ln["job_number"],
        suffix=f"{period_of(month)}:{je[ln['je_id']]['source_ref']}",
        reason=f"{je[ln['je_id']]['je_number']}: {ln['debit']} of {labor} labor posted by the payroll interface as "
        f"subcontract cost ({SUBCONTRACT}, cost code {ln['cost_code']}) on the phase the crosswalk shares",
    )
    return True


def _late(ctx: Ctx, month: date, batch: dict[str, Any]) -> bool:
    """The batch's labor distribution posted in the next period, through 1090 Payroll Clearing."""
    pr = [e for e in ctx.rows("journal_entries") if e["journal"] == "PR" and e["source_ref"] == batch["batch_id"]]
    entry = next((e for e in pr if e["description"].startswith("Payroll PR-")), None)
    if entry is None:
        return False
    all_lines = ctx.rows("journal_lines")
    mine = sorted((ln for ln in all_lines if ln["je_id"] == entry["je_id"]), key=lambda ln: ln["line_no"])
    labor = [ln for ln in mine if ln["account"] == LABOR]
    total = sum((ln["debit"] - ln["credit"] for ln in labor), Z)
    keep = [ln for ln in mine if ln["account"] != LABOR]
    clearing = {
        "je_id": entry["je_id"],
        "line_no": 0,
        "account": CLEARING,
        "job_number": None,
        "cost_code": None,
        "vendor_key": None,
        "debit": total,
        "credit": Z,
        "memo": "Labor distribution pending",
    }
    gone = {id(ln) for ln in mine}
    all_lines[:] = [ln for ln in all_lines if id(ln) not in gone]
    for n, ln in enumerate([clearing, *keep], start=1):
        ln["line_no"] = n
        all_lines.append(ln)
    day = add_months(month, 1)
    lines = [
        (ln["account"], ln["job_number"], ln["cost_code"], None, ln["debit"], ln["credit"], ln["memo"]) for ln in labor
    ]
    lines.append((CLEARING, None, None, None, Z, total, "Labor distribution pending"))
    number = post_entry(ctx, "PR", day, f"Payroll labor distribution {batch['batch_id']}", batch["batch_id"], lines)
    ctx.diverge(
        "labor_distribution_late",
        number,
        reason=f"{entry['je_number']} ({batch['check_date']}) debited {total} of wages to {CLEARING}; the labor "
        f"distribution posted to {LABOR} by job in {number} on {day}",
    )
    return True


def _policy() -> str:
    return f"""
Applies to the monthly tie-out of payroll labor to job cost: the gross wages the payroll system
(ADP, Rippling or Foundation Payroll) paid, job by job, against the direct labor the ERP carries
in job cost. The payroll system is the book of record for labor; job cost follows it.

## 1. What a month's labor is
1. **Pay batches.** A month's payroll is every released pay batch with a **check date** in the
   month. The ERP's payroll interface posts each batch's journal on its check date (journal `PR`,
   described "Payroll PR-<week ending>"): Dr **{LABOR} Direct Labor** by job and the trade's labor
   phase for the gross wages, Dr 5110 for union fringe, Cr withholdings, fringe payable and net pay.
2. **Scope.** The tie-out covers gross wages (earnings lines) and account {LABOR} only. Fringe
   (5110) is allocated by the monthly fringe allocation and is not part of it.
3. **Batch by batch.** Compare each batch's payroll wages by job with the labor distribution the
   ERP posted for that batch, wherever it posted. When a batch's labor distribution posted in a
   later period (the batch's journal debits {CLEARING} Payroll Clearing and a later journal,
   described "Payroll labor distribution <batch>", moves it to {LABOR} by job), the labor is in job
   cost: that is a timing difference, never corrected or booked again.
4. **Jobs.** Payroll and the ERP spell job numbers differently; translate them through the hh2
   job crosswalk (`job_map`), never by guessing.

## 2. Closed jobs
Once a job is closed it takes no further cost. Hours the payroll codes to a closed job for a pay
week that began after the job's completion date (the ERP job master's) are a coding error: that
labor belongs to the job the employee worked the most hours on in the same month, and is compared
(and corrected, if need be) there, never on the closed job.

## 3. Labor posted to another cost account
Where the hh2 cost-code crosswalk gives a trade's labor phase a subcontract cost code too, the
interface has at times posted a labor line to the phase's subcontract cost ({SUBCONTRACT}). That
labor is missing from {LABOR}: the correction moves it back from {SUBCONTRACT} on the same job,
not through clearing.

## 4. The correcting entry
1. A job's difference is its payroll wages for the month (after section 2) less the {LABOR} the
   ERP carries for the month's batches (after section 1.3). A job with no difference is left
   alone.
2. Stage **one** journal entry in the ERP, in the open period, dated the day the tie-out is done,
   not reversing. For each job with a difference: a {LABOR} line for the difference (a debit when
   payroll is higher, a credit when the ERP is higher) and its offset on **{CLEARING} Payroll
   Clearing** for the same amount on the other side, both lines carrying the job; where the
   difference is labor posted to {SUBCONTRACT} (section 3), the offset is {SUBCONTRACT} on that
   job instead of {CLEARING}.
3. Report the total variance (the sum of the jobs' differences regardless of sign: $100 too much
   on one job and $100 too little on another is $200) and the jobs with a difference.
4. The entry is staged for the controller's review. Posting it is the controller's step: never
   post it.
"""
