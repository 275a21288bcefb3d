"""Run attempt jobs over worker processes, appending each record as it arrives.

:func:`run_attempts` keeps one job per worker process and knows which job each worker
holds, so a worker that dies (``os._exit``, a segfault, the OOM killer) costs exactly one
job: that job is recorded as an infrastructure-error attempt, a fresh worker replaces the
dead one, and the run goes on. Workers are ``spawn``-started processes (no inherited
DuckDB handles or threads); ``run_one`` must be a picklable top-level callable.
``workers=1`` runs every job in this process, for debugging.

Jobs already in the results directory are skipped (``skip_done``), so a resumed run
neither redoes nor duplicates attempts. Ctrl-C stops the workers and re-raises; every
finished attempt is already on disk.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import signal
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from multiprocessing.connection import Connection, wait
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from cfab.apps.world.limits import cap_memory, restore_memory
from cfab.runner.results.directory import ResultsDir
from cfab.runner.results.records import AttemptRecord, AttemptSpec

RunOne = Callable[[AttemptSpec], AttemptRecord]
ErrorRecord = Callable[..., AttemptRecord]

__all__ = ["AttemptSpec", "RunOne", "run_attempts"]


class _Bar:
    """A rich progress bar (attempts done/total, passes so far, ETA), or nothing."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.passes = 0
        self._progress: Progress | None = None
        if enabled and total:
            self._progress = Progress(
                TextColumn("[bold]attempts"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("passes {task.fields[passes]}"),
                TimeElapsedColumn(),
                TextColumn("eta"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )
            self._task = self._progress.add_task("attempts", total=total, passes=0)
            self._progress.start()

    def advance(self, record: AttemptRecord) -> None:
        self.passes += int(record.passed)
        if self._progress is not None:
            self._progress.update(self._task, advance=1, passes=self.passes)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()


def _checked(spec: AttemptSpec, record: Any, error_record: ErrorRecord) -> AttemptRecord:
    """The record run_one returned, or an error record if it is not this job's record."""
    if not isinstance(record, AttemptRecord):
        return error_record(spec, f"run_one returned {type(record).__name__}, not AttemptRecord")
    if record.key != spec.key:
        return error_record(spec, f"run_one returned the record of {record.key}, not {spec.key}")
    return record


def _pending(
    jobs: Iterable[AttemptSpec], results: ResultsDir, skip_done: bool, retry_errors: bool
) -> list[AttemptSpec]:
    done = results.done_keys(retry_errors=retry_errors) if skip_done else set()
    out: list[AttemptSpec] = []
    for job in jobs:
        if job.key not in done:
            done.add(job.key)  # also drops duplicate jobs in the list
            out.append(job)
    return out


# ---------------------------------------------------------------- worker side


def _worker_main(conn: Connection, run_one: RunOne, memory_cap: str | None = None) -> None:
    """Worker loop: receive a job (JSON), run it, send ("ok", record JSON) or ("err", text)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    cap_memory(memory_cap)  # a runaway agent query fails with Out of Memory, not the host
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        try:
            spec = AttemptSpec.model_validate_json(msg)
            record = run_one(spec)
            if not isinstance(record, AttemptRecord):
                raise TypeError(f"run_one returned {type(record).__name__}, not AttemptRecord")
            payload: tuple[str, str] = ("ok", record.model_dump_json())
        except BaseException as exc:  # SystemExit too: the job fails, the worker lives
            tb = traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-5)
            payload = ("err", f"{type(exc).__name__}: {exc}\n{''.join(tb)}"[:4000])
        try:
            conn.send(payload)
        except (BrokenPipeError, OSError):
            return


# ---------------------------------------------------------------- parent side


class _Slot:
    """One worker process and the job it holds."""

    def __init__(self, ctx: Any, run_one: RunOne, memory_cap: str | None = None) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(
            target=_worker_main, args=(child, run_one, memory_cap), name="cfab-worker", daemon=False
        )
        self.proc.start()
        child.close()
        self.job: AttemptSpec | None = None
        self.started = 0.0

    def give(self, job: AttemptSpec) -> None:
        self.conn.send(job.model_dump_json())
        self.job, self.started = job, time.monotonic()

    def stop(self, timeout: float = 5.0) -> None:
        with contextlib.suppress(BrokenPipeError, OSError):
            self.conn.send(None)
        self.proc.join(timeout)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(timeout)
        self.conn.close()


def _death(proc: Any) -> str:
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            return f"worker process died (signal {signal.Signals(-code).name})"
        except ValueError:
            return f"worker process died (signal {-code})"
    return f"worker process died (exit code {code})"


def _run_pool(
    queue: deque[AttemptSpec],
    run_one: RunOne,
    workers: int,
    emit: Callable[[AttemptRecord], None],
    error_record: ErrorRecord,
    memory_cap: str | None = None,
) -> None:
    ctx = mp.get_context("spawn")
    slots = [_Slot(ctx, run_one, memory_cap) for _ in range(min(workers, len(queue)))]
    try:
        while queue or any(s.job is not None for s in slots):
            for i, s in enumerate(slots):
                while s.job is None and queue:
                    spec = queue.popleft()
                    try:
                        s.give(spec)
                    except (BrokenPipeError, OSError):  # died while idle: replace, retry
                        queue.appendleft(spec)
                        s.stop(0.1)
                        s = slots[i] = _Slot(ctx, run_one, memory_cap)
            busy = [s for s in slots if s.job is not None]
            ready = set(wait([s.conn for s in busy] + [s.proc.sentinel for s in busy]))
            for i, s in enumerate(slots):
                job = s.job
                if job is None or (s.conn not in ready and s.proc.sentinel not in ready):
                    continue
                wall = time.monotonic() - s.started
                message = None
                if s.conn.poll():
                    try:
                        message = s.conn.recv()
                    except (EOFError, OSError):
                        message = None
                if message is not None:
                    kind, payload = message
                    s.job = None
                    if kind == "ok":
                        emit(_checked(job, AttemptRecord.model_validate_json(payload), error_record))
                    else:
                        emit(error_record(job, f"run_one raised: {payload}", wall_s=wall))
                    continue
                s.proc.join(5.0)
                if s.proc.is_alive():  # conn closed but process alive: treat as dead
                    s.proc.kill()
                    s.proc.join(5.0)
                emit(error_record(job, _death(s.proc), wall_s=wall))
                s.job = None
                s.conn.close()
                slots[i] = _Slot(ctx, run_one, memory_cap) if queue else s
    finally:
        for s in slots:
            if s.proc.is_alive() and s.job is not None:
                s.proc.kill()
            if not s.conn.closed:
                s.stop()
            else:
                s.proc.join(1.0)


def run_attempts(
    jobs: list[AttemptSpec],
    run_one: RunOne,
    *,
    workers: int,
    results: ResultsDir,
    progress: bool = True,
    skip_done: bool = True,
    retry_errors: bool = False,
    error_record: ErrorRecord = AttemptRecord.infra_error,
    memory_cap: str | None = None,
) -> None:
    """Run every job not yet recorded in ``results``; append each record as it finishes.

    With ``retry_errors`` the recorded attempts that were not scored (worker crash, API
    failure, cost ceiling) run again; their new line supersedes the old one on load.

    ``error_record(spec, message, wall_s=...)`` builds the record of a job whose worker
    died or whose ``run_one`` raised (default :meth:`AttemptRecord.infra_error`).

    ``memory_cap`` (e.g. ``"4GB"``, `cfab.apps.world.limits`) bounds how far each attempt process's
    data segment may grow; in-process runs (``workers <= 1``) restore the limit afterwards.
    """
    queue = deque(_pending(jobs, results, skip_done, retry_errors))
    bar = _Bar(len(queue), progress and sys.stderr.isatty())

    def emit(record: AttemptRecord) -> None:
        results.append(record)
        bar.advance(record)

    previous = cap_memory(memory_cap) if workers <= 1 else None
    try:
        if workers <= 1:
            while queue:
                job = queue.popleft()
                t0 = time.monotonic()
                try:
                    record = _checked(job, run_one(job), error_record)
                except Exception as exc:  # Ctrl-C and SystemExit still stop the run
                    record = error_record(
                        job, f"run_one raised: {type(exc).__name__}: {exc}", wall_s=time.monotonic() - t0
                    )
                emit(record)
        else:
            _run_pool(queue, run_one, workers, emit, error_record, memory_cap)
    finally:
        restore_memory(previous)
        bar.close()
