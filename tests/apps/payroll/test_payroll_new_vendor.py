"""A fourth payroll vendor, Gusto, defined here as a dialect alone: the generator renders its schema,
views, entity projections and rules, they load into a copy of the book next to ADP, and Gusto
projects, stages, guards and refuses exactly as ADP does, in its own words."""

from __future__ import annotations

from dataclasses import asdict, fields, replace
from datetime import date
from pathlib import Path

import pytest

from cfab.apps.payroll import AdpWorkforceNow, gen
from cfab.apps.payroll.base import PayrollApp
from cfab.apps.payroll.dialects import (
    ADP,
    HashedBatchIds,
    PayrollDialect,
    PayrollExamples,
    PayrollTables,
    PayrollWords,
)
from cfab.apps.payroll.model import TABLES
from tests.apps.payroll.new_vendor import (
    Composition,
    entity_rows,
    load_vendor,
    packaged,
    rules_problems,
    table_columns,
    table_names,
    tool_surface_problems,
    writable_copy,
)

GUSTO = PayrollDialect(
    app="gusto",
    label="Gusto Payroll",
    tables=PayrollTables(employees="people", jobs="jobs", prevailing_wage_rates="wage_rates", hours="hours",
                         batches="payrolls", earnings="payroll_items", payments="disbursements"),
    words=PayrollWords(employee_active="onboarded", employee_terminated="dismissed", batch_open="unprocessed",
                       batch_staged="calculated", batch_released="processed", payment_check="check",
                       payment_direct_deposit="direct_deposit", job_active="open", job_closed="archived"),
    batch_ids=HashedBatchIds(namespace="gusto:payroll:", length=20),
    examples=PayrollExamples(employee="g-100201", batch="3f2a9c0d1e4b5a6f7e8d", job="1042"),
    tool_names={"batches.list": "payrolls.list", "batches.stage": "payrolls.calculate",
                "payments.list": "disbursements.list"},
)


class Gusto(PayrollApp):
    """Gusto: defined by its dialect alone (not registered)."""

    D = GUSTO


class Reference(PayrollApp):
    """The archetype's own tool names (no native renames)."""

    D = replace(GUSTO, app="reference", tool_names={})


# ------------------------------------------------------------------ a new vendor from its dialect alone
@pytest.fixture(scope="module")
def gusto_files() -> dict[str, str]:
    return gen.render(GUSTO)


@pytest.fixture(scope="module")
def gusto_book(golden_for, gusto_files, tmp_path_factory) -> Path:
    """The book with hh2 and ADP, plus Gusto: the seeds' part (its employee ids in the identity map
    and hh2's crosswalk, spelled g-<ADP id>) done by hand, then its generated schema and views."""
    path = tmp_path_factory.mktemp("gusto") / "golden.duckdb"
    con = writable_copy(golden_for(["hh2", "adp"]), path)
    con.execute("INSERT INTO book.employee_identities SELECT employee_id, 'gusto', 'g-' || system_employee_id "
                "FROM book.employee_identities WHERE system = 'adp'")
    con.execute("INSERT INTO hh2.employee_map SELECT master_employee_id, 'gusto', 'g-' || system_employee_id, "
                "employee_name FROM hh2.employee_map WHERE system = 'adp'")
    load_vendor(con, gusto_files)
    con.close()
    return path


@pytest.fixture
def con(gusto_book, tmp_path):
    c = writable_copy(gusto_book, tmp_path / "attempt.duckdb")
    yield c
    c.close()


@pytest.fixture
def comp(con, gusto_files) -> Composition:
    return Composition.open(con, [Gusto, AdpWorkforceNow], {"gusto": gusto_files["rules"],
                                                            "adp": packaged("rules", "adp")})


def test_the_new_vendor_gets_the_archetype_schema(con):
    assert table_names(con, "gusto") == set(asdict(GUSTO.tables).values())
    for t in TABLES:
        ours, adps = getattr(GUSTO.tables, t.name), getattr(ADP.tables, t.name)
        assert table_columns(con, "gusto", ours) == table_columns(con, "adp", adps), t.name
        keys = "SELECT constraint_column_names FROM duckdb_constraints() WHERE schema_name = ? AND table_name = ? " \
               "AND constraint_type = 'PRIMARY KEY'"
        assert con.execute(keys, ["gusto", ours]).fetchall() == con.execute(keys, ["adp", adps]).fetchall()


