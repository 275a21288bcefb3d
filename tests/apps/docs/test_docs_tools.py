"""Every Docs/Office tool on the fixture book: reads, OCR from stored bytes, validated uploads
with versions, reset restoring bytes exactly, cell-level Excel diffs, Outlook drafts whose
attachments carry the Box file's bytes, and determinism of the seeded documents."""

from __future__ import annotations

import base64
import io
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
from openpyxl import load_workbook

from cfab.apps.docs.common import MAX_UPLOAD_BYTES, box_file_id, clear_render_cache, sharepoint_item_id
from cfab.apps.registry import get_app
from cfab.schema.catalog import content_digest, run_script, schema_ddl
from cfab.seeds.determinism import BuildInputs
from tests.apps.docs.docs_helpers import DOC_APPS
from tests.fixtures.envs import ok
from tests.fixtures.golden import CLOCK, build_fixture_golden, fixture_book

JSM = box_file_id("doc-inv-jsm-88421")
COI_WALSH = box_file_id("doc-coi-v1000")
POLICY_MD = sharepoint_item_id("doc-policy-change-md")
WH347 = sharepoint_item_id("doc-wh347-1042-0124")
DOC_VENDORS = ["box", "sharepoint"]


# ------------------------------------------------------------------------------------------
# every tool, valid arguments
# ------------------------------------------------------------------------------------------
def test_every_tool_callable(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden)
    called: set[str] = set()

    def call(tool_name: str, /, **args):
        called.add(tool_name)
        return ok(env.call(tool_name, **args))

    for app, folder, file_id in (("box", "/AP/Invoices/2026-01", JSM), ("sharepoint", "/Policies", POLICY_MD)):
        assert call(f"{app}.files.list")["total"] > 0
        assert (
            call(
                f"{app}.files.list",
                folder=folder,
                recursive=False,
                extension="pdf" if app == "box" else "md",
                modified_from="2020-01-01",
                modified_to="2026-01-31",
                sort="modified",
                limit=5,
            )["count"]
            >= 1
        )
        assert call(f"{app}.folders.list", parent="/", recursive=True)["count"] >= 2
        assert call(f"{app}.files.read", file_id=file_id)["file"]["id"] == file_id
        assert call(f"{app}.files.upload", name="crosswalk.csv", folder="/Reports", content="a,b\n1,2\n")["created"]
        assert call(f"{app}.files.versions", path="/Reports/crosswalk.csv")["count"] == 1
    assert call("box.ocr_pdf", id=JSM)["fields"]["invoice_number"] == "JSM-88421"
    assert call("sharepoint.ocr_pdf", id=WH347, tables=False)["doc_type"] == "wh347"
    called.add("box.files.list")
    assert ok(env.call("box.box_list"))["total"] >= 12  # the paper's alias

    wbs = call("excel.workbooks.list", name_contains="wip", folder="/Close")["workbooks"]
    assert [w["name"] for w in wbs] == ["WIP 2026-01.xlsx"]
    assert call("excel.sheets.list", workbook=wbs[0]["id"])["sheets"][0]["name"] == "WIP"
    assert call("excel.range.read", workbook="WIP 2026-01.xlsx", sheet="WIP", range="A5:B6")["values"][0] == [
        "Job",
        "Job Name",
    ]
    call("excel.cells.write", workbook="Sub accrual 2026-01.xlsx", sheet="Accrual", values={"G6": "312000.00"})
    call("excel.sheets.add", workbook="WIP 2026-01.xlsx", name="Notes")
    call("excel.workbooks.create", name="Review", folder="/Close/2026-01")

    call("outlook.mailboxes.list")
    msg = call(
        "outlook.search",
        query="JSM-88421",
        mailbox="ap@companyA.com",
        folder="Inbox",
        date_from="2026-01-01",
        date_to="2026-01-31",
        has_attachment=True,
    )["messages"][0]
    read = call("outlook.read", message_id=msg["id"], include_thread=True)
    att = read["attachments"][0]
    assert call("outlook.attachments.ocr", attachment_id=att["id"], tables=False)["fields"]["total"] == "14350.00"
    draft = call(
        "outlook.outlook_draft",
        to="pm@companyA.com",
        subject="Approve",
        body="Please approve.",
        attachment_file_ids=[JSM],
    )["draft"]
    call("outlook.drafts.update", draft_id=draft["id"], body="Please approve by Friday.")
    assert env.call("outlook.outlook_send", draft_id=draft["id"])["status"] == "pending_human_approval"
    called.add("outlook.outlook_send")
    every = {n for a in DOC_APPS for n in get_app(a).tools()}
    assert called == every, every - called


