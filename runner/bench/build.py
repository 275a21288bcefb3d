"""The build section of ``runner bench``: golden build time and file size per scale, split into
book generation, load, replication, app seeding and digest by
:func:`cfab.runner.bench.probe.build_probe`. Scale 1 is built afresh in a temporary folder;
larger scales are built into ``$CFAB_HOME`` once and their timing recorded beside the file
(``--rebuild`` re-times them); :func:`golden_for` also finds the golden file the other sections
use at a scale above 1 (``Bench.golden``)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cfab.runner.bench.probe import build_probe, now, since
from cfab.seeds.determinism import BuildInputs

if TYPE_CHECKING:
    from cfab.runner.bench.run import Bench

__all__ = ["section", "golden_for", "build_into_cache", "timed_build", "bench_build"]


def section(bench: Bench) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for scale in bench.scales:
        bench.say(f"build scale {scale}")
        out[str(scale)] = bench_build(bench.inputs[scale], rebuild=bench.args.rebuild)
    return out


# ---------------------------------------------------------------------------- goldens


def golden_for(inputs: BuildInputs, *, allow_stale: bool) -> dict[str, Any]:
    """The golden file for ``inputs``: the current one if present, else (``allow_stale``) the
    newest one for the same (seed, clock, scale) built by another code version, else built now
    (timed, and the timing recorded beside it)."""
    from cfab.apps.world.golden import cfab_home, golden_path

    exact = golden_path(inputs)
    if _complete(exact):
        return {"path": exact, "stale": False, "built_now": None}
    if allow_stale:
        others = sorted(
            (p for p in cfab_home().glob(f"book-{inputs.key()}-*.duckdb") if _complete(p)),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
        if others:
            return {"path": others[0], "stale": True, "built_now": None}
    report = build_into_cache(inputs, exact)
    return {"path": exact, "stale": False, "built_now": report}


def _complete(path: Path) -> bool:
    return path.exists() and path.with_name(path.name + ".digest").exists()


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".bench-build.json")


def build_into_cache(inputs: BuildInputs, path: Path) -> dict[str, Any]:
    """Build the golden file at ``path`` (under the same lock as ``ensure_golden``), timed."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            os.chmod(path, 0o644)
            path.unlink()
        path.with_name(path.name + ".digest").unlink(missing_ok=True)
        report = timed_build(inputs, path)
    _sidecar(path).write_text(json.dumps(report, indent=1, default=str) + "\n")
    return report


def timed_build(inputs: BuildInputs, out: Path) -> dict[str, Any]:
    """``build_golden(inputs, out)`` with its parts timed."""
    from cfab.apps.world.golden import build_golden

    with build_probe() as probe:
        start = now()
        report = build_golden(inputs, out)
        total = since(start)
        parts = probe.reset()
    seeds = {k.split(".", 1)[1]: v for k, v in parts.items() if k.startswith("seed.")}
    phases = {k.split(".", 1)[1]: v for k, v in parts.items() if k.startswith("build.")}
    summed = (sum(v[0] for v in seeds.values()), sum(v[1] for v in seeds.values()))
    # seeds run on several connections at once: the phase is their wall (and the process CPU);
    # the per-app figures overlap, so their sum is reported beside it
    phases["apps_seed_total"] = phases.pop("apps_seed", summed)
    phases["other"] = (total[0] - sum(v[0] for v in phases.values()), total[1] - sum(v[1] for v in phases.values()))
    slowest = sorted(seeds.items(), key=lambda kv: -kv[1][0])[:8]
    return {
        "scale": inputs.scale,
        "seconds": round(total[0] / 1000, 3),
        "cpu_seconds": round(total[1] / 1000, 3),
        "size_bytes": report.size_bytes,
        "tables": report.tables,
        "rows": report.rows,
        "phases_s": {k: round(v[0] / 1000, 3) for k, v in phases.items()},
        "phases_cpu_s": {k: round(v[1] / 1000, 3) for k, v in phases.items()},
        "apps_seed_sum_s": round(summed[0] / 1000, 3),
        "slowest_app_seeds_s": {k: round(v[0] / 1000, 3) for k, v in slowest},
        "slowest_app_seeds_cpu_s": {k: round(v[1] / 1000, 3) for k, v in slowest},
        "built_at": _iso_now(),
    }


def bench_build(inputs: BuildInputs, *, rebuild: bool) -> dict[str, Any]:
    """Build time and size at one scale. Scale 1 is built afresh in a temporary folder; larger
    scales are built into ``$CFAB_HOME`` once and their recorded timing is reused."""
    from cfab.apps.world.golden import golden_path

    if inputs.scale == 1:
        tmp = Path(tempfile.mkdtemp(prefix="cfab-bench-build-"))
        try:
            out = timed_build(inputs, tmp / "golden.duckdb")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        out["source"] = "built now (temporary folder)"
        return out
    exact = golden_path(inputs)
    if rebuild or not _complete(exact):
        found = None if rebuild else golden_for(inputs, allow_stale=True)
        if found is not None and found["built_now"] is not None:
            return {**found["built_now"], "source": "built now into the cache"}
        if found is None or rebuild:
            return {**build_into_cache(inputs, exact), "source": "built now into the cache"}
        path = found["path"]
        source = "reused (built by another code version)"
    else:
        path = exact
        source = "reused from the cache"
    side = _sidecar(path)
    if side.exists():
        recorded = json.loads(side.read_text())
        recorded["source"] = f"{source}; timing recorded at {recorded.get('built_at', '?')}"
        recorded["size_bytes"] = path.stat().st_size
        return recorded
    return {
        "scale": inputs.scale,
        "seconds": None,
        "size_bytes": path.stat().st_size,
        "source": f"{source}; built outside the bench, time not recorded (use --rebuild)",
    }


def _iso_now() -> str:
    import datetime as dt

    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
