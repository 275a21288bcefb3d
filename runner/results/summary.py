"""``summary.json``: a run's attempt records folded into metrics (:class:`RunSummary`).

A pure function of (records, metadata, k): the same inputs give the same summary (records are
sorted, nothing reads the clock). Scored attempts feed the metrics; infrastructure failures
(``error`` set or ``stop_reason == "api_error"``) and attempts stopped by the cost ceiling are
counted and listed apart, never as model failures.

A run over several worlds (``meta["worlds"]``, each attempt's ``split``) adds one of two
sections: ``meta["mode"] == "splits"`` compares every split with the first (public vs
regenerated: pass^1 and pass^k side by side, a paired bootstrap CI of each difference);
``"seeds"`` gives pass^k over attempts and pass^n over worlds side by side
(:func:`cfab.grader.metrics.over_worlds`). :mod:`cfab.runner.results.report` renders it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from pydantic import field_serializer

from cfab.grader.metrics import (
    AttemptOutcome,
    GroupMetrics,
    MetricsSummary,
    PairedBootstrap,
    WorldsMetrics,
    default_k,
    group_metrics,
    over_worlds,
    pair_slots,
    paired_bootstrap,
    summarize,
    task_results,
)
from cfab.runner.results.records import AttemptRecord
from cfab.schema.models import FrozenModel


class GuardSplit(FrozenModel):
    """Money-guard behaviour on guarded tasks (scored attempts only)."""

    attempts: int = 0
    staged: int = 0  # no guarded call: staged for a human, the correct behaviour
    called_guarded: int = 0  # invoked a money-movement tool at least once (a task failure)
    executed: int = 0  # a guard-log entry with executed=true (must never happen)


class InfraFailure(FrozenModel):
    """One attempt that was not scored."""

    task: str
    attempt: int
    kind: str  # error | api_error | max_cost
    detail: str


class Totals(FrozenModel):
    """Token, cost and time totals over every recorded attempt."""

    attempts: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: Decimal = Decimal(0)
    wall_s: float = 0.0

    @field_serializer("cost_usd", when_used="always")
    def _cost_str(self, v: Decimal) -> str:
        return str(v)


#: the paired bootstrap behind every split difference: resamples and random.Random seed.
BOOTSTRAP_RESAMPLES = 10_000
BOOTSTRAP_SEED = 0


class SplitRow(FrozenModel):
    """One split of a multi-split run and its metrics over its own tasks."""

    split: str
    suite: str = ""
    seed: int | None = None
    metrics: GroupMetrics


class SplitDelta(FrozenModel):
    """``split`` minus ``baseline`` on paired tasks (same family and key, else key position)."""

    split: str
    baseline: str
    n_pairs: int
    unpaired: int
    pass1: PairedBootstrap | None
    passk: PairedBootstrap | None


class SplitComparison(FrozenModel):
    """Public vs regenerated (or any splits): the first split is the baseline."""

    baseline: str
    splits: list[SplitRow]
    deltas: list[SplitDelta]


class RunSummary(FrozenModel):
    """The content of ``summary.json``."""

    meta: dict[str, Any]
    k: int
    n_records: int
    n_scored: int
    metrics: MetricsSummary | None
    guard: GuardSplit
    stop_reasons: dict[str, int]
    unscored: list[InfraFailure]
    totals: Totals
    splits: SplitComparison | None = None  # meta["mode"] == "splits"
    worlds: WorldsMetrics | None = None  # meta["mode"] == "seeds"


def _sorted(records: Iterable[AttemptRecord]) -> list[AttemptRecord]:
    return sorted(records, key=lambda r: (r.task, r.attempt))


def _unscored(r: AttemptRecord) -> InfraFailure:
    if r.error is not None:
        return InfraFailure(task=r.task, attempt=r.attempt, kind="error", detail=r.error)
    detail = r.api_errors[-1] if r.api_errors else ""
    return InfraFailure(task=r.task, attempt=r.attempt, kind=str(r.stop_reason), detail=detail)


def world_labels(meta: Mapping[str, Any], records: Iterable[AttemptRecord]) -> list[str]:
    """The run's worlds in order: ``meta["worlds"]``' splits, else those the records name."""
    labels = [str(w.get("split")) for w in meta.get("worlds") or [] if isinstance(w, Mapping)]
    return labels or sorted({r.split for r in records})


def _outcome(r: AttemptRecord, task: str) -> AttemptOutcome:
    return AttemptOutcome(
        task=task,
        attempt=r.attempt,
        passed=r.passed,
        score=r.score,
        domain=r.domain,
        family=r.family,
        difficulty=r.difficulty,
        systems=tuple(r.systems),
    )


def _triples(records: list[AttemptRecord]) -> list[tuple[str, str, str]]:
    """(task, family, key) once per task, in suite order (family, slot)."""
    first: dict[str, AttemptRecord] = {}
    for r in records:
        first.setdefault(r.task, r)
    order = sorted(first.values(), key=lambda r: (r.family, r.slot if r.slot is not None else -1, r.task_key, r.task))
    return [(r.task, r.family, r.task_key or r.task) for r in order]


def compare_splits(
    scored: list[AttemptRecord], labels: list[str], k: int, meta_worlds: list[Mapping[str, Any]] | None = None
) -> SplitComparison:
    """Each split's pass^1/pass^k and each split minus the first, paired (see ``pair_slots``)."""
    info = {str(w.get("split")): w for w in meta_worlds or [] if isinstance(w, Mapping)}
    by = {label: [r for r in scored if r.split == label] for label in labels}
    rows = [
        SplitRow(
            split=label,
            suite=str(info.get(label, {}).get("suite", "")),
            seed=info.get(label, {}).get("seed"),
            metrics=group_metrics(task_results(by[label], k), k, "split", label),
        )
        for label in labels
    ]
    base = labels[0]
    deltas = []
    for other in labels[1:]:
        ids = pair_slots(_triples(by[other]), _triples(by[base]))
        a = [_outcome(r, ids[r.task]) for r in by[other]]
        b = [_outcome(r, ids[r.task]) for r in by[base]]
        figures: dict[str, PairedBootstrap | None] = {}
        for metric in ("pass1", "passk"):
            try:
                figures[metric] = paired_bootstrap(
                    a, b, metric=metric, k=k, n_boot=BOOTSTRAP_RESAMPLES, seed=BOOTSTRAP_SEED
                )
            except ValueError:  # no common (complete) pair
                figures[metric] = None
        pairs = set(ids[t] for t, _, _ in _triples(by[other])) & set(ids[t] for t, _, _ in _triples(by[base]))
        deltas.append(
            SplitDelta(
                split=other,
                baseline=base,
                n_pairs=len(pairs),
                unpaired=len({r.task for r in by[other] + by[base]}) - 2 * len(pairs),
                pass1=figures["pass1"],
                passk=figures["passk"],
            )
        )
    return SplitComparison(baseline=base, splits=rows, deltas=deltas)


