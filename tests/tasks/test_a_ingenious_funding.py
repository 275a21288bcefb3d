"""A_ingenious_funding (INGENIOUS.BUILD invoice funding): compiled against the golden file, its
keys chosen by property, the draw order's sources as the typed answer, every task admitted
(k=2), the over-eager policies failing, and funding from the loan past an exhausted equity caught."""

from __future__ import annotations

from pathlib import Path

from cfab.tasks.families.a_ingenious_funding import AIngeniousFunding
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_pm_shape, assert_typed_answers, scripted, step_args

FAMILY = AIngeniousFunding
COUNT = 3


def test_metadata_guards_and_twists(compiled: dict[str, Task]) -> None:
    assert_pm_shape(compiled, {"ingenious_build"}, reports=True)
    assert "funding_source_exhausted" in {t.defect_variant for t in compiled.values()}


def test_typed_answers_alternatives_and_wrong_trajectories(compiled: dict[str, Task]) -> None:
    assert_typed_answers(compiled, {"funding_sources": "id_list"})
    for t in compiled.values():  # the draw order's source(s), never the exhausted one first in the list
        spec = t.ground_truth.answers[0]
        funded = [e.where["funding_source_id"] for e in t.ground_truth.expected if e.table == "invoice_funding"]
        assert sorted(spec.expected) == sorted(funded)
        assert not spec.compare([s for look in spec.lookalikes for s in look if s not in funded])[0]


def test_funding_from_the_loan_fails(compiled: dict[str, Task], golden: Path) -> None:
    """Funding from the loan although the draw order says grant (equity exhausted)."""
    book = BookReader(golden)
    try:
        grant_first = []
        for t in compiled.values():
            entry = t.ground_truth.expected[0]
            sources = book.q("A_ingenious_funding", "sources", project_id=entry.assert_["project_id"])
            kinds = {s["funding_source_id"]: s["source_type"] for s in sources}
            if kinds[entry.where["funding_source_id"]] == "Grant" and "Loan" in kinds.values():
                grant_first.append((t, next(k for k, v in kinds.items() if v == "Loan")))
    finally:
        book.close()
    assert grant_first, "a job whose equity is drawn funds from its grant"
    t, loan = grant_first[0]
    assert t.defect_variant == "funding_source_exhausted"
    alloc = step_args(t, "allocate_funding")
    alloc["allocations"] = [{"funding_source_id": loan, "amount": alloc["allocations"][0]["amount"]}]
    g = scripted(
        t,
        golden,
        [
            ("ingenious_build.invoices.allocate_funding", alloc),
            ("ingenious_build.approvals.submit", step_args(t, "approvals.submit")),
        ],
    )
    assert not g.passed and "forbidden" in g.reason


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
