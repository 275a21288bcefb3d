"""cfab.seeds.documents: the Company-A book's documents rendered to bytes.

Reality 5 ("the PDF is the system of record"): invoices, certificates of insurance, lien
waivers, AIA G702/G703 pay applications, WH-347 certified payrolls, subcontracts,
change-event backup and policies are real PDFs whose numbers are the book's; workbooks are
real xlsx files with live formulas. Every renderer is a pure function of its book rows and
the document's own date, so the same book gives byte-identical files.

    from cfab.seeds.documents import render_all, render_document
    for doc in render_all(con):          # RenderedDocument(document_id, ..., content, sha256)
        ...
"""

from cfab.seeds.documents.common import DocumentError, RenderedDocument
from cfab.seeds.documents.render import DOC_TYPES, render_all, render_document
from cfab.seeds.documents.workbooks import BUILDERS as WORKBOOK_KINDS

__all__ = ["DOC_TYPES", "WORKBOOK_KINDS", "DocumentError", "RenderedDocument", "render_all", "render_document"]
