"""Gate rules on the real book (the golden file, not a fixture): Procore's sync locks, every ERP's
posted-record locks, closed periods and balanced journals, and agent SQL through ``sql.execute``
(staged guarded writes, locked rows, a legal write that shows in the diff, refused shapes)."""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cfab.apps.registry import load_all
from cfab.apps.world.environment import Environment
from cfab.triggers.rules import load_rules
from tests.conformance.conformance_helpers import ARCHETYPES, check_result, schema_fingerprint

ERPS = ARCHETYPES["ERP"]
APPS = [*ERPS, "procore", "hh2"]


@pytest.fixture(scope="module")
def rules_env(full_golden: Path):
    env = Environment.open(apps=APPS, golden=full_golden, sql_write=True)
    env.__dict__["_base_snapshot"] = env.snapshot()
    yield env
    env.close()


@pytest.fixture
def env(rules_env: Environment) -> Environment:
    """The module's environment, reset to its opening state before each test."""
    rules_env.reset(rules_env.__dict__["_base_snapshot"])
    return rules_env


# ------------------------------------------------------------------------------ helpers
def sql_literal(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, datetime):
        return f"TIMESTAMP '{value.isoformat(sep=' ')}'"
    if isinstance(value, date):
        return f"DATE '{value.isoformat()}'"
    return "'" + str(value).replace("'", "''") + "'"


def where_row(env: Environment, table: str, row: dict[str, Any]) -> str:
    info = env.catalog.get(table)
    return " AND ".join(f'"{c}" = {sql_literal(row[c])}' for c in info.pk)


def first_row(env: Environment, table: str, where: str = "true") -> dict[str, Any]:
    info = env.catalog.get(table)
    cur = env.con.execute(
        f'SELECT * FROM "{info.schema}"."{info.name}" WHERE {where} '
        f"ORDER BY {', '.join(chr(34) + c + chr(34) for c in info.pk)} LIMIT 1"
    )
    values = cur.fetchone()
    assert values is not None, f"no row in {table} where {where}"
    return dict(zip([d[0] for d in cur.description], values, strict=False))


def text_column(env: Environment, table: str) -> str:
    info = env.catalog.get(table)
    return next(c for c, t in info.columns.items() if t.upper() == "VARCHAR" and c not in info.pk)


def execute(env: Environment, sql: str) -> dict[str, Any]:
    return check_result(env.call("sql.execute", sql=sql), sql)


def fp(env: Environment, schemas: list[str]) -> tuple:
    return schema_fingerprint(env.con, env.catalog, schemas)


def rule(table: str, suffix: str):
    matches = [r for r in load_rules().rules if r.table.lower() == table.lower() and r.id.endswith(suffix)]
    assert matches, f"no {suffix} rule on {table}"
    return matches[0]


def assertion(table: str):
    matches = [a for a in load_rules().assertions if a.table.lower() == table.lower()]
    assert matches, f"no assertion on {table}"
    return matches[0]


def erp(app: str):
    return load_all()[app]


def refused(result: dict[str, Any], *needles: str) -> str:
    assert result["ok"] is False and result["error_type"] == "rejected", result
    for needle in needles:
        assert needle.lower() in result["error"].lower(), (needle, result["error"])
    return result["error"]


# ------------------------------------------------------------------------------ Procore locks
def test_synced_commitment_refuses_update_naming_it(env):
    row = first_row(env, "procore.commitments", "erp_sync_status = 'synced'")
    before = fp(env, ["procore"])
    res = execute(env, f"UPDATE procore.commitments SET title = 'renamed by agent' WHERE id = {row['id']}")
    refused(res, row["contract_code"], "synced", "locked")
    res = execute(env, f"DELETE FROM procore.commitments WHERE id = {row['id']}")
    refused(res, row["contract_code"])
    # and through the app's own gate path (what a tool would do)
    assert fp(env, ["procore"]) == before


