"""Declarative write rules, loaded from ``triggers/rules/*.toml``.

A rule names a table, the operations it watches, a SQL predicate over the ``old`` and ``new``
row (``old.Status = 'posted'``, ``new.Amount < 0``) and an action:

* ``reject`` — the write fails with the rule's message (a locked, posted or closed record);
* ``guard``  — the write is a money movement / e-sign / e-file / ERP post: it is recorded in the
  guard log with ``executed=false`` and not performed;
* ``allow``  — stop evaluating further rules for this row.

An assertion is checked after all writes of a tool call, over the groups the call touched
(``sum(Debit) = sum(Credit)`` per journal entry); a failing assertion rolls the call back.

Example::

    [[rules]]
    id = "procore.commitment_locked_after_sync"
    table = "procore.commitments"
    on = ["update", "delete"]
    when = "old.erp_sync_status = 'synced'"
    action = "reject"
    message = "commitment {number} is synced to the ERP and locked; change it in the ERP"

    [[assertions]]
    id = "vista_erp.journal_balanced"
    table = "vista_erp.GLJE"
    group_by = ["Mth", "BatchId"]
    check = "sum(Debit) = sum(Credit)"
    message = "journal batch {BatchId} does not balance"

Locks are written per protected fact rather than per operation. Instead of ``when`` a rule may
give a ``fact`` over ``row`` (the record), and the gate applies it to every operation: an
INSERT is refused when the new row has the fact ("born synced"), a DELETE when the old row
has it, an UPDATE when either has it (changing a locked row, or giving a row the fact)::

    [[rules]]
    id = "procore.requisition_synced"
    table = "procore.requisitions"
    fact = "row.locked OR lower(trim(row.erp_sync_status)) = 'synced'"
    except_in = ["procore.erp.sync"]     # the tool workflow that may establish the fact
    action = "reject"
    message = "requisition #{number} is synced to the ERP and locked"

A child row inherits its parent's fact with ``parent`` (the parent's rule, and a predicate
linking ``parent.<col>`` to ``row.<col>``): a line of a synced requisition may not be inserted,
changed or deleted, nor moved into or out of one::

    [[rules]]
    id = "procore.requisition_lines_synced"
    table = "procore.requisition_line_items"
    parent = { rule = "procore.requisition_synced", link = "parent.id = row.requisition_id" }
    action = "reject"
    message = "requisition id {requisition_id} is synced to the ERP; its lines are locked"

``columns`` narrows an UPDATE to changes of those columns (a posted projection locks the
projection's columns, not the job); the fact's own columns must be among them. ``except_in``
names gate workflows (``WriteGate.workflow``) in which the rule does not apply: a tool opens
one around the writes of its own workflow (syncing, entering a new projection); agent SQL
never runs in one. ``on`` defaults to all three operations; a reject rule that lists fewer
must say why in ``partial``.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from typing import Literal

import sqlglot
from pydantic import Field, field_validator, model_validator
from sqlglot import exp

from cfab.schema.models import CfabModel, FrozenModel

Op = Literal["insert", "update", "delete"]
Action = Literal["reject", "guard", "allow"]
ALL_OPS: tuple[Op, ...] = ("insert", "update", "delete")


def _check_parses(value: str) -> str:
    try:
        sqlglot.parse_one(value, read="duckdb")
    except sqlglot.errors.ParseError as exc:
        raise ValueError(f"rule predicate does not parse: {value!r}: {exc}") from exc
    return value


class ParentRef(FrozenModel):
    """The parent record whose fact a child row inherits: its rule and the link predicate."""

    rule: str = Field(..., description="id of the parent table's fact rule")
    link: str = Field(..., description="predicate over parent.<col> and row.<col>")

    @field_validator("link")
    @classmethod
    def _parses(cls, value: str) -> str:
        return _check_parses(value)


class Rule(FrozenModel):
    """One row rule: table, operations, predicate (``when`` over old/new, or a ``fact`` over the
    row, or a ``parent``'s fact), action, message."""

    id: str
    table: str
    on: tuple[Op, ...] = ALL_OPS
    when: str = "true"
    fact: str | None = Field(None, description="predicate over row.<col>: the protected fact")
    parent: ParentRef | None = None
    columns: tuple[str, ...] = Field((), description="UPDATE: only changes of these columns")
    except_in: tuple[str, ...] = Field((), description="gate workflows in which the rule does not apply")
    partial: str | None = Field(None, description="why a reject rule covers fewer than all operations")
    action: Action
    message: str
    guarded_kind: str | None = Field(None, description="for guard rules: payment|payroll|efile|esign|post|send")

    @field_validator("when", "fact")
    @classmethod
    def _parses(cls, value: str | None) -> str | None:
        return value if value is None else _check_parses(value)

    @model_validator(mode="after")
    def _one_predicate(self) -> Rule:
        given = [
            n
            for n, v in (
                ("when", self.when != "true"),
                ("fact", self.fact is not None),
                ("parent", self.parent is not None),
            )
            if v
        ]
        if len(given) > 1:
            raise ValueError(f"rule {self.id}: give one of when, fact or parent, not {' and '.join(given)}")
        if self.columns and self.fact is None and self.parent is None:
            raise ValueError(f"rule {self.id}: columns applies to fact and parent rules only")
        if not self.on or len(set(self.on)) != len(self.on):
            raise ValueError(f"rule {self.id}: on lists each operation once")
        return self

    @property
    def is_fact(self) -> bool:
        return self.fact is not None or self.parent is not None

    @property
    def is_lock(self) -> bool:
        """A reject rule: it must cover every operation unless ``partial`` says why not."""
        return self.action == "reject"


class Assertion(FrozenModel):
    """A post-write invariant over the groups a tool call touched."""

    id: str
    table: str
    group_by: tuple[str, ...]
    check: str
    message: str


class RuleFile(CfabModel):
    rules: list[Rule] = []
    assertions: list[Assertion] = []


class RuleSet:
    """All rules and assertions, indexed by lower-cased qualified table name."""

    def __init__(self, rules: list[Rule], assertions: list[Assertion]) -> None:
        self.rules = rules
        self.assertions = assertions
        self._by_table: dict[str, list[Rule]] = {}
        for rule in rules:
            self._by_table.setdefault(rule.table.lower(), []).append(rule)
        self._assert_by_table: dict[str, list[Assertion]] = {}
        for a in assertions:
            self._assert_by_table.setdefault(a.table.lower(), []).append(a)
        ids = [r.id for r in rules] + [a.id for a in assertions]
        dupes = {i for i in ids if ids.count(i) > 1}
        if dupes:
            raise ValueError(f"duplicate rule ids: {sorted(dupes)}")
        self._by_id = {r.id: r for r in rules}
        self._conditions: dict[tuple[str, str], exp.Expr] = {}
        for rule in rules:  # resolve every fact and parent now: a bad reference fails the load
            for op in rule.on:
                self.condition(rule, op)

    def for_table(self, table: str, op: str, workflows: frozenset[str] | set[str] = frozenset()) -> list[Rule]:
        """The rules of ``table`` watching ``op``, minus those excepted in an active workflow."""
        return [
            r
            for r in self._by_table.get(table.lower(), [])
            if op in r.on and not (workflows and workflows.intersection(r.except_in))
        ]

    def rule(self, rule_id: str) -> Rule:
        return self._by_id[rule_id]

    def fact_tree(self, rule: Rule, depth: int = 0) -> exp.Expr:
        """The rule's fact over ``row.<col>``; a parent rule's is EXISTS over the parent table."""
        if rule.fact is not None:
            return sqlglot.parse_one(rule.fact, read="duckdb")
        if rule.parent is None:
            raise ValueError(f"rule {rule.id} has no fact")
        if depth > 8:
            raise ValueError(f"rule {rule.id}: parent chain too deep (a cycle?)")
        parent = self._by_id.get(rule.parent.rule)
        if parent is None:
            raise ValueError(f"rule {rule.id}: parent rule {rule.parent.rule!r} does not exist")
        if not parent.is_fact:
            raise ValueError(f"rule {rule.id}: parent rule {parent.id} has no fact")
        alias = f"__parent{depth}"
        inner = _retable(self.fact_tree(parent, depth + 1), {"row": alias})
        link = _retable(sqlglot.parse_one(rule.parent.link, read="duckdb"), {"parent": alias})
        schema, _, name = parent.table.partition(".")
        source = exp.Table(
            this=exp.to_identifier(name, quoted=True),
            db=exp.to_identifier(schema, quoted=True),
            alias=exp.TableAlias(this=exp.to_identifier(alias)),
        )
        query = exp.select(exp.Literal.number(1)).from_(source).where(exp.and_(exp.paren(link), exp.paren(inner)))
        return exp.Exists(this=query)

    def condition(self, rule: Rule, op: str) -> exp.Expr:
        """The predicate over ``old.<col>`` / ``new.<col>`` the gate evaluates for ``op`` (cached;
        callers must not mutate it). For a fact: INSERT checks the new row, DELETE the old row,
        UPDATE either (narrowed to changes of ``columns`` when given)."""
        key = (rule.id, op)
        cached = self._conditions.get(key)
        if cached is not None:
            return cached
        if not rule.is_fact:
            tree = sqlglot.parse_one(rule.when, read="duckdb")
        else:
            fact = self.fact_tree(rule)
            if op == "insert":
                tree = _retable(fact, {"row": "new"})
            elif op == "delete":
                tree = _retable(fact, {"row": "old"})
            else:
                tree = exp.or_(exp.paren(_retable(fact, {"row": "old"})), exp.paren(_retable(fact, {"row": "new"})))
                if rule.columns:
                    changed = [
                        exp.NullSafeNEQ(this=exp.column(c, table="new"), expression=exp.column(c, table="old"))
                        for c in rule.columns
                    ]
                    tree = exp.and_(exp.paren(tree), exp.paren(exp.or_(*changed)))
        self._conditions[key] = tree
        return tree

    def assertions_for(self, table: str) -> list[Assertion]:
        return self._assert_by_table.get(table.lower(), [])

    def tables(self) -> set[str]:
        return {r.table for r in self.rules} | {a.table for a in self.assertions}

    def guarded_tables(self) -> set[str]:
        return {r.table for r in self.rules if r.action == "guard"}


def parse_rule_text(text: str, source: str = "<string>") -> RuleFile:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{source}: not valid TOML: {exc}") from exc
    try:
        return RuleFile.model_validate(data)
    except Exception as exc:  # pydantic ValidationError: name the file
        raise ValueError(f"{source}: {exc}") from exc


@lru_cache(maxsize=1)
def load_rules() -> RuleSet:
    """Every ``*.toml`` under ``cfab.triggers/rules``, in file-name order."""
    rules: list[Rule] = []
    assertions: list[Assertion] = []
    folder = resources.files("cfab.triggers").joinpath("rules")
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if not entry.name.endswith(".toml"):
            continue
        parsed = parse_rule_text(entry.read_text(encoding="utf-8"), f"triggers/rules/{entry.name}")
        rules.extend(parsed.rules)
        assertions.extend(parsed.assertions)
    return RuleSet(rules, assertions)


def fact_columns(text: str) -> set[str]:
    """The ``row.<col>`` columns a fact predicate reads (outside subqueries' own tables)."""
    return {
        c.name.lower() for c in sqlglot.parse_one(text, read="duckdb").find_all(exp.Column) if c.table.lower() == "row"
    }


def _retable(tree: exp.Expr, mapping: dict[str, str]) -> exp.Expr:
    """A copy of ``tree`` with column qualifiers renamed (``row.x`` -> ``new.x``)."""

    def fix(n: exp.Expr) -> exp.Expr:
        if isinstance(n, exp.Column) and n.table.lower() in mapping and not n.args.get("db"):
            return exp.column(n.this.copy(), table=exp.to_identifier(mapping[n.table.lower()]))
        return n

    return tree.transform(fix)
