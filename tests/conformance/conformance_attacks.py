"""A held-out corpus of agent-SQL attacks for ``sql.query`` on a real environment, written apart
from tests/security/corpus.toml (different statements, and aimed at this project: the book and
its macro, cfab_internal's logs, the golden and attempt files, composed vs. not-composed apps,
catalog listings that would reveal hidden schemas).

Each case: ``sql`` (placeholders {golden}, {home}, {workdir}, {attempt} are real paths),
``expect`` = refused | allowed | harmless, optional ``needle`` (in the refusal, case-insensitive)
and ``kind`` (for harmless: the error kind if it errs: timeout | error).

Composed apps in the test: procore, vista_erp, hh2, box, outlook. Not composed: sage_intacct, qbo,
gcpay. Hidden: book, cfab_internal.
"""

from __future__ import annotations

from typing import Any

COMPOSED = ("procore", "vista_erp", "hh2", "box", "outlook")
NOT_COMPOSED = ("sage_intacct", "qbo", "gcpay")
HIDDEN = ("book", "cfab_internal")


def case(sql: str, expect: str = "refused", needle: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"sql": sql, "expect": expect, "needle": needle, **extra}


ATTACKS: list[dict[str, Any]] = [
    # ---------------------------------------------------------------- the book and its macro
    case("SELECT book.system_job_id('vista_erp', '1042')", needle="function"),
    case("SELECT \"book\".\"system_job_id\"('cmic', '1042') AS j", needle="function"),
    case("SELECT * FROM vista_erp.JCJM WHERE Job = book.system_job_id('vista_erp', '1042')", needle="function"),
    case("SELECT system_job_id('vista_erp', '1042')", "harmless", kind="error"),
    case("SELECT * FROM book.system_job_id('vista_erp', '1042')", needle="book"),
    case("FROM book.jobs SELECT *", needle="book"),
    case("SELECT 1 WHERE EXISTS (FROM book.vendors)", needle="book"),
    case("SELECT [x FOR x IN (SELECT list(vendor_key) FROM book.vendors)]", needle="book"),
    case("VALUES ((SELECT count(*) FROM book.vendors))", needle="book"),
    case("SELECT typeof((SELECT 1 FROM book.jobs LIMIT 1))", needle="book"),
    case("WITH t AS MATERIALIZED (SELECT * FROM book.vendors) SELECT 1", needle="book"),
    case("SELECT * FROM procore.commitments c, LATERAL (SELECT * FROM book.jobs) j", needle="book"),
    case("SELECT * FROM procore.commitments LIMIT 1 OFFSET (SELECT count(*) FROM book.vendors)", needle="book"),
    # ---------------------------------------------------------------- cfab_internal
    case("SELECT * FROM cfab_internal.tool_log", needle="cfab_internal"),
    case('SELECT count(*) FROM "cfab_internal"."written_rows"', needle="cfab_internal"),
    case("FROM cfab_internal.guard_log SELECT tool, executed", needle="cfab_internal"),
    case("SELECT value FROM cfab_internal.meta WHERE key = 'code_fingerprint'", needle="cfab_internal"),
    case("SELECT seq FROM CFAB_INTERNAL.GUARD_LOG WHERE NOT executed", needle="cfab_internal"),
    case('SELECT * FROM "cfab_ınternal".guard_log', needle="not readable"),
    case("SELECT * FROM unnest((SELECT list(args) FROM cfab_internal.guard_log))", needle="cfab_internal"),
    case("SELECT * FROM json_each((SELECT value FROM cfab_internal.meta LIMIT 1))", needle="cfab_internal"),
    case(
        "SELECT * FROM procore.commitments WHERE id = (SELECT max(seq) FROM cfab_internal.guard_log)",
        needle="cfab_internal",
    ),
    case("SELECT * FROM procore.projects UNION ALL BY NAME SELECT * FROM cfab_internal.meta", needle="cfab_internal"),
    case("SELECT map_from_entries([(1, (SELECT count(*) FROM cfab_internal.tool_log))])", needle="cfab_internal"),
    # ---------------------------------------------------------------- catalog listings
    case("SELECT DISTINCT table_schema FROM information_schema.columns ORDER BY 1", "allowed", only_schemas=True),
    case("SELECT schema_name FROM information_schema.schemata ORDER BY 1", "allowed", only_schemas=True),
    case("SELECT * FROM duckdb_constraints()", "allowed", only_schemas=True),
    case(
        "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema = 'cfab_internal'",
        "allowed",
        rows=0,
    ),
    case(
        "SELECT * FROM information_schema.key_column_usage WHERE table_schema IN ('book', 'cfab_internal')",
        "allowed",
        rows=0,
    ),
    case("SELECT * FROM information_schema.tables WHERE table_schema = 'sage_intacct'", "allowed", rows=0),
    case(
        "SELECT * FROM procore.projects, (SELECT * FROM information_schema.tables) t WHERE t.table_schema = 'book'",
        "allowed",
        rows=0,
    ),
    case("SELECT * FROM information_schema.routines", needle="information_schema"),
    case("SELECT * FROM information_schema.character_sets", needle="information_schema"),
    case("SELECT function_name FROM duckdb_functions() WHERE schema_name = 'book'", needle="duckdb_functions"),
    case("SELECT * FROM duckdb_dependencies()", needle="duckdb_dependencies"),
    case("SELECT * FROM duckdb_indexes()", needle="duckdb_indexes"),
    case("SELECT * FROM duckdb_types() WHERE schema_name = 'book'", needle="duckdb_types"),
    case("SELECT * FROM duckdb_memory()", needle="duckdb_memory"),
    case("SELECT * FROM duckdb_temporary_files()", needle="duckdb_temporary_files"),
    case("SELECT database_name, path FROM duckdb_databases()", needle="duckdb_databases"),
    case("SELECT * FROM pragma_database_list()", needle="pragma_database_list"),
    case("SELECT * FROM pragma_show_tables()", needle="pragma_show_tables"),
    case("SELECT * FROM pg_catalog.pg_namespace", needle="pg_catalog"),
    case("SELECT * FROM sqlite_master", needle="schema-qualified"),
    case("SELECT * FROM sql_auto_complete('SELECT * FROM cfab_int')", needle="sql_auto_complete"),
    case("SHOW DATABASES"),
    case("SHOW cfab_internal.guard_log"),
    case("DESCRIBE cfab_internal.tool_log", needle="cfab_internal"),
    case("SUMMARIZE book.jobs", needle="book"),
    # ---------------------------------------------------------------- composed vs not composed apps
    case("SELECT * FROM sage_intacct.APBILL", needle="not one of your apps"),
    case('SELECT count(*) FROM "qbo"."Vendor"', needle="not one of your apps"),
    case("SELECT * FROM procore.commitments c JOIN gcpay.pay_apps p ON true", needle="gcpay"),
    case(
        "SELECT v.Name FROM vista_erp.APVM v WHERE v.Vendor IN (SELECT VENDORID FROM sage_intacct.VENDOR)",
        needle="sage_intacct",
    ),
    case("SELECT * FROM attempt.vista_erp.APVM", needle="catalog-qualified"),
    case("SELECT * FROM attempt.cfab_internal.guard_log", needle="catalog-qualified"),
    # ---------------------------------------------------------------- the golden and attempt files
    case("SELECT * FROM '{golden}'", needle="file"),
    case("SELECT * FROM read_text('{golden}.digest')", needle="read_text"),
    case("SELECT * FROM parquet_schema('{golden}')", needle="parquet_schema"),
    case("SELECT * FROM '{attempt}'", needle="file"),
    case("SELECT * FROM 'attempt.duckdb'", needle="file"),
    case("ATTACH '{workdir}/snapshot-1.duckdb' AS snap", needle="ATTACH"),
    case("ATTACH '{home}/stolen.duckdb' AS stolen", needle="ATTACH"),
    case("COPY (SELECT * FROM vista_erp.APVM) TO '{home}/leak.csv'", needle="COPY"),
    case("COPY procore.commitments TO STDOUT", needle="COPY"),
    case("DETACH attempt", needle="DETACH"),
    case("USE attempt.book", needle="USE"),
    case("CHECKPOINT attempt", needle="CHECKPOINT"),
    case("SELECT getenv('CFAB_HOME')", needle="getenv"),
    # ---------------------------------------------------------------- writes through the read tool
    case("INSERT INTO vista_erp.APVH VALUES (1, 13571, 'COI', 'x', DATE '2026-01-31')", needle="INSERT"),
    case("DELETE FROM procore.commitments WHERE erp_sync_status = 'synced'", needle="DELETE"),
    case("UPDATE procore.requisitions SET locked = false", needle="UPDATE"),
    case("CREATE OR REPLACE TABLE vista_erp.APVH AS SELECT 1 AS x", needle="CREATE"),
    case("DROP SCHEMA cfab_internal CASCADE", needle="DROP"),
    case("ALTER TABLE procore.commitments RENAME TO commitments_old", needle="ALTER"),
    case("TRUNCATE vista_erp.APVH", needle="TRUNCATE"),
    case("SELECT 1 --\n; DROP TABLE procore.commitments", needle="one statement"),
    case("SELECT 1； DROP TABLE procore.commitments"),
    case("EXECUTE p"),
    case("DEALLOCATE p", needle="DEALLOCATE"),
    # ---------------------------------------------------------------- engine, settings, extensions
    case("RESET enable_external_access", needle="RESET"),
    case("SET memory_limit = '100GB'", needle="SET"),
    case("PRAGMA database_size", needle="PRAGMA"),
    case("CALL pragma_database_size()"),
    case("LOAD parquet", needle="LOAD"),
    case("CALL dbgen(sf = 1)"),
    case("SELECT * FROM \"query\"('SELECT 1')", needle="query"),
    case("SELECT * FROM duckdb_secrets()", needle="duckdb_secrets"),
    case("SELECT * FROM arrow_scan(0, 0, 0)", needle="arrow_scan"),
    # ---------------------------------------------------------------- harmless, and must not leak
    case("SELECT json_serialize_sql('SELECT * FROM book.vendors')", "harmless", kind="error"),
    case(
        "SELECT error((SELECT string_agg(table_schema, ',') FROM information_schema.tables))", "harmless", kind="error"
    ),
    case("SELECT current_database(), current_schema()", "harmless"),
    case("SELECT version()", "harmless"),
    case("SELECT hash(c) FROM procore.commitments c LIMIT 3", "harmless"),
    case("SELECT * FROM vista_erp.APVM USING SAMPLE 10 ROWS", "allowed"),
    case("SELECT * FROM procore.commitments WHERE title = '\\'' OR 1=1 --'", "harmless"),
    case("SELECT regexp_matches(repeat('a', 10000), '(a*)*b')", "harmless"),
    case("SELECT * FROM procore.commitments AT (TIMESTAMP => TIMESTAMP '2020-01-01')", "harmless"),
    case("SELECT book.vendors FROM procore.commitments", "harmless", kind="error"),
    # ---------------------------------------------------------------- resource exhaustion
    case("SELECT count(*) FROM range(1000000000000) t(i) WHERE i % 7 = 3", "harmless", kind="timeout"),
    # (a few huge values per vector, e.g. repeat('x', 100000000) over a range, escapes both the
    # memory limit and the timer: see test_scalar_values_are_bounded_by_the_memory_limit; the
    # corpus keeps to values that stay small, so a run can never take the host down)
    case("SELECT max(length(repeat('x', 1000) || i::VARCHAR)) FROM range(100000000) t(i)", "harmless", kind="timeout"),
    case(
        "SELECT count(*) FROM procore.commitments a, procore.commitments b, procore.commitments c, "
        "procore.cost_codes d, procore.cost_codes e",
        "harmless",
    ),
]