# ------------------------------------------------------------------------------------------
# OCR reads the stored bytes
# ------------------------------------------------------------------------------------------
INVOICES = {
    "doc-inv-jsm-88421": ("JSM-88421", "14350.00"),
    "doc-inv-walsh-3": ("WEC-2026-003", "43650.00"),
    "doc-inv-prd-5521": ("PD-5521", "88200.00"),
}


def test_ocr_reads_invoices_and_cois(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden, ["box"])
    for doc_id, (number, total) in INVOICES.items():
        f = ok(env.call("box.ocr_pdf", id=box_file_id(doc_id), tables=False, include_text=False))["fields"]
        assert (f["invoice_number"], f["total"]) == (number, total)
    f = ok(env.call("box.ocr_pdf", id=COI_WALSH, tables=False))["fields"]
    assert {v for k, v in f.items() if k.startswith("expiry_date")} == {"2026-03-01"}
    f = ok(env.call("box.ocr_pdf", id=box_file_id("doc-coi-v1002"), tables=False))["fields"]
    assert f["expiry_date"] == "2025-12-15"
    jsm = ok(env.call("box.ocr_pdf", path="/AP/Invoices/2026-01/JSM-88421.pdf"))
    assert (jsm["fields"]["po_number"], jsm["fields"]["cost_code"]) == ("9140-75", "31-200")
    assert jsm["tables"] and "JSM-88421" in jsm["text"]
    hint = ok(env.call("box.files.read", file_id=JSM))
    assert hint["text"] is None and "box.ocr_pdf" in hint["hint"]


def test_ocr_refuses_non_pdf_and_reads_text(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden, ["sharepoint"])
    res = env.call("sharepoint.ocr_pdf", id=POLICY_MD)
    assert res["ok"] is False and "not a PDF" in res["error"]
    text = ok(env.call("sharepoint.files.read", path="/Policies/change_mgmt_policy.md"))
    assert text["text"].startswith("# Change Management Policy") and not text["truncated"]
    assert ok(env.call("sharepoint.files.read", file_id=POLICY_MD, max_chars=10))["truncated"]
    pdf = ok(env.call("sharepoint.ocr_pdf", path="/Policies/Change Management Policy.pdf", tables=False))
    assert pdf["doc_type"] == "policy" and pdf["fields"]["effective_date"] == "2025-01-01"
    missing = env.call("sharepoint.files.read", file_id="01NOPE")
    assert missing["error_type"] == "not_found" and "files.list" in missing["error"]


def test_changing_the_book_changes_the_pdf() -> None:
    def box_bytes(amount: str | None) -> bytes:
        con = fixture_book()
        run_script(con, schema_ddl("cfab_internal"))
        con.execute("INSERT INTO cfab_internal.meta VALUES ('clock', '2026-01-31')")
        if amount is not None:
            con.execute(
                "UPDATE book.ap_invoices SET gross_amount = ?, net_amount = ? WHERE invoice_id = 'inv-jsm-88421'",
                [amount, amount],
            )
            con.execute("UPDATE book.ap_invoice_lines SET amount = ? WHERE invoice_id = 'inv-jsm-88421'", [amount])
        get_app("box").seed(con, BuildInputs(clock=CLOCK))
        content = con.execute("SELECT content FROM box.files WHERE id = ?", [JSM]).fetchone()[0]
        con.close()
        return bytes(content)

    from cfab.apps.ocr import ocr_pdf

    before, after = box_bytes(None), box_bytes("15120.00")
    assert before != after
    assert ocr_pdf(before, tables=False).fields["total"] == "14350.00"
    assert ocr_pdf(after, tables=False).fields["total"] == "15120.00"


