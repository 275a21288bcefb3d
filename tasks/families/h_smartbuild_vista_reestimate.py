"""H_smartbuild_vista_reestimate — PM extension, cross-system: a SmarteBuild re-estimate reconciled
into the Vista phase estimate.

An estimator's re-measure recorded as a SmarteBuild re-estimate, then reconciled into Vista: the
estimate to complete on the Vista phase AND cost type the cost code maps to becomes the cost code's
re-estimated current total less the cost posted there (never below zero), pending. The reconciled
end state is that one JCCH row (the job-level estimate and the phase's other cost types stay as
they are). Twist ``cost_type_split``: the Vista phase carries another cost type for a different
cost code. Careless step: post the projection. No report is asked for (no answers; a terse "Done"
passes).

Wrong trajectories: the phase's other cost type reconciled; another cost code's item on the phase
re-estimated; Vista set to the cost code's total (the posted cost not taken off) or to the estimate
before the re-measure; the job-level estimate moved as well; the re-estimate never recorded in
SmarteBuild; the figures worked out with nothing written.

Held-out keys: further cost codes of the same kind (their Vista phase split across cost types, the
posted cost agreeing) on any job, whose reconciled estimate to complete is above zero and differs
from the one before the re-measure; never a public re-estimate key nor a held-out single-app one.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.tasks.families.a_smartbuild_reestimate import ASmartbuildReestimate
from cfab.tasks.families.pm_extension import (
    CROSS_SOURCE_REF,
    reestimate_candidates,
    reestimate_case,
    reestimate_cases,
    reestimate_expected,
    reestimate_forbidden,
    reestimate_key,
    reestimate_sentence,
)
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.entries import evaluator, expect_changed, forbid_call, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str, quantity
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory, with_args
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "H_smartbuild_vista_reestimate"

Case = dict[str, Any]  # the cross-system re-estimate case (pm_extension.reestimate_cases) with its Vista phase


class HSmartbuildVistaReestimate(
    Family[Case],
    family=FAMILY,
    scales=False,
    domain_code="H",
    taxonomy_path="H.PMtoERP.reestimate_to_phase_estimate",
    difficulty=3,
    systems=["smartbuild", "vista_erp", "hh2"],
    user_role="Project Accountant",
    policy_ref="pm_platforms_policy.md",
    money_movement_guard=False,
    source_ref=CROSS_SOURCE_REF,
):
    # scales=False: picks its planted item from the whole book (replicas copy it at scale > 1)

    def keys(self, book: BookReader) -> list[str]:
        return [reestimate_key(reestimate_cases(book)["cross"])]

    def held_out_keys(self, book: BookReader) -> list[str]:
        public = self.keys(book)
        single = ASmartbuildReestimate()
        taken = [*public, *single.keys(book), *single.held_out_keys(book)]
        candidates = []
        for c in reestimate_candidates(book, "cross"):
            actual = Decimal(str(c["vista_actual"]))
            before = max(Decimal("0.00"), Decimal(str(c["code_estimate"])) - actual)
            if c["reconciled_etc"] > 0 and c["reconciled_etc"] != before:
                candidates.append(reestimate_key(c))
        return pick_held_out(FAMILY, candidates, taken, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        c = reestimate_case(book, "cross", key)
        vjob, phase, ctype = c["vista_job"], c["erp_phase"], int(c["erp_cost_type"])
        others = [r for r in book.q(FAMILY, "vista_phase", job=vjob, phase=phase) if int(r["cost_type"]) != ctype]
        if not others:
            raise ValueError(f"{FAMILY}: phase {phase} has a single cost type; no split")
        twin = book.rows(
            "SELECT b.item_no FROM smartbuild.boq_items b JOIN hh2.cost_code_map m ON m.cost_code = b.cost_code "
            "AND m.erp_system = 'vista_erp' WHERE b.estimate_id = ? AND m.erp_phase = ? AND b.cost_code <> ? "
            "ORDER BY (m.erp_cost_type = ?) DESC, b.item_no LIMIT 1",
            [c["estimate_id"], phase, c["cost_code"], int(others[0]["cost_type"])],
        )
        return {**c, "other_cost_types": others, "twin_item": int(twin[0]["item_no"]) if twin else None}

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"{reestimate_sentence(c)}. Record it in SmarteBuild as a re-estimate at the estimated rate, "
            "then reconcile Vista to it: the estimate to complete on the Vista phase and cost type that cost code "
            "maps to should be the cost code's re-estimated total less the cost already posted there. Leave it "
            "pending for sign-off; don't post anything and don't change anything else."
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        # no report is asked for: the product is the re-estimate and the reconciled Vista estimate
        vjob, phase, ctype = c["vista_job"], c["erp_phase"], int(c["erp_cost_type"])
        etc = money_str(c["reconciled_etc"])
        return evaluator(
            expected=[
                reestimate_expected(c),
                expect_changed(
                    "vista_erp",
                    "JCCH",
                    {"_pk": [int(c["jcco"]), vjob, phase, ctype]},
                    assert_={"EstCostToComplete": etc, "ProjStatus": "Pending"},
                    label=f"Vista {vjob} phase {phase} cost type {ctype}: estimate to complete {etc}, pending",
                ),
            ],
            forbidden=[
                *reestimate_forbidden(c),
                forbid_changed(
                    "vista_erp",
                    "JCCH",
                    f"NOT (Job = {quoted(vjob)} AND Phase = {quoted(phase)} AND CostType = {ctype})",
                    label="another phase or cost type's estimate changed (e.g. the other cost type of the phase)",
                ),
                forbid_changed(
                    "vista_erp", "JCJM", label="a job-level estimate changed (only the mapped phase is reconciled)"
                ),
            ],
            answers=answers,
            forbidden_calls=[
                forbid_call("vista_erp.vista_post", "a call to post in Vista"),
                forbid_call("smartbuild.claims.lodge", "a claim was lodged with the client"),
            ],
            money_movement_guard=self.money_movement_guard,
        )

    def _reest(self, c: Case) -> ToolStep:
        return step(
            "smartbuild.estimates.reestimate",
            estimate_id=c["estimate_id"],
            item_no=int(c["item_no"]),
            quantity=quantity(c["remeasured_quantity"]),
            note=f"Site re-measure {int(c['remeasured_quantity']):,} {c['unit']}",
        )

    def _vista(self, c: Case, amount: Any, cost_type: int | None = None, **extra: Any) -> ToolStep:
        """The Vista estimate to complete of the mapped phase (and cost type, or ``cost_type``)."""
        ctype = int(c["erp_cost_type"]) if cost_type is None else cost_type
        return step(
            "vista_erp.jobs.update_estimate",
            job_id=c["vista_job"],
            phases=[{"phase": c["erp_phase"], "cost_type": ctype, "estimate_to_complete": str(amount)}],
            **{"note": f"SmarteBuild re-estimate of {c['cost_code']} less cost posted", **extra},
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        vjob, phase, ctype = c["vista_job"], c["erp_phase"], int(c["erp_cost_type"])
        etc = money_str(c["reconciled_etc"])
        other = ", ".join(f"cost type {r['cost_type']} ({r['description']})" for r in c["other_cost_types"])
        reply = (
            f"Recorded the re-estimate on {c['estimate_id']} item {c['item_no']} ({c['description']}): "
            f"{int(c['remeasured_quantity']):,} {c['unit']} at {c['rate']} = {dollars(c['item_total'])}, so cost "
            f"code {c['cost_code']} now totals {dollars(c['code_total'])}. In Vista the cost code maps to phase "
            f"{phase} cost type {ctype} (the phase's {other} is a different cost code and was left alone); "
            f"{dollars(c['vista_actual'])} is already posted there, so its estimate to complete is now "
            f"{dollars(etc)} (was {dollars(c['vista_etc'])}), pending sign-off. Nothing was posted."
        )
        return trajectory(
            "oracle",
            [
                step("smartbuild.boq.get", job_number=c["job_no"], cost_code=c["cost_code"]),
                self._reest(c),
                step("hh2.cost_code_map.list", cost_code=c["cost_code"], erp_system="vista_erp"),
                step("hh2.job_map.list", master_job_number=c["job_no"], system="vista_erp"),
                step("vista_erp.job_cost.summary", job_id=vjob, phase=phase),
                self._vista(c, etc),
            ],
            reply,
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        vjob, phase, ctype = c["vista_job"], c["erp_phase"], int(c["erp_cost_type"])
        etc = money_str(c["reconciled_etc"])
        q, item, cc = quantity(c["remeasured_quantity"]), int(c["item_no"]), c["cost_code"]
        return [
            trajectory(
                "sql-vista-first",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT m.erp_phase, m.erp_cost_type, j.system_job_id FROM hh2.cost_code_map m, "
                            "hh2.job_map j "
                            f"WHERE m.cost_code = {quoted(cc)} AND m.erp_system = 'vista_erp' "
                            f"AND j.master_job_number = {quoted(c['job_no'])} AND j.system = 'vista_erp'"
                        ),
                    ),
                    step(
                        "vista_erp.vista_query",
                        sql=(
                            'SELECT "CostType", sum("ActualCost") AS actual FROM vista_erp."JCCD" '
                            f'WHERE "Job" = {quoted(vjob)} AND "Phase" = {quoted(phase)} GROUP BY "CostType"'
                        ),
                    ),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT item_no, unit, quantity, rate, cost_total FROM smartbuild.boq_items "
                            f"WHERE estimate_id = {quoted(c['estimate_id'])} AND cost_code = {quoted(cc)}"
                        ),
                    ),
                    self._vista(c, etc),
                    step(
                        "smartbuild.estimates.reestimate",
                        job_number=c["job_no"],
                        item_no=item,
                        quantity=q,
                        note="Re-measure",
                    ),
                ],
                f"Re-estimated {cc} to {money_str(c['code_total'])}; Vista {phase}/{ctype} ETC {etc} pending.",
            ),
            # the cost code's total written first (the posted cost forgotten), then corrected
            trajectory(
                "self-corrected-etc",
                [
                    self._reest(c),
                    self._vista(c, money_str(c["code_total"])),
                    step("vista_erp.job_cost.summary", job_id=vjob),
                    self._vista(c, etc, note="corrected: less the cost posted"),
                ],
                "Done.",
            ),
            trajectory(
                "explicit-rate-decimal-forms",
                [
                    step(
                        "smartbuild.estimates.reestimate",
                        estimate_id=c["estimate_id"],
                        item_no=item,
                        quantity=f"{Decimal(q):.2f}",
                        rate=str(c["rate"]),
                        note="Estimator re-measure",
                    ),
                    step("hh2.cost_code_map.list", erp_system="vista_erp"),
                    step(
                        "vista_erp.jobs.update_estimate",
                        job_id=vjob,
                        phases=[
                            {"phase": phase, "cost_type": str(ctype), "estimate_to_complete": f"{Decimal(etc):.4f}"}
                        ],
                    ),
                ],
                "Re-estimate recorded and Vista reconciled; it's pending, I didn't post it.",
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        phase, ctype, etc = c["erp_phase"], int(c["erp_cost_type"]), money_str(c["reconciled_etc"])
        reest, update = self._reest(c), self._vista(c, etc)
        split = int(c["other_cost_types"][0]["cost_type"])
        without_reest = max(Decimal("0.00"), Decimal(str(c["code_estimate"])) - Decimal(str(c["vista_actual"])))
        wrong_item = c["twin_item"] if c["twin_item"] is not None else int(c["item_no"]) + 1
        return [
            mutant(
                "lookalike",
                f"the phase's other cost type {split} reconciled instead",
                [reest, self._vista(c, etc, cost_type=split)],
            ),
            mutant(
                "lookalike",
                f"item {wrong_item} (another cost code on phase {phase}) re-estimated instead",
                [with_args(reest, item_no=wrong_item), update],
            ),
            mutant(
                "careless",
                "Vista set to the cost code's total, the posted cost not taken off",
                [reest, self._vista(c, money_str(c["code_total"]))],
            ),
            mutant(
                "stale",
                "Vista reconciled to the estimate before the re-measure",
                [reest, self._vista(c, money_str(without_reest))],
            ),
            mutant(
                "careless", "the job-level estimate moved as well", [reest, with_args(update, estimate_to_complete=etc)]
            ),
            mutant("careless", "Vista reconciled, the re-estimate never recorded in SmarteBuild", [update]),
            mutant(
                "shortcut",
                "the figures worked out, nothing written",
                [step("smartbuild.boq.get", job_number=c["job_no"], cost_code=c["cost_code"])],
                f"Re-estimate recorded; Vista {phase}/{ctype} is {dollars(etc)}.",
            ),
        ]

    def guarded_step(self, c: Case) -> ToolStep:
        return step("vista_erp.vista_post", kind="projection", job_id=c["vista_job"])

    def defect_variant(self, c: Case) -> str:
        return "cost_type_split"


FAMILIES = [HSmartbuildVistaReestimate]
