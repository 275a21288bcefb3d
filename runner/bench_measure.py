"""The in-process measurements of ``runner bench``: per-attempt overhead, small-change diff at
each scale, the suite profile and the correctness checks that go with them (the golden build:
:mod:`cfab.runner.bench_build`).

Every figure is taken through the public API (``build_golden``, ``Environment.open``,
``env.call``, ``env.state_diff``, ``cfab.grader.grade``, ``env.snapshot``/``reset``/``digest``);
:mod:`cfab.runner.bench_probe` only adds timers inside those calls so their cost can be split.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cfab.runner.bench_probe import (
    Sample,
    attempt_probe,
    now,
    since,
    stats,
)
from cfab.seeds.determinism import BuildInputs
from cfab.runner.policies.oracle import replay

#: The representative task of the overhead section (falls back to the first task with a write).
DEFAULT_TASK = "cf_A_etc_forecast_3100"

#: Tables for the ten-row change: (app, table, column). The first has a one-column primary key
#: (the diff looks rows up with an IN list), the second a composite one (a semi-join).
CHANGE_TABLES: tuple[tuple[str, str, str], ...] = (
    ("procore", "manpower_logs", "notes"),
    ("ressio", "bill_items", "description"),
)


# ---------------------------------------------------------------------------- tasks


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


# ---------------------------------------------------------------------------- overhead

OVERHEAD_PARTS = ("copy", "open", "logs", "diff", "grade", "close")


def bench_overhead(inputs: BuildInputs, golden: Path, task: Any, attempts: int,
                   warmup: int = 2, progress: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """Per-attempt overhead over ``attempts`` attempts of ``task``: copy, open, log reads, diff,
    grade, close, each split into the calls that cost the time; the tool call is timed apart."""
    from cfab.grader import grade
    from cfab.apps.world.environment import Environment
    from cfab.apps.world.golden import ensure_golden

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
                    result = grade(task.ground_truth, diff, reply=task.oracle.reply,
                                   answers=task.oracle.answers, guarded_calls=guards,
                                   tool_calls=tools)
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
    out["cold_first_attempt_ms"] = {k: round(v["median"], 1) for k, v in _overhead_table([cold]).get("parts", {}).items()} if cold else {}
    out.update({"scale": inputs.scale, "attempts": len(rows), "warmup": warmup, "task": task.instance_id,
                "systems": list(task.systems), "tool_steps": used,
                "all_passed": all(passed), "fast_equals_full": all(equal) if equal else None})
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
        parts["total"].append((copy[0] + open_[0] + logs[0] + diff[0] + grade_[0] + close[0],
                               copy[1] + open_[1] + logs[1] + diff[1] + grade_[1] + close[1]))
        put("open: connect_hardened (connect + harden)", get(r, "open.connect"))
        put("open: catalog (cached after the first attempt)", get(r, "open.catalog"))
        put("open: apps + tools + gate init", minus(get(r, "open.env_init"), get(r, "open.connect"), get(r, "open.catalog")))
        put("open: composed-app template lookup", get(r, "open.composed"))
        put("open: mkdtemp, registry, other", minus(open_, get(r, "open.env_init"), get(r, "open.composed")))
        put("diff: CHECKPOINT + close attempt connection", get(r, "diff.checkpoint_close"))
        grader = get(r, "diff.grader")
        put("diff: grader ATTACH/DETACH of the files", minus(grader, get(r, "diff.grader_diff")))
        put("diff: grader catalogs (read_catalogs)", get(r, "diff.grader_catalogs"))
        put("diff: grader catalog-reuse shape check", get(r, "diff.grader_shape_check"))
        put("diff: grader written_rows keys", get(r, "diff.grader_keys"))
        put("diff: grader row lookups (per table)", get(r, "diff.grader_tables"))
        put("diff: grader other", minus(get(r, "diff.grader_diff"), get(r, "diff.grader_catalogs"),
                                        get(r, "diff.grader_shape_check"), get(r, "diff.grader_keys"),
                                        get(r, "diff.grader_tables"), get(r, "diff.grader_fingerprints")))
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
    return {"file_bytes": golden.stat().st_size, "copy": stats(copy), "connect_close_plain": stats(plain),
            "connect_close_hardened": stats(hard)}


# ---------------------------------------------------------------------------- small change


def _lit(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def _pick_keys(env: Any, app: str, table: str, column: str) -> tuple[str, list[tuple], Any] | None:
    """Ten rows the gate lets us change, spread evenly over the table in key order (a real
    change is rarely ten neighbours, and neighbours would flatter zone-map pruning), as an
    UPDATE template for ``sql.execute``."""
    info = env.catalog.get(f"{app}.{table}")
    pk = list(info.pk)
    col = info.column(column)
    ref = f'"{info.schema}"."{info.name}"'
    order = ", ".join(f'"{p}"' for p in pk)
    total = int(env.con.execute(f"SELECT count(*) FROM {ref}").fetchone()[0])
    step = max(total // 10, 1)
    for phase in (step // 2, 1, step // 3, step - 1):
        keys = env.con.execute(
            f"SELECT {order} FROM (SELECT {order}, row_number() OVER (ORDER BY {order}) - 1 AS __n FROM {ref}) "
            f"WHERE __n % {step} = {phase % step} ORDER BY {order} LIMIT 10").fetchall()
        if len(keys) < 10:
            continue
        if len(pk) == 1:
            where = f'"{pk[0]}" IN (' + ", ".join(_lit(k[0]) for k in keys) + ")"
        else:
            where = " OR ".join("(" + " AND ".join(f'"{p}" = {_lit(v)}' for p, v in zip(pk, k)) + ")" for k in keys)
        template = f"UPDATE {info.schema}.{info.name} SET \"{col}\" = '{{value}}' WHERE {where}"
        result = env.call("sql.execute", sql=template.format(value="cfab bench probe"))
        if result.get("ok") and (result.get("data") or {}).get("rows_affected") == 10:
            return template, keys, {"rows_in_table": total, "pk": pk, "column": col, "key_spread": step}
    return None


def _open_env(probe: Any, inputs: BuildInputs, golden: Path, apps: list[str] | None) -> tuple[Any, dict[str, Any]]:
    from cfab.apps.world.environment import Environment

    probe.reset()
    with probe.in_phase("open"):
        env = Environment.open(apps=apps, inputs=inputs, golden=golden, sql_write=True)
    got = probe.reset()

    def ms(key: str) -> float:
        return round(got.get(key, (0.0, 0.0))[0], 1)

    return env, {"total_ms": ms("open"), "copy_ms": ms("open.copy"), "connect_ms": ms("open.connect"),
                 "composed_template_ms": ms("open.composed"), "catalog_ms": ms("open.catalog"),
                 "copied_file": str(env.golden), "copied_bytes": Path(env.golden).stat().st_size}


def _change_loop(env: Any, probe: Any, template: str, reps: int, full_reps: int, label: str,
                 progress: Callable[[str], None]) -> dict[str, Any]:
    """``reps`` times: the ten-row write, a fast diff; the first ``full_reps`` also a full one."""
    writes: list[Sample] = []
    fast: list[dict[str, Sample]] = []
    full: list[dict[str, Sample]] = []
    equal: list[bool] = []
    summary: dict[str, Any] = {}
    error = None
    probe.reset()
    for i in range(reps):
        with probe.in_phase("tool"):
            res = env.call("sql.execute", sql=template.format(value=f"cfab bench {i}"))
        if not res.get("ok"):
            error = res.get("error")
            break
        writes.append(probe.reset()["tool"])
        with probe.in_phase("diff"):
            d_fast = env.state_diff()
        fast.append(probe.reset())
        summary = d_fast.summary()
        if i < full_reps:
            with probe.in_phase("diff"):
                d_full = env.state_diff(full=True)
            full.append(probe.reset())
            equal.append(d_full.diffs == d_fast.diffs and d_full.summary() == summary)
        progress(f"{label} rep {i + 1}/{reps}")
    out = {"write_10_rows": stats(writes), "fast": _diff_stats(fast), "full": _diff_stats(full),
           "fast_equals_full": all(equal) if equal else None, "diff_summary": summary}
    if error:
        out["error"] = error
    return out


def bench_small_change(inputs: BuildInputs, golden: Path, *, reps: int, full_reps: int,
                       check_reset: bool = True, progress: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """A ten-row change through the gate on a large table, diffed fast and full, in an
    environment composed of that table's app (as a task composes its apps)."""
    out: dict[str, Any] = {"scale": inputs.scale, "golden_bytes": golden.stat().st_size, "tables": {}}
    first = True
    for app, table, column in CHANGE_TABLES:
        entry: dict[str, Any] = {}
        with attempt_probe() as probe:
            env, entry["cold_open"] = _open_env(probe, inputs, golden, [app])  # may build a template
            env.close()
            env, entry["open"] = _open_env(probe, inputs, golden, [app])
            try:
                if first and check_reset:
                    entry["reset_check"] = _reset_check(env, app, table, column)
                picked = _pick_keys(env, app, table, column)
                if picked is None:
                    entry["error"] = f"no ten rows of {app}.{table} the gate lets change"
                else:
                    template, _keys, meta = picked
                    entry.update(meta)
                    entry.update(_change_loop(env, probe, template, reps, full_reps,
                                              f"scale {inputs.scale} {app}.{table}", progress))
            finally:
                env.close()
        out["tables"][f"{app}.{table}"] = entry
        first = False
    return out


