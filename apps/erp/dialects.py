"""The eight ERP vocabularies: how each vendor names the archetype's logical tables and columns.

A :class:`Dialect` maps logical tables (``cfab.apps.erp.model``) onto native tables. Several
logical tables may share one native table, told apart by a ``fixed`` column (Sage Intacct keeps
draft and posted bills in APBILL, distinguished by STATE; subcontracts and purchase orders in
PODOCUMENT, distinguished by DOCPARID). Vendors with separate unposted and posted structures
(Vista APHB/APTH, GLJB/GLDT) map them to separate native tables.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from cfab.apps.erp.model import TABLES


@dataclass(frozen=True)
class TMap:
    """One logical table on one native table."""

    logical: str
    table: str
    cols: dict[str, str]  # logical column -> native column
    pk: tuple[str, ...]  # logical columns of the native primary key
    fixed: tuple[str, tuple[str, ...]] | None = None  # (native column, (insert word, *other read words))
    link: tuple[str, ...] = ()  # line tables: logical columns shared with the header
    display: str | None = None  # logical column agents use to name a document

    def n(self, logical: str) -> str:
        try:
            return self.cols[logical]
        except KeyError:
            raise KeyError(f"{self.table} ({self.logical}) has no column for {logical!r}") from None

    def has(self, logical: str) -> bool:
        return logical in self.cols


@dataclass(frozen=True)
class DocId:
    kind: Literal["int", "str"] = "int"
    prefix: str = ""
    width: int = 6
    offset: int = 0


@dataclass(frozen=True)
class Dialect:
    app: str
    short: str
    vendor_int: bool = False
    bool_yn: bool = False
    period: Literal["date", "dash", "compact"] = "dash"
    je_amounts: Literal["dc", "signed", "trtype"] = "dc"
    hold_mode: Literal["table", "column"] = "column"
    docid: dict[str, DocId] = field(default_factory=dict)  # 'ap' / 'je' -> format
    status: dict[str, dict[str, str]] = field(default_factory=dict)
    tables: dict[str, TMap] = field(default_factory=dict)
    supports_auto_reverse: bool = True

    def t(self, logical: str) -> TMap:
        try:
            return self.tables[logical]
        except KeyError:
            raise KeyError(f"{self.app} keeps no {logical} table") from None

    def word(self, domain: str, canonical: str) -> str:
        return self.status.get(domain, {}).get(canonical, canonical)

    def words(self) -> dict[str, dict[str, str]]:
        return self.status


# ---------------------------------------------------------------------------------------------
# naming helpers
# ---------------------------------------------------------------------------------------------
def pascal(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def title_(name: str) -> str:
    return "_".join(p[:1].upper() + p[1:] for p in name.split("_"))


STYLES: dict[str, Callable[[str], str]] = {"pascal": pascal, "upper": str.upper, "snake": lambda s: s, "title": title_}


def auto(
    logical: str,
    table: str,
    style: str,
    over: dict[str, str] | None = None,
    *,
    drop: tuple[str, ...] = (),
    keep: tuple[str, ...] | None = None,
    pk: tuple[str, ...] = (),
    fixed=None,
    link: tuple[str, ...] = (),
    display: str | None = None,
) -> TMap:
    """Map every logical column (minus ``drop``, or only ``keep``) by a naming style, with overrides."""
    over = over or {}
    fn = STYLES[style]
    cols: dict[str, str] = {}
    for c in TABLES[logical].names:
        if c in drop or (keep is not None and c not in keep and c not in over):
            continue
        cols[c] = over.get(c, fn(c))
    missing = [k for k in pk if k not in cols]
    if missing:
        raise ValueError(f"{table}: primary key columns {missing} are not mapped")
    return TMap(logical, table, cols, pk, fixed, link, display)


def m(logical: str, table: str, cols: dict[str, str], pk: tuple[str, ...], **kw) -> TMap:
    unknown = [c for c in cols if c not in TABLES[logical].names]
    if unknown:
        raise ValueError(f"{table}: unknown logical columns {unknown} for {logical}")
    return TMap(logical, table, cols, pk, **kw)


def _tables(*maps: TMap) -> dict[str, TMap]:
    return {t.logical: t for t in maps}


_NO_BATCH = ("co", "mth", "batch_id", "batch_seq")

# ---------------------------------------------------------------------------------------------
# Viewpoint Vista: the reference ERP
# ---------------------------------------------------------------------------------------------
VISTA = Dialect(
    app="vista_erp",
    short="vista",
    vendor_int=True,
    bool_yn=True,
    period="date",
    je_amounts="signed",
    hold_mode="table",
    docid={"ap": DocId("int"), "je": DocId("int")},
    status={
        "vendor_type": {"subcontractor": "S", "supplier": "M", "professional": "P", "service": "V"},
        "job": {"active": "Open", "closed": "Closed"},
        "proj": {"posted": "Posted", "pending": "Pending"},
        "contract": {"executed": "Open", "closed": "Closed"},
        "commit": {"approved": "Open", "draft": "Pending", "closed": "Closed"},
        "pay": {"open": "Open", "partial": "Partial", "paid": "Paid"},
        "je": {"unposted": "Open", "posted": "Posted"},
        "acct_type": {"asset": "A", "liability": "L", "equity": "C", "revenue": "I", "expense": "E"},
        "period": {"open": "Open", "closed": "Closed"},
        "co_kind": {"owner": "Owner", "internal": "Internal"},
        "co": {"pending": "Pending", "approved": "Approved"},
        "check": {"issued": "Outstanding", "cleared": "Cleared", "void": "Void"},
    },
    tables=_tables(
        m(
            "vendor",
            "APVM",
            {
                "co": "VendorGroup",
                "vendor_id": "Vendor",
                "name": "Name",
                "sort_name": "SortName",
                "vendor_type": "Type",
                "tin": "TaxId",
                "is_1099": "V1099YN",
                "type_1099": "V1099Type",
                "active": "ActiveYN",
                "terms": "PayTerms",
                "address": "Address",
                "city": "City",
                "state": "State",
                "zip": "Zip",
                "phone": "Phone",
                "email": "EMail",
                "eft": "EFT",
                "bank_routing": "RoutingId",
                "bank_account": "BankAcct",
                "bank_account_type": "AcctType",
            },
            ("co", "vendor_id"),
            display="vendor_id",
        ),
        m("hold_code", "HQHC", {"hold_code": "HoldCode", "description": "Description"}, ("hold_code",)),
        m(
            "vendor_hold",
            "APVH",
            {
                "co": "VendorGroup",
                "vendor_id": "Vendor",
                "hold_code": "HoldCode",
                "notes": "Notes",
                "added_date": "DateAdded",
            },
            ("co", "vendor_id", "hold_code"),
        ),
        m(
            "job",
            "JCJM",
            {
                "co": "JCCo",
                "job_id": "Job",
                "name": "Description",
                "status": "JobStatus",
                "contract_id": "Contract",
                "project_manager": "ProjectMgr",
                "start_date": "StartDate",
                "est_completion_date": "ProjCloseDate",
                "address": "MailAddress",
                "city": "MailCity",
                "state": "MailState",
                "prevailing_wage": "CertPayrollYN",
                "etc_amount": "EstCostToComplete",
                "etc_status": "ProjStatus",
                "etc_date": "ProjDate",
                "etc_by": "ProjBy",
            },
            ("co", "job_id"),
        ),
        m(
            "contract",
            "JCCM",
            {
                "co": "JCCo",
                "contract_id": "Contract",
                "contract_number": "CustContract",
                "description": "Description",
                "customer": "CustomerName",
                "orig_amount": "OrigContractAmt",
                "current_amount": "ContractAmt",
                "retainage_pct": "RetainagePCT",
                "start_date": "StartDate",
                "status": "ContractStatus",
            },
            ("co", "contract_id"),
        ),
        m(
            "contract_item",
            "JCCI",
            {
                "co": "JCCo",
                "contract_id": "Contract",
                "item": "Item",
                "description": "Description",
                "orig_amount": "OrigContractAmt",
                "current_amount": "ContractAmt",
                "retainage_pct": "RetainPCT",
            },
            ("co", "contract_id", "item"),
            link=("co", "contract_id"),
        ),
        m(
            "job_phase",
            "JCJP",
            {
                "co": "JCCo",
                "job_id": "Job",
                "phase": "Phase",
                "description": "Description",
                "contract_id": "Contract",
                "active": "ActiveYN",
            },
            ("co", "job_id", "phase"),
        ),
        m(
            "budget",
            "JCCH",
            {
                "co": "JCCo",
                "job_id": "Job",
                "phase": "Phase",
                "cost_type": "CostType",
                "description": "Description",
                "orig_budget": "OrigCost",
                "approved_changes": "ChangeOrderCost",
                "revised_budget": "CurrEstCost",
                "etc_amount": "EstCostToComplete",
                "proj_status": "ProjStatus",
            },
            ("co", "job_id", "phase", "cost_type"),
        ),
        m(
            "cost_detail",
            "JCCD",
            {
                "co": "JCCo",
                "mth": "Mth",
                "trans": "CostTrans",
                "job_id": "Job",
                "phase": "Phase",
                "cost_type": "CostType",
                "act_date": "ActualDate",
                "source": "JCTransType",
                "description": "Description",
                "vendor_id": "Vendor",
                "ref": "GLRef",
                "amount": "ActualCost",
            },
            ("co", "mth", "trans"),
        ),
        m(
            "sub_hdr",
            "SLHD",
            {
                "co": "SLCo",
                "sub_id": "SL",
                "pm_number": "PMSLRef",
                "job_id": "Job",
                "vendor_id": "Vendor",
                "description": "Description",
                "status": "Status",
                "orig_amount": "OrigCost",
                "approved_co": "ChangeOrderCost",
                "current_amount": "CurCost",
                "retainage_pct": "RetainPct",
                "executed_date": "OrigDate",
            },
            ("co", "sub_id"),
            display="sub_id",
        ),
        m(
            "sub_item",
            "SLIT",
            {
                "co": "SLCo",
                "sub_id": "SL",
                "item": "SLItem",
                "job_id": "Job",
                "phase": "Phase",
                "cost_type": "JCCType",
                "description": "Description",
                "amount": "CurCost",
            },
            ("co", "sub_id", "item"),
            link=("co", "sub_id"),
        ),
        m(
            "po_hdr",
            "POHD",
            {
                "co": "POCo",
                "sub_id": "PO",
                "pm_number": "PMPORef",
                "job_id": "Job",
                "vendor_id": "Vendor",
                "description": "Description",
                "status": "Status",
                "orig_amount": "OrigCost",
                "approved_co": "ChangeOrderCost",
                "current_amount": "CurCost",
                "executed_date": "OrderDate",
            },
            ("co", "sub_id"),
            display="sub_id",
        ),
        m(
            "po_item",
            "POIT",
            {
                "co": "POCo",
                "sub_id": "PO",
                "item": "POItem",
                "job_id": "Job",
                "phase": "Phase",
                "cost_type": "JCCType",
                "description": "Description",
                "amount": "CurCost",
            },
            ("co", "sub_id", "item"),
            link=("co", "sub_id"),
        ),
        m(
            "ap_open_hdr",
            "APHB",
            {
                "co": "Co",
                "mth": "Mth",
                "batch_id": "BatchId",
                "batch_seq": "BatchSeq",
                "vendor_id": "Vendor",
                "apref": "APRef",
                "description": "Description",
                "inv_date": "InvDate",
                "due_date": "DueDate",
                "job_id": "Job",
                "sub_id": "SL",
                "gross": "InvTotal",
                "retainage": "RetainageAmt",
                "net": "NetAmt",
                "source": "Source",
                "source_ref": "ExternalRef",
                "created_date": "DateCreated",
            },
            ("co", "mth", "batch_id", "batch_seq"),
            display="batch_id",
        ),
        m(
            "ap_open_line",
            "APLB",
            {
                "co": "Co",
                "mth": "Mth",
                "batch_id": "BatchId",
                "batch_seq": "BatchSeq",
                "line_no": "APLine",
                "job_id": "Job",
                "phase": "Phase",
                "cost_type": "JCCType",
                "sub_id": "SL",
                "sub_item": "SLItem",
                "description": "Description",
                "gross": "GrossAmt",
                "retainage": "Retainage",
            },
            ("co", "mth", "batch_id", "batch_seq", "line_no"),
            link=("co", "mth", "batch_id", "batch_seq"),
        ),
        m(
            "ap_hdr",
            "APTH",
            {
                "co": "APCo",
                "mth": "Mth",
                "doc_id": "APTrans",
                "vendor_id": "Vendor",
                "apref": "APRef",
                "description": "Description",
                "inv_date": "InvDate",
                "due_date": "DueDate",
                "job_id": "Job",
                "sub_id": "SL",
                "gross": "InvTotal",
                "retainage": "Retainage",
                "net": "NetAmt",
                "source": "Source",
                "source_ref": "ExternalRef",
                "paid_amount": "PaidAmt",
                "pay_status": "PayStatus",
                "pay_hold": "PayHoldYN",
                "pay_hold_reason": "HoldReason",
            },
            ("co", "mth", "doc_id"),
            display="doc_id",
        ),
        m(
            "ap_line",
            "APTL",
            {
                "co": "APCo",
                "mth": "Mth",
                "doc_id": "APTrans",
                "line_no": "APLine",
                "job_id": "Job",
                "phase": "Phase",
                "cost_type": "JCCType",
                "sub_id": "SL",
                "sub_item": "SLItem",
                "description": "Description",
                "gross": "GrossAmt",
                "retainage": "Retainage",
            },
            ("co", "mth", "doc_id", "line_no"),
            link=("co", "mth", "doc_id"),
        ),
        m(
            "je_open_hdr",
            "GLJB",
            {
                "co": "Co",
                "mth": "Mth",
                "batch_id": "BatchId",
                "jrnl": "Jrnl",
                "ref": "GLRef",
                "description": "Description",
                "act_date": "ActDate",
                "status": "Status",
                "auto_reverse": "ReverseYN",
                "created_by": "CreatedBy",
                "created_date": "DateCreated",
            },
            ("co", "mth", "batch_id"),
            display="batch_id",
        ),
        m(
            "je_open_line",
            "GLDB",
            {
                "co": "Co",
                "mth": "Mth",
                "batch_id": "BatchId",
                "line_no": "BatchSeq",
                "jrnl": "Jrnl",
                "ref": "GLRef",
                "act_date": "ActDate",
                "account": "GLAcct",
                "job_id": "Job",
                "phase": "Phase",
                "cost_type": "JCCType",
                "description": "Description",
                "amount": "Amount",
            },
            ("co", "mth", "batch_id", "line_no"),
            link=("co", "mth", "batch_id"),
        ),
        m(
            "je_hdr",
            "GLRF",
            {
                "co": "GLCo",
                "mth": "Mth",
                "jrnl": "Jrnl",
                "ref": "GLRef",
                "description": "Description",
                "act_date": "ActDate",
                "auto_reverse": "ReverseYN",
                "source_ref": "SourceRef",
            },
            ("co", "mth", "jrnl", "ref"),
            display="ref",
        ),
        m(
            "je_line",
            "GLDT",
            {
                "co": "GLCo",
                "mth": "Mth",
                "trans": "GLTrans",
                "jrnl": "Jrnl",
                "ref": "GLRef",
                "act_date": "ActDate",
                "account": "GLAcct",
                "job_id": "Job",
                "phase": "Phase",
                "cost_type": "JCCType",
                "description": "Description",
                "amount": "Amount",
            },
            ("co", "mth", "trans"),
            link=("co", "mth", "jrnl", "ref"),
        ),
        m(
            "gl_account",
            "GLAC",
            {
                "co": "GLCo",
                "account": "GLAcct",
                "description": "Description",
                "acct_type": "AcctType",
                "normal_balance": "NormBal",
                "active": "Active",
                "is_job_cost": "JobCostYN",
                "is_control": "SubLedgerYN",
            },
            ("co", "account"),
        ),
        m(
            "fiscal_period",
            "GLFP",
            {
                "co": "GLCo",
                "mth": "Mth",
                "start_date": "BeginDate",
                "end_date": "EndDate",
                "fiscal_year": "FiscalYr",
                "status": "Status",
            },
            ("co", "mth"),
        ),
        m(
            "co_hdr",
            "JCOH",
            {
                "co": "JCCo",
                "job_id": "Job",
                "co_number": "ACO",
                "description": "Description",
                "co_kind": "ChangeType",
                "increases_contract": "IntExt",
                "contract_amount": "ContractAmt",
                "budget_amount": "EstCostAmt",
                "status": "Status",
                "approved_date": "ApprovalDate",
                "change_event": "PCO",
                "created_date": "DateCreated",
                "source_ref": "ExternalRef",
            },
            ("co", "job_id", "co_number"),
            display="co_number",
        ),
        m(
            "co_item",
            "JCOI",
            {
                "co": "JCCo",
                "job_id": "Job",
                "co_number": "ACO",
                "item": "ACOItem",
                "phase": "Phase",
                "cost_type": "CostType",
                "description": "Description",
                "budget_amount": "EstCost",
                "contract_amount": "ContractAmt",
            },
            ("co", "job_id", "co_number", "item"),
            link=("co", "job_id", "co_number"),
        ),
        m(
            "check",
            "CMDT",
            {
                "co": "CMCo",
                "bank_acct": "CMAcct",
                "check_number": "CMRef",
                "mth": "Mth",
                "issue_date": "ActDate",
                "vendor_id": "Vendor",
                "payee_name": "Payee",
                "amount": "Amount",
                "status": "Status",
                "cleared_date": "ClearDate",
                "check_kind": "Source",
            },
            ("co", "bank_acct", "check_number"),
        ),
        m(
            "check_detail",
            "APPD",
            {
                "co": "APCo",
                "bank_acct": "CMAcct",
                "check_number": "CMRef",
                "vendor_id": "Vendor",
                "apref": "APRef",
                "amount": "Amount",
            },
            ("co", "bank_acct", "check_number", "apref"),
        ),
    ),
)
# Vista's JCOH "IntExt" column is Y when the change raises the contract (an owner CO).

# ---------------------------------------------------------------------------------------------
# Sage Intacct (Construction): one table per object with STATE words
# ---------------------------------------------------------------------------------------------
_INTACCT_DOC = {
    "sub_id": "DOCNO",
    "pm_number": "REFERENCENO",
    "job_id": "PROJECTID",
    "vendor_id": "VENDORID",
    "description": "MEMO",
    "status": "STATE",
    "orig_amount": "ORIGINALTOTAL",
    "approved_co": "CHANGETOTAL",
    "current_amount": "TOTAL",
    "retainage_pct": "RETAINAGEPERCENTAGE",
    "executed_date": "WHENCREATED",
}
_INTACCT_DOCLINE = {
    "sub_id": "DOCNO",
    "item": "LINE_NO",
    "job_id": "PROJECTID",
    "phase": "TASKID",
    "cost_type": "COSTTYPEID",
    "description": "MEMO",
    "amount": "AMOUNT",
}
_INTACCT_BILL = {
    "doc_id": "RECORDNO",
    "vendor_id": "VENDORID",
    "apref": "RECORDID",
    "description": "DESCRIPTION",
    "inv_date": "WHENCREATED",
    "due_date": "WHENDUE",
    "gl_date": "WHENPOSTED",
    "job_id": "PROJECTID",
    "sub_id": "PODOCUMENTID",
    "gross": "TOTALENTERED",
    "retainage": "TOTALRETAINED",
    "net": "NETTOTAL",
    "source": "SOURCE",
    "source_ref": "EXTERNALID",
    "created_date": "AUWHENCREATED",
}
_INTACCT_BILLITEM = {
    "doc_id": "RECORDKEY",
    "line_no": "LINE_NO",
    "job_id": "PROJECTID",
    "phase": "TASKID",
    "cost_type": "COSTTYPEID",
    "sub_id": "PODOCUMENTID",
    "sub_item": "POLINENO",
    "description": "ENTRYDESCRIPTION",
    "gross": "AMOUNT",
    "retainage": "AMOUNTRETAINED",
}
_INTACCT_BATCH = {
    "doc_id": "RECORDNO",
    "jrnl": "JOURNAL",
    "ref": "BATCHNO",
    "description": "BATCH_TITLE",
    "act_date": "BATCH_DATE",
    "auto_reverse": "AUTOREVERSE",
    "created_by": "CREATEDBY",
    "created_date": "WHENCREATED",
    "source_ref": "REFERENCENO",
}
_INTACCT_ENTRY = {
    "doc_id": "BATCHKEY",
    "line_no": "LINE_NO",
    "act_date": "ENTRY_DATE",
    "account": "ACCOUNTNO",
    "job_id": "PROJECTID",
    "phase": "TASKID",
    "cost_type": "COSTTYPEID",
    "vendor_id": "VENDORID",
    "description": "MEMO",
    "tr_type": "TR_TYPE",
    "abs_amount": "AMOUNT",
}
INTACCT = Dialect(
    app="sage_intacct",
    short="intacct",
    period="dash",
    je_amounts="trtype",
    docid={"ap": DocId("int", offset=40000), "je": DocId("int", offset=10000)},
    status={
        "vendor_type": {
            "subcontractor": "Subcontractor",
            "supplier": "Supplier",
            "professional": "Professional Services",
            "service": "Services",
        },
        "job": {"active": "Active", "closed": "Closed"},
        "proj": {"posted": "Posted", "pending": "Pending"},
        "contract": {"executed": "In progress", "closed": "Closed"},
        "commit": {"approved": "Approved", "draft": "Draft", "closed": "Closed"},
        "acct_type": {
            "asset": "Asset",
            "liability": "Liability",
            "equity": "Equity",
            "revenue": "Revenue",
            "expense": "Expense",
        },
        "period": {"open": "Open", "closed": "Closed"},
        "co_kind": {"owner": "Owner change order", "internal": "Internal budget transfer"},
        "co": {"pending": "Pending", "approved": "Approved"},
        "check": {"issued": "Issued", "cleared": "Cleared", "void": "Voided"},
    },
    tables=_tables(
        m(
            "vendor",
            "VENDOR",
            {
                "vendor_id": "VENDORID",
                "name": "NAME",
                "vendor_type": "VENDTYPE",
                "tin": "TAXID",
                "is_1099": "FORM1099",
                "type_1099": "FORM1099TYPE",
                "active": "ACTIVE",
                "terms": "TERMNAME",
                "address": "ADDRESS1",
                "city": "CITY",
                "state": "STATE",
                "zip": "ZIP",
                "phone": "PHONE1",
                "email": "EMAIL1",
                "hold": "ONHOLD",
                "hold_reason": "ONHOLDREASON",
                "eft": "ACHENABLED",
                "bank_name": "ACHBANKNAME",
                "bank_routing": "ACHBANKROUTINGNUMBER",
                "bank_account": "ACHACCOUNTNUMBER",
                "bank_account_type": "ACHACCOUNTTYPE",
            },
            ("vendor_id",),
            display="vendor_id",
        ),
        m(
            "job",
            "PROJECT",
            {
                "job_id": "PROJECTID",
                "name": "NAME",
                "status": "PROJECTSTATUS",
                "contract_id": "PROJECTCONTRACTID",
                "project_manager": "MANAGERNAME",
                "start_date": "BEGINDATE",
                "est_completion_date": "ENDDATE",
                "prevailing_wage": "CERTIFIEDPAYROLL",
                "etc_amount": "ESTCOSTTOCOMPLETE",
                "etc_status": "ETCSTATE",
                "etc_date": "ETCDATE",
                "etc_by": "ETCBY",
            },
            ("job_id",),
        ),
        m(
            "contract",
            "PROJECTCONTRACT",
            {
                "contract_id": "PROJECTCONTRACTID",
                "contract_number": "CONTRACTNO",
                "description": "NAME",
                "customer": "CUSTOMERNAME",
                "orig_amount": "ORIGINALPRICE",
                "current_amount": "REVISEDPRICE",
                "retainage_pct": "RETAINAGEPERCENTAGE",
                "start_date": "CONTRACTDATE",
                "status": "STATUS",
            },
            ("contract_id",),
        ),
        m(
            "contract_item",
            "PROJECTCONTRACTLINE",
            {
                "contract_id": "PROJECTCONTRACTID",
                "item": "PROJECTCONTRACTLINEID",
                "description": "NAME",
                "orig_amount": "ORIGINALPRICE",
                "current_amount": "REVISEDPRICE",
                "retainage_pct": "RETAINAGEPERCENTAGE",
            },
            ("contract_id", "item"),
            link=("contract_id",),
        ),
        m("job_phase", "TASK", {"job_id": "PROJECTID", "phase": "TASKID", "description": "NAME"}, ("job_id", "phase")),
        m(
            "budget",
            "PJESTIMATEENTRY",
            {
                "job_id": "PROJECTID",
                "phase": "TASKID",
                "cost_type": "COSTTYPEID",
                "description": "MEMO",
                "orig_budget": "ORIGINALBUDGET",
                "approved_changes": "APPROVEDCHANGES",
                "revised_budget": "REVISEDBUDGET",
                "etc_amount": "ESTCOSTTOCOMPLETE",
                "proj_status": "ETCSTATE",
            },
            ("job_id", "phase", "cost_type"),
        ),
        m(
            "cost_detail",
            "PROJECTTRANSACTION",
            {
                "trans": "RECORDNO",
                "job_id": "PROJECTID",
                "phase": "TASKID",
                "cost_type": "COSTTYPEID",
                "act_date": "ENTRY_DATE",
                "source": "JOURNAL",
                "description": "MEMO",
                "vendor_id": "VENDORID",
                "ref": "DOCNUMBER",
                "amount": "AMOUNT",
            },
            ("trans",),
        ),
        m("sub_hdr", "PODOCUMENT", _INTACCT_DOC, ("sub_id",), fixed=("DOCPARID", ("Subcontract",)), display="sub_id"),
        m("po_hdr", "PODOCUMENT", _INTACCT_DOC, ("sub_id",), fixed=("DOCPARID", ("Purchase Order",)), display="sub_id"),
        m("sub_item", "PODOCUMENTENTRY", _INTACCT_DOCLINE, ("sub_id", "item"), link=("sub_id",)),
        m("po_item", "PODOCUMENTENTRY", _INTACCT_DOCLINE, ("sub_id", "item"), link=("sub_id",)),
        m(
            "ap_open_hdr",
            "APBILL",
            _INTACCT_BILL,
            ("doc_id",),
            fixed=("STATE", ("Draft", "Submitted")),
            display="doc_id",
        ),
        m(
            "ap_hdr",
            "APBILL",
            {**_INTACCT_BILL, "paid_amount": "TOTALPAID", "pay_hold": "ONHOLD", "pay_hold_reason": "HOLDREASON"},
            ("doc_id",),
            fixed=("STATE", ("Posted", "Partially Paid", "Paid")),
            display="doc_id",
        ),
        m("ap_open_line", "APBILLITEM", _INTACCT_BILLITEM, ("doc_id", "line_no"), link=("doc_id",)),
        m("ap_line", "APBILLITEM", _INTACCT_BILLITEM, ("doc_id", "line_no"), link=("doc_id",)),
        m("je_open_hdr", "GLBATCH", _INTACCT_BATCH, ("doc_id",), fixed=("STATE", ("Draft",)), display="doc_id"),
        m("je_hdr", "GLBATCH", _INTACCT_BATCH, ("doc_id",), fixed=("STATE", ("Posted",)), display="doc_id"),
        m("je_open_line", "GLENTRY", _INTACCT_ENTRY, ("doc_id", "line_no"), link=("doc_id",)),
        m("je_line", "GLENTRY", _INTACCT_ENTRY, ("doc_id", "line_no"), link=("doc_id",)),
        m(
            "gl_account",
            "GLACCOUNT",
            {
                "account": "ACCOUNTNO",
                "description": "TITLE",
                "acct_type": "ACCOUNTTYPE",
                "normal_balance": "NORMALBALANCE",
                "active": "ACTIVE",
                "is_job_cost": "REQUIREPROJECT",
                "is_control": "SUBLEDGERCONTROLON",
            },
            ("account",),
        ),
        m(
            "fiscal_period",
            "REPORTINGPERIOD",
            {
                "mth": "PERIOD",
                "start_date": "START_DATE",
                "end_date": "END_DATE",
                "fiscal_year": "FISCALYEAR",
                "status": "STATUS",
            },
            ("mth",),
        ),
        m(
            "co_hdr",
            "CHANGEREQUEST",
            {
                "job_id": "PROJECTID",
                "co_number": "CHANGEREQUESTID",
                "description": "DESCRIPTION",
                "co_kind": "CHANGEREQUESTTYPE",
                "increases_contract": "AFFECTSCONTRACT",
                "contract_amount": "PRICEEFFECT",
                "budget_amount": "COSTEFFECT",
                "status": "STATE",
                "approved_date": "APPROVEDDATE",
                "change_event": "CHANGEEVENTNO",
                "created_date": "WHENCREATED",
                "source_ref": "EXTERNALID",
            },
            ("job_id", "co_number"),
            display="co_number",
        ),
        m(
            "co_item",
            "CHANGEREQUESTENTRY",
            {
                "job_id": "PROJECTID",
                "co_number": "CHANGEREQUESTID",
                "item": "LINENO",
                "phase": "TASKID",
                "cost_type": "COSTTYPEID",
                "description": "MEMO",
                "budget_amount": "COST",
                "contract_amount": "PRICE",
            },
            ("job_id", "co_number", "item"),
            link=("job_id", "co_number"),
        ),
        m(
            "check",
            "APPYMT",
            {
                "bank_acct": "FINANCIALENTITY",
                "check_number": "DOCUMENTNUMBER",
                "issue_date": "PAYMENTDATE",
                "vendor_id": "VENDORID",
                "payee_name": "PAYEENAME",
                "amount": "TOTALENTERED",
                "status": "STATE",
                "cleared_date": "CLEAREDDATE",
                "check_kind": "PAYMENTTYPE",
            },
            ("bank_acct", "check_number"),
        ),
        m(
            "check_detail",
            "APPYMTDETAIL",
            {
                "bank_acct": "FINANCIALENTITY",
                "check_number": "DOCUMENTNUMBER",
                "vendor_id": "VENDORID",
                "apref": "RECORDID",
                "amount": "PAYMENTAMOUNT",
            },
            ("bank_acct", "check_number", "apref"),
        ),
    ),
)


# ---------------------------------------------------------------------------------------------
# The six leaner vocabularies, named by convention with native overrides
# ---------------------------------------------------------------------------------------------
def _lean(
    app: str,
    short: str,
    style: str,
    names: dict[str, str],
    over: dict[str, dict[str, str]],
    common: dict[str, str],
    *,
    ap_fixed=None,
    je_fixed=None,
    commit_fixed=None,
    drop_co: bool = True,
    extra_drop: dict[str, tuple[str, ...]] | None = None,
    **dialect_kw,
) -> Dialect:
    """A vendor whose columns follow one naming style; ``common`` renames logical columns everywhere."""
    extra_drop = extra_drop or {}
    maps: list[TMap] = []
    base_drop = ("co",) if drop_co else ()
    specs = {
        "vendor": (("co", "vendor_id") if not drop_co else ("vendor_id",), ("sort_name",), None, (), "vendor_id"),
        "job": (("job_id",), (), None, (), None),
        "contract": (("contract_id",), (), None, (), None),
        "contract_item": (("contract_id", "item"), (), None, ("contract_id",), None),
        "job_phase": (("job_id", "phase"), ("contract_id",), None, (), None),
        "budget": (("job_id", "phase", "cost_type"), (), None, (), None),
        "cost_detail": (("trans",), (), None, (), None),
        "sub_hdr": (("sub_id",), (), commit_fixed and (commit_fixed[0], (commit_fixed[1],)), (), "sub_id"),
        "po_hdr": (("sub_id",), (), commit_fixed and (commit_fixed[0], (commit_fixed[2],)), (), "sub_id"),
        "sub_item": (("sub_id", "item"), (), None, ("sub_id",), None),
        "po_item": (("sub_id", "item"), (), None, ("sub_id",), None),
        "ap_open_hdr": (("doc_id",), _NO_BATCH + ("status",), ap_fixed and (ap_fixed[0], ap_fixed[1]), (), "doc_id"),
        "ap_hdr": (("doc_id",), _NO_BATCH + ("status",), ap_fixed and (ap_fixed[0], ap_fixed[2]), (), "doc_id"),
        "ap_open_line": (("doc_id", "line_no"), _NO_BATCH, None, ("doc_id",), None),
        "ap_line": (("doc_id", "line_no"), _NO_BATCH, None, ("doc_id",), None),
        "je_open_hdr": (("doc_id",), ("batch_id", "status"), je_fixed and (je_fixed[0], je_fixed[1]), (), "doc_id"),
        "je_hdr": (("doc_id",), ("batch_id", "status"), je_fixed and (je_fixed[0], je_fixed[2]), (), "doc_id"),
        "je_open_line": (
            ("doc_id", "line_no"),
            ("batch_id", "trans", "jrnl", "ref", "mth", "amount", "tr_type", "abs_amount"),
            None,
            ("doc_id",),
            None,
        ),
        "je_line": (
            ("doc_id", "line_no"),
            ("batch_id", "trans", "jrnl", "ref", "mth", "amount", "tr_type", "abs_amount"),
            None,
            ("doc_id",),
            None,
        ),
        "gl_account": (("account",), (), None, (), None),
        "fiscal_period": (("mth",), (), None, (), None),
        "co_hdr": (("job_id", "co_number"), (), None, (), "co_number"),
        "co_item": (("job_id", "co_number", "item"), (), None, ("job_id", "co_number"), None),
        "check": (("bank_acct", "check_number"), (), None, (), None),
        "check_detail": (("bank_acct", "check_number", "apref"), (), None, (), None),
    }
    for logical, table in names.items():
        pk, drop, fixed, link, display = specs[logical]
        o = {**{k: v for k, v in common.items() if k in TABLES[logical].names}, **over.get(logical, {})}
        maps.append(
            auto(
                logical,
                table,
                style,
                o,
                drop=base_drop + drop + extra_drop.get(logical, ()),
                pk=pk,
                fixed=fixed,
                link=link,
                display=display,
            )
        )
    return Dialect(app=app, short=short, tables=_tables(*maps), **dialect_kw)


def _lean_status(**over: dict[str, str]) -> dict[str, dict[str, str]]:
    base = {
        "vendor_type": {
            "subcontractor": "Subcontractor",
            "supplier": "Supplier",
            "professional": "Professional",
            "service": "Service",
        },
        "job": {"active": "Active", "closed": "Closed"},
        "proj": {"posted": "Posted", "pending": "Pending"},
        "contract": {"executed": "Executed", "closed": "Closed"},
        "commit": {"approved": "Approved", "draft": "Draft", "closed": "Closed"},
        "pay": {"open": "Open", "partial": "Partially Paid", "paid": "Paid"},
        "acct_type": {
            "asset": "Asset",
            "liability": "Liability",
            "equity": "Equity",
            "revenue": "Revenue",
            "expense": "Expense",
        },
        "period": {"open": "Open", "closed": "Closed"},
        "co_kind": {"owner": "Owner", "internal": "Internal"},
        "co": {"pending": "Pending", "approved": "Approved"},
        "check": {"issued": "Issued", "cleared": "Cleared", "void": "Void"},
    }
    base.update(over)
    return base


_ALL = (
    "vendor",
    "job",
    "contract",
    "contract_item",
    "job_phase",
    "budget",
    "cost_detail",
    "sub_hdr",
    "sub_item",
    "po_hdr",
    "po_item",
    "ap_open_hdr",
    "ap_open_line",
    "ap_hdr",
    "ap_line",
    "je_open_hdr",
    "je_open_line",
    "je_hdr",
    "je_line",
    "gl_account",
    "fiscal_period",
    "co_hdr",
    "co_item",
    "check",
    "check_detail",
)


def _names(*tables: str) -> dict[str, str]:
    return dict(zip(_ALL, tables, strict=True))


FOUNDATION = _lean(
    "foundation_erp",
    "foundation",
    "snake",
    _names(
        "vendors",
        "jobs",
        "contracts",
        "contract_items",
        "job_cost_codes",
        "job_budgets",
        "jc_transactions",
        "subcontracts",
        "subcontract_items",
        "purchase_orders",
        "purchase_order_items",
        "ap_invoices",
        "ap_invoice_distributions",
        "ap_invoices",
        "ap_invoice_distributions",
        "gl_journal_entries",
        "gl_journal_lines",
        "gl_journal_entries",
        "gl_journal_lines",
        "gl_accounts",
        "fiscal_periods",
        "change_orders",
        "change_order_items",
        "checks",
        "check_invoices",
    ),
    {
        "vendor": {
            "name": "vendor_name",
            "tin": "federal_id",
            "is_1099": "print_1099",
            "type_1099": "form_1099_type",
            "hold": "hold_payments",
            "eft": "ach_enabled",
            "bank_name": "ach_bank_name",
            "bank_routing": "ach_routing_number",
            "bank_account": "ach_account_number",
            "bank_account_type": "ach_account_type",
        },
        "job": {
            "name": "job_name",
            "etc_amount": "est_cost_to_complete",
            "etc_status": "projection_status",
            "etc_date": "projection_date",
            "etc_by": "projected_by",
        },
        "budget": {"etc_amount": "est_cost_to_complete", "proj_status": "projection_status"},
        "ap_open_hdr": {"apref": "invoice_no", "doc_id": "voucher_no"},
        "ap_hdr": {
            "apref": "invoice_no",
            "doc_id": "voucher_no",
            "pay_hold": "hold_payment",
            "pay_hold_reason": "hold_reason",
        },
        "check": {"check_number": "check_no"},
        "check_detail": {"check_number": "check_no", "apref": "invoice_no"},
    },
    {
        "vendor_id": "vendor_no",
        "job_id": "job_no",
        "phase": "cost_code",
        "cost_type": "cost_class",
        "doc_id": "voucher_no",
        "mth": "fiscal_period",
        "sub_id": "commitment_no",
        "contract_id": "contract_no",
        "co_number": "change_order_no",
        "bank_acct": "bank_account",
    },
    ap_fixed=("status", ("Unposted",), ("Posted",)),
    je_fixed=("status", ("Unposted",), ("Posted",)),
    docid={"ap": DocId("str", "V", 6), "je": DocId("str", "JE", 6)},
    status=_lean_status(),
)

CMIC = _lean(
    "cmic",
    "cmic",
    "upper",
    _names(
        "APVENDOR",
        "JCJOB",
        "JBCONT",
        "JBCONTITEM",
        "JCJOBPHS",
        "JCJOBCAT",
        "JCDETAIL",
        "SCMAST",
        "SCDET",
        "POMAST",
        "PODET",
        "APINV",
        "APINVDET",
        "APINV",
        "APINVDET",
        "GLJRNL",
        "GLJRNLDET",
        "GLJRNL",
        "GLJRNLDET",
        "GLACC",
        "GLPERIOD",
        "JCCHGORD",
        "JCCHGORDDET",
        "APCHECK",
        "APCHKINV",
    ),
    {
        "vendor": {
            "name": "VEN_NAME",
            "tin": "VEN_TAX_ID",
            "is_1099": "VEN_1099_FLAG",
            "type_1099": "VEN_1099_TYPE",
            "active": "VEN_ACTIVE_FLAG",
            "hold": "VEN_HOLD_FLAG",
            "hold_reason": "VEN_HOLD_REASON",
            "eft": "VEN_EFT_FLAG",
            "bank_name": "VEN_BANK_NAME",
            "bank_routing": "VEN_BANK_ROUTING_NO",
            "bank_account": "VEN_BANK_ACCOUNT_NO",
            "bank_account_type": "VEN_BANK_ACCT_TYPE",
        },
        "job": {
            "name": "JOB_NAME",
            "status": "JOB_STATUS_CODE",
            "etc_amount": "JOB_EST_COST_TO_COMP",
            "etc_status": "JOB_PROJ_STATUS",
            "etc_date": "JOB_PROJ_DATE",
            "etc_by": "JOB_PROJ_USER",
        },
        "budget": {
            "etc_amount": "JCAT_EST_COST_TO_COMP",
            "proj_status": "JCAT_PROJ_STATUS",
            "orig_budget": "JCAT_ORIG_BUDGET",
            "revised_budget": "JCAT_REV_BUDGET",
        },
        "ap_open_hdr": {"apref": "INV_VEN_INV_NUM"},
        "ap_hdr": {"apref": "INV_VEN_INV_NUM", "pay_hold": "INV_HOLD_FLAG", "pay_hold_reason": "INV_HOLD_REASON"},
        "check": {"check_number": "CHK_NUM"},
        "check_detail": {"check_number": "CHK_NUM", "apref": "INV_VEN_INV_NUM"},
    },
    {
        "co": "COMP_CODE",
        "vendor_id": "VEN_CODE",
        "job_id": "JOB_CODE",
        "phase": "PHS_CODE",
        "cost_type": "CAT_CODE",
        "doc_id": "INV_CODE",
        "mth": "PRD_CODE",
        "sub_id": "SC_CODE",
        "contract_id": "CONT_CODE",
        "co_number": "CHG_CODE",
        "bank_acct": "BANK_ACC_CODE",
    },
    ap_fixed=("INV_STATUS", ("U", "E"), ("P",)),
    je_fixed=("JRNL_STATUS", ("U",), ("P",)),
    drop_co=False,
    extra_drop={"job_phase": ("co",), "hold_code": ()},
    bool_yn=True,
    docid={"ap": DocId("str", "AP", 7), "je": DocId("str", "GJ", 7)},
    status=_lean_status(
        job={"active": "A", "closed": "C"},
        commit={"approved": "A", "draft": "D", "closed": "C"},
        co={"pending": "P", "approved": "A"},
    ),
)

ACUMATICA = _lean(
    "acumatica_construction",
    "acumatica",
    "pascal",
    _names(
        "Vendor",
        "PMProject",
        "PMRevenueContract",
        "PMRevenueBudget",
        "PMTask",
        "PMCostBudget",
        "PMTran",
        "POOrder",
        "POLine",
        "POOrder",
        "POLine",
        "APInvoice",
        "APTran",
        "APInvoice",
        "APTran",
        "Batch",
        "GLTran",
        "Batch",
        "GLTran",
        "Account",
        "FinPeriod",
        "PMChangeOrder",
        "PMChangeOrderBudget",
        "APPayment",
        "APAdjust",
    ),
    {
        "vendor": {
            "vendor_id": "AcctCD",
            "name": "AcctName",
            "vendor_type": "VendorClassID",
            "tin": "TaxRegistrationID",
            "is_1099": "Vendor1099",
            "type_1099": "Box1099Type",
            "hold": "HoldPayments",
            "eft": "ACHPayments",
            "bank_routing": "RoutingNbr",
            "bank_account": "AccountNbr",
        },
        "job": {
            "job_id": "ContractCD",
            "contract_id": "RevenueContractID",
            "etc_amount": "CostToComplete",
            "etc_status": "ProjectionStatus",
        },
        "budget": {
            "etc_amount": "CostToComplete",
            "proj_status": "ProjectionStatus",
            "orig_budget": "OriginalBudgetAmount",
            "revised_budget": "RevisedBudgetAmount",
            "approved_changes": "ChangeOrderAmount",
        },
        "ap_open_hdr": {"apref": "InvoiceNbr", "gross": "CuryOrigDocAmt", "retainage": "CuryRetainageTotal"},
        "ap_hdr": {
            "apref": "InvoiceNbr",
            "gross": "CuryOrigDocAmt",
            "retainage": "CuryRetainageTotal",
            "pay_hold": "PaymentHold",
            "pay_hold_reason": "PaymentHoldReason",
        },
        "je_open_line": {"debit": "CuryDebitAmt", "credit": "CuryCreditAmt", "account": "AccountID"},
        "je_line": {"debit": "CuryDebitAmt", "credit": "CuryCreditAmt", "account": "AccountID"},
        "gl_account": {"account": "AccountCD", "acct_type": "Type"},
        "check": {"check_number": "ExtRefNbr", "amount": "CuryOrigDocAmt"},
        "check_detail": {"check_number": "ExtRefNbr", "apref": "AdjdInvoiceNbr", "amount": "CuryAdjgAmt"},
    },
    {
        "vendor_id": "VendorID",
        "job_id": "ProjectID",
        "phase": "TaskID",
        "cost_type": "CostCodeID",
        "doc_id": "RefNbr",
        "mth": "FinPeriodID",
        "sub_id": "OrderNbr",
        "contract_id": "ProjectID",
        "co_number": "ChangeOrderNbr",
        "bank_acct": "CashAccountID",
        "item": "LineNbr",
        "line_no": "LineNbr",
    },
    ap_fixed=("Status", ("Balanced", "On Hold"), ("Open", "Closed")),
    je_fixed=("Status", ("Balanced", "On Hold"), ("Posted",)),
    commit_fixed=("OrderType", "RS", "RO"),
    period="compact",
    docid={"ap": DocId("str", "", 6, 100000), "je": DocId("str", "GL", 6)},
    status=_lean_status(
        co={"pending": "Pending Approval", "approved": "Open"},
        vendor_type={
            "subcontractor": "SUBCON",
            "supplier": "SUPPLIER",
            "professional": "PROFSVC",
            "service": "SERVICE",
        },
        job={"active": "Active", "closed": "Completed"},
    ),
)

SAGE300 = _lean(
    "sage300cre",
    "sage300",
    "title",
    _names(
        "MASTER_APM_VENDOR",
        "MASTER_JCM_JOB_1",
        "MASTER_JCM_CONTRACT",
        "MASTER_JCM_CONTRACT_ITEM",
        "MASTER_JCM_JOB_COST_CODE",
        "MASTER_JCM_CATEGORY",
        "CURRENT_JCT_TRANSACTION",
        "MASTER_SCM_COMMITMENT",
        "MASTER_SCM_COMMITMENT_ITEM",
        "MASTER_SCM_COMMITMENT",
        "MASTER_SCM_COMMITMENT_ITEM",
        "ENTRY_APM_INVOICE",
        "ENTRY_APM_DISTRIBUTION",
        "MASTER_APM_INVOICE",
        "MASTER_APM_DISTRIBUTION",
        "ENTRY_GLT_JOURNAL",
        "ENTRY_GLT_JOURNAL_LINE",
        "CURRENT_GLT_ENTRY",
        "CURRENT_GLT_TRANSACTION",
        "MASTER_GLM_ACCOUNT",
        "MASTER_GLM_PERIOD",
        "MASTER_JCM_CHANGE_ORDER",
        "MASTER_JCM_CHANGE_ORDER_ITEM",
        "MASTER_CMM_CHECK_REGISTER",
        "MASTER_APM_PAYMENT",
    ),
    {
        "vendor": {
            "tin": "Federal_ID",
            "is_1099": "Print_1099",
            "type_1099": "Form_1099_Type",
            "hold": "Hold_Payment",
            "eft": "EFT_Vendor",
            "bank_routing": "EFT_Routing_Number",
            "bank_account": "EFT_Account_Number",
            "bank_account_type": "EFT_Account_Type",
        },
        "job": {"name": "Description", "etc_amount": "Est_Cost_To_Complete", "etc_status": "Projection_Status"},
        "budget": {"etc_amount": "Est_Cost_To_Complete", "proj_status": "Projection_Status"},
        "ap_open_hdr": {"apref": "Invoice", "gross": "Amount"},
        "ap_hdr": {"apref": "Invoice", "gross": "Amount", "pay_hold": "Hold_Payment", "pay_hold_reason": "Hold_Reason"},
        "check": {"check_number": "Check"},
        "check_detail": {"check_number": "Check", "apref": "Invoice"},
    },
    {
        "vendor_id": "Vendor",
        "job_id": "Job",
        "phase": "Cost_Code",
        "cost_type": "Category",
        "doc_id": "Batch_Entry",
        "mth": "Accounting_Period",
        "sub_id": "Commitment",
        "contract_id": "Contract",
        "co_number": "Change_Order",
        "bank_acct": "Bank_Account",
    },
    commit_fixed=("Commitment_Type", "Subcontract", "Purchase order"),
    docid={"ap": DocId("str", "AP", 6), "je": DocId("str", "GL", 6)},
    status=_lean_status(),
)

QBO = _lean(
    "qbo",
    "qbo",
    "pascal",
    _names(
        "Vendor",
        "Project",
        "ProjectContract",
        "ProjectContractLine",
        "ProjectCostCode",
        "Budget",
        "ProjectCostDetail",
        "PurchaseOrder",
        "PurchaseOrderLine",
        "PurchaseOrder",
        "PurchaseOrderLine",
        "Bill",
        "BillLine",
        "Bill",
        "BillLine",
        "JournalEntry",
        "JournalEntryLine",
        "JournalEntry",
        "JournalEntryLine",
        "Account",
        "AccountingPeriod",
        "ChangeOrder",
        "ChangeOrderLine",
        "Purchase",
        "BillPaymentLine",
    ),
    {
        "job": {"job_id": "Id", "contract_id": "ContractRef"},
        "vendor": {
            "vendor_id": "Id",
            "name": "DisplayName",
            "tin": "TaxIdentifier",
            "is_1099": "Vendor1099",
            "type_1099": "Form1099Type",
            "terms": "TermRef",
            "hold": "PaymentHold",
            "hold_reason": "PaymentHoldNote",
        },
        "ap_open_hdr": {"doc_id": "Id", "apref": "DocNumber", "inv_date": "TxnDate", "gross": "TotalAmt"},
        "ap_hdr": {
            "doc_id": "Id",
            "apref": "DocNumber",
            "inv_date": "TxnDate",
            "gross": "TotalAmt",
            "paid_amount": "AmountPaid",
            "pay_hold": "PaymentHold",
            "pay_hold_reason": "PaymentHoldNote",
        },
        "je_open_hdr": {"doc_id": "Id", "ref": "DocNumber", "act_date": "TxnDate"},
        "je_hdr": {"doc_id": "Id", "ref": "DocNumber", "act_date": "TxnDate"},
        "check": {
            "check_number": "DocNumber",
            "issue_date": "TxnDate",
            "payee_name": "PrintOnCheckName",
            "amount": "TotalAmt",
        },
        "check_detail": {"check_number": "DocNumber", "apref": "BillDocNumber"},
    },
    {
        "vendor_id": "VendorRef",
        "job_id": "ProjectRef",
        "phase": "CostCode",
        "cost_type": "CostType",
        "doc_id": "TxnId",
        "mth": "Period",
        "sub_id": "PONumber",
        "contract_id": "ProjectRef",
        "co_number": "ChangeOrderNumber",
        "bank_acct": "BankAccountRef",
        "account": "AccountRef",
    },
    ap_fixed=("ApprovalStatus", ("Pending Approval",), ("Approved",)),
    je_fixed=("DocStatus", ("Draft",), ("Posted",)),
    commit_fixed=("POType", "Subcontract", "Standard"),
    docid={"ap": DocId("str", "", 0, 5000), "je": DocId("str", "", 0, 90000)},
    supports_auto_reverse=False,
    status=_lean_status(),
    extra_drop={"je_open_hdr": ("auto_reverse",), "je_hdr": ("auto_reverse",)},
)

COMPUTEREASE = _lean(
    "computerease",
    "computerease",
    "pascal",
    _names(
        "Vendors",
        "Jobs",
        "Contracts",
        "ContractItems",
        "JobPhases",
        "JobCostCodes",
        "JobCostHistory",
        "Subcontracts",
        "SubcontractItems",
        "PurchaseOrders",
        "PurchaseOrderItems",
        "APInvoices",
        "APInvoiceDist",
        "APInvoices",
        "APInvoiceDist",
        "GLJournal",
        "GLJournalDist",
        "GLJournal",
        "GLJournalDist",
        "GLAccounts",
        "GLPeriods",
        "ChangeOrders",
        "ChangeOrderItems",
        "Checks",
        "CheckInvoices",
    ),
    {
        "vendor": {
            "vendor_id": "VendorNum",
            "tin": "FedId",
            "is_1099": "Is1099",
            "type_1099": "Type1099",
            "hold": "OnHold",
            "hold_reason": "HoldNote",
        },
        "job": {
            "job_id": "JobNum",
            "contract_id": "ContractNum",
            "etc_amount": "EstCostToComplete",
            "etc_status": "ProjStatus",
        },
        "budget": {"etc_amount": "EstCostToComplete", "proj_status": "ProjStatus"},
        "ap_open_hdr": {"apref": "InvoiceNum"},
        "ap_hdr": {"apref": "InvoiceNum", "pay_hold": "OnHold", "pay_hold_reason": "HoldNote"},
        "check": {"check_number": "CheckNum"},
        "check_detail": {"check_number": "CheckNum", "apref": "InvoiceNum"},
    },
    {
        "vendor_id": "VendorNum",
        "job_id": "JobNum",
        "phase": "Phase",
        "cost_type": "CostType",
        "doc_id": "TransNum",
        "mth": "Period",
        "sub_id": "SubNum",
        "contract_id": "JobNum",
        "co_number": "CONum",
        "bank_acct": "BankCode",
    },
    ap_fixed=("Status", ("Open Batch",), ("Posted",)),
    je_fixed=("Status", ("Pending",), ("Posted",)),
    docid={"ap": DocId("int", offset=200000), "je": DocId("int", offset=300000)},
    status=_lean_status(),
)

DIALECTS: dict[str, Dialect] = {
    d.app: d for d in (VISTA, INTACCT, FOUNDATION, CMIC, ACUMATICA, SAGE300, QBO, COMPUTEREASE)
}
_SANITY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _validate(d: Dialect) -> None:
    for t in d.tables.values():
        natives = list(t.cols.values()) + ([t.fixed[0]] if t.fixed else [])
        for c in [*natives, t.table]:
            if not _SANITY.match(c):
                raise ValueError(f"{d.app}: bad native name {c!r}")
        dupes = {c for c in natives if [x.lower() for x in natives].count(c.lower()) > 1}
        if dupes:
            raise ValueError(f"{d.app}.{t.table} ({t.logical}): native column(s) {sorted(dupes)} mapped twice")


for _d in DIALECTS.values():
    _validate(_d)
