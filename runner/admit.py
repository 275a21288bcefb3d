"""The admission gate: a task enters the suite only if its verifier is proven both ways.

(a) its oracle passes on k of k fresh attempts with identical diffs;
(b) the no-op policy fails it;
(c) every mutant fails (VMR, the verifier's mutant rejection rate, is 1.0). Mutant classes:

    ``drop_expected``   each expected change reverted;
    ``perturb_amount``  each asserted amount off by one cent and by 1 %;
    ``neighbour``       one unrequested change to a neighbouring row of each touched table;
    ``guarded_step``    the task's guarded step called (staged);
    ``staged_payment``  one unrequested staged payment (any task, guarded or not);
    ``missing_report``  no answers (and no required statements) given;
    ``contradicting_report``  each answer replaced by a wrong one: each choice flipped, each
                        id swapped for its lookalike, each count off by one, each amount off
                        by a cent and by 1 %, each date off by a day, each id list with one
                        id missing and one extra;
    ``answer_only``     the oracle's answers with no state change (the shortcut);
    ``lookalike`` / ``stale`` / ``careless``  the family's own wrong trajectories (the
                        oracle's write applied to the lookalike record, the value before the
                        twist, a careless shortcut), replayed on a fresh environment;
(d) every alternative valid trajectory passes (VAA, valid alternatives accepted, is 1.0).

V-Acc is the mean of VMR and VAA (FinCUABuild's verifier accuracy); a task below 1.0 is not
admitted. State mutants are applied to the oracle's after-state with raw SQL on the attempt
connection (and recorded in ``cfab_internal.written_rows``, as the gate would), then graded
exactly as an attempt is.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from sqlglot import exp

from cfab.apps.world.environment import Environment
from cfab.grader import grade
from cfab.grader.matching import RowMatcher
from cfab.grader.predicates import split_key
from cfab.runner.attempt import run_attempt
from cfab.runner.policies.baselines import NoopPolicy
from cfab.runner.policies.oracle import OraclePolicy, payment_step, replay
from cfab.schema.sqlbuild import col, key_predicate, literal, pk_key, to_sql
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.model import StepResults, Task

MUTANT_CLASSES: tuple[str, ...] = (
    "drop_expected",
    "perturb_amount",
    "neighbour",
    "guarded_step",
    "staged_payment",
    "missing_report",
    "contradicting_report",
    "answer_only",
    "lookalike",
    "stale",
    "careless",
    "shortcut",
)


@dataclass
class Mutant:
    name: str
    killed: bool
    detail: str = ""
    applicable: bool = True
    cls: str = "drop_expected"


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
    def vmr(self) -> float:
        """Verifier mutant rejection: incorrect mutants rejected / applicable mutants."""
        n = self.mutants_applicable
        return self.mutants_killed / n if n else 1.0

    @property
    def vaa(self) -> float:
        """Verifier alternative acceptance: valid alternatives accepted / alternatives."""
        n = len(self.alternatives)
        return sum(ok for _, ok in self.alternatives) / n if n else 0.0

    @property
    def v_acc(self) -> float:
        return (self.vmr + self.vaa) / 2

    def kill_rates(self) -> dict[str, dict[str, int]]:
        """Per mutant class: applicable and killed counts."""
        out: dict[str, dict[str, int]] = {}
        for m in self.mutants:
            if not m.applicable:
                continue
            row = out.setdefault(m.cls, {"killed": 0, "total": 0})
            row["total"] += 1
            row["killed"] += int(m.killed)
        return dict(sorted(out.items()))

    @property
    def admitted(self) -> bool:
        return (
            self.oracle_passed == self.oracle_runs
            and self.oracle_identical
            and self.noop_failed
            and self.v_acc == 1.0
            and bool(self.alternatives)
            and not self.problems
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "admitted": self.admitted,
            "oracle": {
                "passed": self.oracle_passed,
                "runs": self.oracle_runs,
                "identical_diffs": self.oracle_identical,
            },
            "noop_failed": self.noop_failed,
            "vmr": self.vmr,
            "vaa": self.vaa,
            "v_acc": self.v_acc,
            "mutants": {
                "killed": self.mutants_killed,
                "applicable": self.mutants_applicable,
                "by_class": self.kill_rates(),
                "survivors": [
                    {"name": m.name, "class": m.cls, "detail": m.detail}
                    for m in self.mutants
                    if m.applicable and not m.killed
                ],
            },
            "alternatives": [{"label": label, "passed": ok} for label, ok in self.alternatives],
            "problems": list(self.problems),
        }


def suite_verifier_summary(admissions: list[Admission]) -> dict[str, Any]:
    """Suite-level VMR / VAA / V-Acc (pooled over mutants and alternatives) and per-class kill rates."""
    killed = sum(a.mutants_killed for a in admissions)
    total = sum(a.mutants_applicable for a in admissions)
    alts = [ok for a in admissions for _, ok in a.alternatives]
    vmr = killed / total if total else 1.0
    vaa = sum(alts) / len(alts) if alts else 0.0
    by_class: dict[str, dict[str, int]] = {}
    for a in admissions:
        for cls, row in a.kill_rates().items():
            agg = by_class.setdefault(cls, {"killed": 0, "total": 0})
            agg["killed"] += row["killed"]
            agg["total"] += row["total"]
    return {
        "tasks": len(admissions),
        "admitted": sum(a.admitted for a in admissions),
        "vmr": vmr,
        "vaa": vaa,
        "v_acc": (vmr + vaa) / 2,
        "mutants": {"killed": killed, "applicable": total},
        "alternatives": {"accepted": sum(alts), "total": len(alts)},
        "by_class": {
            cls: {**row, "rate": row["killed"] / row["total"] if row["total"] else 1.0}
            for cls, row in sorted(by_class.items())
        },
    }


def admit_task(task: Task, golden: Path, inputs: BuildInputs, k: int = 5) -> Admission:
    """Run the whole gate for one task."""
    runs = [run_attempt(task, OraclePolicy(), golden=golden, inputs=inputs) for _ in range(k)]
    diffs = {r.diff.to_json() for r in runs}
    problems = [
        f"oracle attempt {i}: {c.label}: {c.detail}" for i, r in enumerate(runs) for c in r.grade.failed_checks()
    ][:5]
    noop = run_attempt(task, NoopPolicy(), golden=golden, inputs=inputs)
    adm = Admission(
        task.instance_id,
        sum(r.grade.passed for r in runs),
        k,
        len(diffs) == 1,
        not noop.grade.passed,
        problems=problems,
    )
    adm.mutants = _mutants(task, golden, inputs)
    for traj in task.mutants:
        out = run_attempt(task, _Replay(traj), golden=golden, inputs=inputs)
        adm.mutants.append(
            Mutant(
                f"{traj.mutant_class}: {traj.label}",
                not out.grade.passed,
                "passed" if out.grade.passed else out.grade.reason,
                cls=str(traj.mutant_class),
            )
        )
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
    ev = task.ground_truth
    oracle = task.oracle
    with Environment.open(apps=task.systems, inputs=inputs, golden=golden, sql_write=task.sql_write) as env:
        results = StepResults()
        replay(env, oracle.steps, results)
        base = env.snapshot()
        diff = env.state_diff()
        matcher = RowMatcher(diff)

        def trial(
            cls: str,
            name: str,
            mutate: Callable[[], str] | None,
            reply: str | None = None,
            answers: dict[str, Any] | None = None,
        ) -> None:
            if mutate is not None:
                env.reset(base)
                try:
                    detail = mutate()
                except _Skip as s:
                    out.append(Mutant(name, False, f"not applicable: {s}", applicable=False, cls=cls))
                    return
                except ValueError as exc:  # e.g. a step refers to a result the oracle never produced
                    out.append(Mutant(name, False, f"could not be built: {exc}", cls=cls))  # survives: rejected
                    return
                state = env.state_diff()
            else:
                detail, state = "answers only", diff
            result = grade(
                ev,
                state,
                reply=oracle.reply if reply is None else reply,
                answers=oracle.answers if answers is None else answers,
                guarded_calls=env.guarded_calls() if mutate is not None else base_guards,
                tool_calls=env.tool_log() if mutate is not None else base_tools,
            )
            out.append(
                Mutant(name, not result.passed, detail if result.passed else f"{detail}: {result.reason}", cls=cls)
            )

        base_guards, base_tools = env.guarded_calls(), env.tool_log()
        for i, entry in enumerate(ev.expected):
            rows = matcher.matching(entry, with_assert=False)
            trial(
                "drop_expected",
                f"drop expected[{i}] {entry.qualified} {entry.op}",
                functools.partial(_revert, env, entry, rows),
            )
            for colname in _asserted_numeric(entry, rows):
                for how in ("cent", "pct"):
                    trial(
                        "perturb_amount",
                        f"perturb expected[{i}] {colname} by one {how}",
                        functools.partial(_perturb, env, entry, rows, colname, how),
                    )
        for table in sorted(diff.tables()):
            trial("neighbour", f"neighbour change in {table}", functools.partial(_neighbour, env, diff, table))
        if task.guarded_step is not None:
            step = task.guarded_step

            def call_guarded() -> str:
                replay(env, [step], results)
                return f"called {step.tool}"

            trial("guarded_step", f"call guarded {step.tool}", call_guarded)
        pay = payment_step(env.tools)
        if pay is not None:
            pay_tool, pay_args = pay

            def stage_payment() -> str:
                env.call(pay_tool, **pay_args)
                return f"staged {pay_tool}"

            trial("staged_payment", f"unrequested staged {pay_tool}", stage_payment)
        if ev.required_outputs or ev.answers:
            trial("missing_report", "no report: empty reply, no answers", None, reply="", answers={})
        for spec in ev.answers:
            for label, value in contradicting_values(spec):
                wrong = {**oracle.answers, spec.name: value}
                trial("contradicting_report", f"answer {spec.name} {label}: {value!r}", None, answers=wrong)
    if ev.expected:  # a task whose product is state: the right report alone must not pass
        out.append(_answer_only(task, golden, inputs))
    return out


def _answer_only(task: Task, golden: Path, inputs: BuildInputs) -> Mutant:
    """The right answers (and reply) with no state change at all."""
    result = run_attempt(task, _Replay(task.oracle.model_copy(update={"steps": []})), golden=golden, inputs=inputs)
    return Mutant(
        "answers only, no state change", not result.grade.passed, result.grade.reason or "passed", cls="answer_only"
    )


class _Replay:
    """Replays one trajectory (a mutant's, or the oracle's answers without steps)."""

    name = "replay"
    model = None

    def __init__(self, traj: Any) -> None:
        self.traj = traj

    def run(self, task: Any, env: Any) -> Any:
        from cfab.runner.results.records import Episode

        calls = replay(env, self.traj.steps)
        return Episode(
            reply=self.traj.reply,
            answers=dict(self.traj.answers),
            steps=len(calls),
            tool_calls=calls,
            stop_reason="finish",
        )


def contradicting_values(spec: Any) -> list[tuple[str, Any]]:
    """Wrong values for one answer: its lookalikes, and the type's near misses."""
    out: list[tuple[str, Any]] = [("lookalike", v) for v in spec.lookalikes]
    exp_value = spec.expected
    if spec.type == "amount":
        amount = Decimal(str(spec.canonical(exp_value)))
        out += [
            ("off by a cent", str(amount + Decimal("0.01"))),
            (
                "off by 1%",
                str((amount * Decimal("1.01")).quantize(Decimal("0.01"), ROUND_HALF_UP) if amount else Decimal("1.00")),
            ),
        ]
    elif spec.type == "count":
        n = spec.canonical(exp_value)
        out += [("one more", n + 1)] + ([("one fewer", n - 1)] if n > 0 else [])
    elif spec.type == "date":
        d = spec.canonical(exp_value)
        out += [
            ("a day later", (d + dt.timedelta(days=1)).isoformat()),
            ("a day earlier", (d - dt.timedelta(days=1)).isoformat()),
        ]
    elif spec.type == "choice":
        want = spec.canonical(exp_value)
        out += [("flipped", o) for o in spec.options if spec.canonical(o) != want]
    elif spec.type == "id":
        if not spec.lookalikes:
            out.append(("another id", _other_id(str(exp_value))))
    elif spec.type == "id_list":
        ids = [str(x) for x in exp_value]
        wanted = spec.canonical(exp_value)
        extra = next((str(v) for v in spec.lookalikes if not isinstance(v, list)), None)
        if extra is None:  # the kit's list lookalikes are the right list plus one wrong id
            extra = next(
                (str(x) for v in spec.lookalikes if isinstance(v, list) for x in v if spec.canonical([x]) - wanted),
                None,
            )
        extra = extra or (_other_id(ids[0]) if ids else "UNKNOWN-1")
        if ids:
            out.append(("one missing", ids[1:]))
        out.append(("one extra", [*ids, extra]))
        if ids:
            out.append(("one swapped", [extra, *ids[1:]]))
        out = [(label, v) for label, v in out if not spec.compare(v)[0]]
    return out