# ------------------------------------------------------------------------------------------
# uploads
# ------------------------------------------------------------------------------------------
BAD_UPLOADS = [
    ({"name": "run.exe", "content_base64": "TVqQAA=="}, "not allowed"),
    ({"name": "notes", "content": "x"}, "not allowed"),
    ({"name": "big.txt", "content": "x" * (MAX_UPLOAD_BYTES + 1)}, "upload limit"),
    (
        {"name": "big.pdf", "content_base64": base64.b64encode(b"%PDF-1.4\n" + b"0" * MAX_UPLOAD_BYTES).decode()},
        "upload limit",
    ),
    ({"name": "scan.pdf", "content_base64": "not base64!!"}, "not valid base64"),
    ({"name": "scan.pdf", "content_base64": "JVBERi0x"}, "truncated"),
    ({"name": "scan.pdf", "content_base64": base64.b64encode(b"hello").decode()}, "not a PDF"),
    ({"name": "scan.pdf", "content": "%PDF-1.4"}, "content_base64"),
    ({"name": "book.xlsx", "content_base64": base64.b64encode(b"PK\x03\x04junk").decode()}, "not a readable workbook"),
    ({"name": "data.json", "content": "{not json"}, "does not parse"),
    ({"name": "memo.md", "content": "x", "mime_type": "application/pdf"}, "does not match"),
    ({"name": "memo.md"}, "exactly one of"),
    ({"name": "memo.md", "content": "x", "content_base64": "eA=="}, "exactly one of"),
    ({"name": "memo.md", "content": ""}, "empty"),
    ({"name": "../../etc/passwd.txt", "content": "x"}, "not allowed"),
    ({"name": "a/b.txt", "content": "x"}, "cannot contain"),
    ({"name": ".hidden.txt", "content": "x"}, "not allowed"),
    ({"name": "memo.md", "content": "x", "folder": "/Reports/../AP"}, "not allowed"),
    ({"name": "memo.md", "content": "x", "folder": "\\\\server\\share"}, "backslashes"),
    ({"name": "memo.md", "content": "x", "folder": "/Reports//x"}, "not allowed"),
]


@pytest.mark.parametrize("app", DOC_VENDORS)
def test_upload_validation(app: str, docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden, [app])
    before = env.digest()
    for args, message in BAD_UPLOADS:
        res = env.call(f"{app}.files.upload", **args)
        assert res["ok"] is False and res["error_type"] == "invalid_argument", (args, res)
        assert message in res["error"], (message, res["error"])
    assert env.digest() == before
    first = ok(
        env.call(
            f"{app}.files.upload",
            name="memo.md",
            folder="/Reports/2026-01",
            content="# Memo\n",
            description="January memo",
        )
    )
    assert first["created"] and first["created_folders"] == ["/Reports", "/Reports/2026-01"]
    assert first["file"]["created_by"] == get_app(app).AGENT_LOGIN
    dup = env.call(f"{app}.files.upload", name="MEMO.md", folder="/Reports/2026-01", content="# Other\n")
    assert dup["ok"] is False and dup["error_type"] == "conflict" and "new_version=true" in dup["error"]
    clash = env.call(f"{app}.files.upload", name="2026-01", folder="/Reports", content="x")
    assert clash["ok"] is False


