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

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

import duckdb

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.kit.answers import answers_of
from cfab.tasks.model import (
    DOMAINS,
    SPLIT_LABEL,
    ContaminationMeta,
    Partition,
    Rubric,
    Task,
    ToolStep,
    Trajectory,
    problem_hash,
)

_NAME = re.compile(r"^--\s*name\s*:\s*(\S+)\s*$")

#: The share of each family's tasks held out of the published suite: the paper's private split
#: is 303 of 1,014 instances. The public keys stay what they are (published ids never move);
#: the held-out ones are *further* keys with the same property, about 3 for every 7 public.
HELD_OUT_SHARE = 0.3


def held_out_count(public: int) -> int:
    """How many held-out keys make about :data:`HELD_OUT_SHARE` of a family with ``public``
    published keys: ``round(public * 3 / 7)``, at least one."""
    return max(1, round(public * HELD_OUT_SHARE / (1 - HELD_OUT_SHARE)))


def pick_held_out(family: str, candidates: Iterable[str], public: Iterable[str], n: int) -> list[str]:
    """``n`` of ``candidates`` that are not public keys, chosen deterministically: ordered by
    the sha256 of ``family:key`` (so the choice depends only on the book's candidates, not on
    the order a query returns them, and differs between worlds whose candidates differ)."""
    taken = set(public)
    pool = sorted({c for c in candidates if c not in taken})
    pool.sort(key=lambda k: hashlib.sha256(f"{family}:{k}".encode()).hexdigest())
    return pool[: max(0, n)]


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
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]

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
    rubric: Rubric | None = None
    systems: list[str] | None = None  # the apps this key composes (None: the family's ``systems``)


C = TypeVar("C")


class Family(Generic[C]):
    """Base class of a task family, generic in its *case* ``C``: what one task is built from.

    A family is a module ``tasks/families/<family id>.py`` holding ``FAMILY = "<id>"`` and one
    subclass named by the CamelCase of the id, its card given as class keywords::

        class CCoiHold(Family[Case], family=FAMILY, domain_code="C", taxonomy_path="C.Compliance.coi_payment_hold",
                       difficulty=1, systems=["box", "procore", "hh2", "vista_erp"], user_role="AP Manager",
                       policy_ref="insurance_compliance_policy.md", money_movement_guard=True, source_ref="…"):

    It implements :meth:`keys` and the named steps :meth:`build` composes: :meth:`case` reads the
    book once for a key (the family's named SQL in ``tasks/sql/<family id>.sql``); :meth:`answers`
    declares the typed answers; :meth:`instruction`, :meth:`evaluator`, :meth:`oracle`,
    :meth:`alternatives`, :meth:`mutants`, :meth:`guarded_step` and :meth:`defect_variant` compute
    the rest from the case, with the kit (``cfab.tasks.kit``). ``report`` is the oracle's answers.
    """

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
    #: The partial-credit rubric of every task of the family (None: the default rubric).
    rubric: ClassVar[Rubric | None] = None

    def __init_subclass__(
        cls,
        *,
        family: str,
        domain_code: str,
        taxonomy_path: str,
        difficulty: int,
        systems: list[str],
        user_role: str,
        policy_ref: str,
        money_movement_guard: bool,
        source_ref: str,
        scales: bool = True,
        rubric: Rubric | None = None,
        sql_write: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        cls.family, cls.domain_code, cls.taxonomy_path, cls.difficulty = family, domain_code, taxonomy_path, difficulty
        cls.systems, cls.user_role, cls.policy_ref = list(systems), user_role, policy_ref
        cls.money_movement_guard, cls.source_ref = money_movement_guard, source_ref
        cls.scales, cls.rubric, cls.sql_write = scales, rubric, sql_write

    def keys(self, book: BookReader) -> list[str]:
        """The keys of the family's tasks on this book, chosen by property (deterministic order)."""
        raise NotImplementedError

    def held_out_keys(self, book: BookReader) -> list[str]:
        """The keys of the family's *held-out* tasks on this book: further keys with the same
        property as :meth:`keys`, disjoint from them — usually
        ``pick_held_out(self.family, candidates, self.keys(book), held_out_count(len(public)))``.
        ``[]`` when the book hosts none (the held-out compile says which families gave none)."""
        return []

    def case(self, key: str, book: BookReader) -> C:
        """What the task for ``key`` is built from, read from the book (raise when a twist is missing)."""
        raise NotImplementedError

    def answers(self, case: C) -> list[AnswerSpec]:
        """The typed answers the instruction asks for (none by default)."""
        return []

    def instruction(self, case: C, answers: list[AnswerSpec]) -> str:
        raise NotImplementedError

    def evaluator(self, case: C, answers: list[AnswerSpec]) -> Evaluator:
        raise NotImplementedError

    def oracle(self, case: C, report: dict[str, Any]) -> Trajectory:
        raise NotImplementedError

    def alternatives(self, case: C, report: dict[str, Any]) -> list[Trajectory]:
        """Other valid trajectories (other tools, orders, spellings, a corrected mistake)."""
        return []

    def mutants(self, case: C, report: dict[str, Any]) -> list[Trajectory]:
        """The family's wrong trajectories, each with its ``mutant_class``."""
        return []

    def guarded_step(self, case: C) -> ToolStep | None:
        """The money-moving (or posting, sending, filing) call a careless agent would make."""
        return None

    def defect_variant(self, case: C) -> str | None:
        """The twist this task carries (None: none)."""
        return None

    def build(self, key: str, book: BookReader) -> TaskParts:
        case = self.case(key, book)
        answers = self.answers(case)
        report = answers_of(answers)
        return TaskParts(
            instruction=self.instruction(case, answers),
            evaluator=self.evaluator(case, answers),
            oracle=self.oracle(case, report),
            alternatives=self.alternatives(case, report),
            mutants=self.mutants(case, report),
            guarded_step=self.guarded_step(case),
            defect_variant=self.defect_variant(case),
            rubric=self.rubric,
            systems=self.task_systems(case),
        )

    def task_systems(self, case: C) -> list[str] | None:
        """The apps one key composes when keys differ in them (default: the family's ``systems``)."""
        return None

    def task(self, key: str, book: BookReader, partition: Partition = "public") -> Task:
        parts = self.build(key, book)
        systems = list(parts.systems or self.systems)
        return Task(
            instance_id=f"cf_{self.family}_{key}",
            domain=DOMAINS[self.domain_code],
            domain_code=self.domain_code,
            family=self.family,
            key=key,
            taxonomy_path=self.taxonomy_path,
            difficulty=self.difficulty,
            systems=systems,
            user_role=self.user_role,
            instruction=parts.instruction,
            policy_ref=self.policy_ref,
            defect_variant=parts.defect_variant,
            money_movement_guard=self.money_movement_guard,
            sql_write=self.sql_write,
            ground_truth=parts.evaluator,
            rubric=parts.rubric or Rubric(),
            oracle=parts.oracle,
            alternatives=parts.alternatives,
            mutants=parts.mutants,
            guarded_step=parts.guarded_step,
            source_type=self.source_type,
            source_ref=self.source_ref,
            split=SPLIT_LABEL[partition],
            partition=partition,
            contamination_meta=ContaminationMeta(
                collected_at=self.collected_at,
                publishable=partition == "public",
                sha256=problem_hash(parts.instruction, systems, parts.evaluator),
            ),
        )
