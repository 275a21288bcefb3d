"""The app contract: every app implements seed, tools, snapshot, reset, state_diff and
guarded_calls, and declares a manifest.

Archetypes (ERP, Bank, PM, …) are written once as subclasses of :class:`App`; vendors are
subclasses that differ only by class constants: native table names, tool-name maps, id
formats, status vocabularies (the way sqlglot's dialects differ by constants).

An app's DDL, projection and write rules are packaged files (``schema/<app>.sql``,
``views/<app>.sql``, ``triggers/rules/<app>.toml``), except for a vendor defined as data outside
the repository's committed ones (a test's, a plug-in's): it carries what its archetype's
generator renders as :attr:`App.ARTIFACTS`, and everything that builds or opens a world reads an
app's SQL and rules through :meth:`App.schema_sql`, :meth:`App.view_sql` and :func:`rules_for`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from datetime import date, datetime, time
from typing import Any, ClassVar, Literal, Protocol

import duckdb
import sqlglot
from sqlglot import exp

from cfab.apps.tooling import ToolError, ToolSpec, collect_tools
from cfab.schema.catalog import (
    Catalog,
    TableInfo,
    defer_primary_keys,
    has_sql_resource,
    run_script,
    schema_ddl,
    sql_resource,
)
from cfab.schema.models import FrozenModel
from cfab.schema.sqlbuild import col, equals_all, to_sql
from cfab.seeds.determinism import BuildInputs, stable_id
from cfab.triggers.gate import WriteGate
from cfab.triggers.rules import RuleSet, load_rules, parse_rule_text

Archetype = Literal[
    "ERP",
    "Bank",
    "Payroll",
    "FieldTime",
    "PM",
    "PayApp",
    "Lien/CertPayroll/Tax",
    "Integration/Estimating",
    "Docs",
    "Office",
]


class AppManifest(FrozenModel):
    """What an app declares about itself (the paper's app_manifest.json)."""

    app: str
    label: str
    kind: str
    archetype: Archetype
    tier: Literal["A", "B", "C"]
    schema_name: str
    state_tables: list[str]
    tools: list[str]
    money_guarded_tools: list[str]


class EnvHooks(Protocol):
    """The parts of the Environment an app's contract methods delegate to."""

    def snapshot(self) -> Any: ...
    def reset(self, snapshot: Any) -> None: ...
    def state_diff(self, before: Any = None, full: bool = False) -> Any: ...
    def guarded_calls(self) -> list[Any]: ...


@dataclass
class AppContext:
    """Runtime handles an app instance works with."""

    con: duckdb.DuckDBPyConnection
    gate: WriteGate
    catalog: Catalog
    clock: date
    env: EnvHooks | None = None
    apps: dict[str, App] = field(default_factory=dict)  # the composed app instances, by name

    @property
    def now(self) -> datetime:
        """The injected clock as a timestamp (17:00 on the clock date)."""
        return datetime.combine(self.clock, time(17, 0))


@dataclass(frozen=True)
class Artifacts:
    """An app's SQL and rules as text, for a vendor whose files are not packaged: its DDL
    (``schema/<app>.sql``), projection (``views/<app>.sql``), consistency projections
    (``views/entities/<app>.sql``) and write rules (``triggers/rules/<app>.toml``)."""

    schema: str
    views: str = ""
    entities: str = ""
    rules: str = ""


def dialect_vars(dialect: Any) -> dict[str, Any]:
    """Docstring placeholders from a vendor's dialect (a dataclass instance; anything else gives
    none): its ``example_*`` fields as they are (``$example_account``), the fields of its ``words``
    (``$batch_open``) and those of its ``examples`` prefixed ``example_`` (``$example_batch``)."""
    if not is_dataclass(dialect) or isinstance(dialect, type):
        return {}
    out: dict[str, Any] = {}
    for f in fields(dialect):
        value = getattr(dialect, f.name)
        group = asdict(value) if is_dataclass(value) and not isinstance(value, type) else None
        if f.name.startswith("example_"):
            out[f.name] = value
        elif f.name == "words" and group is not None:
            out.update(group)
        elif f.name == "examples" and group is not None:
            out.update({f"example_{k}": v for k, v in group.items()})
    return out


class App:
    """Base of every app. Subclass per archetype; subclass again per vendor with constants."""

    name: ClassVar[str] = ""
    label: ClassVar[str] = ""
    kind: ClassVar[str] = ""
    archetype: ClassVar[Archetype]
    tier: ClassVar[Literal["A", "B", "C"]] = "A"
    TOOL_NAMES: ClassVar[dict[str, str]] = {}  # archetype tool name → native name
    DISABLED_TOOLS: ClassVar[frozenset[str]] = frozenset()
    ARTIFACTS: ClassVar[Artifacts | None] = None  # None: the app's SQL and rules are packaged files
    #: tables (unqualified) the app derives from its own stored artifacts (Excel's cells from the
    #: .xlsx bytes): only the app's tools write them; agent SQL (``sql.execute``) is refused
    DERIVED_TABLES: ClassVar[Mapping[str, str]] = {}  # table -> the tool that writes it

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx

    # ------------------------------------------------------------------ declaration
    @classmethod
    def schema_name(cls) -> str:
        return cls.name

    @classmethod
    def doc_vars(cls) -> dict[str, str]:
        """Placeholders available in tool docstrings: ``$label``, ``$app``, ``$schema``, the ``EX_*``
        constants and, for a vendor defined by a dialect ``D``, the dialect's (:func:`dialect_vars`)."""
        out = {"label": cls.label, "app": cls.name, "schema": cls.schema_name()}
        for klass in reversed(cls.__mro__):
            for key, value in vars(klass).items():
                if key.startswith("EX_") and isinstance(value, str):
                    out[key] = value
        out.update(dialect_vars(getattr(cls, "D", None)))
        return out

    @classmethod
    def tools(cls) -> dict[str, ToolSpec]:
        """Native tool surface (the paper's ``serve``): full name → spec."""
        cache = cls.__dict__.get("_tool_cache")
        if cache is None:
            cache = collect_tools(cls, cls.name, cls.TOOL_NAMES, cls.DISABLED_TOOLS, cls.doc_vars())
            cls._tool_cache = cache  # type: ignore[attr-defined]
        return cache

    def offered(self) -> dict[str, ToolSpec]:
        """The tools this instance offers (all of the class's by default)."""
        return type(self).tools()

    def describe(self, spec: ToolSpec) -> str:
        """The description an agent reads for ``spec`` (instances may fill in runtime facts)."""
        return spec.description

    @classmethod
    def schema_sql(cls) -> str:
        """The app's DDL: ``schema/<app>.sql`` (or its ``ARTIFACTS``)."""
        return cls.ARTIFACTS.schema if cls.ARTIFACTS is not None else schema_ddl(cls.name)

    @classmethod
    def view_sql(cls) -> str | None:
        """The app's projection of the book: ``views/<app>.sql`` (or its ``ARTIFACTS``); None: none."""
        if cls.ARTIFACTS is not None:
            return cls.ARTIFACTS.views or None
        if has_sql_resource("cfab.views", f"{cls.name}.sql"):
            return sql_resource("cfab.views", f"{cls.name}.sql")
        return None

    @classmethod
    def declared_tables(cls) -> list[str]:
        """Tables created by ``schema/<app>.sql``, qualified ``app.table``."""
        out = []
        for stmt in sqlglot.parse(cls.schema_sql(), read="duckdb"):
            if isinstance(stmt, exp.Create) and stmt.kind == "TABLE":
                table = stmt.find(exp.Table)
                if table is None:
                    raise ValueError(f"{cls.name}: a CREATE TABLE names no table: {stmt.sql(dialect='duckdb')}")
                out.append(f"{table.db or cls.schema_name()}.{table.name}")
        return out

    @classmethod
    def manifest(cls) -> AppManifest:
        tools = cls.tools()
        return AppManifest(
            app=cls.name,
            label=cls.label,
            kind=cls.kind,
            archetype=cls.archetype,
            tier=cls.tier,
            schema_name=cls.schema_name(),
            state_tables=cls.declared_tables(),
            tools=list(tools),
            money_guarded_tools=[n for n, s in tools.items() if s.guarded],
        )

    # ------------------------------------------------------------------ seed
    @classmethod
    def seed(cls, con: duckdb.DuckDBPyConnection, inputs: BuildInputs) -> None:
        """Create the app schema and project the book into it (``views/<app>.sql``).

        A table-level PRIMARY KEY is added once the table is filled (one bulk index build
        instead of an index insert per row; the same constraint, the same catalog entry, and a
        duplicate key fails the build just the same)."""
        ddl, keys = defer_primary_keys(cls.schema_sql())
        run_script(con, ddl)
        views = cls.view_sql()
        if views is not None:
            run_script(con, views)
        for statement in keys:
            con.execute(statement)

    # ------------------------------------------------------------------ contract (delegated)
    def snapshot(self) -> Any:
        return self._env().snapshot()

    def reset(self, snapshot: Any) -> None:
        self._env().reset(snapshot)

    def state_diff(self, before: Any = None, full: bool = False) -> Any:
        diff = self._env().state_diff(before, full=full)
        return diff.only([self.schema_name()]) if hasattr(diff, "only") else diff

    def guarded_calls(self) -> list[Any]:
        return [g for g in self._env().guarded_calls() if getattr(g, "app", None) == self.name]

    def peer(self, name: str) -> App:
        """Another app composed in the same environment (for integrations such as ERP sync)."""
        app = self.ctx.apps.get(name)
        if app is None:
            raise ToolError(f"{name} is not connected in this environment", "rejected")
        return app

    def _env(self) -> EnvHooks:
        if self.ctx.env is None:
            raise RuntimeError(f"{self.name} is not attached to an Environment")
        return self.ctx.env

    # ------------------------------------------------------------------ reading helpers
    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        return self.ctx.con

    @property
    def now(self) -> datetime:
        return self.ctx.now

    @property
    def today(self) -> date:
        return self.ctx.clock

    def tbl(self, name: str) -> TableInfo:
        """A table of this app's schema by native name (case-insensitive)."""
        return self.ctx.catalog.get(f"{self.schema_name()}.{name}")

    def query(self, sql: str | exp.Expression, params: Sequence[Any] | None = None) -> list[dict[str, Any]]:
        text = sql if isinstance(sql, str) else to_sql(sql)
        cur = self.con.execute(text, list(params) if params else None)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    def select(
        self,
        table: str,
        where: Mapping[str, Any] | None = None,
        *,
        extra: exp.Expr | str | None = None,
        columns: Iterable[str] | None = None,
        order_by: Iterable[str] | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """Rows of one own table filtered by equality (``None`` filters are skipped)."""
        info = self.tbl(table)
        filters = {k: v for k, v in (where or {}).items() if v is not None}
        q = exp.select(*([col(info.column(c)) for c in columns] if columns else ["*"])).from_(info.table_expr())
        q = q.where(equals_all(filters, info))
        if extra is not None:
            q = q.where(extra)
        for c in order_by or info.pk:
            q = q.order_by(col(info.column(c)))
        if limit is not None:
            q = q.limit(limit)
        return self.query(q)

    def require(self, table: str, what: str, **where: Any) -> dict[str, Any]:
        """The single row matching ``where`` or a not-found ToolError naming what was sought."""
        rows = self.select(table, where)
        if not rows:
            shown = ", ".join(f"{k}={v!r}" for k, v in where.items())
            raise ToolError(f"no {what} with {shown} in {self.label}", "not_found")
        return rows[0]

    # ------------------------------------------------------------------ writing (through the gate)
    @property
    def gate(self) -> WriteGate:
        return self.ctx.gate

    def insert(self, table: str, row: Mapping[str, Any]) -> dict[str, Any]:
        return self.gate.insert(self.tbl(table).qualified, row)

    def insert_many(self, table: str, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Insert several rows of one table in one pass through the gate (one rule query)."""
        return self.gate.insert_many(self.tbl(table).qualified, rows)

    def update(self, table: str, key: Mapping[str, Any] | Sequence[Any], values: Mapping[str, Any]) -> int:
        return self.gate.update(self.tbl(table).qualified, key, values)

    def delete(self, table: str, key: Mapping[str, Any] | Sequence[Any]) -> int:
        return self.gate.delete(self.tbl(table).qualified, key)

    def new_id(self, *natural_key: Any, length: int = 12) -> str:
        """A deterministic id for a created record, hashed from its natural key."""
        return stable_id(self.name, *natural_key, length=length)


def rules_for(apps: Iterable[type[App]]) -> RuleSet:
    """The write rules of a world composing ``apps``: every packaged rule file
    (``triggers/rules/*.toml``) plus the rules of the apps that carry their own (``ARTIFACTS``)."""
    return _rules_with(
        tuple(sorted({a for a in apps if a.ARTIFACTS is not None and a.ARTIFACTS.rules}, key=lambda a: a.name))
    )


@functools.lru_cache(maxsize=8)
def _rules_with(carried: tuple[type[App], ...]) -> RuleSet:
    packaged = load_rules()
    if not carried:
        return packaged
    rules, assertions = list(packaged.rules), list(packaged.assertions)
    for app in carried:
        assert app.ARTIFACTS is not None
        parsed = parse_rule_text(app.ARTIFACTS.rules, f"{app.name} (ARTIFACTS.rules)")
        rules += parsed.rules
        assertions += parsed.assertions
    return RuleSet(rules, assertions)
