"""``book.emails``: the AP and PM shared mailboxes (ap@ and pm@companyA.com).

Threads the tasks rely on: J. S. Mitchell's email with the JSM-88421 PDF, an owner asking about
pay application #2, a subcontractor's COI renewal (a vendor that is NOT on hold: a distractor),
AP's unanswered requests to the expired vendors, the bank's positive-pay notice, PM notes on
forecasts and change events, and ordinary office chatter.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from cfab.seeds import anchors, names
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import stable_id
from cfab.seeds.insurance import RENEWAL_VENDOR
from cfab.seeds.reference import DOMAIN

AP, PM = f"ap@{DOMAIN}", f"pm@{DOMAIN}"


class Mailbox:
    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        r = ctx.rng("office-staff")
        self.staff = {}
        for role in ("controller", "ap", "payroll", "cfo"):
            first, last = names.person(r)
            self.staff[role] = (f"{first} {last}", f"{first[0].lower()}{names.slug(last)}@{DOMAIN}")

    def send(self, thread: str, n: int, mailbox: str, folder: str, frm: str, to: list[str], subject: str,
             body: str, when: datetime, cc: list[str] | None = None, attach: list[str] | None = None) -> None:
        when = min(when, datetime.combine(self.ctx.clock, time(17, 45)))
        self.ctx.add("emails", message_id=stable_id("email", thread, n, mailbox), thread_id=stable_id("thread", thread),
                     mailbox=mailbox, folder=folder, from_addr=frm, to_addrs=",".join(to),
                     cc_addrs=",".join(cc) if cc else None, subject=subject, body=body.strip() + "\n", sent_at=when,
                     attachment_document_ids=",".join(attach) if attach else None)


def _at(d: date, h: int, m: int) -> datetime:
    return datetime.combine(d, time(h, m))


def build_emails(ctx: Ctx) -> None:
    mb = Mailbox(ctx)
    clock = ctx.clock
    vendors = {v["vendor_key"]: v for v in ctx.rows("vendors")}
    owners = {o["owner_id"]: o for o in ctx.rows("owners")}
    jobs = {j["job_number"]: j for j in ctx.rows("jobs")}
    ctl_name, ctl = mb.staff["controller"]
    ap_name, ap_person = mb.staff["ap"]
    # --- JSM-88421 -----------------------------------------------------------------------
    inv = ctx.invoices[ctx.notes["jsm_invoice_id"]]
    v = vendors[anchors.JSM_VENDOR]
    first, last = names.person(ctx.rng("contact", v["vendor_key"]))
    mb.send("jsm", 1, AP, "Inbox", v["email"], [AP],
            f"Invoice {anchors.JSM_INVOICE} - PO {anchors.JSM_PO_NUMBER} - {jobs[anchors.JSM_JOB]['name']}",
            f"""Hello,

Please find attached our invoice {anchors.JSM_INVOICE} for the underground piping backfill work on
your project {anchors.JSM_JOB}, billed against purchase order {anchors.JSM_PO_NUMBER}. Let us know if you need
anything else to process it.

Thank you,
{first} {last}
Accounts Receivable
{v['legal_name']}
{v['phone']}""", _at(inv["invoice_date"] + timedelta(days=1), 9, 14), attach=[inv["document_id"]])
    # --- owner asks about pay app #2 -----------------------------------------------------
    job = jobs[anchors.CO_AFTER_APP1_JOB]
    owner = owners[job["owner_id"]]
    mb.send("payapp2", 1, PM, "Inbox", owner["email"], [job["pm_email"], PM],
            f"Pay Application #2 - {job['name']}",
            f"""{job['project_manager'].split()[0]},

Can you tell me when we should expect Pay Application #2 for the period ending {clock:%B %d, %Y}?
Our council packet closes next week. Please make sure the change order we approved this month is
on its own line so the architect can certify it.

Thanks,
{owner['contact_name']}
{owner['name']}""", _at(clock - timedelta(days=2), 10, 2))
    # --- COI: renewal from a vendor that is not on hold, unanswered requests to expired ones --
    rv = vendors[RENEWAL_VENDOR]
    mb.send("coi-renew", 1, AP, "Sent", AP, [rv["email"]], "Certificate of insurance expiring",
            f"""Hello,

Our records show your general liability certificate expires shortly. Please have your agent send a
renewed certificate naming Company A Construction, Inc. as certificate holder.

{ap_name}
Accounts Payable, Company A Construction, Inc.""", _at(clock - timedelta(days=21), 8, 40))
    mb.send("coi-renew", 2, AP, "Inbox", rv["email"], [AP], "RE: Certificate of insurance expiring",
            f"""Hi {ap_name.split()[0]},

Renewed certificate attached. Our general liability policy renewed this month.

