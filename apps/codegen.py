"""What every archetype's code generator shares: archetype SQL rendered for one vendor, rule
entries and rule files, and writing the generated files / telling which committed ones are stale.

An archetype written as a model plus SQL writes its SQL once over a ``vendor`` schema:
``vendor.<logical table>`` for the vendor's native tables, ``$name`` for a vendor's value and
``vendor_<name>(args)`` for a vendor's expression; :class:`VendorSql` parses it with sqlglot and
puts one vendor's pieces in. A generator builds a ``{path: text}`` map of its outputs
(:func:`vendor_outputs`); :func:`main_for` writes them (``python -m cfab.apps.<archetype>.gen``)
and :func:`stale` lists the committed files that differ, which the archetype's staleness test
asserts is empty. (``cfab.apps.bank.gen`` uses this module; the names and behaviour are those of
the generic part of ``cfab.apps.payroll.gen``, so that one can import them from here.)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp

ROOT = Path(__file__).resolve().parents[1]  # the repository (apps/ is a top-level folder)
TEMPLATE_SCHEMA = "vendor"  # the schema archetype SQL names its logical tables in
ALL_OPS = ["insert", "update", "delete"]


def lit(value: str) -> exp.Literal:
    return exp.Literal.string(value)


def sql_text(e: exp.Expr) -> str:
    return e.sql(dialect="duckdb")


def sql_comments(lines: Iterable[str]) -> list[str]:
    """SQL comment lines (``-- ...``) for text lines."""
    return [f"-- {line}" if line else "--" for line in lines]


# ---------------------------------------------------------------------------------------------
# Archetype SQL for one vendor
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class VendorSql:
    """What an archetype's SQL needs from one vendor: its schema, the native table of each logical
    one, the expression of each ``vendor_<name>(...)`` call and the value of each ``$name``."""

    schema: str
    tables: Mapping[str, str]
    functions: Mapping[str, Callable[..., exp.Expr]] = field(default_factory=dict)
    values: Mapping[str, exp.Expr] = field(default_factory=dict)

    def table(self, logical: str, alias: str | None = None) -> exp.Table:
        if logical not in self.tables:
            raise KeyError(f"{self.schema}: no native table for {TEMPLATE_SCHEMA}.{logical}")
        return exp.Table(
            this=exp.to_identifier(self.tables[logical]),
            db=exp.to_identifier(self.schema),
            alias=exp.TableAlias(this=exp.to_identifier(alias)) if alias else None,
        )

    def render(self, sql: str) -> exp.Expr:
        """Parse archetype SQL and put this vendor's tables, expressions and values in."""
        tree = sqlglot.parse_one(sql, read="duckdb")
        missing = sorted({p.name for p in tree.find_all(exp.Placeholder)} - set(self.values))
        if missing:
            raise KeyError(f"{self.schema}: no value for the placeholders {missing}")

        def put_in(node: exp.Expr) -> exp.Expr:
            if isinstance(node, exp.Placeholder):
                return self.values[node.name].copy()
            if isinstance(node, exp.Table) and node.db == TEMPLATE_SCHEMA:
                native = self.table(node.name)
                native.set("alias", node.args.get("alias"))
                return native
            if isinstance(node, exp.Anonymous) and str(node.this).lower().startswith(f"{TEMPLATE_SCHEMA}_"):
                name = str(node.this).lower().removeprefix(f"{TEMPLATE_SCHEMA}_")
                if name not in self.functions:
                    raise KeyError(f"{self.schema}: no vendor function {name!r}")
                return self.functions[name](*node.expressions)
            return node

        return tree.transform(put_in)


def statements_sql(d: VendorSql, parts: Sequence[tuple[Sequence[str], str]]) -> list[str]:
    """Each (comment lines, archetype statement) rendered for ``d``: the comment, then the statement."""
    out: list[str] = []
    for comment, sql in parts:
        out += [*sql_comments(comment), d.render(sql).sql(dialect="duckdb", pretty=True) + ";", ""]
    return out


def entities_sql(d: VendorSql, entities: Sequence[tuple[str, str]], header: Iterable[str]) -> str:
    """A ``views/entities/<app>.sql`` file: ``header`` (comment lines as given), then
    ``-- entity: <name>`` and the vendor's SELECT per entity."""
    out = [*header, ""]
    for entity, sql in entities:
        out += [f"-- entity: {entity}", d.render(sql).sql(dialect="duckdb", pretty=True) + ";", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------
def rule(rule_id: str, table: str, action: str, message: str, **fields: Any) -> dict[str, Any]:
    """A rule entry in the gate's key order; ``fields`` are ``on``, ``partial``, ``when`` and
    ``fact`` (text or sqlglot trees), ``parent`` (rule id, link) and ``guarded_kind``, each written
    only when given."""
    out: dict[str, Any] = {"id": rule_id, "table": table}
    for key in ("on", "partial", "when", "fact"):
        value = fields.get(key)
        if value is not None:
            out[key] = sql_text(value) if isinstance(value, exp.Expression) else value
    if fields.get("parent") is not None:
        parent_rule, link = fields["parent"]
        out["parent"] = {"rule": parent_rule, "link": link}
    out["action"] = action
    if fields.get("guarded_kind"):
        out["guarded_kind"] = fields["guarded_kind"]
    out["message"] = message
    return out


def toml_value(value: Any) -> str:
    """A TOML value for a string, number, bool, list or inline table (strings JSON-quoted)."""
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in value.items()) + " }"
    return json.dumps(value)


def rules_toml(
    header: Iterable[str], rules: Sequence[Mapping[str, Any]], assertions: Sequence[Mapping[str, Any]] = ()
) -> str:
    """A rule file (``triggers/rules/<app>.toml``): ``header`` (``#`` comment lines as given), then
    one ``[[rules]]`` table per rule and one ``[[assertions]]`` table per assertion, keys in order."""
    out = [*header, ""]
    for kind, tables in (("rules", rules), ("assertions", assertions)):
        for table in tables:
            out.append(f"[[{kind}]]")
            out += [f"{k} = {toml_value(v)}" for k, v in table.items()]
            out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------------
def paths(app: str, root: Path = ROOT) -> dict[str, Path]:
    """Where each kind of generated file of ``app`` lives."""
    return {
        "schema": root / "schema" / f"{app}.sql",
        "views": root / "views" / f"{app}.sql",
        "entities": root / "views" / "entities" / f"{app}.sql",
        "rules": root / "triggers" / "rules" / f"{app}.toml",
    }


def vendor_outputs(
    dialects: Mapping[str, Any], render: Callable[[Any], Mapping[str, str]], root: Path = ROOT
) -> dict[Path, str]:
    """Every vendor's generated files under ``root``: path -> text (``render`` gives them by kind)."""
    files: dict[Path, str] = {}
    for app, d in dialects.items():
        where = paths(app, root)
        files.update({where[kind]: text for kind, text in render(d).items()})
    return files


def stale(files: Mapping[Path, str]) -> list[Path]:
    """The generated files whose committed text differs from ``files`` (or that are missing)."""
    return [p for p, text in files.items() if not p.is_file() or p.read_text(encoding="utf-8") != text]


def write_outputs(files: Mapping[Path, str], root: Path) -> None:
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(root)}")


def main_for(outputs: Callable[[Path], Mapping[Path, str]], argv: Sequence[str] | None = None) -> int:
    """``python -m cfab.apps.<archetype>.gen [ROOT]``: (re)write the generated files under ROOT
    (default: this repository)."""
    root = Path(argv[0]) if argv else ROOT
    write_outputs(outputs(root), root)
    return 0
