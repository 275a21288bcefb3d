"""The consistency check: every pair of apps that model the same entity must agree, through the
crosswalks, except where the divergence registry says they deliberately don't.

Each app may ship ``views/entities/<app>.sql``: one SELECT per entity it models, each preceded
by a header line ``-- entity: <entity>`` (and optionally ``-- scope: <label>``), returning
``entity_key`` (the book's natural key, resolved through the hh2 crosswalks where the app's
ids differ) plus any logical fields of the entity::

    -- entity: vendor
    -- scope: all_vendors
    SELECT m.master_vendor_id AS entity_key, v.Name AS name, v.TaxId AS tin
    FROM vista_erp.APVM v
    JOIN hh2.vendor_map m ON m.system = 'vista_erp' AND m.system_vendor_id = CAST(v.Vendor AS VARCHAR);

For every entity and every pair of apps: on the keys both hold, every shared field must be
equal (exact decimals, exact strings); when both queries declare the same scope, the key sets
must also be equal (field ``presence``). A difference is allowed only when ``book.divergences``
holds an instance with that entity, key and field naming one of the two apps, of a kind listed
in ``views/divergences.toml``. Anything else is reported, naming the rows.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from importlib import resources
from typing import Any

import duckdb

ENTITY_FIELDS: dict[str, tuple[str, ...]] = {
    "vendor": ("name", "tin"),
    "job": ("name", "contract_amount", "est_cost_to_complete"),
    "commitment": ("job_number", "vendor_key", "amount"),
    "invoice": ("job_number", "gross_amount", "retainage_amount", "net_amount"),
    "employee": ("name", "classification", "base_rate"),
    "check": ("amount", "payee_name", "issue_date"),
    "change_event": ("amount",),
    "cost_code": ("description", "erp_phase"),
    "equipment": ("name", "hourly_rate"),
}
_HEADER = re.compile(r"^--\s*(entity|scope)\s*:\s*(\S+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class EntityQuery:
    app: str
    entity: str
    scope: str | None
    sql: str


@dataclass(frozen=True)
class Difference:
    entity: str
    entity_key: str
    field: str
    app_a: str
    app_b: str
    value_a: Any
    value_b: Any
    registered: bool
    divergence_id: str | None = None

    def describe(self) -> str:
        if self.field == "presence":
            holder, other = (self.app_a, self.app_b) if self.value_a else (self.app_b, self.app_a)
            text = f"{self.entity} {self.entity_key}: present in {holder}, absent from {other}"
        else:
            text = (
                f"{self.entity} {self.entity_key} {self.field}: "
                f"{self.app_a}={self.value_a!r} {self.app_b}={self.value_b!r}"
            )
        return text + (f" (registered: {self.divergence_id})" if self.registered else " (NOT registered)")


@dataclass
class ConsistencyReport:
    compared_pairs: int = 0
    compared_values: int = 0
    queries: list[EntityQuery] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    registry_errors: list[str] = field(default_factory=list)

    @property
    def unregistered(self) -> list[Difference]:
        return [d for d in self.differences if not d.registered]

    @property
    def ok(self) -> bool:
        return not self.unregistered and not self.registry_errors

    def summary(self) -> str:
        lines = [
            f"consistency: {len(self.queries)} entity projections, {self.compared_pairs} app pairs, "
            f"{self.compared_values} values compared; {len(self.differences) - len(self.unregistered)} "
            f"registered divergences, {len(self.unregistered)} unregistered differences"
        ]
        lines += [f"  registry: {e}" for e in self.registry_errors]
        lines += [f"  {d.describe()}" for d in self.unregistered[:200]]
        if len(self.unregistered) > 200:
            lines.append(f"  … and {len(self.unregistered) - 200} more")
        return "\n".join(lines)


def divergence_kinds() -> dict[str, dict[str, Any]]:
    text = resources.files("cfab.views").joinpath("divergences.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)["kinds"]


def parse_entity_file(app: str, text: str) -> list[EntityQuery]:
    """Split an entities file into its ``-- entity:`` sections."""
    out: list[EntityQuery] = []
    entity: str | None = None
    scope: str | None = None
    body: list[str] = []

    def flush() -> None:
        sql = "\n".join(body).strip().rstrip(";").strip()
        if entity and sql:
            if entity not in ENTITY_FIELDS:
                raise ValueError(
                    f"views/entities/{app}.sql: unknown entity {entity!r}; known: {', '.join(ENTITY_FIELDS)}"
                )
            out.append(EntityQuery(app, entity, scope, sql))

    for line in text.splitlines():
        m = _HEADER.match(line.strip())
        if m and m.group(1).lower() == "entity":
            flush()
            entity, scope, body = m.group(2), None, []
        elif m:
            scope = m.group(2)
        else:
            body.append(line)
    flush()
    return out


def load_entity_queries(apps: list[str]) -> list[EntityQuery]:
    folder = resources.files("cfab.views").joinpath("entities")
    out: list[EntityQuery] = []
    for app in apps:
        ref = folder.joinpath(f"{app}.sql")
        if ref.is_file():
            out.extend(parse_entity_file(app, ref.read_text(encoding="utf-8")))
    return out


def _entity_apps() -> list[str]:
    folder = resources.files("cfab.views").joinpath("entities")
    return sorted(ref.name.removesuffix(".sql") for ref in folder.iterdir() if ref.name.endswith(".sql"))


def check_consistency(con: duckdb.DuckDBPyConnection, apps: list[str] | None = None) -> ConsistencyReport:
    """Compare every pair of apps per entity on ``con`` (a golden file) and report differences.

    ``apps`` defaults to every app schema in the file that has an entity projection
    (``views/entities/<app>.sql``)."""
    names = apps if apps is not None else _entity_apps()
    present = {r[0] for r in con.execute("SELECT schema_name FROM duckdb_schemas()").fetchall()}
    names = [a for a in names if a in present]
    report = ConsistencyReport(queries=load_entity_queries(names))
    kinds = divergence_kinds()
    registry = _load_registry(con, kinds, report)
    data: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for q in report.queries:
        try:
            cur = con.execute(q.sql)
        except duckdb.Error as exc:
            report.registry_errors.append(f"{q.app} entity {q.entity}: query failed: {exc}")
            continue
        cols = [d[0] for d in cur.description]
        if "entity_key" not in cols:
            report.registry_errors.append(f"{q.app} entity {q.entity}: no entity_key column")
            continue
        rows: dict[str, dict[str, Any]] = {}
        for values in cur.fetchall():
            rec = dict(zip(cols, values, strict=True))
            key = str(rec.pop("entity_key"))
            if key in rows:
                report.registry_errors.append(f"{q.app} entity {q.entity}: duplicate entity_key {key}")
            rows[key] = {k: v for k, v in rec.items() if k in ENTITY_FIELDS[q.entity]}
        data[(q.app, q.entity)] = rows
    by_entity: dict[str, list[EntityQuery]] = {}
    for q in report.queries:
        if (q.app, q.entity) in data:
            by_entity.setdefault(q.entity, []).append(q)
    for entity, qs in by_entity.items():
        for qa, qb in itertools.combinations(sorted(qs, key=lambda q: q.app), 2):
            report.compared_pairs += 1
            ra, rb = data[(qa.app, entity)], data[(qb.app, entity)]
            for key in sorted(ra.keys() & rb.keys()):
                for fld in sorted(ra[key].keys() & rb[key].keys()):
                    report.compared_values += 1
                    va, vb = ra[key][fld], rb[key][fld]
                    if not _equal(va, vb):
                        _record(report, registry, entity, key, fld, qa.app, qb.app, va, vb)
            if qa.scope and qa.scope == qb.scope:
                for key in sorted(ra.keys() ^ rb.keys()):
                    _record(report, registry, entity, key, "presence", qa.app, qb.app, key in ra, key in rb)
    return report


def _load_registry(
    con: duckdb.DuckDBPyConnection, kinds: dict[str, dict[str, Any]], report: ConsistencyReport
) -> dict[tuple[str, str, str], list[tuple[str, set[str]]]]:
    registry: dict[tuple[str, str, str], list[tuple[str, set[str]]]] = {}
    # invoice instances may be keyed by the book's invoice_id; the check keys invoices vendor|number
    rows = con.execute("""
        SELECT d.divergence_id, d.kind, d.entity,
               CASE WHEN d.entity = 'invoice' AND i.invoice_id IS NOT NULL
                    THEN i.vendor_key || '|' || i.invoice_number ELSE d.entity_key END,
               d.field, d.apps
        FROM book.divergences d
        LEFT JOIN book.ap_invoices i ON d.entity = 'invoice' AND i.invoice_id = d.entity_key""").fetchall()
    for div_id, kind, entity, key, fld, apps in rows:
        spec = kinds.get(kind)
        app_set = {a.strip() for a in apps.split(",") if a.strip()}
        if spec is None:
            report.registry_errors.append(f"divergence {div_id}: unknown kind {kind!r}")
            continue
        if spec["entity"] != entity:
            report.registry_errors.append(f"divergence {div_id}: kind {kind} is about {spec['entity']}, not {entity}")
        stray = app_set - set(spec["apps"])
        if stray:
            report.registry_errors.append(f"divergence {div_id}: apps {sorted(stray)} are not in kind {kind}")
        registry.setdefault((entity, str(key), fld), []).append((div_id, app_set))
    return registry


def _record(
    report: ConsistencyReport, registry: dict, entity: str, key: str, fld: str, a: str, b: str, va: Any, vb: Any
) -> None:
    hit = None
    for div_id, apps in registry.get((entity, key, fld), []):
        if a in apps or b in apps:
            hit = div_id
            break
    report.differences.append(Difference(entity, key, fld, a, b, va, vb, hit is not None, hit))


def _equal(a: Any, b: Any) -> bool:
    if a == b and type(a) is type(b):
        return True
    if a is None or b is None:
        return a is None and b is None
    try:
        return Decimal(str(a)) == Decimal(str(b))
    except (InvalidOperation, ValueError):
        return str(a) == str(b)
