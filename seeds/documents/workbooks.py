"""Excel workbooks built from the book: WIP schedule, accrual template, 1099 vendors, SOV export.

A workbook document's ``natural_key`` names its kind, optionally scoped to one job:
``wip_schedule``, ``accrual_schedule``, ``vendor_1099``, ``sov_export`` or e.g.
``sov_export:1042`` (a document row with ``job_number`` set is scoped to that job too).
Computed columns are live formulas (never cached numbers), inputs are exact decimals, and
the bytes are deterministic: document properties carry the document's date and the zip is
rewritten with fixed entry timestamps in openpyxl's fixed order.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import duckdb
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.excel import ExcelWriter

from cfab.seeds.documents.common import DocumentError, Row
from cfab.seeds.documents.sql import by_key, rows

DOC_TYPES = ("workbook",)
MONEY = "#,##0.00;(#,##0.00)"
PERCENT = "0.00%"
BOLD = Font(bold=True)
HEAD_FILL = PatternFill("solid", fgColor="DDE4EE")
ALIASES = {"wip": "wip_schedule", "accrual": "accrual_schedule", "1099": "vendor_1099", "sov": "sov_export"}


@dataclass(frozen=True)
class WorkbookData:
    kind: str
    job: str | None
    company: Row
    rows: tuple[Row, ...]


def workbook_kind(natural_key: str) -> tuple[str, str | None]:
    """``"sov_export:1042"`` -> ``("sov_export", "1042")``; aliases by substring."""
    kind, _, job = str(natural_key).partition(":")
    key = kind.strip().lower()
    if key not in BUILDERS:
        key = next((full for part, full in ALIASES.items() if part in key), key)
    if key not in BUILDERS:
        raise DocumentError(
            f"workbook natural_key {natural_key!r} names no known workbook "
            f"(expected one of {', '.join(BUILDERS)}, optionally ':<job>')"
        )
    return key, (job.strip() or None)


def load(con: duckdb.DuckDBPyConnection, ids: list[str] | None) -> dict[str, WorkbookData]:
    """The source rows of every workbook document in ``ids`` (None: all)."""
    company = rows(con, "company")
    comp = company[0] if company else {}
    out: dict[str, WorkbookData] = {}
    for doc in rows(con, "documents", ids=ids):
        if doc["doc_type"] not in DOC_TYPES:
            continue
        kind, job = workbook_kind(doc["natural_key"])
        job = job or doc.get("job_number") or None
        if kind == "wip_schedule":
            src = rows(con, "wip_jobs", as_of=doc["created_date"], job=job)
        elif kind == "accrual_schedule":
            src = rows(con, "accrual_commitments", job=job)
        elif kind == "vendor_1099":
            src = rows(con, "vendor_payments", year=doc["created_date"].year - 1)
        else:
            src = rows(con, "sov_lines", job=job)
        out[doc["document_id"]] = WorkbookData(kind, job, comp, tuple(src))
    return out


# ------------------------------------------------------------------------------------------
# deterministic bytes
# ------------------------------------------------------------------------------------------
def save_deterministic(wb: Workbook, when: date | datetime) -> bytes:
    """Serialize ``wb`` with docProps created/modified = ``when`` and fixed zip timestamps."""
    stamp = when if isinstance(when, datetime) else datetime(when.year, when.month, when.day)
    wb.properties.created = stamp
    wb.properties.modified = stamp
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        ExcelWriter(wb, archive).save()
    return normalize_zip(buf.getvalue(), stamp)


def normalize_zip(data: bytes, when: datetime) -> bytes:
    """Rewrite a zip with every entry stamped ``when`` (keeps entry order and contents)."""
    stamp = (max(when.year, 1980), when.month, when.day, 0, 0, 0)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o600 << 16
            dst.writestr(entry, src.read(info.filename))
    return out.getvalue()


# ------------------------------------------------------------------------------------------
# sheet helpers
# ------------------------------------------------------------------------------------------
def _title(ws: Worksheet, company: Row, title: str, subtitle: str) -> None:
    ws["A1"] = company.get("name", "Company A Construction, Inc.")
    ws["A1"].font = Font(bold=True, size=12)
    ws["A2"] = title
    ws["A2"].font = Font(bold=True, size=11)
    ws["A3"] = subtitle


def _header(ws: Worksheet, row: int, heads: Sequence[tuple[str, float]]) -> None:
    for i, (head, width) in enumerate(heads, start=1):
        cell = ws.cell(row=row, column=i, value=head)
        cell.font, cell.fill = BOLD, HEAD_FILL
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        ws.column_dimensions[get_column_letter(i)].width = width
    ws.freeze_panes = f"A{row + 1}"


def _put(ws: Worksheet, r: int, values: Sequence[Any]) -> None:
    """Write one row at row ``r`` from column A (None leaves the cell empty)."""
    for c, value in enumerate(values, start=1):
        if value is not None:
            ws.cell(row=r, column=c, value=value)


def _fmt(ws: Worksheet, first: int, last: int, cols: str, fmt: str) -> None:
    for r in range(first, last + 1):
        for col in cols:
            ws[f"{col}{r}"].number_format = fmt


# ------------------------------------------------------------------------------------------
# builders
# ------------------------------------------------------------------------------------------
def build_wip(data: WorkbookData, as_of: date) -> Workbook:
    """Per job: contract, cost to date, cost to complete, est. total cost, % complete,
    earned revenue, billed to date, over/(under) billing; formulas for the derived columns."""
    wb = Workbook()
    ws = wb.active
    ws.title = "WIP"
    _title(ws, data.company, "Work-in-Progress Schedule", f"As of {as_of.isoformat()}")
    _header(
        ws,
        5,
        [
            ("Job", 8),
            ("Job Name", 34),
            ("Project Manager", 18),
            ("Contract Amount", 16),
            ("Cost to Date", 16),
            ("Est. Cost to Complete", 16),
            ("Est. Total Cost", 16),
            ("% Complete", 11),
            ("Earned Revenue", 16),
            ("Billed to Date", 16),
            ("Over/(Under) Billing", 18),
        ],
    )
    r = 6
    for row in data.rows:
        _put(
            ws,
            r,
            [
                row["job_number"],
                row["name"],
                row["project_manager"],
                row["contract_amount"],
                row["cost_to_date"],
                row["cost_to_complete"],
                f"=E{r}+F{r}",
                f"=IF(G{r}=0,0,E{r}/G{r})",
                f"=ROUND(D{r}*H{r},2)",
                row["billed_to_date"],
                f"=J{r}-I{r}",
            ],
        )
        r += 1
    last, t = r - 1, r
    ws.cell(row=t, column=1, value="Total").font = BOLD
    for col in "DEFGIJK":
        ws[f"{col}{t}"] = f"=SUM({col}6:{col}{last})" if last >= 6 else 0
        ws[f"{col}{t}"].font = BOLD
    ws[f"H{t}"] = f"=IF(G{t}=0,0,E{t}/G{t})"
    _fmt(ws, 6, t, "DEFGIJK", MONEY)
    _fmt(ws, 6, t, "H", PERCENT)
    return wb


def build_accrual(data: WorkbookData, as_of: date) -> Workbook:
    """Template: one row per approved subcontract; work completed and approved invoices to
    date are inputs, the accrual is ``MAX(0, completed - invoiced)``; JE summary below."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Accrual"
    _title(
        ws,
        data.company,
        "Subcontract Accrual Schedule (template)",
        f"Period ending {as_of.isoformat()} - enter PM work completed to date and approved invoices to date",
    )
    _header(
        ws,
        5,
        [
            ("Job", 8),
            ("Job Name", 30),
            ("Commitment", 14),
            ("Number", 10),
            ("Vendor", 32),
            ("Commitment Amount", 16),
            ("Work Completed to Date", 18),
            ("Approved Invoices to Date", 18),
            ("Accrual", 16),
        ],
    )
    r = 6
    for row in data.rows:
        _put(
            ws,
            r,
            [
                row["job_number"],
                row["job_name"],
                row["commitment_id"],
                row["number"],
                row["vendor_name"],
                row["amount"],
                None,
                None,
                f"=MAX(0,G{r}-H{r})",
            ],
        )
        r += 1
    last, t = r - 1, r
    ws.cell(row=t, column=1, value="Total").font = BOLD
    for col in "FGHI":
        ws[f"{col}{t}"] = f"=SUM({col}6:{col}{last})" if last >= 6 else 0
        ws[f"{col}{t}"].font = BOLD
    _fmt(ws, 6, t, "FGHI", MONEY)
    je = t + 2
    ws[f"A{je}"] = "Journal entry (draft, auto-reverse next period)"
    ws[f"A{je}"].font = BOLD
    ws[f"B{je + 1}"], ws[f"C{je + 1}"], ws[f"F{je + 1}"] = "Dr", "5200", f"=I{t}"
    ws[f"B{je + 2}"], ws[f"C{je + 2}"], ws[f"G{je + 2}"] = "Cr", "2100", f"=I{t}"
    ws[f"E{je + 1}"], ws[f"E{je + 2}"] = "Subcontract cost", "Accrued liabilities"
    _fmt(ws, je + 1, je + 2, "FG", MONEY)
    return wb


