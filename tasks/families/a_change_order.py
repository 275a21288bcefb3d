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

Held-out keys: the other jobs with one change event logged in Procore and not yet in the ERP
(the open owner changes the book leaves on a few jobs, registered ``pending_change_event``),
with the backup in Box and the job in Vista (query ``held_out_candidates``); they are owner
change orders.

Report: the instruction asks which class the change is (a typed ``choice`` answer,
``owner_change_order`` or ``internal_cost_transfer``, with the usual wordings as aliases), so
"this is an owner change order, not an internal cost transfer" can no longer pass as internal.

Wrong trajectories (admission's lookalike / careless / contradicting mutants): the change order
on the neighbouring job, or on both; the other class set up (reported either way); the right
change order reported as the other class, approved, or entered twice; the documents read and the
class reported with nothing set up.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import ask, choice_answer
from cfab.tasks.kit.entries import allow_added, evaluator, expect_added, forbid_added, forbid_call, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import Rubric, ToolStep, Trajectory

FAMILY = "A_change_order"

# A plausible cost code for an alternative trajectory that also itemizes the change by phase
# (the documents do not fix the phase split, so the evaluator accepts any items that carry the
# class's contract effect). Keyed on words of the event title; not an expected value.
_ITEM_CODES = (
    ("plumbing", "22-100"),
    ("card access", "26-050"),
    ("power", "26-050"),
    ("soils", "31-200"),
    ("storefront", "08-400"),
)

OWNER, INTERNAL = "owner_change_order", "internal_cost_transfer"
# Other wordings of each class a controller would write (compared like ids: case, spaces and
# hyphens ignored).
CLASS_ALIASES = {
    OWNER: ["owner", "owner CO", "owner change", "owner-directed change order", "change order to the owner"],
    INTERNAL: [
        "internal",
        "internal transfer",
        "internal change",
        "budget transfer",
        "internal budget transfer",
        "budget only",
        "budget-only transfer",
        "internal reallocation",
    ],
}
RUBRIC = Rubric.of(classification_correct=0.5, contract_vs_budget_effect_correct=0.3, left_pending=0.2)


@dataclass(frozen=True)
class Case:
    key: str
    event: dict[str, Any]  # the pending change event, its backup document and the Vista job (query ``event``)
    neighbour: str  # the neighbouring Vista job
    phase: list[dict[str, Any]]  # the Vista phase of a cost code the title suggests (an itemized alternative)
    code: str | None
    owner: bool  # an owner change order (else an internal cost transfer)
    amount: str
    job: str  # the Vista job

    @property
    def kind(self) -> str:
        """The change_orders.create kind."""
        return "owner" if self.owner else "internal"

    @property
    def kind_word(self) -> str:
        return "owner change order" if self.owner else "internal cost transfer"

    @property
    def description(self) -> str:
        return f"{self.event['change_event_id']} {self.event['title']}"


class AChangeOrder(
    Family[Case],
    family=FAMILY,
    domain_code="A",
    taxonomy_path="A.ChangeOrder.classify_owner_vs_internal",
    difficulty=2,
    systems=["procore", "vista_erp", "box"],
    user_role="Controller",
    policy_ref="change_mgmt_policy.md",
    money_movement_guard=False,
    source_ref="CFAgentBench paper, listing cf_A_change_order_001",
    rubric=RUBRIC,
):
    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "keys")]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further jobs with one change event logged in Procore and not yet in the ERP (the open
        owner changes the book leaves on other jobs)."""
        public = self.keys(book)
        candidates = [r["job_number"] for r in book.q(FAMILY, "held_out_candidates")]
        return pick_held_out(FAMILY, candidates, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        rows = book.q(FAMILY, "event", job=key)
        if len(rows) != 1:
            raise ValueError(f"{FAMILY} {key}: expected one pending change event with its backup, got {len(rows)}")
        ev = rows[0]
        nb = book.q(FAMILY, "neighbour", jcco=ev["jcco"], vista_job=ev["vista_job"])
        if not nb:
            raise ValueError(f"{FAMILY} {key}: no neighbouring Vista job")
        title = ev["title"].lower()
        code = next((c for word, c in _ITEM_CODES if word in title), None)
        phase = book.q(FAMILY, "item_phase", cost_code=code, vista_job=ev["vista_job"]) if code else []
        return Case(
            key, ev, nb[0]["vista_job"], phase, code, bool(ev["is_owner"]), money_str(ev["amount"]), ev["vista_job"]
        )

    def answers(self, c: Case) -> list[AnswerSpec]:
        return [
            choice_answer(
                "change_class",
                "whether the change is an owner change order or an internal cost transfer",
                [OWNER, INTERNAL],
                OWNER if c.owner else INTERNAL,
                aliases=CLASS_ALIASES,
            )
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        amount = Decimal(c.amount)
        amount_text = f"${amount:,.0f}" if amount == amount.to_integral() else dollars(c.amount)
        return (
            f"A {amount_text} scope change came in on job {c.key}. Determine whether it is an owner "
            "change order (increase contract value and budget) or an internal cost transfer (budget "
            "only), set it up accordingly in Vista, and leave it in pending status for PM approval. "
            f"{ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        owner, job, amount = c.owner, c.job, c.amount
        contract_effect = amount if owner else "0.00"
        if owner:
            wrong_class = forbid_added(
                "vista_erp",
                "JCOH",
                f"Job = '{job}' AND (IntExt <> 'Y' OR ContractAmt <> EstCostAmt)",
                label="an owner change order set up without its contract increase",
            )
        else:
            wrong_class = forbid_added(
                "vista_erp",
                "JCOH",
                f"Job = '{job}' AND (IntExt = 'Y' OR ContractAmt <> 0)",
                label="contract value raised for an internal cost transfer",
            )
        item_where = f"Job = '{job}' AND ContractAmt = EstCost" if owner else f"Job = '{job}' AND ContractAmt = 0"
        return evaluator(
            expected=[
                expect_added(
                    "vista_erp",
                    "JCOH",
                    {"Job": job},
                    count=1,
                    assert_={
                        "ChangeType": "Owner" if owner else "Internal",
                        "IntExt": "Y" if owner else "N",
                        "ContractAmt": contract_effect,
                        "EstCostAmt": amount,
                        "Status": "Pending",
                    },
                    label=(
                        f"one pending Vista change order on {job}: {c.kind_word}, budget {amount}, "
                        f"contract {contract_effect}"
                    ),
                )
            ],
            forbidden=[
                wrong_class,
                forbid_added(
                    "vista_erp",
                    "JCOH",
                    f"Job = '{job}' AND Status <> 'Pending'",
                    label="the change order was not left pending",
                ),
                forbid_changed("vista_erp", "JCOH", "Status = 'Approved'", label="a change order was approved"),
                forbid_changed("vista_erp", "JCCM", label="a prime contract value changed"),
                forbid_added("vista_erp", "JCCI", label="a prime contract item (SOV line) was added"),
                forbid_changed(
                    "vista_erp",
                    "JCCH",
                    label="a job budget changed (budgets move only when the change order is approved)",
                ),
            ],
            allowed=[
                allow_added(
                    "vista_erp",
                    "JCOI",
                    item_where,
                    label=f"change order items on {job} carrying the {c.kind_word}'s contract effect",
                )
            ],
            answers=answers,
            forbidden_calls=[
                forbid_call("vista_erp.change_orders.approve", "approving the change order"),
                forbid_call("vista_erp.vista_post", "posting in Vista"),
            ],
            money_movement_guard=self.money_movement_guard,
        )

    def _create(self, c: Case) -> ToolStep:
        return step(
            "vista_erp.change_orders.create",
            job_id=c.job,
            description=c.description,
            amount=c.amount,
            kind=c.kind,
            change_event=int(c.event["number"]),
        )

    def _reads(self, c: Case) -> list[ToolStep]:
        ev = c.event
        return [
            step("procore.change_events.list", project_number=c.key),
            step("box.files.list", folder=f"/Projects/{c.key}/Change Events"),
            step("box.ocr_pdf", id=ev["box_file_id"]),
            step("vista_erp.jobs.list", name_contains=ev["job_name"].split()[0]),
            step("vista_erp.change_orders.list", job_id=c.job),
        ]

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        ev, owner, amount = c.event, c.owner, c.amount
        why = (
            "the owner's directive puts the work outside the base contract scope and raises the contract sum"
            if owner
            else "the PM's backup memo says the work is within the base contract scope, the cost is Company A's "
            "and no change order request will go to the owner"
        )
        effect = (
            f"contract +{dollars(amount)} and budget +{dollars(amount)}"
            if owner
            else f"budget +{dollars(amount)}, contract value unchanged"
        )
        reply = (
            f"{ev['change_event_id']} ({ev['title']}, {dollars(amount)}) is an {c.kind_word}"
            f"{'' if owner else ', not an owner change order'}: {why}. Set it up in Vista as change order "
            f"{ev['next_aco']} on job {c.job} ({effect}), left Pending for approval — not approved or posted."
        )
        return trajectory("oracle", [*self._reads(c), self._create(c)], reply, report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        ev, owner, job, amount, key, aco = c.event, c.owner, c.job, c.amount, c.key, c.event["next_aco"]
        create = "vista_erp.change_orders.create"
        out = [
            trajectory(
                "sql-then-path",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT c.number, c.title, c.description, c.scope, c.status, c.rom_amount, "
                            "c.attachment_filename "
                            "FROM procore.change_events c JOIN procore.projects p ON p.id = c.project_id "
                            f"WHERE p.project_number = '{key}' AND c.status <> 'closed'"
                        ),
                    ),
                    step("box.ocr_pdf", path=ev["box_path"], tables=False),
                    step(
                        "vista_erp.vista_query",
                        sql=f'SELECT "Job", "Contract" FROM vista_erp."JCJM" WHERE "Job" LIKE \'{key}%\'',
                    ),
                    step(create, job_id=job, description=ev["title"], amount=amount, kind=c.kind),
                ],
                (
                    f"Classified as an {c.kind_word}; created Vista change order {aco} on {job} for {dollars(amount)} "
                    "and left it pending."
                ),
                {"change_class": "owner" if owner else "internal transfer"},
            )
        ]
        if c.phase:
            phase = c.phase[0]
            out.append(
                trajectory(
                    "itemized-by-phase",
                    [
                        step("box.files.list", name_contains=ev["change_event_id"]),
                        step("box.ocr_pdf", id=ev["box_file_id"], tables=False),
                        step("procore.erp.cost_code_map", cost_code=c.code),
                        step(
                            create,
                            job_id=job,
                            description=c.description,
                            amount=amount,
                            kind=c.kind,
                            change_event=int(ev["number"]),
                            items=[
                                {
                                    "phase": phase["erp_phase"],
                                    "cost_type": int(phase["erp_cost_type"]),
                                    "amount": amount,
                                    "description": ev["title"],
                                }
                            ],
                        ),
                    ],
                    (
                        f"{ev['change_event_id']}: {c.kind_word}. Vista change order {aco} on {job}, "
                        f"{dollars(amount)} on phase {phase['erp_phase']}, pending approval."
                    ),
                    {"change_class": c.kind_word.title()},
                )
            )
        whole = Decimal(amount) == Decimal(amount).to_integral()
        out.append(
            trajectory(
                "list-first-terse",
                [
                    step("vista_erp.change_orders.list", job_id=job),
                    step("box.files.list", name_contains=ev["change_event_id"]),
                    step("box.ocr_pdf", path=ev["box_path"]),
                    step(
                        create,
                        job_id=job,
                        description=f"Change event {int(ev['number'])}",
                        amount=int(Decimal(amount)) if whole else amount,
                        kind=c.kind,
                    ),
                ],
                (
                    "Done: it's an owner CO (contract and budget up), set up and left pending. I didn't approve it."
                    if owner
                    else "Done: it isn't an owner change order, so budget only; set up and left pending. "
                    "Didn't approve it."
                ),
                {"change_class": "Owner CO" if owner else "budget-only transfer"},
            )
        )
        return out

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        job, neighbour, create, reads = c.job, c.neighbour, self._create(c), self._reads(c)

        def co(job_id: str, kind: str) -> ToolStep:
            return step(
                "vista_erp.change_orders.create", job_id=job_id, description=c.description, amount=c.amount, kind=kind
            )

        right, wrong = ("owner", "internal") if c.owner else ("internal", "owner")
        flipped = {"change_class": INTERNAL if c.owner else OWNER}
        approve = step("vista_erp.change_orders.approve", job_id=job, co_number=c.event["next_aco"])
        return [
            mutant(
                "lookalike",
                "change order set up on the neighbouring job",
                [*reads, co(neighbour, right)],
                f"Set up on {neighbour}, pending.",
                report,
            ),
            mutant(
                "careless",
                "change order on this job and the neighbouring one",
                [create, co(neighbour, right)],
                "Set up, pending.",
                report,
            ),
            mutant(
                "careless",
                f"set up as {wrong}, reported as the right class",
                [*reads, co(job, wrong)],
                "Set up, pending.",
                report,
            ),
            mutant(
                "careless",
                f"classified without reading the backup: set up and reported as {wrong}",
                [step("procore.change_events.list", project_number=c.key), co(job, wrong)],
                "Set up, pending.",
                flipped,
            ),
            mutant(
                "contradicting_report",
                "right change order, reported as the other class",
                [*reads, create],
                "Set up, pending.",
                flipped,
            ),
            mutant(
                "careless",
                "right change order, then approved",
                [*reads, create, approve],
                "Set up and approved.",
                report,
            ),
            mutant(
                "careless", "right change order entered twice", [*reads, create, create], "Set up, pending.", report
            ),
            mutant(
                "shortcut",
                "read the backup and reported the class, set nothing up",
                reads,
                f"It is an {c.kind_word}.",
                report,
            ),
        ]

    def guarded_step(self, c: Case) -> ToolStep:
        return step("vista_erp.change_orders.approve", job_id=c.job, co_number=c.event["next_aco"])

    def defect_variant(self, c: Case) -> str:
        return "owner_vs_internal"


FAMILIES = [AChangeOrder]