@pytest.mark.parametrize("app", DOC_VENDORS)
def test_upload_binary_and_new_versions(app: str, docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden)
    src = ok(env.call("box.files.read", file_id=JSM))["file"]
    pdf = env.apps["box"].file_bytes(JSM)[1]
    assert len(pdf) == src["size"]
    up = ok(
        env.call(
            f"{app}.files.upload", name="copy.pdf", folder="/Reports", content_base64=base64.b64encode(pdf).decode()
        )
    )
    assert up["file"]["sha256"] == src["sha256"] and up["version"] in (1, "1.0")
    assert ok(env.call(f"{app}.ocr_pdf", id=up["file"]["id"], tables=False))["fields"]["total"] == "14350.00"
    v2 = ok(
        env.call(
            f"{app}.files.upload",
            name="copy.pdf",
            folder="/Reports",
            new_version=True,
            content_base64=base64.b64encode(env.apps["box"].file_bytes(COI_WALSH)[1]).decode(),
        )
    )
    assert not v2["created"] and v2["file"]["id"] == up["file"]["id"] and v2["version"] in (2, "2.0")
    versions = ok(env.call(f"{app}.files.versions", file_id=up["file"]["id"]))["versions"]
    assert [v["current"] for v in versions] == [False, True]
    assert versions[0]["sha256"] == src["sha256"]
    wb = env.apps["excel"].workbook_bytes("WIP 2026-01.xlsx")[1]
    x = ok(
        env.call(
            f"{app}.files.upload",
            name="wip.xlsx",
            folder=up["file"]["folder_id"],
            content_base64=base64.b64encode(wb).decode(),
        )
    )
    assert x["file"]["folder"] == "/Reports"
    assert ok(env.call(f"{app}.files.read", file_id=x["file"]["id"]))["sheets"] == ["WIP"]
    stored = env.apps[app].store_file("/Reports/Crosswalks", "vendors.json", b'{"V1000": "5501"}')
    assert stored["created"] and stored["file"]["path"] == "/Reports/Crosswalks/vendors.json"


@pytest.mark.parametrize("app", DOC_VENDORS)
def test_reset_restores_bytes_exactly(app: str, docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden)
    file_id = JSM if app == "box" else POLICY_MD
    table = "box.files" if app == "box" else "sharepoint.driveItems"

    def stored() -> list[tuple]:
        return env.con.execute(f"SELECT id, content FROM {table} ORDER BY id").fetchall()

    snap = env.snapshot()
    before_digest, before_rows = env.digest(), stored()
    name = ok(env.call(f"{app}.files.read", file_id=file_id))["file"]["name"]
    folder = ok(env.call(f"{app}.files.read", file_id=file_id))["file"]["folder"]
    ok(
        env.call(
            f"{app}.files.upload",
            name=name,
            folder=folder,
            new_version=True,
            content_base64=base64.b64encode(b"%PDF-1.4\nreplaced\n%%EOF\n").decode() if name.endswith(".pdf") else None,
            content=None if name.endswith(".pdf") else "# replaced\n",
        )
    )
    ok(env.call(f"{app}.files.upload", name="upload.txt", folder="/Reports", content="agent output\n"))
    assert env.digest() != before_digest
    diff = env.state_diff(snap)
    # the new file (and, in SharePoint's one driveItems table, its new folder) and the new version
    assert diff[table].counts() == {"added": 2 if app == "sharepoint" else 1, "removed": 0, "changed": 1}
    changed = diff[table].changed[0]
    assert changed.before["content"]["sha256"] != changed.after["content"]["sha256"]  # BLOBs diff as sha256+size
    env.reset(snap)
    assert env.digest() == before_digest and stored() == before_rows


