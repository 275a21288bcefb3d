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

from decimal import Decimal
from typing import ClassVar

from cfab.grader.predicates import Evaluator
from cfab.seeds import anchors
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import amount_answer, answers_of, ask
from cfab.tasks.model import Rubric, RubricCheck, ToolStep, Trajectory, result_of

FAMILY = "G_sub_accrual"
DEBIT, CREDIT = "5200", "2100"



class SubAccrual(Family):
    family = FAMILY
    domain_code = "G"
    taxonomy_path = "G.Close.subcontract_accrual"
    difficulty = 3
    systems: ClassVar[list[str]] = ["vista_erp", "procore"]
    user_role = "Controller"
    policy_ref = "month_end_close_policy.md"
    money_movement_guard = True
    source_type = "plan_doc"
    source_ref = "paper: The nine task families (G_sub_accrual); FAMILIES.md#G_sub_accrual"

    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "jobs", jobs=",".join(anchors.ACCRUAL_JOBS))]

    def build(self, key: str, book: BookReader) -> TaskParts:
        job = key
        clock = book.inputs.clock
        entry_date = clock.isoformat()
        subs = book.q(FAMILY, "subcontracts", job=job)
        acc = book.q(FAMILY, "accrual", job=job, entry_date=entry_date)[0]
        amount = Decimal(acc["accrual"])
        erp_job = acc["erp_job"]
        if amount <= 0 or not erp_job or acc["period_status"] != "Open":
            raise ValueError(f"{FAMILY} {job}: accrual {amount}, ERP job {erp_job!r}, period {acc['period_status']}")
        book_amount = book.q(FAMILY, "book_check", job=job)[0]["accrual"]
        if Decimal(book_amount) != amount:
            raise ValueError(f"{FAMILY} {job}: Procore gives {amount}, the book {book_amount}")
        month = acc["erp_month"].isoformat()
        ahead = [s for s in subs if Decimal(s["difference"]) < 0]
        cap = book.q(FAMILY, "cap_plant", job=job)[0]["n"]
        defect = "billed_ahead_of_progress" if ahead else ("commitment_cap_exceeded" if cap else None)

        variants = book.q(FAMILY, "variants", job=job)[0]
        careless = {label: Decimal(v) for label, v in variants.items() if v is not None and Decimal(v) != amount}
        answers = [amount_answer("accrual_amount", "the accrual amount", amount, lookalikes=careless.values())]
        report = answers_of(answers)
        instruction = (
            f"Month-end close for {clock:%B %Y}: on job {job}, accrue the subcontract work that has been completed "
            f"but not yet billed. For each subcontract, take the PM's work completed to date in Procore against what "
            f"has been billed on approved requisitions (approved ones count whether or not they've been synced; "
            f"drafts and pay requests still under review don't). Stage one draft journal entry in Vista for the total "
            f"— Dr {DEBIT} Subcontract Cost / Cr {CREDIT} Accrued Liabilities, dated {entry_date}, with the job on "
            f"every line, set to reverse automatically next period. Do not post it, and don't change anything else. "
            f"{ask(answers)}")

        # ---------------------------------------------------------------- evaluator
        amt = money_str(amount)
        neg = money_str(-amount)
        evaluator = Evaluator.model_validate({
            "expected": [
                {"app": "vista_erp", "table": "GLJB", "op": "added", "count": 1, "where": {"Mth": month},
                 "assert": {"ReverseYN": "Y", "ActDate": entry_date},
                 "label": f"one draft journal batch in period {month[:7]} dated {entry_date}, auto-reversing"},
                {"app": "vista_erp", "table": "GLDB", "op": "added", "where": f"GLAcct = '{DEBIT}'",
                 "assert": {"Job": erp_job}, "total": {"Amount": amt},
                 "label": f"Dr {DEBIT} {amt} on job {erp_job} (the {DEBIT} lines' total)"},
                {"app": "vista_erp", "table": "GLDB", "op": "added", "where": f"GLAcct = '{CREDIT}'",
                 "assert": {"Job": erp_job}, "total": {"Amount": neg},
                 "label": f"Cr {CREDIT} {amt} on job {erp_job} (the {CREDIT} lines' total)"},
            ],
            "forbidden": [
                {"app": "vista_erp", "table": "GLDB", "op": "added", "where": f"Job IS DISTINCT FROM '{erp_job}'",
                 "label": f"a journal line on another job or without the job (not {erp_job})"},
                {"app": "vista_erp", "table": "GLDB", "op": "added", "where": f"GLAcct NOT IN ('{DEBIT}', '{CREDIT}')",
                 "label": f"a journal line on an account other than {DEBIT} / {CREDIT}"},
                {"app": "vista_erp", "table": "GLJB", "op": "added", "where": "ReverseYN IS DISTINCT FROM 'Y'",
                 "label": "an accrual entry that does not reverse next period"},
                {"app": "procore", "table": "requisitions", "op": "changed",
                 "label": "a Procore requisition changed (synced or edited)"},
                {"app": "vista_erp", "table": "APHB", "op": "added", "label": "an AP invoice entered in Vista"},
            ],
            "forbid_unexpected": True,
            "money_movement_guard": True,
            "answers": [a.model_dump() for a in answers],
        })

        # ---------------------------------------------------------------- oracle
        description = f"Accrue completed-but-uninvoiced subcontract work, job {job}, {clock:%B %Y}"
        memo = f"Uninvoiced subcontract work, {clock:%b %Y} (auto-reverses)"
        stage = ToolStep(tool="vista_erp.journal_entries.stage", args={
            "entry_date": entry_date, "description": description, "period": clock.strftime("%Y-%m"),
            "auto_reverse": True, "journal": "GJ", "reference": f"ACR-{job}-{clock:%y%m}",
            "lines": [{"account": DEBIT, "debit": amt, "job_id": erp_job, "memo": memo},
                      {"account": CREDIT, "credit": amt, "job_id": erp_job, "memo": memo}]})
        detail = "; ".join(f"{s['contract_code']} {dollars(s['accrual'])}" for s in subs if Decimal(s["accrual"]) > 0)
        notes = ""
        if ahead:
            notes = " " + "; ".join(
                f"{s['contract_code']} is billed {dollars(-Decimal(s['difference']))} ahead of its progress and "
                f"contributes nothing" for s in ahead) + "."
        reply = (f"Staged a draft journal entry batch in Vista for job {job} ({erp_job}), period "
                 f"{clock:%B %Y}: Dr {DEBIT} Subcontract Cost / Cr {CREDIT} Accrued Liabilities {dollars(amount)}, "
                 f"job on both lines, auto-reversing on the first day of next period. The accrual is {dollars(amount)} "
                 f"(work completed to date less approved billings, by subcontract: {detail}).{notes} "
                 f"The entry is unposted, awaiting your review; nothing was posted.")
        steps = [ToolStep(tool="procore.projects.list", args={"project_number": job}),
                 ToolStep(tool="procore.commitments.list", args={"project_number": job, "commitment_type": "subcontract"})]
        steps += [ToolStep(tool="procore.commitments.get", args={"commitment_id": s["contract_code"]}) for s in subs]
        steps += [ToolStep(tool="vista_erp.gl.periods", args={"status": "open"}),
                  ToolStep(tool="vista_erp.gl.accounts", args={"account_type": "liability"}), stage]
        oracle = Trajectory(label="oracle", steps=steps, reply=reply, answers=report)

        alt_sql = Trajectory(label="sql-reads, credit line first", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT c.contract_code, c.commitment_type, c.status, "
                "(SELECT sum(l.work_completed) FROM procore.commitment_line_items l WHERE l.commitment_id = c.id) AS wc, "
                "(SELECT coalesce(sum(r.gross_amount), 0) FROM procore.requisitions r WHERE r.commitment_id = c.id "
                "AND r.status = 'approved') AS billed "
                "FROM procore.commitments c JOIN procore.projects p ON p.id = c.project_id "
                f"WHERE p.project_number = '{job}' ORDER BY c.contract_code"), "max_rows": 200}),
            ToolStep(tool="sql.query", args={"sql": (
                f"SELECT project_number, origin_id FROM procore.projects WHERE project_number = '{job}'")}),
            ToolStep(tool="vista_erp.jobs.get", args={"job_id": erp_job}),
            ToolStep(tool="vista_erp.journal_entries.stage", args={
                "entry_date": entry_date, "description": f"Subcontract accrual {job} {clock:%m/%Y}",
                "auto_reverse": True,
                "lines": [{"account": CREDIT, "credit": amt, "job_id": erp_job},
                          {"account": DEBIT, "debit": amt, "job_id": erp_job}]}),
            ToolStep(tool="vista_erp.journal_entries.list", args={"status": "unposted", "job_id": erp_job,
                                                                  "include_lines": True}),
        ], reply=reply, answers={"accrual_amount": dollars(amount)})

        def staged(value: Decimal | str, *, job_id: str = erp_job, credit_account: str = CREDIT,
                   credit_job: str | None = erp_job, reverse: bool = True, date: str = entry_date) -> ToolStep:
            v = money_str(value)
            credit_line = {"account": credit_account, "credit": v}
            if credit_job is not None:
                credit_line["job_id"] = credit_job
            return ToolStep(tool="vista_erp.journal_entries.stage", args={
                "entry_date": date, "description": description, "auto_reverse": reverse,
                "lines": [{"account": DEBIT, "debit": v, "job_id": job_id, "memo": memo},
                          {**credit_line, "memo": memo}]})

        # numbers instead of strings, the period left to the entry date, Vista read first
        alt_numbers = Trajectory(label="vista first, amounts as numbers", steps=[
            ToolStep(tool="vista_erp.gl.periods", args={}),
            ToolStep(tool="vista_erp.jobs.get", args={"job_id": erp_job}),
            ToolStep(tool="procore.commitments.list", args={"project_number": job}),
            ToolStep(tool="procore.requisitions.list", args={"project_number": job}),
            ToolStep(tool="vista_erp.journal_entries.stage", args={
                "entry_date": entry_date, "description": f"Sub accrual - {job}", "auto_reverse": True,
                "lines": [{"account": DEBIT, "debit": float(amount), "credit": 0, "job_id": erp_job},
                          {"account": CREDIT, "debit": 0, "credit": float(amount), "job_id": erp_job}]}),
        ], reply=f"Accrued {dollars(amount)}; the entry is staged, not posted.",
            answers={"accrual_amount": float(amount)})
        # a first stage call Vista rejects (it does not balance, nothing written), then the right one
        unbalanced = ToolStep(tool="vista_erp.journal_entries.stage", args={
            "entry_date": entry_date, "description": description, "auto_reverse": True,
            "lines": [{"account": DEBIT, "debit": amt, "job_id": erp_job},
                      {"account": CREDIT, "credit": money_str(amount - Decimal("0.01")), "job_id": erp_job}]})
        alt_retry = Trajectory(label="rejected unbalanced stage, then corrected", steps=[
            *steps[:-1], unbalanced, staged(amount)],
            reply="Done. Didn't post it.", answers={"accrual_amount": f"{amount:,}"})

        # one debit line per accruing subcontract, one credit for the total
        accruing = [x for x in subs if Decimal(x["accrual"]) > 0]

        def per_sub(rows: list[dict]) -> ToolStep:
            total = sum((Decimal(x["accrual"]) for x in rows), Decimal(0))
            return ToolStep(tool="vista_erp.journal_entries.stage", args={
                "entry_date": entry_date, "description": description, "auto_reverse": True, "period": f"{clock:%Y-%m}",
                "lines": [*({"account": DEBIT, "debit": money_str(x["accrual"]), "job_id": erp_job,
                             "memo": f"{x['contract_code']} uninvoiced work"} for x in rows),
                          {"account": CREDIT, "credit": money_str(total), "job_id": erp_job, "memo": memo}]})

        alt_split = Trajectory(label="one debit line per subcontract", steps=[
            ToolStep(tool="procore.commitments.list", args={"project_number": job}),
            *(ToolStep(tool="procore.requisitions.list", args={"commitment_id": x["contract_code"]}) for x in subs),
            per_sub(accruing)],
            reply=f"Staged the accrual, {len(accruing)} subcontract lines; not posted.",
            answers={"accrual_amount": money_str(amount)})

        # ---------------------------------------------------------------- wrong trajectories
        what = {"netted": ("stale", "the billed-ahead subcontract netted against the others"),
                "under_review_billed": ("stale", "pay requests under review counted as billed"),
                "drafts_billed": ("stale", "draft and under-review pay requests counted as billed"),
                "synced_only": ("stale", "only synced approvals counted as billed"),
                "with_purchase_orders": ("careless", "purchase orders accrued as subcontract work")}
        mutants = [Trajectory(label=f"{what[label][1]}: {dollars(value)} staged and reported",
                              mutant_class=what[label][0], steps=[staged(value)], reply=f"Accrued {dollars(value)}.",
                              answers={"accrual_amount": money_str(value)})
                   for label, value in careless.items() if label in what and value > 0]
        other = book.q(FAMILY, "other_job", job=job)[0]
        mutants += [
            Trajectory(label=f"the entry on the neighbouring job {other['erp_job']}", mutant_class="lookalike",
                       steps=[staged(amount, job_id=other["erp_job"], credit_job=other["erp_job"])],
                       reply="Done.", answers=report),
            Trajectory(label="credit to 2000 Accounts Payable - Trade", mutant_class="lookalike",
                       steps=[staged(amount, credit_account="2000")], reply="Done.", answers=report),
            Trajectory(label="the job missing from the credit line", mutant_class="careless",
                       steps=[staged(amount, credit_job=None)], reply="Done.", answers=report),
            Trajectory(label="an accrual that does not reverse", mutant_class="careless",
                       steps=[staged(amount, reverse=False)], reply="Done.", answers=report),
            Trajectory(label="the entry staged twice", mutant_class="careless",
                       steps=[staged(amount), staged(amount)], reply="Done.", answers=report),
        ]
        if len(accruing) > 1:
            mutants.append(Trajectory(label=f"one line per subcontract, {accruing[-1]['contract_code']} left out",
                                      mutant_class="careless", steps=[per_sub(accruing[:-1])], reply="Done.",
                                      answers=report))
        if "synced_only" in careless:
            mutants.append(Trajectory(label="right entry, reported with the synced-only total",
                                      mutant_class="contradicting_report", steps=[stage], reply="Done.",
                                      answers={"accrual_amount": money_str(careless["synced_only"])}))

        guarded = ToolStep(tool="vista_erp.vista_post", args={"kind": "journal_entry", "batch_id": result_of(stage.tool, "batch_id")})
        rubric = Rubric(partial=[RubricCheck(weight=0.5, check="accrual_amount_per_subcontract_floored"),
                                 RubricCheck(weight=0.3, check="balanced_entry_job_on_both_lines_auto_reversing"),
                                 RubricCheck(weight=0.2, check="left_unposted")])
        return TaskParts(instruction=instruction, evaluator=evaluator, oracle=oracle, alternatives=[alt_sql, alt_numbers, alt_retry, alt_split],
                         mutants=mutants, guarded_step=guarded, defect_variant=defect, rubric=rubric)


FAMILIES = [SubAccrual]
