"""The MCP transport (official ``mcp`` SDK): a server over one :class:`ServedEnv`, and
:class:`McpEnv`, an EnvLike client over an SDK ``ClientSession``.

Server: every tool of the composed apps as an MCP tool (native name, its JSON schema and
description; read-only / destructive hints and ``_meta`` carrying the write flag and guard
kind). Serving a task adds the instruction as the prompt ``task`` and the resources
``cfab://task/instruction`` (text) and ``cfab://task`` (JSON), and a ``finish(summary)`` tool:
finishing — or the end of the session without it — grades the attempt and writes it to the
results folder. Results are returned as JSON text plus the same dict as structured content;
a tool's own errors set ``isError``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, suppress
from typing import Any

import anyio
import mcp_types as types
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.tool_name_validation import TOOL_NAME_REGEX

from cfab.runner.transports.remote import RemoteTool, RemoteTools, TransportError, decode_result
from cfab.runner.transports.session import AttemptFinished, FinishResult, ServedEnv

FINISH = "finish"
TASK_PROMPT = "task"
INSTRUCTION_URI = "cfab://task/instruction"
TASK_URI = "cfab://task"
META_PREFIX = "cfagentbench/"
FINISH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["summary"],
    "properties": {
        "summary": {
            "type": "string",
            "description": "Your final reply to the requester: what you did, what you found, "
            "what you staged for human approval.",
        }
    },
}


def finish_schema(answers_schema: dict[str, Any] | None) -> dict[str, Any]:
    """``finish``'s input schema: the summary, plus the task's typed answers when it asks for any."""
    if not answers_schema or not answers_schema.get("properties"):
        return FINISH_SCHEMA
    props = {
        **FINISH_SCHEMA["properties"],
        "answers": {
            **answers_schema,
            "description": "The report the task asks for, one field per answer; graded exactly.",
        },
    }
    return {**FINISH_SCHEMA, "properties": props, "required": ["summary", "answers"]}


def mcp_name(native: str) -> str:
    """The MCP tool name: the native name when the MCP charset allows it, else the sanitized one."""
    if TOOL_NAME_REGEX.fullmatch(native):
        return native
    from cfab.apps.tooling import sanitize_name

    return sanitize_name(native)


def _text_result(payload: dict[str, Any], *, error: bool) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(payload))], structured_content=payload, is_error=error
    )


def build_server(served: ServedEnv) -> Server:
    """An MCP server over ``served`` (add ``finish``, a prompt and resources when it hosts a task)."""
    task = served.task
    tools: list[types.Tool] = []
    for entry in served.tool_specs():
        fn, native = entry["function"], entry["x-native-name"]
        changes = bool(entry["x-writes"] or entry["x-guarded"])
        tools.append(
            types.Tool(
                name=mcp_name(native),
                description=fn["description"],
                input_schema=fn["parameters"],
                annotations=types.ToolAnnotations(read_only_hint=not changes, destructive_hint=changes),
                meta={
                    f"{META_PREFIX}native-name": native,
                    f"{META_PREFIX}writes": bool(entry["x-writes"]),
                    f"{META_PREFIX}guarded": entry["x-guarded"],
                },
            )
        )
    if task is not None:
        tools.append(
            types.Tool(
                name=FINISH,
                input_schema=finish_schema(task.answers_schema()),
                description=(
                    "Call once when you are done. Your summary is your final reply, graded together with the state "
                    "you leave and the answers you give; after finish no tool call counts."
                ),
            )
        )
    instruction = task.instruction if task is not None else None

    def remember_client(ctx: Any) -> None:
        if served.client is None:
            params = getattr(ctx.session, "client_params", None)
            info = getattr(params, "client_info", None)
            if info is not None:
                served.client = f"{info.name} {info.version}".strip()

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        remember_client(ctx)
        args = dict(params.arguments or {})
        try:
            if task is not None and params.name == FINISH:
                done = await anyio.to_thread.run_sync(
                    lambda: served.finish(str(args.get("summary", "")), args.get("answers"))
                )
                return _text_result(json.loads(done.grade.to_json()), error=False)
            result = await anyio.to_thread.run_sync(lambda: served.call(params.name, args))
        except AttemptFinished as exc:
            return _text_result({"ok": False, "error": str(exc), "error_type": "rejected"}, error=True)
        except Exception as exc:  # never a traceback or a dropped session: a clean tool error
            return _text_result(
                {
                    "ok": False,
                    "error": f"{params.name} failed ({type(exc).__name__}: {str(exc)[:500]})",
                    "error_type": "internal",
                },
                error=True,
            )
        return _text_result(result, error=not result.get("ok", False))

    handlers: dict[str, Any] = {"on_list_tools": list_tools, "on_call_tool": call_tool}
    if task is not None:

        async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
            return types.ListPromptsResult(
                prompts=[
                    types.Prompt(
                        name=TASK_PROMPT,
                        title=task.instance_id,
                        description=f"The task ({task.user_role}): its instruction",
                    )
                ]
            )

        async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
            if params.name != TASK_PROMPT:
                raise ValueError(f"unknown prompt {params.name!r}; prompts: {TASK_PROMPT}")
            return types.GetPromptResult(
                description=task.instance_id,
                messages=[
                    types.PromptMessage(role="user", content=types.TextContent(type="text", text=instruction or ""))
                ],
            )

        async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
            return types.ListResourcesResult(
                resources=[
                    types.Resource(
                        uri=INSTRUCTION_URI,
                        name="instruction",
                        mime_type="text/plain",
                        description="the task's instruction",
                    ),
                    types.Resource(
                        uri=TASK_URI,
                        name="task",
                        mime_type="application/json",
                        description="the task as the agent sees it (instruction, systems, role, policy)",
                    ),
                ]
            )

        async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
            uri = str(params.uri)
            if uri == INSTRUCTION_URI:
                text, mime = instruction or "", "text/plain"
            elif uri == TASK_URI:
                text, mime = json.dumps(served.task_view(), sort_keys=True), "application/json"
            else:
                raise ValueError(f"unknown resource {uri}; resources: {INSTRUCTION_URI}, {TASK_URI}")
            return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)])

        handlers.update(
            on_list_prompts=list_prompts,
            on_get_prompt=get_prompt,
            on_list_resources=list_resources,
            on_read_resource=read_resource,
        )
    header = (
        "CFAgentBench: the native tools of a construction company's apps. Guarded tools (payments, "
        "posting, e-filing, signing) are staged for human approval, never executed."
    )
    if task is not None and instruction:
        header += f"\n\nYour task ({task.user_role}):\n{instruction}\n\nCall `finish` with your summary when done."
    return Server("cfagentbench", version="1", instructions=header, **handlers)


async def serve_streams(served: ServedEnv, read: Any, write: Any) -> FinishResult | None:
    """Serve one MCP session over a pair of message streams; when it ends, grade the attempt if
    ``finish`` was not called (with an empty reply). Returns the graded attempt, if any."""
    server = build_server(served)
    await server.run(read, write, server.create_initialization_options())
    return await anyio.to_thread.run_sync(finish_at_end, served)


async def serve_stdio(served: ServedEnv) -> FinishResult | None:
    """Serve one session over stdin/stdout (``runner serve --transport mcp --stdio``).

    When the client hangs up without ``finish`` the attempt is graded before the process exits;
    SIGTERM is ignored meanwhile (the SDK's client sends one two seconds after closing stdin)."""
    server = build_server(served)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        return await anyio.to_thread.run_sync(finish_at_end, served)
    finally:
        signal.signal(signal.SIGTERM, previous)


def finish_at_end(served: ServedEnv) -> FinishResult | None:
    """Grade an unfinished task attempt with an empty reply (the session ended without finish)."""
    if served.task is None or served.finished is not None:
        return served.finished
    return served.finish("", stop_reason=None)


_TOOL_CALL = re.compile(rb'"method"\s*:\s*"tools/call"')
_TOOL_NAME = re.compile(rb'"name"\s*:\s*"((?:[^"\\]|\\.){1,200})"')


def http_app(served: ServedEnv, *, host: str = "127.0.0.1", json_response: bool = True) -> Any:
    """A Starlette app serving MCP over streamable HTTP at ``/mcp``, its request bodies limited
    (:mod:`.bodylimit`): a ``tools/call`` over the limit is logged under the tool name its first
    bytes give, and answered 413."""
    from starlette.concurrency import run_in_threadpool

    from cfab.runner.transports.bodylimit import MAX_BODY_BYTES, BodyLimit, body_summary

    async def refused(scope: dict[str, Any], preview: bytes, size: int, sha256: str, reason: str) -> Any:
        name = _TOOL_NAME.search(preview) if _TOOL_CALL.search(preview) else None
        if name is None:
            return None
        try:
            tool = json.loads(b'"' + name.group(1) + b'"')
        except ValueError:
            tool = name.group(1).decode("utf-8", "replace")
        try:
            return await run_in_threadpool(served.refuse, tool, body_summary(preview, size, sha256, reason), reason)
        except AttemptFinished:
            return None

    app = build_server(served).streamable_http_app(  # the SDK's own limit (4 MiB, unlogged) made ours
        host=host, json_response=json_response, session_idle_timeout=None, max_request_body_size=MAX_BODY_BYTES
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, on_refused=refused)
    return app


TransportFactory = Callable[[], AbstractAsyncContextManager[Any]]


class McpEnv:
    """An EnvLike over an MCP ``ClientSession`` that runs on its own event-loop thread.

    ``tool_specs()`` lists the server's tools as OpenAI function schemas (sanitized names,
    ``x-native-name``), without ``finish``; ``call`` maps a sanitized name back and decodes the
    result dict. ``finish(summary)`` grades when the server hosts a task.
    """

    def __init__(self, transport: TransportFactory, *, timeout: float = 120.0, owner: Any = None) -> None:
        self._factory = transport
        self.timeout = timeout
        self._owner = owner
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-client", daemon=True)
        self._thread.start()
        self._session: ClientSession | None = None
        self._stop: asyncio.Event | None = None
        self._tools: RemoteTools | None = None
        self._offers_finish = False
        ready: concurrent.futures.Future = concurrent.futures.Future()
        self._main = asyncio.run_coroutine_threadsafe(self._lifecycle(ready), self._loop)
        try:
            self.server_info = ready.result(timeout)
        except BaseException as exc:
            self.close()
            raise TransportError(f"could not open the MCP session: {type(exc).__name__}: {exc}") from exc

    @classmethod
    def over_http(cls, url: str, **kw: Any) -> McpEnv:
        """Connect to a streamable-HTTP MCP endpoint (``http://127.0.0.1:PORT/mcp``)."""
        return cls(lambda: streamable_http_client(url), **kw)

    @classmethod
    def over_stdio(
        cls, command: str, args: list[str], *, env: dict[str, str] | None = None, cwd: str | None = None, **kw: Any
    ) -> McpEnv:
        """Start ``command args`` (e.g. ``runner serve --transport mcp --stdio --task ID``) and talk
        stdio. The server inherits this process's environment (``CFAB_*``) plus ``env``."""
        params = StdioServerParameters(command=command, args=args, env={**os.environ, **(env or {})}, cwd=cwd)
        return cls(lambda: stdio_client(params), **kw)

    async def _lifecycle(self, ready: concurrent.futures.Future) -> None:
        self._stop = asyncio.Event()
        try:
            async with self._factory() as streams, ClientSession(streams[0], streams[1]) as session:
                init = await session.initialize()
                self._session = session
                ready.set_result(init.server_info)
                await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            elif not isinstance(exc, (asyncio.CancelledError, GeneratorExit)):
                print(f"mcp client: session ended with {type(exc).__name__}: {exc}", file=sys.stderr)
        finally:
            self._session = None

    def _run(self, coro: Any) -> Any:
        if self._session is None:
            coro.close()
            raise TransportError("the MCP session is closed")
        try:
            return asyncio.run_coroutine_threadsafe(coro, self._loop).result(self.timeout)
        except concurrent.futures.TimeoutError as exc:
            raise TransportError(f"no MCP answer within {self.timeout:.0f} s") from exc

    # ------------------------------------------------------------------ EnvLike
    def tool_specs(self) -> list[dict[str, Any]]:
        return self._remote().specs()

    def call(self, name: str, /, **args: Any) -> dict[str, Any]:
        """Call a tool by native or sanitized name; returns the environment's result dict."""
        session = self._session
        if session is None:
            raise TransportError("the MCP session is closed")
        native = self._remote().native(name)
        return _decode(self._run(session.call_tool(mcp_name(native), args)))

    # ------------------------------------------------------------------ like Environment
    @property
    def tools(self) -> dict[str, RemoteTool]:
        return self._remote().by_name

    def resolve(self, name: str) -> RemoteTool:
        return self._remote().resolve(name)

    # ------------------------------------------------------------------ task
    def instruction(self) -> str:
        """The task's instruction, from the ``task`` prompt."""
        assert self._session is not None
        result = self._run(self._session.get_prompt(TASK_PROMPT))
        return "\n".join(m.content.text for m in result.messages if isinstance(m.content, types.TextContent))

    def read_resource(self, uri: str) -> str:
        assert self._session is not None
        result = self._run(self._session.read_resource(uri))
        return "".join(getattr(c, "text", "") for c in result.contents)

    def finish(self, summary: str = "", answers: dict[str, Any] | None = None) -> dict[str, Any]:
        """Call ``finish``: returns the Grade as a dict (``Grade.model_validate`` it), or raises."""
        assert self._session is not None
        args: dict[str, Any] = {"summary": summary}
        if answers is not None:
            args["answers"] = answers
        result = self._run(self._session.call_tool(FINISH, args))
        payload = _decode(result)
        if result.is_error:
            raise TransportError(f"finish failed: {payload.get('error', payload)}")
        return payload

    def close(self) -> None:
        """End the session (the server grades an unfinished task), stop the loop and the server."""
        if self._stop is not None and self._loop.is_running():
            self._loop.call_soon_threadsafe(self._stop.set)
            with suppress(BaseException):
                self._main.result(15)
        if self._loop.is_running():
            self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        if not self._loop.is_running():
            self._loop.close()
        if self._owner is not None:
            owner, self._owner = self._owner, None
            owner.close()

    def __enter__(self) -> McpEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ plumbing
    def _remote(self) -> RemoteTools:
        if self._tools is None:
            assert self._session is not None
            listed: list[types.Tool] = []
            cursor: str | None = None
            while True:
                params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
                page = self._run(self._session.list_tools(params=params))
                listed.extend(page.tools)
                cursor = page.next_cursor
                if not cursor:
                    break
            tools = []
            for t in listed:
                if t.name == FINISH:
                    self._offers_finish = True
                    continue
                meta = t.meta or {}
                tools.append(
                    RemoteTool(
                        meta.get(f"{META_PREFIX}native-name") or t.name,
                        t.description or "",
                        dict(t.input_schema),
                        writes=bool(meta.get(f"{META_PREFIX}writes")),
                        guarded=meta.get(f"{META_PREFIX}guarded"),
                    )
                )
            self._tools = RemoteTools(tools)
        return self._tools


def _decode(result: types.CallToolResult) -> dict[str, Any]:
    if isinstance(result.structured_content, dict):
        return dict(result.structured_content)
    texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
    if not texts:
        return {"ok": False, "error": "the MCP tool returned no text content", "error_type": "internal"}
    return decode_result(texts[0])
