"""Change events and owner / internal change orders.

Owner change orders (out of scope, the owner pays) raise the prime contract — each adds a line to
the prime SOV — and the budget; internal transfers (in scope, the GC absorbs) move budget only.
Every approved change order closes a change event. The non-closed events exist only in the PM app
(registered ``pending_change_event``), among them the paper's $101,700 event on job 3100, which
its documents make an internal cost transfer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import split_money, stable_id
from cfab.seeds.jobs import GC_CODES, JobPlan
from cfab.seeds.util import round_to

_OWNER_TITLES = (
    (
        "owner_request",
        "Owner-requested card access at {n} additional doors",
        "Per the Owner's written directive, add card readers and electrified hardware at {n} doors not shown in the "
        "bid "
        "documents. Out of the base scope; the Owner will be billed by change order to the prime contract.",
    ),
    (
        "design_change",
        "Revised storefront framing per ASI-{n:02d}",
        "Architect's Supplemental Instruction {n:02d} revises the storefront mullion layout and glass type at the main "
        "entry. Design change issued after bid; priced to the Owner as a change to the contract sum.",
    ),
    (
        "unforeseen_condition",
        "Unsuitable soils at footing grid line {g}",
        "Geotechnical engineer directed over-excavation of {n}0 CY of unsuitable soils at grid line {g} and "
        "replacement "
        "with compacted CA-6. Concealed condition differing from the soils report; Owner change order per General "
        "Conditions 3.7.4.",
    ),
    (
        "owner_request",
        "Added floor boxes and power in multipurpose room",
        "Owner requested {n} additional floor boxes with power and data in the multipurpose room during the OAC "
        "meeting. "
        "Out of base scope; pricing approved by the Owner's representative.",
    ),
    (
        "design_change",
        "Lighting control upgrade per Bulletin {n}",
        "Bulletin {n} replaces the specified lighting controls with a networked system. Change to the contract "
        "documents "
        "after award; Owner change order.",
    ),
)
_INTERNAL_TITLES = (
    (
        "Rework misaligned anchor bolts (GC layout)",
        "Anchor bolts at {n} column bases were set from the wrong control line by Company A's field crew. Core, epoxy "
        "and "
        "reset. Company A error within the base scope; no Owner change order. Budget transfer only.",
    ),
    (
        "Winter conditions - additional temporary heat",
        "Additional temporary enclosure and heat to keep the schedule through the cold snap. Means and methods within "
        "the "
        "GC's base scope; not billable to the Owner. Budget transfer only.",
    ),
    (
        "Replace drywall damaged by temporary roof leak",
        "Temporary roofing failed during a storm before dry-in; replace {n} sheets of damaged gypsum board. Company "
        "A's "
        "risk under the contract; no Owner change. Budget transfer only.",
    ),
    (
        "Additional dumpster hauls - GC cleanup",
        "Extra roll-off hauls for site cleanup exceeded the estimate. General conditions item within the base scope; "
        "internal budget adjustment, no contract change.",
    ),
)


@dataclass
class OwnerCO:
    co_id: str
    job: str
    number: int
    amount: Decimal
    approved: date
    title: str
    cost_code: str


def _codes(job: JobPlan) -> list[str]:
    return [c for c in job.budget_codes if c not in GC_CODES and c != "01-900"]


def build_changes(ctx: Ctx) -> None:
    tl = ctx.tl
    owner_cos: dict[str, list[OwnerCO]] = {}
    for job in ctx.jobs.values():
        r = ctx.rng("changes", job.number)
        events: list[dict] = []
        last = min(tl.prior_month_end, job.end)
        months = max(0, (last.year - job.start.year) * 12 + last.month - job.start.month)
        n_owner = min(3, months // 3 + (1 if r.random() < 0.4 else 0)) if months >= 2 else 0
        n_internal = 1 if months >= 3 and r.random() < 0.5 else 0
        span = max(1, (last - job.start).days - 30)
        for _ in range(n_owner):
            reason, title, desc = r.choice(_OWNER_TITLES)
            n = r.randint(2, 9)
            amt = round_to(job.contract_target * Decimal(r.randint(4, 22)) / 1000, 10)
            events.append(
                dict(
                    kind="owner",
                    reason=reason,
                    title=title.format(n=n, g=chr(65 + n)),
                    desc=desc.format(n=n, g=chr(65 + n)),
                    amount=amt,
                    when=job.start + timedelta(days=20 + r.randint(0, span)),
                    status="closed",
                )
            )
        for _ in range(n_internal):
            title, desc = r.choice(_INTERNAL_TITLES)
            amt = round_to(job.contract_target * Decimal(r.randint(2, 8)) / 1000, 10)
            events.append(
                dict(
                    kind="internal",
                    reason="internal_transfer",
                    title=title,
                    desc=desc.format(n=r.randint(4, 30)),
                    amount=amt,
                    when=job.start + timedelta(days=20 + r.randint(0, span)),
                    status="closed",
                )
            )
        if job.number == anchors.CO_AFTER_APP1_JOB:
            reason, title, desc = _OWNER_TITLES[3]
            amt = round_to(job.contract_target * Decimal("0.0125"), 10)
            events.append(
                dict(
                    kind="owner",
                    reason=reason,
                    title=title,
                    desc=desc.format(n=6),
                    amount=amt,
                    when=max(tl.prior_month_end + timedelta(days=1), tl.clock - timedelta(days=12)),
                    status="closed",
                )
            )
        events.sort(key=lambda e: (e["when"], e["title"]))
        events += _pending_events(ctx, job, r)
        owner_cos[job.number] = _write_events(ctx, job, events)
    ctx.notes["owner_cos"] = owner_cos


def _pending_events(ctx: Ctx, job: JobPlan, r: random.Random) -> list[dict]:
    tl = ctx.tl
    out: list[dict] = []
    if job.number == "3100":
        out.append(
            dict(
                kind="pending",
                reason="internal_transfer",
                scope="in_scope",
                title="Underslab plumbing rework - Company A layout error",
                desc=(
                    "Underslab sanitary and storm lines in Area B were installed 18 in. off grid line C "
                    "because Company A's field layout was staked from the superseded control plan (Rev 2). "
                    "Remove 140 LF of 4-inch PVC, sawcut and re-pour the slab-on-grade, re-inspect. "
                    "The work is within the base contract scope (Spec 22 13 16) and the cost is Company A's; "
                    "no change order request will be issued to the Owner."
                ),
                amount=anchors.CE_3100_AMOUNT,
                when=tl.clock - timedelta(days=6),
                status="pending",
            )
        )
    elif job.number == anchors.OWNER_CE_JOB:
        amt = round_to(job.contract_target * Decimal("0.0107"), 50)
        out.append(
            dict(
                kind="pending",
                reason="owner_request",
                scope="out_of_scope",
                title="Owner-requested card access at six additional doors",
                desc=(
                    "Per the Yorkville Park District's written directive OD-03, add card readers and "
                    "electrified hardware at six doors not shown in the bid documents. Out of the base "
                    "scope; to be priced to the Owner as a change order to the prime contract."
                ),
                amount=amt,
                when=tl.clock - timedelta(days=9),
                status="pending",
            )
        )
    elif job.active and job.number not in anchors.ETC_JOBS and r.random() < 0.12:
        reason, title, desc = r.choice(_OWNER_TITLES)
        n = r.randint(2, 9)
        out.append(
            dict(
                kind="pending",
                reason=reason,
                scope="out_of_scope",
                title=title.format(n=n, g=chr(65 + n)),
                desc=desc.format(n=n, g=chr(65 + n)),
                amount=round_to(job.contract_target * Decimal(r.randint(2, 9)) / 1000, 10),
                when=tl.clock - timedelta(days=r.randint(3, 20)),
                status="open",
            )
        )
    return out


def _write_events(ctx: Ctx, job: JobPlan, events: list[dict]) -> list[OwnerCO]:
    r = ctx.rng("co-lines", job.number)
    codes = _codes(job)
    owner: list[OwnerCO] = []
    n_owner = n_internal = 0
    for num, ev in enumerate(events, start=1):
        ce_id = f"CE-{job.number}-{num:03d}"
        scope = ev.get("scope") or ("out_of_scope" if ev["kind"] == "owner" else "in_scope")
        doc_id = stable_id("change_backup", ce_id)
        ctx.add(
            "change_events",
            change_event_id=ce_id,
            job_number=job.number,
            number=num,
            title=ev["title"],
            description=ev["desc"],
            reason=ev["reason"],
            scope=scope,
            amount=ev["amount"],
            status=ev["status"],
            document_id=doc_id,
        )
        ctx.notes.setdefault("ce_dates", {})[ce_id] = ev["when"]
        if ev["status"] != "closed":
            ctx.diverge(
                "pending_change_event",
                f"{job.number}|{num}",
                apps=["procore", "vista_erp"],
                reason=f"{ce_id} ({ev['title']}, {ev['amount']}) is logged in Procore as {ev['status']}; "
                "no change order exists in the ERP yet",
            )
            continue
        if ev["kind"] == "owner":
            n_owner += 1
            co_id, prefix = f"PCO-{job.number}-{n_owner:03d}", "owner"
        else:
            n_internal += 1
            co_id, prefix = f"BCO-{job.number}-{n_internal:03d}", "internal"
        chosen = r.sample(codes, min(len(codes), r.choice((1, 1, 2))))
        parts = split_money(ev["amount"], [r.randint(40, 100) for _ in chosen])
        ctx.add(
            "change_orders",
            co_id=co_id,
            job_number=job.number,
            co_type=prefix,
            number=n_owner if prefix == "owner" else n_internal,
            change_event_id=ce_id,
            commitment_id=None,
            description=ev["title"],
            amount=ev["amount"],
            increases_contract=prefix == "owner",
            status="approved",
            approved_date=ev["when"],
        )
        for ln, (code, amt) in enumerate(zip(chosen, parts, strict=True), start=1):
            ctx.add("change_order_lines", co_id=co_id, line_no=ln, cost_code=code, amount=amt)
        if prefix == "owner":
            owner.append(OwnerCO(co_id, job.number, n_owner, ev["amount"], ev["when"], ev["title"], chosen[0]))
    return owner
