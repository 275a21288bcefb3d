"""Run metrics: pass^1, pass^k, mean score, Wilson intervals and a paired bootstrap.

Definitions (the paper's, section "Metrics and statistical power"):

* **pass^1** — for each task, the fraction of its attempts that passed; averaged over
  tasks (task-averaged, so a task with more attempts does not weigh more).
* **pass^k** — a task counts only if *all* of its first ``k`` attempts (by attempt index)
  passed; the fraction of tasks that do. A task with fewer than ``k`` attempts is
  *incomplete*: it is left out of pass^k (and of the gap) and counted in
  ``n_incomplete``.
* **mean score** — the per-task mean attempt score, averaged over tasks.
* **Wilson intervals** — 95 %, at the task level (the task is the sampling unit, runs are
  clustered within tasks). For pass^1 the "successes" are the sum of per-task pass rates,
  a fractional count, exactly as the paper's tables do (0.67 [.51,.79] at n=40).
* **gap** — pass^1 − pass^k over the tasks that have ``k`` attempts (a paired
  difference), and ``relative_drop`` = gap / pass^1 (the share of successes lost).

Grouping: by domain, family, difficulty and app (a task belongs to every app in its
``systems``). All arithmetic is exact (``fractions.Fraction``) until the final float.

Inputs are any objects with the attributes of :class:`Outcome` (``AttemptRecord`` from
``cfab.runner.records`` qualifies). Callers drop infrastructure failures first.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from statistics import NormalDist
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

from cfab.schema.models import FrozenModel

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

Z95: float = NormalDist().inv_cdf(0.975)  # 1.959963984540054

Metric = Literal["pass1", "passk", "score"]


class Outcome(Protocol):
    """What metrics read from one attempt."""

    @property
    def task(self) -> str: ...
    @property
    def attempt(self) -> int: ...
    @property
    def passed(self) -> bool: ...
    @property
    def score(self) -> float: ...
    @property
    def domain(self) -> str: ...
    @property
    def family(self) -> str: ...
    @property
    def difficulty(self) -> int: ...
    @property
    def systems(self) -> Sequence[str]: ...


OutcomeT = TypeVar("OutcomeT", bound=Outcome)


class AttemptOutcome(FrozenModel):
    """A minimal concrete :class:`Outcome`, for callers that have no AttemptRecord."""

    task: str
    attempt: int
    passed: bool
    score: float = 0.0
    domain: str = ""
    family: str = ""
    difficulty: int = 0
    systems: tuple[str, ...] = ()


class Interval(FrozenModel):
    """A closed interval [lo, hi]."""

    lo: float
    hi: float


class TaskResult(FrozenModel):
    """One task's attempts folded together."""

    task: str
    domain: str
    family: str
    difficulty: int
    systems: tuple[str, ...]
    attempts: int
    passes: int
    pass_rate: float
    mean_score: float
    all_k_passed: bool | None  # None: fewer than k attempts (incomplete)


class GroupMetrics(FrozenModel):
    """Metrics for one group of tasks (overall, one domain, one app, ...)."""

    group: str
    key: str
    k: int
    n_tasks: int
    n_attempts: int
    pass1: float
    pass1_ci: Interval
    mean_score: float
    n_tasks_k: int
    n_incomplete: int
    passk: float | None
    passk_ci: Interval | None
    gap: float | None
    relative_drop: float | None


class MetricsSummary(FrozenModel):
    """Everything the report and summary.json need, grouped."""

    k: int
    overall: GroupMetrics
    by_domain: dict[str, GroupMetrics]
    by_family: dict[str, GroupMetrics]
    by_difficulty: dict[str, GroupMetrics]
    by_app: dict[str, GroupMetrics]


class PairedBootstrap(FrozenModel):
    """Run A minus run B on the tasks both contain, with a percentile interval."""

    metric: str
    k: int
    n_tasks: int
    only_in_a: int
    only_in_b: int
    mean_a: float
    mean_b: float
    mean_diff: float
    lo: float
    hi: float
    confidence: float
    n_boot: int
    seed: int


# ---------------------------------------------------------------- Wilson interval


def wilson_interval(successes: float, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval for ``successes`` out of ``n`` (successes may be fractional).

    ``n == 0`` gives the uninformative [0, 1]. Bounds are clamped to [0, 1] (they only
    leave it by rounding error at 0/n and n/n).
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes}/{n}")
    if n == 0:
        return Interval(lo=0.0, hi=1.0)
    p = float(successes) / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(lo=lo, hi=hi)


# ---------------------------------------------------------------- per task


