"""The ten-row change the diff, snapshot and checks sections make through the gate
(``sql.execute``): which rows, the environment it is made in, the loop of writes and diffs,
and the diff's cost split into its parts (:func:`cfab.runner.bench.probe.attempt_probe`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cfab.runner.bench.probe import Sample, stats
from cfab.seeds.determinism import BuildInputs

#: Tables for the ten-row change: (app, table, column). The first has a one-column primary key
#: (the diff looks rows up with an IN list), the second a composite one (a semi-join).
CHANGE_TABLES: tuple[tuple[str, str, str], ...] = (
    ("procore", "manpower_logs", "notes"),
    ("ressio", "bill_items", "description"),
)


def lit(value: Any) -> str:
    """A key value as a SQL literal (numbers bare, anything else quoted)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def pick_keys(env: Any, app: str, table: str, column: str) -> tuple[str, list[tuple], Any] | None:
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
            f"WHERE __n % {step} = {phase % step} ORDER BY {order} LIMIT 10"
        ).fetchall()
        if len(keys) < 10:
            continue
        if len(pk) == 1:
            where = f'"{pk[0]}" IN (' + ", ".join(lit(k[0]) for k in keys) + ")"
        else:
            where = " OR ".join(
                "(" + " AND ".join(f'"{p}" = {lit(v)}' for p, v in zip(pk, k, strict=True)) + ")" for k in keys
            )
        template = f"UPDATE {info.schema}.{info.name} SET \"{col}\" = '{{value}}' WHERE {where}"
        result = env.call("sql.execute", sql=template.format(value="cfab bench probe"))
        if result.get("ok") and (result.get("data") or {}).get("rows_affected") == 10:
            return template, keys, {"rows_in_table": total, "pk": pk, "column": col, "key_spread": step}
    return None


def open_env(probe: Any, inputs: BuildInputs, golden: Path, apps: list[str] | None) -> tuple[Any, dict[str, Any]]:
    from cfab.apps.world.environment import Environment

    probe.reset()
    with probe.in_phase("open"):
        env = Environment.open(apps=apps, inputs=inputs, golden=golden, sql_write=True)
    got = probe.reset()

    def ms(key: str) -> float:
        return round(got.get(key, (0.0, 0.0))[0], 1)

    return env, {
        "total_ms": ms("open"),
        "copy_ms": ms("open.copy"),
        "connect_ms": ms("open.connect"),
        "composed_template_ms": ms("open.composed"),
        "catalog_ms": ms("open.catalog"),
        "copied_file": str(env.golden),
        "copied_bytes": Path(env.golden).stat().st_size,
    }


def change_loop(
    env: Any, probe: Any, template: str, reps: int, full_reps: int, label: str, progress: Callable[[str], None]
) -> dict[str, Any]:
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
    out = {
        "write_10_rows": stats(writes),
        "fast": diff_stats(fast),
        "full": diff_stats(full),
        "fast_equals_full": all(equal) if equal else None,
        "diff_summary": summary,
    }
    if error:
        out["error"] = error
    return out


def diff_stats(rows: list[dict[str, Sample]]) -> dict[str, Any]:
    def get(r: dict[str, Sample], key: str) -> Sample:
        return r.get(key, (0.0, 0.0))

    def col(fn: Callable[[dict[str, Sample]], Sample]) -> dict[str, Any]:
        return stats([fn(r) for r in rows])

    def grader(r: dict[str, Sample]) -> Sample:
        return get(r, "diff.grader")

    return {
        "env_state_diff": col(lambda r: get(r, "diff")),
        "checkpoint_close": col(lambda r: get(r, "diff.checkpoint_close")),
        "grader_total": col(grader),
        "grader_attach_detach": col(
            lambda r: (grader(r)[0] - get(r, "diff.grader_diff")[0], grader(r)[1] - get(r, "diff.grader_diff")[1])
        ),
        "grader_catalogs": col(lambda r: get(r, "diff.grader_catalogs")),
        "grader_shape_check": col(lambda r: get(r, "diff.grader_shape_check")),
        "grader_keys": col(lambda r: get(r, "diff.grader_keys")),
        "grader_fingerprints": col(lambda r: get(r, "diff.grader_fingerprints")),
        "grader_tables": col(lambda r: get(r, "diff.grader_tables")),
        "reopen": col(lambda r: get(r, "diff.env_init")),
    }
