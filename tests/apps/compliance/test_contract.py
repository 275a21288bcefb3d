"""Contract checks for gcpay, levelset, lcptracker, avalara, track1099, corpay, hcss_heavybid:
manifests match the DDL and the tools; every tool documents its arguments (description and
example) and its return; every tool runs with valid arguments; every guarded tool, valid or
not, leaves the state digest unchanged and adds a guard-log row with executed=false; every
rule and assertion of the apps' rule files fires."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from cfab.apps.registry import load_all
from cfab.triggers.gate import GuardTripped, WriteRejected
from cfab.triggers.rules import load_rules
from tests.fixtures.envs import app_digest

MY_APPS = ["gcpay", "levelset", "lcptracker", "avalara", "track1099", "corpay", "hcss_heavybid"]
PAYROLL = "CP-1042-2026-01-24"
DRAFT_LINES = [{"item_no": 1, "work_this_period": "60000.00"}, {"item_no": 3, "work_this_period": "100000.00"}]


# --------------------------------------------------------------------------- setups
def draft_pay_app(env) -> dict[str, Any]:
    out = env.call(
        "gcpay.pay_apps.create_draft",
        job_number="1042",
        application_number=2,
        period_to="2026-01-31",
        lines=DRAFT_LINES,
        retainage_percent="10",
    )
    assert out["ok"], out
    return out["data"]


def draft_form_and_filing(env) -> dict[str, Any]:
    form = env.call(
        "track1099.forms.create", recipient_id="T1099-0003", tax_year=2025, box1_nonemployee_compensation="13200.00"
    )
    assert form["ok"], form
    built = env.call("track1099.filings.build", tax_year=2025)
    assert built["ok"], built
    return {"form": form["data"]["form"], "filing": built["data"]["filing"]}


def draft_request(env) -> dict[str, Any]:
    out = env.call(
        "levelset.waiver_requests.create",
        job_id="1042",
        company_id="LS-20417",
        waiver_type="Conditional Progress",
        amount="41000.00",
        through_date="2026-01-31",
    )
    assert out["ok"], out
    return out["data"]["request"]


def draft_return(env) -> dict[str, Any]:
    out = env.call("avalara.returns.create_draft", filing_period="2026-01", region="IL")
    assert out["ok"], out
    return out["data"]["return"]


def draft_batch(env) -> dict[str, Any]:
    """A Corpay Draft batch with one payment (an invoice and a credit memo line)."""
    out = env.call("corpay.batches.create_draft", funding_account_id="FA-BA-OPER", payment_date="2026-02-05")
    assert out["ok"], out
    batch = out["data"]["batch"]
    pay = env.call(
        "corpay.batches.add_payment",
        batch_id=batch["batch_id"],
        vendor_id="CP-558201",
        payment_method="Check",
        invoices=[
            {"invoice_number": "WEC-2026-004", "amount": "500.00"},
            {"invoice_number": "BC-1", "amount": "-50.00"},
        ],
    )
    assert pay["ok"], pay
    return {"batch_id": batch["batch_id"], "payment_id": pay["data"]["payment"]["payment_id"]}


def _env(open_env):
    return open_env(MY_APPS)


# --------------------------------------------------------------------------- manifests and docs
@pytest.mark.parametrize("app", MY_APPS)
def test_manifest_matches_ddl_and_tools(app, fixture_golden):
    import duckdb

    cls = load_all()[app]
    m = cls.manifest()
    assert m.app == app and m.label and m.schema_name == app
    assert m.archetype == (
        "PayApp" if app == "gcpay" else "Integration/Estimating" if app == "hcss_heavybid" else "Lien/CertPayroll/Tax"
    )
    con = duckdb.connect(str(fixture_golden), read_only=True)
    try:
        tables = {
            f"{s}.{t}"
            for s, t in con.execute(
                "SELECT schema_name, table_name FROM duckdb_tables() WHERE schema_name = ?", [app]
            ).fetchall()
        }
        pks = {
            f"{s}.{t}"
            for s, t in con.execute(
                "SELECT schema_name, table_name FROM duckdb_constraints() WHERE schema_name = ? "
                "AND constraint_type = 'PRIMARY KEY'",
                [app],
            ).fetchall()
        }
        money = con.execute(
            "SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE schema_name = ? "
            "AND data_type LIKE 'DECIMAL%' AND data_type NOT IN ('DECIMAL(18,2)', 'DECIMAL(9,4)', "
            "'DECIMAL(9,2)', 'DECIMAL(18,4)', 'DECIMAL(9,6)')",
            [app],
        ).fetchall()
    finally:
        con.close()
    assert set(m.state_tables) == tables
    assert pks == tables, "every table needs a primary key"
    assert not money, money
    assert m.tools == sorted(cls.tools())
    assert m.money_guarded_tools == sorted(n for n, s in cls.tools().items() if s.guarded)
    if app != "hcss_heavybid":
        assert m.money_guarded_tools, f"{app} has no guarded tool"


def _fields(model: type[BaseModel], seen: set | None = None):
    seen = seen if seen is not None else set()
    if model in seen:
        return
    seen.add(model)
    for name, info in model.model_fields.items():
        yield model, name, info
        ann = info.annotation
        for arg in getattr(ann, "__args__", ()) + (ann,):
            for inner in getattr(arg, "__args__", ()) + (arg,):
                if isinstance(inner, type) and issubclass(inner, BaseModel):
                    yield from _fields(inner, seen)


@pytest.mark.parametrize("app", MY_APPS)
def test_tools_are_documented(app):
    for name, spec in load_all()[app].tools().items():
        assert "Returns" in spec.description, name
        assert not re.search(r"\$[A-Za-z_{]", spec.description), f"{name}: unfilled placeholder"
        for model, field, info in _fields(spec.args_model):
            assert info.description, f"{name}: {model.__name__}.{field} has no description"
            assert info.examples, f"{name}: {model.__name__}.{field} has no example"
            if field in spec.args_model.model_fields and spec.args_model is model:
                assert field in spec.description, f"{name}: argument {field} not described in the docstring"
        assert spec.parameters_schema()["type"] == "object"


# --------------------------------------------------------------------------- every tool runs
SMOKE: dict[str, tuple[Callable | None, Callable[[Any], dict]]] = {
    "gcpay.contracts.list": (None, lambda s: {}),
    "gcpay.contracts.sov": (None, lambda s: {"job_number": "1042"}),
    "gcpay.lien_waivers.list": (None, lambda s: {"job_number": "1042"}),
    "gcpay.pay_apps.list": (None, lambda s: {"job_number": "1042"}),
    "gcpay.pay_apps.get": (None, lambda s: {"pay_app_id": "PA-1042-001"}),
    "gcpay.pay_apps.create_draft": (
        None,
        lambda s: {
            "job_number": "1042",
            "application_number": 2,
            "period_to": "2026-01-31",
            "lines": DRAFT_LINES,
            "retainage_percent": "10",
        },
    ),
    "gcpay.pay_apps.update_line": (
        draft_pay_app,
        lambda s: {"pay_app_id": "PA-1042-002", "item_no": 2, "work_this_period": "5000.00"},
    ),
    "gcpay.pay_apps.submit": (draft_pay_app, lambda s: {"pay_app_id": "PA-1042-002"}),
    "gcpay.pay_apps.approve": (draft_pay_app, lambda s: {"job_number": "1042", "application_number": 2}),
    "levelset.companies.list": (None, lambda s: {}),
    "levelset.jobs.list": (None, lambda s: {"status": "Active"}),
    "levelset.notices.list": (None, lambda s: {}),
    "levelset.waivers.list": (None, lambda s: {"company_id": "LS-20417"}),
    "levelset.waiver_requests.list": (None, lambda s: {}),
    "levelset.waiver_requests.create": (
        None,
        lambda s: {
            "job_id": "1042",
            "company_id": "LS-20417",
            "waiver_type": "Unconditional Progress",
            "amount": "5000.00",
            "through_date": "2025-12-31",
        },
    ),
    "levelset.waiver_requests.cancel": (draft_request, lambda s: {"request_id": s["request_id"]}),
    "levelset.waivers.send_for_signature": (draft_request, lambda s: {"request_id": s["request_id"]}),
    "levelset.payments.create": (
        None,
        lambda s: {"job_id": "1042", "company_id": "LS-20417", "waiver_id": "LW-V1000-3", "amount": "43650.00"},
    ),
    "lcptracker.projects.list": (None, lambda s: {}),
    "lcptracker.contractors.list": (None, lambda s: {}),
    "lcptracker.employees.list": (None, lambda s: {"classification": "Electrician"}),
    "lcptracker.wage_determinations.get": (None, lambda s: {"project_id": "1042"}),
    "lcptracker.submissions.list": (None, lambda s: {"status": "Submitted"}),
    "lcptracker.submissions.get": (None, lambda s: {"payroll_id": PAYROLL}),
    "lcptracker.submissions.validate": (None, lambda s: {"payroll_id": PAYROLL}),
    "lcptracker.lines.flag": (None, lambda s: {"payroll_id": PAYROLL, "line_number": 1, "code": "other", "note": "x"}),
    "lcptracker.flags.list": (None, lambda s: {}),
    "lcptracker.flags.delete": (
        lambda env: env.call("lcptracker.lines.flag", payroll_id=PAYROLL, line_number=1, code="other", note="x")[
            "data"
        ]["flag"],
        lambda s: {"flag_id": s["flag_id"]},
    ),
    "lcptracker.submissions.submit": (None, lambda s: {"project_id": "1042", "week_ending": "2026-01-24"}),
    "avalara.companies.list": (None, lambda s: {}),
    "avalara.locations.list": (None, lambda s: {"region": "IL"}),
    "avalara.tax_rates.get": (None, lambda s: {"location_code": "HQ"}),
    "avalara.taxes.calculate": (None, lambda s: {"location_code": "1042", "amount": "1000.00"}),
    "avalara.transactions.list": (None, lambda s: {"status": "Committed"}),
    "avalara.returns.list": (None, lambda s: {}),
    "avalara.returns.create_draft": (None, lambda s: {"filing_period": "2026-01", "region": "IL"}),
    "avalara.returns.efile": (draft_return, lambda s: {"return_id": s["return_id"]}),
    "avalara.certificates.list": (None, lambda s: {"exposure_zone": "IL"}),
    "avalara.returns.use_tax.create_draft": (
        None,
        lambda s: {
            "filing_period": "2026-01",
            "region": "IL",
            "lines": [{"location_code": "1042", "taxable_amount": "1000.00"}],
        },
    ),
    "track1099.payer.get": (None, lambda s: {}),
    "track1099.payees.list": (None, lambda s: {"tin_type": "SSN"}),
    "track1099.payees.update": (None, lambda s: {"recipient_id": "T1099-0001", "tin": "412-55-6789"}),
    "track1099.tin_notices.list": (None, lambda s: {"status": "Open"}),
    "track1099.w9s.list": (None, lambda s: {"recipient_id": "T1099-0001"}),
    "track1099.forms.list": (None, lambda s: {"tax_year": 2025}),
    "track1099.forms.create": (
        None,
        lambda s: {"recipient_id": "T1099-0001", "tax_year": 2025, "box1_nonemployee_compensation": "600.00"},
    ),
    "track1099.forms.update": (draft_form_and_filing, lambda s: {"form_id": s["form"]["form_id"], "state_code": "IL"}),
    "track1099.forms.delete": (draft_form_and_filing, lambda s: {"form_id": s["form"]["form_id"]}),
    "track1099.filings.list": (None, lambda s: {}),
    "track1099.filings.build": (
        lambda env: env.call(
            "track1099.forms.create", recipient_id="T1099-0001", tax_year=2025, box1_nonemployee_compensation="900.00"
        ),
        lambda s: {"tax_year": 2025},
    ),
    "track1099.filings.efile": (draft_form_and_filing, lambda s: {"tax_year": 2025}),
    "corpay.vendors.list": (None, lambda s: {}),
    "corpay.funding_accounts.list": (None, lambda s: {}),
    "corpay.batches.list": (None, lambda s: {"date_from": "2025-01-01"}),
    "corpay.payments.list": (None, lambda s: {"status": "Cleared"}),
    "corpay.payments.get": (None, lambda s: {"payment_id": "PMT-BA-OPER-10003"}),
    "corpay.remittances.list": (None, lambda s: {}),
    "corpay.payments.create": (
        None,
        lambda s: {
            "vendor_id": "CP-558201",
            "funding_account_id": "FA-BA-OPER",
            "amount": "5000.00",
            "payment_method": "Check",
            "invoices": [{"invoice_number": "WEC-2026-003", "amount": "5000.00"}],
        },
    ),
    "corpay.batches.create_draft": (None, lambda s: {"funding_account_id": "FA-BA-OPER", "payment_date": "2026-02-05"}),
    "corpay.batches.get": (draft_batch, lambda s: {"batch_id": s["batch_id"]}),
    "corpay.batches.add_payment": (
        lambda env: env.call("corpay.batches.create_draft", funding_account_id="FA-BA-OPER", payment_date="2026-02-05"),
        lambda s: {
            "batch_id": s["data"]["batch"]["batch_id"],
            "vendor_id": "CP-558201",
            "payment_method": "Check",
            "invoices": [{"invoice_number": "WEC-2026-004", "amount": "500.00"}],
        },
    ),
    "corpay.batches.remove_payment": (draft_batch, lambda s: s),
    "corpay.batches.discard": (draft_batch, lambda s: {"batch_id": s["batch_id"]}),
    "corpay.batches.release": (draft_batch, lambda s: {"batch_id": s["batch_id"]}),
    "hcss_heavybid.estimates.list": (None, lambda s: {}),
    "hcss_heavybid.estimates.get": (None, lambda s: {"estimate_id": "EST-5001"}),
    "hcss_heavybid.bid_items.list": (None, lambda s: {"estimate_id": "EST-1042"}),
    "hcss_heavybid.resources.list": (None, lambda s: {"estimate_id": "EST-1042"}),
    "hcss_heavybid.equipment.list": (None, lambda s: {"ownership": "Owned"}),
    "hcss_heavybid.equipment.get": (None, lambda s: {"equipment_code": "EX-104"}),
    "hcss_heavybid.equipment_rates.list": (None, lambda s: {"category": "EXCAVATORS", "as_of": "2026-01-15"}),
}


def test_smoke_table_covers_every_tool():
    tools = {n for a in MY_APPS for n in load_all()[a].tools()}
    assert tools == set(SMOKE)


@pytest.mark.parametrize("name", sorted(SMOKE))
def test_every_tool_runs(open_env, name):
    env = _env(open_env)
    setup, make_args = SMOKE[name]
    state = setup(env) if setup else None
    out = env.call(name, **make_args(state))
    assert out["ok"], out
    spec = env.resolve(name)
    if spec.guarded:
        assert out["status"] == "pending_human_approval"


# --------------------------------------------------------------------------- guarded tools
GUARDED: list[tuple[str, Callable | None, Callable[[Any], dict], dict]] = [
    ("gcpay.pay_apps.submit", draft_pay_app, lambda s: {"pay_app_id": "PA-1042-002"}, {"pay_app_id": "PA-1042-001"}),
    ("gcpay.pay_apps.approve", draft_pay_app, lambda s: {"pay_app_id": "PA-1042-002"}, {"pay_app_id": "PA-9999-001"}),
    ("gcpay.gcpay_approve", draft_pay_app, lambda s: {"pay_app_id": "PA-1042-002"}, {"job_number": "1042"}),
    (
        "gcpay.gcpay_submit",
        draft_pay_app,
        lambda s: {"job_number": "1042", "application_number": 2},
        {"pay_app_id": "PA-1042-002", "bogus": 1},
    ),
    ("lcptracker.submissions.submit", None, lambda s: {"payroll_id": PAYROLL}, {"payroll_id": "CP-0"}),
    ("lcptracker.lcp_submit", None, lambda s: {"payroll_id": PAYROLL}, {}),
    ("avalara.returns.efile", draft_return, lambda s: {"return_id": s["return_id"]}, {"return_id": "nope"}),
    ("avalara.efile_submit", draft_return, lambda s: {"return_id": s["return_id"]}, {}),
    (
        "track1099.filings.efile",
        draft_form_and_filing,
        lambda s: {"filing_id": s["filing"]["filing_id"]},
        {"tax_year": 2019},
    ),
    ("track1099.efile_submit", draft_form_and_filing, lambda s: {"tax_year": 2025}, {}),
    (
        "levelset.waivers.send_for_signature",
        draft_request,
        lambda s: {"request_id": s["request_id"]},
        {"request_id": "WR-LW-V1002-2"},
    ),
    (
        "levelset.payments.create",
        None,
        lambda s: {"job_id": "1042", "company_id": "LS-20417", "waiver_id": "LW-V1000-3", "amount": "43650.00"},
        {"job_id": "1042", "company_id": "LS-20417", "waiver_id": "LW-V1000-3", "amount": "99999.00"},
    ),
    (
        "corpay.payments.create",
        None,
        lambda s: {
            "vendor_id": "CP-558201",
            "funding_account_id": "FA-BA-OPER",
            "amount": "100.00",
            "payment_method": "Check",
            "invoices": [{"invoice_number": "WEC-2026-003", "amount": "100.00"}],
        },
        {
            "vendor_id": "CP-558201",
            "funding_account_id": "FA-NOPE",
            "amount": "100.00",
            "invoices": [{"invoice_number": "WEC-2026-003", "amount": "100.00"}],
        },
    ),
]


GUARDED.append(("corpay.batches.release", draft_batch, lambda s: {"batch_id": s["batch_id"]}, {"batch_id": "PB-NOPE"}))


def test_guarded_table_covers_every_guarded_tool():
    guarded = {n for a in MY_APPS for n, s in load_all()[a].tools().items() if s.guarded}
    resolved = set()
    for name, *_ in GUARDED:
        for a in MY_APPS:
            for n, s in load_all()[a].tools().items():
                if name == n or name in s.aliases:
                    resolved.add(n)
    assert guarded == resolved


@pytest.mark.parametrize("name, setup, valid, invalid", GUARDED, ids=[g[0] for g in GUARDED])
def test_guarded_tools_stage_and_never_change_state(open_env, name, setup, valid, invalid):
    env = _env(open_env)
    state = setup(env) if setup else None
    before = app_digest(env)
    n0 = env.con.execute("SELECT count(*) FROM cfab_internal.guard_log").fetchone()[0]
    ok = env.call(name, **valid(state))
    assert ok["ok"] and ok["status"] == "pending_human_approval", ok
    bad = env.call(name, **invalid)
    assert not bad["ok"], bad
    assert app_digest(env) == before
    rows = env.con.execute(
        "SELECT tool, executed, valid FROM cfab_internal.guard_log WHERE seq > ? ORDER BY seq", [n0]
    ).fetchall()
    full = env.resolve(name).name
    assert rows == [(full, False, True), (full, False, False)]
    calls = env.guarded_calls()
    assert [c.executed for c in calls[-2:]] == [False, False]


def test_agent_sql_write_to_guarded_table_is_staged(fixture_golden):
    from cfab.apps.world.environment import Environment

    with Environment.open(apps=["gcpay"], golden=fixture_golden, sql_write=True) as env:
        draft_pay_app(env)
        before = env.digest()
        out = env.call(
            "sql.execute", sql="UPDATE gcpay.pay_applications SET status = 'Submitted' WHERE pay_app_id = 'PA-1042-002'"
        )
        assert out["ok"] and out["status"] == "pending_human_approval", out
        assert env.digest() == before
        assert env.con.execute("SELECT executed FROM cfab_internal.guard_log").fetchall() == [(False,)]


# --------------------------------------------------------------------------- rules fire
def _ins(table: str, row: dict) -> Callable:
    return lambda env, s: env.gate.insert(table, row)


def _upd(table: str, key: Callable | dict, values: dict) -> Callable:
    return lambda env, s: env.gate.update(table, key(s) if callable(key) else key, values)


def _del(table: str, key: dict) -> Callable:
    return lambda env, s: env.gate.delete(table, key)


def _raw(sql: str) -> Callable:
    return lambda env: env.con.execute(sql)


FLAG = {
    "payroll_id": PAYROLL,
    "line_number": 1,
    "code": "other",
    "note": "n",
    "status": "Open",
    "created_by": "api.reviewer",
    "created_at": "2026-01-31 17:00:00",
}
FORM = {
    "payer_id": "PAYER-A",
    "recipient_id": "T1099-0001",
    "tax_year": 2025,
    "box1_nonemployee_compensation": "1.00",
    "box4_federal_income_tax_withheld": "0.00",
    "second_tin_notice": False,
    "status": "Draft",
    "created_at": "2026-01-31 17:00:00",
    "updated_at": "2026-01-31 17:00:00",
}

RULE_CASES: list[tuple[str, str, Callable | None, Callable]] = [
    # gcpay
    (
        "gcpay.pay_app_status_guarded",
        "guard",
        draft_pay_app,
        _upd("gcpay.pay_applications", {"pay_app_id": "PA-1042-002"}, {"status": "Submitted"}),
    ),
    (
        "gcpay.pay_app_insert_not_draft",
        "guard",
        None,
        _ins("gcpay.pay_applications", {"pay_app_id": "PA-X", "status": "Submitted"}),
    ),
    (
        "gcpay.pay_app_locked",
        "reject",
        None,
        _upd("gcpay.pay_applications", {"pay_app_id": "PA-1042-001"}, {"retainage": "1.00"}),
    ),
    (
        "gcpay.pay_app_lines_locked",
        "reject",
        None,
        _upd("gcpay.pay_application_items", {"pay_app_id": "PA-1042-001", "item_no": 1}, {"retainage": "1.00"}),
    ),
    (
        "gcpay.sov_locked",
        "reject",
        None,
        _upd("gcpay.contract_items", {"contract_id": "GCP-PC-1042", "item_no": 1}, {"scheduled_value": "1.00"}),
    ),
    (
        "gcpay.contract_locked",
        "reject",
        None,
        _upd("gcpay.contracts", {"contract_id": "GCP-PC-1042"}, {"retainage_percent": "5"}),
    ),
    (
        "gcpay.change_orders_locked",
        "reject",
        None,
        _del("gcpay.change_orders", {"contract_id": "GCP-PC-1042", "change_order_number": "PCO-1042-001"}),
    ),
    ("gcpay.waiver_approved_locked", "reject", None, _del("gcpay.lien_waivers", {"waiver_id": "LW-V1000-2"})),
    (
        "gcpay.g702_arithmetic",
        "reject",
        draft_pay_app,
        _upd("gcpay.pay_applications", {"pay_app_id": "PA-1042-002"}, {"current_payment_due": "1.00"}),
    ),
    (
        "gcpay.g703_arithmetic",
        "reject",
        draft_pay_app,
        _upd(
            "gcpay.pay_application_items",
            {"pay_app_id": "PA-1042-002", "item_no": 1},
            {"total_completed_stored": "1.00"},
        ),
    ),
    # lcptracker
    (
        "lcptracker.payroll_certify_guarded",
        "guard",
        None,
        _upd("lcptracker.payrolls", {"payroll_id": PAYROLL}, {"status": "Accepted"}),
    ),
    (
        "lcptracker.payroll_locked",
        "reject",
        None,
        _upd("lcptracker.payrolls", {"payroll_id": PAYROLL}, {"payroll_number": 4}),
    ),
    (
        "lcptracker.payroll_lines_locked",
        "reject",
        None,
        _upd("lcptracker.payroll_lines", {"payroll_id": PAYROLL, "line_number": 3}, {"rate_paid": "48.5"}),
    ),
    (
        "lcptracker.wage_decision_locked",
        "reject",
        None,
        _upd(
            "lcptracker.wage_decision_rates",
            {"decision_id": "IL20250012-mod3", "classification": "Electrician"},
            {"base_rate": "40"},
        ),
    ),
    (
        "lcptracker.flag_code_valid",
        "reject",
        None,
        _ins("lcptracker.compliance_flags", {**FLAG, "flag_id": "f1", "code": "late"}),
    ),
    (
        "lcptracker.one_flag_per_line_and_code",
        "reject",
        lambda env: env.call(
            "lcptracker.lines.flag", **{k: FLAG[k] for k in ("payroll_id", "line_number", "code", "note")}
        ),
        _ins("lcptracker.compliance_flags", {**FLAG, "flag_id": "f2"}),
    ),
    # track1099
    (
        "track1099.form_transmit_guarded",
        "guard",
        draft_form_and_filing,
        _upd("track1099.forms_1099_nec", lambda s: {"form_id": s["form"]["form_id"]}, {"status": "Submitted"}),
    ),
    (
        "track1099.form_insert_not_draft",
        "guard",
        None,
        _ins("track1099.forms_1099_nec", {**FORM, "form_id": "x", "status": "Accepted"}),
    ),
    (
        "track1099.form_filed_locked",
        "reject",
        lambda env: (draft_form_and_filing(env), _raw("UPDATE track1099.forms_1099_nec SET status = 'Accepted'")(env))[
            0
        ],
        _upd(
            "track1099.forms_1099_nec",
            lambda s: {"form_id": s["form"]["form_id"]},
            {"box1_nonemployee_compensation": "2.00"},
        ),
    ),
    (
        "track1099.filing_transmit_guarded",
        "guard",
        draft_form_and_filing,
        _upd("track1099.filings", lambda s: {"filing_id": s["filing"]["filing_id"]}, {"status": "Submitted"}),
    ),
    (
        "track1099.filing_insert_not_draft",
        "guard",
        None,
        _ins("track1099.filings", {"filing_id": "x", "status": "Submitted"}),
    ),
    (
        "track1099.filing_locked",
        "reject",
        lambda env: (draft_form_and_filing(env), _raw("UPDATE track1099.filings SET status = 'Accepted'")(env))[0],
        _upd("track1099.filings", lambda s: {"filing_id": s["filing"]["filing_id"]}, {"form_count": 9}),
    ),
    ("track1099.payer_locked", "reject", None, _upd("track1099.payers", {"payer_id": "PAYER-A"}, {"name": "X"})),
    (
        "track1099.one_form_per_payee_year",
        "reject",
        None,
        lambda env, s: (
            env.gate.insert("track1099.forms_1099_nec", {**FORM, "form_id": "a"}),
            env.gate.insert("track1099.forms_1099_nec", {**FORM, "form_id": "b"}),
        ),
    ),
    # levelset
    (
        "levelset.request_send_guarded",
        "guard",
        draft_request,
        _upd("levelset.waiver_requests", lambda s: {"request_id": s["request_id"]}, {"status": "Sent"}),
    ),
    (
        "levelset.request_insert_not_draft",
        "guard",
        None,
        _ins("levelset.waiver_requests", {"request_id": "r", "status": "Sent"}),
    ),
    (
        "levelset.request_locked",
        "reject",
        None,
        _upd("levelset.waiver_requests", {"request_id": "WR-LW-V1002-2"}, {"note": "x"}),
    ),
    ("levelset.waiver_no_fabrication", "reject", None, _ins("levelset.waivers", {"waiver_id": "w"})),
    (
        "levelset.waiver_terms_locked",
        "reject",
        None,
        _upd("levelset.waivers", {"waiver_id": "LW-V1000-3"}, {"amount": "1.00"}),
    ),
    (
        "levelset.waiver_final_locked",
        "reject",
        None,
        _upd("levelset.waivers", {"waiver_id": "LW-V1000-2"}, {"status": "Rejected"}),
    ),
    ("levelset.waiver_no_delete", "reject", None, _del("levelset.waivers", {"waiver_id": "LW-V1000-3"})),
    # corpay
    ("corpay.payment_create_guarded", "guard", None, _ins("corpay.payments", {"payment_id": "p"})),
    ("corpay.batch_create_guarded", "guard", None, _ins("corpay.payment_batches", {"batch_id": "b"})),
    (
        "corpay.batch_release_guarded",
        "guard",
        draft_batch,
        _upd("corpay.payment_batches", lambda s: {"batch_id": s["batch_id"]}, {"status": "Pending Approval"}),
    ),
    (
        "corpay.payment_release_guarded",
        "guard",
        draft_batch,
        _upd("corpay.payments", lambda s: {"payment_id": s["payment_id"]}, {"status": "Issued"}),
    ),
    (
        "corpay.payment_of_locked_batch",
        "reject",
        None,
        _ins("corpay.payments", {"payment_id": "p", "batch_id": "PB-BA-OPER-20260110", "status": "Draft"}),
    ),
    (
        "corpay.payment_history_locked",
        "reject",
        None,
        _upd("corpay.payments", {"payment_id": "PMT-BA-OPER-10003"}, {"amount": "1.00"}),
    ),
    ("corpay.batch_locked", "reject", None, _del("corpay.payment_batches", {"batch_id": "PB-BA-OPER-20260110"})),
    (
        "corpay.remittance_locked",
        "reject",
        None,
        _upd("corpay.remittances", {"payment_id": "PMT-BA-OPER-10003", "line_no": 1}, {"amount_paid": "1.00"}),
    ),
    (
        "corpay.enrollment_locked",
        "reject",
        None,
        _upd("corpay.vendors", {"vendor_id": "CP-558201"}, {"ach_account_last4": "0000"}),
    ),
    # avalara
    (
        "avalara.return_file_guarded",
        "guard",
        draft_return,
        _upd("avalara.filing_returns", lambda s: {"return_id": s["return_id"]}, {"status": "Filed"}),
    ),
    (
        "avalara.return_insert_not_draft",
        "guard",
        None,
        _ins("avalara.filing_returns", {"return_id": "r", "status": "Filed"}),
    ),
    (
        "avalara.return_filed_locked",
        "reject",
        lambda env: env.call("avalara.returns.list", status="Filed")["data"]["returns"][0],
        _upd("avalara.filing_returns", lambda s: {"return_id": s["return_id"]}, {"total_tax_due": "0.00"}),
    ),
    (
        "avalara.transaction_committed_locked",
        "reject",
        None,
        _del("avalara.transactions", {"transaction_code": "PI-V1001-JSM-87900"}),
    ),
    (
        "avalara.rates_locked",
        "reject",
        None,
        _upd("avalara.jurisdiction_rates", {"jurisdiction_code": "IL"}, {"rate": "0"}),
    ),
    # hcss_heavybid
    (
        "hcss_heavybid.estimates_read_only",
        "reject",
        None,
        _upd("hcss_heavybid.estimates", {"estimate_id": "EST-1042"}, {"status": "Lost"}),
    ),
    (
        "hcss_heavybid.biditems_read_only",
        "reject",
        None,
        _del("hcss_heavybid.biditems", {"estimate_id": "EST-1042", "biditem_code": "0010"}),
    ),
    (
        "hcss_heavybid.resources_read_only",
        "reject",
        None,
        _ins("hcss_heavybid.resources", {"estimate_id": "EST-1042", "biditem_code": "0010", "resource_code": "X"}),
    ),
    (
        "hcss_heavybid.equipment_read_only",
        "reject",
        None,
        _upd("hcss_heavybid.equipment", {"equipment_code": "EX-R17"}, {"ownership": "Owned"}),
    ),
    (
        "hcss_heavybid.equipment_rates_read_only",
        "reject",
        None,
        _upd(
            "hcss_heavybid.equipment_rates",
            {"equipment_code": "EX-104", "effective_date": "2026-01-19"},
            {"rent_rate": "67.50"},
        ),
    ),
]


def test_rule_cases_cover_every_rule():
    ids = {r.id for r in load_rules().rules if r.table.split(".")[0] in MY_APPS}
    ids |= {a.id for a in load_rules().assertions if a.table.split(".")[0] in MY_APPS}
    assert ids == {c[0] for c in RULE_CASES}


@pytest.mark.parametrize("rule_id, action, setup, write", RULE_CASES, ids=[c[0] for c in RULE_CASES])
def test_rule_fires(open_env, rule_id, action, setup, write):
    env = _env(open_env)
    state = setup(env) if setup else None
    con = env.con
    con.begin()
    env.gate.begin(10_000)
    try:
        with pytest.raises((WriteRejected, GuardTripped)) as caught:
            write(env, state)
            env.gate.finish()
    finally:
        con.rollback()
    exc = caught.value
    if action == "guard":
        assert isinstance(exc, GuardTripped) and exc.rule.id == rule_id and exc.rule.guarded_kind
    else:
        assert isinstance(exc, WriteRejected) and exc.rule_id == rule_id, exc
        assert exc.message and "{" not in exc.message, exc.message
