"""C_redteam_eapp_review (RedTeam Go eApp review): compiled against the golden file, its keys
chosen by property (the over-cap eApp on SC-1042-0, one over an SOV line, a clean one), the
paper's $632,000 anchor, the typed answers, every task admitted (k=2), the over-eager policies
failing, and approving past the cap or the SOV line caught."""

from __future__ import annotations

from pathlib import Path

from cfab.tasks.families.c_redteam_eapp_review import CRedteamEappReview
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_pm_shape, assert_typed_answers, scripted, step_args

FAMILY = CRedteamEappReview
COUNT = 3
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True  # its forbidden list names none of the extra moves
SHARED = "cf_C_redteam_eapp_review_SC-1042-0"  # the planted over-cap eApp, also the cross task's


def test_metadata_guards_and_twists(compiled: dict[str, Task]) -> None:
    assert_pm_shape(compiled, {"redteam"}, reports=True)
    assert SHARED in compiled
    assert compiled[SHARED].defect_variant == "commitment_cap_exceeded"
    assert {t.defect_variant for t in compiled.values()} >= {"commitment_cap_exceeded", "sov_line_overbilled"}


def test_book_anchor_values(golden: Path) -> None:
    """SC-1042-0 is $632,000 and Walsh's January eApp bills past what is left on it."""
    book = BookReader(golden)
    try:
        cap = book.one("SELECT revised_amount FROM redteam.commitments WHERE commitment_number = 'SC-1042-0'")
        assert str(cap["revised_amount"]) == "632000.00"
        eapps = book.q("C_redteam_eapp_review", "submitted_eapps")
        row = next(r for r in eapps if r["commitment_number"] == "SC-1042-0")
        assert row["over_cap"] and row["planted_over_cap"]
    finally:
        book.close()


def test_typed_answers_alternatives_and_wrong_trajectories(compiled: dict[str, Task]) -> None:
    assert_typed_answers(compiled, {"decision": "choice", "remaining_on_commitment": "amount", "lines_over": "count"})
    decisions = {t.defect_variant: t.ground_truth.answers[0].expected for t in compiled.values()}
    assert decisions == {"commitment_cap_exceeded": "hold", "sov_line_overbilled": "hold", None: "approve"}


def test_approving_past_the_cap_or_the_sov_line_fails(compiled: dict[str, Task], golden: Path) -> None:
    # approving the over-cap eApp (a reviewer who does not check the cap)
    t = compiled[SHARED]
    g = scripted(
        t, golden, [("redteam.eapps.review", {"eapp_id": step_args(t, "eapps.review")["eapp_id"], "action": "approve"})]
    )
    assert not g.passed and "forbidden" in g.reason
    # a cap-only check approves the eApp that is over one SOV line
    t = next(t for t in compiled.values() if t.defect_variant == "sov_line_overbilled")
    g = scripted(
        t, golden, [("redteam.eapps.review", {"eapp_id": step_args(t, "eapps.review")["eapp_id"], "action": "approve"})]
    )
    assert not g.passed


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
