"""Plants for T_payment_run: what keeps a posted invoice out of a job's payment run, and what
changes the amount a run pays.

A job release (payments policy §5-6) pays one job's posted AP due by a cutoff in the week's Corpay
run: each invoice's open balance (net of retainage, less what was paid), a vendor's credit memos
netted in its payment. The book has the run's natural exclusions already: subcontractor pay
requests whose conditional waiver is only requested (about three in ten), ERP-only pay requests
with no waiver at all, retainage-release billings, invoices due after the cutoff. On up to six
active jobs no other family anchors on, each with three or more posted invoices due by the cutoff
from two or more vendors, this plant adds one situation:

- ``waivers``: a subcontractor's conditional waiver received for less than its pay request
  (``short``: it does not cover the payment) and another pay request's waiver missing (a waiver
  only requested, or a received one taken back to requested);
- ``credit``: a back-charge credit memo to a subcontractor whose pay request is payable (site
  cleanup after its work, done by a service vendor whose invoice is on the job too: the cost and
  the credit cancel, so the job's cost to date is unchanged), plus a disputed invoice;
- ``hold``: a vendor on payment hold in the ERP (``book.vendor_payment_holds``), plus a supplier
  invoice partially paid earlier this month (a manual Corpay check funded the same day by a
  line-of-credit draw, so every bank and GL cash balance the book reports is unchanged), or plus
  a disputed invoice;
- ``pending``: a vendor whose Corpay enrollment is pending (``book.payment_enrollment_pending``: a
  new bank account Corpay has not verified; only the policy says not to pay it), alone or with a
  partially paid invoice.

A dispute is ``book.ap_invoice_disputes`` (each ERP shows the invoice held from payment). A held or
pending vendor has invoices due in at most three jobs' runs and in no other planted job's. Vendors
that other families key on (anchors, expired certificates, lookalikes, bank-change requests, card
and B-notice payees) are never held, pending or back-charged. The situations are drawn in order
(the two pay requests first, then the pending enrollment, the twist only the policy states); of a
few draws the one hosting the most of the first four is planted. Everything comes from the
``payment-run`` stream, appended after every other module's rows; the new invoices sort after
every earlier invoice id (``u`` prefix), the new entries are numbered after the period's own.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, stable_id
from cfab.seeds.docmeta import add_invoice_pdf
from cfab.seeds.ledger import check_clears, post_entry
from cfab.seeds.reference import CODES, COST_TYPE_ACCOUNT
from cfab.seeds.treasury import GjEntry, post_gj

STREAM = "payment-run"
OPER = "BA-OPER"
CLEANUP_CODE = "01-740"  # Cleaning and waste management
CHECK_FIRST = 70001  # Corpay's own check stock on the operating account (checks it prints on demand)
CLEANUP_TRADES = ("Waste Hauling", "Janitorial Services", "Portable Sanitation")
MIN_DOCS = 3
MAX_SPREAD = 3  # a held or pending vendor has invoices due in at most this many jobs' runs
ASSIGN_DRAWS = 16
# the situations planted, in order (the scarcest first: two pay requests on one job)
SITUATIONS: tuple[tuple[str, ...], ...] = (
    ("short", "missing"),
    ("pending",),  # the twist only the policy states: planted before the vendors thin out
    ("credit", "dispute"),
    ("partial", "hold"),
    ("dispute", "hold"),
    ("partial", "pending"),
)
HOLDS = (
    ("MGMT", "Controller's hold: open quality claim on installed work"),
    ("W9", "W-9 expired; a new W-9 has been requested"),
    ("MGMT", "Hold per CFO: audit of billed quantities"),
)
DISPUTES = {
    "subcontractor": (
        "work billed on the schedule of values not yet installed per the field walk",
        "change-order work billed before the change order was executed",
    ),
    "other": (
        "quantities billed exceed the signed delivery tickets",
        "unit prices above the purchase order / quoted prices",
        "hours billed exceed the signed tickets",
    ),
}


def run_dates(clock: date) -> tuple[date, date]:
    """A run's payment date (the first Thursday after the clock: AP's weekly run day, payments
    policy §1) and a job release's cutoff (30 days after it)."""
    pay = clock + timedelta(days=(3 - clock.weekday()) % 7 or 7)
    return pay, pay + timedelta(days=30)


