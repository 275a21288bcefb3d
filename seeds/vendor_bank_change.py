"""Plants for T_vendor_bank_change: vendor remittance accounts and requests to change them.

``book.vendor_remittance``: the ACH account on file for every active subcontractor (the ERPs'
vendor masters carry it). ``book.vendor_bank_change_requests``: requests that reached the AP
mailbox to send a subcontractor's payments to a new account, each with what the vendor-master
change policy's verification found, and the mail around it in Outlook:

- an earlier, ordinary thread with the vendor from its real domain (a statement question
  answered by AP), so the real domain is on record beside the request;
- the request itself, with the new routing and account numbers and a call-back number;
- where one came, the signed Vendor Banking Change Form (a PDF attached to the request, also
  filed in SharePoint /AP/Vendor Banking Changes);
- where AP called, the callback log (a note to the AP mailbox: the number dialled, who answered,
  the outcome).

Kinds: ``genuine`` (from the vendor's own address, the form signed, the callback to the number
on file confirmed: the change is right), ``lookalike_domain`` (a sender domain one edit from the
vendor's, no form, no callback), ``callback_to_email_number`` (a lookalike sender with a form,
and a "confirmed" callback placed to the number in the email, not the one on file) and
``callback_denied`` (a lookalike sender; the callback to the number on file reached the vendor,
who sent no such request). Two of each of the first three kinds and one denied request, on
subcontractors no other plant uses, so every seed and clock has a clean control and the twists.
Everything comes from the ``vendor_bank_change`` stream and is appended after every other
module's rows.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

from cfab.seeds import anchors, names
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import stable_id
from cfab.seeds.policies import add_late_policy
from cfab.seeds.reference import DOMAIN
from cfab.seeds.signers import office_staff

STREAM = "vendor_bank_change"
ERPS = ("acumatica_construction", "cmic", "foundation_erp", "sage300cre")
# the requests planted, in order (the family's public keys are the first of each kind)
KINDS = (
    "genuine",
    "lookalike_domain",
    "callback_to_email_number",
    "callback_denied",
    "lookalike_domain",
    "genuine",
    "callback_to_email_number",
)
OUTCOME = {
    "genuine": "changed",
    "lookalike_domain": "held_pending_verification",
    "callback_to_email_number": "held_pending_verification",
    "callback_denied": "rejected",
}
BANKS = (
    "Old National Bank",
    "Busey Bank",
    "Wintrust Bank, N.A.",
    "First Mid Bank & Trust",
    "Heartland Bank and Trust Company",
    "Associated Bank, N.A.",
    "First Busey Bank",
    "Midland States Bank",
)
NEW_BANKS = ("Lead Bank", "Evolve Bank & Trust", "Choice Financial Group", "Cross River Bank", "Pathward, N.A.")
FORM_FOLDER = "/AP/Vendor Banking Changes"
POLICY_ID = "vendor_master_change_policy.md"
POLICY_TITLE = "Vendor Master Change Policy"
POLICY_BODY = """
Changes to a vendor's remittance (bank) details are the most common route to payment fraud.
No one changes a vendor's routing or account number on the strength of an email.

## 1. What a bank-account change needs
Both of the following, for every change, however urgent the request:
1. **A signed Vendor Banking Change Form** from the vendor: company name, old and new bank,
   routing and account numbers, signed by the vendor's authorized signer.
2. **A callback to the phone number on file**: AP calls the vendor at the phone number in our
   ERP vendor master - never a number given in the request, its signature block or the form -
   and confirms the new routing and account numbers with the vendor's authorized signer. The
   callback is logged to the AP mailbox (subject "Callback log"): date, number dialled, who
   answered, outcome.

Compare the sender's domain with the email on file in the vendor master and with the vendor's
earlier mail: a request from a domain one letter off, or another top-level domain, did not come
from the vendor.

## 2. When both are on file
Make the change in the ERP's vendor master with the ERP's vendor remittance tool (never by SQL
or a direct table edit), exactly as confirmed on the callback. No payment hold is needed. The
outcome is **changed**.

## 3. When either is missing (or the callback went to another number)
- Do not change the vendor's bank details.
- Place a **payment hold** on the vendor in the ERP, with the reason (bank change pending
  verification), so no payment goes out while the request is open.
- Draft a reply to the vendor **at the email address on file** (not the address the request
  came from) asking for the signed form and saying AP will call the number on file. Do not
  send it: the AP manager reviews and sends.
The outcome is **held_pending_verification**.

## 4. When the vendor denies the request
If the callback to the number on file reaches the vendor and the vendor did not ask for a
change, the request is fraudulent: do not change anything, place the payment hold (reason:
fraudulent bank change request), and draft a note to the vendor at the email on file telling
them of the attempt (not sent). The outcome is **rejected**.
"""


def aba_check_digit(first8: str) -> int:
    """The ABA routing number's ninth digit: 3-7-1 weights over the first eight, mod 10."""
    w = (3, 7, 1, 3, 7, 1, 3, 7)
    return (10 - sum(int(d) * k for d, k in zip(first8, w, strict=True)) % 10) % 10


