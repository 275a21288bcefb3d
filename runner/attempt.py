"""One attempt, end to end: fresh environment → policy → state diff → grade.

:func:`run_attempt` is what the suite runner's workers, the admission gate, the transports'
parity test and the notebook all call. :func:`load_attempt` reopens a kept attempt from a
results folder for inspection (its diff as a polars frame, its guard log, its grade).
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cfab.apps.world.environment import Environment
from cfab.grader import Grade, GuardedCall, StateDiff, grade, state_diff
from cfab.runner.results.records import Episode
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.model import Task


@dataclass
class AttemptOutcome:
    """Everything one attempt produced."""

    task: Task
    episode: Episode
    diff: StateDiff
    grade: Grade
    guard_log: list[GuardedCall]
    tool_log: list[Any]
    wall_s: float
    state_path: Path | None = None


def run_attempt(
    task: Task,
    policy: Any,
    *,
    golden: Path,
    inputs: BuildInputs,
    keep_state: Path | None = None,
    env_wrapper: Any = None,
) -> AttemptOutcome:
    """Run ``policy`` on ``task`` in a fresh environment and grade the state it leaves.

    ``keep_state``: copy the after-state file there. ``env_wrapper``: a callable that wraps
    the Environment in another transport (HTTP, MCP) for the policy; grading always reads
    the environment itself.
    """
    started = time.perf_counter()
    with Environment.open(apps=task.systems, inputs=inputs, golden=golden, sql_write=task.sql_write) as env:
        facing = env_wrapper(env) if env_wrapper is not None else env
        try:
            episode = policy.run(task, facing)
        finally:
            if facing is not env and hasattr(facing, "close"):
                facing.close()
        guards = env.guarded_calls()
        tools = env.tool_log()
        diff = env.state_diff()
        result = grade(
            task.ground_truth,
            diff,
            reply=episode.reply,
            answers=episode.answers,
            guarded_calls=guards,
            tool_calls=tools,
        )
        kept = None
        if keep_state is not None:  # the diff left the file checkpointed and closed
            keep_state.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(env.path, keep_state)
            kept = keep_state
    return AttemptOutcome(task, episode, diff, result, guards, tools, time.perf_counter() - started, kept)


@dataclass
class AttemptView:
    """A kept attempt reopened from a results folder (for notebooks and debugging)."""

    record: dict[str, Any]
    state_path: Path | None
    golden: Path
    task: Task | None

    def state_diff(self, full: bool = False) -> StateDiff:
        if self.state_path is None:
            raise FileNotFoundError("this attempt's state was not kept (run with --keep-state all|failed)")
        return state_diff(self.golden, self.state_path, full=full)

    def guard_log(self) -> list[dict[str, Any]]:
        return list(self.record.get("guard_log", []))

    def tool_calls(self) -> list[dict[str, Any]]:
        return list(self.record.get("tool_calls", []))

    def grade(self) -> Grade:
        """Re-grade the kept state with the task's evaluator (equals the recorded grade)."""
        if self.task is None:
            raise LookupError(f"task {self.record['task']} is not in the suite")
        from cfab.grader import GuardedCall as GC

        guards = [GC.model_validate(g) for g in self.guard_log()]
        return grade(
            self.task.ground_truth,
            self.state_diff(),
            reply=self.record.get("reply", ""),
            answers=self.record.get("answers") or None,
            guarded_calls=guards,
            tool_calls=[],
        )


def load_attempt(out: str | Path, task: str, attempt: int = 0) -> AttemptView:
    """Reopen attempt ``attempt`` of ``task`` from a results folder."""
    from cfab.apps.world.golden import ensure_golden
    from cfab.runner.results.directory import ResultsDir
    from cfab.tasks.suite import load_suite

    results = ResultsDir(out)
    records = [r for r in results.load() if r.task == task and r.attempt == attempt]
    if not records:
        raise LookupError(f"no attempt {attempt} of {task} in {out}")
    rec = records[-1]
    meta = results.read_meta() or {}
    inputs = BuildInputs.from_env(seed=meta.get("seed"), clock=meta.get("clock"), scale=meta.get("scale"))
    golden = ensure_golden(inputs)
    tasks = {t.instance_id: t for t in load_suite(meta.get("suite", "executable"), inputs)}
    path = Path(rec.state_path) if rec.state_path else None
    return AttemptView(json.loads(rec.model_dump_json()), path, golden, tasks.get(task))
