"""The subcommand registry of ``runner``: each command module registers its subcommands here,
and :func:`cfab.runner.cli.main` dispatches on them. It imports no command module, so the
command modules can import it without a cycle."""

from __future__ import annotations

import argparse
from collections.abc import Callable

Handler = Callable[[argparse.Namespace], int]

#: ``runner <name>`` → (adds its arguments and handler to a parser, its one-line help)
SUBCOMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], str]] = {}


def subcommand(name: str, help_text: str) -> Callable:
    """Register ``runner <name>``: decorate a ``configure(parser) -> handler`` function."""

    def deco(configure: Callable[[argparse.ArgumentParser], Handler]) -> Callable:
        def setup(parser: argparse.ArgumentParser) -> None:
            parser.set_defaults(_handler=configure(parser))

        SUBCOMMANDS[name] = (setup, help_text)
        return configure

    return deco
