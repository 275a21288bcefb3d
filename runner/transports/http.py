"""The HTTP transport: a FastAPI app over one :class:`ServedEnv`, and :class:`HttpEnv`, its client.

Endpoints (the paper's shim table, plus the task and grading):

======================  ==============================================================
``GET /``               app names, clock, tool names, task id
``GET /tools``          the tool specs (OpenAI function schemas + ``x-native-name``,
                        ``x-writes``, ``x-guarded``)
``POST /tools/{name}``  JSON object body → the tool result dict (200, also for the
                        tool's own errors); a guarded call returns the guard envelope;
                        unknown tool 404; invalid JSON 400; non-object body 422
``GET /snapshot``       take a snapshot → ``{snapshot_id, digest, seq}``
``POST /seed``          re-seed: the golden file's state (the logs are kept while an attempt
                        runs; after ``/finish`` a new attempt starts with empty logs)
``POST /reset``         ``{"snapshot_id"}`` → restore the state exactly; the tool and guard
                        logs are append-only and kept
``GET /state_diff``     the diff against the baseline (``?snapshot_id=`` for another)
``GET /guarded_calls``  the guard log (``executed`` always false)
``GET /task``           instruction, systems and the answers to give (when serving a task)
``POST /finish``        ``{"reply", "answers"}`` → grade; returns the Grade JSON, writes the results
                        (a held-out task's grade is redacted: the verdict, no checks)
======================  ==============================================================

Serving a suite (``runner serve --suite NAME``, :class:`~.suite.ServedSuite`) adds:

======================  ==============================================================
``GET /tasks``          every task as the agent sees it (instruction, systems, answers)
``POST /start``         ``{"task": ID}`` → open a fresh environment on that task; the
                        endpoints above then act on it
``GET /scores``         pass^1 over the tasks finished so far, per task attempts/passes
======================  ==============================================================

OpenAPI docs are at ``/docs``. One request at a time touches the environment (the session lock).
Every error is JSON with a ``detail``: a body over the size limit is 413 (a refused tool call is
still logged, see :mod:`.bodylimit`), a body nested too deep to parse is 400.
"""

from __future__ import annotations

import json
from typing import Annotated, Any
from urllib.parse import quote

import httpx
from fastapi import Body, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from cfab.grader import Grade, GuardedCall, StateDiff
from cfab.runner.transports.bodylimit import BodyLimit, body_summary
from cfab.runner.transports.remote import RemoteTool, RemoteTools, TransportError
from cfab.runner.transports.session import (
    GUARDED_KEY,
    NATIVE_KEY,
    WRITES_KEY,
    AttemptFinished,
    FinishRequest,
    Health,
    NoTask,
    ResetRequest,
    ServedEnv,
    SnapshotInfo,
)
from cfab.runner.transports.suite import ServedSuite, StartRequest, SuiteScores, redacted

_ARGS_BODY = {
    "requestBody": {
        "required": False,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "description": "the tool's arguments (see GET /tools for each tool's schema)",
                }
            }
        },
    }
}


