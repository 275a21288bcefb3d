"""Per-call overhead of each transport (not a test; run it by hand):

    python tests/transports/bench_transport_overhead.py [GOLDEN] [--calls 300]

Two measurements, each interleaving the transports call by call (so machine load hits them
alike) and reporting medians:

* a no-op tool on a stub environment, in-process vs HTTP vs MCP (streamable HTTP), both set
  up as ``client_wrapper`` does: the pure transport cost;
* a cheap real read tool (``vista_erp.gl.periods``) in-process, over HTTP, over MCP, and over
  MCP stdio to a ``runner serve`` subprocess.

Without GOLDEN it builds one over hh2 + vista_erp in a temporary folder.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from cfab.apps.tooling import NoArgs, ToolSpec

TOOL, ARGS = "vista_erp.gl.periods", {"status": "open"}


class StubEnv:
    """The Environment surface ServedEnv uses, with one tool that does nothing."""

    app_names = ("stub",)
    clock = date(2026, 1, 31)
    golden = Path("/dev/null")

    def __init__(self) -> None:
        spec = ToolSpec("stub.echo", "stub", "echo", "echo", NoArgs, "Return ok.", False, None)
        self.tools = {spec.name: spec}

    def tool_specs(self) -> list[dict[str, Any]]:
        return [s.openai_spec() for s in self.tools.values()]

    def resolve(self, name: str) -> ToolSpec:
        return self.tools[name]

    def call(self, name: str, /, **args: Any) -> dict[str, Any]:
        return {"ok": True, "data": {"echo": args}}


def interleaved(calls: dict[str, Callable[[], Any]], n: int) -> dict[str, float]:
    """Median milliseconds per call of each callable, called round-robin ``n`` times."""
    times: dict[str, list[float]] = {k: [] for k in calls}
    for i in range(n + 10):
        for label, call in calls.items():
            t = time.perf_counter()
            result = call()
            dt = time.perf_counter() - t
            assert result.get("ok"), result
            if i >= 10:  # warm-up
                times[label].append(dt)
    return {k: statistics.median(v) * 1000 for k, v in times.items()}


def report(title: str, medians: dict[str, float]) -> None:
    base = medians["in-process"]
    print(title)
    for label, ms in medians.items():
        extra = "" if label == "in-process" else f"   overhead {ms - base:+.2f} ms"
        print(f"  {label:<24} {ms:8.3f} ms{extra}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("golden", nargs="?", default=None)
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    from cfab.apps.world.environment import Environment
    from cfab.runner.transports import client_wrapper
    from cfab.runner.transports.mcp import McpEnv
    from cfab.seeds.determinism import BuildInputs

    stub = StubEnv()
    http, mcp = client_wrapper("http")(stub), client_wrapper("mcp")(stub)
    try:
        report(
            f"no-op tool x {args.calls} calls, median per call",
            interleaved(
                {
                    "in-process": lambda: stub.call("stub.echo"),
                    "http": lambda: http.call("stub.echo"),
                    "mcp (streamable http)": lambda: mcp.call("stub.echo"),
                },
                args.calls,
            ),
        )
    finally:
        http.close()
        mcp.close()

    golden = Path(args.golden) if args.golden else None
    if golden is None:
        from cfab.apps.world.golden import build_golden

        golden = Path(tempfile.mkdtemp(prefix="cfab-bench-")) / "golden.duckdb"
        build_golden(BuildInputs(), golden, apps=["hh2", "vista_erp"])
    with (
        Environment.open(apps=["hh2", "vista_erp"], golden=golden, inputs=BuildInputs()) as env,
        tempfile.TemporaryDirectory() as out,
    ):
        http, mcp = client_wrapper("http")(env), client_wrapper("mcp")(env)
        stdio = McpEnv.over_stdio(
            sys.executable,
            [
                "-m",
                "cfab.runner",
                "serve",
                "--transport",
                "mcp",
                "--stdio",
                "--apps",
                "hh2,vista_erp",
                "--db",
                str(golden),
                "--out",
                out,
            ],
        )
        try:
            report(
                f"{TOOL} x {args.calls} calls, median per call",
                interleaved(
                    {
                        "in-process": lambda: env.call(TOOL, **ARGS),
                        "http": lambda: http.call(TOOL, **ARGS),
                        "mcp (streamable http)": lambda: mcp.call(TOOL, **ARGS),
                        "mcp (stdio subprocess)": lambda: stdio.call(TOOL, **ARGS),
                    },
                    args.calls,
                ),
            )
        finally:
            for client in (http, mcp, stdio):
                client.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
