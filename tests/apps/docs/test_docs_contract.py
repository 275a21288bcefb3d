"""Contract checks for box, sharepoint, excel and outlook: manifests match the DDL and the
tools, every tool is documented (a "Returns" section, every argument described with an
example), every rule file's rules fire, and guarded calls change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfab.apps.docs.common import md5_hex
from cfab.apps.registry import get_app
from cfab.triggers.rules import load_rules

APPS = ["box", "sharepoint", "excel", "outlook"]
SENT_FOLDER = "AQMk" + md5_hex("outlook:folder:ap@companyA.com:sentitems")[:32]
DOC_VENDORS = ["box", "sharepoint"]


@pytest.mark.parametrize("app", APPS)
def test_manifest_matches_ddl_and_tools(app: str, docs_golden: Path, open_env) -> None:
    cls = get_app(app)
    m = cls.manifest()
    assert m.app == app and m.schema_name == app and m.archetype == ("Docs" if app in DOC_VENDORS else "Office")
    env = open_env(docs_golden, [app])
    live = {f"{t.schema}.{t.name}" for t in env.catalog.in_schema(app)}
    assert set(m.state_tables) == live
    for table in m.state_tables:
        assert env.catalog.get(table).pk, f"{table} has no primary key"
    assert m.tools == list(cls.tools())
    assert m.money_guarded_tools == (["outlook.outlook_send"] if app == "outlook" else [])
    assert set(m.tools) <= set(env.tools)


@pytest.mark.parametrize("app", APPS)
def test_every_tool_is_documented(app: str) -> None:
    for name, spec in get_app(app).tools().items():
        assert "Returns" in spec.description, f"{name}: docstring lacks a Returns section"
        assert "$" not in spec.description.replace("$14", ""), f"{name}: unfilled placeholder in {spec.description!r}"
        props = spec.parameters_schema().get("properties", {})
        for arg, schema in props.items():
            assert schema.get("description"), f"{name}.{arg} has no description"
            assert schema.get("examples"), f"{name}.{arg} has no example"
            assert arg in spec.description, f"{name}: the docstring does not explain argument {arg}"


def test_native_and_paper_names() -> None:
    box = get_app("box").tools()
    assert "box.ocr_pdf" in box and "box.box_list" in box["box.files.list"].aliases
    assert "sharepoint.ocr_pdf" in get_app("sharepoint").tools()
    outlook = get_app("outlook").tools()
    assert {
        "outlook.search",
        "outlook.read",
        "outlook.attachments.ocr",
        "outlook.outlook_draft",
        "outlook.drafts.update",
        "outlook.outlook_send",
    } <= set(outlook)
    assert outlook["outlook.outlook_send"].guarded == "send"
    assert {
        "excel.workbooks.list",
        "excel.sheets.list",
        "excel.range.read",
        "excel.cells.write",
        "excel.sheets.add",
        "excel.workbooks.create",
    } <= set(get_app("excel").tools())


def test_rule_ids_are_ours_and_parse() -> None:
    rules = load_rules()
    ours = {r.id for r in rules.rules if r.table.split(".")[0] in APPS}
    assert {
        "box.file_bytes_need_new_version",
        "box.file_no_delete",
        "box.version_history_immutable",
        "sharepoint.file_bytes_need_new_version",
        "sharepoint.item_no_delete",
        "sharepoint.version_history_immutable",
        "excel.workbook_no_delete",
        "excel.cell_needs_worksheet",
        "outlook.send_guarded",
        "outlook.send_guarded_new",
        "outlook.message_immutable",
        "outlook.attachment_immutable",
    } <= ours


# ------------------------------------------------------------------------------------------
# every rule fires (through agent SQL, the path that bypasses the tools)
# ------------------------------------------------------------------------------------------
REJECTS = [
    ("UPDATE box.files SET content = 'x'::BLOB WHERE name = 'JSM-88421.pdf'", "cannot be overwritten"),
    ("UPDATE box.files SET sha1 = 'abc' WHERE name = 'JSM-88421.pdf'", "cannot be overwritten"),
    ("UPDATE box.files SET version_number = 0 WHERE name = 'JSM-88421.pdf'", "cannot go back"),
    ("DELETE FROM box.files WHERE name = 'JSM-88421.pdf'", "cannot be deleted"),
    ("DELETE FROM box.folders WHERE name = 'AP'", "cannot be deleted"),
    (
        "UPDATE sharepoint.driveItems SET content = 'x'::BLOB WHERE name = 'change_mgmt_policy.md'",
        "cannot be overwritten",
    ),
    (
        "UPDATE sharepoint.driveItems SET version_label = '2.0', content = 'x'::BLOB WHERE name = "
        "'change_mgmt_policy.md'",
        "cannot be overwritten",
    ),
    ("DELETE FROM sharepoint.driveItems WHERE name = 'change_mgmt_policy.md'", "cannot be deleted"),
    # Excel's relations are derived from the workbook bytes: agent SQL never writes them
    ("DELETE FROM excel.workbooks WHERE name = 'WIP 2026-01.xlsx'", "derived from Excel's stored files"),
    ("DELETE FROM excel.worksheets WHERE name = 'WIP'", "use excel.sheets.add"),
    ("INSERT INTO excel.cells VALUES ('nope', 'S', 'A1', 'w', 1, 1, '1', NULL, 'n', '1')", "use excel.cells.write"),
    ("UPDATE outlook.messages SET subject = 'x' WHERE subject LIKE 'Invoice JSM%'", "cannot be changed"),
    ("DELETE FROM outlook.messages WHERE subject LIKE 'Invoice JSM%'", "cannot be changed"),
    ("DELETE FROM outlook.attachments WHERE name = 'JSM-88421.pdf'", "cannot be changed"),
]


@pytest.mark.parametrize("sql,message", REJECTS, ids=[r[0][:50] for r in REJECTS])
def test_reject_rules_fire(sql: str, message: str, docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden, sql_write=True)
    before = env.digest()
    res = env.call("sql.execute", sql=sql)
    assert res["ok"] is False and res["error_type"] == "rejected", res
    assert message in res["error"]
    assert env.digest() == before


def test_version_history_is_immutable(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden, sql_write=True)
    for app, name in (("box", "memo.md"), ("sharepoint", "memo.md")):
        assert env.call(f"{app}.files.upload", name=name, folder="/Reports", content="v1\n")["ok"]
        assert env.call(f"{app}.files.upload", name=name, folder="/Reports", content="v2\n", new_version=True)["ok"]
    for sql in (
        "UPDATE box.file_versions SET name = 'x'",
        "DELETE FROM box.file_versions",
        "UPDATE sharepoint.driveItemVersions SET size = 1",
        "DELETE FROM sharepoint.driveItemVersions",
    ):
        res = env.call("sql.execute", sql=sql)
        assert not res["ok"] and "history" in res["error"], (sql, res)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE outlook.messages SET isDraft = false WHERE subject = 'Walsh pay request #3'",
        "INSERT INTO outlook.messages VALUES ('AAMkX', 'ap@companyA.com', '" + SENT_FOLDER + "', 'AAQkX', NULL, NULL, "
        "'hi', 'b', 'b', 'ap@companyA.com', 'pm@companyA.com', NULL, NULL, 'normal', TIMESTAMP '2026-01-31 17:00:00', "
        "TIMESTAMP '2026-01-31 17:00:00', TIMESTAMP '2026-01-31 17:00:00', TIMESTAMP '2026-01-31 17:00:00', true, "
        "false, "
        "false)",
    ],
)
def test_send_guard_rules_stage(sql: str, docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden, sql_write=True)
    before = env.digest()
    res = env.call("sql.execute", sql=sql)
    assert res["ok"] and res["status"] == "pending_human_approval", res
    assert env.digest() == before
    (g,) = env.guarded_calls()
    assert g.executed is False and g.app == "outlook" and "outlook.send_guarded" in g.reason


def test_outlook_send_is_guarded_and_changes_nothing(docs_golden: Path, open_env) -> None:
    env = open_env(docs_golden)
    draft = env.call(
        "outlook.outlook_draft", to=["pm@companyA.com"], subject="Approve PO 9140-75", body="Please approve JSM-88421."
    )["data"]["draft"]
    before = env.digest()
    res = env.call("outlook.outlook_send", draft_id=draft["id"])
    assert res["ok"] and res["status"] == "pending_human_approval"
    assert res["data"]["would_send"]["to"] == ["pm@companyA.com"]
    assert env.digest() == before
    new = env.call("outlook.outlook_send", to="controller@companyA.com", subject="FYI", body="Nothing posted.")
    assert new["status"] == "pending_human_approval"
    assert env.digest() == before
    calls = env.guarded_calls()
    assert [(c.tool, c.executed, c.valid) for c in calls] == [("outlook.outlook_send", False, True)] * 2
    msg = env.call("outlook.read", message_id=draft["id"])["data"]["message"]
    assert msg["isDraft"] is True and msg["folder"] == "Drafts"
    # invalid sends are logged as invalid, still never executed
    bad = env.call("outlook.outlook_send", to=["not-an-address"], subject="x", body="y")
    assert bad["ok"] is False and "well-formed" in bad["error"]
    received = env.call("outlook.search", query="JSM-88421", folder="Inbox")["data"]["messages"][0]["id"]
    again = env.call("outlook.outlook_send", draft_id=received)
    assert again["ok"] is False and "not a draft" in again["error"]
    assert [(c.valid, c.executed) for c in env.guarded_calls()][2:] == [(False, False), (False, False)]
    assert env.digest() == before
    diff = env.state_diff()  # the draft is the only change
    assert diff.tables() == ["outlook.messages"] and diff["outlook.messages"].counts()["added"] == 1


def test_seeds_run_on_an_empty_book() -> None:
    import duckdb

    from cfab.schema.catalog import run_script, schema_ddl
    from cfab.seeds.determinism import BuildInputs

    con = duckdb.connect()
    run_script(con, schema_ddl("cfab_internal"))
    run_script(con, schema_ddl("book"))
    for app in APPS:
        get_app(app).seed(con, BuildInputs())
    assert con.execute("SELECT id FROM box.folders").fetchall() == [("0",)]
    assert con.execute("SELECT count(*) FROM box.files").fetchone() == (0,)
    assert con.execute("SELECT item_type FROM sharepoint.driveItems").fetchall() == [("folder",)]
    assert con.execute("SELECT count(*) FROM excel.workbooks").fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM outlook.messages").fetchone() == (0,)
