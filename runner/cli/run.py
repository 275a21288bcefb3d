"""``runner --suite executable --k 5``: run a policy over a suite, k attempts per task, in
worker processes, appending each graded attempt to ``DIR/attempts.jsonl`` as it finishes,
then writing ``summary.json`` and ``report.md``. ``--resume`` finishes an interrupted run.

One run can cover several *worlds* (a golden book and the suite compiled from it):

* ``--suite PATH`` runs a file ``runner tasks compile --out PATH`` wrote, on the world its
  header names (seed, clock, scale);
* ``--suite executable,regenerated`` (any comma-separated list of suites, named or files) runs
  each split in one results folder and compares every split with the first (``mode`` "splits");
* ``--seeds 7,11,13 --k K`` runs K attempts of every task on each seed's world, each world with
  its own golden file and its own keys (``mode`` "seeds": pass^k over attempts and over worlds).

With more than one world a record's ``task`` is ``<instance_id>@<split>`` so ids never collide;
every record carries its ``split``, ``seed``, ``task_key`` and ``slot`` (position in its family).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from cfab.apps.world.limits import add_memory_cap
from cfab.runner.cli.options import add_inputs, inputs_from, suite_file
from cfab.runner.cli.registry import subcommand
from cfab.runner.jobs import run_one, task_meta
from cfab.runner.results.records import AttemptSpec
from cfab.runner.worlds import World, label, resolve_world
from cfab.seeds.determinism import BuildInputs


def plan_worlds(args: argparse.Namespace) -> tuple[str | None, list[World]]:
    """The run's mode (None, "splits" or "seeds") and its worlds, from --suite, --seeds and the
    explicit --seed/--clock/--scale. Raises SystemExit with a clear message on a contradiction."""
    from cfab.tasks.suite import REGENERATED_SEED, SPLITS, SUITES, is_suite_file, split_inputs, split_suite

    names = [n.strip() for n in str(args.suite).split(",") if n.strip()]
    if not names:
        raise SystemExit("runner: --suite names no suite")
    base = inputs_from(args)
    known = sorted(set(SUITES) | set(SPLITS))
    seeds_arg = getattr(args, "seeds", None)
    if seeds_arg:
        if len(names) != 1 or names[0] not in SUITES:
            raise SystemExit(
                f"runner: --seeds runs one packaged suite ({', '.join(SUITES)}) on each seed's world; "
                f"got --suite {args.suite}"
            )
        if args.seed is not None:
            raise SystemExit("runner: give either --seed or --seeds, not both")
        try:
            seeds = [int(x) for x in str(seeds_arg).split(",") if x.strip()]
        except ValueError:
            raise SystemExit(f"runner: --seeds takes comma-separated integers, got {seeds_arg!r}") from None
        if len(seeds) < 2 or len(set(seeds)) != len(seeds):
            raise SystemExit(f"runner: --seeds needs at least two distinct seeds, got {seeds_arg!r}")
        return "seeds", [
            World(f"s{seed}", names[0], BuildInputs(seed=seed, clock=base.clock, scale=base.scale)) for seed in seeds
        ]
    worlds: list[World] = []
    for name in names:
        if name in SPLITS:
            if name == "regenerated" and len(names) == 1 and args.seed is not None and args.seed != REGENERATED_SEED:
                raise SystemExit(
                    f"runner: the regenerated split is the executable suite at seed {REGENERATED_SEED}; "
                    f"--seed {args.seed} contradicts it (use --suite executable --seed {args.seed})"
                )
            worlds.append(World(SPLITS[name], name, split_inputs(name, base)))
        elif is_suite_file(name):
            sf = suite_file(name, args)
            if not sf.current:
                from cfab.tasks.suite import suite_code_fingerprint

                print(
                    f"runner: warning: {name} was compiled by code {sf.code}, this code is "
                    f"{suite_code_fingerprint()}; its tasks may not match the book this code builds "
                    f"(recompile with runner tasks compile --seed {sf.inputs.seed} --clock "
                    f"{sf.inputs.clock.isoformat()} --out {name})",
                    file=sys.stderr,
                )
            worlds.append(World(label(name), str(sf.path), sf.inputs, sf))
        else:
            raise SystemExit(
                f"runner: unknown suite {name!r}: use {', '.join(known)} or a suite file "
                f"(runner tasks compile --seed S --out PATH)"
            )
    labels = [w.split for w in worlds]
    if len(set(labels)) != len(labels):
        raise SystemExit(f"runner: --suite {args.suite} names the same split twice ({', '.join(labels)})")
    same = {(w.file.sha256 if w.file else split_suite(w.suite), w.inputs) for w in worlds}
    if len(same) != len(worlds):
        raise SystemExit(f"runner: --suite {args.suite} runs the same world twice")
    return ("splits" if len(worlds) > 1 else None), worlds


def _policy_options(args: argparse.Namespace) -> dict[str, Any]:
    if args.policy == "llm":
        if not args.model:
            raise SystemExit("runner: --policy llm needs --model (and --base-url, --api-key-env)")
        opts: dict[str, Any] = {
            "model": args.model,
            "base_url": args.base_url,
            "api_key_env": args.api_key_env,
            "max_steps": args.max_steps,
            "cost_ledger": str(Path(args.out) / "cost_ledger.txt"),
        }
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
    parser.add_argument(
        "--suite",
        default="executable",
        help="task suite: executable (default), regenerated (the executable families at the "
        "regenerated seed: the contamination check), a file `runner tasks compile --out` "
        "wrote, or several comma-separated (executable,regenerated: compared in one report)",
    )
    parser.add_argument(
        "--k",
        type=int,
        default=1,
        help="attempts per task (with --seeds: per task on each world); pass^k needs all k to pass",
    )
    parser.add_argument(
        "--seeds",
        default=None,
        metavar="S1,S2,…",
        help="run every task on each seed's world (its own golden file and keys) and report "
        "pass^k over attempts and over worlds",
    )
    parser.add_argument(
        "--policy",
        default="oracle",
        help="oracle (default), noop, do-everything, execute, stage-payment, alternative, llm",
    )
    parser.add_argument("--tasks", default=None, help="comma-separated globs over task ids or families")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--out", default=None, help="results folder (default: runs/<suite>-<policy>[-<model>])")
    parser.add_argument("--resume", action="store_true", help="finish an interrupted run in --out")
    parser.add_argument("--retry-errors", action="store_true", help="with --resume: re-run infrastructure failures")
    parser.add_argument(
        "--keep-state",
        choices=["failed", "all"],
        default=None,
        help="keep after-state files so attempts can be inspected (load_attempt)",
    )
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
        from cfab.runner.pool import run_attempts
        from cfab.runner.results.directory import ResultsDir
        from cfab.runner.results.provenance import provenance
        from cfab.runner.results.report import write_outputs
        from cfab.tasks.suite import split_suite

        if args.k < 1 or args.workers < 1:
            raise SystemExit("runner: --k and --workers must be at least 1")
        mode, worlds = plan_worlds(args)
        if args.out is None:
            args.out = str(_fresh_out(args))
        out = Path(args.out)
        results = ResultsDir(out)
        if len(results) and not args.resume:
            print(
                f"runner: {out} already holds {len(results)} attempts; pass --resume to finish that run "
                f"or --out for a new one",
                file=sys.stderr,
            )
            return 2
        for world in worlds:
            resolve_world(world, args.tasks)
        if any(w.inputs.scale > 1 for w in worlds) and any(w.file is None for w in worlds):
            from cfab.tasks.suite import scale_one_families

            print(
                f"runner: scale {worlds[0].inputs.scale}: families defined on the scale-1 book only are left "
                f"out: {', '.join(scale_one_families())}",
                file=sys.stderr,
            )
        empty = [w.split for w in worlds if not w.tasks]
        if empty:
            where = "" if len(worlds) == 1 else f" on world(s) {', '.join(empty)}"
            print(f"runner: no task matches {args.tasks!r}{where}", file=sys.stderr)
            return 2
        options = _policy_options(args)
        if args.policy == "llm":  # fail fast on a missing key or unknown price, before any worker starts
            from cfab.runner.policies import make_policy

            make_policy("llm", **options)
        first = worlds[0]
        assert first.golden is not None  # resolve_world set it
        prov = provenance(
            suite=args.suite,
            inputs=first.inputs,
            golden=first.golden,
            transport=args.transport,
            policy=args.policy,
            policy_options=options,
        )
        prov["suite_fingerprint"] = first.provenance()["suite_fingerprint"]  # a file's own, not this code's
        if first.file is not None:
            prov["suite_sha256"] = first.file.sha256
            prov["suite_code_current"] = first.file.current
        meta: dict[str, Any] = {
            "suite": args.suite,
            "policy": args.policy,
            "model": args.model,
            "k": args.k,
            "seed": first.inputs.seed,
            "clock": first.inputs.clock.isoformat(),
            "scale": first.inputs.scale,
            "tasks": sum(len(w.tasks) for w in worlds),
            "transport": args.transport,
        }
        if len(worlds) > 1:
            meta["mode"] = mode
            meta["worlds"] = [w.entry() for w in worlds]
            meta["seeds"] = [w.inputs.seed for w in worlds]
            prov["worlds"] = [w.provenance() for w in worlds]
            prov["seeds"] = meta["seeds"]
            prov["golden_digests"] = [p["golden_digest"] for p in prov["worlds"]]
        meta["provenance"] = prov
        same = ("suite", "policy", "model", "seed", "clock", "scale", "mode", "seeds")
        previous = results.read_meta()
        if previous and args.resume and {k: previous.get(k) for k in same} != {k: meta.get(k) for k in same}:
            print(f"runner: {out} holds a different run ({previous}); use another --out", file=sys.stderr)
            return 2
        results.write_meta(meta)
        qualify = len(worlds) > 1
        jobs = []
        for w in worlds:
            config = {
                "suite": w.suite if w.file is not None else split_suite(w.suite),
                "seed": w.inputs.seed,
                "clock": w.inputs.clock.isoformat(),
                "scale": w.inputs.scale,
                "out": str(out),
                "keep_state": args.keep_state,
                "transport": args.transport,
                "golden": str(w.golden),
                "select": args.tasks,
            }
            for t in w.tasks:
                tid = f"{t.instance_id}@{w.split}" if qualify else t.instance_id
                tm = task_meta(t, w.split, w.inputs.seed, w.slots.get(t.instance_id))
                jobs += [
                    AttemptSpec(
                        task=tid,
                        attempt=i,
                        policy=args.policy,
                        policy_options=options,
                        config={**config, "instance_id": t.instance_id},
                        task_meta=tm,
                    )
                    for i in range(args.k)
                ]
        run_attempts(
            jobs,
            run_one,
            workers=args.workers,
            results=results,
            memory_cap=args.memory_cap,
            progress=not args.no_progress and sys.stderr.isatty(),
            retry_errors=args.retry_errors,
        )
        summary = write_outputs(results, meta=meta, k=args.k)
        _print_summary(summary, out)
        return 0

    return run


def _fresh_out(args: argparse.Namespace) -> Path:
    """runs/<suite>-<policy>[-<model>], numbered -2, -3, … when an earlier run holds the name."""
    tag = f"-{args.model.replace('/', '_')}" if args.model else ""
    suite = "+".join(label(n.strip()) for n in str(args.suite).split(",") if n.strip())
    if getattr(args, "seeds", None):
        suite += "-seeds-" + "-".join(x.strip() for x in str(args.seeds).split(",") if x.strip())
    base = Path("runs") / f"{suite}-{args.policy}{tag}"
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
        print(
            f"tasks {o.n_tasks}  attempts {o.n_attempts}  pass^1 {o.pass1:.3f}  pass^{summary.k} {passk}  "
            f"mean score {o.mean_score:.3f}  unscored {summary.n_records - summary.n_scored}"
        )
        if summary.splits is not None:
            for row in summary.splits.splits:
                g = row.metrics
                pk = "n/a" if g.passk is None else f"{g.passk:.3f}"
                print(f"  split {row.split:<12} tasks {g.n_tasks}  pass^1 {g.pass1:.3f}  pass^{summary.k} {pk}")
            for d in summary.splits.deltas:
                for name, b in (("pass^1", d.pass1), (f"pass^{summary.k}", d.passk)):
                    if b is not None and (name == "pass^1" or summary.k > 1):
                        print(
                            f"  {d.split} − {d.baseline} {name} {b.mean_diff:+.3f} [{b.lo:+.3f}, {b.hi:+.3f}] "
                            f"({b.n_tasks} pairs)"
                        )
        if summary.worlds is not None:
            w = summary.worlds

            def fmt(x: float | None) -> str:
                return "n/a" if x is None else f"{x:.3f}"

            print(
                f"  worlds {','.join(w.worlds)}  slots {w.n_complete}/{w.n_slots}  pass^1 {fmt(w.pass1)}  "
                f"pass^{w.k} over attempts {fmt(w.passk_attempts)}  pass^{w.n_worlds} over worlds "
                f"{fmt(w.passn_worlds)}"
            )
    print(f"results {out / 'attempts.jsonl'}")
    print(f"report  {out / 'report.md'}")
