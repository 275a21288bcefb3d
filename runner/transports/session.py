"""One Environment behind a lock, with what a wire transport needs on top of it.

:class:`ServedEnv` is shared by the HTTP app and the MCP server: the tool surface (with native
names and guard flags for remote clients), named snapshots, re-seeding, the diff and guard log,
and — when it serves a task — :meth:`ServedEnv.finish`, which grades the attempt exactly as
:func:`cfab.runner.attempt.run_attempt` does and writes the result to a results folder.

Every operation takes one lock: a DuckDB connection serves one request at a time, whichever
thread the web server runs it on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cfab.apps.world.environment import Environment, Snapshot
from cfab.grader import Grade, GuardedCall, StateDiff, grade
from cfab.runner.results.records import AttemptRecord, DiffCount, FailedCheck, TaskMeta, ToolCallRecord
from cfab.schema.models import CfabModel, FrozenModel
from cfab.tasks.model import Task

#: keys added to each ``tool_specs()`` entry for remote clients (ignored by the LLM API).
NATIVE_KEY = "x-native-name"
WRITES_KEY = "x-writes"
GUARDED_KEY = "x-guarded"


class AttemptFinished(RuntimeError):
    """The served attempt was already graded; re-seed (HTTP) or start a new session (MCP)."""


class NoTask(LookupError):
    """The server was started over apps, not a task: there is nothing to grade."""


class SnapshotInfo(FrozenModel):
    """A snapshot taken over the wire: restore it with ``POST /reset``."""

    snapshot_id: str
    digest: str
    seq: int


class ResetRequest(CfabModel):
    """Body of ``POST /reset``."""

    snapshot_id: str


class FinishRequest(CfabModel):
    """Body of ``POST /finish``: the agent's final reply and the typed answers the task asks for
    (``GET /task`` lists them with their JSON Schema). Values of the wrong type are graded as
    failed checks, not refused."""

    reply: Any = ""
    answers: Any = None


class Health(FrozenModel):
    """``GET /``: what this server hosts."""

    service: str = "cfagentbench"
    transport: str
    apps: list[str]
    clock: str
    tools: list[str]
    task: str | None = None
    finished: bool = False


class FinishResult(FrozenModel):
    """A graded attempt and where it was written."""

    task: str
    attempt: int
    grade: Grade
    record: AttemptRecord
    files: dict[str, str]


class ServedEnv:
    """An :class:`Environment` served to one remote client at a time.

    ``owns_env``: close the environment with :meth:`close` (``runner serve``); a wrapped
    environment (``client_wrapper``) belongs to ``run_attempt``, which grades it itself.
    ``out``: the results folder (default ``runs/<transport>/<task id>``); ``on_finish``: called
    with each graded attempt.
    """

    def __init__(
        self,
        env: Environment,
        *,
        task: Task | None = None,
        out: str | Path | None = None,
        transport: str = "http",
        owns_env: bool = False,
        on_finish: Callable[[FinishResult], None] | None = None,
    ) -> None:
        self.env = env
        self.task = task
        self.transport = transport
        self.out = (
            Path(out)
            if out is not None
            else (Path("runs") / transport / task.instance_id if task is not None else None)
        )
        self.owns_env = owns_env
        self.on_finish = on_finish  # e.g. print the grade (runner serve)
        self.lock = threading.RLock()
        self.client: str | None = None  # "name version" of the connected agent, when known
        self.finished: FinishResult | None = None
        self._snapshots: dict[str, Snapshot] = {}
        self._started = time.perf_counter()

    # ------------------------------------------------------------------ surface
    def health(self) -> Health:
        with self.lock:
            return Health(
                transport=self.transport,
                apps=list(self.env.app_names),
                clock=self.env.clock.isoformat(),
                tools=list(self.env.tools),
                task=self.task.instance_id if self.task else None,
                finished=self.finished is not None,
            )

    def tool_specs(self) -> list[dict[str, Any]]:
        """``env.tool_specs()`` plus each tool's native name, write flag and guard kind."""
        with self.lock:
            by_sanitized = {spec.sanitized: spec for spec in self.env.tools.values()}
            out = []
            for entry in self.env.tool_specs():
                spec = by_sanitized[entry["function"]["name"]]
                out.append({**entry, NATIVE_KEY: spec.name, WRITES_KEY: bool(spec.writes), GUARDED_KEY: spec.guarded})
            return out

    def has_tool(self, name: str) -> bool:
        """Is ``name`` a native, sanitized or alias name of one of the served tools?"""
        with self.lock:
            try:
                self.env.resolve(name)
            except KeyError:
                return False
            return True

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run one tool exactly as in-process (an unknown name is logged and answered there too)."""
        with self.lock:
            if self.finished is not None:
                raise AttemptFinished(
                    f"the attempt was graded (attempt {self.finished.attempt}); no further tool calls count"
                )
            return self.env.call(name, **args)

    def refuse(self, name: str, summary: dict[str, Any], reason: str) -> dict[str, Any]:
        """Log a call the transport refused before parsing it (see ``Environment.record_refused``)."""
        with self.lock:
            if self.finished is not None:
                raise AttemptFinished(
                    f"the attempt was graded (attempt {self.finished.attempt}); no further tool calls count"
                )
            return self.env.record_refused(name, summary, reason)

    # ------------------------------------------------------------------ state
    def snapshot(self) -> SnapshotInfo:
        with self.lock:
            snap = self.env.snapshot()
            sid = f"snap-{len(self._snapshots) + 1}"
            self._snapshots[sid] = snap
            return SnapshotInfo(snapshot_id=sid, digest=self.env.digest(), seq=snap.seq)

    def reset(self, snapshot_id: str) -> SnapshotInfo:
        """Restore a snapshot's state exactly. The tool log and the guard log are kept: they are
        append-only for the attempt's whole life, so a call staged for approval stays visible to
        ``/guarded_calls`` and to the grade whatever the client restores."""
        with self.lock:
            snap = self._snapshots.get(snapshot_id)
            if snap is None:
                known = ", ".join(self._snapshots) or "none yet (GET /snapshot takes one)"
                raise KeyError(f"unknown snapshot {snapshot_id!r}; snapshots: {known}")
            self.env.reset(snap, keep_logs=True)
            return SnapshotInfo(snapshot_id=snapshot_id, digest=self.env.digest(), seq=snap.seq)

    def seed(self) -> Health:
        """A fresh copy of the golden file's state. While an attempt runs its tool and guard logs
        are kept (append-only, as for :meth:`reset`); once it was graded (``finish``, which wrote
        its logs to the results) a new attempt starts with empty logs."""
        with self.lock:
            self.env.reset(Snapshot(path=str(self.env.golden), seq=0), keep_logs=self.finished is None)
            self.finished = None
            self._started = time.perf_counter()
            return self.health()

    def state_diff(self, snapshot_id: str | None = None, full: bool = False) -> StateDiff:
        """The diff against the baseline (the golden file), or against a snapshot."""
        with self.lock:
            before = None
            if snapshot_id is not None:
                before = self._snapshots.get(snapshot_id)
                if before is None:
                    raise KeyError(f"unknown snapshot {snapshot_id!r}")
            return self.env.state_diff(before, full=full)

    def guarded_calls(self) -> list[GuardedCall]:
        with self.lock:
            return self.env.guarded_calls()

    def digest(self) -> str:
        with self.lock:
            return self.env.digest()

    # ------------------------------------------------------------------ task
    def task_view(self) -> dict[str, Any]:
        """What the agent may see of the task (no ground truth, no oracle)."""
        if self.task is None:
            raise NoTask("this server was started over apps, not a task (runner serve --task ID)")
        return self.task.agent_view()

    def finish(self, reply: str = "", answers: Any = None, *, stop_reason: str | None = "finish") -> FinishResult:
        """Grade the attempt (as run_attempt does) with the agent's reply and typed answers,
        write it to :attr:`out`, and end it."""
        with self.lock:
            if self.task is None:
                raise NoTask("nothing to grade: this server hosts apps, not a task (runner serve --task ID)")
            if self.finished is not None:
                raise AttemptFinished(
                    f"attempt {self.finished.attempt} of {self.task.instance_id} was already "
                    "graded; POST /seed starts a new one"
                )
            env, task = self.env, self.task
            guards = env.guarded_calls()
            tools = env.tool_log()
            diff = env.state_diff()
            result = grade(
                task.ground_truth, diff, reply=reply, answers=answers, guarded_calls=guards, tool_calls=tools
            )
            wall = time.perf_counter() - self._started
            assert self.out is not None
            self.finished = write_result(
                self.out,
                task,
                diff,
                result,
                guards,
                tools,
                reply=reply,
                answers=answers,
                transport=self.transport,
                client=self.client,
                wall_s=wall,
                stop_reason=stop_reason,
            )
            if self.on_finish is not None:
                self.on_finish(self.finished)
            return self.finished

    def close(self) -> None:
        with self.lock:
            if self.owns_env:
                self.env.close()


def recorded_answers(answers: Any) -> dict[str, Any]:
    """The answers as an attempt record keeps them (a non-object is kept as its repr)."""
    if answers is None:
        return {}
    if isinstance(answers, dict):
        return {str(k): v for k, v in answers.items()}
    return {"_not_an_object": repr(answers)[:2000]}


def write_result(
    out: Path,
    task: Task,
    diff: StateDiff,
    result: Grade,
    guards: list[GuardedCall],
    tools: list[Any],
    *,
    reply: str,
    transport: str,
    client: str | None,
    wall_s: float,
    stop_reason: str | None,
    answers: Any = None,
) -> FinishResult:
    """Append an AttemptRecord to ``out/attempts.jsonl`` and write its pretty copy, full grade
    and diff as ``attempt-<n>.json``, ``attempt-<n>.grade.json`` and ``attempt-<n>.diff.json``."""
    from cfab.runner.results.directory import ResultsDir

    results = ResultsDir(out)
    attempt = sum(1 for r in results.load() if r.task == task.instance_id)
    meta = TaskMeta(
        domain=task.domain,
        family=task.family,
        difficulty=task.difficulty,
        systems=list(task.systems),
        money_movement_guard=task.money_movement_guard,
    )
    record = AttemptRecord(
        task=task.instance_id,
        attempt=attempt,
        policy=f"{transport}-client",
        model=client,
        passed=result.passed,
        score=result.score,
        failed_checks=[FailedCheck(kind=c.kind, label=c.label, detail=c.detail) for c in result.failed_checks()],
        diff_summary={t: DiffCount(**c) for t, c in diff.summary().items()},
        guard_log=[g.model_dump(mode="json") for g in guards],
        tool_calls=[ToolCallRecord(tool=c.tool, args=c.args, ok=c.ok, error=c.error) for c in tools],
        reply=reply if isinstance(reply, str) else repr(reply)[:2000],
        answers=recorded_answers(answers),
        wall_s=round(wall_s, 3),
        stop_reason=stop_reason,
        **meta.model_dump(),
    )
    results.append(record)
    stem = out / f"attempt-{attempt}"
    files = {
        "attempts": str(results.attempts_path),
        "record": f"{stem}.json",
        "grade": f"{stem}.grade.json",
        "diff": f"{stem}.diff.json",
    }
    Path(files["record"]).write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
    Path(files["grade"]).write_text(result.to_json(indent=2) + "\n", encoding="utf-8")
    Path(files["diff"]).write_text(diff.to_json() + "\n", encoding="utf-8")
    return FinishResult(task=task.instance_id, attempt=attempt, grade=result, record=record, files=files)
