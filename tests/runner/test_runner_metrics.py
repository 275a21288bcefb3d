"""grader.metrics against hand-computed values (Wilson, pass^1, pass^k, groups, bootstrap)."""

from __future__ import annotations

import math

import pytest

from cfab.grader.metrics import (
    Z95,
    AttemptOutcome,
    default_k,
    paired_bootstrap,
    summarize,
    task_results,
    wilson_interval,
)

Z2 = Z95 * Z95  # 3.8414588206941236


def o(task, attempt, passed, score=None, domain="D", family="F", difficulty=3, systems=("procore",)):
    return AttemptOutcome(
        task=task,
        attempt=attempt,
        passed=passed,
        score=float(passed) if score is None else score,
        domain=domain,
        family=family,
        difficulty=difficulty,
        systems=tuple(systems),
    )


# ------------------------------------------------------------------ Wilson


def test_wilson_zero_of_n_is_zero_to_z2_over_n_plus_z2():
    ci = wilson_interval(0, 10)
    assert ci.lo == 0.0
    assert ci.hi == pytest.approx(Z2 / (10 + Z2), abs=1e-12)
    assert ci.hi == pytest.approx(0.277533, abs=1e-6)


def test_wilson_n_of_n_is_n_over_n_plus_z2_to_one():
    ci = wilson_interval(10, 10)
    assert ci.hi == 1.0
    assert ci.lo == pytest.approx(10 / (10 + Z2), abs=1e-12)
    assert ci.lo == pytest.approx(0.722467, abs=1e-6)


def test_wilson_textbook_half():
    ci = wilson_interval(5, 10)  # the classic [0.2366, 0.7634]
    assert (round(ci.lo, 4), round(ci.hi, 4)) == (0.2366, 0.7634)


@pytest.mark.parametrize(
    "successes,expected",
    [
        (15, (0.24, 0.53)),  # DeepSeek-V3.1 pass^5 0.38 [.24,.53]
        (12, (0.18, 0.45)),  # Qwen3-235B pass^5 0.30 [.18,.45]
        (16, (0.26, 0.55)),  # Qwen2.5-72B pass^5 0.40 [.26,.55]
        (26.6, (0.51, 0.79)),  # DeepSeek-V3.1 pass^1 0.665 (133/200 attempts) [.51,.79]
        (21.4, (0.38, 0.68)),  # Qwen2.5-72B pass^1 0.535 (107/200) [.38,.68]
        (18, (0.31, 0.60)),  # Qwen3-235B pass^1 0.45 [.31,.60]
    ],
)
def test_wilson_reproduces_the_papers_table(successes, expected):
    ci = wilson_interval(successes, 40)
    assert (round(ci.lo, 2), round(ci.hi, 2)) == expected


def test_wilson_hand_computed_15_of_40():
    # p = .375: centre = (p + z²/80) / (1 + z²/40); half = z·sqrt(p(1-p)/40 + z²/6400) / (1 + z²/40)
    p, n = 0.375, 40
    centre = (p + Z2 / (2 * n)) / (1 + Z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z2 / (4 * n * n)) / (1 + Z2 / n)
    ci = wilson_interval(15, 40)
    assert ci.lo == pytest.approx(centre - half, abs=1e-12)
    assert ci.hi == pytest.approx(centre + half, abs=1e-12)
    assert ci.lo == pytest.approx(0.242230, abs=1e-6) and ci.hi == pytest.approx(0.529676, abs=1e-6)


def test_wilson_edges():
    assert wilson_interval(0, 0).model_dump() == {"lo": 0.0, "hi": 1.0}
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


# ------------------------------------------------------------------ pass^1 / pass^k


def three_tasks():
    return [
        o("T1", 0, True, 1.0, "A", "f1", 1, ("procore", "vista")),
        o("T1", 1, True, 1.0, "A", "f1", 1, ("procore", "vista")),
        o("T2", 0, True, 1.0, "A", "f2", 3, ("procore",)),
        o("T2", 1, False, 0.5, "A", "f2", 3, ("procore",)),
        o("T3", 1, False, 0.25, "B", "f1", 3, ("box",)),
        o("T3", 0, False, 0.0, "B", "f1", 3, ("box",)),
    ]


def test_overall_hand_computed():
    s = summarize(three_tasks())
    g = s.overall
    assert s.k == 2 and g.n_tasks == 3 and g.n_attempts == 6
    assert g.pass1 == pytest.approx((1 + 0.5 + 0) / 3)  # 0.5
    assert g.passk == pytest.approx(1 / 3)  # only T1 passes both
    assert g.gap == pytest.approx(0.5 - 1 / 3)  # 1/6
    assert g.relative_drop == pytest.approx((1 / 6) / 0.5)  # a third of successes lost
    assert g.mean_score == pytest.approx((1 + 0.75 + 0.125) / 3)  # 0.625
    assert g.pass1_ci == wilson_interval(1.5, 3)
    assert g.passk_ci == wilson_interval(1, 3)
    assert g.n_incomplete == 0


def test_groups_hand_computed():
    s = summarize(three_tasks())
    assert list(s.by_domain) == ["A", "B"]
    assert s.by_domain["A"].pass1 == pytest.approx(0.75) and s.by_domain["A"].passk == 0.5
    assert s.by_domain["B"].pass1 == 0.0 and s.by_domain["B"].passk == 0.0
    assert s.by_family["f1"].n_tasks == 2 and s.by_family["f1"].pass1 == pytest.approx(0.5)
    assert list(s.by_difficulty) == ["1", "3"]
    assert s.by_difficulty["3"].pass1 == pytest.approx(0.25) and s.by_difficulty["3"].passk == 0.0
    # a task belongs to every app it names
    assert sorted(s.by_app) == ["box", "procore", "vista"]
    assert s.by_app["procore"].n_tasks == 2 and s.by_app["procore"].pass1 == pytest.approx(0.75)
    assert s.by_app["vista"].n_tasks == 1 and s.by_app["vista"].passk == 1.0
    assert s.by_app["box"].pass1 == 0.0


