"""Transports: put HTTP or MCP between a policy and an Environment.

* :func:`client_wrapper` — for ``runner --transport http|mcp``: a callable ``(env) -> EnvLike``
  that serves ``env`` in this process on 127.0.0.1 (uvicorn on a background thread, a free
  port) and returns a client talking to it over real sockets. ``run_attempt`` still grades the
  environment itself, so a transport can change no grade.
* :mod:`.http` — the FastAPI app (:func:`~cfab.runner.transports.http.create_app`) and
  :class:`~cfab.runner.transports.http.HttpEnv`;
* :mod:`.mcp` — the MCP server (:func:`~cfab.runner.transports.mcp.build_server`) and
  :class:`~cfab.runner.transports.mcp.McpEnv`;
* :mod:`.session` — :class:`~cfab.runner.transports.session.ServedEnv`, shared by both;
* ``runner serve`` (:mod:`cfab.runner.cli.serve`) runs either as a standalone server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cfab.runner.transports.remote import RemoteTool, TransportError
from cfab.runner.transports.session import ServedEnv

TRANSPORTS = ("http", "mcp")


class _Served:
    """A background server and its ServedEnv, closed together (the env itself stays open)."""

    def __init__(self, server: Any, served: ServedEnv) -> None:
        self.server = server
        self.served = served

    def close(self) -> None:
        self.server.stop()


def serve_http_in_thread(env: Any) -> Any:
    """Serve ``env`` over HTTP on a free 127.0.0.1 port; return an :class:`HttpEnv` client."""
    from cfab.runner.transports.http import HttpEnv, create_app
    from cfab.runner.transports.threaded import BackgroundServer

    served = ServedEnv(env, transport="http")
    server = BackgroundServer(create_app(served)).start()
    return HttpEnv(server.url, owner=_Served(server, served))


def serve_mcp_in_thread(env: Any) -> Any:
    """Serve ``env`` over MCP (streamable HTTP) on a free 127.0.0.1 port; return an :class:`McpEnv`."""
    from cfab.runner.transports.mcp import McpEnv, http_app
    from cfab.runner.transports.threaded import BackgroundServer

    served = ServedEnv(env, transport="mcp")
    server = BackgroundServer(http_app(served)).start()
    owner = _Served(server, served)
    try:
        return McpEnv.over_http(f"{server.url}/mcp", owner=owner)
    except BaseException:
        owner.close()
        raise


def client_wrapper(name: str) -> Callable[[Any], Any]:
    """``(env) -> EnvLike`` for transport ``name`` ("http" or "mcp")."""
    if name == "http":
        return serve_http_in_thread
    if name == "mcp":
        return serve_mcp_in_thread
    raise ValueError(f"unknown transport {name!r}; transports: inprocess, {', '.join(TRANSPORTS)}")


__all__ = [
    "TRANSPORTS",
    "RemoteTool",
    "ServedEnv",
    "TransportError",
    "client_wrapper",
    "serve_http_in_thread",
    "serve_mcp_in_thread",
]
