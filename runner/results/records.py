"""The run log's edge models: what a policy returns, what a job is, what an attempt records.

* :class:`Episode` — one policy run over one task (reply, steps, tokens, cost, why it stopped).
* :class:`AttemptSpec` — one job for the worker pool (task id, attempt index, policy, options).
* :class:`AttemptRecord` — one graded attempt, one JSON line in ``attempts.jsonl``.

Money is ``Decimal`` and is written to JSON as a string. Infrastructure failures (a crashed
worker, an unloadable task, an API that kept failing) are records too, with ``error`` or
``stop_reason == "api_error"``; they are reported apart and never scored as model failures.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

from pydantic import Field, field_serializer

from cfab.schema.models import FrozenModel

StopReason = Literal["finish", "max_steps", "max_cost", "no_tool_call", "api_error"]

#: stop reasons that mean "the model was not (fully) measured": not scored, listed apart.
UNSCORED_STOP_REASONS: frozenset[str] = frozenset({"api_error", "max_cost"})


class ToolCallRecord(FrozenModel):
    """One tool call the agent made, as dispatched."""

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    ok: bool = True
    error: str | None = None


class FailedCheck(FrozenModel):
    """One grader check that failed (expected, forbidden, required output, guard, L2)."""

    kind: str
    label: str
    detail: str = ""


class DiffCount(FrozenModel):
    """Row counts of one table's state diff."""

    added: int = 0
    removed: int = 0
    changed: int = 0


class Episode(FrozenModel):
    """What a policy returns after running one task in one environment: its free-text reply
    and the typed answers it gave at its finish step (name → value, as the agent sent them)."""

    reply: str = ""
    answers: dict[str, Any] = Field(default_factory=dict)
    steps: int = 0
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: Decimal = Decimal(0)
    stop_reason: StopReason = "finish"
    api_errors: list[str] = Field(default_factory=list)
    model: str | None = None
    usage_estimated: bool = False  # some response lacked `usage`; tokens were estimated

    @field_serializer("cost_usd", when_used="always")
    def _cost_str(self, v: Decimal) -> str:
        return str(v)


class TaskMeta(FrozenModel):
    """The task metadata that metrics group by (carried on specs and records), and the world
    the attempt ran on: its split (``public``, ``regenerated``, ``s11``, a suite file's name),
    that world's seed, the task's key (``task_key``) and its slot (position among its family's tasks)."""

    domain: str = ""
    family: str = ""
    difficulty: int = 0
    systems: list[str] = Field(default_factory=list)
    money_movement_guard: bool = False
    split: str = ""
    seed: int | None = None
    task_key: str = ""
    slot: int | None = None


class AttemptSpec(FrozenModel):
    """One job: run ``policy`` on ``task`` for attempt number ``attempt`` (0-based).

    ``config`` is opaque to the pool; the ``run_one`` function interprets it (suite path,
    out dir, keep-state flag, ...). ``task_meta``, when given, lets the pool write a
    properly grouped error record if the worker dies.
    """

    task: str
    attempt: int = Field(ge=0)
    policy: str
    policy_options: dict[str, Any] = Field(default_factory=dict)
    config: dict[str, Any] = Field(default_factory=dict)
    task_meta: TaskMeta | None = None

    @property
    def key(self) -> tuple[str, int]:
        """The resume key: one results dir holds one run, so (task, attempt) is unique."""
        return (self.task, self.attempt)


class AttemptRecord(FrozenModel):
    """One attempt, graded (or failed for infrastructure reasons): a line of attempts.jsonl."""

    task: str
    attempt: int = Field(ge=0)
    policy: str
    model: str | None = None
    passed: bool = False
    score: float = 0.0
    failed_checks: list[FailedCheck] = Field(default_factory=list)
    diff_summary: dict[str, DiffCount] = Field(default_factory=dict)
    guard_log: list[dict[str, Any]] = Field(default_factory=list)
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    reply: str = ""
    answers: dict[str, Any] = Field(default_factory=dict)
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: Decimal = Decimal(0)
    wall_s: float = 0.0
    error: str | None = None
    stop_reason: StopReason | None = None
    api_errors: list[str] = Field(default_factory=list)
    domain: str = ""
    family: str = ""
    difficulty: int = 0
    systems: list[str] = Field(default_factory=list)
    money_movement_guard: bool = False
    state_path: str | None = None
    # the world (defaults keep results written before multi-world runs loadable): see TaskMeta.
    # In a run over several worlds ``task`` is ``<instance_id>@<split>`` so ids never collide.
    split: str = ""
    seed: int | None = None
    task_key: str = ""
    slot: int | None = None

    @field_serializer("cost_usd", when_used="always")
    def _cost_str(self, v: Decimal) -> str:
        return str(v)

    @property
    def key(self) -> tuple[str, int]:
        """(task, attempt), the resume key."""
        return (self.task, self.attempt)

    @property
    def infra_failure(self) -> bool:
        """An infrastructure failure: crashed worker, unloadable task, API kept failing."""
        return self.error is not None or self.stop_reason == "api_error"

    @property
    def scored(self) -> bool:
        """Counts in the metrics: not an infrastructure failure, not stopped by the cost ceiling."""
        return self.error is None and self.stop_reason not in UNSCORED_STOP_REASONS

    @property
    def called_guarded_tool(self) -> bool:
        """The agent invoked a money-movement (guarded) tool at least once."""
        return bool(self.guard_log)

    @classmethod
    def infra_error(
        cls, spec: AttemptSpec, error: str, *, model: str | None = None, wall_s: float = 0.0
    ) -> AttemptRecord:
        """The record for a job that could not run (worker crash, task failed to load, ...)."""
        meta = spec.task_meta or TaskMeta()
        return cls(
            task=spec.task,
            attempt=spec.attempt,
            policy=spec.policy,
            model=model if model is not None else spec.policy_options.get("model"),
            error=error,
            wall_s=wall_s,
            **meta.model_dump(),
        )

    @classmethod
    def from_episode(
        cls,
        spec: AttemptSpec,
        episode: Episode,
        meta: TaskMeta,
        *,
        passed: bool,
        score: float,
        wall_s: float,
        **grading: Any,
    ) -> AttemptRecord:
        """Assemble a record from a spec, the policy's episode, the task metadata and the grade.

        ``grading`` carries the grader's fields: failed_checks, diff_summary, guard_log,
        state_path, and optionally tool_calls (the environment's own log, which then
        replaces the episode's).
        """
        fields: dict[str, Any] = dict(
            task=spec.task,
            attempt=spec.attempt,
            policy=spec.policy,
            model=episode.model,
            passed=passed,
            score=score,
            tool_calls=episode.tool_calls,
            reply=episode.reply,
            answers=episode.answers,
            tokens_in=episode.tokens_in,
            tokens_out=episode.tokens_out,
            cost_usd=episode.cost_usd,
            wall_s=wall_s,
            stop_reason=episode.stop_reason,
            api_errors=episode.api_errors,
            **meta.model_dump(),
        )
        fields.update(grading)
        return cls(**fields)