def test_the_new_vendor_projects_the_book_as_adp_does_in_its_own_words(con):
    """Row for row ADP's tables, once Gusto's employee ids, batch ids and words are read as ADP's."""
    words = {getattr(GUSTO.words, f.name): getattr(ADP.words, f.name) for f in fields(PayrollWords)}
    batches = dict(con.execute("SELECT g.batch_id, a.batch_id FROM gusto.payrolls g "
                               "JOIN adp.payroll_runs a USING (period_end)").fetchall())
    assert len(batches) == con.execute("SELECT count(*) FROM adp.payroll_runs").fetchone()[0] > 1
    assert all(len(b) == 20 for b in batches)

    def as_adp(name: str, value):
        if name == "employee_id":
            return value.removeprefix("g-")
        if name == "batch_id":
            return batches[value]
        return words.get(value, value) if name in ("status", "payment_method") else value

    for t in TABLES:
        ours = con.execute(f"SELECT * FROM gusto.{getattr(GUSTO.tables, t.name)}")
        names = [d[0] for d in ours.description]
        got = sorted((tuple(as_adp(n, v) for n, v in zip(names, row, strict=True)) for row in ours.fetchall()),
                     key=repr)
        want = sorted(con.execute(f"SELECT * FROM adp.{getattr(ADP.tables, t.name)}").fetchall(), key=repr)
        assert got and got == want, t.name


def test_the_new_vendor_entities_agree_with_adp(con, gusto_files):
    ours = entity_rows(con, "gusto", gusto_files["entities"])
    adps = entity_rows(con, "adp", packaged("entities", "adp"))
    assert set(ours) == {"employee", "job", "check"}
    assert ours == adps and all(ours.values())


def test_the_new_vendor_passes_the_conformance_checks_of_its_tools_and_rules(con, gusto_files):
    assert tool_surface_problems(Gusto, {"pr_release": "payroll"}) == []
    assert set(Gusto.tools()) == {f"gusto.{Gusto.TOOL_NAMES.get(s.local, s.local)}"
                                  for s in Reference.tools().values()}
    assert rules_problems(con, gusto_files["rules"], "gusto") == []
    described = Gusto.tools()["gusto.payrolls.list"].description
    assert "'unprocessed'" in described and '"calculated"' in described


def test_the_new_vendor_stages_and_guards_payroll_as_adp_does(comp):
    for local in ("employees.list", "hours.list", "earnings.list", "payments.list"):
        ours, adps = comp.call("gusto", local), comp.call("adp", local)
        assert ours["ok"] and adps["ok"], (local, ours, adps)
        assert ours["data"]["count"] == adps["data"]["count"] > 0, local
    open_batch = comp.call("gusto", "batches.list", status="unprocessed")["data"]["batches"]
    assert len(open_batch) == 1
    ours, adps = comp.call("gusto", "batches.stage"), comp.call("adp", "batches.stage")
    assert ours["ok"] and adps["ok"], (ours, adps)
    assert ours["data"]["status"] == "calculated" and ours["data"]["lines"] == adps["data"]["lines"] > 0
    assert ours["data"]["total_gross"] == adps["data"]["total_gross"]
    release = comp.call("gusto", "pr_release", batch_id=open_batch[0]["batch_id"])
    assert release["status"] == "pending_human_approval"
    assert release["data"]["would_release"]["total_gross"] == ours["data"]["total_gross"]
    again = comp.call("gusto", "pr_release", batch_id=comp.call("gusto", "batches.list", status="processed")
                      ["data"]["batches"][0]["batch_id"])
    assert again["ok"] is False and "only a calculated batch" in again["error"]


def test_the_new_vendor_rules_fire(comp, con):
    released, open_id = (con.execute(f"SELECT batch_id FROM gusto.payrolls WHERE status = '{w}' "
                                     f"ORDER BY period_end DESC LIMIT 1").fetchone()[0]
                         for w in ("processed", "unprocessed"))
    emp = con.execute("SELECT employee_id FROM gusto.people ORDER BY 1 LIMIT 1").fetchone()[0]

    def outcome(fn) -> str:
        res = comp.write(fn)
        return res.get("rule") or ("ok" if res["ok"] else res["error"])

    where = f"batch_id = '{released}'"
    assert outcome(lambda g: g.update_where("gusto.payrolls", f"batch_id = '{open_id}'",
                                            {"status": "'processed'"})) == "gusto.release_payroll"
    assert outcome(lambda g: g.update_where("gusto.payrolls", where,
                                            {"check_date": "DATE '2026-02-02'"})) == "gusto.released_batch_locked"
    assert outcome(lambda g: g.delete_where("gusto.payroll_items", where)) == "gusto.released_earnings_locked"
    assert outcome(lambda g: g.delete_where("gusto.hours", None)) == "gusto.hours_from_field"
    assert outcome(lambda g: g.update_where("gusto.disbursements", where,
                                            {"net_pay": "1"})) == "gusto.payments_final"
    assert outcome(lambda g: g.insert("gusto.disbursements", {
        "batch_id": open_id, "employee_id": emp, "payment_method": "check", "check_number": 1,
        "bank_account": "1", "pay_date": date(2026, 2, 6), "gross_pay": 1, "net_pay": 1})) == "gusto.payment_issue"
    line = {"batch_id": open_id, "employee_id": emp, "job_id": "X-1", "regular_hours": 8, "overtime_hours": 2,
            "rate": 10, "fringe_rate": 1, "gross_pay": 100}
    assert outcome(lambda g: g.insert("gusto.payroll_items", line)) == "gusto.earnings_gross"
    assert outcome(lambda g: g.insert("gusto.payroll_items", dict(line, gross_pay=110))) == "ok"
