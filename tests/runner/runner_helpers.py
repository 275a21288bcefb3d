"""Top-level helpers for the runner tests (importable by spawned worker processes)."""

from __future__ import annotations

import os
import signal
import sys
import time
from decimal import Decimal

from cfab.runner.results.records import AttemptRecord, AttemptSpec


def make_record(task: str, attempt: int, **kw) -> AttemptRecord:
    fields = dict(
        task=task,
        attempt=attempt,
        policy="noop",
        passed=attempt % 2 == 0,
        score=1.0 if attempt % 2 == 0 else 0.0,
        domain="GL & Close",
        family="E_accrual",
        difficulty=3,
        systems=["procore", "vista_erp"],
        cost_usd=Decimal("0.0123"),
    )
    fields.update(kw)
    return AttemptRecord(**fields)


def run_one(spec: AttemptSpec) -> AttemptRecord:
    """The pool's test job: behaviour chosen by spec.config."""
    cfg = spec.config
    time.sleep(cfg.get("sleep", 0.0))
    if cfg.get("crash") == "exit":
        os._exit(3)
    if cfg.get("crash") == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    if cfg.get("crash") == "raise":
        raise RuntimeError("task failed to load")
    if cfg.get("crash") == "sysexit":
        sys.exit(2)
    return make_record(spec.task, spec.attempt, policy=spec.policy, reply=f"pid={os.getpid()}", wall_s=0.0)


def append_many(out: str, worker: int, n: int, size: int) -> None:
    """Append n large records from one process (concurrency test)."""
    from cfab.runner.results import ResultsDir

    results = ResultsDir(out)
    for i in range(n):
        results.append(make_record(f"w{worker}", i, reply=f"{worker}:" + "x" * size))


def add_costs(ledger: str, n: int) -> None:
    """Add n × $0.001 to a shared cost ledger (concurrency test)."""
    from cfab.runner.cost import CostMeter

    meter = CostMeter("100", ledger)
    for _ in range(n):
        meter.add(Decimal("0.001"))


def pool_script(out: str, n: int, sleep: float) -> None:
    """Run n jobs with 2 workers into out (the SIGKILL/resume test runs this as a script)."""
    from cfab.runner.pool import run_attempts
    from cfab.runner.results import ResultsDir

    jobs = [AttemptSpec(task=f"t{i // 2:03}", attempt=i % 2, policy="noop", config={"sleep": sleep}) for i in range(n)]
    run_attempts(jobs, run_one, workers=2, results=ResultsDir(out), progress=False)


if __name__ == "__main__":
    # run as `python -m tests.runner.runner_helpers` from the repository root: workers unpickle
    # tests.runner.runner_helpers.run_one, not __main__'s
    from tests.runner import runner_helpers

    runner_helpers.pool_script(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]))
