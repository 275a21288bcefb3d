"""Positive-pay exception files at the other three banks (T_positive_pay beyond CashPro).

``cash.build_positive_pay`` plants today's file on the Bank of America operating account. This
module, run last, plants two more presentment days (today and the previous business day, both due
for a decision today) on each of the company's other accounts: the Chase payroll account, the Wells
Fargo reserve money market and the PNC equipment-loan account. Each file is presented against a
small series of *manual checks* (their own number range per account, no vendor, no invoice
applications) that this module adds to the register:

- outstanding manual checks issued in the last three weeks, each with its journal entry on the
  issue date (Dr the account the payment settles — payroll withholdings 2200 for garnishment
  remittances from payroll, accrued liabilities 2100 from the reserve, professional fees 6400 for
  the equipment account's title and permit fees — Cr the account's cash GL). They are uncleared,
  so no bank transaction or balance moves and bank = GL cash + outstanding checks still holds;
- a stale-dated manual check (issued 190–300 days before presentment, still outstanding; its entry
  on its issue date): the policy returns an item presented more than 180 days after issue;
- a voided manual check (status void: no entry, no bank activity) that is presented anyway.

The items of each file (``FILES``): a payee cut to the bank's field width (pay), an altered amount,
a check number never issued, a second presentment of a cleared check (Chase only: a cleared live
payroll check), a stale-dated check and a voided check (return those). The Bank of America
operating account gets no further file, so its CashPro queue is exactly today's file. The entries
are general-journal entries numbered after every earlier GJ entry of their period.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds import names
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import stable_id
from cfab.seeds.treasury import GjEntry, post_gj

# account -> (first manual check number, debit account of a manual check, what the checks pay)
MANUAL: dict[str, tuple[int, str, str]] = {
    "BA-PAYR": (59001, "2200", "garnishment remittance"),
    "BA-WFMM": (2001, "2100", "accrued liability"),
    "BA-PNCEQ": (3001, "6400", "equipment title and permit fees"),
}
# (account, day) -> the file's items; "today" is the clock, "prev" the business day before it
FILES: dict[tuple[str, str], tuple[str, ...]] = {
    ("BA-PAYR", "today"): ("trunc", "altered", "dup"),
    ("BA-PAYR", "prev"): ("trunc", "stale", "unknown"),
    ("BA-WFMM", "today"): ("trunc", "trunc", "void", "unknown"),
    ("BA-WFMM", "prev"): ("trunc", "stale", "altered"),
    ("BA-PNCEQ", "today"): ("trunc", "altered"),
    ("BA-PNCEQ", "prev"): ("trunc", "void", "unknown"),
}
REASON = {
    "trunc": "payee_mismatch",
    "altered": "amount_mismatch",
    "unknown": "no_issue_record",
    "dup": "duplicate_presentment",
    "stale": "stale_dated",
    "void": "void_presented",
}
# Payees longer than every bank's payee field (30/35/40 characters), and payees that fit all.
LONG_PAYEES = (
    "Illinois Department of Employment Security",
    "Illinois State Disbursement Unit Child Support",
    "Illinois Department of Revenue Retailers Occupation",
    "Cook County Department of Transportation and Highways",
    "Illinois Secretary of State Vehicle Services Dept",
    "Illinois Workers Compensation Commission Fund",
    "Chicago Department of Buildings Permit Fees Unit",
    "Metropolitan Water Reclamation District of Chicago",
)
SHORT_PAYEES = (
    "Cook County Treasurer",
    "City of Chicago",
    "Illinois Tollway",
    "Internal Revenue Service",
    "Village of Oak Brook",
    "Illinois EPA",
    "DuPage County Clerk",
    "City of Naperville",
)


def previous_business_day(d: date) -> date:
    d -= timedelta(days=1)
    while d.weekday() >= 5:
        d -= timedelta(days=1)
    return d


def _amount(r: random.Random) -> Decimal:
    return (Decimal(r.randint(25000, 950000)) / 100).quantize(Decimal("0.01"))


def build_exception_days(ctx: Ctx) -> None:
    clock = ctx.clock
    days = {"today": clock, "prev": previous_business_day(clock)}
    accounts = {a["bank_account_id"]: a for a in ctx.rows("bank_accounts")}
    entries: list[GjEntry] = []
    for acct, (first, debit, purpose) in MANUAL.items():
        r = ctx.rng("pospay-days", acct)
        width = accounts[acct]["payee_name_width"]
        gl = accounts[acct]["gl_account"]
        long_pool, short_pool = list(LONG_PAYEES), list(SHORT_PAYEES)
        r.shuffle(long_pool)
        r.shuffle(short_pool)
        planned: list[tuple[str, str, date, dict]] = []  # (day, item kind, issue date, check fields)
        for day in ("prev", "today"):
            presented = days[day]
            for kind in FILES[(acct, day)]:
                if kind in ("unknown", "dup"):
                    planned.append((day, kind, presented, {}))
                    continue
                if kind == "stale":
                    issued = presented - timedelta(days=r.randint(190, 300))
                elif kind == "void":
                    issued = presented - timedelta(days=r.randint(8, 45))
                else:
                    issued = presented - timedelta(days=r.randint(2, 20))
                payee = long_pool.pop() if kind == "trunc" else short_pool.pop()
                planned.append((day, kind, issued, {"payee": payee, "amount": _amount(r)}))
        # the manual series, numbered in issue-date order
        number = first
        checks: dict[int, dict] = {}
        for idx, (_day, kind, issued, f) in sorted(
            ((i, p) for i, p in enumerate(planned) if p[3]), key=lambda ip: (ip[1][2], ip[0])
        ):
            check_id = stable_id("check", acct, number)
            row = ctx.add(
                "checks",
                check_id=check_id,
                bank_account_id=acct,
                check_number=number,
                issue_date=issued,
                payee_vendor_key=None,
                payee_name=f["payee"],
                amount=f["amount"],
                status="void" if kind == "void" else "issued",
                cleared_date=None,
            )
            checks[idx] = row
            if kind != "void":
                entries.append(
                    GjEntry(
                        issued,
                        f"Manual check {number} - {f['payee']} ({purpose})",
                        check_id,
                        [(debit, f["amount"]), (gl, -f["amount"])],
                    )
                )
            number += 1
        taken = {c["check_number"] for c in ctx.rows("checks") if c["bank_account_id"] == acct}
        unknown = number + r.randint(9, 40)
        cleared = sorted(
            (
                c
                for c in ctx.rows("checks")
                if c["bank_account_id"] == acct and c["status"] == "cleared" and len(c["payee_name"]) <= width
            ),
            key=lambda c: c["check_number"],
        )
        for idx, (day, kind, _issued, _f) in enumerate(planned):
            presented = days[day]
            check = checks.get(idx)
            if kind == "unknown":
                while unknown in taken:
                    unknown += 1
                num, person = unknown, names.person(r)
                taken.add(num)
                unknown += r.randint(3, 12)
                amount, payee = Decimal(r.randint(180, 960)) * 5 + Decimal("0.00"), " ".join(person)
            elif kind == "dup":
                if not cleared:
                    continue
                recent = [c for c in cleared if c["cleared_date"] >= clock - timedelta(days=45)]
                check = r.choice(recent or cleared)
                num, amount, payee = check["check_number"], check["amount"], check["payee_name"]
            else:
                assert check is not None
                num, amount, payee = check["check_number"], check["amount"], check["payee_name"]
                if kind == "trunc":
                    payee = payee[:width].rstrip()
                elif kind == "altered":
                    amount += Decimal(r.choice((3000, 5000, 7000, 9000)))
            reason = REASON[kind]
            ctx.add(
                "positive_pay_exceptions",
                exception_id=stable_id("positive_pay", acct, presented.isoformat(), num, reason),
                bank_account_id=acct,
                presented_date=presented,
                check_number=num,
                presented_amount=amount,
                presented_payee=payee,
                exception_reason=reason,
                decision_due=clock,
            )
            key = f"{acct}|{num}"
            if kind == "trunc":
                assert check is not None  # a truncated payee is on a planted manual check
                ctx.diverge(
                    "payee_truncation",
                    key,
                    reason=f"check {num} payee {check['payee_name']!r} is presented as {payee!r}: "
                    f"the bank's payee field is {width} characters",
                )
                continue
            what = {
                "altered": f"presented for {amount}, issued for {check['amount'] if check else None}",
                "unknown": "no check with this number was ever issued",
                "dup": f"already cleared on {check['cleared_date'] if check else None}",
                "stale": f"issued {check['issue_date'] if check else None}, presented {presented}: stale-dated",
                "void": "the check was voided in the register",
            }[kind]
            ctx.diverge("presented_item_mismatch", key, reason=f"check {num}: {what}", suffix=presented.isoformat())
    # the accounts now carry positive pay
    for p in ctx.rows("bank_account_products"):
        if p["bank_account_id"] in MANUAL and p["positive_pay"] == "None":
            p["positive_pay"] = "Check + Payee"
    post_gj(ctx, entries)
