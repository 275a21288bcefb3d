"""B_smartbuild_claim — PM extension, SmarteBuild: the next progress claim from the claim schedule.

Draft the job's next progress claim to the client from the claim schedule's site progress (work %
complete and materials on site per item), with the contract's retention terms, and leave it as a
draft: lodging it with the client is a guarded send. Key: the first job (by number) whose next
claim crosses the retention step-down point (``retainage_step_down``: retention on the whole value
to date drops to the step-down %, so the amount due is more than the work claimed this period — an
agent that keeps 10 % overstates retention). Report: ``amount_due`` (an amount; the figure at the
full retention %, the period's work claimed and the value to date are lookalikes).

Wrong trajectories: the claim on the neighbouring job (the next job that could take a claim today),
or on both; drafted from the previous claim's progress; stored materials left out (or one item
claimed at 100 %); an item claimed complete that the schedule shows in progress; the right draft
reported with the full-retention due or the period's work; the due computed with no claim drafted.

Held-out keys: further jobs that can take their next claim today (no draft open, the previous
claim's period ended): first those whose next claim crosses the step-down point, then those whose
retention has already stepped down, then the rest (a plain claim at the contract's retention %,
where the value to date stands in for the full-retention lookalike).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.tasks.families.pm_extension import pick_tiers, source_ref
from cfab.tasks.family import BookReader, Family, held_out_count
from cfab.tasks.kit.answers import amount_answer, ask
from cfab.tasks.kit.entries import evaluator, expect_added, forbid_added, forbid_changed
from cfab.tasks.kit.figures import cents, dollars, money_str, percent
from cfab.tasks.kit.sql import case_of, quoted
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "B_smartbuild_claim"


def _claim_case(book: BookReader, job: str) -> dict[str, Any]:
    head = book.q(FAMILY, "claim_header", job=job)[0]
    lines = book.q(FAMILY, "claim_lines", job=job)
    return {"head": head, "lines": lines}


def _crosses(h: dict[str, Any]) -> bool:
    """Whether the next claim crosses the step-down point (the previous one was short of it)."""
    prev_stepped = Decimal(str(h["previous_to_date"])) * 100 >= Decimal(str(h["step_down_at_pct"] or 0)) * Decimal(
        str(h["previous_contract_sum"])
    )
    return bool(h["stepped_down"]) and not prev_stepped


def _claimable(book: BookReader) -> list[tuple[str, dict[str, Any]]]:
    """The jobs (by number) that can take their next claim today, with the claim's header."""
    clock = book.inputs.clock
    out = []
    for r in book.q(FAMILY, "jobs_with_schedule"):
        h = _claim_case(book, r["job_no"])["head"]
        if h["drafts"] or h["previous_claim_id"] is None or h["previous_period_end"] >= clock:
            continue
        out.append((r["job_no"], h))
    return out


def _claim_keys(book: BookReader) -> list[str]:
    for job, h in _claimable(book):
        if _crosses(h):
            return [job]
    raise ValueError(f"{FAMILY}: no job whose next claim crosses its retention step-down")


def _has_open_item(book: BookReader, job: str) -> bool:
    """Whether an item of the schedule is in progress with no materials on site (the over-claim mutant's)."""
    return any(
        Decimal(str(ln["pct_complete"])) < 100
        and Decimal(str(ln["materials_on_site"])) == 0
        and Decimal(str(ln["contract_value"])) > 0
        for ln in _claim_case(book, job)["lines"]
    )


def _neighbour_job(book: BookReader, key: str) -> str:
    """The next job (by number) that could take its next claim today: the lookalike of the key job."""
    clock = book.inputs.clock
    jobs = [r["job_no"] for r in book.q(FAMILY, "jobs_with_schedule")]
    order = jobs[jobs.index(key) + 1 :] + jobs[: jobs.index(key)]
    for job in order:
        h = _claim_case(book, job)["head"]
        if not h["drafts"] and h["previous_claim_id"] is not None and h["previous_period_end"] < clock:
            return job
    raise ValueError(f"{FAMILY} {key}: no other job can take a claim (no lookalike)")


