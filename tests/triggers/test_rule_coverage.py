"""The rule files, parsed: every lock covers INSERT, UPDATE and DELETE (or says why not), facts are
written on normalised status words, column-scoped locks include the columns of their own fact,
and every rule binds against its app's real DDL for every operation it watches."""

from __future__ import annotations

import contextlib
import re

import duckdb
import pytest
from sqlglot import exp

from cfab.schema import Catalog, run_script, schema_ddl
from cfab.triggers import GuardTripped, WriteGate, WriteRejected, load_rules
from cfab.triggers.rules import ALL_OPS, Rule, RuleSet, fact_columns, parse_rule_text

RULES = load_rules()
LOCKS = [r for r in RULES.rules if r.is_lock]
RULE_REF = re.compile(r"\b([a-z0-9_]+\.[A-Za-z0-9_.]+[A-Za-z0-9_])")


def test_every_lock_covers_insert_update_and_delete_or_says_why() -> None:
    bare = [f"{r.id} on {list(r.on)}" for r in LOCKS if set(r.on) != set(ALL_OPS) and not r.partial]
    assert not bare, "locks that list a subset of operations without a `partial` justification:\n" + "\n".join(bare)


def test_partial_justifications_are_real() -> None:
    ids = {r.id for r in RULES.rules}
    apps = {i.split(".")[0] for i in ids}
    for rule in RULES.rules:
        if rule.partial is None:
            continue
        assert set(rule.on) != set(ALL_OPS), f"{rule.id}: `partial` on a rule that covers every operation"
        assert len(rule.partial) >= 30, f"{rule.id}: say why the other operations need no lock: {rule.partial!r}"
        for ref in RULE_REF.findall(rule.partial):
            if ref.split(".")[0] in apps:
                assert ref in ids, f"{rule.id}: its justification names {ref}, which is not a rule"


def test_a_partial_lock_naming_a_guard_is_covered_by_it() -> None:
    """``payments_final`` on update/delete says the INSERT is the guarded payment: that guard exists
    on the same table and watches the operations the lock leaves out."""
    for rule in LOCKS:
        if rule.partial is None:
            continue
        missing = set(ALL_OPS) - set(rule.on)
        for ref in RULE_REF.findall(rule.partial):
            other = next((r for r in RULES.rules if r.id == ref), None)
            if other is not None and other.action == "guard" and other.table.lower() == rule.table.lower():
                assert missing <= set(other.on), f"{rule.id}: {other.id} does not watch {sorted(missing)}"


def test_column_scoped_locks_include_their_own_fact() -> None:
    """A lock narrowed to ``columns`` must list the columns its fact reads (else a write could
    first remove the fact, then change the locked columns) and, for a child, its link to the parent."""
    for rule in RULES.rules:
        if not rule.columns:
            continue
        cols = {c.lower() for c in rule.columns}
        read = fact_columns(rule.fact) if rule.fact is not None else fact_columns(rule.parent.link)
        assert read <= cols, f"{rule.id}: columns {sorted(cols)} leave out {sorted(read - cols)}"


def _status_comparisons(tree: exp.Expression):
    for node in tree.find_all(exp.EQ, exp.NEQ, exp.In, exp.NullSafeEQ, exp.NullSafeNEQ):
        lhs = node.this
        if isinstance(lhs, exp.Column) and re.search(r"status|state", lhs.name, re.I):
            rhs = node.expressions if isinstance(node, exp.In) else [node.expression]
            if any(isinstance(v, exp.Literal) and v.is_string for v in rhs):
                yield node


def test_facts_compare_status_words_case_insensitively() -> None:
    """A fact on a status word compares lower(trim(status)): 'posted', 'POSTED ' and 'Posted' are
    the same fact. (Vocabulary rules may insist on the exact word; facts may not.)"""
    raw = []
    for rule in RULES.rules:
        for text in [rule.fact] + ([rule.when] if rule.action == "guard" else []):
            if text is None:
                continue
            tree = exp.maybe_parse(text, dialect="duckdb")
            raw += [f"{rule.id}: {n.sql('duckdb')}" for n in _status_comparisons(tree)]
    assert not raw, "status compared by exact case:\n" + "\n".join(raw)


def test_every_parent_names_a_fact_rule_on_another_table() -> None:
    for rule in RULES.rules:
        if rule.parent is None:
            continue
        parent = RULES.rule(rule.parent.rule)
        assert parent.is_fact and parent.action == "reject", rule.id
        assert parent.table.lower() != rule.table.lower(), rule.id


@pytest.fixture(scope="module")
def all_schemas() -> WriteGate:
    con = duckdb.connect()
    run_script(con, schema_ddl("cfab_internal"))
    for app in sorted({r.table.split(".")[0] for r in RULES.rules}):
        run_script(con, schema_ddl(app))
    return WriteGate(con, Catalog.load(con), RULES)


@pytest.mark.parametrize("table", sorted({r.table for r in RULES.rules}))
def test_every_rule_binds_for_every_operation(all_schemas: WriteGate, table: str) -> None:
    """Each rule, rewritten for each operation it watches, runs against the app's DDL (empty
    tables): a misspelt column or parent link fails here, not in an attempt."""
    gate = all_schemas
    info = gate.catalog.get(table)
    assert info.pk, f"{table} has rules but no primary key"
    # a row of NULLs may well trip a rule ("true"): binding is what is checked here
    with contextlib.suppress(GuardTripped, WriteRejected):
        gate._apply_insert_rules(info, [{c: None for c in info.columns}])
    assert gate._resolve(info, "delete", exp.true(), {}) == []
    column = next(c for c in info.columns if c not in info.pk)
    assert gate._resolve(info, "update", exp.true(), {column: exp.Null()}) == []


def _rule(**kw) -> Rule:
    base = {"id": "t.r", "table": "a.b", "action": "reject", "message": "m"}
    return Rule.model_validate({**base, **kw})


def test_rule_shapes_are_checked() -> None:
    with pytest.raises(ValueError, match="one of when, fact or parent"):
        _rule(when="new.a", fact="row.a")
    with pytest.raises(ValueError, match="columns applies to fact and parent"):
        _rule(when="new.a", columns=["a"])
    with pytest.raises(ValueError, match="each operation once"):
        _rule(on=["update", "update"], fact="row.a")
    with pytest.raises(ValueError, match="does not parse"):
        _rule(fact="row.a = =")
    assert _rule(fact="row.a").on == ALL_OPS
    parsed = parse_rule_text(
        '[[rules]]\nid="a.child"\ntable="a.c"\naction="reject"\nmessage="m"\n'
        'parent = { rule = "a.nope", link = "parent.id = row.pid" }'
    )
    with pytest.raises(ValueError, match="does not exist"):
        RuleSet(parsed.rules, [])


def test_every_excepted_workflow_is_opened_by_a_tool() -> None:
    """``except_in`` names a workflow some app opens (``gate.workflow(...)``): a misspelt name would
    make the rule refuse the tool's own writes, or (worse) name a workflow nobody audits."""
    from pathlib import Path

    import cfab.apps

    source = "\n".join(p.read_text(encoding="utf-8") for p in Path(cfab.apps.__file__).parent.rglob("*.py"))
    opened = set(re.findall(r'"([a-z0-9_]+(?:\.[a-z0-9_]+)+)"', source))
    for rule in RULES.rules:
        for name in rule.except_in:
            assert name in opened, f"{rule.id}: no app opens workflow {name!r}"
    assert "gate.workflow(" in source
