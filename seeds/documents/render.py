"""Dispatch: ``book.documents`` rows to family renderers, one document or all of them.

Each family module exposes ``DOC_TYPES``, ``load(con, ids) -> {document_id: data}`` (a few
set-based queries, so rendering all documents costs a handful of queries per family, not
per document) and a pure ``render(doc, data, company) -> bytes``.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import duckdb

from cfab.seeds.documents import (
    bank_forms,
    change_backup,
    coi,
    declarations,
    invoices,
    payapps,
    policies,
    subcontracts,
    waivers,
    wh347,
    workbooks,
)
from cfab.seeds.documents.common import DocumentError, RenderedDocument, Row, make_rendered
from cfab.seeds.documents.sql import rows

FAMILIES: tuple[ModuleType, ...] = (
    invoices,
    coi,
    waivers,
    payapps,
    wh347,
    subcontracts,
    change_backup,
    declarations,
    policies,
    workbooks,
    bank_forms,
)
BY_TYPE: dict[str, ModuleType] = {t: m for m in FAMILIES for t in m.DOC_TYPES}
DOC_TYPES: tuple[str, ...] = tuple(BY_TYPE)

DEFAULT_COMPANY: dict[str, Any] = {
    "company_id": "A",
    "name": "Company A Construction, Inc.",
    "ein": "",
    "email_domain": "companyA.com",
    "address": "100 Main Street",
    "city": "Springfield",
    "state": "IL",
    "zip": "62701",
    "phone": "",
}


def _company(con: duckdb.DuckDBPyConnection) -> Row:
    found = rows(con, "company")
    return found[0] if found else DEFAULT_COMPANY


def _family(doc: Row) -> ModuleType:
    try:
        return BY_TYPE[doc["doc_type"]]
    except KeyError:
        raise DocumentError(
            f"document {doc['document_id']} has doc_type {doc['doc_type']!r}; "
            f"renderable types are {', '.join(DOC_TYPES)}"
        ) from None


def _missing(doc: Row) -> DocumentError:
    return DocumentError(
        f"document {doc['document_id']} ({doc['doc_type']}) names "
        f"{doc['natural_key']!r}, which has no source row in the book"
    )


def render_document(con: duckdb.DuckDBPyConnection, document_id: str) -> RenderedDocument:
    """Render one ``book.documents`` row to bytes."""
    docs = rows(con, "documents", ids=[document_id])
    if not docs:
        raise DocumentError(f"no document {document_id!r} in book.documents")
    doc = docs[0]
    family = _family(doc)
    data = family.load(con, [document_id])
    if document_id not in data:
        raise _missing(doc)
    return make_rendered(doc, family.render(doc, data[document_id], _company(con)))


def render_all(
    con: duckdb.DuckDBPyConnection,
    *,
    doc_types: tuple[str, ...] | None = None,
    timings: dict[str, list[float]] | None = None,
) -> Iterator[RenderedDocument]:
    """Render every document (optionally only some ``doc_types``) in ``document_id`` order.

    Source rows are loaded once per family; pass ``timings`` to collect the CPU seconds
    each document took to render, by doc_type.
    """
    docs = [d for d in rows(con, "documents", ids=None) if doc_types is None or d["doc_type"] in doc_types]
    company = _company(con)
    groups: dict[str, list[Row]] = defaultdict(list)
    for doc in docs:
        groups[_family(doc).__name__].append(doc)
    loaded: dict[str, Any] = {}
    for family in FAMILIES:
        if family.__name__ in groups:
            loaded.update(family.load(con, [d["document_id"] for d in groups[family.__name__]]))
    for doc in docs:
        if doc["document_id"] not in loaded:
            raise _missing(doc)
        start = time.process_time()
        content = _family(doc).render(doc, loaded[doc["document_id"]], company)
        if timings is not None:
            timings.setdefault(doc["doc_type"], []).append(time.process_time() - start)
        yield make_rendered(doc, content)