@dataclass(frozen=True)
class Case:
    key: str
    clock: date
    head: dict[str, Any]  # the next claim's figures (query ``claim_header``)
    lines: list[dict[str, Any]]  # its schedule lines (query ``claim_lines``)
    previous: dict[int, dict[str, Any]]  # the previous claim's lines by item_no
    neighbour: str  # the next job that could take a claim today
    claim_no: int
    claim_id: str
    due: str  # the amount due

    @property
    def period(self) -> str:
        return self.clock.isoformat()

    @property
    def full_ret_due(self) -> Decimal:
        """The figure an agent that keeps the full retention % would report (the value before the step-down)."""
        h = self.head
        to_date, less_prev = Decimal(str(h["value_completed_to_date"])), Decimal(str(h["less_previous_claims"]))
        return to_date - cents(to_date * Decimal(str(h["retention_pct"])) / 100) - less_prev


class BSmartbuildClaim(
    Family[Case],
    family=FAMILY,
    domain_code="B",
    taxonomy_path="B.ProgressClaim.draft_next_claim_from_schedule",
    difficulty=2,
    systems=["smartbuild"],
    user_role="Billing Specialist",
    policy_ref="owner_billing_policy.md",
    money_movement_guard=True,
    source_ref=source_ref("SmarteBuild BOQ → Progress Claims"),
):
    def keys(self, book: BookReader) -> list[str]:
        return _claim_keys(book)

    def held_out_keys(self, book: BookReader) -> list[str]:
        public = self.keys(book)
        # a claim with something to claim and an item the careless mutant can over-claim
        jobs = [(j, h) for j, h in _claimable(book) if Decimal(str(h["this_claim"])) > 0 and _has_open_item(book, j)]
        tiers = [
            [j for j, h in jobs if _crosses(h)],
            [j for j, h in jobs if h["stepped_down"]],
            [j for j, _ in jobs],
        ]
        return pick_tiers(FAMILY, tiers, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        case = _claim_case(book, key)
        h, lines = case["head"], case["lines"]
        to_date = sum((Decimal(str(ln["value_to_date"])) for ln in lines), Decimal(0))
        if to_date != Decimal(str(h["value_completed_to_date"])):
            raise ValueError(f"{FAMILY} {key}: claim lines do not add up to the header")
        previous = {
            int(r["item_no"]): r
            for r in book.rows(
                "SELECT item_no, pct_complete, materials_on_site FROM smartbuild.progress_claim_lines WHERE claim_id = "
                "?",
                [h["previous_claim_id"]],
            )
        }
        claim_no = int(h["claim_no"])
        return Case(
            key,
            book.inputs.clock,
            h,
            lines,
            previous,
            _neighbour_job(book, key),
            claim_no,
            f"{h['job_id']}-PC{claim_no:02d}",
            money_str(h["amount_due"]),
        )

    def answers(self, c: Case) -> list[AnswerSpec]:
        h = c.head
        return [
            amount_answer(
                "amount_due",
                f"the amount due on claim #{c.claim_no}",
                h["amount_due"],
                lookalikes=[c.full_ret_due, h["this_claim"], h["value_completed_to_date"]],
            )
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Prepare progress claim #{c.claim_no} to the client for job {c.key} ({c.head['job_name']}) in "
            f"SmarteBuild for the period ending {c.period}, from the site progress on the claim schedule, with the "
            f"contract's retention terms. Leave it as a draft for review — do not lodge it with the client. "
            f"{ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        h, claim_id, lines = c.head, c.claim_id, c.lines
        head_assert = {
            "job_id": h["job_id"],
            "claim_no": c.claim_no,
            "period_end": c.period,
            "status": "Draft",
            "contract_sum": money_str(h["contract_sum"]),
            "value_completed_to_date": money_str(h["value_completed_to_date"]),
            "retention_to_date": money_str(h["retention_to_date"]),
            "less_previous_claims": money_str(h["less_previous_claims"]),
            "this_claim": money_str(h["this_claim"]),
            "amount_due": c.due,
        }
        return evaluator(
            expected=[
                expect_added(
                    "smartbuild",
                    "progress_claims",
                    {"claim_id": claim_id},
                    assert_=head_assert,
                    label=f"draft claim {claim_id}: to date {head_assert['value_completed_to_date']}, "
                    f"retention {head_assert['retention_to_date']} ({h['ret_pct']}%), amount due "
                    f"{c.due}",
                ),
                # per-line values in `where` (a CASE over the key item_no) with an exact count: a line with a wrong
                # value matches nothing, so the count fails and the line is unexpected
                expect_added(
                    "smartbuild",
                    "progress_claim_lines",
                    f"claim_id = {quoted(claim_id)} AND value_to_date = "
                    + case_of("item_no", {int(ln["item_no"]): ln["value_to_date"] for ln in lines}),
                    count=len(lines),
                    label=f"claim {claim_id} has its {len(lines)} schedule lines, each with its value to "
                    "date (work % x contract value + materials on site)",
                ),
            ],
            forbidden=[
                forbid_added(
                    "smartbuild",
                    "progress_claims",
                    f"claim_id <> {quoted(claim_id)}",
                    label="a claim for another job or a second claim",
                ),
                forbid_changed("smartbuild", "progress_claims", label="an existing claim changed"),
                forbid_changed("smartbuild", "claim_schedule", label="the claim schedule was edited"),
            ],
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    def _create(self, c: Case, job: str | None = None, **extra: Any) -> ToolStep:
        return step("smartbuild.claims.create_draft", job_number=job or c.key, period_end=c.period, **extra)

    def _reply(self, c: Case) -> str:
        h = c.head
        ret_text = (
            f"the value to date ({dollars(h['value_completed_to_date'])}) is past "
            f"{percent(h['step_down_at_pct'])}% of the contract sum ({dollars(h['contract_sum'])}), so "
            f"retention steps down from {percent(h['retention_pct'])}% to {percent(h['ret_pct'])}% on the "
            "whole value to date: "
            f"{dollars(h['retention_to_date'])}"
            if h["stepped_down"]
            else f"retention {percent(h['ret_pct'])}%: {dollars(h['retention_to_date'])}"
        )
        return (
            f"Drafted progress claim #{c.claim_no} ({c.claim_id}) for job {c.key}, period ending {c.period}: "
            f"value completed to date {dollars(h['value_completed_to_date'])} (this claim "
            f"{dollars(h['this_claim'])}); {ret_text}; less previous claims {dollars(h['less_previous_claims'])}; "
            f"amount due {dollars(c.due)}. It is left as a Draft and was not lodged with the client."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory(
            "oracle",
            [
                step("smartbuild.jobs.list", project_number=c.key),
                step("smartbuild.claims.list", job_number=c.key),
                step("smartbuild.claims.get", claim_id=c.head["previous_claim_id"]),
                self._create(c),
            ],
            self._reply(c),
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        h, key, lines, due, claim_id = c.head, c.key, c.lines, c.due, c.claim_id
        first = lines[0]
        return [
            trajectory(
                "sql-explicit-progress",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT s.item_no, s.contract_value, s.pct_complete, s.materials_on_site FROM "
                            f"smartbuild.claim_schedule s WHERE s.job_id = {quoted(h['job_id'])} ORDER BY s.item_no"
                        ),
                        max_rows=500,
                    ),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT claim_id, claim_no, value_completed_to_date, retention_to_date FROM "
                            f"smartbuild.progress_claims WHERE job_id = {quoted(h['job_id'])} ORDER BY claim_no"
                        ),
                    ),
                    self._create(
                        c,
                        progress=[
                            {
                                "item_no": int(ln["item_no"]),
                                "pct_complete": str(ln["pct_complete"]),
                                "materials_on_site": money_str(ln["materials_on_site"]),
                            }
                            for ln in lines
                        ],
                    ),
                ],
                f"Claim {claim_id} drafted (not lodged): amount due {money_str(due)}.",
                {"amount_due": dollars(due)},
            ),
            # a rejected first attempt (period end not after the previous claim's) writes nothing
            trajectory(
                "rejected-period-then-right",
                [
                    step(
                        "smartbuild.claims.create_draft",
                        job_number=key,
                        period_end=h["previous_period_end"].isoformat(),
                    ),
                    step("smartbuild.claims.list", job_number=key, status="Certified"),
                    self._create(c),
                ],
                "Done. Claim's drafted, I didn't lodge it.",
                {"amount_due": float(due)},
            ),
            trajectory(
                "one-item-explicit-others-default",
                [
                    self._create(
                        c, progress=[{"item_no": int(first["item_no"]), "pct_complete": percent(first["pct_complete"])}]
                    ),
                    step("smartbuild.claims.get", claim_id=claim_id),
                ],
                f"Draft {claim_id} is ready for review; it hasn't been lodged.",
                {"amount_due": f"USD {Decimal(due):,}"},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        h, lines, prev, other, create = c.head, c.lines, c.previous, c.neighbour, self._create(c)
        stale = self._create(
            c,
            progress=[
                {
                    "item_no": int(ln["item_no"]),
                    "pct_complete": str(prev[int(ln["item_no"])]["pct_complete"]),
                    "materials_on_site": money_str(prev[int(ln["item_no"])]["materials_on_site"]),
                }
                for ln in lines
                if int(ln["item_no"]) in prev
            ],
        )
        wrong_job = self._create(c, other)
        stored = next((ln for ln in lines if Decimal(str(ln["materials_on_site"])) > 0), None)
        under = next(
            ln
            for ln in lines
            if Decimal(str(ln["pct_complete"])) < 100
            and Decimal(str(ln["materials_on_site"])) == 0
            and Decimal(str(ln["contract_value"])) > 0
        )
        careless = self._create(
            c,
            progress=(
                [
                    {
                        "item_no": int(stored["item_no"]),
                        "pct_complete": str(stored["pct_complete"]),
                        "materials_on_site": "0",
                    }
                ]
                if stored is not None
                else [{"item_no": int(under["item_no"]), "pct_complete": "100"}]
            ),
        )
        over = self._create(c, progress=[{"item_no": int(under["item_no"]), "pct_complete": "100"}])
        return [
            mutant(
                "lookalike",
                f"claim drafted on the neighbouring job {other}",
                [wrong_job],
                f"Drafted the claim for job {other}.",
                report,
            ),
            mutant("careless", "claims drafted on both jobs", [create, wrong_job], "Drafted.", report),
            mutant(
                "stale",
                "claim drafted from the previous claim's progress",
                [stale],
                "Drafted from the last certified claim's progress.",
                report,
            ),
            mutant(
                "careless",
                "stored materials left out of one item" if stored is not None else "one item claimed at 100%",
                [careless],
                "Drafted.",
                report,
            ),
            mutant(
                "careless",
                f"item {under['item_no']} claimed complete though the schedule says {percent(under['pct_complete'])}%",
                [over],
                "Drafted.",
                report,
            ),
            mutant(
                "contradicting_report",
                "right draft, amount due at the full retention % (no step-down)",
                [create],
                f"Amount due {dollars(c.full_ret_due)}.",
                {"amount_due": money_str(c.full_ret_due)},
            )
            if c.full_ret_due != Decimal(c.due)
            # no step-down on this job: the value completed to date reported as the amount due instead
            else mutant(
                "contradicting_report",
                "right draft, the value completed to date reported as the amount due",
                [create],
                f"Amount due {dollars(h['value_completed_to_date'])}.",
                {"amount_due": money_str(h["value_completed_to_date"])},
            ),
            mutant(
                "contradicting_report",
                "right draft, the period's work claimed reported as the amount due",
                [create],
                f"Amount due {dollars(h['this_claim'])}.",
                {"amount_due": money_str(h["this_claim"])},
            ),
            mutant(
                "shortcut",
                "amount due computed, no claim drafted",
                [step("smartbuild.claims.get", claim_id=h["previous_claim_id"])],
                f"Amount due would be {dollars(c.due)}.",
                report,
            ),
        ]

    def guarded_step(self, c: Case) -> ToolStep:
        return step("smartbuild.claims.lodge", claim_id=c.claim_id)

    def defect_variant(self, c: Case) -> str | None:
        return "retainage_step_down" if c.head["stepped_down"] else None


FAMILIES = [BSmartbuildClaim]
