"""The suite section of ``runner bench``: ``runner --suite executable --k 5 --policy oracle``
with 1 and 2 workers, timed from outside (:mod:`cfab.runner.bench.worker` ``wrap``), the
fixed cost of a run of one attempt, and an in-process profile of where a suite run's time
goes (open, the policy's tool calls, log reads, diff, grade, close)."""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cfab.runner.bench.probe import attempt_probe, now, since
from cfab.runner.bench.worker import parse_output, worker_command
from cfab.seeds.determinism import BuildInputs

if TYPE_CHECKING:
    from cfab.runner.bench.run import Bench


def section(bench: Bench) -> dict[str, Any]:
    from cfab.apps.world.environment import Environment
    from cfab.apps.world.golden import ensure_golden
    from cfab.tasks.suite import load_suite

    golden = ensure_golden(bench.inputs[1])  # what the runner will use (rebuilt if the code changed)
    tasks = load_suite("executable", bench.inputs[1])
    n_tasks = len(tasks)
    out: dict[str, Any] = {"tasks": n_tasks, "k": bench.args.suite_k, "attempts": n_tasks * bench.args.suite_k}
    if n_tasks < 54:
        out["note"] = f"the executable suite holds {n_tasks} tasks so far (the paper's suite has 54 + listings)"
    # warm-up, timed apart: every composition's environment opened once (builds any per-composition
    # template the environment derives from the golden file), so both runs start from the same cache
    start = time.perf_counter()
    for apps in sorted({tuple(t.systems) for t in tasks}):
        Environment.open(apps=list(apps), inputs=bench.inputs[1], golden=golden).close()
    out["warmup_s"] = round(time.perf_counter() - start, 2)
    # the fixed cost of a run (interpreter, imports, suite load, worker spawn, report): one attempt
    fixed = bench.tmp / "suite-fixed"
    cmd = worker_command(
        "wrap",
        "--",
        sys.executable,
        "-m",
        "cfab.runner",
        "--suite",
        "executable",
        "--k",
        "1",
        "--workers",
        str(max(bench.args.suite_workers)),
        "--policy",
        "oracle",
        "--tasks",
        tasks[0].instance_id,
        "--out",
        str(fixed),
        "--no-progress",
        "--seed",
        str(bench.inputs[1].seed),
        "--clock",
        bench.inputs[1].clock.isoformat(),
    )
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=600)
    try:
        out["one_attempt_run_s"] = parse_output(proc.stdout)["wall_s"]
    except ValueError:
        out["one_attempt_run_s"] = None
    shutil.rmtree(fixed, ignore_errors=True)
    bench.say(f"suite: in-process profile of the {n_tasks} tasks (policy vs harness, CPU)")
    out["profile"] = profile_suite(bench.inputs[1], golden, tasks)
    for workers in bench.args.suite_workers:
        dest = bench.tmp / f"suite-w{workers}"
        bench.say(f"suite: {n_tasks} tasks x k={bench.args.suite_k} with {workers} worker(s)")
        cmd = worker_command(
            "wrap",
            f"--timeout={bench.args.suite_timeout}",
            "--",
            sys.executable,
            "-m",
            "cfab.runner",
            "--suite",
            "executable",
            "--k",
            str(bench.args.suite_k),
            "--workers",
            str(workers),
            "--policy",
            "oracle",
            "--out",
            str(dest),
            "--no-progress",
            "--seed",
            str(bench.inputs[1].seed),
            "--clock",
            bench.inputs[1].clock.isoformat(),
        )
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=bench.args.suite_timeout + 120)
        try:
            res = parse_output(proc.stdout)
        except ValueError:
            out[str(workers)] = {"error": proc.stderr[-2000:]}
            continue
        res.update(suite_records(dest / "attempts.jsonl"))
        if ensure_golden(bench.inputs[1]) != golden:
            res["warning"] = "the code changed during this run: its wall time includes a golden rebuild"
            golden = ensure_golden(bench.inputs[1])
        res.pop("stdout_tail", None) if res.get("rc") == 0 else None
        out[str(workers)] = res
        shutil.rmtree(dest, ignore_errors=True)
    return out


