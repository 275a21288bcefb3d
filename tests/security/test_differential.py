"""Hypothesis differential test: statements from a small SELECT-ish grammar (with hidden
schemas, banned functions, DML in CTEs, stacked statements, comments, case tricks) plus
random mutations. Whatever `check_read` accepts must, when executed in a READ ONLY
transaction on the hardened connection, leave the file unchanged, leak no secret, and
never hit a read-only / permission / locked-configuration error in the engine — if the
engine refuses something for a security reason, the guard should have refused it first."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cfab.apps.sandbox.exec import QueryResult, SqlError, connect_hardened, run_read
from cfab.apps.sandbox.policy import SqlRefused
from cfab.apps.sandbox.read import check_read
from tests.fixtures.tiers import examples

from .conftest import ALLOWED, SECRET_MARKER, build_fixture_db, content_digest, dir_listing

# A fixed, fast sample in the default tier; `pytest tests/security/test_differential.py
# --hypothesis-profile fuzz` runs a long random campaign (ten times as many statements).
FUZZ_EXAMPLES = examples(300)

ENGINE_SECURITY_ERROR = re.compile(
    r"permission|read-only|read only|cannot write|configuration has been locked|disabled by configuration"
    r"|external access|file system|not allowed|Cannot change",
    re.IGNORECASE,
)


def mostly(safe: list[str], unsafe: list[str], safe_weight: int = 4) -> st.SearchStrategy[str]:
    """Pick from `safe` about safe_weight times in (safe_weight + 1), else from `unsafe`."""
    return st.integers(0, safe_weight).flatmap(lambda k: st.sampled_from(unsafe) if k == 0 else st.sampled_from(safe))


SAFE_TABLES = [
    "procore.projects",
    "procore.commitments",
    'vista_erp."APVM"',
    "VISTA_ERP.apvm",
    '"procore"."open_commitments"',
    'vista_erp."JCJM"',
    "information_schema.tables",
    "information_schema.columns",
    "procore.nonexistent",
    "PROCORE.Projects",
]
UNSAFE_TABLES = [
    "book.vendors",
    '"BOOK".vendors',
    "bOoK.jobs",
    "cfab_internal.guard_log",
    '"cfab_internal".meta',
    "box.files",
    "main.secret",
    "secret",
    "vendors",
    "pg_catalog.pg_tables",
    "information_schema.views",
    "golden.procore.projects",
    "memory.main.x",
    "system.main.duckdb_tables",
    "temp.t",
    "bооk.vendors",
    'procore."x.csv"',
    "procore.csv",
    "'data.csv'",
    "'/etc/passwd'",
    "duckdb_tables",
]
SAFE_ITEMS = [
    "*",
    "1",
    "'lit'",
    "count(*)",
    "upper('a')",
    "coalesce(NULL, 1)",
    "length('abc')",
    "abs(-1)",
    "list_transform([1, 2], x -> x + 1)",
    "current_database()",
    "42 AS answer",
    "NULL",
    "CAST('2026-01-31' AS DATE)",
    "[1, 2][1]",
    "{'a': 1}",
]
UNSAFE_ITEMS = [
    "nextval('procore.seq_commitment')",
    "currval('book.seq_truth')",
    "current_setting('threads')",
    "getvariable('x')",
    "leak_scalar()",
    "main.leak_scalar()",
    "'s'.nextval()",
    "sleep_ms(1)",
    "read_text('/etc/passwd')",
    "(SELECT truth FROM book.vendors)",
    "(SELECT count(*) FROM box.files)",
    "getenv('HOME')",
    "query('SELECT 1')",
]
SAFE_TABLE_FUNCTIONS = [
    "range(3)",
    "generate_series(1, 3)",
    "unnest([1, 2])",
    "json_each('{\"a\": 1}')",
    "duckdb_tables()",
    "duckdb_columns()",
    "duckdb_schemas()",
    "range(2) r(i)",
]
UNSAFE_TABLE_FUNCTIONS = [
    "read_csv('data.csv')",
    "read_text('/etc/hosts')",
    "query('SELECT * FROM book.vendors')",
    "query_table('book.vendors')",
    "glob('*')",
    "duckdb_views()",
    "duckdb_databases()",
    "duckdb_settings()",
    "leak_table()",
    "pragma_table_info('book.vendors')",
    "histogram('book.jobs', margin)",
    "checkpoint()",
    "main.range(3)",
    "duckdb_tables(true)",
]

tables = mostly(SAFE_TABLES, UNSAFE_TABLES, 8)
items = mostly(SAFE_ITEMS, UNSAFE_ITEMS, 10)
table_functions = mostly(SAFE_TABLE_FUNCTIONS, UNSAFE_TABLE_FUNCTIONS, 6)
statements_before = mostly(
    [""],
    [
        "SET threads = 1; ",
        "ATTACH ':memory:' AS m; ",
        "USE book; ",
        "CHECKPOINT; ",
        "BEGIN; ",
        "COMMIT; ",
        "DELETE FROM procore.commitments; ",
        "-- c\n",
        "/* ; */ ",
        "/* c */ ",
    ],
    6,
)
statements_after = mostly(
    ["", ";", "; -- done", " -- trailing", ";;"],
    [
        "; DROP TABLE procore.projects",
        "; SET threads = 1",
        "; DETACH golden",
        "; ATTACH '/tmp/x.duckdb' AS x",
        " -- ;\n; DROP TABLE procore.projects",
        "; COMMIT",
        "; INSERT INTO procore.projects VALUES (9, '9', '9', '9', 0, NULL, NULL, NULL)",
    ],
    6,
)


def selects(depth: int = 2) -> st.SearchStrategy[str]:
    @st.composite
    def build(draw) -> str:
        kind = draw(st.integers(0, 9))
        if kind <= 5:
            source = draw(tables)
        elif kind <= 7:
            source = draw(table_functions)
        elif depth > 0:
            source = f"({draw(selects(depth - 1))}) AS sub"
        else:
            source = draw(tables)
        chosen = draw(st.lists(items, min_size=1, max_size=3))
        sql = f"SELECT {', '.join(chosen)} FROM {source}"
        if depth > 0 and draw(st.integers(0, 4)) == 0:
            sql += f" WHERE EXISTS ({draw(selects(depth - 1))})"
        if depth > 0 and draw(st.integers(0, 5)) == 0:
            sql += f" {draw(st.sampled_from(['UNION ALL', 'UNION', 'EXCEPT', 'INTERSECT']))} {draw(selects(depth - 1))}"
        if draw(st.booleans()):
            sql += f" LIMIT {draw(st.integers(0, 5))}"
        return sql

    return build()


@st.composite
def with_clauses(draw) -> str:
    body = draw(
        st.one_of(
            selects(1),
            st.sampled_from(
                [
                    "DELETE FROM procore.commitments RETURNING *",
                    "UPDATE procore.commitments SET amount = 0 RETURNING id",
                    "INSERT INTO procore.projects VALUES (7, '7', '7', '7', 0, NULL, NULL, NULL) RETURNING *",
                    "SELECT * FROM book.vendors",
                ]
            ),
        )
    )
    name = draw(st.sampled_from(["c", "book", "vendors", "secret", "projects"]))
    main_from = draw(mostly([name], ["procore.projects", "secret", "c", "vendors"], 3))
    recursive = draw(st.sampled_from(["", "RECURSIVE "]))
    return f"WITH {recursive}{name} AS ({body}) SELECT * FROM {main_from}"


def mutate(sql: str, data: st.DataObject) -> str:
    """Random junk (1 time in 4): case flips, comments, inserted or deleted characters."""
    if data.draw(st.integers(0, 3)) != 0:
        return sql
    for _ in range(data.draw(st.integers(1, 3))):
        pos = data.draw(st.integers(0, len(sql)))
        op = data.draw(st.integers(0, 4))
        if op == 0:
            sql = sql.swapcase() if data.draw(st.booleans()) else sql.upper()
        elif op == 1:
            sql = sql[:pos] + data.draw(st.sampled_from([" /**/ ", " -- x\n", "/* ; */"])) + sql[pos:]
        elif op == 2:
            sql = sql[:pos] + data.draw(st.sampled_from(list(";'\"().,*-/ \n$\\") + ["book", "DROP"])) + sql[pos:]
        elif op == 3 and pos < len(sql):
            sql = sql[:pos] + sql[pos + 1 :]
        else:
            sql = sql[:pos] + data.draw(st.text(max_size=4)) + sql[pos:]
    return sql


statements = st.one_of(
    selects(2),
    selects(2),
    with_clauses(),
    selects(1).map(lambda s: f"DESCRIBE {s}"),
    tables.map(lambda t: f"SUMMARIZE {t}"),
)


@pytest.mark.fuzz
def test_guard_and_engine_agree(tmp_path: Path) -> None:
    golden = build_fixture_db(tmp_path / "golden.duckdb")
    before, files = content_digest(golden), dir_listing(tmp_path)
    con = connect_hardened(str(golden))
    accepted: list[str] = []

    @settings(
        max_examples=FUZZ_EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(pre=statements_before, stmt=statements, post=statements_after, data=st.data())
    def check(pre: str, stmt: str, post: str, data: st.DataObject) -> None:
        sql = mutate(pre + stmt + post, data)
        try:
            check_read(sql, ALLOWED)
        except SqlRefused as exc:
            assert exc.reason and "\n" not in exc.reason
            return
        accepted.append(sql)
        out = run_read(con, sql, ALLOWED, max_rows=20, timeout_s=1.0)
        dumped = json.dumps(out.model_dump(mode="json"))
        assert SECRET_MARKER not in dumped, (sql, dumped[:300])
        if isinstance(out, SqlError):
            assert out.kind != "refused", (sql, out)  # check_read and run_read agree
            if out.kind == "error":
                assert not ENGINE_SECURITY_ERROR.search(out.message), (sql, out.message)
        else:
            assert isinstance(out, QueryResult)

    try:
        check()
    finally:
        con.close()
    assert len(accepted) >= FUZZ_EXAMPLES // 10, f"the grammar produced only {len(accepted)} acceptable statements"
    assert content_digest(golden) == before
    assert dir_listing(tmp_path) == files
