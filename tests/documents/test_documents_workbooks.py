"""Workbooks: open in openpyxl, keep live formulas, compute the book's numbers, same bytes twice."""

from __future__ import annotations

import io
import zipfile
from decimal import Decimal

import duckdb
import pytest
from openpyxl import load_workbook

from cfab.apps.xlsx import cells, list_sheets, read_range
from cfab.seeds.documents import DocumentError, render_all, render_document
from cfab.seeds.documents.workbooks import mask_tin, workbook_kind

WORKBOOKS = ("doc-wb-wip", "doc-wb-accrual", "doc-wb-1099", "doc-wb-sov")


@pytest.mark.parametrize("doc_id", WORKBOOKS)
def test_workbook_opens_and_keeps_formulas(book: duckdb.DuckDBPyConnection, doc_id: str) -> None:
    doc = render_document(book, doc_id)
    wb = load_workbook(io.BytesIO(doc.content))
    formulas = [
        c.value
        for ws in wb.worksheets
        for row in ws.iter_rows()
        for c in row
        if isinstance(c.value, str) and c.value.startswith("=")
    ]
    assert formulas, "every workbook carries live formulas"
    assert wb.properties.created.date() == doc.created == wb.properties.modified.date()
    stamps = {i.date_time for i in zipfile.ZipFile(io.BytesIO(doc.content)).infolist()}
    assert stamps == {(doc.created.year, doc.created.month, doc.created.day, 0, 0, 0)}
    assert render_document(book, doc_id).content == doc.content


def test_wip_formulas_compute_the_book(book: duckdb.DuckDBPyConnection) -> None:
    content = render_document(book, "doc-wb-wip").content
    assert read_range(content, "WIP", "G6:K6", formulas=True) == [
        ["=E6+F6", "=IF(G6=0,0,E6/G6)", "=ROUND(D6*H6,2)", 1476000, "=J6-I6"]
    ]
    job, contract, cost, etc, est, pct, earned, billed, over = (
        read_range(content, "WIP", "A6:K6")[0][:1] + read_range(content, "WIP", "D6:K6")[0]
    )
    assert job == "1042" and contract == Decimal("4920000")  # original + approved owner CO
    assert cost == 210000 and etc == 1650000 and est == Decimal("1860000")
    assert earned == (Decimal(contract) * Decimal(cost) / Decimal(est)).quantize(Decimal("0.01"))
    assert over == Decimal(billed) - earned


def test_accrual_template_leaves_inputs_blank(book: duckdb.DuckDBPyConnection) -> None:
    content = render_document(book, "doc-wb-accrual").content
    rows = read_range(content, "Accrual", "A6:I7", formulas=True)
    assert [r[2] for r in rows] == ["SC-1042-0", "SC-3100-2"]  # approved subcontracts on active jobs
    assert all(r[6] is None and r[7] is None for r in rows)
    assert rows[0][8] == "=MAX(0,G6-H6)"


def test_1099_workbook_masks_tins_and_sums_tax_year_checks(book: duckdb.DuckDBPyConnection) -> None:
    content = render_document(book, "doc-wb-1099").content
    assert list_sheets(content) == ["1099 Vendors 2025"]
    rows = read_range(content, "1099 Vendors 2025", "A6:G11")
    assert rows[0][3] == "XX-XXX5667" and rows[2][3] == rows[3][3] == "XXX-XX-6789"  # the split payee, once masked
    assert [r[6] for r in rows] == [210000, 0, 12500, 0, 0, Decimal("222500")]  # void and 2026 checks excluded
    assert all("412-55" not in str(c.value) for c in cells(content))
    assert mask_tin("12-3456789") == "XX-XXX6789"


def test_sov_export_has_a_sheet_per_job(book: duckdb.DuckDBPyConnection) -> None:
    content = render_document(book, "doc-wb-sov").content
    assert list_sheets(content) == ["1042", "9140"]
    assert read_range(content, "1042", "E10", formulas=True) == [["=SUM(E6:E9)"]]
    assert read_range(content, "1042", "E10") == [[Decimal("4920000")]]


def test_workbook_kinds() -> None:
    assert workbook_kind("sov_export:1042") == ("sov_export", "1042")
    assert workbook_kind("WIP") == ("wip_schedule", None)
    with pytest.raises(DocumentError, match="no known workbook"):
        workbook_kind("budget")


def test_all_workbooks_render_in_one_pass(book: duckdb.DuckDBPyConnection) -> None:
    docs = list(render_all(book, doc_types=("workbook",)))
    assert sorted(d.document_id for d in docs) == sorted(WORKBOOKS)
