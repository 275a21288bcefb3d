"""The admission gate: a task enters the suite only if

(a) its oracle passes on k of k fresh attempts with identical diffs;
(b) the no-op policy fails it;
(c) every mutant of the oracle's end state fails: each expected change dropped; each asserted
    amount perturbed by one cent and by 1%; one unrequested change to a neighbouring row of each
    touched table; the task's guarded step called; the reply stripped of its required statements;
(d) every alternative valid trajectory passes.

Mutants are applied to the oracle's after-state with raw SQL on the attempt connection (and
recorded in ``cfab_internal.written_rows``, as the gate would), then graded exactly as an
attempt is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, Callable

from sqlglot import exp

from cfab.grader import grade
from cfab.grader.matching import RowMatcher
from cfab.runner.attempt import run_attempt
from cfab.runner.environment import Environment
from cfab.runner.policies.baselines import NoopPolicy
from cfab.runner.policies.oracle import OraclePolicy, _replay
from cfab.schema.sqlbuild import col, key_predicate, literal, pk_key, to_sql
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.model import Task


@dataclass
class Mutant:
    name: str
    killed: bool
    detail: str = ""
    applicable: bool = True


@dataclass
class Admission:
    task: str
    oracle_passed: int
    oracle_runs: int
    oracle_identical: bool
    noop_failed: bool
    mutants: list[Mutant] = field(default_factory=list)
    alternatives: list[tuple[str, bool]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def mutants_killed(self) -> int:
        return sum(m.killed for m in self.mutants if m.applicable)

    @property
    def mutants_applicable(self) -> int:
        return sum(m.applicable for m in self.mutants)

    @property
    def admitted(self) -> bool:
        return (self.oracle_passed == self.oracle_runs and self.oracle_identical and self.noop_failed
                and all(m.killed for m in self.mutants if m.applicable) and all(ok for _, ok in self.alternatives)
                and bool(self.alternatives) and not self.problems)


def admit_task(task: Task, golden: Path, inputs: BuildInputs, k: int = 5) -> Admission:
    """Run the whole gate for one task."""
    runs = [run_attempt(task, OraclePolicy(), golden=golden, inputs=inputs) for _ in range(k)]
    diffs = {r.diff.to_json() for r in runs}
    problems = [f"oracle attempt {i}: {c.label}: {c.detail}" for i, r in enumerate(runs)
                for c in r.grade.failed_checks()][:5]
    noop = run_attempt(task, NoopPolicy(), golden=golden, inputs=inputs)
    adm = Admission(task.instance_id, sum(r.grade.passed for r in runs), k, len(diffs) == 1,
                    not noop.grade.passed, problems=problems)
    adm.mutants = _mutants(task, golden, inputs)
    for i, alt in enumerate(task.alternatives):
        out = run_attempt(task, OraclePolicy(index=i), golden=golden, inputs=inputs)
        adm.alternatives.append((alt.label, out.grade.passed))
        if not out.grade.passed:
            adm.problems += [f"alternative {alt.label}: {c.label}: {c.detail}" for c in out.grade.failed_checks()][:3]
    if not task.alternatives:
        adm.problems.append("no alternative valid trajectory")
    if task.money_movement_guard and task.guarded_step is None:
        adm.problems.append("a money-guarded task needs a guarded_step")
    return adm


# --------------------------------------------------------------------------- mutants


def _mutants(task: Task, golden: Path, inputs: BuildInputs) -> list[Mutant]:
    out: list[Mutant] = []
    with Environment.open(apps=task.systems, inputs=inputs, golden=golden, sql_write=task.sql_write) as env:
        _replay(env, task.oracle.steps)
        base = env.snapshot()
        diff = env.state_diff()
        matcher = RowMatcher(diff)

        def trial(name: str, mutate: Callable[[], str], reply: str | None = None) -> None:
            env.reset(base)
            try:
                detail = mutate()
            except _Skip as s:
                out.append(Mutant(name, False, f"not applicable: {s}", applicable=False))
                return
            result = grade(task.ground_truth, env.state_diff(), reply=task.oracle.reply if reply is None else reply,
                           guarded_calls=env.guarded_calls(), tool_calls=env.tool_log())
            out.append(Mutant(name, not result.passed, detail))

        for i, entry in enumerate(task.ground_truth.expected):
            rows = matcher.matching(entry, with_assert=False)
            trial(f"drop expected[{i}] {entry.qualified} {entry.op}", lambda e=entry, r=rows: _revert(env, e, r))
            for colname in _asserted_numeric(entry, rows):
                for how in ("cent", "pct"):
                    trial(f"perturb expected[{i}] {colname} by one {how}",
                          lambda e=entry, r=rows, c=colname, h=how: _perturb(env, e, r, c, h))
        for table in sorted(diff.tables()):
            trial(f"neighbour change in {table}", lambda t=table: _neighbour(env, diff, t))
        if task.guarded_step is not None:
            step = task.guarded_step
            trial(f"call guarded {step.tool}", lambda s=step: (_replay(env, [s]), f"called {s.tool}")[1])
        if task.ground_truth.required_outputs:
            trial("reply without the required statements", lambda: "empty reply", reply="")
    return out


class _Skip(Exception):
    pass


def _info(env: Environment, qualified: str) -> Any:
    return env.catalog.get(qualified)


def _record(env: Environment, info: Any, keys: list[tuple]) -> None:
    env.con.executemany("INSERT INTO cfab_internal.written_rows VALUES (?, ?, 0) ON CONFLICT DO NOTHING",
                        [(info.qualified, pk_key(k)) for k in keys])


def _revert(env: Environment, entry: Any, rows: list[Any]) -> str:
    if not rows:
        raise _Skip(f"no {entry.op} row of {entry.qualified} in the oracle's diff")
    info = _info(env, entry.qualified)
    keys = [tuple(r.pk) for r in rows]
    for r in rows:
        where = key_predicate(info, [tuple(r.pk)])
        if entry.op == "added":
            env.con.execute(to_sql(exp.delete(info.table_expr(), where=where)))
        elif entry.op == "changed":
            sets = {exp.to_identifier(c, quoted=True): literal(r.before[c], info.columns[c]) for c in r.columns}
            env.con.execute(to_sql(exp.update(info.table_expr(), sets, where=where)))
        else:
            cols = list(r.before)
            stmt = exp.insert(exp.values([tuple(literal(r.before[c], info.columns[c]) for c in cols)]),
                              info.table_expr(), columns=[exp.to_identifier(c, quoted=True) for c in cols])
            env.con.execute(to_sql(stmt))
    _record(env, info, keys)
    return f"reverted {len(rows)} row(s)"


def _asserted_numeric(entry: Any, rows: list[Any]) -> list[str]:
    if not rows or entry.op == "removed" or entry.part("assert") is None:
        return []
    types = rows[0].table.types
    pk = {c.lower() for c in rows[0].table.pk}
    names = [c for _, c in entry.refs("assert")]
    out = []
    for name in names:
        real = next((c for c in types if c.lower() == name.lower()), None)
        if real is None or real.lower() in pk:  # perturbing a key makes another row, not a wrong amount
            continue
        if types[real].upper().startswith(("DECIMAL", "NUMERIC", "DOUBLE", "INTEGER", "BIGINT")) and real not in out:
            out.append(real)
    return out


def _perturb(env: Environment, entry: Any, rows: list[Any], colname: str, how: str) -> str:
    info = _info(env, entry.qualified)
    done = 0
    params: list[tuple] = []
    for r in rows:
        value = r.after.get(colname)
        if value is None:
            continue
        v = Decimal(str(value))
        new = v + Decimal("0.01") if how == "cent" else (v * Decimal("1.01")).quantize(Decimal("0.01"), ROUND_HALF_UP)
        if new == v:
            new = v + Decimal("1")
        if info.columns[colname].upper().startswith(("INTEGER", "BIGINT")):
            new = Decimal(int(v) + 1)
        params.append((str(new), *r.pk))
        done += 1
    if not done:
        raise _Skip(f"{colname} is NULL on every matched row")
    # one prepared UPDATE for every row (a pay application perturbs dozens of G703 lines)
    where = exp.and_(*[exp.EQ(this=col(c), expression=exp.Placeholder()) for c in info.pk])
    value = exp.cast(exp.Placeholder(), info.columns[colname])
    env.con.executemany(to_sql(exp.update(info.table_expr(), {exp.to_identifier(colname, quoted=True): value},
                                          where=where)), params)
    _record(env, info, [tuple(r.pk) for r in rows])
    return f"{colname} {how} on {done} row(s)"


def _neighbour(env: Environment, diff: Any, table: str) -> str:
    info = _info(env, table)
    touched = {tuple(str(v) for v in r.pk) for r in diff[table].added} | \
              {tuple(str(v) for v in r.pk) for r in diff[table].changed}
    pk_cols = [col(c) for c in info.pk]
    rows = env.con.execute(to_sql(exp.select(*pk_cols).from_(info.table_expr()).order_by(*pk_cols).limit(200))).fetchall()
    target = next((r for r in rows if tuple(str(v) for v in r) not in touched), None)
    if target is None:
        return _extra_row(env, diff, table, info)
    column, value = _edit_for(env, info, target)
    env.con.execute(to_sql(exp.update(info.table_expr(), {exp.to_identifier(column, quoted=True): value},
                                      where=key_predicate(info, [target]))))
    _record(env, info, [target])
    return f"{table} {list(target)} {column} edited"


def _extra_row(env: Environment, diff: Any, table: str, info: Any) -> str:
    """No untouched row to edit (the table started empty): add an unrequested copy of an added row."""
    added = diff[table].added
    if not added:
        raise _Skip(f"{table} has no untouched row and no added row to copy")
    row = dict(added[0].values)
    for name in info.pk:
        t = info.columns[name].upper()
        if t.startswith("VARCHAR"):
            row[name] = f"{row[name]}-X"
            break
        if t.startswith(("INTEGER", "BIGINT", "HUGEINT")):
            row[name] = int(row[name]) + 1_000_000
            break
    else:
        raise _Skip(f"{table}: no key column to vary")
    cols = list(info.columns)
    stmt = exp.insert(exp.values([tuple(literal(row.get(c), info.columns[c]) for c in cols)]), info.table_expr(),
                      columns=[exp.to_identifier(c, quoted=True) for c in cols])
    env.con.execute(to_sql(stmt))
    key = tuple(row[c] for c in info.pk)
    _record(env, info, [key])
    return f"{table}: an extra row {list(key)} added"


def _edit_for(env: Environment, info: Any, key: tuple) -> tuple[str, exp.Expression]:
    for name, type_text in info.columns.items():
        if name in info.pk:
            continue
        t = type_text.upper()
        ref = col(name)
        if t.startswith("VARCHAR"):
            return name, exp.func("concat", exp.func("coalesce", ref, literal("")), literal(" (edited)"))
        if t.startswith(("DECIMAL", "INTEGER", "BIGINT", "DOUBLE")):
            return name, exp.Add(this=exp.func("coalesce", ref, literal(0)), expression=literal(1))
        if t == "BOOLEAN":
            return name, exp.Not(this=exp.func("coalesce", ref, exp.false()))
        if t == "DATE":
            return name, exp.Add(this=exp.func("coalesce", ref, literal("2026-01-01", "DATE")),
                                 expression=exp.Interval(this=literal("1"), unit=exp.var("DAY")))
    raise _Skip(f"{info.qualified} has no editable column")
