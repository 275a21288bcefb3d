"""Renderers: every fixture document renders, deterministically, faithfully to the book."""

from __future__ import annotations

import hashlib
import io
import time
import zipfile
from decimal import Decimal

import duckdb
import pytest

from cfab.apps.ocr import ocr_pdf
from cfab.seeds.documents import DOC_TYPES, DocumentError, RenderedDocument, render_all, render_document
from tests.fixtures.golden import fixture_book


def test_every_fixture_document_renders_with_its_metadata(book: duckdb.DuckDBPyConnection) -> None:
    docs = list(render_all(book))
    meta = book.execute(
        "SELECT document_id, doc_type, mime_type, filename, created_date FROM book.documents ORDER BY document_id"
    ).fetchall()
    assert [d.document_id for d in docs] == [m[0] for m in meta]
    # every renderer but two has a document in the fixture book; those two (a vendor's bank-change
    # form, an insurance declarations page) render from the real book (test_documents_real_book.py)
    assert set(DOC_TYPES) - {m[1] for m in meta} == {"bank_change_form", "insurance_policy"}
    for doc, (_, doc_type, mime, filename, created) in zip(docs, meta, strict=False):
        assert isinstance(doc, RenderedDocument)
        assert (doc.mime_type, doc.filename, doc.created) == (mime, filename, created)
        assert doc.size == len(doc.content) > 0
        assert doc.sha256 == hashlib.sha256(doc.content).hexdigest()
        if mime == "application/pdf":
            assert doc.content.startswith(b"%PDF-") and b"%%EOF" in doc.content[-64:]
            assert ocr_pdf(doc.content, tables=False).doc_type == doc_type
        elif mime == "text/markdown":
            body = book.execute("SELECT body FROM book.policies").fetchone()[0]
            assert doc.content.decode("utf-8").rstrip("\n") == body.rstrip("\n")
        else:
            assert zipfile.ZipFile(io.BytesIO(doc.content)).testzip() is None


def test_two_renders_are_byte_identical(book: duckdb.DuckDBPyConnection) -> None:
    first = {d.document_id: d.content for d in render_all(book)}
    time.sleep(1.1)  # a wall-clock timestamp anywhere in the bytes would now differ
    other = fixture_book()
    try:
        second = {d.document_id: d.content for d in render_all(other)}
    finally:
        other.close()
    assert first == second
    for doc_id, content in first.items():
        assert render_document(book, doc_id).content == content


def test_pdf_dates_come_from_the_document_not_the_clock(book: duckdb.DuckDBPyConnection) -> None:
    doc = render_document(book, "doc-inv-jsm-88421")
    assert b"D:20260112" in doc.content
    assert b"CFAB document renderer" in doc.content


def test_changing_an_amount_changes_the_pdf_and_its_extracted_total(mutable_book: duckdb.DuckDBPyConnection) -> None:
    before = render_document(mutable_book, "doc-inv-jsm-88421")
    mutable_book.execute(
        "UPDATE book.ap_invoices SET gross_amount = 14530.00, net_amount = 14530.00 WHERE invoice_number = 'JSM-88421'"
    )
    mutable_book.execute("UPDATE book.ap_invoice_lines SET amount = 14530.00 WHERE invoice_id = 'inv-jsm-88421'")
    after = render_document(mutable_book, "doc-inv-jsm-88421")
    assert after.content != before.content and after.sha256 != before.sha256
    assert ocr_pdf(before.content).fields["total"] == "14350.00"
    assert ocr_pdf(after.content).fields["total"] == "14530.00"


def test_defect_invoice_renders_its_own_amount_not_the_commitment_line(book: duckdb.DuckDBPyConnection) -> None:
    line = book.execute(
        "SELECT amount - work_completed FROM book.commitment_lines WHERE commitment_id = 'SC-3100-2'"
    ).fetchone()[0]
    fields = ocr_pdf(render_document(book, "doc-inv-prd-5521").content).fields
    assert fields["subtotal"] == "98000.00" and Decimal(fields["subtotal"]) != line
    assert (fields["retainage"], fields["total"]) == ("9800.00", "88200.00")


def test_expired_coi_reads_as_expired(book: duckdb.DuckDBPyConnection) -> None:
    fields = ocr_pdf(render_document(book, "doc-coi-v1002").content).fields
    assert fields["expiry_date"] == "2025-12-15" < "2026-01-31"
    assert fields["insured"] == "Prairie Drywall Co."  # the vendor as Procore and the COI spell it


def test_waiver_through_date_mismatch_is_visible_on_the_page(book: duckdb.DuckDBPyConnection) -> None:
    result = ocr_pdf(render_document(book, "doc-lw-v1000-3").content)
    assert result.fields["through_date"] == "2025-11-30"
    assert result.fields["invoice_number"] == "WEC-2026-003"
    assert "billing period 12/01/2025 - 12/31/2025" in result.text


def test_unsigned_waiver_has_no_signer(book: duckdb.DuckDBPyConnection) -> None:
    fields = ocr_pdf(render_document(book, "doc-lw-v1002-2").content).fields
    assert "signer" not in fields and "signed_date" not in fields
    assert fields["waiver_type"] == "conditional_progress"


def test_change_backup_wording_decides_owner_vs_internal(book: duckdb.DuckDBPyConnection) -> None:
    owner = ocr_pdf(render_document(book, "doc-ce-3100-004").content)
    internal = ocr_pdf(render_document(book, "doc-ce-3100-005").content)
    assert "Contract Sum will be increased by $101,700.00" in owner.text.replace("\n", " ")
    assert "no change to the Contract Sum" in internal.text.replace("\n", " ")
    assert "Contract Sum will be increased" not in internal.text.replace("\n", " ")
    assert owner.fields["amount"] == "101700.00" and owner.fields["change_event"] == "CE-3100-004"


def test_policy_pdf_carries_the_markdown_text(book: duckdb.DuckDBPyConnection) -> None:
    result = ocr_pdf(render_document(book, "doc-policy-change-pdf").content)
    assert result.doc_type == "policy" and result.fields["title"] == "Change Management Policy"
    assert "Internal transfers move budget between cost codes only." in result.text
    assert any(t.rows[0] == ["Class", "Contract", "Budget"] for t in result.tables)


def test_render_errors_are_clear(mutable_book: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(DocumentError, match="no document"):
        render_document(mutable_book, "doc-missing")
    mutable_book.execute(
        "INSERT INTO book.documents VALUES ('doc-x', 'fax', 'k', 'box', '/', 'x.pdf', "
        "'application/pdf', 'x', NULL, NULL, DATE '2026-01-01')"
    )
    with pytest.raises(DocumentError, match="doc_type 'fax'"):
        render_document(mutable_book, "doc-x")
    mutable_book.execute(
        "INSERT INTO book.documents VALUES ('doc-y', 'invoice', 'inv-nope', 'box', '/', "
        "'y.pdf', 'application/pdf', 'y', NULL, NULL, DATE '2026-01-01')"
    )
    with pytest.raises(DocumentError, match="no source row"):
        render_document(mutable_book, "doc-y")
