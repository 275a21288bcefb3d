"""The diff section of ``runner bench``: a ten-row change made through the gate on a large
table, diffed fast and full at every scale (the target: the fast diff grows by at most 2x
from the smallest to the largest scale), in an environment composed of that table's app, as a
task composes its apps; with fast == full, and at the first table the snapshot/reset/digest
check."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cfab.runner.bench.change import CHANGE_TABLES, change_loop, lit, open_env, pick_keys
from cfab.runner.bench.probe import attempt_probe, now, since
from cfab.seeds.determinism import BuildInputs

if TYPE_CHECKING:
    from cfab.runner.bench.run import Bench


def section(bench: Bench) -> dict[str, Any]:
    out: dict[str, Any] = {}
    reps = bench.args.attempts
    for scale in bench.scales:
        golden, stale = bench.golden(scale)
        full_reps = reps if scale == 1 else min(reps, 5 if scale <= 10 else 3)
        bench.say(f"diff: scale {scale}, {reps} fast / {full_reps} full repetitions on {golden.name}")
        res = bench_small_change(bench.inputs[scale], golden, reps=reps, full_reps=full_reps, progress=bench.tick)
        res["golden"] = str(golden)
        res["golden_stale_code"] = stale
        out[str(scale)] = res
    return out


def bench_small_change(
    inputs: BuildInputs,
    golden: Path,
    *,
    reps: int,
    full_reps: int,
    check_reset: bool = True,
    progress: Callable[[str], None] = lambda s: None,
) -> dict[str, Any]:
    """A ten-row change through the gate on a large table, diffed fast and full, in an
    environment composed of that table's app (as a task composes its apps)."""
    out: dict[str, Any] = {"scale": inputs.scale, "golden_bytes": golden.stat().st_size, "tables": {}}
    first = True
    for app, table, column in CHANGE_TABLES:
        entry: dict[str, Any] = {}
        with attempt_probe() as probe:
            env, entry["cold_open"] = open_env(probe, inputs, golden, [app])  # may build a template
            env.close()
            env, entry["open"] = open_env(probe, inputs, golden, [app])
            try:
                if first and check_reset:
                    entry["reset_check"] = reset_check(env, app, table, column)
                picked = pick_keys(env, app, table, column)
                if picked is None:
                    entry["error"] = f"no ten rows of {app}.{table} the gate lets change"
                else:
                    template, _keys, meta = picked
                    entry.update(meta)
                    entry.update(
                        change_loop(
                            env, probe, template, reps, full_reps, f"scale {inputs.scale} {app}.{table}", progress
                        )
                    )
            finally:
                env.close()
        out["tables"][f"{app}.{table}"] = entry
        first = False
    return out


def reset_check(env: Any, app: str, table: str, column: str) -> dict[str, Any]:
    """digest at open == the digest of the file it copied; a change moves it; reset puts it back."""
    from cfab.apps.world.golden import golden_digest

    t: dict[str, float] = {}
    start = now()
    d0 = env.digest()
    t["digest_ms"] = since(start)[0]
    start = now()
    snap = env.snapshot()
    t["snapshot_ms"] = since(start)[0]
    info = env.catalog.get(f"{app}.{table}")
    key = env.con.execute(f'SELECT "{info.pk[0]}" FROM "{info.schema}"."{info.name}" LIMIT 1').fetchone()
    changed = False
    if len(info.pk) == 1 and key is not None:
        res = env.call(
            "sql.execute",
            sql=f'UPDATE {info.schema}.{info.name} SET "{info.column(column)}" = '
            f"'cfab reset probe' WHERE \"{info.pk[0]}\" = {lit(key[0])}",
        )
        changed = bool(res.get("ok"))
    d1 = env.digest()
    start = now()
    env.reset(snap)
    t["reset_ms"] = since(start)[0]
    d2 = env.digest()
    return {
        "open_equals_golden": d0 == golden_digest(Path(env.golden)),
        "change_moves_digest": (d1 != d0) if changed else None,
        "reset_restores_digest": d2 == d0,
        **{k: round(v, 1) for k, v in t.items()},
    }
