"""A request-body limit for the wire transports (an ASGI middleware), with the refused call logged.

Web frameworks read a request body whole before any handler sees it, so a 400 MB tool call
costs 400 MB (and its JSON parse several times that) before the environment's own argument
limits can refuse it. :class:`BodyLimit` reads the body in its chunks as they arrive: up to
``limit`` bytes it is buffered and handed on unchanged; past it the rest is only counted and
hashed (nothing more is kept than a short preview), ``on_refused`` is awaited with the preview,
size, SHA-256 and the reason (the transports log the refused call there, a guarded tool's in the guard log
too, so the attempt stays visible to the grader), and the client gets a 413 JSON error.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from cfab.apps.world.arguments import MAX_ARGS_CHARS, TRUNCATED_KEY

__all__ = ["MAX_BODY_BYTES", "BodyLimit", "body_summary"]

#: a body holds the arguments plus JSON framing and whitespace
MAX_BODY_BYTES = MAX_ARGS_CHARS + (4 << 20)
PREVIEW_BYTES = 4_096

OnRefused = Callable[[dict[str, Any], bytes, int, str, str], Awaitable[dict[str, Any] | None]]


def body_summary(preview: bytes, size: int, sha256: str, reason: str) -> dict[str, Any]:
    """What stands for the arguments of a refused body in the logs."""
    return {
        TRUNCATED_KEY: {
            "bytes": size,
            "sha256": sha256,
            "reason": reason,
            "body_preview": preview.decode("utf-8", "replace"),
        }
    }


class BodyLimit:
    """ASGI middleware: refuse request bodies over ``limit`` bytes with 413, after ``on_refused``."""

    def __init__(self, app: Any, *, limit: int = MAX_BODY_BYTES, on_refused: OnRefused | None = None) -> None:
        self.app = app
        self.limit = limit
        self.on_refused = on_refused

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        preview = bytearray()
        size, over, more = 0, False, True
        digest = hashlib.sha256()
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            more = bool(message.get("more_body", False))
            size += len(body)
            digest.update(body)
            if len(preview) < PREVIEW_BYTES:
                preview += body[: PREVIEW_BYTES - len(preview)]
            if not over:
                chunks.append(body)
                if size > self.limit:
                    over, chunks = True, []
        if over:
            reason = f"the request body is {size:,} bytes, more than the {self.limit:,}-byte limit"
            extra = None
            if self.on_refused is not None:
                extra = await self.on_refused(scope, bytes(preview), size, digest.hexdigest(), reason)
            payload = {"detail": f"{reason}; nothing was run (the call is logged)", **(extra or {})}
            await _send_json(send, 413, payload)
            return
        body = b"".join(chunks)
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _send_json(send: Any, status: int, payload: dict[str, Any]) -> None:
    data = json.dumps(payload).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})
