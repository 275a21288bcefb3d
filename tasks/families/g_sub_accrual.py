"""G_sub_accrual — GL & Close: accrue completed-but-uninvoiced subcontract work for one job.

At month end the controller asks for the subcontract accrual on job N: for each subcontract,
the PM's work completed to date (Procore commitment SOV) less what has been billed on approved
requisitions, floored at zero, summed; staged as ONE balanced draft journal entry in Vista,
Dr 5200 Subcontract Cost / Cr 2100 Accrued Liabilities, the Vista job id on both lines,
auto-reversing next period (Vista supports it). Posting the batch is the guarded step.

Twists (in the data): a subcontract billed ahead of its progress (it contributes nothing; it
must not net against the others), and on job 1042 Walsh's pay request on SC-1042-0 that bills
past the subcontract's remaining amount sits under review (not an approved invoice). Purchase
orders show progress in Procore too but are not subcontract work.

Held-out keys: further active jobs with subcontract work to accrue (positive, Procore agreeing
with the book, the period open) and at least one careless total that differs from the accrual
(query ``held_out_candidates``).

Report: the instruction asks for the accrual amount (a typed ``amount`` answer); the totals a
careless reading gives (netting the billed-ahead subcontract, counting pay requests under review
or drafts as billed, counting only synced approvals, including purchase orders) are its
lookalikes. Amounts are asserted per account (the lines on 5200 total the accrual, the lines on
2100 total its negative), so one debit line or one per subcontract are both right; every line
carries the job.

Wrong trajectories: each of those careless totals staged and reported; the entry on the
neighbouring job; the credit to 2000 Accounts Payable; the job missing from the credit line; an
entry that does not reverse; the entry staged twice; one debit line per subcontract with one
subcontract left out; the right entry reported with the synced-only total.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.seeds import anchors
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask
from cfab.tasks.kit.entries import evaluator, expect_added, forbid_added, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import MutantClass, Rubric, ToolStep, Trajectory, result_of

FAMILY = "G_sub_accrual"
DEBIT, CREDIT = "5200", "2100"
RUBRIC = Rubric.of(
    accrual_amount_per_subcontract_floored=0.5, balanced_entry_job_on_both_lines_auto_reversing=0.3, left_unposted=0.2
)
# the careless totals (query ``variants``) that are staged as wrong runs: class and what was done
_VARIANTS: dict[str, tuple[MutantClass, str]] = {
    "netted": ("stale", "the billed-ahead subcontract netted against the others"),
    "under_review_billed": ("stale", "pay requests under review counted as billed"),
    "drafts_billed": ("stale", "draft and under-review pay requests counted as billed"),
    "synced_only": ("stale", "only synced approvals counted as billed"),
    "with_purchase_orders": ("careless", "purchase orders accrued as subcontract work"),
}


@dataclass(frozen=True)
class Case:
    key: str
    clock: date
    subs: list[dict[str, Any]]  # per subcontract: work completed, approved billing, accrual (query ``subcontracts``)
    acc: dict[str, Any]  # the job's accrual, its Vista job and period (query ``accrual``)
    cap: int  # the commitment-cap plant on this job (pay requests past the remaining amount)
    careless: dict[str, Decimal]  # the totals a careless reading gives, by variant, where they differ
    other_job: str  # the neighbouring Vista job
    amount: Decimal  # the accrual
    erp_job: str  # the Vista job
    entry_date: str

    @property
    def ahead(self) -> list[dict[str, Any]]:
        return [s for s in self.subs if Decimal(s["difference"]) < 0]

    @property
    def accruing(self) -> list[dict[str, Any]]:
        return [x for x in self.subs if Decimal(x["accrual"]) > 0]

    @property
    def description(self) -> str:
        return f"Accrue completed-but-uninvoiced subcontract work, job {self.key}, {self.clock:%B %Y}"

    @property
    def memo(self) -> str:
        return f"Uninvoiced subcontract work, {self.clock:%b %Y} (auto-reverses)"


class GSubAccrual(
    Family[Case],
    family=FAMILY,
    domain_code="G",
    taxonomy_path="G.Close.subcontract_accrual",
    difficulty=3,
    systems=["vista_erp", "procore"],
    user_role="Controller",
    policy_ref="month_end_close_policy.md",
    money_movement_guard=True,
    source_ref="paper: The nine task families (G_sub_accrual); docs/families.md#g_sub_accrual",
    rubric=RUBRIC,
):
    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "jobs", jobs=",".join(anchors.ACCRUAL_JOBS))]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further jobs with subcontract work to accrue at the clock and a careless total to catch."""
        public = self.keys(book)
        rows = book.q(
            FAMILY,
            "held_out_candidates",
            jobs=",".join(anchors.ACCRUAL_JOBS),
            entry_date=book.inputs.clock.isoformat(),
        )
        return pick_held_out(FAMILY, [r["job_number"] for r in rows], public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        job, clock = key, book.inputs.clock
        subs = book.q(FAMILY, "subcontracts", job=job)
        acc = book.q(FAMILY, "accrual", job=job, entry_date=clock.isoformat())[0]
        amount, erp_job = Decimal(acc["accrual"]), acc["erp_job"]
        if amount <= 0 or not erp_job or acc["period_status"] != "Open":
            raise ValueError(f"{FAMILY} {job}: accrual {amount}, ERP job {erp_job!r}, period {acc['period_status']}")
        book_amount = book.q(FAMILY, "book_check", job=job)[0]["accrual"]
        if Decimal(book_amount) != amount:
            raise ValueError(f"{FAMILY} {job}: Procore gives {amount}, the book {book_amount}")
        cap = book.q(FAMILY, "cap_plant", job=job)[0]["n"]
        variants = book.q(FAMILY, "variants", job=job)[0]
        careless = {label: Decimal(v) for label, v in variants.items() if v is not None and Decimal(v) != amount}
        other = book.q(FAMILY, "other_job", job=job)[0]["erp_job"]
        return Case(key, clock, subs, acc, cap, careless, other, amount, erp_job, clock.isoformat())

    def answers(self, c: Case) -> list[AnswerSpec]:
        return [amount_answer("accrual_amount", "the accrual amount", c.amount, lookalikes=c.careless.values())]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Month-end close for {c.clock:%B %Y}: on job {c.key}, accrue the subcontract work that has been "
            f"completed but not yet billed. For each subcontract, take the PM's work completed to date in Procore "
            f"against what has been billed on approved requisitions (approved ones count whether or not they've "
            f"been synced; drafts and pay requests still under review don't). Stage one draft journal entry in "
            f"Vista for the total — Dr {DEBIT} Subcontract Cost / Cr {CREDIT} Accrued Liabilities, dated "
            f"{c.entry_date}, with the job on every line, set to reverse automatically next period. Do not post "
            f"it, and don't change anything else. {ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        amt, neg, erp_job, month = money_str(c.amount), money_str(-c.amount), c.erp_job, c.acc["erp_month"].isoformat()
        return evaluator(
            expected=[
                expect_added(
                    "vista_erp",
                    "GLJB",
                    {"Mth": month},
                    count=1,
                    assert_={"ReverseYN": "Y", "ActDate": c.entry_date},
                    label=f"one draft journal batch in period {month[:7]} dated {c.entry_date}, auto-reversing",
                ),
                expect_added(
                    "vista_erp",
                    "GLDB",
                    f"GLAcct = '{DEBIT}'",
                    assert_={"Job": erp_job},
                    total={"Amount": amt},
                    label=f"Dr {DEBIT} {amt} on job {erp_job} (the {DEBIT} lines' total)",
                ),
                expect_added(
                    "vista_erp",
                    "GLDB",
                    f"GLAcct = '{CREDIT}'",
                    assert_={"Job": erp_job},
                    total={"Amount": neg},
                    label=f"Cr {CREDIT} {amt} on job {erp_job} (the {CREDIT} lines' total)",
                ),
            ],
            forbidden=[
                forbid_added(
                    "vista_erp",
                    "GLDB",
                    f"Job IS DISTINCT FROM '{erp_job}'",
                    label=f"a journal line on another job or without the job (not {erp_job})",
                ),
                forbid_added(
                    "vista_erp",
                    "GLDB",
                    f"GLAcct NOT IN ('{DEBIT}', '{CREDIT}')",
                    label=f"a journal line on an account other than {DEBIT} / {CREDIT}",
                ),
                forbid_added(
                    "vista_erp",
                    "GLJB",
                    "ReverseYN IS DISTINCT FROM 'Y'",
                    label="an accrual entry that does not reverse next period",
                ),
                forbid_changed("procore", "requisitions", label="a Procore requisition changed (synced or edited)"),
                forbid_added("vista_erp", "APHB", label="an AP invoice entered in Vista"),
            ],
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    def _stage(self, c: Case) -> ToolStep:
        """The oracle's journal entry."""
        amt = money_str(c.amount)
        return step(
            "vista_erp.journal_entries.stage",
            entry_date=c.entry_date,
            description=c.description,
            period=c.clock.strftime("%Y-%m"),
            auto_reverse=True,
            journal="GJ",
            reference=f"ACR-{c.key}-{c.clock:%y%m}",
            lines=[
                {"account": DEBIT, "debit": amt, "job_id": c.erp_job, "memo": c.memo},
                {"account": CREDIT, "credit": amt, "job_id": c.erp_job, "memo": c.memo},
            ],
        )

    def _staged(
        self,
        c: Case,
        value: Decimal | str,
        *,
        job_id: str | None = None,
        credit_account: str = CREDIT,
        credit_job: bool = True,
        reverse: bool = True,
    ) -> ToolStep:
        """An entry of ``value`` on ``job_id`` (the job's by default); ``credit_job`` False: no job on the credit."""
        v, job_id = money_str(value), job_id or c.erp_job
        credit_line = {"account": credit_account, "credit": v, **({"job_id": job_id} if credit_job else {})}
        return step(
            "vista_erp.journal_entries.stage",
            entry_date=c.entry_date,
            description=c.description,
            auto_reverse=reverse,
            lines=[{"account": DEBIT, "debit": v, "job_id": job_id, "memo": c.memo}, {**credit_line, "memo": c.memo}],
        )

    def _per_sub(self, c: Case, rows: list[dict[str, Any]]) -> ToolStep:
        """One debit line per accruing subcontract, one credit for the total."""
        total = sum((Decimal(x["accrual"]) for x in rows), Decimal(0))
        return step(
            "vista_erp.journal_entries.stage",
            entry_date=c.entry_date,
            description=c.description,
            auto_reverse=True,
            period=f"{c.clock:%Y-%m}",
            lines=[
                *(
                    {
                        "account": DEBIT,
                        "debit": money_str(x["accrual"]),
                        "job_id": c.erp_job,
                        "memo": f"{x['contract_code']} uninvoiced work",
                    }
                    for x in rows
                ),
                {"account": CREDIT, "credit": money_str(total), "job_id": c.erp_job, "memo": c.memo},
            ],
        )

    def _reads(self, c: Case) -> list[ToolStep]:
        return [
            step("procore.projects.list", project_number=c.key),
            step("procore.commitments.list", project_number=c.key, commitment_type="subcontract"),
            *(step("procore.commitments.get", commitment_id=s["contract_code"]) for s in c.subs),
            step("vista_erp.gl.periods", status="open"),
            step("vista_erp.gl.accounts", account_type="liability"),
        ]

    def _reply(self, c: Case) -> str:
        amount = c.amount
        detail = "; ".join(f"{s['contract_code']} {dollars(s['accrual'])}" for s in c.accruing)
        notes = ""
        if c.ahead:
            notes = (
                " "
                + "; ".join(
                    f"{s['contract_code']} is billed {dollars(-Decimal(s['difference']))} ahead of its progress and "
                    f"contributes nothing"
                    for s in c.ahead
                )
                + "."
            )
        return (
            f"Staged a draft journal entry batch in Vista for job {c.key} ({c.erp_job}), period "
            f"{c.clock:%B %Y}: Dr {DEBIT} Subcontract Cost / Cr {CREDIT} Accrued Liabilities {dollars(amount)}, "
            f"job on both lines, auto-reversing on the first day of next period. The accrual is {dollars(amount)} "
            f"(work completed to date less approved billings, by subcontract: {detail}).{notes} "
            f"The entry is unposted, awaiting your review; nothing was posted."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory("oracle", [*self._reads(c), self._stage(c)], self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        job, erp_job, amount, amt, entry_date = c.key, c.erp_job, c.amount, money_str(c.amount), c.entry_date
        stage = "vista_erp.journal_entries.stage"
        # a first stage call Vista rejects (it does not balance, nothing written), then the right one
        unbalanced = step(
            stage,
            entry_date=entry_date,
            description=c.description,
            auto_reverse=True,
            lines=[
                {"account": DEBIT, "debit": amt, "job_id": erp_job},
                {"account": CREDIT, "credit": money_str(amount - Decimal("0.01")), "job_id": erp_job},
            ],
        )
        return [
            trajectory(
                "sql-reads, credit line first",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT c.contract_code, c.commitment_type, c.status, "
                            "(SELECT sum(l.work_completed) FROM procore.commitment_line_items l WHERE l.commitment_id "
                            "= c.id) "
                            "AS wc, (SELECT coalesce(sum(r.gross_amount), 0) FROM procore.requisitions r WHERE "
                            "r.commitment_id = c.id AND r.status = 'approved') AS billed "
                            "FROM procore.commitments c JOIN procore.projects p ON p.id = c.project_id "
                            f"WHERE p.project_number = '{job}' ORDER BY c.contract_code"
                        ),
                        max_rows=200,
                    ),
                    step(
                        "sql.query",
                        sql=f"SELECT project_number, origin_id FROM procore.projects WHERE project_number = '{job}'",
                    ),
                    step("vista_erp.jobs.get", job_id=erp_job),
                    step(
                        stage,
                        entry_date=entry_date,
                        description=f"Subcontract accrual {job} {c.clock:%m/%Y}",
                        auto_reverse=True,
                        lines=[
                            {"account": CREDIT, "credit": amt, "job_id": erp_job},
                            {"account": DEBIT, "debit": amt, "job_id": erp_job},
                        ],
                    ),
                    step("vista_erp.journal_entries.list", status="unposted", job_id=erp_job, include_lines=True),
                ],
                self._reply(c),
                {"accrual_amount": dollars(amount)},
            ),
            # numbers instead of strings, the period left to the entry date, Vista read first
            trajectory(
                "vista first, amounts as numbers",
                [
                    step("vista_erp.gl.periods"),
                    step("vista_erp.jobs.get", job_id=erp_job),
                    step("procore.commitments.list", project_number=job),
                    step("procore.requisitions.list", project_number=job),
                    step(
                        stage,
                        entry_date=entry_date,
                        description=f"Sub accrual - {job}",
                        auto_reverse=True,
                        lines=[
                            {"account": DEBIT, "debit": float(amount), "credit": 0, "job_id": erp_job},
                            {"account": CREDIT, "debit": 0, "credit": float(amount), "job_id": erp_job},
                        ],
                    ),
                ],
                f"Accrued {dollars(amount)}; the entry is staged, not posted.",
                {"accrual_amount": float(amount)},
            ),
            trajectory(
                "rejected unbalanced stage, then corrected",
                [*self._reads(c), unbalanced, self._staged(c, amount)],
                "Done. Didn't post it.",
                {"accrual_amount": f"{amount:,}"},
            ),
            trajectory(
                "one debit line per subcontract",
                [
                    step("procore.commitments.list", project_number=job),
                    *(step("procore.requisitions.list", commitment_id=x["contract_code"]) for x in c.subs),
                    self._per_sub(c, c.accruing),
                ],
                f"Staged the accrual, {len(c.accruing)} subcontract lines; not posted.",
                {"accrual_amount": money_str(amount)},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        amount, other = c.amount, c.other_job
        out = [
            mutant(
                _VARIANTS[label][0],
                f"{_VARIANTS[label][1]}: {dollars(value)} staged and reported",
                [self._staged(c, value)],
                f"Accrued {dollars(value)}.",
                {"accrual_amount": money_str(value)},
            )
            for label, value in c.careless.items()
            if label in _VARIANTS and value > 0
        ]
        out += [
            mutant(
                "lookalike",
                f"the entry on the neighbouring job {other}",
                [self._staged(c, amount, job_id=other)],
                answers=report,
            ),
            mutant(
                "lookalike",
                "credit to 2000 Accounts Payable - Trade",
                [self._staged(c, amount, credit_account="2000")],
                answers=report,
            ),
            mutant(
                "careless",
                "the job missing from the credit line",
                [self._staged(c, amount, credit_job=False)],
                answers=report,
            ),
            mutant(
                "careless", "an accrual that does not reverse", [self._staged(c, amount, reverse=False)], answers=report
            ),
            mutant(
                "careless", "the entry staged twice", [self._staged(c, amount), self._staged(c, amount)], answers=report
            ),
        ]
        if len(c.accruing) > 1:
            out.append(
                mutant(
                    "careless",
                    f"one line per subcontract, {c.accruing[-1]['contract_code']} left out",
                    [self._per_sub(c, c.accruing[:-1])],
                    answers=report,
                )
            )
        if "synced_only" in c.careless:
            out.append(
                mutant(
                    "contradicting_report",
                    "right entry, reported with the synced-only total",
                    [self._stage(c)],
                    answers={"accrual_amount": money_str(c.careless["synced_only"])},
                )
            )
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        return step(
            "vista_erp.vista_post",
            kind="journal_entry",
            batch_id=result_of("vista_erp.journal_entries.stage", "batch_id"),
        )

    def defect_variant(self, c: Case) -> str | None:
        return "billed_ahead_of_progress" if c.ahead else ("commitment_cap_exceeded" if c.cap else None)


FAMILIES = [GSubAccrual]
