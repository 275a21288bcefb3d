"""An ASGI app served by uvicorn on a background thread, on a port the OS picks.

Used by :func:`cfab.runner.transports.client_wrapper` (the policy talks to the app over real
sockets while the environment stays in this process) and by ``runner serve`` (the main thread
waits for a signal while the server thread serves). The listening socket is bound before the
thread starts, so the port is known at once and never raced for.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
import time
from typing import Any

import uvicorn

LOOPBACK = "127.0.0.1"


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and ``localhost``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind_socket(host: str = LOOPBACK, port: int = 0) -> socket.socket:
    """A bound TCP socket (``port=0``: a free port chosen by the OS)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit this: without it uvicorn's two writes per response (head, body)
    # meet Nagle + delayed ACK and every request on a pre-bound socket costs ~40 ms.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class BackgroundServer:
    """Serve ``app`` with uvicorn on a daemon thread; :meth:`stop` shuts it down cleanly."""

    def __init__(self, app: Any, *, host: str = LOOPBACK, port: int = 0, log_level: str = "warning") -> None:
        self.app = app
        self.host = host
        self._sock = bind_socket(host, port)
        self.port: int = self._sock.getsockname()[1]
        config = uvicorn.Config(app, log_level=log_level, access_log=False, lifespan="on", timeout_graceful_shutdown=5)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name=f"uvicorn:{self.port}", daemon=True)
        # An Event, not Thread.join: a join interrupted by a signal (Ctrl-C, SIGTERM) can leave
        # the thread marked as stopped while uvicorn is still shutting down.
        self._done = threading.Event()
        self._error: BaseException | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def _run(self) -> None:
        try:
            self._server.run(sockets=[self._sock])
        except BaseException as exc:  # reported by start()
            self._error = exc
        finally:
            self._done.set()

    def start(self, timeout: float = 20.0) -> BackgroundServer:
        """Start serving; return once the app's lifespan has started (or raise)."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if self._done.is_set():
                raise RuntimeError(f"the server on {self.url} failed to start: {self._error!r}")
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"the server on {self.url} did not start within {timeout:.0f} s")
            time.sleep(0.005)
        return self

    def is_alive(self) -> bool:
        return self._thread.is_alive() and not self._done.is_set()

    def wait(self) -> None:
        """Block until the server ends (a signal in the caller still interrupts the wait)."""
        while not self._done.wait(0.2):
            pass

    def stop(self, timeout: float = 10.0) -> None:
        """Ask uvicorn to exit and wait for it, forcing the exit if it lingers."""
        self._server.should_exit = True
        if self._thread.ident is None:  # never started
            self._done.set()
        if self._thread.is_alive() and not self._done.wait(timeout):
            self._server.force_exit = True
            self._done.wait(timeout)
        if self._done.is_set():
            if self._thread.ident is not None:
                self._thread.join(1.0)
            with contextlib.suppress(OSError):
                self._sock.close()

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
