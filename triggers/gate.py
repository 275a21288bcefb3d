"""The one write gate. DuckDB has no triggers, so every write to an app table — from a
tool, from agent SQL (``sql.execute``), over HTTP or MCP — is expressed as an intent
(insert rows / update-where / delete-where) and passes through :class:`WriteGate`:

1. the affected rows are resolved (``SELECT old.* … WHERE <where>``) together with every
   applicable rule's predicate, where ``new.<col>`` is replaced by the assignment (or the
   inserted literal) and ``old.<col>`` by the current value (NULL for inserts);
2. the first matching rule decides: ``reject`` raises :class:`WriteRejected`, ``guard``
   raises :class:`GuardTripped` (the caller rolls back and records a staged call), ``allow``
   stops rule evaluation;
3. the write executes with bound parameters, and every written key is recorded in
   ``cfab_internal.written_rows`` (the diff's fast path);
4. :meth:`finish` checks the assertions over the groups the call touched (a journal entry
   must balance) before the caller commits.

The gate never opens or commits transactions: the caller wraps one tool call in one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

import duckdb
from sqlglot import exp

from cfab.schema.catalog import HIDDEN_SCHEMAS, Catalog, TableInfo
from cfab.schema.sqlbuild import col, ident, key_predicate, literal, parse_expr, pk_key, to_sql
from cfab.triggers.rules import Rule, RuleSet, load_rules


class WriteRejected(Exception):
    """A write refused by a rule, an assertion or a type check; the message is agent-facing."""

    def __init__(self, message: str, rule_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule_id = rule_id


class GuardTripped(Exception):
    """A write that would move money / post / file / sign: stage it, never execute it."""

    def __init__(self, rule: Rule, table: str, op: str, row: Mapping[str, Any]) -> None:
        super().__init__(rule.message)
        self.rule = rule
        self.table = table
        self.op = op
        self.row = dict(row)


@dataclass
class _Touched:
    info: TableInfo
    keys: set[tuple]
    groups: dict[str, set[tuple]]  # assertion id -> the group keys this call touched


class WriteGate:
    """Applies write intents to one attempt connection under the rule set."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        catalog: Catalog,
        rules: RuleSet | None = None,
        writable_schemas: set[str] | None = None,
    ) -> None:
        self.con = con
        self.catalog = catalog
        self.rules = rules if rules is not None else load_rules()
        self.writable = {s.lower() for s in writable_schemas} if writable_schemas is not None else None
        self._seq = 0
        self._touched: dict[str, _Touched] = {}
        self._workflows: list[str] = []

    @contextmanager
    def workflow(self, name: str) -> Iterator[None]:
        """Run the enclosed writes as the named tool workflow: rules that list ``name`` in
        ``except_in`` do not apply to them (a sync may mark a record synced; agent SQL, which
        never runs in a workflow, may not)."""
        self._workflows.append(name)
        try:
            yield
        finally:
            self._workflows.pop()

    def _rules_for(self, info: TableInfo, op: str) -> list[Rule]:
        return self.rules.for_table(info.qualified, op, frozenset(self._workflows))

    # ------------------------------------------------------------------ call lifecycle
    def begin(self, seq: int) -> None:
        """Start a tool call (the caller has opened a transaction)."""
        self._seq = seq
        self._touched = {}

    def finish(self) -> None:
        """Check assertions over touched groups and record written rows (before commit)."""
        for touched in self._touched.values():
            for assertion in self.rules.assertions_for(touched.info.qualified):
                self._check_assertion(touched, assertion)
        rows = [(t.info.qualified, pk_key(k)) for t in self._touched.values() for k in t.keys]
        for chunk in _chunks(rows, 500):
            values = exp.values([(literal(t), literal(k), literal(self._seq)) for t, k in chunk])
            stmt = exp.insert(values, "cfab_internal.written_rows")
            self.con.execute(to_sql(stmt) + " ON CONFLICT DO NOTHING")
        self._touched = {}

    # ------------------------------------------------------------------ intents
    def insert(self, table: str, row: Mapping[str, Any]) -> dict[str, Any]:
        """Insert one row (column → value); returns the row with declared column spellings."""
        return self.insert_many(table, [row])[0]

    def insert_many(self, table: str, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Insert rows: one rule query for all of them, then multi-row INSERTs."""
        info = self._table(table)
        prepared: list[dict[str, Any]] = []
        for raw in rows:
            row = {_column(info, k): v for k, v in raw.items()}
            prepared.append({name: self._check_value(info, name, value) for name, value in row.items()})
        if not prepared:
            return []
        self._apply_insert_rules(info, prepared)
        groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for row in prepared:
            groups.setdefault(tuple(row), []).append(row)
        for cols, members in groups.items():
            for chunk in _chunks(members, 200):
                placeholders = [tuple(exp.Placeholder() for _ in cols) for _ in chunk]
                stmt = exp.insert(exp.values(placeholders), info.table_expr(), columns=[ident(c) for c in cols])
                self.con.execute(to_sql(stmt), [r[c] for r in chunk for c in cols])
        self._touch(info, [tuple(r.get(c) for c in info.pk) for r in prepared], prepared)
        return prepared

    def update(self, table: str, key: Mapping[str, Any] | Sequence[Any], values: Mapping[str, Any]) -> int:
        """Update the row with this primary key; values are Python values (typed literals)."""
        info = self._table(table)
        where = self._key_where(info, key)
        columns = {c: _column(info, c) for c in values}
        assignments = {
            columns[c]: literal(self._check_value(info, columns[c], v), info.columns[columns[c]])
            for c, v in values.items()
        }
        count = self._update(info, where, assignments)
        if count == 0:
            raise WriteRejected(f"no row in {info.qualified} with key {self._key_text(info, key)}")
        return count

    def update_where(self, table: str, where: exp.Expr | str | None, assignments: Mapping[str, exp.Expr | str]) -> int:
        """Update every row matching ``where`` with SQL expressions over the row's own columns."""
        info = self._table(table)
        where_expr = parse_expr(where) if isinstance(where, str) else (where or exp.true())
        parsed = {_column(info, c): (parse_expr(e) if isinstance(e, str) else e) for c, e in assignments.items()}
        return self._update(info, where_expr, parsed)

    def delete(self, table: str, key: Mapping[str, Any] | Sequence[Any]) -> int:
        info = self._table(table)
        count = self.delete_where(info.qualified, self._key_where(info, key))
        if count == 0:
            raise WriteRejected(f"no row in {info.qualified} with key {self._key_text(info, key)}")
        return count

    def delete_where(self, table: str, where: exp.Expr | str | None) -> int:
        info = self._table(table)
        where_expr = parse_expr(where) if isinstance(where, str) else (where or exp.true())
        olds = self._resolve(info, "delete", where_expr, {})
        if not olds:
            return 0
        keys = [tuple(o[c] for c in info.pk) for o in olds]
        stmt = exp.delete(info.table_expr(), where=key_predicate(info, keys))
        self.con.execute(to_sql(stmt))
        self._touch(info, keys, olds)
        return len(olds)

    # ------------------------------------------------------------------ internals
    def _table(self, table: str) -> TableInfo:
        try:
            info = self.catalog.get(table)
        except KeyError:
            raise WriteRejected(f"unknown table {table!r}") from None
        schema = info.schema.lower()
        if schema in HIDDEN_SCHEMAS or (self.writable is not None and schema not in self.writable):
            raise WriteRejected(f"table {info.qualified} is not writable in this environment")
        if not info.pk:
            raise WriteRejected(f"table {info.qualified} has no primary key and cannot be written")
        return info

    def _update(self, info: TableInfo, where: exp.Expr, assignments: dict[str, exp.Expr]) -> int:
        if not assignments:
            return 0
        bad = [c for c in assignments if c in info.pk]
        if bad:
            raise WriteRejected(f"primary key column(s) {', '.join(bad)} of {info.qualified} cannot be changed")
        olds = self._resolve(info, "update", where, assignments)
        if not olds:
            return 0
        keys = [tuple(o[c] for c in info.pk) for o in olds]
        # sqlglot types update()'s SET keys as str, but parses any expression: an Identifier keeps the column quoted
        stmt = exp.update(
            info.table_expr(),
            {ident(c): e for c, e in assignments.items()},  # type: ignore[misc]
            where=key_predicate(info, keys),
        )
        self.con.execute(to_sql(stmt))
        news = self._fetch(info, keys) if self.rules.assertions_for(info.qualified) else []
        self._touch(info, keys, olds + news)
        return len(olds)

    def _resolve(
        self, info: TableInfo, op: str, where: exp.Expr, assignments: Mapping[str, exp.Expr]
    ) -> list[dict[str, Any]]:
        """Rows matching ``where`` with the verdict of each rule; raises on reject/guard."""
        rules = self._rules_for(info, op)
        new_map = {c: _qualify(e, "old") for c, e in assignments.items()}
        select = exp.select(exp.column(exp.Star(), table=ident("old")))
        for i, rule in enumerate(rules):
            pred = _rewrite(self.rules.condition(rule, op), info, new=new_map, old_alias="old")
            select = select.select(exp.alias_(exp.func("coalesce", pred, exp.false()), f"__rule{i}"))
        select = select.from_(info.table_expr().as_("old")).where(_qualify(where, "old"))
        cur = self.con.execute(to_sql(select))
        names = [d[0] for d in cur.description]
        out: list[dict[str, Any]] = []
        for values in cur.fetchall():
            rec = dict(zip(names, values, strict=True))
            verdicts = [rec.pop(f"__rule{i}") for i in range(len(rules))]
            self._decide(info, op, rules, verdicts, rec)
            out.append(rec)
        return out

    def _apply_insert_rules(self, info: TableInfo, rows: list[dict[str, Any]]) -> None:
        """Evaluate every insert rule over every new row in one query (``new.c`` = the row's value).

        Only the columns the rules mention become literals (a file's bytes never do unless a
        rule reads them)."""
        rules = self._rules_for(info, "insert")
        if not rules:
            return
        trees = [self.rules.condition(r, "insert") for r in rules]
        used = {
            info.column(c.name)
            for t in trees
            for c in t.find_all(exp.Column)
            if c.table.lower() == "new" and c.name.lower() in {k.lower() for k in info.columns}
        }
        cols = [c for c in dict.fromkeys(k for r in rows for k in r) if c in used] or ["__one"]
        tuples = [tuple(literal(r.get(c), info.columns[c]) if c != "__one" else literal(1) for c in cols) for r in rows]
        values = exp.values(tuples, alias="__new", columns=cols)
        new_map = {c: col(c, "__new") for c in cols if c != "__one"}
        select = exp.select(
            *[
                exp.alias_(
                    exp.func("coalesce", _rewrite(t, info, new=new_map, old_alias=None), exp.false()), f"__rule{i}"
                )
                for i, t in enumerate(trees)
            ]
        ).from_(values)
        for row, verdicts in zip(rows, self.con.execute(to_sql(select)).fetchall(), strict=True):
            self._decide(info, "insert", rules, list(verdicts), row)

    def _decide(self, info: TableInfo, op: str, rules: list[Rule], verdicts: list[bool], row: dict) -> None:
        for rule, hit in zip(rules, verdicts, strict=True):
            if not hit:
                continue
            if rule.action == "allow":
                return
            if rule.action == "guard":
                raise GuardTripped(rule, info.qualified, op, row)
            raise WriteRejected(_format(rule.message, row), rule.id)

    def _check_value(self, info: TableInfo, column: str, value: Any) -> Any:
        type_text = info.columns[column].upper()
        if value is None or not type_text.startswith("DECIMAL"):
            return value
        if isinstance(value, float):
            value = repr(value)
        try:
            dec = Decimal(str(value))
        except InvalidOperation:
            raise WriteRejected(f"{info.qualified}.{column} needs a decimal amount, got {value!r}") from None
        scale = int(type_text.rstrip(")").split(",")[1]) if "," in type_text else 0
        if not dec.is_finite():
            raise WriteRejected(f"{info.qualified}.{column} needs a finite decimal amount, got {value}")
        try:
            exact = dec == dec.quantize(Decimal(1).scaleb(-scale))
        except InvalidOperation:  # beyond 28 significant digits (e.g. 1e309)
            raise WriteRejected(f"{info.qualified}.{column} is out of range for {type_text}, got {value}") from None
        if not exact:
            raise WriteRejected(f"{info.qualified}.{column} takes at most {scale} decimal places, got {value}")
        return dec

    def _key_where(self, info: TableInfo, key: Mapping[str, Any] | Sequence[Any]) -> exp.Expr:
        values = [key[k] for k in _key_lookup(info, key)] if isinstance(key, Mapping) else list(key)
        if len(values) != len(info.pk):
            raise WriteRejected(f"{info.qualified} key needs {len(info.pk)} value(s): {', '.join(info.pk)}")
        return key_predicate(info, [values])

    @staticmethod
    def _key_text(info: TableInfo, key: Mapping[str, Any] | Sequence[Any]) -> str:
        if isinstance(key, Mapping):
            return ", ".join(f"{k}={v!r}" for k, v in key.items())
        return ", ".join(f"{c}={v!r}" for c, v in zip(info.pk, key, strict=True))  # _key_where checked the width

    def _fetch(self, info: TableInfo, keys: list[tuple]) -> list[dict[str, Any]]:
        cur = self.con.execute(to_sql(exp.select("*").from_(info.table_expr()).where(key_predicate(info, keys))))
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]

    def _touch(self, info: TableInfo, keys: list[tuple], rows: list[dict[str, Any]]) -> None:
        touched = self._touched.setdefault(info.qualified.lower(), _Touched(info, set(), {}))
        touched.keys.update(keys)
        for assertion in self.rules.assertions_for(info.qualified):
            group_cols = [info.column(c) for c in assertion.group_by]
            touched.groups.setdefault(assertion.id, set()).update(tuple(r.get(c) for c in group_cols) for r in rows)

    def _check_assertion(self, touched: _Touched, assertion) -> None:
        info = touched.info
        group_cols = [info.column(c) for c in assertion.group_by]
        groups = [g for g in touched.groups.get(assertion.id, ()) if all(v is not None for v in g)]
        if not groups:
            return
        types = [info.columns[c] for c in group_cols]
        if len(group_cols) == 1:
            in_pred: exp.Expr = exp.In(this=col(group_cols[0]), expressions=[literal(g[0], types[0]) for g in groups])
        else:
            in_pred = exp.In(
                this=exp.Tuple(expressions=[col(c) for c in group_cols]),
                expressions=[
                    exp.Tuple(expressions=[literal(v, t) for v, t in zip(g, types, strict=True)]) for g in groups
                ],
            )
        query = (
            exp.select(*[col(c) for c in group_cols])
            .from_(info.table_expr())
            .where(in_pred)
            .group_by(*[col(c) for c in group_cols])
            .having(exp.not_(exp.paren(_rule_tree(assertion.check).copy())))
        )
        bad = self.con.execute(to_sql(query)).fetchone()
        if bad is not None:
            raise WriteRejected(_format(assertion.message, dict(zip(group_cols, bad, strict=True))), assertion.id)