@dataclass
class _Doc:
    inv: dict[str, Any]
    vendor_type: str
    waiver: dict[str, Any] | None  # the received / approved conditional waiver of the pay request
    requested: dict[str, Any] | None  # a conditional waiver only requested

    @property
    def balance(self) -> Decimal:
        return self.inv["net_amount"] - self.inv["paid_amount"]

    @property
    def payreq(self) -> bool:
        return self.vendor_type == "subcontractor"

    @property
    def release(self) -> bool:
        return self.inv["gross_amount"] == 0 and self.inv["retainage_amount"] < 0

    @property
    def payable(self) -> bool:
        """Payable before any plant: not a release; a pay request with its waiver for the balance."""
        if self.release:
            return False
        return not self.payreq or (self.waiver is not None and self.waiver["amount"] >= self.balance)


@dataclass
class _Plan:
    job: str
    twists: tuple[str, ...]
    docs: dict[str, _Doc] = field(default_factory=dict)  # twist -> the document it acts on
    vendors: dict[str, str] = field(default_factory=dict)  # hold / pending -> vendor


def _protected_vendors(ctx: Ctx) -> set[str]:
    out = set(anchors.ANCHOR_VENDORS) | set(anchors.EXPIRED_COI_VENDORS)
    for key, plan in ctx.vendors.items():
        if plan.lookalike_of or plan.role in ("lookalike", "split"):
            out |= {key, plan.lookalike_of or key}
    for table in ("vendor_bank_change_requests", "card_payments", "tin_notices"):
        out |= {row["vendor_key"] for row in ctx.rows(table)}
    return out


def _scope(ctx: Ctx, cutoff: date) -> dict[str, list[_Doc]]:
    """Every active job's posted invoices with an open balance due by the cutoff."""
    kinds = {v["vendor_key"]: v["vendor_type"] for v in ctx.rows("vendors")}
    received: dict[str, dict] = {}
    requested: dict[str, dict] = {}
    for w in ctx.rows("lien_waivers"):
        if w["waiver_type"] == "conditional_progress" and w["invoice_id"]:
            if w["status"] in ("received", "approved"):
                received[w["invoice_id"]] = w
            elif w["status"] == "requested":
                requested[w["invoice_id"]] = w
    active = {j["job_number"] for j in ctx.rows("jobs") if j["status"] == "active"}
    out: dict[str, list[_Doc]] = defaultdict(list)
    for inv in sorted(ctx.invoices.values(), key=lambda i: (i["job_number"], i["invoice_id"])):
        if (
            inv["job_number"] in active
            and inv["erp_status"] == "posted"
            and inv["paid_amount"] < inv["net_amount"]
            and inv["due_date"] <= cutoff
        ):
            iid = inv["invoice_id"]
            out[inv["job_number"]].append(_Doc(inv, kinds[inv["vendor_key"]], received.get(iid), requested.get(iid)))
    return out


def build_payment_run(ctx: Ctx) -> None:
    _pay, cutoff = run_dates(ctx.clock)
    scope = _scope(ctx, cutoff)
    protected = _protected_vendors(ctx)
    spread: dict[str, set[str]] = defaultdict(set)  # vendor -> the jobs it has in-scope invoices on
    for job, docs in scope.items():
        for d in docs:
            spread[d.inv["vendor_key"]].add(job)
    excluded = anchors.anchored_jobs()
    candidates = sorted(
        j
        for j, docs in scope.items()
        if j not in excluded and len(docs) >= MIN_DOCS and len({d.inv["vendor_key"] for d in docs}) >= 2
    )
    cleanup = _cleanup_vendors(ctx, protected)

    def assign(r: random.Random) -> list[_Plan]:
        """One draw of a job for each situation, in order, among the jobs that can still host it."""
        taken_jobs: set[str] = set()
        taken_vendors: set[str] = {v["vendor_key"] for v in cleanup}  # never held or pending themselves
        plans: list[_Plan] = []
        for twists in SITUATIONS:
            if "credit" in twists and not cleanup:
                continue
            fits = [
                p
                for j in candidates
                if j not in taken_jobs
                and (p := _plan(ctx, j, twists, scope[j], spread, protected | taken_vendors, taken_jobs)) is not None
            ]
            if not fits:
                continue
            plan = r.choice(fits)
            taken_jobs.add(plan.job)
            taken_vendors |= set(plan.vendors.values())
            if "credit" in plan.docs:
                taken_vendors.add(plan.docs["credit"].inv["vendor_key"])
            plans.append(plan)
        return plans

    def score(plans: list[_Plan]) -> tuple[int, int]:
        """The public situations (the first four) hosted first, then how many situations in all."""
        public = {SITUATIONS.index(p.twists) for p in plans if SITUATIONS.index(p.twists) < 4}
        return len(public), len(plans)

    best: list[_Plan] = []
    for attempt in range(ASSIGN_DRAWS):  # a few draws, so that one unlucky pick does not crowd a situation out
        plans = assign(ctx.rng(STREAM, "assign", attempt))
        if score(plans) > score(best):
            best = plans
        if len(best) == len(SITUATIONS):
            break
    for plan in best:
        _apply(ctx, ctx.rng(STREAM, plan.job), plan, cleanup)


