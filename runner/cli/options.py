"""Arguments several ``runner`` commands share: the book inputs (``--seed/--clock/--scale``),
a compiled suite file whose header picks the world, and the book file a command reads."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cfab.seeds.determinism import BuildInputs


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
    for flag, given, header in (
        ("--seed", args.seed, sf.inputs.seed),
        ("--clock", args.clock and parse_clock(args.clock), sf.inputs.clock),
        ("--scale", args.scale, sf.inputs.scale),
    ):
        if given is not None and given != header:
            raise SystemExit(
                f"runner: {flag} {given} contradicts {name}, which was compiled for "
                f"{flag.lstrip('-')} {header} (its header picks the world; drop {flag})"
            )
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
