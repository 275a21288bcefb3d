"""A scripted, OpenAI-compatible Chat Completions server on 127.0.0.1 (a real HTTP server
in a thread) and a fake environment, for end-to-end tests of the LLM policy."""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def completion(
    content: str | None = None, calls: list[tuple[str, Any]] | None = None, usage: tuple[int, int] | None = (1000, 50)
) -> dict[str, Any]:
    """A chat.completion body; ``calls`` are (name, arguments dict or raw string)."""
    msg: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        msg["tool_calls"] = [
            {
                "id": f"call_{i}",
                "type": "function",
                "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)},
            }
            for i, (name, args) in enumerate(calls)
        ]
    body: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": "test-model",
        "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls" if calls else "stop"}],
    }
    if usage is not None:
        body["usage"] = {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": usage[0] + usage[1]}
    return body


def error(status: int, message: str = "boom") -> tuple[int, dict[str, Any]]:
    return status, {"error": {"message": message, "type": "server_error", "code": status}}


class FakeOpenAI:
    """Serves scripted responses in order; once the script runs out, repeats ``default``."""

    def __init__(self) -> None:
        self.script: deque[Any] = deque()
        self.default: Any = None
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                with outer._lock:
                    outer.requests.append(body)
                    outer.headers.append({k.lower(): v for k, v in self.headers.items()})
                    item = outer.script.popleft() if outer.script else outer.default
                if callable(item):
                    item = item(body)
                status, payload = item if isinstance(item, tuple) else (200, item)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# ------------------------------------------------------------------ fake env and task


NATIVE = ["procore.commitments.list", "procore.commitments.get", "vista.jobs.update_estimate"]


def sanitized(native: str) -> str:
    return native.replace(".", "__")


@dataclass
class FakeTool:
    name: str


@dataclass
class FakeEnv:
    """Three tools; ``commitments.list`` returns 143 rows (long enough to be truncated)."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def tool_specs(self) -> list[dict[str, Any]]:
        params = {
            "type": "object",
            "properties": {"project_number": {"type": "string"}, "commitment_id": {"type": "string"}},
        }
        return [
            {"type": "function", "function": {"name": sanitized(n), "description": f"{n} tool", "parameters": params}}
            for n in NATIVE
        ]

    def resolve(self, name: str) -> FakeTool:
        for n in NATIVE:
            if name in (n, sanitized(n)):
                return FakeTool(n)
        raise KeyError(name)

    def call(self, name: str, /, **args: Any) -> dict[str, Any]:
        self.calls.append((name, args))
        native = self.resolve(name).name
        if native == "procore.commitments.list":
            rows = [{"id": f"SC-1042-{i}", "vendor": "Walsh Electrical", "amount": "632000.00"} for i in range(143)]
            return {"ok": True, "data": {"commitments": rows, "count": 143}}
        if native == "procore.commitments.get":
            return {"ok": True, "data": {"id": args.get("commitment_id"), "amount": "632000.00"}}
        return {"ok": False, "error": "job 1042 is locked", "error_type": "rejected"}


@dataclass
class FakeTask:
    instance_id: str = "cf_E_accrual_3100"
    instruction: str = "Accrue uninvoiced subcontract work on job 3100; do not post."
    systems: list[str] = field(default_factory=lambda: ["procore", "vista_erp"])
    domain: str = "GL & Close"
    family: str = "E_accrual"
    difficulty: int = 3
    money_movement_guard: bool = True
    policy_ref: str | None = "POL-CLOSE-01 Month-end close"