def _plan(
    ctx: Ctx,
    job: str,
    twists: tuple[str, ...],
    docs: list[_Doc],
    spread: dict[str, set[str]],
    unfit: set[str],
    planted: set[str],
) -> _Plan | None:
    """Which documents and vendors carry ``twists`` on ``job``, or None when the job cannot host them
    (a held or pending vendor never reaches another planted job's run)."""
    plan = _Plan(job, twists)
    busy: set[str] = set()  # vendors already carrying a twist on this job
    docs = sorted(docs, key=lambda d: d.inv["vendor_key"] in unfit)  # vendors no other family keys on first

    def free(d: _Doc) -> bool:
        return d.inv["vendor_key"] not in busy

    month_start = ctx.clock.replace(day=1)
    for twist in twists:
        pick: _Doc | None = None
        if twist == "short":
            pick = next((d for d in docs if d.payreq and d.payable and d.balance >= 2000 and free(d)), None)
        elif twist == "credit":  # a new document of the vendor's: never one another family keys on
            pick = next(
                (
                    d
                    for d in docs
                    if d.payreq and d.payable and d.balance >= 2000 and free(d) and d.inv["vendor_key"] not in unfit
                ),
                None,
            )
        elif twist == "missing":  # a waiver only requested, or none at all, else a received one taken back
            pool = [d for d in docs if d.payreq and not d.release and free(d)]
            pick = next((d for d in pool if not d.waiver), None) or next((d for d in pool if d.waiver), None)
        elif twist == "dispute":
            pick = next((d for d in docs if d.payable and d.balance > 0 and free(d)), None)
        elif twist == "partial":
            pick = next(
                (
                    d
                    for d in docs
                    if not d.payreq
                    and d.inv["paid_amount"] == 0
                    and d.balance >= 1000
                    and month_start <= d.inv["invoice_date"] <= ctx.clock - timedelta(days=8)
                    and free(d)
                ),
                None,
            )
        elif twist in ("hold", "pending"):  # vendor-wide: the vendor on fewest other jobs' runs
            own = sorted(
                {d.inv["vendor_key"] for d in docs if free(d) and d.payable and d.inv["vendor_key"] not in unfit},
                key=lambda v: (len(spread[v]), v),
            )
            vendor = next((v for v in own if len(spread[v]) <= MAX_SPREAD and not spread[v] & planted), None)
            if vendor is None:
                return None
            plan.vendors[twist] = vendor
            busy.add(vendor)
            continue
        if pick is None:
            return None
        plan.docs[twist] = pick
        busy.add(pick.inv["vendor_key"])
    left = {d.inv["vendor_key"] for d in docs if d.payable} - busy
    return plan if left or "credit" in twists else None


def _cleanup_vendors(ctx: Ctx, unfit: set[str]) -> list[dict[str, Any]]:
    return [
        v
        for v in sorted(ctx.rows("vendors"), key=lambda v: v["vendor_key"])
        if v["vendor_type"] == "service" and v["trade"] in CLEANUP_TRADES and v["vendor_key"] not in unfit
    ]


