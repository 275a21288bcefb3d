"""Plants for G_retainage_reclass: the clock month's subcontractor pay requests brought into the
ERP by the month-end AP import, which posts the gross to 2000 Accounts Payable and leaves the
retainage for the month-end reclass to 2010 Retainage Payable (AP entry keyed by hand splits it
at posting, as every earlier invoice in the book does).

On a few active jobs that no other family anchors on, one or two imported pay requests on
subcontracts with progress still unbilled (posted, not in the PM app, unpaid; each with its AP
journal entry Dr job cost / Cr 2000 gross). On up to two jobs with a finished subcontract (every
line 100 % complete and billed, retainage held in 2010, nothing pending) a retainage release
imported the same way: a zero-gross pay request whose line releases the held retainage (negative
retainage, net = the release), which the import posts nothing for, so the release still sits in
2010 until the reclass moves it back to 2000 (the reverse reclass). Each has its PDF in Box, as
every recent invoice does. The AP retainage policy (a book policy of its own, in SharePoint) says
so. Everything comes from the ``retainage_reclass`` stream and is appended after every other
module's rows, so no earlier row changes.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import money, stable_id
from cfab.seeds.docmeta import add_invoice_pdf
from cfab.seeds.policies import add_late_policy
from cfab.seeds.reference import CODES, COST_TYPE_ACCOUNT
from cfab.seeds.timeline import period_of

STREAM = "retainage_reclass"
PLANTED_JOBS = 8  # jobs with imported pay requests (public keys and held-out keys)
RELEASE_JOBS = 2  # of which, at most, jobs with a released retainage on a finished subcontract
MIN_CAPACITY = Decimal("2000.00")
POLICY_ID = "ap_retainage_policy.md"
POLICY_TITLE = "Accounts Payable Retainage Policy"
POLICY_BODY = """
Retainage withheld from subcontractors is a liability to the subcontractor, carried in **2010
Retainage Payable**, never in 2000 Accounts Payable - Trade, until it is released.

## 1. Where retainage posts
- Invoices keyed in AP entry post their retainage to 2010 when they post (their AP journal entry
  credits 2000 with the net and 2010 with the retainage). Nothing further is done for them.
- Pay requests brought in by the month-end **AP import** post their gross to 2000: their AP
  journal entry has no 2010 line. Their retainage is reclassified at month end (section 2).
  An invoice's retainage is in 2000 exactly when its AP journal entry has no 2010 line.
- Invoices entered but not yet posted have not reached the GL and are not reclassified.

## 2. Month-end retainage reclass
For each job, over the subcontractor invoices posted in the month whose retainage is still in
2000: stage one journal entry **Dr 2000 / Cr 2010** for the retainage they withheld, with the job
on every line, dated the last day of the month, not auto-reversing (a reclass is permanent).

## 3. Released retainage
When a finished subcontract's retainage is released, the imported release (a pay request with no
work this period and negative retainage, its net the released amount) makes the release payable,
but the import posts nothing: the released retainage is still in 2010. Move it back in the same
month-end entry with its own lines, **Dr 2010 / Cr 2000** for the amount released — do not net
it against the retainage withheld (the reclass schedule shows both). A job with a release and no
withholding gets an entry with the release lines only.

