"""One job of a suite run: an :class:`AttemptSpec` in, an :class:`AttemptRecord` out.

:func:`run_one` is what the worker processes of :func:`cfab.runner.pool.run_attempts` call (it
is top-level and picklable); each worker loads its suite once. :func:`task_meta` is the task
metadata a record carries."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cfab.runner.results.records import AttemptRecord, AttemptSpec, DiffCount, FailedCheck, TaskMeta, ToolCallRecord
from cfab.seeds.determinism import BuildInputs

_TASKS: dict[tuple, dict[str, Any]] = {}


def _suite_tasks(
    suite: str, inputs: BuildInputs, golden: Path | None = None, select: str | None = None
) -> dict[str, Any]:
    """The suite's tasks by id, loaded once per worker process (``suite``: a packaged suite's
    name or a suite file's path)."""
    key = (suite, inputs, select)
    if key not in _TASKS:
        from cfab.tasks.suite import is_suite_file, load_suite, load_suite_file

        tasks = (
            load_suite_file(suite).tasks
            if is_suite_file(suite)
            else load_suite(suite, inputs, golden=golden, select=select)
        )
        _TASKS[key] = {t.instance_id: t for t in tasks}
    return _TASKS[key]


def task_meta(task: Any, split: str = "", seed: int | None = None, slot: int | None = None) -> TaskMeta:
    return TaskMeta(
        domain=task.domain,
        family=task.family,
        difficulty=task.difficulty,
        systems=list(task.systems),
        money_movement_guard=task.money_movement_guard,
        split=split,
        seed=seed,
        task_key=task.key,
        slot=slot,
    )


def run_one(spec: AttemptSpec) -> AttemptRecord:
    """Run one attempt (top-level and picklable: the worker processes call it)."""
    from cfab.apps.world.golden import ensure_golden
    from cfab.runner.attempt import run_attempt
    from cfab.runner.policies import make_policy

    cfg = spec.config
    inputs = BuildInputs.from_env(seed=cfg["seed"], clock=cfg["clock"], scale=cfg["scale"])
    instance = cfg.get("instance_id") or spec.task
    try:
        task = _suite_tasks(
            cfg["suite"], inputs, Path(cfg["golden"]) if cfg.get("golden") else None, cfg.get("select")
        )[instance]
    except KeyError:
        return AttemptRecord.infra_error(spec, f"task {instance} is not in suite {cfg['suite']}")
    except Exception as exc:  # an unloadable suite is recorded, the run goes on
        return AttemptRecord.infra_error(spec, f"could not load suite {cfg['suite']}: {exc}")
    meta = spec.task_meta or task_meta(task)
    keep = cfg.get("keep_state")
    state_file = Path(cfg["out"]) / "states" / f"{spec.task}__{spec.attempt}.duckdb" if keep else None
    try:
        policy = make_policy(spec.policy, **spec.policy_options)
        wrapper = _transport_wrapper(cfg.get("transport", "inprocess"))
        golden = Path(cfg["golden"]) if cfg.get("golden") else ensure_golden(inputs)
        out = run_attempt(task, policy, golden=golden, inputs=inputs, keep_state=state_file, env_wrapper=wrapper)
    except Exception as exc:
        return AttemptRecord.infra_error(spec, f"{type(exc).__name__}: {exc}")
    if state_file is not None and keep == "failed" and out.grade.passed:
        state_file.unlink(missing_ok=True)
        state_file = None
    failed = [FailedCheck(kind=c.kind, label=c.label, detail=c.detail) for c in out.grade.failed_checks()]
    diff_summary = {t: DiffCount(**c) for t, c in out.diff.summary().items()}
    calls = [ToolCallRecord(tool=c.tool, args=c.args, ok=c.ok, error=c.error) for c in out.tool_log]
    return AttemptRecord.from_episode(
        spec,
        out.episode,
        meta,
        passed=out.grade.passed,
        score=out.grade.score,
        wall_s=out.wall_s,
        failed_checks=failed,
        diff_summary=diff_summary,
        guard_log=[g.model_dump(mode="json") for g in out.guard_log],
        tool_calls=calls,
        state_path=str(state_file) if state_file else None,
    )


def _transport_wrapper(name: str) -> Any:
    if name == "inprocess":
        return None
    from cfab.runner.transports import client_wrapper

    return client_wrapper(name)