def mask_tin(tin: str) -> str:
    """Keep the last four digits: ``XX-XXX6789`` (EIN) / ``XXX-XX-6789`` (SSN)."""
    digits = [ch for ch in str(tin) if ch.isdigit()]
    last4 = "".join(digits[-4:])
    return f"XXX-XX-{last4}" if str(tin).count("-") == 2 else f"XX-XXX{last4}"


def build_1099(data: WorkbookData, as_of: date) -> Workbook:
    """Vendor, masked TIN, TIN type, entity type and payments in the tax year."""
    year = as_of.year - 1
    wb = Workbook()
    ws = wb.active
    ws.title = f"1099 Vendors {year}"
    _title(
        ws,
        data.company,
        f"1099 Vendor Review - Tax Year {year}",
        "Payments = checks issued in the tax year (void excluded)",
    )
    _header(
        ws,
        5,
        [
            ("Vendor ID", 10),
            ("Vendor Name", 36),
            ("DBA", 24),
            ("TIN (masked)", 14),
            ("TIN Type", 9),
            ("Entity Type", 18),
            (f"{year} Payments", 16),
        ],
    )
    r = 6
    for row in data.rows:
        _put(
            ws,
            r,
            [
                row["vendor_key"],
                row["legal_name"],
                row["dba_name"],
                mask_tin(row["tin"]),
                row["tin_type"],
                row["entity_type"],
                row["payments"],
            ],
        )
        r += 1
    ws.cell(row=r, column=1, value="Total").font = BOLD
    ws[f"G{r}"] = f"=SUM(G6:G{r - 1})" if r > 6 else 0
    ws[f"G{r}"].font = BOLD
    _fmt(ws, 6, r, "G", MONEY)
    return wb