def routing_number(r: random.Random) -> str:
    first8 = f"{r.choice((7, 8, 9, 10, 27, 28)):02d}{r.randint(0, 999999):06d}"
    return first8 + str(aba_check_digit(first8))


def account_number(r: random.Random) -> str:
    return str(r.randint(10**8, 10**11 - 1))


def lookalike_domain(domain: str, r: random.Random) -> str:
    """A domain one edit from ``domain`` (a doubled letter, a hyphen, another TLD, a swap)."""
    stem, _, tld = domain.rpartition(".")
    options = [f"{stem}.co", f"{stem}-inc.{tld}", f"{stem}.net"]
    if len(stem) > 4:
        i = r.randint(2, len(stem) - 2)
        options.append(stem[:i] + stem[i] + stem[i:] + "." + tld)  # a doubled letter
        options.append(stem[: i - 1] + stem[i] + stem[i - 1] + stem[i + 1 :] + "." + tld)  # a swap
    for a, b in (("rn", "m"), ("l", "1"), ("o", "0")):
        if b in stem and a != b:
            options.append(stem.replace(b, a, 1) + "." + tld)
    options = [o for o in dict.fromkeys(options) if o != domain]
    return r.choice(options)


def _at(d: date, h: int, m: int) -> datetime:
    return datetime.combine(d, time(h, m))


def build_vendor_bank_change(ctx: Ctx) -> None:
    r = ctx.rng(STREAM)
    start = ctx.tl.window_start
    subs = sorted(
        (v for v in ctx.rows("vendors") if v["vendor_type"] == "subcontractor" and v["status"] == "active"),
        key=lambda v: v["vendor_key"],
    )
    for v in subs:
        since = start + timedelta(days=r.randint(0, 200))
        ctx.add(
            "vendor_remittance",
            vendor_key=v["vendor_key"],
            bank_name=r.choice(BANKS),
            routing_number=routing_number(r),
            account_number=account_number(r),
            account_type="checking",
            on_file_since=min(since, ctx.clock - timedelta(days=60)),
        )
    remit = {x["vendor_key"]: x for x in ctx.rows("vendor_remittance")}
    systems: dict[str, set[str]] = {}
    for i in ctx.rows("vendor_identities"):
        systems.setdefault(i["vendor_key"], set()).add(i["system"])
    signers = {s["vendor_key"]: s for s in ctx.rows("vendor_signers")}
    used = set(anchors.ANCHOR_VENDORS) | set(anchors.EXPIRED_COI_VENDORS)
    used |= {
        d["entity_key"] for d in ctx.rows("divergences") if d["entity"] == "vendor" and d["kind"] != "vendor_spelling"
    }
    for table in ("tin_notices", "card_payments"):
        used |= {x["vendor_key"] for x in ctx.rows(table)}
    cands = [
        v
        for v in subs
        if v["vendor_key"] not in used
        and v["vendor_key"] in signers
        and not v["email"].endswith("@gmail.com")
        and set(ERPS) <= systems.get(v["vendor_key"], set())
    ]
    picked = sorted(r.sample(cands, min(len(KINDS), len(cands))), key=lambda v: v["vendor_key"])
    staff = office_staff(ctx)
    ap_name, ap_addr = staff["ap"]
    mailbox = f"ap@{DOMAIN}"
    for n, (v, kind) in enumerate(zip(picked, KINDS, strict=False)):
        _plant(ctx, r, n, v, kind, remit[v["vendor_key"]], signers[v["vendor_key"]], ap_name, ap_addr, mailbox)
    add_late_policy(ctx, POLICY_ID, POLICY_TITLE, POLICY_BODY)


def _send(
    ctx: Ctx,
    thread: str,
    n: int,
    folder: str,
    frm: str,
    to: str,
    subject: str,
    body: str,
    when: datetime,
    attach: str | None = None,
) -> None:
    when = min(when, datetime.combine(ctx.clock, time(17, 45)))
    ctx.add(
        "emails",
        message_id=stable_id("email", thread, n, f"ap@{DOMAIN}"),
        thread_id=stable_id("thread", thread),
        mailbox=f"ap@{DOMAIN}",
        folder=folder,
        from_addr=frm,
        to_addrs=to,
        cc_addrs=None,
        subject=subject,
        body=body.strip() + "\n",
        sent_at=when,
        attachment_document_ids=attach,
    )


