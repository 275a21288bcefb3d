"""The task instance schema (the paper's ``cfagentbench_v1.jsonl`` line), as pydantic models.

A Task carries what an agent sees (instruction, systems, role, policy) and what the harness
keeps to itself (ground truth evaluator, oracle trajectory, valid alternatives, the guarded
step an over-eager agent would take). ``Task.model_json_schema()`` is exported for authors by
``runner tasks schema``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from cfab.grader.answers import answers_schema
from cfab.grader.predicates import Evaluator
from cfab.schema.models import FrozenModel

DOMAINS: dict[str, str] = {
    "A": "Project Accounting",
    "B": "Billing",
    "C": "AP & Procurement",
    "G": "GL & Close",
    "H": "Cross-system",
    "P": "Payroll & HR",
    "R": "Reporting & Compliance",
    "T": "Cash & Treasury",
}


class ToolStep(FrozenModel):
    """One tool call of a trajectory: native tool name and JSON arguments.

    An argument may be a :func:`result_of` reference instead of a literal: the value an earlier
    call returned (the batch id a ``stage`` call gave, a new draft's id), resolved when the
    trajectory is replayed. Families never open an Environment to learn such ids."""

    tool: str = Field(..., examples=["procore.commitments.list"])
    args: dict[str, Any] = Field(default_factory=dict)


RESULT_OF = "$result_of"


def result_of(tool: str, path: str) -> dict[str, str]:
    """An argument that stands for ``path`` (dotted, e.g. ``"draft.id"``) in the data of the most
    recent successful call of ``tool`` earlier in the same replay."""
    return {RESULT_OF: tool, "path": path}


class StepResults:
    """What the calls of one replay returned, to resolve :func:`result_of` arguments.

    One instance spans a replay and whatever is replayed after it in the same world (the
    oracle, then its guarded step), so a later step can name what an earlier one created."""

    def __init__(self) -> None:
        self.last: dict[str, Any] = {}

    def record(self, tool: str, result: dict[str, Any]) -> None:
        if result.get("ok"):
            self.last[tool] = result.get("data")

    def resolve(self, args: dict[str, Any]) -> dict[str, Any]:
        return {k: self._value(v) for k, v in args.items()}

    def _value(self, value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {RESULT_OF, "path"}:
                return self._lookup(value[RESULT_OF], value["path"])
            return {k: self._value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._value(v) for v in value]
        return value

    def _lookup(self, tool: str, path: str) -> Any:
        if tool not in self.last:
            raise ValueError(f"a step refers to the result of {tool}, which has not succeeded earlier in this replay")
        value = self.last[tool]
        for part in path.split("."):
            if not isinstance(value, dict) or part not in value:
                raise ValueError(f"the result of {tool} has no {path!r}")
            value = value[part]
        return value


MutantClass = Literal["lookalike", "stale", "careless", "contradicting_report", "shortcut"]


class Trajectory(FrozenModel):
    """A sequence of tool calls, the final reply and the typed answers given at finish.

    On a task's ``mutants`` list, ``mutant_class`` says what kind of wrong it is: the
    oracle's write applied to the ``lookalike`` record, the ``stale`` value (the figure
    before the twist), a ``careless`` shortcut, a ``contradicting_report``, or a
    ``shortcut`` that answers without doing the work."""

    label: str = "oracle"
    steps: list[ToolStep]
    reply: str
    answers: dict[str, Any] = Field(default_factory=dict)
    mutant_class: MutantClass | None = None


class RubricCheck(FrozenModel):
    weight: float = Field(..., gt=0, le=1)
    check: str


class Rubric(FrozenModel):
    primary: str = "state_diff_match"
    partial: list[RubricCheck] = []

    @classmethod
    def of(cls, **weights: float) -> Rubric:
        """The partial-credit checks by name and weight, in order: ``Rubric.of(left_pending=0.2, …)``."""
        return cls(partial=[RubricCheck(weight=w, check=name) for name, w in weights.items()])

    @field_validator("partial")
    @classmethod
    def _weights(cls, value: list[RubricCheck]) -> list[RubricCheck]:
        if value and abs(sum(c.weight for c in value) - 1.0) > 1e-9:
            raise ValueError(f"partial-credit weights must sum to 1, got {sum(c.weight for c in value)}")
        return value


#: The two partitions of a family's keys (the paper's public split and its held-out Pro split).
Partition = Literal["public", "held_out"]
#: The ``split`` label each partition's tasks carry.
SPLIT_LABEL: dict[str, str] = {
    "public": "CFAgentBench-SQL executable",
    "held_out": "CFAgentBench-SQL held-out",
}


class ContaminationMeta(FrozenModel):
    collected_at: str = Field(..., examples=["2026-11"])
    publishable: bool = True
    sha256: str = Field(..., description="sha256 of the problem (instruction + systems + ground truth)")


class Task(FrozenModel):
    """One executable task instance."""

    instance_id: str = Field(..., examples=["cf_C_coi_hold_V1000"])
    domain: str
    domain_code: Literal["A", "B", "C", "G", "H", "P", "R", "T"]
    family: str = Field(..., examples=["C_coi_hold"])
    key: str = Field(..., description="the family parameter (job, vendor, …)", examples=["V1000"])
    taxonomy_path: str = Field(..., examples=["C.Compliance.coi_payment_hold"])
    difficulty: int = Field(..., ge=1, le=4)
    systems: list[str] = Field(..., min_length=1)
    user_role: str = Field(..., examples=["AP Manager"])
    instruction: str
    policy_ref: str = Field(..., examples=["insurance_compliance_policy.md"])
    defect_variant: str | None = None
    money_movement_guard: bool
    sql_write: bool = Field(False, description="offer sql.execute (writes through the gate) in this task")
    ground_truth: Evaluator
    rubric: Rubric = Rubric()
    oracle: Trajectory
    alternatives: list[Trajectory] = Field(default_factory=list, description="other valid trajectories")
    mutants: list[Trajectory] = Field(
        default_factory=list,
        description="wrong trajectories the grader must fail (lookalike record, stale value, "
        "careless shortcut), each with its mutant_class",
    )
    guarded_step: ToolStep | None = Field(None, description="the money-moving call a careless agent would make")
    source_type: str = "plan_doc"
    source_ref: str = ""
    split: str = "CFAgentBench-SQL executable"
    partition: Partition = Field(
        "public",
        description="public: published with the package; held_out: never shipped, scored remotely "
        "(runner serve --suite held_out) so its ground truth stays with the operator",
    )
    contamination_meta: ContaminationMeta

    @field_validator("instance_id")
    @classmethod
    def _id_shape(cls, value: str) -> str:
        if not value.startswith("cf_") or " " in value:
            raise ValueError(f"instance_id must look like cf_<family>_<key>, got {value!r}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Task:
        if DOMAINS[self.domain_code] != self.domain:
            raise ValueError(
                f"domain {self.domain!r} does not match code {self.domain_code} ({DOMAINS[self.domain_code]})"
            )
        if self.ground_truth.money_movement_guard != self.money_movement_guard:
            raise ValueError("money_movement_guard differs between the task and its ground truth")
        names = {a.name for a in self.ground_truth.answers}
        for traj in [self.oracle, *self.alternatives]:
            missing = sorted(names - {k.lower() for k in traj.answers})
            if missing:
                raise ValueError(f"trajectory {traj.label!r} gives no answer {missing}")
        for traj in self.mutants:
            if traj.mutant_class is None:
                raise ValueError(f"mutant trajectory {traj.label!r} has no mutant_class")
        return self

    @property
    def apps(self) -> list[str]:
        return list(self.systems)

    def answer_specs(self) -> list[dict[str, Any]]:
        """The answers the task asks for, as the agent sees them (name, type, description, options)."""
        return [a.public() for a in self.ground_truth.answers]

    def answers_schema(self) -> dict[str, Any]:
        """JSON Schema of the answers object the finish step takes (empty object when none)."""
        return answers_schema(self.ground_truth.answers)

    def agent_view(self) -> dict[str, Any]:
        """What an agent may see: no ground truth, no oracle; the answers it must give, typed."""
        view = self.model_dump(
            include={
                "instance_id",
                "domain",
                "family",
                "difficulty",
                "systems",
                "user_role",
                "instruction",
                "policy_ref",
            }
        )
        view["answers"] = self.answer_specs()
        view["answers_schema"] = self.answers_schema()
        return view


def problem_hash(instruction: str, systems: list[str], ground_truth: Evaluator) -> str:
    """sha256 of the problem: instruction, systems and the evaluator (canonical JSON)."""
    payload = json.dumps(
        {
            "instruction": instruction,
            "systems": sorted(systems),
            "ground_truth": ground_truth.model_dump(mode="json", by_alias=True),
        },
        sort_keys=True,
        separators=(",", ":"),
    )
    return "sha256:" + hashlib.sha256(payload.encode()).hexdigest()
