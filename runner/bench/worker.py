"""Subprocess side of ``runner bench`` (``python -m cfab.runner.bench.worker MODE …``).

Each mode runs in a fresh process so its memory high-water mark is its own, and prints one
``BENCH-JSON {…}`` line (:func:`parse_output` reads it; :func:`worker_command` is the command
line that starts a mode):

* ``wrap -- CMD …`` (the suite section): run CMD, report its wall time, exit code, and the peak
  RSS and CPU of CMD's process tree (``RUSAGE_CHILDREN``: the largest single descendant, e.g.
  one worker);
* ``attempts`` (the memory section): run oracle attempts (``run_attempt``) of some tasks on a
  golden file, as a suite worker does; report peak RSS (``ru_maxrss`` and ``VmHWM``), import
  and attempt times;
* ``warm`` (the memory section): open each composition once, building its template;
* ``jsonsnap`` (the snapshot section): the whole-state JSON snapshot approach
  (:mod:`cfab.runner.bench.jsonsnap`) on two files.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from cfab.runner.bench.machine import peak_mb

#: the module ``python -m`` runs for a mode
MODULE = "cfab.runner.bench.worker"
MARK = "BENCH-JSON "


def worker_command(*args: str) -> list[str]:
    """The command line that runs this module with ``args`` (a mode and its options)."""
    return [sys.executable, "-m", MODULE, *args]


def _emit(payload: dict[str, Any]) -> None:
    sys.stdout.write(MARK + json.dumps(payload, default=str) + "\n")
    sys.stdout.flush()


def parse_output(text: str) -> dict[str, Any]:
    """The payload a worker printed (the last ``BENCH-JSON`` line)."""
    for line in reversed(text.splitlines()):
        if line.startswith(MARK):
            return json.loads(line[len(MARK) :])
    raise ValueError("no BENCH-JSON line in the worker's output")


# ---------------------------------------------------------------------------- wrap


def _wrap(cmd: list[str], timeout: float) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=timeout)
        rc, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as exc:
        rc, out, err = None, str(exc.stdout or ""), f"timed out after {timeout} s"
    wall = time.perf_counter() - start
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "wall_s": round(wall, 3),
        "rc": rc,
        "children_maxrss_mb": round(ru.ru_maxrss / 1024.0, 1),
        "children_cpu_s": round(ru.ru_utime + ru.ru_stime, 3),
        "stdout_tail": out[-2000:],
        "stderr_tail": err[-2000:],
    }


# ---------------------------------------------------------------------------- attempts


def _attempts(args: argparse.Namespace) -> dict[str, Any]:
    t0 = time.perf_counter()
    from cfab.runner.attempt import run_attempt
    from cfab.runner.policies import make_policy
    from cfab.seeds.determinism import BuildInputs
    from cfab.tasks.suite import load_suite

    imported = time.perf_counter() - t0
    inputs = BuildInputs.from_env(seed=args.seed, clock=args.clock, scale=args.scale)
    tasks = {t.instance_id: t for t in load_suite("executable", inputs, golden=Path(args.golden))}
    chosen = [tasks[i] for i in args.tasks.split(",") if i in tasks]
    if not chosen:
        raise SystemExit("bench worker: none of the tasks is in the suite")
    policy = make_policy("oracle")
    after_setup = peak_mb()
    walls: list[float] = []
    passed: list[bool] = []
    errors: list[str] = []
    for i in range(args.count):
        task = chosen[i % len(chosen)]
        start = time.perf_counter()
        try:
            out = run_attempt(task, policy, golden=Path(args.golden), inputs=inputs)
            passed.append(bool(out.grade.passed))
        except Exception as exc:  # noqa: BLE001  (measured anyway: memory is the point here)
            errors.append(f"{task.instance_id}: {type(exc).__name__}: {exc}"[:300])
            passed.append(False)
        walls.append(time.perf_counter() - start)
    return {
        "scale": args.scale,
        "attempts": args.count,
        "tasks": [t.instance_id for t in chosen],
        "import_s": round(imported, 3),
        "attempt_wall_s": [round(w, 3) for w in walls],
        "passed": sum(passed),
        "errors": errors[:5],
        "peak_after_setup": after_setup,
        "peak": peak_mb(),
    }


def _warm(args: argparse.Namespace) -> dict[str, Any]:
    """Open (and close) one environment per composition: builds whatever per-composition
    template the environment derives from the golden file; reports time and peak memory."""
    from cfab.apps.world.environment import Environment
    from cfab.seeds.determinism import BuildInputs

    inputs = BuildInputs.from_env(seed=args.seed, clock=args.clock, scale=args.scale)
    start = time.perf_counter()
    for apps in args.compositions.split(";"):
        Environment.open(apps=apps.split(","), inputs=inputs, golden=Path(args.golden)).close()
    return {"seconds": round(time.perf_counter() - start, 3), "peak": peak_mb()}


# ---------------------------------------------------------------------------- JSON snapshot


def _jsonsnap(args: argparse.Namespace) -> dict[str, Any]:
    import gc

    from cfab.runner.bench.jsonsnap import json_diff, json_snapshot

    t = time.perf_counter(), time.process_time()
    before, rows_b, bytes_b = json_snapshot(args.before)
    snap_b = time.perf_counter() - t[0], time.process_time() - t[1]
    t = time.perf_counter(), time.process_time()
    after, rows_a, bytes_a = json_snapshot(args.after)
    snap_a = time.perf_counter() - t[0], time.process_time() - t[1]
    t = time.perf_counter(), time.process_time()
    diff = json_diff(before, after)
    d = time.perf_counter() - t[0], time.process_time() - t[1]
    del before, after
    gc.collect()
    return {
        "rows": rows_b,
        "json_bytes": bytes_b,
        "rows_after": rows_a,
        "json_bytes_after": bytes_a,
        "snapshot_before_s": round(snap_b[0], 3),
        "snapshot_before_cpu_s": round(snap_b[1], 3),
        "snapshot_after_s": round(snap_a[0], 3),
        "snapshot_after_cpu_s": round(snap_a[1], 3),
        "diff_s": round(d[0], 3),
        "diff_cpu_s": round(d[1], 3),
        "diff_summary": diff,
        "peak": peak_mb(),
    }


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "wrap":
        rest = argv[1:]
        timeout = 3600.0
        if rest and rest[0].startswith("--timeout="):
            timeout = float(rest.pop(0).split("=", 1)[1])
        if rest and rest[0] == "--":
            rest = rest[1:]
        _emit(_wrap(rest, timeout))
        return 0
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}")
    sub = parser.add_subparsers(dest="mode", required=True)
    a = sub.add_parser("attempts")
    a.add_argument("--golden", required=True)
    a.add_argument("--scale", type=int, required=True)
    a.add_argument("--seed", type=int, default=None)
    a.add_argument("--clock", default=None)
    a.add_argument("--tasks", required=True)
    a.add_argument("--count", type=int, default=5)
    w = sub.add_parser("warm")
    w.add_argument("--golden", required=True)
    w.add_argument("--scale", type=int, required=True)
    w.add_argument("--seed", type=int, default=None)
    w.add_argument("--clock", default=None)
    w.add_argument("--compositions", required=True, help="app lists, ';'-separated, apps ','-separated")
    j = sub.add_parser("jsonsnap")
    j.add_argument("--before", required=True)
    j.add_argument("--after", required=True)
    args = parser.parse_args(argv)
    _emit({"attempts": _attempts, "warm": _warm, "jsonsnap": _jsonsnap}[args.mode](args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
