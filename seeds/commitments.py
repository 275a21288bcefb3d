"""Commitments — subcontracts and purchase orders with their SOV lines — and commitment change
orders. Each trade package of a job that is bought out by the clock becomes one commitment to a
vendor of that trade (round-robin so every subcontractor holds work). Anchors: SC-1042-0 is Walsh
Electrical's $632,000 subcontract; PO 9140-75 is J. S. Mitchell Mechanical's purchase order that
invoice JSM-88421 bills.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, rate, split_money, stable_id
from cfab.seeds.jobs import JobPlan, fraction, progress
from cfab.seeds.reference import CODES, PACKAGES
from cfab.seeds.util import round_to

SINGLE_CODE_SPLITS = (
    ("Mobilization, bonds and insurance", 8),
    ("Labor", 52),
    ("Materials", 34),
    ("Closeout and punch list", 6),
)


@dataclass
class CLine:
    line_no: int
    code: str
    description: str
    amount: Decimal
    starts: date | None = None  # CO lines: the approval date (no progress before it)

    def pct(self, job: JobPlan, t: date) -> Decimal:
        if self.starts is not None and t < self.starts:
            return Decimal("0.0")
        return progress(job, self.code, t)


@dataclass
class Commitment:
    cid: str
    job: str
    vendor: str
    ctype: str
    number: str
    package: str
    retainage: Decimal
    executed: date
    lines: list[CLine] = field(default_factory=list)
    original: Decimal = Decimal("0.00")
    approved_cos: Decimal = Decimal("0.00")
    erp_synced: bool = True

    @property
    def amount(self) -> Decimal:
        return self.original + self.approved_cos


def _bought(ctx: Ctx, job: JobPlan) -> list[str]:
    """The packages bought out by the clock: ones already under way first, capped per job."""
    f = fraction(job, ctx.clock)

    def start(p: str) -> Decimal:
        return min(CODES[c].start for c in PACKAGES[p][2])

    def live(p: str) -> bool:
        return any(CODES[c].start <= f < CODES[c].end for c in PACKAGES[p][2])

    if job.status == "closed":
        return list(job.packages)
    pk = [p for p in job.packages if start(p) <= f + Decimal("0.3")]
    pk.sort(key=lambda p: (not live(p), start(p), p))
    if job.number == anchors.JSM_JOB:  # its POs 9140-71 … 74 come before PO 9140-75
        pos = [p for p in pk if PACKAGES[p][1] == "purchase_order"]
        subs = [p for p in pk if PACKAGES[p][1] == "subcontract"][:4]
        return subs + pos
    cap = (
        8
        if job.number in anchors.SYNC_JOBS
        else 6
        if job.number in anchors.ACCRUAL_JOBS
        else ctx.rng("buyout", job.number).randint(3, 4)
    )
    if job.job_type == "residential":  # Ressio jobs always buy lumber and doors on POs
        must = [p for p in ("lumber", "doors") if p in pk]
        pk = must + [p for p in pk if p not in must]
    pk = pk[:cap]
    if job.number == "1042":
        if "electrical" in pk:
            pk.remove("electrical")
        pk.insert(0, "electrical")
    return pk


def build_commitments(ctx: Ctx) -> None:
    by_pkg: dict[str, list[str]] = {}
    for key, v in sorted(ctx.vendors.items()):
        if v.package and v.role in ("sub", "supplier", "lookalike"):
            by_pkg.setdefault(v.package, []).append(key)
    turn: dict[str, int] = {p: ctx.rng("rr", p).randrange(len(ks)) for p, ks in by_pkg.items()}
    plans: list[Commitment] = []
    for job in sorted(ctx.jobs.values(), key=lambda j: j.number):
        n_sc = n_po = 0
        for pkg in _bought(ctx, job):
            _trade, ctype, codes = PACKAGES[pkg]
            pool = by_pkg[pkg]
            vendor = pool[turn[pkg] % len(pool)]
            turn[pkg] += 1
            if job.number == "1042" and pkg == "electrical":
                vendor = "V1000"
            if ctype == "subcontract":
                cid, number = f"SC-{job.number}-{n_sc}", f"{job.number}-{n_sc + 1:02d}"
                n_sc += 1
            else:
                cid, number = f"PO-{job.number}-{n_po}", f"{job.number}-{71 + n_po}"
                n_po += 1
            plans.append(_plan(ctx, job, cid, number, vendor, ctype, pkg, codes))
        if job.number == anchors.JSM_JOB:
            plans.append(_jsm_po(ctx, job, n_po))
    late = [
        c
        for c in plans
        if ctx.jobs[c.job].active
        and c.job not in anchors.SYNC_JOBS + anchors.ETC_JOBS
        and c.ctype == "subcontract"
        and all(ln.pct(ctx.jobs[c.job], ctx.clock) == 0 for ln in c.lines)
    ]
    if late:  # one subcontract approved in Procore this month, not yet synced to the ERP
        c = max(late, key=lambda c: (min(CODES[ln.code].start for ln in c.lines), c.cid))
        c.executed = ctx.clock - timedelta(days=4)
        c.erp_synced = False
        ctx.diverge(
            "unsynced_commitment",
            c.cid,
            reason=f"{c.cid} was approved in Procore on {c.executed} and has not been synced to the ERP",
        )
    for c in plans:
        if c.erp_synced:
            _commitment_cos(ctx, c)
        ctx.notes.setdefault("commitments", {})[c.cid] = c


def _plan(
    ctx: Ctx, job: JobPlan, cid: str, number: str, vendor: str, ctype: str, pkg: str, codes: tuple[str, ...]
) -> Commitment:
    r = ctx.rng("commitment", cid)
    if cid == anchors.SC_1042_0:
        total = anchors.SC_1042_0_AMOUNT
    else:
        total = round_to(sum(job.budget_original[c] for c in codes) * Decimal(r.randint(88, 99)) / 100, 10)
    weights = [int(job.budget_original[c]) or 1 for c in codes]
    parts = split_money(total, weights)
    lines: list[CLine] = []
    for code, amt in zip(codes, parts, strict=True):
        if len(codes) == 1:
            shares = split_money(amt, [w for _d, w in SINGLE_CODE_SPLITS])
            for (desc, _w), sub in zip(SINGLE_CODE_SPLITS, shares, strict=True):
                lines.append(CLine(len(lines) + 1, code, f"{CODES[code].description} - {desc}", sub))
        else:
            lines.append(CLine(len(lines) + 1, code, CODES[code].description, amt))
    first = min(CODES[c].start for c in codes)
    work_starts = job.start + timedelta(days=int((job.end - job.start).days * first))
    executed = max(job.start - timedelta(days=10), work_starts - timedelta(days=r.randint(15, 40)))
    retainage = (
        Decimal("0.0000")
        if ctype == "purchase_order" or job.status == "closed"
        else (Decimal("10.0000") if job.pw or r.random() < 0.75 else Decimal("5.0000"))
    )
    return Commitment(
        cid, job.number, vendor, ctype, number, pkg, retainage, min(executed, ctx.clock), lines, original=total
    )


def _jsm_po(ctx: Ctx, job: JobPlan, index: int) -> Commitment:
    """PO 9140-75 (J. S. Mitchell): its 31-200 line leaves room for invoice JSM-88421."""
    if index != anchors.JSM_PO_INDEX:
        raise RuntimeError(
            f"job {job.number} has {index} other POs; PO {anchors.JSM_PO_NUMBER} needs {anchors.JSM_PO_INDEX}"
        )
    r = ctx.rng("commitment", "jsm")
    earth = round_to(anchors.JSM_AMOUNT / Decimal("0.35"), 50)
    lines = [
        CLine(
            1,
            "22-100",
            "Underground sanitary and storm piping - materials",
            round_to(earth * Decimal(r.randint(120, 160)) / 100, 50),
        ),
        CLine(2, anchors.JSM_COST_CODE, "Trenching, bedding and backfill for underground piping", earth),
        CLine(3, "22-100", "Cleanouts, fittings and testing", round_to(earth * Decimal(r.randint(20, 35)) / 100, 50)),
    ]
    total = sum((ln.amount for ln in lines), Decimal("0.00"))
    executed = job.start + timedelta(days=r.randint(20, 45))
    return Commitment(
        f"PO-{job.number}-{index}",
        job.number,
        anchors.JSM_VENDOR,
        "purchase_order",
        anchors.JSM_PO_NUMBER,
        "jsm",
        Decimal("0.0000"),
        executed,
        lines,
        original=total,
    )


def _commitment_cos(ctx: Ctx, c: Commitment) -> None:
    job = ctx.jobs[c.job]
    r = ctx.rng("cco", c.cid)
    if c.ctype != "subcontract" or not job.active or c.cid == anchors.SC_1042_0 or r.random() > 0.25:
        return
    start = max(c.executed + timedelta(days=30), job.start + timedelta(days=30))
    if start >= ctx.clock - timedelta(days=10):
        return
    when = start + timedelta(days=r.randint(0, (ctx.clock - timedelta(days=10) - start).days))
    amt = round_to(c.original * Decimal(r.randint(2, 8)) / 100, 10)
    code = c.lines[0].code
    co_id = f"CCO-{c.cid}-01"
    ctx.add(
        "change_orders",
        co_id=co_id,
        job_number=c.job,
        co_type="commitment",
        number=1,
        change_event_id=None,
        commitment_id=c.cid,
        description=f"Added scope - {CODES[code].description.lower()}",
        amount=amt,
        increases_contract=False,
        status="approved",
        approved_date=when,
    )
    c.lines.append(CLine(len(c.lines) + 1, code, f"CCO #01 - added {CODES[code].description.lower()}", amt, when))
    c.approved_cos += amt


def write_commitments(ctx: Ctx) -> None:
    """Write commitments and lines (after AP has fixed the PM's progress at the clock)."""
    for c in ctx.notes["commitments"].values():
        job = ctx.jobs[c.job]
        ctx.add(
            "commitments",
            commitment_id=c.cid,
            job_number=c.job,
            vendor_key=c.vendor,
            commitment_type=c.ctype,
            number=c.number,
            title=f"{PACKAGES[c.package][0] if c.package in PACKAGES else 'Underground piping'} - {job.name}",
            status="closed" if job.status == "closed" else "approved",
            original_amount=c.original,
            approved_co_amount=c.approved_cos,
            amount=c.amount,
            retainage_pct=c.retainage,
            executed_date=c.executed,
            erp_synced=c.erp_synced,
            document_id=stable_id("subcontract", c.cid) if c.ctype == "subcontract" else None,
        )
        overrides = ctx.notes.get("pct_overrides", {})
        for ln in c.lines:
            pct = rate(overrides.get((c.cid, ln.line_no), ln.pct(job, ctx.clock)))
            ctx.add(
                "commitment_lines",
                commitment_id=c.cid,
                line_no=ln.line_no,
                cost_code=ln.code,
                description=ln.description,
                amount=ln.amount,
                pct_complete=pct,
                work_completed=money(ln.amount * pct / 100),
            )
