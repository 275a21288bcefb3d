"""T_payment_run compiled against the default golden book: one job release per situation (a short
conditional waiver, a back-charge credit memo, a vendor on hold beside a partially paid invoice, a
Corpay enrollment pending, a clean control), the held-out jobs, the Draft batch expected (its
payments and remittance lines at each document's open balance), the typed answers, the admission
gate, and the careless runs that must fail (a held, pending, disputed or unwaived invoice paid, the
waived amount paid, a partial invoice paid in full, retainage paid, a credit not applied)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cfab.tasks.families import t_payment_run as T
from cfab.tasks.family import BookReader, held_out_count
from cfab.tasks.model import Task, ToolStep
from tests.tasks.family_helpers import (
    FamilyContract,
    answers_hold,
    assert_guarded_reports,
    assert_oracles_call_tools_cleanly,
    assert_wrong_move_fails,
    replay,
)

FAMILY = T.TPaymentRun
COUNT = 5  # jobs chosen by property: short waiver, credit memo, hold, pending enrollment, clean
# do-everything's example draft batch is discarded by batches.discard's own example (the other example
# writes name records this book lacks): the guard on the release is what stops it
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True
ADD = "corpay.batches.add_payment"


@pytest.fixture(scope="module")
def cases(golden: Path) -> dict:
    book = BookReader(golden)
    try:
        fam = FAMILY()
        keys, held = fam.keys(book), fam.held_out_keys(book)
        return {"keys": keys, "held_out": held, "cases": {k: fam.case(k, book) for k in keys + held}}
    finally:
        book.close()


def _task(compiled: dict[str, Task], job: str) -> Task:
    return compiled[f"cf_T_payment_run_{job}"]


def _of_kind(cases: dict, kind: str) -> T.Case:
    return next(c for k, c in cases["cases"].items() if k in cases["keys"] and c.kind == kind)


def _pay_steps(t: Task) -> list[ToolStep]:
    return [s for s in t.oracle.steps if s.tool == ADD]


def _with_lines(t: Task, c: T.Case, vendor: str, lines: list[dict[str, Any]]) -> list[ToolStep]:
    """The oracle with ``vendor``'s payment carrying ``lines`` (added when the oracle pays it nothing)."""
    cp = c.cp(vendor)
    steps = [s for s in t.oracle.steps if not (s.tool == ADD and s.args["vendor_id"] == cp)]
    template = _pay_steps(t)[0]
    return [*steps, template.model_copy(update={"args": {**template.args, "vendor_id": cp, "invoices": lines}})]


def _line(d: T.Doc, amount: Decimal | None = None) -> dict[str, Any]:
    return {"invoice_number": d.number, "amount": str(d.balance if amount is None else amount)}


def test_metadata(compiled: dict[str, Task]) -> None:
    assert_guarded_reports(compiled, "T", 3)
    erps = set()
    for t in compiled.values():
        assert t.guarded_step is not None and t.guarded_step.tool == "corpay.batches.release"
        (erp,) = set(t.systems) - {"corpay", "levelset", "hh2", "sharepoint"}
        assert erp in T.ERPS and "vista_erp" not in t.systems
        erps.add(erp)
        assert t.key in t.instruction and "payments_policy.md" in t.instruction
        assert "Pending" not in t.instruction  # the enrollment clause is the policy's alone
    assert len(erps) == len(compiled)


def test_keys_by_property(compiled: dict[str, Task], cases: dict) -> None:
    keys, held = cases["keys"], cases["held_out"]
    assert {_task(compiled, k).defect_variant for k in keys} == {
        "short_conditional_waiver",
        "credit_memo_nets",
        "vendor_on_hold_and_partial_payment",
        "corpay_enrollment_pending",
        None,
    }
    assert len(held) == held_out_count(len(keys)) and not set(held) & set(keys)
    control = _of_kind(cases, "clean")
    assert not control.excluded and any(d.payreq and Decimal(d.row["retainage_amount"]) > 0 for d in control.docs)
    for c in cases["cases"].values():
        assert c.pay_date.weekday() == 3 and c.pay_date > c.clock and (c.cutoff - c.pay_date).days == 30


def test_one_draft_batch_with_each_vendor_payment(compiled: dict[str, Task], cases: dict) -> None:
    for job in cases["keys"]:
        t, c = _task(compiled, job), cases["cases"][job]
        ev = t.ground_truth
        (batch,) = [e for e in ev.expected if e.table == "payment_batches"]
        assert batch.count == 1 and batch.where == {
            "status": "Draft",
            "funding_account_id": T.FUNDING,
            "batch_date": c.pay_date.isoformat(),
        }
        payments = [e for e in ev.expected if e.table == "payments"]
        lines = [e for e in ev.expected if e.table == "remittances"]
        assert len(payments) == len(c.payments) and len(lines) == len(c.applied)
        assert sum(Decimal(e.assert_["amount"]) for e in payments) == c.total == Decimal(batch.assert_["total_amount"])
        assert sum(Decimal(e.assert_["amount_paid"]) for e in lines) == c.total
        forbidden = {e.where["invoice_number"] for e in ev.forbidden if e.table == "remittances"}
        assert forbidden == {d.number for d in c.excluded}
        total, excluded = ev.answers
        assert total.expected == str(c.total) and set(excluded.expected) == {d.number for d in c.excluded}
        assert answers_hold(t, {"batch_total": f"${c.total:,}", "excluded_invoices": excluded.expected or "none"})
        for wrong in total.lookalikes:
            assert not answers_hold(t, {"batch_total": wrong, "excluded_invoices": excluded.expected})


