"""A vendor that exists only as a dialect, in a world of its own for a test.

Its class carries what its archetype's generator renders (``ARTIFACTS``) and joins the registry
for the test module (``cfab.apps.registry.registered``). :func:`golden_with` seeds it into a copy
of a golden book once the seeds' part for a new vendor (its ids in the book's identity map) is
done by hand; an ``Environment`` then composes it with committed apps like any other.
:func:`conformance_checks` runs the conformance suite's per-app checks (the functions of
tests/conformance themselves) on it, as they run on the committed apps of its archetype.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cfab.apps.contract import App
from cfab.apps.world.environment import Environment
from cfab.seeds.determinism import BuildInputs
from cfab.views.consistency import parse_entity_file
from tests.conformance import conformance_helpers as helpers
from tests.conformance import test_conformance_registry as registry_checks
from tests.conformance import test_conformance_tools as tool_checks
from tests.conformance.test_conformance_fuzz import Fuzzer, arguments


def writable_copy(golden: Path, dest: Path) -> duckdb.DuckDBPyConnection:
    """A writable copy of a golden file (they are read-only), opened."""
    shutil.copyfile(golden, dest)
    os.chmod(dest, 0o644)
    return duckdb.connect(str(dest))


def golden_with(base: Path, dest: Path, cls: type[App], book_sql: Iterable[str]) -> Path:
    """``base`` (a golden file: the book and some apps) plus ``cls``: ``book_sql`` first (the seeds'
    part for a new vendor), then ``cls.seed`` from its ARTIFACTS; the file's app list names it."""
    con = writable_copy(base, dest)
    try:
        for statement in book_sql:
            con.execute(statement)
        cls.seed(con, BuildInputs())
        (apps,) = con.execute("SELECT value FROM cfab_internal.meta WHERE key = 'apps'").fetchone()
        con.execute(
            "UPDATE cfab_internal.meta SET value = ? WHERE key = 'apps'",
            [",".join(sorted({*apps.split(","), cls.name}))],
        )
    finally:
        con.close()
    os.chmod(dest, 0o444)
    return dest


@contextmanager
def opened(golden: Path, apps: Sequence[str]) -> Iterator[Environment]:
    """An Environment composing ``apps`` (SQL writes on), its opening snapshot kept for :func:`reset`."""
    env = Environment.open(apps=list(apps), golden=golden, sql_write=True)
    env.__dict__["_opening"] = env.snapshot()
    try:
        yield env
    finally:
        env.close()


def reset(world: Environment) -> Environment:
    """``world`` back at its opening state."""
    world.reset(world.__dict__["_opening"])
    return world


def packaged(kind: str, app: str) -> str:
    """A committed app's packaged ``rules`` (triggers/rules/<app>.toml) or ``entities`` file."""
    folder, name = {"rules": ("cfab.triggers", f"rules/{app}.toml"), "entities": ("cfab.views", f"entities/{app}.sql")}[
        kind
    ]
    return resources.files(folder).joinpath(name).read_text(encoding="utf-8")


def entity_rows(con: duckdb.DuckDBPyConnection, app: str, text: str) -> dict[str, list[tuple]]:
    """Each entity projection of an entities file, run: entity -> its rows, sorted."""
    return {q.entity: sorted(con.execute(q.sql).fetchall(), key=repr) for q in parse_entity_file(app, text)}


def table_columns(con: duckdb.DuckDBPyConnection, schema: str, table: str) -> list[tuple]:
    """(name, type, nullable) of each column of a table, in order."""
    return con.execute(
        "SELECT column_name, data_type, is_nullable FROM duckdb_columns() "
        "WHERE schema_name = ? AND table_name = ? ORDER BY column_index",
        [schema, table],
    ).fetchall()


def sql(env: Environment, statement: str) -> dict[str, Any]:
    """Agent SQL through ``sql.execute`` (the gate), checked as the conformance suite checks results."""
    return helpers.check_result(env.call("sql.execute", sql=statement), statement)


def app_specs(env: Environment, app: str) -> dict[str, Any]:
    return {n: s for n, s in env.tools.items() if s.app == app}