def _fold(records: Iterable[Outcome]) -> dict[str, list[Outcome]]:
    """Group attempts by task, rejecting duplicate (task, attempt) and metadata drift."""
    by_task: dict[str, dict[int, Outcome]] = defaultdict(dict)
    for r in records:
        seen = by_task[r.task]
        if r.attempt in seen:
            raise ValueError(f"duplicate attempt {r.attempt} for task {r.task!r}")
        if seen:
            first = next(iter(seen.values()))
            if (first.domain, first.family, first.difficulty, tuple(first.systems)) != (
                r.domain,
                r.family,
                r.difficulty,
                tuple(r.systems),
            ):
                raise ValueError(f"task {r.task!r}: attempts disagree on task metadata")
        seen[r.attempt] = r
    return {t: [a[i] for i in sorted(a)] for t, a in sorted(by_task.items())}


def default_k(records: Iterable[Outcome]) -> int:
    """The largest number of attempts any task has (1 when there are none)."""
    counts: dict[str, int] = defaultdict(int)
    for r in records:
        counts[r.task] += 1
    return max(counts.values(), default=1)


def task_results(records: Iterable[Outcome], k: int) -> list[TaskResult]:
    """Fold attempts into one :class:`TaskResult` per task, sorted by task id."""
    if k < 1:
        raise ValueError("k must be >= 1")
    out = []
    for task, attempts in _fold(records).items():
        first = attempts[0]
        passes = sum(1 for a in attempts if a.passed)
        score = sum((Fraction(a.score) for a in attempts), Fraction(0)) / len(attempts)
        all_k = all(a.passed for a in attempts[:k]) if len(attempts) >= k else None
        out.append(
            TaskResult(
                task=task,
                domain=first.domain,
                family=first.family,
                difficulty=first.difficulty,
                systems=tuple(first.systems),
                attempts=len(attempts),
                passes=passes,
                pass_rate=passes / len(attempts),
                mean_score=float(score),
                all_k_passed=all_k,
            )
        )
    return out


# ---------------------------------------------------------------- groups


def group_metrics(
    tasks: Sequence[TaskResult], k: int, group: str = "overall", key: str = "all", z: float = Z95
) -> GroupMetrics:
    """Metrics over a set of tasks (already folded)."""
    n = len(tasks)
    rates = [Fraction(t.passes, t.attempts) for t in tasks]
    p1_sum = sum(rates, Fraction(0))
    pass1 = p1_sum / n if n else Fraction(0)
    score = sum((Fraction(t.mean_score) for t in tasks), Fraction(0)) / n if n else Fraction(0)
    complete = [(r, t) for r, t in zip(rates, tasks, strict=True) if t.all_k_passed is not None]
    nk = len(complete)
    if nk:
        hits = sum(1 for _, t in complete if t.all_k_passed)
        passk: float | None = hits / nk
        passk_ci: Interval | None = wilson_interval(hits, nk, z)
        p1_complete = sum((r for r, _ in complete), Fraction(0)) / nk
        gap_f = p1_complete - Fraction(hits, nk)
        gap: float | None = float(gap_f)
        drop = float(gap_f / p1_complete) if p1_complete else None
    else:
        passk = passk_ci = gap = drop = None
    return GroupMetrics(
        group=group,
        key=key,
        k=k,
        n_tasks=n,
        n_attempts=sum(t.attempts for t in tasks),
        pass1=float(pass1),
        pass1_ci=wilson_interval(float(p1_sum), n, z),
        mean_score=float(score),
        n_tasks_k=nk,
        n_incomplete=n - nk,
        passk=passk,
        passk_ci=passk_ci,
        gap=gap,
        relative_drop=drop,
    )


def _grouped(
    tasks: Sequence[TaskResult],
    group: str,
    keys: Callable[[TaskResult], Iterable[str]],
    k: int,
    z: float,
    sort_key: Callable[[str], SupportsRichComparison] = str,
) -> dict[str, GroupMetrics]:
    buckets: dict[str, list[TaskResult]] = defaultdict(list)
    for t in tasks:
        for key in dict.fromkeys(keys(t)):  # de-duplicated, order kept
            buckets[key].append(t)
    return {key: group_metrics(buckets[key], k, group, key, z) for key in sorted(buckets, key=sort_key)}


def _difficulty_order(key: str) -> tuple[int, int, str]:
    return (0, int(key), "") if key.lstrip("-").isdigit() else (1, 0, key)


def summarize(records: Iterable[Outcome], k: int | None = None, z: float = Z95) -> MetricsSummary:
    """pass^1, pass^k, mean score and intervals, overall and by domain/family/difficulty/app.

    ``k`` defaults to the largest attempt count of any task.
    """
    records = list(records)
    k = default_k(records) if k is None else k
    tasks = task_results(records, k)
    return MetricsSummary(
        k=k,
        overall=group_metrics(tasks, k, "overall", "all", z),
        by_domain=_grouped(tasks, "domain", lambda t: [t.domain], k, z),
        by_family=_grouped(tasks, "family", lambda t: [t.family], k, z),
        by_difficulty=_grouped(tasks, "difficulty", lambda t: [str(t.difficulty)], k, z, _difficulty_order),
        by_app=_grouped(tasks, "app", lambda t: list(t.systems), k, z),
    )


