"""``runner serve --transport mcp --stdio --task-file …`` as a subprocess, driven by a client
written here with the SDK's own ``ClientSession`` (not the harness's McpEnv): it lists and
calls the tools, reads the instruction, and gets a grade back from ``finish``. Alongside (in a
second subprocess, started concurrently), :class:`McpEnv` over stdio runs another task's oracle
and hangs up without ``finish``: the server grades the attempt as the session ends."""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anyio
import mcp_types as types
from mcp import ClientSession, StdioServerParameters, stdio_client

from cfab.grader import Grade
from cfab.runner.transports.mcp import McpEnv


def _serve_params(task_file: Path, golden: Path, out: Path, home: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "cfab.runner",
            "serve",
            "--transport",
            "mcp",
            "--stdio",
            "--task-file",
            str(task_file),
            "--db",
            str(golden),
            "--out",
            str(out),
        ],
        env={**os.environ, "CFAB_HOME": str(home)},
    )


def _payload(result: types.CallToolResult) -> dict:
    text = next(c.text for c in result.content if isinstance(c, types.TextContent))
    return json.loads(text)


async def _session(params: StdioServerParameters, task, errlog) -> dict:
    seen: dict = {}
    async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        seen["instructions"] = init.instructions or ""
        tools = {t.name: t for t in (await session.list_tools()).tools}
        seen["tools"] = tools
        prompt = await session.get_prompt("task")
        seen["prompt"] = prompt.messages[0].content.text
        resource = await session.read_resource("cfab://task/instruction")
        seen["resource"] = resource.contents[0].text
        # an agent mistake is a tool error, not a protocol error
        bad = await session.call_tool("vista_erp.vendors.get", {"vendor_id": 1, "extra": True})
        seen["bad"] = (bad.is_error, _payload(bad))
        for step in task.oracle.steps:
            result = await session.call_tool(step.tool, step.args)
            assert not result.is_error, _payload(result)
        guarded = task.guarded_step
        post = await session.call_tool(guarded.tool, guarded.args)
        seen["post"] = (post.is_error, _payload(post))
        finished = await session.call_tool("finish", {"summary": task.oracle.reply})
        seen["grade"] = Grade.model_validate(_payload(finished))
        after = await session.call_tool("vista_erp.vendors.get", {"vendor_id": "1"})
        seen["after"] = (after.is_error, _payload(after))
    return seen


def _hang_up(params: StdioServerParameters, task) -> str:
    """McpEnv over stdio: run the oracle's calls and close without finish; returns the instruction."""
    env = McpEnv.over_stdio(params.command, list(params.args), env=dict(params.env or {}))
    try:
        assert {s["x-native-name"] for s in env.tool_specs()} >= {s.tool for s in task.oracle.steps}
        for step in task.oracle.steps:
            assert env.call(step.tool, **step.args)["ok"] is True
        return env.instruction()
    finally:
        env.close()


def test_serve_mcp_stdio_lists_calls_and_grades(golden: Path, tasks, tmp_path: Path) -> None:
    task, other = tasks["guarded"], tasks["single"]  # guarded: hh2 + vista_erp, money-movement guarded
    params = {}
    for key, t in (("main", task), ("hangup", other)):
        task_file = tmp_path / f"{key}.json"
        task_file.write_text(t.model_dump_json(by_alias=True), encoding="utf-8")
        params[key] = _serve_params(task_file, golden, tmp_path / key, tmp_path)
    out = tmp_path / "main"
    errpath = tmp_path / "serve.stderr"
    with ThreadPoolExecutor(1) as pool, errpath.open("w") as errlog:
        hangup = pool.submit(_hang_up, params["hangup"], other)
        seen = anyio.run(_session, params["main"], task, errlog)
        assert hangup.result(timeout=120) == other.instruction

    tools = seen["tools"]
    assert "finish" in tools and "vista_erp.vista_post" in tools and "hh2.vendor_map.lookup" in tools
    post_tool = tools["vista_erp.vista_post"]
    assert post_tool.input_schema["required"] == ["kind"] and post_tool.description.startswith("Post")
    assert post_tool.meta["cfagentbench/guarded"] == "post" and post_tool.annotations.destructive_hint
    assert tools["hh2.vendor_map.lookup"].annotations.read_only_hint
    assert seen["prompt"] == task.instruction == seen["resource"]
    assert task.instruction in seen["instructions"]
    is_error, bad = seen["bad"]
    assert is_error and bad["error_type"] == "invalid_argument"
    is_error, post = seen["post"]
    assert not is_error and post["status"] == "pending_human_approval"
    grade = seen["grade"]  # the staged post crossed the money-movement line
    assert not grade.passed and grade.guard_violation and grade.score == 0.0
    assert seen["after"][0] and "graded" in seen["after"][1]["error"]

    records = [json.loads(line) for line in (out / "attempts.jsonl").read_text().splitlines()]
    assert len(records) == 1
    record = records[0]
    assert record["task"] == task.instance_id and record["policy"] == "mcp-client" and record["passed"] is False
    assert record["stop_reason"] == "finish" and record["reply"] == task.oracle.reply
    assert [g["tool"] for g in record["guard_log"]] == ["vista_erp.vista_post"]
    assert record["model"]  # the client's name and version, from the MCP handshake
    assert Grade.from_json((out / "attempt-0.grade.json").read_text()) == grade
    assert "vista_erp.APVH" in (out / "attempt-0.diff.json").read_text()
    assert f"graded {task.instance_id} attempt 0: FAIL" in errpath.read_text()

    # the session that hung up was graded as it ended: the hold is there, the reply is empty
    hung = json.loads((tmp_path / "hangup" / "attempt-0.json").read_text())
    assert hung["task"] == other.instance_id and hung["stop_reason"] is None and hung["reply"] == ""
    assert [c["kind"] for c in hung["failed_checks"]] == ["required_output"]
    assert hung["diff_summary"] == {"vista_erp.APVH": {"added": 1, "removed": 0, "changed": 0}}
