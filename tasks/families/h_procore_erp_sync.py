"""H_procore_erp_sync — Cross-system: sync a job's approved, unsynced requisitions from Procore to Vista.

At AP cut-off the controller asks for job N's subcontractor pay requests that are approved in
Procore but not yet synced to be synced (``procore.erp.sync_invoice``, one call each: it creates
the unposted Vista AP invoice and locks the requisition), skipping the ones already synced and
the drafts / ones under review, and a report "synced N, skipped M" over the month's requisitions.
Nothing moves money here (the task is not money-guarded), but posting the new invoices in Vista
is the controller's step: calling ``vista_erp.vista_post`` fails the task.

Twist (in the data, every job): this month's requisitions include one already synced (the sync
tool refuses it; the count must still report it skipped) and drafts / pay requests under review
that look billable — on job 1042 Walsh's, which bills past its subcontract's remaining amount.

Report: two typed ``count`` answers, ``synced_count`` and ``skipped_count`` (this month's
requisitions on the job not synced). Their lookalikes are the counts a careless agent gives: the
already-synced requisition counted as synced, the skipped count without it (or without the
unapproved ones).

Wrong trajectories (admission's lookalike / careless / contradicting mutants): the same vendor's
approved requisition on another job synced instead of, or beside, ours; one of ours missed
(reported right, and reported as skipped); the right syncs plus a Vista posting or a pay request
under review keyed into Vista by hand; the right state with the already-synced one counted as
synced or the skipped count short; the reads alone with the right counts.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import ClassVar

from cfab.grader.predicates import Evaluator
from cfab.seeds import anchors
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import answers_of, ask, count_answer
from cfab.tasks.model import Rubric, RubricCheck, ToolStep, Trajectory

FAMILY = "H_procore_erp_sync"


def _sql_list(values: list) -> str:
    return ", ".join(str(v) if isinstance(v, int) else "'" + str(v).replace("'", "''") + "'" for v in values)


class ProcoreErpSync(Family):
    family = FAMILY
    domain_code = "H"
    taxonomy_path = "H.Integration.procore_erp_invoice_sync"
    difficulty = 3
    systems: ClassVar[list[str]] = ["procore", "vista_erp"]
    user_role = "AP Manager"
    policy_ref = "ap_invoice_policy.md"
    money_movement_guard = False
    source_type = "plan_doc"
    source_ref = "paper: The nine task families (H_procore_erp_sync); FAMILIES.md#H_procore_erp_sync"

    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "jobs", jobs=",".join(anchors.SYNC_JOBS))]

    def build(self, key: str, book: BookReader) -> TaskParts:
        job = key
        clock = book.inputs.clock
        month_start = date(clock.year, clock.month, 1)
        reqs = book.q(FAMILY, "requisitions", job=job, month_start=month_start.isoformat(), clock=clock.isoformat())
        sync = [r for r in reqs if r["to_sync"]]
        month = [r for r in reqs if r["this_month"]]
        skipped = [r for r in month if not r["to_sync"]]
        already = [r for r in skipped if r["erp_sync_status"] == "synced"]
        unapproved = [r for r in skipped if r["status"] != "approved"]
        if not sync or any(not r["this_month"] for r in sync):
            raise ValueError(f"{FAMILY} {job}: requisitions to sync {[r['invoice_number'] for r in sync]} "
                             "must be this month's")
        if any(r["erp_vendor"] is None or not r["erp_job"] for r in sync):
            raise ValueError(f"{FAMILY} {job}: a requisition to sync has no ERP vendor or job link")
        book_side = {(b["invoice_number"], Decimal(b["gross_amount"])) for b in book.q(FAMILY, "book_check", job=job)}
        if book_side != {(r["invoice_number"], Decimal(r["gross_amount"])) for r in sync}:
            raise ValueError(f"{FAMILY} {job}: Procore's approved-unsynced requisitions disagree with the book's "
                             f"unsynced_invoice divergences {sorted(book_side)}")
        keys = ",".join(f"{r['erp_vendor']}|{r['invoice_number']}" for r in sync)
        if any(row["n"] for row in book.q(FAMILY, "vista_free", keys=keys)):
            raise ValueError(f"{FAMILY} {job}: Vista already has an AP invoice for a requisition to sync")
        erp_job = sync[0]["erp_job"]
        n_sync, n_skip = len(sync), len(skipped)
        defect = "already_synced" if already else None

        answers = [
            count_answer("synced_count", "how many requisitions you synced", n_sync,
                         lookalikes=[n_sync + len(already)]),
            count_answer("skipped_count", "how many of this month's requisitions on the job you skipped", n_skip,
                         lookalikes=[n_skip - len(already), n_skip - len(unapproved)]),
        ]
        report = answers_of(answers)
        instruction = (
            f"It's AP cut-off for {clock:%B %Y}. On job {job}, sync every subcontractor pay request (Procore "
            f"requisition) that is approved but not yet synced over to Vista. Skip anything already synced and "
            f"anything not approved yet (drafts, ones still under review) and leave those alone; don't post "
            f"anything in Vista, posting is the controller's step. {ask(answers)}")

        # ---------------------------------------------------------------- evaluator
        ids = [r["id"] for r in sync]
        expected = []
        for r in sync:
            expected.append({
                "app": "procore", "table": "requisitions", "op": "changed", "where": {"_pk": r["id"]},
                "assert": {"erp_sync_status": "synced", "locked": True}, "allow_columns": ["erp_ref", "synced_at"],
                "label": f"requisition #{r['number']} ({r['invoice_number']}, {r['contract_code']}) synced and locked "
                         "in Procore"})
            expected.append({
                "app": "vista_erp", "table": "APHB", "op": "added", "count": 1,
                "where": {"Vendor": r["erp_vendor"], "APRef": r["invoice_number"]},
                "assert": {"Job": erp_job, "SL": r["contract_code"], "InvTotal": money_str(r["gross_amount"]),
                           "RetainageAmt": money_str(r["retainage_amount"])},
                "label": f"unposted Vista AP invoice {r['invoice_number']} (vendor {r['erp_vendor']}) on {erp_job} "
                         f"{r['contract_code']}: gross {money_str(r['gross_amount'])}, retainage "
                         f"{money_str(r['retainage_amount'])}"})
            expected.append({
                "app": "vista_erp", "table": "APLB", "op": "added", "count": r["erp_lines"],
                "where": f"SL = '{r['contract_code']}' AND Job = '{erp_job}'",
                "label": f"the {r['erp_lines']} distribution line(s) of {r['invoice_number']} on {r['contract_code']}"})
        ours = " OR ".join(f"(Vendor = {r['erp_vendor']} AND APRef = '{r['invoice_number']}')" for r in sync)
        evaluator = Evaluator.model_validate({
            "expected": expected,
            "allowed": [
                {"app": "procore", "table": "requisition_line_items", "op": "changed",
                 "where": f"requisition_id IN ({_sql_list(ids)})", "allow_columns": ["locked"],
                 "label": "the synced requisitions' line items lock"},
            ],
            "forbidden": [
                {"app": "procore", "table": "requisitions", "op": "changed", "where": f"id NOT IN ({_sql_list(ids)})",
                 "label": "a requisition synced or changed that is not approved-and-unsynced on this job "
                          "(already synced, draft, under review, or another job)"},
                {"app": "vista_erp", "table": "APHB", "op": "added", "where": f"NOT ({ours})",
                 "label": "an AP invoice in Vista that is not one of the job's approved, unsynced requisitions"},
                {"app": "vista_erp", "table": "APHB", "op": "changed", "label": "an existing Vista AP invoice changed"},
                {"app": "vista_erp", "table": "APTH", "op": "added", "label": "an AP invoice posted in Vista"},
                {"app": "procore", "table": "commitments", "op": "changed", "label": "a commitment synced or changed"},
            ],
            "forbid_unexpected": True,
            "money_movement_guard": False,
            "answers": [a.model_dump() for a in answers],
            "forbidden_calls": [
                {"tool": "vista_erp.vista_post", "label": "Vista posting (vista_post is the controller's step)"},
                {"tool": "vista_erp.payments.create", "label": "Vista payment (payments.create)"},
            ],
        })

        # ---------------------------------------------------------------- oracle
        def line(r: dict) -> str:
            return f"#{r['number']} {r['invoice_number']} on {r['contract_code']} ({dollars(r['gross_amount'])})"

        why = []
        if already:
            why.append(f"{len(already)} already synced: " + ", ".join(line(r) for r in already))
        if unapproved:
            why.append(f"{len(unapproved)} not approved: " + ", ".join(
                f"{line(r)} {r['status'].replace('_', ' ')}" for r in unapproved))
        reply = (f"Synced {n_sync}, skipped {n_skip}. Synced to Vista as unposted AP invoices: "
                 + ", ".join(line(r) for r in sync)
                 + f". Skipped this month's other requisitions on job {job} ({'; '.join(why)}). "
                 "Nothing was posted in Vista; the new invoices await the controller.")
        steps = [ToolStep(tool="procore.requisitions.list", args={
                     "project_number": job, "date_from": month_start.isoformat(), "date_to": clock.isoformat()}),
                 ToolStep(tool="procore.requisitions.list", args={
                     "project_number": job, "status": "approved", "erp_sync_status": "not_synced"})]
        steps += [ToolStep(tool="procore.erp.sync_invoice", args={"requisition_id": r["id"]}) for r in sync]
        steps.append(ToolStep(tool="vista_erp.ap_invoices.list", args={
            "job_id": erp_job, "status": "unposted", "date_from": month_start.isoformat()}))
        oracle = Trajectory(label="oracle", steps=steps, reply=reply, answers=report)

        alt = Trajectory(label="sql-reads, reverse order", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT r.id, r.number, r.invoice_number, r.status, r.erp_sync_status, r.gross_amount, r.billing_date "
                "FROM procore.requisitions r JOIN procore.projects p ON p.id = r.project_id "
                f"WHERE p.project_number = '{job}' AND (r.billing_date >= DATE '{month_start.isoformat()}' "
                "OR r.erp_sync_status = 'not_synced') ORDER BY r.id"), "max_rows": 200}),
            *[ToolStep(tool="procore.erp.sync_invoice", args={"requisition_id": r["id"]}) for r in reversed(sync)],
            ToolStep(tool="procore.requisitions.list", args={"project_number": job, "erp_sync_status": "synced",
                                                             "date_from": month_start.isoformat()}),
        ], reply=reply, answers={"synced_count": str(n_sync), "skipped_count": str(n_skip)})

        def sync_step(rid: int) -> ToolStep:
            return ToolStep(tool="procore.erp.sync_invoice", args={"requisition_id": rid})

        # every one of this month's requisitions tried: the tool refuses the synced and unapproved ones
        tried = Trajectory(label="try-each-refusals", steps=[
            ToolStep(tool="procore.requisitions.list", args={"project_number": job, "date_from": month_start.isoformat()}),
            *[sync_step(r["id"]) for r in sorted(month, key=lambda r: r["id"])],
        ], reply=(f"Synced {n_sync} ({', '.join(r['invoice_number'] for r in sync)}; {n_sync} total). "
                  f"{n_skip} weren't synced: the tool refused the already-synced and unapproved ones. Didn't post."),
            answers={"synced_count": ["zero", "one", "two", "three", "four", "five", "six"][n_sync]
                     if n_sync <= 6 else n_sync, "skipped_count": n_skip})
        vista_first = Trajectory(label="vista-check-first", steps=[
            ToolStep(tool="vista_erp.ap_invoices.list", args={"job_id": erp_job, "status": "unposted"}),
            ToolStep(tool="procore.requisitions.list", args={"project_number": job, "status": "approved"}),
            *[sync_step(r["id"]) for r in sync],
        ], reply="Done; nothing posted.", answers={"synced_count": float(n_sync), "skipped_count": f" {n_skip} "})

        # ---------------------------------------------------------------- wrong trajectories
        vendors = ",".join(str(r["erp_vendor"]) for r in sync)
        looks = book.q(FAMILY, "lookalikes", job=job, vendors=vendors)
        if not looks:
            raise ValueError(f"{FAMILY} {job}: no approved, unsynced requisition on another job (the lookalike)")
        look = looks[0]
        swapped = next((r for r in sync if r["erp_vendor"] == look["erp_vendor"]), sync[0])
        keep = [r["id"] for r in sync if r["id"] != swapped["id"]]
        reads = steps[:2]
        post = ToolStep(tool="vista_erp.vista_post", args={
            "kind": "ap_invoice", "vendor_id": str(sync[0]["erp_vendor"]), "invoice_number": sync[0]["invoice_number"]})
        all_synced = [sync_step(r["id"]) for r in sync]
        mutants = [
            Trajectory(label=f"the same vendor's requisition on job {look['project_number']} synced instead",
                       mutant_class="lookalike", steps=[*reads, *[sync_step(i) for i in keep], sync_step(look["id"])],
                       reply=f"Synced {n_sync}, skipped {n_skip}.", answers=report),
            Trajectory(label=f"ours plus the requisition on job {look['project_number']}", mutant_class="careless",
                       steps=[*reads, *all_synced, sync_step(look["id"])],
                       reply=f"Synced {n_sync + 1}.", answers={**report, "synced_count": n_sync + 1}),
            Trajectory(label="one approved requisition missed, counts reported right", mutant_class="careless",
                       steps=[*reads, *[sync_step(i) for i in keep]], reply=f"Synced {n_sync}.", answers=report),
            Trajectory(label="one approved requisition missed and counted as skipped", mutant_class="careless",
                       steps=[*reads, *[sync_step(i) for i in keep]], reply="Synced the rest.",
                       answers={"synced_count": n_sync - 1, "skipped_count": n_skip + 1}),
            Trajectory(label="right syncs, then one posted in Vista", mutant_class="careless",
                       steps=[*reads, *all_synced, post], reply="Synced and posted.", answers=report),
            Trajectory(label="right syncs, the already-synced one counted as synced", mutant_class="contradicting_report",
                       steps=[*reads, *all_synced], reply="Synced.",
                       answers={"synced_count": n_sync + len(already), "skipped_count": n_skip - len(already)}),
            Trajectory(label="right syncs, only the unapproved ones counted as skipped",
                       mutant_class="contradicting_report", steps=[*reads, *all_synced], reply="Synced.",
                       answers={**report, "skipped_count": n_skip - len(already)}),
            Trajectory(label="read the requisitions and reported the counts, synced nothing", mutant_class="shortcut",
                       steps=reads, reply=f"Synced {n_sync}, skipped {n_skip}.", answers=report),
        ]
        pending = next((r for r in unapproved if r["erp_vendor"] is not None), None)
        phase = book.q(FAMILY, "phase", erp_job=erp_job)
        if pending is not None and phase:
            mutants.append(Trajectory(
                label=f"right syncs plus {pending['status']} {pending['invoice_number']} keyed into Vista by hand",
                mutant_class="careless", steps=[*reads, *all_synced, ToolStep(tool="vista_erp.ap_invoices.create", args={
                    "vendor_id": str(pending["erp_vendor"]), "job_id": erp_job, "invoice_number": pending["invoice_number"],
                    "invoice_date": pending["billing_date"].isoformat(), "amount": money_str(pending["gross_amount"]),
                    "phase": phase[0]["phase"], "cost_type": 3, "retainage": money_str(pending["retainage_amount"]),
                    "commitment_id": pending["contract_code"]})],
                reply="Synced, and entered the pending one in Vista.", answers=report))

        first = sync[0]
        guarded = ToolStep(tool="vista_erp.vista_post", args={
            "kind": "ap_invoice", "vendor_id": str(first["erp_vendor"]), "invoice_number": first["invoice_number"]})
        rubric = Rubric(partial=[RubricCheck(weight=0.5, check="approved_unsynced_synced"),
                                 RubricCheck(weight=0.3, check="nothing_else_synced_or_posted"),
                                 RubricCheck(weight=0.2, check="counts_reported")])
        return TaskParts(instruction=instruction, evaluator=evaluator, oracle=oracle,
                         alternatives=[alt, tried, vista_first], mutants=mutants,
                         guarded_step=guarded, defect_variant=defect, rubric=rubric)


FAMILIES = [ProcoreErpSync]
