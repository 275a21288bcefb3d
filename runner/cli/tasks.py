"""``runner tasks compile|list|admit|schema``."""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from cfab.runner.cli.options import add_inputs, inputs_from
from cfab.runner.cli.registry import subcommand


def _source_suites_dir() -> Path:
    """The ``tasks/suites`` folder of the source tree (compile writes the committed file there)."""
    return Path(str(resources.files("cfab.tasks").joinpath("suites")))


def _worlds(args: argparse.Namespace) -> list[Any]:
    """``--suite`` as the runner reads it: a packaged suite (executable, held_out), the regenerated
    split, a compiled suite file (its header picks the world; an explicit flag contradicting it is
    an error), or several of them comma-separated. Each world comes with its selected tasks; a
    packaged suite at its own world needs no golden build."""
    from cfab.runner.cli.run import plan_worlds
    from cfab.tasks.suite import load_suite, select_tasks, split_suite

    _, worlds = plan_worlds(args)
    select = getattr(args, "tasks", None)
    for w in worlds:
        if w.file is not None:
            tasks = w.file.tasks
        else:
            try:
                tasks = load_suite(split_suite(w.suite), w.inputs, select=select)
            except Exception as exc:
                raise SystemExit(
                    f"runner tasks: the {w.suite} suite does not compile on seed {w.inputs.seed}, clock "
                    f"{w.inputs.clock.isoformat()}, scale {w.inputs.scale}: {exc}"
                ) from None
        w.tasks = select_tasks(tasks, select)
    return worlds


def _fingerprint(world: Any) -> str:
    from cfab.runner.results.provenance import suite_fingerprint
    from cfab.tasks.suite import split_suite

    if world.file is not None:
        return f"{world.file.path.name}:{world.file.code}:{world.inputs.key()}"
    return suite_fingerprint(split_suite(world.suite), world.inputs)


@subcommand("tasks", "compile, list and admit the task suites")
def _tasks(parser: argparse.ArgumentParser):
    sub = parser.add_subparsers(dest="action", required=True)
    c = sub.add_parser("compile", help="compile a suite deterministically to tasks/suites/<suite>.jsonl")
    c.add_argument("--suite", default="executable", help="executable (published) or held_out (never packaged)")
    c.add_argument(
        "--out",
        default=None,
        help="write here instead of the package's tasks/suites/ (held_out: default the cache, never the package)",
    )
    add_inputs(c)
    ls = sub.add_parser("list", help="print the suite as a table")
    ls.add_argument(
        "--suite",
        default="executable",
        help="as the runner takes it: executable, held_out, regenerated, a compiled suite file (.jsonl), or "
        "several comma-separated",
    )
    ls.add_argument("--tasks", default=None)
    ls.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per task: metadata and the answers it asks for (names, types)",
    )
    add_inputs(ls)
    ad = sub.add_parser("admit", help="run the admission gate and print its table")
    ad.add_argument(
        "--suite",
        default="executable",
        help="as the runner takes it: executable, held_out, regenerated, a compiled suite file (.jsonl), or "
        "several comma-separated",
    )
    ad.add_argument("--tasks", default=None)
    ad.add_argument("--k", type=int, default=5)
    ad.add_argument(
        "--json",
        default=None,
        metavar="PATH",
        help="write per-task and suite VMR / VAA / V-Acc with per-mutant-class kill rates here",
    )
    add_inputs(ad)
    sc = sub.add_parser("schema", help="print the JSON schema of a task for authors")
    sc.add_argument("--out", default=None)

    def run(args: argparse.Namespace) -> int:
        return {"compile": _compile, "list": _list, "admit": _admit, "schema": _schema}[args.action](args)

    return run


def _compile(args: argparse.Namespace) -> int:
    from cfab.apps.world.golden import ensure_golden
    from cfab.tasks.suite import SUITES, UNSHIPPED, compile_suite, dump_suite, keys_golden

    if args.suite not in SUITES:
        raise SystemExit(f"runner tasks compile: unknown suite {args.suite!r}; suites: {', '.join(SUITES)}")
    inputs = inputs_from(args)
    golden = ensure_golden(inputs)
    if args.suite in UNSHIPPED:
        out = Path(args.out) if args.out else golden.with_name(f"{golden.name}.{args.suite}.jsonl")
        package = _source_suites_dir().resolve()
        if out.resolve().parent == package or package in out.resolve().parents:
            raise SystemExit(
                f"runner tasks compile: the {args.suite} suite is never written into the package "
                f"({package}); give --out outside it"
            )
    else:
        out = Path(args.out) if args.out else _source_suites_dir() / f"{args.suite}.jsonl"
    tasks = compile_suite(golden, args.suite, keys_from=keys_golden(inputs))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(dump_suite(tasks, inputs), encoding="utf-8")
    tmp.replace(out)
    if inputs.scale > 1:
        from cfab.tasks.suite import scale_one_families

        print(f"scale {inputs.scale}: left out (defined on the scale-1 book only): {', '.join(scale_one_families())}")
    domains = sorted({t.domain for t in tasks})
    print(
        f"compiled {len(tasks)} tasks in {len(domains)} domains "
        f"({sum(t.money_movement_guard for t in tasks)} money-guarded) → {out}"
    )
    return 0


