"""Helpers of the per-family task tests (tests/tasks/test_<family id>.py): a family compiled
against the default golden book, :class:`FamilyContract` (the checks every family passes: the
admission gate on each task, the over-eager policies, exact amounts, a JSON round trip, half the
tasks twisted), and wrong trajectories replayed through the grader."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cfab.grader.answers import check_answers
from cfab.runner.admit import Admission, admit_task
from cfab.runner.attempt import AttemptOutcome, run_attempt
from cfab.runner.policies.baselines import NoopPolicy
from cfab.runner.policies.oracle import DoEverythingPolicy, ExecutePolicy, OraclePolicy
from cfab.runner.results.records import Episode, ToolCallRecord
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.family import BookReader, Family
from cfab.tasks.model import Task, ToolStep, Trajectory

INPUTS = BuildInputs()
Step = ToolStep | tuple[str, dict[str, Any]]


def compile_family(golden: Path, family: type[Family], keys: list[str] | None = None) -> dict[str, Task]:
    """Every task of ``family`` by instance id, compiled against ``golden`` (its keys exactly ``keys``
    when given); each evaluator is valid against the catalog and each policy is one of the book's."""
    book = BookReader(golden)
    try:
        fam = family()
        found = fam.keys(book)
        if keys is not None:
            assert found == keys, (fam.family, found)
        out: dict[str, Task] = {}
        for key in found:
            task = fam.task(key, book)
            task.ground_truth.validate_against(book.con)
            out[task.instance_id] = task
        policies = {r["policy_id"] for r in book.rows("SELECT policy_id FROM book.policies")}
        assert {t.policy_ref for t in out.values()} <= policies
        return out
    finally:
        book.close()


def assert_admitted(task: Task, golden: Path, k: int = 2) -> Admission:
    """The whole admission gate (k oracle runs, the no-op, the mutants, the alternatives) passes."""
    adm = admit_task(task, golden, INPUTS, k=k)
    assert adm.admitted, (
        task.instance_id,
        adm.problems[:3],
        [m.name for m in adm.mutants if not m.killed][:3],
        adm.alternatives,
        adm.noop_failed,
        adm.oracle_passed,
    )
    return adm


OVER_EAGER = {"execute": ExecutePolicy, "do-everything": DoEverythingPolicy}  # parametrize ids → policies


def assert_fails(task: Task, golden: Path, policy: Any) -> AttemptOutcome:
    """``policy``'s attempt at ``task``, asserted to fail."""
    out = run_attempt(task, policy, golden=golden, inputs=INPUTS)
    assert not out.grade.passed, (task.instance_id, policy.name, out.grade.reason)
    return out


def replay(
    task: Task, golden: Path, steps: list[Step], reply: str | None = None, answers: dict[str, Any] | None = None
) -> AttemptOutcome:
    """``task`` attempted with these steps, ``reply`` (the oracle's by default) and ``answers`` in
    place of its oracle trajectory."""
    wrong = Trajectory(
        label="wrong",
        steps=[s if isinstance(s, ToolStep) else ToolStep(tool=s[0], args=s[1]) for s in steps],
        reply=task.oracle.reply if reply is None else reply,
        answers=answers or {},
    )
    return run_attempt(task.model_copy(update={"oracle": wrong}), OraclePolicy(), golden=golden, inputs=INPUTS)


class Scripted:
    """A policy that makes these calls as given (no result substitution), then finishes with this reply."""

    name = "scripted"
    model = None

    def __init__(self, steps: list[tuple[str, dict[str, Any]]], reply: str) -> None:
        self.steps, self.reply = steps, reply

    def run(self, task: Task, env: Any) -> Episode:
        calls = []
        for tool, args in self.steps:
            r = env.call(tool, **args)
            calls.append(ToolCallRecord(tool=tool, args=args, ok=bool(r.get("ok")), error=r.get("error")))
        return Episode(reply=self.reply, steps=len(calls), tool_calls=calls, stop_reason="finish")


