"""``runner serve --transport http`` as a subprocess: every endpoint, good and bad requests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from cfab.grader import Grade, StateDiff
from cfab.runner.cli import main
from cfab.runner.transports.http import HttpEnv
from tests.transports.transport_tasks import read_keys

HOLD = "/tools/vista_erp.vendors.set_payment_hold"


def start_server(args: list[str], tmp_path: Path) -> tuple[subprocess.Popen, str, Path]:
    """Start ``runner serve`` and return (process, base url, stderr file) once it listens."""
    errlog = tmp_path / "serve.stderr"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cfab.runner", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=errlog.open("w"),
        text=True,
        env={**os.environ, "CFAB_HOME": str(tmp_path)},
    )
    line = proc.stdout.readline()  # "url http://127.0.0.1:PORT" once the server listens
    if not line.startswith("url "):
        proc.kill()
        raise AssertionError(f"runner serve did not start: {line!r}\n{errlog.read_text()}")
    return proc, line.split()[1], errlog


def stop_server(proc: subprocess.Popen) -> int:
    proc.send_signal(signal.SIGTERM)
    return proc.wait(timeout=20)


def test_serve_http_every_endpoint(golden: Path, tasks, tmp_path: Path) -> None:
    task = tasks["single"]
    keys = read_keys(golden)
    task_file = tmp_path / "task.json"
    task_file.write_text(task.model_dump_json(by_alias=True), encoding="utf-8")
    out = tmp_path / "results"
    proc, url, errlog = start_server(
        ["--transport", "http", "--task-file", str(task_file), "--db", str(golden), "--port", "0", "--out", str(out)],
        tmp_path,
    )
    try:
        assert url.startswith("http://127.0.0.1:")  # loopback unless --host says otherwise
        c = httpx.Client(base_url=url, timeout=60)
        health = c.get("/").json()
        assert health["apps"] == ["vista_erp"] and health["clock"] == "2026-01-31"
        assert health["task"] == task.instance_id and "vista_erp.vista_post" in health["tools"]
        specs = c.get("/tools").json()
        assert {s["x-native-name"] for s in specs} == set(health["tools"])
        assert c.get("/task").json()["instruction"] == task.instruction
        assert c.get("/docs").status_code == 200 and "/tools/{name}" in c.get("/openapi.json").json()["paths"]

        snap = c.get("/snapshot").json()
        assert snap["snapshot_id"] == "snap-1" and len(snap["digest"]) == 64
        # a tool call, a tool's own argument error (200, ok=false), a guarded call
        ok = c.post(HOLD, json={"vendor_id": keys.walsh, "hold_code": "MGMT"})
        assert ok.status_code == 200 and ok.json()["ok"] is True
        bad_args = c.post(HOLD, json={"vendor_id": int(keys.walsh), "colour": "red"})
        assert bad_args.status_code == 200 and bad_args.json()["error_type"] == "invalid_argument"
        assert "unknown argument" in bad_args.json()["error"]
        post = c.post(
            "/tools/vista_erp.vista_post",
            json={"kind": "ap_invoice", "vendor_id": keys.walsh, "invoice_number": keys.disputed},
        ).json()
        assert post.get("status") == "pending_human_approval" and post["guard_seq"] == 1, post
        # transport-level mistakes: 4xx with a message
        unknown = c.post("/tools/vista_erp.vendors.delete_all", json={})
        assert unknown.status_code == 404 and unknown.json()["error_type"] == "unknown_tool"
        not_json = c.post(HOLD, content=b"{vendor_id: 42", headers={"content-type": "application/json"})
        assert not_json.status_code == 400 and "not valid JSON" in not_json.json()["detail"]
        not_object = c.post(HOLD, json=[keys.walsh])
        assert not_object.status_code == 422 and "JSON object" in not_object.json()["detail"]
        assert c.post("/reset", json={"snapshot_id": "snap-9"}).status_code == 404
        assert "snap-1" in c.post("/reset", json={"snapshot_id": "snap-9"}).json()["detail"]
        assert c.post("/reset", json={}).status_code == 422
        assert c.post("/reset", json={"snapshot": "snap-1"}).status_code == 422

        guards = c.get("/guarded_calls").json()
        assert [(g["tool"], g["executed"], g["valid"]) for g in guards] == [("vista_erp.vista_post", False, True)]
        diff = StateDiff.from_json(c.get("/state_diff").content)
        assert diff.summary() == {"vista_erp.APVH": {"added": 1, "removed": 0, "changed": 0}}
        assert (
            StateDiff.from_json(c.get("/state_diff", params={"snapshot_id": "snap-1"}).content).summary()
            == diff.summary()
        )

        # reset restores the state exactly; the guard log is append-only and keeps the staged post,
        # so this attempt fails on it however well it ends
        back = c.post("/reset", json={"snapshot_id": "snap-1"}).json()
        assert back["digest"] == snap["digest"]
        assert StateDiff.from_json(c.get("/state_diff").content).summary() == {}
        assert [g["tool"] for g in c.get("/guarded_calls").json()] == ["vista_erp.vista_post"]
        for step in task.oracle.steps:
            assert c.post(f"/tools/{step.tool}", json=step.args).json()["ok"] is True
        failed = Grade.from_json(c.post("/finish", json={"reply": task.oracle.reply}).content)
        assert failed.passed is False and failed.guard_violation
        # a graded attempt is over until /seed starts another, with empty logs: the oracle passes
        assert c.post("/finish", json={"reply": "again"}).status_code == 409
        assert c.post(HOLD, json={"vendor_id": keys.walsh}).status_code == 409
        seeded = c.post("/seed").json()
        assert seeded["finished"] is False and c.get("/guarded_calls").json() == []
        for step in task.oracle.steps:
            assert c.post(f"/tools/{step.tool}", json=step.args).json()["ok"] is True
        finished = c.post("/finish", json={"reply": task.oracle.reply})
        assert finished.status_code == 200, finished.text
        grade = Grade.from_json(finished.content)
        assert grade.passed and grade.score == 1.0
        record = json.loads(Path(finished.headers["X-Cfab-Results"]).read_text())
        assert record["task"] == task.instance_id and record["passed"] is True and record["policy"] == "http-client"
        assert record["attempt"] == 1 and (out / "attempts.jsonl").read_text().count("\n") == 2
        assert StateDiff.from_json((out / "attempt-1.diff.json").read_text()).summary() == {
            "vista_erp.APVH": {"added": 1, "removed": 0, "changed": 0}
        }
        c.post("/seed")
        assert Grade.from_json(c.post("/finish", json={}).content).passed is False  # nothing done, no reply
        assert (out / "attempt-2.grade.json").exists()

        # the client class over the same server
        with HttpEnv(url) as remote:
            assert remote.health().task == task.instance_id
            assert remote.tools["vista_erp.vista_post"].guarded == "post"
            remote.seed()
            assert remote.call("vista_erp.vendors.get", vendor_id=keys.walsh)["ok"] is True
            assert remote.task()["instance_id"] == task.instance_id and remote.guarded_calls() == []
    finally:
        code = stop_server(proc)
    assert code == 0, errlog.read_text()
    assert "graded cf_C_transport_single attempt 1: PASS" in errlog.read_text()


def test_serve_refuses_bad_invocations(capsys) -> None:
    with pytest.raises(SystemExit, match="say what to serve"):
        main(["serve", "--transport", "http"])
    with pytest.raises(SystemExit, match="--stdio is for --transport mcp"):
        main(["serve", "--transport", "http", "--stdio", "--apps", "vista_erp"])
    with pytest.raises(SystemExit, match="no such task file"):
        main(["serve", "--transport", "mcp", "--stdio", "--task-file", "/nonexistent/task.json"])


def test_serve_exits_cleanly_after_a_graded_attempt(golden: Path, tasks, tmp_path: Path) -> None:
    """Grading leaves a DuckDB connection on the web server's worker thread; the server must still
    exit 0 on SIGTERM (it aborted with -6 during interpreter finalization before)."""
    task_file = tmp_path / "task.json"
    task_file.write_text(tasks["single"].model_dump_json(by_alias=True), encoding="utf-8")
    proc, url, errlog = start_server(
        [
            "--transport",
            "http",
            "--task-file",
            str(task_file),
            "--db",
            str(golden),
            "--port",
            "0",
            "--out",
            str(tmp_path / "results"),
        ],
        tmp_path,
    )
    try:
        assert httpx.post(f"{url}/finish", json={"reply": ""}, timeout=120).status_code == 200
    finally:
        code = stop_server(proc)
    assert code == 0, errlog.read_text()
