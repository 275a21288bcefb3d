"""cfab.tasks: the task model, the families that generate tasks from the book, compiled suites
and the admission gate.

Names are imported on first use (the admission gate pulls in the runner)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__all__ = [
    "Task",
    "ToolStep",
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
    "admit_task",
    "Admission",
    "Mutant",
]

_WHERE = {
    "Task": "model", "ToolStep": "model", "Trajectory": "model", "Rubric": "model", "RubricCheck": "model",
    "ContaminationMeta": "model", "Family": "family", "BookReader": "family",
    "compile_suite": "suite", "load_suite": "suite", "select_tasks": "suite", "dump_suite": "suite",
    "parse_suite": "suite", "admit_task": "admit", "Admission": "admit", "Mutant": "admit",
}

if TYPE_CHECKING:
    from cfab.tasks.admit import Admission, Mutant, admit_task
    from cfab.tasks.family import BookReader, Family
    from cfab.tasks.model import ContaminationMeta, Rubric, RubricCheck, Task, ToolStep, Trajectory
    from cfab.tasks.suite import compile_suite, dump_suite, load_suite, parse_suite, select_tasks


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(import_module(f"cfab.tasks.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'cfab.tasks' has no attribute {name!r}")