def _plant(
    ctx: Ctx,
    r: random.Random,
    n: int,
    v: dict,
    kind: str,
    on_file: dict,
    signer: dict,
    ap_name: str,
    ap_addr: str,
    mailbox: str,
) -> None:
    key, clock = v["vendor_key"], ctx.clock
    local, _, domain = v["email"].partition("@")
    name = v["dba_name"] or v["legal_name"]
    who = signer["signer_name"]
    # the earlier, ordinary thread from the vendor's real address
    old = clock - timedelta(days=30 + r.randint(0, 12))
    thread = f"vendor-statement:{key}"
    _send(
        ctx,
        thread,
        1,
        "Inbox",
        v["email"],
        mailbox,
        f"{name} - statement of account",
        f"Hello,\n\nAttached is our statement as of {old:%B %d}. Could you confirm the payment date for our last "
        f"pay application?\n\nThank you,\n{who}\n{signer['signer_title']}, {v['legal_name']}\n{v['phone']}",
        _at(old, 9, 12),
    )
    _send(
        ctx,
        thread,
        2,
        "Sent",
        mailbox,
        v["email"],
        f"RE: {name} - statement of account",
        f"Hi {who.split()[0]},\n\nIt is scheduled for our next payment run, by ACH to your account on file.\n\n"
        f"{ap_name}\nAccounts Payable",
        _at(old + timedelta(days=1), 10, 40),
    )
    real = kind == "genuine"
    sender = v["email"] if real else f"{local}@{lookalike_domain(domain, r)}"
    area = v["phone"][1:4]
    phone = v["phone"] if real else names.phone(r, r.choice((area, "312", "872", "773")))
    while phone == v["phone"] and not real:
        phone = names.phone(r, "872")
    bank, routing, acct = r.choice(NEW_BANKS if not real else ("Busey Bank", "Old National Bank")), "", ""
    routing = routing_number(r)
    while routing == on_file["routing_number"]:
        routing = routing_number(r)
    acct = account_number(r)
    rid = f"VBC-{key}"
    received = _at(clock - timedelta(days=6 + n % 3), 8, 50 + n)
    form_id = None
    if kind in ("genuine", "callback_to_email_number"):
        form_id = stable_id("bank_change_form", rid)
        ctx.add(
            "documents",
            document_id=form_id,
            doc_type="bank_change_form",
            natural_key=rid,
            store="sharepoint",
            folder=FORM_FOLDER,
            filename=f"{key}_vendor_banking_change_form.pdf",
            mime_type="application/pdf",
            title=f"Vendor Banking Change Form - {v['legal_name']}",
            job_number=None,
            vendor_key=key,
            created_date=received.date(),
        )
    urgency = (
        ""
        if real
        else "Please update this before your next payment run; our old account is being closed this week and "
        "payments sent there will be returned. "
    )
    form_line = "Our signed banking change form is attached. " if form_id else "We will send the form to follow. "
    body = (
        f"Hello Accounts Payable,\n\n{v['legal_name']} has moved its operating account. Effective immediately, "
        f"please send all payments by ACH to:\n\nBank: {bank}\nRouting number: {routing}\nAccount number: {acct}\n"
        f"Account type: checking\n\n{urgency}{form_line}If you need to confirm, call me directly at {phone}.\n\n"
        f"Thank you,\n{who}\n{signer['signer_title']}, {v['legal_name']}\n{phone}"
    )
    thread = f"bank-change:{key}"
    _send(
        ctx,
        thread,
        1,
        "Inbox",
        sender,
        mailbox,
        f"Updated remittance / banking information - {v['legal_name']}",
        body,
        received,
        form_id,
    )
    callback_at = callback_phone = outcome_word = None
    if kind in ("genuine", "callback_to_email_number", "callback_denied"):
        callback_at = received + timedelta(days=1, hours=2)
        callback_phone = phone if kind == "callback_to_email_number" else v["phone"]
        outcome_word = "denied" if kind == "callback_denied" else "confirmed"
        said = (
            f"{who} said {v['legal_name']} has not changed banks and sent no such request; the account on file "
            "is still theirs."
            if kind == "callback_denied"
            else f"{who} confirmed the new account: {bank}, routing {routing}, account {acct} (checking)."
        )
        _send(
            ctx,
            f"callback-log:{key}",
            1,
            "Inbox",
            ap_addr,
            mailbox,
            f"Callback log - {v['legal_name']} banking change",
            f"Callback log\nVendor: {v['legal_name']}\nRequest: email of {received:%Y-%m-%d} from {sender}\n"
            f"Date: {callback_at:%Y-%m-%d %H:%M}\nNumber dialled: {callback_phone}\nSpoke with: {who}\n"
            f"Outcome: {outcome_word}. {said}\n\n{ap_name}",
            callback_at,
        )
    ctx.add(
        "vendor_bank_change_requests",
        request_id=rid,
        vendor_key=key,
        kind=kind,
        received_at=received,
        from_addr=sender,
        signer_name=who,
        phone_in_email=phone,
        new_bank_name=bank,
        new_routing=routing,
        new_account=acct,
        new_account_type="checking",
        form_document_id=form_id,
        callback_at=callback_at,
        callback_phone=callback_phone,
        callback_outcome=outcome_word,
        outcome=OUTCOME[kind],
    )
