"""``runner --suite executable --k 5``: run a policy over a suite, k attempts per task, in
worker processes, appending each graded attempt to ``DIR/attempts.jsonl`` as it finishes,
then writing ``summary.json`` and ``report.md``. ``--resume`` finishes an interrupted run."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from cfab.runner.cli import add_inputs, inputs_from, subcommand
from cfab.runner.limits import add_memory_cap
from cfab.runner.records import AttemptRecord, AttemptSpec, DiffCount, FailedCheck, TaskMeta, ToolCallRecord
from cfab.seeds.determinism import BuildInputs

_TASKS: dict[tuple, dict[str, Any]] = {}


def _suite_tasks(suite: str, inputs: BuildInputs, golden: Path | None = None) -> dict[str, Any]:
    """The suite's tasks by id, loaded once per worker process."""
    key = (suite, inputs)
    if key not in _TASKS:
        from cfab.tasks.suite import load_suite

        _TASKS[key] = {t.instance_id: t for t in load_suite(suite, inputs, golden=golden)}
    return _TASKS[key]


def task_meta(task: Any) -> TaskMeta:
    return TaskMeta(domain=task.domain, family=task.family, difficulty=task.difficulty,
                    systems=list(task.systems), money_movement_guard=task.money_movement_guard)


def run_one(spec: AttemptSpec) -> AttemptRecord:
    """Run one attempt (top-level and picklable: the worker processes call it)."""
    from cfab.runner.attempt import run_attempt
    from cfab.runner.golden import ensure_golden
    from cfab.runner.policies import make_policy

    cfg = spec.config
    inputs = BuildInputs.from_env(seed=cfg["seed"], clock=cfg["clock"], scale=cfg["scale"])
    try:
        task = _suite_tasks(cfg["suite"], inputs, Path(cfg["golden"]) if cfg.get("golden") else None)[spec.task]
    except KeyError:
        return AttemptRecord.infra_error(spec, f"task {spec.task} is not in suite {cfg['suite']}")
    except Exception as exc:  # an unloadable suite is recorded, the run goes on
        return AttemptRecord.infra_error(spec, f"could not load suite {cfg['suite']}: {exc}")
    meta = task_meta(task)
    keep = cfg.get("keep_state")
    state_file = Path(cfg["out"]) / "states" / f"{spec.task}__{spec.attempt}.duckdb" if keep else None
    try:
        policy = make_policy(spec.policy, **spec.policy_options)
        wrapper = _transport_wrapper(cfg.get("transport", "inprocess"))
        golden = Path(cfg["golden"]) if cfg.get("golden") else ensure_golden(inputs)
        out = run_attempt(task, policy, golden=golden, inputs=inputs,
                          keep_state=state_file, env_wrapper=wrapper)
    except Exception as exc:
        return AttemptRecord.infra_error(spec, f"{type(exc).__name__}: {exc}")
    if state_file is not None and keep == "failed" and out.grade.passed:
        state_file.unlink(missing_ok=True)
        state_file = None
    failed = [FailedCheck(kind=c.kind, label=c.label, detail=c.detail) for c in out.grade.failed_checks()]
    diff_summary = {t: DiffCount(**c) for t, c in out.diff.summary().items()}
    calls = [ToolCallRecord(tool=c.tool, args=c.args, ok=c.ok, error=c.error) for c in out.tool_log]
    return AttemptRecord.from_episode(
        spec, out.episode, meta, passed=out.grade.passed, score=out.grade.score, wall_s=out.wall_s,
        failed_checks=failed, diff_summary=diff_summary,
        guard_log=[g.model_dump(mode="json") for g in out.guard_log], tool_calls=calls,
        state_path=str(state_file) if state_file else None)


def _transport_wrapper(name: str) -> Any:
    if name == "inprocess":
        return None
    from cfab.runner.transports import client_wrapper

    return client_wrapper(name)


def _policy_options(args: argparse.Namespace) -> dict[str, Any]:
    if args.policy == "llm":
        if not args.model:
            raise SystemExit("runner: --policy llm needs --model (and --base-url, --api-key-env)")
        opts: dict[str, Any] = {"model": args.model, "base_url": args.base_url, "api_key_env": args.api_key_env,
                                "max_steps": args.max_steps, "cost_ledger": str(Path(args.out) / "cost_ledger.txt")}
        for name in ("max_cost", "price_in", "price_out"):
            value = getattr(args, name)
            if value is not None:
                opts["max_cost_usd" if name == "max_cost" else name] = str(value)
        return opts
    if args.policy == "alternative":
        return {"index": args.alternative}
    return {}


