"""The memory section of ``runner bench``: the peak RSS of a worker process running oracle
attempts as a suite worker does, at scale 1 and at the largest scale (the target: at most
1 GB at scale 100), after a warm-up worker has opened every composition once. Both run in
fresh processes (:mod:`cfab.runner.bench.worker`) so each high-water mark is its own."""

from __future__ import annotations

import statistics
import subprocess
from typing import TYPE_CHECKING, Any

from cfab.runner.bench.worker import parse_output, worker_command

if TYPE_CHECKING:
    from cfab.runner.bench.run import Bench


def section(bench: Bench) -> dict[str, Any]:
    from cfab.tasks.suite import load_suite

    tasks = load_suite("executable", bench.inputs[1])
    first_of_family: dict[str, str] = {}
    for t in tasks:
        first_of_family.setdefault(t.family, t.instance_id)
    by_id = {t.instance_id: t for t in tasks}
    count = bench.args.memory_attempts or min(bench.args.attempts, 8)
    common = ["--seed", str(bench.inputs[1].seed), "--clock", bench.inputs[1].clock.isoformat()]
    out: dict[str, Any] = {}
    for scale in sorted({1, max(bench.scales)}):
        golden, stale = bench.golden(scale)
        # the scale-N suite (scale-1 keys, expected values from the scale-N book), compiled here
        # and cached next to the golden file so the measured worker only reads it
        at_scale = {t.instance_id for t in load_suite("executable", bench.inputs[scale], golden=golden)}
        ids = [i for i in first_of_family.values() if i in at_scale]
        chosen = [ids[i % len(ids)] for i in range(count)]
        comps = ";".join(sorted({",".join(by_id[i].systems) for i in chosen}))
        entry: dict[str, Any] = {}
        # 1) a worker that only opens each composition once: builds any per-composition template
        bench.say(f"memory: template warm-up worker at scale {scale}")
        proc = subprocess.run(
            worker_command("warm", "--golden", str(golden), "--scale", str(scale), "--compositions", comps, *common),
            capture_output=True,
            text=True,
            check=False,
            timeout=7200,
        )
        try:
            entry["template_warmup"] = parse_output(proc.stdout)
        except ValueError:
            entry["template_warmup"] = {"error": proc.stderr[-2000:]}
        # 2) a worker running attempts as a suite worker does (templates in place)
        bench.say(f"memory: worker running {count} attempts at scale {scale}")
        proc = subprocess.run(
            worker_command(
                "attempts",
                "--golden",
                str(golden),
                "--scale",
                str(scale),
                "--tasks",
                ",".join(chosen),
                "--count",
                str(count),
                *common,
            ),
            capture_output=True,
            text=True,
            check=False,
            timeout=7200,
        )
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
