"""The write gate: rules reject and guard, assertions roll back, values stay exact."""

from __future__ import annotations

from decimal import Decimal

import duckdb
import pytest

from cfab.schema import Catalog, run_script, schema_ddl
from cfab.triggers import GuardTripped, RuleSet, WriteGate, WriteRejected, load_rules, parse_rule_text

RULES = """
[[rules]]
id = "t.vendor_locked"
table = "app.vendor"
on = ["update", "delete"]
when = "old.synced"
action = "reject"
message = "vendor {name} is synced and locked"

[[rules]]
id = "t.post_guard"
table = "app.je"
on = ["update"]
when = "new.status = 'posted' AND old.status <> 'posted'"
action = "guard"
message = "posting is a money movement"

[[rules]]
id = "t.closed_period"
table = "app.je"
on = ["insert"]
when = "new.period IN (SELECT period FROM app.periods WHERE closed)"
action = "reject"
message = "period {period} is closed"

[[assertions]]
id = "t.balanced"
table = "app.je"
group_by = ["batch"]
check = "sum(debit) = sum(credit)"
message = "batch {batch} does not balance"
"""


@pytest.fixture()
def gate() -> WriteGate:
    con = duckdb.connect()
    run_script(con, schema_ddl("cfab_internal"))
    con.execute("CREATE SCHEMA app")
    con.execute("CREATE TABLE app.vendor (id VARCHAR PRIMARY KEY, name VARCHAR, hold BOOLEAN, synced BOOLEAN)")
    con.execute("CREATE TABLE app.periods (period VARCHAR PRIMARY KEY, closed BOOLEAN)")
    con.execute("""CREATE TABLE app.je (batch VARCHAR, line INTEGER, period VARCHAR, debit DECIMAL(18,2),
                   credit DECIMAL(18,2), status VARCHAR, PRIMARY KEY (batch, line))""")
    con.execute("INSERT INTO app.vendor VALUES ('1', 'Alpha', false, false), ('2', 'Beta', false, true)")
    con.execute("INSERT INTO app.periods VALUES ('2025-12', true), ('2026-01', false)")
    parsed = parse_rule_text(RULES)
    return WriteGate(con, Catalog.load(con), RuleSet(parsed.rules, parsed.assertions))


def _call(gate: WriteGate, fn) -> None:
    gate.con.begin()
    gate.begin(1)
    try:
        fn()
        gate.finish()
        gate.con.commit()
    except Exception:
        gate.con.rollback()
        raise


def _je(batch: str, line: int, debit: str, credit: str, period: str = "2026-01") -> dict:
    return dict(batch=batch, line=line, period=period, debit=debit, credit=credit, status="draft")


def test_update_records_written_rows(gate: WriteGate) -> None:
    _call(gate, lambda: gate.update("app.vendor", ["1"], {"hold": True}))
    assert gate.con.execute("SELECT hold FROM app.vendor WHERE id = '1'").fetchone() == (True,)
    assert gate.con.execute("SELECT table_name, pk_key FROM cfab_internal.written_rows").fetchall() == [
        ("app.vendor", '["1"]')
    ]


def test_locked_row_is_rejected_with_its_message(gate: WriteGate) -> None:
    with pytest.raises(WriteRejected, match="vendor Beta is synced and locked"):
        _call(gate, lambda: gate.update("app.vendor", {"id": "2"}, {"hold": True}))
    assert gate.con.execute("SELECT hold FROM app.vendor WHERE id = '2'").fetchone() == (False,)


def test_unbalanced_entry_rolls_back(gate: WriteGate) -> None:
    with pytest.raises(WriteRejected, match="batch B2 does not balance"):
        _call(gate, lambda: gate.insert_many("app.je", [_je("B2", 1, "5.00", "0")]))
    assert gate.con.execute("SELECT count(*) FROM app.je").fetchone() == (0,)
    assert gate.con.execute("SELECT count(*) FROM cfab_internal.written_rows").fetchone() == (0,)


def test_closed_period_rejects_inserts(gate: WriteGate) -> None:
    with pytest.raises(WriteRejected, match="period 2025-12 is closed"):
        _call(
            gate,
            lambda: gate.insert_many(
                "app.je", [_je("B1", 1, "1.00", "0", "2025-12"), _je("B1", 2, "0", "1.00", "2025-12")]
            ),
        )


def test_guard_rule_trips_and_nothing_changes(gate: WriteGate) -> None:
    _call(gate, lambda: gate.insert_many("app.je", [_je("B1", 1, "100.00", "0"), _je("B1", 2, "0", "100.00")]))
    with pytest.raises(GuardTripped) as info:
        _call(gate, lambda: gate.update_where("app.je", "batch = 'B1'", {"status": "'posted'"}))
    assert info.value.rule.id == "t.post_guard"
    assert gate.con.execute("SELECT DISTINCT status FROM app.je").fetchall() == [("draft",)]


