"""The hardened connection (settings verified by experiment on DuckDB 2.0.1), the engine
as a second line of defence when the guard is bypassed, `run_read` behaviour and the
error/value translation helpers."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import shutil
import threading
import uuid
from pathlib import Path

import duckdb
import pytest

from cfab.apps.sandbox.exec import (
    CONNECT_CONFIG,
    QueryResult,
    SqlError,
    connect_hardened,
    harden,
    json_safe,
    run_read,
    translate_duckdb_error,
)

from .conftest import ALLOWED, content_digest, dir_listing

EXPECTED_SETTINGS = {
    "enable_external_access": "false",
    "autoinstall_known_extensions": "false",
    "autoload_known_extensions": "false",
    "allow_community_extensions": "false",
    "allow_unsigned_extensions": "false",
    "allow_persistent_secrets": "false",
    "python_enable_replacements": "false",
    "temp_directory": "",
    "max_temp_directory_size": "0 bytes",
    "catalog_error_max_schemas": "0",
    "threads": "2",
    "lock_configuration": "true",
}


def _settings(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    return {
        name: str(con.execute("SELECT current_setting(?)", [name]).fetchone()[0]).lower() for name in EXPECTED_SETTINGS
    }


def test_connect_hardened_settings(fixture_dir: Path) -> None:
    con = connect_hardened(str(fixture_dir / "golden.duckdb"), memory_limit="512MB")
    try:
        assert _settings(con) == EXPECTED_SETTINGS
        assert con.execute("SELECT current_setting('memory_limit')").fetchone()[0].startswith("488")
    finally:
        con.close()


def test_harden_on_a_plain_connection(fixture_dir: Path) -> None:
    """External access and extensions can still be switched off at runtime (one way only)."""
    con = duckdb.connect(str(fixture_dir / "golden.duckdb"))
    try:
        harden(con)
        got = _settings(con)
        assert got.pop("temp_directory") != ""  # temp_directory is fixed once the database runs
        expected = dict(EXPECTED_SETTINGS)
        expected.pop("temp_directory")
        assert got == expected
        with pytest.raises(duckdb.Error):
            con.execute("SET enable_external_access = true")
    finally:
        con.close()


def test_harden_rejects_bad_arguments(fixture_dir: Path) -> None:
    con = duckdb.connect(":memory:")
    with pytest.raises(ValueError):
        harden(con, memory_limit="1GB; SET threads=1")
    with pytest.raises(ValueError):
        harden(con, threads=0)
    con.close()


ENGINE_REFUSES = [
    "SELECT * FROM read_csv('{tmp}/data.csv')",
    "SELECT * FROM '{tmp}/data.csv'",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM glob('{tmp}/*')",
    "COPY procore.projects TO '{tmp}/out.csv'",
    "EXPORT DATABASE '{tmp}/dump'",
    "ATTACH '{before}' AS b",
    "ATTACH '{tmp}/new.duckdb' AS n",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET threads = 8",
    "RESET memory_limit",
    "SET enable_external_access = true",
    "SET lock_configuration = false",
    "SET allow_community_extensions = true",
    "SET temp_directory = '{tmp}/spill'",
    "SET profiling_output = '{tmp}/p.json'",
    "PRAGMA enable_profiling",
    'SELECT * FROM procore."{tmp}/data.csv"',
]


def test_engine_refuses_without_the_guard(fixture_dir: Path) -> None:
    """Raw SQL on the hardened connection (as if the guard had a hole) still cannot touch
    files, attach, install/load extensions or change settings."""
    golden = fixture_dir / "golden.duckdb"
    before, files = content_digest(golden), dir_listing(fixture_dir)
    con = connect_hardened(str(golden))
    try:
        for template in ENGINE_REFUSES:
            sql = template.replace("{tmp}", str(fixture_dir)).replace("{before}", str(fixture_dir / "before.duckdb"))
            with pytest.raises(duckdb.Error):
                con.execute(sql).fetchall()
        leak = __import__("pyarrow").table({"x": ["TOPSECRET-PY"]})  # noqa: F841  (replacement-scan bait)
        with pytest.raises(duckdb.Error):
            con.execute("SELECT * FROM leak").fetchall()
        # the read-only transaction stops writes hidden in queries
        cur = con.cursor()
        cur.execute("BEGIN TRANSACTION READ ONLY")
        with pytest.raises(duckdb.Error, match="read-only"):
            cur.execute("WITH d AS (DELETE FROM procore.commitments RETURNING *) SELECT count(*) FROM d")
        cur.execute("ROLLBACK")
        cur.close()
    finally:
        con.close()
    assert content_digest(golden) == before
    assert dir_listing(fixture_dir) == files


def test_checkpoint_and_snapshot_still_work(fixture_dir: Path) -> None:
    """The environment writes through its gate and snapshots with CHECKPOINT + file copy."""
    golden = fixture_dir / "golden.duckdb"
    con = connect_hardened(str(golden))
    try:
        con.execute("INSERT INTO procore.projects VALUES (10, '2200', 'New Job', 'active', 1.00, NULL, NULL, NULL)")
        con.execute("CHECKPOINT")
        shutil.copy(golden, fixture_dir / "snapshot.duckdb")
        con.execute("DELETE FROM procore.projects WHERE id = 10")
        con.execute("CHECKPOINT")
    finally:
        con.close()
    snap = duckdb.connect(str(fixture_dir / "snapshot.duckdb"), read_only=True)
    assert snap.execute("SELECT name FROM procore.projects WHERE id = 10").fetchall() == [("New Job",)]
    snap.close()
    again = duckdb.connect(str(golden), read_only=True)
    assert again.execute("SELECT count(*) FROM procore.projects").fetchone() == (3,)
    again.close()


def test_same_process_connect_rules(fixture_dir: Path) -> None:
    """What the wiring must know: DuckDB shares one instance per file per process, so while
    a hardened connection (or a cursor of it) is open, opening the same file with any other
    config fails; after close, the file opens normally (e.g. for state_diff)."""
    golden = str(fixture_dir / "golden.duckdb")
    con = connect_hardened(golden)
    try:
        with pytest.raises(duckdb.Error, match="different configuration"):
            duckdb.connect(golden)
        with pytest.raises(duckdb.Error, match="different configuration"):
            duckdb.connect(golden, config={"threads": 1})
        with pytest.raises(duckdb.Error):  # nor can another instance attach it
            duckdb.connect(":memory:").execute(f"ATTACH '{golden}' AS g (READ_ONLY)")
    finally:
        con.close()
    reopened = duckdb.connect(golden, read_only=True)
    assert reopened.execute("SELECT current_setting('enable_external_access')").fetchone()[0] in (True, "true")
    reopened.close()


# -- run_read -----------------------------------------------------------------------------
def test_run_read_values_are_json_safe(shared_db) -> None:
    _, con = shared_db
    out = run_read(con, "SELECT id, budget, start_date, created_at, logo FROM procore.projects ORDER BY id", ALLOWED)
    assert isinstance(out, QueryResult), out
    assert out.columns == ["id", "budget", "start_date", "created_at", "logo"]
    assert out.types[:3] == ["INTEGER", "DECIMAL(14,2)", "DATE"]
    assert out.rows[0] == [1, "1250000.00", "2025-03-01", "2025-02-01T08:00:00", "<blob 2 bytes>"]
    assert out.row_count == 3 and out.row_count_exact and not out.truncated
    json.dumps(out.model_dump(mode="json"))


def test_run_read_truncates_and_counts(shared_db) -> None:
    _, con = shared_db
    out = run_read(con, "SELECT * FROM procore.commitments", ALLOWED, max_rows=7)
    assert isinstance(out, QueryResult)
    assert len(out.rows) == 7 and out.truncated and out.row_count == 300 and out.row_count_exact


def test_run_read_refusal_and_error_kinds(shared_db) -> None:
    _, con = shared_db
    refused = run_read(con, "SELECT * FROM book.vendors", ALLOWED)
    assert isinstance(refused, SqlError) and refused.kind == "refused" and not refused.ok
    error = run_read(con, "SELECT CAST('x' AS INTEGER) FROM procore.projects", ALLOWED)
    assert isinstance(error, SqlError) and error.kind == "error"
    assert error.message.startswith("Conversion Error") and "LINE" not in error.message


def test_run_read_hides_other_schemas_in_suggestions(shared_db) -> None:
    """DuckDB's "Did you mean book.vendors?" would leak a hidden table name."""
    _, con = shared_db
    for sql in ("SELECT * FROM procore.vendors", "SELECT * FROM procore.guard_log", "SELECT * FROM procore.files"):
        out = run_read(con, sql, ALLOWED)
        assert isinstance(out, SqlError) and out.kind == "error"
        for word in ("book", "cfab_internal", "box"):
            assert word not in out.message.lower(), out.message


