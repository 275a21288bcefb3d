"""Metrics and reports of runs over several worlds, on synthetic records: pass^k over attempts
vs pass^n over worlds, public vs regenerated splits with a deterministic paired bootstrap, and
records written before worlds existed."""

from __future__ import annotations

import json

import pytest

from cfab.grader.metrics import AttemptOutcome, over_worlds, pair_slots
from cfab.runner.results import render_report, summarize_run
from cfab.runner.results.records import AttemptRecord
from cfab.tasks.suite import REGENERATED_SEED
from tests.runner.runner_helpers import make_record


def _rec(
    fam: str, slot: int, split: str, attempt: int, passed: bool, key: str | None = None, seed: int | None = None
) -> AttemptRecord:
    key = key if key is not None else f"K{slot}"
    return make_record(
        f"cf_{fam}_{key}@{split}",
        attempt,
        passed=passed,
        score=float(passed),
        family=fam,
        split=split,
        seed=seed,
        task_key=key,
        slot=slot,
    )


# ---------------------------------------------------------------- pass^k over worlds


def _grid() -> list[AttemptRecord]:
    """Slots A..D on worlds s7, s11, s29 with k = 2:
    A passes everything; B fails attempt 1 on s11 (the diagonal attempt there); C fails attempt 1
    on s7 (off the diagonal); D exists on two worlds only (incomplete)."""
    worlds = ["s7", "s11", "s29"]
    out = []
    for _slot, fam in enumerate(["F_a", "F_b", "F_c"]):
        for w in worlds:
            for a in range(2):
                fail = (fam == "F_b" and w == "s11" and a == 1) or (fam == "F_c" and w == "s7" and a == 1)
                out.append(_rec(fam, 0, w, a, not fail, seed=int(w[1:])))
    out += [_rec("F_d", 0, w, a, True, seed=int(w[1:])) for w in worlds[:2] for a in range(2)]
    return out


def test_over_worlds_definitions() -> None:
    m = over_worlds(
        _grid(), ["s7", "s11", "s29"], 2, world_of=lambda r: r.split, slot_of=lambda r: f"{r.family}#{r.slot}"
    )
    assert (m.n_slots, m.n_complete, m.n_incomplete, m.n_worlds) == (4, 3, 1, 3)
    # over attempts: A 3/3 worlds, B 2/3, C 2/3 → mean 7/9
    assert m.passk_attempts == pytest.approx(7 / 9)
    # over worlds (attempt i mod 2 on world i: s7 a0, s11 a1, s29 a0): A yes, B no (s11 a1), C yes
    assert m.passn_worlds == pytest.approx(2 / 3)
    assert m.pass_all == pytest.approx(1 / 3)
    assert m.pass1 == pytest.approx((1 + 5 / 6 + 5 / 6) / 3)
    assert m.passn_worlds_ci is not None and m.passn_worlds_ci.lo < 2 / 3 < m.passn_worlds_ci.hi
    assert list(m.per_world) == ["s7", "s11", "s29"]
    assert m.per_world["s7"].n_tasks == 4 and m.per_world["s29"].n_tasks == 3
    assert m.per_world["s11"].passk == pytest.approx(3 / 4)  # B fails there; D is complete on s11


def test_over_worlds_k1_is_finalitybench_pass_over_seeds() -> None:
    recs = [
        AttemptOutcome(task=f"t{s}@{w}", attempt=0, passed=not (s == 1 and w == "b"), family="F")
        for s in range(3)
        for w in "abc"
    ]
    m = over_worlds(
        recs, ["a", "b", "c"], 1, world_of=lambda r: r.task.split("@")[1], slot_of=lambda r: r.task.split("@")[0]
    )
    assert m.passn_worlds == pytest.approx(2 / 3) and m.passk_attempts == pytest.approx(8 / 9)
    with pytest.raises(ValueError):
        over_worlds(recs, ["a", "b"], 1, world_of=lambda r: r.task.split("@")[1], slot_of=lambda r: r.task)


