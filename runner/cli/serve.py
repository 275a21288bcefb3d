"""``runner serve``: host one environment over HTTP or MCP, so any agent can be evaluated on a
task without this harness.

    runner serve --transport http [--apps A,B | --task ID | --task-file PATH] [--port P] [--host H]
    runner serve --transport mcp  [--stdio | --port P] --task ID [--out DIR]
    runner serve --transport http --suite held_out [--tasks PATTERNS] [--out DIR]

HTTP serves the contract endpoints (``GET /docs`` lists them); with a task, ``POST /finish``
grades. MCP serves the task's tools, its instruction (prompt ``task``, resource
``cfab://task/instruction``) and ``finish(summary)``; the attempt is graded on finish, or when
the session ends (stdio) or the server stops (HTTP) without it. Grades are printed to stderr
and written to ``--out`` (default ``runs/<transport>/<task id>/``): ``attempts.jsonl`` (one
AttemptRecord per attempt), ``attempt-<n>.json``, ``attempt-<n>.grade.json`` and
``attempt-<n>.diff.json``. The server binds 127.0.0.1 unless ``--host`` says otherwise.

With ``--suite`` and no task, the server hosts the whole suite (HTTP): ``GET /tasks``, ``POST
/start {"task": ID}``, then the endpoints above on that task, ``GET /scores`` (see
:mod:`cfab.runner.transports.suite`); results go to ``--out`` (default ``runs/serve/<suite>/``),
one folder per task. A held-out task's grade reaches the client redacted (docs/held-out.md).
"""

from __future__ import annotations

import argparse
import difflib
import signal
import sys
from pathlib import Path
from typing import Any

from cfab.apps.world.limits import add_memory_cap, cap_memory, restore_memory
from cfab.runner.cli.options import add_inputs, inputs_from
from cfab.runner.cli.registry import subcommand

DEFAULT_PORTS = {"http": 8000, "mcp": 8001}


def _say(message: str) -> None:
    print(f"runner serve: {message}", file=sys.stderr, flush=True)


def load_task(args: argparse.Namespace, inputs: Any) -> Any:
    """The task named by ``--task`` (in ``--task-file`` if given, else in ``--suite``), or None."""
    from cfab.tasks.model import Task
    from cfab.tasks.suite import SUITE_HEADER, parse_suite

    if args.task_file:
        path = Path(args.task_file)
        if not path.is_file():
            raise SystemExit(f"runner serve: no such task file: {path}")
        text = path.read_text(encoding="utf-8")
        first = text.lstrip().splitlines()[0] if text.strip() else ""
        if SUITE_HEADER in first:
            tasks = parse_suite(text, str(path))[1]
        else:
            try:
                tasks = [Task.model_validate_json(text)]
            except ValueError as exc:
                raise SystemExit(f"runner serve: {path} is neither a task JSON nor a suite file: {exc}") from None
        if not args.task:
            if len(tasks) != 1:
                raise SystemExit(f"runner serve: {path} holds {len(tasks)} tasks; pick one with --task ID")
            return tasks[0]
    elif args.task:
        tasks = _suite_tasks(args.suite or "executable", inputs)[1]
    else:
        return None
    by_id = {t.instance_id: t for t in tasks}
    if args.task not in by_id:
        close = difflib.get_close_matches(args.task, list(by_id), n=3)
        hint = f"; did you mean {', '.join(close)}" if close else f" ({len(by_id)} tasks)"
        raise SystemExit(f"runner serve: no task {args.task!r}{hint}")
    return by_id[args.task]


def _suite_tasks(name: str, inputs: Any) -> tuple[Any, list[Any]]:
    """(inputs, tasks) of ``--suite``: a suite name at ``inputs``, or a compiled suite file at its
    header's world."""
    from cfab.tasks.suite import SUITES, is_suite_file, load_suite, load_suite_file

    if is_suite_file(name):
        try:
            sf = load_suite_file(name)
        except ValueError as exc:
            raise SystemExit(f"runner serve: {exc}") from None
        return sf.inputs, sf.tasks
    if name not in SUITES:
        raise SystemExit(f"runner serve: unknown suite {name!r}; suites: {', '.join(SUITES)} or a .jsonl file")
    return inputs, load_suite(name, inputs)


