"""Typed answers through every finish path: in-process, HTTP ``/finish`` and MCP ``finish``.

The right answer passes, a lookalike id fails, no answers fail, and answers of the wrong shape
are graded as failed checks (never a server error); the agent's view lists the answers and
their JSON Schema without the expected values.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import ClientSession
from mcp.shared.memory import create_client_server_memory_streams

from cfab.apps.world.environment import Environment
from cfab.grader import Grade
from cfab.runner.transports.http import create_app
from cfab.runner.transports.mcp import serve_streams
from cfab.runner.transports.session import ServedEnv
from cfab.seeds.determinism import BuildInputs
from tests.transports.transport_tasks import read_keys

CASES = [
    ("right", "ok"),
    ("right-formatted", "ok"),
    ("lookalike", "fail"),
    ("missing", "fail"),
    ("not-an-object", "fail"),
    ("nested", "fail"),
]


def _answers(case: str, keys: Any) -> Any:
    return {
        "right": {"vista_vendor_id": keys.other},
        "right-formatted": {"vista_vendor_id": f" {int(keys.other):,} "},
        "lookalike": {"vista_vendor_id": keys.walsh},
        "missing": None,
        "not-an-object": [keys.other],
        "nested": {"vista_vendor_id": {"id": keys.other}},
    }[case]


@pytest.mark.parametrize(("case", "verdict"), CASES)
def test_http_finish_grades_typed_answers(golden: Path, tasks, tmp_path: Path, case: str, verdict: str) -> None:
    task, keys = tasks["multi"], read_keys(golden)
    with Environment.open(apps=task.systems, golden=golden, inputs=BuildInputs()) as env:
        served = ServedEnv(env, task=task, out=tmp_path, transport="http")
        with TestClient(create_app(served)) as c:
            view = c.get("/task").json()
            assert [a["name"] for a in view["answers"]] == ["vista_vendor_id"]
            assert view["answers_schema"]["required"] == ["vista_vendor_id"]
            assert keys.other not in json.dumps(view["answers"]) + json.dumps(view["answers_schema"])
            for step in task.oracle.steps:
                assert c.post(f"/tools/{step.tool}", json=step.args).json()["ok"] is True
            body: dict[str, Any] = {"reply": "done"}
            if _answers(case, keys) is not None:
                body["answers"] = _answers(case, keys)
            finished = c.post("/finish", json=body)
            assert finished.status_code == 200, finished.text
            grade = Grade.from_json(finished.content)
    assert grade.passed is (verdict == "ok"), grade
    if verdict == "fail":
        assert [c.kind for c in grade.failed_checks()] == ["answer"]
    record = json.loads((tmp_path / "attempt-0.json").read_text())
    assert record["passed"] is grade.passed
    if case == "right":
        assert record["answers"] == {"vista_vendor_id": keys.other}


def test_http_finish_reply_of_the_wrong_type_is_a_failed_check(golden: Path, tasks, tmp_path: Path) -> None:
    task, keys = tasks["multi"], read_keys(golden)
    with Environment.open(apps=task.systems, golden=golden, inputs=BuildInputs()) as env:
        served = ServedEnv(env, task=task, out=tmp_path, transport="http")
        with TestClient(create_app(served)) as c:
            finished = c.post("/finish", json={"reply": {"text": 1}, "answers": {"vista_vendor_id": keys.other}})
            assert finished.status_code == 200, finished.text
            grade = Grade.from_json(finished.content)
    assert not grade.passed and "reply" in {c.kind for c in grade.failed_checks()}


async def _mcp_finish(served: ServedEnv, task: Any, answers: Any) -> dict:
    seen: dict = {}
    async with create_client_server_memory_streams() as (client, server), anyio.create_task_group() as tg:

        async def run_server() -> None:
            seen["finished"] = await serve_streams(served, *server)
            await server[1].aclose()

        tg.start_soon(run_server)
        async with ClientSession(*client) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            seen["schema"] = tools["finish"].input_schema
            for step in task.oracle.steps:
                assert not (await session.call_tool(step.tool, step.args)).is_error
            args: dict[str, Any] = {"summary": "done"}
            if answers is not None:
                args["answers"] = answers
            result = await session.call_tool("finish", args)
            text = next(c.text for c in result.content if hasattr(c, "text"))
            seen["grade"] = Grade.model_validate(json.loads(text))
        await client[1].aclose()
    return seen


@pytest.mark.parametrize(("case", "verdict"), [("right", "ok"), ("lookalike", "fail"), ("missing", "fail")])
def test_mcp_finish_grades_typed_answers(golden: Path, tasks, tmp_path: Path, case: str, verdict: str) -> None:
    task, keys = tasks["multi"], read_keys(golden)
    with Environment.open(apps=task.systems, golden=golden, inputs=BuildInputs()) as env:
        served = ServedEnv(env, task=task, out=tmp_path, transport="mcp")
        seen = anyio.run(_mcp_finish, served, task, _answers(case, keys))
    schema = seen["schema"]
    assert schema["required"] == ["summary", "answers"]
    assert schema["properties"]["answers"]["required"] == ["vista_vendor_id"]
    assert seen["grade"].passed is (verdict == "ok"), seen["grade"]
