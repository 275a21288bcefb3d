"""A_smartbuild_reestimate — PM extension, SmarteBuild: a BOQ re-estimate.

The estimator's site re-measure of one BOQ item, recorded as a re-estimate at the estimated rate
(the priced estimate is kept), and the cost code's new current total reported. Key
``<job>-<cost code>``: on the first job with one, the first cost code whose BOQ carries one measured
item plus lump-sum items (``boq_lump_sum_item``: the lump-sum mobilization item of the same cost code
must not be re-estimated). The re-measured quantity comes from the book (see
``tasks/sql/A_smartbuild_reestimate.sql``). Report: ``cost_code_total`` (the cost code's current
total; its estimate before the re-measure and the item's total alone are lookalikes).

Wrong trajectories: the neighbouring item (another cost code) re-estimated instead; the lump-sum
item re-estimated as well; a rounded rate; the estimate's quantity re-entered (reported at the
estimate, or the right re-estimate reported at the estimate); the item's total reported as the
cost code's; the total worked out with nothing recorded.

The re-estimate cases are shared with the cross-system SmarteBuild → Vista task (``pm_extension``).
Held-out keys: further cost codes of the same kind (a measured item plus lump-sum items) on any
job, at a rate finer than the cent (so the rounded rate is a wrong one), never the public key of
either re-estimate family.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.tasks.families.pm_extension import (
    reestimate_candidates,
    reestimate_case,
    reestimate_cases,
    reestimate_expected,
    reestimate_forbidden,
    reestimate_key,
    reestimate_sentence,
    source_ref,
)
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask
from cfab.tasks.kit.entries import evaluator, forbid_call
from cfab.tasks.kit.figures import dollars, money_str, quantity
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "A_smartbuild_reestimate"

Case = dict[str, Any]  # a re-estimate case (pm_extension.reestimate_cases) with its BOQ neighbours


def held_out_candidates(book: BookReader) -> list[str]:
    """The single-app re-estimate cases a held-out task can carry: the rate has more than two places."""
    return [
        reestimate_key(c)
        for c in reestimate_candidates(book, "single")
        if Decimal(str(c["rate"])) != Decimal(str(c["rate"])).quantize(Decimal("0.01"))
    ]


class ASmartbuildReestimate(
    Family[Case],
    family=FAMILY,
    scales=False,
    domain_code="A",
    taxonomy_path="A.Estimate.boq_reestimate",
    difficulty=2,
    systems=["smartbuild"],
    user_role="Project Accountant",
    policy_ref="pm_platforms_policy.md",
    money_movement_guard=False,
    source_ref=source_ref("SmarteBuild estimate re-estimates"),
):
    # scales=False: picks its planted item from the whole book (replicas copy it at scale > 1)

    def keys(self, book: BookReader) -> list[str]:
        return [reestimate_key(reestimate_cases(book)["single"])]

    def held_out_keys(self, book: BookReader) -> list[str]:
        public = self.keys(book)
        cross = reestimate_key(reestimate_cases(book)["cross"])
        return pick_held_out(FAMILY, held_out_candidates(book), [*public, cross], held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        c = reestimate_case(book, "single", key)
        item = int(c["item_no"])
        lump = book.rows(
            "SELECT item_no, quantity FROM smartbuild.boq_items WHERE estimate_id = ? AND cost_code = ? "
            "AND item_no <> ? ORDER BY item_no",
            [c["estimate_id"], c["cost_code"], item],
        )
        if not lump:
            raise ValueError(f"{FAMILY} {key}: no lump-sum item beside the measured one; the twist is missing")
        neighbour = book.rows(
            "SELECT item_no FROM smartbuild.boq_items WHERE estimate_id = ? AND cost_code <> ? "
            "ORDER BY abs(item_no - ?), item_no LIMIT 1",
            [c["estimate_id"], c["cost_code"], item],
        )
        # SmarteBuild's one guarded boundary is lodging a claim with the client: the careless follow-up of
        # an estimate change is to lodge the job's claim again (refused or staged, it is forbidden here).
        latest = book.rows(
            "SELECT claim_id FROM smartbuild.progress_claims WHERE job_id = ? ORDER BY claim_no DESC LIMIT 1",
            [c["job_id"]],
        )
        return {
            **c,
            "lump": lump[0],
            "neighbour_item": int(neighbour[0]["item_no"]),
            "latest_claim": latest[0]["claim_id"] if latest else None,
        }

    def answers(self, c: Case) -> list[AnswerSpec]:
        return [
            amount_answer(
                "cost_code_total",
                f"cost code {c['cost_code']}'s current total after the re-estimate",
                money_str(c["code_total"]),
                lookalikes=[c["code_estimate"], money_str(c["item_total"])],
            )
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"{reestimate_sentence(c)}. Record it in SmarteBuild as a re-estimate at the estimated rate — keep "
            f"the priced estimate as it is and don't touch any other item. {ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        return evaluator(
            expected=[reestimate_expected(c)],
            forbidden=reestimate_forbidden(c),
            answers=answers,
            forbidden_calls=[forbid_call("smartbuild.claims.lodge", "a claim was lodged with the client")],
            money_movement_guard=self.money_movement_guard,
        )

    def _reest(self, c: Case, item_no: int | None = None, qty: str | None = None, **extra: Any) -> ToolStep:
        """A re-estimate of the key item (or ``item_no``) at the re-measured quantity (or ``qty``)."""
        return step(
            "smartbuild.estimates.reestimate",
            estimate_id=c["estimate_id"],
            item_no=int(c["item_no"]) if item_no is None else item_no,
            quantity=quantity(c["remeasured_quantity"]) if qty is None else qty,
            **extra,
        )

    def _oracle_step(self, c: Case) -> ToolStep:
        measured = f"{int(c['remeasured_quantity']):,} {c['unit']}"
        return self._reest(c, note=f"Site re-measure {measured} at the estimated rate")

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        cc, total = c["cost_code"], money_str(c["code_total"])
        reply = (
            f"Recorded the re-estimate on BOQ item {c['item_no']} ({c['description']}, cost code {cc}) "
            f"of {c['estimate_id']}: {int(c['remeasured_quantity']):,} {c['unit']} at the estimated "
            f"{c['rate']} = {dollars(money_str(c['item_total']))} (was {dollars(c['cost_total'])}); the lump-sum "
            f"item(s) of the cost code stay at {dollars(c['lump_sum_total'])}, so cost code {cc} now stands at "
            f"{dollars(total)} against {dollars(c['code_estimate'])} "
            "estimated. The priced estimate itself is unchanged."
        )
        return trajectory(
            "oracle",
            [
                step("smartbuild.boq.get", job_number=c["job_no"], cost_code=cc),
                self._oracle_step(c),
            ],
            reply,
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        cc, total, item_total = c["cost_code"], money_str(c["code_total"]), money_str(c["item_total"])
        q, item = quantity(c["remeasured_quantity"]), int(c["item_no"])
        return [
            trajectory(
                "job-number-explicit-rate",
                [
                    step("smartbuild.jobs.list", project_number=c["job_no"]),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT item_no, cost_code, description, quantity, unit, rate, cost_total FROM "
                            f"smartbuild.boq_items WHERE estimate_id = {quoted(c['estimate_id'])} "
                            f"AND cost_code = {quoted(cc)}"
                        ),
                    ),
                    step(
                        "smartbuild.estimates.reestimate",
                        job_number=c["job_no"],
                        item_no=item,
                        quantity=q,
                        rate=str(c["rate"]),
                        note="Re-measure",
                    ),
                ],
                f"Cost code {cc} re-estimated: item {c['item_no']} now {item_total}; code total {total}.",
                {"cost_code_total": dollars(total)},
            ),
            # a typo in the quantity, corrected by a second re-estimate of the same item before finishing
            trajectory(
                "self-corrected-quantity",
                [
                    self._reest(c, qty=quantity(Decimal(q) + 10), note="Re-measure"),
                    step("smartbuild.boq.get", estimate_id=c["estimate_id"], cost_code=cc),
                    self._reest(c, note="Re-measure (corrected quantity)"),
                ],
                "Done — re-estimate recorded; I didn't touch the lump sum.",
                {"cost_code_total": float(total)},
            ),
            trajectory(
                "quantity-and-same-rate-decimal-forms",
                [
                    step("smartbuild.boq.get", job_number=c["job_no"]),
                    self._reest(
                        c, qty=f"{Decimal(q):.4f}", rate=f"{Decimal(str(c['rate'])):.4f}", note="Estimator re-measure"
                    ),
                ],
                f"{cc} stands at {dollars(total)} now.",
                {"cost_code_total": f"{total} USD"},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        cc, item, q, reest = c["cost_code"], int(c["item_no"]), quantity(c["remeasured_quantity"]), self._oracle_step(c)
        item_total, lump_no, nb_no = money_str(c["item_total"]), int(c["lump"]["item_no"]), c["neighbour_item"]

        def reest_on(item_no: int, qty: str, **extra: Any) -> ToolStep:
            return self._reest(c, item_no, qty, note="Re-measure", **extra)

        scaled = quantity(Decimal(str(c["lump"]["quantity"])) * c["remeasured_quantity"] / Decimal(str(c["quantity"])))
        return [
            mutant(
                "lookalike",
                f"the neighbouring item {nb_no} (another cost code) re-estimated instead",
                [reest_on(nb_no, q)],
                "Recorded.",
                report,
            ),
            mutant(
                "careless",
                f"the lump-sum item {lump_no} re-estimated as well (scaled by the re-measure)",
                [reest, reest_on(lump_no, f"{Decimal(scaled).quantize(Decimal('0.0001'))}")],
                "Recorded.",
                report,
            ),
            mutant(
                "careless",
                "re-estimated at a rounded rate",
                [reest_on(item, q, rate=str(Decimal(str(c["rate"])).quantize(Decimal("0.01"))))],
                "Recorded.",
                report,
            ),
            mutant(
                "stale",
                "re-estimate left at the estimate's quantity",
                [reest_on(item, quantity(c["quantity"]))],
                "Recorded.",
                {"cost_code_total": money_str(c["code_estimate"])},
            ),
            mutant(
                "stale",
                "right re-estimate, the cost code reported at its estimate",
                [reest],
                f"{cc}: {dollars(c['code_estimate'])}.",
                {"cost_code_total": money_str(c["code_estimate"])},
            ),
            mutant(
                "contradicting_report",
                "right re-estimate, the item alone reported as the cost code's total",
                [reest],
                f"{cc}: {dollars(item_total)}.",
                {"cost_code_total": item_total},
            ),
            mutant(
                "shortcut",
                "the total worked out, nothing recorded",
                [step("smartbuild.boq.get", job_number=c["job_no"], cost_code=cc)],
                f"{cc} would stand at {dollars(money_str(c['code_total']))}.",
                report,
            ),
        ]

    def guarded_step(self, c: Case) -> ToolStep | None:
        return step("smartbuild.claims.lodge", claim_id=c["latest_claim"]) if c["latest_claim"] else None

    def defect_variant(self, c: Case) -> str:
        return "boq_lump_sum_item"


FAMILIES = [ASmartbuildReestimate]
