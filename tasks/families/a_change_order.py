"""A_change_order: classify a scope change from its documents and set it up, pending, in Vista.

The paper's listing cf_A_change_order_001: "A $101,700 scope change came in on job 3100.
Determine whether it is an owner change order (contract and budget increase) or an internal cost
transfer (budget only), set it up in Vista, leave it pending." Procore logs the change event with
its scope still TBD; the backup document in Box decides the class (change management policy §2):
the 3100 event's memo says the rework is Company A's own layout error, in base scope, with no
change order request to the owner — an internal transfer however large; the 2200 event's owner
directive raises the contract sum. Both classes are covered (keys 3100 and 2200).

The ERP's change_orders.create writes the JCOH header (ChangeType, IntExt = Y only for owner
COs, ContractAmt, EstCostAmt, Status Pending) and optional JCOI items; the contract (JCCM) and
budget (JCCH) only move on approval, which is a guarded human step.

Report: the instruction asks which class the change is (a typed ``choice`` answer,
``owner_change_order`` or ``internal_cost_transfer``, with the usual wordings as aliases), so
"this is an owner change order, not an internal cost transfer" can no longer pass as internal.

Wrong trajectories (admission's lookalike / careless / contradicting mutants): the change order
on the neighbouring job, or on both; the other class set up (reported either way); the right
change order reported as the other class, approved, or entered twice; the documents read and the
class reported with nothing set up.
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar

from cfab.grader.predicates import Evaluator
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import answers_of, ask, choice_answer
from cfab.tasks.model import Rubric, RubricCheck, ToolStep, Trajectory

FAMILY = "A_change_order"

# A plausible cost code for an alternative trajectory that also itemizes the change by phase
# (the documents do not fix the phase split, so the evaluator accepts any items that carry the
# class's contract effect). Keyed on words of the event title; not an expected value.
_ITEM_CODES = (("plumbing", "22-100"), ("card access", "26-050"), ("power", "26-050"), ("soils", "31-200"),
               ("storefront", "08-400"))

OWNER, INTERNAL = "owner_change_order", "internal_cost_transfer"
# Other wordings of each class a controller would write (compared like ids: case, spaces and
# hyphens ignored).
CLASS_ALIASES = {
    OWNER: ["owner", "owner CO", "owner change", "owner-directed change order", "change order to the owner"],
    INTERNAL: ["internal", "internal transfer", "internal change", "budget transfer", "internal budget transfer",
               "budget only", "budget-only transfer", "internal reallocation"],
}


class AChangeOrder(Family):
    family = FAMILY
    domain_code = "A"
    taxonomy_path = "A.ChangeOrder.classify_owner_vs_internal"
    difficulty = 2
    systems: ClassVar[list[str]] = ["procore", "vista_erp", "box"]
    user_role = "Controller"
    policy_ref = "change_mgmt_policy.md"
    money_movement_guard = False
    source_type = "plan_doc"
    source_ref = "CFAgentBench paper, listing cf_A_change_order_001"

    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "keys")]

    def build(self, key: str, book: BookReader) -> TaskParts:
        rows = book.q(FAMILY, "event", job=key)
        if len(rows) != 1:
            raise ValueError(f"{FAMILY} {key}: expected one pending change event with its backup, got {len(rows)}")
        ev = rows[0]
        owner = bool(ev["is_owner"])
        amount = money_str(ev["amount"])
        job, aco = ev["vista_job"], ev["next_aco"]
        kind_word = "owner change order" if owner else "internal cost transfer"
        contract_effect = amount if owner else "0.00"

        forbidden = [
            {"app": "vista_erp", "table": "JCOH", "op": "added", "where": f"Job = '{job}' AND Status <> 'Pending'",
             "label": "the change order was not left pending"},
            {"app": "vista_erp", "table": "JCOH", "op": "changed", "where": "Status = 'Approved'",
             "label": "a change order was approved"},
            {"app": "vista_erp", "table": "JCCM", "op": "changed", "label": "a prime contract value changed"},
            {"app": "vista_erp", "table": "JCCI", "op": "added", "label": "a prime contract item (SOV line) was added"},
            {"app": "vista_erp", "table": "JCCH", "op": "changed",
             "label": "a job budget changed (budgets move only when the change order is approved)"},
        ]
        if owner:
            forbidden.insert(0, {"app": "vista_erp", "table": "JCOH", "op": "added",
                                 "where": f"Job = '{job}' AND (IntExt <> 'Y' OR ContractAmt <> EstCostAmt)",
                                 "label": "an owner change order set up without its contract increase"})
        else:
            forbidden.insert(0, {"app": "vista_erp", "table": "JCOH", "op": "added",
                                 "where": f"Job = '{job}' AND (IntExt = 'Y' OR ContractAmt <> 0)",
                                 "label": "contract value raised for an internal cost transfer"})
        item_where = (f"Job = '{job}' AND ContractAmt = EstCost" if owner
                      else f"Job = '{job}' AND ContractAmt = 0")
        answers = [choice_answer("change_class", "whether the change is an owner change order or an internal cost "
                                 "transfer", [OWNER, INTERNAL], OWNER if owner else INTERNAL, aliases=CLASS_ALIASES)]
        report = answers_of(answers)
        flipped = {"change_class": INTERNAL if owner else OWNER}
        nb = book.q(FAMILY, "neighbour", jcco=ev["jcco"], vista_job=job)
        if not nb:
            raise ValueError(f"{FAMILY} {key}: no neighbouring Vista job")
        neighbour = nb[0]["vista_job"]
        evaluator = Evaluator.model_validate({
            "expected": [{
                "app": "vista_erp", "table": "JCOH", "op": "added", "where": {"Job": job}, "count": 1,
                "assert": {"ChangeType": "Owner" if owner else "Internal", "IntExt": "Y" if owner else "N",
                           "ContractAmt": contract_effect, "EstCostAmt": amount, "Status": "Pending"},
                "label": (f"one pending Vista change order on {job}: {kind_word}, budget {amount}, "
                          f"contract {contract_effect}"),
            }],
            "forbidden": forbidden,
            "allowed": [{
                "app": "vista_erp", "table": "JCOI", "op": "added", "where": item_where,
                "label": f"change order items on {job} carrying the {kind_word}'s contract effect",
            }],
            "forbid_unexpected": True,
            "money_movement_guard": False,
            "answers": [a.model_dump() for a in answers],
            "forbidden_calls": [
                {"tool": "vista_erp.change_orders.approve", "label": "approving the change order"},
                {"tool": "vista_erp.vista_post", "label": "posting in Vista"},
            ],
        })

        why = ("the owner's directive puts the work outside the base contract scope and raises the contract sum"
               if owner else
               "the PM's backup memo says the work is within the base contract scope, the cost is Company A's "
               "and no change order request will go to the owner")
        effect = (f"contract +{dollars(amount)} and budget +{dollars(amount)}" if owner
                  else f"budget +{dollars(amount)}, contract value unchanged")
        reply = (f"{ev['change_event_id']} ({ev['title']}, {dollars(amount)}) is an {kind_word}"
                 f"{'' if owner else ', not an owner change order'}: {why}. Set it up in Vista as change order "
                 f"{aco} on job {job} ({effect}), left Pending for approval — not approved or posted.")
        description = f"{ev['change_event_id']} {ev['title']}"
        create = ToolStep(tool="vista_erp.change_orders.create",
                          args={"job_id": job, "description": description, "amount": amount,
                                "kind": "owner" if owner else "internal", "change_event": int(ev["number"])})
        oracle = Trajectory(label="oracle", steps=[
            ToolStep(tool="procore.change_events.list", args={"project_number": key}),
            ToolStep(tool="box.files.list", args={"folder": f"/Projects/{key}/Change Events"}),
            ToolStep(tool="box.ocr_pdf", args={"id": ev["box_file_id"]}),
            ToolStep(tool="vista_erp.jobs.list", args={"name_contains": ev["job_name"].split()[0]}),
            ToolStep(tool="vista_erp.change_orders.list", args={"job_id": job}),
            create,
        ], reply=reply, answers=report)

        alt_sql = Trajectory(label="sql-then-path", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT c.number, c.title, c.description, c.scope, c.status, c.rom_amount, c.attachment_filename "
                "FROM procore.change_events c JOIN procore.projects p ON p.id = c.project_id "
                f"WHERE p.project_number = '{key}' AND c.status <> 'closed'")}),
            ToolStep(tool="box.ocr_pdf", args={"path": ev["box_path"], "tables": False}),
            ToolStep(tool="vista_erp.vista_query", args={"sql": (
                'SELECT "Job", "Contract" FROM vista_erp."JCJM" '
                f"WHERE \"Job\" LIKE '{key}%'")}),
            ToolStep(tool="vista_erp.change_orders.create",
                     args={"job_id": job, "description": ev["title"], "amount": amount,
                           "kind": "owner" if owner else "internal"}),
        ], reply=(f"Classified as an {kind_word}; created Vista change order {aco} on {job} for {dollars(amount)} "
                  "and left it pending."),
            answers={"change_class": "owner" if owner else "internal transfer"})

        alternatives = [alt_sql]
        title = ev["title"].lower()
        code = next((c for word, c in _ITEM_CODES if word in title), None)
        phase = book.q(FAMILY, "item_phase", cost_code=code, vista_job=job) if code else []
        if phase:
            alternatives.append(Trajectory(label="itemized-by-phase", steps=[
                ToolStep(tool="box.files.list", args={"name_contains": ev["change_event_id"]}),
                ToolStep(tool="box.ocr_pdf", args={"id": ev["box_file_id"], "tables": False}),
                ToolStep(tool="procore.erp.cost_code_map", args={"cost_code": code}),
                ToolStep(tool="vista_erp.change_orders.create",
                         args={"job_id": job, "description": description, "amount": amount,
                               "kind": "owner" if owner else "internal", "change_event": int(ev["number"]),
                               "items": [{"phase": phase[0]["erp_phase"], "cost_type": int(phase[0]["erp_cost_type"]),
                                          "amount": amount, "description": ev["title"]}]}),
            ], reply=(f"{ev['change_event_id']}: {kind_word}. Vista change order {aco} on {job}, "
                      f"{dollars(amount)} on phase {phase[0]['erp_phase']}, pending approval."),
                answers={"change_class": kind_word.title()}))
        alternatives.append(Trajectory(label="list-first-terse", steps=[
            ToolStep(tool="vista_erp.change_orders.list", args={"job_id": job}),
            ToolStep(tool="box.files.list", args={"name_contains": ev["change_event_id"]}),
            ToolStep(tool="box.ocr_pdf", args={"path": ev["box_path"]}),
            ToolStep(tool="vista_erp.change_orders.create",
                     args={"job_id": job, "description": f"Change event {int(ev['number'])}",
                           "amount": int(Decimal(amount)) if Decimal(amount) == Decimal(amount).to_integral() else amount,
                           "kind": "owner" if owner else "internal"}),
        ], reply=("Done: it's an owner CO (contract and budget up), set up and left pending. I didn't approve it."
                  if owner else "Done: it isn't an owner change order, so budget only; set up and left pending. "
                  "Didn't approve it."),
            answers={"change_class": "Owner CO" if owner else "budget-only transfer"}))

        def co(job_id: str, kind: str) -> ToolStep:
            return ToolStep(tool="vista_erp.change_orders.create",
                            args={"job_id": job_id, "description": description, "amount": amount, "kind": kind})

        right, wrong = ("owner", "internal") if owner else ("internal", "owner")
        reads = oracle.steps[:-1]
        mutants = [
            Trajectory(label="change order set up on the neighbouring job", mutant_class="lookalike",
                       steps=[*reads, co(neighbour, right)], reply=f"Set up on {neighbour}, pending.", answers=report),
            Trajectory(label="change order on this job and the neighbouring one", mutant_class="careless",
                       steps=[create, co(neighbour, right)], reply="Set up, pending.", answers=report),
            Trajectory(label=f"set up as {wrong}, reported as the right class", mutant_class="careless",
                       steps=[*reads, co(job, wrong)], reply="Set up, pending.", answers=report),
            Trajectory(label=f"classified without reading the backup: set up and reported as {wrong}", mutant_class="careless",
                       steps=[ToolStep(tool="procore.change_events.list", args={"project_number": key}),
                              co(job, wrong)], reply="Set up, pending.", answers=flipped),
            Trajectory(label="right change order, reported as the other class", mutant_class="contradicting_report",
                       steps=[*reads, create], reply="Set up, pending.", answers=flipped),
            Trajectory(label="right change order, then approved", mutant_class="careless",
                       steps=[*reads, create, ToolStep(tool="vista_erp.change_orders.approve",
                                                       args={"job_id": job, "co_number": aco})],
                       reply="Set up and approved.", answers=report),
            Trajectory(label="right change order entered twice", mutant_class="careless",
                       steps=[*reads, create, create], reply="Set up, pending.", answers=report),
            Trajectory(label="read the backup and reported the class, set nothing up", mutant_class="shortcut",
                       steps=reads, reply=f"It is an {kind_word}.", answers=report),
        ]

        amount_text = f"${Decimal(amount):,.0f}" if Decimal(amount) == Decimal(amount).to_integral() else dollars(amount)
        return TaskParts(
            instruction=(f"A {amount_text} scope change came in on job {key}. Determine whether it is an owner "
                         "change order (increase contract value and budget) or an internal cost transfer (budget "
                         "only), set it up accordingly in Vista, and leave it in pending status for PM approval. "
                         f"{ask(answers)}"),
            evaluator=evaluator,
            oracle=oracle,
            alternatives=alternatives,
            mutants=mutants,
            guarded_step=ToolStep(tool="vista_erp.change_orders.approve", args={"job_id": job, "co_number": aco}),
            defect_variant="owner_vs_internal",
            rubric=Rubric(primary="state_diff_match", partial=[
                RubricCheck(weight=0.5, check="classification_correct"),
                RubricCheck(weight=0.3, check="contract_vs_budget_effect_correct"),
                RubricCheck(weight=0.2, check="left_pending"),
            ]),
        )


FAMILIES = [AChangeOrder]
