"""Fixtures for the agent-SQL security suite: a small DuckDB file with fake app schemas
(procore, vista_erp, box), the hidden schemas (book, cfab_internal), a decoy in main,
and helpers to fingerprint its content so any change is caught."""

from __future__ import annotations

import shutil
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

HERE = Path(__file__).parent
ALLOWED = ("procore", "vista_erp")  # composed in the simulated attempt; box is not
SECRET_MARKER = "TOPSECRET"  # present only in book, cfab_internal, main and box rows

FIXTURE_SQL = """
CREATE SCHEMA procore;
CREATE TABLE procore.projects (id INTEGER PRIMARY KEY, number VARCHAR, name VARCHAR,
    status VARCHAR, budget DECIMAL(14,2), start_date DATE, created_at TIMESTAMP, logo BLOB);
INSERT INTO procore.projects VALUES
    (1, '1042', 'Riverside Clinic', 'active', 1250000.00, DATE '2025-03-01', TIMESTAMP '2025-02-01 08:00:00', '\\xDE\\xAD'::BLOB),
    (2, '3100', 'Harbor Garage', 'active', 880000.50, DATE '2025-06-15', TIMESTAMP '2025-05-20 09:30:00', NULL),
    (3, '9140', 'Depot Retrofit', 'closed', 410000.00, DATE '2024-01-10', TIMESTAMP '2023-12-01 10:00:00', NULL);
CREATE TABLE procore.commitments (id INTEGER PRIMARY KEY, project_id INTEGER, number VARCHAR,
    vendor_name VARCHAR, amount DECIMAL(14,2), status VARCHAR, synced BOOLEAN);
INSERT INTO procore.commitments SELECT i, 1 + i % 3, 'SC-' || i, 'Vendor ' || (i % 7),
    (i * 1234.5)::DECIMAL(14,2), CASE WHEN i % 2 = 0 THEN 'approved' ELSE 'draft' END, i % 4 = 0
    FROM range(1, 301) t(i);
CREATE VIEW procore.open_commitments AS SELECT * FROM procore.commitments WHERE status <> 'void';
CREATE SEQUENCE procore.seq_commitment START 1000;

CREATE SCHEMA vista_erp;
CREATE TABLE vista_erp."APVM" ("VendorGroup" INTEGER, "Vendor" INTEGER, "Name" VARCHAR,
    "TIN" VARCHAR, "PayHold" VARCHAR);
INSERT INTO vista_erp."APVM" VALUES (1, 20147, 'Walsh Electrical', '12-3456789', 'N'),
    (1, 20148, 'Keystone Concrete', '98-7654321', 'N');
CREATE TABLE vista_erp."JCJM" ("JCCo" INTEGER, "Job" VARCHAR, "Description" VARCHAR,
    "ContractAmt" DECIMAL(14,2));
INSERT INTO vista_erp."JCJM" VALUES (1, '1042-', 'Riverside Clinic', 1300000.00);

CREATE SCHEMA box;
CREATE TABLE box.files (id INTEGER, path VARCHAR, note VARCHAR);
INSERT INTO box.files VALUES (1, '/Invoices/INV-1.pdf', 'TOPSECRET-BOX not composed');

CREATE SCHEMA book;
CREATE TABLE book.vendors (id INTEGER, name VARCHAR, tin VARCHAR, truth VARCHAR);
INSERT INTO book.vendors VALUES (1, 'Walsh Electrical', '12-3456789', 'TOPSECRET-BOOK ground truth');
CREATE TABLE book.jobs (job VARCHAR, margin DECIMAL(6,4));
INSERT INTO book.jobs VALUES ('1042', 0.1234);
CREATE SEQUENCE book.seq_truth;

CREATE SCHEMA cfab_internal;
CREATE TABLE cfab_internal.meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);
INSERT INTO cfab_internal.meta VALUES ('seed', 'TOPSECRET-INTERNAL seed 726');
CREATE TABLE cfab_internal.guard_log (seq INTEGER PRIMARY KEY, app VARCHAR, tool VARCHAR,
    args JSON, executed BOOLEAN, valid BOOLEAN, reason VARCHAR, "at" TIMESTAMP);
INSERT INTO cfab_internal.guard_log VALUES (1, 'bofa_cashpro', 'payments.release', '{"amount": 1}',
    false, true, 'TOPSECRET-INTERNAL guarded', TIMESTAMP '2026-01-31 00:00:00');
CREATE TABLE cfab_internal.tool_log (seq INTEGER PRIMARY KEY, tool VARCHAR, args JSON, ok BOOLEAN);
CREATE TABLE cfab_internal.written_rows (table_name VARCHAR, row_key VARCHAR);

CREATE TABLE main.secret (x VARCHAR);
INSERT INTO main.secret VALUES ('TOPSECRET-MAIN decoy');
CREATE MACRO main.leak_scalar() AS (SELECT truth FROM book.vendors LIMIT 1);
CREATE MACRO main.leak_table() AS TABLE SELECT * FROM book.vendors;
"""