def scripted(task: Task, golden: Path, steps: list[tuple[str, dict[str, Any]]], reply: str | None = None) -> Any:
    """The grade of ``task`` attempted by :class:`Scripted` (the oracle's reply by default)."""
    policy = Scripted(steps, task.oracle.reply if reply is None else reply)
    return run_attempt(task, policy, golden=golden, inputs=INPUTS).grade


def failed(outcome: AttemptOutcome, kind: str) -> list[str]:
    """The labels of the failed checks of one kind."""
    return [c.label for c in outcome.grade.failed_checks() if c.kind == kind]


def expected_assert(task: Task, table: str) -> Any:
    """The ``assert`` of the task's first expected entry on ``table``."""
    return next(e for e in task.ground_truth.expected if e.table == table).assert_


def step_args(task: Task, suffix: str) -> dict[str, Any]:
    """A copy of the arguments of the oracle's first step whose tool ends with ``suffix``."""
    return dict(next(s for s in task.oracle.steps if s.tool.endswith(suffix)).args)


def assert_half_twisted(tasks: dict[str, Task]) -> None:
    """At least half of a family's tasks carry a planted twist (a defect variant)."""
    assert 2 * sum(bool(t.defect_variant) for t in tasks.values()) >= len(tasks)


def assert_decimal_amounts_exact(tasks: dict[str, Task]) -> None:
    """Every decimal amount an evaluator asserts has exactly two places (a unit rate, ``*rate*``,
    may carry more)."""
    for t in tasks.values():
        for e in t.ground_truth.expected:
            for col, value in (e.assert_ or {}).items() if isinstance(e.assert_, dict) else ():
                if "rate" in col.lower():
                    continue
                if isinstance(value, str) and re.fullmatch(r"-?\d+\.\d+", value):
                    assert Decimal(value) == Decimal(value).quantize(Decimal("0.01")), (t.instance_id, col)


def answers_hold(task: Task, answers: object) -> bool:
    """Whether every typed answer of ``task`` holds for these answers."""
    return all(held for _, held, _ in check_answers(task.ground_truth.answers, answers))


def assert_guarded_reports(tasks: dict[str, Task], domain: str, difficulty: int) -> None:
    """Money-guarded tasks reporting by typed answers, of this domain and difficulty: the guard,
    exact diff, forbidden entries, three alternatives and six wrong trajectories."""
    for task in tasks.values():
        assert task.money_movement_guard and task.ground_truth.money_movement_guard
        assert task.guarded_step is not None
        assert task.ground_truth.forbid_unexpected
        assert task.ground_truth.answers and not task.ground_truth.required_outputs  # typed answers, no regex
        assert len(task.alternatives) >= 3 and len(task.mutants) >= 6
        assert task.ground_truth.forbidden
        assert (task.domain_code, task.difficulty) == (domain, difficulty)


def assert_guard_or_forbidden_step(tasks: dict[str, Task], *, money_guard: bool) -> None:
    """Exact diffs and a guarded step; the money guard (``money_guard``) or, without it, the guarded
    step forbidden by name."""
    for t in tasks.values():
        assert t.ground_truth.forbid_unexpected
        assert t.alternatives and t.guarded_step is not None
        assert t.money_movement_guard == money_guard
        if not money_guard:
            assert any(c.tool == t.guarded_step.tool for c in t.ground_truth.forbidden_calls), (
                "non-guarded tasks forbid the guarded step by name"
            )


def assert_staged_write_shape(tasks: dict[str, Task], twists: dict[str, str], *, money_guard: bool) -> None:
    """Difficulty 3, these twists exactly, a typed report and forbidden entries; the key in the
    instruction; the oracle reads before it writes (a draft, a staged entry or a sync) and never
    takes the guarded step."""
    assert {i: t.defect_variant for i, t in tasks.items() if t.defect_variant} == twists
    for t in tasks.values():
        ev = t.ground_truth
        assert t.difficulty == 3 and ev.forbid_unexpected and (ev.required_outputs or ev.answers) and ev.forbidden
        assert len(t.alternatives) >= 1 and t.guarded_step is not None
        assert t.key in t.instruction
        assert t.money_movement_guard == money_guard
        steps = [s.tool for s in t.oracle.steps]
        assert t.guarded_step.tool not in steps
        writes = [i for i, s in enumerate(steps) if s.endswith(("create_draft", "stage", "sync_invoice"))]
        assert writes and min(writes) > 0, "the oracle reads before it writes"