# ---------------------------------------------------------------- paired bootstrap


def _per_task_values(tasks: Sequence[TaskResult], metric: Metric) -> dict[str, Fraction]:
    if metric == "pass1":
        return {t.task: Fraction(t.passes, t.attempts) for t in tasks}
    if metric == "score":
        return {t.task: Fraction(t.mean_score) for t in tasks}
    if metric == "passk":
        return {t.task: Fraction(int(bool(t.all_k_passed))) for t in tasks if t.all_k_passed is not None}
    raise ValueError(f"unknown metric {metric!r}; use pass1, passk or score")


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (numpy's default method), q in [0, 1]."""
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    frac = pos - lo
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * frac


def paired_bootstrap(
    a: Iterable[Outcome],
    b: Iterable[Outcome],
    *,
    metric: Metric = "pass1",
    k: int | None = None,
    n_boot: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
) -> PairedBootstrap:
    """Compare run A with run B on their common tasks: mean(A − B) and a bootstrap interval.

    Tasks are resampled with replacement (the task is the unit), ``n_boot`` times, from
    ``random.Random(seed)``, so the result is deterministic. The interval is the
    percentile interval of the resampled mean differences. ``k`` (for ``passk``) defaults
    to the larger of the two runs' default k.
    """
    a, b = list(a), list(b)
    k = max(default_k(a), default_k(b)) if k is None else k
    va = _per_task_values(task_results(a, k), metric)
    vb = _per_task_values(task_results(b, k), metric)
    common = sorted(set(va) & set(vb))
    if not common:
        raise ValueError("the two runs share no (complete) task")
    diffs = [float(va[t] - vb[t]) for t in common]
    n = len(common)
    exact_mean = sum((va[t] - vb[t] for t in common), Fraction(0)) / n
    rng = random.Random(seed)
    means = sorted(math.fsum(rng.choices(diffs, k=n)) / n for _ in range(n_boot))
    alpha = (1.0 - confidence) / 2
    return PairedBootstrap(
        metric=metric,
        k=k,
        n_tasks=n,
        only_in_a=len(set(va) - set(vb)),
        only_in_b=len(set(vb) - set(va)),
        mean_a=float(sum((va[t] for t in common), Fraction(0)) / n),
        mean_b=float(sum((vb[t] for t in common), Fraction(0)) / n),
        mean_diff=float(exact_mean),
        lo=_percentile(means, alpha),
        hi=_percentile(means, 1.0 - alpha),
        confidence=confidence,
        n_boot=n_boot,
        seed=seed,
    )


# ---------------------------------------------------------------- pass^k over worlds


class WorldsMetrics(FrozenModel):
    """pass^k over attempts and pass^n over worlds, on the same slots (see :func:`over_worlds`)."""

    worlds: list[str]
    k: int
    n_worlds: int
    n_slots: int  # slots seen on any world
    n_complete: int  # slots with k scored attempts on every world: the unit of every figure below
    n_incomplete: int
    pass1: float | None  # mean over complete slots of the share of their n·k attempts that passed
    pass1_ci: Interval | None
    passk_attempts: float | None  # mean over complete slots of the share of worlds where all k passed
    passk_attempts_ci: Interval | None
    passn_worlds: float | None  # share of complete slots whose attempt i passed on world i, every i
    passn_worlds_ci: Interval | None
    pass_all: float | None  # share of complete slots all of whose n·k attempts passed
    pass_all_ci: Interval | None
    per_world: dict[str, GroupMetrics]  # the ordinary metrics on each world, over its own tasks


def over_worlds(
    records: Iterable[OutcomeT],
    worlds: Sequence[str],
    k: int,
    *,
    world_of: Callable[[OutcomeT], str],
    slot_of: Callable[[OutcomeT], str],
    z: float = Z95,
) -> WorldsMetrics:
    """pass^k over attempts and pass^n over worlds (FinalityBench's pass^5 over seeds).

    ``worlds`` W_0..W_{n-1} in order; every slot (a family and a key position: the same task
    up to the key each world picks) was run ``k`` times on each world, attempts 0..k-1
    (``attempt`` is the index within the world). A slot is *complete* when it has all ``k``
    scored attempts on every world; incomplete slots (a family with fewer keys on some world,
    an unscored attempt) are left out of every figure and counted. On the complete slots:

    * **pass^k over attempts** — per slot, the share of worlds on which all k attempts passed;
      averaged over slots (repetition on an identical world, as an ordinary run measures it);
    * **pass^n over worlds** — the share of slots whose attempt ``i mod k`` passed on world
      W_i for every i: one attempt per world, attempt i on world i, all n must pass;
    * **pass^1** — the share of all n·k attempts that passed, averaged over slots;
    * **pass all** — the share of slots all of whose n·k attempts passed.

    Wilson intervals count the slot as the unit (fractional successes for the averaged
    figures, as pass^1 does). ``per_world`` holds each world's ordinary metrics.
    """
    if k < 1:
        raise ValueError("k must be >= 1")
    worlds = list(worlds)
    if not worlds or len(set(worlds)) != len(worlds):
        raise ValueError(f"need distinct world labels, got {worlds}")
    records = list(records)
    grid: dict[str, dict[str, dict[int, Outcome]]] = defaultdict(lambda: defaultdict(dict))
    by_world: dict[str, list[Outcome]] = defaultdict(list)
    for r in records:
        w = world_of(r)
        if w not in worlds:
            raise ValueError(f"attempt of {r.task!r} ran on world {w!r}, not one of {worlds}")
        cell = grid[slot_of(r)][w]
        if r.attempt in cell:
            raise ValueError(f"duplicate attempt {r.attempt} of slot {slot_of(r)!r} on world {w!r}")
        cell[r.attempt] = r
        by_world[w].append(r)
    n = len(worlds)
    complete = {
        s: cells
        for s, cells in sorted(grid.items())
        if all(all(a in cells.get(w, {}) for a in range(k)) for w in worlds)
    }
    nc = len(complete)
    p1 = pk = pn = pa = Fraction(0)
    for cells in complete.values():
        outcomes = [cells[w][a].passed for w in worlds for a in range(k)]
        p1 += Fraction(sum(outcomes), n * k)
        pk += Fraction(sum(all(cells[w][a].passed for a in range(k)) for w in worlds), n)
        pn += int(all(cells[w][i % k].passed for i, w in enumerate(worlds)))
        pa += int(all(outcomes))

    def figure(total: Fraction) -> tuple[float | None, Interval | None]:
        return (float(total / nc), wilson_interval(float(total), nc, z)) if nc else (None, None)

    (pass1, pass1_ci), (passk, passk_ci) = figure(p1), figure(pk)
    (passn, passn_ci), (pall, pall_ci) = figure(pn), figure(pa)
    per_world = {w: group_metrics(task_results(by_world[w], k), k, "world", w, z) for w in worlds if by_world.get(w)}
    return WorldsMetrics(
        worlds=worlds,
        k=k,
        n_worlds=n,
        n_slots=len(grid),
        n_complete=nc,
        n_incomplete=len(grid) - nc,
        pass1=pass1,
        pass1_ci=pass1_ci,
        passk_attempts=passk,
        passk_attempts_ci=passk_ci,
        passn_worlds=passn,
        passn_worlds_ci=passn_ci,
        pass_all=pall,
        pass_all_ci=pall_ci,
        per_world=per_world,
    )


# ---------------------------------------------------------------- pairing across splits


def pair_slots(a: Sequence[tuple[str, str, str]], b: Sequence[tuple[str, str, str]]) -> dict[str, str]:
    """Pair the tasks of two splits: ``(task, family, key)`` triples, each list in suite order.

    Within a family, tasks with the same key pair first (a planted anchor keeps its key on
    every seed); the rest pair by their order among the family's unpaired tasks (the same key
    position where a family picks different keys on different books). Returns a pair id for
    every task of either list; a task left without a partner gets an id of its own."""
    out: dict[str, str] = {}
    fams_a: dict[str, list[tuple[str, str]]] = defaultdict(list)
    fams_b: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for task, fam, key in a:
        fams_a[fam].append((task, key))
    for task, fam, key in b:
        fams_b[fam].append((task, key))
    for fam in sorted(set(fams_a) | set(fams_b)):
        ta, tb = fams_a.get(fam, []), fams_b.get(fam, [])
        keys_b = {key for _, key in tb}
        same = [key for _, key in ta if key in keys_b]
        for task, key in ta:
            if key in same:
                out[task] = f"{fam}#key={key}"
        for task, key in tb:
            if key in same:
                out[task] = f"{fam}#key={key}"
        rest_a = [task for task, key in ta if key not in same]
        rest_b = [task for task, key in tb if key not in same]
        for i, task in enumerate(rest_a):
            out[task] = f"{fam}#pos={i}" if i < len(rest_b) else f"{fam}#a={task}"
        for i, task in enumerate(rest_b):
            out[task] = f"{fam}#pos={i}" if i < len(rest_a) else f"{fam}#b={task}"
    return out