def build_fixture_db(path: Path) -> Path:
    """Write the fixture database to `path` (checkpointed, no WAL left behind)."""
    con = duckdb.connect(str(path))
    try:
        con.execute(FIXTURE_SQL)
        con.execute("CHECKPOINT")
    finally:
        con.close()
    return path


def content_digest(path: Path) -> dict[str, Any]:
    """Per table `count(*)` and `sum(hash(t))::HUGEINT`, plus the catalog objects and
    sequence states, read on a plain connection that is closed again."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        out: dict[str, Any] = {}
        tables = con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() WHERE NOT temporary ORDER BY ALL"
        ).fetchall()
        for schema, table in tables:
            out[f"{schema}.{table}"] = con.execute(
                f'SELECT count(*), sum(hash(t))::HUGEINT FROM "{schema}"."{table}" t'
            ).fetchone()
        out["__views"] = con.execute(
            "SELECT schema_name, view_name, sql FROM duckdb_views() WHERE NOT internal ORDER BY ALL"
        ).fetchall()
        out["__sequences"] = con.execute(
            "SELECT schema_name, sequence_name, last_value FROM duckdb_sequences() ORDER BY ALL"
        ).fetchall()
        out["__macros"] = con.execute(
            "SELECT schema_name, function_name FROM duckdb_functions() WHERE NOT internal ORDER BY ALL"
        ).fetchall()
        out["__schemas"] = con.execute(
            "SELECT database_name, schema_name FROM duckdb_schemas() WHERE NOT internal ORDER BY ALL"
        ).fetchall()
        out["__databases"] = con.execute(
            "SELECT database_name FROM duckdb_databases() WHERE NOT internal ORDER BY ALL"
        ).fetchall()
        return out
    finally:
        con.close()


def dir_listing(path: Path) -> list[str]:
    """Every file and directory under `path`, relative, sorted."""
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


def load_corpus() -> list[dict[str, Any]]:
    """The adversarial corpus (tests/security/corpus.toml) as a list of case dicts."""
    with open(HERE / "corpus.toml", "rb") as fh:
        return tomllib.load(fh)["case"]


def fill(sql: str, tmp: Path) -> str:
    """Substitute the {golden}, {before} and {tmp} path placeholders of a corpus entry."""
    return (
        sql.replace("{golden}", str(tmp / "golden.duckdb"))
        .replace("{before}", str(tmp / "before.duckdb"))
        .replace("{tmp}", str(tmp))
    )


@pytest.fixture()
def fixture_dir(tmp_path: Path) -> Path:
    """tmp_path holding golden.duckdb and a before.duckdb copy (an attack target)."""
    build_fixture_db(tmp_path / "golden.duckdb")
    shutil.copy(tmp_path / "golden.duckdb", tmp_path / "before.duckdb")
    (tmp_path / "data.csv").write_text("a,b\n1,TOPSECRET-FILE\n")
    return tmp_path


@pytest.fixture(scope="module")
def shared_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, duckdb.DuckDBPyConnection]]:
    """One hardened connection to a fixture file, shared by a module's tests."""
    from cfab.apps.sandbox.exec import connect_hardened

    root = tmp_path_factory.mktemp("secdb")
    build_fixture_db(root / "golden.duckdb")
    con = connect_hardened(str(root / "golden.duckdb"))
    yield root, con
    con.close()


@pytest.fixture()
def digest() -> Callable[[Path], dict[str, Any]]:
    return content_digest
