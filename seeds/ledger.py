"""The general ledger and the bank activity behind it.

Every subledger event posts a balanced journal entry: posted AP invoices (Dr job cost by cost
type / Cr 2000 net, Cr 2010 retainage), checks (Dr 2000 / Cr cash), payroll (Dr labor and fringe
/ Cr net pay, withholdings, fringe payable) with its funding transfer and remittances, owner
billing (Dr AR and retainage receivable / Cr revenue) and receipts, monthly overhead, and a
balanced opening entry sized so cash never goes negative. Each cash entry has its bank
transaction (checks on the date they clear), so bank = GL cash + outstanding checks at any date.
Entries are numbered per journal and period in date order (``AP2501-0001``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, stable_id
from cfab.seeds.reference import CODES, COST_TYPE_ACCOUNT, TRADES
from cfab.seeds.timeline import month_end, period_of
from cfab.seeds.util import round_to

Z = Decimal("0.00")
Line = tuple[str, str | None, str | None, str | None, Decimal, Decimal, str | None]
OVERHEAD = (  # account, day of month (0 = month end), monthly base, description, BAI code
    ("6100", 1, 18500, "Office rent - 1200 Warrenville Rd", "469"),
    ("6200", 5, 42000, "Insurance premium installment", "469"),
    ("6000", 0, 185000, "Office and management salaries", "469"),
    ("6300", 20, 6200, "Utilities and telephone", "469"),
    ("6400", 12, 8000, "Accounting, audit and legal retainer", "469"),
    ("6600", 0, 450, "Account analysis service charges", "698"),
    ("6900", 0, 3100, "Line of credit interest", "469"),
)


def add_gl_accounts(ctx: Ctx, accounts: tuple[tuple[str, str, str, str, bool, bool], ...]) -> None:
    """Accounts of the chart: (account, name, type, normal balance, job cost, control) each."""
    for acct, name, kind, normal, job_cost, control in accounts:
        ctx.add(
            "gl_accounts",
            account=acct,
            name=name,
            account_type=kind,
            normal_balance=normal,
            is_job_cost=job_cost,
            is_control=control,
        )


def post_entry(
    ctx: Ctx, journal: str, day: date, description: str, source_ref: str | None, lines: list[tuple[Any, ...]]
) -> str:
    """One posted journal entry on ``day``, numbered ``<journal><yymm>-<nnnn>`` after every earlier
    entry of its journal in the period, with its lines as given: (account, job, cost code, vendor,
    debit, credit, memo). Refuses an unbalanced entry; returns its number (for the plants that add
    an entry after the ledger is built)."""
    if sum(x[4] for x in lines) != sum(x[5] for x in lines):
        raise RuntimeError(f"unbalanced entry: {description}")
    period = period_of(day)
    seq = max(
        (
            int(e["je_number"].rsplit("-", 1)[1])
            for e in ctx.rows("journal_entries")
            if e["journal"] == journal and e["period"] == period
        ),
        default=0,
    )
    number = f"{journal}{day:%y%m}-{seq + 1:04d}"
    add_entry(ctx, journal, number, day, description, source_ref, lines)
    return number


@dataclass
class Entry:
    journal: str
    entry_date: date
    description: str
    source_ref: str | None
    lines: list[Line]
    bank: list[tuple[str, Decimal, str, str]] = field(default_factory=list)  # account id, signed amount, BAI, desc


def _dc(
    account: str,
    amount: Decimal,
    job: str | None = None,
    code: str | None = None,
    vendor: str | None = None,
    memo: str | None = None,
) -> Line:
    """A debit for a positive amount, a credit for a negative one."""
    return (account, job, code, vendor, max(amount, Z), max(-amount, Z), memo)


def add_entry(
    ctx: Ctx,
    journal: str,
    number: str,
    day: date,
    description: str,
    source_ref: str | None,
    lines: list[tuple[Any, ...]],
    bank: Sequence[tuple[str, Decimal, str, str]] = (),
) -> str:
    """Add one posted entry numbered ``number``: its lines (account, job, cost code, vendor, debit,
    credit, memo; numbered from 1 in the order given), then the bank transactions it posted
    (account id, signed amount, BAI code, text; referenced by the entry's number). Returns its id."""
    je_id = stable_id("je", journal, number)
    ctx.add(
        "journal_entries",
        je_id=je_id,
        journal=journal,
        je_number=number,
        entry_date=day,
        period=period_of(day),
        description=description,
        status="posted",
        source_ref=source_ref,
        auto_reverse=False,
    )
    for n, (acct, job, code, vendor, dr, cr, memo) in enumerate(lines, start=1):
        ctx.add(
            "journal_lines",
            je_id=je_id,
            line_no=n,
            account=acct,
            job_number=job,
            cost_code=code,
            vendor_key=vendor,
            debit=dr,
            credit=cr,
            memo=memo,
        )
    for k, (acct, amount, bai, desc) in enumerate(bank):
        ctx.add(
            "bank_transactions",
            txn_id=stable_id("txn", acct, number, k),
            bank_account_id=acct,
            posted_date=day,
            amount=amount,
            bai_type_code=bai,
            description=desc,
            check_number=None,
            reference=number,
        )
    return je_id


def check_clears(ctx: Ctx, account: str, number: int, day: date, amount: Decimal) -> None:
    """Check ``number`` of ``amount`` drawn on ``account`` clears the bank on ``day``."""
    ctx.add(
        "bank_transactions",
        txn_id=stable_id("txn", account, "check", number),
        bank_account_id=account,
        posted_date=day,
        amount=-amount,
        bai_type_code="475",
        description="CHECK PAID",
        check_number=number,
        reference=None,
    )


def build_ledger(ctx: Ctx) -> None:
    entries: list[Entry] = []
    entries += _ap(ctx) + _checks(ctx) + _payroll(ctx) + _owner(ctx) + _overhead(ctx)
    entries.append(_opening(ctx, entries))
    entries = [e for e in entries if any(x[4] or x[5] for x in e.lines)]
    entries.sort(key=lambda e: (e.entry_date, e.journal, e.source_ref or "", e.description))
    seq: dict[tuple[str, str], int] = defaultdict(int)
    for e in entries:
        period = period_of(e.entry_date)
        seq[(e.journal, period)] += 1
        number = f"{e.journal}{e.entry_date:%y%m}-{seq[(e.journal, period)]:04d}"
        if sum(x[4] for x in e.lines) != sum(x[5] for x in e.lines):
            raise RuntimeError(f"unbalanced entry {number}: {e.description}")
        add_entry(
            ctx,
            e.journal,
            number,
            e.entry_date,
            e.description,
            e.source_ref,
            [x for x in e.lines if x[4] or x[5]],
            e.bank,
        )
    for c in ctx.rows("checks"):  # checks hit the bank when they clear
        if c["status"] == "cleared":
            check_clears(ctx, c["bank_account_id"], c["check_number"], c["cleared_date"], c["amount"])


def _ap(ctx: Ctx) -> list[Entry]:
    out = []
    for inv in ctx.invoices.values():
        if inv["erp_status"] != "posted":
            continue
        job, vendor = inv["job_number"], inv["vendor_key"]
        lines = [
            _dc(
                COST_TYPE_ACCOUNT[CODES[ln["cost_code"]].cost_type],
                ln["amount"],
                job,
                ln["cost_code"],
                vendor,
                ln["description"][:60],
            )
            for ln in ctx.invoice_lines[inv["invoice_id"]]
        ]
        lines.append(_dc("2000", -inv["net_amount"], job, None, vendor, inv["invoice_number"]))
        if inv["retainage_amount"]:
            lines.append(_dc("2010", -inv["retainage_amount"], job, None, vendor, inv["invoice_number"]))
        out.append(Entry("AP", inv["invoice_date"], f"AP invoice {inv['invoice_number']}", inv["invoice_id"], lines))
    return out


def _checks(ctx: Ctx) -> list[Entry]:
    out = []
    for c in ctx.rows("checks"):
        if c["status"] == "void" or c["payee_vendor_key"] is None:
            continue
        out.append(
            Entry(
                "CD",
                c["issue_date"],
                f"Check {c['check_number']} - {c['payee_name']}",
                c["check_id"],
                [
                    _dc("2000", c["amount"], None, None, c["payee_vendor_key"], f"Check {c['check_number']}"),
                    _dc("1000", -c["amount"], memo=f"Check {c['check_number']}"),
                ],
            )
        )
    return out


def _payroll(ctx: Ctx) -> list[Entry]:
    out: list[Entry] = []
    batches = {b["batch_id"]: b for b in ctx.rows("payroll_batches") if b["status"] == "released"}
    trade = {e["employee_id"]: e["trade"] for e in ctx.rows("employees")}
    live: dict[str, Decimal] = defaultdict(Decimal)
    checks = {c["check_id"]: c["amount"] for c in ctx.rows("checks")}
    for (batch, _emp), check_id in ctx.notes["payroll_live_checks"].items():
        live[batch] += checks[check_id]
    gross: dict[str, dict[tuple[str, str], Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    fringe: dict[str, dict[tuple[str, str], Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    wh: dict[str, Decimal] = defaultdict(Decimal)
    net: dict[str, Decimal] = defaultdict(Decimal)
    for e in ctx.rows("payroll_earnings"):
        b = e["batch_id"]
        if b not in batches:
            continue
        key = (e["job_number"], TRADES[trade[e["employee_id"]]][1])
        gross[b][key] += e["gross_pay"]
        fringe[b][key] += money((e["hours_regular"] + e["hours_overtime"]) * e["fringe_paid"])
        wh[b] += e["withholding"]
        net[b] += e["net_pay"]
    monthly_fringe: dict[str, Decimal] = defaultdict(Decimal)
    for b, batch in sorted(batches.items()):
        day = batch["check_date"]
        lines = [_dc("5100", amt, job, code, memo="Gross wages") for (job, code), amt in sorted(gross[b].items())]
        lines += [
            _dc("5110", amt, job, code, memo="Union fringe benefits") for (job, code), amt in sorted(fringe[b].items())
        ]
        f_total = sum(fringe[b].values(), Z)
        lines += [_dc("2200", -wh[b]), _dc("2210", -f_total), _dc("1010", -net[b], memo="Net pay")]
        out.append(
            Entry(
                "PR",
                day,
                f"Payroll {b}",
                b,
                lines,
                [("BA-PAYR", -(net[b] - live[b]), "469", "ACH PAYROLL DIRECT DEPOSIT")],
            )
        )
        funding = net[b] + wh[b]
        out.append(
            Entry(
                "GJ",
                day,
                f"Fund payroll account - {b}",
                b,
                [_dc("1010", funding), _dc("1000", -funding)],
                [
                    ("BA-OPER", -funding, "575", "ZBA TRANSFER TO PAYROLL"),
                    ("BA-PAYR", funding, "275", "ZBA TRANSFER FROM OPERATING"),
                ],
            )
        )
        out.append(
            Entry(
                "PR",
                day,
                f"Payroll tax deposit - {b}",
                b,
                [_dc("2200", wh[b]), _dc("1010", -wh[b])],
                [("BA-PAYR", -wh[b], "469", "IRS USATAXPYMT")],
            )
        )
        monthly_fringe[period_of(day)] += f_total
    for period, amount in sorted(monthly_fringe.items()):
        y, m = (int(x) for x in period.split("-"))
        day = month_end(date(y, m, 1)) + timedelta(days=15)
        if day <= ctx.clock and amount:
            out.append(
                Entry(
                    "PR",
                    day,
                    f"Union fringe remittance - {period}",
                    f"REMIT:{period}",
                    [_dc("2210", amount), _dc("1000", -amount)],
                    [("BA-OPER", -amount, "469", "ACH DEBIT UNION TRUST FUNDS")],
                )
            )
    return out


def _owner(ctx: Ctx) -> list[Entry]:
    out = []
    for b in ctx.notes.get("owner_billing", []):
        ref = f"PAYAPP:{b['job']}:{b['app']}"
        out.append(
            Entry(
                "AR",
                b["period_end"],
                f"Owner pay application #{b['app']} - job {b['job']}",
                ref,
                [
                    _dc("1200", b["due"], b["job"]),
                    _dc("1210", b["retainage"], b["job"]),
                    _dc("4000", -b["revenue"], b["job"]),
                ],
            )
        )
        if b["paid_on"]:
            out.append(
                Entry(
                    "CR",
                    b["paid_on"],
                    f"Owner payment - pay application #{b['app']} job {b['job']}",
                    ref,
                    [_dc("1000", b["due"]), _dc("1200", -b["due"], b["job"])],
                    [("BA-OPER", b["due"], "165", "ACH CREDIT OWNER PAYMENT")],
                )
            )
    return out


def _overhead(ctx: Ctx) -> list[Entry]:
    out = []
    for m in ctx.tl.months:
        r = ctx.rng("overhead", m.isoformat())
        for acct, day, base, desc, bai in OVERHEAD:
            when = month_end(m) if day == 0 else m + timedelta(days=day - 1)
            if when > ctx.clock:
                continue
            amt = round_to(Decimal(base) * Decimal(r.randint(94, 106)) / 100, 1)
            out.append(
                Entry(
                    "GJ",
                    when,
                    f"{desc} - {m:%b %Y}",
                    f"OVERHEAD:{period_of(m)}",
                    [_dc(acct, amt), _dc("1000", -amt)],
                    [("BA-OPER", -amt, bai, desc.upper()[:40])],
                )
            )
        when = month_end(m)
        if when <= ctx.clock:
            dep = round_to(Decimal(28000) * Decimal(r.randint(98, 102)) / 100, 1)
            out.append(
                Entry(
                    "GJ",
                    when,
                    f"Equipment depreciation - {m:%b %Y}",
                    f"OVERHEAD:{period_of(m)}",
                    [_dc("6500", dep), _dc("1510", -dep)],
                )
            )
    return out


def _opening(ctx: Ctx, entries: list[Entry]) -> Entry:
    """The opening balances: enough operating cash that the running balance stays above $1.5M."""
    flows: dict[date, Decimal] = defaultdict(Decimal)
    for e in entries:
        for ln in e.lines:
            if ln[0] == "1000":
                flows[e.entry_date] += ln[4] - ln[5]
    running, low = Z, Z
    for day in sorted(flows):
        running += flows[day]
        low = min(low, running)
    cash = max(round_to(-low + Decimal(1500000), 10000), Decimal("2500000.00"))
    payroll_cash = Decimal("250000.00")
    equipment, accum, prepaid, loc, stock = (
        Decimal(x) for x in ("4850000.00", "1920000.00", "310000.00", "1500000.00", "500000.00")
    )
    retained = cash + payroll_cash + equipment - accum + prepaid - loc - stock
    lines = [
        _dc("1000", cash),
        _dc("1010", payroll_cash),
        _dc("1400", prepaid),
        _dc("1500", equipment),
        _dc("1510", -accum),
        _dc("2500", -loc),
        _dc("3000", -stock),
        _dc("3100", -retained),
    ]
    return Entry("GJ", ctx.tl.window_start, f"Opening balances {period_of(ctx.tl.window_start)}", "OPENING", lines)
