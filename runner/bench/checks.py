"""The checks section of ``runner bench``: two concurrent attempts share nothing (each diff
holds only its own change, their files and workdirs differ, the golden file is intact), and
the correctness figures the other sections took (fast == full, reset restores the digest,
identical diffs across a suite's attempts) in one place."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cfab.runner.bench.change import CHANGE_TABLES, pick_keys
from cfab.seeds.determinism import BuildInputs

if TYPE_CHECKING:
    from cfab.runner.bench.run import Bench


def section(bench: Bench) -> dict[str, Any]:
    golden, _ = bench.golden(1)
    out: dict[str, Any] = {"concurrent_attempts": isolation_check(bench.inputs[1], golden)}
    diff = bench.results.get("diff", {})
    fe, rr = {}, {}
    for scale, sec in diff.items():
        if not isinstance(sec, dict) or "tables" not in sec:
            continue
        for name, t in sec["tables"].items():
            fe[f"x{scale} {name}"] = t.get("fast_equals_full")
            if "reset_check" in t:
                rr[f"x{scale}"] = t["reset_check"]
    ov = bench.results.get("overhead", {})
    if isinstance(ov, dict) and "fast_equals_full" in ov:
        fe["x1 oracle end state"] = ov["fast_equals_full"]
    out["fast_equals_full"] = fe
    out["reset_restores_digest"] = rr
    suite = bench.results.get("suite", {})
    same = [v.get("deterministic_diffs") for v in suite.values() if isinstance(v, dict) and "deterministic_diffs" in v]
    if same:
        out["suite_attempts_identical_diffs"] = all(same)
    return out


def isolation_check(inputs: BuildInputs, golden: Path) -> dict[str, Any]:
    """Two attempts open at the same time in two threads, each changing a different table:
    each diff holds only its own change, their files and workdirs differ, the golden is intact."""
    from cfab.apps.world.environment import Environment
    from cfab.apps.world.golden import golden_digest

    barrier = threading.Barrier(2, timeout=120)
    results: dict[str, Any] = {}
    errors: list[str] = []

    def run(slot: str, app: str, table: str, column: str) -> None:
        try:
            env = Environment.open(apps=[app], inputs=inputs, golden=golden, sql_write=True)
            try:
                barrier.wait()
                picked = pick_keys(env, app, table, column)
                barrier.wait()
                diff = env.state_diff()
                results[slot] = {
                    "path": str(env.path),
                    "workdir": str(env.workdir),
                    "tables": sorted(diff.summary()),
                    "ok": picked is not None,
                }
            finally:
                env.close()
        except Exception as exc:  # noqa: BLE001  (reported, not raised: this is a check)
            errors.append(f"{slot}: {type(exc).__name__}: {exc}")
            barrier.abort()

    threads = [threading.Thread(target=run, args=(f"t{i}", *spec)) for i, spec in enumerate(CHANGE_TABLES)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if errors or len(results) != 2:
        return {"ok": False, "errors": errors}
    import duckdb

    from cfab.schema.catalog import content_digest

    a, b = results["t0"], results["t1"]
    con = duckdb.connect(str(golden), read_only=True)
    try:
        intact = content_digest(con) == golden_digest(golden)
    finally:
        con.close()
    own = [t.lower() for t in a["tables"]] == [f"{CHANGE_TABLES[0][0]}.{CHANGE_TABLES[0][1]}".lower()] and [
        t.lower() for t in b["tables"]
    ] == [f"{CHANGE_TABLES[1][0]}.{CHANGE_TABLES[1][1]}".lower()]
    return {
        "ok": bool(own and a["path"] != b["path"] and a["workdir"] != b["workdir"] and intact),
        "each_diff_only_its_own_change": own,
        "distinct_files": a["path"] != b["path"],
        "golden_intact": intact,
        "diff_tables": {"t0": a["tables"], "t1": b["tables"]},
    }
