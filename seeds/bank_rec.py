"""Bank reconciliation items (T_bank_rec): a month of bank activity the book does not match yet.

Run last (after ``pospay_days``), with its own RNG stream ("bank-rec", per account), so nothing an
earlier module drew or planted moves. The reconciliation month is the clock's month (the open
period: the statement runs through the clock); the Bank of America operating account is also
reconciled for the month before (a closed period). Each account gets the items of its key:

- **BA-OPER, prior month** (clean control): a deposit booked on the month's last day (Dr 1000 /
  Cr 6200, an insurance premium audit refund) that the bank credits the next business day (a
  deposit in transit at that month end), beside the AP checks still outstanding. Nothing the bank
  booked is missing from the GL, so no adjusting entry is due.
- **BA-OPER, this month**: an owner's payment deposited as a check (its existing receipt becomes a
  deposited check, BAI 301) is returned unpaid (BAI 555, NSF) with a returned-item fee and a stop
  payment fee (BAI 698) the GL does not have; a deposit booked today (Dr 1000 / Cr 4100, equipment
  rental) is in transit. Adjusting entry: Dr 1200 (the job) and Dr 6600 / Cr 1000.
- **BA-WFMM, this month**: an outgoing wire fee charged twice on the same day (the second is a bank
  error to dispute, not to book) and an account maintenance fee. Adjusting entry: Dr 6600 / Cr 1020
  for the maintenance fee and one wire fee.
- **BA-PNCEQ, this month**: a deposit of last month (Dr 1030 / Cr 4100, surplus equipment sale,
  credited by the bank that day) booked a second time today - it looks like a deposit in transit
  but will never reach the bank; a genuine deposit in transit (Dr 1030 / Cr 6400, a title fee
  refund); interest credited by the bank (BAI 354) the GL does not have. Adjusting entry: Dr 4100
  / Cr 1030 (reverse the duplicate), Dr 1030 / Cr 4110 (interest).
- **BA-PAYR, this month**: a manual check keyed in the register and GL for a transposed amount
  (Dr 2200 / Cr 1010) that the bank paid for the amount written on it; an ACH origination fee.
  Adjusting entry: Dr 2200 / Cr 1010 for the difference (the check's entry corrected, not a fee),
  Dr 6600 / Cr 1010 for the fee.

Every item is a registered divergence: ``bank_reconciling_item`` (a bank transaction the GL does
not have; field = fee | duplicate_charge | returned_item | interest), ``book_reconciling_item``
(a GL entry the bank does not have yet or never will; field = deposit_in_transit |
duplicate_deposit) and ``check_amount_mismatch``. ``seeds/invariants.sql`` (bank = GL cash +
outstanding checks) counts them, so the invariant still holds at every reported date.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds.context import Ctx
from cfab.seeds.determinism import stable_id
from cfab.seeds.ledger import check_clears
from cfab.seeds.policies import add_late_policy
from cfab.seeds.timeline import month_start
from cfab.seeds.treasury import GjEntry, post_gj

OPER, PAYR, MM, LOAN = "BA-OPER", "BA-PAYR", "BA-WFMM", "BA-PNCEQ"
OWNER_RECEIPT = "ACH CREDIT OWNER PAYMENT"  # the description ledger.py gives an owner's ACH receipt
MANUAL_CHECK_FIRST = 58001  # BA-PAYR's second manual check stock (pospay_days uses 59001+)
CENTS = Decimal("0.01")
POLICY_ID = "bank_reconciliation_policy.md"
POLICY_TITLE = "Treasury: Bank Reconciliation Policy"
POLICY_BODY = """
Every company bank account is reconciled to its GL cash account at each statement date: the
Bank of America operating account to 1000, the Chase payroll account to 1010, the Wells Fargo
reserve money market to 1020 and the PNC equipment-loan account to 1030.

