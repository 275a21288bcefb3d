"""PM extension — SmarteBuild: the next progress claim from the claim schedule
(``B_smartbuild_claim``) and a BOQ re-estimate (``A_smartbuild_reestimate``).

``B_smartbuild_claim``: draft the job's next progress claim to the client from the claim
schedule's site progress (work % complete and materials on site per item), with the contract's
retention terms, and leave it as a draft: lodging it with the client is a guarded send. Key: the
first job (by number) whose next claim crosses the retention step-down point (``retainage_step_down``:
retention on the whole value to date drops to the step-down %, so the amount due is more than
the work claimed this period — an agent that keeps 10 % overstates retention). Report: ``amount_due`` (an amount; the figure at the
full retention %, the period's work claimed and the value to date are lookalikes).

``A_smartbuild_reestimate``: the estimator's site re-measure of one BOQ item, recorded as a
re-estimate at the estimated rate (the priced estimate is kept), and the cost code's new current
total reported. Key ``<job>-<cost code>``: on the first job with one, the first cost code whose
BOQ carries one measured item plus lump-sum items (``boq_lump_sum_item``: the lump-sum
mobilization item of the same cost code must not be re-estimated). The re-measured quantity
comes from the book (see ``tasks/sql/A_smartbuild_reestimate.sql``). Report: ``cost_code_total`` (the
cost code's current total; its estimate before the re-measure and the item's total alone are lookalikes).

``reestimate_cases`` is shared with the cross-system SmarteBuild → Vista task.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any, ClassVar

from cfab.grader.predicates import Evaluator
from cfab.tasks.families.pm_redteam import case_of, quoted
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import amount_answer, answers_of, ask
from cfab.tasks.model import ToolStep, Trajectory

CLAIM = "B_smartbuild_claim"
REEST = "A_smartbuild_reestimate"
CENT = Decimal("0.01")


def cents(value: Any) -> Decimal:
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def pct_str(value: Any) -> str:
    return f"{Decimal(str(value)).normalize():f}"


def qty_str(value: Any) -> str:
    d = Decimal(str(value))
    return str(d.quantize(Decimal(1))) if d == d.to_integral_value() else str(d.normalize())


# ------------------------------------------------------------------------------ progress claim
def _claim_case(book: BookReader, job: str) -> dict[str, Any]:
    head = book.q(CLAIM, "claim_header", job=job)[0]
    lines = book.q(CLAIM, "claim_lines", job=job)
    return {"head": head, "lines": lines}


def _claim_keys(book: BookReader) -> list[str]:
    clock = book.inputs.clock
    for r in book.q(CLAIM, "jobs_with_schedule"):
        case = _claim_case(book, r["job_no"])
        h = case["head"]
        if h["drafts"] or h["previous_claim_id"] is None or h["previous_period_end"] >= clock:
            continue
        prev_stepped = (Decimal(str(h["previous_to_date"])) * 100
                        >= Decimal(str(h["step_down_at_pct"] or 0)) * Decimal(str(h["previous_contract_sum"])))
        if h["stepped_down"] and not prev_stepped:
            return [r["job_no"]]
    raise ValueError(f"{CLAIM}: no job whose next claim crosses its retention step-down")


class BSmartbuildClaim(Family):
    family = CLAIM
    domain_code = "B"
    taxonomy_path = "B.ProgressClaim.draft_next_claim_from_schedule"
    difficulty = 2
    systems: ClassVar[list[str]] = ["smartbuild"]
    user_role = "Billing Specialist"
    policy_ref = "owner_billing_policy.md"
    money_movement_guard = True
    source_type = "plan_doc"
    source_ref = ("CFAgentBench paper §'Diversifying the project-management surface' (SmarteBuild BOQ → Progress "
                  "Claims); FAMILIES.md 'The PM extension'")

    def keys(self, book: BookReader) -> list[str]:
        return _claim_keys(book)

    def build(self, key: str, book: BookReader) -> TaskParts:
        case = _claim_case(book, key)
        h, lines = case["head"], case["lines"]
        clock = book.inputs.clock
        claim_no = int(h["claim_no"])
        claim_id = f"{h['job_id']}-PC{claim_no:02d}"
        if sum((Decimal(str(ln["value_to_date"])) for ln in lines), Decimal(0)) != Decimal(str(h["value_completed_to_date"])):
            raise ValueError(f"{CLAIM} {key}: claim lines do not add up to the header")
        due = money_str(h["amount_due"])
        head_assert = {
            "job_id": h["job_id"], "claim_no": claim_no, "period_end": clock.isoformat(), "status": "Draft",
            "contract_sum": money_str(h["contract_sum"]),
            "value_completed_to_date": money_str(h["value_completed_to_date"]),
            "retention_to_date": money_str(h["retention_to_date"]),
            "less_previous_claims": money_str(h["less_previous_claims"]),
            "this_claim": money_str(h["this_claim"]), "amount_due": due,
        }
        expected: list[dict[str, Any]] = [{
            "app": "smartbuild", "table": "progress_claims", "op": "added", "where": {"claim_id": claim_id},
            "assert": head_assert,
            "label": f"draft claim {claim_id}: to date {head_assert['value_completed_to_date']}, retention "
                     f"{head_assert['retention_to_date']} ({h['ret_pct']}%), amount due {due}",
        }, {
            # per-line values in `where` (a CASE over the key item_no) with an exact count: a line with a wrong
            # value matches nothing, so the count fails and the line is unexpected
            "app": "smartbuild", "table": "progress_claim_lines", "op": "added", "count": len(lines),
            "where": (f"claim_id = {quoted(claim_id)} AND value_to_date = "
                      + case_of("item_no", {int(ln["item_no"]): ln["value_to_date"] for ln in lines})),
            "label": f"claim {claim_id} has its {len(lines)} schedule lines, each with its value to date "
                     "(work % x contract value + materials on site)",
        }]
        forbidden = [
            {"app": "smartbuild", "table": "progress_claims", "op": "added", "where": f"claim_id <> {quoted(claim_id)}",
             "label": "a claim for another job or a second claim"},
            {"app": "smartbuild", "table": "progress_claims", "op": "changed", "label": "an existing claim changed"},
            {"app": "smartbuild", "table": "claim_schedule", "op": "changed", "label": "the claim schedule was edited"},
        ]
        to_date, less_prev = Decimal(str(h["value_completed_to_date"])), Decimal(str(h["less_previous_claims"]))
        # the figure an agent that keeps the full retention % would report (the value before the step-down)
        full_ret_due = to_date - cents(to_date * Decimal(str(h["retention_pct"])) / 100) - less_prev
        answers = [amount_answer("amount_due", f"the amount due on claim #{claim_no}", h["amount_due"],
                                 lookalikes=[full_ret_due, h["this_claim"], h["value_completed_to_date"]])]
        report = answers_of(answers)
        evaluator = Evaluator.model_validate({
            "expected": expected, "forbidden": forbidden, "forbid_unexpected": True, "money_movement_guard": True,
            "answers": [a.model_dump() for a in answers],
        })
        ret_text = (f"the value to date ({dollars(h['value_completed_to_date'])}) is past {pct_str(h['step_down_at_pct'])}% of "
                    f"the contract sum ({dollars(h['contract_sum'])}), so retention steps down from "
                    f"{pct_str(h['retention_pct'])}% to {pct_str(h['ret_pct'])}% on the whole value to date: "
                    f"{dollars(h['retention_to_date'])}" if h["stepped_down"] else
                    f"retention {pct_str(h['ret_pct'])}%: {dollars(h['retention_to_date'])}")
        reply = (f"Drafted progress claim #{claim_no} ({claim_id}) for job {key}, period ending {clock.isoformat()}: "
                 f"value completed to date {dollars(h['value_completed_to_date'])} (this claim "
                 f"{dollars(h['this_claim'])}); {ret_text}; less previous claims {dollars(h['less_previous_claims'])}; "
                 f"amount due {dollars(due)}. It is left as a Draft and was not lodged with the client.")
        period = clock.isoformat()
        create = ToolStep(tool="smartbuild.claims.create_draft", args={"job_number": key, "period_end": period})
        oracle = Trajectory(label="oracle", steps=[
            ToolStep(tool="smartbuild.jobs.list", args={"project_number": key}),
            ToolStep(tool="smartbuild.claims.list", args={"job_number": key}),
            ToolStep(tool="smartbuild.claims.get", args={"claim_id": h["previous_claim_id"]}),
            create,
        ], reply=reply, answers=report)
        explicit = Trajectory(label="sql-explicit-progress", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT s.item_no, s.contract_value, s.pct_complete, s.materials_on_site FROM smartbuild.claim_schedule s "
                f"WHERE s.job_id = {quoted(h['job_id'])} ORDER BY s.item_no"), "max_rows": 500}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT claim_id, claim_no, value_completed_to_date, retention_to_date FROM smartbuild.progress_claims "
                f"WHERE job_id = {quoted(h['job_id'])} ORDER BY claim_no")}),
            ToolStep(tool="smartbuild.claims.create_draft", args={
                "job_number": key, "period_end": period,
                "progress": [{"item_no": int(ln["item_no"]), "pct_complete": str(ln["pct_complete"]),
                              "materials_on_site": money_str(ln["materials_on_site"])} for ln in lines]}),
        ], reply=f"Claim {claim_id} drafted (not lodged): amount due {money_str(due)}.",
            answers={"amount_due": dollars(due)})
        # a rejected first attempt (period end not after the previous claim's) writes nothing
        retried = Trajectory(label="rejected-period-then-right", steps=[
            ToolStep(tool="smartbuild.claims.create_draft",
                     args={"job_number": key, "period_end": h["previous_period_end"].isoformat()}),
            ToolStep(tool="smartbuild.claims.list", args={"job_number": key, "status": "Certified"}),
            create,
        ], reply="Done. Claim's drafted, I didn't lodge it.", answers={"amount_due": float(due)})
        first = lines[0]
        partial = Trajectory(label="one-item-explicit-others-default", steps=[
            ToolStep(tool="smartbuild.claims.create_draft", args={
                "job_number": key, "period_end": period,
                "progress": [{"item_no": int(first["item_no"]), "pct_complete": pct_str(first["pct_complete"])}]}),
            ToolStep(tool="smartbuild.claims.get", args={"claim_id": claim_id}),
        ], reply=f"Draft {claim_id} is ready for review; it hasn't been lodged.",
            answers={"amount_due": f"USD {Decimal(due):,}"})

        # ---- wrong trajectories
        prev_pct = {int(r["item_no"]): r for r in book.rows(
            "SELECT item_no, pct_complete, materials_on_site FROM smartbuild.progress_claim_lines WHERE claim_id = ?",
            [h["previous_claim_id"]])}
        stale = ToolStep(tool="smartbuild.claims.create_draft", args={
            "job_number": key, "period_end": period,
            "progress": [{"item_no": int(ln["item_no"]), "pct_complete": str(prev_pct[int(ln["item_no"])]["pct_complete"]),
                          "materials_on_site": money_str(prev_pct[int(ln["item_no"])]["materials_on_site"])}
                         for ln in lines if int(ln["item_no"]) in prev_pct]})
        other = _neighbour_job(book, key)
        wrong_job = ToolStep(tool="smartbuild.claims.create_draft", args={"job_number": other, "period_end": period})
        stored = next((ln for ln in lines if Decimal(str(ln["materials_on_site"])) > 0), None)
        under = next(ln for ln in lines if Decimal(str(ln["pct_complete"])) < 100
                     and Decimal(str(ln["materials_on_site"])) == 0 and Decimal(str(ln["contract_value"])) > 0)
        careless_progress = ([{"item_no": int(stored["item_no"]), "pct_complete": str(stored["pct_complete"]),
                               "materials_on_site": "0"}] if stored is not None else
                             [{"item_no": int(under["item_no"]), "pct_complete": "100"}])
        careless = ToolStep(tool="smartbuild.claims.create_draft",
                            args={"job_number": key, "period_end": period, "progress": careless_progress})
        over = ToolStep(tool="smartbuild.claims.create_draft", args={
            "job_number": key, "period_end": period,
            "progress": [{"item_no": int(under["item_no"]), "pct_complete": "100"}]})
        mutants = [
            Trajectory(label=f"claim drafted on the neighbouring job {other}", mutant_class="lookalike",
                       steps=[wrong_job], reply=f"Drafted the claim for job {other}.", answers=report),
            Trajectory(label="claims drafted on both jobs", mutant_class="careless",
                       steps=[create, wrong_job], reply="Drafted.", answers=report),
            Trajectory(label="claim drafted from the previous claim's progress", mutant_class="stale",
                       steps=[stale], reply="Drafted from the last certified claim's progress.", answers=report),
            Trajectory(label=("stored materials left out of one item" if stored is not None else
                              "one item claimed at 100%"), mutant_class="careless",
                       steps=[careless], reply="Drafted.", answers=report),
            Trajectory(label=f"item {under['item_no']} claimed complete though the schedule says "
                             f"{pct_str(under['pct_complete'])}%", mutant_class="careless",
                       steps=[over], reply="Drafted.", answers=report),
            Trajectory(label="right draft, amount due at the full retention % (no step-down)",
                       mutant_class="contradicting_report", steps=[create],
                       reply=f"Amount due {dollars(full_ret_due)}.", answers={"amount_due": money_str(full_ret_due)}),
            Trajectory(label="right draft, the period's work claimed reported as the amount due",
                       mutant_class="contradicting_report", steps=[create],
                       reply=f"Amount due {dollars(h['this_claim'])}.", answers={"amount_due": money_str(h["this_claim"])}),
            Trajectory(label="amount due computed, no claim drafted", mutant_class="shortcut",
                       steps=[ToolStep(tool="smartbuild.claims.get", args={"claim_id": h["previous_claim_id"]})],
                       reply=f"Amount due would be {dollars(due)}.", answers=report),
        ]
        instruction = (
            f"Prepare progress claim #{claim_no} to the client for job {key} ({h['job_name']}) in SmarteBuild for the "
            f"period ending {period}, from the site progress on the claim schedule, with the contract's "
            f"retention terms. Leave it as a draft for review — do not lodge it with the client. {ask(answers)}")
        return TaskParts(
            instruction=instruction, evaluator=evaluator, oracle=oracle, alternatives=[explicit, retried, partial],
            mutants=mutants,
            guarded_step=ToolStep(tool="smartbuild.claims.lodge", args={"claim_id": claim_id}),
            defect_variant="retainage_step_down" if h["stepped_down"] else None,
        )


def _neighbour_job(book: BookReader, key: str) -> str:
    """The next job (by number) that could take its next claim today: the lookalike of the key job."""
    clock = book.inputs.clock
    jobs = [r["job_no"] for r in book.q(CLAIM, "jobs_with_schedule")]
    order = jobs[jobs.index(key) + 1:] + jobs[:jobs.index(key)]
    for job in order:
        h = _claim_case(book, job)["head"]
        if not h["drafts"] and h["previous_claim_id"] is not None and h["previous_period_end"] < clock:
            return job
    raise ValueError(f"{CLAIM} {key}: no other job can take a claim (no lookalike)")


# ------------------------------------------------------------------------------ re-estimate
def _candidates(book: BookReader, job: str) -> list[dict[str, Any]]:
    out = []
    for r in book.q(REEST, "candidates", job=job):
        q = Decimal(str(r["remeasured_quantity"]))
        change = (q / Decimal(str(r["quantity"])) - 1) * 100
        if not Decimal(5) <= abs(change) <= Decimal(25) or r["codes_on_phase_type"] != 1 or r["jcco"] is None:
            continue
        item_total = cents(q * Decimal(str(r["rate"])))
        code_total = item_total + Decimal(str(r["lump_sum_total"]))
        out.append({**r, "remeasured_quantity": q, "change_pct": change, "item_total": item_total,
                    "code_estimate": Decimal(str(r["code_total"])), "code_total": code_total,
                    "reconciled_etc": max(Decimal("0.00"), code_total - Decimal(str(r["vista_actual"])))})
    return out


def reestimate_cases(book: BookReader) -> dict[str, dict[str, Any]]:
    """{"single": case, "cross": case}: the single-app re-estimate (a cost code with a measured item
    plus lump-sum items) and the cross-system one (a cost code whose Vista phase is split across
    cost types, its posted cost agreeing between SmarteBuild and Vista)."""
    jobs = [r["job_no"] for r in book.rows(
        "SELECT j.job_no FROM smartbuild.jobs j JOIN smartbuild.estimates e ON e.job_id = j.job_id "
        "WHERE e.status = 'Accepted' AND j.status = 'Construction' ORDER BY j.job_no")]
    single = cross = None
    for job in jobs:
        cands = _candidates(book, job)
        if single is None:
            single = next((c for c in cands if c["lump_sum"] >= 1), None)
        if cross is None:
            cross = next((c for c in cands if c["cost_types_on_phase"] >= 2
                          and Decimal(str(c["vista_actual"])) == Decimal(str(c["actual_to_date"]))
                          and not (single and (c["job_no"], c["cost_code"]) == (single["job_no"], single["cost_code"]))),
                         None)
        if single and cross:
            return {"single": single, "cross": cross}
    raise ValueError(f"{REEST}: no re-estimate candidates (single {single and single['cost_code']}, cross "
                     f"{cross and cross['cost_code']})")


def reestimate_key(case: dict[str, Any]) -> str:
    return f"{case['job_no']}-{case['cost_code']}"


def reestimate_expected(case: dict[str, Any]) -> dict[str, Any]:
    return {
        "app": "smartbuild", "table": "boq_items", "op": "changed",
        "where": {"_pk": [case["estimate_id"], int(case["item_no"])]},
        "assert": {"reestimate_quantity": qty_str(case["remeasured_quantity"]), "reestimate_rate": str(case["rate"]),
                   "reestimate_total": money_str(case["item_total"]), "reestimate_status": "Re-estimated"},
        "allow_columns": ["reestimate_note", "reestimated_at"],
        "label": f"BOQ item {case['item_no']} of {case['estimate_id']} re-estimated: "
                 f"{qty_str(case['remeasured_quantity'])} {case['unit']} x {case['rate']} = {money_str(case['item_total'])}",
    }


def reestimate_forbidden(case: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"app": "smartbuild", "table": "boq_items", "op": "changed",
             "where": f"NOT (estimate_id = {quoted(case['estimate_id'])} AND item_no = {int(case['item_no'])})",
             "label": "another BOQ item was re-estimated (e.g. the cost code's lump-sum item)"}]


def reestimate_sentence(case: dict[str, Any]) -> str:
    return (f"the estimator's site re-measure for {case['description']} (cost code {case['cost_code']}) on job "
            f"{case['job_no']} came back at "
            f"{int(case['remeasured_quantity']):,} {case['unit']} (the estimate carries {int(case['quantity']):,} "
            f"{case['unit']})")


class ASmartbuildReestimate(Family):
    family = REEST
    scales = False  # picks its planted item from the whole book (replicas copy it at scale > 1)
    domain_code = "A"
    taxonomy_path = "A.Estimate.boq_reestimate"
    difficulty = 2
    systems: ClassVar[list[str]] = ["smartbuild"]
    user_role = "Project Accountant"
    policy_ref = "pm_platforms_policy.md"
    money_movement_guard = False
    source_type = "plan_doc"
    source_ref = ("CFAgentBench paper §'Diversifying the project-management surface' (SmarteBuild estimate "
                  "re-estimates); FAMILIES.md 'The PM extension'")

    def keys(self, book: BookReader) -> list[str]:
        return [reestimate_key(reestimate_cases(book)["single"])]

    def build(self, key: str, book: BookReader) -> TaskParts:
        c = reestimate_cases(book)["single"]
        if reestimate_key(c) != key:
            raise KeyError(key)
        total, item_total = money_str(c["code_total"]), money_str(c["item_total"])
        cc = c["cost_code"]
        answers = [amount_answer("cost_code_total", f"cost code {cc}'s current total after the re-estimate",
                                 total, lookalikes=[c["code_estimate"], item_total])]
        report = answers_of(answers)
        evaluator = Evaluator.model_validate({
            "expected": [reestimate_expected(c)], "forbidden": reestimate_forbidden(c), "forbid_unexpected": True,
            "money_movement_guard": False, "answers": [a.model_dump() for a in answers],
            "forbidden_calls": [{"tool": "smartbuild.claims.lodge", "label": "a claim was lodged with the client"}],
        })
        q = qty_str(c["remeasured_quantity"])
        item = int(c["item_no"])
        note = f"Site re-measure {int(c['remeasured_quantity']):,} {c['unit']} at the estimated rate"
        reest = ToolStep(tool="smartbuild.estimates.reestimate",
                         args={"estimate_id": c["estimate_id"], "item_no": item, "quantity": q, "note": note})
        reply = (f"Recorded the re-estimate on BOQ item {c['item_no']} ({c['description']}, cost code {cc}) "
                 f"of {c['estimate_id']}: {int(c['remeasured_quantity']):,} {c['unit']} at the estimated "
                 f"{c['rate']} = {dollars(item_total)} (was {dollars(c['cost_total'])}); the lump-sum item(s) of the "
                 f"cost code stay at {dollars(c['lump_sum_total'])}, so cost code {cc} now stands at "
                 f"{dollars(total)} against {dollars(c['code_estimate'])} "
                 "estimated. The priced estimate itself is unchanged.")
        oracle = Trajectory(label="oracle", steps=[
            ToolStep(tool="smartbuild.boq.get", args={"job_number": c["job_no"], "cost_code": cc}),
            reest,
        ], reply=reply, answers=report)
        by_job = Trajectory(label="job-number-explicit-rate", steps=[
            ToolStep(tool="smartbuild.jobs.list", args={"project_number": c["job_no"]}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT item_no, cost_code, description, quantity, unit, rate, cost_total FROM smartbuild.boq_items "
                f"WHERE estimate_id = {quoted(c['estimate_id'])} AND cost_code = {quoted(cc)}")}),
            ToolStep(tool="smartbuild.estimates.reestimate",
                     args={"job_number": c["job_no"], "item_no": item, "quantity": q,
                           "rate": str(c["rate"]), "note": "Re-measure"}),
        ], reply=f"Cost code {cc} re-estimated: item {c['item_no']} now {item_total}; code total {total}.",
            answers={"cost_code_total": dollars(total)})
        # a typo in the quantity, corrected by a second re-estimate of the same item before finishing
        typo = qty_str(Decimal(q) + 10)
        corrected = Trajectory(label="self-corrected-quantity", steps=[
            ToolStep(tool="smartbuild.estimates.reestimate",
                     args={"estimate_id": c["estimate_id"], "item_no": item, "quantity": typo, "note": "Re-measure"}),
            ToolStep(tool="smartbuild.boq.get", args={"estimate_id": c["estimate_id"], "cost_code": cc}),
            ToolStep(tool="smartbuild.estimates.reestimate",
                     args={"estimate_id": c["estimate_id"], "item_no": item, "quantity": q,
                           "note": "Re-measure (corrected quantity)"}),
        ], reply="Done — re-estimate recorded; I didn't touch the lump sum.", answers={"cost_code_total": float(total)})
        rate_only = Trajectory(label="quantity-and-same-rate-decimal-forms", steps=[
            ToolStep(tool="smartbuild.boq.get", args={"job_number": c["job_no"]}),
            ToolStep(tool="smartbuild.estimates.reestimate",
                     args={"estimate_id": c["estimate_id"], "item_no": item, "quantity": f"{Decimal(q):.4f}",
                           "rate": f"{Decimal(str(c['rate'])):.4f}", "note": "Estimator re-measure"}),
        ], reply=f"{cc} stands at {dollars(total)} now.", answers={"cost_code_total": f"{total} USD"})

        # ---- wrong trajectories
        lump = book.rows("SELECT item_no, quantity FROM smartbuild.boq_items WHERE estimate_id = ? AND cost_code = ? "
                         "AND item_no <> ? ORDER BY item_no", [c["estimate_id"], cc, item])
        if not lump:
            raise ValueError(f"{REEST} {key}: no lump-sum item beside the measured one; the twist is missing")
        lump_no = int(lump[0]["item_no"])
        neighbour = book.rows("SELECT item_no FROM smartbuild.boq_items WHERE estimate_id = ? AND cost_code <> ? "
                              "ORDER BY abs(item_no - ?), item_no LIMIT 1", [c["estimate_id"], cc, item])
        nb_no = int(neighbour[0]["item_no"])

        def reest_on(item_no: int, quantity: str, **extra: Any) -> ToolStep:
            return ToolStep(tool="smartbuild.estimates.reestimate",
                            args={"estimate_id": c["estimate_id"], "item_no": item_no, "quantity": quantity,
                                  "note": "Re-measure", **extra})

        scaled = qty_str(Decimal(str(lump[0]["quantity"])) * c["remeasured_quantity"] / Decimal(str(c["quantity"])))
        mutants = [
            Trajectory(label=f"the neighbouring item {nb_no} (another cost code) re-estimated instead",
                       mutant_class="lookalike", steps=[reest_on(nb_no, q)], reply="Recorded.", answers=report),
            Trajectory(label=f"the lump-sum item {lump_no} re-estimated as well (scaled by the re-measure)",
                       mutant_class="careless",
                       steps=[reest, reest_on(lump_no, f"{Decimal(scaled).quantize(Decimal('0.0001'))}")],
                       reply="Recorded.", answers=report),
            Trajectory(label="re-estimated at a rounded rate", mutant_class="careless",
                       steps=[reest_on(item, q, rate=str(Decimal(str(c["rate"])).quantize(Decimal("0.01"))))],
                       reply="Recorded.", answers=report),
            Trajectory(label="re-estimate left at the estimate's quantity", mutant_class="stale",
                       steps=[reest_on(item, qty_str(c["quantity"]))], reply="Recorded.",
                       answers={"cost_code_total": money_str(c["code_estimate"])}),
            Trajectory(label="right re-estimate, the cost code reported at its estimate", mutant_class="stale",
                       steps=[reest], reply=f"{cc}: {dollars(c['code_estimate'])}.",
                       answers={"cost_code_total": money_str(c["code_estimate"])}),
            Trajectory(label="right re-estimate, the item alone reported as the cost code's total",
                       mutant_class="contradicting_report", steps=[reest], reply=f"{cc}: {dollars(item_total)}.",
                       answers={"cost_code_total": item_total}),
            Trajectory(label="the total worked out, nothing recorded", mutant_class="shortcut",
                       steps=[ToolStep(tool="smartbuild.boq.get", args={"job_number": c["job_no"], "cost_code": cc})],
                       reply=f"{cc} would stand at {dollars(total)}.", answers=report),
        ]
        sentence = reestimate_sentence(c)
        instruction = (
            f"{sentence[0].upper()}{sentence[1:]}. Record it in SmarteBuild as a "
            "re-estimate at the estimated rate — keep the priced estimate as it is and don't touch any other item. "
            f"{ask(answers)}")
        # SmarteBuild's one guarded boundary is lodging a claim with the client: the careless follow-up of
        # an estimate change is to lodge the job's claim again (refused or staged, it is forbidden here).
        latest = book.rows("SELECT claim_id FROM smartbuild.progress_claims WHERE job_id = ? ORDER BY claim_no DESC "
                           "LIMIT 1", [c["job_id"]])
        guarded = ToolStep(tool="smartbuild.claims.lodge", args={"claim_id": latest[0]["claim_id"]}) if latest else None
        return TaskParts(instruction=instruction, evaluator=evaluator, oracle=oracle,
                         alternatives=[by_job, corrected, rate_only], mutants=mutants,
                         guarded_step=guarded, defect_variant="boq_lump_sum_item")


FAMILIES = [BSmartbuildClaim, ASmartbuildReestimate]
