"""Argument models of the ERP tools (shared by the eight vendors; each tool's docstring carries
its vendor's examples)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Literal

from pydantic import Field

from cfab.apps.tooling import ToolArgs

__all__ = [
    "VendorListArgs",
    "VendorIdArgs",
    "HoldArgs",
    "Set1099Args",
    "RemittanceArgs",
    "JobListArgs",
    "JobIdArgs",
    "JobCostArgs",
    "ContractArgs",
    "CommitListArgs",
    "CommitIdArgs",
    "ApListArgs",
    "ApGetArgs",
    "ApLine",
    "ApCreateArgs",
    "JeLine",
    "JeStageArgs",
    "JeListArgs",
    "AccountsArgs",
    "PeriodsArgs",
    "BalanceArgs",
    "CoListArgs",
    "CoItem",
    "CoCreateArgs",
    "CoKeyArgs",
    "EtcPhase",
    "EtcArgs",
    "CheckListArgs",
    "QueryArgs",
    "PostArgs",
    "PaymentArgs",
]


# ---------------------------------------------------------------------------------------------
# argument models (shared by the eight vendors; the docstrings carry each vendor's examples)
# ---------------------------------------------------------------------------------------------
class VendorListArgs(ToolArgs):
    name_contains: str | None = Field(None, description="Case-insensitive part of the vendor name", examples=["walsh"])
    vendor_id: str | None = Field(None, description="This ERP's vendor id", examples=["20147", "V1001"])
    status: Literal["active", "inactive"] | None = Field(
        None, description="Only active or inactive vendors", examples=["active"]
    )
    on_hold: bool | None = Field(
        None, description="Only vendors with (true) or without (false) a payment hold", examples=[True]
    )


class VendorIdArgs(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])


class HoldArgs(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])
    on_hold: bool = Field(True, description="true places the payment hold, false releases it", examples=[True])
    reason: str | None = Field(None, description="Why (kept with the hold)", examples=["COI expired 2026-01-15"])
    hold_code: str | None = Field(
        None, description="Hold code, where the ERP uses hold codes (e.g. COI, LIEN, W9, DISP, MGMT)", examples=["COI"]
    )


class Set1099Args(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])
    is_1099: bool = Field(..., description="Whether payments to the vendor are 1099-reportable", examples=[True])
    form_type: str | None = Field(None, description="1099 form/box type when reportable", examples=["NEC"])


class RemittanceArgs(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])
    routing_number: str = Field(..., description="The new account's 9-digit ABA routing number", examples=["071000013"])
    account_number: str = Field(..., description="The new account number (digits)", examples=["4417820935"])
    account_type: Literal["checking", "savings"] = Field(
        "checking", description="checking or savings", examples=["checking"]
    )
    bank_name: str | None = Field(
        None, description="The new account's bank, where the ERP keeps it", examples=["Busey Bank"]
    )
    reason: str | None = Field(
        None,
        description="How the change was verified (kept in the tool's result)",
        examples=["Signed form 2026-01-22; callback to number on file confirmed"],
    )


class JobListArgs(ToolArgs):
    status: Literal["active", "closed"] | None = Field(
        None, description="Only active or closed jobs", examples=["active"]
    )
    name_contains: str | None = Field(None, description="Case-insensitive part of the job name", examples=["library"])


class JobIdArgs(ToolArgs):
    job_id: str = Field(..., description="This ERP's job id (see the hh2 job map)", examples=["1042-", "1042"])


class JobCostArgs(ToolArgs):
    job_id: str = Field(..., description="This ERP's job id", examples=["1042-", "1042"])
    phase: str | None = Field(None, description="Only this phase / cost code", examples=["16-100-00"])


class ContractArgs(ToolArgs):
    job_id: str = Field(..., description="The job (= contract) id in this ERP", examples=["1042-", "1042"])


class CommitListArgs(ToolArgs):
    job_id: str | None = Field(None, description="Only this job (this ERP's id)", examples=["1042-", "1042"])
    vendor_id: str | None = Field(None, description="Only this vendor (this ERP's id)", examples=["20147", "V1000"])
    status: Literal["approved", "draft", "closed"] | None = Field(
        None, description="Only this status", examples=["approved"]
    )
    include_items: bool = Field(False, description="Also return each commitment's items", examples=[True])


class CommitIdArgs(ToolArgs):
    subcontract_id: str = Field(..., description="Subcontract number in this ERP", examples=["SC-1042-0"])


class ApListArgs(ToolArgs):
    job_id: str | None = Field(None, description="Only this job (this ERP's id)", examples=["1042-", "1042"])
    vendor_id: str | None = Field(None, description="Only this vendor (this ERP's id)", examples=["20147", "V1001"])
    status: Literal["unposted", "posted"] | None = Field(
        None, description="unposted (entered, awaiting post) or posted", examples=["unposted"]
    )
    invoice_number: str | None = Field(None, description="The vendor's invoice number", examples=["JSM-88421"])
    date_from: date | None = Field(None, description="Invoice date on or after", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Invoice date on or before", examples=["2026-01-31"])


class ApGetArgs(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])
    invoice_number: str = Field(..., description="The vendor's invoice number", examples=["JSM-88421"])


class ApLine(ToolArgs):
    phase: str = Field(
        ..., description="ERP phase / task / cost code (through the hh2 cost-code map)", examples=["16-100-00"]
    )
    cost_type: int = Field(
        ..., description="ERP cost type: 1 labor 2 material 3 subcontract 4 equipment 5 other", examples=[3]
    )
    amount: Decimal = Field(..., description="Line amount (gross, before retainage)", examples=["14350.00"])
    retainage: Decimal = Field(Decimal("0"), description="Retainage withheld on the line", examples=["1435.00"])
    description: str | None = Field(None, description="Line description", examples=["Electrical rough-in, Jan"])


class ApCreateArgs(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])
    job_id: str = Field(..., description="This ERP's job id", examples=["1042-", "9140"])
    invoice_number: str = Field(..., description="The vendor's invoice number", examples=["JSM-88421"])
    invoice_date: date = Field(..., description="Invoice date", examples=["2026-01-20"])
    due_date: date | None = Field(
        None, description="Due date (default invoice date + 30 days)", examples=["2026-02-19"]
    )
    description: str | None = Field(None, description="Invoice description", examples=["Pay app #3"])
    lines: list[ApLine] | None = Field(
        None,
        description="Distribution lines; or give amount/phase/cost_type for one line",
        examples=[[{"phase": "16-100-00", "cost_type": 3, "amount": "14350.00", "retainage": "0.00"}]],
    )
    amount: Decimal | None = Field(None, description="Single-line shorthand: the invoice amount", examples=["14350.00"])
    phase: str | None = Field(None, description="Single-line shorthand: the phase", examples=["16-100-00"])
    cost_type: int | None = Field(None, description="Single-line shorthand: the cost type", examples=[3])
    retainage: Decimal | None = Field(None, description="Single-line shorthand: retainage", examples=["0.00"])
    commitment_id: str | None = Field(
        None, description="Subcontract / PO the invoice bills, if any", examples=["PO-9140-2"]
    )
    period: str | None = Field(
        None,
        description="GL month YYYY-MM (default: the invoice month if open, else the open month)",
        examples=["2026-01"],
    )


class JeLine(ToolArgs):
    account: str = Field(..., description="GL account", examples=["5200"])
    debit: Decimal = Field(Decimal("0"), description="Debit amount", examples=["12500.00"])
    credit: Decimal = Field(Decimal("0"), description="Credit amount", examples=["0.00"])
    job_id: str | None = Field(None, description="Job dimension (this ERP's id)", examples=["1042-", "1042"])
    phase: str | None = Field(None, description="Phase / cost code dimension", examples=["16-100-00"])
    cost_type: int | None = Field(None, description="Cost type dimension", examples=[3])
    memo: str | None = Field(None, description="Line memo", examples=["Accrue uninvoiced subcontract work"])


class JeStageArgs(ToolArgs):
    entry_date: date = Field(..., description="Entry date", examples=["2026-01-31"])
    description: str = Field(..., description="Entry description", examples=["Accrue uninvoiced sub work, job 1042"])
    lines: list[JeLine] = Field(
        ...,
        min_length=2,
        description="At least two lines; debits must equal credits",
        examples=[
            [
                {"account": "5200", "debit": "100.00", "job_id": "1042-"},
                {"account": "2100", "credit": "100.00", "job_id": "1042-"},
            ]
        ],
    )
    period: str | None = Field(
        None, description="Fiscal period YYYY-MM (default: the entry date's month)", examples=["2026-01"]
    )
    auto_reverse: bool = Field(
        False, description="Reverse automatically on the first day of the next period", examples=[True]
    )
    journal: str = Field("GJ", description="Journal code", examples=["GJ"])
    reference: str | None = Field(None, description="Reference number", examples=["ACR-1042-0126"])


class JeListArgs(ToolArgs):
    period: str | None = Field(None, description="Fiscal period YYYY-MM", examples=["2026-01"])
    status: Literal["unposted", "posted"] | None = Field(
        None, description="unposted (draft batches) or posted", examples=["unposted"]
    )
    job_id: str | None = Field(None, description="Only entries with a line on this job", examples=["1042-", "1042"])
    include_lines: bool = Field(False, description="Also return each entry's lines", examples=[True])
    limit: int = Field(100, ge=1, le=1000, description="Most entries to return (newest first)", examples=[50])


class AccountsArgs(ToolArgs):
    account_type: Literal["asset", "liability", "equity", "revenue", "expense"] | None = Field(
        None, description="Only this account type", examples=["liability"]
    )


class PeriodsArgs(ToolArgs):
    status: Literal["open", "closed"] | None = Field(None, description="Only open or closed periods", examples=["open"])


class BalanceArgs(ToolArgs):
    account: str = Field(..., description="GL account", examples=["2100"])
    through_period: str | None = Field(
        None, description="Through fiscal period YYYY-MM (default: all)", examples=["2025-12"]
    )
    job_id: str | None = Field(None, description="Only lines on this job", examples=["1042-", "1042"])


class CoListArgs(ToolArgs):
    job_id: str | None = Field(None, description="Only this job (this ERP's id)", examples=["3100-", "3100"])
    status: Literal["pending", "approved"] | None = Field(None, description="Only this status", examples=["pending"])


class CoItem(ToolArgs):
    phase: str = Field(..., description="Phase / cost code", examples=["03-300-00"])
    cost_type: int = Field(..., description="Cost type", examples=[3])
    amount: Decimal = Field(..., description="Budget change on the phase", examples=["101700.00"])
    description: str | None = Field(None, description="Item description", examples=["Added footings"])


class CoCreateArgs(ToolArgs):
    job_id: str = Field(..., description="This ERP's job id", examples=["3100-", "3100"])
    description: str = Field(..., description="What changed", examples=["Unforeseen rock excavation"])
    amount: Decimal = Field(..., description="Total amount of the change", examples=["101700.00"])
    kind: Literal["owner", "internal"] = Field(
        ..., description="owner: raises contract and budget; internal: budget transfer only", examples=["internal"]
    )
    items: list[CoItem] | None = Field(
        None,
        description="Budget change by phase (must sum to amount)",
        examples=[[{"phase": "02-200-00", "cost_type": 3, "amount": "101700.00"}]],
    )
    change_event: int | None = Field(None, description="The PM change event number it comes from", examples=[4])


class CoKeyArgs(ToolArgs):
    job_id: str = Field(..., description="This ERP's job id", examples=["3100-", "3100"])
    co_number: str = Field(..., description="Change order number in this ERP", examples=["004"])


class EtcPhase(ToolArgs):
    phase: str = Field(..., description="Phase / cost code", examples=["16-100-00"])
    cost_type: int = Field(..., description="Cost type", examples=[3])
    estimate_to_complete: Decimal = Field(
        ..., description="New estimate to complete for the phase", examples=["125000.00"]
    )


class EtcArgs(ToolArgs):
    job_id: str = Field(..., description="This ERP's job id", examples=["1042-", "1042"])
    estimate_to_complete: Decimal | None = Field(
        None, description="New job-level estimated cost to complete", examples=["3706560.00"]
    )
    phases: list[EtcPhase] | None = Field(
        None,
        description="Per-phase estimates to complete",
        examples=[[{"phase": "16-100-00", "cost_type": 3, "estimate_to_complete": "125000.00"}]],
    )
    note: str | None = Field(None, description="Projection note", examples=["Per PM forecast 2026-01-30"])


class CheckListArgs(ToolArgs):
    bank_account: str | None = Field(None, description="Bank / cash account code", examples=["BA-OPER"])
    check_from: int | None = Field(None, description="Lowest check number", examples=[10450])
    check_to: int | None = Field(None, description="Highest check number", examples=[10500])
    date_from: date | None = Field(None, description="Issued on or after", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Issued on or before", examples=["2026-01-31"])
    payee_contains: str | None = Field(None, description="Part of the payee name as printed", examples=["walsh"])
    vendor_id: str | None = Field(None, description="This ERP's vendor id", examples=["20147", "V1000"])
    status: Literal["issued", "cleared", "void"] | None = Field(None, description="Check status", examples=["issued"])
    limit: int = Field(200, ge=1, le=2000, description="Most checks to return", examples=[100])


class QueryArgs(ToolArgs):
    sql: str = Field(
        ...,
        description="One read-only SELECT over this ERP's schema (tables qualified)",
        examples=["SELECT * FROM vista_erp.APVM LIMIT 5"],
    )
    max_rows: int = Field(100, ge=1, le=500, description="Most rows to return", examples=[50])


class PostArgs(ToolArgs):
    kind: Literal["ap_invoice", "journal_entry", "change_order", "projection"] = Field(
        ..., description="What to post", examples=["journal_entry"]
    )
    vendor_id: str | None = Field(None, description="ap_invoice: vendor id", examples=["20147"])
    invoice_number: str | None = Field(
        None, description="ap_invoice: the vendor's invoice number", examples=["JSM-88421"]
    )
    batch_id: str | None = Field(
        None, description="journal_entry: the batch / entry id stage returned", examples=["14022"]
    )
    job_id: str | None = Field(None, description="change_order / projection: the job id", examples=["3100-"])
    co_number: str | None = Field(None, description="change_order: its number", examples=["004"])


class PaymentArgs(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])
    invoice_numbers: list[str] = Field(
        ..., min_length=1, description="Posted invoices to pay", examples=[["JSM-88421"]]
    )
    bank_account: str = Field("BA-OPER", description="Bank / cash account to pay from", examples=["BA-OPER"])
    amount: Decimal | None = Field(
        None, description="Amount to pay (default: the open net amount)", examples=["12915.00"]
    )
    pay_date: date | None = Field(None, description="Payment date", examples=["2026-01-31"])


# ---------------------------------------------------------------------------------------------
# the archetype
# ---------------------------------------------------------------------------------------------