def test_synced_requisition_refuses_update_naming_it(env):
    row = first_row(env, "procore.requisitions", "erp_sync_status = 'synced'")
    before = fp(env, ["procore"])
    res = execute(env, f"UPDATE procore.requisitions SET status = 'draft' WHERE id = {row['id']}")
    refused(res, str(row["invoice_number"]), f"#{row['number']}", "synced")
    assert fp(env, ["procore"]) == before


def test_resyncing_a_synced_commitment_is_refused_by_the_tool(env):
    row = first_row(env, "procore.commitments", "erp_sync_status = 'synced'")
    res = check_result(env.call("procore.erp.sync_commitment", commitment_id=row["contract_code"]), "resync")
    assert res["ok"] is False
    assert row["contract_code"] in res["error"] or row["number"] in res["error"], res


# ------------------------------------------------------------------------------ ERP locks
@pytest.mark.parametrize("app", ERPS)
def test_posted_erp_record_refuses_update_and_delete(env, app):
    table = f"{app}.{erp(app).D.t('ap_hdr').table}"
    row = first_row(env, table)
    col = text_column(env, table)
    before = fp(env, [app])
    refused(execute(env, f"UPDATE {table} SET \"{col}\" = 'changed' WHERE {where_row(env, table, row)}"), "posted")
    refused(execute(env, f"DELETE FROM {table} WHERE {where_row(env, table, row)}"), "posted")
    lines = f"{app}.{erp(app).D.t('ap_line').table}"
    refused(execute(env, f"DELETE FROM {lines} WHERE {where_row(env, lines, first_row(env, lines))}"), "posted")
    assert fp(env, [app]) == before


@pytest.mark.parametrize("app", ERPS)
def test_writing_a_posted_table_directly_is_a_guarded_post(env, app):
    """INSERT into the posted-AP table is posting: staged in the guard log, never executed."""
    table = f"{app}.{erp(app).D.t('ap_hdr').table}"
    row = first_row(env, table)
    info = env.catalog.get(table)
    cols = ", ".join(f'"{c}"' for c in info.columns)
    vals = ", ".join(sql_literal(row[c]) for c in info.columns)
    before, guards = fp(env, [app]), len(env.guarded_calls())
    res = execute(env, f"INSERT INTO {table} ({cols}) VALUES ({vals})")
    assert res["ok"] is True and res["status"] == "pending_human_approval", res
    assert fp(env, [app]) == before
    staged = env.guarded_calls()[guards:]
    assert len(staged) == 1 and staged[0].executed is False and staged[0].tool == "sql.execute"


def _stage_batch(env: Environment, app: str) -> dict[str, Any]:
    cls = erp(app)
    job = first_row(env, f"{app}.{cls.D.t('job').table}")[cls.D.t("job").n("job_id")]
    lines = [
        {"account": "5200", "debit": "100.00", "job_id": str(job)},
        {"account": "2100", "credit": "100.00", "job_id": str(job)},
    ]
    res = check_result(
        env.call(
            f"{app}.journal_entries.stage", entry_date="2026-01-31", description="conformance accrual", lines=lines
        ),
        f"{app} stage",
    )
    assert res["ok"] is True, res
    return {**res["data"], "entry_lines": lines}


def _of_batch(env: Environment, app: str, logical: str, batch_id: Any) -> tuple[str, dict[str, Any]]:
    """(table, first row) of the staged batch in the header / line table ``logical``."""
    t = erp(app).D.t(logical)
    id_col = t.n("doc_id") if t.has("doc_id") else t.n("batch_id")
    table = f"{app}.{t.table}"
    return table, first_row(env, table, f'CAST("{id_col}" AS VARCHAR) = {sql_literal(str(batch_id))}')


