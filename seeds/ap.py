"""Accounts payable: subcontractor pay requests (Procore requisitions) and purchase-order bills
against commitments, month by month from the PM's progress curve.

Older invoices are approved, synced and posted. In the clock's month the requisitions sit at every
stage — the H_procore_erp_sync jobs get approved-not-synced ones (``unsynced_invoice``), synced
ones, ones under review and drafts; some subcontractors have not billed yet, which is what the
G_sub_accrual accrual is for. Plants: the over-cap eApp on SC-1042-0 (``commitment_cap_exceeded``),
a billed-ahead commitment on the ``anchors.BILLED_AHEAD_JOBS``, the Ressio bill that does not match
its PO line (``bill_po_mismatch``) and the unentered PDF invoice JSM-88421 (``unentered_invoice``).
Non-committed invoices (services, professionals, the 1099 plants) are in ``direct_costs.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_FLOOR, Decimal

from cfab.seeds import anchors
from cfab.seeds.commitments import Commitment
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import pct_of
from cfab.seeds.timeline import month_start
from cfab.seeds.util import round_to

APPROVED_UNSYNCED, SYNCED, POSTED = "approved_unsynced", "approved_synced", "approved_synced_posted"
REVIEW, DRAFT, MISSING = "under_review", "draft", "missing"
SYNC_PATTERN = (
    APPROVED_UNSYNCED,
    APPROVED_UNSYNCED,
    SYNCED,
    REVIEW,
    DRAFT,
    MISSING,
    POSTED,
    APPROVED_UNSYNCED,
    REVIEW,
    MISSING,
    SYNCED,
)
ACCRUAL_PATTERN = (POSTED, REVIEW, MISSING, SYNCED, DRAFT, MISSING, POSTED)
OTHER_CHOICES = (SYNCED, SYNCED, POSTED, REVIEW, MISSING, MISSING)
STATUS = {  # stage -> (pm_status, erp_synced, erp_status)
    APPROVED_UNSYNCED: ("approved", False, "not_entered"),
    SYNCED: ("approved", True, "unposted"),
    POSTED: ("approved", True, "posted"),
    REVIEW: ("under_review", False, "not_entered"),
    DRAFT: ("draft", False, "not_entered"),
}


@dataclass
class Draft:
    vendor: str
    job: str
    cid: str | None
    invoice_date: date
    lines: list[tuple[int | None, str, str, Decimal, Decimal]]  # commitment line, code, desc, amount, retainage
    pm_status: str | None
    erp_status: str
    erp_synced: bool
    description: str
    period: tuple[date, date] | None = None
    requisition: int | None = None
    number: str | None = None
    plant: str | None = None
    with_document: bool = False
    due_days: int = 30
    extra: dict = field(default_factory=dict)

    @property
    def gross(self) -> Decimal:
        return sum((x[3] for x in self.lines), Decimal("0.00"))


def _default(c: Commitment, job_residential: bool) -> tuple[str | None, bool, str]:
    if c.ctype == "subcontract" or job_residential:
        return "approved", True, "posted"
    return None, False, "posted"


def commitment_drafts(ctx: Ctx, c: Commitment) -> list[Draft]:
    tl = ctx.tl
    job = ctx.jobs[c.job]
    r = ctx.rng("ap", c.cid)
    if c.cid == f"PO-{anchors.JSM_JOB}-{anchors.JSM_PO_INDEX}":
        return _jsm_drafts(ctx, c)
    out: list[Draft] = []
    billed = {ln.line_no: Decimal("0.00") for ln in c.lines}
    req = 0
    for m in tl.months:
        t = tl.period_end(m)
        if t < c.executed or (job.status == "closed" and month_start(m) > month_start(job.end)):
            continue
        final = tl.is_open(t) or (job.status == "closed" and month_start(m) == month_start(job.end))
        if c.ctype == "purchase_order" and (m.month + len(c.cid)) % 2 and not final:
            continue  # suppliers bill deliveries every other month
        lines: list[tuple[int | None, str, str, Decimal, Decimal]] = []
        for ln in c.lines:
            cum = pct_of(ln.amount, ln.pct(job, t))
            delta = cum - billed[ln.line_no]
            if delta > 0:
                lines.append((ln.line_no, ln.code, ln.description, delta, pct_of(delta, c.retainage)))
                billed[ln.line_no] = cum
        if not lines:
            continue
        req += 1
        pm, synced, erp = _default(c, job.job_type == "residential")
        if c.ctype == "subcontract":
            when = min(t - timedelta(days=r.randint(0, 5)), tl.clock)
            desc = f"Pay application #{req} - work through {t:%B %d, %Y}"
            period = (max(month_start(m), c.executed), t)
        else:
            when = min(month_start(m) + timedelta(days=r.randint(4, 26)), tl.clock)
            desc = f"Material delivered - PO {c.number}"
            period = None
            if tl.is_open(when) and when > tl.clock - timedelta(days=7):
                erp = "unposted"
        out.append(
            Draft(
                c.vendor,
                c.job,
                c.cid,
                max(when, c.executed),
                lines,
                pm,
                erp,
                synced,
                desc,
                period,
                req if c.ctype == "subcontract" else None,
            )
        )
    return out


def _jsm_drafts(ctx: Ctx, c: Commitment) -> list[Draft]:
    """PO 9140-75: two posted bills, then JSM-88421 — only a PDF in Box, emailed to AP."""
    tl = ctx.tl
    l1, l2, l3 = c.lines
    first = min(c.executed + timedelta(days=30), tl.clock - timedelta(days=40))
    second = min(c.executed + timedelta(days=62), tl.clock - timedelta(days=15))
    zero = Decimal("0.00")
    out = [
        Draft(
            c.vendor,
            c.job,
            c.cid,
            first,
            [
                (1, l1.code, l1.description, round_to(l1.amount * Decimal("0.6"), 1), zero),
                (2, l2.code, l2.description, round_to(l2.amount * Decimal("0.4"), 1), zero),
            ],
            None,
            "posted",
            False,
            f"Underground piping - PO {c.number}",
        ),
        Draft(
            c.vendor,
            c.job,
            c.cid,
            second,
            [
                (1, l1.code, l1.description, round_to(l1.amount * Decimal("0.25"), 1), zero),
                (3, l3.code, l3.description, round_to(l3.amount * Decimal("0.5"), 1), zero),
            ],
            None,
            "posted",
            False,
            f"Underground piping - PO {c.number}",
        ),
    ]
    jsm = Draft(
        c.vendor,
        c.job,
        c.cid,
        tl.clock - timedelta(days=4),
        [
            (
                2,
                anchors.JSM_COST_CODE,
                "Trenching, bedding and backfill - underground piping, Area 2",
                anchors.JSM_AMOUNT,
                zero,
            )
        ],
        None,
        "not_entered",
        False,
        f"Underground piping backfill - PO {c.number}",
        number=anchors.JSM_INVOICE,
        plant="jsm",
        with_document=True,
    )
    out.append(jsm)
    ctx.notes["pct_overrides"].update(
        {
            (c.cid, 1): Decimal(85),
            (c.cid, 2): Decimal(40) + anchors.JSM_AMOUNT * 100 / l2.amount,
            (c.cid, 3): Decimal(50),
        }
    )
    return out


def recent(ctx: Ctx, d: Draft) -> bool:
    """A requisition of the current cycle: it bills the open period, through the clock (a bill
    without a period: dated in the clock's month). Not "the last 30 days": at a month-end clock
    those reach into the month before, whose requisitions H_procore_erp_sync does not count."""
    if d.period is not None:
        return d.period[1] == ctx.clock
    return month_start(ctx.clock) <= d.invoice_date <= ctx.clock


def apply_clock_month(ctx: Ctx, drafts: list[Draft]) -> list[Draft]:
    """Stage the current cycle's subcontract requisitions per job; drop the ones not yet billed."""
    tl = ctx.tl
    by_job: dict[str, list[Draft]] = {}
    for d in drafts:
        if d.cid and d.cid.startswith("SC-") and recent(ctx, d) and d.plant is None:
            by_job.setdefault(d.job, []).append(d)
    stages: dict[int, str] = {}
    for job, items in sorted(by_job.items()):
        items.sort(key=lambda d: d.cid or "")
        r = ctx.rng("clock-month", job)
        if job == "1042":
            cap = max((d for d in items if d.cid == anchors.SC_1042_0), key=lambda d: d.invoice_date)
            stages[id(cap)] = REVIEW
            _cap_plant(ctx, cap, drafts)
            items = [d for d in items if d is not cap]
        if job in anchors.SYNC_JOBS:
            if len(items) < 5:
                raise RuntimeError(f"job {job}: {len(items)} requisitions this month; the sync mix needs 5")
            pattern: tuple[str, ...] = SYNC_PATTERN
        elif job in anchors.ACCRUAL_JOBS:
            pattern = ACCRUAL_PATTERN
        else:
            pattern = tuple(r.choice(OTHER_CHOICES) for _ in items)
        for d, pick in zip(items, pattern * 3, strict=False):  # the pattern repeats; items may be fewer
            stages[id(d)] = pick
    kept: list[Draft] = []
    for d in drafts:
        stage = stages.get(id(d))
        if stage == MISSING:
            continue
        if stage is not None:
            d.pm_status, d.erp_synced, d.erp_status = STATUS[stage]
            d.invoice_date = min(d.invoice_date, tl.clock)
            if stage == APPROVED_UNSYNCED:
                d.plant = "unsynced"
        kept.append(d)
    return kept


def _cap_plant(ctx: Ctx, d: Draft, drafts: list[Draft]) -> None:
    """Walsh's eApp on SC-1042-0 bills stored switchgear past the subcontract's remaining amount."""
    c = ctx.notes["commitments"][anchors.SC_1042_0]
    before = sum((x.gross for x in drafts if x.cid == c.cid and x is not d), Decimal("0.00"))
    remaining = c.amount - before
    over = round_to(c.amount * Decimal("0.045"), 50)
    stored = remaining + over - d.gross
    if stored <= 0:
        raise RuntimeError("SC-1042-0: this month's progress already exceeds the remaining amount")
    no, code, desc, amt, _ret = d.lines[0]
    amt += stored
    d.lines[0] = (no, code, f"{desc} (incl. stored switchgear and fixture packages)", amt, pct_of(amt, c.retainage))
    d.plant, d.with_document = "cap", True
    d.extra["remaining"], d.extra["over"] = remaining, over


def billed_ahead(ctx: Ctx, drafts: list[Draft]) -> None:
    """On each billed-ahead job, pull one commitment's PM progress below what was approved.

    The commitment is one with no requisition this month (or only a draft), so the job keeps the
    positive accruals of the commitments whose this-month requisitions are not approved yet."""
    for job in anchors.BILLED_AHEAD_JOBS:
        this_month = {d.cid: d.pm_status for d in drafts if d.job == job and recent(ctx, d)}
        cands = [
            c
            for c in ctx.notes["commitments"].values()
            if c.job == job and c.ctype == "subcontract" and this_month.get(c.cid) in (None, "draft")
        ]
        approved = {c.cid: [d for d in drafts if d.cid == c.cid and d.pm_status == "approved"] for c in cands}
        cands = [c for c in cands if approved[c.cid]]
        if not cands:
            raise RuntimeError(f"job {job}: no commitment to bill ahead")
        c = max(cands, key=lambda c: (c.cid not in this_month, sum(d.gross for d in approved[c.cid]), c.cid))
        r = ctx.rng("billed-ahead", c.cid)
        for ln in c.lines:
            got = sum((x[3] for d in approved[c.cid] for x in d.lines if x[0] == ln.line_no), Decimal("0.00"))
            billed_pct = got * 100 / ln.amount
            ctx.notes["pct_overrides"][(c.cid, ln.line_no)] = max(Decimal(0), billed_pct - r.randint(5, 12)).quantize(
                Decimal("0.1")
            )
        ctx.notes["billed_ahead"] = ctx.notes.get("billed_ahead", []) + [c.cid]


def ressio_unbooked(ctx: Ctx, drafts: list[Draft]) -> None:
    """The latest bill on each residential job's POs is approved in Ressio but not booked in the ERP."""
    res = {j.number for j in ctx.jobs.values() if j.job_type == "residential" and j.active}
    bills = [d for d in drafts if d.job in res and d.cid and d.cid.startswith("PO-") and d.plant is None]
    latest: dict[str, Draft] = {}
    for d in sorted(bills, key=lambda d: (d.invoice_date, d.cid or "")):
        latest[d.job] = d
    chosen = [d for d in latest.values() if d.invoice_date > ctx.clock - timedelta(days=45)] or [
        max(latest.values(), key=lambda d: (d.invoice_date, d.cid or ""))
    ]
    for d in chosen:
        d.pm_status, d.erp_synced, d.erp_status = "approved", False, "not_entered"
        d.plant, d.with_document = "unbooked", True


def po_mismatch(ctx: Ctx, drafts: list[Draft]) -> Draft:
    """A Ressio bill on a residential job that does not match its PO line."""
    tl = ctx.tl
    res = sorted(j.number for j in ctx.jobs.values() if j.job_type == "residential" and j.active)
    pos = [c for c in ctx.notes["commitments"].values() if c.job in res and c.ctype == "purchase_order"]
    # The bill goes past its PO line but stays within the PO's amount: the eApp C_redteam_eapp_review
    # holds for its line (a cap-only check approves it). Preferred: the largest PO line with something
    # still open (the bill is then partly within its line, so C_ressio_bill_match's variance is not the
    # bill total); else the largest line whose PO has room for its price escalation; else the largest
    # open line whose PO has $5 or more beyond it, with the escalation cut down to that room.
    cands = sorted(
        ((c, ln) for c in pos for ln in c.lines), key=lambda x: (x[1].amount, x[0].cid, x[1].line_no), reverse=True
    )

    def plan(c: Commitment, ln, need_open: bool, fit: bool) -> tuple[Decimal, Decimal] | None:
        billed = sum((x[3] for d in drafts if d.cid == c.cid for x in d.lines if x[0] == ln.line_no), Decimal("0.00"))
        extra = round_to(ln.amount * Decimal(ctx.rng("po-mismatch", c.cid).randint(3, 7)) / 100, 5)
        approved = sum((d.gross for d in drafts if d.cid == c.cid and d.pm_status == "approved"), Decimal("0.00"))
        room = c.amount - approved - max(ln.amount - billed, Decimal("0.00"))  # open on the PO beyond this line
        if need_open and billed >= ln.amount:
            return None
        if fit:
            extra = ((min(extra, room) / 5).to_integral_value(rounding=ROUND_FLOOR) * 5).quantize(Decimal("0.01"))
            return (billed, extra) if extra >= 5 else None
        return (billed, extra) if extra <= room else None

    picked = next(
        (
            (c, ln, p)
            for need_open, fit in ((True, False), (False, False), (True, True))
            for c, ln in cands
            if (p := plan(c, ln, need_open, fit))
        ),
        None,
    )
    if picked is None:
        raise RuntimeError("bill_po_mismatch: no residential PO line past which a bill stays within its PO's amount")
    c, ln, (billed, extra) = picked
    amount = max(ln.amount - billed, Decimal("0.00")) + extra
    d = Draft(
        c.vendor,
        c.job,
        c.cid,
        tl.clock - timedelta(days=3),
        [
            (
                ln.line_no,
                ln.code,
                f"{ln.description} - balance of order (price escalation per supplier letter)",
                amount,
                Decimal("0.00"),
            )
        ],
        "under_review",
        "not_entered",
        False,
        f"Balance of PO {c.number}",
        plant="po_mismatch",
        with_document=True,
    )
    d.extra["po_line"], d.extra["billed"] = ln.amount, billed
    return d
