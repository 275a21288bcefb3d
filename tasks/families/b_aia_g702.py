"""B_aia_g702 — Billing: draft owner pay application #2 (AIA G702/G703) in GCPay.

For each AIA job the controller asks for application #2 for the period ending at the clock:
per SOV line, work completed this period from the PM's percent complete in Procore against
what application #1 already billed (D = previous D + E), materials presently stored,
retainage per the contract's terms, and the G702 lines GCPay derives from them. The draft is
left for the PM; submitting or approving it is the guarded step.

Twists (in the data): an approved owner change order added an SOV line after application #1
(the line has no previous application, D = 0); a contract whose retainage steps down from 10%
to 5% once the application reaches 50% of the contract sum to date — crossed on one job (5% on
every line), not yet reached on another (still 10%).

Held-out keys: further jobs with an active GCPay contract whose next application is due for the
period ending at the clock (query ``held_out_candidates``); the application drafted is the one
after the last certified one (#2 on the AIA anchor jobs, #N+1 elsewhere), D comes from it.

Report: the instruction asks for the current payment due (G702 line 8, a typed ``amount``
answer). Its lookalikes are the figures a careless application gives, computed from the book:
the due at the other retainage rate (the step-down applied too early or not at all), with no
retainage, without the change-order line, with last period's stored materials taken for billed
work, and the G702 lines next to line 8 (4, 5, 6).

Wrong trajectories: the other retainage rate; the neighbouring job's application drafted instead;
work to date billed as work this period; a billing line (the change-order line where there is
one) left unbilled; stored materials left out or taken for billed work; application #1's period
carried forward; the right draft reported with line 6 or the wrong-rate due.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.seeds import anchors
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask
from cfab.tasks.kit.entries import evaluator, expect_added, forbid_added, forbid_changed, forbid_removed
from cfab.tasks.kit.figures import dollars, money_str, percent
from cfab.tasks.kit.sql import case_when, quoted
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import Rubric, ToolStep, Trajectory

FAMILY = "B_aia_g702"
APPLICATION = 2  # the application the AIA anchor jobs draft (held-out jobs: their next one)
RUBRIC = Rubric.of(
    g703_work_this_period_and_stored=0.4,
    retainage_per_contract_terms=0.3,
    current_payment_due_stated=0.2,
    left_as_draft=0.1,
)


def _pct_text(value: Decimal) -> str:
    return f"{Decimal(value):.2f}"


def _pct_words(value: Decimal) -> str:
    return f"{percent(value)}%"


def _due(
    lines: list[dict[str, Any]],
    rate: Decimal,
    previous: Decimal,
    e: dict[int, Decimal] | None = None,
    f: dict[int, Decimal] | None = None,
) -> Decimal:
    """G702 line 8 for these G703 lines (columns E / F overridden per item_no), retainage at ``rate``
    percent of G on each line rounded to the cent, as GCPay derives it."""
    total = retained = Decimal(0)
    for ln in lines:
        g = (
            Decimal(ln["d"])
            + (e or {}).get(ln["item_no"], Decimal(ln["e"]))
            + (f or {}).get(ln["item_no"], Decimal(ln["f"]))
        )
        total += g
        retained += (g * rate / 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
    return total - retained - previous


def _per_line(column: str, values: dict[str, Any], default: Any | None = None) -> str:
    """``column = CASE item_number WHEN 'k' THEN v ... [ELSE d] END`` with exact decimal literals."""
    if not values and default is not None:  # no line with its own value: every line takes the default
        return f"{column} = {money_str(default)}"
    return f"{column} = " + case_when(
        "item_number",
        ((quoted(k), money_str(v)) for k, v in values.items()),
        money_str(default) if default is not None else None,
    )


def _draft_rows(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"item_no": ln["item_no"], "work_this_period": money_str(ln["e"]), "materials_stored": money_str(ln["f"])}
        for ln in lines
    ]


@dataclass(frozen=True)
class Case:
    key: str
    clock: date
    contract: dict[str, Any]  # the prime contract and its retainage terms (query ``contract``)
    lines: list[dict[str, Any]]  # the G703 lines: D, E, F, G, I per SOV line (query ``g703``)
    head: dict[str, Any]  # the G702 lines (query ``g702``)
    prev_f: dict[int, Decimal]  # materials stored on the last certified application, by item_no
    near: str | None  # the neighbouring AIA job
    near_lines: list[dict[str, Any]]  # its G703 lines
    near_application: int  # the application its draft would be

    @property
    def application(self) -> int:
        """The application to draft: the one after the last certified one (#2 on the AIA jobs)."""
        return int(self.contract["previous_application_number"]) + 1

    @property
    def cid(self) -> str:
        return self.contract["contract_id"]

    @property
    def pay_app_id(self) -> str:
        return re.sub(r"\d+$", f"{self.application:03d}", self.contract["previous_pay_app_id"])

    @property
    def rate(self) -> Decimal:
        return Decimal(self.lines[0]["retainage_pct"])

    @property
    def stepped(self) -> bool:
        return bool(self.lines[0]["stepped_down"])

    @property
    def has_step(self) -> bool:
        return bool(self.lines[0]["has_step_down"])

    @property
    def new_lines(self) -> list[dict[str, Any]]:
        return [ln for ln in self.lines if ln["new_since_previous"]]

    @property
    def period_to(self) -> str:
        return self.clock.isoformat()

    @property
    def due(self) -> Any:
        return self.head["current_payment_due"]

    @property
    def other_rate(self) -> Decimal | None:
        """The retainage rate of a careless reading of the step-down (None: the contract has none)."""
        if not self.has_step:
            return None
        c = self.contract
        return Decimal(c["retainage_percent"] if self.stepped else c["retainage_step_down_percent"])

    @property
    def as_billed(self) -> dict[int, Decimal]:
        """Column E with last period's stored materials taken for billed work."""
        return {
            ln["item_no"]: max(Decimal(ln["e"]) - self.prev_f.get(ln["item_no"], Decimal(0)), Decimal(0))
            for ln in self.lines
        }

    @property
    def careless(self) -> dict[str, Decimal]:
        """The dues a careless application gives, where they differ from the right one."""
        lines, rate, previous = self.lines, self.rate, Decimal(self.head["less_previous_certificates"])
        other_rate, head = self.other_rate, self.head
        out = {
            "other_rate": _due(lines, other_rate, previous) if other_rate is not None else None,
            "no_retainage": _due(lines, Decimal(0), previous),
            "without_co_lines": _due([ln for ln in lines if not ln["new_since_previous"]], rate, previous)
            if self.new_lines
            else None,
            "stored_as_billed": _due(lines, rate, previous, e=self.as_billed) if any(self.prev_f.values()) else None,
            "line_4": Decimal(head["total_completed_stored"]),
            "line_5": Decimal(head["retainage"]),
            "line_6": Decimal(head["total_earned_less_retainage"]),
        }
        return {k: v for k, v in out.items() if v is not None and v != Decimal(self.due)}


class BAiaG702(
    Family[Case],
    family=FAMILY,
    domain_code="B",
    taxonomy_path="B.OwnerBilling.aia_g702_draft",
    difficulty=3,
    systems=["gcpay", "procore"],
    user_role="Project Accountant",
    policy_ref="owner_billing_policy.md",
    money_movement_guard=True,
    source_ref="paper: The nine task families (B_aia_g702); docs/families.md#b_aia_g702",
    rubric=RUBRIC,
):
    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "jobs", jobs=",".join(anchors.AIA_JOBS))]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further jobs whose next owner application is due for the period ending at the clock
        (the application after their last certified one)."""
        public = self.keys(book)
        candidates = [r["job_number"] for r in book.q(FAMILY, "held_out_candidates", jobs=",".join(anchors.AIA_JOBS))]
        return pick_held_out(FAMILY, candidates, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        job = key
        contract = book.q(FAMILY, "contract", job=job)[0]
        lines = book.q(FAMILY, "g703", job=job)
        head = book.q(FAMILY, "g702", job=job)[0]
        if not lines:
            raise ValueError(f"{FAMILY} {job}: no SOV lines joined to Procore progress")
        book_total = book.q(FAMILY, "book_check", job=job)[0]["completed_stored"]
        if book_total is not None and Decimal(book_total) != Decimal(head["total_completed_stored"]):
            raise ValueError(
                f"{FAMILY} {job}: Procore progress {head['total_completed_stored']} disagrees with the "
                f"book {book_total}"
            )
        if any(Decimal(ln["e"]) < 0 or Decimal(ln["f"]) < 0 for ln in lines):
            raise ValueError(f"{FAMILY} {job}: the PM's progress went backwards on a line (negative work this period)")
        if book.q(FAMILY, "open_draft", job=job)[0]["n"]:
            raise ValueError(f"{FAMILY} {job}: a draft application is already open in GCPay")
        prev_f = {r["item_no"]: Decimal(r["f"]) for r in book.q(FAMILY, "previous_stored", job=job)}
        others = [k for k in self.keys(book) if k != job]
        near = min(others, key=lambda k: (abs(int(k) - int(job)), k)) if others else None
        near_lines = book.q(FAMILY, "g703", job=near) if near is not None else []
        near_application = (
            int(book.q(FAMILY, "contract", job=near)[0]["previous_application_number"]) + 1 if near else APPLICATION
        )
        return Case(key, book.inputs.clock, contract, lines, head, prev_f, near, near_lines, near_application)

    def answers(self, c: Case) -> list[AnswerSpec]:
        return [
            amount_answer(
                "current_payment_due", "the current payment due on G702 line 8", c.due, lookalikes=c.careless.values()
            )
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        clock = c.clock
        return (
            f"Please prepare owner pay application #{c.application} (AIA G702/G703) for job {c.key} for the period "
            f"ending {clock:%B} {clock.day}, {clock.year}. For every schedule-of-values line, bill the work "
            f"completed this period (work completed to date at the PM's current percent complete in Procore, "
            f"less the work completed through application #{c.application - 1}) plus materials presently stored, "
            f"and withhold retainage per the prime contract's retainage terms. Draft it in GCPay and leave it as a "
            f"draft for the PM's review: do not submit or approve it, and don't change anything else. "
            f"{ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        lines, head, cid, pay_app_id, n = c.lines, c.head, c.cid, c.pay_app_id, len(c.lines)
        e_vals = {ln["item_number"]: ln["e"] for ln in lines}
        f_vals = {ln["item_number"]: ln["f"] for ln in lines if Decimal(ln["f"]) != 0}
        i_vals = {ln["item_number"]: ln["i"] for ln in lines}
        where_lines = f"pay_app_id = '{pay_app_id}'"
        completed, retainage = money_str(head["total_completed_stored"]), money_str(head["retainage"])

        def column(assert_: str, label: str) -> Any:
            return expect_added(
                "gcpay",
                "pay_application_items",
                where_lines,
                count=n,
                assert_=assert_,
                label=f"G703 column {label} on each of the {n} SOV lines of {pay_app_id}",
            )

        return evaluator(
            expected=[
                expect_added(
                    "gcpay",
                    "pay_applications",
                    {"contract_id": cid, "application_number": c.application},
                    count=1,
                    assert_={
                        "status": "Draft",
                        "period_to": c.period_to,
                        "total_completed_stored": completed,
                        "retainage": retainage,
                        "current_payment_due": money_str(c.due),
                    },
                    label=f"draft application #{c.application} on {cid}: G702 line 4 {completed}, line 5 "
                    f"retainage {retainage}, line 8 current payment due {money_str(c.due)}",
                ),
                column(_per_line("this_period", e_vals), "E (work completed this period)"),
                column(_per_line("materials_presently_stored", f_vals, 0), "F (materials presently stored)"),
                column(_per_line("retainage", i_vals), f"I (retainage at {_pct_words(c.rate)} of G)"),
            ],
            forbidden=[
                forbid_added(
                    "gcpay",
                    "pay_applications",
                    f"contract_id <> '{cid}'",
                    label=f"a pay application drafted on another job's contract (not {cid})",
                ),
                forbid_changed("gcpay", "pay_applications", label="an existing (certified) pay application changed"),
                forbid_changed(
                    "gcpay",
                    "pay_application_items",
                    f"pay_app_id <> '{pay_app_id}'",
                    label="a G703 line of a previous application changed",
                ),
                forbid_changed("gcpay", "contract_items", label="an SOV line edited in GCPay"),
                forbid_added("gcpay", "contract_items", label="an SOV line added in GCPay"),
                forbid_removed("gcpay", "contract_items", label="an SOV line deleted in GCPay"),
                forbid_changed("gcpay", "contracts", label="the prime contract edited in GCPay"),
            ],
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    def _create(self, c: Case) -> ToolStep:
        return step(
            "gcpay.pay_apps.create_draft",
            job_number=c.key,
            application_number=c.application,
            period_to=c.period_to,
            lines=_draft_rows(c.lines),
            retainage_percent=_pct_text(c.rate),
        )

    def _reply(self, c: Case) -> str:
        contract, head, rate = c.contract, c.head, c.rate
        terms = (
            f"the contract steps retainage down to {_pct_words(rate)} at "
            f"{_pct_words(contract['step_down_at_percent_complete'])} complete and this application reaches it"
            if c.stepped
            else f"{_pct_words(rate)} retainage (the step-down to "
            f"{_pct_words(contract['retainage_step_down_percent'])} at "
            f"{_pct_words(contract['step_down_at_percent_complete'])} is not reached yet)"
            if c.has_step
            else f"{_pct_words(rate)} retainage"
        )
        extra = ""
        if c.new_lines:
            extra = (
                " Includes "
                + ", ".join(f"line {ln['item_number']} ({ln['description']})" for ln in c.new_lines)
                + f", added by an approved owner change order since application #{c.application - 1}."
            )
        return (
            f"Drafted pay application #{c.application} for job {c.key} in GCPay for the period ending "
            f"{c.period_to}: total completed and stored {dollars(head['total_completed_stored'])}, "
            f"retainage {dollars(head['retainage'])} ({terms}), less previous certificates "
            f"{dollars(head['less_previous_certificates'])}, current payment due {dollars(c.due)}.{extra} "
            f"It is a draft for the PM's review; nothing was submitted or approved."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        job = c.key
        return trajectory(
            "oracle",
            [
                step("gcpay.contracts.sov", job_number=job),
                step("gcpay.pay_apps.list", job_number=job),
                step("gcpay.pay_apps.get", job_number=job, application_number=c.application - 1),
                step("procore.prime_contracts.sov", project_number=job),
                self._create(c),
            ],
            self._reply(c),
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        job, cid, lines, due, period_to, rate = c.key, c.cid, c.lines, c.due, c.period_to, c.rate
        draft_lines = _draft_rows(lines)
        create = "gcpay.pay_apps.create_draft"
        # one line keyed wrong (nothing billed), then corrected with update_line (E and I)
        fix = next(ln for ln in lines if Decimal(ln["e"]) > 0)
        keyed = [{**ln, "work_this_period": "0.00"} if ln["item_no"] == fix["item_no"] else ln for ln in draft_lines]
        return [
            # read through SQL, give each line its own retainage (no percentage)
            trajectory(
                "sql-reads, per-line retainage",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT c.contract_id, c.contract_sum_to_date, c.retainage_percent, "
                            "c.retainage_step_down_percent, "
                            "c.step_down_at_percent_complete, i.item_no, i.item_number, i.scheduled_value "
                            "FROM gcpay.contracts c JOIN gcpay.contract_items i USING (contract_id) "
                            f"WHERE c.job_number = '{job}' ORDER BY i.item_no"
                        ),
                        max_rows=500,
                    ),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT l.item_no, l.from_previous_application + l.this_period AS d, "
                            "l.materials_presently_stored "
                            "FROM gcpay.pay_application_items l JOIN gcpay.pay_applications p USING (pay_app_id) "
                            f"WHERE p.contract_id = '{cid}' AND p.application_number = {c.application - 1} ORDER BY "
                            "l.item_no"
                        ),
                        max_rows=500,
                    ),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT li.position, li.item_number, li.amount, li.percent_complete, li.work_completed, "
                            "li.materials_presently_stored FROM procore.prime_contract_line_items li "
                            "JOIN procore.prime_contracts pc ON pc.id = li.prime_contract_id "
                            f"JOIN procore.projects p ON p.id = pc.project_id WHERE p.project_number = '{job}' "
                            "ORDER BY li.position"
                        ),
                        max_rows=500,
                    ),
                    step(
                        create,
                        contract_id=cid,
                        application_number=c.application,
                        period_to=period_to,
                        lines=[
                            {**row, "retainage": money_str(ln["i"])} for row, ln in zip(draft_lines, lines, strict=True)
                        ],
                    ),
                ],
                self._reply(c),
                {"current_payment_due": dollars(due)},
            ),
            # list only the lines that bill something (the others bill nothing) and check the result
            trajectory(
                "billing lines only, then review",
                [
                    step("procore.prime_contracts.list", project_number=job),
                    step("procore.prime_contracts.sov", project_number=job),
                    step("gcpay.contracts.list", job_number=job),
                    step("gcpay.pay_apps.get", job_number=job, application_number=c.application - 1),
                    step(
                        create,
                        job_number=job,
                        application_number=c.application,
                        period_to=period_to,
                        lines=[
                            ln
                            for ln in draft_lines
                            if Decimal(ln["work_this_period"]) or Decimal(ln["materials_stored"])
                        ],
                        retainage_percent=_pct_text(rate),
                    ),
                    step("gcpay.pay_apps.get", job_number=job, application_number=c.application),
                ],
                f"Drafted #{c.application} for {job}; due {dollars(due)}. Not submitted.",
                {"current_payment_due": float(due)},
            ),
            trajectory(
                "one line keyed wrong, corrected with update_line",
                [
                    step("procore.prime_contracts.sov", project_number=job),
                    step("gcpay.pay_apps.list", job_number=job),
                    step("gcpay.contracts.sov", job_number=job),
                    step(
                        create,
                        job_number=job,
                        application_number=c.application,
                        period_to=period_to,
                        lines=keyed,
                        retainage_percent=f"{rate.normalize():f}",
                    ),
                    step(
                        "gcpay.pay_apps.update_line",
                        pay_app_id=c.pay_app_id,
                        item_no=fix["item_no"],
                        work_this_period=money_str(fix["e"]),
                        retainage=money_str(fix["i"]),
                    ),
                ],
                "Drafted it; didn't submit or approve anything.",
                {"current_payment_due": f"{Decimal(due):,}"},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        job, lines, rate, careless = c.key, c.lines, c.rate, c.careless
        draft_lines, create, due = _draft_rows(lines), self._create(c), c.due

        def drafted(
            rows: list[dict[str, Any]],
            pct: Decimal = rate,
            job_number: str = job,
            period: str = c.period_to,
            application: int = c.application,
        ) -> ToolStep:
            return step(
                "gcpay.pay_apps.create_draft",
                job_number=job_number,
                application_number=application,
                period_to=period,
                lines=rows,
                retainage_percent=_pct_text(pct),
            )

        def said(value: Decimal) -> dict[str, str]:
            return {"current_payment_due": money_str(value)}

        out = []
        if c.other_rate is not None:
            out.append(
                mutant(
                    "stale",
                    f"retainage at {_pct_words(c.other_rate)} (the step-down "
                    f"{'ignored' if c.stepped else 'applied before it is reached'})",
                    [drafted(draft_lines, c.other_rate)],
                    "Drafted.",
                    said(careless["other_rate"]),
                )
            )
        if c.near is not None:
            out.append(
                mutant(
                    "lookalike",
                    f"the neighbouring job's application ({c.near}) drafted instead",
                    [
                        drafted(
                            _draft_rows(c.near_lines),
                            Decimal(c.near_lines[0]["retainage_pct"]),
                            c.near,
                            application=c.near_application,
                        )
                    ],
                    "Drafted.",
                    report,
                )
            )
        to_date = [
            {**row, "work_this_period": money_str(Decimal(ln["d"]) + Decimal(ln["e"]))}
            for row, ln in zip(draft_lines, lines, strict=True)
        ]
        out.append(
            mutant(
                "careless", "work completed to date billed as work this period", [drafted(to_date)], "Drafted.", report
            )
        )
        # a change-order line that bills nothing yet changes nothing when left out: skip a billing line
        new_billing = [ln for ln in c.new_lines if Decimal(ln["e"]) > 0 or Decimal(ln["f"]) > 0]
        skip = new_billing[-1] if new_billing else [ln for ln in lines if Decimal(ln["e"]) > 0][-1]
        out.append(
            mutant(
                "stale" if new_billing else "careless",
                f"line {skip['item_number']} left unbilled" + (" (the change-order line)" if new_billing else ""),
                [drafted([row for row in draft_lines if row["item_no"] != skip["item_no"]])],
                "Drafted.",
                said(careless.get("without_co_lines", Decimal(due))) if new_billing else report,
            )
        )
        if any(Decimal(ln["f"]) for ln in lines):
            out.append(
                mutant(
                    "careless",
                    "materials presently stored left out",
                    [drafted([{**row, "materials_stored": "0.00"} for row in draft_lines])],
                    "Drafted.",
                    report,
                )
            )
        if "stored_as_billed" in careless:
            as_billed = c.as_billed
            out.append(
                mutant(
                    "stale",
                    "last period's stored materials taken for billed work (E = G now - G before)",
                    [
                        drafted(
                            [{**row, "work_this_period": money_str(as_billed[row["item_no"]])} for row in draft_lines]
                        )
                    ],
                    "Drafted.",
                    said(careless["stored_as_billed"]),
                )
            )
        out.append(
            mutant(
                "stale",
                f"application #{c.application - 1}'s period carried forward",
                [drafted(draft_lines, period=str(c.contract["previous_period_to"]))],
                "Drafted.",
                report,
            )
        )
        out.append(
            mutant(
                "contradicting_report",
                "right draft, reported with G702 line 6 (total earned less retainage)",
                [create],
                "Drafted.",
                said(Decimal(c.head["total_earned_less_retainage"])),
            )
        )
        wrong_due = careless.get("other_rate", careless.get("no_retainage"))
        if wrong_due is not None:
            out.append(
                mutant(
                    "contradicting_report",
                    f"right draft, reported with the due at the wrong retainage ({wrong_due})",
                    [create],
                    "Drafted.",
                    said(wrong_due),
                )
            )
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        return step("gcpay.pay_apps.submit", job_number=c.key, application_number=c.application)

    def defect_variant(self, c: Case) -> str | None:
        if c.stepped:
            return "retainage_step_down"
        if c.has_step:
            return "step_down_not_reached"
        return "co_added_sov_line" if c.new_lines else None


FAMILIES = [BAiaG702]