## 4. Review
The entry is staged as a draft for the controller; only the controller posts. Retainage payable
then ties to the retainage column of the AP subledger.
"""


def build_retainage_reclass(ctx: Ctx) -> None:
    r = ctx.rng(STREAM)
    clock = ctx.clock
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
    active = {j["job_number"] for j in ctx.rows("jobs") if j["status"] == "active"} - excluded
    billed: dict[tuple[str, int], Decimal] = defaultdict(Decimal)
    held: dict[str, Decimal] = defaultdict(Decimal)
    pending: set[str] = set()
    taken = {(i["vendor_key"], i["invoice_number"]) for i in ctx.invoices.values()}
    for inv in ctx.invoices.values():
        cid = inv["commitment_id"]
        if not cid:
            continue
        for ln in ctx.invoice_lines[inv["invoice_id"]]:
            billed[(cid, ln["commitment_line_no"])] += ln["amount"]
        if inv["erp_status"] == "posted":
            held[cid] += inv["retainage_amount"]
        else:
            pending.add(cid)
    commitment_lines: dict[str, list[dict]] = defaultdict(list)
    for ln in ctx.rows("commitment_lines"):
        commitment_lines[ln["commitment_id"]].append(ln)
    subs = [
        c
        for c in sorted(ctx.rows("commitments"), key=lambda c: c["commitment_id"])
        if c["commitment_type"] == "subcontract"
        and c["status"] == "approved"
        and c["erp_synced"]
        and c["retainage_pct"] > 0
        and c["job_number"] in active
    ]
    capacity: dict[str, list[tuple[dict, Decimal]]] = {}
    finished: dict[str, list[dict]] = defaultdict(list)
    for c in subs:
        cid, lines = c["commitment_id"], commitment_lines[c["commitment_id"]]
        room = [(ln, min(ln["amount"], ln["work_completed"]) - billed[(cid, ln["line_no"])]) for ln in lines]
        room = [(ln, x) for ln, x in room if x >= MIN_CAPACITY]
        if room:
            capacity[cid] = room
        done = all(ln["pct_complete"] == 100 and billed[(cid, ln["line_no"])] == ln["amount"] for ln in lines)
        if done and held[cid] > 0 and cid not in pending:
            finished[c["job_number"]].append(c)
    by_job: dict[str, list[dict]] = defaultdict(list)
    for c in subs:
        if c["commitment_id"] in capacity:
            by_job[c["job_number"]].append(c)
    release_jobs = sorted(finished)
    release_jobs = sorted(r.sample(release_jobs, min(RELEASE_JOBS, len(release_jobs))))
    # half of the rest on jobs whose month already holds keyed invoices that split their retainage
    month = f"{clock:%Y-%m}"
    keyed = {
        i["job_number"]
        for i in ctx.invoices.values()
        if i["erp_status"] == "posted" and i["retainage_amount"] > 0 and f"{i['invoice_date']:%Y-%m}" == month
    }
    entered = {
        i["job_number"]
        for i in ctx.invoices.values()
        if i["erp_status"] != "not_entered" and i["retainage_amount"] and f"{i['invoice_date']:%Y-%m}" == month
    }
    others = sorted(j for j in by_job if j not in release_jobs)
    want = PLANTED_JOBS - len(release_jobs)
    # and one clean control: a job whose month holds no other entered invoice with retainage
    control = r.sample([j for j in others if j not in entered], min(1, len([j for j in others if j not in entered])))
    split = [j for j in others if j in keyed]
    first = control + r.sample(split, min(len(split), want // 2))
    rest = [j for j in others if j not in first]
    plain = sorted(first + r.sample(rest, min(want - len(first), len(rest))))
    seq = 0
    entries: list[tuple[date, dict, list[dict]]] = []
    for job in sorted(set(plain) | set(release_jobs)):
        day = clock  # the month-end AP import
        if job in by_job:
            chosen = r.sample(by_job[job], min(len(by_job[job]), r.choice((1, 2))))
            for c in sorted(chosen, key=lambda c: c["commitment_id"]):
                room = capacity[c["commitment_id"]]
                picked = sorted(r.sample(room, min(len(room), r.choice((1, 2)))), key=lambda x: x[0]["line_no"])
                billing: list[tuple[dict, Decimal, Decimal]] = []
                for ln, cap in picked:
                    amount = money(cap * Decimal(r.randint(30, 80)) / 100)
                    billing.append((ln, amount, money(amount * c["retainage_pct"] / 100)))
                seq += 1
                entries.append(_pay_request(ctx, c, day, billing, seq, taken))
        for c in finished.get(job, [])[:1]:
            seq += 1
            line_one = commitment_lines[c["commitment_id"]][0]
            entries.append(_release(ctx, c, line_one, day, held[c["commitment_id"]], seq, taken))
    _journal(ctx, entries)
    add_late_policy(ctx, POLICY_ID, POLICY_TITLE, POLICY_BODY)


def _number(ctx: Ctx, vendor: str, seq: int, taken: set[tuple[str, str]]) -> str:
    n = seq
    while (vendor, f"PR-{ctx.clock:%y%m}-{n:03d}") in taken:
        n += 100
    num = f"PR-{ctx.clock:%y%m}-{n:03d}"
    taken.add((vendor, num))
    return num


def _requisition(ctx: Ctx, cid: str) -> int:
    numbers = (i["requisition_number"] or 0 for i in ctx.invoices.values() if i["commitment_id"] == cid)
    return 1 + max(numbers, default=0)


def _invoice(ctx: Ctx, c: dict, day: date, number: str, description: str, lines: list[dict]) -> dict:
    inv_id = stable_id("invoice", c["vendor_key"], number)
    gross = sum((x["amount"] for x in lines), Decimal("0.00"))
    retainage = sum((x["retainage"] for x in lines), Decimal("0.00"))
    row = ctx.add(
        "ap_invoices",
        invoice_id=inv_id,
        vendor_key=c["vendor_key"],
        job_number=c["job_number"],
        commitment_id=c["commitment_id"],
        invoice_number=number,
        requisition_number=_requisition(ctx, c["commitment_id"]),
        invoice_date=day,
        due_date=day + timedelta(days=30),
        period_start=day.replace(day=1),
        period_end=day,
        gross_amount=gross,
        retainage_amount=retainage,
        net_amount=gross - retainage,
        pm_status=None,
        erp_status="posted",
        erp_synced=False,
        paid_amount=Decimal("0.00"),
        description=description,
        document_id=stable_id("invoice", inv_id),
    )
    ctx.invoices[inv_id] = row
    legal = next(v["legal_name"] for v in ctx.rows("vendors") if v["vendor_key"] == c["vendor_key"])
    add_invoice_pdf(ctx, inv_id, number, c["vendor_key"], legal, c["job_number"], day)
    ctx.invoice_lines[inv_id] = [
        ctx.add("ap_invoice_lines", invoice_id=inv_id, line_no=n, **x) for n, x in enumerate(lines, start=1)
    ]
    return row


def _pay_request(
    ctx: Ctx, c: dict, day: date, lines: list[tuple[dict, Decimal, Decimal]], seq: int, taken: set[tuple[str, str]]
) -> tuple[date, dict, list[dict]]:
    number = _number(ctx, c["vendor_key"], seq, taken)
    rows = [
        {
            "commitment_line_no": ln["line_no"],
            "cost_code": ln["cost_code"],
            "description": ln["description"],
            "amount": amount,
            "retainage": ret,
        }
        for ln, amount, ret in lines
    ]
    inv = _invoice(ctx, c, day, number, f"{c['title']} - pay request {day:%b %Y} (AP import)", rows)
    return day, inv, rows


def _release(
    ctx: Ctx, c: dict, first: dict, day: date, amount: Decimal, seq: int, taken: set[tuple[str, str]]
) -> tuple[date, dict, list[dict]]:
    number = _number(ctx, c["vendor_key"], seq, taken)
    rows = [
        {
            "commitment_line_no": first["line_no"],
            "cost_code": first["cost_code"],
            "description": "Retainage release - subcontract complete",
            "amount": Decimal("0.00"),
            "retainage": -amount,
        }
    ]
    inv = _invoice(ctx, c, day, number, f"{c['title']} - retainage release (AP import)", rows)
    return day, inv, rows


def _journal(ctx: Ctx, entries: list[tuple[date, dict, list[dict]]]) -> None:
    """The import's AP entries: Dr job cost by cost type / Cr 2000 gross (nothing for a release)."""
    seq: dict[str, int] = defaultdict(int)
    for je in ctx.rows("journal_entries"):
        if je["journal"] == "AP":
            seq[je["period"]] = max(seq[je["period"]], int(je["je_number"].rsplit("-", 1)[1]))
    for day, inv, rows in sorted(entries, key=lambda e: (e[0], e[1]["invoice_id"])):
        if not inv["gross_amount"]:
            continue
        period = period_of(day)
        seq[period] += 1
        number = f"AP{day:%y%m}-{seq[period]:04d}"
        je_id = stable_id("je", "AP", number)
        ctx.add(
            "journal_entries",
            je_id=je_id,
            journal="AP",
            je_number=number,
            entry_date=day,
            period=period,
            description=f"AP import {inv['invoice_number']}",
            status="posted",
            source_ref=inv["invoice_id"],
            auto_reverse=False,
        )
        job, vendor = inv["job_number"], inv["vendor_key"]
        lines = [
            (
                COST_TYPE_ACCOUNT[CODES[x["cost_code"]].cost_type],
                job,
                x["cost_code"],
                x["amount"],
                Decimal("0.00"),
                x["description"][:60],
            )
            for x in rows
        ]
        lines.append(("2000", job, None, Decimal("0.00"), inv["gross_amount"], inv["invoice_number"]))
        for n, (acct, jb, code, dr, cr, memo) in enumerate(lines, start=1):
            ctx.add(
                "journal_lines",
                je_id=je_id,
                line_no=n,
                account=acct,
                job_number=jb,
                cost_code=code if acct != "2000" else None,
                vendor_key=vendor,
                debit=dr,
                credit=cr,
                memo=memo,
            )