@subcommand("run", "run a policy over a task suite, k attempts per task")
def _run(parser: argparse.ArgumentParser):
    parser.add_argument("--suite", default="executable", help="task suite (default: executable)")
    parser.add_argument("--k", type=int, default=1, help="attempts per task; pass^k needs all k to pass")
    parser.add_argument("--policy", default="oracle",
                        help="oracle (default), noop, do-everything, execute, stage-payment, alternative, llm")
    parser.add_argument("--tasks", default=None, help="comma-separated globs over task ids or families")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--out", default=None, help="results folder (default: runs/<suite>-<policy>[-<model>])")
    parser.add_argument("--resume", action="store_true", help="finish an interrupted run in --out")
    parser.add_argument("--retry-errors", action="store_true", help="with --resume: re-run infrastructure failures")
    parser.add_argument("--keep-state", choices=["failed", "all"], default=None,
                        help="keep after-state files so attempts can be inspected (load_attempt)")
    parser.add_argument("--transport", choices=["inprocess", "http", "mcp"], default="inprocess")
    parser.add_argument("--no-progress", action="store_true")
    add_memory_cap(parser)
    parser.add_argument("--alternative", type=int, default=0, help="with --policy alternative: which one")
    llm = parser.add_argument_group("LLM policy")
    llm.add_argument("--model", default=None)
    llm.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint")
    llm.add_argument("--api-key-env", default="OPENAI_API_KEY", help="environment variable holding the key")
    llm.add_argument("--max-steps", type=int, default=24)
    llm.add_argument("--max-cost", default=None, help="hard ceiling in USD for the whole run")
    llm.add_argument("--price-in", default=None, help="USD per 1M input tokens (unknown models)")
    llm.add_argument("--price-out", default=None, help="USD per 1M output tokens (unknown models)")
    add_inputs(parser)

    def run(args: argparse.Namespace) -> int:
        from cfab.runner.golden import ensure_golden
        from cfab.runner.pool import run_attempts
        from cfab.runner.report import write_outputs
        from cfab.runner.results import ResultsDir
        from cfab.tasks.suite import load_suite, select_tasks

        if args.k < 1 or args.workers < 1:
            raise SystemExit("runner: --k and --workers must be at least 1")
        inputs = inputs_from(args)
        if args.out is None:
            args.out = str(_fresh_out(args))
        out = Path(args.out)
        results = ResultsDir(out)
        if len(results) and not args.resume:
            print(f"runner: {out} already holds {len(results)} attempts; pass --resume to finish that run "
                  f"or --out for a new one", file=sys.stderr)
            return 2
        golden = ensure_golden(inputs)  # resolved once: workers never re-hash the code or rebuild mid-run
        tasks = select_tasks(load_suite(args.suite, inputs), args.tasks)
        if inputs.scale > 1:
            from cfab.tasks.suite import scale_one_families

            print(f"runner: scale {inputs.scale}: families defined on the scale-1 book only are left out: "
                  f"{', '.join(scale_one_families())}", file=sys.stderr)
        if not tasks:
            print(f"runner: no task matches {args.tasks!r}", file=sys.stderr)
            return 2
        options = _policy_options(args)
        if args.policy == "llm":  # fail fast on a missing key or unknown price, before any worker starts
            from cfab.runner.policies import make_policy

            make_policy("llm", **options)
        config = {"suite": args.suite, "seed": inputs.seed, "clock": inputs.clock.isoformat(), "scale": inputs.scale,
                  "out": str(out), "keep_state": args.keep_state, "transport": args.transport, "golden": str(golden)}
        from cfab.runner.provenance import provenance

        meta = {"suite": args.suite, "policy": args.policy, "model": args.model, "k": args.k,
                "seed": inputs.seed, "clock": inputs.clock.isoformat(), "scale": inputs.scale,
                "tasks": len(tasks), "transport": args.transport,
                "provenance": provenance(suite=args.suite, inputs=inputs, golden=golden, transport=args.transport,
                                         policy=args.policy, policy_options=options)}
        previous = results.read_meta()
        if previous and args.resume and {k: previous.get(k) for k in ("suite", "policy", "model", "seed", "clock", "scale")} != \
                {k: meta[k] for k in ("suite", "policy", "model", "seed", "clock", "scale")}:
            print(f"runner: {out} holds a different run ({previous}); use another --out", file=sys.stderr)
            return 2
        results.write_meta(meta)
        jobs = [AttemptSpec(task=t.instance_id, attempt=i, policy=args.policy, policy_options=options,
                            config=config, task_meta=task_meta(t)) for t in tasks for i in range(args.k)]
        run_attempts(jobs, run_one, workers=args.workers, results=results, memory_cap=args.memory_cap,
                     progress=not args.no_progress and sys.stderr.isatty(), retry_errors=args.retry_errors)
        summary = write_outputs(results, meta=meta, k=args.k)
        _print_summary(summary, out)
        return 0

    return run


def _fresh_out(args: argparse.Namespace) -> Path:
    """runs/<suite>-<policy>[-<model>], numbered -2, -3, … when an earlier run holds the name."""
    tag = f"-{args.model.replace('/', '_')}" if args.model else ""
    base = Path("runs") / f"{args.suite}-{args.policy}{tag}"
    if args.resume or not base.exists():
        return base
    n = 2
    while Path(f"{base}-{n}").exists():
        n += 1
    return Path(f"{base}-{n}")


def _print_summary(summary: Any, out: Path) -> None:
    if summary.metrics is None:
        print(f"no scored attempts ({summary.n_records} recorded); see {out / 'report.md'}")
    else:
        o = summary.metrics.overall
        passk = "n/a" if o.passk is None else f"{o.passk:.3f}"
        print(f"tasks {o.n_tasks}  attempts {o.n_attempts}  pass^1 {o.pass1:.3f}  pass^{summary.k} {passk}  "
              f"mean score {o.mean_score:.3f}  unscored {summary.n_records - summary.n_scored}")
    print(f"results {out / 'attempts.jsonl'}")
    print(f"report  {out / 'report.md'}")
