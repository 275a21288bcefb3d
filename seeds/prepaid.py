"""Plants for G_prepaid_amortization: the company's own insurance program, paid in advance and
carried in 1400 Prepaid Expenses, amortized monthly to 6200 Insurance.

Six programs (casualty, fleet, property, equipment, management, professional), each a few
annual policies renewing together on the first of a month two to ten months before the clock's
(so several closed months are already amortized in the GL), each with its declarations page in
Box (``/Insurance/Policies``, doc type ``insurance_policy``). The twists are in the data at every
seed and clock, with dates relative to the clock:

- ``bind``: a policy bound in the clock's month, effective mid-month (prorated by days);
- ``cancel``: a policy cancelled mid-month in the clock's month, its return premium already
  received and credited to 1400 (amortized through the day before the cancellation, then not);
- ``renew_stale``: a policy renewed on the first of the clock's month at a premium other than the
  broker's proposal on the register (the expiring term, a year earlier, fully amortized);
- ``bind_stale``: both the mid-month bind and the stale register figure.

The GL: each premium paid on its effective date (GJ Dr 1400 / Cr 1000, with its ACH debit on the
operating account), each closed month's amortization per program (GJ Dr 6200 per policy / Cr 1400,
dated the month end, posted), the return premium received (GJ Dr 1000 / Cr 1400, ACH credit). The
clock month's amortization is not in the book: the task stages it. The convention is the prepaid
insurance policy (a book policy of its own, in SharePoint), with the register as its appendix.
Everything comes from the ``prepaid_amortization`` stream and is appended after every other
module's rows, so no earlier row changes.
"""

from __future__ import annotations

import random
import re
from calendar import monthrange
from collections import defaultdict
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, stable_id
from cfab.seeds.policies import add_late_policy
from cfab.seeds.timeline import add_months, month_end, period_of

STREAM = "prepaid_amortization"
PREPAID, EXPENSE, CASH = "1400", "6200", "1000"
OPER = "BA-OPER"
POLICY_ID = "prepaid_insurance_policy.md"
POLICY_TITLE = "Prepaid Insurance Policy"
FOLDER = "/Insurance/Policies"
DOC_TYPE = "insurance_policy"
Z = Decimal("0.00")

# program -> [(coverage, coverage name, policy prefix, premium range, twist)]
PROGRAMS: dict[str, list[tuple[str, str, str, tuple[int, int], str | None]]] = {
    "casualty": [
        ("general_liability", "Commercial General Liability", "GL", (38000, 96000), None),
        ("umbrella", "Commercial Umbrella Liability", "UMB", (24000, 64000), None),
        ("pollution", "Contractor's Pollution Liability", "CPL", (6000, 18000), "bind"),
    ],
    "fleet": [
        ("business_auto", "Business Auto", "BA", (52000, 118000), None),
        ("auto_physical_damage", "Auto Physical Damage", "APD", (9000, 26000), None),
    ],
    "property": [
        ("commercial_property", "Commercial Property", "CP", (7000, 19000), None),
        ("crime", "Commercial Crime", "CR", (2400, 7800), "cancel"),
    ],
    "equipment": [
        ("contractors_equipment", "Contractor's Equipment Floater", "IM", (14000, 42000), None),
        ("installation_floater", "Installation Floater", "INF", (3000, 9000), "cancel"),
    ],
    "management": [
        ("directors_officers", "Directors and Officers Liability", "DO", (9000, 24000), None),
        ("employment_practices", "Employment Practices Liability", "EPL", (6000, 16000), None),
        ("cyber", "Cyber Liability", "CYB", (4000, 12000), "renew_stale"),
    ],
    "professional": [
        ("professional", "Contractor's Professional Liability", "CPR", (9000, 28000), "bind_stale"),
        ("employee_benefits", "Employee Benefits Liability", "EBL", (1200, 3600), None),
    ],
}
INSURERS = (
    "Travelers Property Casualty Co. of America",
    "The Cincinnati Insurance Company",
    "Zurich American Insurance Company",
    "Liberty Mutual Fire Insurance Company",
    "West Bend Mutual Insurance Company",
    "Westfield Insurance Company",
    "Hartford Fire Insurance Company",
    "Selective Insurance Company of America",
)
PRODUCERS = (
    "Lakeshore Risk Partners, LLC",
    "Heartland Builders Insurance Brokerage",
    "Keystone Contractors Insurance Services",
)

