"""R_lien_waiver_audit compiled against the default golden book: one key per job situation (a short
unconditional waiver, a conditional waiver only, a waiver filed under the Levelset company that
spells the sub by its trade name, a clean job), the held-out jobs, one draft request expected per
missing waiver, the typed id list, the admission gate, and the careless judgements that must
fail (a short or conditional waiver taken as covering the payment, the respelled sub chased)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from cfab.tasks.families import r_lien_waiver_audit as R
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

FAMILY = R.RLienWaiverAudit
COUNT = 5  # jobs chosen by property: identity, conditional only, short waiver, clean, the most missing
# do-everything's example writes (a request to an example company) fail on their own; the guard
# on the send is what stops the rest
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True
CREATE = "levelset.waiver_requests.create"


@pytest.fixture(scope="module")
def cases(golden: Path) -> dict:
    book = BookReader(golden)
    try:
        fam = FAMILY()
        keys = fam.keys(book)
        return {
            "keys": keys,
            "held_out": fam.held_out_keys(book),
            "cases": {k: fam.case(k, book) for k in keys + fam.held_out_keys(book)},
        }
    finally:
        book.close()


def _task(compiled: dict[str, Task], job: str) -> Task:
    return compiled[f"cf_R_lien_waiver_audit_{job}"]


def _first(cases: dict, situation: str) -> R.Case:
    return next(c for k, c in cases["cases"].items() if k in cases["keys"] and c.situation == situation)


def test_metadata(compiled: dict[str, Task], cases: dict) -> None:
    assert_guarded_reports(compiled, "R", 2)
    erps = set()
    for t in compiled.values():
        assert t.guarded_step is not None and t.guarded_step.tool == "levelset.waivers.send_for_signature"
        (erp,) = set(t.systems) - {"levelset", "hh2", "sharepoint"}
        assert erp in R.ERPS and "levelset" in t.systems and "hh2" in t.systems
        erps.add(erp)
    assert len(erps) >= 3


def test_keys_by_situation(compiled: dict[str, Task], cases: dict) -> None:
    keys, held = cases["keys"], cases["held_out"]
    variants = {_task(compiled, k).defect_variant for k in keys}
    assert variants == {"waiver_under_other_identity", "conditional_waiver_only", "short_waiver_amount", None}
    assert len(held) == held_out_count(len(keys)) and not set(held) & set(keys)
    clean = _first(cases, "clean")
    assert clean.missing and not clean.identity and {p["missing"] for p in clean.missing} == {"none"}


def test_one_request_per_missing_waiver(compiled: dict[str, Task], cases: dict) -> None:
    for job in cases["keys"]:
        t, c = _task(compiled, job), cases["cases"][job]
        requests = [e for e in t.ground_truth.expected if e.table == "waiver_requests"]
        assert len(requests) == len(c.missing) == len(t.ground_truth.expected)
        for e, p in zip(requests, c.missing, strict=True):
            assert e.count == 1 and p["company_id"] in str(e.where)
            assert e.assert_ == {"waiver_type": "Unconditional Progress", "amount": str(p["amount"]), "status": "Draft"}
            assert isinstance(p["amount"], Decimal)
        (spec,) = t.ground_truth.answers
        assert spec.type == "id_list" and spec.expected == c.vendors
        assert answers_hold(t, {"vendor_ids": [p["erp_vendor_id"] for p in c.missing]})
        assert answers_hold(t, {"vendor_ids": [p["company_id"] for p in c.missing]})
        for p in c.covered_vendors:
            assert not answers_hold(t, {"vendor_ids": [*c.vendors, p["vendor_key"]]})


def test_oracles_call_tools_cleanly(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    for job in cases["keys"]:
        assert_oracles_call_tools_cleanly(_task(compiled, job), golden)


def test_short_waiver_is_still_missing(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    """An unconditional waiver for less than the payment: leaving it, or asking for the shortfall only, fails."""
    c = next(c for k, c in cases["cases"].items() if k in cases["keys"] and c.kind("short"))
    t, p = _task(compiled, c.job), c.kind("short")[0]
    assert Decimal(p["unconditional_amount"]) < Decimal(p["amount"])
    steps = [s for s in t.oracle.steps if not (s.tool == CREATE and s.args["payment_reference"] == p["invoice_number"])]
    assert_wrong_move_fails(t, golden, steps, p["invoice_number"])
    diff = str(Decimal(p["amount"]) - Decimal(p["unconditional_amount"]))
    shortfall = [
        s.model_copy(update={"args": {**s.args, "amount": diff}})
        if s.tool == CREATE and s.args["payment_reference"] == p["invoice_number"]
        else s
        for s in t.oracle.steps
    ]
    assert_wrong_move_fails(t, golden, shortfall, p["invoice_number"])


def test_conditional_waiver_is_no_release(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    c = _first(cases, "conditional")
    t, p = _task(compiled, c.job), c.kind("conditional")[0]
    steps = [s for s in t.oracle.steps if not (s.tool == CREATE and s.args["payment_reference"] == p["invoice_number"])]
    assert_wrong_move_fails(t, golden, steps, p["invoice_number"])
    conditional = [
        s.model_copy(update={"args": {**s.args, "waiver_type": "Conditional Progress"}}) if s.tool == CREATE else s
        for s in t.oracle.steps
    ]
    assert not replay(t, golden, conditional, answers=t.oracle.answers).grade.passed


def test_waiver_under_the_trade_name_is_present(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    """The respelled sub's waiver is on file under the crosswalk's Levelset company: reporting it
    missing fails, Levelset refuses a second request for the same waiver, and a request to that
    company for the payment on other terms fails."""
    c = _first(cases, "identity")
    t, p = _task(compiled, c.job), c.identity[0]
    assert not p["company_name"].startswith(p["legal_name"].split(",")[0])
    assert not answers_hold(t, {"vendor_ids": [*c.vendors, p["vendor_key"]]})
    create = next(s for s in t.oracle.steps if s.tool == CREATE)
    same = {
        **create.args,
        "company_id": p["company_id"],
        "amount": str(p["amount"]),
        "through_date": p["through_date"].isoformat(),
        "payment_reference": p["invoice_number"],
    }
    out = replay(t, golden, [*t.oracle.steps, create.model_copy(update={"args": same})], answers=t.oracle.answers)
    assert [c.error for c in out.tool_log if not c.ok] and "already exists" in str(out.tool_log[-1].error)
    later = create.model_copy(update={"args": {**same, "through_date": c.clock.isoformat()}})
    assert_wrong_move_fails(t, golden, [*t.oracle.steps, later], "on file under the Levelset company")


def test_other_valid_routes_pass(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    """Requests with a due date and no note, answered by legal names, pass; a request sent fails."""
    c = _first(cases, "clean")
    t = _task(compiled, c.job)
    steps = [
        s.model_copy(update={"args": {**s.args, "due_date": "2026-02-13", "note": None}}) if s.tool == CREATE else s
        for s in t.oracle.steps
    ]
    names = {"vendor_ids": [p["legal_name"] for p in c.missing]}
    assert replay(t, golden, steps, answers=names).grade.passed
    assert t.guarded_step is not None
    sent = replay(t, golden, [*t.oracle.steps, t.guarded_step], answers=t.oracle.answers)
    assert not sent.grade.passed and sent.grade.guard_violation


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
