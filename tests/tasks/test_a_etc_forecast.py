"""A_etc_forecast: compiled against the golden file, its keys, twists and anchor value (the
paper's $3,706,560.00 on 1042), the evaluator valid against the catalog, every task admitted
(k=2), the over-eager policies failing, and the sum-every-line move caught."""

from __future__ import annotations

from pathlib import Path

from cfab.tasks.families.a_etc_forecast import AEtcForecast
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task
from tests.tasks.family_helpers import FamilyContract, assert_guard_or_forbidden_step, replay

FAMILY = AEtcForecast
KEYS = ["1042", "1990", "2014", "2041", "2200", "3100", "3412", "4012"]


def test_keys_metadata_and_twists(compiled: dict[str, Task]) -> None:
    assert_guard_or_forbidden_step(compiled, money_guard=False)
    for t in compiled.values():
        assert t.difficulty == 3
    unmapped = {compiled[f"cf_A_etc_forecast_{k}"].defect_variant for k in ("1042", "2200", "3412")}
    assert unmapped == {"unmapped_cost_code"}


def test_etc_anchor_and_contingency(compiled: dict[str, Task]) -> None:
    t = compiled["cf_A_etc_forecast_1042"]
    exp = t.ground_truth.expected[0]
    assert (exp.app, exp.table, exp.op) == ("vista_erp", "JCJM", "changed")
    assert exp.where == {"_pk": [1, "1042-"]}
    assert exp.assert_ == {"EstCostToComplete": "3706560.00", "ProjStatus": "Pending"}  # the paper's evaluator
    assert "01-900" in t.oracle.reply and "1042" in t.instruction
    assert "3706560" not in t.instruction and "3,706,560" not in t.instruction
    (answer,) = t.ground_truth.answers
    assert (answer.name, answer.type, answer.expected) == ("estimate_to_complete", "amount", "3706560.00")
    assert "`estimate_to_complete`" in t.instruction and not t.ground_truth.required_outputs
    for ok in ("$3,706,560.00", "3706560.00", "3,706,560", 3706560, "USD 3,706,560.00"):
        assert answer.compare(ok)[0], ok
    # the every-line sum (contingency in), last month's ERP figure, a longer number, a wrong cent
    for bad in ("$3,960,401.84", "2704641.21", "13,706,560.00", "3,706,560.50", "ETC 3,706,560."):
        assert not answer.compare(bad)[0], bad
    assert {"3960401.84", "2704641.21"} <= set(answer.lookalikes)
    assert len(t.alternatives) >= 3 and len(t.mutants) >= 6


def test_summing_every_line_fails(compiled: dict[str, Task], golden: Path) -> None:
    """Summed every Procore line, contingency included: the expected ETC fails."""
    g = replay(
        compiled["cf_A_etc_forecast_1042"],
        golden,
        [("vista_erp.jobs.update_estimate", {"job_id": "1042-", "estimate_to_complete": "3960401.84"})],
        "ETC updated to $3,960,401.84, pending; not posted.",
    ).grade
    assert any(c.kind == "expected" and not c.held for c in g.checks)
    assert not g.passed


def test_held_out_jobs_are_planted_off_the_anchors(golden: Path) -> None:
    """The book plants the stale estimate on three further jobs for the held-out partition: off the
    anchor jobs, off the jobs INGENIOUS.BUILD funds (H_ingenious_vista_etc's), each registered and
    really stale in Vista."""
    book = BookReader(golden)
    try:
        held_out = AEtcForecast().held_out_keys(book)
        assert len(held_out) == 3 and not set(held_out) & set(KEYS), held_out
        funded = {
            r["project_code"]
            for r in book.rows(
                "SELECT p.project_code FROM ingenious_build.funding_sources f JOIN ingenious_build.projects p "
                "USING (project_id)"
            )
        }
        assert not set(held_out) & funded
        for key in held_out:
            t = AEtcForecast().task(key, book, partition="held_out")
            erp = book.one(
                'SELECT jm."EstCostToComplete" AS v FROM vista_erp."JCJM" jm JOIN hh2.job_map m '
                "ON m.system_job_id = jm.\"Job\" AND m.system = 'vista_erp' WHERE m.master_job_number = ?",
                [key],
            )["v"]
            assert t.ground_truth.expected[0].assert_["EstCostToComplete"] != f"{erp:.2f}"
    finally:
        book.close()


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
