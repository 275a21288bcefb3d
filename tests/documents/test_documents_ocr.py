"""ocr_pdf: key fields by label from the bytes alone, tables, doc-type guess, clear errors."""

from __future__ import annotations

from decimal import Decimal

import duckdb
import pytest

from cfab.apps.ocr import OcrError, OcrResult, normalize_amount, normalize_date, ocr_pdf
from cfab.seeds.documents import render_all, render_document


def _money(value: Decimal) -> str:
    return str(Decimal(value).quantize(Decimal("0.01")))


def test_paper_worked_invoice(book: duckdb.DuckDBPyConnection) -> None:
    """The appendix trajectory: OCR yields JSM-88421, $14,350.00, PO 9140-75, cost code 31-200."""
    result = ocr_pdf(render_document(book, "doc-inv-jsm-88421").content)
    assert isinstance(result, OcrResult) and result.doc_type == "invoice" and result.pages == 1
    f = result.fields
    assert f["invoice_number"] == "JSM-88421"
    assert f["total"] == "14350.00"
    assert f["po_number"] == "9140-75"
    assert f["cost_code"] == "31-200"
    assert f["job_number"] == "9140"
    assert f["vendor_name"] == "Jackson Site and Materials"  # the vendor's own (Box) spelling
    assert (f["invoice_date"], f["due_date"]) == ("2026-01-12", "2026-02-11")
    assert (f["subtotal"], f["retainage"]) == ("14350.00", "0.00")
    assert result.tables[0].rows[1][1:4] == ["31-200", "Structural fill CA-6, 1,025 tons @ $14.00", "$14,350.00"]


def test_every_invoice_and_coi_reads_back_the_book(book: duckdb.DuckDBPyConnection) -> None:
    invoices = dict(
        book.execute(
            "SELECT document_id, invoice_number || '|' || net_amount || '|' || "
            "gross_amount || '|' || retainage_amount FROM book.ap_invoices"
        ).fetchall()
    )
    expiry = {}
    for doc_id, exp in book.execute(
        "SELECT document_id, expiry_date FROM book.certificates_of_insurance ORDER BY document_id, coi_id"
    ).fetchall():
        expiry.setdefault(doc_id, []).append(exp.isoformat())
    seen = 0
    for doc in render_all(book, doc_types=("invoice", "coi")):
        f = ocr_pdf(doc.content, tables=False).fields
        if doc.document_id in invoices:
            number, net, gross, ret = invoices[doc.document_id].split("|")
            assert (f["invoice_number"], f["total"], f["subtotal"], f["retainage"]) == (number, net, gross, ret)
        else:
            got = sorted(v for k, v in f.items() if k.startswith("expiry_date"))
            assert got == sorted(expiry[doc.document_id])
        seen += 1
    assert seen == 5


def test_waiver_fields(book: duckdb.DuckDBPyConnection) -> None:
    f = ocr_pdf(render_document(book, "doc-lw-v1000-2").content).fields
    assert f == {
        **f,
        "waiver_type": "unconditional_final",
        "amount": "210000.00",
        "through_date": "2025-11-30",
        "signer": "Kevin Walsh",
        "signed_date": "2025-12-22",
        "job": "1042",
        "claimant": "Walsh Electrical",
    }


def test_g702_fields_and_g703_table(book: duckdb.DuckDBPyConnection) -> None:
    result = ocr_pdf(render_document(book, "doc-payapp-1042-1").content)
    assert result.doc_type == "pay_app" and result.pages == 2
    f = result.fields
    assert f["application_number"] == "1" and f["period_to"] == "2025-12-31"
    assert f["contract_sum_to_date"] == "4920000.00"
    assert f["total_completed_stored"] == "1476000.00"
    assert f["retainage"] == "147600.00"
    assert f["current_payment_due"] == "1328400.00"
    assert f["balance_to_finish"] == "3591600.00"
    g703 = [t for t in result.tables if t.page == 2][0].rows
    assert g703[0][0].startswith("A ITEM NO") and g703[0][-1].startswith("I RETAINAGE")
    assert len(g703[0]) == 10
    assert g703[-1][1] == "GRAND TOTAL" and g703[-1][6] == "1,476,000.00" and g703[-1][9] == "147,600.00"


def test_wh347_fields_and_lines(book: duckdb.DuckDBPyConnection) -> None:
    result = ocr_pdf(render_document(book, "doc-wh347-1042-0124").content)
    f = result.fields
    assert result.doc_type == "wh347"
    assert (f["payroll_number"], f["week_ending"]) == ("3", "2026-01-24")
    assert f["project"].startswith("1042 - Springfield Public Library")
    rows = result.tables[0].rows
    # no certified_payroll_line_details in this book: one hours figure a day, the batch's withholding
    # as the total deductions (columns: ... 11 total hours, 12 rate, 13 fringe, 14 gross, 15-17 FICA /
    # withholding / other, 18 total deductions, 19 net)
    assert rows[1][0].startswith("Alvarez, Luis xxx-xx-4821")
    assert rows[1][11:15] == ["40.00", "48.50", "31.20", "1,940.00"] and rows[1][18:20] == ["512.18", "1,427.82"]
    assert "Apprentice" in rows[2][2]
    assert "STATEMENT OF COMPLIANCE" in result.text


def test_subcontract_fields(book: duckdb.DuckDBPyConnection) -> None:
    f = ocr_pdf(render_document(book, "doc-sc-1042-0").content).fields
    assert (f["amount"], f["retainage"], f["revised_amount"]) == ("632000.00", "10.00", "632000.00")
    assert f["subcontractor"] == "Walsh Electrical Contractors, LLC" and f["commitment_id"] == "SC-1042-0"


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("$14,350.00", "14350.00"),
        ("$ 1,000,000", "1000000.00"),
        ("-$1,200.50", "-1200.50"),
        ("($1,200.00)", "-1200.00"),
        ("$0.00", "0.00"),
    ],
)
def test_normalize_amount(raw: str, expected: str) -> None:
    assert normalize_amount(raw) == expected


def test_normalize_date() -> None:
    assert normalize_date("01/12/2026") == normalize_date("January 12, 2026") == "2026-01-12"


def test_bad_bytes_raise_ocr_error(book: duckdb.DuckDBPyConnection) -> None:
    good = render_document(book, "doc-inv-jsm-88421").content
    cases = {
        b"": "empty file",
        b"PK\x03\x04 not a pdf": "not a PDF",
        good[: len(good) // 2]: "truncated PDF",
        b"%PDF-1.4\n%%EOF\n": "unreadable PDF|no pages",
    }
    for content, message in cases.items():
        with pytest.raises(OcrError, match=message) as info:
            ocr_pdf(content)
        assert info.value.message
    with pytest.raises(OcrError, match="bytes"):
        ocr_pdf("a string")  # type: ignore[arg-type]


def test_ocr_is_deterministic_and_cached(book: duckdb.DuckDBPyConnection) -> None:
    content = render_document(book, "doc-coi-v1000").content
    assert ocr_pdf(content) is ocr_pdf(content)
    assert ocr_pdf(content, tables=False).fields == ocr_pdf(content).fields
