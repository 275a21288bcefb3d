"""The overhead section of ``runner bench``: what the harness adds to one attempt at scale 1,
over ``--attempts`` attempts of a representative task (copy, open, log reads, diff, grade,
close, each split into the calls that cost the time; the task's own tool calls are timed apart
and excluded), what ``run_one``'s ``ensure_golden`` adds on top, and the floor under open
(a plain file copy and connect).

Every figure is taken through the public API (``Environment.open``, ``env.call``,
``env.state_diff``, ``cfab.grader.grade``); :mod:`cfab.runner.bench.probe` only adds timers
inside those calls so their cost can be split.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cfab.runner.bench.probe import Sample, attempt_probe, now, since, stats
from cfab.runner.policies.oracle import replay
from cfab.seeds.determinism import BuildInputs

if TYPE_CHECKING:
    from cfab.runner.bench.run import Bench

#: The representative task of the overhead section (falls back to the first task with a write).
DEFAULT_TASK = "cf_A_etc_forecast_3100"


def section(bench: Bench) -> dict[str, Any]:
    golden, _ = bench.golden(1)
    task = pick_task(bench.inputs[1], bench.args.task)
    bench.say(f"overhead: {bench.args.attempts} attempts of {task.instance_id} on {golden.name}")
    return bench_overhead(bench.inputs[1], golden, task, bench.args.attempts, progress=bench.tick)


def pick_task(inputs: BuildInputs, wanted: str | None) -> Any:
    from cfab.tasks.suite import load_suite

    tasks = load_suite("executable", inputs)
    if not tasks:
        raise RuntimeError("the executable suite is empty: no task to measure")
    by_id = {t.instance_id: t for t in tasks}
    if wanted:
        if wanted not in by_id:
            raise SystemExit(f"runner bench: no task {wanted!r} in the suite")
        return by_id[wanted]
    return by_id.get(DEFAULT_TASK) or tasks[0]


def write_steps(env: Any, task: Any) -> list[Any]:
    """The task oracle's writing steps (its reads are the policy's business, not overhead)."""
    steps = []
    for step in task.oracle.steps:
        try:
            if env.resolve(step.tool).writes:
                steps.append(step)
        except KeyError:
            continue
    return steps or list(task.oracle.steps)


OVERHEAD_PARTS = ("copy", "open", "logs", "diff", "grade", "close")


def bench_overhead(
    inputs: BuildInputs,
    golden: Path,
    task: Any,
    attempts: int,
    warmup: int = 2,
    progress: Callable[[str], None] = lambda s: None,
) -> dict[str, Any]:
    """Per-attempt overhead over ``attempts`` attempts of ``task``: copy, open, log reads, diff,
    grade, close, each split into the calls that cost the time; the tool call is timed apart."""
    from cfab.apps.world.environment import Environment
    from cfab.apps.world.golden import ensure_golden
    from cfab.grader import grade

    rows: list[dict[str, Sample]] = []
    cold: dict[str, Sample] | None = None
    passed: list[bool] = []
    equal: list[bool] = []
    used: list[str] = []
    with attempt_probe() as probe:
        for i in range(warmup + attempts):
            probe.reset()
            with probe.in_phase("open"):
                env = Environment.open(apps=task.systems, inputs=inputs, golden=golden, sql_write=task.sql_write)
            try:
                steps = write_steps(env, task)
                used = [s.tool for s in steps]
                with probe.in_phase("tool"):
                    replay(env, steps)
                with probe.in_phase("logs"):
                    guards, tools = env.guarded_calls(), env.tool_log()
                with probe.in_phase("diff"):
                    diff = env.state_diff()
                with probe.in_phase("grade"):
                    result = grade(
                        task.ground_truth,
                        diff,
                        reply=task.oracle.reply,
                        answers=task.oracle.answers,
                        guarded_calls=guards,
                        tool_calls=tools,
                    )
                parts = probe.reset()
                if i == 0:
                    full = env.state_diff(full=True)
                    equal.append(full.diffs == diff.diffs)
                    probe.reset()
            finally:
                with probe.in_phase("close"):
                    env.close()
            parts.update(probe.reset())
            if i == 0:
                cold = parts
            if i >= warmup:
                rows.append(parts)
                passed.append(bool(result.passed))
            progress(f"overhead attempt {i + 1}/{warmup + attempts}")
    out = _overhead_table(rows)
    cold_parts = _overhead_table([cold]).get("parts", {}) if cold else {}
    out["cold_first_attempt_ms"] = {k: round(v["median"], 1) for k, v in cold_parts.items()}
    out.update(
        {
            "scale": inputs.scale,
            "attempts": len(rows),
            "warmup": warmup,
            "task": task.instance_id,
            "systems": list(task.systems),
            "tool_steps": used,
            "all_passed": all(passed),
            "fast_equals_full": all(equal) if equal else None,
        }
    )
    # what run_one pays per attempt on top: it calls ensure_golden (hashes the code) each time
    samples: list[Sample] = []
    rebuilt = 0
    prev = ensure_golden(inputs)
    for _ in range(max(5, attempts // 2)):
        start = now()
        path = ensure_golden(inputs)
        took = since(start)
        if path == prev:
            samples.append(took)
        else:  # the code changed under us and it rebuilt: not the per-attempt cost
            rebuilt += 1
        prev = path
    out["ensure_golden_per_attempt"] = stats(samples)
    out["ensure_golden_rebuilt_during_bench"] = rebuilt
    out["raw"] = raw_open_costs(golden, max(5, attempts // 2))
    return out


def _overhead_table(rows: list[dict[str, Sample]]) -> dict[str, Any]:
    """Per-attempt samples → the overhead parts and their sub-parts (medians)."""

    def get(r: dict[str, Sample], key: str) -> Sample:
        return r.get(key, (0.0, 0.0))

    def minus(a: Sample, *bs: Sample) -> Sample:
        return a[0] - sum(b[0] for b in bs), a[1] - sum(b[1] for b in bs)

    parts: dict[str, list[Sample]] = {k: [] for k in (*OVERHEAD_PARTS, "total", "tool")}
    sub: dict[str, list[Sample]] = {}

    def put(name: str, value: Sample) -> None:
        sub.setdefault(name, []).append(value)

    for r in rows:
        copy = get(r, "open.copy")
        open_ = minus(get(r, "open"), copy)
        diff, grade_, close, logs = get(r, "diff"), get(r, "grade"), get(r, "close"), get(r, "logs")
        parts["copy"].append(copy)
        parts["open"].append(open_)
        parts["logs"].append(logs)
        parts["diff"].append(diff)
        parts["grade"].append(grade_)
        parts["close"].append(close)
        parts["tool"].append(get(r, "tool"))
        parts["total"].append(
            (
                copy[0] + open_[0] + logs[0] + diff[0] + grade_[0] + close[0],
                copy[1] + open_[1] + logs[1] + diff[1] + grade_[1] + close[1],
            )
        )
        put("open: connect_hardened (connect + harden)", get(r, "open.connect"))
        put("open: catalog (cached after the first attempt)", get(r, "open.catalog"))
        put(
            "open: apps + tools + gate init",
            minus(get(r, "open.env_init"), get(r, "open.connect"), get(r, "open.catalog")),
        )
        put("open: composed-app template lookup", get(r, "open.composed"))
        put("open: mkdtemp, registry, other", minus(open_, get(r, "open.env_init"), get(r, "open.composed")))
        put("diff: CHECKPOINT + close attempt connection", get(r, "diff.checkpoint_close"))
        grader = get(r, "diff.grader")
        put("diff: grader ATTACH/DETACH of the files", minus(grader, get(r, "diff.grader_diff")))
        put("diff: grader catalogs (read_catalogs)", get(r, "diff.grader_catalogs"))
        put("diff: grader catalog-reuse shape check", get(r, "diff.grader_shape_check"))
        put("diff: grader written_rows keys", get(r, "diff.grader_keys"))
        put("diff: grader row lookups (per table)", get(r, "diff.grader_tables"))
        put(
            "diff: grader other",
            minus(
                get(r, "diff.grader_diff"),
                get(r, "diff.grader_catalogs"),
                get(r, "diff.grader_shape_check"),
                get(r, "diff.grader_keys"),
                get(r, "diff.grader_tables"),
                get(r, "diff.grader_fingerprints"),
            ),
        )
        put("diff: reopen after the diff (connect + apps)", get(r, "diff.env_init"))
        put("close: remove workdir", get(r, "close.rmtree"))
        put("close: close connection", minus(close, get(r, "close.rmtree")))
    return {"parts": {k: stats(v) for k, v in parts.items()}, "subparts": {k: stats(v) for k, v in sub.items()}}


def raw_open_costs(golden: Path, n: int) -> dict[str, Any]:
    """The floor under open: copy the file, connect to it plainly, connect hardened."""
    import duckdb

    from cfab.apps.sandbox.exec import connect_hardened

    tmp = Path(tempfile.mkdtemp(prefix="cfab-bench-raw-"))
    copy: list[Sample] = []
    plain: list[Sample] = []
    hard: list[Sample] = []
    try:
        for i in range(n):
            dest = tmp / f"c{i}.duckdb"
            start = now()
            shutil.copyfile(golden, dest)
            copy.append(since(start))
            os.chmod(dest, 0o644)
            start = now()
            con = duckdb.connect(str(dest))
            con.close()
            plain.append(since(start))
            start = now()
            con = connect_hardened(str(dest))
            con.close()
            hard.append(since(start))
            dest.unlink()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {
        "file_bytes": golden.stat().st_size,
        "copy": stats(copy),
        "connect_close_plain": stats(plain),
        "connect_close_hardened": stats(hard),
    }
