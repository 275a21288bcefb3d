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
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from typing import Literal

import sqlglot
from pydantic import Field, field_validator

from cfab.schema.models import CfabModel, FrozenModel

Op = Literal["insert", "update", "delete"]
Action = Literal["reject", "guard", "allow"]


class Rule(FrozenModel):
    """One row rule: table, operations, predicate over old/new, action, message."""

    id: str
    table: str
    on: tuple[Op, ...]
    when: str = "true"
    action: Action
    message: str
    guarded_kind: str | None = Field(None, description="for guard rules: payment|payroll|efile|esign|post|send")

    @field_validator("when")
    @classmethod
    def _parses(cls, value: str) -> str:
        try:
            sqlglot.parse_one(value, read="duckdb")
        except sqlglot.errors.ParseError as exc:
            raise ValueError(f"rule predicate does not parse: {value!r}: {exc}") from exc
        return value


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

    def for_table(self, table: str, op: str) -> list[Rule]:
        return [r for r in self._by_table.get(table.lower(), []) if op in r.on]

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
