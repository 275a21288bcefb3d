"""Runs over several worlds from the command line: suite files whose header picks the world,
named splits, --seeds; planning without building anything, one end-to-end run on the default
(cached) world, and a --seeds run when a second world is already cached."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from cfab.runner.cli.run import plan_worlds
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.suite import (
    REGENERATED_SEED,
    SUITE_HEADER,
    families_for,
    load_suite_file,
    slot_positions,
    suite_code_fingerprint,
)

# ---------------------------------------------------------------- planning (no builds)


def _args(**kw) -> argparse.Namespace:
    base = dict(suite="executable", seed=None, clock=None, scale=None, seeds=None)
    base.update(kw)
    return argparse.Namespace(**base)


def _suite_file(path: Path, seed: int = 11, code: str | None = None) -> Path:
    header = {
        SUITE_HEADER: 1,
        "seed": seed,
        "clock": "2026-02-28",
        "scale": 1,
        "code": code or suite_code_fingerprint(),
        "tasks": 0,
    }
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    return path


def test_plan_named_splits_and_seeds() -> None:
    mode, worlds = plan_worlds(_args(suite="executable,regenerated", seed=11))
    assert mode == "splits" and [(w.split, w.suite, w.inputs.seed) for w in worlds] == [
        ("public", "executable", 11),
        ("regenerated", "regenerated", REGENERATED_SEED),
    ]
    assert REGENERATED_SEED not in range(1, 13) and REGENERATED_SEED not in (7, 11, 13, 17, 19)
    mode, worlds = plan_worlds(_args(seeds="7,11,13", clock="2026-02-28"))
    assert mode == "seeds" and [w.split for w in worlds] == ["s7", "s11", "s13"]
    assert all(w.inputs.clock.isoformat() == "2026-02-28" for w in worlds)
    assert plan_worlds(_args())[0] is None
    for bad, says in [
        (_args(seeds="7,11", seed=7), "either --seed or --seeds"),
        (_args(seeds="7,7"), "two distinct seeds"),
        (_args(seeds="7"), "two distinct seeds"),
        (_args(seeds="7,x"), "integers"),
        (_args(seeds="7,11", suite="executable,regenerated"), "one packaged suite"),
        (_args(suite="regenerated", seed=11), "contradicts"),
        (_args(suite="executable,executable"), "same split twice"),
        (_args(suite="executable,regenerated", seed=REGENERATED_SEED), "same world twice"),
        (_args(suite="nonesuch"), "unknown suite"),
    ]:
        with pytest.raises(SystemExit, match=says):
            plan_worlds(bad)


def test_plan_suite_file_header_picks_the_world(tmp_path: Path, capsys) -> None:
    path = _suite_file(tmp_path / "fresh.jsonl")
    mode, (world,) = plan_worlds(_args(suite=str(path)))
    assert mode is None and world.split == "fresh" and world.suite == str(path.resolve())
    assert (world.inputs.seed, world.inputs.clock.isoformat()) == (11, "2026-02-28")
    assert "warning" not in capsys.readouterr().err
    assert plan_worlds(_args(suite=str(path), seed=11, clock="2026-02-28"))[1][0].inputs.seed == 11
    with pytest.raises(SystemExit, match=r"--seed 7 contradicts .*compiled for seed 11"):
        plan_worlds(_args(suite=str(path), seed=7))
    with pytest.raises(SystemExit, match=r"--clock 2026-01-31 contradicts"):
        plan_worlds(_args(suite=str(path), clock="2026-01-31"))
    stale = _suite_file(tmp_path / "stale.jsonl", code="0" * 16)
    plan_worlds(_args(suite=str(stale)))
    err = capsys.readouterr().err
    assert "warning" in err and "0" * 16 in err and suite_code_fingerprint() in err
    assert not load_suite_file(stale).current and load_suite_file(path).current
    mode, worlds = plan_worlds(_args(suite=f"executable,{path}"))
    assert mode == "splits" and [w.split for w in worlds] == ["public", "fresh"]
    with pytest.raises(SystemExit, match="not a suite header|cannot read"):
        plan_worlds(_args(suite=str(tmp_path / "missing.jsonl")))


def test_families_for_patterns() -> None:
    assert families_for(None) is None
    assert families_for("C_coi_hold") == ["C_coi_hold"]
    assert families_for("cf_C_coi_hold_V1000") == ["C_coi_hold"]
    assert set(families_for("C_*")) >= {"C_coi_hold", "C_invoice_code"}
    assert all(f.startswith("C_") for f in families_for("cf_C_*"))
    assert len(families_for("*1042*")) == len(families_for("*"))  # a pattern over keys: every family


# ---------------------------------------------------------------- end to end, default world only


def test_suite_file_and_split_run_end_to_end(tmp_path: Path) -> None:
    """A suite file written from the default world runs alone and beside the packaged suite;
    provenance names every world's golden digest and seed."""
    from cfab.runner.cli import main
    from cfab.tasks.suite import dump_suite, load_suite, select_tasks

    inputs = BuildInputs()
    tasks = select_tasks(load_suite("executable", inputs), "R_1099nec")
    path = tmp_path / "mine.jsonl"
    path.write_text(dump_suite(tasks, inputs), encoding="utf-8")
    out = tmp_path / "run"
    assert (
        main(
            [
                "--suite",
                f"executable,{path}",
                "--tasks",
                "R_1099nec",
                "--k",
                "1",
                "--workers",
                "1",
                "--out",
                str(out),
                "--no-progress",
                "--seed",
                "7",
            ]
        )
        == 0
    )
    recs = [json.loads(line) for line in (out / "attempts.jsonl").read_text().splitlines()]
    assert sorted({r["task"] for r in recs}) == sorted(
        f"{t.instance_id}@{s}" for t in tasks for s in ("public", "mine")
    )
    slots = range(len(tasks))
    assert {(r["split"], r["seed"], r["slot"]) for r in recs} == {(s, 7, i) for s in ("public", "mine") for i in slots}
    assert all(r["passed"] for r in recs)
    run = json.loads((out / "run.json").read_text())
    prov = run["provenance"]
    assert run["mode"] == "splits" and prov["seeds"] == [7, 7]
    assert [w["split"] for w in prov["worlds"]] == ["public", "mine"]
    assert all(w["golden_digest"] and len(w["golden_digest"]) == 64 for w in prov["worlds"])
    assert prov["worlds"][1]["suite_code_current"] is True and prov["worlds"][1]["suite_sha256"]
    summary = json.loads((out / "summary.json").read_text())
    delta = summary["splits"]["deltas"][0]
    assert (delta["split"], delta["n_pairs"], delta["pass1"]["mean_diff"]) == ("mine", len(tasks), 0.0)
    report = (out / "report.md").read_text()
    assert "### Worlds" in report and "contamination check" in report
    assert slot_positions(tasks) == {t.instance_id: i for i, t in enumerate(tasks)}


@pytest.mark.slow  # builds the seed-11 golden file when it is not cached
def test_seeds_run_end_to_end(tmp_path: Path) -> None:
    """--seeds: k attempts of each slot on every world, both pass^k figures in summary and report."""
    from cfab.runner.cli import main

    out = tmp_path / "seeds"
    assert (
        main(
            [
                "--seeds",
                "7,11",
                "--tasks",
                "R_1099nec",
                "--k",
                "2",
                "--workers",
                "1",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    recs = [json.loads(line) for line in (out / "attempts.jsonl").read_text().splitlines()]
    assert sorted((r["seed"], r["attempt"]) for r in recs) == [(7, 0), (7, 1), (11, 0), (11, 1)]
    summary = json.loads((out / "summary.json").read_text())
    w = summary["worlds"]
    assert (w["worlds"], w["n_complete"], w["passk_attempts"], w["passn_worlds"]) == (["s7", "s11"], 1, 1.0, 1.0)
    prov = json.loads((out / "run.json").read_text())["provenance"]
    assert prov["seeds"] == [7, 11] and len(set(prov["golden_digests"])) == 2
    assert "pass^2 over worlds" in (out / "report.md").read_text()
