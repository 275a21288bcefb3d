"""Agent SQL through the real tool: a held-out attack corpus (conformance_attacks.py) run through
``env.call("sql.query", sql=...)`` on an environment with several apps composed. Each attack is
refused with a clear message or is harmless (and leaks no hidden schema); afterwards the
attempt's digest and the golden file's bytes are unchanged, no file appeared in the workdir or
the golden cache, and a deliberately slow query was stopped by the time limit."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from cfab.apps.sandbox.tool import READ_TIMEOUT_S
from cfab.apps.world.environment import Environment
from cfab.apps.world.golden import cfab_home
from tests.conformance.conformance_attacks import ATTACKS, COMPOSED, HIDDEN, NOT_COMPOSED
from tests.conformance.conformance_helpers import check_result, file_sha256

# Files the golden cache itself writes (goldens, composed templates, their markers and locks):
# another test session sharing the cache may add these at any time; an attack could not.
CACHE_FILE = re.compile(r"^\.?book-s\d+-c[\d-]+-x\d+-[0-9a-f]{12}[\w.-]*\.duckdb[\w.-]*$")


def _listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")} if folder.exists() else set()


@pytest.fixture(scope="module")
def attack(full_golden: Path):
    env = Environment.open(apps=list(COMPOSED), golden=full_golden)
    env.snapshot()  # so the workdir holds a snapshot file an attack may try to ATTACH
    env.con.execute("CHECKPOINT")
    state = {
        "env": env,
        "digest": env.digest(),
        "template_sha": file_sha256(env.golden),
        "golden_sha": file_sha256(full_golden),
        "workdir": _listing(env.workdir),
        "home": _listing(cfab_home()),
        "paths": {
            "golden": str(full_golden),
            "home": str(cfab_home()),
            "workdir": str(env.workdir),
            "attempt": str(env.path),
        },
        "timed_out": [],
    }
    yield state
    env.close()


def _cells(result: dict[str, Any]) -> list[Any]:
    return [v for row in result.get("data", {}).get("rows", []) for v in row]


def test_corpus_is_held_out_and_big_enough():
    import tomllib

    corpus = Path(__file__).parents[1] / "security" / "corpus.toml"
    theirs = {" ".join(c["sql"].split()).lower() for c in tomllib.loads(corpus.read_text())["case"]}
    mine = [" ".join(a["sql"].split()).lower() for a in ATTACKS]
    assert len(mine) >= 60 and len(set(mine)) == len(mine)
    assert not theirs & set(mine), sorted(theirs & set(mine))


#: far past any time limit, however loaded the machine: a call that takes this long was not stopped
HUNG_S = 10 * READ_TIMEOUT_S + 60


@pytest.mark.parametrize("case", ATTACKS, ids=[a["sql"][:60] for a in ATTACKS])
def test_attack(attack, case):
    env: Environment = attack["env"]
    sql = case["sql"].format(**attack["paths"])
    started = time.monotonic()
    result = check_result(env.call("sql.query", sql=sql), sql)
    elapsed = time.monotonic() - started
    assert elapsed < HUNG_S, f"{sql}: took {elapsed:.1f} s: the time limit did not stop it"
    expect = case["expect"]
    if expect == "refused":
        assert result["ok"] is False and result["error_type"] == "rejected", result
        if case["needle"]:
            assert case["needle"].lower() in result["error"].lower(), result["error"]
    elif expect == "allowed":
        assert result["ok"] is True, result
    if not result["ok"]:
        if case.get("kind") == "timeout":
            assert "time limit" in result["error"], result
            attack["timed_out"].append((sql, elapsed))
        # a refusal may repeat the agent's own SQL; an engine error must not volunteer hidden names
        if result["error_type"] != "rejected":
            for hidden in (*HIDDEN, *NOT_COMPOSED):
                assert f"{hidden}." not in result["error"].replace(sql, ""), result["error"]
        return
    data = result["data"]
    if "rows" in case:
        assert data["row_count"] == case["rows"], data
    cells = [str(c).lower() for c in _cells(result)]
    if case.get("only_schemas"):
        schema_cols = [i for i, c in enumerate(data["columns"]) if c in ("table_schema", "schema_name")]
        assert schema_cols, data["columns"]
        seen = {str(row[i]) for row in data["rows"] for i in schema_cols}
        assert seen <= set(COMPOSED), f"catalog listing shows {sorted(seen - set(COMPOSED))}"
    for hidden in (*HIDDEN, *NOT_COMPOSED):
        assert hidden not in cells, f"{sql}: result shows {hidden!r}"
    assert not any(c.startswith("cfab_internal") for c in cells)


def test_slow_query_is_stopped_by_the_time_limit(attack):
    env: Environment = attack["env"]
    started = time.monotonic()
    result = check_result(
        env.call(
            "sql.query", sql="WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
        ),
        "recursive",
    )
    elapsed = time.monotonic() - started
    assert result["ok"] is False and "time limit" in result["error"], result
    # an endless query: no machine finishes it, so only the timer can end it, and never before the limit
    assert READ_TIMEOUT_S - 0.5 <= elapsed < HUNG_S, f"returned after {elapsed:.1f} s"


def test_after_the_attacks_nothing_changed(attack):
    env: Environment = attack["env"]
    assert env.call("sql.query", sql="SELECT count(*) AS n FROM vista_erp.APVM")["ok"] is True
    assert env.digest() == attack["digest"], "the attempt's content changed"
    assert file_sha256(env.golden) == attack["template_sha"], "the composed golden template's bytes changed"
    assert file_sha256(Path(attack["paths"]["golden"])) == attack["golden_sha"], "the golden file's bytes changed"
    env.con.execute("CHECKPOINT")
    new_work = _listing(env.workdir) - attack["workdir"]
    assert not new_work, f"new files in the attempt's workdir: {sorted(new_work)}"
    new_home = {f for f in _listing(cfab_home()) - attack["home"] if not CACHE_FILE.match(f)}
    assert not new_home, f"new files in the golden cache: {sorted(new_home)}"
    assert not env.guarded_calls()


_MEMORY_PROBE = """
import json, sys, time
from cfab.apps.world.environment import Environment
from cfab.apps.world.limits import cap_memory

