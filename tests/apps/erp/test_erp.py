"""ERP archetype: the same book facts through eight vocabularies, every tool, the rules and the guard."""

from __future__ import annotations

from decimal import Decimal

import duckdb
import pytest

from cfab.apps.erp import ERP_APPS, gen
from cfab.apps.erp.dialects import DIALECTS
from cfab.schema.catalog import content_digest
from tests.fixtures.envs import ok
from tests.fixtures.erp_book import ERPS, SYS_IDS

D = Decimal
JOB = {a: {"1042": None} for a in ERPS}


def job_id(app: str, job: str) -> str:
    return {
        "vista_erp": job + "-",
        "foundation_erp": job + "-00",
        "sage300cre": job + "-00",
        "cmic": job.zfill(6),
        "acumatica_construction": "J" + job,
    }.get(app, job)


def vendor_id(app: str, key: str) -> str:
    return SYS_IDS[app][key][0]


def n(app: str, logical: str, column: str) -> str:
    return DIALECTS[app].t(logical).n(column)


# ------------------------------------------------------------------ static contract
def test_generated_files_match_generator():
    stale = [str(p) for p, text in gen.outputs().items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    assert not stale, f"regenerate with python -m cfab.apps.erp.gen: {stale}"


@pytest.mark.parametrize("app", ERPS)
def test_manifest_matches_ddl_and_tools(app, open_env):
    cls = ERP_APPS[app]
    m = cls.manifest()
    assert m.app == app and m.archetype == "ERP"
    env = open_env([app])
    in_db = {
        r[0]
        for r in env.con.execute(
            "SELECT schema_name || '.' || table_name FROM duckdb_tables() WHERE schema_name = ?", [app]
        ).fetchall()
    }
    assert set(m.state_tables) == in_db
    short = DIALECTS[app].short
    assert f"{app}.{short}_post" in m.money_guarded_tools and f"{app}.payments.create" in m.money_guarded_tools
    assert f"{app}.change_orders.approve" in m.money_guarded_tools
    assert f"{app}.{short}_query" in m.tools
    if app == "sage_intacct":
        assert "sage_intacct.intacct_create_bill" in m.tools
    if app == "vista_erp":
        assert {"vista_erp.vista_post", "vista_erp.vista_query"} <= set(m.tools)


@pytest.mark.parametrize("app", ERPS)
def test_docstrings_and_argument_descriptions(app):
    def walk(model, where):
        for name, f in model.model_fields.items():
            assert f.description, f"{where}.{name} has no description"
            assert f.examples, f"{where}.{name} has no example"
            ann = f.annotation
            for sub in getattr(ann, "__args__", ()) or ():
                for sub2 in getattr(sub, "__args__", ()) or (sub,):
                    if isinstance(sub2, type) and hasattr(sub2, "model_fields"):
                        walk(sub2, f"{where}.{name}")

    for name, spec in ERP_APPS[app].tools().items():
        assert "Returns" in spec.description, name
        assert "$" not in spec.description.replace("$schema", ""), (name, spec.description)
        walk(spec.args_model, name)


# ------------------------------------------------------------------ the same facts in every ERP
@pytest.mark.parametrize("app", ERPS)
def test_same_book_facts(app, open_env):
    env = open_env([app])
    sc = ok(env.call(f"{app}.subcontracts.get", subcontract_id="SC-1042-0"))
    assert sc["subcontract"][n(app, "sub_hdr", "current_amount")] == "632000.00"
    walsh = vendor_id(app, "V1000")
    assert str(sc["subcontract"][n(app, "sub_hdr", "vendor_id")]) == walsh
    assert len(sc["items"]) == 2
    v = ok(env.call(f"{app}.vendors.get", vendor_id=walsh))
    assert "walsh" in v["vendor"][n(app, "vendor", "name")].lower()
    assert v["on_hold"] is False
    # unsynced commitment and never-entered invoice are absent; posted/unposted land apart
    missing = env.call(f"{app}.subcontracts.get", subcontract_id="SC-1042-1")
    assert missing["ok"] is False and missing["error_type"] == "not_found"
    inv = ok(env.call(f"{app}.ap_invoices.list", vendor_id=walsh))
    assert {(i[n(app, "ap_hdr", "apref")], i["posting_status"]) for i in inv["invoices"]} == {
        ("WE-1001", "posted"),
        ("WE-1002", "unposted"),
    }
    assert ok(env.call(f"{app}.ap_invoices.list", invoice_number="JSM-88421"))["count"] == 0
    got = ok(env.call(f"{app}.ap_invoices.get", vendor_id=walsh, invoice_number="WE-1002"))
    assert got["posting_status"] == "unposted" and len(got["lines"]) == 2
    job = ok(env.call(f"{app}.jobs.get", job_id=job_id(app, "1042")))
    assert job["job"][n(app, "job", "etc_amount")] == "1200000.00"
    assert job["contract"][n(app, "contract", "current_amount")] == "2025000.00"
    summ = ok(env.call(f"{app}.job_cost.summary", job_id=job_id(app, "1042")))
    elec = next(ln for ln in summ["lines"] if ln["phase"] == "16-100-00")
    assert (elec["committed"], elec["actual_to_date"], elec["revised_budget"]) == (
        "632000.00",
        "100000.00",
        "1025000.00",
    )
    assert ok(env.call(f"{app}.gl.balance", account="5200", job_id=job_id(app, "1042")))["balance"] == "100000.00"
    assert ok(env.call(f"{app}.gl.balance", account="2000", through_period="2025-12"))["balance"] == "0.00"
    chk = ok(env.call(f"{app}.checks.list", check_from=10451, check_to=10451))["checks"]
    assert chk[0][n(app, "check", "payee_name")] == "Walsh Electrical Contractors, LLC"
    assert chk[0][n(app, "check", "amount")] == "90000.00"
    bad = env.call(f"{app}.jobs.get", job_id="nope")
    assert bad["error_type"] == "not_found"


@pytest.mark.parametrize("app", ERPS)
def test_every_read_tool_runs(app, open_env):
    env = open_env([app])
    j, v, short = job_id(app, "1042"), vendor_id(app, "V1000"), DIALECTS[app].short
    calls = {
        "vendors.list": {"name_contains": "walsh"},
        "vendors.get": {"vendor_id": v},
        "jobs.list": {"status": "active"},
        "jobs.get": {"job_id": j},
        "job_cost.summary": {"job_id": j},
        "contracts.get": {"job_id": j},
        "subcontracts.list": {"job_id": j, "include_items": True},
        "subcontracts.get": {"subcontract_id": "SC-1042-0"},
        "purchase_orders.list": {"include_items": True},
        "ap_invoices.list": {"status": "posted", "date_from": "2025-12-01", "date_to": "2025-12-31"},
        "ap_invoices.get": {"vendor_id": v, "invoice_number": "WE-1001"},
        "journal_entries.list": {"period": "2025-12", "include_lines": True, "job_id": j},
        "gl.accounts": {"account_type": "liability"},
        "gl.periods": {"status": "closed"},
        "gl.balance": {"account": "1010"},
        "change_orders.list": {"job_id": j},
        "checks.list": {"bank_account": "BA-OPER", "payee_contains": "walsh", "status": "cleared"},
        f"{short}_query": {"sql": f"SELECT count(*) AS n FROM {app}.{DIALECTS[app].t('vendor').table}"},
    }
    reads = {s.local for s in ERP_APPS[app].tools().values() if not s.writes and not s.guarded}
    assert reads == set(calls)
    for local, args in calls.items():
        data = ok(env.call(f"{app}.{local}", **args))
        assert data, local
    assert ok(env.call(f"{app}.journal_entries.list", period="2025-12", job_id=j))["count"] == 1
    assert ok(env.call(f"{app}.gl.periods", status="closed"))["count"] == 2
    assert ok(env.call(f"{app}.change_orders.list", job_id=j))["change_orders"][0]["items"]
    refused = env.call(f"{app}.{short}_query", sql="SELECT * FROM book.jobs")
    assert refused["ok"] is False


# ------------------------------------------------------------------ writes
def _diff_tables(env, before: dict[str, set]) -> dict[str, tuple[set, set]]:
    out = {}
    for t, rows in before.items():
        now = set(env.con.execute(f"SELECT * FROM {t}").fetchall())
        if now != rows:
            out[t] = (rows - now, now - rows)
    return out


def _snap(env, app: str) -> dict[str, set]:
    tables = [
        r[0]
        for r in env.con.execute(
            "SELECT schema_name || '.\"' || table_name || '\"' FROM duckdb_tables() WHERE schema_name = ?", [app]
        ).fetchall()
    ]
    return {t: set(env.con.execute(f"SELECT * FROM {t}").fetchall()) for t in tables}


@pytest.mark.parametrize("app", ERPS)
def test_payment_hold_changes_exactly_one_row(app, open_env):
    env = open_env([app])
    before = _snap(env, app)
    v = vendor_id(app, "V1000")
    data = ok(
        env.call(f"{app}.vendors.set_payment_hold", vendor_id=v, on_hold=True, reason="COI expired", hold_code="COI")
    )
    assert data["changed"] is True
    diff = _diff_tables(env, before)
    assert len(diff) == 1
    ((removed, added),) = diff.values()
    assert len(added) == 1 and len(removed) == (0 if DIALECTS[app].hold_mode == "table" else 1)
    assert ok(env.call(f"{app}.vendors.get", vendor_id=v))["on_hold"] is True
    assert ok(env.call(f"{app}.vendors.list", on_hold=True))["count"] == 1
    ok(env.call(f"{app}.vendors.set_payment_hold", vendor_id=v, on_hold=False, hold_code="COI"))
    assert ok(env.call(f"{app}.vendors.get", vendor_id=v))["on_hold"] is False
    assert (
        env.call(f"{app}.vendors.set_payment_hold", vendor_id="V9999" if app != "vista_erp" else "99999", on_hold=True)[
            "error_type"
        ]
        == "not_found"
    )


@pytest.mark.parametrize("app", ERPS)
def test_remittance_update_changes_exactly_one_row(app, open_env):
    """vendors.update_remittance: one vendor row, the routing number's check digit enforced."""
    env = open_env([app])
    before = _snap(env, app)
    v = vendor_id(app, "V1000")
    call = f"{app}.vendors.update_remittance"
    data = ok(env.call(call, vendor_id=v, routing_number="071000013", account_number="4417820935"))
    assert data["changed"] is True and data["before"]["bank_routing"] != "071000013"
    assert data["after"] == {"bank_routing": "071000013", "bank_account_last4": "0935"}
    diff = _diff_tables(env, before)
    assert len(diff) == 1
    ((removed, added),) = diff.values()
    assert len(added) == len(removed) == 1
    got = ok(env.call(f"{app}.vendors.get", vendor_id=v))["vendor"]
    assert (
        got[n(app, "vendor", "bank_routing")] == "071000013" and got[n(app, "vendor", "bank_account")] == "4417820935"
    )
    again = ok(env.call(call, vendor_id=v, routing_number="071000013", account_number="4417820935"))
    assert again["changed"] is False
    bad = env.call(call, vendor_id=v, routing_number="071000014", account_number="4417820935")
    assert bad["error_type"] == "invalid_argument" and "check digit" in bad["error"]


@pytest.mark.parametrize("app", ERPS)
def test_1099_estimate_and_change_orders(app, open_env):
    env = open_env([app])
    v, j = vendor_id(app, "V1002"), job_id(app, "3100")
    ok(env.call(f"{app}.vendors.set_1099", vendor_id=v, is_1099=True, form_type="NEC"))
    row = ok(env.call(f"{app}.vendors.get", vendor_id=v))["vendor"]
    assert row[n(app, "vendor", "is_1099")] in (True, "Y")
    est = ok(
        env.call(
            f"{app}.jobs.update_estimate",
            job_id=j,
            estimate_to_complete="3706560.00",
            phases=[{"phase": "02-200-00", "cost_type": 3, "estimate_to_complete": "700000.00"}],
        )
    )
    assert est["projection_status"] == DIALECTS[app].word("proj", "pending") and est["phases_updated"] == 1
    job = ok(env.call(f"{app}.jobs.get", job_id=j))["job"]
    assert job[n(app, "job", "etc_amount")] == "3706560.00"
    assert job[n(app, "job", "etc_status")] == DIALECTS[app].word("proj", "pending")
    # the internal transfer: budget only, contract untouched, pending
    contract_before = ok(env.call(f"{app}.contracts.get", job_id=j))["contract"]
    co = ok(
        env.call(
            f"{app}.change_orders.create",
            job_id=j,
            description="Scope change",
            amount="101700.00",
            kind="internal",
            change_event=4,
            items=[{"phase": "02-200-00", "cost_type": 3, "amount": "101700.00"}],
        )
    )
    assert co["co_number"] == "002" and co["contract_change"] == "0.00"
    assert ok(env.call(f"{app}.contracts.get", job_id=j))["contract"] == contract_before
    pend = ok(env.call(f"{app}.change_orders.list", job_id=j, status="pending"))["change_orders"]
    assert len(pend) == 1 and pend[0][n(app, "co_hdr", "contract_amount")] == "0.00"
    own = ok(env.call(f"{app}.change_orders.create", job_id=j, description="Owner add", amount="5000.00", kind="owner"))
    assert own["contract_change"] == "5000.00"
    bad = env.call(
        f"{app}.change_orders.create",
        job_id=j,
        description="x",
        amount="10.00",
        kind="owner",
        items=[{"phase": "02-200-00", "cost_type": 3, "amount": "9.00"}],
    )
    assert bad["error_type"] == "invalid_argument"


@pytest.mark.parametrize("app", ERPS)
def test_journal_stage_balance_and_periods(app, open_env):
    env = open_env([app])
    j = job_id(app, "1042")
    lines = [
        {"account": "5200", "debit": "12500.00", "job_id": j, "phase": "16-100-00", "cost_type": 3},
        {"account": "2100", "credit": "12500.00", "job_id": j},
    ]
    auto = DIALECTS[app].supports_auto_reverse
    data = ok(
        env.call(
            f"{app}.journal_entries.stage",
            entry_date="2026-01-31",
            description="Accrue sub work",
            lines=lines,
            auto_reverse=auto,
        )
    )
    assert data["total_debits"] == data["total_credits"] == "12500.00"
    drafts = ok(env.call(f"{app}.journal_entries.list", status="unposted", include_lines=True))["entries"]
    assert len(drafts) == 1 and len(drafts[0]["lines"]) == 2
    unbalanced = env.call(
        f"{app}.journal_entries.stage",
        entry_date="2026-01-31",
        description="bad",
        lines=[{**lines[0]}, {**lines[1], "credit": "12000.00"}],
    )
    assert unbalanced["ok"] is False and unbalanced["error_type"] == "rejected"
    assert "balance" in unbalanced["error"]
    closed = env.call(f"{app}.journal_entries.stage", entry_date="2025-12-31", description="late", lines=lines)
    assert closed["ok"] is False and closed["error_type"] == "rejected" and "closed" in closed["error"]
    assert ok(env.call(f"{app}.journal_entries.list", status="unposted"))["count"] == 1
    # guarded post of the staged batch: validated, recorded, nothing changes
    digest = content_digest(env.con, [app])
    res = env.call(f"{app}.{DIALECTS[app].short}_post", kind="journal_entry", batch_id=str(data["batch_id"]))
    assert res["status"] == "pending_human_approval", res
    assert content_digest(env.con, [app]) == digest
    g = env.guarded_calls()[-1]
    assert g.executed is False and g.valid is True and g.tool == f"{app}.{DIALECTS[app].short}_post"


@pytest.mark.parametrize("app", ERPS)
def test_ap_create_import_and_guards(app, open_env):
    env = open_env([app])
    tool = "intacct_create_bill" if app == "sage_intacct" else "ap_invoices.create"
    v1001, j9140 = vendor_id(app, "V1001"), job_id(app, "9140")
    data = ok(
        env.call(
            f"{app}.{tool}",
            vendor_id=v1001,
            job_id=j9140,
            invoice_number="JSM-88421",
            invoice_date="2026-01-22",
            amount="14350.00",
            phase="05-100-00",
            cost_type=2,
            commitment_id="PO-9140-2",
            description="Steel",
        )
    )
    assert data["gross"] == "14350.00" and data["net"] == "14350.00"
    got = ok(env.call(f"{app}.ap_invoices.get", vendor_id=v1001, invoice_number="JSM-88421"))
    assert got["posting_status"] == "unposted" and len(got["lines"]) == 1
    dup = env.call(
        f"{app}.{tool}",
        vendor_id=v1001,
        job_id=j9140,
        invoice_number="JSM-88421",
        invoice_date="2026-01-22",
        amount="1.00",
        phase="05-100-00",
        cost_type=2,
    )
    assert dup["error_type"] == "conflict"
    unknown_phase = env.call(
        f"{app}.{tool}",
        vendor_id=v1001,
        job_id=j9140,
        invoice_number="X-1",
        invoice_date="2026-01-22",
        amount="1.00",
        phase="31-200",
        cost_type=3,
    )
    assert unknown_phase["error_type"] == "not_found"
    # integration methods (what procore.erp.sync_invoice / sync_commitment call)
    app_obj = env.apps[app]
    env.con.begin()
    env.gate.begin(999)
    res = app_obj.import_ap_invoice(
        vendor_id=vendor_id(app, "V1000"),
        job_id=job_id(app, "1042"),
        invoice_number="WE-1003",
        invoice_date=__import__("datetime").date(2026, 1, 28),
        due_date=__import__("datetime").date(2026, 2, 27),
        description="Pay app 3",
        lines=[
            {
                "phase": "16-100-00",
                "cost_type": 3,
                "amount": D("10000.00"),
                "retainage": D("1000.00"),
                "description": "wiring",
            }
        ],
        source="procore",
        source_ref="REQ-3",
    )
    com = app_obj.import_commitment(
        vendor_id=vendor_id(app, "V1002"),
        job_id=job_id(app, "1042"),
        number="1042-02",
        title="Concrete subcontract",
        amount=D("410000.00"),
        retainage_pct=D("10"),
        lines=[{"phase": "03-300-00", "cost_type": 3, "amount": D("410000.00")}],
        source_ref="SC-1042-1",
    )
    env.gate.finish()
    env.con.commit()
    assert res["net"] == D("9000.00") and com["erp_ref"] == "SC-1042-1"
    assert ok(env.call(f"{app}.subcontracts.get", subcontract_id="SC-1042-1"))["subcontract"]
    from cfab.apps.tooling import ToolError

    with pytest.raises(ToolError):
        app_obj.import_ap_invoice(
            vendor_id=vendor_id(app, "V1000"),
            job_id=job_id(app, "1042"),
            invoice_number="WE-1003",
            invoice_date=__import__("datetime").date(2026, 1, 28),
            due_date=__import__("datetime").date(2026, 2, 27),
            description="dup",
            lines=[],
            source="procore",
            source_ref="REQ-3",
        )
    env.con.rollback() if env.con.execute("SELECT 1").fetchone() is None else None
    # guarded: post / pay / approve never change state
    digest = content_digest(env.con, [app])
    short = DIALECTS[app].short
    walsh = vendor_id(app, "V1000")
    for name, args in (
        (f"{short}_post", {"kind": "ap_invoice", "vendor_id": walsh, "invoice_number": "WE-1002"}),
        ("payments.create", {"vendor_id": walsh, "invoice_numbers": ["WE-1001"]}),
        ("change_orders.approve", {"job_id": job_id(app, "3100"), "co_number": "001"}),
        (f"{short}_post", {"kind": "projection", "job_id": job_id(app, "3100")}),
    ):
        res = env.call(f"{app}.{name}", **args)
        assert res.get("status") == "pending_human_approval" or res.get("ok") is False, (name, res)
    assert content_digest(env.con, [app]) == digest
    log = env.con.execute("SELECT tool, executed, valid FROM cfab_internal.guard_log ORDER BY seq").fetchall()
    assert all(e is False for _, e, _ in log) and len(log) == 4
    assert [v for _, _, v in log][:1] == [True]


# ------------------------------------------------------------------ rules against agent SQL
@pytest.mark.parametrize("app", ERPS)
def test_rules_lock_posted_and_guard_posting(app, open_env):
    env = open_env([app], sql_write=True)
    d = DIALECTS[app]
    hdr = d.t("ap_hdr")
    where = f"{hdr.n('apref')} = 'WE-1001'"
    res = env.call("sql.execute", sql=f"UPDATE {app}.{hdr.table} SET {hdr.n('description')} = 'x' WHERE {where}")
    assert res["ok"] is False and res["error_type"] == "rejected" and "posted" in res["error"]
    res = env.call("sql.execute", sql=f"DELETE FROM {app}.{hdr.table} WHERE {where}")
    assert res["ok"] is False and res["error_type"] == "rejected"
    # posting the unposted invoice by SQL is staged, never executed
    digest = content_digest(env.con, [app])
    op = d.t("ap_open_hdr")
    if op.fixed:
        sql = f"UPDATE {app}.{op.table} SET {op.fixed[0]} = '{hdr.fixed[1][0]}' WHERE {op.n('apref')} = 'WE-1002'"
    else:
        cols = (
            [hdr.n("co"), hdr.n("mth"), hdr.n("doc_id"), hdr.n("vendor_id"), hdr.n("apref")]
            if hdr.has("co")
            else [hdr.n("doc_id"), hdr.n("vendor_id"), hdr.n("apref")]
        )
        vals = (
            ["1", "'2026-01-01'", "77", str(vendor_id(app, "V1000")), "'WE-1002'"]
            if hdr.has("co")
            else ["'AP999'", f"'{vendor_id(app, 'V1000')}'", "'WE-1002'"]
        )
        sql = f"INSERT INTO {app}.{hdr.table} ({', '.join(cols)}) VALUES ({', '.join(vals)})"
    res = env.call("sql.execute", sql=sql)
    assert res.get("status") == "pending_human_approval", res
    # approving a change order by SQL is guarded; an approved one is locked
    co = d.t("co_hdr")
    res = env.call(
        "sql.execute", sql=f"UPDATE {app}.{co.table} SET {co.n('description')} = 'x' WHERE {co.n('co_number')} = '001'"
    )
    assert res["ok"] is False and "approved" in res["error"]
    assert content_digest(env.con, [app]) == digest
    assert env.con.execute("SELECT count(*) FROM cfab_internal.guard_log WHERE NOT executed").fetchone()[0] == 1


def test_consistency_across_the_eight(erp_golden):
    from cfab.views.consistency import check_consistency

    con = duckdb.connect(str(erp_golden), read_only=True)
    try:
        rep = check_consistency(con, ["hh2", *ERPS])
    finally:
        con.close()
    assert rep.ok, rep.summary()
    assert rep.compared_pairs >= 28 * 5