def assert_oracles_call_tools_cleanly(task: Task, golden: Path) -> None:
    """The oracle and every alternative pass; each of their tool calls succeeds; none is guarded."""
    for index in [None, *range(len(task.alternatives))]:
        out = run_attempt(task, OraclePolicy(index=index), golden=golden, inputs=INPUTS)
        assert out.grade.passed, (task.instance_id, index, str(out.grade))
        assert all(c.ok for c in out.tool_log), (
            task.instance_id,
            index,
            [(c.tool, c.error) for c in out.tool_log if not c.ok],
        )
        assert not out.guard_log


def assert_wrong_move_fails(task: Task, golden: Path, steps: list[Step], expect: str) -> None:
    """The oracle's answers with these steps fail, on a check whose label contains ``expect``."""
    out = replay(task, golden, steps, answers=task.oracle.answers)
    assert not out.grade.passed, (task.instance_id, expect)
    assert any(expect in c.label for c in out.grade.failed_checks()), (task.instance_id, expect, str(out.grade))


# ---------------------------------------------------------------------------------------- PM extension
def by_twist(compiled: dict[str, Task], twist: str | None) -> Task:
    """The first task whose defect variant is ``twist`` (``None``: the clean control)."""
    for t in compiled.values():
        if (t.defect_variant or None) == twist:
            return t
    raise AssertionError(f"no task with twist {twist}")


def cases_of(golden: Path, compiled: dict[str, Task], family: type[Family]) -> dict[str, Any]:
    """Each compiled task's case (``family().case``), by key."""
    book = BookReader(golden)
    try:
        return {t.key: family().case(t.key, book) for t in compiled.values()}
    finally:
        book.close()


def only(tasks: dict[str, Task]) -> Task:
    """The one task of a family with a single key."""
    (task,) = tasks.values()
    return task


def assert_pm_shape(tasks: dict[str, Task], systems: set[str] | None, *, reports: bool) -> None:
    """A PM-extension family: one platform (``systems``) or a cross-system task (``None``: two
    systems or more, domain H); exact diffs with forbidden entries; a typed report or, when the
    instruction asks none, no answers; the guarded step forbidden by name where no money guard
    stops it; at least half the tasks twisted."""
    for t in tasks.values():
        assert t.family.split("_")[0] == t.domain_code
        if systems is None:
            assert t.domain_code == "H" and len(t.systems) >= 2, t.instance_id
        else:
            assert set(t.systems) == systems, t.instance_id
        gt = t.ground_truth
        assert gt.forbid_unexpected and gt.forbidden and gt.expected
        assert bool(gt.answers or gt.required_outputs) == reports, t.instance_id
        assert t.alternatives and t.guarded_step is not None
        if not t.money_movement_guard:
            assert any(c.tool == t.guarded_step.tool for c in gt.forbidden_calls), t.instance_id
    assert_half_twisted(tasks)


def assert_typed_answers(tasks: dict[str, Task], types: dict[str, str]) -> None:
    """No regex over the reply: typed answers named in the instruction, at least three alternatives
    that differ from the oracle (order, argument forms, self-correction, answer spellings) and six
    wrong trajectories of the four classes (admission fails each)."""
    assert tasks
    for t in tasks.values():
        gt = t.ground_truth
        assert not gt.required_outputs, t.instance_id
        assert {a.name: a.type for a in gt.answers} == types
        assert all(f"`{a.name}`" in t.instruction for a in gt.answers)
        assert len(t.alternatives) >= 3 and all(alt.answers != t.oracle.answers for alt in t.alternatives)
        assert len(t.mutants) >= 6
        assert {m.mutant_class for m in t.mutants} >= {"lookalike", "careless", "contradicting_report", "shortcut"}