def _apply(ctx: Ctx, r: random.Random, plan: _Plan, cleanup: list[dict[str, Any]]) -> None:
    clock = ctx.clock
    for twist in plan.twists:
        if twist == "short":
            w = plan.docs[twist].waiver
            assert w is not None
            w["amount"] = money(plan.docs[twist].balance * Decimal(r.randint(55, 90)) / 100)
        elif twist == "missing":
            _unsign(ctx, plan.docs[twist])
        elif twist == "dispute":
            d = plan.docs[twist]
            reasons = DISPUTES["subcontractor" if d.payreq else "other"]
            ctx.add(
                "ap_invoice_disputes",
                invoice_id=d.inv["invoice_id"],
                reason=r.choice(reasons),
                opened_date=max(d.inv["invoice_date"], clock - timedelta(days=r.randint(1, 10))),
            )
        elif twist == "hold":
            code, reason = r.choice(HOLDS)
            ctx.add(
                "vendor_payment_holds",
                vendor_key=plan.vendors[twist],
                hold_code=code,
                reason=reason,
                placed_date=clock - timedelta(days=r.randint(3, 20)),
            )
        elif twist == "pending":
            ctx.add(
                "payment_enrollment_pending",
                vendor_key=plan.vendors[twist],
                method=r.choice(("ACH", "ACH", "VirtualCard")),
                submitted_date=clock - timedelta(days=r.randint(2, 12)),
            )
        elif twist == "partial":
            _partial(ctx, r, plan.docs[twist])
        elif twist == "credit":
            _backcharge(ctx, r, plan, plan.docs[twist], r.choice(cleanup))


def _unsign(ctx: Ctx, d: _Doc) -> None:
    """The pay request's conditional waiver is not on file: only requested (its signed copy dropped)."""
    w = d.waiver
    if w is None:
        return
    dropped = w["document_id"]
    w.update(status="requested", signer=None, signed_date=None, document_id=None)
    if dropped:
        ctx.tables["documents"] = [x for x in ctx.rows("documents") if x["document_id"] != dropped]


def _entry(ctx: Ctx, journal: str, day: date, description: str, source: str, lines: list[tuple[Any, ...]]) -> None:
    """One posted entry: lines of (account, job, cost code, vendor, signed amount, memo)."""
    post_entry(
        ctx,
        journal,
        day,
        description,
        source,
        [(a, j, c, v, max(x, Decimal("0.00")), max(-x, Decimal("0.00")), m) for a, j, c, v, x, m in lines],
    )


def _partial(ctx: Ctx, r: random.Random, d: _Doc) -> None:
    """Part of the invoice paid by a manual Corpay check this month (cleared before the clock), funded
    the same day by a line-of-credit draw, so the operating account's statement balances stay put."""
    inv, clock = d.inv, ctx.clock
    paid = money(Decimal(int(d.balance * Decimal(r.randint(30, 70)) / 100)))
    busy_days = {c["issue_date"] for c in ctx.rows("checks") if c["bank_account_id"] == OPER}
    busy_days |= {x["presented_date"] for x in ctx.rows("positive_pay_exceptions")}
    first = max(inv["invoice_date"] + timedelta(days=2), clock.replace(day=1))
    days = [
        first + timedelta(days=k)
        for k in range((clock - timedelta(days=5) - first).days + 1)
        if (first + timedelta(days=k)).weekday() < 5 and first + timedelta(days=k) not in busy_days
    ]
    if not days:
        return
    issued = r.choice(days)
    cleared = issued + timedelta(days=2 if issued.weekday() < 3 else 4)
    taken = {c["check_number"] for c in ctx.rows("checks") if c["bank_account_id"] == OPER}
    taken |= {x["check_number"] for x in ctx.rows("positive_pay_exceptions")}
    number = next(n for n in range(CHECK_FIRST, CHECK_FIRST + 10_000) if n not in taken)
    legal = next(v["legal_name"] for v in ctx.rows("vendors") if v["vendor_key"] == inv["vendor_key"])
    check_id = stable_id("check", OPER, number)
    ctx.add(
        "checks",
        check_id=check_id,
        bank_account_id=OPER,
        check_number=number,
        issue_date=issued,
        payee_vendor_key=inv["vendor_key"],
        payee_name=legal,
        amount=paid,
        status="cleared",
        cleared_date=cleared,
    )
    ctx.add("check_applications", check_id=check_id, invoice_id=inv["invoice_id"], amount=paid)
    inv["paid_amount"] = paid
    post_gj(
        ctx,
        [
            GjEntry(
                issued,
                "Line of credit draw - First Midwest Bank",
                f"LOC-DRAW:{check_id}",
                [("1000", paid), ("2500", -paid)],
                [(OPER, paid, "195", "INCOMING WIRE FIRST MIDWEST BANK LOC ADVANCE")],
            )
        ],
    )
    _entry(
        ctx,
        "CD",
        issued,
        f"Check {number} - {legal}",
        check_id,
        [
            ("2000", None, None, inv["vendor_key"], paid, f"Check {number}"),
            ("1000", None, None, None, -paid, f"Check {number}"),
        ],
    )
    check_clears(ctx, OPER, number, cleared, paid)


