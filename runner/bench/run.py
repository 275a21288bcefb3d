"""One ``runner bench`` run: every section in order (each can be skipped with ``--skip-NAME``),
each timed, its own peak memory and the load after it recorded, one failing section never
losing the others; then the warnings (a loaded machine, too few attempts, failed sections) and
the targets (:mod:`cfab.runner.bench.report`). :class:`Bench` holds what the sections share:
the arguments, the book inputs per scale, the golden file per scale, a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cfab.runner.bench import build, checks, diff, memory, overhead, snapshot, suite
from cfab.runner.bench.machine import load, reset_peak, vmhwm_mb
from cfab.runner.bench.report import targets
from cfab.seeds.determinism import BuildInputs

#: the sections in the order they run: name → the function that measures it
SECTIONS: dict[str, Callable[[Bench], dict[str, Any]]] = {
    "build": build.section,
    "overhead": overhead.section,
    "diff": diff.section,
    "snapshot": snapshot.section,
    "memory": memory.section,
    "suite": suite.section,
    "checks": checks.section,
}


class Bench:
    """One run of the bench: its arguments, inputs and golden files per scale, and its results."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.scales = sorted(set(args.scale or [1, 10, 100]))
        if any(s < 1 for s in self.scales):
            raise SystemExit("runner bench: scales must be positive")
        if args.attempts < 1:
            raise SystemExit("runner bench: --attempts must be at least 1")
        self.skip = {s for s in SECTIONS if getattr(args, f"skip_{s}")}
        self.inputs = {
            s: BuildInputs.from_env(seed=args.seed, clock=args.clock, scale=s) for s in sorted({1, *self.scales})
        }
        self.results: dict[str, Any] = {}
        self._goldens: dict[int, tuple[Path, bool]] = {}
        self.tmp = Path(tempfile.mkdtemp(prefix="cfab-bench-"))
        self._t0 = time.perf_counter()
        preload()

    def say(self, text: str) -> None:
        print(f"[bench {time.perf_counter() - self._t0:7.1f}s] {text}", file=sys.stderr, flush=True)

    def run(self) -> dict[str, Any]:
        r = self.results
        r["meta"] = self._meta()
        r["load"] = {"start": load()}
        try:
            for name in SECTIONS:
                if name in self.skip:
                    r[name] = {"skipped": True}
                    continue
                self.say(f"section {name} (load {load()['1m']:.2f})")
                reset_peak()
                start = time.perf_counter()
                try:
                    r[name] = SECTIONS[name](self)
                except Exception as exc:  # noqa: BLE001  (one broken section must not lose the others)
                    import traceback

                    r[name] = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()[-3000:]}
                    self.say(f"section {name} failed: {type(exc).__name__}: {exc}")
                r[name]["section_s"] = round(time.perf_counter() - start, 1)
                r[name]["bench_process_peak_mb"] = vmhwm_mb()
                r[name]["load_after"] = load()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)
        r["load"]["end"] = load()
        r["warnings"] = self._warnings()
        r["targets"] = targets(r, self.scales)
        r["meta"]["total_s"] = round(time.perf_counter() - self._t0, 1)
        return r

    # ------------------------------------------------------------------ helpers
    def _meta(self) -> dict[str, Any]:
        import duckdb

        from cfab.apps.world.golden import cfab_home, code_fingerprint, package_version

        try:
            rev = (
                subprocess.run(
                    ["git", "rev-parse", "--short", "HEAD"],
                    capture_output=True,
                    text=True,
                    check=False,
                    cwd=Path(__file__).resolve().parent,
                    timeout=10,
                ).stdout.strip()
                or None
            )
            dirty = subprocess.run(
                ["git", "status", "--porcelain", "--untracked-files=no"],
                capture_output=True,
                text=True,
                check=False,
                cwd=Path(__file__).resolve().parent,
                timeout=10,
            ).stdout.split("\n")
            dirty = [line[3:] for line in dirty if line.strip()]
        except (OSError, subprocess.SubprocessError):
            rev, dirty = None, []
        return {
            "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "duckdb": duckdb.__version__,
            "platform": platform.platform(),
            "package_version": package_version(),
            "code_fingerprint": code_fingerprint()[:12],
            "git": rev,
            "uncommitted_changes": dirty,
            "cfab_home": str(cfab_home()),
            "scales": self.scales,
            "attempts": self.args.attempts,
            "seed": self.inputs[1].seed,
            "clock": self.inputs[1].clock.isoformat(),
            "argv": sys.argv[1:],
        }

    def _warnings(self) -> list[str]:
        out = []
        cores = os.cpu_count() or 1
        loads = [self.results["load"]["start"], self.results["load"]["end"]]
        loads += [v.get("load_after") for v in self.results.values() if isinstance(v, dict) and v.get("load_after")]
        worst = max(x["1m"] for x in loads)
        if worst > cores:
            out.append(
                f"machine load reached {worst:.2f} on {cores} cores: wall times are inflated "
                f"(compare the CPU medians); rerun on an idle machine for target figures"
            )
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
        from cfab.apps.world.golden import ensure_golden

        if scale not in self._goldens:
            if scale == 1:
                self._goldens[1] = (ensure_golden(self.inputs[1]), False)
            else:
                found = build.golden_for(self.inputs[scale], allow_stale=True)
                self._goldens[scale] = (found["path"], bool(found["stale"]))
        return self._goldens[scale]

    def tick(self, text: str) -> None:
        """Progress inside a section (printed with ``CFAB_BENCH_VERBOSE`` set)."""
        if os.environ.get("CFAB_BENCH_VERBOSE"):
            self.say(text)


def preload() -> None:
    """Import everything the sections use now, so one run measures one version of the code
    even while the source tree changes under it (an editable install imports lazily)."""
    import importlib

    for name in (
        "cfab.apps.world.golden",
        "cfab.apps.world.environment",
        "cfab.runner.attempt",
        "cfab.runner.jobs",
        "cfab.runner.policies",
        "cfab.runner.bench.worker",
        "cfab.grader",
        "cfab.grader.diff",
        "cfab.tasks.suite",
        "cfab.apps.sandbox.exec",
        "cfab.apps.sandbox.tool",
    ):
        importlib.import_module(name)
    from cfab.apps.registry import load_all

    load_all()
