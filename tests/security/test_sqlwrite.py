"""`parse_write`: the accepted shapes of the sql.execute write tool, and the refused ones
with the reason the agent sees. The returned fragments must be valid, self-contained SQL."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import duckdb
import pytest

from cfab.apps.sandbox.policy import SqlRefused
from cfab.apps.sandbox.write import WriteIntent, parse_write

from .conftest import ALLOWED, FIXTURE_SQL


def test_insert_with_columns_and_literals() -> None:
    w = parse_write(
        "INSERT INTO procore.projects (id, number, name, budget, start_date, created_at) VALUES "
        "(10, '2200', 'O''Brien Hall', 1250.50, DATE '2026-01-31', TIMESTAMP '2026-01-31 08:00:00'),"
        "(11, '2201', NULL, -3, CAST('2026-02-01' AS DATE), NULL)",
        ALLOWED,
    )
    assert isinstance(w, WriteIntent)
    assert (w.op, w.schema, w.table) == ("insert", "procore", "projects")
    assert w.columns == ["id", "number", "name", "budget", "start_date", "created_at"]
    assert w.rows == [
        [10, "2200", "O'Brien Hall", Decimal("1250.50"), dt.date(2026, 1, 31), dt.datetime(2026, 1, 31, 8)],
        [11, "2201", None, -3, dt.date(2026, 2, 1), None],
    ]
    assert w.assignments == {} and w.where is None


def test_insert_without_columns_booleans_and_case() -> None:
    w = parse_write(
        "insert into PROCORE.commitments values (900, 1, 'SC-900', 'Walsh', 10.00, 'draft', TRUE);", ALLOWED
    )
    assert w.schema == "procore" and w.table == "commitments" and w.columns is None
    assert w.rows == [[900, 1, "SC-900", "Walsh", Decimal("10.00"), "draft", True]]


def test_insert_vendor_native_quoted_names() -> None:
    w = parse_write(
        'INSERT INTO vista_erp."APVM" ("VendorGroup", "Vendor", "Name") VALUES (1, 20149, \'Acme\')', ALLOWED
    )
    assert (w.schema, w.table, w.columns) == ("vista_erp", "APVM", ["VendorGroup", "Vendor", "Name"])


def test_update_with_row_expressions() -> None:
    w = parse_write(
        "UPDATE procore.commitments AS c SET amount = c.amount * 1.1, status = 'approved', "
        "vendor_name = upper(vendor_name) || ' LLC' WHERE c.project_id = 1 AND status IN ('draft') "
        "AND amount BETWEEN 0 AND 1e6 AND vendor_name LIKE 'V%' AND synced IS NOT NULL",
        ALLOWED,
    )
    assert w.op == "update" and w.table == "commitments"
    assert w.assignments == {
        "amount": "amount * 1.1",
        "status": "'approved'",
        "vendor_name": "UPPER(vendor_name) || ' LLC'",
    }
    assert w.where is not None and "c." not in w.where and "project_id = 1" in w.where


def test_update_vendor_native_and_case_expression() -> None:
    w = parse_write(
        'UPDATE vista_erp."APVM" SET "PayHold" = CASE WHEN "Vendor" = 20147 THEN \'Y\' ELSE "PayHold" END '
        'WHERE "Vendor" = 20147',
        ALLOWED,
    )
    assert w.assignments == {"PayHold": 'CASE WHEN "Vendor" = 20147 THEN \'Y\' ELSE "PayHold" END'}
    assert w.where == '"Vendor" = 20147'


def test_literal_variants() -> None:
    w = parse_write(
        "INSERT INTO procore.projects (id, name, budget, created_at) VALUES "
        "(+1, $$dollar 'quoted'$$, 1.5::DECIMAL(10,2), TIMESTAMPTZ '2026-01-31 08:00:00+01')",
        ALLOWED,
    )
    assert w.rows[0][:3] == [1, "dollar 'quoted'", Decimal("1.5")]
    assert w.rows[0][3] == dt.datetime(2026, 1, 31, 8, tzinfo=dt.timezone(dt.timedelta(hours=1)))
    quoted = parse_write('UPDATE procore."odd""name" SET a = 1', ALLOWED)
    assert quoted.table == 'odd"name'


def test_delete_with_and_without_where() -> None:
    w = parse_write("DELETE FROM procore.commitments WHERE id IN (1, 2, 3) /* tidy */", ALLOWED)
    assert (w.op, w.where) == ("delete", "id IN (1, 2, 3)")
    everything = parse_write("DELETE FROM procore.commitments", ALLOWED)
    assert everything.where is None  # the write gate decides whether a full delete is allowed


def test_fragments_are_valid_sql_on_the_table() -> None:
    con = duckdb.connect(":memory:")
    con.execute(FIXTURE_SQL)
    for sql in [
        "UPDATE procore.commitments AS c SET amount = round(c.amount * 1.1, 2) WHERE c.project_id = 1 OR NOT synced",
        "DELETE FROM procore.projects p WHERE p.status = 'closed' AND coalesce(p.budget, 0) > 0",
        'UPDATE vista_erp."APVM" SET "PayHold" = \'Y\' WHERE "Vendor" = 20147',
    ]:
        w = parse_write(sql, ALLOWED)
        where = w.where or "TRUE"
        con.execute(f'SELECT count(*) FROM "{w.schema}"."{w.table}" WHERE {where}').fetchall()
        for value in w.assignments.values():
            con.execute(f'SELECT {value} FROM "{w.schema}"."{w.table}"').fetchall()
    con.close()


REFUSED = [
    ("SELECT * FROM procore.projects", "INSERT, UPDATE or DELETE"),
    ("INSERT INTO procore.projects VALUES (1) RETURNING *", "RETURNING"),
    ("INSERT INTO procore.projects VALUES (1) ON CONFLICT DO NOTHING", "ON CONFLICT"),
    ("INSERT INTO procore.projects VALUES (1) ON CONFLICT (id) DO UPDATE SET name = 'x'", "ON CONFLICT"),
    ("INSERT OR REPLACE INTO procore.projects VALUES (1)", "INSERT OR"),
    ("INSERT OR IGNORE INTO procore.projects VALUES (1)", "INSERT OR"),
    ("INSERT INTO procore.projects SELECT * FROM book.vendors", "INSERT … SELECT"),
    ("INSERT INTO procore.projects SELECT 1", "INSERT … SELECT"),
    ("INSERT INTO procore.projects BY NAME SELECT 1 AS id", "BY NAME"),
    ("INSERT INTO procore.projects DEFAULT VALUES", "DEFAULT VALUES"),
    ("INSERT INTO procore.projects (id) VALUES ((SELECT max(id) FROM procore.projects))", "literals"),
    ("INSERT INTO procore.projects (id) VALUES (nextval('procore.seq_commitment'))", "literals"),
    ("INSERT INTO procore.projects (name) VALUES (upper('x'))", "literals"),
    ("INSERT INTO procore.projects (name) VALUES (?)", "literals"),
    ("INSERT INTO procore.projects (id, name) VALUES (1)", "column list"),
    ("INSERT INTO procore.projects VALUES (1, 'a'), (2)", "same number"),
    ("INSERT INTO procore.projects (id, id) VALUES (1, 2)", "twice"),
    ("INSERT INTO procore.projects (id) VALUES (current_date)", "literals"),
    ("INSERT INTO procore.projects (name) VALUES ([1, 2])", "literals"),
    ("UPDATE procore.projects SET name = 'x' FROM book.vendors WHERE true", "UPDATE … FROM"),
    ("UPDATE procore.projects SET name = (SELECT truth FROM book.vendors)", "subquery"),
    ("UPDATE procore.projects SET name = 'x' WHERE id IN (SELECT id FROM book.vendors)", "subquery"),
    ("UPDATE procore.projects SET name = 'x' WHERE EXISTS (SELECT 1)", "no"),
    ("UPDATE procore.projects SET budget = sum(budget)", "no"),
    ("UPDATE procore.projects SET budget = row_number() OVER ()", "no"),
    ("UPDATE procore.projects SET start_date = now()", "now"),
    ("UPDATE procore.projects SET start_date = current_date", "current_date"),
    ("UPDATE procore.projects SET budget = random()", "rand"),
    ("UPDATE procore.projects SET name = getvariable('x')", "getvariable"),
    ("UPDATE procore.projects SET name = 'x' WHERE name = read_text('/etc/passwd')", "read_text"),
    ("UPDATE procore.projects SET name = 'x' WHERE vendors.id = 1", "only reference columns of projects"),
    ("UPDATE procore.projects SET name = 'x' WHERE book.vendors.id = 1", "plain column names"),
    ("UPDATE procore.projects SET name = 'a', name = 'b'", "twice"),
    ("UPDATE procore.projects SET name = ?", "placeholder"),
    ("UPDATE procore.projects SET name = leak_scalar()", "built-in"),
    ("UPDATE procore.projects SET name = 's'.nextval()", "method-style"),
    ("WITH x AS (SELECT 1) UPDATE procore.projects SET name = 'x'", "WITH"),
    ("UPDATE procore.projects SET name = 'x' RETURNING *", "RETURNING"),
    ("DELETE FROM procore.projects USING book.vendors WHERE true", "USING"),
    ("DELETE FROM procore.projects WHERE id IN (SELECT id FROM procore.projects)", "subquery"),
    ("DELETE FROM procore.projects RETURNING *", "RETURNING"),
    ("DELETE FROM book.vendors", "schema book is not one of your apps"),
    ("UPDATE cfab_internal.guard_log SET executed = true", "schema cfab_internal is not one of your apps"),
    ("INSERT INTO box.files VALUES (1, 'x', 'y')", "schema box is not one of your apps"),
    ("DELETE FROM projects", "schema-qualified"),
    ("DELETE FROM golden.procore.projects", "catalog-qualified"),
    ('DELETE FROM "BOOK".vendors', "not one of your apps"),
    ("DELETE FROM procore.projects; DELETE FROM procore.commitments", "only one statement"),
    ("DELETE FROM procore.projects WHERE id = 1; -- ok\n; DROP TABLE procore.projects", "only one statement"),
    ("TRUNCATE procore.projects", "INSERT, UPDATE or DELETE"),
    (
        "MERGE INTO procore.projects t USING procore.projects s ON t.id = s.id WHEN MATCHED THEN DELETE",
        "INSERT, UPDATE or DELETE",
    ),
    ("DROP TABLE procore.projects", "INSERT, UPDATE or DELETE"),
    ("ATTACH ':memory:' AS m", "INSERT, UPDATE or DELETE"),
    ("COPY procore.projects FROM 'x.csv'", "INSERT, UPDATE or DELETE"),
    ("UPDATE procore.projects SET name = DEFAULT", "DEFAULT"),
    ("UPDATE procore.projects SET (name, status) = ('a', 'b')", "column = expression"),
    ("INSERT INTO procore.projects (id) VALUES (DEFAULT)", "literals"),
    ("INSERT INTO procore.projects AS p VALUES (1)", "plain"),
    ("INSERT INTO procore.projects (name) VALUES ('a' || 'b')", "literals"),
    ("INSERT INTO procore.projects (name) VALUES (INTERVAL 1 DAY)", "literals"),
    ("INSERT INTO procore.projects (start_date) VALUES (DATE 'garbage')", "not a valid date"),
    ("UPDATE procore.projects SET budget = budget + 1 WHERE id = 1 LIMIT 1", "LIMIT"),
    ("UPDATE procore.projects SET name = list_transform([1], x -> x)[1]", "lambda"),
    ("", "empty"),
    ("UPDATE procore.projects SET", "at least one SET"),
    ("UPDATE procore.projects SET name = ", "could not parse"),
]


@pytest.mark.parametrize(("sql", "reason"), REFUSED, ids=[s[:50] or "empty" for s, _ in REFUSED])
def test_refused_shapes(sql: str, reason: str) -> None:
    with pytest.raises(SqlRefused) as info:
        parse_write(sql, ALLOWED)
    assert reason.lower() in info.value.reason.lower(), info.value.reason
    assert "\n" not in info.value.reason


def test_bad_allowed_schemas_is_a_caller_error() -> None:
    with pytest.raises(ValueError):
        parse_write("DELETE FROM book.vendors", ["book"])