def test_run_read_leaves_no_transaction_open(shared_db) -> None:
    _, con = shared_db
    run_read(con, "SELECT * FROM procore.projects", ALLOWED)
    run_read(con, "SELECT CAST('x' AS INTEGER)", ALLOWED)
    con.execute("BEGIN TRANSACTION")  # would fail if run_read had leaked a transaction on con
    con.execute("ROLLBACK")


def test_run_read_is_thread_safe(shared_db) -> None:
    _, con = shared_db
    results: list[object] = []

    def work(i: int) -> None:
        results.append(run_read(con, f"SELECT count(*) + {i} FROM procore.commitments", ALLOWED))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.rows[0][0] for r in results) == [300 + i for i in range(8)]


def test_run_read_rejects_bad_allowed_schemas(shared_db) -> None:
    _, con = shared_db
    for bad in (["book"], ["procore", "cfab_internal"], "procore", ["main"], ["information_schema"]):
        with pytest.raises(ValueError):
            run_read(con, "SELECT 1", bad)


# -- helpers ------------------------------------------------------------------------------
def test_translate_duckdb_error() -> None:
    con = duckdb.connect(":memory:")
    con.execute(
        "CREATE SCHEMA book; CREATE TABLE book.vendors (x INT); CREATE SCHEMA procore; "
        "CREATE TABLE procore.vendor_list (x INT)"
    )
    with pytest.raises(duckdb.Error) as info:
        con.execute("SELECT * FROM procore.vendors")
    raw = str(info.value)
    assert "LINE 1" in raw
    text = translate_duckdb_error(info.value)
    assert "\n" not in text and "LINE" not in text and "^" not in text
    assert "book" not in text
    assert "book.vendors" in translate_duckdb_error(info.value, allowed_schemas=["book"])
    with pytest.raises(duckdb.Error) as info:
        con.execute("SELECT * FROM procore.vendor_lis")
    assert 'Did you mean "vendor_list"' in translate_duckdb_error(info.value, allowed_schemas=["procore"])
    con.close()
    assert (
        translate_duckdb_error(RuntimeError("IO Error: cannot open /home/u/x/golden.duckdb"))
        == "IO Error: cannot open <path>"
    )
    assert translate_duckdb_error(RuntimeError("")) == "RuntimeError"


