"""Smoke test of ``runner bench``: every section runs and reports sane figures.

No timing assertions: the machine is shared and noisy; the bench itself reports the load. It
runs ``runner bench --attempts 3 --scale 1`` in-process on the cached golden file, skipping the
sections that rebuild or re-run whole things (build, JSON snapshots, memory workers, the suite:
those are what the bench is for, not what CI should wait on).
"""

from __future__ import annotations

import json

import pytest

from cfab.runner.cli import main

SECTIONS = ("meta", "load", "build", "overhead", "diff", "snapshot", "memory", "suite", "checks", "targets", "warnings")


@pytest.fixture(scope="module")
def bench_json(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("bench") / "bench.json"
    assert (
        main(
            [
                "bench",
                "--attempts",
                "3",
                "--scale",
                "1",
                "--skip-suite",
                "--skip-build",
                "--skip-snapshot",
                "--skip-memory",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    return json.loads(out.read_text())


def _stat_ok(s: dict, n: int | None = None) -> None:
    assert s["median"] is not None and s["median"] >= 0
    assert s["min"] <= s["median"] <= s["max"]
    if n is not None:
        assert s["n"] == n


def test_every_section_is_present(bench_json):
    for name in SECTIONS:
        assert name in bench_json, name
    for name in ("suite", "build", "snapshot", "memory"):
        assert bench_json[name] == {"skipped": True}, name
    for name in ("overhead", "diff", "checks"):
        assert "error" not in bench_json[name], bench_json[name].get("traceback")
    assert bench_json["meta"]["cores"] >= 1
    assert set(bench_json["load"]) == {"start", "end"}
    assert any("only 3 attempts" in w for w in bench_json["warnings"])


def test_overhead_figures(bench_json):
    o = bench_json["overhead"]
    assert o["attempts"] == 3 and o["all_passed"] and o["fast_equals_full"] is True
    parts = o["parts"]
    for name in ("copy", "open", "logs", "diff", "grade", "close", "total", "tool"):
        _stat_ok(parts[name], 3)
    assert parts["total"]["median"] > 0
    assert parts["open"]["median"] > 0 and parts["diff"]["median"] > 0
    for s in o["subparts"].values():
        assert s["n"] == 3
    _stat_ok(o["raw"]["copy"])
    _stat_ok(o["ensure_golden_per_attempt"])


def test_small_change_diff_is_ten_rows_and_fast_equals_full(bench_json):
    d = bench_json["diff"]["1"]
    assert len(d["tables"]) == 2
    for name, e in d["tables"].items():
        assert "error" not in e, e
        _stat_ok(e["fast"]["env_state_diff"], 3)
        _stat_ok(e["full"]["env_state_diff"])
        assert e["fast_equals_full"] is True
        assert sum(c["changed"] for c in e["diff_summary"].values()) == 10
        assert [k.lower() for k in e["diff_summary"]] == [name.lower()]
    assert next(iter(d["tables"].values()))["reset_check"]["reset_restores_digest"] is True


def test_checks_and_targets(bench_json):
    c = bench_json["checks"]
    assert c["concurrent_attempts"]["ok"] is True
    assert all(c["fast_equals_full"].values())
    assert c["reset_restores_digest"]["x1"]["reset_restores_digest"] is True

    statuses = {t["name"]: t["status"] for t in bench_json["targets"]}
    assert statuses["per-attempt overhead, scale 1 (median)"] in ("PASS", "MISS")
    assert all(v in ("PASS", "MISS", "n/a") for v in statuses.values())