# ------------------------------------------------------------------------------------------
# excel
# ------------------------------------------------------------------------------------------
def test_cells_write_shows_exactly_that_cell(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden, ["excel"])
    before = ok(env.call("excel.range.read", workbook="WIP 2026-01.xlsx", sheet="WIP", range="F6"))["values"][0][0]
    res = ok(env.call("excel.cells.write", workbook="WIP 2026-01.xlsx", sheet="WIP", values={"F6": "1712500.25"}))
    diff = env.state_diff()
    assert sorted(diff.tables()) == ["excel.cells", "excel.workbooks"]
    changed = {c.pk[1:]: c for c in diff["excel.cells"].changed}
    cell = changed.pop(("WIP", "F6"))
    assert cell.after["workbook"] == "WIP 2026-01.xlsx"
    assert Decimal(cell.before["value"]) == Decimal(before) and Decimal(cell.after["value"]) == Decimal("1712500.25")
    assert Decimal(cell.after["computed"]) == Decimal("1712500.25")
    # the other changed rows are formulas whose shown result moved with F6 (G6 = E6+F6 among them)
    assert ("WIP", "G6") in changed
    for c in changed.values():
        assert c.after["formula"] and c.before["formula"] == c.after["formula"], c.pk
        assert c.before["computed"] != c.after["computed"] and c.after["value"] is None, c.pk
    assert res["cells_changed"] == {"inserted": 0, "updated": 1, "deleted": 0, "recomputed": len(changed)}
    assert diff["excel.cells"].counts() == {"added": 0, "removed": 0, "changed": 1 + len(changed)}
    assert diff["excel.workbooks"].counts()["changed"] == 1
    # the value reads back exactly, dependent formulas recompute, formulas stay formulas
    row = ok(env.call("excel.range.read", workbook="WIP 2026-01.xlsx", sheet="WIP", range="E6:G6"))
    assert Decimal(row["values"][0][1]) == Decimal("1712500.25")
    assert Decimal(row["values"][0][2]) == Decimal(row["values"][0][0]) + Decimal("1712500.25")
    assert row["formulas"][0] == [None, None, "=E6+F6"]
    content = env.apps["excel"].workbook_bytes("WIP 2026-01.xlsx")[1]
    ws = load_workbook(io.BytesIO(content))["WIP"]
    assert ws["G6"].value == "=E6+F6" and Decimal(str(ws["F6"].value)) == Decimal("1712500.25")


def test_cells_write_formulas_text_clear_and_errors(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden, ["excel"])
    ok(
        env.call(
            "excel.cells.write",
            workbook="Sub accrual 2026-01.xlsx",
            sheet="Accrual",
            values={"G6": 312000, "H6": "280000.50", "K6": "=G6-H6", "L6": "'00123", "M6": True, "N6": 0.1},
        )
    )
    r = ok(env.call("excel.range.read", workbook="Sub accrual 2026-01.xlsx", sheet="Accrual", range="G6:N6"))
    assert r["values"][0][0] == "312000" and Decimal(r["values"][0][1]) == Decimal("280000.50")
    assert Decimal(r["values"][0][2]) == Decimal("31999.50")  # I6 = MAX(0,G6-H6), the template's formula
    assert r["values"][0][3] is None and Decimal(r["values"][0][4]) == Decimal("31999.50")
    assert r["values"][0][5:] == ["00123", True, "0.1"]
    assert r["formulas"][0][2] == "=MAX(0,G6-H6)" and r["formulas"][0][4] == "=G6-H6"
    diff = env.state_diff()
    added = {row.pk[2]: row.values for row in diff["excel.cells"].added}
    assert added["K6"]["formula"] == "=G6-H6" and added["K6"]["value"] is None
    assert added["L6"]["value"] == "00123" and added["L6"]["data_type"] == "s"
    ok(env.call("excel.cells.write", workbook="Sub accrual 2026-01.xlsx", sheet="Accrual", values={"K6": None}))
    assert "K6" not in {row.pk[2] for row in env.state_diff()["excel.cells"].added}
    for args, message in (
        ({"sheet": "Nope", "values": {"A1": 1}}, "no sheet"),
        ({"sheet": "Accrual", "values": {"ZZZZ1": 1}}, "bad cell reference"),
        ({"sheet": "Accrual", "values": {"A1": "=SUM(("}}, "bad formula"),
        ({"sheet": "Accrual", "values": {}}, "empty"),
    ):
        res = env.call("excel.cells.write", workbook="Sub accrual 2026-01.xlsx", **args)
        assert res["ok"] is False and message in res["error"], res
    assert env.call("excel.range.read", workbook="nope.xlsx", sheet="x")["error_type"] == "not_found"


