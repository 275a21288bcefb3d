"""Plants for the held-out partition: further instances of three families' situations.

The published tasks of H_procore_erp_sync, C_coi_hold and C_invoice_code are keyed on the anchors
(``anchors.SYNC_JOBS``, ``EXPIRED_COI_VENDORS``, the JSM invoice); every other entity of the book
is ordinary, so those families have no further key. This module plants a few more instances on
generated entities, each chosen by property with its own RNG stream (``held-out`` …), so that the
held-out partition (``Family.held_out_keys``) has keys with the same property. Each plant is
registered like its anchor (the same divergence kind) and is kept out of everything a published
task reads:

* H_procore_erp_sync — on up to three generated jobs (ones with another requisition this month
  first), one of this month's subcontractor requisitions still under review (or a draft) is
  approved in Procore instead, not synced (``unsynced_invoice``): neither stage is in the ERP and
  the requisition keeps its Procore id, so nothing moves in any ERP (G_retainage_reclass and the
  ERP-side families read those) and no Procore or RedTeam numbering moves. Only requisitions that
  cannot become a published task's lookalike are used (the lookalike query's order: the same
  vendor first, then the job number), on jobs other than the owner-side modelled ones. Some books
  have fewer than three such requisitions (seeds 8 and 11: one or two).
* C_coi_hold — up to two generated subcontractors with a similarly named vendor and no
  commitment (so no job's insurance renewals, AP or payment sees them: R_coi_expiry reads the
  certificates of every vendor on a job) get an expired current general-liability certificate,
  Procore still showing them compliant (``coi_status_stale``), and the ERP's abbreviated spelling
  (``vendor_spelling``).
* C_invoice_code — one supplier's invoice on a generated job's purchase order (a line other than
  the PO's first) arrives by email as a PDF and is entered nowhere (``unentered_invoice``). No
  commitment is added (Procore numbers them in order), so the PO is an existing one; most POs'
  lines share one ERP task (a single-code PO is split into four lines, equipment rental's two codes
  map to one task), so such an invoice usually lacks the anchor's "the PO's first line is another
  task" twist; a line coded to another task is taken when a PO has one.
"""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, pct_of
from cfab.seeds.timeline import add_months, month_start
from cfab.seeds.util import round_to

SYNC_COUNT = 3
COI_COUNT = 2
UNENTERED_COUNT = 1

_ANCHOR_JOBS = frozenset(j.number for j in anchors.ANCHOR_JOBS)


def _generated_jobs(ctx: Ctx) -> list:
    """Active generated jobs (no anchor job: every anchor job hosts some family's published task)."""
    return [j for _n, j in sorted(ctx.jobs.items()) if j.active and j.number not in _ANCHOR_JOBS]


# --- C_coi_hold -------------------------------------------------------------------------------
def _stem(name: str) -> str:
    return name.split(" ")[0]


def coi_lookalikes(ctx: Ctx, key: str) -> list[str]:
    """Other vendors whose legal or dba name carries ``key``'s stem as a word (the family's
    ``lookalikes`` query)."""
    word = re.compile(r"\b" + re.escape(_stem(ctx.vendors[key].legal_name)) + r"\b", re.IGNORECASE)
    return [
        k
        for k, v in sorted(ctx.vendors.items())
        if k != key and (word.search(v.legal_name) or word.search(v.dba_name or ""))
    ]


def plant_coi(ctx: Ctx) -> None:
    """Up to ``COI_COUNT`` generated subcontractors with no commitment (so no job's insurance
    renewals, no AP and no payment sees them) and a similarly named vendor (one that is not a
    published key first): their current general-liability certificate expired within the last two
    months (and the one it renewed a year before, if any, moves with it), Procore still shows them
    compliant, and the ERP keys them in its abbreviated spelling. Some books have only one such
    vendor (seed 1; seed 4 from a February clock).

    Runs once the commitments are made; it rewrites those vendors' rows in place."""
    from cfab.seeds.identities import SPELLERS

    committed = {c.vendor for c in ctx.notes["commitments"].values()}
    expired = set(anchors.EXPIRED_COI_VENDORS)
    cands = []
    for key, v in sorted(ctx.vendors.items()):
        if v.role != "sub" or key in anchors.ANCHOR_VENDORS or key in committed:
            continue
        looks = coi_lookalikes(ctx, key)
        if looks:
            cands.append((key, looks))
    r = ctx.rng("held-out", "coi")
    r.shuffle(cands)
    cands.sort(key=lambda c: bool(expired & set(c[1])))  # a lookalike that is not a published key first
    picked: list[str] = []
    near: set[str] = set()  # the picks' lookalikes: no pick is another's lookalike
    for key, looks in cands:
        if len(picked) < COI_COUNT and key not in near and not set(looks) & set(picked):
            picked.append(key)
            near.update(looks)
    for key in sorted(picked):
        legal = ctx.vendors[key].legal_name
        spelled = SPELLERS["vista_erp"](legal)
        for row in ctx.rows("vendor_identities"):
            # a vendor build_identities already fragmented keeps its (same) spelling and divergence
            if row["vendor_key"] == key and row["system"] == "vista_erp" and row["spelled_name"] != spelled:
                row["spelled_name"] = spelled
                ctx.diverge(
                    "vendor_spelling",
                    key,
                    apps=["vista_erp"],
                    suffix="vista_erp",
                    reason=f"vista_erp keys {key} as {spelled!r}; legal name {legal!r}",
                )
        expiry = ctx.clock - timedelta(days=ctx.rng("held-out", "coi-expiry", key).randint(8, 55))
        effective = add_months(expiry, -12)
        for row in ctx.rows("certificates_of_insurance"):
            if row["vendor_key"] == key and row["coverage_type"] == "general_liability":
                if row["is_current"]:
                    row["effective_date"], row["expiry_date"] = effective, expiry
                else:  # the certificate the current one renewed
                    row["effective_date"], row["expiry_date"] = add_months(effective, -12), effective
        ctx.diverge(
            "coi_status_stale",
            key,
            apps=["procore", "box"],
            reason=f"{key}'s current general-liability certificate expired before {ctx.clock}; "
            "Procore still shows the vendor compliant",
        )
    ctx.notes.setdefault("held_out", {})["coi"] = sorted(picked)


