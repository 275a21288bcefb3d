"""Treasury: the reserve money market at Wells Fargo and the equipment-loan payment account at PNC.

Both accounts are added after the ledger, so no existing entry, entry number, bank transaction or
balance moves:

- **Wells Fargo reserve money market** (``BA-WFMM``, GL 1020). Mid-month, treasury wires the
  operating account's surplus over a $2.5M floor to the money market and wires it back before the
  month-end check and payroll runs; both legs fall inside the month (and on the same side of the
  clock), so the operating account's month-end and clock balances are the ones it always had.
  Interest accrues daily on the money-market balance and is credited at month end (BAI 354).
- **PNC equipment-loan payment account** (``BA-PNCEQ``, GL 1030). The equipment term note with PNC
  (GL 2510) is paid on the 15th by a debit to this account (BAI 481, principal to 2510, interest to
  6910); two business days earlier the money market wires the payment over (495 out at Wells, 195
  in at PNC), so the account keeps its $25,000 compensating balance at every month end.

Every transfer is one journal entry with a bank transaction on each side (same reference). The
accounts' opening balances and the note's opening principal come in through a second ``OPENING``
entry (plug to retained earnings), which is what ``scale.derive_bank_balances`` starts from. The
new entries are numbered after the period's existing general-journal entries (``GJ2503-0016``…).
``bank_account_products`` describes every account's deposit product for the bank portals (account
type, Plaid subtype, positive-pay enrolment).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_DOWN, Decimal

from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, rate
from cfab.seeds.ledger import add_entry
from cfab.seeds.reference import BANKS, TREASURY_ACCOUNTS, routing_number
from cfab.seeds.timeline import month_end, period_of
from cfab.seeds.util import round_to

Z = Decimal("0.00")
OPER, MM, LOAN = "BA-OPER", "BA-WFMM", "BA-PNCEQ"
OPERATING_FLOOR = Decimal("2500000.00")  # operating keeps at least this through a sweep
SWEEP_STEP = Decimal(100000)
MIN_SWEEP = Decimal("250000.00")
LOAN_ACCOUNT_FLOOR = Decimal("25000.00")  # the PNC account's compensating balance
# Business money-market rate (APY, %) by effective date: it follows the 2025 Fed cuts.
MM_RATES: tuple[tuple[date, str], ...] = (
    (date(2000, 1, 1), "3.5500"),
    (date(2025, 9, 18), "3.3000"),
    (date(2025, 10, 30), "3.0500"),
    (date(2025, 12, 11), "2.8000"),
)
# bank_account_id -> (account type, product / official name, Plaid subtype, positive pay service)
PRODUCTS: dict[str, tuple[str, str, str, str]] = {
    "BA-OPER": ("DDA", "OPERATING BUSINESS CHECKING", "checking", "Check + Payee"),
    "BA-PAYR": ("DDA", "PAYROLL BUSINESS CHECKING", "checking", "Check + Payee"),
    MM: ("MMDA", "BUSINESS MARKET RATE SAVINGS", "money market", "None"),
    LOAN: ("DDA", "ANALYSIS BUSINESS CHECKING", "checking", "None"),
}


def _business_day(d: date, step: int) -> date:
    """``d`` itself when it is a weekday, else the nearest weekday in direction ``step`` (+1/-1)."""
    while d.weekday() >= 5:
        d += timedelta(days=step)
    return d


def _minus_business_days(d: date, n: int) -> date:
    for _ in range(n):
        d = _business_day(d - timedelta(days=1), -1)
    return d


def mm_rate(d: date) -> Decimal:
    return Decimal([r for since, r in MM_RATES if since <= d][-1])


@dataclass
class GjEntry:
    entry_date: date
    description: str
    source_ref: str
    lines: list[tuple[str, Decimal]]  # account, signed amount (+ debit, - credit)
    bank: list[tuple[str, Decimal, str, str]] = field(default_factory=list)  # account id, signed, BAI, text


def build_accounts(ctx: Ctx) -> None:
    """The two treasury accounts (own RNG stream per account) and every account's product."""
    for acct, bank, name, gl, width in TREASURY_ACCOUNTS:
        r = ctx.rng("bank-account", acct)
        prefix = BANKS[bank].routing_prefix
        ctx.add(
            "bank_accounts",
            bank_account_id=acct,
            bank=bank,
            account_name=name,
            account_number=f"{r.randint(10**9, 10**10 - 1)}{r.randint(10, 99)}",
            routing_number=routing_number(prefix + f"{r.randint(0, 9999):04d}"),
            gl_account=gl,
            payee_name_width=width,
        )
    for a in ctx.rows("bank_accounts"):
        kind, official, subtype, positive_pay = PRODUCTS[a["bank_account_id"]]
        ctx.add(
            "bank_account_products",
            bank_account_id=a["bank_account_id"],
            account_type=kind,
            official_name=official,
            plaid_subtype=subtype,
            positive_pay=positive_pay,
            interest_bearing=kind == "MMDA",
        )


