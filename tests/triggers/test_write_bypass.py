"""Attacks on the write rules, on the real book, through ``sql.execute`` with sql_write on and
through the tools: each bypass of issue 16 (root cause 2) is refused or staged and changes
nothing, and the tools' own workflows (syncing, entering a new projection) still work.

Bypasses: rows "born synced"; a line inserted into a synced requisition; the lines of a synced
direct cost changed or deleted; erp_sync_status, erp_ref and locked set at once; budget lines
deleted or inserted; a posted projection changed or un-posted; a closed fiscal period reopened,
deleted or re-cased; an entry dated mid- or end-of-month in a closed month; approved change
orders' totals, subcontract amounts and bulk approvals written directly."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cfab.apps.erp.dialects import DIALECTS
from cfab.apps.world.environment import Environment
from cfab.apps.world.golden import ensure_golden
from cfab.schema.catalog import content_digest
from cfab.seeds.determinism import BuildInputs

ERPS = sorted(DIALECTS)
APPS = ["hh2", "procore", "redteam", *ERPS]


@pytest.fixture(scope="module")
def golden() -> Path:
    return ensure_golden(BuildInputs())


@pytest.fixture(scope="module")
def shared(golden: Path):
    env = Environment.open(apps=APPS, golden=golden, sql_write=True)
    env.__dict__["_base"] = env.snapshot()
    yield env
    env.close()


@pytest.fixture
def env(shared: Environment) -> Environment:
    shared.reset(shared.__dict__["_base"])
    return shared


# ------------------------------------------------------------------------------ helpers
def lit(value: Any) -> str:
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


def q(name: str) -> str:
    return '"' + name + '"'


def rows(env: Environment, table: str, where: str = "true", limit: int = 1) -> list[dict[str, Any]]:
    info = env.catalog.get(table)
    cur = env.con.execute(
        f"SELECT * FROM {q(info.schema)}.{q(info.name)} WHERE {where} "
        f"ORDER BY {', '.join(q(c) for c in info.pk)} LIMIT {limit}"
    )
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=False)) for r in cur.fetchall()]


def row(env: Environment, table: str, where: str = "true") -> dict[str, Any]:
    got = rows(env, table, where)
    assert got, f"no row in {table} where {where}"
    return got[0]


def key_where(env: Environment, table: str, r: dict[str, Any]) -> str:
    return " AND ".join(f"{q(c)} = {lit(r[c])}" for c in env.catalog.get(table).pk)


def insert_sql(table: str, r: dict[str, Any]) -> str:
    return f"INSERT INTO {table} ({', '.join(q(c) for c in r)}) VALUES ({', '.join(lit(v) for v in r.values())})"


def fresh_key(env: Environment, table: str, r: dict[str, Any], skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """``r`` with a primary key no row has (integers + 9000, strings + 'X')."""
    out = dict(r)
    for c in env.catalog.get(table).pk:
        if c in skip:
            continue
        v = out[c]
        out[c] = v + 9000 if isinstance(v, int) and not isinstance(v, bool) else (f"{v}X" if isinstance(v, str) else v)
    return out


def attempt(env: Environment, sql: str, expect: str, *needles: str) -> dict[str, Any]:
    """Run one agent write; it must be refused (``rejected``) or staged, and change nothing."""
    schema = sql.split()[2 if sql.upper().startswith(("INSERT", "DELETE")) else 1].split(".")[0]
    before, guards = content_digest(env.con, [schema]), len(env.guarded_calls())
    res = env.call("sql.execute", sql=sql)
    if expect == "rejected":
        assert res["ok"] is False and res["error_type"] == "rejected", (sql, res)
        for needle in needles:
            assert needle.lower() in res["error"].lower(), (sql, needle, res["error"])
        assert len(env.guarded_calls()) == guards
    else:
        assert res["ok"] is True and res["status"] == "pending_human_approval", (sql, res)
        staged = env.guarded_calls()[guards:]
        assert len(staged) == 1 and staged[0].executed is False
    assert content_digest(env.con, [schema]) == before, f"{sql} changed {schema}"
    return res


# ------------------------------------------------------------------------------ Procore: sync locks
def test_rows_born_synced_are_refused(env: Environment) -> None:
    c = {
        **fresh_key(env, "procore.commitments", row(env, "procore.commitments")),
        "erp_sync_status": "not_synced",
        "locked": False,
        "erp_ref": None,
        "synced_at": None,
        "status": "Draft",
        "executed": False,
    }
    for variant in (
        {"erp_sync_status": "synced", "locked": True, "erp_ref": "SC-X"},
        {"erp_sync_status": "SYNCED"},
        {"locked": True},
        {"erp_ref": "SC-X"},
    ):
        attempt(env, insert_sql("procore.commitments", {**c, **variant}), "rejected", "sync")
    d = row(env, "procore.direct_costs", "erp_sync_status = 'synced'")
    attempt(env, insert_sql("procore.direct_costs", fresh_key(env, "procore.direct_costs", d)), "rejected", "synced")


def test_lines_of_synced_records_are_locked_for_every_operation(env: Environment) -> None:
    req = row(env, "procore.requisitions", "erp_sync_status = 'synced'")
    line = row(env, "procore.requisition_line_items", f"requisition_id = {req['id']}")
    added = {**line, "position": 99, "locked": False}
    attempt(env, insert_sql("procore.requisition_line_items", added), "rejected", "synced")
    attempt(env, f"DELETE FROM procore.requisition_line_items WHERE requisition_id = {req['id']}", "rejected")
    dc = row(env, "procore.direct_costs", "erp_sync_status = 'synced'")
    attempt(
        env,
        f"UPDATE procore.direct_cost_line_items SET amount = amount + 1 WHERE direct_cost_id = {dc['id']}",
        "rejected",
        "synced",
    )
    attempt(
        env,
        f"UPDATE procore.direct_cost_line_items SET description = 'x' WHERE direct_cost_id = {dc['id']}",
        "rejected",
        "synced",
    )
    attempt(env, f"DELETE FROM procore.direct_cost_line_items WHERE direct_cost_id = {dc['id']}", "rejected", "synced")
    dcl = row(env, "procore.direct_cost_line_items", f"direct_cost_id = {dc['id']}")
    attempt(env, insert_sql("procore.direct_cost_line_items", {**dcl, "position": 99}), "rejected", "synced")
    cl = row(env, "procore.commitment_line_items", "locked")
    attempt(env, f"UPDATE procore.commitment_line_items SET locked = false WHERE id = {cl['id']}", "rejected")


def test_setting_every_sync_column_at_once_is_still_marking_it_synced(env: Environment) -> None:
    req = row(env, "procore.requisitions", "erp_sync_status = 'not_synced' AND status = 'approved'")
    attempt(
        env,
        "UPDATE procore.requisitions SET erp_sync_status = 'synced', erp_ref = 'AP-1', locked = true, "
        f"synced_at = TIMESTAMP '2026-01-31 17:00:00' WHERE id = {req['id']}",
        "rejected",
        "procore.erp.sync_invoice",
    )
    attempt(env, f"UPDATE procore.requisitions SET erp_sync_status = 'Synced ' WHERE id = {req['id']}", "rejected")
    com = {
        **fresh_key(env, "procore.commitments", row(env, "procore.commitments")),
        "erp_sync_status": "not_synced",
        "locked": False,
        "erp_ref": None,
        "synced_at": None,
    }
    attempt(
        env,
        insert_sql("procore.commitments", {**com, "erp_sync_status": "synced", "erp_ref": "SC-1", "locked": True}),
        "rejected",
        "procore.erp.sync_commitment",
    )
    synced = row(env, "procore.requisitions", "erp_sync_status = 'synced'")
    attempt(
        env,
        "UPDATE procore.requisitions SET erp_sync_status = 'not_synced', erp_ref = NULL, locked = false "
        f"WHERE id = {synced['id']}",
        "rejected",
        "locked",
    )  # un-syncing


def test_the_sync_tool_still_syncs_and_then_the_record_is_locked(env: Environment) -> None:
    req = row(env, "procore.requisitions", "erp_sync_status = 'not_synced' AND status = 'approved'")
    out = env.call("procore.erp.sync_invoice", requisition_id=req["id"])
    assert out["ok"] is True and out["data"]["locked"] is True, out
    attempt(env, f"UPDATE procore.requisitions SET description = 'x' WHERE id = {req['id']}", "rejected", "synced")
    attempt(env, f"DELETE FROM procore.requisition_line_items WHERE requisition_id = {req['id']}", "rejected")


def test_budget_lines_are_neither_inserted_nor_deleted(env: Environment) -> None:
    b = row(env, "procore.budget_line_items")
    attempt(env, f"DELETE FROM procore.budget_line_items WHERE id = {b['id']}", "rejected", "budget")
    attempt(env, insert_sql("procore.budget_line_items", {**b, "id": b["id"] + 900000}), "rejected", "budget")
    attempt(
        env,
        f"UPDATE procore.budget_line_items SET revised_budget = revised_budget + 1 WHERE id = {b['id']}",
        "rejected",
    )


def test_approved_totals_and_bulk_approvals_need_the_workflow(env: Environment) -> None:
    co = row(env, "procore.change_orders", "status = 'approved'")
    attempt(
        env,
        f"UPDATE procore.change_orders SET grand_total = grand_total + 1 WHERE id = {co['id']}",
        "rejected",
        "approved",
    )
    attempt(env, f"UPDATE procore.change_orders SET status = 'void' WHERE id = {co['id']}", "rejected", "approved")
    pc = row(env, "procore.prime_contracts", "executed")
    attempt(
        env,
        f"UPDATE procore.prime_contracts SET revised_contract_amount = revised_contract_amount + 1 "
        f"WHERE id = {pc['id']}",
        "rejected",
        "change order",
    )
    pcl = row(env, "procore.prime_contract_line_items", f"prime_contract_id = {pc['id']}")
    attempt(env, f"DELETE FROM procore.prime_contract_line_items WHERE id = {pcl['id']}", "rejected", "change order")
    attempt(env, insert_sql("procore.prime_contract_line_items", {**pcl, "id": pcl["id"] + 900000}), "rejected")
    attempt(env, "UPDATE procore.requisitions SET status = 'approved' WHERE status <> 'approved'", "staged")
    attempt(env, "UPDATE redteam.eapps SET status = 'Approved' WHERE status = 'Submitted'", "rejected", "eapps.review")


def test_the_links_a_sync_relies_on_are_not_rewritten(env: Environment) -> None:
    """Re-pointing a crosswalk or a Procore ERP link would send a synced invoice to another vendor."""
    vm = row(env, "hh2.vendor_map", "system = 'procore'")
    attempt(
        env,
        f"UPDATE hh2.vendor_map SET system_vendor_id = '1' WHERE {key_where(env, 'hh2.vendor_map', vm)}",
        "rejected",
        "crosswalk",
    )
    attempt(env, insert_sql("hh2.vendor_map", {**vm, "master_vendor_id": "V9999"}), "rejected", "crosswalk")
    attempt(env, "DELETE FROM hh2.cost_code_map WHERE erp_system = 'vista_erp'", "rejected")
    attempt(env, "DELETE FROM hh2.sync_log", "rejected", "record")
    v = row(env, "procore.vendors", "origin_id IS NOT NULL")
    attempt(env, f"UPDATE procore.vendors SET origin_id = NULL WHERE id = {v['id']}", "rejected", "origin_id")
    attempt(env, "UPDATE procore.erp_cost_code_mappings SET erp_phase = '99-999-99'", "rejected")


# ------------------------------------------------------------------------------ ERPs
def _erp(app: str):
    return DIALECTS[app]


@pytest.mark.parametrize("app", ERPS)
def test_a_closed_period_cannot_be_reopened_deleted_or_recased(env: Environment, app: str) -> None:
    p = _erp(app).t("fiscal_period")
    table = f"{app}.{p.table}"
    closed = row(env, table, f"{q(p.n('status'))} = 'Closed'")
    where = key_where(env, table, closed)
    for word in ("Open", "closed", "CLOSED", " Closed"):
        attempt(env, f"UPDATE {table} SET {q(p.n('status'))} = {lit(word)} WHERE {where}", "rejected", "closed")
    attempt(env, f"UPDATE {table} SET {q(p.n('end_date'))} = {q(p.n('start_date'))} WHERE {where}", "rejected")
    attempt(env, f"DELETE FROM {table} WHERE {where}", "rejected", "closed")
    attempt(env, f"UPDATE {table} SET {q(p.n('status'))} = 'Open' WHERE {q(p.n('status'))} = 'Closed'", "rejected")
    # and so the tool cannot post into it afterwards
    res = env.call(
        f"{app}.journal_entries.stage",
        entry_date="2025-06-30",
        description="late",
        lines=[{"account": "5200", "debit": "1.00"}, {"account": "2100", "credit": "1.00"}],
    )
    assert res["ok"] is False and "closed" in res["error"].lower(), res


def _stage(env: Environment, app: str) -> dict[str, Any]:
    d = _erp(app)
    job = row(env, f"{app}.{d.t('job').table}")[d.t("job").n("job_id")]
    lines = [
        {"account": "5200", "debit": "100.00", "job_id": str(job)},
        {"account": "2100", "credit": "100.00", "job_id": str(job)},
    ]
    res = env.call(f"{app}.journal_entries.stage", entry_date="2026-01-31", description="bypass test", lines=lines)
    assert res["ok"] is True, res
    return res["data"]


@pytest.mark.parametrize("app", ERPS)
def test_an_entry_anywhere_in_a_closed_month_is_refused(env: Environment, app: str) -> None:
    """The staged batch's header entered again with a date in the middle or at the end of a
    closed month (or the period spelled another way) is refused: months compare normalised."""
    d = _erp(app)
    staged = _stage(env, app)
    t = d.t("je_open_hdr")
    table = f"{app}.{t.table}"
    id_col = t.n("doc_id") if t.has("doc_id") else t.n("batch_id")
    header = row(env, table, f"CAST({q(id_col)} AS VARCHAR) = {lit(str(staged['batch_id']))}")
    col = next(t.n(c) for c in ("mth", "gl_date", "act_date") if t.has(c))
    if t.has("mth") and d.period == "date":
        variants = [date(2025, 6, 15), date(2025, 6, 30), date(2025, 6, 1)]
    elif t.has("mth"):
        variants = ["2025-06-15", "2025-06 ", "2025/06", "202506" if d.period == "dash" else "2025-06"]
    else:
        variants = [date(2025, 6, 15), date(2025, 6, 30), datetime(2025, 6, 30, 23, 59)]
    skip = (col,) if col in env.catalog.get(table).pk else ()
    for value in variants:
        attempt(env, insert_sql(table, {**fresh_key(env, table, header, skip), col: value}), "rejected", "closed")
        if col not in env.catalog.get(table).pk:
            attempt(
                env,
                f"UPDATE {table} SET {q(col)} = {lit(value)} WHERE {key_where(env, table, header)}",
                "rejected",
                "closed",
            )
    # the same entry in the open month is an ordinary write (the refusals above are about the month)
    res = env.call("sql.execute", sql=insert_sql(table, fresh_key(env, table, header, skip)))
    assert res["ok"] is True and res["data"]["rows_affected"] == 1, res


@pytest.mark.parametrize("app", ERPS)
def test_a_posted_projection_is_signed_off(env: Environment, app: str) -> None:
    d = _erp(app)
    for logical, status in (("job", "etc_status"), ("budget", "proj_status")):
        t = d.t(logical)
        table = f"{app}.{t.table}"
        posted = row(env, table, f"{q(t.n(status))} = {lit(d.word('proj', 'posted'))}")
        where = key_where(env, table, posted)
        etc = q(t.n("etc_amount"))
        attempt(env, f"UPDATE {table} SET {etc} = {etc} + 1 WHERE {where}", "rejected", "posted")
        attempt(
            env,
            f"UPDATE {table} SET {q(t.n(status))} = {lit(d.word('proj', 'pending'))} WHERE {where}",
            "rejected",
            "posted",
        )
        attempt(env, f"UPDATE {table} SET {q(t.n(status))} = 'posted', {etc} = 0 WHERE {where}", "rejected")
    # the tool enters a new pending projection over the posted one; posting it stays guarded
    jt = d.t("job")
    job = row(env, f"{app}.{jt.table}", f"{q(jt.n('etc_status'))} = {lit(d.word('proj', 'posted'))}")
    res = env.call(f"{app}.jobs.update_estimate", job_id=str(job[jt.n("job_id")]), estimate_to_complete="1000.00")
    assert res["ok"] is True, res
    where = key_where(env, f"{app}.{jt.table}", job)
    attempt(env, f"UPDATE {app}.{q(jt.table)} SET {q(jt.n('etc_status'))} = 'POSTED' WHERE {where}", "staged")


@pytest.mark.parametrize("app", ERPS)
def test_commitments_contracts_and_budgets_change_only_by_change_order(env: Environment, app: str) -> None:
    d = _erp(app)
    sub = d.t("sub_hdr")
    table = f"{app}.{sub.table}"
    fixed = f" AND {q(sub.fixed[0])} = {lit(sub.fixed[1][0])}" if sub.fixed else ""
    s = row(env, table, f"{q(sub.n('status'))} = {lit(d.word('commit', 'approved'))}{fixed}")
    amount = q(sub.n("current_amount"))
    attempt(
        env, f"UPDATE {table} SET {amount} = {amount} + 1 WHERE {key_where(env, table, s)}", "rejected", "change order"
    )
    attempt(
        env,
        f"UPDATE {table} SET {q(sub.n('status'))} = {lit(d.word('commit', 'draft'))} WHERE {key_where(env, table, s)}",
        "rejected",
    )
    attempt(env, f"DELETE FROM {table} WHERE {key_where(env, table, s)}", "rejected")
    it = d.t("sub_item")
    link = " AND ".join(f"{q(it.n(c))} = {lit(s[sub.n(c)])}" for c in it.link)
    item_table = f"{app}.{it.table}"
    item = row(env, item_table, link)
    attempt(
        env, f"UPDATE {item_table} SET {q(it.n('amount'))} = 1 WHERE {key_where(env, item_table, item)}", "rejected"
    )
    attempt(env, f"DELETE FROM {item_table} WHERE {link}", "rejected")
    b = d.t("budget")
    btable = f"{app}.{b.table}"
    line = row(env, btable)
    attempt(
        env,
        f"UPDATE {btable} SET {q(b.n('orig_budget'))} = 1 WHERE {key_where(env, btable, line)}",
        "rejected",
        "budget",
    )
    attempt(env, f"DELETE FROM {btable} WHERE {key_where(env, btable, line)}", "rejected", "budget")
    co = d.t("co_hdr")
    ctable = f"{app}.{co.table}"
    approved = rows(env, ctable, f"{q(co.n('status'))} = {lit(d.word('co', 'approved'))}")
    if approved:
        where = key_where(env, ctable, approved[0])
        attempt(env, f"UPDATE {ctable} SET {q(co.n('contract_amount'))} = 1 WHERE {where}", "rejected", "approved")
        attempt(env, f"UPDATE {ctable} SET {q(co.n('status'))} = 'pending' WHERE {where}", "rejected", "approved")


@pytest.mark.parametrize("app", [a for a in ERPS if DIALECTS[a].t("ap_hdr").fixed])
def test_posting_words_are_recognised_in_any_case(env: Environment, app: str) -> None:
    d = _erp(app)
    hdr, op = d.t("ap_hdr"), d.t("ap_open_hdr")
    table = f"{app}.{op.table}"
    draft = row(env, table, f"{q(op.fixed[0])} = {lit(op.fixed[1][0])}")
    word = hdr.fixed[1][0]
    for spelled in (word.lower(), word.upper(), f" {word} "):
        attempt(
            env, f"UPDATE {table} SET {q(op.fixed[0])} = {lit(spelled)} WHERE {key_where(env, table, draft)}", "staged"
        )
    posted = row(env, table, f"{q(hdr.fixed[0])} = {lit(word)}")
    attempt(env, insert_sql(table, {**fresh_key(env, table, posted), hdr.fixed[0]: word.lower()}), "staged")
    attempt(
        env,
        f"UPDATE {table} SET {q(hdr.fixed[0])} = {lit(op.fixed[1][0])} WHERE {key_where(env, table, posted)}",
        "rejected",
        "posted",
    )
