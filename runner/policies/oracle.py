"""Policies built from a task's ground truth.

* ``oracle`` replays the task's oracle trajectory and states its reply: environment
  validation, it must pass every time.
* ``execute`` is the oracle that then also takes the guarded step it should have staged (posts
  the entry, releases the payroll, sends the email): it must fail every guarded task, and every
  task that forbids the step.
* ``do-everything`` is the oracle that then also calls every mutating tool of its apps with
  plausible arguments (each argument's documented example): the "busy employee who touches
  every file on the desk", which the forbidden list must catch.
* ``alternative`` replays one of the task's alternative trajectories (``index`` option).
* ``stage-payment`` is the oracle plus one unrequested staged payment (the composed apps'
  most payment-like guarded tool with its documented example arguments): staged, never
  executed, and still it must fail every task.

All of them floor or validate the benchmark; none uses a model.
"""

from __future__ import annotations

import re
from typing import Any

from cfab.runner.protocols import EnvLike
from cfab.runner.results.records import Episode, ToolCallRecord
from cfab.tasks.model import StepResults


def replay(env: EnvLike, steps: list[Any], results: StepResults | None = None) -> list[ToolCallRecord]:
    """Call ``steps`` in order on ``env``, resolving ``result_of`` arguments from ``results`` (pass
    the same one to a later replay in the same world so it can name what these calls created)."""
    results = StepResults() if results is None else results
    calls = []
    for step in steps:
        args = results.resolve(step.args)
        result = env.call(step.tool, **args)
        results.record(step.tool, result)
        calls.append(ToolCallRecord(tool=step.tool, args=args, ok=bool(result.get("ok")), error=result.get("error")))
    return calls


def _trajectory(task: Any, index: int | None = None) -> Any:
    if index is None:
        return task.oracle
    alts = getattr(task, "alternatives", [])
    if not 0 <= index < len(alts):
        raise ValueError(f"{task.instance_id} has {len(alts)} alternative trajectories; no index {index}")
    return alts[index]


class OraclePolicy:
    """Replay the ground-truth trajectory (or alternative ``index``) and state its reply."""

    name = "oracle"
    model = None

    def __init__(self, index: int | None = None) -> None:
        self.index = index

    def run(self, task: Any, env: EnvLike) -> Episode:
        traj = _trajectory(task, self.index)
        calls = replay(env, traj.steps)
        return Episode(
            reply=traj.reply, answers=dict(traj.answers), steps=len(calls), tool_calls=calls, stop_reason="finish"
        )


class ExecutePolicy:
    """The oracle, then the guarded step it should have left for a human."""

    name = "execute"
    model = None

    def run(self, task: Any, env: EnvLike) -> Episode:
        results = StepResults()
        calls = replay(env, task.oracle.steps, results)
        step = getattr(task, "guarded_step", None)
        if step is not None:
            calls += replay(env, [step], results)
        return Episode(
            reply=task.oracle.reply,
            answers=dict(task.oracle.answers),
            steps=len(calls),
            tool_calls=calls,
            stop_reason="finish",
        )


class DoEverythingPolicy:
    """The oracle, then every mutating tool of the composed apps with example arguments."""

    name = "do-everything"
    model = None

    def run(self, task: Any, env: EnvLike) -> Episode:
        calls = replay(env, task.oracle.steps)
        tools = getattr(env, "tools", {})
        for name, spec in sorted(tools.items()):
            if not (spec.writes or spec.guarded):
                continue
            args = example_args(spec.args_model)
            if args is None:
                continue
            result = env.call(name, **args)
            calls.append(ToolCallRecord(tool=name, args=args, ok=bool(result.get("ok")), error=result.get("error")))
        return Episode(
            reply=task.oracle.reply,
            answers=dict(task.oracle.answers),
            steps=len(calls),
            tool_calls=calls,
            stop_reason="finish",
        )


_PAYMENT_WORDS = re.compile(r"pay|transfer|release|wire|ach", re.IGNORECASE)


def payment_step(tools: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The most payment-like guarded tool among ``tools`` (name → spec) with example arguments
    (a payment or transfer first, then any other guarded step), or None when there is none."""
    guarded = sorted(name for name, spec in tools.items() if spec.guarded)
    if not guarded:
        return None
    paying = [n for n in guarded if _PAYMENT_WORDS.search(n.rsplit(".", 2)[-2] + "." + n.rsplit(".", 1)[-1])]
    name = (paying or guarded)[0]
    return name, example_args(tools[name].args_model) or {}


class StagePaymentPolicy:
    """The oracle, then one staged payment nobody asked for."""

    name = "stage-payment"
    model = None

    def run(self, task: Any, env: EnvLike) -> Episode:
        calls = replay(env, task.oracle.steps)
        step = payment_step(getattr(env, "tools", {}))
        if step is not None:
            name, args = step
            result = env.call(name, **args)
            calls.append(ToolCallRecord(tool=name, args=args, ok=bool(result.get("ok")), error=result.get("error")))
        return Episode(
            reply=task.oracle.reply,
            answers=dict(task.oracle.answers),
            steps=len(calls),
            tool_calls=calls,
            stop_reason="finish",
        )


def example_args(model: Any) -> dict[str, Any] | None:
    """Arguments from each field's first documented example; None if a required field has none."""
    out: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        examples = field.examples or []
        if examples:
            out[field.alias or name] = examples[0]
        elif field.is_required():
            return None
    return out
