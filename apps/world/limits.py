"""A memory cap for the processes that run agents' tool calls.

DuckDB's ``memory_limit`` bounds its buffer manager but not the values one expression builds,
so a single agent query that multiplies a string through a chain of ordinary operations can
ask for gigabytes (`cfab.apps.sandbox.size` refuses the direct builders up front). The runner
therefore caps the data segment (``RLIMIT_DATA``, soft limit) of every process that runs
attempts: an allocation past the cap fails inside DuckDB, the query comes back as an
"Out of Memory" error result, and the attempt, the worker and the host go on.

The cap is growth over what the process held when it was applied (a fresh worker holds
about 70 MB): ``RLIMIT_DATA`` counts reserved address space, not resident memory, and a
worker that has run a few attempts reserves about 1.7 GB while its resident set stays under
400 MB, so the default growth (4 GB, ``CFAB_MEMORY_CAP`` or ``--memory-cap``) leaves room for
real work. ``none`` turns it off; in-process runs (``--workers 1``) restore the previous limit
afterwards. Library users who open environments in their own process get the per-statement cap
of `cfab.apps.sandbox.memory` (the same mechanism and the same size parser) on every agent read.
"""

from __future__ import annotations

import argparse
import os

from cfab.apps.sandbox.memory import data_segment
from cfab.apps.sandbox.memory import parse_size as _parse_size

__all__ = ["DEFAULT_MEMORY_CAP", "parse_size", "memory_cap_from_env", "cap_memory", "restore_memory", "add_memory_cap"]

DEFAULT_MEMORY_CAP = "4GB"


def parse_size(text: str) -> int | None:
    """``"4GB"`` → bytes; ``"none"``/``"off"``/``"0"`` → None. A malformed size raises ValueError
    naming it."""
    return _parse_size(text, "memory cap", "4GB")


def memory_cap_from_env(default: str = DEFAULT_MEMORY_CAP) -> str:
    return os.environ.get("CFAB_MEMORY_CAP", default)


def add_memory_cap(parser: argparse.ArgumentParser) -> None:
    """The ``--memory-cap`` option of the commands that run attempts."""

    def checked(text: str) -> str:
        try:
            parse_size(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        return text

    parser.add_argument(
        "--memory-cap",
        type=checked,
        default=memory_cap_from_env(),
        metavar="SIZE",
        help="how far each attempt process's data segment may grow, e.g. 4GB, or none "
        "(default $CFAB_MEMORY_CAP or " + DEFAULT_MEMORY_CAP + ")",
    )


def cap_memory(limit: str | None) -> tuple[int, int] | None:
    """Let this process's data segment grow by at most ``limit`` from now on (soft
    ``RLIMIT_DATA``; children inherit it). Returns the previous (soft, hard) limits for
    :func:`restore_memory`, or None when the cap is off or unsupported (non-POSIX)."""
    size = parse_size(limit) if limit is not None else None
    if size is None:
        return None
    try:
        import resource
    except ImportError:  # Windows: no rlimits
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    want = data_segment() + size
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if soft == resource.RLIM_INFINITY or want < soft:
        resource.setrlimit(resource.RLIMIT_DATA, (want, hard))
    return soft, hard


def restore_memory(previous: tuple[int, int] | None) -> None:
    """Undo :func:`cap_memory` (the soft limit may always go back up to the hard one)."""
    if previous is not None:
        import resource

        resource.setrlimit(resource.RLIMIT_DATA, previous)
