"""The snapshot section of ``runner bench``: the paper's whole-state JSON snapshot approach
(:mod:`cfab.runner.bench.jsonsnap`, run in a worker process of its own) next to ours, on the
same ten-row change in an environment over the whole golden file (every app), diffed by both;
above ``--snapshot-max-scale`` the JSON approach is extrapolated linearly in rows."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cfab.runner.bench.change import CHANGE_TABLES, change_loop, open_env, pick_keys
from cfab.runner.bench.probe import attempt_probe, now, since
from cfab.runner.bench.worker import parse_output, worker_command
from cfab.seeds.determinism import BuildInputs

if TYPE_CHECKING:
    from cfab.runner.bench.run import Bench


def section(bench: Bench) -> dict[str, Any]:
    """The whole-state JSON approach next to ours: the same ten-row change in an environment
    over the whole golden file (every app), diffed by both."""
    out: dict[str, Any] = {}
    reps = max(3, min(bench.args.attempts, 10))
    for scale in bench.scales:
        golden, _ = bench.golden(scale)
        after = bench.tmp / f"after-x{scale}.duckdb"
        run_json = scale <= bench.args.snapshot_max_scale
        bench.say(f"snapshot: our diff over the whole book at scale {scale}")
        ours = bench_whole_book(
            bench.inputs[scale],
            golden,
            reps=reps,
            full_reps=1 if scale > 1 else min(reps, 3),
            keep_after=after if run_json else None,
            progress=bench.tick,
        )
        entry: dict[str, Any] = {"ours": ours, "run": False}
        if not run_json or not after.exists():
            entry["note"] = (
                f"JSON approach not run above scale {bench.args.snapshot_max_scale} "
                "(--snapshot-max-scale); extrapolated linearly in rows"
            )
            out[str(scale)] = entry
            continue
        bench.say(f"snapshot: JSON approach at scale {scale}")
        proc = subprocess.run(
            worker_command("jsonsnap", "--before", ours.get("before_file", str(golden)), "--after", str(after)),
            capture_output=True,
            text=True,
            check=False,
            timeout=7200,
        )
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
                v["extrapolated"] = {
                    "snapshot_s": round(base["snapshot_after_s"] * f, 1),
                    "diff_s": round(base["diff_s"] * f, 1),
                    "json_bytes": int(base["json_bytes"] * f),
                    "peak_mb": round((base["peak"]["vmhwm_mb"] or 0) * f, 0),
                }
    return out


def bench_whole_book(
    inputs: BuildInputs,
    golden: Path,
    *,
    reps: int,
    full_reps: int,
    keep_after: Path | None,
    progress: Callable[[str], None] = lambda s: None,
) -> dict[str, Any]:
    """The same ten-row change in an environment over the whole golden file (every app and the
    book: ``apps=None``), diffed fast and full; its after-state is kept for the JSON approach."""
    app, table, column = CHANGE_TABLES[0]
    entry: dict[str, Any] = {"scale": inputs.scale, "table": f"{app}.{table}"}
    with attempt_probe() as probe:
        env, entry["open"] = open_env(probe, inputs, golden, None)
        try:
            picked = pick_keys(env, app, table, column)
            if picked is None:
                entry["error"] = f"no ten rows of {app}.{table} the gate lets change"
                return entry
            template, _keys, meta = picked
            entry.update(meta)
            entry.update(change_loop(env, probe, template, reps, full_reps, f"whole book x{inputs.scale}", progress))
            if keep_after is not None:
                start = now()
                snap = env.snapshot()
                entry["snapshot_ms"] = round(since(start)[0], 1)
                keep_after.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(snap.path, keep_after)
                entry["before_file"] = str(env.golden)
        finally:
            env.close()
    return entry
