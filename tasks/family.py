"""Task families: parameterized generators of executable tasks.

A family derives, for each key (a job, a vendor, …), the instruction, the evaluator — every
expected value computed from the book with SQL, never typed in — the oracle trajectory, valid
alternative trajectories and the guarded step a careless agent would take. Families read the
golden file through a :class:`BookReader` (read-only; both the hidden book and the app
schemas, so oracle arguments can use the apps' native ids).

Family SQL lives in ``tasks/sql/<family>.sql`` as named queries::

    -- name: expired_coi
    SELECT ... WHERE vendor_key = $vendor_key;
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

import duckdb

from cfab.grader.predicates import Evaluator
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.model import DOMAINS, ContaminationMeta, Rubric, Task, ToolStep, Trajectory, problem_hash

_NAME = re.compile(r"^--\s*name\s*:\s*(\S+)\s*$")


class BookReader:
    """Read-only access to a golden file for task compilation."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.con = duckdb.connect(str(self.path), read_only=True)
        self._queries: dict[str, dict[str, str]] = {}

    def close(self) -> None:
        self.con.close()

    @cached_property
    def inputs(self) -> BuildInputs:
        meta = dict(self.con.execute("SELECT key, value FROM cfab_internal.meta").fetchall())
        return BuildInputs.from_env(seed=int(meta["seed"]), clock=meta["clock"], scale=int(meta["scale"]))

    def rows(self, sql: str, params: dict[str, Any] | list[Any] | None = None) -> list[dict[str, Any]]:
        cur = self.con.execute(sql, params)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]

    def one(self, sql: str, params: dict[str, Any] | list[Any] | None = None) -> dict[str, Any]:
        out = self.rows(sql, params)
        if len(out) != 1:
            raise ValueError(f"expected exactly one row, got {len(out)}: {sql.strip()[:200]}")
        return out[0]

    def scalar(self, sql: str, params: dict[str, Any] | list[Any] | None = None) -> Any:
        row = self.con.execute(sql, params).fetchone()
        if row is None:
            raise ValueError(f"query returned no row: {sql.strip()[:200]}")
        return row[0]

    def named(self, family: str, name: str) -> str:
        """A named query from ``tasks/sql/<family>.sql``."""
        if family not in self._queries:
            ref = resources.files("cfab.tasks").joinpath("sql", f"{family}.sql")
            self._queries[family] = _split_named(ref.read_text(encoding="utf-8")) if ref.is_file() else {}
        try:
            return self._queries[family][name]
        except KeyError:
            raise KeyError(f"no query {name!r} in tasks/sql/{family}.sql") from None

    def q(self, family: str, name: str, **params: Any) -> list[dict[str, Any]]:
        return self.rows(self.named(family, name), params or None)


def _split_named(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    current: str | None = None
    body: list[str] = []
    for line in text.splitlines():
        m = _NAME.match(line.strip())
        if m:
            if current:
                out[current] = "\n".join(body).strip().rstrip(";")
            current, body = m.group(1), []
        else:
            body.append(line)
    if current:
        out[current] = "\n".join(body).strip().rstrip(";")
    return out


@dataclass
class TaskParts:
    """What a family computes for one key; :meth:`Family.task` wraps it into a Task."""

    instruction: str
    evaluator: Evaluator
    oracle: Trajectory
    alternatives: list[Trajectory] = field(default_factory=list)
    mutants: list[Trajectory] = field(default_factory=list)
    guarded_step: ToolStep | None = None
    defect_variant: str | None = None
    systems: list[str] | None = None
    rubric: Rubric | None = None


class Family:
    """Base class of a task family; subclasses set the constants and implement ``keys``/``build``."""

    family: ClassVar[str]
    domain_code: ClassVar[str]
    taxonomy_path: ClassVar[str]
    difficulty: ClassVar[int]
    systems: ClassVar[list[str]]
    user_role: ClassVar[str]
    policy_ref: ClassVar[str]
    money_movement_guard: ClassVar[bool]
    sql_write: ClassVar[bool] = False
    source_type: ClassVar[str] = "plan_doc"
    source_ref: ClassVar[str] = ""
    collected_at: ClassVar[str] = "2026-11"
    #: False for families whose planted items are picked from the whole book and are therefore
    #: ambiguous once scale-N replicas copy them: such a family is left out of scale-N suites
    #: (and the runner says so) instead of failing the compile.
    scales: ClassVar[bool] = True

    def keys(self, book: BookReader) -> list[str]:
        raise NotImplementedError

    def build(self, key: str, book: BookReader) -> TaskParts:
        raise NotImplementedError

    def task(self, key: str, book: BookReader) -> Task:
        parts = self.build(key, book)
        systems = parts.systems or list(self.systems)
        return Task(
            instance_id=f"cf_{self.family}_{key}", domain=DOMAINS[self.domain_code], domain_code=self.domain_code,
            family=self.family, key=key, taxonomy_path=self.taxonomy_path, difficulty=self.difficulty,
            systems=systems, user_role=self.user_role, instruction=parts.instruction, policy_ref=self.policy_ref,
            defect_variant=parts.defect_variant, money_movement_guard=self.money_movement_guard,
            sql_write=self.sql_write, ground_truth=parts.evaluator, rubric=parts.rubric or Rubric(),
            oracle=parts.oracle, alternatives=parts.alternatives, mutants=parts.mutants, guarded_step=parts.guarded_step,
            source_type=self.source_type, source_ref=self.source_ref,
            contamination_meta=ContaminationMeta(collected_at=self.collected_at, publishable=True,
                                                 sha256=problem_hash(parts.instruction, systems, parts.evaluator)))


def money_str(value: Any) -> str:
    """An exact decimal amount as the string evaluators and oracle arguments use ("14350.00")."""
    return str(Decimal(str(value)).quantize(Decimal("0.01")))


def dollars(value: Any) -> str:
    """An amount as people write it in an instruction or reply: ``$14,350.00``."""
    return f"${Decimal(str(value)).quantize(Decimal('0.01')):,}"
