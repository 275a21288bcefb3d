"""Excel: workbooks stored as real .xlsx bytes, read and written cell by cell.

Every write goes through ``cfab.apps.xlsx`` (openpyxl; formulas stay formulas; numbers are
exact: Decimal in, a number in the file, exact decimal text back out) and then brings the
derived relations in step through the write gate: ``excel.worksheets`` and ``excel.cells``
(one row per non-empty cell; a formula cell keeps its formula, and every cell carries what it
shows in ``computed``: the stored value, or the formula's result in exact Decimal arithmetic).
Only cells whose stored value, formula or shown result changed are written, so a state diff shows
the cells an agent touched and the results that moved with them, and a written workbook is graded
as an artifact by the numbers it shows (``computed``), whether the agent typed them or wrote
formulas.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar

import duckdb
from openpyxl.utils.cell import column_index_from_string, coordinate_from_string, range_boundaries
from pydantic import Field
from sqlglot import exp

from cfab.apps.contract import App
from cfab.apps.docs.common import XLSX, check_name, excel_workbook_id, normalize_folder, rendered, sha256_hex
from cfab.apps.kit import all_of, icontains, ieq
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool
from cfab.apps.xlsx import XlsxError
from cfab.schema.sqlbuild import col, literal
from cfab.seeds.determinism import BuildInputs, stable_id

_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
MAX_READ_CELLS = 5_000

Scalar = str | int | float | bool | Decimal | None


# ------------------------------------------------------------------------------------------
# values
# ------------------------------------------------------------------------------------------
def cell_text(value: Any) -> str | None:
    """A stored cell value as exact text (the excel.cells.value column)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format(Decimal(repr(value)), "f")
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    return str(value)


def shown(value: Any) -> Any:
    """A value as a tool returns it: numbers as exact decimal strings, other scalars as JSON."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, Decimal, float)):
        return cell_text(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    return value


def to_cell_value(ref: str, value: Any) -> Any:
    """What an agent's value becomes in the workbook: '=...' a formula, a plain number string a
    number (as Excel does when you type it), a leading apostrophe forces text, None clears."""
    if value is None or isinstance(value, (bool, int, Decimal)):
        return value
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, str):
        if value.startswith("'"):
            return value[1:]
        stripped = value.strip()
        if _NUMBER.match(stripped):
            try:
                return Decimal(stripped)
            except InvalidOperation:
                return value
        return value
    raise ToolError(
        f"cell {ref}: cannot write a {type(value).__name__}; give a number, text, true/false, "
        "a formula like '=B2*0.1' or null to clear",
        "invalid_argument",
    )


def cell_rows(
    workbook_id: str, workbook_name: str, content: bytes, sheets: set[str] | None = None
) -> list[dict[str, Any]]:
    """The excel.cells rows of a workbook's bytes (optionally only some sheets)."""
    return workbook_rows(workbook_id, workbook_name, content, sheets)[1]


def sheet_rows(workbook_id: str, content: bytes) -> list[dict[str, Any]]:
    """The excel.worksheets rows of a workbook's bytes."""
    return workbook_rows(workbook_id, "", content, set())[0]


