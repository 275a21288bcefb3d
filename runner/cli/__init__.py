"""``runner``: the command line.

    runner --suite executable --k 5 [--policy oracle] …   run a suite (the default command)
    runner build [--scale N] [--seed S] [--clock ISO] [--out PATH]
    runner digest PATH
    runner sql "SELECT …"
    runner check [--db PATH]
    runner tasks compile|list|admit …
    runner serve --transport http|mcp …
    runner bench …

One module per command group registers its subcommands in :mod:`~cfab.runner.cli.registry`:
:mod:`~cfab.runner.cli.run` (``run``, the default), :mod:`~cfab.runner.cli.book` (``build``,
``digest``, ``sql``, ``check``), :mod:`~cfab.runner.cli.tasks`, :mod:`~cfab.runner.cli.serve` and
:mod:`~cfab.runner.cli.bench`; :mod:`~cfab.runner.cli.options` holds the arguments they share.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from cfab.runner.cli.registry import SUBCOMMANDS


def main(argv: Sequence[str] | None = None) -> int:
    from cfab.runner.cli import bench, book, run, serve, tasks  # noqa: F401  (register the subcommands)

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        parser = argparse.ArgumentParser(prog=f"runner {argv[0]}", description=SUBCOMMANDS[argv[0]][1])
        SUBCOMMANDS[argv[0]][0](parser)
        args = parser.parse_args(argv[1:])
    else:
        parser = argparse.ArgumentParser(
            prog="runner",
            description="CFAgentBench: run a task suite (default) or a subcommand.",
            epilog="subcommands: " + ", ".join(f"{n} ({h})" for n, (_, h) in sorted(SUBCOMMANDS.items()) if n != "run"),
        )
        SUBCOMMANDS["run"][0](parser)
        args = parser.parse_args(argv)
    try:
        return int(args._handler(args) or 0)
    except KeyboardInterrupt:
        print("runner: interrupted", file=sys.stderr)
        return 130
