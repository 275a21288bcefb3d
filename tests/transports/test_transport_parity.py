"""Transport parity: a single-app, a multi-app and a money-guarded task run in-process, over
HTTP and over MCP must leave identical diffs, guard logs, tool logs and grades.

The transports sit between the policy and the environment (``run_attempt(env_wrapper=...)``);
grading always reads the environment, so any difference here is a transport that changed what
the policy sent or what it saw.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cfab.apps.world.environment import Environment
from cfab.runner.attempt import AttemptOutcome, run_attempt
from cfab.runner.policies import make_policy
from cfab.runner.policies.oracle import example_args
from cfab.runner.transports import client_wrapper
from cfab.seeds.determinism import BuildInputs

TRANSPORTS = ["inprocess", "http", "mcp"]

# (task, policy, passes): the oracle passes every task; on the guarded task ``execute`` then posts
# the disputed invoice and ``do-everything`` calls every write and guarded tool: both must fail.
CASES = [
    ("single", "oracle", True),
    ("multi", "oracle", True),
    ("guarded", "oracle", True),
    ("guarded", "execute", False),
    ("guarded", "do-everything", False),
]


def _run(task, policy: str, transport: str, golden: Path) -> AttemptOutcome:
    wrapper = None if transport == "inprocess" else client_wrapper(transport)
    return run_attempt(task, make_policy(policy), golden=golden, inputs=BuildInputs(), env_wrapper=wrapper)


def _fingerprint(out: AttemptOutcome) -> dict[str, object]:
    """Everything a transport could change: the environment's records as exact JSON text, the
    policy's episode as JSON values (a JSON round trip may reorder the keys of nested examples)."""

    def dump(items):
        return json.dumps([i.model_dump(mode="json") for i in items], sort_keys=True)

    return {
        "diff": out.diff.to_json(),
        "guard_log": dump(out.guard_log),
        "tool_log": dump(out.tool_log),
        "grade": out.grade.to_json(),
        "episode": json.loads(out.episode.model_dump_json()),
    }


@pytest.mark.parametrize(("key", "policy", "passes"), CASES, ids=[f"{k}-{p}" for k, p, _ in CASES])
def test_transports_grade_identically(key: str, policy: str, passes: bool, tasks, golden: Path) -> None:
    outcomes = {t: _run(tasks[key], policy, t, golden) for t in TRANSPORTS}
    ref = outcomes["inprocess"]
    assert ref.grade.passed is passes, str(ref.grade)
    assert ref.tool_log, "the policy made no tool calls"
    if key == "guarded" and not passes:
        assert ref.guard_log and all(not g.executed for g in ref.guard_log)
        assert ref.grade.guard_violation
    expected = _fingerprint(ref)
    for transport in ("http", "mcp"):
        got = _fingerprint(outcomes[transport])
        for part in expected:
            assert got[part] == expected[part], f"{transport} differs from in-process in {part}"


@pytest.mark.parametrize("transport", ["http", "mcp"])
def test_remote_tool_surface_matches_in_process(transport: str, golden: Path) -> None:
    """Same specs (names, descriptions, schemas), flags and example arguments as the Environment."""
    with Environment.open(apps=["hh2", "vista_erp"], golden=golden, inputs=BuildInputs()) as env:
        remote = client_wrapper(transport)(env)
        try:
            local_specs = [s["function"] for s in env.tool_specs()]
            remote_specs = remote.tool_specs()
            assert [s["function"] for s in remote_specs] == local_specs
            assert all(s["x-native-name"] == remote.resolve(s["function"]["name"]).name for s in remote_specs)
            assert set(remote.tools) == set(env.tools)
            for name, spec in env.tools.items():
                mirror = remote.tools[name]
                assert (mirror.writes, mirror.guarded) == (bool(spec.writes), spec.guarded), name
                assert example_args(mirror.args_model) == example_args(spec.args_model), name
            # agent mistakes stay results, exactly as in-process
            assert remote.call("vista_erp.vendors.get", vendor_id=["1"])["error_type"] == "invalid_argument"
            assert remote.call("no_such.tool")["error_type"] == "unknown_tool"
            assert remote.call("vista_erp__gl__periods")["ok"] is True
        finally:
            remote.close()
