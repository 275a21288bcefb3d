"""``runner bench`` figures against the issue's targets, and the printed tables (rich).

`targets` turns a bench result into pass/miss rows with the part that costs the time;
`render` prints every section. Both read only the result dict, so a saved ``--json`` can be
re-rendered."""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "targets",
    "render",
    "TARGET_OVERHEAD_MS",
    "TARGET_DIFF_RATIO",
    "TARGET_SUITE_S",
    "TARGET_MEMORY_MB",
    "TARGET_BUILD_S",
]

# the targets (medians on a 2-core machine)
TARGET_OVERHEAD_MS = 50.0
TARGET_DIFF_RATIO = 2.0
TARGET_SUITE_S = 20.0
TARGET_MEMORY_MB = 1024.0
TARGET_BUILD_S = 60.0


def _m(d: Any, *path: str) -> Any:
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


def targets(r: dict[str, Any], scales: list[int]) -> list[dict[str, Any]]:
    """The issue's targets, each with the measured value, PASS/MISS/n/a and what costs the time."""
    out: list[dict[str, Any]] = []

    def add(name: str, target: str, value: Any, ok: bool | None, unit: str, why: list[str]) -> None:
        out.append(
            {
                "name": name,
                "target": target,
                "value": value,
                "unit": unit,
                "status": "n/a" if ok is None else ("PASS" if ok else "MISS"),
                "costs": why,
            }
        )

    # 1. per-attempt overhead at scale 1
    tot = _m(r, "overhead", "parts", "total", "median")
    why = []
    if tot is not None:
        sub = _m(r, "overhead", "subparts") or {}
        parts = sorted(
            ((k, v["median"], v["cpu_median"]) for k, v in sub.items() if v.get("median") is not None),
            key=lambda x: -x[1],
        )[:5]
        why = [f"{k}: {w:.1f} ms (cpu {c:.1f})" for k, w, c in parts]
        why.append(f"copy: {_m(r, 'overhead', 'parts', 'copy', 'median')} ms")
    add(
        "per-attempt overhead, scale 1 (median)",
        f"<= {TARGET_OVERHEAD_MS:.0f} ms",
        tot,
        None if tot is None else tot <= TARGET_OVERHEAD_MS,
        "ms",
        why,
    )

    # 2. small-change diff scaling
    lo, hi = min(scales), max(scales)
    for name in _m(r, "diff", str(lo), "tables") or {}:
        a = _m(r, "diff", str(lo), "tables", name, "fast", "env_state_diff", "median")
        b = _m(r, "diff", str(hi), "tables", name, "fast", "env_state_diff", "median")
        ok = None
        why = []
        ratio = None
        if a and b and hi != lo:
            ratio = round(b / a, 2)
            ok = ratio <= TARGET_DIFF_RATIO
            fa = _m(r, "diff", str(lo), "tables", name, "fast") or {}
            fb = _m(r, "diff", str(hi), "tables", name, "fast") or {}
            grow = sorted(
                (
                    (k, (fb[k]["median"] or 0) - (fa.get(k, {}).get("median") or 0))
                    for k in fb
                    if k != "env_state_diff" and k != "grader_total"
                ),
                key=lambda x: -x[1],
            )[:4]
            why = [
                f"{k}: +{d:.1f} ms (x{lo} {fa.get(k, {}).get('median')} -> x{hi} {fb[k]['median']})" for k, d in grow
            ]
            why.append(f"fast diff x{lo} {a:.1f} ms, x{hi} {b:.1f} ms")
        add(f"small-change diff x{hi} / x{lo}: {name}", f"<= {TARGET_DIFF_RATIO:.0f}x", ratio, ok, "x", why)

    # 3. suite at k=5 with 2 workers
    wall = _m(r, "suite", "2", "wall_s")
    why = []
    if wall is not None:
        s = r["suite"]
        per = _m(s, "2", "attempt_wall_s", "median")
        why = [
            (
                f"{s.get('attempts')} attempts; median attempt {per} s in the worker; "
                f"children CPU {_m(s, '2', 'children_cpu_s')} s"
            ),
            f"1 worker: {_m(s, '1', 'wall_s')} s",
        ]
        prof = s.get("profile") or {}
        if prof:
            why.append("CPU ms/attempt: " + ", ".join(f"{k} {v}" for k, v in prof["cpu_ms_per_attempt"].items()))
        if s.get("one_attempt_run_s") is not None:
            why.append(f"fixed cost of a run (one attempt): {s['one_attempt_run_s']} s")
        if s.get("note"):
            why.append(s["note"])
    add(
        f"oracle suite k={_m(r, 'suite', 'k') or 5}, 2 workers, wall",
        f"<= {TARGET_SUITE_S:.0f} s",
        wall,
        None if wall is None else wall <= TARGET_SUITE_S,
        "s",
        why,
    )

    # 4. memory per worker at the largest scale
    peak = _m(r, "memory", str(hi), "peak", "vmhwm_mb") or _m(r, "memory", str(hi), "peak", "ru_maxrss_mb")
    why = []
    if peak is not None:
        why = [
            f"after imports and suite load: {_m(r, 'memory', str(hi), 'peak_after_setup', 'vmhwm_mb')} MB",
            f"scale 1: {_m(r, 'memory', '1', 'peak', 'vmhwm_mb')} MB",
            f"template warm-up worker: {_m(r, 'memory', str(hi), 'template_warmup', 'peak', 'vmhwm_mb')} MB",
            (
                f"bench process during the whole-book section (full diffs at x{hi}): "
                f"{_m(r, 'snapshot', 'bench_process_peak_mb')} MB"
            ),
        ]
    add(
        f"peak RSS per worker, scale {hi}",
        f"<= {TARGET_MEMORY_MB:.0f} MB",
        peak,
        None if peak is None or hi < 100 else peak <= TARGET_MEMORY_MB,
        "MB",
        why,
    )

    # 5. golden build at scale 100
    b = _m(r, "build", str(hi), "seconds")
    why = []
    if b is not None:
        ph = _m(r, "build", str(hi), "phases_s") or {}
        why = [f"{k}: {v:.1f} s" for k, v in sorted(ph.items(), key=lambda kv: -kv[1])[:4]]
        sl = _m(r, "build", str(hi), "slowest_app_seeds_s") or {}
        if sl:
            why.append("slowest app seeds: " + ", ".join(f"{k} {v:.1f} s" for k, v in list(sl.items())[:4]))
    add(
        f"golden build, scale {hi}",
        f"<= {TARGET_BUILD_S:.0f} s",
        b,
        None if b is None or hi < 100 else b <= TARGET_BUILD_S,
        "s",
        why,
    )
    return out