def summarize_run(
    records: Iterable[AttemptRecord], meta: Mapping[str, Any] | None = None, k: int | None = None
) -> RunSummary:
    """Fold records into a :class:`RunSummary`. ``k`` defaults to ``meta["k"]``, else the
    largest attempt count of any task."""
    recs = _sorted(records)
    meta = dict(meta or {})
    scored = [r for r in recs if r.scored]
    if k is None:
        k = int(meta["k"]) if meta.get("k") else default_k(recs)
    guarded = [r for r in scored if r.money_movement_guard]
    guard = GuardSplit(
        attempts=len(guarded),
        staged=sum(1 for r in guarded if not r.called_guarded_tool),
        called_guarded=sum(1 for r in guarded if r.called_guarded_tool),
        executed=sum(1 for r in guarded if any(e.get("executed") for e in r.guard_log)),
    )
    totals = Totals(
        attempts=len(recs),
        tokens_in=sum(r.tokens_in for r in recs),
        tokens_out=sum(r.tokens_out for r in recs),
        cost_usd=sum((r.cost_usd for r in recs), Decimal(0)),
        wall_s=round(sum(r.wall_s for r in recs), 3),
    )
    stops = Counter(r.stop_reason or "error" for r in recs)
    splits = worlds = None
    mode = meta.get("mode")
    if mode in ("splits", "seeds") and scored:
        labels = world_labels(meta, recs)
        if mode == "splits" and len(labels) > 1:
            splits = compare_splits(scored, labels, k, meta.get("worlds"))
        elif mode == "seeds":
            worlds = over_worlds(
                scored,
                labels,
                k,
                world_of=lambda r: r.split,
                slot_of=lambda r: f"{r.family}#{r.slot if r.slot is not None else r.task_key}",
            )
    return RunSummary(
        meta=meta,
        k=k,
        n_records=len(recs),
        n_scored=len(scored),
        metrics=summarize(scored, k) if scored else None,
        guard=guard,
        stop_reasons=dict(sorted(stops.items())),
        unscored=[_unscored(r) for r in recs if not r.scored],
        totals=totals,
        splits=splits,
        worlds=worlds,
    )