POLICY_BODY = """
Premiums on the policies of the company's own insurance program are paid in advance for the policy
year. They are an asset until the coverage is used: carried in **1400 Prepaid Expenses** and
expensed to **6200 Insurance** month by month. (The monthly workers' compensation installment is
expensed as it is paid and is not on the register.)

## 1. Source of truth
The **declarations page** of each policy, in Box under `{folder}` (one PDF per policy, named by
policy number, plus the carrier's cancellation endorsement for a cancelled policy), is the record
of the policy's premium, policy period and cancellation. The register in the appendix carries the
broker's proposal figures from the marketing of each renewal: it is not updated when a policy
binds at another premium, and where it disagrees with the declarations page the declarations page
governs.

## 2. Amortization convention (straight-line by month, days in the partial months)
- **Monthly amount** = total premium / 12 (every policy is written for a twelve-month term),
  rounded half-up to the cent.
- A policy in force for the **whole month** is amortized one monthly amount.
- A policy **bound mid-month** (effective on a day other than the 1st) is amortized, in the month it
  is bound, monthly amount x days in force / days in the month, rounded half-up to the cent; the days
  in force count the effective date through the last day of the month, both included.
- A policy **cancelled** during the term is amortized, in the month of cancellation, monthly amount x
  days in force / days in the month (the 1st through the day before the cancellation date; coverage
  ends at 12:01 a.m. on the cancellation date), and nothing after. The **return premium** the
  carrier refunds is unearned premium coming back: it is credited to 1400 when it is received (a
  cash receipt), it is never credited to 6200 and it does not reduce the month's amortization.
- An **expired** policy (the month begins on or after its expiry date) is not amortized; its renewal
  is a new policy with its own premium.
- In the twelfth month of a term the amortization is the remaining balance of the premium, so the
  policy amortizes to exactly its premium.

## 3. The monthly entry
At month end, for each program on the register, stage one journal entry **Dr 6200 Insurance / Cr
1400 Prepaid Expenses** for the month's amortization of that program's policies in force, dated the
last day of the month, not auto-reversing. A debit line per policy with the policy number in the
memo is customary; one pair of lines for the program's total is also acceptable. No job on the
lines (insurance is overhead). The entry is staged as a draft for the controller; only the
controller posts. After it posts, each policy's prepaid balance is its premium less the
amortization to date (less any return premium).

## Appendix: prepaid insurance register (broker proposal figures)
| Program | Coverage | Policy number | Insurer | Policy period | Premium (proposal) |
|---|---|---|---|---|---|
{register}
"""


def monthly(premium: Decimal) -> Decimal:
    return (premium / 12).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def amortization(p: dict, month: date, to_date: Decimal) -> Decimal:
    """The policy's amortization for ``month`` (its first day) by the convention above, given the
    amortization posted before it (``to_date``)."""
    start, end = month, month_end(month) + timedelta(days=1)
    stop = p["cancelled_date"] or p["expiry_date"]
    lo, hi = max(start, p["effective_date"]), min(end, stop)
    days = (hi - lo).days
    if days <= 0:
        return Z
    dim = monthrange(month.year, month.month)[1]
    if p["cancelled_date"] is None and p["expiry_date"] <= end and p["effective_date"] < start:
        return p["premium"] - to_date  # the last month of the term: the remaining balance
    m = monthly(p["premium"])
    return m if days == dim else money(m * days / dim)


def _premium(r: random.Random, lo: int, hi: int) -> Decimal:
    """A whole-dollar premium that twelve does not divide (so the cents matter)."""
    while True:
        x = r.randint(lo, hi)
        if x % 12:
            return Decimal(x).quantize(Decimal("0.01"))


def _stale(r: random.Random, premium: Decimal) -> Decimal:
    """The broker's proposal figure: 4-11 % off the bound premium, to the $25."""
    pct = Decimal(r.randint(4, 11)) * r.choice((1, -1))
    x = (premium * (100 + pct) / 100 / 25).quantize(Decimal("1"), rounding=ROUND_HALF_UP) * 25
    return Decimal(x).quantize(Decimal("0.01"))


