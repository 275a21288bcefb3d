"""The Environment: one attempt's world.

``Environment.open(apps=[...])`` copies the golden file to a private temporary file, opens it
on a hardened connection (no file access, no extensions, configuration locked) and exposes
exactly the composed apps' tools plus the SQL tools. Every tool call runs in one transaction
through the write gate; guarded tools are recorded, never executed. Snapshot = checkpoint +
file copy, reset = copy back, state_diff = a set difference computed on a separate connection
that attaches both files read-only (the attempt's connection is closed meanwhile, so it
never sees the before-file).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
from pydantic import ValidationError

from cfab.apps.contract import App, AppContext, rules_for
from cfab.apps.registry import get_app, load_all
from cfab.apps.tooling import ToolError, ToolResult, ToolSpec, jsonable
from cfab.apps.world.arguments import MAX_ARGS_CHARS, Oversize, check_arguments, truncated
from cfab.apps.world.golden import ensure_composed, ensure_golden
from cfab.schema.catalog import Catalog, content_digest
from cfab.schema.models import FrozenModel
from cfab.seeds.determinism import BuildInputs, parse_clock
from cfab.triggers.gate import GuardTripped, WriteGate, WriteRejected

_CATALOGS: dict[str, Catalog] = {}
_CATALOG_LOCK = threading.Lock()


class Snapshot(FrozenModel):
    """A saved state of one attempt: a file copy and the tool-log position it was taken at."""

    path: str
    seq: int


@dataclass
class _Call:
    spec: ToolSpec
    app: App


class Environment:
    """One attempt: a private copy of the golden file and the composed apps' tools."""

    def __init__(
        self,
        golden: Path,
        apps: list[str],
        inputs: BuildInputs,
        workdir: Path,
        *,
        sql_write: bool = False,
        memory_limit: str = "1GB",
        owns_workdir: bool = True,
    ) -> None:
        self.golden = Path(golden)  # the state at open: the file this attempt copied
        self.inputs = inputs
        self.workdir = Path(workdir)
        self.path = self.workdir / "attempt.duckdb"
        self.sql_write = sql_write
        self.memory_limit = memory_limit
        self._owns_workdir = owns_workdir
        self._snap_n = 0
        self._con: duckdb.DuckDBPyConnection | None = None
        registry = load_all()
        unknown = [a for a in apps if a not in registry]
        if unknown:
            raise KeyError(f"unknown app(s) {', '.join(unknown)}; known apps: {', '.join(registry)}")
        self.app_names = list(dict.fromkeys(apps))
        shutil.copyfile(self.golden, self.path)
        os.chmod(self.path, 0o644)
        self._calls: dict[str, _Call] = {}
        self.tools: dict[str, ToolSpec] = {}
        self._open()

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def open(
        cls,
        apps: Iterable[str] | None = None,
        *,
        inputs: BuildInputs | None = None,
        golden: str | Path | None = None,
        clock: str | None = None,
        seed: int | None = None,
        scale: int | None = None,
        sql_write: bool = False,
        workdir: str | Path | None = None,
        memory_limit: str = "1GB",
    ) -> Environment:
        """A fresh environment over a copy of the golden file; use it as a context manager.

        With ``apps`` named, the copy holds just those apps (a template derived from the golden
        file and cached next to it: same rows, a smaller catalog to open); with ``apps=None`` it
        is the whole golden file, every app and the book.
        """
        inputs = inputs or BuildInputs.from_env(seed=seed, clock=clock, scale=scale)
        golden_path = Path(golden) if golden is not None else ensure_golden(inputs)
        names = list(load_all()) if apps is None else list(apps)
        if apps is not None:
            golden_path = ensure_composed(golden_path, names)
        owns = workdir is None
        wd = Path(tempfile.mkdtemp(prefix="cfab-")) if workdir is None else Path(workdir)
        wd.mkdir(parents=True, exist_ok=True)
        return cls(golden_path, names, inputs, wd, sql_write=sql_write, memory_limit=memory_limit, owns_workdir=owns)

    def __enter__(self) -> Environment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection and remove this attempt's temporary files."""
        if self._con is not None:
            self._con.close()
            self._con = None
        if self._owns_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def _open(self) -> None:
        from cfab.apps.sandbox.exec import connect_hardened

        self._con = connect_hardened(str(self.path), memory_limit=self.memory_limit)
        self.catalog = _catalog_for(self.golden, self._con)
        writable = {get_app(a).schema_name() for a in self.app_names}
        self.gate = WriteGate(
            self._con, self.catalog, rules=rules_for(get_app(a) for a in self.app_names), writable_schemas=writable
        )
        self.clock = parse_clock(self._meta("clock") or self.inputs.clock)
        ctx = AppContext(con=self._con, gate=self.gate, catalog=self.catalog, clock=self.clock, env=self)
        registry = load_all()
        self._apps: dict[str, App] = {a: registry[a](ctx) for a in self.app_names}
        from cfab.apps.sandbox.tool import SqlTool

        self._apps["sql"] = SqlTool(ctx, schemas=sorted(writable), allow_write=self.sql_write)
        ctx.apps.update({n: a for n, a in self._apps.items() if n != "sql"})
        self._calls = {}
        self.tools = {}
        for app in self._apps.values():
            for name, spec in app.offered().items():
                if name in self._calls:
                    raise ValueError(f"tool {name} defined twice")
                self.tools[name] = spec
                call = _Call(spec, app)
                for key in (name, spec.sanitized, *spec.aliases):
                    self._calls.setdefault(key, call)
        self._seq = int(_aggregate(self._con, "SELECT coalesce(max(seq), 0) FROM cfab_internal.tool_log"))

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The attempt's raw connection (tests and internals only; agents never get it).

        Reopened on first use after a diff or a reset closed it."""
        if self._con is None:
            self._open()
        assert self._con is not None
        return self._con

    @property
    def apps(self) -> dict[str, App]:
        """The composed app instances (and the SQL tool), bound to the open connection."""
        self.con  # noqa: B018  (reopen if a diff or reset closed it)
        return self._apps

    def _meta(self, key: str) -> str | None:
        row = self.con.execute("SELECT value FROM cfab_internal.meta WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    # ------------------------------------------------------------------ tools
    def tool_specs(self) -> list[dict[str, Any]]:
        """OpenAI-compatible function schemas; names sanitized and mapped back by :meth:`call`."""
        out = []
        for name, spec in self.tools.items():
            entry = spec.openai_spec()
            entry["function"]["description"] = self._calls[name].app.describe(spec)
            out.append(entry)
        return out

    def resolve(self, name: str) -> ToolSpec:
        call = self._calls.get(name)
        if call is None:
            raise KeyError(name)
        return call.spec

    def call(self, name: str, /, **args: Any) -> dict[str, Any]:
        """Call a tool by native, sanitized or alias name; always returns a JSON-safe dict.

        Arguments past the size limits (:mod:`cfab.apps.world.arguments`) are refused before anything
        runs; the call is still logged (a guarded tool's in the guard log too) with its arguments
        truncated and their size and SHA-256."""
        self.con  # noqa: B018  (reopen if a diff or reset closed it; rebinds the tools)
        self._seq += 1
        seq = self._seq
        name = str(name)[:200]
        call = self._calls.get(name)
        try:
            check_arguments(args)
        except Oversize as exc:
            return self._refuse_oversize(seq, name, call, args, exc.reason)
        if call is None:
            close = [n for n in self.tools if name.split(".")[-1] in n][:5]
            hint = f"; did you mean {', '.join(close)}" if close else ""
            result = ToolResult(ok=False, error=f"unknown tool {name!r}{hint}", error_type="unknown_tool")
            self._log(seq, name, args, result, guarded=False)
            return result.as_dict()
        spec = call.spec
        try:
            parsed = spec.args_model.model_validate(args)
        except ValidationError as exc:
            result = ToolResult(ok=False, error=_validation_message(spec.name, exc), error_type="invalid_argument")
            if spec.guarded:
                self._guard_log(seq, spec, args, valid=False, reason=result.error or "invalid arguments")
            self._log(seq, spec.name, args, result, guarded=bool(spec.guarded))
            return result.as_dict()
        result = self._run(seq, call, parsed, args)
        self._log(seq, spec.name, args, result, guarded=result.status == "pending_human_approval")
        return result.as_dict()

    def _refuse_oversize(
        self, seq: int, name: str, call: _Call | None, args: dict[str, Any], reason: str, *, summarized: bool = False
    ) -> dict[str, Any]:
        logged = args if summarized else truncated(args, reason)
        spec = call.spec if call is not None else None
        tool = spec.name if spec is not None else name
        result = ToolResult(
            ok=False,
            error=f"{tool}: {reason}; nothing was run. Send smaller, flatter arguments (an upload is at most 5 MB).",
            error_type="invalid_argument",
        )
        guarded = spec is not None and bool(spec.guarded)
        if spec is not None and guarded:
            self._guard_log(seq, spec, logged, valid=False, reason=reason)
        self._log(seq, tool, logged, result, guarded=guarded)
        return result.as_dict()

    def record_refused(self, name: str, summary: dict[str, Any], reason: str) -> dict[str, Any]:
        """Log a call a transport refused before it could be parsed (e.g. a request body past the
        transport's size limit): ``summary`` stands for its arguments (say ``_truncated``); a
        guarded tool's call goes to the guard log too. Returns the error result."""
        self.con  # noqa: B018
        self._seq += 1
        name = str(name)[:200]
        call = self._calls.get(name)
        return self._refuse_oversize(self._seq, name, call, summary, reason, summarized=True)

    def _run(self, seq: int, call: _Call, parsed: Any, raw: dict[str, Any]) -> ToolResult:
        spec, con = call.spec, self.con
        method = getattr(call.app, spec.method)
        con.begin()
        self.gate.begin(seq)
        try:
            data = method(parsed)
            if spec.guarded:
                con.rollback()  # belt and braces: a guarded tool never changes state
                guard_seq = self._guard_log(
                    seq, spec, raw, valid=True, reason=f"{spec.guarded}: staged for human approval"
                )
                return ToolResult(
                    ok=True,
                    status="pending_human_approval",
                    guard_seq=guard_seq,
                    data=jsonable(data),
                    message=f"{spec.name} was NOT executed: it is staged for human approval "
                    f"(guarded {spec.guarded}). Nothing changed.",
                )
            self.gate.finish()
            con.commit()
            return ToolResult(ok=True, data=jsonable(data))
        except GuardTripped as g:
            con.rollback()
            guard_seq = self._guard_log(
                seq, spec, raw, valid=True, reason=f"{g.rule.id}: {g.rule.message}", app=g.table.split(".")[0]
            )
            return ToolResult(
                ok=True,
                status="pending_human_approval",
                guard_seq=guard_seq,
                message=f"Not executed: {g.rule.message} It is staged for human approval; nothing changed.",
            )
        except ToolError as e:
            con.rollback()
            if spec.guarded:
                self._guard_log(seq, spec, raw, valid=False, reason=e.message)
            return ToolResult(ok=False, error=e.message, error_type=e.kind)
        except WriteRejected as e:
            con.rollback()
            result = ToolResult(ok=False, error=e.message, error_type="rejected")
        except duckdb.Error as e:
            con.rollback()
            from cfab.apps.sandbox.exec import translate_duckdb_error

            result = ToolResult(
                ok=False, error=f"{spec.name}: {translate_duckdb_error(e)}", error_type="invalid_argument"
            )
        except Exception as e:  # a bug of ours: never a traceback to the agent
            con.rollback()
            result = ToolResult(
                ok=False, error=f"{spec.name} failed internally ({type(e).__name__}: {e})", error_type="internal"
            )
        if spec.guarded:  # every call of a guarded tool is recorded, whatever stopped it
            self._guard_log(seq, spec, raw, valid=False, reason=result.error or "failed")
        return result

    def _guard_log(
        self, seq: int, spec: ToolSpec, args: dict[str, Any], *, valid: bool, reason: str, app: str | None = None
    ) -> int:
        n = int(_aggregate(self.con, "SELECT coalesce(max(seq), 0) + 1 FROM cfab_internal.guard_log"))
        self.con.execute(
            "INSERT INTO cfab_internal.guard_log VALUES (?, ?, ?, ?, false, ?, ?, ?)",
            [n, app or spec.app, spec.name, _log_json(args), valid, _clip(reason), self.clock_ts()],
        )
        return n

    def _log(self, seq: int, tool: str, args: dict[str, Any], result: ToolResult, *, guarded: bool) -> None:
        self.con.execute(
            "INSERT INTO cfab_internal.tool_log VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                seq,
                tool,
                _log_json(args),
                result.ok,
                guarded,
                _clip(result.error),
                _log_result_json(result.as_dict()),
                self.clock_ts(),
            ],
        )

    def clock_ts(self) -> str:
        return f"{self.clock.isoformat()} 17:00:00"

    # ------------------------------------------------------------------ logs
    def guarded_calls(self) -> list[Any]:
        from cfab.grader import GuardedCall

        rows = self.con.execute(
            "SELECT seq, app, tool, args, executed, valid, reason FROM cfab_internal.guard_log ORDER BY seq"
        ).fetchall()
        return [
            GuardedCall(seq=s, app=a, tool=t, args=json.loads(g), executed=e, valid=v, reason=r)
            for s, a, t, g, e, v, r in rows
        ]

    def tool_log(self) -> list[Any]:
        from cfab.grader import ToolCallRecord

        rows = self.con.execute(
            "SELECT seq, tool, args, ok, guarded, error, result FROM cfab_internal.tool_log ORDER BY seq"
        ).fetchall()
        return [
            ToolCallRecord(
                seq=s, tool=t, args=json.loads(a), ok=o, guarded=g, error=e, result=json.loads(r) if r else None
            )
            for s, t, a, o, g, e, r in rows
        ]

    # ------------------------------------------------------------------ state
    def snapshot(self) -> Snapshot:
        """Checkpoint and copy the attempt file; restore it with :meth:`reset`."""
        self.con.execute("CHECKPOINT")
        self._snap_n += 1
        dest = self.workdir / f"snapshot-{self._snap_n}.duckdb"
        shutil.copyfile(self.path, dest)
        return Snapshot(path=str(dest), seq=self._seq)

    def reset(self, snapshot: Snapshot, *, keep_logs: bool = False) -> None:
        """Restore the state exactly as it was at ``snapshot`` (the logs too, unless ``keep_logs``:
        then the tool log and the guard log stay as they are, append-only, and go on numbering
        calls from where they were; the wire transports reset this way)."""
        kept = self._read_logs() if keep_logs else None
        seq = self._seq
        self._close_con()
        shutil.copyfile(snapshot.path, self.path)
        self.path.with_name(self.path.name + ".wal").unlink(missing_ok=True)
        if kept is not None:
            con = self.con
            con.begin()
            try:
                for table, rows in kept.items():
                    con.execute(f"DELETE FROM cfab_internal.{table}")
                    if rows:
                        marks = ", ".join("?" * len(rows[0]))
                        con.executemany(f"INSERT INTO cfab_internal.{table} VALUES ({marks})", [list(r) for r in rows])
                con.commit()
            except BaseException:
                con.rollback()
                raise
            self._seq = max(seq, self._seq)

    def _read_logs(self) -> dict[str, list[tuple]]:
        return {
            t: self.con.execute(f"SELECT * FROM cfab_internal.{t} ORDER BY seq").fetchall()
            for t in ("tool_log", "guard_log")
        }

    def digest(self) -> str:
        """Canonical content digest of the state (apps and book; not the logs)."""
        return content_digest(self.con)

    def state_diff(self, before: Snapshot | str | Path | None = None, full: bool = False) -> Any:
        """Diff against ``before`` (default: the state at open, i.e. the golden file)."""
        from cfab.grader import state_diff

        before_path = self.golden if before is None else Path(before.path if isinstance(before, Snapshot) else before)
        self._close_con()  # DuckDB opens a file once per process; the next use reopens it
        return state_diff(before_path, self.path, full=full)

    def _close_con(self) -> None:
        if self._con is not None:
            self._con.execute("CHECKPOINT")
            self._con.close()
            self._con = None


def _catalog_for(golden: Path, con: duckdb.DuckDBPyConnection) -> Catalog:
    key = str(golden)
    with _CATALOG_LOCK:
        cat = _CATALOGS.get(key)
        if cat is None:
            cat = Catalog.load(con)
            _CATALOGS[key] = cat
        return cat


def _aggregate(con: duckdb.DuckDBPyConnection, sql: str) -> Any:
    """The value of an aggregate query without GROUP BY (it returns exactly one row)."""
    row = con.execute(sql).fetchone()
    assert row is not None
    return row[0]


def _dumps(value: Any) -> str:
    """The canonical JSON of ``value``: ``jsonable`` only where the encoder needs it (a Decimal, a
    date, bytes), so a large result is encoded at C speed; the whole ``jsonable`` walk first only
    for what the encoder refuses outright (e.g. keys that do not sort together)."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), default=jsonable)
    except (TypeError, ValueError):
        return json.dumps(jsonable(value), sort_keys=True, separators=(",", ":"))


MAX_LOGGED_RESULT = 4 * MAX_ARGS_CHARS  # a result stored past this is stored truncated (with its sha256)
_MAX_LOGGED_ERROR = 64_000


def _log_json(value: dict[str, Any], limit: int = MAX_ARGS_CHARS) -> str:
    """What a log row stores for an agent's arguments: the canonical JSON, or past ``limit`` (or
    nested too deep to serialize) the truncated form with the full value's size and SHA-256. The
    size is bounded before anything is encoded: the arguments may be an attack."""
    try:
        check_arguments(value, max_chars=limit)
        return _dumps(value)
    except Oversize as exc:
        return _dumps(truncated(value, exc.reason))


def _log_result_json(value: dict[str, Any]) -> str:
    """What a log row stores for a tool's result: its canonical JSON, or past
    :data:`MAX_LOGGED_RESULT` the truncated form. A result is the app's own output, bounded by its
    tools (row limits, previews), so it is encoded at once and measured after."""
    text = _dumps(value)
    if len(text) <= MAX_LOGGED_RESULT:
        return text
    return _dumps(truncated(value, f"the result is larger than the {MAX_LOGGED_RESULT:,}-character limit"))


def _clip(text: str | None) -> str | None:
    if text is None or len(text) <= _MAX_LOGGED_ERROR:
        return text
    return text[:_MAX_LOGGED_ERROR] + f"...(+{len(text) - _MAX_LOGGED_ERROR:,} characters)"


def _validation_message(tool: str, exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "arguments"
        msg = err.get("msg", "invalid")
        if err.get("type") == "extra_forbidden":
            msg = "unknown argument"
        parts.append(f"{where}: {msg}")
    return f"invalid arguments for {tool}: " + "; ".join(parts)
