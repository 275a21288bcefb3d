"""A held-out suite served over HTTP (issue 18, item 4): the client works every task end to end
and gets a verdict, and nothing it receives carries the ground truth.

``runner serve --transport http --suite FILE`` runs as a subprocess over a suite file whose tasks
are marked ``held_out``; the client is the documented flow (docs/held-out.md): ``GET /tasks``,
then per task ``POST /start``, ``GET /task``, ``GET /tools``, tool calls, ``POST /finish``, and at
the end ``GET /scores``. Here the "agent" replays the oracle on one pass and does nothing on the
other, which the server must grade 1 and 0 without saying why.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx

from cfab.grader import Grade
from cfab.runner.policies.oracle import replay
from cfab.runner.transports.http import HttpEnv
from cfab.runner.transports.suite import WITHHELD
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.model import StepResults, Task
from cfab.tasks.suite import dump_suite
from tests.transports.test_transport_serve_http import start_server, stop_server


def _held_out(tasks: dict[str, Task]) -> list[Task]:
    return [t.model_copy(update={"partition": "held_out"}) for t in (tasks["single"], tasks["guarded"])]


def _secrets(task: Task) -> list[str]:
    """Strings only the evaluator knows: its expected answers and its row predicates' values."""
    out = [json.dumps(task.ground_truth.model_dump(mode="json"), sort_keys=True)]
    for answer in task.ground_truth.answers:
        out.append(str(answer.model_dump(mode="json").get("expected")))
    for pred in [*task.ground_truth.expected, *task.ground_truth.forbidden]:
        out.append(pred.label if hasattr(pred, "label") and pred.label else json.dumps(pred.model_dump(mode="json")))
    return [s for s in out if s and s not in ("None", "[]", "{}")]


def test_held_out_suite_graded_over_http_without_its_ground_truth(golden: Path, tasks, tmp_path: Path) -> None:
    suite = _held_out(tasks)
    path = tmp_path / "held_out.jsonl"
    path.write_text(dump_suite(suite, BuildInputs()), encoding="utf-8")
    out = tmp_path / "results"
    proc, url, errlog = start_server(
        ["--transport", "http", "--suite", str(path), "--db", str(golden), "--port", "0", "--out", str(out)], tmp_path
    )
    seen: list[str] = []  # every body the client received
    try:
        c = httpx.Client(base_url=url, timeout=120, event_hooks={"response": [lambda r: r.read()]})

        def get(method: str, where: str, **kw) -> httpx.Response:
            resp = c.request(method, where, **kw)
            seen.append(resp.text)
            seen.extend(f"{k}: {v}" for k, v in resp.headers.items())
            return resp

        listed = get("GET", "/tasks").json()
        assert [t["instance_id"] for t in listed] == [t.instance_id for t in suite]
        assert all(t["instruction"] and "answers_schema" in t for t in listed)
        # nothing is started yet: the tool endpoints say so
        assert get("GET", "/tools").status_code == 409 and "POST /start" in get("GET", "/tools").json()["detail"]
        assert get("POST", "/start", json={"task": "cf_nope_1"}).status_code == 404

        env = HttpEnv(url)
        for task in suite:
            for attempt, agent in enumerate(("oracle", "noop")):
                health = get("POST", "/start", json={"task": task.instance_id}).json()
                env._tools = None  # the tool list belongs to the task just started
                assert health["task"] == task.instance_id and set(health["apps"]) == set(task.systems)
                assert get("GET", "/task").json()["instruction"] == task.instruction
                get("GET", "/tools")
                answers: dict = {}
                if agent == "oracle":
                    replay(env, task.oracle.steps, StepResults())
                    answers = dict(task.oracle.answers)
                resp = get(
                    "POST",
                    "/finish",
                    json={"reply": task.oracle.reply if agent == "oracle" else "", "answers": answers},
                )
                assert resp.status_code == 200, resp.text
                grade = Grade.from_json(resp.content)
                assert grade.passed is (agent == "oracle"), (task.instance_id, agent, grade)
                assert grade.checks == [] and grade.reason == WITHHELD
                assert "x-cfab-results" not in resp.headers and resp.headers["x-cfab-attempt"] == str(attempt)
                # the operator keeps the whole grade
                full = json.loads((out / task.instance_id / f"attempt-{attempt}.grade.json").read_text())
                assert full["checks"] and full["passed"] is grade.passed

        scores = get("GET", "/scores").json()
        assert scores["tasks"] == 2 and scores["attempted"] == 2 and scores["pass1"] == 0.5
        assert [s["attempts"] for s in scores["by_task"]] == [2, 2]

        # the documented participant script (httpx only) runs end to end: its placeholder agent
        # changes nothing, so every task fails and the server's pass^1 falls to 1/3
        example = Path(__file__).resolve().parents[2] / "examples" / "remote_suite_client.py"
        ran = subprocess.run([sys.executable, str(example), url], capture_output=True, text=True, timeout=600)
        assert ran.returncode == 0, ran.stderr
        assert [ln.split(":")[1].split()[0] for ln in ran.stdout.splitlines() if " attempt " in ln] == ["FAIL", "FAIL"]
        assert json.loads(ran.stdout[ran.stdout.index("{") :])["pass1"] == round(1 / 3, 6)
    finally:
        assert stop_server(proc) == 0, errlog.read_text()
    wire = "\n".join(seen)
    for task in suite:
        for secret in _secrets(task):
            assert secret not in wire, f"{task.instance_id}: the client received {secret[:120]!r}"
    assert '"checks"' in wire  # the (empty) checks field is there, so the scan looked at grades
