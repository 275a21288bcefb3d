"""The adversarial corpus (corpus.toml) through the static guard and through `run_read`
on a hardened connection: every verdict holds, no secret leaks, the file's content is
unchanged, no file appears, and slow queries stop within the time limit."""

from __future__ import annotations

import collections
import contextlib
import json
import time
from pathlib import Path

import pytest

from cfab.apps.sandbox.exec import QueryResult, SqlError, connect_hardened, run_read
from cfab.apps.sandbox.parse import render_sql
from cfab.apps.sandbox.policy import SqlRefused
from cfab.apps.sandbox.read import check_read

from .conftest import ALLOWED, SECRET_MARKER, content_digest, dir_listing, fill, load_corpus

CORPUS = load_corpus()
CATEGORIES = {
    "file_read",
    "file_write",
    "attach",
    "extension",
    "settings",
    "maintenance",
    "multi_statement",
    "dml_in_cte",
    "ddl",
    "sequence",
    "query_fn",
    "catalog_qualified",
    "hidden_schema",
    "other_app",
    "direct_write",
    "tricks",
    "resource",
    "benign",
}
TIMEOUT_S = 1.0
FAKE_TMP = Path("/tmp/cfab-corpus")


def test_corpus_shape() -> None:
    assert len(CORPUS) >= 150
    counts = collections.Counter(case["category"] for case in CORPUS)
    assert set(counts) == CATEGORIES, set(counts) ^ CATEGORIES
    for case in CORPUS:
        assert case["expect"] in ("refused", "allowed", "harmless"), case
        assert set(case) <= {"sql", "expect", "category", "reason", "kind", "forbid", "note"}, case
        assert case.get("kind") in (None, "ok", "error", "timeout"), case
    sqls = [case["sql"] for case in CORPUS]
    assert len(sqls) == len(set(sqls)), [s for s, n in collections.Counter(sqls).items() if n > 1]


@pytest.mark.parametrize("case", CORPUS, ids=[f"{c['category']}-{i}" for i, c in enumerate(CORPUS)])
def test_static_verdict(case: dict) -> None:
    sql = fill(case["sql"], FAKE_TMP)
    if case["expect"] == "refused":
        with pytest.raises(SqlRefused) as info:
            check_read(sql, ALLOWED)
        reason = info.value.reason
        assert reason and "\n" not in reason and "Traceback" not in reason
        if "reason" in case:
            assert case["reason"].lower() in reason.lower(), reason
    elif case["expect"] == "allowed":
        tree = check_read(sql, ALLOWED)
        assert render_sql(tree)
    else:
        with contextlib.suppress(SqlRefused):
            check_read(sql, ALLOWED)


def test_corpus_on_hardened_connection(fixture_dir: Path) -> None:
    """Every case through run_read on one hardened connection; then the digest and files."""
    golden = fixture_dir / "golden.duckdb"
    before_digest = content_digest(golden)
    before_before = content_digest(fixture_dir / "before.duckdb")
    before_files = dir_listing(fixture_dir)

    con = connect_hardened(str(golden))
    failures: list[str] = []
    try:
        for i, case in enumerate(CORPUS):
            sql = fill(case["sql"], fixture_dir)
            start = time.perf_counter()
            out = run_read(con, sql, ALLOWED, max_rows=50, timeout_s=TIMEOUT_S)
            took = time.perf_counter() - start
            label = f"#{i} [{case['category']}] {case['sql'][:70]!r}"
            dumped = json.dumps(out.model_dump(mode="json"))
            if SECRET_MARKER in dumped:
                failures.append(f"{label}: leaked a secret: {dumped[:200]}")
            if took > TIMEOUT_S + 1.0:
                failures.append(f"{label}: took {took:.2f}s (limit {TIMEOUT_S}s + 1s)")
            expect, kind = case["expect"], case.get("kind")
            if expect == "refused" and not (isinstance(out, SqlError) and out.kind == "refused"):
                failures.append(f"{label}: expected refused, got {dumped[:200]}")
            if expect == "allowed" and not isinstance(out, QueryResult):
                failures.append(f"{label}: expected rows, got {dumped[:200]}")
            if kind == "ok" and not isinstance(out, QueryResult):
                failures.append(f"{label}: expected ok, got {dumped[:200]}")
            if kind in ("error", "timeout") and not (isinstance(out, SqlError) and out.kind == kind):
                failures.append(f"{label}: expected {kind}, got {dumped[:200]}")
            if isinstance(out, SqlError):
                assert "\n" not in out.message and "LINE 1" not in out.message, out.message
            if isinstance(out, QueryResult) and case.get("forbid"):
                rows = json.dumps(out.rows).lower()
                for word in case["forbid"]:
                    if word.lower() in rows:
                        failures.append(f"{label}: result rows mention {word!r}: {rows[:200]}")
            if isinstance(out, QueryResult):
                assert len(out.rows) <= 50 and (out.truncated or out.row_count == len(out.rows))
        con.execute("CHECKPOINT")  # the environment's snapshot step still works afterwards
    finally:
        con.close()

    assert not failures, "\n".join(failures)
    assert content_digest(golden) == before_digest
    assert content_digest(fixture_dir / "before.duckdb") == before_before
    assert dir_listing(fixture_dir) == before_files


def test_huge_result_is_truncated_not_materialised(shared_db) -> None:
    _, con = shared_db
    start = time.perf_counter()
    out = run_read(con, "SELECT * FROM range(10000000000)", ALLOWED, max_rows=10, timeout_s=5)
    assert isinstance(out, QueryResult)
    assert out.truncated and len(out.rows) == 10 and not out.row_count_exact
    assert out.row_count >= 11
    assert time.perf_counter() - start < 3


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM range(100000000) a, range(100000) b",
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
    ],
)
def test_slow_query_stops_within_timeout(shared_db, sql: str) -> None:
    _, con = shared_db
    start = time.perf_counter()
    out = run_read(con, sql, ALLOWED, timeout_s=0.5)
    took = time.perf_counter() - start
    assert isinstance(out, SqlError) and out.kind == "timeout", out
    assert "time limit" in out.message
    assert took < 0.5 + 1.0
    # the connection is still usable afterwards
    again = run_read(con, "SELECT count(*) AS n FROM procore.projects", ALLOWED)
    assert isinstance(again, QueryResult) and again.rows == [[3]]


@pytest.mark.parametrize(
    ("sql", "reason"),
    [
        ("SELECT " + "(" * 300 + "1" + ")" * 300, "nested too deeply"),
        ("SELECT 1" + " + 1" * 300, "nested too deeply"),
        ("SELECT 1" + " + 1" * 2000, "depth"),
        ("SELECT * FROM " + "(SELECT * FROM " * 200 + "procore.projects" + ") t" * 200, "nested too deeply"),
        ("SELECT 1 AS x" + ", 1" * 12000, "too long"),
        ("SELECT 1\x00; DROP TABLE procore.projects", "NUL"),
    ],
)
def test_pathological_sizes_are_refused_quickly(shared_db, sql: str, reason: str) -> None:
    _, con = shared_db
    start = time.perf_counter()
    out = run_read(con, sql, ALLOWED)
    assert isinstance(out, SqlError) and out.kind == "refused", out
    assert reason.lower() in out.message.lower(), out.message
    assert time.perf_counter() - start < 5
