"""R_coi_expiry compiled against the default golden book: one key per job situation (an umbrella
expiring beside a valid general liability, a superseded certificate lookalike, a clean job),
the held-out jobs, the drafts expected per vendor, the typed id list, the admission gate, and
the GL-only and superseded judgements that must fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfab.tasks.families import r_coi_expiry as R
from cfab.tasks.family import BookReader, held_out_count
from cfab.tasks.model import Task
from tests.tasks.family_helpers import (
    FamilyContract,
    answers_hold,
    assert_guarded_reports,
    assert_oracles_call_tools_cleanly,
    assert_wrong_move_fails,
    replay,
)

FAMILY = R.RCoiExpiry
COUNT = 4  # jobs chosen by property: umbrella, superseded lookalike, clean, the largest superseded job
# do-everything's example writes (drafts to example ids, uploads without content) all fail: the
# guard on its send is what stops it
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True


@pytest.fixture(scope="module")
def cases(golden: Path) -> dict:
    book = BookReader(golden)
    try:
        fam = FAMILY()
        keys = fam.keys(book)
        return {
            "keys": keys,
            "held_out": fam.held_out_keys(book),
            "cases": {k: fam.case(k, book) for k in keys},
        }
    finally:
        book.close()


def _task(compiled: dict[str, Task], job: str) -> Task:
    return compiled[f"cf_R_coi_expiry_{job}"]


def test_metadata(compiled: dict[str, Task]) -> None:
    assert_guarded_reports(compiled, "R", 2)
    for t in compiled.values():
        assert t.guarded_step is not None and t.guarded_step.tool == "outlook.outlook_send"
        assert set(t.systems) == {"procore", "box", "outlook", "sharepoint"}


def test_keys_by_situation(compiled: dict[str, Task], cases: dict) -> None:
    keys, held = cases["keys"], cases["held_out"]
    variants = [_task(compiled, k).defect_variant for k in keys]
    assert variants[:3] == ["umbrella_expiring", "superseded_coi_lookalike", None]
    assert len(held) == held_out_count(len(keys)) and not set(held) & set(keys)
    clean = cases["cases"][keys[2]]
    assert not clean.superseded and not clean.umbrella and clean.needing


def test_drafts_per_vendor(compiled: dict[str, Task], cases: dict) -> None:
    for job, c in cases["cases"].items():
        t = _task(compiled, job)
        drafts = [e for e in t.ground_truth.expected if e.table == "messages"]
        assert len(drafts) == len(c.needing)
        for v in c.needing:
            assert any(v["email"].lower() in str(e.where) for e in drafts), v["vendor_key"]
        (spec,) = t.ground_truth.answers
        ids = [v["vendor_key"] for v in c.needing]
        assert spec.type == "id_list" and spec.expected == sorted(ids)
        assert answers_hold(t, {"vendor_ids": [v["procore_id"] for v in c.needing]})
        for v in c.superseded:
            assert not answers_hold(t, {"vendor_ids": [*ids, v["vendor_key"]]})


def test_oracles_call_tools_cleanly(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    for job in cases["keys"][:3]:
        assert_oracles_call_tools_cleanly(_task(compiled, job), golden)


def test_umbrella_still_needs_a_request(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    """General liability valid, umbrella expiring: a GL-only check drops the request and fails."""
    job = cases["keys"][0]
    t, c = _task(compiled, job), cases["cases"][job]
    v = c.umbrella[0]
    assert v["expiring"] == ["umbrella"]
    steps = [s for s in t.oracle.steps if not (s.tool == "outlook.outlook_draft" and s.args["to"] == [v["email"]])]
    assert_wrong_move_fails(t, golden, steps, "umbrella")


def test_superseded_certificate_needs_nothing(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    """An expired certificate a renewal superseded: a request to that vendor fails."""
    job = cases["keys"][1]
    t, c = _task(compiled, job), cases["cases"][job]
    v = c.superseded[0]
    draft = next(s for s in t.oracle.steps if s.tool == "outlook.outlook_draft")
    extra = draft.model_copy(update={"args": {**draft.args, "to": [v["email"]]}})
    assert_wrong_move_fails(t, golden, [*t.oracle.steps, extra], "superseded")
    # the right drafts with the answer in another spelling still pass
    names = {"vendor_ids": [u["legal_name"] for u in c.needing]}
    assert replay(t, golden, t.oracle.steps, answers=names).grade.passed


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