def build_prepaid(ctx: Ctx) -> None:
    r = ctx.rng(STREAM)
    clock = ctx.clock
    first = clock.replace(day=1)
    last_day = clock.day  # a bind or cancellation dated by the clock (none mid-month at a clock on the 1st)
    policies: list[dict] = []
    for program, coverages in PROGRAMS.items():
        eff = add_months(first, -r.randint(2, 10))
        producer = r.choice(PRODUCERS)
        for coverage, name, prefix, (lo, hi), twist in coverages:
            insurer = r.choice(INSURERS)
            premium = _premium(r, lo, hi)
            row = dict(
                program=program,
                coverage=coverage,
                coverage_name=name,
                insurer=insurer,
                producer=producer,
                effective_date=eff,
                premium=premium,
                scheduled_premium=premium,
                cancelled_date=None,
                return_premium=None,
            )
            if twist in ("bind", "bind_stale"):
                row["effective_date"] = first.replace(day=min(r.randint(9, 24), last_day))
            if twist == "renew_stale":  # the expiring term, a year before, then the renewal this month
                expiring = dict(row, effective_date=add_months(first, -12), premium=_premium(r, lo, hi))
                expiring["scheduled_premium"] = expiring["premium"]
                policies.append(_number(r, expiring, prefix))
                row["effective_date"] = first
            if twist in ("renew_stale", "bind_stale"):
                row["scheduled_premium"] = _stale(r, premium)
            if twist == "cancel":
                row["cancelled_date"] = first.replace(day=min(r.randint(8, 22), last_day))
            policies.append(_number(r, row, prefix))
    for p in policies:
        p["expiry_date"] = add_months(p["effective_date"], 12)
        p["policy_id"] = f"IP-{p['program']}-{p['coverage']}-{p['effective_date']:%Y%m}"
        p["document_id"] = stable_id("insurance_policy", p["policy_id"])
        p["cancel_document_id"] = (
            stable_id("insurance_policy", p["policy_id"], "cancel") if p["cancelled_date"] else None
        )
    entries = _ledger(ctx, policies)
    for p in policies:
        ctx.add("insurance_policies", **{k: p[k] for k in _COLUMNS})
        _documents(ctx, p)
    _journal(ctx, entries)
    add_late_policy(ctx, POLICY_ID, POLICY_TITLE, _body(policies))


_COLUMNS = (
    "policy_id",
    "program",
    "coverage",
    "coverage_name",
    "policy_number",
    "insurer",
    "producer",
    "effective_date",
    "expiry_date",
    "premium",
    "scheduled_premium",
    "cancelled_date",
    "return_premium",
    "document_id",
    "cancel_document_id",
)


def _number(r: random.Random, row: dict, prefix: str) -> dict:
    row["policy_number"] = f"{prefix} {r.randint(1000000, 9999999)}-{row['effective_date']:%y}"
    return row


def filename(policy_number: str, suffix: str = "declarations") -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", policy_number) + f"_{suffix}.pdf"


def _documents(ctx: Ctx, p: dict) -> None:
    ctx.add(
        "documents",
        document_id=p["document_id"],
        doc_type=DOC_TYPE,
        natural_key=p["policy_id"],
        store="box",
        folder=FOLDER,
        filename=filename(p["policy_number"]),
        mime_type="application/pdf",
        title=f"Declarations - {p['coverage_name']} {p['policy_number']}",
        job_number=None,
        vendor_key=None,
        created_date=min(p["effective_date"], ctx.clock),
    )
    if p["cancel_document_id"]:
        ctx.add(
            "documents",
            document_id=p["cancel_document_id"],
            doc_type=DOC_TYPE,
            natural_key=p["policy_id"] + "#cancel",
            store="box",
            folder=FOLDER,
            filename=filename(p["policy_number"], "cancellation"),
            mime_type="application/pdf",
            title=f"Cancellation endorsement - {p['coverage_name']} {p['policy_number']}",
            job_number=None,
            vendor_key=None,
            created_date=min(p["cancelled_date"], ctx.clock),
        )


Entry = tuple[date, str, str, list[tuple[str, Decimal, Decimal, str]], list[tuple[Decimal, str, str]]]


