"""ResultsDir: atomic appends across processes, half-written last line, done_keys, resume."""

from __future__ import annotations

import json
import multiprocessing as mp
from decimal import Decimal

from cfab.runner.results import ResultsDir
from cfab.runner.results.records import AttemptRecord
from tests.runner.runner_helpers import append_many, make_record


def test_record_json_round_trip_with_decimal_cost_as_string(tmp_path):
    rec = make_record(
        "t1",
        0,
        cost_usd=Decimal("0.000960"),
        failed_checks=[{"kind": "expected", "label": "erp estimate", "detail": "missing"}],
        diff_summary={"vista.jcjm": {"changed": 1}},
    )
    data = json.loads(rec.model_dump_json())
    assert data["cost_usd"] == "0.000960"
    assert data["diff_summary"]["vista.jcjm"] == {"added": 0, "removed": 0, "changed": 1}
    assert AttemptRecord.model_validate_json(rec.model_dump_json()) == rec


def test_concurrent_appends_from_processes_never_interleave(tmp_path):
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=append_many, args=(str(tmp_path), w, 60, 9000)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    raw = (tmp_path / "attempts.jsonl").read_bytes()
    lines = raw.split(b"\n")
    assert lines[-1] == b"" and len(lines) == 241
    recs = [AttemptRecord.model_validate_json(line) for line in lines[:-1]]  # every line parses
    assert len({r.key for r in recs}) == 240
    for r in recs:  # and is whole: the reply belongs to the writer of the record
        assert r.reply == f"{r.task[1:]}:" + "x" * 9000


def test_half_written_last_line_is_ignored_then_truncated(tmp_path):
    results = ResultsDir(tmp_path)
    for a in range(3):
        results.append(make_record("t1", a))
    good = (tmp_path / "attempts.jsonl").read_bytes()
    partial = make_record("t2", 0).model_dump_json().encode()[:57]
    with open(tmp_path / "attempts.jsonl", "ab") as fh:
        fh.write(partial)  # what kill -9 mid-write leaves behind
    # a reader that does not repair still ignores it
    assert ResultsDir(tmp_path, repair=False).done_keys() == {("t1", 0), ("t1", 1), ("t1", 2)}
    # opening for a resumed run truncates it, so the next append starts on a fresh line
    resumed = ResultsDir(tmp_path)
    assert (tmp_path / "attempts.jsonl").read_bytes() == good
    resumed.append(make_record("t2", 0))
    assert resumed.done_keys() == {("t1", 0), ("t1", 1), ("t1", 2), ("t2", 0)}
    assert len((tmp_path / "attempts.jsonl").read_bytes().splitlines()) == 4


def test_partial_only_line_and_long_partial_line(tmp_path):
    path = tmp_path / "attempts.jsonl"
    path.write_bytes(b'{"task": "t1", "att')
    assert ResultsDir(tmp_path).done_keys() == set() and path.read_bytes() == b""
    ResultsDir(tmp_path).append(make_record("a", 0))
    with open(path, "ab") as fh:
        fh.write(b"{" + b"x" * (3 << 20))  # a cut line longer than the repair's first chunk
    assert ResultsDir(tmp_path).repair() == 0  # already repaired on open
    assert ResultsDir(tmp_path).done_keys() == {("a", 0)}


def test_done_keys_exact_and_retrying_infrastructure_failures(tmp_path):
    results = ResultsDir(tmp_path)
    results.append(make_record("t1", 0))
    results.append(make_record("t1", 1, passed=False))
    results.append(make_record("t2", 0, error="worker process died (signal SIGKILL)"))
    results.append(make_record("t3", 0, stop_reason="api_error"))
    results.append(make_record("t4", 0, stop_reason="max_cost"))
    assert results.done_keys() == {("t1", 0), ("t1", 1), ("t2", 0), ("t3", 0), ("t4", 0)}
    assert results.done_keys(retry_errors=True) == {("t1", 0), ("t1", 1)}
    # a retried attempt's later line replaces the failed one
    results.append(make_record("t2", 0, passed=True))
    loaded = {r.key: r for r in results.load()}
    assert len(loaded) == 5 and loaded[("t2", 0)].error is None
    assert results.done_keys(retry_errors=True) == {("t1", 0), ("t1", 1), ("t2", 0)}


def test_summary_report_and_meta_files(tmp_path):
    results = ResultsDir(tmp_path)
    results.write_meta({"policy": "llm", "model": "m", "k": 5})
    assert results.read_meta() == {"k": 5, "model": "m", "policy": "llm"}
    results.write_summary({"b": 1, "a": Decimal("1.5").__str__()})
    assert json.loads((tmp_path / "summary.json").read_text()) == {"a": "1.5", "b": 1}
    results.write_report("# hi")
    assert (tmp_path / "report.md").read_text() == "# hi\n"
    assert not list(tmp_path.glob(".*.tmp"))