def create_app(served: ServedEnv | ServedSuite) -> FastAPI:
    """The FastAPI app serving ``served`` (one environment, or a suite of tasks one at a time)."""
    app = FastAPI(
        title="CFAgentBench environment",
        description="The native tools of a construction company's apps over one DuckDB book. "
        "Guarded tools (money movement, posting, e-filing, signing) are recorded, "
        "never executed.",
        version="1",
    )
    app.state.served = served

    async def refused(scope: dict[str, Any], preview: bytes, size: int, sha256: str, reason: str) -> Any:
        path = scope.get("path", "")
        if scope.get("method") != "POST" or not path.startswith("/tools/"):
            return None
        summary = body_summary(preview, size, sha256, reason)
        try:
            return await run_in_threadpool(served.refuse, path[len("/tools/") :], summary, reason)
        except (AttemptFinished, NoTask):
            return None

    app.add_middleware(BodyLimit, on_refused=refused)

    @app.exception_handler(NoTask)
    async def no_task(request: Request, exc: NoTask) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=409)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": f"internal error ({type(exc).__name__}): {str(exc)[:500]}"}, status_code=500)

    @app.get("/", response_model=Health, summary="health: app names, clock, tool names")
    def health() -> Health:
        return served.health()

    @app.get("/tools", summary="the tool specs (OpenAI function schemas with native names)")
    def tools() -> list[dict[str, Any]]:
        return served.tool_specs()

    @app.post(
        "/tools/{name:path}",
        summary="call one tool; the body is a JSON object of its arguments",
        openapi_extra=_ARGS_BODY,
    )
    async def call_tool(name: str, request: Request) -> Response:
        raw = await request.body()
        if raw.strip():
            try:
                args = json.loads(raw)
            except ValueError as exc:
                raise HTTPException(
                    400,
                    f"the request body is not valid JSON ({exc}); send a JSON object "
                    'of the tool\'s arguments, e.g. {"vendor_id": "20147"}',
                ) from None
            except RecursionError:
                raise HTTPException(
                    400, "the request body nests too deeply to parse; tool arguments nest a few levels at most"
                ) from None
        else:
            args = {}
        if not isinstance(args, dict):
            raise HTTPException(
                422, f"the request body must be a JSON object of the tool's arguments, got a JSON {type(args).__name__}"
            )
        known = served.has_tool(name)
        try:
            result = await run_in_threadpool(served.call, name, args)
        except AttemptFinished as exc:
            raise HTTPException(409, str(exc)) from None
        return JSONResponse(result, status_code=200 if known else 404)

    @app.get("/snapshot", response_model=SnapshotInfo, summary="take a snapshot (restore it with POST /reset)")
    def snapshot() -> SnapshotInfo:
        return served.snapshot()

    @app.post("/seed", response_model=Health, summary="re-seed: a fresh copy of the golden file")
    def seed() -> Health:
        return served.seed()

    @app.post("/reset", response_model=SnapshotInfo, summary="restore a snapshot exactly")
    def reset(body: ResetRequest) -> SnapshotInfo:
        try:
            return served.reset(body.snapshot_id)
        except KeyError as exc:
            raise HTTPException(404, exc.args[0]) from None

    @app.get("/state_diff", summary="the state diff against the baseline (or ?snapshot_id=)")
    def state_diff(snapshot_id: str | None = None, full: bool = False) -> Response:
        try:
            diff = served.state_diff(snapshot_id, full=full)
        except KeyError as exc:
            raise HTTPException(404, exc.args[0]) from None
        return Response(diff.to_json(), media_type="application/json")

    @app.get("/guarded_calls", response_model=list[GuardedCall], summary="the guard log (never executed)")
    def guarded_calls() -> list[GuardedCall]:
        return served.guarded_calls()

    @app.get("/task", summary="the task as the agent sees it (instruction, systems, role, policy)")
    def task() -> dict[str, Any]:
        try:
            return served.task_view()
        except NoTask as exc:
            raise HTTPException(404, str(exc)) from None

    @app.post("/finish", summary="grade the attempt with this reply; returns the Grade JSON")
    def finish(body: Annotated[FinishRequest | None, Body()] = None) -> Response:
        try:
            done = served.finish(body.reply if body is not None else "", body.answers if body is not None else None)
        except (NoTask, AttemptFinished) as exc:
            raise HTTPException(409, str(exc)) from None
        headers = {"X-Cfab-Attempt": str(done.attempt)}
        task = served.task
        if task is not None and task.partition == "held_out":
            return Response(redacted(done.grade).to_json(), media_type="application/json", headers=headers)
        headers["X-Cfab-Results"] = done.files["record"]
        return Response(done.grade.to_json(), media_type="application/json", headers=headers)

    if isinstance(served, ServedSuite):
        _suite_routes(app, served)
    return app


def _suite_routes(app: FastAPI, suite: ServedSuite) -> None:
    @app.get("/tasks", summary="every task of the served suite as the agent sees it")
    def tasks() -> list[dict[str, Any]]:
        return suite.task_list()

    @app.post("/start", response_model=Health, summary="open a fresh environment on one task of the suite")
    def start(body: StartRequest) -> Health:
        try:
            return suite.start(body.task)
        except KeyError as exc:
            raise HTTPException(404, exc.args[0]) from None

    @app.get("/scores", response_model=SuiteScores, summary="pass^1 over the tasks finished so far")
    def scores() -> SuiteScores:
        return suite.scores()


