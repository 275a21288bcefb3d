"""Fact rules in the write gate: one rule per protected fact, applied to INSERT (the new row),
DELETE (the old row) and UPDATE (either); children inherit their parent's fact; ``columns``
narrows an UPDATE; ``except_in`` lets the named tool workflow establish the fact."""

from __future__ import annotations

import duckdb
import pytest

from cfab.schema import Catalog, run_script, schema_ddl
from cfab.triggers import RuleSet, WriteGate, WriteRejected, parse_rule_text

RULES = """
[[rules]]
id = "t.sync_only_by_tool"
table = "app.req"
on = ["insert", "update"]
when = "lower(trim(new.sync)) = 'synced' AND NOT coalesce(lower(trim(old.sync)) = 'synced', false)"
except_in = ["t.sync"]
partial = "the transition into synced; t.req_synced covers every operation"
action = "reject"
message = "req {id} is synced only by the sync tool"

[[rules]]
id = "t.req_synced"
table = "app.req"
fact = "row.locked OR lower(trim(row.sync)) = 'synced'"
except_in = ["t.sync"]
action = "reject"
message = "req {id} is synced and locked"

[[rules]]
id = "t.req_amounts"
table = "app.req"
fact = "lower(trim(row.status)) = 'approved'"
columns = ["amount", "status"]
action = "reject"
message = "req {id} is approved: its amount is fixed"

[[rules]]
id = "t.lines_of_synced"
table = "app.line"
parent = { rule = "t.req_synced", link = "parent.id = row.req_id" }
except_in = ["t.sync"]
action = "reject"
message = "req {req_id} is synced; its lines are locked"

[[rules]]
id = "t.period_closed"
table = "app.period"
fact = "lower(trim(row.status)) = 'closed'"
action = "reject"
message = "period {mth} is closed"

[[rules]]
id = "t.entry_in_closed_period"
table = "app.entry"
parent = { rule = "t.period_closed", link = "date_trunc('month', parent.mth) = date_trunc('month', CAST(row.mth AS DATE))" }
action = "reject"
message = "entry {id} is in a closed period"

[[rules]]
id = "t.entry_line_in_closed_period"
table = "app.entry_line"
parent = { rule = "t.entry_in_closed_period", link = "parent.id = row.entry_id" }
action = "reject"
message = "entry {entry_id} is in a closed period; its lines are locked"
"""


@pytest.fixture()
def gate() -> WriteGate:
    con = duckdb.connect()
    run_script(con, schema_ddl("cfab_internal"))
    con.execute("CREATE SCHEMA app")
    con.execute(
        "CREATE TABLE app.req (id INTEGER PRIMARY KEY, sync VARCHAR, locked BOOLEAN, status VARCHAR, "
        "amount DECIMAL(18,2), note VARCHAR)"
    )
    con.execute("CREATE TABLE app.line (id INTEGER PRIMARY KEY, req_id INTEGER, amount DECIMAL(18,2))")
    con.execute("CREATE TABLE app.period (mth DATE PRIMARY KEY, status VARCHAR)")
    con.execute("CREATE TABLE app.entry (id INTEGER PRIMARY KEY, mth DATE, note VARCHAR)")
    con.execute(
        "CREATE TABLE app.entry_line (entry_id INTEGER, n INTEGER, amount DECIMAL(18,2), PRIMARY KEY (entry_id, n))"
    )
    con.execute("""INSERT INTO app.req VALUES (1, 'not_synced', false, 'approved', 10.00, NULL),
                   (2, 'synced', true, 'approved', 20.00, NULL), (3, 'not_synced', false, 'draft', 5.00, NULL)""")
    con.execute("INSERT INTO app.line VALUES (1, 1, 10.00), (2, 2, 20.00)")
    con.execute("INSERT INTO app.period VALUES (DATE '2025-06-01', 'Closed'), (DATE '2026-01-01', 'Open')")
    con.execute("INSERT INTO app.entry VALUES (10, DATE '2025-06-01', 'late'), (11, DATE '2026-01-01', 'ok')")
    con.execute("INSERT INTO app.entry_line VALUES (10, 1, 1.00), (11, 1, 1.00)")
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


def _refused(gate: WriteGate, fn, rule_id: str) -> None:
    with pytest.raises(WriteRejected) as info:
        _call(gate, fn)
    assert info.value.rule_id == rule_id, info.value.message