def test_erp_document_ids_are_accepted(compiled: dict[str, Task], cases: dict) -> None:
    for job in cases["keys"]:
        t, c = _task(compiled, job), cases["cases"][job]
        other = T.doc_aliases(c)
        if other:
            ids = [other.get(d.number, d.number) for d in c.excluded]
            assert answers_hold(t, {"batch_total": str(c.total), "excluded_invoices": ids})
        for d in c.applied[:1]:
            wrong = [*(x.number for x in c.excluded), d.number]
            assert not answers_hold(t, {"batch_total": str(c.total), "excluded_invoices": wrong})


def test_oracles_call_tools_cleanly(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    for job in cases["keys"]:
        assert_oracles_call_tools_cleanly(_task(compiled, job), golden)


def test_held_vendor_and_partial_payment(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    c = _of_kind(cases, "hold")
    t = _task(compiled, c.job)
    (held,) = c.held_vendors
    docs = [d for d in c.excluded if d.vendor == held]
    assert {d.reason for d in docs} == {"hold"}
    bad = _with_lines(t, c, held, [_line(d) for d in docs])
    assert_wrong_move_fails(t, golden, bad, "payment hold")
    (partial,) = [d for d in c.applied if d.partial]
    assert Decimal(partial.row["paid_amount"]) > 0 and partial.balance < Decimal(partial.row["net_amount"])
    full = [_line(d, Decimal(d.row["net_amount"]) if d is partial else None) for d in c.payments[partial.vendor]]
    assert_wrong_move_fails(t, golden, _with_lines(t, c, partial.vendor, full), partial.number)


def test_credit_memo_nets_and_dispute_waits(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    c = _of_kind(cases, "credit")
    t = _task(compiled, c.job)
    (credit,) = [d for d in c.applied if d.credit]
    assert credit.number.startswith(f"BC-{c.job}-") and credit.payreq is False
    cleanup = next(d for d in c.applied if d.balance == -credit.balance and d.vendor != credit.vendor)
    assert cleanup.row["vendor_type"] == "service"
    gross = [_line(d) for d in c.payments[credit.vendor] if d is not credit]
    assert_wrong_move_fails(t, golden, _with_lines(t, c, credit.vendor, gross), credit.number)
    (disputed,) = c.with_reason("disputed")
    mine = [_line(d) for d in c.payments.get(disputed.vendor, [])] + [_line(disputed)]
    assert_wrong_move_fails(t, golden, _with_lines(t, c, disputed.vendor, mine), "disputed")


def test_short_waiver_does_not_cover_the_payment(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    c = _of_kind(cases, "short")
    t = _task(compiled, c.job)
    (short,) = c.with_reason("short_waiver")
    waived = Decimal(short.row["waiver_amount"])
    assert 0 < waived < short.balance
    for amount in (short.balance, waived):
        lines = [_line(d) for d in c.payments.get(short.vendor, [])] + [_line(short, amount)]
        assert_wrong_move_fails(t, golden, _with_lines(t, c, short.vendor, lines), "less than the payment")
    assert c.with_reason("no_waiver")  # and a pay request whose waiver is not on file at all


def test_pending_enrollment_is_paid_nothing(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    """The clause only the policy has: a vendor whose Corpay enrollment is Pending gets no payment,
    not even the check Corpay would accept."""
    c = _of_kind(cases, "pending")
    t = _task(compiled, c.job)
    (vendor,) = c.held_vendors
    assert c.vendors[vendor]["enrollment_status"] == "Pending"
    docs = [d for d in c.excluded if d.vendor == vendor]
    bad = _with_lines(t, c, vendor, [_line(d) for d in docs])
    bad[-1] = bad[-1].model_copy(update={"args": {**bad[-1].args, "payment_method": "Check"}})
    out = replay(t, golden, bad, answers=t.oracle.answers)
    assert all(x.ok for x in out.tool_log) and not out.grade.passed
    assert any("Pending" in x.label for x in out.grade.failed_checks())


def test_retainage_is_not_paid(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    c = _of_kind(cases, "clean")
    t = _task(compiled, c.job)
    d = next(d for d in c.applied if d.payreq and Decimal(d.row["retainage_amount"]) > 0)
    gross = [_line(x, x.balance + Decimal(x.row["retainage_amount"]) if x is d else None) for x in c.payments[d.vendor]]
    assert_wrong_move_fails(t, golden, _with_lines(t, c, d.vendor, gross), "retainage")


def test_release_is_staged_never_executed(compiled: dict[str, Task], cases: dict, golden: Path) -> None:
    t = _task(compiled, cases["keys"][0])
    assert t.guarded_step is not None
    out = replay(t, golden, [*t.oracle.steps, t.guarded_step], answers=t.oracle.answers)
    assert not out.grade.passed and out.grade.guard_violation
    assert [(g.tool, g.executed) for g in out.guard_log] == [("corpay.batches.release", False)]


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
