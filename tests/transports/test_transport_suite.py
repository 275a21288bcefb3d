"""The executable suite through each transport: ``runner --suite executable --k 1 --transport
http|mcp`` with the oracle must score 1.0, as in-process. The test runs one task of every family
(each family's tools, guard and grading path) to keep CI fast; the whole suite through both
transports is the same command without ``--tasks`` (see the transports issue's closing note)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfab.runner.cli import main


@pytest.mark.parametrize("transport", ["http", "mcp"])
def test_oracle_scores_one_through_transport(transport: str, tmp_path: Path) -> None:
    from cfab.runner.results import ResultsDir
    from cfab.seeds.determinism import BuildInputs
    from cfab.tasks.suite import load_suite

    first: dict[str, str] = {}
    for task in load_suite("executable", BuildInputs()):
        first.setdefault(task.family, task.instance_id)
    assert first, "the executable suite is empty"
    out = tmp_path / transport
    code = main(
        [
            "--suite",
            "executable",
            "--k",
            "1",
            "--policy",
            "oracle",
            "--transport",
            transport,
            "--tasks",
            ",".join(sorted(first.values())),
            "--workers",
            "2",
            "--no-progress",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    records = ResultsDir(out).load()
    assert sorted(r.task for r in records) == sorted(first.values())
    errors = [(r.task, r.error) for r in records if r.error]
    assert not errors, errors
    failed = [(r.task, [c.label for c in r.failed_checks]) for r in records if not r.passed]
    assert not failed, failed
    assert all(r.score == 1.0 for r in records)
