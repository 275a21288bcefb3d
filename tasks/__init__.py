"""cfab.tasks: the task model, the families that generate tasks from the book and compiled suites.

Tasks are data: nothing here imports the runner (the admission gate that replays them lives in
``cfab.runner.admit``). Names are imported on first use, so loading a suite stays cheap."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__all__ = [
    "Task",
    "ToolStep",
    "StepResults",
    "result_of",
    "Trajectory",
    "Rubric",
    "RubricCheck",
    "ContaminationMeta",
    "Family",
    "BookReader",
    "compile_suite",
    "load_suite",
    "select_tasks",
    "dump_suite",
    "parse_suite",
]

_WHERE = {
    "Task": "model",
    "ToolStep": "model",
    "StepResults": "model",
    "result_of": "model",
    "Trajectory": "model",
    "Rubric": "model",
    "RubricCheck": "model",
    "ContaminationMeta": "model",
    "Family": "family",
    "BookReader": "family",
    "compile_suite": "suite",
    "load_suite": "suite",
    "select_tasks": "suite",
    "dump_suite": "suite",
    "parse_suite": "suite",
}

if TYPE_CHECKING:
    from cfab.tasks.family import BookReader, Family
    from cfab.tasks.model import (
        ContaminationMeta,
        Rubric,
        RubricCheck,
        StepResults,
        Task,
        ToolStep,
        Trajectory,
        result_of,
    )
    from cfab.tasks.suite import compile_suite, dump_suite, load_suite, parse_suite, select_tasks


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(import_module(f"cfab.tasks.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'cfab.tasks' has no attribute {name!r}")
