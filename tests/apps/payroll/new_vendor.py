"""A vendor that exists only as a dialect, composed for a test: its generated schema and views loaded
into a copy of a golden book, its app class on a write gate holding its generated rules, and the
checks the conformance suite makes of every registered app applied to it.

The conformance suite itself (tests/conformance) opens apps by name through the registry, from a
golden file built from the packaged schema/views files and under the packaged rules, so it cannot
take a vendor that is not registered and committed; this composition is the same world model
(AppContext, WriteGate, the Environment's transaction and guard handling) by hand.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb
from pydantic import BaseModel

from cfab.apps.contract import App, AppContext
from cfab.apps.tooling import ToolError, jsonable
from cfab.schema.catalog import Catalog, defer_primary_keys, run_script
from cfab.triggers.gate import GuardTripped, WriteGate, WriteRejected
from cfab.triggers.rules import RuleSet, load_rules, parse_rule_text
from cfab.views.consistency import parse_entity_file

GUARD_KINDS = {"payment", "payroll", "efile", "esign", "post", "send", "approve"}


def writable_copy(golden: Path, dest: Path) -> duckdb.DuckDBPyConnection:
    """A writable copy of a golden file (they are read-only), opened."""
    shutil.copyfile(golden, dest)
    os.chmod(dest, 0o644)
    return duckdb.connect(str(dest))


def load_vendor(con: duckdb.DuckDBPyConnection, files: Mapping[str, str]) -> None:
    """What ``App.seed`` does with the committed files, with the generated texts: the schema, the
    projection of the book, then the primary keys."""
    ddl, keys = defer_primary_keys(files["schema"])
    run_script(con, ddl)
    run_script(con, files["views"])
    for statement in keys:
        con.execute(statement)


def packaged(kind: str, app: str) -> str:
    """A committed app's packaged ``rules`` (triggers/rules/<app>.toml) or ``entities`` file."""
    folder, name = {"rules": ("cfab.triggers", f"rules/{app}.toml"),
                    "entities": ("cfab.views", f"entities/{app}.sql")}[kind]
    return resources.files(folder).joinpath(name).read_text(encoding="utf-8")


def table_columns(con: duckdb.DuckDBPyConnection, schema: str, table: str) -> list[tuple]:
    """(name, type, nullable) of each column of a table, in order."""
    return con.execute("SELECT column_name, data_type, is_nullable FROM duckdb_columns() "
                       "WHERE schema_name = ? AND table_name = ? ORDER BY column_index", [schema, table]).fetchall()


