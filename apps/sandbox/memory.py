"""A memory cap around each agent statement, for every process that runs one.

DuckDB's ``memory_limit`` bounds its buffer manager (sorts, hash tables, aggregate states)
but not the strings and lists an expression builds: a 2,048-row vector of 50 KB strings
is 100 MB outside it, and a hundred nested ``upper()`` calls hold a hundred of them (10 GB,
measured). The runner caps its worker processes (``--memory-cap``, `cfab.apps.world.limits`);
a library user who opens an `Environment` in their own process has no such cap. So
`run_read` runs each statement inside `statement_memory_cap()`: the same mechanism as the
runner's cap (soft ``RLIMIT_DATA``, growth over the data segment the process holds when
the statement starts), lowered for the statement only and restored afterwards. An
allocation past it fails inside DuckDB and the query ends with an out-of-memory error
result; the connection and the process go on.

Concurrent statements in one process share one window (the first to start sets it, the
last to finish restores the previous limit). While a statement runs, other threads of the
process are under the same cap. ``CFAB_STATEMENT_MEMORY`` sets the growth (default
``1536MB``; ``none`` turns it off). Only Linux enforces it (``RLIMIT_DATA`` counts
private mappings there since 4.7); elsewhere the static size guard (`cfab.apps.sandbox.size`)
is the only bound.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
from collections.abc import Iterator

__all__ = ["DEFAULT_STATEMENT_MEMORY", "data_segment", "parse_size", "statement_memory", "statement_memory_cap"]

DEFAULT_STATEMENT_MEMORY = "1536MB"
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}

_lock = threading.Lock()
_active = 0
_previous: tuple[int, int] | None = None


def parse_size(text: str, what: str = "memory size", example: str = "1536MB") -> int | None:
    """``"4GB"`` → bytes; ``"none"``/``"off"``/``"0"`` → None. A malformed size, or one below
    256MB (too small for ordinary work), raises ValueError naming ``what`` and the value.
    The one parser of memory sizes (the runner's ``--memory-cap`` uses it too)."""
    t = str(text).strip().upper()
    if t in ("NONE", "OFF", "0", ""):
        return None
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]?)I?B?", t)
    if not m:
        raise ValueError(f"{what} must look like '{example}', '2GB' or 'none', got {text!r}")
    size = int(float(m.group(1)) * _UNITS[m.group(2)])
    if size < 256 * 1024**2:
        raise ValueError(f"{what} {text!r} is below 256MB: ordinary work needs more")
    return size


def statement_memory(text: str | None = None) -> int | None:
    """Bytes of growth one statement may use (``CFAB_STATEMENT_MEMORY`` or the default);
    None when turned off. A malformed size raises ValueError naming it."""
    raw = text if text is not None else os.environ.get("CFAB_STATEMENT_MEMORY", DEFAULT_STATEMENT_MEMORY)
    return parse_size(raw, "statement memory")


def data_segment() -> int:
    """This process's data segment in bytes (VmData; 0 where /proc is not available)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@contextlib.contextmanager
def statement_memory_cap(growth: int | None = None) -> Iterator[bool]:
    """Run the body with this process's data segment allowed to grow by at most `growth`
    bytes (default `statement_memory()`). Yields whether a cap is in force."""
    global _active, _previous
    size = statement_memory() if growth is None else growth
    if size is None or not sys.platform.startswith("linux"):
        yield False
        return
    import resource

    with _lock:
        if _active == 0:
            current = data_segment()
            soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
            _previous = None
            if current:
                want = current + size
                if hard != resource.RLIM_INFINITY:
                    want = min(want, hard)
                if soft == resource.RLIM_INFINITY or want < soft:
                    resource.setrlimit(resource.RLIMIT_DATA, (want, hard))
                    _previous = (soft, hard)
        _active += 1
        capped = _previous is not None or resource.getrlimit(resource.RLIMIT_DATA)[0] != resource.RLIM_INFINITY
    try:
        yield capped
    finally:
        with _lock:
            _active -= 1
            if _active == 0 and _previous is not None:
                resource.setrlimit(resource.RLIMIT_DATA, _previous)
                _previous = None
