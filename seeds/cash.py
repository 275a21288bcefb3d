"""Cash: bank accounts, the issued-check register (weekly AP check runs on the operating account,
live payroll checks on the payroll account), check applications, the clock's positive-pay
exception file, and lien waivers for paid subcontractor invoices.

T_positive_pay: the exception file holds exactly one payee truncated to the bank's field width
(pay it), one altered amount, one check number never issued and one duplicate presentment of a
cleared check (return those three).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds import names
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import stable_id
from cfab.seeds.reference import BANK_ACCOUNTS, BANKS, routing_number
from cfab.seeds.timeline import THURSDAY, next_weekday_on_or_after

OPER, PAYR = "BA-OPER", "BA-PAYR"


def build_bank_accounts(ctx: Ctx) -> None:
    r = ctx.rng("bank-accounts")
    for acct, bank, name, gl, width, _start in BANK_ACCOUNTS:
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


def _clears(ctx: Ctx, key: str, issued: date, lo: int = 3, hi: int = 14) -> date | None:
    cleared = issued + timedelta(days=lo + ctx.draw("clear", key) % (hi - lo + 1))
    return cleared if cleared <= ctx.clock else None


def build_checks(ctx: Ctx) -> None:
    tl = ctx.tl
    numbers = {acct: start for acct, _b, _n, _g, _w, start in BANK_ACCOUNTS}
    legal = {v["vendor_key"]: v["legal_name"] for v in ctx.rows("vendors")}
    open_items = sorted(
        (inv for inv in ctx.invoices.values() if inv["erp_status"] == "posted"),
        key=lambda i: (i["due_date"], i["invoice_id"]),
    )
    voids = 0
    run = next_weekday_on_or_after(tl.window_start + timedelta(days=14), THURSDAY)
    while run <= tl.clock:
        due: dict[str, list[dict]] = defaultdict(list)
        for inv in open_items:
            if (
                inv["paid_amount"] == 0
                and inv["due_date"] <= run + timedelta(days=3)
                and inv["invoice_date"] <= run - timedelta(days=5)
            ):
                due[inv["vendor_key"]].append(inv)
        for vendor in sorted(due):
            invs = due[vendor]
            total = sum((i["net_amount"] for i in invs), Decimal("0.00"))
            if total <= 0:
                continue
            if voids < 2 and run.month in (4, 9) and total > 5000:  # a spoiled check, voided and reissued
                voids += 1
                _check(ctx, OPER, numbers, run, vendor, legal[vendor], total, "void")
            check_id = _check(ctx, OPER, numbers, run, vendor, legal[vendor], total, None)
            for inv in invs:
                inv["paid_amount"] = inv["net_amount"]
                ctx.add("check_applications", check_id=check_id, invoice_id=inv["invoice_id"], amount=inv["net_amount"])
        run += timedelta(days=7)
    _payroll_checks(ctx, numbers)


def _check(
    ctx: Ctx,
    acct: str,
    numbers: dict[str, int],
    issued: date,
    vendor: str | None,
    payee: str,
    amount: Decimal,
    status: str | None,
) -> str:
    n = numbers[acct]
    numbers[acct] += 1
    check_id = stable_id("check", acct, n)
    cleared = None if status == "void" else _clears(ctx, check_id, issued)
    ctx.add(
        "checks",
        check_id=check_id,
        bank_account_id=acct,
        check_number=n,
        issue_date=issued,
        payee_vendor_key=vendor,
        payee_name=payee,
        amount=amount,
        status=status or ("cleared" if cleared else "issued"),
        cleared_date=cleared,
    )
    return check_id


def _payroll_checks(ctx: Ctx, numbers: dict[str, int]) -> None:
    """One field employee without direct deposit gets a live check each payday."""
    emps = {e["employee_id"]: e for e in ctx.rows("employees")}
    chosen = sorted(ctx.rng("live-checks").sample(sorted(e for e, x in emps.items() if x["status"] == "active"), 1))
    batches = {b["batch_id"]: b for b in ctx.rows("payroll_batches") if b["status"] == "released"}
    net: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for e in ctx.rows("payroll_earnings"):
        if e["employee_id"] in chosen and e["batch_id"] in batches:
            net[(e["batch_id"], e["employee_id"])] += e["net_pay"]
    live: dict[tuple[str, str], str] = {}
    for (batch, emp), amount in sorted(net.items(), key=lambda kv: (batches[kv[0][0]]["check_date"], kv[0][1])):
        who = emps[emp]
        check_id = _check(
            ctx,
            PAYR,
            numbers,
            batches[batch]["check_date"],
            None,
            f"{who['first_name']} {who['last_name']}",
            amount,
            None,
        )
        live[(batch, emp)] = check_id
    ctx.notes["payroll_live_checks"] = live


def build_positive_pay(ctx: Ctx) -> None:
    clock = ctx.clock
    r = ctx.rng("positive-pay")
    width = next(a["payee_name_width"] for a in ctx.rows("bank_accounts") if a["bank_account_id"] == OPER)
    oper = sorted(
        (c for c in ctx.rows("checks") if c["bank_account_id"] == OPER and c["status"] != "void"),
        key=lambda c: c["check_number"],
    )

    def pick(preferred: Callable[[dict], bool], fallback: Callable[[dict], bool]) -> dict:
        """A recent outstanding check if there is one; else the most recent that fits at all."""
        for ok, days in ((preferred, 21), (fallback, 35), (fallback, 400)):
            found = [c for c in oper if ok(c) and c["issue_date"] >= clock - timedelta(days=days)]
            if found:
                return r.choice(found)
        raise RuntimeError("positive pay: no candidate checks for the exception file")

    def long_name(c: dict) -> bool:
        return len(c["payee_name"]) > width + 2

    def short_name(c: dict) -> bool:
        return len(c["payee_name"]) <= width

    trunc = pick(lambda c: long_name(c) and c["status"] == "issued", long_name)
    altered = pick(lambda c: short_name(c) and c["status"] == "issued", short_name)
    for presented in (trunc, altered):  # being presented today: not cleared yet
        presented["status"], presented["cleared_date"] = "issued", None
    cleared = [c for c in oper if c["status"] == "cleared" and short_name(c)]
    recent_cleared = [c for c in cleared if c["cleared_date"] >= clock - timedelta(days=30)]
    if not cleared:
        raise RuntimeError("positive pay: no cleared check to present twice")
    dup = r.choice(recent_cleared or cleared)
    unknown = max(c["check_number"] for c in oper) + r.randint(9, 40)
    first, last = names.person(r)
    items = [
        (trunc, trunc["amount"], trunc["payee_name"][:width].rstrip(), "payee_mismatch"),
        (
            altered,
            altered["amount"] + Decimal(r.choice((3000, 5000, 7000, 9000))),
            altered["payee_name"],
            "amount_mismatch",
        ),
        (None, Decimal(r.randint(180, 960)) * 5 + Decimal("0.00"), f"{first} {last}", "no_issue_record"),
        (dup, dup["amount"], dup["payee_name"], "duplicate_presentment"),
    ]
    for check, amount, payee, reason in items:
        number = check["check_number"] if check else unknown
        ctx.add(
            "positive_pay_exceptions",
            exception_id=stable_id("positive_pay", OPER, clock.isoformat(), number, reason),
            bank_account_id=OPER,
            presented_date=clock,
            check_number=number,
            presented_amount=amount,
            presented_payee=payee,
            exception_reason=reason,
            decision_due=clock,
        )
        key = f"{OPER}|{number}"
        if reason == "payee_mismatch":
            assert check is not None  # the truncated payee is on an issued check
            ctx.diverge(
                "payee_truncation",
                key,
                reason=f"check {number} payee {check['payee_name']!r} is presented "
                f"as {payee!r}: the bank's payee field is {width} characters",
            )
        else:
            what = {
                "amount_mismatch": f"presented for {amount}, issued for {check['amount'] if check else None}",
                "no_issue_record": "no check with this number was ever issued",
                "duplicate_presentment": f"already cleared on {check['cleared_date'] if check else None}",
            }[reason]
            ctx.diverge("presented_item_mismatch", key, reason=f"check {number}: {what}")
    ctx.notes["positive_pay"] = {
        "truncated": trunc["check_number"],
        "altered": altered["check_number"],
        "unknown": unknown,
        "duplicate": dup["check_number"],
    }


def build_lien_waivers(ctx: Ctx) -> None:
    paid_by: dict[str, dict] = {}
    checks = {c["check_id"]: c for c in ctx.rows("checks")}
    for app in ctx.rows("check_applications"):
        paid_by[app["invoice_id"]] = checks[app["check_id"]]
    signers: dict[str, str] = {}
    for inv in sorted(ctx.invoices.values(), key=lambda i: i["invoice_id"]):
        if not (inv["commitment_id"] or "").startswith("SC-") or inv["pm_status"] != "approved":
            continue
        vendor = inv["vendor_key"]
        if vendor not in signers:
            first, last = names.person(ctx.rng("signer", vendor))
            signers[vendor] = f"{first} {last}"
        check = paid_by.get(inv["invoice_id"])
        through = inv["period_end"] or inv["invoice_date"]
        if check is not None:
            kind, amount, status = "unconditional_progress", inv["paid_amount"], "approved"
            signed = check["cleared_date"] or check["issue_date"] + timedelta(days=2)
            signed = min(signed, ctx.clock)
        else:
            kind, amount = "conditional_progress", inv["net_amount"]
            late = ctx.rng("waiver", inv["invoice_id"]).random() < 0.3
            status, signed = (
                ("requested", None) if late else ("received", min(inv["invoice_date"] + timedelta(days=1), ctx.clock))
            )
        waiver_id = stable_id("lien_waiver", inv["invoice_id"], kind)
        ctx.add(
            "lien_waivers",
            waiver_id=waiver_id,
            vendor_key=vendor,
            job_number=inv["job_number"],
            invoice_id=inv["invoice_id"],
            waiver_type=kind,
            amount=amount,
            through_date=through,
            status=status,
            signer=signers[vendor] if signed else None,
            signed_date=signed,
            document_id=stable_id("lien_waiver", waiver_id) if signed else None,
        )