def _golden(args: argparse.Namespace, inputs: Any, apps: list[str]) -> Path:
    import duckdb

    from cfab.apps.world.golden import ensure_golden

    if args.db:
        path = Path(args.db)
        if not path.is_file():
            raise SystemExit(f"runner serve: no such book file: {path}")
    else:
        path = ensure_golden(inputs)
    con = duckdb.connect(str(path), read_only=True)
    try:
        row = con.execute("SELECT value FROM cfab_internal.meta WHERE key = 'apps'").fetchone()
    finally:
        con.close()
    built = set((row[0] if row else "").split(",")) if row and row[0] else None
    missing = [a for a in apps if built is not None and a not in built]
    if missing:
        raise SystemExit(f"runner serve: {path} was built without {', '.join(missing)}")
    return path


def _print_grade(done: Any) -> None:
    _say(f"graded {done.task} attempt {done.attempt}: {done.grade}")
    _say(f"results {done.files['record']} (diff {done.files['diff']})")


def _prewarm(transport: str) -> None:
    """Import the transport's modules on a thread while the main thread opens the environment
    (the MCP SDK takes seconds to import; DuckDB releases the GIL while it loads the catalog)."""
    import importlib
    import threading

    module = f"cfab.runner.transports.{transport}"
    threading.Thread(target=importlib.import_module, args=(module,), name="prewarm", daemon=True).start()


def _stop_on_sigterm() -> None:
    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


@subcommand("serve", "serve one environment over HTTP or MCP (any agent can be evaluated on a task)")
def _serve(parser: argparse.ArgumentParser):
    parser.add_argument("--transport", choices=["http", "mcp"], required=True)
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--apps", default=None, help="comma-separated apps to serve (no task, no grading)")
    parser.add_argument("--task", default=None, help="a task id (from --suite, or from --task-file)")
    what.add_argument("--task-file", default=None, help="a task JSON file (or a suite .jsonl; pick with --task)")
    parser.add_argument(
        "--suite",
        default=None,
        help="the suite --task is looked up in (default executable); alone: serve the whole suite (HTTP)",
    )
    parser.add_argument("--tasks", default=None, help="with --suite alone: only these ids/families (globs)")
    parser.add_argument("--stdio", action="store_true", help="MCP over stdin/stdout (one session)")
    parser.add_argument("--host", default=None, help="bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port (default 8000 http, 8001 mcp; 0 picks a free one)")
    parser.add_argument("--db", default=None, help="the golden book file (default: built for the inputs)")
    parser.add_argument("--out", default=None, help="results folder (default runs/<transport>/<task id>)")
    parser.add_argument("--sql-write", action="store_true", help="with --apps: offer writes through sql.execute")
    parser.add_argument("--log-level", default="warning", help="uvicorn log level")
    add_memory_cap(parser)
    add_inputs(parser)

    def run(args: argparse.Namespace) -> int:
        _prewarm(args.transport)
        if args.stdio and args.transport != "mcp":
            raise SystemExit("runner serve: --stdio is for --transport mcp")
        if args.stdio and args.port is not None:
            raise SystemExit("runner serve: --stdio and --port exclude each other")
        if args.apps and args.task:
            raise SystemExit("runner serve: give --apps or --task, not both")
        host = args.host or "127.0.0.1"
        from cfab.runner.transports.threaded import is_loopback

        if args.host is not None and not is_loopback(host):
            _say(f"WARNING: binding {host}: anyone who can reach this address can drive the environment")
        inputs = inputs_from(args)
        if args.suite and not (args.task or args.task_file or args.apps):
            return _serve_suite(args, inputs, host)
        task = load_task(args, inputs)
        if task is None and not args.apps:
            raise SystemExit("runner serve: say what to serve: --task ID, --task-file PATH or --apps A,B")
        apps = list(task.systems) if task is not None else [a.strip() for a in args.apps.split(",") if a.strip()]
        golden = _golden(args, inputs, apps)
        cap = cap_memory(args.memory_cap)  # after any build: only the served attempt runs under the cap
        from cfab.apps.world.environment import Environment
        from cfab.runner.transports.session import ServedEnv

        try:
            env = Environment.open(
                apps=apps,
                inputs=inputs,
                golden=golden,
                sql_write=task.sql_write if task is not None else args.sql_write,
            )
        except KeyError as exc:
            raise SystemExit(f"runner serve: {exc.args[0]}") from None
        served = ServedEnv(
            env, task=task, out=args.out, transport=args.transport, owns_env=True, on_finish=_print_grade
        )
        label = f"task {task.instance_id}" if task is not None else f"apps {', '.join(apps)}"
        try:
            if args.stdio:
                return _serve_stdio(served, label)
            return _serve_http(served, args, host, label)
        finally:
            served.close()
            restore_memory(cap)

    return run