def bench_whole_book(inputs: BuildInputs, golden: Path, *, reps: int, full_reps: int, keep_after: Path | None,
                     progress: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """The same ten-row change in an environment over the whole golden file (every app and the
    book: ``apps=None``), diffed fast and full; its after-state is kept for the JSON approach."""
    app, table, column = CHANGE_TABLES[0]
    entry: dict[str, Any] = {"scale": inputs.scale, "table": f"{app}.{table}"}
    with attempt_probe() as probe:
        env, entry["open"] = _open_env(probe, inputs, golden, None)
        try:
            picked = _pick_keys(env, app, table, column)
            if picked is None:
                entry["error"] = f"no ten rows of {app}.{table} the gate lets change"
                return entry
            template, _keys, meta = picked
            entry.update(meta)
            entry.update(_change_loop(env, probe, template, reps, full_reps, f"whole book x{inputs.scale}", progress))
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


def _diff_stats(rows: list[dict[str, Sample]]) -> dict[str, Any]:
    def get(r: dict[str, Sample], key: str) -> Sample:
        return r.get(key, (0.0, 0.0))

    def col(fn: Callable[[dict[str, Sample]], Sample]) -> dict[str, Any]:
        return stats([fn(r) for r in rows])

    grader = lambda r: get(r, "diff.grader")
    return {
        "env_state_diff": col(lambda r: get(r, "diff")),
        "checkpoint_close": col(lambda r: get(r, "diff.checkpoint_close")),
        "grader_total": col(grader),
        "grader_attach_detach": col(lambda r: (grader(r)[0] - get(r, "diff.grader_diff")[0],
                                               grader(r)[1] - get(r, "diff.grader_diff")[1])),
        "grader_catalogs": col(lambda r: get(r, "diff.grader_catalogs")),
        "grader_shape_check": col(lambda r: get(r, "diff.grader_shape_check")),
        "grader_keys": col(lambda r: get(r, "diff.grader_keys")),
        "grader_fingerprints": col(lambda r: get(r, "diff.grader_fingerprints")),
        "grader_tables": col(lambda r: get(r, "diff.grader_tables")),
        "reopen": col(lambda r: get(r, "diff.env_init")),
    }


def _reset_check(env: Any, app: str, table: str, column: str) -> dict[str, Any]:
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
        res = env.call("sql.execute", sql=f"UPDATE {info.schema}.{info.name} SET \"{info.column(column)}\" = "
                                          f"'cfab reset probe' WHERE \"{info.pk[0]}\" = {_lit(key[0])}")
        changed = bool(res.get("ok"))
    d1 = env.digest()
    start = now()
    env.reset(snap)
    t["reset_ms"] = since(start)[0]
    d2 = env.digest()
    return {"open_equals_golden": d0 == golden_digest(Path(env.golden)), "change_moves_digest": (d1 != d0) if changed else None,
            "reset_restores_digest": d2 == d0, **{k: round(v, 1) for k, v in t.items()}}


# ---------------------------------------------------------------------------- isolation


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
                picked = _pick_keys(env, app, table, column)
                barrier.wait()
                diff = env.state_diff()
                results[slot] = {"path": str(env.path), "workdir": str(env.workdir), "tables": sorted(diff.summary()),
                                 "ok": picked is not None}
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
    own = ([t.lower() for t in a["tables"]] == [f"{CHANGE_TABLES[0][0]}.{CHANGE_TABLES[0][1]}".lower()]
           and [t.lower() for t in b["tables"]] == [f"{CHANGE_TABLES[1][0]}.{CHANGE_TABLES[1][1]}".lower()])
    return {"ok": bool(own and a["path"] != b["path"] and a["workdir"] != b["workdir"] and intact),
            "each_diff_only_its_own_change": own, "distinct_files": a["path"] != b["path"],
            "golden_intact": intact, "diff_tables": {"t0": a["tables"], "t1": b["tables"]}}


# ---------------------------------------------------------------------------- suite profile


def profile_suite(inputs: BuildInputs, golden: Path, tasks: list[Any]) -> dict[str, Any]:
    """Every task once in-process (after a warm-up pass), split into open / the policy's tool
    calls / log reads / diff / grade / close (CPU ms), with the slowest tools: where a suite
    run's time goes."""
    import statistics
    from collections import defaultdict

    from cfab.grader import grade
    from cfab.apps.world.environment import Environment
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
                        grade(task.ground_truth, diff, reply=episode.reply, answers=episode.answers,
                              guarded_calls=guards, tool_calls=tools)
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
    return {"attempts": n, "cpu_ms_per_attempt": mean, "cpu_ms_per_attempt_total": round(sum(mean.values()), 1),
            "policy_cpu_ms_by_family": {f: round(statistics.mean(v), 1) for f, v in
                                        sorted(per_family.items(), key=lambda kv: -statistics.mean(kv[1]))},
            "slowest_tools_cpu_ms": [{"tool": k, "median_cpu_ms": m, "calls": c} for m, c, k in slow]}
