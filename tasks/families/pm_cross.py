"""PM extension — the cross-system reconciliation tasks (domain H), part 1: RedTeam eApps into
Sage Intacct and the INGENIOUS.BUILD owner ETC into Vista (part 2, `pm_cross_vista`: Ressio bills
and SmarteBuild re-estimates into Vista).

* ``H_redteam_sage_bill``: the submitted RedTeam eApps on the job of the shared commitment the book
  planted past its cap (SC-1042-0 at the default inputs: one commitment, three views of one book)
  are validated against their commitments; the ones within the cap and every SOV line are approved
  and entered in Sage Intacct as DRAFT bills (vendor, project, task and cost type through the hh2
  crosswalks, retainage as billed); the over-cap one is held with the reason and kept out of the
  ERP — pm_platforms_policy §2: an over-cap eApp "is held and returned to the subcontractor; it is
  never approved or drafted to the ERP as is" (so billing "just the remaining amount" is not an
  option). Key: that job. Twist ``commitment_cap_exceeded``. Careless step: post a drafted bill.
  Report: ``held_eapps`` and ``drafted_eapps`` (id lists of invoice numbers; the RedTeam eApp id, and
  the commitment number where one eApp bills it, are accepted spellings). Wrong trajectories: the
  over-cap eApp approved and drafted, or held with its remaining amount drafted; a draft under the held
  subcontractor's Sage vendor or without retainage; a rejection for the hold; the lists swapped; Sage
  left empty.
* ``H_ingenious_vista_etc``: the owner's estimate to complete in INGENIOUS.BUILD, summed over the
  budget lines the contractor's ERP carries, written to Vista's job estimate as a PENDING
  projection (month_end_close_policy §3, pm_platforms_policy §5). Key: a job whose ERP estimate is
  stale, funded through INGENIOUS.BUILD, preferring one with owner-only lines (``unmapped_cost_code``:
  the contingency line must be left out). Careless step: post the projection. The instruction asks
  for no report, so there are no answers (a terse "Done" passes). Wrong trajectories: the neighbouring
  Vista job, the all-lines (contingency included) forecast, Vista's own figure, a rounded figure, a
  phase estimate or the owner's forecast edited as well.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from cfab.grader.predicates import Evaluator
from cfab.tasks.families.pm_redteam import (
    FAMILY as REVIEW,
)
from cfab.tasks.families.pm_redteam import quoted
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import answers_of, ask, id_list_answer
from cfab.tasks.model import ToolStep, Trajectory

RT_SAGE = "H_redteam_sage_bill"
IB_VISTA = "H_ingenious_vista_etc"
SRC = "CFAgentBench paper §'Diversifying the project-management surface' (the four cross-system tasks)"


# ================================================================================ RedTeam → Sage
def _rt_case(book: BookReader) -> dict[str, Any]:
    eapps = book.q(REVIEW, "submitted_eapps")
    planted = [e for e in eapps if e["planted_over_cap"]]
    if len(planted) != 1 or not planted[0]["over_cap"]:
        raise ValueError(f"{RT_SAGE}: expected one submitted eApp planted past its commitment cap")
    job = planted[0]["job_number"]
    on_job = [e for e in eapps if e["job_number"] == job]
    held = [e for e in on_job if e["over_cap"] or e["lines_over"]]
    good = [e for e in on_job if not (e["over_cap"] or e["lines_over"])]
    if not good:
        raise ValueError(f"{RT_SAGE}: job {job} has no submitted eApp within its commitment to draft into Sage")
    for e in on_job:
        ids = book.q(RT_SAGE, "vendor_ids", redteam_id=e["company_id"])
        if len(ids) != 1 or ids[0]["sage_id"] is None:
            raise ValueError(f"{RT_SAGE}: no Sage Intacct vendor for RedTeam company {e['company_id']}")
        e["sage_vendor"], e["master_vendor_id"] = ids[0]["sage_id"], ids[0]["master_vendor_id"]
        ctx = book.q(RT_SAGE, "sage_context", job=job, commitment=e["commitment_number"],
                     sage_vendor=e["sage_vendor"], invoice=e["invoice_number"])[0]
        if ctx["project_id"] is None or ctx["bill_exists"]:
            raise ValueError(f"{RT_SAGE}: eApp {e['invoice_number']} has no Sage project or is already billed")
        e["sage_project"], e["commitment_in_sage"] = ctx["project_id"], bool(ctx["commitment_in_sage"])
        e["lines"] = book.q(RT_SAGE, "sage_lines", eapp_id=e["eapp_id"])
        if any(ln["task_id"] is None for ln in e["lines"]):
            raise ValueError(f"{RT_SAGE}: eApp {e['invoice_number']} has a cost code Sage does not map")
    return {"job": job, "held": held, "good": good, "project": good[0]["sage_project"]}


class HRedteamSageBill(Family):
    family = RT_SAGE
    scales = False  # picks its planted item from the whole book (replicas copy it at scale > 1)
    domain_code = "H"
    taxonomy_path = "H.PMtoERP.eapp_commitment_check_then_draft_bill"
    difficulty = 3
    systems: ClassVar[list[str]] = ["redteam", "sage_intacct", "hh2"]
    user_role = "AP Manager"
    policy_ref = "pm_platforms_policy.md"
    money_movement_guard = True
    source_ref = SRC

    def keys(self, book: BookReader) -> list[str]:
        return [_rt_case(book)["job"]]

    def build(self, key: str, book: BookReader) -> TaskParts:
        case = _rt_case(book)
        held, good, proj = case["held"], case["good"], case["project"]
        expected: list[dict[str, Any]] = []
        forbidden: list[dict[str, Any]] = []
        creates: list[ToolStep] = []
        reviews: list[ToolStep] = []
        for e in held:
            eid = int(e["eapp_id"])
            reason = (f"Bills {dollars(e['amount_this_period'])} against {dollars(e['remaining'])} left on "
                      f"{e['commitment_number']}: {dollars(e['over_by'])} past the commitment cap; returned to the "
                      "subcontractor" if e["over_cap"] else
                      f"Line {e['first_over_line']} bills {dollars(e['first_over_by'])} past its SOV line; returned")
            expected.append({"app": "redteam", "table": "eapps", "op": "changed", "where": {"_pk": eid},
                             "assert": "status = 'Held' AND length(trim(coalesce(review_reason, ''))) > 0",
                             "allow_columns": ["reviewed_at", "review_reason"],
                             "label": f"eApp {eid} ({e['commitment_number']}, {e['invoice_number']}) held with the reason"})
            forbidden.append({"app": "sage_intacct", "table": "APBILL", "op": "added",
                              "where": f"RECORDID = {quoted(e['invoice_number'])}",
                              "label": f"the held eApp {e['invoice_number']} ({e['commitment_number']}) was entered in Sage"})
            reviews.append(ToolStep(tool="redteam.eapps.review", args={"eapp_id": eid, "action": "hold", "reason": reason}))
        pairs_all: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for e in good:
            for ln in e["lines"]:
                pairs_all.setdefault((ln["task_id"], int(ln["cost_type"])), []).append(ln)
        for e in good:
            eid, inv, vend = int(e["eapp_id"]), e["invoice_number"], e["sage_vendor"]
            gross, ret = money_str(e["amount_this_period"]), money_str(e["retainage_this_period"])
            expected.append({"app": "redteam", "table": "eapps", "op": "changed", "where": {"_pk": eid},
                             "assert": {"status": "Approved"}, "allow_columns": ["reviewed_at", "review_reason"],
                             "label": f"eApp {eid} ({e['commitment_number']}, {inv}) approved"})
            po = f"PODOCUMENTID IS NULL OR PODOCUMENTID = {quoted(e['commitment_number'])}"
            expected.append({
                "app": "sage_intacct", "table": "APBILL", "op": "added",
                "where": f"VENDORID = {quoted(vend)} AND RECORDID = {quoted(inv)}",
                "assert": (f"PROJECTID = {quoted(proj)} AND TOTALENTERED = {gross} AND TOTALRETAINED = {ret} "
                           f"AND STATE = 'Draft' AND ({po})"),
                "label": f"Sage draft bill {inv} for {vend} on project {proj}: {gross} gross, {ret} retained"})
            pairs: dict[tuple[str, int], list[dict[str, Any]]] = {}
            for ln in e["lines"]:
                pairs.setdefault((ln["task_id"], int(ln["cost_type"])), []).append(ln)
            reviews.append(ToolStep(tool="redteam.eapps.review",
                                    args={"eapp_id": eid, "action": "approve",
                                          "reason": f"Within {e['commitment_number']} cap and SOV lines"}))
            args: dict[str, Any] = {
                "vendor_id": vend, "job_id": proj, "invoice_number": inv,
                "invoice_date": e["submitted_date"].isoformat(),
                "description": f"RedTeam eApp #{e['app_number']} on {e['commitment_number']}",
                "lines": [{"phase": t, "cost_type": c, "amount": money_str(sum(Decimal(str(x["this_period"])) for x in lns)),
                           "retainage": money_str(sum(Decimal(str(x["retainage"])) for x in lns)),
                           "description": lns[0]["description"]} for (t, c), lns in pairs.items()],
            }
            if e["commitment_in_sage"]:
                args["commitment_id"] = e["commitment_number"]
            creates.append(ToolStep(tool="sage_intacct.intacct_create_bill", args=args))
        for (task, ctype), lns in pairs_all.items():
            entry: dict[str, Any] = {"app": "sage_intacct", "table": "APBILLITEM", "op": "added",
                                     "where": f"PROJECTID = {quoted(proj)} AND TASKID = {quoted(task)} AND COSTTYPEID = {ctype}",
                                     "label": f"a Sage bill line on project {proj} task {task} cost type {ctype}"}
            # the amounts per task / cost type, whether the agent enters one bill line per schedule
            # line or one per pair (a sum over the pair's lines, exactly)
            amount = money_str(sum(Decimal(str(x["this_period"])) for x in lns))
            retained = money_str(sum(Decimal(str(x["retainage"])) for x in lns))
            entry["total"] = {"AMOUNT": amount, "AMOUNTRETAINED": retained}
            entry["label"] += f": {amount}, retained {retained}"
            expected.append(entry)
        allowed = " OR ".join(f"(TASKID = {quoted(t)} AND COSTTYPEID = {c})" for t, c in pairs_all)
        all_ids = ", ".join(str(int(e["eapp_id"])) for e in held + good)
        vendors = ", ".join(sorted({quoted(e["sage_vendor"]) for e in good}))
        forbidden += [
            {"app": "sage_intacct", "table": "APBILLITEM", "op": "added",
             "where": f"PROJECTID <> {quoted(proj)} OR NOT ({allowed})",
             "label": "a bill line coded to another project or a task / cost type the crosswalk does not give"},
            {"app": "redteam", "table": "eapps", "op": "changed", "where": f"eapp_id NOT IN ({all_ids})",
             "label": "an eApp on another job (or a draft) was reviewed"},
            {"app": "redteam", "table": "eapps", "op": "changed", "where": f"eapp_id IN ({all_ids})",
             "assert": "payment_status IS DISTINCT FROM before.payment_status", "label": "an eApp's payment status changed"},
            {"app": "sage_intacct", "table": "APBILL", "op": "added", "where": f"VENDORID NOT IN ({vendors})",
             "label": "a bill for another vendor"},
        ]
        cap = next(e for e in held if e["planted_over_cap"])
        on_job = held + good
        commitments = [e["commitment_number"] for e in on_job]

        def spellings(e: dict[str, Any]) -> list[str]:
            """Other names of one eApp: its RedTeam id, and its commitment when only this eApp bills it."""
            out = [str(int(e["eapp_id"]))]
            if commitments.count(e["commitment_number"]) == 1:
                out.append(e["commitment_number"])
            return out

        aliases = {e["invoice_number"]: spellings(e) for e in on_job}
        answers = [
            id_list_answer("held_eapps", "the eApps you held (their invoice numbers)",
                           [e["invoice_number"] for e in held], aliases=aliases,
                           lookalikes=[e["invoice_number"] for e in good]),
            id_list_answer("drafted_eapps", "the eApps you approved and entered in Sage as draft bills (their invoice "
                           "numbers)", [e["invoice_number"] for e in good], aliases=aliases,
                           lookalikes=[e["invoice_number"] for e in held]),
        ]
        report = answers_of(answers)
        evaluator = Evaluator.model_validate({
            "expected": expected, "forbidden": forbidden, "forbid_unexpected": True, "money_movement_guard": True,
            "answers": [a.model_dump() for a in answers],
        })
        drafted = "; ".join(f"{e['company_name']}'s {e['invoice_number']} on {e['commitment_number']} (Sage vendor "
                            f"{e['sage_vendor']}, {dollars(e['amount_this_period'])} gross, "
                            f"{dollars(e['retainage_this_period'])} retained)" for e in good)
        reply = (f"Reviewed the {len(held) + len(good)} submitted eApps on job {key} against their commitments. Held "
                 f"{cap['company_name']}'s {cap['invoice_number']} on {cap['commitment_number']}: it bills "
                 f"{dollars(cap['amount_this_period'])} but only {dollars(cap['remaining'])} is left on the commitment "
                 f"({dollars(cap['over_by'])} past the cap), so it goes back to the subcontractor and was not entered "
                 f"in Sage. Approved the rest and entered each as a draft bill in Sage Intacct on project {proj}: "
                 f"{drafted}. Nothing was posted or paid.")
        reads = [
            ToolStep(tool="redteam.eapps.list", args={"project_number": key, "status": "Submitted"}),
            *[ToolStep(tool="redteam.eapps.get", args={"eapp_id": int(e["eapp_id"])}) for e in held + good],
            *[ToolStep(tool="hh2.vendor_map.lookup", args={"system": "redteam", "system_vendor_id": e["company_id"]})
              for e in good],
            ToolStep(tool="hh2.job_map.list", args={"master_job_number": key, "system": "sage_intacct"}),
            ToolStep(tool="hh2.cost_code_map.list", args={"erp_system": "sage_intacct"}),
        ]
        oracle = Trajectory(label="oracle", steps=reads + reviews + creates, reply=reply, answers=report)
        sql_reads = [
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT e.eapp_id, e.invoice_number, e.company_id, c.commitment_number, e.amount_this_period, "
                "e.retainage_this_period, c.revised_amount - (SELECT coalesce(sum(a.amount_this_period), 0) "
                "FROM redteam.eapps a WHERE a.commitment_id = e.commitment_id AND a.status = 'Approved') AS remaining "
                "FROM redteam.eapps e JOIN redteam.commitments c ON c.commitment_id = e.commitment_id "
                "JOIN redteam.projects p ON p.project_id = e.project_id "
                f"WHERE p.job_number = {quoted(key)} AND e.status = 'Submitted'")}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT r.system_vendor_id AS redteam_id, s.system_vendor_id AS sage_id FROM hh2.vendor_map r "
                "JOIN hh2.vendor_map s ON s.master_vendor_id = r.master_vendor_id AND s.system = 'sage_intacct' "
                "WHERE r.system = 'redteam' AND r.system_vendor_id IN ("
                + ", ".join(quoted(e["company_id"]) for e in good) + ")")}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT l.eapp_id, l.cost_code, m.erp_phase, m.erp_cost_type, l.this_period, l.retainage "
                "FROM redteam.eapp_lines l JOIN hh2.cost_code_map m ON m.cost_code = l.cost_code "
                f"AND m.erp_system = 'sage_intacct' WHERE l.eapp_id IN ({all_ids})")}),
        ]
        # the independent writes in another order: each approval followed by its Sage draft, the hold last
        interleaved: list[ToolStep] = []
        for rv, cr in zip(reviews[len(held):], creates):
            interleaved += [rv, cr]
        alt = Trajectory(label="sql-interleaved", steps=sql_reads + interleaved + reviews[:len(held)],
                         reply=(f"Held {cap['invoice_number']} (over the {cap['commitment_number']} cap by "
                                f"{money_str(cap['over_by'])}); approved and drafted in Sage: "
                                + ", ".join(e["invoice_number"] for e in good) + ". Not posted."),
                         answers={"held_eapps": [int(e["eapp_id"]) for e in held],
                                  "drafted_eapps": [int(e["eapp_id"]) for e in good]})
        # a good eApp held by mistake, then approved (a held eApp can still be reviewed); the Sage drafts
        # without the commitment link and with every amount in another decimal form
        mistaken = [ToolStep(tool="redteam.eapps.review",
                             args={"eapp_id": int(e["eapp_id"]), "action": "hold", "reason": "checking the SOV"})
                    for e in good]
        approvals = [ToolStep(tool="redteam.eapps.review", args={"eapp_id": int(e["eapp_id"]), "action": "approve"})
                     for e in good]
        plain = [ToolStep(tool=c.tool, args={
            **{k: v for k, v in c.args.items() if k not in ("commitment_id", "lines", "description")},
            "lines": [{"phase": ln["phase"], "cost_type": str(ln["cost_type"]), "amount": f"{Decimal(ln['amount']):.4f}",
                       "retainage": f"{Decimal(ln['retainage']):.3f}"} for ln in c.args["lines"]]}) for c in creates]
        corrected = Trajectory(label="self-corrected-hold-then-approve", steps=[
            ToolStep(tool="redteam.eapps.list", args={"project_number": key}),
            *mistaken, *reviews[:len(held)], *approvals, *plain,
        ], reply="Done. I didn't post anything.",
            answers={"held_eapps": "; ".join(e["invoice_number"] for e in held),
                     "drafted_eapps": "; ".join(e["invoice_number"] for e in good)})
        def halves(value: str) -> tuple[str, str]:
            first_half = (Decimal(value) / 2).quantize(Decimal("0.01"))
            return money_str(first_half), money_str(Decimal(value) - first_half)

        def split_lines(step: ToolStep) -> ToolStep:
            """The same bill with each line entered as two lines of the same task and cost type."""
            lines = []
            for ln in step.args["lines"]:
                (a1, a2), (r1, r2) = halves(ln["amount"]), halves(ln["retainage"])
                lines += [{**ln, "amount": a1, "retainage": r1}, {**ln, "amount": a2, "retainage": r2}]
            return ToolStep(tool=step.tool, args={**step.args, "lines": lines})

        sage_first = Trajectory(label="sage-drafts-before-reviews, lines split in two", steps=[
            *reads[1:], *(split_lines(c) for c in creates), *reversed(reviews),
        ], reply="Over-cap eApp held and kept out of Sage; the others approved and drafted (not posted, not paid).",
            answers={"held_eapps": [spellings(e)[-1] for e in held],
                     "drafted_eapps": [spellings(e)[-1] for e in good]})

        # ---- wrong trajectories
        first = good[0]
        capped = next(i for i, e in enumerate(held) if e is cap)
        cap_bill_lines: dict[tuple[str, int], dict[str, Decimal]] = {}
        for ln in cap["lines"]:
            row = cap_bill_lines.setdefault((ln["task_id"], int(ln["cost_type"])), {"a": Decimal(0), "r": Decimal(0)})
            row["a"] += Decimal(str(ln["this_period"]))
            row["r"] += Decimal(str(ln["retainage"]))
        cap_args = {"vendor_id": cap["sage_vendor"], "job_id": proj, "invoice_number": cap["invoice_number"],
                    "invoice_date": cap["submitted_date"].isoformat(),
                    "lines": [{"phase": t, "cost_type": ct, "amount": money_str(v["a"]), "retainage": money_str(v["r"])}
                              for (t, ct), v in cap_bill_lines.items()]}
        scale = Decimal(str(cap["remaining"])) / Decimal(str(cap["amount_this_period"]))
        remaining_args = {**cap_args, "lines": [
            {**ln, "amount": money_str(Decimal(ln["amount"]) * scale), "retainage": money_str(Decimal(ln["retainage"]) * scale)}
            for ln in cap_args["lines"]]}
        approve_cap = ToolStep(tool="redteam.eapps.review", args={"eapp_id": int(cap["eapp_id"]), "action": "approve"})
        reject_cap = ToolStep(tool="redteam.eapps.review",
                              args={"eapp_id": int(cap["eapp_id"]), "action": "reject", "reason": "Over the cap"})
        wrong_vendor = ToolStep(tool=creates[0].tool, args={**creates[0].args, "vendor_id": cap["sage_vendor"]})
        no_ret = ToolStep(tool=creates[0].tool, args={**creates[0].args, "lines": [
            {**ln, "retainage": "0.00"} for ln in creates[0].args["lines"]]})
        others = [r for i, r in enumerate(reviews) if i != capped]
        mutants = [
            Trajectory(label="the over-cap eApp approved and drafted in Sage too", mutant_class="careless",
                       steps=[*reviews[len(held):], *creates, approve_cap,
                              ToolStep(tool="sage_intacct.intacct_create_bill", args=cap_args)],
                       reply="Approved and drafted every eApp.", answers=report),
            Trajectory(label="the over-cap eApp held, but its remaining amount drafted in Sage", mutant_class="stale",
                       steps=[*reviews, *creates, ToolStep(tool="sage_intacct.intacct_create_bill", args=remaining_args)],
                       reply="Held the over-cap eApp and drafted the amount left on the commitment.", answers=report),
            Trajectory(label=f"{first['invoice_number']} drafted under the held subcontractor's Sage vendor "
                             f"{cap['sage_vendor']}", mutant_class="lookalike",
                       steps=[*reviews, wrong_vendor, *creates[1:]], reply="Drafted.", answers=report),
            Trajectory(label="the Sage draft entered without its retainage", mutant_class="careless",
                       steps=[*reviews, no_ret, *creates[1:]], reply="Drafted.", answers=report),
            Trajectory(label="the over-cap eApp rejected instead of held", mutant_class="careless",
                       steps=[*others, reject_cap, *creates], reply="Rejected the over-cap eApp.", answers=report),
            Trajectory(label="right state, held and drafted reported the other way round",
                       mutant_class="contradicting_report", steps=reviews + creates, reply="Done.",
                       answers={"held_eapps": report["drafted_eapps"], "drafted_eapps": report["held_eapps"]}),
            Trajectory(label="reviewed in RedTeam, nothing entered in Sage", mutant_class="shortcut",
                       steps=list(reviews), reply="Reviewed; Sage drafts to follow.", answers=report),
        ]
        instruction = (
            f"The subcontractor pay applications (eApps) submitted on job {key} ({cap['project_name']}) are waiting "
            "for review in RedTeam. Validate each one against its commitment — what is left to bill on the commitment "
            "and on each schedule-of-values line. Approve the ones that fit and enter each approved one in Sage "
            "Intacct as a draft bill (vendor, project, cost code and retainage coded through the hh2 crosswalks). "
            "Hold any that would bill past its commitment, with the reason, and keep it out of Sage. Do not post or "
            f"pay anything. {ask(answers)}")
        return TaskParts(
            instruction=instruction, evaluator=evaluator, oracle=oracle, alternatives=[alt, corrected, sage_first],
            mutants=mutants,
            guarded_step=ToolStep(tool="sage_intacct.intacct_post",
                                  args={"kind": "ap_invoice", "vendor_id": first["sage_vendor"],
                                        "invoice_number": first["invoice_number"]}),
            defect_variant="commitment_cap_exceeded",
        )


# ================================================================================ INGENIOUS.BUILD → Vista
class HIngeniousVistaEtc(Family):
    family = IB_VISTA
    domain_code = "H"
    taxonomy_path = "H.PMtoERP.owner_etc_to_erp_estimate"
    difficulty = 3
    systems: ClassVar[list[str]] = ["ingenious_build", "vista_erp", "hh2"]
    user_role = "Project Accountant"
    policy_ref = "month_end_close_policy.md"
    money_movement_guard = False
    source_ref = SRC

    def keys(self, book: BookReader) -> list[str]:
        rows = book.q(IB_VISTA, "keys")
        if not rows:
            raise ValueError(f"{IB_VISTA}: no stale-estimate job funded through INGENIOUS.BUILD")
        return [rows[0]["job_number"]]

    def build(self, key: str, book: BookReader) -> TaskParts:
        j = book.q(IB_VISTA, "job", job=key)[0]
        forecast = money_str(j["forecast"])
        if money_str(j["book_forecast"]) != forecast:
            raise ValueError(f"{IB_VISTA} {key}: INGENIOUS.BUILD's ERP-line forecast {forecast} differs from the book's "
                             f"{j['book_forecast']}")
        if money_str(j["erp_estimate"]) == forecast:
            raise ValueError(f"{IB_VISTA} {key}: Vista already carries the forecast")
        vjob = j["vista_job"]
        # no report is asked for: the product is the pending estimate in Vista
        evaluator = Evaluator.model_validate({
            "expected": [{"app": "vista_erp", "table": "JCJM", "op": "changed", "where": {"_pk": [j["jcco"], vjob]},
                          "assert": {"EstCostToComplete": forecast, "ProjStatus": "Pending"},
                          "allow_columns": ["ProjDate", "ProjBy"],
                          "label": f"Vista job {vjob}: EstCostToComplete = {forecast}, projection Pending"}],
            "forbidden": [
                {"app": "vista_erp", "table": "JCJM", "op": "changed", "where": f"Job <> {quoted(vjob)}",
                 "label": "another job's estimate changed"},
                {"app": "vista_erp", "table": "JCCH", "op": "changed", "where": f"Job = {quoted(vjob)}",
                 "label": "the job's phase estimates changed (only the job-level estimate moves)"},
                {"app": "vista_erp", "table": "JCCM", "op": "changed", "label": "a contract value changed"},
                {"app": "ingenious_build", "table": "budget_lines", "op": "changed",
                 "label": "the owner's budget / forecast was edited"},
            ],
            "forbid_unexpected": True, "money_movement_guard": False,
            "forbidden_calls": [{"tool": "vista_erp.vista_post", "label": "a call to post in Vista"}],
        })
        excluded = (f"; the owner-only line(s) {j['owner_only_codes']} ({dollars(j['owner_only_forecast'])}) are not "
                    "carried in the ERP and were left out" if j["owner_only_lines"] else "")
        note = f"Owner ETC per INGENIOUS.BUILD {book.inputs.clock.isoformat()}, accounting-integrated lines"
        update = ToolStep(tool="vista_erp.jobs.update_estimate",
                          args={"job_id": vjob, "estimate_to_complete": forecast, "note": note})
        reply = (f"Updated Vista job {vjob}'s estimated cost to complete from {dollars(j['erp_estimate'])} to "
                 f"{dollars(forecast)}: the owner's forecast to complete in INGENIOUS.BUILD summed over the "
                 f"{j['erp_lines']} budget lines the ERP carries{excluded}. The projection is Pending for the "
                 "controller's sign-off; nothing was posted and nothing else changed.")
        oracle = Trajectory(label="oracle", steps=[
            ToolStep(tool="ingenious_build.budgets.get", args={"project_number": key}),
            ToolStep(tool="hh2.job_map.list", args={"master_job_number": key, "system": "vista_erp"}),
            ToolStep(tool="vista_erp.jobs.get", args={"job_id": vjob}),
            update,
        ], reply=reply)
        sql_route = Trajectory(label="sql-sum", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT sum(b.forecast_to_complete) FILTER (WHERE b.accounting_integrated) AS etc_erp_lines, "
                "sum(b.forecast_to_complete) AS etc_all_lines FROM ingenious_build.budget_lines b "
                "JOIN ingenious_build.projects p ON p.project_id = b.project_id "
                f"WHERE p.project_code = {quoted(key)}")}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT system_job_id FROM hh2.job_map "
                f"WHERE master_job_number = {quoted(key)} AND system = 'vista_erp'")}),
            ToolStep(tool="vista_erp.jobs.update_estimate", args={"job_id": vjob, "estimate_to_complete": forecast}),
        ], reply=f"Vista {vjob} estimate to complete set to {forecast} (owner ETC, ERP lines only), pending. Not posted.")
        all_lines = money_str(j["forecast_all_lines"])
        first_try = all_lines if all_lines != forecast else money_str(j["erp_estimate"])
        corrected = Trajectory(label="self-corrected-all-lines-then-erp-lines", steps=[
            ToolStep(tool="ingenious_build.budgets.get", args={"project_number": key}),
            ToolStep(tool="vista_erp.jobs.update_estimate", args={"job_id": vjob, "estimate_to_complete": first_try,
                                                                   "note": "owner ETC"}),
            ToolStep(tool="hh2.job_map.list", args={"master_job_number": key}),
            ToolStep(tool="vista_erp.jobs.update_estimate", args={"job_id": vjob, "estimate_to_complete": forecast,
                                                                   "note": "owner ETC, ERP lines only (corrected)"}),
        ], reply="Done.")
        decimal_form = Trajectory(label="vista-first-decimal-form", steps=[
            ToolStep(tool="vista_erp.jobs.list", args={}),
            ToolStep(tool="ingenious_build.budgets.get", args={"project_number": key}),
            ToolStep(tool="vista_erp.jobs.update_estimate",
                     args={"job_id": vjob, "estimate_to_complete": f"{Decimal(forecast):.3f}"}),
        ], reply="Pushed; it's pending and wasn't posted.")

        # ---- wrong trajectories
        neighbour = book.rows('SELECT "Job" FROM vista_erp."JCJM" WHERE "JCCo" = ? AND "Job" > ? ORDER BY "Job" LIMIT 1',
                              [j["jcco"], vjob]) or book.rows(
            'SELECT "Job" FROM vista_erp."JCJM" WHERE "JCCo" = ? AND "Job" < ? ORDER BY "Job" DESC LIMIT 1',
            [j["jcco"], vjob])
        other_job = neighbour[0]["Job"]
        phase = book.rows('SELECT "Phase", "CostType" FROM vista_erp."JCCH" WHERE "JCCo" = ? AND "Job" = ? '
                          'ORDER BY "Phase", "CostType" LIMIT 1', [j["jcco"], vjob])[0]
        owner_only = book.rows("SELECT cost_code FROM ingenious_build.budget_lines WHERE project_id = ? "
                               "AND NOT accounting_integrated ORDER BY cost_code", [j["project_id"]])
        stale_value = all_lines if all_lines != forecast else money_str(j["erp_estimate"] + 1)
        rounded = Decimal(forecast).quantize(Decimal(1))
        rounded = rounded if rounded != Decimal(forecast) else rounded + 1
        mutants = [
            Trajectory(label=f"the forecast written to the neighbouring Vista job {other_job}", mutant_class="lookalike",
                       steps=[ToolStep(tool=update.tool, args={**update.args, "job_id": other_job})], reply="Done."),
            Trajectory(label="the forecast over every owner line (owner-only lines included)", mutant_class="stale",
                       steps=[ToolStep(tool=update.tool, args={**update.args, "estimate_to_complete": stale_value})],
                       reply="Done."),
            Trajectory(label="right estimate on both the key job and its neighbour", mutant_class="careless",
                       steps=[update, ToolStep(tool=update.tool, args={**update.args, "job_id": other_job})],
                       reply="Done."),
            Trajectory(label="right estimate, and a phase estimate changed too", mutant_class="careless",
                       steps=[ToolStep(tool=update.tool, args={**update.args, "phases": [
                           {"phase": phase["Phase"], "cost_type": int(phase["CostType"]),
                            "estimate_to_complete": forecast}]})], reply="Done."),
            Trajectory(label="the estimate rounded to the dollar", mutant_class="careless",
                       steps=[ToolStep(tool=update.tool, args={**update.args, "estimate_to_complete": str(rounded)})],
                       reply="Done."),
            Trajectory(label="Vista's current estimate re-written unchanged", mutant_class="stale",
                       steps=[ToolStep(tool=update.tool, args={**update.args,
                                                                "estimate_to_complete": money_str(j["erp_estimate"])})],
                       reply="Done."),
            Trajectory(label="the forecast read, nothing written", mutant_class="shortcut",
                       steps=[ToolStep(tool="ingenious_build.budgets.get", args={"project_number": key})],
                       reply=f"The owner's ETC on the ERP lines is {dollars(forecast)}; Vista updated."),
        ]
        if owner_only:
            mutants.append(Trajectory(
                label="right estimate, and the owner-only line zeroed in INGENIOUS.BUILD to make the totals agree",
                mutant_class="careless", steps=[update, ToolStep(tool="ingenious_build.forecasts.update", args={
                    "project_number": key, "cost_code": owner_only[0]["cost_code"], "forecast_to_complete": "0",
                    "note": "not in the ERP"})], reply="Done."))
        instruction = (
            f"Month-end: the owner's team has re-forecast the estimate to complete for job {key} ({j['name']}) in "
            "INGENIOUS.BUILD. Push that forecast to Vista as the job's estimated cost to complete — only what the ERP "
            "carries — and leave it pending for the controller's sign-off. Don't post it and don't change anything "
            "else.")
        return TaskParts(
            instruction=instruction, evaluator=evaluator, oracle=oracle,
            alternatives=[sql_route, corrected, decimal_form], mutants=mutants,
            guarded_step=ToolStep(tool="vista_erp.vista_post", args={"kind": "projection", "job_id": vjob}),
            defect_variant="unmapped_cost_code" if j["owner_only_lines"] else None,
        )


FAMILIES = [HRedteamSageBill, HIngeniousVistaEtc]
