"""The generated scale-1 book through the Docs/Office apps: invoices' numbers and totals and COIs'
expiry dates come back out of the stored PDFs through box.ocr_pdf (every third document by
default, all of them in the slow tier; the documents tests read every rendered PDF back); the
paper's JSM-88421 trajectory; workbooks open; attachments are the Box files; the stored documents
are what a fresh build renders (a sample of each type; a whole second golden build in the slow
tier)."""

from __future__ import annotations

import io
import multiprocessing
import os
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
from openpyxl import load_workbook

from cfab.apps.docs.common import box_file_id, linked_file_id
from tests.apps.docs.docs_helpers import DOC_APPS, ocr_chunk


def _ro(path: Path) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(path), read_only=True)


@pytest.mark.parametrize("step", [3, pytest.param(1, marks=pytest.mark.slow)], ids=["every-third", "all"])
def test_every_invoice_and_coi_reads_back_through_box_ocr(real_golden: Path, step: int) -> None:
    con = _ro(real_golden)
    try:
        invoices = con.execute(
            "SELECT d.document_id, i.invoice_number, i.net_amount FROM book.documents d "
            "JOIN book.ap_invoices i ON i.invoice_id = d.natural_key OR i.document_id = d.document_id "
            "WHERE d.doc_type = 'invoice' AND d.store = 'box' ORDER BY d.document_id"
        ).fetchall()
        cois = con.execute(
            "SELECT d.document_id, list(DISTINCT ci.expiry_date) FROM book.documents d "
            "JOIN book.certificates_of_insurance ci ON ci.coi_id = d.natural_key OR ci.document_id = d.document_id "
            "WHERE d.doc_type = 'coi' AND d.store = 'box' GROUP BY d.document_id ORDER BY d.document_id"
        ).fetchall()
    finally:
        con.close()
    assert invoices and cois
    invoices, cois = invoices[::step], cois[::step]
    ids = [box_file_id(d) for d, *_ in invoices] + [box_file_id(d) for d, _ in cois]
    workers = max(1, min(4, os.cpu_count() or 1))
    chunks = [ids[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = dict(r for part in pool.map(ocr_chunk, [str(real_golden)] * workers, chunks) for r in part)
    bad = []
    for doc_id, number, net in invoices:
        f = results[box_file_id(doc_id)]
        if not isinstance(f, dict) or (f.get("invoice_number"), f.get("total")) != (number, str(Decimal(net))):
            bad.append((doc_id, number, str(net), f))
    for doc_id, expiries in cois:
        f = results[box_file_id(doc_id)]
        got = {v for k, v in f.items() if k.startswith("expiry_date")} if isinstance(f, dict) else f
        if got != {e.isoformat() for e in expiries}:
            bad.append((doc_id, sorted(e.isoformat() for e in expiries), got))
    assert not bad, f"{len(bad)} documents do not read back, e.g. {bad[:3]}"


def test_jsm_88421_trajectory(real_golden: Path, open_env) -> None:
    env = open_env(real_golden)
    listed = env.call("box.box_list", name_contains="JSM-88421")
    assert listed["ok"], listed
    (rec,) = listed["data"]["files"]
    ocr = env.call("box.ocr_pdf", id=rec["id"])
    assert ocr["ok"], ocr
    f = ocr["data"]["fields"]
    assert (f["invoice_number"], f["total"], f["po_number"], f["cost_code"]) == (
        "JSM-88421",
        "14350.00",
        "9140-75",
        "31-200",
    )
    mail = env.call("outlook.search", query="JSM-88421", has_attachment=True)["data"]["messages"]
    assert mail, "the invoice arrived by email"
    att = env.call("outlook.read", message_id=mail[0]["id"])["data"]["attachments"][0]
    assert (att["linked_app"], att["linked_file_id"], att["sha256"]) == ("box", rec["id"], rec["sha256"])
    draft = env.call(
        "outlook.outlook_draft",
        to=["pm@companyA.com"],
        subject="Approve PO 9140-75",
        body="Invoice JSM-88421 $14,350.00 coded to 9140 / 31-200. Drafted the bill; did not post.",
        attachment_file_ids=[rec["id"]],
    )
    assert draft["ok"], draft
    diff = env.state_diff()
    assert sorted(diff.tables()) == ["outlook.attachments", "outlook.messages"]
    assert env.guarded_calls() == []


def test_stored_files_are_the_book_documents(real_golden: Path) -> None:
    con = _ro(real_golden)
    try:
        for app, table, folder_sql in (
            ("box", "box.files", "path_collection"),
            ("sharepoint", "sharepoint.driveItems", "replace(parentReference_path, '/drive/root:', '')"),
        ):
            docs = con.execute(
                "SELECT document_id, filename, '/' || trim(folder, '/'), mime_type FROM book.documents "
                "WHERE store = ? ORDER BY document_id",
                [app],
            ).fetchall()
            stored = {
                r[0]: r[1:]
                for r in con.execute(
                    f"SELECT id, name, coalesce(nullif({folder_sql}, ''), '/'), content IS NOT NULL FROM {table} "
                    f"{'WHERE item_type = $$file$$' if app == 'sharepoint' else ''}"
                ).fetchall()
            }
            assert len(stored) == len(docs), app
            for doc_id, name, folder, _ in docs:
                assert stored[linked_file_id(app, doc_id)] == (name, folder, True), doc_id
        n_excel = con.execute("SELECT count(*) FROM excel.workbooks WHERE content IS NOT NULL").fetchone()[0]
        assert n_excel >= 4
    finally:
        con.close()


def test_every_workbook_opens_and_matches_its_cells(real_golden: Path) -> None:
    from cfab.apps.office.excel import cell_rows

    con = _ro(real_golden)
    try:
        for wid, name, content in con.execute("SELECT id, name, content FROM excel.workbooks ORDER BY id").fetchall():
            wb = load_workbook(io.BytesIO(bytes(content)))
            assert wb.sheetnames, name
            stored = con.execute("SELECT count(*) FROM excel.cells WHERE workbook_id = ?", [wid]).fetchone()[0]
            assert stored == len(cell_rows(wid, name, bytes(content))) > 0, name
            assert (
                con.execute(
                    "SELECT count(*) FROM excel.cells WHERE workbook_id = ? AND formula IS NOT NULL", [wid]
                ).fetchone()[0]
                > 0
            ), f"{name} keeps live formulas"
    finally:
        con.close()


def test_cells_write_on_the_wip_schedule(real_golden: Path, open_env) -> None:
    env = open_env(real_golden, ["excel"])
    wip = env.call("excel.workbooks.list", name_contains="WIP")["data"]["workbooks"][0]
    head = env.call("excel.range.read", workbook=wip["id"], sheet=wip["sheets"][0], range="A5:K6")["data"]
    assert head["values"][0][5] == "Est. Cost to Complete"
    res = env.call("excel.cells.write", workbook=wip["id"], sheet=wip["sheets"][0], values={"F6": "1234567.89"})
    assert res["ok"], res
    diff = env.state_diff()
    changed = {c.pk: c for c in diff["excel.cells"].changed}
    cell = changed.pop((wip["id"], wip["sheets"][0], "F6"))
    assert Decimal(cell.after["value"]) == Decimal("1234567.89") == Decimal(cell.after["computed"])
    # the rest are formulas whose shown result moved with F6 (the estimate at completion, the totals)
    assert changed and all(c.after["formula"] and c.before["computed"] != c.after["computed"] for c in changed.values())
    assert diff["excel.cells"].counts() == {"added": 0, "removed": 0, "changed": 1 + len(changed)}


def test_attachments_have_the_box_files_bytes(real_golden: Path) -> None:
    con = _ro(real_golden)
    try:
        rows = con.execute(
            "SELECT a.name, a.linked_app, a.sha256, coalesce(b.sha256, lower(s.file_sha256Hash), w.sha256) "
            "FROM outlook.attachments a LEFT JOIN box.files b ON a.linked_app = 'box' AND b.id = a.linked_file_id "
            "LEFT JOIN sharepoint.driveItems s ON a.linked_app = 'sharepoint' AND s.id = a.linked_file_id "
            "LEFT JOIN excel.workbooks w ON a.linked_app = 'excel' AND w.id = a.linked_file_id"
        ).fetchall()
        assert rows and all(r[2] == r[3] for r in rows), rows
        assert con.execute("SELECT count(*) FROM outlook.messages").fetchone()[0] >= 10
    finally:
        con.close()


def test_a_fresh_build_renders_the_same_documents(real_golden: Path) -> None:
    """A second, independent book build renders byte-identical documents (a sample of every type)."""
    from cfab.schema.catalog import content_digest
    from cfab.seeds import build_book
    from cfab.seeds.determinism import BuildInputs
    from cfab.seeds.documents import render_document

    golden = _ro(real_golden)
    try:
        book_digest = content_digest(golden, schemas=["book"], exclude=())
        stored = {}
        for app, sql in (
            ("box", "SELECT id, sha256 FROM box.files"),
            ("sharepoint", "SELECT id, lower(file_sha256Hash) FROM sharepoint.driveItems WHERE item_type = 'file'"),
            ("excel", "SELECT id, sha256 FROM excel.workbooks"),
        ):
            stored.update({(app, i): s for i, s in golden.execute(sql).fetchall()})
    finally:
        golden.close()
    fresh = duckdb.connect()
    build_book(fresh, BuildInputs())
    assert content_digest(fresh, schemas=["book"], exclude=()) == book_digest
    by_type: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for doc_id, doc_type, store in fresh.execute(
        "SELECT document_id, doc_type, store FROM book.documents ORDER BY document_id"
    ).fetchall():
        by_type[doc_type].append((doc_id, store))
    sample = [d for docs in by_type.values() for d in docs[:: max(1, len(docs) // 6)]]
    for doc_id, store in sample:
        assert render_document(fresh, doc_id).sha256 == stored[(store, linked_file_id(store, doc_id))], doc_id
    fresh.close()


@pytest.mark.slow
def test_a_second_golden_build_has_the_same_documents(real_golden: Path, tmp_path: Path) -> None:
    """A whole second golden build (book and the four apps, render cache cleared) holds the same
    app content, documents' bytes included."""
    from cfab.apps.docs.common import clear_render_cache
    from cfab.apps.world.golden import build_golden
    from cfab.schema.catalog import content_digest
    from cfab.seeds.determinism import BuildInputs

    clear_render_cache()
    again = build_golden(BuildInputs(), tmp_path / "again.duckdb", apps=DOC_APPS)
    con, first = _ro(again.path), _ro(real_golden)
    try:
        assert content_digest(con, schemas=DOC_APPS) == content_digest(first, schemas=DOC_APPS)
    finally:
        con.close()
        first.close()