@pytest.mark.parametrize("app", ERPS)
def test_journal_batch_into_a_closed_period_is_refused(env, app):
    staged = _stage_batch(env, app)
    before = fp(env, [app])
    # through the tool
    res = check_result(
        env.call(
            f"{app}.journal_entries.stage", entry_date="2025-06-30", description="late", lines=staged["entry_lines"]
        ),
        f"{app} closed",
    )
    refused(res, "closed")
    # through agent SQL: the staged batch's header entered again into a closed period (the gate's rule)
    table, header = _of_batch(env, app, "je_open_hdr", staged["batch_id"])
    assert rule(table, "closed_period").parent is not None  # the period's fact, inherited by the entry
    t = erp(app).D.t("je_open_hdr")
    column = next(t.n(c) for c in ("mth", "gl_date", "act_date") if t.has(c))
    if not t.has("mth"):  # a dated entry: the date falls in a closed period
        header[column] = date(2025, 6, 15)
    else:  # the header carries the period itself: a closed period's native value
        p = erp(app).D.t("fiscal_period")
        header[column] = first_row(env, f"{app}.{p.table}", f"\"{p.n('status')}\" = 'Closed'")[p.n("mth")]
    cols = ", ".join(f'"{c}"' for c in header)
    res = execute(env, f"INSERT INTO {table} ({cols}) VALUES ({', '.join(sql_literal(v) for v in header.values())})")
    refused(res, "closed")
    assert fp(env, [app]) == before


@pytest.mark.parametrize("app", ERPS)
def test_unbalanced_staged_entry_is_refused(env, app):
    staged = _stage_batch(env, app)
    before = fp(env, [app])
    bad = [staged["entry_lines"][0], {**staged["entry_lines"][1], "credit": "90.00"}]
    res = check_result(
        env.call(f"{app}.journal_entries.stage", entry_date="2026-01-31", description="bad", lines=bad),
        f"{app} unbalanced",
    )
    refused(res, "balance")
    # through agent SQL: change one amount of the staged batch so it no longer balances
    table, line = _of_batch(env, app, "je_open_line", staged["batch_id"])
    amount = re.findall(r'"(\w+)"', assertion(table).check)[-1]  # the last column the check sums
    res = execute(env, f'UPDATE {table} SET "{amount}" = "{amount}" + 1 WHERE {where_row(env, table, line)}')
    refused(res, "balance")
    assert fp(env, [app]) == before


@pytest.mark.parametrize("app", ERPS)
def test_projection_status_posted_through_sql_is_staged(env, app):
    """A write to a guarded status column (the job's projection status = Posted) is staged in the
    guard log and not executed."""
    cls = erp(app)
    jt = cls.D.t("job")
    table = f"{app}.{jt.table}"
    assert rule(table, "projection_post_guard").action == "guard"
    column, word = jt.n("etc_status"), cls.D.word("proj", "posted")
    job = first_row(env, table)[jt.n("job_id")]
    res = check_result(
        env.call(f"{app}.jobs.update_estimate", job_id=str(job), estimate_to_complete="1000.00"),
        f"{app} update_estimate",
    )
    assert res["ok"] is True, res
    row = first_row(env, table, f"\"{column}\" IS DISTINCT FROM '{word}'")
    before, guards = fp(env, [app]), len(env.guarded_calls())
    res = execute(env, f"UPDATE {table} SET \"{column}\" = '{word}' WHERE {where_row(env, table, row)}")
    assert res["ok"] is True and res["status"] == "pending_human_approval", res
    assert fp(env, [app]) == before
    staged = env.guarded_calls()[guards:]
    assert len(staged) == 1 and staged[0].executed is False and staged[0].app == app


def test_vista_batch_status_posted_through_sql_is_staged(env):
    staged = _stage_batch(env, "vista_erp")
    row = first_row(env, "vista_erp.GLJB", "\"Status\" IS DISTINCT FROM 'Posted'")
    before, guards = fp(env, ["vista_erp"]), len(env.guarded_calls())
    res = execute(env, f"UPDATE vista_erp.GLJB SET Status = 'Posted' WHERE {where_row(env, 'vista_erp.GLJB', row)}")
    assert res["status"] == "pending_human_approval", res
    assert fp(env, ["vista_erp"]) == before
    assert [g.executed for g in env.guarded_calls()[guards:]] == [False]
    assert str(staged["batch_id"])