def _other_id(value: str) -> str:
    digits = [i for i, ch in enumerate(value) if ch.isdigit()]
    if digits:
        i = digits[-1]
        return value[:i] + str((int(value[i]) + 1) % 10) + value[i + 1 :]
    return value + "X"


class _Skip(Exception):
    pass


def _info(env: Environment, qualified: str) -> Any:
    return env.catalog.get(qualified)


def _record(env: Environment, info: Any, keys: list[tuple]) -> None:
    env.con.executemany(
        "INSERT INTO cfab_internal.written_rows VALUES (?, ?, 0) ON CONFLICT DO NOTHING",
        [(info.qualified, pk_key(k)) for k in keys],
    )


def _update(info: Any, sets: dict[str, exp.Expr], where: exp.Expr) -> exp.Update:
    """``UPDATE <info's table> SET "<column>" = <value>, ... WHERE <where>``, columns quoted."""
    assignments = {exp.to_identifier(c, quoted=True): value for c, value in sets.items()}
    # sqlglot annotates the SET keys as str but parses any expression; the Identifier keeps the column quoted
    return exp.update(info.table_expr(), assignments, where=where)  # type: ignore[arg-type]


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
            sets = {c: literal(r.before[c], info.columns[c]) for c in r.columns}
            env.con.execute(to_sql(_update(info, sets, where)))
        else:
            cols = list(r.before)
            stmt = exp.insert(
                exp.values([tuple(literal(r.before[c], info.columns[c]) for c in cols)]),
                info.table_expr(),
                columns=[exp.to_identifier(c, quoted=True) for c in cols],
            )
            env.con.execute(to_sql(stmt))
    _record(env, info, keys)
    return f"reverted {len(rows)} row(s)"


