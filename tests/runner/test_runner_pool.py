"""The worker pool: no duplicates, a dead worker costs one job, SIGKILL + resume is exact."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from cfab.runner.pool import run_attempts
from cfab.runner.results import ResultsDir
from cfab.runner.results.records import AttemptSpec, TaskMeta
from tests.runner import runner_helpers
from tests.runner.runner_helpers import run_one

META = TaskMeta(
    domain="AP & Procurement", family="C_coi_hold", difficulty=1, systems=["vista_erp"], money_movement_guard=True
)


def jobs(n, **config):
    return [
        AttemptSpec(task=f"t{i // 3:02}", attempt=i % 3, policy="noop", config=dict(config), task_meta=META)
        for i in range(n)
    ]


def lines(out: Path) -> list[bytes]:
    return (out / "attempts.jsonl").read_bytes().splitlines()


def test_two_workers_run_every_job_once(tmp_path):
    results = ResultsDir(tmp_path)
    js = jobs(12)
    run_attempts(js + js[:3], run_one, workers=2, results=results, progress=False)
    recs = results.load()
    assert len(lines(tmp_path)) == 12
    assert sorted(r.key for r in recs) == sorted(j.key for j in js)
    assert all(r.error is None for r in recs)
    assert len({r.reply for r in recs}) <= 2  # two worker pids did the work
    # resume: nothing left to do, nothing appended
    run_attempts(js, run_one, workers=2, results=ResultsDir(tmp_path), progress=False)
    assert len(lines(tmp_path)) == 12


def test_a_dead_worker_costs_exactly_its_job(tmp_path):
    results = ResultsDir(tmp_path)
    js = jobs(9, sleep=0.02)
    bad = {js[2].key: "exit", js[5].key: "sigkill", js[6].key: "raise", js[7].key: "sysexit"}
    js = [j.model_copy(update={"config": {"crash": bad[j.key]}}) if j.key in bad else j for j in js]
    run_attempts(js, run_one, workers=2, results=results, progress=False)
    recs = {r.key: r for r in results.load()}
    assert len(recs) == 9 and len(lines(tmp_path)) == 9
    assert recs[js[2].key].error == "worker process died (exit code 3)"
    assert recs[js[5].key].error == "worker process died (signal SIGKILL)"
    assert "RuntimeError: task failed to load" in recs[js[6].key].error
    assert "SystemExit" in recs[js[7].key].error
    for key in bad:  # error records keep the task metadata for grouping
        assert recs[key].family == "C_coi_hold" and recs[key].money_movement_guard
        assert recs[key].infra_failure and not recs[key].scored
    assert all(r.error is None for k, r in recs.items() if k not in bad)
    # resuming with retry_errors re-runs exactly the failed jobs (now healthy)
    healthy = [j.model_copy(update={"config": {}}) for j in js]
    run_attempts(healthy, run_one, workers=2, results=ResultsDir(tmp_path), progress=False, retry_errors=True)
    assert len(lines(tmp_path)) == 9 + len(bad)
    assert all(r.error is None for r in ResultsDir(tmp_path).load())


def test_in_process_mode_records_exceptions(tmp_path):
    results = ResultsDir(tmp_path)
    js = jobs(4)
    js[1] = js[1].model_copy(update={"config": {"crash": "raise"}})
    run_attempts(js, run_one, workers=1, results=results, progress=False)
    recs = {r.key: r for r in results.load()}
    assert len(recs) == 4 and recs[js[1].key].error.startswith("run_one raised: RuntimeError")
    assert {r.reply for k, r in recs.items() if k != js[1].key} == {f"pid={os.getpid()}"}


def test_sigkill_of_the_whole_run_then_resume_is_exact(tmp_path):
    n = 40
    root = Path(runner_helpers.__file__).parents[2]  # the repository root, where `tests` is a package
    cmd = [sys.executable, "-m", "tests.runner.runner_helpers", str(tmp_path), str(n), "0.05"]
    proc = subprocess.Popen(cmd, cwd=root, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            path = tmp_path / "attempts.jsonl"
            if path.exists() and len(path.read_bytes().splitlines()) >= 6:
                break
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.01)
        else:
            raise AssertionError("the run never got going")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # parent and workers, no clean-up
        proc.wait(10)
    first = len(lines(tmp_path))
    assert 6 <= first < n
    with open(tmp_path / "attempts.jsonl", "ab") as fh:  # as if killed mid-write
        fh.write(b'{"task":"t05","attempt":1,"pol')
    done = subprocess.run(cmd, cwd=root, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    keys = [(r.task, r.attempt) for r in ResultsDir(tmp_path).load()]
    raw = lines(tmp_path)
    assert len(raw) == n and len(set(keys)) == n
    assert max(Counter(raw).values()) == 1