def status(key):
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) // 1024 for line in fh if line.startswith(key + ":"))

env = Environment.open(apps=["procore"], golden=sys.argv[1], memory_limit="32MB")
env.call("sql.query", sql="SELECT count(*) FROM procore.projects")
cap_memory("1GB")  # what the runner's workers and `runner serve` do
with open("/proc/self/clear_refs", "w") as fh:  # reset the peak (VmHWM) to the current RSS
    fh.write("5")
base = status("VmRSS")
out = {}
for label, sql in json.loads(sys.argv[2]).items():
    started = time.monotonic()
    out[label] = {"result": env.call("sql.query", sql=sql), "seconds": time.monotonic() - started}
out["after"] = env.call("sql.query", sql="SELECT count(*) AS n FROM procore.projects")
print(json.dumps({"base_mb": base, "peak_mb": status("VmHWM"), **out}))
"""

# ten nested replaces: each multiplies the length by ten (10 characters -> 100 GB), none is a builder
_REPLACE_CHAIN = "SELECT length(" + "replace(" * 10 + "'xxxxxxxxxx'" + ", 'x', 'xxxxxxxxxx')" * 10 + ") AS n"


def test_one_query_cannot_take_the_host_memory(full_golden):
    """A value built in one call (repeat) is refused by the guard; a value multiplied through
    ordinary operations runs into the worker's memory cap (or the time limit, whichever
    comes first) and comes back as an error result;
    the process stays alive and the next query works."""
    import json
    import subprocess
    import sys

    queries = {"repeat": "SELECT length(repeat('x', 200000000)) AS n", "chain": _REPLACE_CHAIN}
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, str(full_golden), json.dumps(queries)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    repeat, chain = probe["repeat"]["result"], probe["chain"]["result"]
    assert repeat["ok"] is False and "too large" in repeat["error"], repeat
    assert chain["ok"] is False and ("memory" in chain["error"].lower() or "time limit" in chain["error"]), chain
    assert probe["after"]["ok"] is True, probe["after"]
    grown = probe["peak_mb"] - probe["base_mb"]
    assert grown < 1024 + 128, f"one agent query grew the process by {grown} MB under a 1 GB cap: {probe}"