def test_decimal_scale_and_exactness(gate: WriteGate) -> None:
    with pytest.raises(WriteRejected, match="at most 2 decimal places"):
        _call(gate, lambda: gate.insert("app.je", _je("B3", 1, "0.005", "0")))
    _call(gate, lambda: gate.insert_many("app.je", [_je("B4", 1, "0.1", "0"), _je("B4", 2, "0", "0.10")]))
    assert gate.con.execute("SELECT sum(debit) FROM app.je WHERE batch = 'B4'").fetchone() == (Decimal("0.10"),)


def test_expression_updates_and_primary_keys(gate: WriteGate) -> None:
    _call(gate, lambda: gate.insert_many("app.je", [_je("B5", 1, "10.00", "0"), _je("B5", 2, "0", "10.00")]))
    _call(gate, lambda: gate.update_where("app.je", "batch = 'B5'", {"debit": "debit * 2", "credit": "credit * 2"}))
    assert gate.con.execute("SELECT sum(debit), sum(credit) FROM app.je WHERE batch = 'B5'").fetchone() == (
        Decimal("20.00"),
        Decimal("20.00"),
    )
    with pytest.raises(WriteRejected, match="primary key"):
        _call(gate, lambda: gate.update("app.vendor", ["1"], {"id": "9"}))


def test_hidden_schemas_and_unknown_tables_are_not_writable(gate: WriteGate) -> None:
    with pytest.raises(WriteRejected, match="not writable"):
        _call(gate, lambda: gate.insert("cfab_internal.meta", {"key": "x", "value": "y"}))
    with pytest.raises(WriteRejected, match="unknown table"):
        _call(gate, lambda: gate.insert("app.nope", {"a": 1}))


def test_missing_key_is_reported(gate: WriteGate) -> None:
    with pytest.raises(WriteRejected, match="no row in app.vendor"):
        _call(gate, lambda: gate.update("app.vendor", ["404"], {"hold": True}))


def test_rule_files_parse() -> None:
    rules = load_rules()
    for rule in rules.rules:
        assert rule.message, rule.id


def test_bad_rule_file_names_the_problem() -> None:
    with pytest.raises(ValueError, match="does not parse"):
        parse_rule_text('[[rules]]\nid="x"\ntable="a.b"\non=["update"]\nwhen="old.a = ="\naction="reject"\nmessage="m"')
    with pytest.raises(ValueError, match="not valid TOML"):
        parse_rule_text("[[rules]\n")


def test_two_assertions_with_different_groups_on_one_table() -> None:
    con = duckdb.connect()
    run_script(con, schema_ddl("cfab_internal"))
    con.execute("CREATE SCHEMA app")
    con.execute("""CREATE TABLE app.lines (batch VARCHAR, line INTEGER, job VARCHAR, debit DECIMAL(18,2),
                   credit DECIMAL(18,2), PRIMARY KEY (batch, line))""")
    parsed = parse_rule_text("""
[[assertions]]
id = "a.balanced"
table = "app.lines"
group_by = ["batch"]
check = "sum(debit) = sum(credit)"
message = "batch {batch} does not balance"

[[assertions]]
id = "a.job_cap"
table = "app.lines"
group_by = ["batch", "job"]
check = "sum(debit) <= 1000"
message = "job {job} in batch {batch} is over the cap"
""")
    gate = WriteGate(con, Catalog.load(con), RuleSet(parsed.rules, parsed.assertions))
    rows = [
        dict(batch="B", line=1, job="1042", debit="600.00", credit="0"),
        dict(batch="B", line=2, job="1042", debit="0", credit="600.00"),
    ]
    _call(gate, lambda: gate.insert_many("app.lines", rows))
    with pytest.raises(WriteRejected, match="job 2014 in batch C is over the cap"):
        _call(
            gate,
            lambda: gate.insert_many(
                "app.lines",
                [
                    dict(batch="C", line=1, job="2014", debit="1500.00", credit="0"),
                    dict(batch="C", line=2, job="2014", debit="0", credit="1500.00"),
                ],
            ),
        )


def test_batch_insert_checks_every_row_and_records_every_key(gate: WriteGate) -> None:
    rows = [_je("BIG", i, "1.00" if i % 2 else "0", "0" if i % 2 else "1.00") for i in range(1, 1001)]
    _call(gate, lambda: gate.insert_many("app.je", rows))
    assert gate.con.execute("SELECT count(*) FROM app.je WHERE batch = 'BIG'").fetchone() == (1000,)
    assert gate.con.execute(
        "SELECT count(*) FROM cfab_internal.written_rows WHERE table_name = 'app.je'"
    ).fetchone() == (1000,)
    bad = rows[:2] + [_je("BIG2", 1, "1.00", "0", "2025-12"), _je("BIG2", 2, "0", "1.00", "2025-12")]
    with pytest.raises(WriteRejected, match="period 2025-12 is closed"):
        _call(gate, lambda: gate.insert_many("app.je", [dict(r, batch="BIG3") for r in bad[:2]] + bad[2:]))
    assert gate.con.execute("SELECT count(*) FROM app.je WHERE batch IN ('BIG2', 'BIG3')").fetchone() == (0,)
