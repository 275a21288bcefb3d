"""Plants for R_lien_waiver_audit: subcontractor payments of the clock month whose unconditional
lien waiver is not on file in Levelset.

Every paid subcontractor pay request in the book has its unconditional progress waiver for the
amount paid (``cash.build_lien_waivers``). On a few active jobs no other family anchors on, each
with checks of the clock month (issued, not void) to two or more subcontractors, one payment's
unconditional waiver never came back (the row is dropped), and one other subcontractor's payment
carries the job's twist:

- ``short``: the unconditional waiver on file is for less than the payment (still missing: the
  waiver does not cover the amount paid);
- ``conditional``: only the conditional progress waiver signed before payment is on file (still
  missing: a conditional waiver is no release of a payment made);
- ``identity``: the waiver is there, but Levelset knows the subcontractor under another spelling
  (its trade name), so a search by the ERP's name finds nothing: only the hh2 crosswalk ties the
  ERP vendor to its Levelset company (present, nothing to request);
- ``clean``: no twist, the dropped waiver only (the control).

The respelled subcontractor is the one paid on the fewest planted jobs, and the clean, short and
conditional jobs come first from the jobs it is not paid on, so every world hosts each situation.

Runs right after ``cash.build_lien_waivers`` (before the documents, so no waiver PDF exists for
a dropped waiver, and a conditional waiver's PDF is titled as one); only lien-waiver rows of the
planted jobs and the identity vendors' Levelset spellings change. Randomness from the
``lien-waiver-audit`` stream.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import timedelta
from decimal import Decimal

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, stable_id

STREAM = "lien-waiver-audit"
PLANTED_JOBS = 7  # public keys (one per twist and the control) and held-out keys


def _excluded() -> set[str]:
    return set(
        anchors.ETC_JOBS
        + anchors.AIA_JOBS
        + anchors.ACCRUAL_JOBS
        + anchors.SYNC_JOBS
        + anchors.CERT_JOBS
        + anchors.BILLED_AHEAD_JOBS
        + anchors.CONTINGENCY_JOBS
        + anchors.OWNER_SIDE_JOBS
    ) | {"9140"}


def build_lien_waiver_audit(ctx: Ctx) -> None:
    r = ctx.rng(STREAM)
    clock = ctx.clock
    start = clock.replace(day=1)
    checks = {
        c["check_id"]: c
        for c in ctx.rows("checks")
        if c["status"] != "void" and start <= c["issue_date"] <= clock and c["payee_vendor_key"]
    }
    subs = {v["vendor_key"] for v in ctx.rows("vendors") if v["vendor_type"] == "subcontractor"}
    protected = set(anchors.ANCHOR_VENDORS) | set(anchors.EXPIRED_COI_VENDORS)
    protected |= {k for k, p in ctx.vendors.items() if p.lookalike_of or p.role != "sub"}
    respelled = {d["entity_key"] for d in ctx.rows("divergences") if "levelset" in d["apps"].split(",")}
    waivers: dict[str, dict] = {}
    for row in ctx.rows("lien_waivers"):
        if row["waiver_type"] == "unconditional_progress" and row["invoice_id"]:
            waivers[row["invoice_id"]] = row
    paid: dict[str, Decimal] = defaultdict(Decimal)
    check_of: dict[str, dict] = {}
    for app in ctx.rows("check_applications"):
        if app["check_id"] in checks:
            paid[app["invoice_id"]] += app["amount"]
            check_of[app["invoice_id"]] = checks[app["check_id"]]
    active = {j["job_number"] for j in ctx.rows("jobs") if j["status"] == "active"} - _excluded()
    # (job) -> vendor -> its payments of the month whose waiver is exactly on file
    by_job: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for inv_id, amount in sorted(paid.items()):
        inv = ctx.invoices[inv_id]
        on_file = waivers.get(inv_id)
        if (
            inv["job_number"] in active
            and (inv["commitment_id"] or "").startswith("SC-")
            and inv["vendor_key"] in subs
            and on_file is not None
            and on_file["amount"] == amount
            and inv["paid_amount"] == amount
        ):
            by_job[inv["job_number"]][inv["vendor_key"]].append(inv)
    candidates = sorted(j for j, vs in by_job.items() if len(vs) >= 2)
    jobs = sorted(r.sample(candidates, min(PLANTED_JOBS, len(candidates))))
    twists, chosen = _assign(r, jobs, by_job, protected | respelled)
    for vendor in sorted(set(chosen.values())):
        respelled.add(vendor)
        _respell(ctx, vendor)
    dropped: set[str] = set()
    for job, twist in zip(jobs, twists, strict=True):
        vendors = sorted(by_job[job])
        plain = [v for v in vendors if v not in respelled] or [v for v in vendors if v != chosen.get(job)]
        twist_vendor = chosen.get(job) or (r.choice(plain) if twist in ("short", "conditional") else None)
        miss_vendor = r.choice([v for v in plain if v != twist_vendor] or [v for v in vendors if v != twist_vendor])
        miss_inv = r.choice(by_job[job][miss_vendor])
        dropped.add(waivers[miss_inv["invoice_id"]]["waiver_id"])
        _mark(ctx, miss_inv, check_of, "no unconditional waiver on file for the payment")
        if twist not in ("short", "conditional") or twist_vendor is None:
            continue
        inv = r.choice(by_job[job][twist_vendor])
        w = waivers[inv["invoice_id"]]
        if twist == "short":
            w["amount"] = money(w["amount"] * Decimal(r.randint(55, 90)) / 100)
            _mark(ctx, inv, check_of, f"the unconditional waiver on file is for {w['amount']}, less than the payment")
        else:
            check = check_of[inv["invoice_id"]]
            w["waiver_type"] = "conditional_progress"
            w["waiver_id"] = stable_id("lien_waiver", inv["invoice_id"], "conditional_progress")
            w["status"] = "received"
            w["signed_date"] = max(check["issue_date"] - timedelta(days=1), inv["invoice_date"])
            w["document_id"] = stable_id("lien_waiver", w["waiver_id"])
            _mark(ctx, inv, check_of, "only the conditional progress waiver signed before payment is on file")
    ctx.tables["lien_waivers"] = [w for w in ctx.rows("lien_waivers") if w["waiver_id"] not in dropped]


def _assign(
    r: random.Random, jobs: list[str], by_job: dict[str, dict[str, list[dict]]], unfit: set[str]
) -> tuple[list[str], dict[str, str]]:
    """Each planted job's twist, and the identity job's respelled vendor.

    The respelled vendor is the plain subcontractor paid on the fewest planted jobs; the clean,
    short and conditional jobs are drawn first from the jobs it is not paid on, so that a covered
    payment of it (which makes a job an identity job) does not hide their situation."""
    fit = sorted({v for j in jobs for v in by_job[j] if v not in unfit})
    spread = {v: sum(v in by_job[j] for j in jobs) for v in fit}
    twists = dict.fromkeys(jobs, "")
    chosen: dict[str, str] = {}
    if fit:
        vendor = min(fit, key=lambda v: (spread[v], v))
        home = r.choice(sorted(j for j in jobs if vendor in by_job[j]))
        twists[home], chosen[home] = "identity", vendor
        others = sorted(j for j in jobs if vendor not in by_job[j])
        r.shuffle(others)
        rest = sorted(j for j in jobs if j != home and j not in others)
        order = others + rest
    else:
        order = list(jobs)
        r.shuffle(order)
    cycle = ("clean", "short", "conditional")
    for i, job in enumerate(j for j in order if not twists[j]):
        twists[job] = cycle[i % len(cycle)]
    return [twists[j] for j in jobs], chosen


def _mark(ctx: Ctx, inv: dict, check_of: dict[str, dict], why: str) -> None:
    check = check_of[inv["invoice_id"]]
    ctx.diverge(
        "lien_waiver_missing",
        inv["invoice_id"],
        reason=f"{inv['vendor_key']} paid {inv['paid_amount']} on {inv['invoice_number']} (job "
        f"{inv['job_number']}) by check {check['check_number']} of {check['issue_date']}: {why}",
    )


def _respell(ctx: Ctx, vendor: str) -> None:
    """Levelset keeps the subcontractor under its trade name (``Kessler & Sons Drywall``), not its legal
    name, so a search by the ERP's spelling finds nothing."""
    plan = ctx.vendors[vendor]
    spelling = f"{plan.stem} & Sons {plan.trade}"
    row = next(x for x in ctx.rows("vendor_identities") if x["vendor_key"] == vendor and x["system"] == "levelset")
    row["spelled_name"] = spelling
    ctx.diverge(
        "levelset_trade_name",
        vendor,
        reason=f"levelset keys {vendor} as {spelling!r} (its trade name); legal name {plan.legal_name!r}",
    )