def assert_a_terse_done_passes(task: Task, golden: Path) -> None:
    """The instruction asks for no report, so there are no answers and no regex: the oracle's steps with
    a bare "Done" pass; three alternatives and six wrong trajectories (admitted: each wrong one fails)."""
    gt = task.ground_truth
    assert not gt.answers and not gt.required_outputs and "report" not in task.instruction.lower()
    assert len(task.alternatives) >= 3 and len(task.mutants) >= 6
    assert {m.mutant_class for m in task.mutants} >= {"lookalike", "stale", "careless", "shortcut"}
    g = scripted(task, golden, [(s.tool, s.args) for s in task.oracle.steps], "Done")
    assert g.passed, (task.instance_id, g.reason)


class FamilyContract:
    """What every family's tasks pass; a family's module subclasses it as ``TestContract`` (see
    tests/tasks/conftest.py for the module attributes that parametrize it)."""

    @pytest.mark.sample_in_quick_tier
    def test_admitted(self, compiled: dict[str, Task], golden: Path, task_index: int) -> None:
        """The whole gate: k=2 identical oracle runs, the no-op failing, every mutant killed, every
        alternative passing (one test per task, so parallel test workers share the load; the quick
        tier runs it on the first key, ``--run-slow`` on all)."""
        assert_admitted(list(compiled.values())[task_index], golden)

    @pytest.mark.beyond_the_quick_tier_sample
    def test_oracle_passes_and_noop_fails(self, compiled: dict[str, Task], golden: Path, task_index: int) -> None:
        """Every key but the first (whose admission runs both), in every tier: the oracle's
        trajectory passes and doing nothing fails."""
        task = list(compiled.values())[task_index]
        out = run_attempt(task, OraclePolicy(), golden=golden, inputs=INPUTS)
        assert out.grade.passed, (task.instance_id, out.grade.reason)
        assert_fails(task, golden, NoopPolicy())

    def test_over_eager_policies_fail(
        self, request: Any, compiled: dict[str, Task], golden: Path, over_eager: tuple[int, type]
    ) -> None:
        """``execute`` (the oracle, then the guarded step) and ``do-everything`` fail with score 0:
        the money guard trips where there is one, else the guarded step is a forbidden call; and the
        evaluator catches the busy employee even without the guard (a forbidden, unexpected or
        forbidden-call check fails) unless the module says ``DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE``
        (True, or the keys it holds for)."""
        index, policy = over_eager
        task = list(compiled.values())[index]
        out = assert_fails(task, golden, policy())
        assert out.grade.score == 0.0
        if task.money_movement_guard:
            assert out.grade.guard_violation, (task.instance_id, policy.name)
        else:
            assert failed(out, "forbidden_call"), (task.instance_id, policy.name, out.grade.reason)
        guard_alone = getattr(request.module, "DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE", False)
        if not isinstance(guard_alone, bool):  # the keys it holds for
            guard_alone = task.key in guard_alone
        if policy is DoEverythingPolicy and not guard_alone:
            kinds = {c.kind for c in out.grade.failed_checks()}
            assert kinds & {"forbidden", "unexpected", "forbidden_call"}, (task.instance_id, kinds)

    def test_half_twisted(self, compiled: dict[str, Task]) -> None:
        assert_half_twisted(compiled)

    def test_decimal_amounts_exact(self, compiled: dict[str, Task]) -> None:
        assert_decimal_amounts_exact(compiled)

    def test_task_json_roundtrip(self, compiled: dict[str, Task]) -> None:
        for t in compiled.values():
            again = Task.model_validate_json(t.model_dump_json(by_alias=True))
            assert again == t
            assert json.loads(t.model_dump_json(by_alias=True))["contamination_meta"]["sha256"].startswith("sha256:")