def _list(args: argparse.Namespace) -> int:
    from rich.console import Console

    worlds = _worlds(args)
    if args.json:
        for w in worlds:
            for t in w.tasks:
                row = {
                    "instance_id": t.instance_id,
                    "split": w.split,
                    "seed": w.inputs.seed,
                    "clock": w.inputs.clock.isoformat(),
                    "scale": w.inputs.scale,
                    "domain": t.domain,
                    "family": t.family,
                    "key": t.key,
                    "difficulty": t.difficulty,
                    "systems": list(t.systems),
                    "user_role": t.user_role,
                    "money_movement_guard": t.money_movement_guard,
                    "defect_variant": t.defect_variant,
                    "partition": t.partition,
                    "instruction": t.instruction,
                    "answers": t.answer_specs(),
                    "answers_schema": t.answers_schema(),
                }
                sys.stdout.write(json.dumps(row, sort_keys=True) + "\n")
        return 0
    console = Console(width=220)
    for w in worlds:
        _print_world(console, w, titled=len(worlds) > 1)
    return 0


def _print_world(console: Any, world: Any, *, titled: bool) -> None:
    """One world's tasks as a table, then the count per domain (families, guarded, twisted)."""
    from collections import Counter

    from rich.table import Table

    tasks = world.tasks
    if titled:
        console.print(
            f"[bold]{world.split}[/bold]: {world.suite} at seed {world.inputs.seed}, clock "
            f"{world.inputs.clock.isoformat()}, scale {world.inputs.scale}"
        )
    table = Table("id", "domain", "family", "diff.", "apps", "guarded", "answers", "twist")
    for t in tasks:
        table.add_row(
            t.instance_id,
            t.domain,
            t.family,
            str(t.difficulty),
            ", ".join(t.systems),
            "yes" if t.money_movement_guard else "",
            ", ".join(f"{a.name}:{a.type}" for a in t.ground_truth.answers),
            t.defect_variant or "",
        )
    console.print(table)
    per_domain = Counter(t.domain for t in tasks)
    counts = Table("domain", "tasks", "families", "guarded", "twisted")
    for domain in sorted(per_domain, key=lambda d: (-per_domain[d], d)):
        mine = [t for t in tasks if t.domain == domain]
        counts.add_row(
            domain,
            str(len(mine)),
            str(len({t.family for t in mine})),
            str(sum(t.money_movement_guard for t in mine)),
            str(sum(t.defect_variant is not None for t in mine)),
        )
    console.print(counts)
    print(f"{len(tasks)} tasks  suite fingerprint {_fingerprint(world)}")


def _admit(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from cfab.apps.world.golden import ensure_golden
    from cfab.runner.admit import admit_task, suite_verifier_summary

    worlds = _worlds(args)
    table = Table("task", "oracle", "no-op", "mutants killed", "alternatives", "VMR", "VAA", "V-Acc", "admitted")
    rejected = []
    admissions = []
    splits: list[str] = []
    runs = [(w, ensure_golden(w.inputs), task) for w in worlds for task in w.tasks]
    for world, golden, task in runs:
        adm = admit_task(task, golden, world.inputs, k=args.k)
        admissions.append(adm)
        splits.append(world.split)
        alts = sum(ok for _, ok in adm.alternatives)
        oracle = f"{adm.oracle_passed}/{adm.oracle_runs}" + ("" if adm.oracle_identical else " ≠")
        table.add_row(
            task.instance_id if len(worlds) == 1 else f"{task.instance_id}@{world.split}",
            oracle,
            "fails" if adm.noop_failed else "PASSES",
            f"{adm.mutants_killed}/{adm.mutants_applicable}",
            f"{alts}/{len(adm.alternatives)}",
            f"{adm.vmr:.3f}",
            f"{adm.vaa:.3f}",
            f"{adm.v_acc:.3f}",
            "yes" if adm.admitted else "NO",
        )
        if not adm.admitted:
            rejected.append(adm)
    Console(width=220).print(table)
    summary = suite_verifier_summary(admissions)
    classes = Table("mutant class", "killed", "total", "kill rate")
    for cls, row in summary["by_class"].items():
        classes.add_row(cls, str(row["killed"]), str(row["total"]), f"{row['rate']:.3f}")
    Console(width=120).print(classes)
    print(f"suite: VMR {summary['vmr']:.3f}  VAA {summary['vaa']:.3f}  V-Acc {summary['v_acc']:.3f}")
    if args.json:
        out = Path(args.json)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(
            json.dumps(
                {
                    "suite": summary,
                    "tasks": [{**a.to_dict(), "split": split} for a, split in zip(admissions, splits, strict=True)],
                },
                indent=2,
                sort_keys=True,
            )
            + "\n",
            encoding="utf-8",
        )
        print(f"wrote {out}")
    for adm in rejected:
        print(f"\n{adm.task} not admitted:")
        for m in adm.mutants:
            if m.applicable and not m.killed:
                print(f"  mutant survived: {m.name} ({m.detail})")
        for p in adm.problems:
            print(f"  {p}")
    print(f"\n{len(runs) - len(rejected)}/{len(runs)} tasks admitted")
    return 0 if not rejected else 1


def _schema(args: argparse.Namespace) -> int:
    from cfab.tasks.model import Task

    text = json.dumps(Task.model_json_schema(by_alias=True), indent=2, sort_keys=True)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text + "\n")
    return 0