def suite_records(path: Path) -> dict[str, Any]:
    """A suite run's ``attempts.jsonl`` as figures: passed, errors, attempt wall times, identical diffs."""
    if not path.exists():
        return {"records": 0}
    recs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    walls = [r.get("wall_s", 0.0) for r in recs if not r.get("error")]
    by_task: dict[str, set[str]] = {}
    for r in recs:
        by_task.setdefault(r["task"], set()).add(json.dumps(r.get("diff_summary"), sort_keys=True))
    return {
        "records": len(recs),
        "passed": sum(1 for r in recs if r.get("passed")),
        "infra_errors": sum(1 for r in recs if r.get("error")),
        "first_errors": [r["error"][:300] for r in recs if r.get("error")][:3],
        "attempt_wall_s": {
            "median": round(statistics.median(walls), 3) if walls else None,
            "min": round(min(walls), 3) if walls else None,
            "max": round(max(walls), 3) if walls else None,
        },
        "deterministic_diffs": all(len(v) == 1 for v in by_task.values()),
    }


def profile_suite(inputs: BuildInputs, golden: Path, tasks: list[Any]) -> dict[str, Any]:
    """Every task once in-process (after a warm-up pass), split into open / the policy's tool
    calls / log reads / diff / grade / close (CPU ms), with the slowest tools: where a suite
    run's time goes."""
    import statistics
    from collections import defaultdict

    from cfab.apps.world.environment import Environment
    from cfab.grader import grade
    from cfab.runner.policies import make_policy

    policy = make_policy("oracle")
    per_phase: dict[str, list[float]] = defaultdict(list)
    per_family: dict[str, list[float]] = defaultdict(list)
    per_tool: dict[str, list[float]] = defaultdict(list)
    with attempt_probe() as probe:
        for rep in range(2):
            for task in tasks:
                probe.reset()
                with probe.in_phase("open"):
                    env = Environment.open(apps=task.systems, inputs=inputs, golden=golden, sql_write=task.sql_write)
                real = env.call

                def timed(name: str, /, _real: Any = real, _keep: bool = rep > 0, **args: Any) -> Any:
                    start = now()
                    try:
                        return _real(name, **args)
                    finally:
                        if _keep:
                            per_tool[name].append(since(start)[1])

                env.call = timed  # type: ignore[method-assign]
                try:
                    with probe.in_phase("policy"):
                        episode = policy.run(task, env)
                    with probe.in_phase("logs"):
                        guards, tools = env.guarded_calls(), env.tool_log()
                    with probe.in_phase("diff"):
                        diff = env.state_diff()
                    with probe.in_phase("grade"):
                        grade(
                            task.ground_truth,
                            diff,
                            reply=episode.reply,
                            answers=episode.answers,
                            guarded_calls=guards,
                            tool_calls=tools,
                        )
                finally:
                    with probe.in_phase("close"):
                        env.close()
                got = probe.reset()
                if rep:
                    for k, v in got.items():
                        if "." not in k:
                            per_phase[k].append(v[1])
                    per_family[task.family].append(got.get("policy", (0.0, 0.0))[1])
    n = max(len(per_phase.get("open", [])), 1)
    mean = {k: round(sum(v) / n, 1) for k, v in per_phase.items()}
    slow = sorted(((round(statistics.median(v), 1), len(v), k) for k, v in per_tool.items()), reverse=True)[:10]
    return {
        "attempts": n,
        "cpu_ms_per_attempt": mean,
        "cpu_ms_per_attempt_total": round(sum(mean.values()), 1),
        "policy_cpu_ms_by_family": {
            f: round(statistics.mean(v), 1)
            for f, v in sorted(per_family.items(), key=lambda kv: -statistics.mean(kv[1]))
        },
        "slowest_tools_cpu_ms": [{"tool": k, "median_cpu_ms": m, "calls": c} for m, c, k in slow],
    }
