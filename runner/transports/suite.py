"""A whole suite behind one server: the client picks a task, works it, finishes, picks the next.

``runner serve --transport http --suite held_out`` serves the held-out partition this way: the
operator's machine compiles the tasks and keeps their ground truth; the client sees what an agent
may see (``GET /tasks``: each task's instruction, systems and typed answers; then the usual tool
endpoints on the task it started) and, from ``POST /finish``, only the verdict. A held-out task's
grade goes over the wire *redacted* — pass/fail, score, whether a guard was tripped — never the
checks, their labels or details (they would name the expected rows and values); the full grade,
diff and guard log are written to the server's results folder, per task, as for one task.

:class:`ServedSuite` has the surface of :class:`~cfab.runner.transports.session.ServedEnv`
(``health``, ``tool_specs``, ``call``, ``finish``…) forwarding to the task started last, so the
HTTP app serves either; ``start`` opens a fresh environment for a task and closes the previous one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cfab.apps.world.environment import Environment
from cfab.grader import Grade, GuardedCall, StateDiff
from cfab.runner.transports.session import FinishResult, Health, NoTask, ServedEnv, SnapshotInfo
from cfab.schema.models import CfabModel, FrozenModel
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.model import Task

#: What a redacted grade says instead of its checks.
WITHHELD = "held-out task: the checks are withheld (the server's results folder keeps them)"


def redacted(grade: Grade) -> Grade:
    """The grade a client of a held-out task receives: the verdict without a word of the checks."""
    return Grade(passed=grade.passed, score=grade.score, guard_violation=grade.guard_violation, reason=WITHHELD)


class StartRequest(CfabModel):
    """Body of ``POST /start``: the task to work next (an ``instance_id`` from ``GET /tasks``)."""

    task: str


class TaskScore(FrozenModel):
    """One task's attempts so far (``GET /scores``)."""

    task: str
    attempts: int
    passed: int


class SuiteScores(FrozenModel):
    """``GET /scores``: pass^1 over the tasks attempted (each task's mean pass rate, averaged)."""

    suite: str
    tasks: int
    attempted: int
    pass1: float | None
    by_task: list[TaskScore]


class ServedSuite:
    """A suite of tasks served one at a time (see the module docstring).

    ``redact``: send redacted grades for held-out tasks (True: every task whose partition is
    ``held_out``); ``out``: the results root, one folder per task (``out/<instance id>/``).
    """

    def __init__(
        self,
        tasks: list[Task],
        *,
        name: str,
        inputs: BuildInputs,
        golden: Path,
        out: str | Path,
        transport: str = "http",
        on_finish: Callable[[FinishResult], None] | None = None,
        open_env: Callable[[Task], Environment] | None = None,
    ) -> None:
        if not tasks:
            raise ValueError(f"suite {name!r} has no task to serve")
        self.name = name
        self.tasks = {t.instance_id: t for t in tasks}
        self.inputs = inputs
        self.golden = golden
        self.out = Path(out)
        self.transport = transport
        self.on_finish = on_finish
        self._open_env = open_env or self._default_open
        self.lock = threading.RLock()
        self.current: ServedEnv | None = None
        self.client: str | None = None
        self._results: dict[str, list[bool]] = {}

    # ------------------------------------------------------------------ suite
    def _default_open(self, task: Task) -> Environment:
        return Environment.open(apps=task.systems, inputs=self.inputs, golden=self.golden, sql_write=task.sql_write)

    def task_list(self) -> list[dict[str, Any]]:
        """Every task as an agent may see it (no ground truth, no oracle)."""
        return [t.agent_view() for t in self.tasks.values()]

    def start(self, task_id: str) -> Health:
        """Open a fresh environment on ``task_id`` (the previous task's is closed; an unfinished
        attempt there is left ungraded)."""
        with self.lock:
            task = self.tasks.get(task_id)
            if task is None:
                raise KeyError(f"no task {task_id!r} in suite {self.name!r} (GET /tasks lists them)")
            env = self._open_env(task)
            previous, self.current = (
                self.current,
                ServedEnv(
                    env,
                    task=task,
                    out=self.out / task.instance_id,
                    transport=self.transport,
                    owns_env=True,
                    on_finish=self._finished,
                ),
            )
            self.current.client = self.client
            if previous is not None:
                previous.close()
            return self.current.health()

    def _finished(self, done: FinishResult) -> None:
        self._results.setdefault(done.task, []).append(done.grade.passed)
        if self.on_finish is not None:
            self.on_finish(done)

    def scores(self) -> SuiteScores:
        with self.lock:
            by_task = [TaskScore(task=t, attempts=len(r), passed=sum(r)) for t, r in sorted(self._results.items()) if r]
            rates = [s.passed / s.attempts for s in by_task]
            return SuiteScores(
                suite=self.name,
                tasks=len(self.tasks),
                attempted=len(by_task),
                pass1=round(sum(rates) / len(rates), 6) if rates else None,
                by_task=by_task,
            )

    def redacts(self, task_id: str) -> bool:
        task = self.tasks.get(task_id)
        return task is not None and task.partition == "held_out"

    def _cur(self) -> ServedEnv:
        if self.current is None:
            raise NoTask(f"no task started: POST /start with one of the {len(self.tasks)} tasks of GET /tasks")
        return self.current

    # ------------------------------------------------------------------ the ServedEnv surface
    @property
    def task(self) -> Task | None:
        return self.current.task if self.current is not None else None

    def health(self) -> Health:
        with self.lock:
            if self.current is None:
                return Health(transport=self.transport, apps=[], clock=self.inputs.clock.isoformat(), tools=[])
            return self.current.health()

    def tool_specs(self) -> list[dict[str, Any]]:
        with self.lock:
            return self._cur().tool_specs()

    def has_tool(self, name: str) -> bool:
        with self.lock:
            return self.current is not None and self.current.has_tool(name)

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            return self._cur().call(name, args)

    def refuse(self, name: str, summary: dict[str, Any], reason: str) -> dict[str, Any]:
        with self.lock:
            return self._cur().refuse(name, summary, reason)

    def snapshot(self) -> SnapshotInfo:
        with self.lock:
            return self._cur().snapshot()

    def reset(self, snapshot_id: str) -> SnapshotInfo:
        with self.lock:
            return self._cur().reset(snapshot_id)

    def seed(self) -> Health:
        with self.lock:
            return self._cur().seed()

    def state_diff(self, snapshot_id: str | None = None, full: bool = False) -> StateDiff:
        with self.lock:
            return self._cur().state_diff(snapshot_id, full=full)

    def guarded_calls(self) -> list[GuardedCall]:
        with self.lock:
            return self._cur().guarded_calls()

    def task_view(self) -> dict[str, Any]:
        with self.lock:
            return self._cur().task_view()

    def finish(self, reply: str = "", answers: Any = None, *, stop_reason: str | None = "finish") -> FinishResult:
        with self.lock:
            return self._cur().finish(reply, answers, stop_reason=stop_reason)

    def close(self) -> None:
        with self.lock:
            if self.current is not None:
                self.current.close()
                self.current = None