def build_treasury(ctx: Ctx) -> None:
    """Opening balances, sweeps, interest, loan funding and loan payments: entries and bank activity."""
    tl, clock = ctx.tl, ctx.clock
    accts = {a["bank_account_id"]: a for a in ctx.rows("bank_accounts")}
    last4 = {k: a["account_number"][-4:] for k, a in accts.items()}
    r = ctx.rng("treasury")
    reserve = round_to(Decimal(r.randint(180, 260)) * 10000, 10000)
    principal = round_to(Decimal(r.randint(120, 170)) * 10000, 10000)
    note_rate = rate(r.choice(("6.4500", "6.8500", "7.1000")))
    months_left = r.randint(40, 54)
    note = f"{r.randint(10**9, 10**10 - 1):010d}"
    i = note_rate / 1200
    payment = money(principal * i / (1 - (1 + i) ** -months_left))

    entries: list[GjEntry] = []
    opening = [("1020", reserve), ("1030", LOAN_ACCOUNT_FLOOR), ("2510", -principal)]
    opening.append(("3100", -(reserve + LOAN_ACCOUNT_FLOOR - principal)))
    entries.append(
        GjEntry(
            tl.window_start, f"Opening balances {period_of(tl.window_start)} - treasury accounts", "OPENING", opening
        )
    )

    # operating's end-of-day bank balance (its opening plus every posted item)
    opening_je = {e["je_id"] for e in ctx.rows("journal_entries") if e["source_ref"] == "OPENING"}
    oper_open = sum(
        (
            ln["debit"] - ln["credit"]
            for ln in ctx.rows("journal_lines")
            if ln["je_id"] in opening_je and ln["account"] == accts[OPER]["gl_account"]
        ),
        Z,
    )
    daily: dict[date, Decimal] = defaultdict(Decimal)
    for t in ctx.rows("bank_transactions"):
        if t["bank_account_id"] == OPER:
            daily[t["posted_date"]] += t["amount"]

    def oper_balance(upto: date) -> Decimal:
        return oper_open + sum((a for d, a in daily.items() if d <= upto), Z)

    mm_flows: dict[date, Decimal] = defaultdict(Decimal)
    mm_flows[tl.window_start] += reserve
    loan_balance = principal
    for m in tl.months:
        period = period_of(m)
        ref = f"TREASURY:{period}"
        # surplus sweep: out on the first business day from the 8th, back on the last one by the 24th
        out_day = _business_day(m + timedelta(days=7), 1)
        back_day = _business_day(m + timedelta(days=23), -1)
        if back_day <= clock:
            low = min(oper_balance(out_day + timedelta(days=k)) for k in range((back_day - out_day).days))
            amount = money(((low - OPERATING_FLOOR) / SWEEP_STEP).to_integral_value(rounding=ROUND_DOWN) * SWEEP_STEP)
            if amount >= MIN_SWEEP:
                entries.append(
                    GjEntry(
                        out_day,
                        f"Sweep surplus operating cash to money market - {m:%b %Y}",
                        ref,
                        [("1020", amount), ("1000", -amount)],
                        [
                            (OPER, -amount, "495", f"WIRE TRF TO WELLS FARGO MMDA X{last4[MM]}"),
                            (MM, amount, "195", f"WIRE TRF FROM BOFA OPERATING X{last4[OPER]}"),
                        ],
                    )
                )
                entries.append(
                    GjEntry(
                        back_day,
                        f"Return money market sweep to operating - {m:%b %Y}",
                        ref,
                        [("1000", amount), ("1020", -amount)],
                        [
                            (MM, -amount, "495", f"WIRE TRF TO BOFA OPERATING X{last4[OPER]}"),
                            (OPER, amount, "195", f"WIRE TRF FROM WELLS FARGO MMDA X{last4[MM]}"),
                        ],
                    )
                )
                mm_flows[out_day] += amount
                mm_flows[back_day] -= amount
        # equipment note: funded from the money market two business days before the 15th
        pay_day = _business_day(m + timedelta(days=14), 1)
        fund_day = _minus_business_days(pay_day, 2)
        if fund_day <= clock:
            entries.append(
                GjEntry(
                    fund_day,
                    f"Fund equipment loan payment from money market - {m:%b %Y}",
                    ref,
                    [("1030", payment), ("1020", -payment)],
                    [
                        (MM, -payment, "495", f"WIRE TRF TO PNC BANK X{last4[LOAN]}"),
                        (LOAN, payment, "195", f"WIRE TRF FROM WELLS FARGO MMDA X{last4[MM]}"),
                    ],
                )
            )
            mm_flows[fund_day] -= payment
        if pay_day <= clock:
            interest = money(loan_balance * i)
            loan_balance -= payment - interest
            entries.append(
                GjEntry(
                    pay_day,
                    f"PNC equipment note {note} payment - {m:%b %Y}",
                    ref,
                    [("2510", payment - interest), ("6910", interest), ("1030", -payment)],
                    [(LOAN, -payment, "481", f"LOAN PAYMENT NOTE {note}")],
                )
            )
        # money-market interest: accrued daily on the closing balance, credited at month end
        end = month_end(m)
        if end <= clock:
            balance = sum((a for d, a in mm_flows.items() if d < m), Z)
            accrued = Decimal(0)
            day = m
            while day <= end:
                balance += mm_flows.get(day, Z)
                accrued += balance * mm_rate(day) / 100 / 365
                day += timedelta(days=1)
            credit = money(accrued)
            if credit > 0:
                entries.append(
                    GjEntry(
                        end,
                        f"Money market interest - {m:%b %Y}",
                        ref,
                        [("1020", credit), ("4110", -credit)],
                        [(MM, credit, "354", "INTEREST PAYMENT")],
                    )
                )
                mm_flows[end] += credit
    post_gj(ctx, entries)
    ctx.notes["treasury"] = {
        "reserve": reserve,
        "principal": principal,
        "note": note,
        "rate": note_rate,
        "payment": payment,
        "loan_balance": loan_balance,
    }


def post_gj(ctx: Ctx, entries: list[GjEntry]) -> None:
    """Journal entries, lines and bank transactions, numbered after the period's GJ entries."""
    seq: dict[str, int] = defaultdict(int)
    for row in ctx.rows("journal_entries"):
        if row["journal"] == "GJ":
            seq[row["period"]] = max(seq[row["period"]], int(row["je_number"].rsplit("-", 1)[1]))
    for e in sorted(entries, key=lambda x: (x.entry_date, x.description)):
        if sum(a for _acct, a in e.lines) != 0:
            raise RuntimeError(f"unbalanced treasury entry: {e.description}")
        period = period_of(e.entry_date)
        seq[period] += 1
        number = f"GJ{e.entry_date:%y%m}-{seq[period]:04d}"
        lines = [(acct, None, None, None, max(a, Z), max(-a, Z), None) for acct, a in e.lines if a]
        add_entry(ctx, "GJ", number, e.entry_date, e.description, e.source_ref, lines, e.bank)