def build_sov(data: WorkbookData, as_of: date) -> Workbook:
    """One sheet per job: the prime contract's SOV lines with a live total."""
    wb = Workbook()
    wb.remove(wb.active)
    for job, lines in by_key(list(data.rows), "job_number").items():
        ws = wb.create_sheet(str(job)[:31])
        first = lines[0]
        _title(
            ws,
            data.company,
            f"Schedule of Values - Job {job} {first['job_name']}",
            f"Prime contract {first['contract_number'] or ''} - exported {as_of.isoformat()}",
        )
        _header(
            ws,
            5,
            [
                ("Item", 7),
                ("Line", 6),
                ("Description", 40),
                ("Cost Code", 11),
                ("Scheduled Value", 16),
                ("Source", 13),
                ("Change Order", 16),
            ],
        )
        for r, ln in enumerate(lines, start=6):
            _put(
                ws,
                r,
                [
                    ln["item_number"],
                    ln["line_no"],
                    ln["description"],
                    ln["cost_code"],
                    ln["scheduled_value"],
                    ln["source"],
                    ln["co_id"],
                ],
            )
        t = 6 + len(lines)
        ws.cell(row=t, column=3, value="Total").font = BOLD
        ws[f"E{t}"] = f"=SUM(E6:E{t - 1})"
        ws[f"E{t}"].font = BOLD
        _fmt(ws, 6, t, "E", MONEY)
    if not wb.sheetnames:
        wb.create_sheet("SOV")
    return wb


BUILDERS: dict[str, Callable[[WorkbookData, date], Workbook]] = {
    "wip_schedule": build_wip,
    "accrual_schedule": build_accrual,
    "vendor_1099": build_1099,
    "sov_export": build_sov,
}


def render(doc: Row, data: WorkbookData, company: Any) -> bytes:
    """The workbook's deterministic xlsx bytes."""
    wb = BUILDERS[data.kind](data, doc["created_date"])
    wb.properties.creator = data.company.get("name", "Company A Construction, Inc.")
    wb.properties.lastModifiedBy = wb.properties.creator
    wb.properties.title = doc["title"]
    return save_deterministic(wb, doc["created_date"])
