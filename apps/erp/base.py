"""The ERP archetype, written once: every tool and integration method of the eight ERP vendors.

A vendor subclass only sets class constants: ``D`` (its dialect: native table and column names,
status words, id formats; ``cfab.apps.erp.dialects``), ``TOOL_NAMES`` and the ``EX_*`` examples
its docstrings show. Tools read and write the vendor's native tables through the dialect, so
results come back in the vendor's own vocabulary (Vista ``APRef``/``InvTotal``, Intacct
``RECORDID``/``TOTALENTERED``); every write goes through the write gate and is left
unposted / pending; posting, paying and approving are guarded tools that validate and describe
what would happen, and never change state.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar, Literal

from pydantic import Field
from sqlglot import exp

from cfab.apps.contract import App
from cfab.apps.erp.dialects import Dialect, TMap
from cfab.apps.erp.gen import HEADER_OF
from cfab.apps.erp.model import TABLES
from cfab.apps.tooling import ToolArgs, ToolError, tool
from cfab.schema.sqlbuild import col, equals_all, literal
from cfab.seeds.determinism import stable_int

ZERO = Decimal("0.00")
CENT = Decimal("0.01")


def _d(value: Any) -> Decimal:
    try:
        out = Decimal(str(value))
    except Exception:
        raise ToolError(f"not an amount: {value!r}", "invalid_argument") from None
    try:
        cents = out.quantize(CENT)
    except InvalidOperation:  # beyond 28 significant digits (e.g. 1e309): no such amount
        raise ToolError(f"amount out of range: {value}", "invalid_argument") from None
    if out != cents:
        raise ToolError(f"amounts take at most 2 decimal places, got {value}", "invalid_argument")
    return cents


# ---------------------------------------------------------------------------------------------
# argument models (shared by the eight vendors; the docstrings carry each vendor's examples)
# ---------------------------------------------------------------------------------------------
class VendorListArgs(ToolArgs):
    name_contains: str | None = Field(None, description="Case-insensitive part of the vendor name", examples=["walsh"])
    vendor_id: str | None = Field(None, description="This ERP's vendor id", examples=["20147", "V1001"])
    status: Literal["active", "inactive"] | None = Field(None, description="Only active or inactive vendors",
                                                         examples=["active"])
    on_hold: bool | None = Field(None, description="Only vendors with (true) or without (false) a payment hold",
                                 examples=[True])


class VendorIdArgs(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])


class HoldArgs(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])
    on_hold: bool = Field(True, description="true places the payment hold, false releases it", examples=[True])
    reason: str | None = Field(None, description="Why (kept with the hold)", examples=["COI expired 2026-01-15"])
    hold_code: str | None = Field(None, description="Hold code, where the ERP uses hold codes (e.g. COI, LIEN, W9, DISP, MGMT)",
                                  examples=["COI"])


class Set1099Args(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])
    is_1099: bool = Field(..., description="Whether payments to the vendor are 1099-reportable", examples=[True])
    form_type: str | None = Field(None, description="1099 form/box type when reportable", examples=["NEC"])


class JobListArgs(ToolArgs):
    status: Literal["active", "closed"] | None = Field(None, description="Only active or closed jobs", examples=["active"])
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
    status: Literal["approved", "draft", "closed"] | None = Field(None, description="Only this status",
                                                                 examples=["approved"])
    include_items: bool = Field(False, description="Also return each commitment's items", examples=[True])


class CommitIdArgs(ToolArgs):
    subcontract_id: str = Field(..., description="Subcontract number in this ERP", examples=["SC-1042-0"])


class ApListArgs(ToolArgs):
    job_id: str | None = Field(None, description="Only this job (this ERP's id)", examples=["1042-", "1042"])
    vendor_id: str | None = Field(None, description="Only this vendor (this ERP's id)", examples=["20147", "V1001"])
    status: Literal["unposted", "posted"] | None = Field(None, description="unposted (entered, awaiting post) or posted",
                                                         examples=["unposted"])
    invoice_number: str | None = Field(None, description="The vendor's invoice number", examples=["JSM-88421"])
    date_from: date | None = Field(None, description="Invoice date on or after", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Invoice date on or before", examples=["2026-01-31"])


class ApGetArgs(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])
    invoice_number: str = Field(..., description="The vendor's invoice number", examples=["JSM-88421"])


class ApLine(ToolArgs):
    phase: str = Field(..., description="ERP phase / task / cost code (through the hh2 cost-code map)",
                       examples=["16-100-00"])
    cost_type: int = Field(..., description="ERP cost type: 1 labor 2 material 3 subcontract 4 equipment 5 other",
                           examples=[3])
    amount: Decimal = Field(..., description="Line amount (gross, before retainage)", examples=["14350.00"])
    retainage: Decimal = Field(Decimal("0"), description="Retainage withheld on the line", examples=["1435.00"])
    description: str | None = Field(None, description="Line description", examples=["Electrical rough-in, Jan"])


class ApCreateArgs(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])
    job_id: str = Field(..., description="This ERP's job id", examples=["1042-", "9140"])
    invoice_number: str = Field(..., description="The vendor's invoice number", examples=["JSM-88421"])
    invoice_date: date = Field(..., description="Invoice date", examples=["2026-01-20"])
    due_date: date | None = Field(None, description="Due date (default invoice date + 30 days)", examples=["2026-02-19"])
    description: str | None = Field(None, description="Invoice description", examples=["Pay app #3"])
    lines: list[ApLine] | None = Field(None, description="Distribution lines; or give amount/phase/cost_type for one line",
                                       examples=[[{"phase": "16-100-00", "cost_type": 3, "amount": "14350.00",
                                                   "retainage": "0.00"}]])
    amount: Decimal | None = Field(None, description="Single-line shorthand: the invoice amount", examples=["14350.00"])
    phase: str | None = Field(None, description="Single-line shorthand: the phase", examples=["16-100-00"])
    cost_type: int | None = Field(None, description="Single-line shorthand: the cost type", examples=[3])
    retainage: Decimal | None = Field(None, description="Single-line shorthand: retainage", examples=["0.00"])
    commitment_id: str | None = Field(None, description="Subcontract / PO the invoice bills, if any", examples=["PO-9140-2"])
    period: str | None = Field(None, description="GL month YYYY-MM (default: the invoice month if open, else the open month)",
                               examples=["2026-01"])


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
    lines: list[JeLine] = Field(..., min_length=2, description="At least two lines; debits must equal credits",
                                examples=[[{"account": "5200", "debit": "100.00", "job_id": "1042-"},
                                           {"account": "2100", "credit": "100.00", "job_id": "1042-"}]])
    period: str | None = Field(None, description="Fiscal period YYYY-MM (default: the entry date's month)",
                               examples=["2026-01"])
    auto_reverse: bool = Field(False, description="Reverse automatically on the first day of the next period",
                               examples=[True])
    journal: str = Field("GJ", description="Journal code", examples=["GJ"])
    reference: str | None = Field(None, description="Reference number", examples=["ACR-1042-0126"])


class JeListArgs(ToolArgs):
    period: str | None = Field(None, description="Fiscal period YYYY-MM", examples=["2026-01"])
    status: Literal["unposted", "posted"] | None = Field(None, description="unposted (draft batches) or posted",
                                                         examples=["unposted"])
    job_id: str | None = Field(None, description="Only entries with a line on this job", examples=["1042-", "1042"])
    include_lines: bool = Field(False, description="Also return each entry's lines", examples=[True])
    limit: int = Field(100, ge=1, le=1000, description="Most entries to return (newest first)", examples=[50])


class AccountsArgs(ToolArgs):
    account_type: Literal["asset", "liability", "equity", "revenue", "expense"] | None = Field(
        None, description="Only this account type", examples=["liability"])


class PeriodsArgs(ToolArgs):
    status: Literal["open", "closed"] | None = Field(None, description="Only open or closed periods", examples=["open"])


class BalanceArgs(ToolArgs):
    account: str = Field(..., description="GL account", examples=["2100"])
    through_period: str | None = Field(None, description="Through fiscal period YYYY-MM (default: all)",
                                       examples=["2025-12"])
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
    kind: Literal["owner", "internal"] = Field(..., description="owner: raises contract and budget; internal: budget transfer only",
                                               examples=["internal"])
    items: list[CoItem] | None = Field(None, description="Budget change by phase (must sum to amount)",
                                       examples=[[{"phase": "02-200-00", "cost_type": 3, "amount": "101700.00"}]])
    change_event: int | None = Field(None, description="The PM change event number it comes from", examples=[4])


class CoKeyArgs(ToolArgs):
    job_id: str = Field(..., description="This ERP's job id", examples=["3100-", "3100"])
    co_number: str = Field(..., description="Change order number in this ERP", examples=["004"])


class EtcPhase(ToolArgs):
    phase: str = Field(..., description="Phase / cost code", examples=["16-100-00"])
    cost_type: int = Field(..., description="Cost type", examples=[3])
    estimate_to_complete: Decimal = Field(..., description="New estimate to complete for the phase", examples=["125000.00"])


class EtcArgs(ToolArgs):
    job_id: str = Field(..., description="This ERP's job id", examples=["1042-", "1042"])
    estimate_to_complete: Decimal | None = Field(None, description="New job-level estimated cost to complete",
                                                 examples=["3706560.00"])
    phases: list[EtcPhase] | None = Field(None, description="Per-phase estimates to complete",
                                          examples=[[{"phase": "16-100-00", "cost_type": 3,
                                                      "estimate_to_complete": "125000.00"}]])
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
    sql: str = Field(..., description="One read-only SELECT over this ERP's schema (tables qualified)",
                     examples=["SELECT * FROM vista_erp.APVM LIMIT 5"])
    max_rows: int = Field(100, ge=1, le=500, description="Most rows to return", examples=[50])


class PostArgs(ToolArgs):
    kind: Literal["ap_invoice", "journal_entry", "change_order", "projection"] = Field(
        ..., description="What to post", examples=["journal_entry"])
    vendor_id: str | None = Field(None, description="ap_invoice: vendor id", examples=["20147"])
    invoice_number: str | None = Field(None, description="ap_invoice: the vendor's invoice number", examples=["JSM-88421"])
    batch_id: str | None = Field(None, description="journal_entry: the batch / entry id stage returned", examples=["14022"])
    job_id: str | None = Field(None, description="change_order / projection: the job id", examples=["3100-"])
    co_number: str | None = Field(None, description="change_order: its number", examples=["004"])


class PaymentArgs(ToolArgs):
    vendor_id: str = Field(..., description="This ERP's vendor id", examples=["20147", "V1001"])
    invoice_numbers: list[str] = Field(..., min_length=1, description="Posted invoices to pay", examples=[["JSM-88421"]])
    bank_account: str = Field("BA-OPER", description="Bank / cash account to pay from", examples=["BA-OPER"])
    amount: Decimal | None = Field(None, description="Amount to pay (default: the open net amount)", examples=["12915.00"])
    pay_date: date | None = Field(None, description="Payment date", examples=["2026-01-31"])


# ---------------------------------------------------------------------------------------------
# the archetype
# ---------------------------------------------------------------------------------------------
class ErpApp(App):
    """ERP archetype base: vendors subclass with a dialect and examples."""

    kind: ClassVar[str] = "erp"
    archetype = "ERP"
    D: ClassVar[Dialect]
    EX_VENDOR: ClassVar[str] = "V1001"
    EX_JOB: ClassVar[str] = "1042"
    EX_PHASE: ClassVar[str] = "16-100-00"
    EX_SUB: ClassVar[str] = "SC-1042-0"
    EX_NOTE: ClassVar[str] = ""

    # ------------------------------------------------------------------ dialect helpers
    def T(self, logical: str) -> TMap:
        return self.D.t(logical)

    def has(self, logical: str) -> bool:
        return logical in self.D.tables

    def N(self, logical: str, column: str) -> str:
        return self.T(logical).n(column)

    def vid(self, value: str | int) -> Any:
        """A vendor id in this ERP's type."""
        if self.D.vendor_int:
            try:
                return int(str(value).strip())
            except ValueError:
                raise ToolError(f"{self.label} vendor ids are numbers like {self.EX_VENDOR}, got {value!r}",
                                "not_found") from None
        return str(value).strip()

    def yn(self, flag: bool | None) -> Any:
        if flag is None:
            return None
        return ("Y" if flag else "N") if self.D.bool_yn else bool(flag)

    def is_true(self, value: Any) -> bool:
        return value in (True, "Y", "y", 1)

    def period(self, canonical: str) -> Any:
        """'YYYY-MM' in this ERP's period format."""
        try:
            y, mo = (int(p) for p in canonical.split("-"))
            first = date(y, mo, 1)
        except Exception:
            raise ToolError(f"periods look like YYYY-MM, got {canonical!r}", "invalid_argument") from None
        if self.D.period == "date":
            return first
        if self.D.period == "compact":
            return f"{y:04d}{mo:02d}"
        return f"{y:04d}-{mo:02d}"

    def canon_period(self, native: Any) -> str:
        if isinstance(native, date):
            return native.strftime("%Y-%m")
        s = str(native)
        return f"{s[:4]}-{s[4:6]}" if len(s) == 6 and "-" not in s else s[:7]

    def word(self, domain: str, canonical: str) -> str:
        return self.D.word(domain, canonical)

    def _fixed(self, t: TMap, alias: str | None = None) -> exp.Expression | None:
        """The filter that picks this logical table's rows out of its native table."""
        if t.fixed:
            return exp.In(this=col(t.fixed[0], alias), expressions=[literal(w) for w in t.fixed[1]])
        hdr_name = HEADER_OF.get(t.logical)
        hdr = self.D.tables.get(hdr_name) if hdr_name else None
        if hdr is None or not hdr.fixed or not t.link:
            return None
        hinfo = self.tbl(hdr.table)
        sub = (exp.select(*[col(hdr.n(c)) for c in t.link]).from_(hinfo.table_expr())
               .where(exp.In(this=col(hdr.fixed[0]), expressions=[literal(w) for w in hdr.fixed[1]])))
        lhs = (exp.Tuple(expressions=[col(t.n(c), alias) for c in t.link]) if len(t.link) > 1
               else col(t.n(t.link[0]), alias))
        return exp.In(this=lhs, query=sub.subquery())

    def rows(self, logical: str, where: dict[str, Any] | None = None, *, extra: list[exp.Expression] | None = None,
             order: list[str] | None = None, limit: int | None = None, desc: bool = False) -> list[dict[str, Any]]:
        """Native rows of a logical table (fixed filter applied); ``where`` keys are logical columns."""
        t = self.T(logical)
        info = self.tbl(t.table)
        q = exp.select("*").from_(info.table_expr())
        filt = {t.n(k): v for k, v in (where or {}).items() if v is not None}
        if filt:
            q = q.where(equals_all(filt, info))
        for e in [self._fixed(t), *(extra or [])]:
            if e is not None:
                q = q.where(e)
        for c in order or list(t.pk):
            q = q.order_by(exp.Ordered(this=col(t.n(c)), desc=desc))
        if limit:
            q = q.limit(limit)
        return self.query(q)

    def one(self, logical: str, what: str, hint: str = "", **where: Any) -> dict[str, Any]:
        got = self.rows(logical, where)
        if not got:
            shown = ", ".join(f"{self.N(logical, k)}={v!r}" for k, v in where.items())
            raise ToolError(f"no {what} with {shown} in {self.label}{hint}", "not_found")
        return got[0]

    def ins(self, logical: str, values: dict[str, Any]) -> dict[str, Any]:
        """Insert one row; ``values`` keys are logical columns (unmapped ones are skipped)."""
        t = self.T(logical)
        row = {t.n(k): v for k, v in values.items() if t.has(k)}
        if t.fixed:
            row[t.fixed[0]] = t.fixed[1][0]
        return self.insert(t.table, row)

    def upd(self, logical: str, row: dict[str, Any], values: dict[str, Any]) -> int:
        """Update the native row ``row`` (a dict read from the table); ``values`` keys are logical."""
        t = self.T(logical)
        key = {t.n(k): row[t.n(k)] for k in t.pk}
        vals = {t.n(k): v for k, v in values.items() if t.has(k)}
        return self.update(t.table, key, vals) if vals else 0

    def _ilike(self, logical: str, column: str, text: str, alias: str | None = None) -> exp.Expression:
        return exp.ILike(this=col(self.N(logical, column), alias), expression=literal(f"%{text}%"))

    # ------------------------------------------------------------------ lookups
    def _vendor(self, vendor_id: str) -> dict[str, Any]:
        return self.one("vendor", "vendor", f" (vendor ids look like {self.EX_VENDOR}; translate other systems' ids "
                                            "with hh2.vendor_map.lookup)", vendor_id=self.vid(vendor_id))

    def _job(self, job_id: str) -> dict[str, Any]:
        return self.one("job", "job", f" ({self.label} job ids look like {self.EX_JOB!r}; see hh2.job_map.list)",
                        job_id=job_id.strip())

    def _holds(self, vendor_id: Any) -> list[dict[str, Any]]:
        if self.D.hold_mode == "table":
            return self.rows("vendor_hold", {"vendor_id": vendor_id})
        return []

    def _on_hold(self, vrow: dict[str, Any]) -> bool:
        if self.D.hold_mode == "table":
            return bool(self._holds(vrow[self.N("vendor", "vendor_id")]))
        return self.is_true(vrow.get(self.N("vendor", "hold")))

    def _phase_ok(self, job_id: str, phase: str, cost_type: int | None = None) -> None:
        where = {"job_id": job_id, "phase": phase}
        if not self.rows("budget", where):
            known = sorted({r[self.N("budget", "phase")] for r in self.rows("budget", {"job_id": job_id})})[:40]
            raise ToolError(f"phase {phase!r} is not set up on job {job_id} in {self.label}; its phases: "
                            f"{', '.join(known) or 'none'} (map PM cost codes with hh2.cost_code_map.list)", "not_found")
        if cost_type is not None and not 1 <= int(cost_type) <= 5:
            raise ToolError("cost types are 1 labor, 2 material, 3 subcontract, 4 equipment, 5 other", "invalid_argument")

    def _period_row(self, canonical: str) -> dict[str, Any]:
        return self.one("fiscal_period", "fiscal period", "", mth=self.period(canonical))

    def _open_period_for(self, d: date) -> str:
        """The fiscal period of ``d`` if open, else the first open period after it (else the clock month)."""
        want = d.strftime("%Y-%m")
        periods = sorted(self.rows("fiscal_period"), key=lambda r: self.canon_period(r[self.N("fiscal_period", "mth")]))
        closed = self.word("period", "closed")
        for r in periods:
            p = self.canon_period(r[self.N("fiscal_period", "mth")])
            if p >= want and r[self.N("fiscal_period", "status")] != closed:
                return p
        return self.today.strftime("%Y-%m")

    def _new_doc_id(self, family: str, logical: str, column: str, *natural: Any) -> Any:
        """A deterministic id for a created document, in this vendor's format, free in its table."""
        fmt = self.D.docid.get(family)
        n = 900000 + stable_int(self.name, family, *natural, digits=5)
        t = self.T(logical)
        while True:
            if fmt is None or fmt.kind == "int":
                value: Any = n + (fmt.offset if fmt else 0)
            else:
                value = fmt.prefix + str(n + fmt.offset).rjust(fmt.width, "0")
            info = self.tbl(t.table)
            q = exp.select("1").from_(info.table_expr()).where(
                exp.EQ(this=col(t.n(column)), expression=literal(value, info.columns[t.n(column)]))).limit(1)
            if not self.query(q):
                return value
            n += 1

    def _new_batch_id(self, logical: str, *natural: Any) -> int:
        t = self.T(logical)
        n = 10000 + stable_int(self.name, logical, *natural, digits=4)
        while self.rows(logical, {"batch_id": n}) if t.has("batch_id") else False:
            n += 1
        return n

    # ------------------------------------------------------------------ reads: vendors
    @tool("vendors.list")
    def vendors_list(self, args: VendorListArgs) -> dict[str, Any]:
        """List vendors in the $label vendor master (ids and spellings as $label keeps them).

        Other systems spell and number vendors differently; translate with hh2's vendor map.

        Args:
            name_contains: part of the name, e.g. "walsh".
            vendor_id: a $label vendor id, e.g. "$EX_VENDOR".
            status: "active" or "inactive".
            on_hold: true for vendors with a payment hold.

        Returns {"vendors": [<vendor master row in $label's columns> + on_hold], "count": n}.
        """
        where: dict[str, Any] = {"vendor_id": self.vid(args.vendor_id) if args.vendor_id else None}
        extra = [self._ilike("vendor", "name", args.name_contains)] if args.name_contains else []
        if args.status:
            where["active"] = self.yn(args.status == "active")
        out = []
        for r in self.rows("vendor", where, extra=extra):
            r["on_hold"] = self._on_hold(r)
            if args.on_hold is None or r["on_hold"] == args.on_hold:
                out.append(r)
        return {"vendors": out, "count": len(out)}

    @tool("vendors.get")
    def vendors_get(self, args: VendorIdArgs) -> dict[str, Any]:
        """Get one $label vendor: master record, 1099 settings and payment holds.

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR".

        Returns {"vendor": {...}, "on_hold": bool, "holds": [...], "hold_codes": [...]}.
        """
        v = self._vendor(args.vendor_id)
        holds = self._holds(v[self.N("vendor", "vendor_id")])
        codes = self.rows("hold_code") if self.has("hold_code") else []
        return {"vendor": v, "on_hold": self._on_hold(v), "holds": holds, "hold_codes": codes}

    # ------------------------------------------------------------------ reads: jobs and job cost
    @tool("jobs.list")
    def jobs_list(self, args: JobListArgs) -> dict[str, Any]:
        """List $label jobs with contract value and the ERP's estimated cost to complete.

        Args:
            status: "active" or "closed".
            name_contains: part of the job name, e.g. "library".

        Returns {"jobs": [<job row> + contract_amount], "count": n}.
        """
        where = {"status": self.word("job", args.status) if args.status else None}
        extra = [self._ilike("job", "name", args.name_contains)] if args.name_contains else []
        contracts = {r[self.N("contract", "contract_id")]: r for r in self.rows("contract")}
        out = []
        for r in self.rows("job", where, extra=extra):
            c = contracts.get(r[self.N("job", "contract_id")])
            r["contract_amount"] = c[self.N("contract", "current_amount")] if c else None
            out.append(r)
        return {"jobs": out, "count": len(out)}

    @tool("jobs.get")
    def jobs_get(self, args: JobIdArgs) -> dict[str, Any]:
        """Get one $label job: master record (incl. estimated cost to complete and projection status) and contract.

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".

        Returns {"job": {...}, "contract": {...} | null, "budget_total": {"original", "revised", "estimate_to_complete"}}.
        """
        j = self._job(args.job_id)
        c = self.rows("contract", {"contract_id": j[self.N("job", "contract_id")]})
        b = self.rows("budget", {"job_id": j[self.N("job", "job_id")]})
        tot = {"original": sum((r[self.N("budget", "orig_budget")] or ZERO for r in b), ZERO),
               "revised": sum((r[self.N("budget", "revised_budget")] or ZERO for r in b), ZERO),
               "estimate_to_complete": sum((r[self.N("budget", "etc_amount")] or ZERO for r in b), ZERO)}
        return {"job": j, "contract": c[0] if c else None, "budget_total": tot}

    def _sum_by_phase(self, logical: str, job_id: str, amount: str, extra_where: dict | None = None) -> dict:
        t = self.T(logical)
        info = self.tbl(t.table)
        q = (exp.select(col(t.n("phase")), col(t.n("cost_type")), exp.func("sum", col(t.n(amount))).as_("amt"))
             .from_(info.table_expr()).where(equals_all({t.n("job_id"): job_id, **(extra_where or {})}, info))
             .group_by(col(t.n("phase")), col(t.n("cost_type"))))
        f = self._fixed(t)
        if f is not None:
            q = q.where(f)
        return {(r[t.n("phase")], r[t.n("cost_type")]): r["amt"] for r in self.query(q)}

    @tool("job_cost.summary")
    def job_cost_summary(self, args: JobCostArgs) -> dict[str, Any]:
        """Job cost by phase and cost type in $label: budget ladder, committed, actual, estimate to complete.

        Committed = subcontract and PO items on the phase; actual = posted job cost.

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".
            phase: only this phase, e.g. "$EX_PHASE".

        Returns {"job_id", "lines": [{phase, cost_type, description, original_budget, approved_changes,
        revised_budget, committed, actual_to_date, estimate_to_complete, projection_status}], "totals": {...}}.
        """
        j = self._job(args.job_id)
        job_id = j[self.N("job", "job_id")]
        committed: dict = {}
        for lg in ("sub_item", "po_item"):
            for k, v in self._sum_by_phase(lg, job_id, "amount").items():
                committed[k] = committed.get(k, ZERO) + v
        actual = self._sum_by_phase("cost_detail", job_id, "amount")
        b = self.T("budget")
        lines = []
        for r in self.rows("budget", {"job_id": job_id, "phase": args.phase}):
            k = (r[b.n("phase")], r[b.n("cost_type")])
            lines.append({"phase": k[0], "cost_type": k[1], "description": r.get(b.cols.get("description", ""), None),
                          "original_budget": r[b.n("orig_budget")], "approved_changes": r[b.n("approved_changes")],
                          "revised_budget": r[b.n("revised_budget")], "committed": committed.get(k, ZERO),
                          "actual_to_date": actual.get(k, ZERO), "estimate_to_complete": r[b.n("etc_amount")],
                          "projection_status": r[b.n("proj_status")]})
        keys = ("original_budget", "approved_changes", "revised_budget", "committed", "actual_to_date",
                "estimate_to_complete")
        totals = {k: sum((ln[k] or ZERO for ln in lines), ZERO) for k in keys}
        return {"job_id": job_id, "lines": lines, "count": len(lines), "totals": totals,
                "job_estimate_to_complete": j[self.N("job", "etc_amount")]}

    @tool("contracts.get")
    def contracts_get(self, args: ContractArgs) -> dict[str, Any]:
        """Get the prime (owner) contract of a $label job and its items (schedule of values).

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".

        Returns {"contract": {...}, "items": [...], "count": n}.
        """
        j = self._job(args.job_id)
        cid = j[self.N("job", "contract_id")]
        c = self.rows("contract", {"contract_id": cid})
        if not c:
            raise ToolError(f"job {args.job_id} has no prime contract in {self.label}", "not_found")
        items = self.rows("contract_item", {"contract_id": cid})
        return {"contract": c[0], "items": items, "count": len(items)}

    # ------------------------------------------------------------------ reads: commitments
    def _commitments(self, logical: str, args: CommitListArgs) -> list[dict[str, Any]]:
        where = {"job_id": args.job_id, "vendor_id": self.vid(args.vendor_id) if args.vendor_id else None,
                 "status": self.word("commit", args.status) if args.status else None}
        out = self.rows(logical, where)
        if args.include_items:
            item = logical.replace("_hdr", "_item")
            for r in out:
                r["items"] = self.rows(item, {"sub_id": r[self.N(logical, "sub_id")]})
        return out

    @tool("subcontracts.list")
    def subcontracts_list(self, args: CommitListArgs) -> dict[str, Any]:
        """List $label subcontracts (only commitments synced from the PM system are here).

        Args:
            job_id: a $label job id, e.g. "$EX_JOB".
            vendor_id: a $label vendor id, e.g. "$EX_VENDOR".
            status: "approved", "draft" or "closed".
            include_items: true to include each subcontract's items.

        Returns {"subcontracts": [...], "count": n}.
        """
        out = self._commitments("sub_hdr", args)
        return {"subcontracts": out, "count": len(out)}

    @tool("subcontracts.get")
    def subcontracts_get(self, args: CommitIdArgs) -> dict[str, Any]:
        """Get one $label subcontract (or purchase order) with its items.

        Args:
            subcontract_id: the subcontract / PO number, e.g. "$EX_SUB".

        Returns {"subcontract": {...}, "items": [...], "type": "subcontract"|"purchase_order"}.
        """
        for lg, kind in (("sub_hdr", "subcontract"), ("po_hdr", "purchase_order")):
            got = self.rows(lg, {"sub_id": args.subcontract_id.strip()})
            if got:
                items = self.rows(lg.replace("_hdr", "_item"), {"sub_id": args.subcontract_id.strip()})
                return {"subcontract": got[0], "items": items, "type": kind}
        raise ToolError(f"no subcontract or PO {args.subcontract_id!r} in {self.label} (commitments not yet synced "
                        "from the PM system are not here)", "not_found")

    @tool("purchase_orders.list")
    def purchase_orders_list(self, args: CommitListArgs) -> dict[str, Any]:
        """List $label purchase orders.

        Args:
            job_id: a $label job id, e.g. "$EX_JOB".
            vendor_id: a $label vendor id, e.g. "$EX_VENDOR".
            status: "approved", "draft" or "closed".
            include_items: true to include each PO's items.

        Returns {"purchase_orders": [...], "count": n}.
        """
        out = self._commitments("po_hdr", args)
        return {"purchase_orders": out, "count": len(out)}

    # ------------------------------------------------------------------ reads: AP
    def _ap_rows(self, status: str | None, where: dict[str, Any], extra_fn=None) -> list[dict[str, Any]]:
        out = []
        for lg, st in (("ap_open_hdr", "unposted"), ("ap_hdr", "posted")):
            if status and status != st:
                continue
            extra = extra_fn(lg) if extra_fn else []
            for r in self.rows(lg, where, extra=extra):
                r["posting_status"] = st
                out.append(r)
        return out

    def _find_ap(self, vendor_id: Any, apref: str) -> tuple[str, dict[str, Any]] | None:
        for lg in ("ap_open_hdr", "ap_hdr"):
            got = self.rows(lg, {"vendor_id": vendor_id, "apref": apref})
            if got:
                return lg, got[0]
        return None

    def _ap_lines(self, hdr_logical: str, row: dict[str, Any]) -> list[dict[str, Any]]:
        line = {"ap_open_hdr": "ap_open_line", "ap_hdr": "ap_line"}[hdr_logical]
        t = self.T(line)
        return self.rows(line, {c: row[self.N(hdr_logical, c)] for c in t.link}, order=["line_no"])

    @tool("ap_invoices.list")
    def ap_invoices_list(self, args: ApListArgs) -> dict[str, Any]:
        """List $label AP invoices: unposted (entered, awaiting post) and posted.

        Invoices approved in the PM system but not yet synced, and invoices never entered, are not here.

        Args:
            job_id: a $label job id, e.g. "$EX_JOB".
            vendor_id: a $label vendor id, e.g. "$EX_VENDOR".
            status: "unposted" or "posted".
            invoice_number: the vendor's invoice number, e.g. "JSM-88421".
            date_from: invoice date on or after, e.g. "2026-01-01".
            date_to: invoice date on or before, e.g. "2026-01-31".

        Returns {"invoices": [<header row> + posting_status], "count": n}.
        """
        where = {"job_id": args.job_id, "vendor_id": self.vid(args.vendor_id) if args.vendor_id else None,
                 "apref": args.invoice_number}

        def extra(lg: str) -> list[exp.Expression]:
            c = col(self.N(lg, "inv_date"))
            out = []
            if args.date_from:
                out.append(exp.GTE(this=c, expression=literal(args.date_from, "DATE")))
            if args.date_to:
                out.append(exp.LTE(this=c, expression=literal(args.date_to, "DATE")))
            return out

        rows = self._ap_rows(args.status, where, extra)
        return {"invoices": rows, "count": len(rows)}

    @tool("ap_invoices.get")
    def ap_invoices_get(self, args: ApGetArgs) -> dict[str, Any]:
        """Get one $label AP invoice (unposted or posted) with its distribution lines.

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR".
            invoice_number: the vendor's invoice number, e.g. "JSM-88421".

        Returns {"invoice": {...}, "lines": [...], "posting_status": "unposted"|"posted"}.
        """
        hit = self._find_ap(self.vid(args.vendor_id), args.invoice_number)
        if hit is None:
            raise ToolError(f"no AP invoice {args.invoice_number!r} for vendor {args.vendor_id} in {self.label}",
                            "not_found")
        lg, row = hit
        return {"invoice": row, "lines": self._ap_lines(lg, row),
                "posting_status": "unposted" if lg == "ap_open_hdr" else "posted"}

    # ------------------------------------------------------------------ reads: GL
    def _je_lines(self, hdr_logical: str, row: dict[str, Any]) -> list[dict[str, Any]]:
        line = {"je_open_hdr": "je_open_line", "je_hdr": "je_line"}[hdr_logical]
        t = self.T(line)
        return self.rows(line, {c: row[self.N(hdr_logical, c)] for c in t.link}, order=["line_no"]
                         if t.has("line_no") else ["trans"])

    @tool("journal_entries.list")
    def journal_entries_list(self, args: JeListArgs) -> dict[str, Any]:
        """List $label journal entries: unposted (draft) batches and posted GL entries.

        Args:
            period: fiscal period "YYYY-MM", e.g. "2026-01".
            status: "unposted" or "posted".
            job_id: only entries with a line on this job, e.g. "$EX_JOB".
            include_lines: true to include lines.
            limit: most entries per status (newest first), e.g. 50.

        Returns {"entries": [<header row> + posting_status (+ lines)], "count": n}.
        """
        out = []
        for lg, st in (("je_open_hdr", "unposted"), ("je_hdr", "posted")):
            if args.status and args.status != st:
                continue
            t = self.T(lg)
            extra: list[exp.Expression] = []
            if args.period:
                p = self._period_row(args.period)
                dc = col(t.n("act_date"))
                extra += [exp.GTE(this=dc, expression=literal(p[self.N("fiscal_period", "start_date")], "DATE")),
                          exp.LTE(this=dc, expression=literal(p[self.N("fiscal_period", "end_date")], "DATE"))]
            if args.job_id:
                line = self.T(lg.replace("_hdr", "_line"))
                linfo = self.tbl(line.table)
                sub = (exp.select(*[col(line.n(c)) for c in line.link]).from_(linfo.table_expr())
                       .where(exp.EQ(this=col(line.n("job_id")), expression=literal(args.job_id))))
                lhs = (exp.Tuple(expressions=[col(t.n(c)) for c in line.link]) if len(line.link) > 1
                       else col(t.n(line.link[0])))
                extra.append(exp.In(this=lhs, query=sub.subquery()))
            for r in self.rows(lg, extra=extra, order=["act_date"], desc=True, limit=args.limit):
                r["posting_status"] = st
                if args.include_lines:
                    r["lines"] = self._je_lines(lg, r)
                out.append(r)
        return {"entries": out, "count": len(out)}

    @tool("gl.accounts")
    def gl_accounts(self, args: AccountsArgs) -> dict[str, Any]:
        """List the $label chart of accounts.

        Args:
            account_type: "asset", "liability", "equity", "revenue" or "expense".

        Returns {"accounts": [...], "count": n}.
        """
        rows = self.rows("gl_account", {"acct_type": self.word("acct_type", args.account_type) if args.account_type else None})
        return {"accounts": rows, "count": len(rows)}

    @tool("gl.periods")
    def gl_periods(self, args: PeriodsArgs) -> dict[str, Any]:
        """List $label fiscal periods and whether each is open or closed (closed periods reject entries).

        Args:
            status: "open" or "closed".

        Returns {"periods": [...], "count": n}.
        """
        rows = self.rows("fiscal_period", {"status": self.word("period", args.status) if args.status else None})
        return {"periods": rows, "count": len(rows)}

    @tool("gl.balance")
    def gl_balance(self, args: BalanceArgs) -> dict[str, Any]:
        """Posted balance of a $label GL account (debits minus credits), optionally through a period and for a job.

        Args:
            account: GL account, e.g. "2100".
            through_period: through fiscal period "YYYY-MM", e.g. "2025-12".
            job_id: only lines on this job, e.g. "$EX_JOB".

        Returns {"account", "through_period", "job_id", "debits", "credits", "balance", "lines": n}.
        """
        self.one("gl_account", "GL account", "", account=args.account)
        t = self.T("je_line")
        extra = []
        if args.through_period:
            end = self._period_row(args.through_period)[self.N("fiscal_period", "end_date")]
            extra.append(exp.LTE(this=col(t.n("act_date")), expression=literal(end, "DATE")))
        debits = credits = ZERO
        rows = self.rows("je_line", {"account": args.account, "job_id": args.job_id}, extra=extra)
        for r in rows:
            dr, cr = self._dr_cr(t, r)
            debits += dr
            credits += cr
        return {"account": args.account, "through_period": args.through_period, "job_id": args.job_id,
                "debits": debits, "credits": credits, "balance": debits - credits, "lines": len(rows)}

    def _dr_cr(self, t: TMap, r: dict[str, Any]) -> tuple[Decimal, Decimal]:
        if self.D.je_amounts == "dc":
            return r[t.n("debit")] or ZERO, r[t.n("credit")] or ZERO
        if self.D.je_amounts == "signed":
            a = r[t.n("amount")] or ZERO
            return (a, ZERO) if a >= 0 else (ZERO, -a)
        a = r[t.n("abs_amount")] or ZERO
        return (a, ZERO) if r[t.n("tr_type")] == 1 else (ZERO, a)

    @tool("change_orders.list")
    def change_orders_list(self, args: CoListArgs) -> dict[str, Any]:
        """List $label job change orders (owner COs and internal budget transfers) with their items.

        Args:
            job_id: a $label job id, e.g. "$EX_JOB".
            status: "pending" or "approved".

        Returns {"change_orders": [<header> + items], "count": n}.
        """
        rows = self.rows("co_hdr", {"job_id": args.job_id, "status": self.word("co", args.status) if args.status else None})
        link = self.T("co_item").link
        for r in rows:
            r["items"] = self.rows("co_item", {c: r[self.N("co_hdr", c)] for c in link})
        return {"change_orders": rows, "count": len(rows)}

    @tool("checks.list")
    def checks_list(self, args: CheckListArgs) -> dict[str, Any]:
        """List the $label issued-check register (check number, date, payee as printed, amount, status).

        Args:
            bank_account: bank / cash account code, e.g. "BA-OPER".
            check_from: lowest check number, e.g. 10450.
            check_to: highest check number, e.g. 10500.
            date_from: issued on or after, e.g. "2026-01-01".
            date_to: issued on or before, e.g. "2026-01-31".
            payee_contains: part of the payee name, e.g. "walsh".
            vendor_id: a $label vendor id, e.g. "$EX_VENDOR".
            status: "issued", "cleared" or "void".
            limit: most checks, e.g. 100.

        Returns {"checks": [...], "count": n}.
        """
        t = self.T("check")
        extra: list[exp.Expression] = []
        num, dt = col(t.n("check_number")), col(t.n("issue_date"))
        if args.check_from is not None:
            extra.append(exp.GTE(this=num, expression=literal(args.check_from)))
        if args.check_to is not None:
            extra.append(exp.LTE(this=num, expression=literal(args.check_to)))
        if args.date_from:
            extra.append(exp.GTE(this=dt, expression=literal(args.date_from, "DATE")))
        if args.date_to:
            extra.append(exp.LTE(this=dt, expression=literal(args.date_to, "DATE")))
        if args.payee_contains:
            extra.append(self._ilike("check", "payee_name", args.payee_contains))
        where = {"bank_acct": args.bank_account, "vendor_id": self.vid(args.vendor_id) if args.vendor_id else None,
                 "status": self.word("check", args.status) if args.status else None}
        rows = self.rows("check", where, extra=extra, order=["bank_acct", "check_number"], limit=args.limit)
        return {"checks": rows, "count": len(rows)}

    @tool("query")
    def sql_query(self, args: QueryArgs) -> dict[str, Any]:
        """Run one read-only SQL SELECT over the $label schema ($schema); qualify every table, e.g. $schema.<table>.

        Discover tables with SELECT table_name FROM information_schema.tables WHERE table_schema = '$schema'.

        Args:
            sql: one SELECT, e.g. "SELECT * FROM $schema.<table> LIMIT 5".
            max_rows: most rows, e.g. 50.

        Returns {"columns": [...], "rows": [[...]], "row_count": n, "truncated": bool}.
        """
        from cfab.apps.sqlexec import run_read

        outcome = run_read(self.con, args.sql, [self.schema_name()], max_rows=args.max_rows)
        data = outcome.model_dump(mode="json")
        if not data.pop("ok", True):
            raise ToolError(data.get("message") or "query failed",
                            "rejected" if data.get("kind") == "refused" else "invalid_argument")
        return {k: data[k] for k in ("columns", "rows", "row_count", "truncated") if k in data}

    # ------------------------------------------------------------------ writes: vendors
    @tool("vendors.set_payment_hold", writes=True)
    def vendors_set_payment_hold(self, args: HoldArgs) -> dict[str, Any]:
        """Place or release a payment hold on one $label vendor (held vendors' invoices are not paid).

        Only that vendor's hold changes. $EX_NOTE

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR" (translate other systems' ids with hh2).
            on_hold: true to place the hold, false to release it.
            reason: why, e.g. "COI expired 2026-01-15".
            hold_code: hold code where $label uses them (COI, LIEN, W9, DISP, MGMT).

        Returns {"vendor_id", "on_hold", "hold_code", "changed": bool}.
        """
        v = self._vendor(args.vendor_id)
        vid = v[self.N("vendor", "vendor_id")]
        if self.D.hold_mode == "table":
            code = (args.hold_code or "MGMT").upper()
            if not self.rows("hold_code", {"hold_code": code}):
                codes = ", ".join(r[self.N("hold_code", "hold_code")] for r in self.rows("hold_code"))
                raise ToolError(f"unknown hold code {code!r}; {self.label} hold codes: {codes}", "invalid_argument")
            existing = self.rows("vendor_hold", {"vendor_id": vid, "hold_code": code} if args.on_hold or args.hold_code
                                 else {"vendor_id": vid})
            if args.on_hold:
                if existing:
                    return {"vendor_id": vid, "on_hold": True, "hold_code": code, "changed": False}
                self.ins("vendor_hold", {"co": 1, "vendor_id": vid, "hold_code": code, "notes": args.reason,
                                         "added_date": self.today})
                return {"vendor_id": vid, "on_hold": True, "hold_code": code, "changed": True}
            t = self.T("vendor_hold")
            for r in existing:
                self.delete(t.table, {t.n(k): r[t.n(k)] for k in t.pk})
            return {"vendor_id": vid, "on_hold": bool(self._holds(vid)), "hold_code": code if args.hold_code else None,
                    "changed": bool(existing)}
        if self.is_true(v.get(self.N("vendor", "hold"))) == args.on_hold and not args.reason:
            return {"vendor_id": vid, "on_hold": args.on_hold, "hold_code": None, "changed": False}
        vals: dict[str, Any] = {"hold": self.yn(args.on_hold)}
        if self.T("vendor").has("hold_reason"):
            vals["hold_reason"] = args.reason if args.on_hold else None
        self.upd("vendor", v, vals)
        return {"vendor_id": vid, "on_hold": args.on_hold, "hold_code": None, "changed": True}

    @tool("vendors.set_1099", writes=True)
    def vendors_set_1099(self, args: Set1099Args) -> dict[str, Any]:
        """Set a $label vendor's 1099 flag and form type.

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR".
            is_1099: true if payments are 1099-reportable.
            form_type: e.g. "NEC" (cleared when is_1099 is false).

        Returns {"vendor_id", "is_1099", "form_type"}.
        """
        v = self._vendor(args.vendor_id)
        ftype = (args.form_type or "NEC") if args.is_1099 else None
        self.upd("vendor", v, {"is_1099": self.yn(args.is_1099), "type_1099": ftype})
        return {"vendor_id": v[self.N("vendor", "vendor_id")], "is_1099": args.is_1099, "form_type": ftype}

    # ------------------------------------------------------------------ writes: projections
    @tool("jobs.update_estimate", writes=True)
    def jobs_update_estimate(self, args: EtcArgs) -> dict[str, Any]:
        """Write a new estimated cost to complete for a $label job (and/or its phases) as a PENDING projection.

        The projection waits for sign-off; posting it is a separate, guarded step.

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".
            estimate_to_complete: the new job-level estimate to complete, e.g. "3706560.00".
            phases: per-phase estimates [{phase, cost_type, estimate_to_complete}].
            note: projection note, e.g. "Per PM forecast 2026-01-30".

        Returns {"job_id", "estimate_to_complete", "projection_status", "phases_updated": n}.
        """
        if args.estimate_to_complete is None and not args.phases:
            raise ToolError("give estimate_to_complete and/or phases", "invalid_argument")
        j = self._job(args.job_id)
        job_id = j[self.N("job", "job_id")]
        pending = self.word("proj", "pending")
        n = 0
        for p in args.phases or []:
            rows = self.rows("budget", {"job_id": job_id, "phase": p.phase, "cost_type": p.cost_type})
            if not rows:
                self._phase_ok(job_id, p.phase)
                raise ToolError(f"job {job_id} has no cost type {p.cost_type} on phase {p.phase}", "not_found")
            n += self.upd("budget", rows[0], {"etc_amount": _d(p.estimate_to_complete), "proj_status": pending})
        if args.estimate_to_complete is not None:
            self.upd("job", j, {"etc_amount": _d(args.estimate_to_complete), "etc_status": pending,
                                "etc_date": self.today, "etc_by": "agent"})
        etc = _d(args.estimate_to_complete) if args.estimate_to_complete is not None else j[self.N("job", "etc_amount")]
        return {"job_id": job_id, "estimate_to_complete": etc, "projection_status": pending, "phases_updated": n}

    # ------------------------------------------------------------------ writes: change orders
    @tool("change_orders.create", writes=True)
    def change_orders_create(self, args: CoCreateArgs) -> dict[str, Any]:
        """Set up a job change order in $label, left PENDING (approval is a separate, guarded step).

        An owner change order raises the contract and the budget; an internal transfer moves budget
        only and leaves the contract value unchanged. Read the change event's backup to decide.

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".
            description: what changed, e.g. "Unforeseen rock excavation".
            amount: total amount, e.g. "101700.00".
            kind: "owner" or "internal".
            items: budget change by phase [{phase, cost_type, amount, description}] summing to amount.
            change_event: the PM change event number, e.g. 4.

        Returns {"job_id", "co_number", "status", "kind", "contract_change", "budget_change", "items": n}.
        """
        j = self._job(args.job_id)
        job_id = j[self.N("job", "job_id")]
        amount = _d(args.amount)
        items = args.items or []
        if items and sum((_d(i.amount) for i in items), ZERO) != amount:
            raise ToolError(f"items sum to {sum((_d(i.amount) for i in items), ZERO)}, not the amount {amount}",
                            "invalid_argument")
        for i in items:
            self._phase_ok(job_id, i.phase, i.cost_type)
        existing = [r[self.N("co_hdr", "co_number")] for r in self.rows("co_hdr", {"job_id": job_id})]
        nums = [int(x) for x in existing if str(x).isdigit()]
        number = str(max(nums, default=0) + 1).zfill(3)
        owner = args.kind == "owner"
        contract_change = amount if owner else ZERO
        self.ins("co_hdr", {"co": 1, "job_id": job_id, "co_number": number, "description": args.description,
                            "co_kind": self.word("co_kind", args.kind), "increases_contract": self.yn(owner),
                            "contract_amount": contract_change, "budget_amount": amount,
                            "status": self.word("co", "pending"), "approved_date": None,
                            "change_event": args.change_event, "created_date": self.today})
        for n, i in enumerate(items, 1):
            self.ins("co_item", {"co": 1, "job_id": job_id, "co_number": number, "item": n, "phase": i.phase,
                                 "cost_type": i.cost_type, "description": i.description or args.description,
                                 "budget_amount": _d(i.amount), "contract_amount": _d(i.amount) if owner else ZERO})
        return {"job_id": job_id, "co_number": number, "status": self.word("co", "pending"), "kind": args.kind,
                "contract_change": contract_change, "budget_change": amount, "items": len(items)}

    # ------------------------------------------------------------------ writes: journal entries
    @tool("journal_entries.stage", writes=True)
    def journal_entries_stage(self, args: JeStageArgs) -> dict[str, Any]:
        """Stage an UNPOSTED (draft) journal entry batch in $label; it is not posted.

        Debits must equal credits (an unbalanced batch is rejected) and the period must be open.

        Args:
            entry_date: entry date, e.g. "2026-01-31".
            description: e.g. "Accrue uninvoiced subcontract work, job $EX_JOB".
            lines: [{account, debit, credit, job_id, phase, cost_type, memo}], e.g. Dr 5200 / Cr 2100 with the job on both.
            period: fiscal period "YYYY-MM" (default: the entry date's month).
            auto_reverse: true to reverse automatically next period (where $label supports it).
            journal: journal code, default "GJ".
            reference: reference number, e.g. "ACR-1042-0126".

        Returns {"batch_id", "period", "status", "total_debits", "total_credits", "lines": n, "auto_reverse"}.
        """
        period = args.period or args.entry_date.strftime("%Y-%m")
        self._period_row(period)
        accounts = {r[self.N("gl_account", "account")] for r in self.rows("gl_account")}
        for ln in args.lines:
            if ln.account not in accounts:
                raise ToolError(f"no GL account {ln.account!r} in {self.label}", "not_found")
            if ln.job_id:
                self._job(ln.job_id)
                if ln.phase:
                    self._phase_ok(ln.job_id, ln.phase, ln.cost_type)
            dr, cr = _d(ln.debit), _d(ln.credit)
            if dr < 0 or cr < 0 or (dr == 0) == (cr == 0):
                raise ToolError("each line needs exactly one of a positive debit or a positive credit", "invalid_argument")
        if args.auto_reverse and not self.D.supports_auto_reverse:
            raise ToolError(f"{self.label} has no auto-reversing entries; stage the reversal separately",
                            "invalid_argument")
        hdr = self.T("je_open_hdr")
        natural = (period, args.entry_date.isoformat(), args.description,
                   tuple((ln.account, str(ln.debit), str(ln.credit), ln.job_id) for ln in args.lines))
        key: dict[str, Any] = {"co": 1, "mth": self.period(period)}
        if hdr.has("batch_id"):
            key["batch_id"] = self._new_batch_id("je_open_hdr", *natural)
        if hdr.has("doc_id"):
            key["doc_id"] = self._new_doc_id("je", "je_open_hdr", "doc_id", *natural)
        ref = args.reference or f"JE{args.entry_date.strftime('%y%m%d')}"
        self.ins("je_open_hdr", {**key, "jrnl": args.journal, "ref": ref, "description": args.description,
                                 "act_date": args.entry_date, "status": self.word("je", "unposted"),
                                 "auto_reverse": self.yn(args.auto_reverse), "created_by": "agent",
                                 "created_date": self.today})
        link = {c: key[c] for c in self.T("je_open_line").link if c in key}
        tot_dr = tot_cr = ZERO
        for n, ln in enumerate(args.lines, 1):
            dr, cr = _d(ln.debit), _d(ln.credit)
            tot_dr += dr
            tot_cr += cr
            self.ins("je_open_line", {**link, "mth": key["mth"], "line_no": n, "jrnl": args.journal, "ref": ref,
                                      "act_date": args.entry_date, "account": ln.account, "job_id": ln.job_id,
                                      "phase": ln.phase, "cost_type": ln.cost_type,
                                      "description": ln.memo or args.description, "debit": dr, "credit": cr,
                                      "amount": dr - cr, "tr_type": 1 if dr > 0 else -1, "abs_amount": dr + cr})
        bid = key.get("doc_id", key.get("batch_id"))
        return {"batch_id": bid, "period": period, "status": self.word("je", "unposted") if hdr.has("status")
                else (hdr.fixed[1][0] if hdr.fixed else "unposted"), "total_debits": tot_dr, "total_credits": tot_cr,
                "lines": len(args.lines), "auto_reverse": args.auto_reverse}

    # ------------------------------------------------------------------ writes: AP
    @tool("ap_invoices.create", writes=True)
    def ap_invoices_create(self, args: ApCreateArgs) -> dict[str, Any]:
        """Enter an UNPOSTED AP invoice in $label with lines coded to job, phase and cost type (not posted).

        Give either lines, or amount + phase + cost_type for a one-line invoice.

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR".
            job_id: the $label job id, e.g. "$EX_JOB".
            invoice_number: the vendor's invoice number, e.g. "JSM-88421".
            invoice_date: e.g. "2026-01-20".
            due_date: default invoice date + 30 days.
            description: invoice description, e.g. "Pay app #3".
            lines: [{phase, cost_type, amount, retainage, description}].
            amount: one-line shorthand amount, e.g. "14350.00".
            phase: one-line shorthand phase, e.g. "$EX_PHASE".
            cost_type: one-line shorthand cost type, e.g. 3.
            retainage: one-line shorthand retainage withheld, e.g. "1435.00" (default 0).
            commitment_id: the subcontract/PO billed, e.g. "$EX_SUB".
            period: GL month "YYYY-MM".

        Returns {"erp_ref", "status", "vendor_id", "invoice_number", "gross", "retainage", "net", "lines": n}.
        """
        if args.lines:
            lines = [ln.model_dump() for ln in args.lines]
        elif args.amount is not None and args.phase and args.cost_type is not None:
            lines = [{"phase": args.phase, "cost_type": args.cost_type, "amount": args.amount,
                      "retainage": args.retainage or ZERO, "description": args.description}]
        else:
            raise ToolError("give lines, or amount + phase + cost_type", "invalid_argument")
        due = args.due_date or date.fromordinal(args.invoice_date.toordinal() + 30)
        return self._create_ap(vendor_id=args.vendor_id, job_id=args.job_id, invoice_number=args.invoice_number,
                               invoice_date=args.invoice_date, due_date=due, description=args.description,
                               lines=lines, source="manual", source_ref=None, commitment_id=args.commitment_id,
                               period=args.period)

    def _create_ap(self, *, vendor_id, job_id, invoice_number, invoice_date, due_date, description, lines, source,
                   source_ref, commitment_id=None, period=None) -> dict[str, Any]:
        v = self._vendor(str(vendor_id))
        vid = v[self.N("vendor", "vendor_id")]
        job = self._job(str(job_id))[self.N("job", "job_id")]
        if self._find_ap(vid, invoice_number) is not None:
            raise ToolError(f"vendor {vid} already has invoice {invoice_number!r} in {self.label}", "conflict")
        if commitment_id and not (self.rows("sub_hdr", {"sub_id": commitment_id}) or
                                  self.rows("po_hdr", {"sub_id": commitment_id})):
            raise ToolError(f"no subcontract or PO {commitment_id!r} in {self.label}", "not_found")
        if not lines:
            raise ToolError("an invoice needs at least one line", "invalid_argument")
        clean = []
        for ln in lines:
            self._phase_ok(job, ln["phase"], ln.get("cost_type"))
            amt, ret = _d(ln["amount"]), _d(ln.get("retainage") or 0)
            if ret < 0 or (amt >= 0 and ret > amt and amt != 0):
                raise ToolError("retainage must be between 0 and the line amount", "invalid_argument")
            clean.append((ln["phase"], int(ln["cost_type"]), amt, ret, ln.get("description") or description))
        gross = sum((c[2] for c in clean), ZERO)
        ret = sum((c[3] for c in clean), ZERO)
        per = period or self._open_period_for(invoice_date)
        self._period_row(per)
        gl_date = invoice_date if invoice_date.strftime("%Y-%m") == per else date.fromisoformat(per + "-01")
        hdr = self.T("ap_open_hdr")
        key: dict[str, Any] = {"co": 1, "mth": self.period(per)}
        if hdr.has("batch_id"):
            key["batch_id"] = self._new_batch_id("ap_open_hdr", vid, invoice_number)
            key["batch_seq"] = 1
        if hdr.has("doc_id"):
            key["doc_id"] = self._new_doc_id("ap", "ap_open_hdr", "doc_id", vid, invoice_number)
        self.ins("ap_open_hdr", {**key, "vendor_id": vid, "apref": invoice_number, "description": description,
                                 "inv_date": invoice_date, "due_date": due_date, "gl_date": gl_date, "job_id": job,
                                 "sub_id": commitment_id, "gross": gross, "retainage": ret, "net": gross - ret,
                                 "status": self.word("ap", "unposted"), "source": source, "source_ref": source_ref,
                                 "created_date": self.today})
        link = {c: key[c] for c in self.T("ap_open_line").link}
        for n, (phase, ct, amt, r, desc) in enumerate(clean, 1):
            self.ins("ap_open_line", {**link, "line_no": n, "job_id": job, "phase": phase, "cost_type": ct,
                                      "sub_id": commitment_id, "description": desc, "gross": amt, "retainage": r,
                                      "net": amt - r})
        ref = key.get("doc_id") if "doc_id" in key else f"{per}/{key['batch_id']}/{key['batch_seq']}"
        status = hdr.fixed[1][0] if hdr.fixed else (self.word("ap", "unposted") if hdr.has("status") else "unposted")
        return {"erp_ref": ref, "status": status, "vendor_id": vid, "invoice_number": invoice_number,
                "job_id": job, "period": per, "gross": gross, "retainage": ret, "net": gross - ret,
                "lines": len(clean)}

    # ------------------------------------------------------------------ guarded
    @tool("post", guarded="post")
    def post(self, args: PostArgs) -> dict[str, Any]:
        """Post an unposted $label document: an AP invoice, a journal batch, a change order or a projection.

        GUARDED: posting needs human approval. The call is validated and recorded; nothing is posted.

        Args:
            kind: "ap_invoice", "journal_entry", "change_order" or "projection".
            vendor_id: for ap_invoice, e.g. "$EX_VENDOR".
            invoice_number: for ap_invoice, e.g. "JSM-88421".
            batch_id: for journal_entry, the id journal_entries.stage returned, e.g. "14022".
            job_id: for change_order / projection, e.g. "$EX_JOB".
            co_number: for change_order, e.g. "004".

        Returns {"would_post": {...}} describing what would be posted.
        """
        if args.kind == "ap_invoice":
            if not (args.vendor_id and args.invoice_number):
                raise ToolError("ap_invoice needs vendor_id and invoice_number", "invalid_argument")
            hit = self._find_ap(self.vid(args.vendor_id), args.invoice_number)
            if hit is None:
                raise ToolError(f"no AP invoice {args.invoice_number!r} for vendor {args.vendor_id}", "not_found")
            if hit[0] != "ap_open_hdr":
                raise ToolError(f"invoice {args.invoice_number} is already posted", "conflict")
            return {"would_post": {"kind": "ap_invoice", "invoice": hit[1]}}
        if args.kind == "journal_entry":
            if not args.batch_id:
                raise ToolError("journal_entry needs batch_id", "invalid_argument")
            hdr = self.T("je_open_hdr")
            col_ = "doc_id" if hdr.has("doc_id") else "batch_id"
            info = self.tbl(hdr.table)
            bid: Any = args.batch_id
            if info.columns[hdr.n(col_)].upper().startswith("INT"):
                try:
                    bid = int(bid)
                except ValueError:
                    raise ToolError(f"batch ids are numbers in {self.label}", "not_found") from None
            got = self.rows("je_open_hdr", {col_: bid})
            if not got:
                raise ToolError(f"no unposted journal batch {args.batch_id!r} in {self.label}", "not_found")
            lines = self._je_lines("je_open_hdr", got[0])
            t = self.T("je_open_line")
            dr = sum((self._dr_cr(t, r)[0] for r in lines), ZERO)
            cr = sum((self._dr_cr(t, r)[1] for r in lines), ZERO)
            if dr != cr:
                raise ToolError(f"batch {args.batch_id} does not balance ({dr} vs {cr})", "rejected")
            return {"would_post": {"kind": "journal_entry", "batch": got[0], "debits": dr, "credits": cr}}
        if not args.job_id:
            raise ToolError(f"{args.kind} needs job_id", "invalid_argument")
        if args.kind == "change_order":
            co = self.one("co_hdr", "change order", "", job_id=args.job_id, co_number=args.co_number)
            if co[self.N("co_hdr", "status")] == self.word("co", "approved"):
                raise ToolError("the change order is already approved", "conflict")
            return {"would_post": {"kind": "change_order", "change_order": co}}
        j = self._job(args.job_id)
        if j[self.N("job", "etc_status")] != self.word("proj", "pending"):
            raise ToolError(f"job {args.job_id} has no pending projection", "conflict")
        return {"would_post": {"kind": "projection", "job": j}}

    @tool("payments.create", guarded="payment")
    def payments_create(self, args: PaymentArgs) -> dict[str, Any]:
        """Pay posted $label AP invoices by check.

        GUARDED: paying moves money and needs human approval. The call is validated and recorded; nothing is paid.

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR".
            invoice_numbers: posted invoices to pay, e.g. ["JSM-88421"].
            bank_account: bank / cash account, e.g. "BA-OPER".
            amount: amount, e.g. "12915.00" (default: the open net amount).
            pay_date: payment date, e.g. "2026-01-31".

        Returns {"would_pay": {"vendor_id", "invoices": [...], "amount"}}.
        """
        v = self._vendor(args.vendor_id)
        vid = v[self.N("vendor", "vendor_id")]
        if self._on_hold(v):
            raise ToolError(f"vendor {vid} is on payment hold", "rejected")
        total = ZERO
        found = []
        for num in args.invoice_numbers:
            hit = self._find_ap(vid, num)
            if hit is None:
                raise ToolError(f"no AP invoice {num!r} for vendor {vid}", "not_found")
            if hit[0] != "ap_hdr":
                raise ToolError(f"invoice {num} is not posted; post it before paying", "rejected")
            r = hit[1]
            paid = r.get(self.T("ap_hdr").cols.get("paid_amount", ""), ZERO) or ZERO
            total += (r[self.N("ap_hdr", "net")] or ZERO) - paid
            found.append(num)
        amount = _d(args.amount) if args.amount is not None else total
        return {"would_pay": {"vendor_id": vid, "invoices": found, "amount": amount, "bank_account": args.bank_account}}

    @tool("change_orders.approve", guarded="approve")
    def change_orders_approve(self, args: CoKeyArgs) -> dict[str, Any]:
        """Approve a pending $label change order (updates contract and budget).

        GUARDED: approval needs a human. The call is validated and recorded; nothing is approved.

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".
            co_number: the change order number, e.g. "004".

        Returns {"would_approve": {...}}.
        """
        co = self.one("co_hdr", "change order", "", job_id=args.job_id, co_number=args.co_number)
        if co[self.N("co_hdr", "status")] == self.word("co", "approved"):
            raise ToolError("the change order is already approved", "conflict")
        return {"would_approve": co}

    # ------------------------------------------------------------------ integration (plain Python, not tools)
    def import_ap_invoice(self, *, vendor_id: str, job_id: str, invoice_number: str, invoice_date: date,
                          due_date: date, description: str, lines: list[dict], source: str, source_ref: str,
                          commitment_id: str | None = None) -> dict:
        """Create an UNPOSTED AP invoice from an integration (e.g. Procore requisition sync).

        vendor_id/job_id are THIS ERP's native ids; each line: {"phase", "cost_type", "amount", "retainage",
        "description"}. Returns {"erp_ref", "status", ...}. Raises ToolError (not_found / conflict) for an
        unknown vendor/job or a duplicate vendor + invoice number.
        """
        return self._create_ap(vendor_id=vendor_id, job_id=job_id, invoice_number=invoice_number,
                               invoice_date=invoice_date, due_date=due_date, description=description, lines=lines,
                               source=source, source_ref=source_ref, commitment_id=commitment_id)

    def import_commitment(self, *, vendor_id: str, job_id: str, number: str, title: str, amount: Decimal,
                          retainage_pct: Decimal, lines: list[dict], source_ref: str,
                          commitment_type: str | None = None) -> dict:
        """Create the ERP subcontract (or PO) for a commitment synced from a PM platform.

        The ERP number is ``source_ref`` (the PM commitment id, e.g. 'SC-1042-3'); ``number`` is kept as the
        PM reference. ``commitment_type`` 'subcontract' | 'purchase_order' (default: PO when source_ref
        starts with 'PO'). lines: {"phase", "cost_type", "amount", "description"}.
        """
        v = self._vendor(str(vendor_id))
        vid = v[self.N("vendor", "vendor_id")]
        job = self._job(str(job_id))[self.N("job", "job_id")]
        ctype = commitment_type or ("purchase_order" if str(source_ref).upper().startswith("PO") else "subcontract")
        lg = "po_hdr" if ctype == "purchase_order" else "sub_hdr"
        sub_id = str(source_ref)
        if self.rows("sub_hdr", {"sub_id": sub_id}) or self.rows("po_hdr", {"sub_id": sub_id}):
            raise ToolError(f"commitment {sub_id} already exists in {self.label}", "conflict")
        amt = _d(amount)
        clean = []
        for ln in lines:
            self._phase_ok(job, ln["phase"], ln.get("cost_type"))
            clean.append((ln["phase"], int(ln["cost_type"]), _d(ln["amount"]), ln.get("description") or title))
        if clean and sum((c[2] for c in clean), ZERO) != amt:
            raise ToolError("commitment lines do not sum to the amount", "invalid_argument")
        self.ins(lg, {"co": 1, "sub_id": sub_id, "pm_number": number, "job_id": job, "vendor_id": vid,
                      "description": title, "status": self.word("commit", "approved"), "orig_amount": amt,
                      "approved_co": ZERO, "current_amount": amt, "retainage_pct": Decimal(str(retainage_pct)),
                      "executed_date": self.today, "source_ref": source_ref})
        item = lg.replace("_hdr", "_item")
        for n, (phase, ct, a, desc) in enumerate(clean, 1):
            self.ins(item, {"co": 1, "sub_id": sub_id, "item": n, "job_id": job, "phase": phase, "cost_type": ct,
                            "description": desc, "amount": a})
        return {"erp_ref": sub_id, "type": ctype, "status": self.word("commit", "approved"), "amount": amt,
                "lines": len(clean)}

    # convenience for other apps and tasks
    def logical_columns(self, logical: str) -> dict[str, str]:
        """Logical → native column names of one logical table (for tasks and evaluators)."""
        return dict(self.T(logical).cols)


__all__ = ["ErpApp", "TABLES"]
