"""``book.documents``: one metadata row per document the system holds (the renderer in
``cfab.seeds.documents`` produces the bytes from the book rows the natural key points at).

document_id = stable_id(doc_type, natural_key), the same id the owning row carries in its
``document_id`` column. PDFs: invoices (the last two months, the plants), certificates of
insurance, lien waivers, owner pay applications, WH-347s, subcontracts, change-event backups;
markdown policies, each also as a PDF beside it (``<policy>.pdf``); Excel workbooks (WIP, accrual
schedule, 1099 vendors, SOV export per billing job). Only the scale-1 universe has documents.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from cfab.seeds.context import Ctx
from cfab.seeds.determinism import stable_id

PDF, MD = "application/pdf", "text/markdown"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")


def _doc(
    ctx: Ctx,
    doc_type: str,
    natural_key: str,
    store: str,
    folder: str,
    filename: str,
    title: str,
    created: date,
    job: str | None = None,
    vendor: str | None = None,
    mime: str = PDF,
) -> str:
    doc_id = stable_id(doc_type, natural_key)
    ctx.add(
        "documents",
        document_id=doc_id,
        doc_type=doc_type,
        natural_key=natural_key,
        store=store,
        folder=folder,
        filename=filename,
        mime_type=mime,
        title=title,
        job_number=job,
        vendor_key=vendor,
        created_date=min(created, ctx.clock),
    )
    return doc_id


def add_invoice_pdf(
    ctx: Ctx, invoice_id: str, number: str, vendor_key: str, legal_name: str, job_number: str, day: date
) -> str:
    """A planted invoice's PDF in Box, where every recent invoice has one
    (``/AP/Invoices/<yyyy-mm>/<vendor>_<number>.pdf``); returns its document id."""
    return _doc(
        ctx,
        "invoice",
        invoice_id,
        "box",
        f"/AP/Invoices/{day:%Y-%m}",
        f"{vendor_key}_{_safe(number)}.pdf",
        f"Invoice {number} - {legal_name}",
        day,
        job=job_number,
        vendor=vendor_key,
    )


def build_documents(ctx: Ctx) -> None:
    legal = {v["vendor_key"]: v["legal_name"] for v in ctx.rows("vendors")}
    for inv in sorted(ctx.invoices.values(), key=lambda i: i["invoice_id"]):
        if inv["document_id"]:
            _doc(
                ctx,
                "invoice",
                inv["invoice_id"],
                "box",
                f"/AP/Invoices/{inv['invoice_date']:%Y-%m}",
                f"{inv['vendor_key']}_{_safe(inv['invoice_number'])}.pdf",
                f"Invoice {inv['invoice_number']} - {legal[inv['vendor_key']]}",
                inv["invoice_date"],
                inv["job_number"],
                inv["vendor_key"],
            )
    for coi in ctx.rows("certificates_of_insurance"):
        received = coi["effective_date"] - timedelta(days=3)
        _doc(
            ctx,
            "coi",
            coi["coi_id"],
            "box",
            f"/Compliance/COI/{coi['vendor_key']}",
            f"COI_{coi['vendor_key']}_{coi['coverage_type']}_{coi['expiry_date']:%Y%m%d}.pdf",
            f"Certificate of insurance ({coi['coverage_type'].replace('_', ' ')}) - {legal[coi['vendor_key']]}",
            received,
            None,
            coi["vendor_key"],
        )
    for w in ctx.rows("lien_waivers"):
        if w["document_id"]:
            _doc(
                ctx,
                "lien_waiver",
                w["waiver_id"],
                "box",
                f"/Lien Waivers/{w['job_number']}",
                f"{w['waiver_type']}_{w['vendor_key']}_{w['through_date']:%Y%m%d}_{w['waiver_id'][:6]}.pdf",
                f"{w['waiver_type'].replace('_', ' ').title()} waiver - {legal[w['vendor_key']]} "
                f"through {w['through_date']}",
                w["signed_date"],
                w["job_number"],
                w["vendor_key"],
            )
    for app in ctx.rows("owner_pay_apps"):
        key = f"{app['job_number']}:{app['app_number']}"
        _doc(
            ctx,
            "pay_app",
            key,
            "box",
            f"/Billing/Owner Pay Apps/{app['job_number']}",
            f"{app['job_number']}_PayApp_{app['app_number']:02d}_G702-G703.pdf",
            f"Job {app['job_number']} application #{app['app_number']} (AIA G702/G703) "
            f"period ending {app['period_end']}",
            app["submitted_date"],
            app["job_number"],
        )
    for cp in ctx.rows("certified_payrolls"):
        _doc(
            ctx,
            "wh347",
            cp["submission_id"],
            "sharepoint",
            f"/Payroll/Certified Payroll/{cp['job_number']}",
            f"WH-347_{cp['job_number']}_{cp['week_ending']:%Y-%m-%d}.pdf",
            f"WH-347 certified payroll #{cp['payroll_number']} - job {cp['job_number']} "
            f"week ending {cp['week_ending']}",
            cp["week_ending"] + timedelta(days=3),
            cp["job_number"],
        )
    for c in ctx.rows("commitments"):
        if c["document_id"]:
            _doc(
                ctx,
                "subcontract",
                c["commitment_id"],
                "sharepoint",
                f"/Contracts/Subcontracts/{c['job_number']}",
                f"{c['commitment_id']}_Subcontract_Agreement.pdf",
                f"Subcontract {c['number']} - {legal[c['vendor_key']]}",
                c["executed_date"],
                c["job_number"],
                c["vendor_key"],
            )
    dates = ctx.notes.get("ce_dates", {})
    for ce in ctx.rows("change_events"):
        _doc(
            ctx,
            "change_backup",
            ce["change_event_id"],
            "box",
            f"/Projects/{ce['job_number']}/Change Events",
            f"{ce['change_event_id']}_backup.pdf",
            f"{ce['change_event_id']} backup - {ce['title']}",
            dates.get(ce["change_event_id"], ctx.clock),
            ce["job_number"],
        )
    period = ctx.tl.open_period
    workbooks = (
        ("wip_schedule", f"/Finance/Close/{period}", f"WIP schedule {period}"),
        ("accrual_schedule", f"/Finance/Close/{period}", f"Subcontract accrual schedule {period}"),
        ("vendor_1099", f"/Finance/Tax/{ctx.tl.tax_year}", f"1099 vendor list {ctx.tl.tax_year}"),
    )
    for key, folder, title in workbooks:
        _doc(ctx, "workbook", key, "excel", folder, f"{key}_{period}.xlsx", title, ctx.clock, mime=XLSX)
    for job in sorted({a["job_number"] for a in ctx.rows("owner_pay_apps") if a["status"] == "certified"}):
        _doc(
            ctx,
            "workbook",
            f"sov_export:{job}",
            "excel",
            f"/Billing/SOV/{job}",
            f"{job}_SOV.xlsx",
            f"Job {job} schedule of values",
            ctx.clock,
            job,
            mime=XLSX,
        )
    for p in ctx.rows("policies"):
        _doc(
            ctx,
            "policy",
            p["policy_id"],
            "sharepoint",
            "/Policies",
            p["policy_id"],
            p["title"],
            p["effective_date"],
            mime=MD,
        )
    for p in ctx.rows("policies"):  # and as a typeset PDF beside it: <policy>.pdf
        pdf = re.sub(r"\.md$", "", p["policy_id"]) + ".pdf"
        _doc(ctx, "policy", pdf, "sharepoint", "/Policies", pdf, p["title"], p["effective_date"])
