"""``runner bench``: what the harness costs, measured through the public API.

    runner bench [--scale 1 10 100] [--attempts 20] [--json PATH] [--skip-suite] [--skip-build] …

Sections (each can be skipped):

* **build**: golden build time and file size per scale, split into book generation, load,
  replication, app seeding, digest (scale 1 is built afresh in a temporary folder; larger
  scales are built into ``$CFAB_HOME`` once and their recorded timing reused; ``--rebuild``);
* **overhead**: per-attempt overhead at scale 1 over ≥ 20 attempts of a representative task:
  copy, open, log reads, diff, grade, close, each split into the calls that cost the time
  (the task's own tool calls are timed apart and excluded);
* **diff**: a ten-row change made through the gate (``sql.execute``) on a large table, diffed
  fast and full at every scale, with fast == full and snapshot/reset/digest checks;
* **snapshot**: the paper's whole-state JSON snapshot approach on the same book, side by side;
* **memory**: peak RSS of a worker process running attempts at scale 1 and the largest scale;
* **suite**: ``runner --suite executable --k 5 --policy oracle`` with 1 and 2 workers;
* **checks**: two concurrent attempts share nothing.

Medians (min/max) print as rich tables with each target and PASS/MISS; ``--json`` writes
every figure. Wall times on a loaded machine are inflated: the load average is recorded at
start and end (a warning prints when it exceeds the core count) and CPU medians print beside
the wall medians.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cfab.runner.bench_report import render, targets
from cfab.runner.cli import subcommand
from cfab.seeds.determinism import BuildInputs

SECTIONS = ("build", "overhead", "diff", "snapshot", "memory", "suite", "checks")


@subcommand("bench", "time the harness: golden build, per-attempt overhead, diff scaling, suite, memory")
def _bench(parser: argparse.ArgumentParser):
    parser.add_argument("--scale", type=int, nargs="+", default=None, metavar="N",
                        help="book scales for the build and small-change diff sections (default: 1 10 100)")
    parser.add_argument("--attempts", type=int, default=20, help="attempts (and diff repetitions) per figure (default 20)")
    parser.add_argument("--json", default=None, metavar="PATH", help="write every figure to this JSON file")
    parser.add_argument("--task", default=None, help=f"representative task id (default {'cf_A_etc_forecast_3100'})")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--clock", default=None)
    for name in SECTIONS:
        parser.add_argument(f"--skip-{name}", action="store_true", help=f"skip the {name} section")
    parser.add_argument("--rebuild", action="store_true", help="rebuild (and re-time) the cached goldens at scales > 1")
    parser.add_argument("--suite-k", type=int, default=5)
    parser.add_argument("--suite-workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--suite-timeout", type=float, default=3600.0, help="seconds per suite run")
    parser.add_argument("--snapshot-max-scale", type=int, default=10,
                        help="largest scale at which the JSON snapshot approach runs (beyond: extrapolated)")
    parser.add_argument("--memory-attempts", type=int, default=None, help="attempts per memory worker (default min(attempts, 8))")

    def run(args: argparse.Namespace) -> int:
        bench = Bench(args)
        results = bench.run()
        render(results)
        if args.json:
            path = Path(args.json)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(results, indent=1, default=str) + "\n")
            print(f"json {path}")
        return 0

    return run


# ============================================================================ orchestration


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.scales = sorted(set(args.scale or [1, 10, 100]))
        if any(s < 1 for s in self.scales):
            raise SystemExit("runner bench: scales must be positive")
        if args.attempts < 1:
            raise SystemExit("runner bench: --attempts must be at least 1")
        self.skip = {s for s in SECTIONS if getattr(args, f"skip_{s}")}
        self.inputs = {s: BuildInputs.from_env(seed=args.seed, clock=args.clock, scale=s) for s in sorted({1, *self.scales})}
        self.results: dict[str, Any] = {}
        self._goldens: dict[int, tuple[Path, bool]] = {}
        self.tmp = Path(tempfile.mkdtemp(prefix="cfab-bench-"))
        self._t0 = time.perf_counter()
        _preload()

    def say(self, text: str) -> None:
        print(f"[bench {time.perf_counter() - self._t0:7.1f}s] {text}", file=sys.stderr, flush=True)

    def run(self) -> dict[str, Any]:
        r = self.results
        r["meta"] = self._meta()
        r["load"] = {"start": _load()}
        try:
            for name in SECTIONS:
                if name in self.skip:
                    r[name] = {"skipped": True}
                    continue
                self.say(f"section {name} (load {_load()['1m']:.2f})")
                _reset_peak()
                start = time.perf_counter()
                try:
                    r[name] = getattr(self, f"_{name}")()
                except Exception as exc:  # noqa: BLE001  (one broken section must not lose the others)
                    import traceback

                    r[name] = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()[-3000:]}
                    self.say(f"section {name} failed: {type(exc).__name__}: {exc}")
                r[name]["section_s"] = round(time.perf_counter() - start, 1)
                r[name]["bench_process_peak_mb"] = _peak_mb()
                r[name]["load_after"] = _load()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)
        r["load"]["end"] = _load()
        r["warnings"] = self._warnings()
        r["targets"] = targets(r, self.scales)
        r["meta"]["total_s"] = round(time.perf_counter() - self._t0, 1)
        return r

    # ------------------------------------------------------------------ helpers
    def _meta(self) -> dict[str, Any]:
        import duckdb
        from cfab.apps.world.golden import cfab_home, code_fingerprint, package_version

        try:
            rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False,
                                 cwd=Path(__file__).resolve().parent, timeout=10).stdout.strip() or None
            dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                                   text=True, check=False, cwd=Path(__file__).resolve().parent, timeout=10).stdout.split("\n")
            dirty = [line[3:] for line in dirty if line.strip()]
        except (OSError, subprocess.SubprocessError):
            rev, dirty = None, []
        return {"started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "cores": os.cpu_count(),
                "python": platform.python_version(), "duckdb": duckdb.__version__, "platform": platform.platform(),
                "package_version": package_version(), "code_fingerprint": code_fingerprint()[:12], "git": rev,
                "uncommitted_changes": dirty,
                "cfab_home": str(cfab_home()), "scales": self.scales, "attempts": self.args.attempts,
                "seed": self.inputs[1].seed, "clock": self.inputs[1].clock.isoformat(),
                "argv": sys.argv[1:]}

    def _warnings(self) -> list[str]:
        out = []
        cores = os.cpu_count() or 1
        loads = [self.results["load"]["start"], self.results["load"]["end"]]
        loads += [v.get("load_after") for v in self.results.values() if isinstance(v, dict) and v.get("load_after")]
        worst = max(x["1m"] for x in loads)
        if worst > cores:
            out.append(f"machine load reached {worst:.2f} on {cores} cores: wall times are inflated "
                       f"(compare the CPU medians); rerun on an idle machine for target figures")
        if self.args.attempts < 20:
            out.append(f"only {self.args.attempts} attempts per figure (the targets call for at least 20)")
        for name in SECTIONS:
            sec = self.results.get(name, {})
            if isinstance(sec, dict) and "error" in sec:
                out.append(f"section {name} failed: {sec['error']}")
        for w, v in (self.results.get("suite") or {}).items():
            if isinstance(v, dict) and v.get("warning"):
                out.append(f"suite with {w} worker(s): {v['warning']}")
        for s, v in (self.results.get("diff") or {}).items():
            if isinstance(v, dict) and v.get("golden_stale_code"):
                out.append(f"scale {s}: reused a golden file built by another code version ({Path(v['golden']).name})")
        return out

    def golden(self, scale: int) -> tuple[Path, bool]:
        """The golden file per scale, resolved once per run (sources may change meanwhile):
        current code at scale 1; at larger scales one built by an older code version is reused."""
        from cfab.runner.bench_build import golden_for
        from cfab.apps.world.golden import ensure_golden

        if scale not in self._goldens:
            if scale == 1:
                self._goldens[1] = (ensure_golden(self.inputs[1]), False)
            else:
                found = golden_for(self.inputs[scale], allow_stale=True)
                self._goldens[scale] = (found["path"], bool(found["stale"]))
        return self._goldens[scale]

    # ------------------------------------------------------------------ sections
    def _build(self) -> dict[str, Any]:
        from cfab.runner.bench_build import bench_build

        out: dict[str, Any] = {}
        for scale in self.scales:
            self.say(f"build scale {scale}")
            out[str(scale)] = bench_build(self.inputs[scale], rebuild=self.args.rebuild)
        return out

    def _overhead(self) -> dict[str, Any]:
        from cfab.runner.bench_measure import bench_overhead, pick_task

        golden, _ = self.golden(1)
        task = pick_task(self.inputs[1], self.args.task)
        self.say(f"overhead: {self.args.attempts} attempts of {task.instance_id} on {golden.name}")
        return bench_overhead(self.inputs[1], golden, task, self.args.attempts, progress=self._tick)

    def _diff(self) -> dict[str, Any]:
        from cfab.runner.bench_measure import bench_small_change

        out: dict[str, Any] = {}
        reps = self.args.attempts
        for scale in self.scales:
            golden, stale = self.golden(scale)
            full_reps = reps if scale == 1 else min(reps, 5 if scale <= 10 else 3)
            self.say(f"diff: scale {scale}, {reps} fast / {full_reps} full repetitions on {golden.name}")
            res = bench_small_change(self.inputs[scale], golden, reps=reps, full_reps=full_reps, progress=self._tick)
            res["golden"] = str(golden)
            res["golden_stale_code"] = stale
            out[str(scale)] = res
        return out

    def _snapshot(self) -> dict[str, Any]:
        """The whole-state JSON approach next to ours: the same ten-row change in an environment
        over the whole golden file (every app), diffed by both."""
        from cfab.runner.bench_measure import bench_whole_book
        from cfab.runner.bench_worker import parse_output

        out: dict[str, Any] = {}
        reps = max(3, min(self.args.attempts, 10))
        for scale in self.scales:
            golden, _ = self.golden(scale)
            after = self.tmp / f"after-x{scale}.duckdb"
            run_json = scale <= self.args.snapshot_max_scale
            self.say(f"snapshot: our diff over the whole book at scale {scale}")
            ours = bench_whole_book(self.inputs[scale], golden, reps=reps, full_reps=1 if scale > 1 else min(reps, 3),
                                    keep_after=after if run_json else None, progress=self._tick)
            entry: dict[str, Any] = {"ours": ours, "run": False}
            if not run_json or not after.exists():
                entry["note"] = (f"JSON approach not run above scale {self.args.snapshot_max_scale} "
                                 "(--snapshot-max-scale); extrapolated linearly in rows")
                out[str(scale)] = entry
                continue
            self.say(f"snapshot: JSON approach at scale {scale}")
            proc = subprocess.run([sys.executable, "-m", "cfab.runner.bench_worker", "jsonsnap", "--before",
                                   ours.get("before_file", str(golden)), "--after", str(after)],
                                  capture_output=True, text=True, check=False, timeout=7200)
            after.unlink(missing_ok=True)
            try:
                res = parse_output(proc.stdout)
            except ValueError:
                entry["error"] = proc.stderr[-2000:]
                out[str(scale)] = entry
                continue
            entry.update(res)
            entry["run"] = True
            theirs = {k.lower(): v for k, v in res["diff_summary"].items()}
            entry["same_changes_as_ours"] = theirs == {k.lower(): v for k, v in (ours.get("diff_summary") or {}).items()}
            out[str(scale)] = entry
        runs = [(int(s), v) for s, v in out.items() if v.get("run")]
        if runs:  # the JSON approach reads and serialises every row: extrapolate linearly in rows
            s0, base = max(runs)
            for s, v in out.items():
                if not v.get("run") and "error" not in v:
                    f = int(s) / s0
                    v["extrapolated"] = {"snapshot_s": round(base["snapshot_after_s"] * f, 1),
                                         "diff_s": round(base["diff_s"] * f, 1),
                                         "json_bytes": int(base["json_bytes"] * f),
                                         "peak_mb": round((base["peak"]["vmhwm_mb"] or 0) * f, 0)}
        return out

    def _memory(self) -> dict[str, Any]:
        from cfab.runner.bench_worker import parse_output
        from cfab.tasks.suite import load_suite

        tasks = load_suite("executable", self.inputs[1])
        first_of_family: dict[str, str] = {}
        for t in tasks:
            first_of_family.setdefault(t.family, t.instance_id)
        by_id = {t.instance_id: t for t in tasks}
        count = self.args.memory_attempts or min(self.args.attempts, 8)
        common = ["--seed", str(self.inputs[1].seed), "--clock", self.inputs[1].clock.isoformat()]
        out: dict[str, Any] = {}
        for scale in sorted({1, max(self.scales)}):
            golden, stale = self.golden(scale)
            # the scale-N suite (scale-1 keys, expected values from the scale-N book), compiled here
            # and cached next to the golden file so the measured worker only reads it
            at_scale = {t.instance_id for t in load_suite("executable", self.inputs[scale], golden=golden)}
            ids = [i for i in first_of_family.values() if i in at_scale]
            chosen = [ids[i % len(ids)] for i in range(count)]
            comps = ";".join(sorted({",".join(by_id[i].systems) for i in chosen}))
            entry: dict[str, Any] = {}
            # 1) a worker that only opens each composition once: builds any per-composition template
            self.say(f"memory: template warm-up worker at scale {scale}")
            proc = subprocess.run([sys.executable, "-m", "cfab.runner.bench_worker", "warm", "--golden", str(golden),
                                   "--scale", str(scale), "--compositions", comps, *common],
                                  capture_output=True, text=True, check=False, timeout=7200)
            try:
                entry["template_warmup"] = parse_output(proc.stdout)
            except ValueError:
                entry["template_warmup"] = {"error": proc.stderr[-2000:]}
            # 2) a worker running attempts as a suite worker does (templates in place)
            self.say(f"memory: worker running {count} attempts at scale {scale}")
            proc = subprocess.run([sys.executable, "-m", "cfab.runner.bench_worker", "attempts", "--golden", str(golden),
                                   "--scale", str(scale), "--tasks", ",".join(chosen), "--count", str(count), *common],
                                  capture_output=True, text=True, check=False, timeout=7200)
            try:
                res = parse_output(proc.stdout)
            except ValueError:
                out[str(scale)] = {**entry, "error": proc.stderr[-2000:]}
                continue
            entry.update(res)
            entry["golden_bytes"] = golden.stat().st_size
            entry["golden_stale_code"] = stale
            entry["attempt_wall_s_median"] = round(statistics.median(res["attempt_wall_s"]), 3)
            out[str(scale)] = entry
        return out

    def _suite(self) -> dict[str, Any]:
        from cfab.runner.bench_worker import parse_output
        from cfab.apps.world.environment import Environment
        from cfab.apps.world.golden import ensure_golden
        from cfab.tasks.suite import load_suite

        golden = ensure_golden(self.inputs[1])  # what the runner will use (rebuilt if the code changed)
        tasks = load_suite("executable", self.inputs[1])
        n_tasks = len(tasks)
        out: dict[str, Any] = {"tasks": n_tasks, "k": self.args.suite_k, "attempts": n_tasks * self.args.suite_k}
        if n_tasks < 54:
            out["note"] = f"the executable suite holds {n_tasks} tasks so far (the paper's suite has 54 + listings)"
        # warm-up, timed apart: every composition's environment opened once (builds any per-composition
        # template the environment derives from the golden file), so both runs start from the same cache
        start = time.perf_counter()
        for apps in sorted({tuple(t.systems) for t in tasks}):
            Environment.open(apps=list(apps), inputs=self.inputs[1], golden=golden).close()
        out["warmup_s"] = round(time.perf_counter() - start, 2)
        # the fixed cost of a run (interpreter, imports, suite load, worker spawn, report): one attempt
        fixed = self.tmp / "suite-fixed"
        cmd = [sys.executable, "-m", "cfab.runner.bench_worker", "wrap", "--", sys.executable, "-m", "cfab.runner",
               "--suite", "executable", "--k", "1", "--workers", str(max(self.args.suite_workers)), "--policy", "oracle",
               "--tasks", tasks[0].instance_id, "--out", str(fixed), "--no-progress",
               "--seed", str(self.inputs[1].seed), "--clock", self.inputs[1].clock.isoformat()]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=600)
        try:
            out["one_attempt_run_s"] = parse_output(proc.stdout)["wall_s"]
        except ValueError:
            out["one_attempt_run_s"] = None
        shutil.rmtree(fixed, ignore_errors=True)
        from cfab.runner.bench_measure import profile_suite

        self.say(f"suite: in-process profile of the {n_tasks} tasks (policy vs harness, CPU)")
        out["profile"] = profile_suite(self.inputs[1], golden, tasks)
        for workers in self.args.suite_workers:
            dest = self.tmp / f"suite-w{workers}"
            self.say(f"suite: {n_tasks} tasks x k={self.args.suite_k} with {workers} worker(s)")
            cmd = [sys.executable, "-m", "cfab.runner.bench_worker", "wrap", f"--timeout={self.args.suite_timeout}",
                   "--", sys.executable, "-m", "cfab.runner", "--suite", "executable", "--k", str(self.args.suite_k),
                   "--workers", str(workers), "--policy", "oracle", "--out", str(dest), "--no-progress",
                   "--seed", str(self.inputs[1].seed), "--clock", self.inputs[1].clock.isoformat()]
            proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=self.args.suite_timeout + 120)
            try:
                res = parse_output(proc.stdout)
            except ValueError:
                out[str(workers)] = {"error": proc.stderr[-2000:]}
                continue
            res.update(_suite_records(dest / "attempts.jsonl"))
            if ensure_golden(self.inputs[1]) != golden:
                res["warning"] = "the code changed during this run: its wall time includes a golden rebuild"
                golden = ensure_golden(self.inputs[1])
            res.pop("stdout_tail", None) if res.get("rc") == 0 else None
            out[str(workers)] = res
            shutil.rmtree(dest, ignore_errors=True)
        return out

    def _checks(self) -> dict[str, Any]:
        from cfab.runner.bench_measure import isolation_check

        golden, _ = self.golden(1)
        out: dict[str, Any] = {"concurrent_attempts": isolation_check(self.inputs[1], golden)}
        diff = self.results.get("diff", {})
        fe, rr = {}, {}
        for scale, sec in diff.items():
            if not isinstance(sec, dict) or "tables" not in sec:
                continue
            for name, t in sec["tables"].items():
                fe[f"x{scale} {name}"] = t.get("fast_equals_full")
                if "reset_check" in t:
                    rr[f"x{scale}"] = t["reset_check"]
        ov = self.results.get("overhead", {})
        if isinstance(ov, dict) and "fast_equals_full" in ov:
            fe["x1 oracle end state"] = ov["fast_equals_full"]
        out["fast_equals_full"] = fe
        out["reset_restores_digest"] = rr
        suite = self.results.get("suite", {})
        same = [v.get("deterministic_diffs") for k, v in suite.items() if isinstance(v, dict) and "deterministic_diffs" in v]
        if same:
            out["suite_attempts_identical_diffs"] = all(same)
        return out

    def _tick(self, text: str) -> None:
        if os.environ.get("CFAB_BENCH_VERBOSE"):
            self.say(text)


def _suite_records(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {"records": 0}
    recs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    walls = [r.get("wall_s", 0.0) for r in recs if not r.get("error")]
    by_task: dict[str, set[str]] = {}
    for r in recs:
        by_task.setdefault(r["task"], set()).add(json.dumps(r.get("diff_summary"), sort_keys=True))
    return {"records": len(recs), "passed": sum(1 for r in recs if r.get("passed")),
            "infra_errors": sum(1 for r in recs if r.get("error")),
            "first_errors": [r["error"][:300] for r in recs if r.get("error")][:3],
            "attempt_wall_s": {"median": round(statistics.median(walls), 3) if walls else None,
                               "min": round(min(walls), 3) if walls else None,
                               "max": round(max(walls), 3) if walls else None},
            "deterministic_diffs": all(len(v) == 1 for v in by_task.values())}


def _preload() -> None:
    """Import everything the sections use now, so one run measures one version of the code
    even while the source tree changes under it (an editable install imports lazily)."""
    import importlib

    for name in ("cfab.apps.world.golden", "cfab.apps.world.environment", "cfab.runner.attempt", "cfab.runner.run",
                 "cfab.runner.policies", "cfab.runner.bench_measure", "cfab.runner.bench_worker", "cfab.grader",
                 "cfab.grader.diff", "cfab.tasks.suite", "cfab.apps.sandbox.exec", "cfab.apps.sandbox.tool"):
        importlib.import_module(name)
    from cfab.apps.registry import load_all

    load_all()


def _reset_peak() -> None:
    """Reset this process's VmHWM (Linux: ``5`` to /proc/self/clear_refs), so each section
    reports its own peak (e.g. what a full diff of the whole book costs in memory)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def _peak_mb() -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024.0, 1)
    except OSError:
        pass
    return None


def _load() -> dict[str, float]:
    one, five, fifteen = os.getloadavg()
    return {"1m": round(one, 2), "5m": round(five, 2), "15m": round(fifteen, 2)}