def _golden_tables(golden: Path) -> tuple[dict[str, set[str]], dict[str, tuple[str, ...]]]:
    con = duckdb.connect(str(golden), read_only=True)
    try:
        tables: dict[str, set[str]] = {}
        for schema, table in con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database()"
        ).fetchall():
            tables.setdefault(schema, set()).add(f"{schema}.{table}")
        pks = {
            f"{s}.{t}": tuple(c)
            for s, t, c in con.execute(
                "SELECT schema_name, table_name, constraint_column_names FROM duckdb_constraints() "
                "WHERE database_name = current_database() AND constraint_type = 'PRIMARY KEY'"
            ).fetchall()
        }
    finally:
        con.close()
    return tables, pks


def conformance_checks(
    registry: dict[str, type[App]],
    env: Environment,
    golden: Path,
    app: str,
    archetype: str,
    guarded: Sequence[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The registry, manifest and tool-surface checks of tests/conformance, for ``app``.

    Their lists are typed in from the paper (35 apps); ``app`` joins them as one of ``archetype``
    with ``guarded`` its required guarded tools (none: an archetype that moves no money)."""
    monkeypatch.setitem(helpers.ARCHETYPE_OF, app, archetype)
    if guarded:
        monkeypatch.setitem(registry_checks.REQUIRED_GUARDED, app, tuple(guarded))
    else:
        monkeypatch.setattr(registry_checks, "UNGUARDED", registry_checks.UNGUARDED | {app})
    tables, pks = _golden_tables(golden)
    registry_checks.test_manifest_fields(registry, app)
    registry_checks.test_state_tables_equal_the_golden_file(registry, tables, pks, app)
    registry_checks.test_tool_names_are_namespaced_and_shaped(registry, app)
    registry_checks.test_money_guarded_tools_are_the_guarded_ones(registry, app)
    registry_checks.test_money_moving_surfaces_are_guarded(registry, app)
    specs = app_specs(env, app)
    by_sanitized = {s.sanitized: n for n, s in env.tools.items()}
    descriptions = {by_sanitized[e["function"]["name"]]: e["function"]["description"] for e in env.tool_specs()}
    tool_checks.test_docstrings_say_what_how_and_returns(specs, descriptions)
    tool_checks.test_every_argument_field_has_description_and_example(specs)
    tool_checks.test_tool_specs_are_openai_function_schemas(env, dict(env.tools))
    for all_fields in (False, True):
        tool_checks.test_every_tool_accepts_its_documented_examples(env, specs, all_fields)


def foreign_ids(golden: Path) -> list[Any]:
    """Primary-key values of the golden file's app records (another app's id is an unknown id)."""
    con = duckdb.connect(str(golden), read_only=True)
    try:
        pks = con.execute(
            "SELECT schema_name, table_name, constraint_column_names[1] FROM duckdb_constraints() "
            "WHERE constraint_type = 'PRIMARY KEY' AND schema_name NOT IN ('book', 'cfab_internal') "
            "ORDER BY 1, 2"
        ).fetchall()
        parts = [f'(SELECT CAST("{c}" AS VARCHAR) FROM "{s}"."{t}" ORDER BY 1 LIMIT 2)' for s, t, c in pks]
        values = sorted({r[0] for r in con.execute(" UNION ".join(parts)).fetchall() if r[0] is not None})
    finally:
        con.close()
    return values + [int(v) for v in values if v.isdigit()][:10]


def hostile_arguments(
    world: Environment, golden: Path, app: str, monkeypatch: pytest.MonkeyPatch, examples: int = 60
) -> None:
    """The conformance fuzzer on ``app``'s tools: random and hostile arguments (other apps' ids
    among them), every result clean, a guarded call staged once and changing nothing."""
    monkeypatch.setitem(helpers.APP_GROUPS, f"new_{app}", ((app,), ()))
    fuzzer = Fuzzer(world, f"new_{app}")
    foreign = foreign_ids(golden)
    assert fuzzer.tools == sorted(app_specs(world, app))

    @settings(max_examples=examples, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(fuzzer.tools), label="tool")
        fuzzer.call(name, data.draw(arguments(world.tools[name], foreign), label="args"))

    run()
    world.reset(fuzzer.snapshot)


def same_description(ours: str, theirs: str, replacements: Iterable[tuple[str, str]]) -> bool:
    """``ours`` is ``theirs`` with each (their word, our word) put in."""
    for old, new in replacements:
        theirs = theirs.replace(old, new)
    return ours == theirs