def test_a_fact_covers_insert_update_and_delete(gate: WriteGate) -> None:
    _refused(
        gate,
        lambda: gate.insert("app.req", {"id": 9, "sync": "synced", "locked": False, "status": "draft"}),
        "t.sync_only_by_tool",
    )  # born synced
    _refused(
        gate, lambda: gate.insert("app.req", {"id": 9, "sync": "x", "locked": True, "status": "draft"}), "t.req_synced"
    )  # born locked
    _refused(gate, lambda: gate.update("app.req", [2], {"note": "x"}), "t.req_synced")
    _refused(gate, lambda: gate.delete("app.req", [2]), "t.req_synced")
    # all three columns at once is still marking it synced
    _refused(
        gate,
        lambda: gate.update_where("app.req", "id = 3", {"sync": "'synced'", "locked": "true"}),
        "t.sync_only_by_tool",
    )
    _refused(
        gate,
        lambda: gate.update_where("app.req", "id = 2", {"sync": "'not_synced'", "locked": "false"}),
        "t.req_synced",
    )  # un-syncing
    _call(gate, lambda: gate.update("app.req", [3], {"note": "fine"}))


def test_status_words_are_normalised(gate: WriteGate) -> None:
    _refused(gate, lambda: gate.update_where("app.req", "id = 3", {"sync": "' SYNCED '"}), "t.sync_only_by_tool")
    _refused(gate, lambda: gate.update("app.req", [3], {"status": "APPROVED", "amount": "1.00"}), "t.req_amounts")


def test_columns_narrow_an_update_but_not_insert_or_delete(gate: WriteGate) -> None:
    _call(gate, lambda: gate.update("app.req", [1], {"note": "a note on an approved req"}))
    _refused(gate, lambda: gate.update("app.req", [1], {"amount": "11.00"}), "t.req_amounts")
    _refused(gate, lambda: gate.update("app.req", [1], {"status": "draft"}), "t.req_amounts")  # un-approve first
    _refused(gate, lambda: gate.delete("app.req", [1]), "t.req_amounts")
    _refused(
        gate,
        lambda: gate.insert("app.req", {"id": 8, "sync": "no", "locked": False, "status": "Approved"}),
        "t.req_amounts",
    )


def test_a_child_inherits_the_parents_fact(gate: WriteGate) -> None:
    _refused(gate, lambda: gate.insert("app.line", {"id": 3, "req_id": 2, "amount": "1.00"}), "t.lines_of_synced")
    _refused(gate, lambda: gate.update("app.line", [2], {"amount": "1.00"}), "t.lines_of_synced")
    _refused(gate, lambda: gate.delete("app.line", [2]), "t.lines_of_synced")
    _refused(gate, lambda: gate.update_where("app.line", "id = 1", {"req_id": "2"}), "t.lines_of_synced")
    _call(gate, lambda: gate.insert("app.line", {"id": 4, "req_id": 1, "amount": "1.00"}))


def test_the_named_workflow_may_establish_the_fact(gate: WriteGate) -> None:
    def sync() -> None:
        with gate.workflow("t.sync"):
            gate.update("app.req", [3], {"sync": "synced", "locked": True})
            gate.insert("app.line", {"id": 5, "req_id": 3, "amount": "5.00"})

    _call(gate, sync)
    _refused(gate, lambda: gate.update("app.req", [3], {"note": "x"}), "t.req_synced")  # and then it is locked
    with pytest.raises(WriteRejected):  # the workflow ends with its block
        _call(gate, lambda: gate.update("app.req", [1], {"sync": "synced"}))


def test_closed_periods_normalise_the_month_and_lock_the_period_itself(gate: WriteGate) -> None:
    for day in ("2025-06-01", "2025-06-15", "2025-06-30"):
        _refused(gate, lambda day=day: gate.insert("app.entry", {"id": 20, "mth": day}), "t.entry_in_closed_period")
    _refused(gate, lambda: gate.update("app.entry", [11], {"mth": "2025-06-30"}), "t.entry_in_closed_period")
    _refused(gate, lambda: gate.update("app.entry", [10], {"note": "x"}), "t.entry_in_closed_period")
    _refused(gate, lambda: gate.delete("app.entry", [10]), "t.entry_in_closed_period")
    _refused(
        gate,
        lambda: gate.insert("app.entry_line", {"entry_id": 10, "n": 2, "amount": "1.00"}),
        "t.entry_line_in_closed_period",
    )  # grandparent's fact
    for change in ({"status": "Open"}, {"status": "closed"}):
        _refused(gate, lambda change=change: gate.update("app.period", ["2025-06-01"], change), "t.period_closed")
    _refused(gate, lambda: gate.delete("app.period", ["2025-06-01"]), "t.period_closed")
    _call(gate, lambda: gate.insert("app.entry", {"id": 21, "mth": "2026-01-15"}))
    _call(gate, lambda: gate.update("app.entry", [11], {"note": "still open"}))