def _serve_suite(args: argparse.Namespace, inputs: Any, host: str) -> int:
    """``--suite`` alone: every task of the suite behind one HTTP server, one at a time."""
    from cfab.tasks.suite import select_tasks

    if args.transport != "http":
        raise SystemExit("runner serve: a whole suite is served over --transport http (MCP serves one task)")
    inputs, tasks = _suite_tasks(args.suite, inputs)
    tasks = select_tasks(tasks, args.tasks)
    if not tasks:
        raise SystemExit(f"runner serve: no task of {args.suite} matches --tasks {args.tasks!r}")
    apps = sorted({a for t in tasks for a in t.systems})
    golden = _golden(args, inputs, apps)
    cap = cap_memory(args.memory_cap)
    from cfab.runner.transports.suite import ServedSuite

    name = Path(args.suite).stem if args.suite.endswith(".jsonl") else args.suite
    out = Path(args.out) if args.out else Path("runs") / "serve" / name
    served = ServedSuite(tasks, name=name, inputs=inputs, golden=golden, out=out, on_finish=_print_grade)
    held = sum(t.partition == "held_out" for t in tasks)
    label = f"suite {name} ({len(tasks)} tasks{f', {held} held out: grades redacted' if held else ''})"
    try:
        return _serve_http(served, args, host, label, tools=0)
    finally:
        served.close()
        restore_memory(cap)


def _serve_stdio(served: Any, label: str) -> int:
    import anyio

    from cfab.runner.transports.mcp import serve_stdio

    _say(f"mcp over stdio: {label} ({len(served.env.tools)} tools)")
    try:
        anyio.run(serve_stdio, served)
    except KeyboardInterrupt:
        from cfab.runner.transports.mcp import finish_at_end

        finish_at_end(served)
    if served.task is None:
        _say("session ended (no task: nothing graded)")
    return 0


def _serve_http(served: Any, args: argparse.Namespace, host: str, label: str, tools: int | None = None) -> int:
    from cfab.runner.transports.threaded import BackgroundServer

    port = DEFAULT_PORTS[args.transport] if args.port is None else args.port
    if args.transport == "http":
        from cfab.runner.transports.http import create_app

        app, path = create_app(served), ""
    else:
        from cfab.runner.transports.mcp import http_app

        app, path = http_app(served, host=host), "/mcp"
    try:
        server = BackgroundServer(app, host=host, port=port, log_level=args.log_level)
    except OSError as exc:
        raise SystemExit(f"runner serve: cannot bind {host}:{port}: {exc.strerror or exc}") from None
    _stop_on_sigterm()
    server.start()
    docs = f" (docs {server.url}/docs)" if args.transport == "http" else ""
    print(f"url {server.url}{path}", flush=True)
    count = len(served.env.tools) if tools is None else tools
    what = f"{label} ({count} tools)" if tools is None else label
    _say(f"{args.transport} on {server.url}{path}{docs}: {what}; Ctrl-C stops")
    try:
        server.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    if args.transport == "mcp":
        from cfab.runner.transports.mcp import finish_at_end

        finish_at_end(served)
    _say("stopped")
    return 0