## 1. The reconciliation
- **Bank side.** Start from the ending ledger balance on the bank's statement. Add deposits in
  transit (deposits recorded in the GL on or before the statement date that the bank has not
  credited yet); subtract outstanding checks (issued on or before the statement date and not
  paid by the bank by then); add back bank errors (a charge the bank posted twice is disputed
  with the bank, never booked).
- **Book side.** Start from the GL cash account's balance through the statement date. Add what
  the bank credited and we did not record (interest); subtract what the bank debited and we did
  not record (service charges and fees, deposited items returned unpaid); correct book errors.
- The adjusted bank balance must equal the adjusted book balance. A difference is not plugged.

## 2. Book errors
- A check the bank paid for the amount written on it, when the register and GL carry another
  amount (a keying error), is corrected at the check's own entry: the difference goes to the
  account the check was charged to (not to bank fees).
- A deposit recorded twice is not a deposit in transit: if a deposit booked in the month matches
  one the bank already credited earlier (same payer and purpose, same amount), reverse the
  duplicate (Dr the account it credited / Cr cash).

## 3. The adjusting entry
One journal entry per account and statement date, dated the statement date, staged as a draft
for the controller's review and never posted by the preparer:
- bank service charges and fees: Dr 6600 Bank Service Charges / Cr cash;
- interest credited by the bank: Dr cash / Cr 4110 Interest Income;
- an owner's deposited check returned unpaid (NSF): Dr 1200 Accounts Receivable - Contracts, with
  the job of the pay application it paid / Cr cash (the receivable is open again);
