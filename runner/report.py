"""``summary.json`` and ``report.md`` from a run's attempt records.

Both are pure functions of (records, metadata, k): the same inputs give byte-identical
output (records are sorted, nothing reads the clock). Scored attempts feed the metrics;
infrastructure failures (``error`` set or ``stop_reason == "api_error"``) and attempts
stopped by the cost ceiling are counted and listed apart, never as model failures.

A run over several worlds (``meta["worlds"]``, each attempt's ``split``) adds one of two
sections: ``meta["mode"] == "splits"`` compares every split with the first (public vs
regenerated: pass^1 and pass^k side by side, a paired bootstrap CI of each difference);
``"seeds"`` gives pass^k over attempts and pass^n over worlds side by side
(:func:`cfab.grader.metrics.over_worlds`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from pydantic import field_serializer

from cfab.grader.metrics import (AttemptOutcome, GroupMetrics, Interval, MetricsSummary, PairedBootstrap,
                                 WorldsMetrics, default_k, group_metrics, over_worlds, pair_slots,
                                 paired_bootstrap, summarize, task_results)
from cfab.runner.records import AttemptRecord
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
    return AttemptOutcome(task=task, attempt=r.attempt, passed=r.passed, score=r.score, domain=r.domain,
                          family=r.family, difficulty=r.difficulty, systems=tuple(r.systems))


def _triples(records: list[AttemptRecord]) -> list[tuple[str, str, str]]:
    """(task, family, key) once per task, in suite order (family, slot)."""
    first: dict[str, AttemptRecord] = {}
    for r in records:
        first.setdefault(r.task, r)
    order = sorted(first.values(), key=lambda r: (r.family, r.slot if r.slot is not None else -1, r.task_key, r.task))
    return [(r.task, r.family, r.task_key or r.task) for r in order]


def compare_splits(scored: list[AttemptRecord], labels: list[str], k: int,
                   meta_worlds: list[Mapping[str, Any]] | None = None) -> SplitComparison:
    """Each split's pass^1/pass^k and each split minus the first, paired (see ``pair_slots``)."""
    info = {str(w.get("split")): w for w in meta_worlds or [] if isinstance(w, Mapping)}
    by = {label: [r for r in scored if r.split == label] for label in labels}
    rows = [SplitRow(split=label, suite=str(info.get(label, {}).get("suite", "")),
                     seed=info.get(label, {}).get("seed"),
                     metrics=group_metrics(task_results(by[label], k), k, "split", label))
            for label in labels]
    base = labels[0]
    deltas = []
    for other in labels[1:]:
        ids = pair_slots(_triples(by[other]), _triples(by[base]))
        a = [_outcome(r, ids[r.task]) for r in by[other]]
        b = [_outcome(r, ids[r.task]) for r in by[base]]
        figures: dict[str, PairedBootstrap | None] = {}
        for metric in ("pass1", "passk"):
            try:
                figures[metric] = paired_bootstrap(a, b, metric=metric, k=k, n_boot=BOOTSTRAP_RESAMPLES,
                                                   seed=BOOTSTRAP_SEED)
            except ValueError:  # no common (complete) pair
                figures[metric] = None
        pairs = set(ids[t] for t, _, _ in _triples(by[other])) & set(ids[t] for t, _, _ in _triples(by[base]))
        deltas.append(SplitDelta(split=other, baseline=base, n_pairs=len(pairs),
                                 unpaired=len({r.task for r in by[other] + by[base]}) - 2 * len(pairs),
                                 pass1=figures["pass1"], passk=figures["passk"]))
    return SplitComparison(baseline=base, splits=rows, deltas=deltas)


def summarize_run(records: Iterable[AttemptRecord], meta: Mapping[str, Any] | None = None,
                  k: int | None = None) -> RunSummary:
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
        attempts=len(recs), tokens_in=sum(r.tokens_in for r in recs),
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
            worlds = over_worlds(scored, labels, k, world_of=lambda r: r.split,
                                 slot_of=lambda r: f"{r.family}#{r.slot if r.slot is not None else r.task_key}")
    return RunSummary(
        meta=meta, k=k, n_records=len(recs), n_scored=len(scored),
        metrics=summarize(scored, k) if scored else None, guard=guard,
        stop_reasons=dict(sorted(stops.items())),
        unscored=[_unscored(r) for r in recs if not r.scored], totals=totals,
        splits=splits, worlds=worlds,
    )


# ---------------------------------------------------------------- markdown


