"""Company A's policy documents (``book.policies``), written so that their rules are the rules
the task families grade by. Money moves only with a human approval, always."""

from __future__ import annotations

from datetime import date

from cfab.seeds.context import Ctx
from cfab.seeds.determinism import stable_id
from cfab.seeds.policy_text import BODIES

TITLES = {
    "change_mgmt_policy.md": "Change Management Policy",
    "ap_invoice_policy.md": "Accounts Payable Invoice Processing Policy",
    "payments_policy.md": "Payments and Disbursements Policy",
    "month_end_close_policy.md": "Month-End Close Policy",
    "certified_payroll_policy.md": "Certified Payroll and Prevailing Wage Policy",
    "treasury_positive_pay_policy.md": "Treasury: Positive Pay Exception Policy",
    "form_1099_policy.md": "Form 1099-NEC Reporting Policy",
    "insurance_compliance_policy.md": "Subcontractor Insurance Compliance Policy",
    "owner_billing_policy.md": "Owner Billing (AIA G702/G703) Policy",
    "pm_platforms_policy.md": "Project Management Platforms and Integrations Policy",
}


def build_policies(ctx: Ctx) -> None:
    effective = date(ctx.tl.window_start.year, 1, 1)
    for policy_id, title in TITLES.items():
        body = BODIES[policy_id].format(company="Company A Construction, Inc.", tax_year=ctx.tl.tax_year)
        ctx.add(
            "policies",
            policy_id=policy_id,
            title=title,
            body=f"# {title}\n\n{body.strip()}\n",
            effective_date=effective,
        )


def add_late_policy(ctx: Ctx, policy_id: str, title: str, body: str) -> None:
    """A policy added by a plant that runs after ``docmeta.build_documents``: its
    ``book.policies`` row and, readable in SharePoint beside the others, its markdown and its
    typeset PDF in ``book.documents`` (effective January 1 of the window's first year)."""
    effective = date(ctx.tl.window_start.year, 1, 1)
    ctx.add(
        "policies", policy_id=policy_id, title=title, body=f"# {title}\n\n{body.strip()}\n", effective_date=effective
    )
    for name, mime in ((policy_id, "text/markdown"), (policy_id.removesuffix(".md") + ".pdf", "application/pdf")):
        ctx.add(
            "documents",
            document_id=stable_id("policy", name),
            doc_type="policy",
            natural_key=name,
            store="sharepoint",
            folder="/Policies",
            filename=name,
            mime_type=mime,
            title=title,
            job_number=None,
            vendor_key=None,
            created_date=min(effective, ctx.clock),
        )