class HttpEnv:
    """An environment over HTTP: implements EnvLike (``tool_specs``, ``call``), ``tools`` and
    ``resolve`` like the in-process Environment, and the contract endpoints as methods."""

    def __init__(self, base_url: str, *, timeout: float = 120.0, owner: Any = None) -> None:
        self.base_url = base_url.rstrip("/")
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout)
        self._owner = owner  # closed with this client (the in-process server of client_wrapper)
        self._tools: RemoteTools | None = None

    # ------------------------------------------------------------------ EnvLike
    def tool_specs(self) -> list[dict[str, Any]]:
        """The tool specs as the server lists them (``x-native-name`` carries the native name)."""
        return [dict(s) for s in self._fetch_specs()]

    def call(self, name: str, /, **args: Any) -> dict[str, Any]:
        """POST /tools/{name}; a tool's own errors come back as ``{"ok": false, ...}``."""
        resp = self._request("POST", f"/tools/{quote(name, safe='')}", json=args)
        if resp.status_code in (200, 404, 413):  # 413: a body over the limit, refused and logged
            body = resp.json()
            if isinstance(body, dict) and "ok" in body:
                return body
        raise TransportError(f"POST /tools/{name}: HTTP {resp.status_code}: {_detail(resp)}")

    # ------------------------------------------------------------------ like Environment
    @property
    def tools(self) -> dict[str, RemoteTool]:
        return self._remote().by_name

    def resolve(self, name: str) -> RemoteTool:
        return self._remote().resolve(name)

    # ------------------------------------------------------------------ contract
    def health(self) -> Health:
        return Health.model_validate(self._json("GET", "/"))

    def snapshot(self) -> SnapshotInfo:
        return SnapshotInfo.model_validate(self._json("GET", "/snapshot"))

    def seed(self) -> Health:
        return Health.model_validate(self._json("POST", "/seed"))

    def reset(self, snapshot_id: str) -> SnapshotInfo:
        return SnapshotInfo.model_validate(self._json("POST", "/reset", json={"snapshot_id": snapshot_id}))

    def state_diff(self, snapshot_id: str | None = None) -> StateDiff:
        params = {"snapshot_id": snapshot_id} if snapshot_id else None
        return StateDiff.from_json(self._ok("GET", "/state_diff", params=params).content)

    def guarded_calls(self) -> list[GuardedCall]:
        return [GuardedCall.model_validate(g) for g in self._json("GET", "/guarded_calls")]

    def task(self) -> dict[str, Any]:
        return self._json("GET", "/task")

    def finish(self, reply: str = "", answers: dict[str, Any] | None = None) -> Grade:
        body: dict[str, Any] = {"reply": reply}
        if answers is not None:
            body["answers"] = answers
        return Grade.from_json(self._ok("POST", "/finish", json=body).content)

    # ------------------------------------------------------------------ a served suite
    def suite_tasks(self) -> list[dict[str, Any]]:
        """``GET /tasks``: the served suite's tasks as the agent sees them."""
        return self._json("GET", "/tasks")

    def start(self, task: str) -> Health:
        """``POST /start``: work ``task`` next (a fresh environment; the tool list changes)."""
        self._tools = None
        return Health.model_validate(self._json("POST", "/start", json={"task": task}))

    def scores(self) -> dict[str, Any]:
        return self._json("GET", "/scores")

    def close(self) -> None:
        self._http.close()
        if self._owner is not None:
            owner, self._owner = self._owner, None
            owner.close()

    def __enter__(self) -> HttpEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ plumbing
    def _fetch_specs(self) -> list[dict[str, Any]]:
        return self._json("GET", "/tools")

    def _remote(self) -> RemoteTools:
        if self._tools is None:
            tools = []
            for s in self._fetch_specs():
                fn = s["function"]
                tools.append(
                    RemoteTool(
                        s.get(NATIVE_KEY) or fn["name"],
                        fn.get("description", ""),
                        fn.get("parameters") or {},
                        writes=bool(s.get(WRITES_KEY)),
                        guarded=s.get(GUARDED_KEY),
                    )
                )
            self._tools = RemoteTools(tools)
        return self._tools

    def _request(self, method: str, path: str, **kw: Any) -> httpx.Response:
        try:
            return self._http.request(method, path, **kw)
        except httpx.HTTPError as exc:
            raise TransportError(f"{method} {self.base_url}{path}: {type(exc).__name__}: {exc}") from exc

    def _ok(self, method: str, path: str, **kw: Any) -> httpx.Response:
        resp = self._request(method, path, **kw)
        if resp.status_code >= 400:
            raise TransportError(f"{method} {path}: HTTP {resp.status_code}: {_detail(resp)}")
        return resp

    def _json(self, method: str, path: str, **kw: Any) -> Any:
        return self._ok(method, path, **kw).json()


def _detail(resp: httpx.Response) -> str:
    try:
        body = resp.json()
    except ValueError:
        return resp.text[:300]
    return str(body.get("detail", body)) if isinstance(body, dict) else str(body)[:300]