def _invoice_number(r: random.Random, vendor: dict[str, Any], taken: set[tuple[str, str]]) -> str:
    prefix = "".join(w[0] for w in vendor["legal_name"].split()[:3] if w[0].isalnum()).upper()
    while True:
        number = f"{prefix}-{r.randint(10000, 99999)}"
        if (vendor["vendor_key"], number) not in taken:
            taken.add((vendor["vendor_key"], number))
            return number


def _backcharge(ctx: Ctx, r: random.Random, plan: _Plan, d: _Doc, service: dict[str, Any]) -> None:
    """A service vendor's cleanup invoice on the job and the same amount back-charged to the
    subcontractor as a credit memo: cost to date on the job is unchanged, the sub's payment nets it."""
    clock, job = ctx.clock, plan.job
    sub = d.inv["vendor_key"]
    amount = money(Decimal(max(250, int(d.balance * Decimal(r.randint(4, 12)) / 100) // 10 * 10)))
    start = clock.replace(day=1)
    credit_day = max(start, clock - timedelta(days=r.randint(2, 8)))
    work_day = max(start, credit_day - timedelta(days=r.randint(1, 4)))
    taken = {(i["vendor_key"], i["invoice_number"]) for i in ctx.invoices.values()}
    sub_row = next(v for v in ctx.rows("vendors") if v["vendor_key"] == sub)
    trade = sub_row["trade"]
    account = COST_TYPE_ACCOUNT[CODES[CLEANUP_CODE].cost_type]
    number = _invoice_number(r, service, taken)
    due = work_day + timedelta(
        days=int(service["payment_terms"].split()[-1]) if "Net" in service["payment_terms"] else 0
    )
    docs = [
        (service, number, work_day, due, amount, f"Site cleanup and debris removal after {trade.lower()} work"),
        (
            sub_row,
            f"BC-{job}-{r.randint(100, 999)}",
            credit_day,
            credit_day,
            -amount,
            f"Back-charge: site cleanup after {trade.lower()} work ({service['legal_name']} {number})",
        ),
    ]
    for vendor, num, day, due_date, amt, text in docs:
        inv_id = "u" + stable_id("invoice", vendor["vendor_key"], num, length=11)
        row = ctx.add(
            "ap_invoices",
            invoice_id=inv_id,
            vendor_key=vendor["vendor_key"],
            job_number=job,
            commitment_id=None,
            invoice_number=num,
            requisition_number=None,
            invoice_date=day,
            due_date=due_date,
            period_start=None,
            period_end=None,
            gross_amount=amt,
            retainage_amount=Decimal("0.00"),
            net_amount=amt,
            pm_status=None,
            erp_status="posted",
            erp_synced=False,
            paid_amount=Decimal("0.00"),
            description=text,
            document_id=stable_id("invoice", inv_id),
        )
        ctx.invoices[inv_id] = row
        line = ctx.add(
            "ap_invoice_lines",
            invoice_id=inv_id,
            line_no=1,
            commitment_line_no=None,
            cost_code=CLEANUP_CODE,
            description=text[:60],
            amount=amt,
            retainage=Decimal("0.00"),
        )
        ctx.invoice_lines[inv_id] = [line]
        add_invoice_pdf(ctx, inv_id, num, vendor["vendor_key"], vendor["legal_name"], job, day)
        _entry(
            ctx,
            "AP",
            day,
            f"AP invoice {num}",
            inv_id,
            [
                (account, job, CLEANUP_CODE, vendor["vendor_key"], amt, text[:60]),
                ("2000", job, None, vendor["vendor_key"], -amt, num),
            ],
        )