def test_workbooks_create_and_sheets_add(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden, ["excel"])
    made = ok(
        env.call(
            "excel.workbooks.create",
            name="Accrual review",
            folder="/Close/2026-01",
            sheets={"Summary": [["Job", "Accrual"], ["3100", "12500.00"], ["Total", "=SUM(B2:B2)"]]},
        )
    )
    assert made["workbook"]["name"] == "Accrual review.xlsx" and made["cells"] == 6
    r = ok(env.call("excel.range.read", workbook="/Close/2026-01/Accrual review.xlsx", sheet="Summary"))
    assert r["range"] == "A1:B3" and r["values"][2] == ["Total", "12500"] and r["formulas"][2][1] == "=SUM(B2:B2)"
    dup = env.call("excel.workbooks.create", name="Accrual review.xlsx", folder="/Close/2026-01")
    assert dup["error_type"] == "conflict"
    added = ok(env.call("excel.sheets.add", workbook=made["workbook"]["id"], name="Notes", rows=[["a", 1]]))
    assert added["sheets"] == ["Summary", "Notes"]
    assert env.call("excel.sheets.add", workbook=made["workbook"]["id"], name="notes")["ok"] is False
    diff = env.state_diff()
    assert diff["excel.worksheets"].counts()["added"] == 2 and diff["excel.cells"].counts()["added"] == 8
    load_workbook(io.BytesIO(env.apps["excel"].workbook_bytes(made["workbook"]["id"])[1]))


def test_every_seeded_workbook_opens_and_matches_its_cells(docs_golden: Path, open_env) -> None:
    from cfab.apps.office.excel import cell_rows

    env = open_env(docs_golden, ["excel"])
    rows = env.con.execute("SELECT id, name, content FROM excel.workbooks ORDER BY id").fetchall()
    assert len(rows) == 4
    for wid, name, content in rows:
        load_workbook(io.BytesIO(bytes(content)))
        stored = env.con.execute(
            "SELECT sheet, cell, value, formula, data_type FROM excel.cells WHERE workbook_id = ? ORDER BY sheet, cell",
            [wid],
        ).fetchall()
        derived = sorted(
            (c["sheet"], c["cell"], c["value"], c["formula"], c["data_type"])
            for c in cell_rows(wid, name, bytes(content))
        )
        assert stored == derived, name


# ------------------------------------------------------------------------------------------
# outlook
# ------------------------------------------------------------------------------------------
def test_attachments_are_the_stored_documents(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden)
    rows = env.con.execute(
        "SELECT name, linked_app, linked_file_id, sha256, contentBytes FROM outlook.attachments"
    ).fetchall()
    assert {r[1] for r in rows} == {"box", "sharepoint", "excel"}
    for name, app, file_id, sha, content in rows:
        if app == "excel":
            rec, data = env.apps["excel"].workbook_bytes(file_id)
        else:
            rec, data = env.apps[app].file_bytes(file_id)
            assert rec["sha256"] == sha
        assert rec["name"] == name and data == bytes(content)