# ============================================================================ rendering


def _f(v: Any, digits: int = 1) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:,.{digits}f}"
    return str(v)


def render(r: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console(width=max(Console().width, 120))
    meta = r["meta"]
    con.print(
        f"[bold]runner bench[/]  git {meta.get('git')}  duckdb {meta['duckdb']}  python {meta['python']}  "
        f"cores {meta['cores']}  load {r['load']['start']['1m']} -> {r['load']['end']['1m']}  "
        f"total {meta.get('total_s')} s"
    )

    def stat_row(t: Table, label: str, s: dict[str, Any] | None, target: str = "", status: str = "") -> None:
        if not s or s.get("median") is None:
            t.add_row(label, "-", "-", "-", "-", target, status)
            return
        t.add_row(label, _f(s["median"]), _f(s["min"]), _f(s["max"]), _f(s.get("cpu_median")), target, status)

    def table(title: str) -> Table:
        t = Table(title=title, title_justify="left", show_lines=False)
        for c, j in (
            ("measure", "left"),
            ("median", "right"),
            ("min", "right"),
            ("max", "right"),
            ("cpu med", "right"),
            ("target", "right"),
            ("", "left"),
        ):
            t.add_column(c, justify=j)  # type: ignore[arg-type]
        return t

    tg = {x["name"]: x for x in r.get("targets", [])}

    b = r.get("build", {})
    if not b.get("skipped") and "error" not in b:
        t = Table(title="golden build", title_justify="left")
        for c in ("scale", "seconds", "cpu s", "size MB", "tables", "rows", "largest parts", "source"):
            t.add_column(c)
        for s, v in b.items():
            if not isinstance(v, dict) or "size_bytes" not in v:
                continue
            ph = v.get("phases_s") or {}
            top = ", ".join(f"{k} {x:.1f}" for k, x in sorted(ph.items(), key=lambda kv: -kv[1])[:3])
            t.add_row(
                s,
                _f(v.get("seconds")),
                _f(v.get("cpu_seconds")),
                _f(v["size_bytes"] / 1e6),
                _f(v.get("tables")),
                _f(v.get("rows")),
                top,
                v.get("source", ""),
            )
        con.print(t)

    o = r.get("overhead", {})
    if "parts" in o:
        t = table(f"per-attempt overhead, scale 1: {o['attempts']} attempts of {o['task']} (ms)")
        tot = tg.get("per-attempt overhead, scale 1 (median)", {})
        for k in ("copy", "open", "logs", "diff", "grade", "close"):
            stat_row(t, k, o["parts"][k])
        stat_row(
            t, "[bold]total overhead[/]", o["parts"]["total"], f"<= {TARGET_OVERHEAD_MS:.0f}", tot.get("status", "")
        )
        stat_row(t, "(policy's tool call, excluded)", o["parts"]["tool"])
        for k, v in o["subparts"].items():
            stat_row(t, f"  {k}", v)
        stat_row(t, "ensure_golden (run_one pays it per attempt)", o.get("ensure_golden_per_attempt"))
        raw = o.get("raw", {})
        stat_row(t, f"raw copy of the {raw.get('file_bytes', 0) / 1e6:.1f} MB golden", raw.get("copy"))
        stat_row(t, "raw duckdb.connect + close", raw.get("connect_close_plain"))
        stat_row(t, "raw connect_hardened + close", raw.get("connect_close_hardened"))
        con.print(t)
        cold = o.get("cold_first_attempt_ms") or {}
        if cold:
            con.print("  cold first attempt in a process (ms): " + ", ".join(f"{k} {v}" for k, v in cold.items()))

    d = r.get("diff", {})
    if not d.get("skipped") and "error" not in d:
        t = table("small change: ten rows through the gate, diffed (ms)")
        for s, sec in d.items():
            if not isinstance(sec, dict) or "tables" not in sec:
                continue
            for name, e in sec["tables"].items():
                head = (
                    f"x{s} {name} ({_f(e.get('rows_in_table'))} rows, pk {len(e.get('pk') or [])} col; "
                    f"file {sec['golden_bytes'] / 1e6:.0f} MB)"
                )
                if "fast" not in e:
                    t.add_row(head, "-", "-", "-", "-", "", e.get("error", ""))
                    continue
                target: dict[str, Any] = next(
                    (x for x in tg.values() if x["name"].endswith(name) and "diff" in x["name"]), {}
                )
                t.add_row(f"[bold]{head}[/]", "", "", "", "", "", "")
                stat_row(
                    t,
                    "  fast env.state_diff()",
                    e["fast"]["env_state_diff"],
                    f"<= {TARGET_DIFF_RATIO:.0f}x x1" if int(s) > 1 else "",
                    target.get("status", "") if int(s) > 1 and int(s) == max(int(x) for x in d if x.isdigit()) else "",
                )
                for k in (
                    "checkpoint_close",
                    "grader_attach_detach",
                    "grader_catalogs",
                    "grader_shape_check",
                    "grader_keys",
                    "grader_tables",
                    "reopen",
                ):
                    stat_row(t, f"    {k}", e["fast"][k])
                stat_row(t, "  full env.state_diff(full=True)", e["full"]["env_state_diff"])
                stat_row(t, "    grader fingerprints", e["full"]["grader_fingerprints"])
                stat_row(t, "  the 10-row write (tool call)", e["write_10_rows"])
                op = e.get("open", {})
                t.add_row(
                    f"  Environment.open (copy {op.get('copy_ms')} + connect {op.get('connect_ms')})",
                    _f(op.get("open_total_ms")),
                    "",
                    "",
                    "",
                    "",
                    "",
                )
                t.add_row("  fast == full", str(e.get("fast_equals_full")), "", "", "", "", "")
        con.print(t)

    sn = r.get("snapshot", {})
    if not sn.get("skipped") and "error" not in sn:
        t = Table(title="side by side: whole-state JSON snapshots (paper's design) vs ours", title_justify="left")
        for c in (
            "scale",
            "rows",
            "JSON MB",
            "snapshot s",
            "JSON diff s",
            "peak MB",
            "ours fast ms",
            "ours full ms",
            "same changes",
        ):
            t.add_column(c, justify="right")
        for s, v in sn.items():
            if not isinstance(v, dict) or not (v.get("run") or v.get("extrapolated")):
                if isinstance(v, dict) and v.get("ours"):
                    ours = v["ours"]
                    t.add_row(
                        s,
                        "-",
                        "-",
                        "-",
                        "-",
                        "-",
                        _f(_m(ours, "fast", "env_state_diff", "median")),
                        _f(_m(ours, "full", "env_state_diff", "median")),
                        "-",
                    )
                continue
            ours = v.get("ours") or {}
            fast_ms = _m(ours, "fast", "env_state_diff", "median")
            full_ms = _m(ours, "full", "env_state_diff", "median")
            if v.get("run"):
                t.add_row(
                    s,
                    _f(v["rows"]),
                    _f(v["json_bytes"] / 1e6),
                    _f(v["snapshot_after_s"], 2),
                    _f(v["diff_s"], 2),
                    _f(v["peak"]["vmhwm_mb"]),
                    _f(fast_ms),
                    _f(full_ms),
                    str(v.get("same_changes_as_ours")),
                )
            else:
                x = v["extrapolated"]
                t.add_row(
                    f"{s} (extrap.)",
                    "-",
                    _f(x["json_bytes"] / 1e6),
                    _f(x["snapshot_s"]),
                    _f(x["diff_s"]),
                    _f(x["peak_mb"]),
                    _f(fast_ms),
                    _f(full_ms),
                    "-",
                )
        con.print(t)

    m = r.get("memory", {})
    if not m.get("skipped") and "error" not in m:
        t = Table(title="peak memory of a worker process running attempts", title_justify="left")
        for c in (
            "scale",
            "attempts",
            "passed",
            "VmHWM MB",
            "ru_maxrss MB*",
            "after setup MB",
            "attempt s (median)",
            "template warm-up s / MB",
            "target",
            "",
        ):
            t.add_column(c, justify="right")
        for s, v in m.items():
            if not isinstance(v, dict) or "peak" not in v:
                continue
            target = tg.get(f"peak RSS per worker, scale {s}", {})
            t.add_row(
                s,
                _f(v["attempts"]),
                _f(v["passed"]),
                _f(v["peak"]["vmhwm_mb"]),
                _f(v["peak"]["ru_maxrss_mb"]),
                _f(v["peak_after_setup"]["vmhwm_mb"]),
                _f(v.get("attempt_wall_s_median"), 2),
                f"{_f(_m(v, 'template_warmup', 'seconds'))} / {_f(_m(v, 'template_warmup', 'peak', 'vmhwm_mb'))}",
                f"<= {TARGET_MEMORY_MB:.0f}" if target else "",
                target.get("status", ""),
            )
        con.print(t)
        con.print(
            "  * ru_maxrss survives fork+exec on Linux: it includes the RSS of the parent at fork time; "
            "VmHWM is the worker's own high-water mark"
        )

    su = r.get("suite", {})
    if not su.get("skipped") and "error" not in su:
        t = Table(
            title=f"oracle suite: {su.get('tasks')} tasks x k={su.get('k')} = {su.get('attempts')} attempts",
            title_justify="left",
        )
        for c in (
            "workers",
            "wall s",
            "passed",
            "errors",
            "attempt s (median)",
            "peak child MB",
            "children cpu s",
            "target",
            "",
        ):
            t.add_column(c, justify="right")
        for w, v in su.items():
            if not w.isdigit() or not isinstance(v, dict):
                continue
            target = next((x for x in tg.values() if x["name"].startswith("oracle suite")), {}) if w == "2" else {}
            t.add_row(
                w,
                _f(v.get("wall_s")),
                _f(v.get("passed")),
                _f(v.get("infra_errors")),
                _f(_m(v, "attempt_wall_s", "median"), 2),
                _f(v.get("children_maxrss_mb")),
                _f(v.get("children_cpu_s")),
                f"<= {TARGET_SUITE_S:.0f}" if target else "",
                target.get("status", ""),
            )
        con.print(t)
        if su.get("note"):
            con.print(f"  note: {su['note']}")
        prof = su.get("profile") or {}
        if prof:
            con.print(
                f"  in-process profile, CPU ms per attempt ({prof['attempts']} tasks): "
                + ", ".join(f"{k} {v}" for k, v in prof["cpu_ms_per_attempt"].items())
                + f"; total {prof['cpu_ms_per_attempt_total']}"
            )
            con.print(
                "  slowest tools (median CPU ms): "
                + ", ".join(f"{x['tool']} {x['median_cpu_ms']}" for x in prof["slowest_tools_cpu_ms"][:6])
            )
        con.print(
            f"  warm-up (every composition opened once, not timed in the runs): {su.get('warmup_s')} s; "
            f"a run of one attempt (fixed cost: start, imports, suite load, spawn, report): "
            f"{su.get('one_attempt_run_s')} s"
        )

    ch = r.get("checks", {})
    if not ch.get("skipped") and "error" not in ch:
        con.print(
            "[bold]correctness[/]: fast == full "
            + json.dumps(ch.get("fast_equals_full"))
            + "; reset restores digest "
            + json.dumps(
                {k: v.get("reset_restores_digest") for k, v in (ch.get("reset_restores_digest") or {}).items()}
            )
            + "; concurrent attempts isolated "
            + str(_m(ch, "concurrent_attempts", "ok"))
            + (
                "; suite diffs identical across attempts " + str(ch["suite_attempts_identical_diffs"])
                if "suite_attempts_identical_diffs" in ch
                else ""
            )
        )

    t = Table(title="targets", title_justify="left")
    for c in ("target", "measured", "goal", "", "what costs the time"):
        t.add_column(c)
    for x in r.get("targets", []):
        style = {"PASS": "green", "MISS": "red"}.get(x["status"], "dim")
        t.add_row(
            x["name"],
            f"{_f(x['value'])} {x['unit']}" if x["value"] is not None else "-",
            x["target"],
            f"[{style}]{x['status']}[/]",
            "\n".join(x["costs"]),
        )
    con.print(t)
    for w in r.get("warnings", []):
        con.print(f"[yellow]warning:[/] {w}")