def workbook_rows(
    workbook_id: str, workbook_name: str, content: bytes, sheets: set[str] | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The excel.worksheets rows and the excel.cells rows (optionally only some sheets) of a
    workbook's bytes, from one parse."""
    from cfab.apps.xlsx import sheets_and_cells

    states, all_cells = sheets_and_cells(content, evaluate=sheets != set())
    names = {"visible": "Visible", "hidden": "Hidden", "veryHidden": "VeryHidden"}
    sheet_out = [
        {"workbook_id": workbook_id, "name": title, "position": i, "visibility": names.get(state, "Visible")}
        for i, (title, state) in enumerate(states)
    ]
    out = []
    for c in all_cells:
        if sheets is not None and c.sheet not in sheets:
            continue
        letters, row = coordinate_from_string(c.cell)
        out.append(
            {
                "workbook_id": workbook_id,
                "sheet": c.sheet,
                "cell": c.cell,
                "workbook": workbook_name,
                "row_index": int(row),
                "column_index": int(column_index_from_string(letters)),
                "value": None if c.formula else cell_text(c.value),
                "formula": c.formula,
                "data_type": c.data_type,
                "computed": cell_text(c.value),
            }
        )
    return sheet_out, out


def _scalar(con: duckdb.DuckDBPyConnection, sql: str) -> Any:
    """The value of a one-row, one-column query (an aggregate)."""
    row = con.execute(sql).fetchone()
    assert row is not None  # an aggregate without GROUP BY returns one row
    return row[0]


# ------------------------------------------------------------------------------------------
# the workbooks the book names (and, until the generator emits them, the standard set)
# ------------------------------------------------------------------------------------------
def standard_workbooks(clock: date) -> list[dict[str, Any]]:
    """book.documents-shaped rows for the four standard workbooks (used only when the book
    carries no store='excel' documents)."""
    ym = clock.strftime("%Y-%m")
    specs = [
        (
            "wip_schedule",
            f"/Close/{ym}",
            f"WIP Schedule {ym}.xlsx",
            f"Work-in-progress schedule as of {clock.isoformat()}",
        ),
        (
            "accrual_schedule",
            f"/Close/{ym}",
            f"Subcontract Accrual {ym}.xlsx",
            f"Subcontract accrual schedule (template), period ending {clock.isoformat()}",
        ),
        (
            "vendor_1099",
            "/Tax/1099",
            f"1099 Vendors {clock.year - 1}.xlsx",
            f"1099 vendor review, tax year {clock.year - 1}",
        ),
        (
            "sov_export",
            "/Billing/SOV",
            f"SOV Export {clock.isoformat()}.xlsx",
            "Prime contract schedules of values (export)",
        ),
    ]
    return [
        {
            "document_id": stable_id("workbook", key),
            "doc_type": "workbook",
            "natural_key": key,
            "store": "excel",
            "folder": folder,
            "filename": filename,
            "mime_type": XLSX,
            "title": title,
            "job_number": None,
            "vendor_key": None,
            "created_date": clock,
        }
        for key, folder, filename, title in specs
    ]


def render_standard(con: duckdb.DuckDBPyConnection, doc: dict[str, Any]) -> bytes:
    """Render one standard workbook with the document renderers' builders."""
    from cfab.seeds.documents import workbooks as wbmod
    from cfab.seeds.documents.sql import rows

    company = (rows(con, "company") or [{}])[0]
    kind, job = wbmod.workbook_kind(doc["natural_key"])
    as_of = doc["created_date"]
    if kind == "wip_schedule":
        src = rows(con, "wip_jobs", as_of=as_of, job=job)
    elif kind == "accrual_schedule":
        src = rows(con, "accrual_commitments", job=job)
    elif kind == "vendor_1099":
        src = rows(con, "vendor_payments", year=as_of.year - 1)
    else:
        src = rows(con, "sov_lines", job=job)
    return wbmod.render(doc, wbmod.WorkbookData(kind, job, company, tuple(src)), company)


# ------------------------------------------------------------------------------------------
# arguments
# ------------------------------------------------------------------------------------------
class WorkbookListArgs(ToolArgs):
    name_contains: str | None = Field(None, description="Case-insensitive part of the workbook name", examples=["WIP"])
    folder: str | None = Field(None, description="Only workbooks in this folder (and below)", examples=["/Close"])


class WorkbookRefArgs(ToolArgs):
    workbook: str = Field(..., description="Workbook id, name or full path", examples=["WIP Schedule 2026-01.xlsx"])


class RangeReadArgs(ToolArgs):
    workbook: str = Field(..., description="Workbook id, name or full path", examples=["WIP Schedule 2026-01.xlsx"])
    sheet: str = Field(..., description="Worksheet name", examples=["WIP"])
    range: str | None = Field(
        None, description="A1 range like 'A5:K12' or one cell 'F6'; omit for the used range", examples=["A5:K12"]
    )


class CellsWriteArgs(ToolArgs):
    workbook: str = Field(
        ..., description="Workbook id, name or full path", examples=["Subcontract Accrual 2026-01.xlsx"]
    )
    sheet: str = Field(..., description="Worksheet name", examples=["Accrual"])
    values: dict[str, Scalar] = Field(
        ...,
        description="Cell -> value: numbers (exact), text, true/false, formulas "
        "starting with '=', null to clear; a leading apostrophe keeps text as text",
        examples=[{"G6": "312000.00", "H6": 280000, "J6": "=G6-H6"}],
    )


class SheetAddArgs(ToolArgs):
    workbook: str = Field(..., description="Workbook id, name or full path", examples=["WIP Schedule 2026-01.xlsx"])
    name: str = Field(..., description="New worksheet name (1-31 characters, none of []:*?/\\)", examples=["Review"])
    rows: list[list[Scalar]] | None = Field(
        None, description="Optional rows written from A1", examples=[[["Job", "Note"], ["1042", "ok"]]]
    )


class WorkbookCreateArgs(ToolArgs):
    name: str = Field(
        ..., description="Workbook name (.xlsx is added if missing)", examples=["Accrual review 2026-01.xlsx"]
    )
    folder: str = Field("/", description="Folder path", examples=["/Close/2026-01"])
    sheets: dict[str, list[list[Scalar]]] | None = Field(
        None,
        description="Optional sheets: name -> rows written from A1 (formulas start with '=')",
        examples=[{"Summary": [["Job", "Accrual"], ["3100", "12500.00"], ["Total", "=SUM(B2:B2)"]]}],
    )
    description: str | None = Field(None, description="Optional description", examples=["January accrual review"])


# ------------------------------------------------------------------------------------------
# the app
# ------------------------------------------------------------------------------------------
@register
class Excel(App):
    """Excel: .xlsx workbooks with a cell-level relation the diff and the grader address."""

    name: ClassVar[str] = "excel"
    label: ClassVar[str] = "Excel"
    kind: ClassVar[str] = "office"
    archetype = "Office"
    tier = "A"
    AGENT_LOGIN: ClassVar[str] = "agent@companyA.com"
    # the workbook bytes and the relations read from them move together, through the tools only
    DERIVED_TABLES: ClassVar[Mapping[str, str]] = {
        "workbooks": "excel.workbooks.create",
        "worksheets": "excel.sheets.add",
        "cells": "excel.cells.write",
    }

    # ------------------------------------------------------------------ seed
    @classmethod
    def seed(cls, con: duckdb.DuckDBPyConnection, inputs: BuildInputs) -> None:
        """DDL + view (workbook records), then bytes, worksheets and cells."""
        import pyarrow as pa

        super().seed(con, inputs)
        docs = rendered(con, stores=["excel"])
        contents = {excel_workbook_id(d): doc.content for d, doc in docs.items()}
        if (
            not docs
            and not _scalar(con, "SELECT count(*) FROM book.documents WHERE store = 'excel'")
            and _scalar(con, "SELECT count(*) FROM book.jobs")
        ):
            # the book names no workbooks yet: seed the standard four (same ids the generator's
            # book.documents rows would give them)
            domain = _scalar(con, "SELECT coalesce(min(email_domain), 'companyA.com') FROM book.company")
            for doc in standard_workbooks(inputs.clock):
                wid = excel_workbook_id(doc["document_id"])
                stamp = datetime.combine(doc["created_date"], time(9, 0))
                con.execute(
                    "INSERT INTO excel.workbooks VALUES (?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, NULL)",
                    [
                        wid,
                        doc["filename"],
                        doc["folder"],
                        doc["title"],
                        stamp,
                        stamp,
                        f"controller@{domain}",
                        f"controller@{domain}",
                    ],
                )
                contents[wid] = render_standard(con, doc)
        names = dict(con.execute("SELECT id, name FROM excel.workbooks").fetchall())
        books, sheets, cells = [], [], []
        for wid in sorted(contents):
            content = contents[wid]
            books.append((wid, content, len(content), sha256_hex(content)))
            sheet_part, cell_part = workbook_rows(wid, names[wid], content)
            sheets.extend(sheet_part)
            cells.extend(cell_part)
        con.register(
            "_cfab_books",
            pa.table(
                {
                    "id": pa.array([b[0] for b in books], pa.string()),
                    "content": pa.array([b[1] for b in books], pa.binary()),
                    "size": pa.array([b[2] for b in books], pa.int64()),
                    "sha256": pa.array([b[3] for b in books], pa.string()),
                }
            ),
        )
        try:
            con.execute(
                "UPDATE excel.workbooks SET content = r.content, size = r.size, sha256 = r.sha256 "
                "FROM _cfab_books r WHERE excel.workbooks.id = r.id"
            )
        finally:
            con.unregister("_cfab_books")
        if sheets:
            con.register("_cfab_sheets", pa.Table.from_pylist(sheets))
            try:
                con.execute(
                    "INSERT INTO excel.worksheets SELECT workbook_id, name, position, visibility FROM _cfab_sheets"
                )
            finally:
                con.unregister("_cfab_sheets")
        if cells:
            schema = pa.schema(
                [
                    ("workbook_id", pa.string()),
                    ("sheet", pa.string()),
                    ("cell", pa.string()),
                    ("workbook", pa.string()),
                    ("row_index", pa.int32()),
                    ("column_index", pa.int32()),
                    ("value", pa.string()),
                    ("formula", pa.string()),
                    ("data_type", pa.string()),
                    ("computed", pa.string()),
                ]
            )
            con.register("_cfab_cells", pa.Table.from_pylist(cells, schema=schema))
            try:
                con.execute(
                    "INSERT INTO excel.cells SELECT workbook_id, sheet, cell, workbook, row_index, "
                    "column_index, value, formula, data_type, computed FROM _cfab_cells"
                )
            finally:
                con.unregister("_cfab_cells")
        missing = _scalar(con, "SELECT count(*) FROM excel.workbooks WHERE content IS NULL")
        if missing:
            raise RuntimeError(f"excel: {missing} workbook record(s) got no rendered bytes")

    # ------------------------------------------------------------------ helpers
    _META = [
        "id",
        "name",
        "path",
        "description",
        "size",
        "sha256",
        "created_at",
        "modified_at",
        "created_by",
        "last_modified_by",
    ]

    def _record(self, row: dict[str, Any]) -> dict[str, Any]:
        rec = {k: row.get(k) for k in self._META}
        rec["full_path"] = ("" if row["path"] == "/" else row["path"]) + "/" + row["name"]
        return rec

    def _workbook(self, ref: str, *, with_content: bool = True) -> dict[str, Any]:
        cols = self._META + (["content"] if with_content else [])
        text = str(ref).strip()
        rows = self.select("workbooks", {"id": text}, columns=cols)
        if not rows:
            folder, _, name = text.rpartition("/")
            pred = ieq("name", name, trim=False)
            where = {"path": normalize_folder(folder)} if folder else None
            rows = self.select("workbooks", where, extra=pred, columns=cols, order_by=["path", "name"])
            if not rows and not name.lower().endswith(".xlsx"):
                pred = ieq("name", name + ".xlsx", trim=False)
                rows = self.select("workbooks", where, extra=pred, columns=cols, order_by=["path", "name"])
        if not rows:
            raise ToolError(f"no workbook {ref!r} in Excel; list them with excel.workbooks.list", "not_found")
        if len(rows) > 1:
            raise ToolError(
                f"{len(rows)} workbooks are named {ref!r} (in "
                + ", ".join(r["path"] for r in rows)
                + "); give the id or the full path",
                "invalid_argument",
            )
        return rows[0]

    def _sheets(self, workbook_id: str) -> list[dict[str, Any]]:
        return self.select("worksheets", {"workbook_id": workbook_id}, order_by=["position"])

    def _sheet(self, wb: dict[str, Any], sheet: str) -> str:
        names = [s["name"] for s in self._sheets(wb["id"])]
        if sheet in names:
            return sheet
        for n in names:
            if n.lower() == sheet.lower():
                return n
        raise ToolError(f"workbook {wb['name']} has no sheet {sheet!r}; its sheets are {names}", "not_found")

    def _save(self, wb: dict[str, Any], content: bytes) -> dict[str, int]:
        """Store new bytes and bring worksheets and cells in step: every sheet's, since a formula
        on another sheet may compute from the cells just written."""
        self.update(
            "workbooks",
            {"id": wb["id"]},
            {
                "content": content,
                "size": len(content),
                "sha256": sha256_hex(content),
                "modified_at": self.now,
                "last_modified_by": self.AGENT_LOGIN,
            },
        )
        have = {s["name"]: s for s in self._sheets(wb["id"])}
        for s in sheet_rows(wb["id"], content):
            old = have.get(s["name"])
            if old is None:
                self.insert("worksheets", s)
            elif (old["position"], old["visibility"]) != (s["position"], s["visibility"]):
                self.update(
                    "worksheets",
                    {"workbook_id": wb["id"], "name": s["name"]},
                    {"position": s["position"], "visibility": s["visibility"]},
                )
        new = {(c["sheet"], c["cell"]): c for c in cell_rows(wb["id"], wb["name"], content)}
        old_cells = {(c["sheet"], c["cell"]): c for c in self.select("cells", {"workbook_id": wb["id"]})}
        counts = {"inserted": 0, "updated": 0, "deleted": 0, "recomputed": 0}
        stored = ("value", "formula", "data_type")
        added = [c for key, c in new.items() if key not in old_cells]
        self.insert_many("cells", added)  # one rule query and a few multi-row INSERTs, not one per cell
        counts["inserted"] = len(added)
        for key, c in new.items():
            o = old_cells.get(key)
            if o is not None and any(o[k] != c[k] for k in (*stored, "computed")):
                self.update(
                    "cells",
                    {"workbook_id": wb["id"], "sheet": key[0], "cell": key[1]},
                    {k: c[k] for k in (*stored, "computed")},
                )
                counts["updated" if any(o[k] != c[k] for k in stored) else "recomputed"] += 1
        for key in old_cells.keys() - new.keys():
            self.delete("cells", {"workbook_id": wb["id"], "sheet": key[0], "cell": key[1]})
            counts["deleted"] += 1
        return counts

    @staticmethod
    def _xlsx_error(exc: XlsxError) -> ToolError:
        return ToolError(str(exc), "invalid_argument")

    # ------------------------------------------------------------------ tools
    @tool("workbooks.list")
    def workbooks_list(self, args: WorkbookListArgs) -> dict[str, Any]:
        """List the workbooks in Excel with their sheets.

        Args:
            name_contains: part of the name, e.g. "WIP".
            folder: only this folder and below, e.g. "/Close".

        Returns {"workbooks": [{id, name, path, full_path, description, size, sha256, created_at, modified_at,
        created_by, last_modified_by, sheets: ["WIP"]}], "count": n}.
        """
        parts: list[exp.Expr | None] = [icontains("name", args.name_contains)]
        if args.folder:
            folder = normalize_folder(args.folder)
            if folder != "/":
                parts.append(
                    exp.or_(
                        exp.EQ(this=col("path"), expression=literal(folder)),
                        exp.func("starts_with", col("path"), literal(folder + "/")),
                    )
                )
        rows = self.select("workbooks", extra=all_of(*parts), columns=self._META, order_by=["path", "name"])
        out = []
        for r in rows:
            rec = self._record(r)
            rec["sheets"] = [s["name"] for s in self._sheets(r["id"])]
            out.append(rec)
        return {"workbooks": out, "count": len(out)}

    @tool("sheets.list")
    def sheets_list(self, args: WorkbookRefArgs) -> dict[str, Any]:
        """List a workbook's worksheets with their used range.

        Args:
            workbook: id, name or full path, e.g. "WIP Schedule 2026-01.xlsx".

        Returns {"workbook": {...}, "sheets": [{name, position, visibility, used_range: "A1:K37", cell_count}], "count": n}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        wb = self._workbook(args.workbook, with_content=False)
        stats = {
            r["sheet"]: r
            for r in self.query(
                exp.select(
                    "sheet",
                    exp.alias_(exp.Max(this=col("row_index")), "max_row"),
                    exp.alias_(exp.Max(this=col("column_index")), "max_col"),
                    exp.alias_(exp.Count(this=exp.Star()), "n"),
                )
                .from_(self.tbl("cells").table_expr())
                .where(exp.EQ(this=col("workbook_id"), expression=literal(wb["id"])))
                .group_by("sheet")
            )
        }
        from openpyxl.utils import get_column_letter

        out = []
        for s in self._sheets(wb["id"]):
            st = stats.get(s["name"])
            used = f"A1:{get_column_letter(st['max_col'])}{st['max_row']}" if st else None
            out.append(
                {
                    "name": s["name"],
                    "position": s["position"],
                    "visibility": s["visibility"],
                    "used_range": used,
                    "cell_count": int(st["n"]) if st else 0,
                }
            )
        return {"workbook": self._record(wb), "sheets": out, "count": len(out)}

    @tool("range.read")
    def range_read(self, args: RangeReadArgs) -> dict[str, Any]:
        """Read a range of a worksheet: the values a user sees (formulas computed) and the formulas.

        Args:
            workbook: id, name or full path, e.g. "WIP Schedule 2026-01.xlsx".
            sheet: e.g. "WIP".
            range: e.g. "A5:K12" or "F6" (omit for the sheet's used range).

        Returns {"workbook": name, "sheet": "WIP", "range": "A5:K12", "values": [[...]], "formulas": [[...]]}:
        numbers are exact decimal strings ("14350.00" reads back "14350"), formulas are "=E6+F6"
        (null where a cell holds a plain value), empty cells are null.
        """
        from cfab.apps.xlsx import read_range

        wb = self._workbook(args.workbook)
        sheet = self._sheet(wb, args.sheet)
        rng = args.range
        if not rng:
            stat = self.query(
                exp.select(
                    exp.alias_(exp.Max(this=col("row_index")), "r"), exp.alias_(exp.Max(this=col("column_index")), "c")
                )
                .from_(self.tbl("cells").table_expr())
                .where(
                    exp.and_(
                        exp.EQ(this=col("workbook_id"), expression=literal(wb["id"])),
                        exp.EQ(this=col("sheet"), expression=literal(sheet)),
                    )
                )
            )[0]
            if stat["r"] is None:
                return {"workbook": wb["name"], "sheet": sheet, "range": None, "values": [], "formulas": []}
            from openpyxl.utils import get_column_letter

            rng = f"A1:{get_column_letter(stat['c'])}{stat['r']}"
        content = bytes(wb["content"])
        text = str(rng).strip()
        try:  # refuse an oversized range before reading it (read_range checks the rest)
            bounds = range_boundaries(text if ":" in text else f"{text}:{text}")
        except (ValueError, TypeError):
            bounds = None  # read_range explains what is wrong with it
        if bounds and None not in bounds and (bounds[2] - bounds[0] + 1) * (bounds[3] - bounds[1] + 1) > MAX_READ_CELLS:
            raise ToolError(
                f"range {rng} has more than {MAX_READ_CELLS} cells; read at most {MAX_READ_CELLS} at a time",
                "invalid_argument",
            )
        try:
            values = read_range(content, sheet, rng)
            formulas = read_range(content, sheet, rng, formulas=True)
        except XlsxError as exc:
            raise self._xlsx_error(exc) from None
        n = sum(len(r) for r in values)
        if n > MAX_READ_CELLS:
            raise ToolError(f"range {rng} has {n} cells; read at most {MAX_READ_CELLS} at a time", "invalid_argument")
        return {
            "workbook": wb["name"],
            "sheet": sheet,
            "range": rng,
            "values": [[shown(v) for v in row] for row in values],
            "formulas": [[f if isinstance(f, str) and f.startswith("=") else None for f in row] for row in formulas],
        }

    @tool("cells.write", writes=True)
    def cells_write(self, args: CellsWriteArgs) -> dict[str, Any]:
        """Write cells of a worksheet (values, text or formulas); the .xlsx is saved and the formulas
        that depend on them are recomputed.

        Args:
            workbook: id, name or full path, e.g. "Subcontract Accrual 2026-01.xlsx".
            sheet: e.g. "Accrual".
            values: cell -> value, e.g. {"G6": "312000.00", "H6": 280000, "J6": "=G6-H6"}; numbers are stored
                exactly, "=..." is a formula, null clears a cell, "'00123" stores the text 00123.

        Returns {"workbook": {...}, "sheet": "Accrual", "written": [{cell, value, formula}], "cells_changed":
        {"inserted": n, "updated": n, "deleted": n, "recomputed": n}} (recomputed: formula cells whose
        result changed).
        """
        from cfab.apps.xlsx import write_cells

        if not args.values:
            raise ToolError('values is empty: give at least one cell, e.g. {"B2": "123.45"}', "invalid_argument")
        wb = self._workbook(args.workbook)
        sheet = self._sheet(wb, args.sheet)
        values = {ref.strip().upper(): to_cell_value(ref, v) for ref, v in args.values.items()}
        try:
            content = write_cells(bytes(wb["content"]), sheet, values)
        except XlsxError as exc:
            raise self._xlsx_error(exc) from None
        counts = self._save(wb, content)
        written = [
            {
                "cell": ref.replace("$", ""),
                "value": None if isinstance(v, str) and v.startswith("=") else shown(v),
                "formula": v if isinstance(v, str) and v.startswith("=") else None,
            }
            for ref, v in values.items()
        ]
        after = self._workbook(wb["id"], with_content=False)
        return {"workbook": self._record(after), "sheet": sheet, "written": written, "cells_changed": counts}

    @tool("sheets.add", writes=True)
    def sheets_add(self, args: SheetAddArgs) -> dict[str, Any]:
        """Add a worksheet to a workbook, optionally with rows written from A1.

        Args:
            workbook: id, name or full path, e.g. "WIP Schedule 2026-01.xlsx".
            name: the new sheet, e.g. "Review".
            rows: optional rows, e.g. [["Job", "Note"], ["1042", "ok"]].

        Returns {"workbook": {...}, "sheet": "Review", "sheets": [...all sheet names...], "cells_written": n}.
        """
        from openpyxl.utils import get_column_letter

        from cfab.apps.xlsx import add_sheet, write_cells

        wb = self._workbook(args.workbook)
        try:
            content = add_sheet(bytes(wb["content"]), args.name)
            values = {
                f"{get_column_letter(c)}{r}": to_cell_value(f"{get_column_letter(c)}{r}", v)
                for r, row in enumerate(args.rows or [], start=1)
                for c, v in enumerate(row, start=1)
                if v is not None
            }
            if values:
                content = write_cells(content, args.name, values)
        except XlsxError as exc:
            raise self._xlsx_error(exc) from None
        self._save(wb, content)
        return {
            "workbook": self._record(self._workbook(wb["id"], with_content=False)),
            "sheet": args.name,
            "sheets": [s["name"] for s in self._sheets(wb["id"])],
            "cells_written": len(values),
        }

    @tool("workbooks.create", writes=True)
    def workbooks_create(self, args: WorkbookCreateArgs) -> dict[str, Any]:
        """Create a new workbook, optionally with sheets and rows (formulas start with '=').

        Args:
            name: e.g. "Accrual review 2026-01.xlsx" (.xlsx is added if missing).
            folder: e.g. "/Close/2026-01" (default the root).
            sheets: e.g. {"Summary": [["Job", "Accrual"], ["3100", "12500.00"], ["Total", "=SUM(B2:B2)"]]}
                (default one empty sheet "Sheet1").
            description: optional, e.g. "January accrual review".

        Returns {"workbook": {id, name, path, full_path, size, sha256, ...}, "sheets": ["Summary"], "cells": n}.
        """
        from cfab.apps.xlsx import create_workbook

        name = args.name if args.name.lower().endswith(".xlsx") else args.name + ".xlsx"
        check_name(name, "workbook name")
        folder = normalize_folder(args.folder)
        clash = self.select("workbooks", {"path": folder}, extra=ieq("name", name, trim=False), columns=["id"])
        if clash:
            raise ToolError(
                f"a workbook named {name!r} already exists in {folder} (id {clash[0]['id']}); "
                "write to it with excel.cells.write or choose another name",
                "conflict",
            )
        sheets = args.sheets or {"Sheet1": []}
        try:
            content = create_workbook(
                {
                    s: [[to_cell_value(f"{s}!R{i}", v) for v in row] for i, row in enumerate(rows, 1)]
                    for s, rows in sheets.items()
                },
                created=self.today,
            )
        except XlsxError as exc:
            raise self._xlsx_error(exc) from None
        wid = "01" + self.new_id("workbook", folder, name.lower(), length=32).upper()
        row = {
            "id": wid,
            "name": name,
            "path": folder,
            "description": args.description,
            "size": len(content),
            "sha256": sha256_hex(content),
            "created_at": self.now,
            "modified_at": self.now,
            "created_by": self.AGENT_LOGIN,
            "last_modified_by": self.AGENT_LOGIN,
            "content": content,
        }
        self.insert("workbooks", row)
        self.insert_many("worksheets", sheet_rows(wid, content))
        cells = cell_rows(wid, name, content)
        self.insert_many("cells", cells)
        return {"workbook": self._record(row), "sheets": list(sheets), "cells": len(cells)}

    # ------------------------------------------------------------------ integration (Python-level)
    def workbook_bytes(self, ref: str) -> tuple[dict[str, Any], bytes]:
        """(record, .xlsx bytes) of a workbook by id, name or path (Outlook attaches these)."""
        wb = self._workbook(ref)
        return self._record(wb), bytes(wb["content"])

    def cell_value(self, workbook: str, sheet: str, cell: str) -> Any:
        """The computed value of one cell (numbers as exact decimal strings)."""
        from cfab.apps.xlsx import read_range

        wb = self._workbook(workbook)
        return shown(read_range(bytes(wb["content"]), self._sheet(wb, sheet), cell)[0][0])
