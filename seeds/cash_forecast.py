"""T_cash_forecast plant: what the 13-week cash forecast needs that the ledger does not hold.

The forecast (the cash forecast policy, ``cash_forecast_policy.md``) is built from the bank
balances at the clock, the checks still in transit, open AP by due date, the owner pay
applications the architect has certified, the payroll calendar and the treasury schedules. This
module writes, on its own RNG stream and after every other module (no earlier row moves):

* ``book.payroll_calendar``: the weekly pay calendar from the first pay date after the clock for
  sixteen weeks (period Sunday-Saturday, paid the Thursday after), projected into every payroll
  app;
* ``book.owner_payment_terms``: each prime contract's payment terms in days after certification
  (private owners mostly net 30, some 20 or 45; public owners 45 or 60), shown on GCPay's
  contracts;
* ``book.bank_scheduled_payments``: one payment Treasury has set up in a bank's portal for a
  value date in the forecast's first week, at three of the four banks (the twists of the family's keys):
  the payroll account's state unemployment contribution at Chase (a payroll cost), a draw from
  the reserve money market at Wells Fargo into the operating account (a receipt of the forecast:
  the reserve is outside it), and a principal prepayment on the PNC equipment note (debt
  service). Bank of America holds none (the control). Plaid lists posted activity only, so each
  is visible only in its bank's portal;
* the policy itself, with its two schedules as of the clock: the debt-service schedule (the PNC
  note's installments, the First Midwest line's monthly interest) and the standing disbursements
  (rent, insurance installment, retainer, union trust funds, utilities, office salaries).
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, stable_id
from cfab.seeds.ledger import OVERHEAD
from cfab.seeds.policies import add_late_policy
from cfab.seeds.timeline import add_months, month_end, month_start

STREAM = "cash_forecast"
POLICY_ID = "cash_forecast_policy.md"
POLICY_TITLE = "Cash Forecast Policy (13-Week Rolling Forecast)"
WEEKS = 13
CALENDAR_WEEKS = 16
FRIDAY = 4
# the bank account of each planted portal payment, and what it pays
SCHEDULED = (("BA-PAYR", "payroll_tax"), ("BA-WFMM", "reserve_transfer"), ("BA-PNCEQ", "loan_prepayment"))
LOC_INTEREST_ACCOUNT = "6900"
UNION_TRUST = "ACH DEBIT UNION TRUST FUNDS"


def week_ends(clock: date, weeks: int = WEEKS) -> list[date]:
    """The Fridays that end the forecast's weeks: week 1 runs from the day after ``clock`` through
    the first Friday after it, each later week Saturday through Friday."""
    first = clock + timedelta(days=(FRIDAY - clock.weekday()) % 7 or 7)
    return [first + timedelta(days=7 * k) for k in range(weeks)]


def business_day(d: date) -> date:
    """A Saturday or Sunday moves to the Monday after (the policy's rule); a weekday stays."""
    return d + timedelta(days=(7 - d.weekday()) % 7) if d.weekday() >= 5 else d


def build_cash_forecast(ctx: Ctx) -> None:
    ends = week_ends(ctx.clock)
    _payroll_calendar(ctx)
    _payment_terms(ctx)
    _scheduled_payments(ctx, ends)
    _schedules(ctx, ends)
    add_late_policy(ctx, POLICY_ID, POLICY_TITLE, policy_body(ctx, ends))


def _payroll_calendar(ctx: Ctx) -> None:
    """Sixteen pay weeks from the first one paid after the clock (the open batches included): the
    first Saturday whose Thursday pay date is after the clock."""
    start = ctx.clock - timedelta(days=4)
    week_end = start + timedelta(days=(5 - start.weekday()) % 7)
    for k in range(CALENDAR_WEEKS):
        end = week_end + timedelta(days=7 * k)
        ctx.add(
            "payroll_calendar",
            period_end=end,
            period_start=end - timedelta(days=6),
            pay_date=ctx.tl.batch_check_date(end),
            batch_id=f"PR-{end.isoformat()}",
            frequency="Weekly",
        )


def _payment_terms(ctx: Ctx) -> None:
    owner_type = {o["owner_id"]: o["owner_type"] for o in ctx.rows("owners")}
    for pc in sorted(ctx.rows("prime_contracts"), key=lambda p: p["job_number"]):
        r = ctx.rng(STREAM, "terms", pc["job_number"])
        public = owner_type.get(pc["owner_id"]) == "public"
        days = r.choice((45, 45, 60)) if public else r.choice((30, 30, 30, 20, 45))
        ctx.add("owner_payment_terms", job_number=pc["job_number"], terms_days=days, basis="certification")


def _value_date(r, clock: date, ends: list[date]) -> date:
    """A weekday of forecast week 1 after the clock (Treasury sets up the coming days' payments), so
    the item moves every week's ending cash, the lowest week's too."""
    days = [clock + timedelta(days=n) for n in range(1, (ends[0] - clock).days + 1)]
    return r.choice([d for d in days if d.weekday() < 5])


def _scheduled_payments(ctx: Ctx, ends: list[date]) -> None:
    accounts = {a["bank_account_id"]: a for a in ctx.rows("bank_accounts")}
    note = ctx.notes["treasury"]["note"]
    for acct, kind in SCHEDULED:
        r = ctx.rng(STREAM, "scheduled", acct)
        created = ctx.clock - timedelta(days=r.randint(1, 6))
        if kind == "payroll_tax":
            value = _value_date(r, ctx.clock, ends)
            quarter = (month_start(value).month - 1) // 3  # the quarter before the value date's
            year = value.year if quarter else value.year - 1
            row = {
                "payment_method": "ACH",
                "beneficiary_name": "Illinois Department of Employment Security",
                "beneficiary_account": None,
                "amount": money(Decimal(r.randint(1400000, 3800000)) / 100),
                "memo": f"UI CONTRIBUTION {quarter or 4}Q{year} - EMPLOYER",
            }
        elif kind == "reserve_transfer":
            value = _value_date(r, ctx.clock, ends)
            row = {
                "payment_method": "WIRE",
                "beneficiary_name": "Company A Construction, Inc. (Operating)",
                "beneficiary_account": accounts["BA-OPER"]["account_number"],
                "amount": money(Decimal(r.randint(6, 18)) * 50000),
                "memo": "RESERVE DRAW TO OPERATING - EQUIPMENT PURCHASES",
            }
        else:
            value = _value_date(r, ctx.clock, ends)
            row = {
                "payment_method": "BOOK",
                "beneficiary_name": f"PNC Bank - Commercial Loan Note {note}",
                "beneficiary_account": note,
                "amount": money(Decimal(r.randint(8, 30)) * 5000),
                "memo": f"PRINCIPAL PREPAYMENT NOTE {note}",
            }
        ctx.add(
            "bank_scheduled_payments",
            scheduled_id=stable_id("scheduled_payment", acct, kind),
            bank_account_id=acct,
            value_date=value,
            kind=kind,
            created_date=created,
            **row,
        )


# --------------------------------------------------------------------------------------------- schedules
# item -> (overhead account of ledger.OVERHEAD, forecast line); the union remittance has no account
STANDING: dict[str, tuple[str | None, str]] = {
    "rent": ("6100", "other"),
    "insurance": ("6200", "other"),
    "retainer": ("6400", "other"),
    "union_trust": (None, "payroll"),
    "utilities": ("6300", "other"),
    "office_salaries": ("6000", "other"),
}


def _overhead(account: str) -> tuple[int, Decimal, str]:
    for acct, day, base, desc, _bai in OVERHEAD:
        if acct == account:
            return day, money(Decimal(base)), desc
    raise KeyError(account)


def _last_union_remittance(ctx: Ctx) -> Decimal:
    debits = [
        t for t in ctx.rows("bank_transactions") if t["description"] == UNION_TRUST and t["posted_date"] <= ctx.clock
    ]
    return money(-max(debits, key=lambda t: t["posted_date"])["amount"])


def _months(ctx: Ctx, ends: list[date]) -> list[date]:
    out, m = [], month_start(ctx.clock)
    while m <= month_start(ends[-1]):
        out.append(m)
        m = add_months(m, 1)
    return out


def _schedules(ctx: Ctx, ends: list[date]) -> None:
    """Schedules A (debt service) and B (standing disbursements), dated, from the clock's month through
    the month week 13 ends in; only dates after the clock."""
    t = ctx.notes["treasury"]
    _, loc, _ = _overhead(LOC_INTEREST_ACCOUNT)
    union = _last_union_remittance(ctx)

    def add(schedule: str, item: str, description: str, due: date, amount: Decimal, line: str) -> None:
        if due > ctx.clock:
            ctx.add(
                "treasury_schedule",
                entry_id=f"{schedule}:{due.isoformat()}:{item}",
                schedule=schedule,
                item=item,
                description=description,
                due_date=due,
                amount=amount,
                forecast_line=line,
            )

    for m in _months(ctx, ends):
        add(
            "A",
            "pnc_installment",
            f"PNC equipment term note {t['note']} installment",
            m + timedelta(days=14),
            t["payment"],
            "debt_service",
        )
        add("A", "loc_interest", "First Midwest Bank line of credit interest", month_end(m), loc, "debt_service")
        for item, (account, line) in STANDING.items():
            if account is None:
                add("B", item, "Union trust-fund remittances (all locals)", m + timedelta(days=14), union, line)
            else:
                day, amount, desc = _overhead(account)
                add("B", item, desc, month_end(m) if day == 0 else m + timedelta(days=day - 1), amount, line)


def _day(day: int) -> str:
    if day == 0:
        return "last day of the month"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(day % 10 if day not in (11, 12, 13) else 0, "th")
    return f"{day}{suffix}"


def policy_body(ctx: Ctx, ends: list[date]) -> str:
    t = ctx.notes["treasury"]
    as_of = ctx.clock
    sched = sorted(ctx.rows("treasury_schedule"), key=lambda e: (e["due_date"], e["entry_id"]))
    rows_a = [
        f"| {e['due_date'].isoformat()} | {e['description']} | {e['amount']:,.2f} |"
        for e in sched
        if e["schedule"] == "A"
    ]
    lines = {"payroll": "Payroll", "other": "Other disbursements"}
    rows_b = []
    for item, (account, line) in STANDING.items():
        e = next(x for x in sched if x["item"] == item)
        day = 15 if account is None else _overhead(account)[0]
        rows_b.append(f"| {e['description']} | {_day(day)} | {e['amount']:,.2f} | {lines[line]} |")
    return f"""
Treasury prepares a rolling 13-week forecast of the company's operating cash every week and
whenever the Controller asks for one. The forecast is a schedule of expected cash movements, not
an accrual report: every line below is cash in or out of the forecast's bank accounts, in the
week it is expected to move. Amounts are exact to the cent.

## 1. The forecast's accounts (opening cash)

1. The forecast covers three accounts: **Operating** (Bank of America), **Payroll** (Chase) and
   the **Equipment Loan Payment** account (PNC). Opening cash is the sum of their closing ledger
   balances on the as-of date, as the banks report them (Plaid's current balance or the bank
   portal's balance report for that day).
2. The **Reserve Money Market** at Wells Fargo is a board-designated reserve and is **not** part of
   the forecast: its balance is not opening cash, and its interest, the mid-month sweeps between it
   and the operating account (they return within the month) and checks drawn on it are not
   forecast.
3. Money that moves **from the reserve into a forecast account** is a receipt of the forecast
   (line *Transfers from reserve*); transfers among the three forecast accounts (the payroll
   account's daily funding from operating, funding of the loan payment account) are not forecast.
4. The equipment note's installments are paid from operating cash. (Until {as_of:%B %Y} Treasury
   moved each installment from the reserve; the reserve no longer funds them.)

## 2. Dates and weeks

1. The as-of date is the day the forecast is prepared (today). Week 1 runs from the day after the
   as-of date through the first Friday after it; weeks 2 to 13 run Saturday through Friday. Each
   week is labelled by the Friday that ends it.
2. An item whose date falls on a Saturday or Sunday moves to the following Monday.
3. An item dated on or before the as-of date that has not yet happened (past due) goes in week 1.
4. Items expected after the end of week 13 are not forecast.

## 3. Receipts

1. **Owner receipts** come from the owner pay applications the architect has certified and the
   owner has not yet paid (status *Certified* in GCPay). The amount received is the application's
   current payment due (AIA G702 line 8): the work and stored materials billed less the retainage
   the owner holds and less previous certificates. Retainage is never forecast as received (it is
   billed separately when released), and applications still in draft or submitted are not
   forecast.
2. The owner pays a certified application the number of days after its certification date that
   the prime contract's payment terms allow (GCPay shows the terms on each contract: *Net 30* = 30
   days).
3. **Transfers from reserve**: see 1.3. A transfer Treasury has scheduled in the Wells Fargo portal
   is forecast on its value date.

## 4. Disbursements

1. **Accounts payable.**
   - Every check issued on a forecast account that has not cleared the bank (the ERP's check
     register: status *issued*) is a disbursement in week 1; the invoices it paid are no longer
     open.
   - Every AP invoice entered in the ERP, posted or unposted, is forecast at its open balance (net
     amount less what has been paid) on its due date. Retainage withheld from a subcontractor is
     not a disbursement until it is released: the open balance excludes it, and a retainage
     release invoice is forecast like any other invoice. A vendor credit (a negative open
     balance) reduces the disbursements of its week.
   - Invoices in dispute or on hold, and invoices of vendors on payment hold, are not forecast
     until they are released. Invoices approved in the project-management system but not yet
     entered in the ERP are not forecast.
2. **Payroll.**
   - Each pay date in the payroll provider's pay calendar after the as-of date is a payroll
     disbursement of the run's total gross pay (net pay plus the withholding the payroll account
     pays out), forecast at the average total gross of the last four runs already paid (released),
     rounded to the cent (half up).
   - Union trust-fund remittances (schedule B) and employer payroll taxes paid apart from a pay
     run (for example a scheduled state unemployment contribution) are payroll disbursements.
3. **Debt service**: the installments and interest of schedule A, and any principal prepayment
   Treasury has scheduled, on their dates.
4. **Other disbursements**: the standing disbursements of schedule B, and any other payment
   scheduled in a bank portal.
5. A payment Treasury has already set up in a bank's portal for a future value date (a future-dated
   wire, ACH or book transfer) is forecast on its value date under the line that matches what it
   pays (payroll, debt service, a transfer from the reserve, or other).

## 5. The forecast sheet

For each week: opening cash (week 1: the opening cash of section 1; later weeks: the previous
week's ending cash), the receipts by line, their total, the disbursements by line, their total,
the net cash flow, and ending cash = opening cash + total receipts - total disbursements. A line
with nothing in a week shows 0.00. The *lowest week* is the week with the lowest ending cash (the
earliest one if two are equal).

## Schedule A: debt service (as of {as_of.isoformat()})

Contractual dates (section 2.2 applies). PNC note {t["note"]}: fixed monthly installment,
{t["rate"].normalize():f}% fixed rate. First Midwest Bank line of credit (GL 2500): interest only, at
Treasury's monthly estimate; no principal is due within the horizon.

| Date | Payment | Amount |
|---|---|---|
{chr(10).join(rows_a)}

## Schedule B: standing disbursements (as of {as_of.isoformat()})

Paid monthly from the operating account at the budgeted amount (contractual day; section 2.2
applies; the last day of the month is that month's last calendar day).

| Disbursement | Day of month | Monthly amount | Line |
|---|---|---|---|
{chr(10).join(rows_b)}
"""