def test_json_safe() -> None:
    assert json_safe(decimal.Decimal("1.50")) == "1.50"
    assert json_safe(dt.date(2026, 1, 31)) == "2026-01-31"
    assert json_safe(dt.datetime(2026, 1, 31, 8, 0)) == "2026-01-31T08:00:00"
    assert json_safe(dt.time(8, 30)) == "08:30:00"
    assert json_safe(dt.timedelta(days=1)) == "1 day, 0:00:00"
    assert json_safe(b"\x00\x01\x02") == "<blob 3 bytes>"
    assert json_safe(float("nan")) == "nan" and json_safe(float("inf")) == "inf"
    assert json_safe(2**70) == str(2**70) and json_safe(5) == 5
    assert json_safe({"a": [decimal.Decimal("2"), None]}) == {"a": ["2", None]}
    u = uuid.uuid4()
    assert json_safe(u) == str(u)
    assert json_safe("x" * 30, max_chars=10) == "x" * 10 + "…[+20 chars]"
    assert json_safe(True) is True
    assert json_safe(list(range(5)), max_items=2) == [0, 1, "…[+3 items]"]
    assert json_safe([["abcdef"]], max_chars=2) == [["ab…[+4 chars]"]]


def test_connect_config_is_documented() -> None:
    assert CONNECT_CONFIG["enable_external_access"] is False
    assert CONNECT_CONFIG["autoload_known_extensions"] is False
