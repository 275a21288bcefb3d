"""Root cause 1 of issue 16: agent SQL calls only reviewed built-ins (apps/sqlfunctions.toml).

* the review is complete for the installed DuckDB, names no function DuckDB lacks, and no
  allowed function takes SQL text, a file, a setting, a secret or a function name;
* every allowed built-in macro expands to allowed functions only, over no table;
* each of the two static layers refuses SQL-text, setting, path, secret and unknown
  functions *on its own* (the sqlglot layer with the DuckDB-parser layer switched off, and
  the DuckDB-parser layer called directly on text the sqlglot layer never saw)."""

from __future__ import annotations

import json
import re

import duckdb
import pytest

import cfab.apps.sandbox.read as sqlguard
from cfab.apps.sandbox.crosscheck import crosscheck_read
from cfab.apps.sandbox.functions import builtin_catalog, policy, unreviewed
from cfab.apps.sandbox.policy import SqlRefused

from .conftest import ALLOWED

# The DuckDB parser writes these operators as keywords; duckdb_functions() lists none of them.
SYNTAX_OPERATORS = {"is distinct from", "is not distinct from"}
FORBIDDEN_PARAMETER = re.compile(r"sql|query|setting|secret|file|function|directory|extension|variable", re.I)

ATTACKS = {
    "SELECT json_serialize_plan('SELECT max(truth) FROM book.vendors')": "sql text",
    "SELECT json_serialize_sql('SELECT 1')": "sql text",
    "SELECT json_deserialize_sql(json_serialize_sql('SELECT 1'))": "sql text",
    "SELECT current_query()": "sql text",
    "SELECT current_setting('home_directory')": "settings",
    "SELECT getvariable('x')": "settings",
    "SELECT current_database()": "session",
    "SELECT in_search_path('memory', 'book')": "session",
    "SELECT which_secret('s3://x', 's3')": "secrets",
    "SELECT parse_path('/etc/passwd')": "paths",
    "SELECT hive_partition_component('a', 1)": "paths",
    "SELECT index_key({'catalog': 'memory', 'schema': 'book', 'table': 'vendors'}, 'x')": "catalog",
    "SELECT make_type('book.t')": "type name",
    "SELECT list_aggregate([1], 'max')": "function or type name",
    "SELECT to_aggregate_state(1, 'sum', [])": "function or type name",
    "SELECT nextval('procore.seq_commitment')": "sequences",
    "SELECT stats(1)": "internals",
    "SELECT cfab_unknown_fn(1)": "cfab_unknown_fn",
    "SELECT * FROM query('SELECT * FROM book.vendors')": "sql text",
    "SELECT * FROM duckdb_settings()": "settings",
    "SELECT * FROM read_text('/etc/passwd')": "files",
    "SELECT * FROM repeat('x', 3)": "not a table function",
    "SELECT * FROM cfab_unknown_table_fn()": "reviewed list",
}


def test_every_builtin_is_reviewed() -> None:
    catalog = builtin_catalog()
    assert unreviewed() == {}, "review these in apps/sqlfunctions.toml"
    p = policy()
    named = p.expression | p.table | set(p.refused)
    stale = sorted(named - set(catalog) - SYNTAX_OPERATORS)
    assert not stale, f"sqlfunctions.toml names functions this DuckDB does not have: {stale}"
    assert p.duckdb_version == duckdb.__version__, "re-review the allow-list for this DuckDB version"
    # table functions in FROM: only the generators and the rewritten catalog functions
    assert p.table == {
        "range",
        "generate_series",
        "unnest",
        "json_each",
        "json_tree",
        "duckdb_tables",
        "duckdb_columns",
        "duckdb_schemas",
        "duckdb_constraints",
    }


def test_no_allowed_function_takes_sql_files_settings_or_names() -> None:
    con = duckdb.connect(":memory:")
    rows = con.execute("SELECT function_name, parameters FROM duckdb_functions()").fetchall()
    con.close()
    p = policy()
    bad = sorted(
        {
            (name, param)
            for name, params in rows
            if name.lower() in p.expression
            for param in params or []
            if FORBIDDEN_PARAMETER.search(param)
        }
    )
    assert not bad, bad
    # 'path' parameters of allowed functions are JSON / VARIANT paths inside a value only
    paths = sorted(
        {
            name
            for name, params in rows
            if name.lower() in p.expression and any("path" in q.lower() for q in params or [])
        }
    )
    assert all(n.startswith(("json_", "variant_")) or n == "->>" for n in paths), paths


def test_allowed_macros_expand_to_allowed_functions_only() -> None:
    con = duckdb.connect(":memory:")
    macros = con.execute(
        "SELECT DISTINCT function_name, macro_definition FROM duckdb_functions() "
        "WHERE function_type = 'macro' AND macro_definition IS NOT NULL"
    ).fetchall()
    p = policy()
    aggregates = p.categories["allowed.aggregates"]
    problems: list[str] = []

    def walk(obj, macro: str) -> None:
        if isinstance(obj, list):
            for item in obj:
                walk(item, macro)
            return
        if not isinstance(obj, dict):
            return
        if obj.get("type") in ("BASE_TABLE", "TABLE_FUNCTION", "SUBQUERY") or "cte_map" in obj:
            problems.append(f"{macro}: reads a relation")
        name = obj.get("function_name")
        if name is not None:
            low = str(name).lower()
            if low in ("list_aggr", "list_aggregate"):  # list_sum & co: a literal aggregate name
                args = [a.get("expression") or {} for a in obj.get("arguments") or []]
                fn = args[1] if len(args) > 1 else {}
                text = str((fn.get("literal") or {}).get("text", "")).lower()
                if not (fn.get("class") == "CONSTANT" and text in aggregates):
                    problems.append(f"{macro}: list_aggr of a non-literal or unreviewed aggregate")
            elif low not in p.expression and low != macro:
                problems.append(f"{macro}: calls {low}")
        for value in obj.values():
            walk(value, macro)

    for name, body in macros:
        if name.lower() not in p.expression:
            continue
        raw = con.execute("SELECT json_serialize_sql(?)", ["SELECT " + body]).fetchone()[0]
        tree = json.loads(raw)
        assert not tree.get("error"), (name, tree)
        walk(tree["statements"][0]["node"]["select_list"], name.lower())
    con.close()
    assert not problems, problems


@pytest.mark.parametrize("sql", sorted(ATTACKS))
def test_sqlglot_layer_refuses_alone(sql: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlguard, "crosscheck_read", lambda text, allowed: None)
    with pytest.raises(SqlRefused) as info:
        sqlguard.prepare_read(sql, ALLOWED)
    assert ATTACKS[sql] in info.value.reason.lower(), info.value.reason


@pytest.mark.parametrize("sql", sorted(ATTACKS))
def test_duckdb_layer_refuses_alone(sql: str) -> None:
    with pytest.raises(SqlRefused) as info:
        crosscheck_read(sql, ALLOWED)
    assert ATTACKS[sql] in info.value.reason.lower(), info.value.reason


def test_refusal_names_the_function() -> None:
    with pytest.raises(SqlRefused, match=r"function not_a_duckdb_function is not allowed: it is not on the reviewed"):
        sqlguard.check_read("SELECT not_a_duckdb_function(name) FROM procore.projects", ALLOWED)
