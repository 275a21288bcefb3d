"""Every result says where it came from: suite fingerprint, golden digest, inputs, code, transport,
and for model runs the endpoint host, model and sampling settings (never the key)."""

from __future__ import annotations

import json
from pathlib import Path

from cfab.runner.results import ResultsDir, render_report, summarize_run, write_outputs
from cfab.runner.results.provenance import golden_digest, provenance
from cfab.seeds.determinism import BuildInputs
from tests.runner.runner_helpers import make_record


def _golden(tmp_path: Path) -> Path:
    golden = tmp_path / "book.duckdb"
    golden.write_bytes(b"")
    golden.with_name(golden.name + ".digest").write_text("ab" * 32 + "\n")
    return golden


def test_provenance_fields(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-never-recorded")
    golden = _golden(tmp_path)
    inputs = BuildInputs.from_env(seed=11, clock="2026-02-28", scale=1)
    p = provenance(
        suite="executable",
        inputs=inputs,
        golden=golden,
        transport="http",
        policy="llm",
        policy_options={
            "model": "gpt-x",
            "base_url": "https://models.example.org:8443/v1",
            "api_key_env": "OPENAI_API_KEY",
            "max_steps": 30,
        },
    )
    assert p["golden_digest"] == "ab" * 32 and golden_digest(tmp_path / "none.duckdb") is None
    assert (p["seed"], p["clock"], p["scale"], p["transport"]) == (11, "2026-02-28", 1, "http")
    assert p["suite_fingerprint"].startswith("executable:") and "s11-c2026-02-28-x1" in p["suite_fingerprint"]
    assert p["package_version"]
    assert p["llm"] == {"model": "gpt-x", "base_url_host": "models.example.org", "temperature": 0.0, "max_steps": 30}
    assert "sk-secret" not in json.dumps(p)
    # the source tree of this test run is a git checkout: its commit is recorded
    assert len(p.get("git_commit", "x" * 40).removesuffix("-dirty")) == 40
    oracle = provenance(suite="executable", inputs=inputs, golden=golden, transport="inprocess", policy="oracle")
    assert "llm" not in oracle


def test_provenance_in_run_json_summary_and_report(tmp_path: Path) -> None:
    golden = _golden(tmp_path)
    prov = provenance(suite="executable", inputs=BuildInputs(), golden=golden, transport="inprocess", policy="oracle")
    meta = {"suite": "executable", "policy": "oracle", "k": 1, "provenance": prov}
    results = ResultsDir(tmp_path / "run")
    results.append(make_record("cf_A_1042", 0))
    results.write_meta(meta)
    write_outputs(results, meta=meta, k=1)
    run_json = json.loads((tmp_path / "run" / "run.json").read_text())
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert run_json["provenance"]["golden_digest"] == summary["meta"]["provenance"]["golden_digest"] == "ab" * 32
    report = (tmp_path / "run" / "report.md").read_text()
    assert "## Provenance" in report and "| golden_digest | `" + "ab" * 32 + "` |" in report
    assert "| suite_fingerprint |" in report and "| package_version |" in report
    assert render_report(summarize_run(results.load(), meta, k=1)) == report