def _ledger(ctx: Ctx, policies: list[dict]) -> list[Entry]:
    """Premiums paid, closed months amortized per program, return premiums received."""
    first = ctx.clock.replace(day=1)
    out: list[Entry] = []
    done: dict[str, Decimal] = defaultdict(Decimal)
    for p in policies:
        if p["effective_date"] <= ctx.clock:
            desc = f"Insurance premium {p['policy_number']} {p['coverage_name']}"
            out.append(
                (
                    p["effective_date"],
                    desc,
                    f"PREMIUM:{p['policy_id']}",
                    [(PREPAID, p["premium"], Z, p["policy_number"]), (CASH, Z, p["premium"], p["producer"][:60])],
                    [(-p["premium"], "469", f"ACH DEBIT {p['producer'].split(',')[0].upper()}"[:60])],
                )
            )
    month = add_months(first, -12)
    while month < first:
        for program in PROGRAMS:
            lines = []
            for p in policies:
                if p["program"] != program:
                    continue
                x = amortization(p, month, done[p["policy_id"]])
                if x:
                    done[p["policy_id"]] += x
                    lines.append((EXPENSE, x, Z, p["policy_number"]))
            if lines:
                total = sum((ln[1] for ln in lines), Z)
                lines.append((PREPAID, Z, total, f"Prepaid insurance - {program}"))
                out.append(
                    (
                        month_end(month),
                        f"Prepaid insurance amortization - {program} program - {month:%b %Y}",
                        f"PREPAID:{program}:{period_of(month)}",
                        lines,
                        [],
                    )
                )
        month = add_months(month, 1)
    for p in policies:
        if p["cancelled_date"]:
            used = done[p["policy_id"]] + amortization(p, first, done[p["policy_id"]])
            p["return_premium"] = p["premium"] - used
            when = min(p["cancelled_date"] + timedelta(days=4), ctx.clock)
            out.append(
                (
                    when,
                    f"Return premium {p['policy_number']} {p['coverage_name']} (cancelled)",
                    f"RETURN:{p['policy_id']}",
                    [
                        (CASH, p["return_premium"], Z, p["insurer"][:60]),
                        (PREPAID, Z, p["return_premium"], p["policy_number"]),
                    ],
                    [(p["return_premium"], "165", f"ACH CREDIT {p['insurer'].upper()}"[:60])],
                )
            )
    return out


def _journal(ctx: Ctx, entries: list[Entry]) -> None:
    """GJ entries numbered after every earlier GJ entry of their period, in date order."""
    seq: dict[str, int] = defaultdict(int)
    for je in ctx.rows("journal_entries"):
        if je["journal"] == "GJ":
            seq[je["period"]] = max(seq[je["period"]], int(je["je_number"].rsplit("-", 1)[1]))
    for day, desc, ref, lines, bank in sorted(entries, key=lambda e: (e[0], e[2])):
        period = period_of(day)
        seq[period] += 1
        number = f"GJ{day:%y%m}-{seq[period]:04d}"
        je_id = stable_id("je", "GJ", number)
        if sum(ln[1] for ln in lines) != sum(ln[2] for ln in lines):
            raise RuntimeError(f"unbalanced entry {number}: {desc}")
        ctx.add(
            "journal_entries",
            je_id=je_id,
            journal="GJ",
            je_number=number,
            entry_date=day,
            period=period,
            description=desc,
            status="posted",
            source_ref=ref,
            auto_reverse=False,
        )
        for n, (acct, dr, cr, memo) in enumerate(lines, start=1):
            ctx.add(
                "journal_lines",
                je_id=je_id,
                line_no=n,
                account=acct,
                job_number=None,
                cost_code=None,
                vendor_key=None,
                debit=dr,
                credit=cr,
                memo=memo,
            )
        for i, (amount, bai, text) in enumerate(bank):
            ctx.add(
                "bank_transactions",
                txn_id=stable_id("txn", OPER, number, i),
                bank_account_id=OPER,
                posted_date=day,
                amount=amount,
                bai_type_code=bai,
                description=text,
                check_number=None,
                reference=number,
            )


def _body(policies: list[dict]) -> str:
    rows = [
        f"| {p['program']} | {p['coverage_name']} | {p['policy_number']} | {p['insurer']} | "
        f"{p['effective_date']:%m/%d/%Y} - {p['expiry_date']:%m/%d/%Y} | ${p['scheduled_premium']:,} |"
        for p in sorted(policies, key=lambda p: (p["program"], p["effective_date"], p["coverage"]))
    ]
    return POLICY_BODY.format(folder=FOLDER, register="\n".join(rows))