def _column(info: TableInfo, name: str) -> str:
    """The declared spelling of a column being written; an unknown column is a refused write."""
    try:
        return info.column(name)
    except KeyError as exc:
        raise WriteRejected(str(exc.args[0]) if exc.args else f"{info.qualified} has no column {name!r}") from None


def _key_lookup(info: TableInfo, key: Mapping[str, Any]) -> list[str]:
    lowered = {k.lower(): k for k in key}
    missing = [c for c in info.pk if c.lower() not in lowered]
    if missing:
        raise WriteRejected(f"{info.qualified} key is missing {', '.join(missing)}")
    return [lowered[c.lower()] for c in info.pk]


@lru_cache(maxsize=4096)
def _rule_tree(text: str) -> exp.Expr:
    """A rule's or assertion's SQL, parsed once per process (never mutated: callers copy)."""
    return parse_expr(text)


def _qualify(node: exp.Expr, alias: str) -> exp.Expr:
    """Qualify bare column references with ``alias`` (the row being written)."""

    def fix(n: exp.Expr) -> exp.Expr:
        if isinstance(n, exp.Column) and not n.table:
            return exp.column(n.this.copy(), table=ident(alias))
        return n

    return node.transform(fix)  # transform copies the tree


def _rewrite(pred: exp.Expr, info: TableInfo, *, new: Mapping[str, exp.Expr], old_alias: str | None) -> exp.Expr:
    """Replace ``new.c`` by the new value of c and ``old.c`` by the current value (or NULL)."""

    def fix(n: exp.Expr) -> exp.Expr:
        if not isinstance(n, exp.Column) or n.table.lower() not in ("new", "old"):
            return n
        name = info.column(n.name)
        if n.table.lower() == "new":
            if name in new:
                return new[name].copy()
            return col(name, old_alias) if old_alias else exp.Null()
        return col(name, old_alias) if old_alias else exp.Null()

    return pred.transform(fix)  # transform copies the tree; the cached original stays intact


class _Row(dict):
    def __missing__(self, key: str) -> str:
        for k, v in self.items():
            if k.lower() == key.lower():
                return v
        return "{" + key + "}"


def _format(message: str, row: Mapping[str, Any]) -> str:
    try:
        return message.format_map(_Row(row))
    except (ValueError, IndexError, AttributeError):
        return message


def _chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]
