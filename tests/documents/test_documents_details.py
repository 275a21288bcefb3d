"""The renderers read the book's detail tables when it has them: the COI's producer and NAIC codes,
the WH-347's addresses, exemptions, straight-time / overtime split, deductions and certifying
officer, the G702's architect, signer and 5a/5b split, the waiver signer's title and the
subcontractor's signer. (The fixture book has none of them; each test adds its rows in a
transaction, so the other tests keep seeing the fallback layout.)"""

from __future__ import annotations

import io
import re

import duckdb
import pdfplumber

from cfab.apps.ocr import ocr_pdf
from cfab.seeds.documents import render_document

DETAILS = """
INSERT INTO book.insurance_producers VALUES
    ('PRD-01', 'Lakeshore Risk Partners, LLC', '200 W Madison St, Suite 1400', 'Chicago', 'IL', '60606',
     '(312) 555-0188', 'certificates@lakeshorerisk.com');
INSERT INTO book.coi_details VALUES
    ('COI-V1000-GL-2025', 'PRD-01', 'Dana Quinn', 'dquinn@lakeshorerisk.com', '25674'),
    ('COI-V1000-AU-2025', 'PRD-01', 'Dana Quinn', 'dquinn@lakeshorerisk.com', '25674');
INSERT INTO book.company_officers VALUES
    ('controller', 'A', 'Renee Kowalczyk', 'Controller', 'rkowalczyk@companyA.com', '(312) 555-0100 x202', true, true),
    ('payroll', 'A', 'Tom Reyes', 'Payroll Manager', 'treyes@companyA.com', '(312) 555-0100 x204', false, false);
INSERT INTO book.employee_tax_profiles VALUES
    ('E1001', '1412 Maple Ave', 'Springfield', 'IL', '62704', 'married', 2, 3),
    ('E1002', '88 Oak St', 'Chatham', 'IL', '62629', 'single', 0, 1);
INSERT INTO book.certified_payroll_line_details VALUES
    ('CP-1042-2026-01-24', 1, 0, 8, 8, 8, 8, 6, 0, 0, 0, 0, 0, 0, 2, 0, 72.7500, 1940.00,
     148.41, 210.12, 89.38, 64.27, 512.18, 1427.82),
    ('CP-1042-2026-01-24', 2, 0, 8, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 36.3750, 776.00,
     59.36, 61.51, 35.06, 24.47, 180.40, 595.60);
INSERT INTO book.prime_contract_architects VALUES
    ('1042', 'Holmberg Kessler Architects', '225 W Washington St', 'Chicago', 'IL', '60606', '(312) 555-0170',
     'Rebecca Kessler', 'Principal', 'rkessler@holmbergkesslerarch.com', 'HK-2507');
INSERT INTO book.owner_pay_app_retainage VALUES ('1042', 1, 10.0000, 145200.00, 2400.00);
INSERT INTO book.vendor_signers VALUES
    ('V1000', 'Kevin Walsh', 'Managing Member', 'kwalsh@walshelectric.com'),
    ('V1002', 'Dale Prairie', 'Owner', 'office@prairiedrywall.com');
"""


def _load(book: duckdb.DuckDBPyConnection) -> None:
    for stmt in DETAILS.split(";"):
        if stmt.strip():
            book.execute(stmt)


def _text(content: bytes) -> str:
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def test_coi_producer_and_naic_come_from_the_book(mutable_book: duckdb.DuckDBPyConnection) -> None:
    _load(mutable_book)
    content = render_document(mutable_book, "doc-coi-v1000").content
    text = _text(content)
    assert "Lakeshore Risk Partners, LLC" in text and "200 W Madison St, Suite 1400" in text
    assert "Dana Quinn" in text and "dquinn@lakeshorerisk.com" in text and "(312) 555-0188" in text
    assert "25674" in text
    assert ocr_pdf(content, tables=False).fields["producer"] == "Lakeshore Risk Partners, LLC"


def test_wh347_carries_the_details(mutable_book: duckdb.DuckDBPyConnection) -> None:
    _load(mutable_book)
    result = ocr_pdf(render_document(mutable_book, "doc-wh347-1042-0124").content)
    row = result.tables[0].rows[1]
    assert row[0].startswith("Alvarez, Luis xxx-xx-4821") and "1412 Maple Ave" in row[0]
    assert row[1] == "2"  # withholding exemptions
    assert row[9].split() == ["2", "6"]  # Friday: 2 overtime over 6 straight time
    assert row[11].split() == ["2.00", "38.00"] and row[12].split() == ["72.75", "48.50"]
    assert row[14].split() == ["1,940.00", "1,940.00"]  # this project / all work
    assert row[15] == "148.41" and row[16].split() == ["Fed", "210.12", "IL", "89.38"]
    assert row[17:20] == ["64.27", "512.18", "1,427.82"]
    assert (
        "Renee Kowalczyk (Controller)" in result.text and "NAME AND TITLE: Renee Kowalczyk, Controller" in result.text
    )


def test_g702_architect_signer_and_retainage_split(mutable_book: duckdb.DuckDBPyConnection) -> None:
    _load(mutable_book)
    result = ocr_pdf(render_document(mutable_book, "doc-payapp-1042-1").content, tables=False)
    assert re.search(r"VIA ARCHITECT:\s+Holmberg Kessler Architects", result.text)
    assert "By: Renee Kowalczyk, Controller" in result.text
    assert "By: Rebecca Kessler, Principal" in result.text  # certified: the architect signed
    lines = result.text.splitlines()
    five_a = next(ln for ln in lines if "of Completed Work" in ln)
    five_b = next(ln for ln in lines if "of Stored Material" in ln)
    assert five_a.endswith("$145,200.00") and five_b.endswith("$2,400.00")
    assert result.fields["retainage"] == "147600.00"


def test_waiver_title_and_subcontract_signer(mutable_book: duckdb.DuckDBPyConnection) -> None:
    _load(mutable_book)
    waiver = ocr_pdf(render_document(mutable_book, "doc-lw-v1000-2").content, tables=False)
    assert re.search(r"Claimant's Title:\s+Managing Member", waiver.text) and waiver.fields["signer"] == "Kevin Walsh"
    sc = ocr_pdf(render_document(mutable_book, "doc-sc-1042-0").content, tables=False)
    assert "Kevin Walsh, Managing Member" in sc.text
    assert sc.fields["subcontractor"] == "Walsh Electrical Contractors, LLC"


def test_a_waiver_signed_by_someone_else_keeps_the_generic_title(mutable_book: duckdb.DuckDBPyConnection) -> None:
    _load(mutable_book)
    mutable_book.execute("UPDATE book.vendor_signers SET signer_name = 'Moira Walsh' WHERE vendor_key = 'V1000'")
    waiver = ocr_pdf(render_document(mutable_book, "doc-lw-v1000-2").content, tables=False)
    assert re.search(r"Claimant's Title:\s+Authorized Representative", waiver.text)


def test_policy_renders_as_pdf_beside_markdown(mutable_book: duckdb.DuckDBPyConnection) -> None:
    mutable_book.execute("""INSERT INTO book.documents VALUES
        ('doc-policy-cm-pdf', 'policy', 'change_mgmt_policy.pdf', 'sharepoint', '/Policies', 'change_mgmt_policy.pdf',
         'application/pdf', 'Change Management Policy', NULL, NULL, '2025-01-01')""")
    doc = render_document(mutable_book, "doc-policy-cm-pdf")
    assert doc.content.startswith(b"%PDF-") and "owner change order" in _text(doc.content)
