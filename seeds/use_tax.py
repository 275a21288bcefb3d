"""Plants for R_use_tax: the clock month's material purchases bought outside a purchase order
(counter and will-call purchases, direct shipments) on which the supplier charged no sales tax,
so the company owes use tax on them in the state of the job they were delivered to.

On a few active jobs that no other family anchors on, two or three supplier invoices dated in the
clock month, posted in the ERP, with no purchase order (each with its AP journal entry Dr job cost
/ Cr 2000 gross and its PDF in Box, as every recent invoice has). Each job is given one role:

- ``vendor_taxed``: one more invoice on which the supplier billed sales tax (a "Sales tax" line):
  the vendor collected the tax, no use tax is due on that invoice;
- ``exempt``: on a tax-exempt owner's (public) job, one more invoice from a supplier the company
  gave an exemption certificate for the job (valid at the clock) and an expired certificate for
  another supplier whose purchase is still taxable (``book.tax_exemption_certificates``);
- ``freight``: one more invoice whose separately stated "Freight and delivery" line is not part
  of the taxable base (the materials on it are);
- ``out_of_state``: a job outside the company's state (its purchases go on that state's return,
  at that location's rate);
- ``control``: nothing but the plain purchases.

The use-tax policy (a book policy of its own, in SharePoint) says so. Everything comes from the
``use_tax`` stream and is appended after every other module's rows, so no earlier row changes.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, stable_id
from cfab.seeds.docmeta import add_invoice_pdf
from cfab.seeds.policies import add_late_policy
from cfab.seeds.retainage import _journal

STREAM = "use_tax"
POLICY_ID = "use_tax_policy.md"
POLICY_TITLE = "Sales and Use Tax on Purchases Policy"
# the state sales tax a supplier bills when it does charge tax (its own state's base rate)
VENDOR_STATE_RATE = {"IL": Decimal("0.0625"), "WI": Decimal("0.05"), "IN": Decimal("0.07")}
FALLBACK_CODE = "06-110"
ITEMS = {
    "03-310": (
        "Bagged concrete mix and grout",
        "Rebar chairs and tie wire",
        "Concrete form release and curing compound",
    ),
    "26-060": ("THHN wire, conduit and fittings", "Boxes, breakers and devices", "Lighting fixtures - will call"),
    "01-560": ("Misc. steel shapes and plate", "Roofing accessories and flashing", "Anchor bolts and fasteners"),
    "06-110": ("Dimensional lumber and sheathing", "Blocking and furring strips", "Engineered lumber - direct ship"),
    "08-110": ("Door hardware sets", "Hollow metal frames - will call", "Closers and exit devices"),
    "10-280": ("Toilet accessories", "Grab bars and mirrors", "Partitions hardware"),
}
POLICY_BODY = """
Purchases of materials and supplies that are used on our jobs (not resold) owe **use tax** to the
state where they are delivered whenever the seller did not charge sales tax. Use tax is accrued
and reported monthly, per state, on the use-tax return drafted in Avalara.

## 1. What is reviewed
- Supplier invoices **posted** in the ERP with an invoice date in the month. Invoices entered but
  not yet posted wait for the month they post in.
- Only purchases **outside a purchase order** (counter and will-call purchases, direct
  shipments). Our purchase orders are issued tax-included: suppliers on a PO bill the sales tax
  in their price, so PO invoices are never accrued.
- Subcontractor, professional and service invoices are not purchases of goods and are not
  reviewed here.

## 2. Purchases that owe no use tax
- **Seller charged tax**: an invoice with a sales tax line — the supplier collected the tax, so
  nothing on that invoice is accrued (not even its materials).
