"""``runner``: the command line.

    runner --suite executable --k 5 [--policy oracle] …   run a suite (the default command)
    runner build [--scale N] [--seed S] [--clock ISO] [--out PATH]
    runner digest PATH
    runner sql "SELECT …"
    runner check [--db PATH]
    runner tasks compile|list|admit …
    runner serve --transport http|mcp …
    runner bench …
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from cfab.seeds.determinism import BuildInputs

Handler = Callable[[argparse.Namespace], int]
_SUBCOMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], str]] = {}


def subcommand(name: str, help_text: str) -> Callable:
    """Register ``runner <name>``: decorate a ``configure(parser) -> handler`` function."""
    def deco(configure: Callable[[argparse.ArgumentParser], Handler]) -> Callable:
        def setup(parser: argparse.ArgumentParser) -> None:
            parser.set_defaults(_handler=configure(parser))
        _SUBCOMMANDS[name] = (setup, help_text)
        return configure
    return deco


def add_inputs(parser: argparse.ArgumentParser) -> None:
    """--seed/--clock/--scale (defaults from CFAB_SEED / CFAB_CLOCK)."""
    parser.add_argument("--seed", type=int, default=None, help="book seed (default: $CFAB_SEED or 7)")
    parser.add_argument("--clock", default=None, help="book clock, ISO date (default: $CFAB_CLOCK or 2026-01-31)")
    parser.add_argument("--scale", type=int, default=None, help="book scale multiplier (default 1)")


def inputs_from(args: argparse.Namespace) -> BuildInputs:
    return BuildInputs.from_env(seed=args.seed, clock=args.clock, scale=args.scale)


def suite_file(name: str, args: argparse.Namespace) -> Any:
    """Load the compiled suite file ``name``; its header picks the world, so a ``--seed``,
    ``--clock`` or ``--scale`` that contradicts it exits with a message naming both."""
    from cfab.seeds.determinism import parse_clock
    from cfab.tasks.suite import load_suite_file

    try:
        sf = load_suite_file(name)
    except ValueError as exc:
        raise SystemExit(f"runner: {exc}") from None
    for flag, given, header in (("--seed", args.seed, sf.inputs.seed),
                                ("--clock", args.clock and parse_clock(args.clock), sf.inputs.clock),
                                ("--scale", args.scale, sf.inputs.scale)):
        if given is not None and given != header:
            raise SystemExit(f"runner: {flag} {given} contradicts {name}, which was compiled for "
                             f"{flag.lstrip('-')} {header} (its header picks the world; drop {flag})")
    return sf


def book_path(args: argparse.Namespace) -> Path:
    """``--db PATH`` if given, else the golden file for the inputs (built if missing)."""
    if getattr(args, "db", None):
        path = Path(args.db)
        if not path.exists():
            raise SystemExit(f"runner: no such book file: {path}")
        return path
    from cfab.apps.world.golden import ensure_golden

    return ensure_golden(inputs_from(args))


def main(argv: Sequence[str] | None = None) -> int:
    from cfab.runner import bench, commands, run, serve, taskcmds  # noqa: F401  (register the subcommands)

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in _SUBCOMMANDS:
        parser = argparse.ArgumentParser(prog=f"runner {argv[0]}", description=_SUBCOMMANDS[argv[0]][1])
        _SUBCOMMANDS[argv[0]][0](parser)
        args = parser.parse_args(argv[1:])
    else:
        parser = argparse.ArgumentParser(
            prog="runner", description="CFAgentBench: run a task suite (default) or a subcommand.",
            epilog="subcommands: " + ", ".join(f"{n} ({h})" for n, (_, h) in sorted(_SUBCOMMANDS.items()) if n != "run"))
        _SUBCOMMANDS["run"][0](parser)
        args = parser.parse_args(argv)
    try:
        return int(args._handler(args) or 0)
    except KeyboardInterrupt:
        print("runner: interrupted", file=sys.stderr)
        return 130