# --- H_procore_erp_sync -----------------------------------------------------------------------
def plant_unsynced(ctx: Ctx, drafts: list) -> None:
    """Approve (not sync) one of this month's requisitions on each of up to ``SYNC_COUNT`` generated jobs."""
    from cfab.seeds.ap import recent

    def sc(d) -> bool:
        return bool(d.cid and d.cid.startswith("SC-"))

    unsynced = [d for d in drafts if d.cid and d.pm_status == "approved" and not d.erp_synced]
    # each published job's current lookalike: (not one of its vendors, job number) of the first row
    first: list[tuple[set[str], tuple[bool, str]]] = []
    for job in anchors.SYNC_JOBS:
        mine = {d.vendor for d in unsynced if d.job == job}
        others = sorted((d.vendor not in mine, d.job) for d in unsynced if d.job != job)
        if others:
            first.append((mine, others[0]))

    def safe(d) -> bool:  # the requisition sorts after every published task's lookalike
        return all((d.vendor not in mine, d.job) > top for mine, top in first)

    res = {j.number for j in ctx.jobs.values() if j.job_type == "residential"}
    by_job: dict[str, list] = {}
    for d in drafts:
        if sc(d) and d.plant is None and recent(ctx, d) and d.job not in res:
            by_job.setdefault(d.job, []).append(d)
    # not the owner-side modelled jobs (their billing is INGENIOUS.BUILD's families')
    jobs = {j.number for j in _generated_jobs(ctx)} - set(ctx.notes.get("owner_side_jobs", []))
    cands = []
    for job, items in sorted(by_job.items()):
        pending = [d for d in items if d.pm_status in ("under_review", "draft") and safe(d)]
        if job in jobs and pending:
            cands.append((job, items, pending))
    r = ctx.rng("held-out", "sync")
    r.shuffle(cands)
    cands.sort(key=lambda c: len(c[1]) < 2)  # jobs with another requisition this month first (one to skip)
    for _job, _items, pending in cands[:SYNC_COUNT]:
        d = pending[r.randrange(len(pending))]
        ctx.notes.setdefault("held_out", {}).setdefault("sync", []).append((d.job, d.pm_status))
        d.pm_status, d.erp_synced, d.erp_status, d.plant = "approved", False, "not_entered", "unsynced"


# --- C_invoice_code ---------------------------------------------------------------------------
def plant_unentered(ctx: Ctx, drafts: list, number) -> list:
    """``UNENTERED_COUNT`` PDF-only supplier invoices on generated jobs' purchase orders, each on a
    line other than the PO's first (one coded to another ERP task when a PO has one), within what
    the line has left after the bills already in the ERP.

    ``number(vendor, invoice_date)`` gives the vendor's next invoice number (its own style)."""
    from cfab.seeds.ap import Draft

    tl = ctx.tl
    phase = {r["cost_code"]: r["erp_phase"] for r in ctx.rows("erp_phase_map")}
    in_erp = [d for d in drafts if d.cid and d.erp_status in ("posted", "unposted")]
    jobs = {j.number: j for j in _generated_jobs(ctx) if j.job_type != "residential"}
    commitments = ctx.notes["commitments"]
    by_job: dict[str, list] = {}
    for c in commitments.values():
        by_job.setdefault(c.job, []).append(c)
    cands = []
    for cid, c in sorted(commitments.items()):
        if c.ctype != "purchase_order" or c.job not in jobs or c.vendor == anchors.JSM_VENDOR or not c.erp_synced:
            continue
        if len(c.lines) < 2 or len(by_job[c.job]) < 2:
            continue
        prior = [d for d in in_erp if d.cid == cid]
        pm = jobs[c.job].pm_email
        elsewhere = {ctx.jobs[o.job].pm_email for o in commitments.values() if o.vendor == c.vendor and o.job != c.job}
        if not prior or not elsewhere - {pm}:
            continue
        for ln in c.lines[1:]:
            billed = sum((x[3] for d in prior for x in d.lines if x[0] == ln.line_no), Decimal("0.00"))
            if ln.amount - billed >= 2000:
                cands.append((phase[ln.code] == phase[c.lines[0].code], cid, ln.line_no, ln.amount - billed))
    r = ctx.rng("held-out", "unentered")
    r.shuffle(cands)
    cands.sort(key=lambda x: x[0])  # a line coded to another task than the PO's first line's first
    out = []
    for _same, cid, line_no, room in cands[:UNENTERED_COUNT]:
        c = commitments[cid]
        ln = next(x for x in c.lines if x.line_no == line_no)
        amount = min(round_to(room * Decimal(r.randint(35, 80)) / 100, 5), money(room))
        when = max(tl.clock - timedelta(days=r.randint(3, 6)), month_start(tl.clock), c.executed)
        d = Draft(
            c.vendor,
            c.job,
            cid,
            when,
            [(line_no, ln.code, f"{ln.description} - {when:%B %Y}", amount, pct_of(amount, c.retainage))],
            None,
            "not_entered",
            False,
            f"{ln.description} - PO {c.number}",
            plant="unentered",
            with_document=True,
        )
        d.number = number(c.vendor, when)
        out.append(d)
    return out
