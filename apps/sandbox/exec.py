"""Execution of agent read SQL on a hardened DuckDB connection (docs/gate.md, "The agent-SQL sandbox").

* `connect_hardened(path)` / `harden(con)`: external access off, no extension install or
  autoload, no community/unsigned extensions, no Python replacement scans, no spilling
  to temp files, no cross-schema "did you mean" hints, bounded memory and threads, then
  `lock_configuration`. CHECKPOINT keeps working (the environment's snapshots need it).
* `run_read(con, sql, allowed)`: the guard (`cfab.apps.sandbox.read.prepare_read`), then the
  guard's rendered SQL on a fresh cursor inside `BEGIN TRANSACTION READ ONLY … ROLLBACK`,
  with a timer thread that interrupts the cursor at the deadline, under a per-statement
  memory cap (`cfab.apps.sandbox.memory`). Never raises for agent
  mistakes: refusals, timeouts and engine errors come back as `SqlError`.
* `translate_duckdb_error(exc)`: one clean line from a DuckDB exception, for every tool.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import math
import re
import threading
import time
import uuid
from collections.abc import Collection
from decimal import Decimal
from typing import Any, Literal

import duckdb

from cfab.apps.sandbox.memory import statement_memory_cap
from cfab.apps.sandbox.policy import SqlRefused, normalize_allowed
from cfab.apps.sandbox.read import prepare_read
from cfab.schema.models import FrozenModel

__all__ = [
    "CONNECT_CONFIG",
    "QueryResult",
    "SqlError",
    "QueryOutcome",
    "harden",
    "connect_hardened",
    "run_read",
    "translate_duckdb_error",
    "json_safe",
]

#: Settings that must be given at connect time (some can only be set before start).
CONNECT_CONFIG: dict[str, Any] = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "allow_unsigned_extensions": False,
    "allow_persistent_secrets": False,
    "python_enable_replacements": False,
    "temp_directory": "",  # no spill files next to the database; big sorts fail instead
}

#: Settings applied by `harden` with SET, as (name, SQL literal, expected current_setting).
_RUNTIME_SETTINGS: tuple[tuple[str, str, str], ...] = (
    ("enable_external_access", "false", "false"),
    ("autoinstall_known_extensions", "false", "false"),
    ("autoload_known_extensions", "false", "false"),
    ("allow_community_extensions", "false", "false"),
    ("allow_unsigned_extensions", "false", "false"),
    ("allow_persistent_secrets", "false", "false"),
    ("python_enable_replacements", "false", "false"),
    ("max_temp_directory_size", "'0B'", "0 bytes"),
    ("catalog_error_max_schemas", "0", "0"),
)

_log = logging.getLogger(__name__)
_COUNT_CAP = 10_000  # after truncation, keep counting rows up to this total when cheap
_MAX_SAFE_INT = 2**53


class QueryResult(FrozenModel):
    """A successful read. `rows` are JSON-safe; `row_count` is exact when `row_count_exact`."""

    ok: Literal[True] = True
    columns: list[str]
    types: list[str]
    rows: list[list[Any]]
    row_count: int
    row_count_exact: bool
    truncated: bool
    elapsed_ms: float
    sql: str  # the statement actually executed (after catalog rewriting, comments dropped)


class SqlError(FrozenModel):
    """A refused, timed-out or failed read; `message` is one agent-readable line."""

    ok: Literal[False] = False
    kind: Literal["refused", "timeout", "error"]
    message: str
    elapsed_ms: float


QueryOutcome = QueryResult | SqlError


# -- connection hardening -----------------------------------------------------------------
def harden(con: duckdb.DuckDBPyConnection, *, memory_limit: str = "1GB", threads: int = 2) -> None:
    """Lock down a freshly opened connection's database instance, then lock its configuration.

    Best called on a connection opened with `CONNECT_CONFIG` (see `connect_hardened`); on
    a plainly opened one it still switches external access and extensions off (DuckDB
    allows those one way at runtime), but `temp_directory` can then no longer be changed.
    Raises RuntimeError if any setting did not take.
    """
    if not re.fullmatch(r"\d+(\.\d+)?\s*[KMGT]i?B", memory_limit.strip(), re.IGNORECASE):
        raise ValueError(f"memory_limit must look like '1GB', got {memory_limit!r}")
    if not isinstance(threads, int) or threads < 1:
        raise ValueError("threads must be a positive int")
    settings = (
        *_RUNTIME_SETTINGS,
        ("memory_limit", f"'{memory_limit.strip()}'", ""),
        ("threads", str(threads), str(threads)),
    )
    for name, literal, _ in settings:
        with contextlib.suppress(duckdb.Error):  # verified below: a setting fixed at connect time may refuse SET
            con.execute(f"SET {name} = {literal}")
    for name, _, expected in settings:
        if not expected:
            continue
        row = con.execute("SELECT current_setting(?)", [name]).fetchone()
        value = "" if row is None else str(row[0]).lower()
        if value != expected:
            raise RuntimeError(f"could not harden DuckDB: {name} is {value!r}, expected {expected!r}")
    con.execute("SET lock_configuration = true")


def connect_hardened(
    path: str, *, memory_limit: str = "1GB", threads: int = 2, config: dict[str, Any] | None = None
) -> duckdb.DuckDBPyConnection:
    """`duckdb.connect(path)` with every hardening setting passed at connect time, verified
    with one query and the configuration locked (`harden` is the fallback if one did not take).

    Note: DuckDB caches one database instance per path per process. While this
    connection (or any cursor of it) is open, `duckdb.connect(path)` returns the same
    locked instance and a connect with a different config fails; close it (and its
    cursors) before opening the file any other way, e.g. for state_diff.
    """
    if not re.fullmatch(r"\d+(\.\d+)?\s*[KMGT]i?B", memory_limit.strip(), re.IGNORECASE):
        raise ValueError(f"memory_limit must look like '1GB', got {memory_limit!r}")
    cfg = {
        **CONNECT_CONFIG,
        "max_temp_directory_size": "0B",
        "catalog_error_max_schemas": 0,
        "memory_limit": memory_limit.strip(),
        "threads": threads,
        **(config or {}),
    }
    con = duckdb.connect(str(path), config=cfg)
    try:
        expected = {name: want for name, _, want in _RUNTIME_SETTINGS if want}
        expected["threads"] = str(threads)
        rows = con.execute(
            "SELECT name, lower(value) FROM duckdb_settings() WHERE list_contains(?, name)", [list(expected)]
        ).fetchall()
        if dict(rows) == expected:
            con.execute("SET lock_configuration = true")
        else:  # a setting the connect config did not take: the SET path verifies one by one
            harden(con, memory_limit=memory_limit, threads=threads)
    except BaseException:
        con.close()
        raise
    return con


# -- errors -------------------------------------------------------------------------------
_SUGGESTION = re.compile(r'\s*Did you mean "([^"]*)"\??', re.IGNORECASE)
_ABS_PATH = re.compile(r"(?<![\w.])/(?:[\w.\-]+/)+[\w.\-]*")


def translate_duckdb_error(exc: BaseException, *, allowed_schemas: Collection[str] | None = None) -> str:
    """One clean line from a DuckDB exception: no `LINE 1:` excerpt or carets, no file paths,
    and no "Did you mean" hint that names a table outside `allowed_schemas` (with no
    `allowed_schemas`, every schema-qualified hint is dropped)."""
    text = str(exc).replace("\r", "")
    text = re.split(r"\n\s*LINE \d+:", text, maxsplit=1)[0]
    allowed = {s.lower() for s in allowed_schemas} if allowed_schemas is not None else set()

    def keep(match: re.Match[str]) -> str:
        target = match.group(1)
        qualifier = target.split(".")[0].lower() if "." in target else None
        return match.group(0) if qualifier is None or qualifier in allowed else ""

    text = _SUGGESTION.sub(keep, text)
    text = _ABS_PATH.sub("<path>", text)
    text = " ".join(part.strip() for part in text.splitlines() if part.strip())
    text = re.sub(r"\s+", " ", text).strip()
    if not text:
        text = type(exc).__name__
    return text if len(text) <= 500 else text[:497] + "..."


# -- values -------------------------------------------------------------------------------
def json_safe(value: Any, *, max_chars: int | None = 10_000, max_items: int | None = 1_000) -> Any:
    """A JSON-serialisable rendering of one DuckDB value (recursively for lists/structs).

    Strings longer than `max_chars` and lists longer than `max_items` are cut, with a
    marker saying how much was dropped, so one cell cannot flood the agent's context."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if -_MAX_SAFE_INT < value < _MAX_SAFE_INT else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        if max_chars is not None and len(value) > max_chars:
            return value[:max_chars] + f"…[+{len(value) - max_chars} chars]"
        return value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"<blob {len(bytes(value))} bytes>"
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, dict):
        return {str(k): json_safe(v, max_chars=max_chars, max_items=max_items) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        items = list(value)
        kept = items if max_items is None else items[:max_items]
        out = [json_safe(v, max_chars=max_chars, max_items=max_items) for v in kept]
        if len(kept) < len(items):
            out.append(f"…[+{len(items) - len(kept)} items]")
        return out
    return str(value)


# -- running ------------------------------------------------------------------------------
class _Deadline:
    """Interrupts `cursor` once `timeout_s` has passed, unless `finish()` came first."""

    def __init__(self, cursor: duckdb.DuckDBPyConnection, timeout_s: float) -> None:
        self._cursor = cursor
        self._lock = threading.Lock()
        self._done = False
        self.fired = False
        self._timer = threading.Timer(max(timeout_s, 0.0), self._fire)
        self._timer.daemon = True

    def _fire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.fired = True
            with contextlib.suppress(Exception):  # the cursor may already be closing
                self._cursor.interrupt()

    def start(self) -> None:
        self._timer.start()

    def finish(self) -> None:
        with self._lock:
            self._done = True
        self._timer.cancel()


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)