def test_outlook_search_read_draft(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden)
    found = ok(env.call("outlook.search", query='"positive pay" exception'))["messages"]
    assert [m["from"] for m in found] == ["cashpro.alerts@bankofamerica.com"] and found[0]["isRead"] is False
    assert ok(env.call("outlook.search", folder="Sent"))["total"] == 1
    assert ok(env.call("outlook.search", folder="drafts"))["messages"][0]["isDraft"] is True
    assert ok(env.call("outlook.search", unread_only=True))["total"] == 2
    assert ok(env.call("outlook.search", has_attachment=False, mailbox="pm@companyA.com"))["total"] == 1
    assert env.call("outlook.search", folder="Junk")["error_type"] == "invalid_argument"
    coi = ok(env.call("outlook.search", query="renewed certificate"))["messages"][0]
    thread = ok(env.call("outlook.read", message_id=coi["id"], include_thread=True))
    assert [m["folder"] for m in thread["thread"]] == ["Sent Items"]
    att = thread["attachments"][0]
    assert att["linked_app"] == "box" and att["linked_file_id"] == COI_WALSH
    exp = ok(env.call("outlook.attachments.ocr", attachment_id=att["id"], tables=False))
    assert {v for k, v in exp["fields"].items() if k.startswith("expiry_date")} == {"2026-03-01"}
    reply = ok(
        env.call(
            "outlook.outlook_draft",
            to="Kevin Walsh <billing@walshelectric.com>",
            body="Thanks, received.",
            reply_to_message_id=coi["id"],
            cc="controller@companyA.com; ",
        )
    )
    d = reply["draft"]
    assert d["subject"] == "RE: Certificate of insurance expiring" and d["conversationId"] == coi["conversationId"]
    assert d["to"] == ["billing@walshelectric.com"] and d["cc"] == ["controller@companyA.com"]
    routed = ok(
        env.call(
            "outlook.outlook_draft",
            to=["pm@companyA.com"],
            subject="Approve PO 9140-75",
            body="Invoice JSM-88421, $14,350.00, PO 9140-75, cost code 31-200. Not posted.",
            attachment_file_ids=[JSM, "/Policies/change_mgmt_policy.md", WH347, "WIP 2026-01.xlsx"],
        )
    )
    assert [a["linked_app"] for a in routed["attachments"]] == ["box", "sharepoint", "sharepoint", "excel"]
    assert routed["attachments"][0]["sha256"] == ok(env.call("box.files.read", file_id=JSM))["file"]["sha256"]
    upd = ok(
        env.call(
            "outlook.drafts.update",
            draft_id=routed["draft"]["id"],
            importance="high",
            remove_attachment_ids=[routed["attachments"][3]["id"]],
        )
    )
    assert upd["changed"] == ["importance", "attachments"] and len(upd["attachments"]) == 3
    for args, message in (
        ({"to": "nobody", "subject": "x", "body": "y"}, "well-formed"),
        ({"to": [], "subject": "x", "body": "y"}, "at least one"),
        ({"to": "a@b.com", "body": "y"}, "subject is required"),
        ({"to": "a@b.com", "subject": "x", "body": "y", "attachment_file_ids": ["999"]}, "no file"),
        ({"to": "a@b.com", "subject": "x", "body": "y", "mailbox": "ceo@x.com"}, "no mailbox"),
    ):
        res = env.call("outlook.outlook_draft", **args)
        assert res["ok"] is False and message in res["error"], res
    noop = env.call("outlook.drafts.update", draft_id=routed["draft"]["id"])
    assert noop["ok"] is False and "nothing to change" in noop["error"]
    diff = env.state_diff()
    assert sorted(diff.tables()) == ["outlook.attachments", "outlook.messages"]
    assert diff["outlook.messages"].counts() == {"added": 2, "removed": 0, "changed": 0}
    assert diff["outlook.attachments"].counts() == {"added": 3, "removed": 0, "changed": 0}


# ------------------------------------------------------------------------------------------
# determinism
# ------------------------------------------------------------------------------------------
def test_two_builds_give_the_same_documents(tmp_path: Path, docs_golden: Path) -> None:
    clear_render_cache()
    again = build_fixture_golden(tmp_path / "again.duckdb", DOC_APPS)

    def digest(path: Path) -> tuple[str, list]:
        con = duckdb.connect(str(path), read_only=True)
        try:
            files = con.execute(
                "SELECT id, name, sha256 FROM box.files UNION ALL "
                "SELECT id, name, lower(file_sha256Hash) FROM sharepoint.driveItems WHERE item_type = 'file' "
                "UNION ALL SELECT id, name, sha256 FROM excel.workbooks ORDER BY 1"
            ).fetchall()
            return content_digest(con, schemas=DOC_APPS), files
        finally:
            con.close()

    a, b = digest(docs_golden), digest(again)
    assert a[1] == b[1] and len(a[1]) == 12 + 4 + 4
    assert a[0] == b[0]


