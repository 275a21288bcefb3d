"""cfab.runner: attempts, policies, the admission gate, the suite runner, its results and
reports, and the ``runner`` command line. The world model it drives (Environment, golden
build) is ``cfab.apps.world``; its names are re-exported here for convenience.

* :mod:`~cfab.runner.attempt` — one attempt end to end; :mod:`~cfab.runner.admit` — the admission gate;
* :mod:`~cfab.runner.worlds`, :mod:`~cfab.runner.jobs`, :mod:`~cfab.runner.pool` — a suite run: its worlds,
  one job per attempt, the worker processes that run them;
* :mod:`~cfab.runner.results` — records, the results folder, summary, report, provenance;
* :mod:`~cfab.runner.policies`, :mod:`~cfab.runner.cost`, :mod:`~cfab.runner.protocols` — who acts, what
  it costs, the interfaces they meet;
* :mod:`~cfab.runner.transports` — the environment over HTTP and MCP;
* :mod:`~cfab.runner.cli` — the ``runner`` command, one module per command group;
* :mod:`~cfab.runner.bench` — ``runner bench``, one module per section.
"""

from cfab.apps.world.environment import Environment, Snapshot
from cfab.apps.world.golden import build_golden, cfab_home, ensure_golden, golden_digest, golden_path
from cfab.runner.admit import Admission, Mutant, admit_task
from cfab.runner.attempt import AttemptOutcome, AttemptView, load_attempt, run_attempt
from cfab.runner.cost import LEDGER_NAME, CostMeter, PriceError, resolve_price
from cfab.runner.policies import available_policies, make_policy, register_policy
from cfab.runner.pool import run_attempts
from cfab.runner.protocols import EnvLike, Policy, TaskLike
from cfab.runner.results.directory import ResultsDir
from cfab.runner.results.records import (
    AttemptRecord,
    AttemptSpec,
    DiffCount,
    Episode,
    FailedCheck,
    TaskMeta,
    ToolCallRecord,
)
from cfab.runner.results.report import render_report, write_outputs
from cfab.runner.results.summary import RunSummary, summarize_run

__all__ = [
    "LEDGER_NAME",
    "Admission",
    "AttemptOutcome",
    "AttemptRecord",
    "AttemptSpec",
    "AttemptView",
    "CostMeter",
    "DiffCount",
    "EnvLike",
    "Environment",
    "Episode",
    "FailedCheck",
    "Mutant",
    "Policy",
    "PriceError",
    "ResultsDir",
    "RunSummary",
    "Snapshot",
    "TaskLike",
    "TaskMeta",
    "ToolCallRecord",
    "admit_task",
    "available_policies",
    "build_golden",
    "cfab_home",
    "ensure_golden",
    "golden_digest",
    "golden_path",
    "load_attempt",
    "make_policy",
    "register_policy",
    "render_report",
    "resolve_price",
    "run_attempt",
    "run_attempts",
    "summarize_run",
    "write_outputs",
]