def _asserted_numeric(entry: Any, rows: list[Any]) -> list[str]:
    if not rows or entry.op == "removed" or (entry.part("assert") is None and not entry.total):
        return []
    types = rows[0].table.types
    pk = {c.lower() for c in rows[0].table.pk}
    names = [c for _, c in entry.refs("assert")] + [split_key(c)[1] for c in (entry.total or {})]
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
    env.con.executemany(to_sql(_update(info, {colname: value}, where)), params)
    _record(env, info, [tuple(r.pk) for r in rows])
    return f"{colname} {how} on {done} row(s)"


def _neighbour(env: Environment, diff: Any, table: str) -> str:
    info = _info(env, table)
    touched = {tuple(str(v) for v in r.pk) for r in diff[table].added} | {
        tuple(str(v) for v in r.pk) for r in diff[table].changed
    }
    pk_cols = [col(c) for c in info.pk]
    query = exp.select(*pk_cols).from_(info.table_expr()).order_by(*pk_cols).limit(200)
    rows = env.con.execute(to_sql(query)).fetchall()
    target = next((r for r in rows if tuple(str(v) for v in r) not in touched), None)
    if target is None:
        return _extra_row(env, diff, table, info)
    column, value = _edit_for(env, info, target)
    env.con.execute(to_sql(_update(info, {column: value}, key_predicate(info, [target]))))
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
    stmt = exp.insert(
        exp.values([tuple(literal(row.get(c), info.columns[c]) for c in cols)]),
        info.table_expr(),
        columns=[exp.to_identifier(c, quoted=True) for c in cols],
    )
    env.con.execute(to_sql(stmt))
    key = tuple(row[c] for c in info.pk)
    _record(env, info, [key])
    return f"{table}: an extra row {list(key)} added"


def _edit_for(env: Environment, info: Any, key: tuple) -> tuple[str, exp.Expr]:
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
            return name, exp.Add(
                this=exp.func("coalesce", ref, literal("2026-01-01", "DATE")),
                expression=exp.Interval(this=literal("1"), unit=exp.var("DAY")),
            )
    raise _Skip(f"{info.qualified} has no editable column")