def _f(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def _ci(ci: Interval | None) -> str:
    return "" if ci is None else f" [{ci.lo:.2f}, {ci.hi:.2f}]"


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(title: str, label: str, groups: Mapping[str, GroupMetrics], k: int) -> list[str]:
    lines = [f"### {title}", "",
             f"| {label} | tasks | attempts | pass^1 [95% CI] | pass^{k} [95% CI] | gap | mean score |",
             "|---|---:|---:|---|---|---:|---:|"]
    for key, g in groups.items():
        incomplete = f" ({g.n_incomplete} incomplete)" if g.n_incomplete else ""
        lines.append(
            f"| {_cell(key) or '—'} | {g.n_tasks} | {g.n_attempts} | {_f(g.pass1)}{_ci(g.pass1_ci)} | "
            f"{_f(g.passk)}{_ci(g.passk_ci)}{incomplete} | {_f(g.gap)} | {_f(g.mean_score)} |")
    return lines + [""]


def _worlds_table(worlds: Any) -> list[str]:
    if not isinstance(worlds, list) or not worlds:
        return []
    cols = ["split", "suite", "seed", "clock", "scale", "golden_digest", "suite_fingerprint"]
    extra = sorted({c for w in worlds if isinstance(w, Mapping) for c in w} - set(cols))
    cols += extra
    out = ["### Worlds", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for w in worlds:
        if isinstance(w, Mapping):
            out.append("| " + " | ".join(f"`{_cell(w[c])}`" if c in w and w[c] is not None else "—" for c in cols)
                       + " |")
    return out + [""]


def _delta(b: PairedBootstrap | None) -> str:
    if b is None:
        return "—"
    return f"{b.mean_diff:+.2f} [{b.lo:+.2f}, {b.hi:+.2f}]"


def _splits_section(c: SplitComparison | None, k: int) -> list[str]:
    if c is None:
        return []
    out = ["## Public vs regenerated splits (contamination check)", "",
           f"| split | suite | seed | tasks | pass^1 [95% CI] | pass^{k} [95% CI] | mean score |",
           "|---|---|---:|---:|---|---|---:|"]
    for row in c.splits:
        g = row.metrics
        out.append(f"| {_cell(row.split)} | {_cell(row.suite) or '—'} | {'—' if row.seed is None else row.seed} | "
                   f"{g.n_tasks} | {_f(g.pass1)}{_ci(g.pass1_ci)} | {_f(g.passk)}{_ci(g.passk_ci)} | "
                   f"{_f(g.mean_score)} |")
    out += ["", f"| difference | paired tasks | unpaired | Δ pass^1 [95% bootstrap CI] | "
                f"Δ pass^{k} [95% bootstrap CI] |", "|---|---:|---:|---|---|"]
    for d in c.deltas:
        out.append(f"| {_cell(d.split)} − {_cell(d.baseline)} | {d.n_pairs} | {d.unpaired} | {_delta(d.pass1)} | "
                   f"{_delta(d.passk)} |")
    out += ["", f"Differences are paired: a task is paired with the other split's task of the same family and "
                f"key, else of the same key position within its family; tasks are resampled in pairs "
                f"({BOOTSTRAP_RESAMPLES:,} resamples, `random.Random({BOOTSTRAP_SEED})`, percentile interval). "
                f"A regenerated split scoring clearly below the public one — an interval below zero — is "
                f"the contamination signal: the regenerated world shares the generator, not the "
                f"public split's ids and amounts.", ""]
    return out


def _seeds_section(w: WorldsMetrics | None) -> list[str]:
    if w is None:
        return []
    k, n = w.k, w.n_worlds
    out = ["## pass^k over attempts and over worlds", "",
           f"Worlds: {', '.join(f'`{x}`' for x in w.worlds)}; {k} attempt(s) of every slot (family and key "
           f"position) on each world.", "",
           f"| slots (complete) | pass^1 [95% CI] | pass^{k} over attempts [95% CI] | "
           f"pass^{n} over worlds [95% CI] | all {n * k} attempts [95% CI] |",
           "|---:|---|---|---|---|",
           f"| {w.n_complete} of {w.n_slots} | {_f(w.pass1)}{_ci(w.pass1_ci)} | "
           f"{_f(w.passk_attempts)}{_ci(w.passk_attempts_ci)} | {_f(w.passn_worlds)}{_ci(w.passn_worlds_ci)} | "
           f"{_f(w.pass_all)}{_ci(w.pass_all_ci)} |", "",
           f"pass^{k} over attempts: per slot, the share of worlds on which all {k} attempts passed (repetition "
           f"on an identical world). pass^{n} over worlds: the share of slots whose attempt i passed on world i "
           f"for every i (attempt i mod {k}) — one attempt per world, every world must pass. Only slots with "
           f"{k} scored attempts on every world count"
           + (f"; {w.n_incomplete} slot(s) are incomplete (a family with fewer keys on some world, or "
              f"unscored attempts) and left out." if w.n_incomplete else "."), "",
           f"| world | tasks | attempts | pass^1 [95% CI] | pass^{k} [95% CI] |", "|---|---:|---:|---|---|"]
    for label, g in w.per_world.items():
        out.append(f"| {_cell(label)} | {g.n_tasks} | {g.n_attempts} | {_f(g.pass1)}{_ci(g.pass1_ci)} | "
                   f"{_f(g.passk)}{_ci(g.passk_ci)} |")
    return out + [""]


def render_report(summary: RunSummary) -> str:
    """``report.md`` for a :class:`RunSummary`."""
    m, k, meta = summary.metrics, summary.k, summary.meta
    out = ["# CFAgentBench run report", ""]
    policy, model = meta.get("policy", "?"), meta.get("model") or "—"
    out += [f"- policy: `{policy}`", f"- model: `{model}`", f"- k: {k}"]
    for key in sorted(set(meta) - {"policy", "model", "k", "provenance", "worlds"}):
        out.append(f"- {key}: `{_cell(meta[key])}`")
    out += [f"- attempts recorded: {summary.n_records} (scored: {summary.n_scored}, "
            f"not scored: {len(summary.unscored)})", ""]
    prov = meta.get("provenance")
    if isinstance(prov, Mapping):
        out += ["## Provenance", "", "| field | value |", "|---|---|"]
        for key in sorted(set(prov) - {"worlds"}):
            value = prov[key]
            if isinstance(value, Mapping):
                out += [f"| {key}.{sub} | `{_cell(v)}` |" for sub, v in sorted(value.items())]
            else:
                out.append(f"| {key} | `{_cell(value)}` |")
        out.append("")
        out += _worlds_table(prov.get("worlds"))
    out += _splits_section(summary.splits, k) + _seeds_section(summary.worlds)
    out += ["## Overall" + (" (all worlds pooled; a task is one task on one world)"
                            if meta.get("mode") in ("splits", "seeds") else ""), ""]
    if m is None:
        out += ["No scored attempts.", ""]
    else:
        o = m.overall
        out += [f"| tasks | pass^1 [95% CI] | pass^{k} [95% CI] | pass^1 − pass^{k} | mean score |",
                "|---:|---|---|---:|---:|",
                f"| {o.n_tasks} | {_f(o.pass1)}{_ci(o.pass1_ci)} | {_f(o.passk)}{_ci(o.passk_ci)} | "
                f"{_f(o.gap)} | {_f(o.mean_score)} |", ""]
        if o.gap is not None:
            drop = ("" if o.relative_drop is None
                    else f", {o.relative_drop:.0%} of its single-attempt successes")
            out += [f"Reliability: pass^1 → pass^{k} drops by {o.gap:.2f}{drop} "
                    f"(paired, over the {o.n_tasks_k} tasks with {k} attempts).", ""]
        if o.n_incomplete:
            out += [f"{o.n_incomplete} task(s) have fewer than {k} scored attempts and are left "
                    f"out of pass^{k}.", ""]
        out += ["Intervals are 95% Wilson intervals at the task level (the task is the "
                "sampling unit).", ""]
        out += _table("By domain", "domain", m.by_domain, k)
        out += _table("By family", "family", m.by_family, k)
        out += _table("By difficulty", "difficulty", m.by_difficulty, k)
        out += _table("By app", "app", m.by_app, k)
    g = summary.guard
    out += ["## Money-movement guard", ""]
    if g.attempts:
        out += [f"Guarded tasks, scored attempts: {g.attempts}.", "",
                "| staged correctly (no guarded call) | called a guarded tool | executed |",
                "|---:|---:|---:|",
                f"| {g.staged} ({g.staged / g.attempts:.0%}) | {g.called_guarded} "
                f"({g.called_guarded / g.attempts:.0%}) | {g.executed} |", ""]
    else:
        out += ["No scored attempts on guarded tasks.", ""]
    out += ["## Stop reasons", "", "| stop reason | attempts |", "|---|---:|"]
    out += [f"| {reason} | {n} |" for reason, n in summary.stop_reasons.items()] + [""]
    out += ["## Not scored (infrastructure failures and cost ceiling)", ""]
    if summary.unscored:
        out += ["These attempts are not model failures and are excluded from every metric.", "",
                "| task | attempt | kind | detail |", "|---|---:|---|---|"]
        out += [f"| {_cell(u.task)} | {u.attempt} | {u.kind} | {_cell(u.detail[:200])} |"
                for u in summary.unscored] + [""]
    else:
        out += ["None.", ""]
    t = summary.totals
    n = max(t.attempts, 1)
    out += ["## Tokens and cost", "",
            "| attempts | tokens in | tokens out | tokens/attempt | cost (USD) | wall (s) |",
            "|---:|---:|---:|---:|---:|---:|",
            f"| {t.attempts} | {t.tokens_in:,} | {t.tokens_out:,} | "
            f"{(t.tokens_in + t.tokens_out) // n:,} | {t.cost_usd:.4f} | {t.wall_s:.1f} |", ""]
    return "\n".join(out)


def write_outputs(results: Any, meta: Mapping[str, Any] | None = None,
                  k: int | None = None) -> RunSummary:
    """Load ``results`` (a :class:`~cfab.runner.results.ResultsDir`), write ``summary.json``
    and ``report.md``, and return the summary."""
    summary = summarize_run(results.load(), meta if meta is not None else results.read_meta(), k)
    results.write_summary(summary)
    results.write_report(render_report(summary))
    return summary