- **Exemption certificate**: purchases from a supplier we gave an exemption certificate for the
  job (a tax-exempt owner's project; see Certificates in Avalara) are exempt when the invoice
  date falls within the certificate's term. An **expired** certificate exempts nothing: those
  purchases are taxable.

## 3. The taxable base
- The taxable base is the price of the materials, supplies and their handling.
- **Freight and delivery** charges that are separately stated on the invoice are **not** part of
  the taxable base; the materials on the same invoice still are.

## 4. Rate and return
- The tax is due to the state of the job site the goods were delivered to, at that location's
  combined state, county and city rate as Avalara has it — a job in another state goes on
  **that state's** return at that location's rate, never on our home state's.
- The return is drafted in Avalara with one line per job location (taxable amount); Avalara
  computes the tax. The controller reviews and files it; nobody else e-files or remits.
"""


def _cost_codes(ctx: Ctx) -> dict[str, str]:
    """Each supplier's usual materials cost code (from its invoice lines)."""
    seen: dict[str, Counter[str]] = defaultdict(Counter)
    for inv in ctx.invoices.values():
        for ln in ctx.invoice_lines[inv["invoice_id"]]:
            if ln["cost_code"] in ITEMS:
                seen[inv["vendor_key"]][ln["cost_code"]] += 1
    return {v: c.most_common(1)[0][0] for v, c in seen.items()}


def build_use_tax(ctx: Ctx) -> None:
    r = ctx.rng(STREAM)
    clock = ctx.clock
    home = ctx.rows("company")[0]["state"]
    excluded = set(
        anchors.ETC_JOBS
        + anchors.AIA_JOBS
        + anchors.ACCRUAL_JOBS
        + anchors.SYNC_JOBS
        + anchors.CERT_JOBS
        + anchors.BILLED_AHEAD_JOBS
        + anchors.CONTINGENCY_JOBS
        + anchors.OWNER_SIDE_JOBS
    ) | {"9140"}
    jobs = sorted(
        (j for j in ctx.rows("jobs") if j["status"] == "active" and j["job_number"] not in excluded),
        key=lambda j: j["job_number"],
    )
    vendors = sorted(
        (v for v in ctx.rows("vendors") if v["vendor_type"] == "supplier" and "Rental" not in v["trade"]),
        key=lambda v: v["vendor_key"],
    )
    if not jobs or len(vendors) < 3:
        return
    codes = _cost_codes(ctx)
    away = [j for j in jobs if j["state"] != home]
    public = [j for j in jobs if j["state"] == home and j["job_type"] == "public"]
    roles: list[tuple[str, dict]] = []
    taken_jobs: set[str] = set()

    def pick(role: str, pool: list[dict]) -> None:
        pool = [j for j in pool if j["job_number"] not in taken_jobs]
        if pool:
            j = r.choice(pool)
            taken_jobs.add(j["job_number"])
            roles.append((role, j))

    pick("out_of_state", away)
    pick("exempt", public)
    homes = [j for j in jobs if j["state"] == home]
    for role in ("vendor_taxed", "freight", "control", "vendor_taxed", "freight"):
        pick(role, homes)
    pick("exempt", public)
    taken = {(i["vendor_key"], i["invoice_number"]) for i in ctx.invoices.values()}
    first = clock.replace(day=1)
    days = (clock - first).days
    entries: list[tuple[date, dict, list[dict]]] = []
    for role, job in sorted(roles, key=lambda x: x[1]["job_number"]):
        chosen = r.sample(vendors, 3)
        plain = chosen[:2] if role != "exempt" else chosen[1:]
        for v in plain:
            entries.append(_purchase(ctx, r, v, job, first + timedelta(days=r.randint(0, days)), codes, taken))
        v = chosen[0]
        day = first + timedelta(days=r.randint(0, days))
        if role == "vendor_taxed":
            entries.append(_purchase(ctx, r, v, job, day, codes, taken, tax=VENDOR_STATE_RATE.get(v["state"])))
        elif role == "freight":
            entries.append(_purchase(ctx, r, v, job, day, codes, taken, freight=True))
        elif role == "exempt":
            entries.append(_purchase(ctx, r, v, job, day, codes, taken))
            _certificate(ctx, r, v, job, valid=True)
            _certificate(ctx, r, chosen[1], job, valid=False)
    _journal(ctx, entries)
    add_late_policy(ctx, POLICY_ID, POLICY_TITLE, POLICY_BODY)


def _number(r, vendor: dict, taken: set[tuple[str, str]]) -> str:
    prefix = "".join(w[0] for w in vendor["legal_name"].split()[:3] if w[0].isalnum()).upper()  # "D&" reads back as "D"
    while True:
        num = f"{prefix}-{r.randint(10000, 99999)}"
        if (vendor["vendor_key"], num) not in taken:
            taken.add((vendor["vendor_key"], num))
            return num


def _purchase(
    ctx: Ctx,
    r,
    vendor: dict,
    job: dict,
    day: date,
    codes: dict[str, str],
    taken: set[tuple[str, str]],
    *,
    tax: Decimal | None = None,
    freight: bool = False,
) -> tuple[date, dict, list[dict]]:
    code = codes.get(vendor["vendor_key"], FALLBACK_CODE)
    items = r.sample(ITEMS[code], r.choice((1, 2)))
    lines = [
        {"cost_code": code, "description": item, "amount": money(Decimal(r.randint(45000, 1250000)) / 100)}
        for item in items
    ]
    if freight:
        lines.append(
            {"cost_code": code, "description": "Freight and delivery", "amount": money(Decimal(r.randint(85, 650)))}
        )
    if tax is not None:
        subtotal = sum((x["amount"] for x in lines), Decimal("0.00"))
        lines.append({"cost_code": code, "description": f"Sales tax {tax * 100:.2f}%", "amount": money(subtotal * tax)})
    number = _number(r, vendor, taken)
    # "u" sorts after every hex id: the apps that number invoices in invoice_id order (ressio,
    # ingenious_build) keep every earlier invoice's native id
    inv_id = "u" + stable_id("invoice", vendor["vendor_key"], number, length=11)
    gross = sum((x["amount"] for x in lines), Decimal("0.00"))
    row = ctx.add(
        "ap_invoices",
        invoice_id=inv_id,
        vendor_key=vendor["vendor_key"],
        job_number=job["job_number"],
        commitment_id=None,
        invoice_number=number,
        requisition_number=None,
        invoice_date=day,
        due_date=day + timedelta(days=30),
        period_start=None,
        period_end=None,
        gross_amount=gross,
        retainage_amount=Decimal("0.00"),
        net_amount=gross,
        pm_status=None,
        erp_status="posted",
        erp_synced=False,
        paid_amount=Decimal("0.00"),
        description=f"{items[0]} - {day:%B %Y}",
        document_id=stable_id("invoice", inv_id),
    )
    ctx.invoices[inv_id] = row
    add_invoice_pdf(ctx, inv_id, number, vendor["vendor_key"], vendor["legal_name"], job["job_number"], day)
    rows = [{**x, "commitment_line_no": None, "retainage": Decimal("0.00")} for x in lines]
    ctx.invoice_lines[inv_id] = [
        ctx.add("ap_invoice_lines", invoice_id=inv_id, line_no=n, **x) for n, x in enumerate(rows, start=1)
    ]
    return day, row, rows


def _certificate(ctx: Ctx, r, vendor: dict, job: dict, *, valid: bool) -> None:
    start = ctx.clock.replace(day=1)
    if valid:
        signed = start - timedelta(days=r.randint(60, 400))
        expires = date(signed.year + 3, signed.month, 1) - timedelta(days=1)
    else:
        expires = start - timedelta(days=r.randint(5, 60))
        signed = date(expires.year - 2, expires.month, 1)
    ctx.add(
        "tax_exemption_certificates",
        certificate_id=stable_id("exemption_certificate", vendor["vendor_key"], job["job_number"]),
        vendor_key=vendor["vendor_key"],
        job_number=job["job_number"],
        region=job["state"],
        exempt_reason="Exempt organization (government) project",
        exemption_number=f"E{r.randint(9000, 9999)}-{r.randint(1000, 9999)}-{r.randint(10, 99)}",
        signed_date=signed,
        expiration_date=expires,
    )