def table_names(con: duckdb.DuckDBPyConnection, schema: str) -> set[str]:
    return {t for (t,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = ?", [schema])
            .fetchall()}


def entity_rows(con: duckdb.DuckDBPyConnection, app: str, text: str) -> dict[str, list[tuple]]:
    """Each entity projection of an entities file, run: entity -> its rows, sorted."""
    return {q.entity: sorted(con.execute(q.sql).fetchall(), key=repr) for q in parse_entity_file(app, text)}


@dataclass
class Composition:
    """Apps on one connection under one gate, called the way the Environment calls tools."""

    con: duckdb.DuckDBPyConnection
    gate: WriteGate
    ctx: AppContext
    apps: dict[str, App] = field(default_factory=dict)
    seq: int = 0

    @classmethod
    def open(cls, con: duckdb.DuckDBPyConnection, classes: Sequence[type[App]],
             rules_text: Mapping[str, str]) -> Composition:
        """``rules_text``: each app's rule file (a registered app's is its packaged one, :func:`packaged`).
        The clock is the book's."""
        clock = date.fromisoformat(con.execute("SELECT value FROM cfab_internal.meta WHERE key = 'clock'")
                                   .fetchone()[0])
        rules, assertions = [], []
        for app, text in rules_text.items():
            parsed = parse_rule_text(text, f"{app}.toml")
            rules += parsed.rules
            assertions += parsed.assertions
        catalog = Catalog.load(con)
        gate = WriteGate(con, catalog, rules=RuleSet(rules, assertions),
                         writable_schemas={c.schema_name() for c in classes})
        ctx = AppContext(con=con, gate=gate, catalog=catalog, clock=clock)
        comp = cls(con, gate, ctx)
        comp.apps = {c.name: c(ctx) for c in classes}
        ctx.apps.update(comp.apps)
        return comp

    def call(self, app: str, local: str, **args: Any) -> dict[str, Any]:
        """Call ``app``'s archetype tool ``local`` as the Environment does: validated arguments, one
        transaction, a guarded tool staged (rolled back), a tripped guard staged, a refusal an error."""
        instance = self.apps[app]
        spec = type(instance).tools()[f"{app}.{type(instance).TOOL_NAMES.get(local, local)}"]
        parsed: BaseModel = spec.args_model.model_validate(args)
        return self._run(lambda: getattr(instance, spec.method)(parsed), guarded=bool(spec.guarded))

    def write(self, fn: Callable[[WriteGate], Any]) -> dict[str, Any]:
        """A write intent (as agent SQL makes one) through the gate, in its own transaction."""
        return self._run(lambda: fn(self.gate), guarded=False)

    def _run(self, fn: Callable[[], Any], *, guarded: bool) -> dict[str, Any]:
        self.seq += 1
        self.con.begin()
        self.gate.begin(self.seq)
        try:
            data = fn()
            if guarded:
                self.con.rollback()
                return {"ok": True, "status": "pending_human_approval", "data": jsonable(data)}
            self.gate.finish()
            self.con.commit()
            return {"ok": True, "data": jsonable(data)}
        except GuardTripped as g:
            self.con.rollback()
            return {"ok": True, "status": "pending_human_approval", "rule": g.rule.id}
        except (ToolError, WriteRejected) as e:
            self.con.rollback()
            return {"ok": False, "error": e.message, "rule": getattr(e, "rule_id", None)}


def tool_surface_problems(cls: type[App], guarded: Mapping[str, str]) -> list[str]:
    """What tests/conformance asks of every registered app's tools, asked of ``cls``: namespaced
    ``app.resource.verb`` names (or a guarded native name), exactly ``guarded`` (local -> kind)
    guarded and none of them also a plain write, every description saying what it returns with
    every placeholder filled, every argument described with an example."""
    problems = []
    tools = cls.tools()
    for name, spec in tools.items():
        local = name.removeprefix(f"{cls.name}.")
        if not name.startswith(f"{cls.name}.") or not (local.count(".") >= 1 or spec.guarded):
            problems.append(f"{name}: not a namespaced resource.verb name")
        if "Returns" not in spec.description or "$" in spec.description.replace("$schema", ""):
            problems.append(f"{name}: description without Returns or with an unfilled placeholder")
        if spec.guarded and spec.writes:
            problems.append(f"{name}: guarded and a plain write")
        for arg, f in spec.args_model.model_fields.items():
            if not f.description or not f.examples:
                problems.append(f"{name}({arg}): no description or example")
    kinds = {n.removeprefix(f"{cls.name}."): s.guarded for n, s in tools.items() if s.guarded}
    if kinds != dict(guarded) or not set(kinds.values()) <= GUARD_KINDS:
        problems.append(f"guarded tools {kinds}, expected {dict(guarded)}")
    return problems


def rules_problems(con: duckdb.DuckDBPyConnection, rules_text: str, schema: str) -> list[str]:
    """Every rule and assertion of a generated rule file is about a table of ``schema`` that the
    composition holds, and names one of the guard kinds when it guards; ids are ``schema.``-prefixed."""
    parsed = parse_rule_text(rules_text, f"{schema}.toml")
    tables = {f"{s}.{t}".lower() for s, t in con.execute(
        "SELECT schema_name, table_name FROM duckdb_tables() WHERE schema_name = ?", [schema]).fetchall()}
    problems = []
    for r in [*parsed.rules, *parsed.assertions]:
        if r.table.lower() not in tables:
            problems.append(f"{r.id}: no table {r.table}")
        if not r.id.startswith(f"{schema}."):
            problems.append(f"{r.id}: not in the {schema} namespace")
    for r in parsed.rules:
        if r.action == "guard" and r.guarded_kind not in GUARD_KINDS:
            problems.append(f"{r.id}: guard kind {r.guarded_kind!r}")
    taken = {r.id for r in load_rules().rules} | {a.id for a in load_rules().assertions}
    problems += [f"{r.id}: id taken by a packaged rule" for r in [*parsed.rules, *parsed.assertions] if r.id in taken]
    return problems