def test_seeds_summary_and_report_side_by_side() -> None:
    meta = {
        "policy": "noop",
        "k": 2,
        "mode": "seeds",
        "worlds": [{"split": w, "suite": "executable", "seed": int(w[1:])} for w in ("s7", "s11", "s29")],
    }
    recs = _grid()
    s1 = summarize_run(recs, meta)
    s2 = summarize_run(list(reversed(recs)), meta)
    assert s1 == s2 and s1.worlds is not None and s1.splits is None
    assert s1.worlds.passk_attempts == pytest.approx(7 / 9) and s1.worlds.passn_worlds == pytest.approx(2 / 3)
    report = render_report(s1)
    assert report == render_report(s2)
    assert "## pass^k over attempts and over worlds" in report
    assert "| pass^2 over attempts [95% CI] | pass^3 over worlds [95% CI] |" in report
    assert "| 3 of 4 | 0.89" in report and "| 0.78 [" in report and "| 0.67 [" in report
    assert "1 slot(s) are incomplete" in report
    json.dumps(s1.model_dump(mode="json"))  # summary.json carries it


# ---------------------------------------------------------------- splits


def test_pair_slots_key_first_then_position() -> None:
    pub = [("p1", "F", "V1"), ("p2", "F", "V2"), ("p3", "F", "V3"), ("p4", "G", "2025")]
    reg = [("r1", "F", "V2"), ("r2", "F", "V7"), ("r3", "F", "V8"), ("r4", "F", "V9"), ("r5", "H", "x")]
    ids = pair_slots(reg, pub)
    assert ids["r1"] == ids["p2"]  # same key
    assert ids["r2"] == ids["p1"] and ids["r3"] == ids["p3"]  # the rest by position
    assert len({ids["r4"], ids["p4"], ids["r5"]} - {ids[t] for t in ("p1", "p2", "p3")}) == 3  # unpaired


def _splits_records() -> list[AttemptRecord]:
    """Public: 12 tasks pass both attempts. Regenerated: same families (keys differ on half),
    6 of them fail attempt 1, 3 of those fail attempt 0 too."""
    out = []
    for i in range(12):
        fam = f"F{i % 3}"
        pos = i // 3
        for a in range(2):
            out.append(_rec(fam, pos, "public", a, True, key=f"K{pos}", seed=7))
            reg_key = f"K{pos}" if pos % 2 == 0 else f"R{pos}"
            fail = i < 6 and (a == 1 or i < 3)
            out.append(_rec(fam, pos, "regenerated", a, not fail, key=reg_key, seed=REGENERATED_SEED))
    return out


def test_split_comparison_paired_bootstrap_is_deterministic() -> None:
    meta = {
        "policy": "llm",
        "k": 2,
        "mode": "splits",
        "worlds": [
            {"split": "public", "suite": "executable", "seed": 7},
            {"split": "regenerated", "suite": "regenerated", "seed": REGENERATED_SEED},
        ],
    }
    recs = _splits_records()
    s = summarize_run(recs, meta)
    assert s.splits is not None and s.worlds is None
    pub, reg = s.splits.splits
    assert (pub.split, pub.metrics.n_tasks, pub.metrics.pass1, pub.metrics.passk) == ("public", 12, 1.0, 1.0)
    assert reg.metrics.pass1 == pytest.approx((3 * 0 + 3 * 0.5 + 6 * 1) / 12) and reg.metrics.passk == 0.5
    (d,) = s.splits.deltas
    assert (d.split, d.baseline, d.n_pairs, d.unpaired) == ("regenerated", "public", 12, 0)
    assert d.pass1.mean_diff == pytest.approx(-0.375) and d.passk.mean_diff == pytest.approx(-0.5)
    assert d.passk.hi < 0 and d.passk.lo >= -1 and d.pass1.n_boot == 10_000 and d.pass1.seed == 0
    again = summarize_run(list(reversed(recs)), meta)
    assert again == s  # exact: seeded resampling, sorted inputs
    report = render_report(s)
    assert "## Public vs regenerated splits (contamination check)" in report
    assert f"| regenerated | regenerated | {REGENERATED_SEED} | 12 | 0.62 [" in report
    assert "| regenerated − public | 12 | 0 | -0.38 [" in report
    assert report == render_report(again)


def test_old_records_and_summaries_still_load() -> None:
    old = {"task": "cf_A_1042", "attempt": 0, "policy": "oracle", "passed": True, "score": 1.0}
    rec = AttemptRecord.model_validate_json(json.dumps(old))
    assert (rec.split, rec.seed, rec.task_key, rec.slot, rec.key) == ("", None, "", None, ("cf_A_1042", 0))
    s = summarize_run([rec], {"k": 1})
    assert s.splits is None and s.worlds is None
    assert "over worlds" not in render_report(s) and "regenerated" not in render_report(s)
