"""cfab.runner: the Environment, the golden build, attempts, policies, the suite runner, its
results and reports, and the ``runner`` command line."""

from cfab.runner.attempt import AttemptOutcome, AttemptView, load_attempt, run_attempt
from cfab.runner.cost import LEDGER_NAME, CostMeter, PriceError, resolve_price
from cfab.runner.environment import Environment, Snapshot
from cfab.runner.golden import build_golden, cfab_home, ensure_golden, golden_digest, golden_path
from cfab.runner.policies import available_policies, make_policy, register_policy
from cfab.runner.pool import run_attempts
from cfab.runner.protocols import EnvLike, Policy, TaskLike
from cfab.runner.records import AttemptRecord, AttemptSpec, DiffCount, Episode, FailedCheck, TaskMeta, ToolCallRecord
from cfab.runner.report import RunSummary, render_report, summarize_run, write_outputs
from cfab.runner.results import ResultsDir

__all__ = [
    "LEDGER_NAME",
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
    "Policy",
    "PriceError",
    "ResultsDir",
    "RunSummary",
    "Snapshot",
    "TaskLike",
    "TaskMeta",
    "ToolCallRecord",
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
