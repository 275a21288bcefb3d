"""What a run leaves behind, one concept per module:

* :mod:`~cfab.runner.results.records` — the run log's edge models (an episode, a job, a graded attempt);
* :mod:`~cfab.runner.results.directory` — a run's output folder (``attempts.jsonl``, crash-safe, and its files);
* :mod:`~cfab.runner.results.summary` — the records folded into metrics (``summary.json``);
* :mod:`~cfab.runner.results.report` — the summary as ``report.md``;
* :mod:`~cfab.runner.results.provenance` — which suite, world, code and endpoint produced a result.
"""

from cfab.runner.results.directory import ResultsDir
from cfab.runner.results.records import (
    UNSCORED_STOP_REASONS,
    AttemptRecord,
    AttemptSpec,
    DiffCount,
    Episode,
    FailedCheck,
    StopReason,
    TaskMeta,
    ToolCallRecord,
)
from cfab.runner.results.report import render_report, write_outputs
from cfab.runner.results.summary import RunSummary, summarize_run

__all__ = [
    "UNSCORED_STOP_REASONS",
    "AttemptRecord",
    "AttemptSpec",
    "DiffCount",
    "Episode",
    "FailedCheck",
    "ResultsDir",
    "RunSummary",
    "StopReason",
    "TaskMeta",
    "ToolCallRecord",
    "render_report",
    "summarize_run",
    "write_outputs",
]
