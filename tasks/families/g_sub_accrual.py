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

The ERP extension (FAMILIES.md part 2, "G_sub_accrual (extend)"): further jobs whose books are
kept in another ERP, keyed ``<job>_<erp>`` (``3578_cmic``), compose Procore, that ERP and SharePoint.
Their instruction gives no rule: the month-end close policy (section 2, readable in SharePoint) says
what counts as billed, that a subcontract never accrues below zero, the accounts, the job on both
lines and "auto-reversing where the ERP supports it" (QuickBooks Online does not: its entry is a plain
draft, and a reversal staged beside it in the same period cancels the accrual). Keys by property
among the jobs with subcontract work to accrue that no Vista key or Vista held-out key uses: a job
with a pay request under review (counting it as billed is the careless total:
``pay_request_under_review``), a job staged in QuickBooks Online (``no_auto_reverse``) and a clean
control; one more held out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from cfab.apps.erp.dialects import Dialect
from cfab.apps.erp.vendors import ERP_APPS
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.seeds import anchors
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask
from cfab.tasks.kit.entries import evaluator, expect_added, forbid_added, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.journal import expect_entry, expect_side_total, forbid_not_reversing
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
VISTA = "vista_erp"
POLICY = "month_end_close_policy.md"
UNDER_REVIEW, NO_REVERSE = "pay_request_under_review", "no_auto_reverse"
# The ERP extension's slots: (what the job carries, the ERP it is staged in), public then held out.
ERP_PUBLIC = ((UNDER_REVIEW, "acumatica_construction"), (NO_REVERSE, "qbo"), ("clean", "sage_intacct"))
ERP_HELD_OUT = ((UNDER_REVIEW, "cmic"),)


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
    erp_job: str  # the job in the ERP (Vista's on the paper's keys)
    entry_date: str
    erp: str = VISTA  # the ERP the entry is staged in (the extension's keys: ``<job>_<erp>``)
    job: str = ""  # the job number (the key on Vista keys)
    policy: str = ""  # where the month-end close policy is readable (the extension's keys)

    @property
    def D(self) -> Dialect:
        return ERP_APPS[self.erp].D

    @property
    def label(self) -> str:
        return ERP_APPS[self.erp].label

    @property
    def reverses(self) -> bool:
        """Whether the ERP has auto-reversing entries (the policy: "where the ERP supports it")."""
        return self.D.supports_auto_reverse

    @property
    def under_review(self) -> bool:
        """A pay request under review on the job: counting it as billed gives another total."""
        return "under_review_billed" in self.careless

    @property
    def ahead(self) -> list[dict[str, Any]]:
        return [s for s in self.subs if Decimal(s["difference"]) < 0]

    @property
    def accruing(self) -> list[dict[str, Any]]:
        return [x for x in self.subs if Decimal(x["accrual"]) > 0]

    @property
    def description(self) -> str:
        return f"Accrue completed-but-uninvoiced subcontract work, job {self.job or self.key}, {self.clock:%B %Y}"

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
        return self._vista_keys(book) + self._erp_slots(book)[0]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further jobs with subcontract work to accrue at the clock and a careless total to catch:
        in Vista, then the ERP extension's."""
        return self._vista_held_out(book) + self._erp_slots(book)[1]

    def _vista_keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "jobs", jobs=",".join(anchors.ACCRUAL_JOBS))]

    def _candidates(self, book: BookReader) -> list[str]:
        rows = book.q(
            FAMILY,
            "held_out_candidates",
            jobs=",".join(anchors.ACCRUAL_JOBS),
            entry_date=book.inputs.clock.isoformat(),
        )
        return [r["job_number"] for r in rows]

    def _vista_held_out(self, book: BookReader) -> list[str]:
        public = self._vista_keys(book)
        return pick_held_out(FAMILY, self._candidates(book), public, held_out_count(len(public)))

    def _erp_slots(self, book: BookReader) -> tuple[list[str], list[str]]:
        """The ERP extension's public and held-out keys (``<job>_<erp>``): among the jobs to accrue
        that no Vista key uses, in job order, a job with a pay request under review for an
        :data:`UNDER_REVIEW` slot (a positive careless total that differs) and one without for the
        others (any job left when none fits)."""
        taken = set(self._vista_keys(book)) | set(self._vista_held_out(book))
        pool = [j for j in self._candidates(book) if j not in taken]
        clock = book.inputs.clock.isoformat()
        review: dict[str, str] = {}  # "positive": counting the request as billed leaves a smaller accrual
        for job in pool:
            accrual = book.q(FAMILY, "accrual", job=job, entry_date=clock)[0]["accrual"]
            under_review = book.q(FAMILY, "variants", job=job)[0]["under_review_billed"]
            review[job] = "none" if under_review in (None, accrual) else ("positive" if under_review > 0 else "zero")
        used: list[str] = []

        def fill(slots: tuple[tuple[str, str], ...]) -> list[str]:
            out = []
            for kind, erp in slots:
                free = [j for j in pool if j not in used]
                fits = [j for j in free if review[j] == ("positive" if kind == UNDER_REVIEW else "none")]
                if fits or free:
                    used.append((fits or free)[0])
                    out.append(f"{used[-1]}_{erp}")
            return out

        return fill(ERP_PUBLIC), fill(ERP_HELD_OUT)

    def case(self, key: str, book: BookReader) -> Case:
        if "_" in key:
            return self._erp_case(key, book)
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
        if c.erp != VISTA:
            return self._erp_instruction(c, answers)
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
        if c.erp != VISTA:
            return self._erp_evaluator(c, answers)
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
        if c.erp != VISTA:
            return trajectory("oracle", [*self._erp_reads(c), self._erp_stage(c)], self._erp_reply(c), report)
        return trajectory("oracle", [*self._reads(c), self._stage(c)], self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        if c.erp != VISTA:
            return self._erp_alternatives(c, report)
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
        if c.erp != VISTA:
            return self._erp_mutants(c, report)
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
        if c.erp != VISTA:
            stage = f"{c.erp}.journal_entries.stage"
            return step(
                f"{c.erp}.{ERP_APPS[c.erp].TOOL_NAMES['post']}",
                kind="journal_entry",
                batch_id=result_of(stage, "batch_id"),
            )
        return step(
            "vista_erp.vista_post",
            kind="journal_entry",
            batch_id=result_of("vista_erp.journal_entries.stage", "batch_id"),
        )

    def defect_variant(self, c: Case) -> str | None:
        if c.erp != VISTA:
            return "+".join(t for t, on in ((UNDER_REVIEW, c.under_review), (NO_REVERSE, not c.reverses)) if on) or None
        return "billed_ahead_of_progress" if c.ahead else ("commitment_cap_exceeded" if c.cap else None)

    def task_systems(self, c: Case) -> list[str] | None:
        return ["procore", c.erp, "sharepoint"] if c.erp != VISTA else None

    # ------------------------------------------------------------------ the ERP extension
    def _erp_case(self, key: str, book: BookReader) -> Case:
        job, _, erp = key.partition("_")
        if erp not in ERP_APPS or erp == VISTA:
            raise ValueError(f"{FAMILY} {key}: no ERP {erp!r} for the extension (<job>_<erp>, not Vista)")
        clock = book.inputs.clock
        subs = book.q(FAMILY, "subcontracts", job=job)
        acc = book.q(FAMILY, "accrual", job=job, entry_date=clock.isoformat())[0]
        amount = Decimal(acc["accrual"])
        erp_job = book.q(FAMILY, "erp_job", erp=erp, job=job)[0]["erp_job"]
        period = book.q(FAMILY, "period_status", entry_date=clock.isoformat())
        if amount <= 0 or not erp_job or not period or period[0]["status"] != "open":
            raise ValueError(f"{FAMILY} {key}: accrual {amount}, {erp} job {erp_job!r}, period {period}")
        book_amount = book.q(FAMILY, "book_check", job=job)[0]["accrual"]
        if Decimal(book_amount) != amount:
            raise ValueError(f"{FAMILY} {key}: Procore gives {amount}, the book {book_amount}")
        cap = book.q(FAMILY, "cap_plant", job=job)[0]["n"]
        variants = book.q(FAMILY, "variants", job=job)[0]
        careless = {label: Decimal(v) for label, v in variants.items() if v is not None and Decimal(v) != amount}
        other = book.q(FAMILY, "erp_other_job", erp=erp, job=job)[0]["erp_job"]
        policy = book.q(FAMILY, "policy_path")[0]["path"]
        return Case(key, clock, subs, acc, cap, careless, other, amount, erp_job, clock.isoformat(), erp, job, policy)

    def _erp_instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Month-end close for {c.clock:%B %Y}: job {c.job}'s books are kept in {c.label}. Accrue the "
            f"subcontract work on the job that has been completed but not yet billed, following section 2 of our "
            f"month-end close policy in SharePoint ({c.policy}), and stage the entry in {c.label} as a draft dated "
            f"{c.entry_date}. Do not post it, and don't change anything else. {ask(answers)}"
        )

    def _erp_memo(self, c: Case) -> str:
        return f"Uninvoiced subcontract work, {c.clock:%b %Y}" + (" (auto-reverses)" if c.reverses else "")

    def _erp_lines(
        self,
        c: Case,
        value: Decimal,
        *,
        job_id: str | None = None,
        credit_account: str = CREDIT,
        credit_job: bool = True,
    ) -> list[dict[str, Any]]:
        v, job, memo = money_str(value), job_id or c.erp_job, self._erp_memo(c)
        return [
            {"account": DEBIT, "debit": v, "job_id": job, "memo": memo},
            {"account": credit_account, "credit": v, **({"job_id": job} if credit_job else {}), "memo": memo},
        ]

    def _erp_staged(
        self,
        c: Case,
        value: Decimal,
        *,
        reverse: bool | None = None,
        lines: list[dict[str, Any]] | None = None,
        **kw: Any,
    ) -> ToolStep:
        """An entry of ``value`` (``lines`` when given), auto-reversing where the ERP can unless ``reverse``."""
        args: dict[str, Any] = {}
        if c.reverses if reverse is None else reverse:
            args["auto_reverse"] = True
        return step(
            f"{c.erp}.journal_entries.stage",
            entry_date=c.entry_date,
            description=c.description,
            lines=lines or self._erp_lines(c, value, **kw),
            **args,
        )

    def _erp_stage(self, c: Case) -> ToolStep:
        args: dict[str, Any] = {"auto_reverse": True} if c.reverses else {}
        return step(
            f"{c.erp}.journal_entries.stage",
            entry_date=c.entry_date,
            description=c.description,
            period=c.clock.strftime("%Y-%m"),
            journal="GJ",
            reference=f"ACR-{c.job}-{c.clock:%y%m}",
            lines=self._erp_lines(c, c.amount),
            **args,
        )

    def _erp_per_sub(self, c: Case, rows: list[dict[str, Any]]) -> ToolStep:
        total = sum((Decimal(x["accrual"]) for x in rows), Decimal(0))
        lines = [
            *(
                {"account": DEBIT, "debit": money_str(x["accrual"]), "job_id": c.erp_job, "memo": x["contract_code"]}
                for x in rows
            ),
            {"account": CREDIT, "credit": money_str(total), "job_id": c.erp_job, "memo": self._erp_memo(c)},
        ]
        return self._erp_staged(c, total, lines=lines)

    def _erp_reads(self, c: Case) -> list[ToolStep]:
        return [
            step("sharepoint.files.read", path=c.policy),
            step("procore.projects.list", project_number=c.job),
            step("procore.commitments.list", project_number=c.job, commitment_type="subcontract"),
            *(step("procore.commitments.get", commitment_id=s["contract_code"]) for s in c.subs),
            step("procore.requisitions.list", project_number=c.job),
            step(f"{c.erp}.jobs.get", job_id=c.erp_job),
            step(f"{c.erp}.gl.periods"),
        ]

    def _erp_reply(self, c: Case) -> str:
        detail = "; ".join(f"{s['contract_code']} {dollars(s['accrual'])}" for s in c.accruing)
        review = (
            " Pay requests still under review are not approved invoices and were not counted as billed."
            if c.under_review
            else ""
        )
        reverse = (
            "auto-reversing on the first day of next period"
            if c.reverses
            else f"not set to reverse ({c.label} has no auto-reversing entries; the policy asks for it only where "
            f"the ERP supports it)"
        )
        return (
            f"Staged a draft journal entry in {c.label} for job {c.job} ({c.erp_job}) dated {c.entry_date}: Dr "
            f"{DEBIT} Subcontract Cost / Cr {CREDIT} Accrued Liabilities {dollars(c.amount)}, the job on both "
            f"lines, {reverse}. Work completed to date less approved billings, by subcontract: {detail}.{review} "
            f"Nothing was posted."
        )

    def _erp_evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        line = c.D.t("je_open_line")
        sides = [
            expect_side_total(
                c.erp,
                c.D,
                account,
                debit,
                c.amount,
                assert_={line.n("job_id"): c.erp_job},
                label=f"{'Dr' if debit else 'Cr'} {account} {money_str(c.amount)} on job {c.erp_job} (lines' total)",
            )
            for account, debit in ((DEBIT, True), (CREDIT, False))
        ]
        forbidden = [
            forbid_added(
                c.erp,
                line.table,
                f"{line.n('job_id')} IS DISTINCT FROM '{c.erp_job}'",
                label=f"a journal line on another job or without the job (not {c.erp_job})",
            ),
            forbid_added(
                c.erp,
                line.table,
                f"{line.n('account')} NOT IN ('{DEBIT}', '{CREDIT}')",
                label=f"a journal line on an account other than {DEBIT} / {CREDIT}",
            ),
            forbid_changed("procore", "requisitions", label="a Procore requisition changed (synced or edited)"),
            forbid_added(c.erp, c.D.t("ap_open_hdr").table, label=f"an AP invoice entered in {c.label}"),
            *forbid_not_reversing(c.erp, c.D, "an accrual entry that does not reverse next period"),
        ]
        return evaluator(
            expected=[
                expect_entry(c.erp, c.D, c.entry_date, f"one draft journal entry in {c.label} dated {c.entry_date}"),
                *sides,
            ],
            forbidden=forbidden,
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    def _erp_alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        amount, amt = c.amount, money_str(c.amount)
        sql = (
            "SELECT c.contract_code, c.commitment_type, c.status, "
            "(SELECT sum(l.work_completed) FROM procore.commitment_line_items l WHERE l.commitment_id = c.id) AS wc, "
            "(SELECT coalesce(sum(r.gross_amount), 0) FROM procore.requisitions r WHERE r.commitment_id = c.id "
            "AND r.status = 'approved') AS billed "
            "FROM procore.commitments c JOIN procore.projects p ON p.id = c.project_id "
            f"WHERE p.project_number = '{c.job}' ORDER BY c.contract_code"
        )
        numbers = [
            {k: (float(Decimal(v)) if k in ("debit", "credit") else v) for k, v in ln.items()}
            for ln in reversed(self._erp_lines(c, amount))
        ]
        unbalanced = self._erp_lines(c, amount)
        unbalanced[1] = {**unbalanced[1], "credit": money_str(amount - Decimal("0.01"))}
        out = [
            trajectory(
                "sql reads, credit line first, amounts as numbers",
                [
                    step("sharepoint.files.list", folder="/Policies"),
                    step("sharepoint.files.read", path=c.policy),
                    step("sql.query", sql=sql, max_rows=200),
                    step(f"{c.erp}.jobs.get", job_id=c.erp_job),
                    self._erp_staged(c, amount, lines=numbers),
                    step(f"{c.erp}.journal_entries.list", period=c.clock.strftime("%Y-%m"), job_id=c.erp_job),
                ],
                f"Accrued {dollars(amount)} on job {c.job}; staged as a draft, not posted.",
                {"accrual_amount": float(amount)},
            ),
            trajectory(
                "rejected unbalanced stage, then corrected",
                [*self._erp_reads(c), self._erp_staged(c, amount, lines=unbalanced), self._erp_staged(c, amount)],
                "Done. Didn't post it.",
                {"accrual_amount": f"${amount:,}"},
            ),
            trajectory(
                "one debit line per subcontract",
                [
                    step("sharepoint.files.read", path=c.policy),
                    step("procore.commitments.list", project_number=c.job),
                    *(step("procore.requisitions.list", commitment_id=x["contract_code"]) for x in c.subs),
                    self._erp_per_sub(c, c.accruing),
                ],
                f"Staged the accrual, {len(c.accruing)} subcontract lines; not posted.",
                {"accrual_amount": amt},
            ),
        ]
        if not c.reverses:
            out.append(
                trajectory(
                    f"auto-reverse refused by {c.label}, then a plain draft",
                    [*self._erp_reads(c), self._erp_staged(c, amount, reverse=True), self._erp_stage(c)],
                    self._erp_reply(c),
                    report,
                )
            )
        return out

    def _erp_mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        amount, reads = c.amount, self._erp_reads(c)
        out = [
            mutant(
                _VARIANTS[label][0],
                f"{_VARIANTS[label][1]}: {dollars(value)} staged and reported",
                [*reads, self._erp_staged(c, value)],
                f"Accrued {dollars(value)}.",
                {"accrual_amount": money_str(value)},
            )
            for label, value in c.careless.items()
            if label in _VARIANTS and value > 0
        ]
        out += [
            mutant(
                "lookalike",
                f"the entry on the neighbouring job {c.other_job}",
                [*reads, self._erp_staged(c, amount, job_id=c.other_job)],
                answers=report,
            ),
            mutant(
                "lookalike",
                "credit to 2000 Accounts Payable - Trade",
                [*reads, self._erp_staged(c, amount, credit_account="2000")],
                answers=report,
            ),
            mutant(
                "careless",
                "the job missing from the credit line",
                [*reads, self._erp_staged(c, amount, credit_job=False)],
                answers=report,
            ),
            mutant(
                "careless",
                "the entry staged twice",
                [*reads, self._erp_stage(c), self._erp_stage(c)],
                answers=report,
            ),
        ]
        if c.reverses:
            out.append(
                mutant(
                    "careless",
                    "an accrual that does not reverse",
                    [*reads, self._erp_staged(c, amount, reverse=False)],
                    answers=report,
                )
            )
        else:
            v = money_str(amount)
            reversal = [
                {"account": CREDIT, "debit": v, "job_id": c.erp_job, "memo": "Reversal"},
                {"account": DEBIT, "credit": v, "job_id": c.erp_job, "memo": "Reversal"},
            ]
            out.append(
                mutant(
                    "careless",
                    f"no auto-reverse in {c.label}, so the reversal staged beside it in the same period",
                    [*reads, self._erp_stage(c), self._erp_staged(c, amount, lines=reversal)],
                    answers=report,
                )
            )
        if len(c.accruing) > 1:
            out.append(
                mutant(
                    "careless",
                    f"one line per subcontract, {c.accruing[-1]['contract_code']} left out",
                    [*reads, self._erp_per_sub(c, c.accruing[:-1])],
                    answers=report,
                )
            )
        wrong = next((v for k, v in c.careless.items() if k in _VARIANTS and v != amount), amount + Decimal("0.01"))
        out.append(
            mutant(
                "contradicting_report",
                f"right entry, reported as {dollars(wrong)}",
                [*reads, self._erp_stage(c)],
                answers={"accrual_amount": money_str(wrong)},
            )
        )
        return out


FAMILIES = [GSubAccrual]