- book errors as in section 2.
Deposits in transit and outstanding checks are timing items: they clear on their own and are
never booked. When nothing the bank recorded is missing from the GL, no entry is made. Entries
are made only in the open period; a closed period's reconciliation is documented, not booked.
"""


def _weekday_back(d: date, floor: date) -> date:
    """``d`` or the nearest weekday before it, not before ``floor`` (``d`` itself when there is none)."""
    x = d
    while x.weekday() >= 5 and x > floor:
        x -= timedelta(days=1)
    return x if x.weekday() < 5 else d


def _next_business_day(d: date) -> date:
    d += timedelta(days=1)
    while d.weekday() >= 5:
        d += timedelta(days=1)
    return d


def _day(lo: date, hi: date, frac: float) -> date:
    return _weekday_back(lo + timedelta(days=int((hi - lo).days * frac)), lo)


def _money(r: random.Random, lo: int, hi: int) -> Decimal:
    return (Decimal(r.randint(lo, hi)) / 100).quantize(CENTS)


class _Plant:
    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        self.gl = {a["bank_account_id"]: a["gl_account"] for a in ctx.rows("bank_accounts")}
        self.entries: list[tuple[GjEntry, str, str, date | None, str]] = []  # entry, acct, field, bank date, text

    def bank(self, acct: str, key: str, posted: date, amount: Decimal, bai: str, text: str, field: str) -> None:
        """A bank transaction the GL does not have."""
        txn_id = stable_id("txn", acct, "bank-rec", key)
        self.ctx.add(
            "bank_transactions",
            txn_id=txn_id,
            bank_account_id=acct,
            posted_date=posted,
            amount=amount,
            bai_type_code=bai,
            description=text,
            check_number=None,
            reference=None,
        )
        self.ctx.diverge(
            "bank_reconciling_item",
            txn_id,
            field_name=field,
            reason=f"{acct}: {text} {amount} posted by the bank on {posted} is not in the GL ({field})",
        )

    def deposit(
        self,
        acct: str,
        key: str,
        booked: date,
        amount: Decimal,
        credit: str,
        what: str,
        field: str,
        cleared: date | None,
    ) -> None:
        """A GL deposit (Dr the account's cash GL); the bank credits it on ``cleared`` (None: never)."""
        e = GjEntry(booked, what, f"BANKREC:{acct}:{key}", [(self.gl[acct], amount), (credit, -amount)])
        self.entries.append((e, acct, field, cleared, "DEPOSIT"))

    def post(self) -> None:
        post_gj(self.ctx, [e for e, *_ in self.entries])
        numbers = {
            j["source_ref"]: j["je_number"]
            for j in self.ctx.rows("journal_entries")
            if str(j["source_ref"]).startswith("BANKREC:")
        }
        for e, acct, field, cleared, text in self.entries:
            number = numbers[e.source_ref]
            amount = e.lines[0][1]
            if cleared is not None and cleared <= self.ctx.clock:
                self.ctx.add(
                    "bank_transactions",
                    txn_id=stable_id("txn", acct, number, 0),
                    bank_account_id=acct,
                    posted_date=cleared,
                    amount=amount,
                    bai_type_code="301",
                    description=text,
                    check_number=None,
                    reference=number,
                )
            if field == "deposit_cleared":  # an ordinary deposit: the bank has it the same day
                continue
            if cleared is None:
                when = "never credited by the bank"
            elif cleared <= self.ctx.clock:
                when = f"credited by the bank on {cleared}"
            else:
                when = f"not credited by the bank by the clock (due {cleared})"
            self.ctx.diverge(
                "book_reconciling_item",
                number,
                field_name=field,
                reason=f"{acct}: {e.description} {amount} booked {e.entry_date}, {when} ({field})",
            )


def build_bank_rec(ctx: Ctx) -> None:
    clock = ctx.clock
    ms = month_start(clock)
    prior_end = ms - timedelta(days=1)
    add_late_policy(ctx, POLICY_ID, POLICY_TITLE, POLICY_BODY)
    p = _Plant(ctx)
    last4 = {a["bank_account_id"]: a["account_number"][-4:] for a in ctx.rows("bank_accounts")}

    # BA-OPER, prior month: a deposit in transit at the month end (clean control)
    r = ctx.rng("bank-rec", OPER, "prior")
    p.deposit(
        OPER,
        "prior-dit",
        prior_end,
        _money(r, 150000, 900000),
        "6200",
        f"Deposit - builders risk premium audit refund - {prior_end:%b %Y}",
        "deposit_in_transit",
        _next_business_day(prior_end),
    )

    # BA-OPER, this month: an owner's check returned unpaid, its fees, a deposit in transit
    r = ctx.rng("bank-rec", OPER)
    receipts = sorted(
        (
            t
            for t in ctx.rows("bank_transactions")
            # an owner's pay-app receipt (ledger.py), not another ACH credit (a return premium)
            if t["bank_account_id"] == OPER and t["bai_type_code"] == "165" and t["description"] == OWNER_RECEIPT
        ),
        key=lambda t: (t["posted_date"], t["txn_id"]),
    )
    inside = [t for t in receipts if ms <= t["posted_date"] < clock]
    earlier = [t for t in receipts if t["posted_date"] < ms]
    chosen = min(inside, key=lambda t: (t["amount"], t["txn_id"])) if inside else earlier[-1]
    chosen["bai_type_code"], chosen["description"] = "301", "REMOTE DEPOSIT - OWNER CHECK"
    returned = max(ms, min(clock, _next_business_day(_next_business_day(chosen["posted_date"]))))
    p.bank(OPER, "nsf", returned, -chosen["amount"], "555", "DEPOSITED ITEM RETURNED - NSF", "returned_item")
    ctx.notes["bank_rec_nsf"] = chosen["reference"]
    p.bank(OPER, "nsf-fee", returned, -Decimal("15.00"), "698", "RETURNED DEPOSIT ITEM FEE", "fee")
    p.bank(
        OPER,
        "stop-fee",
        _day(ms, clock, 0.4),
        -Decimal(r.choice((30, 35, 36))).quantize(CENTS),
        "698",
        "STOP PAYMENT FEE",
        "fee",
    )
    p.deposit(
        OPER,
        "dit",
        clock,
        _money(r, 200000, 1500000),
        "4100",
        f"Deposit - equipment rental income - {clock:%b %Y}",
        "deposit_in_transit",
        _next_business_day(clock),
    )

    # BA-WFMM: a wire fee charged twice, a maintenance fee
    r = ctx.rng("bank-rec", MM)
    wires = [
        t["posted_date"]
        for t in ctx.rows("bank_transactions")
        if t["bank_account_id"] == MM and t["bai_type_code"] == "495" and ms <= t["posted_date"] <= clock
    ]
    wire_day = min(wires) if wires else _day(ms, clock, 0.5)
    fee = Decimal(r.choice((25, 30, 35))).quantize(CENTS)
    p.bank(MM, "wire-fee", wire_day, -fee, "698", f"OUTGOING WIRE FEE X{last4[MM]}", "fee")
    p.bank(MM, "wire-fee-2", wire_day, -fee, "698", f"OUTGOING WIRE FEE X{last4[MM]}", "duplicate_charge")
    p.bank(MM, "maint", _day(ms, clock, 0.9), -_money(r, 1500, 4500), "698", "ACCOUNT MAINTENANCE FEE", "fee")

    # BA-PNCEQ: last month's deposit booked again, a real deposit in transit, unbooked interest
    r = ctx.rng("bank-rec", LOAN)
    first = _day(month_start(prior_end), prior_end, 0.4)
    amount = _money(r, 400000, 2500000)
    sale = f"Deposit - sale of surplus equipment, unit EQ-{r.randint(100, 499)}"
    p.deposit(LOAN, "sale", first, amount, "4100", sale, "deposit_cleared", first)
    p.deposit(LOAN, "sale-again", clock, amount, "4100", sale, "duplicate_deposit", None)
    p.deposit(
        LOAN,
        "dit",
        clock,
        _money(r, 20000, 90000),
        "6400",
        "Deposit - refund of equipment title fee overpayment",
        "deposit_in_transit",
        _next_business_day(clock),
    )
    p.bank(LOAN, "interest", clock, _money(r, 500, 4000), "354", "INTEREST CREDIT", "interest")
    p.post()

    # BA-PAYR: a manual check keyed for a transposed amount, an ACH origination fee
    r = ctx.rng("bank-rec", PAYR)
    while True:
        book = _money(r, 80000, 900000)
        digits = f"{int(book * 100):d}"
        i = r.randrange(max(0, len(digits) - 6), len(digits) - 3)  # two dollar digits
        if digits[i] < digits[i + 1]:
            paid = Decimal(digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :]) / 100
            break
    issued = _day(ms, clock, 0.2)
    cleared = min(clock, max(issued, _day(issued + timedelta(days=4), clock, 0.3)))
    taken = {c["check_number"] for c in ctx.rows("checks") if c["bank_account_id"] == PAYR}
    number = MANUAL_CHECK_FIRST + r.randint(0, 40)
    while number in taken:
        number += 1
    check_id = stable_id("check", PAYR, number)
    payee = "Illinois State Disbursement Unit"
    ctx.add(
        "checks",
        check_id=check_id,
        bank_account_id=PAYR,
        check_number=number,
        issue_date=issued,
        payee_vendor_key=None,
        payee_name=payee,
        amount=book,
        status="cleared",
        cleared_date=cleared,
    )
    post_gj(
        ctx,
        [
            GjEntry(
                issued,
                f"Manual check {number} - {payee} (child support remittance)",
                check_id,
                [("2200", book), ("1010", -book)],
            )
        ],
    )
    check_clears(ctx, PAYR, number, cleared, paid)
    ctx.diverge(
        "check_amount_mismatch",
        f"{PAYR}|{number}",
        reason=f"check {number} was written for {paid} and paid by the bank for {paid}; "
        f"the register and GL carry {book} (keyed with two digits transposed)",
    )
    p.bank(PAYR, "ach-fee", _day(ms, clock, 0.7), -_money(r, 1800, 6500), "698", "ACH ORIGINATION FEES", "fee")
