"""The generated scale-1 book: every document renders, fast and deterministically, and the
numbers an agent can only get from the PDF come back out of it."""

from __future__ import annotations

import io
import time
from decimal import Decimal

import duckdb
from openpyxl import load_workbook

from cfab.seeds.documents import DOC_TYPES, render_all, render_document
from tests.documents.documents_helpers import ocr_fields_many


def test_real_book_renders_and_reads_back(real_book: duckdb.DuckDBPyConnection) -> None:
    timings: dict[str, list[float]] = {}
    start = time.perf_counter()
    docs = list(render_all(real_book, timings=timings))
    elapsed = time.perf_counter() - start
    expected = real_book.execute("SELECT count(*) FROM book.documents").fetchone()[0]
    assert len(docs) == expected
    types = {r[0] for r in real_book.execute("SELECT DISTINCT doc_type FROM book.documents").fetchall()}
    assert types == set(DOC_TYPES), set(DOC_TYPES) ^ types  # the real book renders every type
    rate = len(docs) / elapsed
    print(
        f"\nrendered {len(docs)} documents in {elapsed:.2f}s ({rate:.0f}/s); mean ms by type: "
        + ", ".join(f"{k}={1000 * sum(v) / len(v):.1f}" for k, v in sorted(timings.items()))
    )
    # how fast is `runner bench`'s business (its build section times the document phase), not a test's

    by_id = {d.document_id: d for d in docs}
    invoices = real_book.execute(
        "SELECT d.document_id, i.invoice_number, i.net_amount FROM book.documents d "
        "JOIN book.ap_invoices i ON i.invoice_id = d.natural_key OR i.document_id = d.document_id "
        "WHERE d.doc_type = 'invoice' ORDER BY d.document_id"
    ).fetchall()
    cois = real_book.execute(
        "SELECT d.document_id, list(ci.expiry_date ORDER BY ci.expiry_date) FROM book.documents d "
        "JOIN book.certificates_of_insurance ci ON ci.coi_id = d.natural_key OR ci.document_id = d.document_id "
        "WHERE d.doc_type = 'coi' GROUP BY d.document_id ORDER BY d.document_id"
    ).fetchall()
    assert invoices, "the book has invoice documents"
    fields = ocr_fields_many([by_id[r[0]].content for r in invoices] + [by_id[r[0]].content for r in cois])
    for (doc_id, number, net), f in zip(invoices, fields, strict=False):
        assert (f.get("invoice_number"), f.get("total")) == (number, str(Decimal(net))), doc_id
    for (doc_id, expiries), f in zip(cois, fields[len(invoices) :], strict=False):
        got = {v for k, v in f.items() if k.startswith("expiry_date")}
        assert got == {e.isoformat() for e in expiries}, doc_id

    jsm = [r for r in invoices if r[1] == "JSM-88421"]
    if jsm:
        f = fields[invoices.index(jsm[0])]
        assert (f["total"], f["po_number"], f["cost_code"]) == ("14350.00", "9140-75", "31-200")

    for doc in docs:
        if doc.mime_type.endswith("spreadsheetml.sheet"):
            load_workbook(io.BytesIO(doc.content))
    for doc in docs[:: max(1, len(docs) // 40)]:
        assert render_document(real_book, doc.document_id).content == doc.content