def test_pass_k_uses_the_first_k_attempts_and_flags_incomplete_tasks():
    recs = (
        three_tasks()
        + [o("T4", 0, True)]
        + [o("T1", 2, False, domain="A", family="f1", difficulty=1, systems=("procore", "vista"))]
    )
    s = summarize(recs, k=2)
    g = s.overall
    assert g.n_tasks == 4 and g.n_tasks_k == 3 and g.n_incomplete == 1
    # pass^1 averages every task (T1 now 2/3), pass^2 only complete ones (T1's first two pass)
    assert g.pass1 == pytest.approx((2 / 3 + 0.5 + 0 + 1) / 4)
    assert g.passk == pytest.approx(1 / 3)
    assert g.gap == pytest.approx((2 / 3 + 0.5 + 0) / 3 - 1 / 3)
    tr = {t.task: t for t in task_results(recs, 2)}
    assert tr["T4"].all_k_passed is None and tr["T1"].all_k_passed is True
    assert default_k(recs) == 3


def test_papers_forty_task_example():
    recs = []
    plan = [5] * 15 + [4] * 8 + [2] * 13 + [0] * 4  # 133 passes of 200, 15 tasks pass all five
    for i, passes in enumerate(plan):
        recs += [o(f"t{i:02}", a, a < passes) for a in range(5)]
    g = summarize(recs).overall
    assert g.pass1 == pytest.approx(0.665) and g.passk == pytest.approx(0.375)
    assert (round(g.pass1_ci.lo, 2), round(g.pass1_ci.hi, 2)) == (0.51, 0.79)
    assert (round(g.passk_ci.lo, 2), round(g.passk_ci.hi, 2)) == (0.24, 0.53)
    assert round(g.gap, 2) == 0.29 and round(g.relative_drop, 2) == 0.44


def test_difficulty_keys_sort_numerically():
    recs = [o(f"t{d}", 0, True, difficulty=d) for d in (10, 2, 1)]
    assert list(summarize(recs).by_difficulty) == ["1", "2", "10"]


def test_duplicates_and_metadata_drift_are_errors():
    with pytest.raises(ValueError, match="duplicate"):
        summarize([o("T", 0, True), o("T", 0, False)])
    with pytest.raises(ValueError, match="metadata"):
        summarize([o("T", 0, True, domain="A"), o("T", 1, True, domain="B")])


# ------------------------------------------------------------------ paired bootstrap


def test_bootstrap_constant_difference_has_a_point_interval():
    a = [o(f"t{i}", 0, True) for i in range(6)]
    b = [o(f"t{i}", 0, False) for i in range(6)]
    r = paired_bootstrap(a, b, n_boot=500, seed=1)
    assert (r.mean_diff, r.lo, r.hi) == (1.0, 1.0, 1.0)
    assert r.n_tasks == 6 and r.mean_a == 1.0 and r.mean_b == 0.0


def test_bootstrap_is_deterministic_and_brackets_the_mean():
    a, b = [], []
    for i in range(30):
        a += [o(f"t{i}", j, (i + j) % 3 != 0) for j in range(3)]
        b += [o(f"t{i}", j, (i * j) % 4 == 0) for j in range(3)]
    r1 = paired_bootstrap(a, b, seed=7, n_boot=2000)
    r2 = paired_bootstrap(a, b, seed=7, n_boot=2000)
    assert r1 == r2
    assert r1.lo <= r1.mean_diff <= r1.hi
    # the exact paired mean: per-task pass-rate differences averaged over the 30 tasks
    exact = (
        sum(
            sum((i + j) % 3 != 0 for j in range(3)) / 3 - sum((i * j) % 4 == 0 for j in range(3)) / 3 for i in range(30)
        )
        / 30
    )
    assert r1.mean_diff == pytest.approx(exact)
    assert paired_bootstrap(a, b, seed=8, n_boot=2000).mean_diff == r1.mean_diff


def test_bootstrap_two_tasks_hand_enumerated():
    # diffs {0, 1}: every resampled mean is 0, .5 or 1, so the 95% interval is [0, 1]
    a = [o("x", 0, True), o("y", 0, True)]
    b = [o("x", 0, True), o("y", 0, False)]
    r = paired_bootstrap(a, b, n_boot=4000, seed=3)
    assert r.mean_diff == 0.5 and (r.lo, r.hi) == (0.0, 1.0)


def test_bootstrap_common_tasks_and_metrics():
    a = [o("x", 0, True), o("x", 1, False), o("only_a", 0, True)]
    b = [o("x", 0, True), o("x", 1, True), o("only_b", 0, True)]
    r = paired_bootstrap(a, b, metric="passk", k=2, n_boot=100)
    assert (r.n_tasks, r.only_in_a, r.only_in_b) == (1, 0, 0)  # one-attempt tasks are incomplete at k=2
    assert r.mean_diff == -1.0
    r = paired_bootstrap(a, b, metric="pass1", n_boot=100)
    assert (r.n_tasks, r.only_in_a, r.only_in_b, r.mean_diff) == (1, 1, 1, -0.5)
    with pytest.raises(ValueError):
        paired_bootstrap(a, b, metric="nope")  # type: ignore[arg-type]
