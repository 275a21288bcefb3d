"""``report.md``: a :class:`~cfab.runner.results.summary.RunSummary` as markdown, and
:func:`write_outputs`, which writes ``summary.json`` and ``report.md`` into a results folder.

The markdown is a pure function of the summary: the same summary gives byte-identical output.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cfab.grader.metrics import GroupMetrics, Interval, PairedBootstrap, WorldsMetrics
from cfab.runner.results.summary import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, RunSummary, SplitComparison, summarize_run


def _f(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def _ci(ci: Interval | None) -> str:
    return "" if ci is None else f" [{ci.lo:.2f}, {ci.hi:.2f}]"


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(title: str, label: str, groups: Mapping[str, GroupMetrics], k: int) -> list[str]:
    lines = [
        f"### {title}",
        "",
        f"| {label} | tasks | attempts | pass^1 [95% CI] | pass^{k} [95% CI] | gap | mean score |",
        "|---|---:|---:|---|---|---:|---:|",
    ]
    for key, g in groups.items():
        incomplete = f" ({g.n_incomplete} incomplete)" if g.n_incomplete else ""
        lines.append(
            f"| {_cell(key) or '—'} | {g.n_tasks} | {g.n_attempts} | {_f(g.pass1)}{_ci(g.pass1_ci)} | "
            f"{_f(g.passk)}{_ci(g.passk_ci)}{incomplete} | {_f(g.gap)} | {_f(g.mean_score)} |"
        )
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
            out.append(
                "| " + " | ".join(f"`{_cell(w[c])}`" if c in w and w[c] is not None else "—" for c in cols) + " |"
            )
    return out + [""]


def _delta(b: PairedBootstrap | None) -> str:
    if b is None:
        return "—"
    return f"{b.mean_diff:+.2f} [{b.lo:+.2f}, {b.hi:+.2f}]"


def _splits_section(c: SplitComparison | None, k: int) -> list[str]:
    if c is None:
        return []
    out = [
        "## Public vs regenerated splits (contamination check)",
        "",
        f"| split | suite | seed | tasks | pass^1 [95% CI] | pass^{k} [95% CI] | mean score |",
        "|---|---|---:|---:|---|---|---:|",
    ]
    for row in c.splits:
        g = row.metrics
        out.append(
            f"| {_cell(row.split)} | {_cell(row.suite) or '—'} | {'—' if row.seed is None else row.seed} | "
            f"{g.n_tasks} | {_f(g.pass1)}{_ci(g.pass1_ci)} | {_f(g.passk)}{_ci(g.passk_ci)} | "
            f"{_f(g.mean_score)} |"
        )
    out += [
        "",
        f"| difference | paired tasks | unpaired | Δ pass^1 [95% bootstrap CI] | Δ pass^{k} [95% bootstrap CI] |",
        "|---|---:|---:|---|---|",
    ]
    for d in c.deltas:
        out.append(
            f"| {_cell(d.split)} − {_cell(d.baseline)} | {d.n_pairs} | {d.unpaired} | {_delta(d.pass1)} | "
            f"{_delta(d.passk)} |"
        )
    out += [
        "",
        f"Differences are paired: a task is paired with the other split's task of the same family and "
        f"key, else of the same key position within its family; tasks are resampled in pairs "
        f"({BOOTSTRAP_RESAMPLES:,} resamples, `random.Random({BOOTSTRAP_SEED})`, percentile interval). "
        f"A regenerated split scoring clearly below the public one — an interval below zero — is "
        f"the contamination signal: the regenerated world shares the generator, not the "
        f"public split's ids and amounts.",
        "",
    ]
    return out


def _seeds_section(w: WorldsMetrics | None) -> list[str]:
    if w is None:
        return []
    k, n = w.k, w.n_worlds
    out = [
        "## pass^k over attempts and over worlds",
        "",
        f"Worlds: {', '.join(f'`{x}`' for x in w.worlds)}; {k} attempt(s) of every slot (family and key "
        f"position) on each world.",
        "",
        f"| slots (complete) | pass^1 [95% CI] | pass^{k} over attempts [95% CI] | "
        f"pass^{n} over worlds [95% CI] | all {n * k} attempts [95% CI] |",
        "|---:|---|---|---|---|",
        f"| {w.n_complete} of {w.n_slots} | {_f(w.pass1)}{_ci(w.pass1_ci)} | "
        f"{_f(w.passk_attempts)}{_ci(w.passk_attempts_ci)} | {_f(w.passn_worlds)}{_ci(w.passn_worlds_ci)} | "
        f"{_f(w.pass_all)}{_ci(w.pass_all_ci)} |",
        "",
        f"pass^{k} over attempts: per slot, the share of worlds on which all {k} attempts passed (repetition "
        f"on an identical world). pass^{n} over worlds: the share of slots whose attempt i passed on world i "
        f"for every i (attempt i mod {k}) — one attempt per world, every world must pass. Only slots with "
        f"{k} scored attempts on every world count"
        + (
            f"; {w.n_incomplete} slot(s) are incomplete (a family with fewer keys on some world, or "
            f"unscored attempts) and left out."
            if w.n_incomplete
            else "."
        ),
        "",
        f"| world | tasks | attempts | pass^1 [95% CI] | pass^{k} [95% CI] |",
        "|---|---:|---:|---|---|",
    ]
    for label, g in w.per_world.items():
        out.append(
            f"| {_cell(label)} | {g.n_tasks} | {g.n_attempts} | {_f(g.pass1)}{_ci(g.pass1_ci)} | "
            f"{_f(g.passk)}{_ci(g.passk_ci)} |"
        )
    return out + [""]


def render_report(summary: RunSummary) -> str:
    """``report.md`` for a :class:`RunSummary`."""
    m, k, meta = summary.metrics, summary.k, summary.meta
    out = ["# CFAgentBench run report", ""]
    policy, model = meta.get("policy", "?"), meta.get("model") or "—"
    out += [f"- policy: `{policy}`", f"- model: `{model}`", f"- k: {k}"]
    for key in sorted(set(meta) - {"policy", "model", "k", "provenance", "worlds"}):
        out.append(f"- {key}: `{_cell(meta[key])}`")
    out += [
        f"- attempts recorded: {summary.n_records} (scored: {summary.n_scored}, not scored: {len(summary.unscored)})",
        "",
    ]
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
    out += [
        "## Overall"
        + (" (all worlds pooled; a task is one task on one world)" if meta.get("mode") in ("splits", "seeds") else ""),
        "",
    ]
    if m is None:
        out += ["No scored attempts.", ""]
    else:
        o = m.overall
        out += [
            f"| tasks | pass^1 [95% CI] | pass^{k} [95% CI] | pass^1 − pass^{k} | mean score |",
            "|---:|---|---|---:|---:|",
            f"| {o.n_tasks} | {_f(o.pass1)}{_ci(o.pass1_ci)} | {_f(o.passk)}{_ci(o.passk_ci)} | "
            f"{_f(o.gap)} | {_f(o.mean_score)} |",
            "",
        ]
        if o.gap is not None:
            drop = "" if o.relative_drop is None else f", {o.relative_drop:.0%} of its single-attempt successes"
            out += [
                f"Reliability: pass^1 → pass^{k} drops by {o.gap:.2f}{drop} "
                f"(paired, over the {o.n_tasks_k} tasks with {k} attempts).",
                "",
            ]
        if o.n_incomplete:
            out += [f"{o.n_incomplete} task(s) have fewer than {k} scored attempts and are left out of pass^{k}.", ""]
        out += ["Intervals are 95% Wilson intervals at the task level (the task is the sampling unit).", ""]
        out += _table("By domain", "domain", m.by_domain, k)
        out += _table("By family", "family", m.by_family, k)
        out += _table("By difficulty", "difficulty", m.by_difficulty, k)
        out += _table("By app", "app", m.by_app, k)
    g = summary.guard
    out += ["## Money-movement guard", ""]
    if g.attempts:
        out += [
            f"Guarded tasks, scored attempts: {g.attempts}.",
            "",
            "| staged correctly (no guarded call) | called a guarded tool | executed |",
            "|---:|---:|---:|",
            f"| {g.staged} ({g.staged / g.attempts:.0%}) | {g.called_guarded} "
            f"({g.called_guarded / g.attempts:.0%}) | {g.executed} |",
            "",
        ]
    else:
        out += ["No scored attempts on guarded tasks.", ""]
    out += ["## Stop reasons", "", "| stop reason | attempts |", "|---|---:|"]
    out += [f"| {reason} | {n} |" for reason, n in summary.stop_reasons.items()] + [""]
    out += ["## Not scored (infrastructure failures and cost ceiling)", ""]
    if summary.unscored:
        out += [
            "These attempts are not model failures and are excluded from every metric.",
            "",
            "| task | attempt | kind | detail |",
            "|---|---:|---|---|",
        ]
        out += [f"| {_cell(u.task)} | {u.attempt} | {u.kind} | {_cell(u.detail[:200])} |" for u in summary.unscored] + [
            ""
        ]
    else:
        out += ["None.", ""]
    t = summary.totals
    n = max(t.attempts, 1)
    out += [
        "## Tokens and cost",
        "",
        "| attempts | tokens in | tokens out | tokens/attempt | cost (USD) | wall (s) |",
        "|---:|---:|---:|---:|---:|---:|",
        f"| {t.attempts} | {t.tokens_in:,} | {t.tokens_out:,} | "
        f"{(t.tokens_in + t.tokens_out) // n:,} | {t.cost_usd:.4f} | {t.wall_s:.1f} |",
        "",
    ]
    return "\n".join(out)


def write_outputs(results: Any, meta: Mapping[str, Any] | None = None, k: int | None = None) -> RunSummary:
    """Load ``results`` (a :class:`~cfab.runner.results.ResultsDir`), write ``summary.json``
    and ``report.md``, and return the summary."""
    summary = summarize_run(results.load(), meta if meta is not None else results.read_meta(), k)
    results.write_summary(summary)
    results.write_report(render_report(summary))
    return summary
