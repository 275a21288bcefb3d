"""Score an external agent on a served suite (the held-out partition) over plain HTTP.

The operator runs, on the machine that keeps the ground truth::

    runner tasks compile --suite held_out --out held_out.jsonl      # once per release
    runner serve --transport http --suite held_out.jsonl --port 8000 --out runs/held_out

and the participant runs this file (it needs only ``httpx``; nothing of cfab)::

    python examples/remote_suite_client.py http://127.0.0.1:8000 [--k 1]

For every task of ``GET /tasks`` it starts the task, hands the instruction and the tool specs
to ``agent`` and finishes with the agent's reply and typed answers; the server grades and answers
with the verdict only (the checks of a held-out task never leave it). ``agent`` below is a
placeholder that reads the instruction and calls nothing — replace it with your own loop: call
``POST /tools/{name}`` with a JSON object of arguments as your model asks, and return its final
reply and the answers the task's ``answers_schema`` describes.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import httpx


def agent(http: httpx.Client, task: dict[str, Any], tools: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """Your agent: work ``task`` with ``tools`` and return (reply, answers).

    ``task``: instruction, systems, user_role, policy_ref, answers (name, type, description) and
    answers_schema (JSON Schema of the answers object). ``tools``: OpenAI function specs, each with
    ``x-native-name`` (POST /tools/{x-native-name}), ``x-writes`` and ``x-guarded``. A tool call::

        http.post(f"/tools/{name}", json={"vendor_id": "20147"}).json()   # {"ok": true, ...}
    """
    return "I read the task and changed nothing.", {}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    ap.add_argument("--k", type=int, default=1, help="attempts per task (pass^k)")
    args = ap.parse_args(argv)
    with httpx.Client(base_url=args.url.rstrip("/"), timeout=300) as http:
        tasks = http.get("/tasks").raise_for_status().json()
        print(f"{len(tasks)} tasks at {args.url}", file=sys.stderr)
        for listed in tasks:
            for attempt in range(args.k):
                http.post("/start", json={"task": listed["instance_id"]}).raise_for_status()
                task = http.get("/task").raise_for_status().json()
                tools = http.get("/tools").raise_for_status().json()
                reply, answers = agent(http, task, tools)
                grade = http.post("/finish", json={"reply": reply, "answers": answers}).raise_for_status().json()
                verdict = "PASS" if grade["passed"] else "FAIL"
                print(f"{listed['instance_id']} attempt {attempt}: {verdict} score={grade['score']:.3f}")
        print(json.dumps(http.get("/scores").raise_for_status().json(), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
