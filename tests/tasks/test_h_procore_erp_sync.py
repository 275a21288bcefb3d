"""H_procore_erp_sync: compiled against the golden file, its keys (every one with a requisition
already synced), the sync counts and typed answers, every task admitted (k=2) with the
over-eager policies failing, and the wrong skipped count and the hand-keyed Vista invoices caught."""

from __future__ import annotations

import re
from pathlib import Path

from cfab.runner.attempt import run_attempt
from cfab.runner.policies.oracle import OraclePolicy
from cfab.tasks.families.h_procore_erp_sync import HProcoreErpSync
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep
from tests.tasks.family_helpers import INPUTS, FamilyContract, assert_staged_write_shape, failed, replay

FAMILY = HProcoreErpSync
KEYS = ["1042", "2014", "2041", "2200", "3100", "4012"]
OVER_EAGER_KEYS = KEYS
TWISTS = {f"cf_H_procore_erp_sync_{k}": "already_synced" for k in KEYS}


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert_staged_write_shape(compiled, TWISTS, money_guard=False)
    for t in compiled.values():
        assert {c.tool for c in t.ground_truth.forbidden_calls} >= {t.guarded_step.tool, "vista_erp.vista_post"}


def test_sync_counts(compiled: dict[str, Task]) -> None:
    for t in compiled.values():
        syncs = [s for s in t.oracle.steps if s.tool == "procore.erp.sync_invoice"]
        flips = [e for e in t.ground_truth.expected if e.table == "requisitions"]
        assert len(syncs) == len(flips) == 2
        assert {s.args["requisition_id"] for s in syncs} == {e.where["_pk"] for e in flips}
        m = re.match(r"Synced (\d+), skipped (\d+)\.", t.oracle.reply)
        assert m and int(m.group(1)) == 2 and int(m.group(2)) >= 3
        answers = {a.name: a for a in t.ground_truth.answers}
        assert set(answers) == {"synced_count", "skipped_count"} and not t.ground_truth.required_outputs
        assert (answers["synced_count"].expected, answers["skipped_count"].expected) == (2, int(m.group(2)))
        assert "`synced_count`" in t.instruction and "`skipped_count`" in t.instruction
        assert answers["synced_count"].compare("two")[0] and not answers["synced_count"].compare(3)[0]
        assert len(t.alternatives) >= 3 and len(t.mutants) >= 6


def test_sync_wrong_answers_fail(compiled: dict[str, Task], golden: Path) -> None:
    t = compiled["cf_H_procore_erp_sync_2041"]
    # the skipped count restricted to the already-synced ones (the drafts / under review forgotten)
    wrong = t.model_copy(
        update={"oracle": t.oracle.model_copy(update={"answers": {**t.oracle.answers, "skipped_count": 2}})}
    )
    out = run_attempt(wrong, OraclePolicy(), golden=golden, inputs=INPUTS)
    assert not out.grade.passed and failed(out, "answer") == [
        "answer skipped_count: how many of this month's requisitions on the job you skipped"
    ]
    # entering the AP invoices by hand in Vista instead of syncing: Procore never learns of it
    t = compiled["cf_H_procore_erp_sync_3100"]
    book = BookReader(golden)
    try:
        phase = book.rows("SELECT Phase FROM vista_erp.JCCH WHERE Job = '3100-' AND CostType = 3 ORDER BY Phase")[0][
            "Phase"
        ]
    finally:
        book.close()
    steps: list[ToolStep] = []
    for e in t.ground_truth.expected:
        if e.table == "APHB":
            steps.append(
                ToolStep(
                    tool="vista_erp.ap_invoices.create",
                    args={
                        "vendor_id": str(e.where["Vendor"]),
                        "job_id": e.assert_["Job"],
                        "invoice_number": e.where["APRef"],
                        "invoice_date": "2026-01-30",
                        "amount": e.assert_["InvTotal"],
                        "phase": phase,
                        "cost_type": 3,
                        "retainage": e.assert_["RetainageAmt"],
                        "commitment_id": e.assert_["SL"],
                    },
                )
            )
    out = replay(t, golden, steps)
    assert not out.grade.passed
    assert any("synced and locked" in label for label in failed(out, "expected"))


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
