"""Transport hardening (issue 16, root causes 5-7), over real sockets on 127.0.0.1:

* the guard log is append-only for an attempt's whole life: ``/reset`` and ``/seed`` restore
  state but keep it, so a staged post is graded whatever the client restores (and a graded
  attempt's ``/seed`` starts the next attempt with empty logs);
* every transport error is clean JSON: a 100,000-deep body is 400, a body over the size limit is
  413 and the refused call is still logged (guard log included) with its size and SHA-256;
* arguments over the environment's limits are a tool error over HTTP and MCP alike.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import httpx
import pytest

from cfab.apps.world.arguments import TRUNCATED_KEY
from cfab.apps.world.environment import Environment
from cfab.grader import Grade
from cfab.runner.transports.bodylimit import MAX_BODY_BYTES
from cfab.runner.transports.http import create_app
from cfab.runner.transports.mcp import McpEnv, http_app
from cfab.runner.transports.session import ServedEnv
from cfab.runner.transports.threaded import BackgroundServer
from cfab.seeds.determinism import BuildInputs
from tests.transports.transport_tasks import APPS, read_keys

POST = "/tools/vista_erp.vista_post"
DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.fixture()
def served(golden: Path, tasks, tmp_path: Path):
    """The guarded task served over HTTP; yields (client, ServedEnv, keys)."""
    env = Environment.open(apps=APPS, golden=golden, inputs=BuildInputs())
    srv = ServedEnv(env, task=tasks["guarded"], out=tmp_path / "results", owns_env=True)
    server = BackgroundServer(create_app(srv)).start()
    try:
        with httpx.Client(base_url=server.url, timeout=120) as client:
            yield client, srv, read_keys(golden)
    finally:
        server.stop()
        srv.close()


def test_reset_and_seed_keep_the_guard_log_until_the_attempt_is_graded(served) -> None:
    c, srv, keys = served
    snap = c.get("/snapshot").json()
    staged = c.post(POST, json={"kind": "ap_invoice", "vendor_id": keys.walsh, "invoice_number": keys.disputed})
    assert staged.json()["status"] == "pending_human_approval"
    assert c.post("/reset", json={"snapshot_id": snap["snapshot_id"]}).status_code == 200
    assert [g["tool"] for g in c.get("/guarded_calls").json()] == ["vista_erp.vista_post"]
    assert c.post("/seed").json()["finished"] is False
    assert [g["tool"] for g in c.get("/guarded_calls").json()] == ["vista_erp.vista_post"]
    tools = [t.tool for t in srv.env.tool_log()]
    assert tools == ["vista_erp.vista_post"]  # the tool log too
    # the oracle's own steps after the restore: the staged post still fails the attempt
    for step in srv.task.oracle.steps:
        assert c.post(f"/tools/{step.tool}", json=step.args).json()["ok"] is True
    seqs = [t.seq for t in srv.env.tool_log()]
    assert seqs == sorted(set(seqs))  # numbering went on from where it was
    grade = Grade.from_json(c.post("/finish", json={"reply": srv.task.oracle.reply}).content)
    assert grade.passed is False and grade.guard_violation
    record = json.loads((srv.out / "attempt-0.json").read_text())
    assert [g["tool"] for g in record["guard_log"]] == ["vista_erp.vista_post"]
    # graded: /seed starts attempt 1 with empty logs
    c.post("/seed")
    assert c.get("/guarded_calls").json() == [] and srv.env.tool_log() == []


def test_malformed_bodies_are_clean_json_errors(served) -> None:
    c, _, keys = served
    deep = c.post(POST, content=DEEP, headers={"content-type": "application/json"})
    assert deep.status_code == 400 and "nests too deeply" in deep.json()["detail"]
    for path in ("/reset", "/finish"):
        r = c.post(path, content=DEEP, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500 and r.json()["detail"], (path, r.text[:200])
    nested = {
        "kind": "ap_invoice",
        "vendor_id": keys.walsh,
        "invoice_number": "x",
        "memo": json.loads(b"[" * 500 + b"]" * 500),
    }
    r = c.post(POST, json=nested)
    assert r.status_code == 200 and r.json()["ok"] is False and "nest deeper" in r.json()["error"]
    assert c.post("/reset", content=b"{", headers={"content-type": "application/json"}).status_code == 422


def test_an_oversized_sql_or_memo_is_a_tool_error_and_logged(served) -> None:
    c, srv, keys = served
    memo = "m" * (9 << 20)  # over the 8 Mi argument limit, under the body limit
    r = c.post(
        POST, json={"kind": "ap_invoice", "vendor_id": keys.walsh, "invoice_number": keys.disputed, "memo": memo}
    )
    assert r.status_code == 200 and r.json()["ok"] is False and "larger than" in r.json()["error"]
    sql = c.post("/tools/sql.query", json={"sql": "SELECT 1 -- " + "x" * (9 << 20)})
    assert sql.status_code == 200 and sql.json()["ok"] is False and "larger than" in sql.json()["error"]
    (guard,) = c.get("/guarded_calls").json()
    assert guard["valid"] is False and guard["args"]["vendor_id"] == keys.walsh
    assert guard["args"][TRUNCATED_KEY]["chars"] > 9 << 20
    assert [t.tool for t in srv.env.tool_log()] == ["vista_erp.vista_post", "sql.query"]


def test_a_body_over_the_limit_is_413_and_still_logged(served) -> None:
    c, srv, keys = served
    head = json.dumps({"kind": "ap_invoice", "vendor_id": keys.walsh, "invoice_number": keys.disputed})[:-1]
    body = (head + ', "memo": "' + "m" * (MAX_BODY_BYTES + 1024) + '"}').encode()
    r = c.post(POST, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "request body" in r.json()["detail"] and r.json()["ok"] is False
    (guard,) = c.get("/guarded_calls").json()
    meta = guard["args"][TRUNCATED_KEY]
    assert guard["tool"] == "vista_erp.vista_post" and guard["valid"] is False
    assert meta["bytes"] == len(body) and meta["sha256"] == hashlib.sha256(body).hexdigest()
    assert keys.walsh in meta["body_preview"]
    other = c.post(
        "/finish",
        content=b'{"reply": "' + b"r" * (MAX_BODY_BYTES + 1) + b'"}',
        headers={"content-type": "application/json"},
    )
    assert other.status_code == 413 and other.json()["detail"]
    assert len(c.get("/guarded_calls").json()) == 1


def test_mcp_over_http_oversized_arguments_and_bodies(golden: Path) -> None:
    env = Environment.open(apps=APPS, golden=golden, inputs=BuildInputs())
    srv = ServedEnv(env, transport="mcp", owns_env=True)
    server = BackgroundServer(http_app(srv)).start()
    keys = read_keys(golden)
    try:
        with McpEnv.over_http(f"{server.url}/mcp") as mcp:
            res = mcp.call(
                "vista_erp.vista_post",
                kind="ap_invoice",
                vendor_id=keys.walsh,
                invoice_number=keys.disputed,
                memo="m" * (9 << 20),
            )
            assert res["ok"] is False and "larger than" in res["error"]
            deep = mcp.call("vista_erp.vendors.get", vendor_id=json.loads(b"[" * 100 + b"]" * 100))
            assert deep["ok"] is False and "nest deeper than 32" in deep["error"]
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 7,
                "method": "tools/call",
                "params": {
                    "name": "vista_erp.vista_post",
                    "arguments": {"vendor_id": keys.walsh, "memo": "m" * (MAX_BODY_BYTES + 1)},
                },
            }
        ).encode()
        with httpx.Client(timeout=120) as raw:
            r = raw.post(
                f"{server.url}/mcp",
                content=body,
                headers={"content-type": "application/json", "accept": "application/json, text/event-stream"},
            )
            assert r.status_code == 413 and r.json()["detail"]
            bad = raw.post(
                f"{server.url}/mcp",
                content=DEEP,
                headers={"content-type": "application/json", "accept": "application/json, text/event-stream"},
            )
            assert 400 <= bad.status_code < 500, bad.text[:300]
        guards = srv.env.guarded_calls()
        assert [g.tool for g in guards] == ["vista_erp.vista_post", "vista_erp.vista_post"]
        assert guards[1].args[TRUNCATED_KEY]["bytes"] == len(body)
    finally:
        server.stop()
        srv.close()