def run_read(
    con: duckdb.DuckDBPyConnection,
    sql: str,
    allowed_schemas: Collection[str],
    *,
    max_rows: int = 200,
    timeout_s: float = 5.0,
    max_cell_chars: int | None = 10_000,
) -> QueryOutcome:
    """Guard and run one agent read; return `QueryResult` or `SqlError`, never raise for
    anything the agent wrote (a bad `allowed_schemas` is a caller bug and raises)."""
    start = time.perf_counter()
    allowed = normalize_allowed(allowed_schemas)  # a bad list is a caller bug: ValueError
    if max_rows < 0:
        raise ValueError("max_rows must be >= 0")
    try:
        checked = prepare_read(sql, allowed)
    except SqlRefused as exc:
        return SqlError(kind="refused", message=exc.reason, elapsed_ms=_ms(start))
    except Exception:  # a guard bug must fail closed, never reach the agent as a traceback
        _log.exception("guard failed on agent SQL; refusing it: %r", sql[:500])
        return SqlError(
            kind="refused", message="this statement could not be checked; simplify it", elapsed_ms=_ms(start)
        )
    cursor = con.cursor()
    deadline = _Deadline(cursor, timeout_s)
    try:
        cursor.execute("BEGIN TRANSACTION READ ONLY")
        with statement_memory_cap():  # values DuckDB's memory_limit does not see (cfab.apps.sandbox.memory)
            deadline.start()
            cursor.execute(checked.sql)
            description = cursor.description or []
            fetched = cursor.fetchmany(max_rows + 1)
            truncated = len(fetched) > max_rows
            count, exact = len(fetched), not truncated
            if truncated:  # keep counting in small chunks while it stays cheap
                while count < _COUNT_CAP and not deadline.fired:
                    chunk = cursor.fetchmany(min(1_000, _COUNT_CAP - count))
                    if not chunk:
                        exact = True
                        break
                    count += len(chunk)
            rows = [[json_safe(v, max_chars=max_cell_chars) for v in row] for row in fetched[:max_rows]]
        deadline.finish()
        if deadline.fired:
            raise duckdb.InterruptException("interrupted")
        return QueryResult(
            columns=[str(d[0]) for d in description],
            types=[str(d[1]) for d in description],
            rows=rows,
            row_count=count,
            row_count_exact=exact,
            truncated=truncated,
            elapsed_ms=_ms(start),
            sql=checked.sql,
        )
    except Exception as exc:  # engine errors, interrupts, conversion failures
        deadline.finish()
        if deadline.fired or isinstance(exc, duckdb.InterruptException):
            return SqlError(
                kind="timeout",
                elapsed_ms=_ms(start),
                message=f"query stopped: it ran longer than the {timeout_s:g} s time limit; add filters or a LIMIT",
            )
        if isinstance(exc, (MemoryError, duckdb.OutOfMemoryException)):
            return SqlError(
                kind="error",
                elapsed_ms=_ms(start),
                message="query stopped: out of memory (it needed more than the memory one query may "
                "use); add filters, aggregate, or build smaller values",
            )
        message = (
            translate_duckdb_error(exc, allowed_schemas=allowed)
            if isinstance(exc, duckdb.Error)
            else f"{type(exc).__name__}: {exc}"
        )
        return SqlError(kind="error", message=message, elapsed_ms=_ms(start))
    finally:
        deadline.finish()
        with contextlib.suppress(Exception):
            cursor.execute("ROLLBACK")
        with contextlib.suppress(Exception):
            cursor.close()