def test_python_integration_methods(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden)
    box, sp, excel, outlook = (env.apps[a] for a in DOC_APPS)
    assert box.find_file("/AP/Invoices/2026-01/JSM-88421.pdf")["id"] == JSM
    assert box.find_file("/AP/nope.pdf") is None and box.file_record("0000") is None
    rec, data = sp.file_bytes(POLICY_MD)
    assert data.startswith(b"# Change Management Policy") and rec["sha256"] == sp.file_record(POLICY_MD)["sha256"]
    assert Decimal(excel.cell_value("WIP 2026-01.xlsx", "WIP", "D6")) > 0
    assert [d["subject"] for d in outlook.drafts("ap@companyA.com")] == ["Walsh pay request #3"]
    att = env.con.execute("SELECT id FROM outlook.attachments WHERE linked_file_id = ?", [JSM]).fetchone()[0]
    meta, content = outlook.attachment_bytes(att)
    assert meta["linked_file_id"] == JSM and content == box.file_bytes(JSM)[1]


def _forecast_grade(env) -> bool:
    """The artifact check a task makes of a written workbook: the cells it names show these amounts."""
    from cfab.grader import Evaluator, RowPredicate, grade

    shows = {"B2": "1200.00", "B3": "300.25", "B4": "1500.25"}
    ev = Evaluator(
        expected=[
            RowPredicate(
                app="excel",
                table="cells",
                op="added",
                where={"workbook": "Forecast.xlsx", "sheet": "Weeks", "cell": ref},
                assert_={"computed": value},
                label=f"Weeks!{ref} shows {value}",
            )
            for ref, value in shows.items()
        ],
        money_movement_guard=False,
    )
    return grade(ev, env.state_diff(), guarded_calls=[], tool_calls=[]).passed


@pytest.mark.parametrize(
    ("rows", "passes"),
    [
        ([["Week", "Cash"], ["1", 1200], ["2", "300.25"], ["3", "1500.25"]], True),  # typed
        ([["Week", "Cash"], ["1", "1200"], ["2", "=B2/4+0.25"], ["3", "=SUM(B2:B3)"]], True),  # formulas
        ([["Week", "Cash"], ["1", "1200"], ["2", "300.25"], ["3", "=B2+B3+0.01"]], False),  # a cent off
        ([["Week", "Cash"], ["1", "1200"], ["2", "300.25"], ["3", "=B2+B3+C9"]], True),  # an empty input is 0
    ],
    ids=["typed", "formulas", "cent-off", "empty-input"],
)
def test_a_written_workbook_is_graded_by_what_it_shows(docs_golden: Path, open_env, rows, passes) -> None:
    env = open_env(docs_golden, ["excel"])
    ok(env.call("excel.workbooks.create", name="Forecast", folder="/Close", sheets={"Weeks": rows}))
    assert _forecast_grade(env) is passes


def test_a_shown_result_moves_with_its_inputs_and_cannot_be_forged(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden, ["excel"], sql_write=True)
    rows = [["Week", "Cash"], ["1", "1000"], ["2", "300.25"], ["3", "=SUM(B2:B3)"]]
    ok(env.call("excel.workbooks.create", name="Forecast", folder="/Close", sheets={"Weeks": rows}))
    assert not _forecast_grade(env)
    res = ok(env.call("excel.cells.write", workbook="Forecast.xlsx", sheet="Weeks", values={"B2": "1200"}))
    assert res["cells_changed"] == {"inserted": 0, "updated": 1, "deleted": 0, "recomputed": 1}
    assert _forecast_grade(env)
    # agent SQL cannot make the relation say what the workbook does not
    for sql in (
        "UPDATE excel.cells SET computed = '99' WHERE cell = 'B4'",
        "INSERT INTO excel.cells VALUES ('x', 'Weeks', 'Z9', 'Forecast.xlsx', 9, 26, '1', NULL, 'n', '1')",
        "DELETE FROM excel.worksheets WHERE name = 'Weeks'",
        "UPDATE excel.workbooks SET description = 'x' WHERE name = 'Forecast.xlsx'",
    ):
        res = env.call("sql.execute", sql=sql)
        assert not res["ok"] and res["error_type"] == "rejected" and "derived" in res["error"], res
