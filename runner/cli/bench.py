"""``runner bench``: time the harness (:mod:`cfab.runner.bench`) and print or save the figures."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cfab.runner.cli.registry import subcommand


@subcommand("bench", "time the harness: golden build, per-attempt overhead, diff scaling, suite, memory")
def _bench(parser: argparse.ArgumentParser):
    from cfab.runner.bench.overhead import DEFAULT_TASK
    from cfab.runner.bench.run import SECTIONS, Bench

    parser.add_argument(
        "--scale",
        type=int,
        nargs="+",
        default=None,
        metavar="N",
        help="book scales for the build and small-change diff sections (default: 1 10 100)",
    )
    parser.add_argument(
        "--attempts", type=int, default=20, help="attempts (and diff repetitions) per figure (default 20)"
    )
    parser.add_argument("--json", default=None, metavar="PATH", help="write every figure to this JSON file")
    parser.add_argument("--task", default=None, help=f"representative task id (default {DEFAULT_TASK})")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--clock", default=None)
    for name in SECTIONS:
        parser.add_argument(f"--skip-{name}", action="store_true", help=f"skip the {name} section")
    parser.add_argument("--rebuild", action="store_true", help="rebuild (and re-time) the cached goldens at scales > 1")
    parser.add_argument("--suite-k", type=int, default=5)
    parser.add_argument("--suite-workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--suite-timeout", type=float, default=3600.0, help="seconds per suite run")
    parser.add_argument(
        "--snapshot-max-scale",
        type=int,
        default=10,
        help="largest scale at which the JSON snapshot approach runs (beyond: extrapolated)",
    )
    parser.add_argument(
        "--memory-attempts", type=int, default=None, help="attempts per memory worker (default min(attempts, 8))"
    )

    def run(args: argparse.Namespace) -> int:
        from cfab.runner.bench.report import render

        bench = Bench(args)
        results = bench.run()
        render(results)
        if args.json:
            path = Path(args.json)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(results, indent=1, default=str) + "\n")
            print(f"json {path}")
        return 0

    return run