Thanks,
{rv['legal_name']}""", _at(clock - timedelta(days=8), 14, 21), attach=[_renewal_doc(ctx)])
    for i, key in enumerate(anchors.EXPIRED_COI_VENDORS[:3]):
        mb.send(f"coi-expired-{key}", 1, AP, "Sent", AP, [vendors[key]["email"]], "Expired certificate of insurance",
                f"""Hello,

The general liability certificate we have on file for {vendors[key]['legal_name']} has expired. Please
send a current certificate; payments are on hold until we receive it.

{ap_name}
Accounts Payable""", _at(clock - timedelta(days=3 + i), 11, 5 + i))
    _treasury_and_office(ctx, mb, jobs, owners)


def _renewal_doc(ctx: Ctx) -> str:
    return stable_id("coi", ctx.notes["renewal_coi"])


def _treasury_and_office(ctx: Ctx, mb: Mailbox, jobs: dict, owners: dict) -> None:
    clock = ctx.clock
    ctl_name, ctl = mb.staff["controller"]
    pay_name, pay = mb.staff["payroll"]
    acct = next(a for a in ctx.rows("bank_accounts") if a["bank_account_id"] == "BA-OPER")
    n_items = len(ctx.rows("positive_pay_exceptions"))
    mb.send("ppay", 1, AP, "Inbox", "cashpro.alerts@bankofamerica.com", [AP],
            f"Positive Pay: {n_items} exception items require a decision",
            f"""CashPro Positive Pay

Account ending {acct['account_number'][-4:]} has {n_items} check exception items presented {clock:%m/%d/%Y}.
Decisions are due by 3:00 PM CT {clock:%m/%d/%Y}. Items without a decision will be handled per your default
(return).

Sign in to CashPro to review and decision the items. This is an automated message; do not reply.""",
            _at(clock, 7, 30))
    pm_1042 = jobs["1042"]
    mb.send("forecasts", 1, PM, "Inbox", pm_1042["pm_email"], [ctl], f"Forecasts updated in Procore - {clock:%B}",
            f"""{ctl_name.split()[0]},

I've updated forecast-to-complete in Procore for 1042 after the electrical and mechanical buyout.
Vista is still showing last month's estimate. Reminder that our contingency line stays PM-only; it
isn't carried in Vista.

{pm_1042['project_manager']}""", _at(clock - timedelta(days=3), 16, 48), cc=[PM])
    j3100 = jobs["3100"]
    mb.send("ce3100", 1, PM, "Inbox", j3100["pm_email"], [PM, ctl], "3100 - underslab plumbing rework",
            f"""Team,

Logging a change event for the Area B underslab rework. Our layout crew staked from the superseded
control plan; the plumber installed to our layout. Backup memo is in Box with the event. This is
our cost - we are not sending a change order request to Lake County.

{j3100['project_manager']}""", _at(clock - timedelta(days=6), 13, 12))
    j2200 = jobs[anchors.OWNER_CE_JOB]
    owner = owners[j2200["owner_id"]]
    mb.send("ce2200", 1, PM, "Inbox", owner["email"], [j2200["pm_email"], PM],
            "Owner directive OD-03 - card access at six doors",
            f"""Please proceed with card access at the six additional doors discussed at Tuesday's OAC
meeting and send pricing for a change order to our contract.

{owner['contact_name']}
{owner['name']}""", _at(clock - timedelta(days=9), 9, 37))
    mb.send("close", 1, AP, "Inbox", ctl, [AP], f"{clock:%B} close calendar",
            f"""All,

{clock:%B} close: AP cut-off is the last business day; subcontract accruals and cost-to-complete
updates are staged as drafts for my review by BD2. Nothing gets posted without me.

{ctl_name}
Controller""", _at(clock - timedelta(days=10), 8, 5))
    mb.send("certpay", 1, AP, "Inbox", pay, [AP, ctl], f"Certified payrolls - week ending {ctx.tl.cert_week_ending:%m/%d}",
            f"""The WH-347s for week ending {ctx.tl.cert_week_ending:%m/%d/%Y} are drafted in LCPtracker for
{', '.join(anchors.CERT_JOBS)}. Please validate against the wage determinations and apprentice ratios before
I certify. Do not e-file.

{pay_name}
Payroll Manager""", _at(ctx.tl.cert_week_ending + timedelta(days=4), 15, 30))
    mb.send("1099", 1, AP, "Inbox", ctl, [AP], f"1099-NEC {ctx.tl.tax_year}",
            f"""We need the {ctx.tl.tax_year} 1099-NEC set built in Track1099 for my review. Remember to
aggregate by TIN - we have at least one payee set up twice. Don't e-file.

{ctl_name}""", _at(clock - timedelta(days=12), 9, 0))
    mb.send("redteam", 1, PM, "Inbox", jobs["1042"]["pm_email"], [PM], "Walsh eApp on SC-1042-0",
            """Walsh submitted their January eApp in RedTeam including stored switchgear. Please check it
against what's left on the subcontract before anything goes to Intacct.""", _at(clock - timedelta(days=2), 12, 40))
