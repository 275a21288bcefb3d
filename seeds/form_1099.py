"""Form 1099 plants beyond the year's payments: B-notices with the payees' corrected W-9s, and
payments made by virtual card through Corpay.

- ``tin_notices``: the IRS's CP2100A (first B-notice) entries for the prior tax year's 1099-NEC
  filing, each with the new W-9 the payee sent back. Two kinds of mismatch: ``tin`` — the TIN was
  keyed into Track1099 with two digits transposed (the W-9 carries the right one, the book's); and
  ``name`` — a sole proprietor filed under the business name on W-9 line 1 (the SSN is the
  owner's: line 1 must be the owner's name, the business name goes on line 2). Track1099's payee
  record still carries what was filed (registered divergences ``bnotice_tin`` / ``bnotice_name``).
- ``card_payments``: payments in the tax year by Corpay virtual card to reportable payees; they
  are reported by the card processor on Form 1099-K and stay out of box 1 of the 1099-NEC.

The candidates are reportable payees by the book's rules (reportable entity type or attorney,
not materials-only, paid $600.00 or more by check in the tax year, not the split payee). Own rng
streams (``form1099:*``): every earlier row is unchanged.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from cfab.seeds.context import Ctx

REPORTABLE_TYPES = ("individual", "sole_proprietor", "llc_single_member", "partnership", "llc_partnership")
N_TIN_NOTICES = 2
N_CARD_VENDORS = 2


def _paid_by_check(ctx: Ctx, year: int) -> dict[str, Decimal]:
    paid: dict[str, Decimal] = {}
    for c in ctx.rows("checks"):
        key = c.get("payee_vendor_key")
        if key and c["status"] != "void" and c["issue_date"].year == year:
            paid[key] = paid.get(key, Decimal(0)) + Decimal(c["amount"])
    return paid


def _transpose(tin: str, r) -> str:
    """The TIN with two adjacent unequal digits swapped (a keying error), dashes kept."""
    spots = [i for i in range(len(tin) - 1) if tin[i].isdigit() and tin[i + 1].isdigit() and tin[i] != tin[i + 1]]
    i = r.choice(spots)
    return tin[:i] + tin[i + 1] + tin[i] + tin[i + 2 :]


def build_1099_plants(ctx: Ctx) -> None:
    year = ctx.tl.tax_year
    paid = _paid_by_check(ctx, year)
    split = {p.key for p in ctx.vendors.values() if p.role == "split"}
    split_tins = {p.tin for p in ctx.vendors.values() if p.key in split}
    candidates = [
        p
        for key, p in sorted(ctx.vendors.items())
        if p.entity_type in REPORTABLE_TYPES
        and not p.materials_only
        and not p.is_attorney
        and p.tin not in split_tins
        and paid.get(key, Decimal(0)) >= 600
    ]
    taken_tins = {p.tin for p in ctx.vendors.values()}
    r = ctx.rng("form1099", "notices")
    named = [p for p in candidates if p.entity_type == "sole_proprietor" and p.dba_name]
    name_pick = named[:1]
    rest = [p for p in candidates if p not in name_pick]
    tin_pick = sorted(r.sample(rest, min(N_TIN_NOTICES, len(rest))), key=lambda p: p.key)
    for n, (p, kind) in enumerate([*((p, "tin") for p in tin_pick), *((p, "name") for p in name_pick)], start=1):
        if kind == "tin":
            filed_tin = _transpose(p.tin, r)
            while filed_tin in taken_tins:
                filed_tin = _transpose(p.tin, r)
            filed_name, w9_name, w9_business = p.legal_name, p.legal_name, p.dba_name
        else:
            filed_tin, filed_name, w9_name, w9_business = p.tin, str(p.dba_name), p.legal_name, p.dba_name
        notice_date = dt.date(year, 10, 1) + dt.timedelta(days=r.randint(0, 27))
        ctx.add(
            "tin_notices",
            notice_id=f"CP2100A-{year - 1}-{n:03d}",
            vendor_key=p.key,
            notice_type="CP2100A",
            tax_year=year - 1,
            notice_date=notice_date,
            mismatch=kind,
            filed_name=filed_name,
            filed_tin=filed_tin,
            w9_received_date=notice_date + dt.timedelta(days=r.randint(12, 40)),
            w9_name=w9_name,
            w9_business_name=w9_business,
            w9_tin=p.tin,
            tin_type="SSN" if p.entity_type in ("individual", "sole_proprietor") else "EIN",
        )
        ctx.diverge(
            f"bnotice_{kind}",
            p.key,
            reason=f"Track1099 still carries the {year - 1} 1099-NEC as filed for {p.key} "
            + (f"(TIN {filed_tin}); the new W-9 gives {p.tin}" if kind == "tin" else f"(line 1 '{filed_name}')"),
            apps=["track1099"],
        )
    noticed = {p.key for p in [*tin_pick, *name_pick]}
    rc = ctx.rng("form1099", "cards")
    pool = [p for p in candidates if p.key not in noticed]
    for p in sorted(rc.sample(pool, min(N_CARD_VENDORS, len(pool))), key=lambda p: p.key):
        for k in range(rc.randint(2, 4)):
            day = dt.date(year, 1, 1) + dt.timedelta(days=rc.randint(20, 340))
            ctx.add(
                "card_payments",
                card_payment_id=f"VC-{p.key}-{k + 1:02d}",
                vendor_key=p.key,
                payment_date=day,
                amount=Decimal(rc.randint(35000, 480000)) / 100,
                card_network="Mastercard",
                status="Settled",
            )