# ------------------------------------------------------------------------------ agent SQL
def test_legal_sql_writes_land_and_show_in_the_diff(env):
    vendor = first_row(env, "vista_erp.APVM")["Vendor"]
    res = execute(
        env,
        "INSERT INTO vista_erp.APVH (VendorGroup, Vendor, HoldCode, Notes, DateAdded) "
        f"VALUES (1, {vendor}, 'COI', 'COI expired 2026-01-15', DATE '2026-01-31')",
    )
    assert res["ok"] is True and res["data"] == {"statement": "insert", "table": "vista_erp.APVH", "rows_affected": 1}
    qbo_vendor = first_row(env, "qbo.Vendor", 'NOT coalesce("PaymentHold", false)')["Id"]
    res = execute(
        env, f"UPDATE qbo.Vendor SET PaymentHold = true, PaymentHoldNote = 'W-9 missing' WHERE Id = '{qbo_vendor}'"
    )
    assert res["ok"] is True and res["data"]["rows_affected"] == 1
    diff = env.state_diff()
    assert set(diff.tables()) == {"vista_erp.APVH", "qbo.Vendor"}, diff.summary()
    added = diff["vista_erp.APVH"].added
    assert len(added) == 1 and added[0].values["Vendor"] == vendor and added[0].values["HoldCode"] == "COI"
    changed = diff["qbo.Vendor"].changed
    assert len(changed) == 1 and set(changed[0].columns) == {"PaymentHold", "PaymentHoldNote"}
    assert changed[0].after["PaymentHold"] is True
    assert env.state_diff(full=True).summary() == diff.summary()
    assert not env.guarded_calls()


@pytest.mark.parametrize(
    "sql, needle",
    [
        ("UPDATE vista_erp.APVH SET Notes = 'x'; DELETE FROM vista_erp.APVH", "one statement"),
        ("DELETE FROM vista_erp.APVH; SELECT 1", "one statement"),
        ("UPDATE cfab_internal.guard_log SET executed = true", "cfab_internal"),
        ("DELETE FROM cfab_internal.tool_log", "cfab_internal"),
        ("INSERT INTO book.vendors (vendor_key) VALUES ('V9999')", "book"),
        ("UPDATE book.jobs SET contract_value = 0", "book"),
        ("DELETE FROM box.files", "box"),
        ("UPDATE main.x SET y = 1", "main"),
        ("UPDATE vista_erp.APVM SET Name = (SELECT max(name) FROM book.vendors)", "subquer"),
        ("WITH x AS (SELECT 1) UPDATE vista_erp.APVM SET Name = 'x'", "WITH"),
        ("INSERT INTO vista_erp.APVH SELECT * FROM vista_erp.APVH", "INSERT"),
        ("UPDATE vista_erp.APVM SET PayHold = 'Y' WHERE Vendor = 20147", "no column"),
        ("COPY vista_erp.APVM TO '/tmp/x.csv'", "INSERT, UPDATE or DELETE"),
        ("UPDATE golden.vista_erp.APVM SET Name = 'x'", "catalog"),
    ],
)
def test_refused_sql_writes(env, sql, needle):
    before, guards = fp(env, ["vista_erp", "qbo", "procore"]), len(env.guarded_calls())
    res = execute(env, sql)
    assert res["ok"] is False and res["error_type"] == "rejected", res
    assert needle.lower() in res["error"].lower(), res["error"]
    assert fp(env, ["vista_erp", "qbo", "procore"]) == before
    assert len(env.guarded_calls()) == guards


def test_sql_execute_is_not_offered_without_sql_write(full_golden):
    with Environment.open(apps=["vista_erp"], golden=full_golden) as ro:
        assert "sql.execute" not in ro.tools
        res = check_result(ro.call("sql.execute", sql="DELETE FROM vista_erp.APVH"), "no sql_write")
        assert res["ok"] is False and res["error_type"] == "unknown_tool"
