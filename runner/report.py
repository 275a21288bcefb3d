"""``summary.json`` and ``report.md`` from a run's attempt records.

Both are pure functions of (records, metadata, k): the same inputs give byte-identical
output (records are sorted, nothing reads the clock). Scored attempts feed the metrics;
infrastructure failures (``error`` set or ``stop_reason == "api_error"``) and attempts
stopped by the cost ceiling are counted and listed apart, never as model failures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from pydantic import field_serializer

from cfab.grader.metrics import GroupMetrics, Interval, MetricsSummary, default_k, summarize
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


def _sorted(records: Iterable[AttemptRecord]) -> list[AttemptRecord]:
    return sorted(records, key=lambda r: (r.task, r.attempt))


def _unscored(r: AttemptRecord) -> InfraFailure:
    if r.error is not None:
        return InfraFailure(task=r.task, attempt=r.attempt, kind="error", detail=r.error)
    detail = r.api_errors[-1] if r.api_errors else ""
    return InfraFailure(task=r.task, attempt=r.attempt, kind=str(r.stop_reason), detail=detail)


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
    return RunSummary(
        meta=meta, k=k, n_records=len(recs), n_scored=len(scored),
        metrics=summarize(scored, k) if scored else None, guard=guard,
        stop_reasons=dict(sorted(stops.items())),
        unscored=[_unscored(r) for r in recs if not r.scored], totals=totals,
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


def render_report(summary: RunSummary) -> str:
    """``report.md`` for a :class:`RunSummary`."""
    m, k, meta = summary.metrics, summary.k, summary.meta
    out = ["# CFAgentBench run report", ""]
    policy, model = meta.get("policy", "?"), meta.get("model") or "—"
    out += [f"- policy: `{policy}`", f"- model: `{model}`", f"- k: {k}"]
    for key in sorted(set(meta) - {"policy", "model", "k", "provenance"}):
        out.append(f"- {key}: `{_cell(meta[key])}`")
    out += [f"- attempts recorded: {summary.n_records} (scored: {summary.n_scored}, "
            f"not scored: {len(summary.unscored)})", ""]
    prov = meta.get("provenance")
    if isinstance(prov, Mapping):
        out += ["## Provenance", "", "| field | value |", "|---|---|"]
        for key in sorted(prov):
            value = prov[key]
            if isinstance(value, Mapping):
                out += [f"| {key}.{sub} | `{_cell(v)}` |" for sub, v in sorted(value.items())]
            else:
                out.append(f"| {key} | `{_cell(value)}` |")
        out.append("")
    out += ["## Overall", ""]
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
