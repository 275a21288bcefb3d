"""Root cause 3 of issue 16: memory is bounded per statement, also for a library user who
opens the connection in their own process (no runner worker, no ``--memory-cap``).

Each hungry statement passes the static guard (the size guard cannot see the product of
a vector's 2,048 rows or of nested calls) and must end as a clean "out of memory" error
result, with the process's resident set growing by far less than 2 GiB, the connection
still answering and the previous RLIMIT_DATA restored. The statements run in a child
process so the measurement is the statement's alone; none depends on machine speed (the
time limit is set far above what reaching the cap takes, and every one needs more memory
than the cap on any machine)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cfab.apps.sandbox.memory import statement_memory, statement_memory_cap

from .conftest import build_fixture_db

NESTED_UPPER = "SELECT max(length({})) FROM (SELECT repeat('x', 50000) || i AS s FROM range(20000) t(i))".format(
    "upper(" * 30 + "s" + ")" * 30
)
HUNGRY = [
    NESTED_UPPER,  # 30 live 2,048 x 50 KB vectors: 3 GB without a cap (100 of them: 10 GB, measured)
    "SELECT max(length(repeat(s, 900))) FROM (SELECT repeat('x', 1000) || i AS s FROM range(100000) t(i))",
    "SELECT sum(length(x)) FROM (SELECT list_transform(range(2000), lambda k: repeat('y', 400) || i) AS x "
    "FROM range(100000) t(i))",
]

CHILD = textwrap.dedent("""
    import json, resource, sys, threading, time
    from cfab.apps.sandbox.exec import connect_hardened, run_read

    def rss():
        with open('/proc/self/status') as fh:
            for line in fh:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1]) * 1024
    con = connect_hardened(sys.argv[1])
    run_read(con, "SELECT 1", ["procore"])
    before_limit = resource.getrlimit(resource.RLIMIT_DATA)
    peak, stop = [0], [False]
    def watch():
        while not stop[0]:
            peak[0] = max(peak[0], rss())
            time.sleep(0.003)
    threading.Thread(target=watch, daemon=True).start()
    out = []
    for sql in json.loads(sys.argv[2]):
        base = rss()
        peak[0] = base
        start = time.perf_counter()
        res = run_read(con, sql, ["procore"], timeout_s=600)
        took = time.perf_counter() - start
        time.sleep(0.02)
        after = run_read(con, "SELECT count(*) FROM procore.projects", ["procore"])
        out.append({"result": res.model_dump(mode="json"), "growth": peak[0] - base, "took": took,
                    "after": after.model_dump(mode="json"),
                    "limit_restored": resource.getrlimit(resource.RLIMIT_DATA) == before_limit})
    stop[0] = True
    print(json.dumps(out))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_DATA is enforced on Linux only")
def test_hungry_statements_end_as_clean_out_of_memory_errors(tmp_path: Path) -> None:
    golden = build_fixture_db(tmp_path / "golden.duckdb")
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(golden), json.dumps(HUNGRY)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**__import__("os").environ, "CFAB_STATEMENT_MEMORY": "1GB"},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    for sql, got in zip(HUNGRY, results, strict=False):
        res = got["result"]
        assert res["ok"] is False and res["kind"] == "error", (sql[:80], res)
        assert "out of memory" in res["message"], res["message"]
        assert "\n" not in res["message"] and "SET threads" not in res["message"]
        assert got["growth"] < 1.5 * 1024**3, (sql[:80], got["growth"] / 2**20)
        assert got["after"]["ok"] and got["after"]["rows"] == [[3]], got["after"]
        assert got["limit_restored"]
    print([(round(g["growth"] / 2**20), round(g["took"], 2)) for g in results])


def test_statement_memory_setting() -> None:
    assert statement_memory("none") is None
    assert statement_memory("2GB") == 2 * 1024**3
    with pytest.raises(ValueError):
        statement_memory("lots")
    with pytest.raises(ValueError):
        statement_memory("10MB")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_DATA is enforced on Linux only")
def test_cap_windows_nest_and_restore() -> None:
    import resource

    before = resource.getrlimit(resource.RLIMIT_DATA)
    with statement_memory_cap(512 * 1024**2) as outer:
        capped = resource.getrlimit(resource.RLIMIT_DATA)
        assert outer and capped[0] != resource.RLIM_INFINITY
        with statement_memory_cap(512 * 1024**2):  # a concurrent statement shares the window
            assert resource.getrlimit(resource.RLIMIT_DATA) == capped
        assert resource.getrlimit(resource.RLIMIT_DATA) == capped
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
    with statement_memory_cap(None if statement_memory() else 0):  # noqa: SIM117
        pass
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
