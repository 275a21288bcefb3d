"""cfab.runner: attempts, policies, the admission gate, the suite runner, its results and
reports, and the ``runner`` command line. The world model it drives (Environment, golden
build) is ``cfab.apps.world``; its names are re-exported here for convenience."""

from cfab.runner.admit import Admission, Mutant, admit_task
from cfab.runner.attempt import AttemptOutcome, AttemptView, load_attempt, run_attempt
from cfab.runner.cost import LEDGER_NAME, CostMeter, PriceError, resolve_price
from cfab.apps.world.environment import Environment, Snapshot
from cfab.apps.world.golden import build_golden, cfab_home, ensure_golden, golden_digest, golden_path
from cfab.runner.policies import available_policies, make_policy, register_policy
from cfab.runner.pool import run_attempts
from cfab.runner.protocols import EnvLike, Policy, TaskLike
from cfab.runner.records import AttemptRecord, AttemptSpec, DiffCount, Episode, FailedCheck, TaskMeta, ToolCallRecord
from cfab.runner.report import RunSummary, render_report, summarize_run, write_outputs
from cfab.runner.results import ResultsDir

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
