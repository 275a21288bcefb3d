"""The MCP session lifecycle in-process (memory streams, no subprocess): a session that ends
without ``finish`` is graded with an empty reply and recorded; the task's prompt and resources."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.shared.memory import create_client_server_memory_streams

from cfab.apps.world.environment import Environment
from cfab.runner.transports.mcp import INSTRUCTION_URI, TASK_URI, serve_streams
from cfab.runner.transports.session import ServedEnv
from cfab.seeds.determinism import BuildInputs


async def _drive(served: ServedEnv, task) -> dict:
    seen: dict = {}
    async with create_client_server_memory_streams() as (client, server), anyio.create_task_group() as tg:

        async def run_server() -> None:
            seen["finished"] = await serve_streams(served, *server)
            await server[1].aclose()

        tg.start_soon(run_server)
        async with ClientSession(*client) as session:
            await session.initialize()
            seen["prompts"] = [p.name for p in (await session.list_prompts()).prompts]
            seen["resources"] = sorted(str(r.uri) for r in (await session.list_resources()).resources)
            task_json = (await session.read_resource(TASK_URI)).contents[0].text
            seen["task"] = json.loads(task_json)
            seen["instruction"] = (await session.read_resource(INSTRUCTION_URI)).contents[0].text
            for step in task.oracle.steps:
                result = await session.call_tool(step.tool, step.args)
                assert not result.is_error, result.content
        await client[1].aclose()  # the agent hangs up without calling finish
    return seen


def test_session_end_without_finish_is_graded(golden: Path, tasks, tmp_path: Path) -> None:
    task = tasks["single"]
    with Environment.open(apps=task.systems, golden=golden, inputs=BuildInputs()) as env:
        served = ServedEnv(env, task=task, out=tmp_path, transport="mcp")
        seen = anyio.run(_drive, served, task)
    assert seen["prompts"] == ["task"]
    assert seen["resources"] == [TASK_URI, INSTRUCTION_URI]
    assert seen["instruction"] == task.instruction == seen["task"]["instruction"]
    assert "ground_truth" not in seen["task"] and "oracle" not in seen["task"]
    done = seen["finished"]
    assert done is not None and done.record.stop_reason is None and done.record.reply == ""
    # the hold is there; only the reply's required statement is missing
    failed = [c.kind for c in done.grade.failed_checks()]
    assert failed == ["required_output"] and done.grade.score == 0.5
    record = json.loads((tmp_path / "attempt-0.json").read_text())
    assert record["diff_summary"] == {"vista_erp.APVH": {"added": 1, "removed": 0, "changed": 0}}
    assert [c["tool"] for c in record["tool_calls"]] == [s.tool for s in task.oracle.steps]
