"""Baseline policies that need no task knowledge. ``NoopPolicy`` floors the benchmark:
no tool calls, no state change, an empty reply (the paper's trivial baseline, 0.00 on all
tasks)."""

from __future__ import annotations

from typing import Any

from cfab.runner.protocols import EnvLike, TaskLike
from cfab.runner.results.records import Episode


class NoopPolicy:
    """Does nothing: no calls, empty reply, zero tokens and cost."""

    name = "noop"
    model: str | None = None

    def __init__(self, **options: Any) -> None:
        if options:
            raise TypeError(f"noop takes no options, got {sorted(options)}")

    def run(self, task: TaskLike, env: EnvLike) -> Episode:
        """Return an empty episode without touching ``env``."""
        return Episode(reply="", steps=0, stop_reason="finish", model=None)
