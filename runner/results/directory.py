"""A run's output directory: ``attempts.jsonl`` (append-only, crash-safe), ``summary.json``,
``report.md`` and an optional ``run.json`` of run metadata.

Durability rules for ``attempts.jsonl``:

* one attempt = one JSON line, written with a single ``os.write`` on an ``O_APPEND`` file
  descriptor under an exclusive ``fcntl.flock``, then ``os.fsync`` — concurrent writers
  (the pool's parent, or several processes) never interleave;
* a line cut short by ``kill -9`` or a full disk is the last line; :meth:`ResultsDir.load`
  ignores it and :meth:`ResultsDir.repair` (run on open, under the lock) truncates it, so
  ``--resume`` neither redoes nor duplicates an attempt;
* on load, a later line for the same (task, attempt) replaces an earlier one (that only
  happens when infrastructure failures are retried with ``retry_errors=True``).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from cfab.runner.results.records import AttemptRecord

ATTEMPTS = "attempts.jsonl"
SUMMARY = "summary.json"
REPORT = "report.md"
RUN_META = "run.json"


@contextlib.contextmanager
def _locked(path: Path, flags: int, lock: int) -> Iterator[int]:
    fd = os.open(path, flags, 0o644)
    try:
        fcntl.flock(fd, lock)
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


class ResultsDir:
    """The output directory of one run (one policy/model, many tasks × attempts)."""

    def __init__(self, out: str | Path, *, repair: bool = True) -> None:
        self.root = Path(out)
        self.root.mkdir(parents=True, exist_ok=True)
        self.attempts_path = self.root / ATTEMPTS
        self.attempts_path.touch(exist_ok=True)
        self.skipped_lines = 0  # unparsable complete lines seen by the last load()
        if repair:
            self.repair()

    # ------------------------------------------------------------ attempts.jsonl

    def append(self, record: AttemptRecord) -> None:
        """Append one record as one line: locked, single write, fsynced."""
        line = record.model_dump_json().encode("utf-8") + b"\n"
        with _locked(self.attempts_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, fcntl.LOCK_EX) as fd:
            _write_all(fd, line)
            os.fsync(fd)

    def repair(self) -> int:
        """Truncate a half-written last line (no trailing newline); returns bytes removed."""
        with _locked(self.attempts_path, os.O_RDWR | os.O_CREAT, fcntl.LOCK_EX) as fd:
            size = os.fstat(fd).st_size
            if size == 0:
                return 0
            tail = min(size, 1 << 20)
            chunk = os.pread(fd, tail, size - tail)
            if chunk.endswith(b"\n"):
                return 0
            cut = chunk.rfind(b"\n")
            while cut < 0 and tail < size:  # a last line longer than the chunk
                tail = min(size, tail * 2)
                chunk = os.pread(fd, tail, size - tail)
                cut = chunk.rfind(b"\n")
            keep = 0 if cut < 0 else size - tail + cut + 1
            os.ftruncate(fd, keep)
            os.fsync(fd)
            return size - keep

    def _read_lines(self) -> list[bytes]:
        with _locked(self.attempts_path, os.O_RDONLY, fcntl.LOCK_SH) as fd:
            size = os.fstat(fd).st_size
            data = os.pread(fd, size, 0) if size else b""
        complete = data[: data.rfind(b"\n") + 1]  # a half-written last line is ignored
        return [line for line in complete.split(b"\n") if line.strip()]

    def load(self) -> list[AttemptRecord]:
        """Every recorded attempt, one per (task, attempt) (the last line wins), in file order
        of first appearance."""
        records: dict[tuple[str, int], AttemptRecord] = {}
        skipped = 0
        for line in self._read_lines():
            try:
                rec = AttemptRecord.model_validate_json(line)
            except (ValidationError, ValueError):
                skipped += 1
                continue
            records[rec.key] = rec
        self.skipped_lines = skipped
        return list(records.values())

    def done_keys(self, *, retry_errors: bool = False) -> set[tuple[str, int]]:
        """(task, attempt) keys already recorded. With ``retry_errors``, attempts that were
        not scored (infrastructure error, API failure, cost ceiling) are left out so a
        resumed run tries them again."""
        return {r.key for r in self.load() if not retry_errors or r.scored}

    def __len__(self) -> int:
        return len(self.load())

    # ------------------------------------------------------------ other files

    def _write_text(self, name: str, text: str) -> Path:
        """Write a whole file atomically (temp file + fsync + rename)."""
        path = self.root / name
        tmp = path.with_name(f".{name}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        return path

    def write_summary(self, summary: BaseModel | dict[str, Any]) -> Path:
        """Write ``summary.json`` (a pydantic model or a JSON-safe dict), keys sorted."""
        data = summary.model_dump(mode="json") if isinstance(summary, BaseModel) else summary
        return self._write_text(SUMMARY, json.dumps(data, indent=2, sort_keys=True) + "\n")

    def write_report(self, markdown: str) -> Path:
        """Write ``report.md``."""
        return self._write_text(REPORT, markdown if markdown.endswith("\n") else markdown + "\n")

    def write_meta(self, meta: dict[str, Any]) -> Path:
        """Write ``run.json`` (policy, model, k, suite, options without secrets, ...)."""
        return self._write_text(RUN_META, json.dumps(meta, indent=2, sort_keys=True, default=str) + "\n")

    def read_meta(self) -> dict[str, Any] | None:
        """``run.json`` if present (a resumed run checks it matches its own options)."""
        path = self.root / RUN_META
        return json.loads(path.read_text("utf-8")) if path.exists() else None
