"""A memory cap for the processes that run agents' tool calls.

DuckDB's ``memory_limit`` bounds its buffer manager but not the values one expression builds,
so a single agent query that multiplies a string through a chain of ordinary operations can
ask for gigabytes (`cfab.apps.sqlsize` refuses the direct builders up front). The runner
therefore caps the data segment (``RLIMIT_DATA``, soft limit) of every process that runs
attempts: an allocation past the cap fails inside DuckDB, the query comes back as an
"Out of Memory" error result, and the attempt, the worker and the host go on.

The cap is growth over what the process held when it was applied (a fresh worker holds
about 70 MB): ``RLIMIT_DATA`` counts reserved address space, not resident memory, and a
worker that has run a few attempts reserves about 1.7 GB while its resident set stays under
400 MB, so the default growth (4 GB, ``CFAB_MEMORY_CAP`` or ``--memory-cap``) leaves room for
real work. ``none`` turns it off. Library users who open environments in their own process
are not capped; in-process runs (``--workers 1``) restore the previous limit afterwards.
"""

from __future__ import annotations

import argparse
import os
import re

__all__ = ["DEFAULT_MEMORY_CAP", "parse_size", "memory_cap_from_env", "cap_memory", "restore_memory", "add_memory_cap"]

DEFAULT_MEMORY_CAP = "4GB"
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


def parse_size(text: str) -> int | None:
    """``"4GB"`` → bytes; ``"none"``/``"off"``/``"0"`` → None. A malformed size raises ValueError
    naming it."""
    t = str(text).strip().upper()
    if t in ("NONE", "OFF", "0", ""):
        return None
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]?)I?B?", t)
    if not m:
        raise ValueError(f"memory cap must look like '4GB', '512MB' or 'none', got {text!r}")
    size = int(float(m.group(1)) * _UNITS[m.group(2)])
    if size < 256 * 1024**2:
        raise ValueError(f"memory cap {text!r} is below 256MB: a worker cannot run attempts in that")
    return size


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

    parser.add_argument("--memory-cap", type=checked, default=memory_cap_from_env(), metavar="SIZE",
                        help="how far each attempt process's data segment may grow, e.g. 4GB, or none "
                             "(default $CFAB_MEMORY_CAP or " + DEFAULT_MEMORY_CAP + ")")


def _data_segment() -> int:
    """This process's current data segment in bytes (0 where /proc is not available)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


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
    want = _data_segment() + size
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
