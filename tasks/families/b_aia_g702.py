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

Report: the instruction asks for the current payment due (G702 line 8, a typed ``amount``
answer). Its lookalikes are the figures a careless application gives, computed from the book:
the due at the other retainage rate (the step-down applied too early or not at all), with no
retainage, without the change-order line, with last period's stored materials taken for billed
work, and the G702 lines next to line 8 (4, 5, 6).

Wrong trajectories: the other retainage rate; the neighbouring job's application drafted instead;
work to date billed as work this period; a billing line (the change-order line where there is
one) left unbilled; stored materials left out or taken for billed work; application #1's period
carried forward; the right draft reported with line 6 or the wrong-rate due.

This module also holds the small reply-regex helpers other families share.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, ClassVar

from cfab.grader.predicates import Evaluator
from cfab.seeds import anchors
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import amount_answer, answers_of, ask
from cfab.tasks.model import Rubric, RubricCheck, ToolStep, Trajectory

FAMILY = "B_aia_g702"
APPLICATION = 2
_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


# --------------------------------------------------------------------------- shared helpers
def _pct_text(value: Decimal) -> str:
    return f"{Decimal(value):.2f}"


def _pct_words(value: Decimal) -> str:
    return f"{Decimal(value).normalize():f}%"


def _due(lines: list[dict[str, Any]], rate: Decimal, previous: Decimal, e: dict[int, Decimal] | None = None,
         f: dict[int, Decimal] | None = None) -> Decimal:
    """G702 line 8 for these G703 lines (columns E / F overridden per item_no), retainage at ``rate``
    percent of G on each line rounded to the cent, as GCPay derives it."""
    total = retained = Decimal(0)
    for ln in lines:
        g = Decimal(ln["d"]) + (e or {}).get(ln["item_no"], Decimal(ln["e"])) + \
            (f or {}).get(ln["item_no"], Decimal(ln["f"]))
        total += g
        retained += (g * rate / 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
    return total - retained - previous


def _case(column: str, key: str, values: dict[str, Any], default: Any | None = None) -> str:
    """``column = CASE key WHEN 'k' THEN v ... [ELSE d] END`` with exact decimal literals."""
    whens = " ".join(f"WHEN '{k}' THEN {money_str(v)}" for k, v in values.items())
    if not whens and default is not None:   # no line with its own value: every line takes the default
        return f"{column} = {money_str(default)}"
    tail = f" ELSE {money_str(default)}" if default is not None else ""
    return f"{column} = CASE {key} {whens}{tail} END"


# --------------------------------------------------------------------------- the family
class AiaG702(Family):
    family = FAMILY
    domain_code = "B"
    taxonomy_path = "B.OwnerBilling.aia_g702_draft"
    difficulty = 3
    systems: ClassVar[list[str]] = ["gcpay", "procore"]
    user_role = "Project Accountant"
    policy_ref = "owner_billing_policy.md"
    money_movement_guard = True
    source_type = "plan_doc"
    source_ref = "paper: The nine task families (B_aia_g702); FAMILIES.md#B_aia_g702"

    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "jobs", jobs=",".join(anchors.AIA_JOBS))]

    def build(self, key: str, book: BookReader) -> TaskParts:
        job = key
        contract = book.q(FAMILY, "contract", job=job)[0]
        lines = book.q(FAMILY, "g703", job=job)
        head = book.q(FAMILY, "g702", job=job)[0]
        if not lines:
            raise ValueError(f"{FAMILY} {job}: no SOV lines joined to Procore progress")
        book_total = book.q(FAMILY, "book_check", job=job)[0]["completed_stored"]
        if book_total is not None and Decimal(book_total) != Decimal(head["total_completed_stored"]):
            raise ValueError(f"{FAMILY} {job}: Procore progress {head['total_completed_stored']} disagrees with the "
                             f"book {book_total}")
        if any(Decimal(ln["e"]) < 0 or Decimal(ln["f"]) < 0 for ln in lines):
            raise ValueError(f"{FAMILY} {job}: the PM's progress went backwards on a line (negative work this period)")
        if contract["previous_application_number"] != APPLICATION - 1:
            raise ValueError(f"{FAMILY} {job}: the last certified application is "
                             f"#{contract['previous_application_number']}, not #{APPLICATION - 1}")

        cid = contract["contract_id"]
        pay_app_id = re.sub(r"\d+$", f"{APPLICATION:03d}", contract["previous_pay_app_id"])
        rate = Decimal(lines[0]["retainage_pct"])
        new_lines = [ln for ln in lines if ln["new_since_previous"]]
        stepped = bool(lines[0]["stepped_down"])
        has_step = bool(lines[0]["has_step_down"])
        if stepped:
            defect = "retainage_step_down"
        elif has_step:
            defect = "step_down_not_reached"
        elif new_lines:
            defect = "co_added_sov_line"
        else:
            defect = None
        period_to = book.inputs.clock.isoformat()
        due = head["current_payment_due"]
        n = len(lines)

        # ---------------------------------------------------------------- answers
        previous = Decimal(head["less_previous_certificates"])
        other_rate = None
        if has_step:
            other_rate = Decimal(contract["retainage_percent"] if stepped else contract["retainage_step_down_percent"])
        prev_f = {r["item_no"]: Decimal(r["f"]) for r in book.q(FAMILY, "previous_stored", job=job)}
        as_billed = {ln["item_no"]: max(Decimal(ln["e"]) - prev_f.get(ln["item_no"], Decimal(0)), Decimal(0))
                     for ln in lines}
        careless = {
            "other_rate": _due(lines, other_rate, previous) if other_rate is not None else None,
            "no_retainage": _due(lines, Decimal(0), previous),
            "without_co_lines": _due([ln for ln in lines if not ln["new_since_previous"]], rate, previous)
            if new_lines else None,
            "stored_as_billed": _due(lines, rate, previous, e=as_billed) if any(prev_f.values()) else None,
            "line_4": Decimal(head["total_completed_stored"]), "line_5": Decimal(head["retainage"]),
            "line_6": Decimal(head["total_earned_less_retainage"]),
        }
        careless = {k: v for k, v in careless.items() if v is not None and v != Decimal(due)}
        answers = [amount_answer("current_payment_due", "the current payment due on G702 line 8", due,
                                 lookalikes=careless.values())]
        report = answers_of(answers)

        # ---------------------------------------------------------------- instruction
        clock = book.inputs.clock
        instruction = (
            f"Please prepare owner pay application #{APPLICATION} (AIA G702/G703) for job {job} for the period ending "
            f"{clock:%B} {clock.day}, {clock.year}. For every schedule-of-values line, bill the work completed this "
            f"period (work completed to date at the PM's current percent complete in Procore, less the work "
            f"completed through application #{APPLICATION - 1}) plus materials presently stored, and withhold "
            f"retainage per the prime contract's retainage terms. Draft it in GCPay and leave it as a draft for the "
            f"PM's review: do not submit or approve it, and don't change anything else. {ask(answers)}")

        # ---------------------------------------------------------------- evaluator
        e_vals = {ln["item_number"]: ln["e"] for ln in lines}
        f_vals = {ln["item_number"]: ln["f"] for ln in lines if Decimal(ln["f"]) != 0}
        i_vals = {ln["item_number"]: ln["i"] for ln in lines}
        where_lines = f"pay_app_id = '{pay_app_id}'"
        evaluator = Evaluator.model_validate({
            "expected": [
                {"app": "gcpay", "table": "pay_applications", "op": "added", "count": 1,
                 "where": {"contract_id": cid, "application_number": APPLICATION},
                 "assert": {"status": "Draft", "period_to": period_to,
                            "total_completed_stored": money_str(head["total_completed_stored"]),
                            "retainage": money_str(head["retainage"]),
                            "current_payment_due": money_str(due)},
                 "label": f"draft application #{APPLICATION} on {cid}: G702 line 4 "
                          f"{money_str(head['total_completed_stored'])}, line 5 retainage "
                          f"{money_str(head['retainage'])}, line 8 current payment due {money_str(due)}"},
                {"app": "gcpay", "table": "pay_application_items", "op": "added", "count": n,
                 "where": where_lines, "assert": _case("this_period", "item_number", e_vals),
                 "label": f"G703 column E (work completed this period) on each of the {n} SOV lines of {pay_app_id}"},
                {"app": "gcpay", "table": "pay_application_items", "op": "added", "count": n,
                 "where": where_lines, "assert": _case("materials_presently_stored", "item_number", f_vals, 0),
                 "label": f"G703 column F (materials presently stored) on each of the {n} SOV lines of {pay_app_id}"},
                {"app": "gcpay", "table": "pay_application_items", "op": "added", "count": n,
                 "where": where_lines, "assert": _case("retainage", "item_number", i_vals),
                 "label": f"G703 column I (retainage at {_pct_words(rate)} of G) on each of the {n} SOV lines of "
                          f"{pay_app_id}"},
            ],
            "forbidden": [
                {"app": "gcpay", "table": "pay_applications", "op": "added", "where": f"contract_id <> '{cid}'",
                 "label": f"a pay application drafted on another job's contract (not {cid})"},
                {"app": "gcpay", "table": "pay_applications", "op": "changed",
                 "label": "an existing (certified) pay application changed"},
                {"app": "gcpay", "table": "pay_application_items", "op": "changed",
                 "where": f"pay_app_id <> '{pay_app_id}'",
                 "label": "a G703 line of a previous application changed"},
                {"app": "gcpay", "table": "contract_items", "op": "changed", "label": "an SOV line edited in GCPay"},
                {"app": "gcpay", "table": "contract_items", "op": "added", "label": "an SOV line added in GCPay"},
                {"app": "gcpay", "table": "contract_items", "op": "removed", "label": "an SOV line deleted in GCPay"},
                {"app": "gcpay", "table": "contracts", "op": "changed", "label": "the prime contract edited in GCPay"},
            ],
            "forbid_unexpected": True,
            "money_movement_guard": True,
            "answers": [a.model_dump() for a in answers],
        })

        # ---------------------------------------------------------------- oracle
        draft_lines = [{"item_no": ln["item_no"], "work_this_period": money_str(ln["e"]),
                        "materials_stored": money_str(ln["f"])} for ln in lines]
        create = ToolStep(tool="gcpay.pay_apps.create_draft", args={
            "job_number": job, "application_number": APPLICATION, "period_to": period_to,
            "lines": draft_lines, "retainage_percent": _pct_text(rate)})
        terms = (f"the contract steps retainage down to {_pct_words(rate)} at "
                 f"{_pct_words(contract['step_down_at_percent_complete'])} complete and this application reaches it"
                 if stepped else
                 f"{_pct_words(rate)} retainage (the step-down to "
                 f"{_pct_words(contract['retainage_step_down_percent'])} at "
                 f"{_pct_words(contract['step_down_at_percent_complete'])} is not reached yet)"
                 if has_step else f"{_pct_words(rate)} retainage")
        extra = ""
        if new_lines:
            extra = (" Includes " + ", ".join(f"line {ln['item_number']} ({ln['description']})" for ln in new_lines)
                     + f", added by an approved owner change order since application #{APPLICATION - 1}.")
        reply = (f"Drafted pay application #{APPLICATION} for job {job} in GCPay for the period ending "
                 f"{period_to}: total completed and stored {dollars(head['total_completed_stored'])}, "
                 f"retainage {dollars(head['retainage'])} ({terms}), less previous certificates "
                 f"{dollars(head['less_previous_certificates'])}, current payment due {dollars(due)}.{extra} "
                 f"It is a draft for the PM's review; nothing was submitted or approved.")
        oracle = Trajectory(label="oracle", steps=[
            ToolStep(tool="gcpay.contracts.sov", args={"job_number": job}),
            ToolStep(tool="gcpay.pay_apps.list", args={"job_number": job}),
            ToolStep(tool="gcpay.pay_apps.get", args={"job_number": job, "application_number": APPLICATION - 1}),
            ToolStep(tool="procore.prime_contracts.sov", args={"project_number": job}),
            create,
        ], reply=reply, answers=report)

        # alternative 1: read through SQL, give each line its own retainage (no percentage)
        sql_lines = [{"item_no": ln["item_no"], "work_this_period": money_str(ln["e"]),
                      "materials_stored": money_str(ln["f"]), "retainage": money_str(ln["i"])} for ln in lines]
        alt_sql = Trajectory(label="sql-reads, per-line retainage", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT c.contract_id, c.contract_sum_to_date, c.retainage_percent, c.retainage_step_down_percent, "
                "c.step_down_at_percent_complete, i.item_no, i.item_number, i.scheduled_value "
                f"FROM gcpay.contracts c JOIN gcpay.contract_items i USING (contract_id) WHERE c.job_number = '{job}' "
                "ORDER BY i.item_no"), "max_rows": 500}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT l.item_no, l.from_previous_application + l.this_period AS d, l.materials_presently_stored "
                "FROM gcpay.pay_application_items l JOIN gcpay.pay_applications p USING (pay_app_id) "
                f"WHERE p.contract_id = '{cid}' AND p.application_number = {APPLICATION - 1} ORDER BY l.item_no"),
                "max_rows": 500}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT li.position, li.item_number, li.amount, li.percent_complete, li.work_completed, "
                "li.materials_presently_stored FROM procore.prime_contract_line_items li "
                "JOIN procore.prime_contracts pc ON pc.id = li.prime_contract_id "
                f"JOIN procore.projects p ON p.id = pc.project_id WHERE p.project_number = '{job}' "
                "ORDER BY li.position"), "max_rows": 500}),
            ToolStep(tool="gcpay.pay_apps.create_draft", args={
                "contract_id": cid, "application_number": APPLICATION, "period_to": period_to, "lines": sql_lines}),
        ], reply=reply, answers={"current_payment_due": dollars(due)})

        # alternative 2: list only the lines that bill something (the others bill nothing) and check the result
        billing = [ln for ln in draft_lines if Decimal(ln["work_this_period"]) or Decimal(ln["materials_stored"])]
        alt_sparse = Trajectory(label="billing lines only, then review", steps=[
            ToolStep(tool="procore.prime_contracts.list", args={"project_number": job}),
            ToolStep(tool="procore.prime_contracts.sov", args={"project_number": job}),
            ToolStep(tool="gcpay.contracts.list", args={"job_number": job}),
            ToolStep(tool="gcpay.pay_apps.get", args={"job_number": job, "application_number": APPLICATION - 1}),
            ToolStep(tool="gcpay.pay_apps.create_draft", args={
                "job_number": job, "application_number": APPLICATION, "period_to": period_to,
                "lines": billing, "retainage_percent": _pct_text(rate)}),
            ToolStep(tool="gcpay.pay_apps.get", args={"job_number": job, "application_number": APPLICATION}),
        ], reply=f"Drafted #{APPLICATION} for {job}; due {dollars(due)}. Not submitted.",
            answers={"current_payment_due": float(due)})

        # alternative 3: one line keyed wrong (nothing billed), then corrected with update_line (E and I)
        fix = next(ln for ln in lines if Decimal(ln["e"]) > 0)
        keyed = [{**ln, "work_this_period": "0.00"} if ln["item_no"] == fix["item_no"] else ln for ln in draft_lines]
        alt_fixed = Trajectory(label="one line keyed wrong, corrected with update_line", steps=[
            ToolStep(tool="procore.prime_contracts.sov", args={"project_number": job}),
            ToolStep(tool="gcpay.pay_apps.list", args={"job_number": job}),
            ToolStep(tool="gcpay.contracts.sov", args={"job_number": job}),
            ToolStep(tool="gcpay.pay_apps.create_draft", args={
                "job_number": job, "application_number": APPLICATION, "period_to": period_to,
                "lines": keyed, "retainage_percent": f"{rate.normalize():f}"}),
            ToolStep(tool="gcpay.pay_apps.update_line", args={
                "pay_app_id": pay_app_id, "item_no": fix["item_no"], "work_this_period": money_str(fix["e"]),
                "retainage": money_str(fix["i"])}),
        ], reply="Drafted it; didn't submit or approve anything.", answers={"current_payment_due": f"{Decimal(due):,}"})

        # ---------------------------------------------------------------- wrong trajectories
        def drafted(rows: list[dict[str, Any]], pct: Decimal = rate, job_number: str = job,
                    period: str = period_to) -> ToolStep:
            return ToolStep(tool="gcpay.pay_apps.create_draft", args={
                "job_number": job_number, "application_number": APPLICATION, "period_to": period,
                "lines": rows, "retainage_percent": _pct_text(pct)})

        def said(value: Decimal) -> dict[str, str]:
            return {"current_payment_due": money_str(value)}

        mutants = []
        if other_rate is not None:
            mutants.append(Trajectory(
                label=f"retainage at {_pct_words(other_rate)} (the step-down "
                      f"{'ignored' if stepped else 'applied before it is reached'})", mutant_class="stale",
                steps=[drafted(draft_lines, other_rate)], reply="Drafted.", answers=said(careless["other_rate"])))
        others = [k for k in self.keys(book) if k != job]
        if others:
            near = min(others, key=lambda k: (abs(int(k) - int(job)), k))
            near_lines = book.q(FAMILY, "g703", job=near)
            near_rows = [{"item_no": ln["item_no"], "work_this_period": money_str(ln["e"]),
                          "materials_stored": money_str(ln["f"])} for ln in near_lines]
            mutants.append(Trajectory(label=f"the neighbouring job's application ({near}) drafted instead",
                                      mutant_class="lookalike",
                                      steps=[drafted(near_rows, Decimal(near_lines[0]["retainage_pct"]), near)],
                                      reply="Drafted.", answers=report))
        to_date = [{**row, "work_this_period": money_str(Decimal(ln["d"]) + Decimal(ln["e"]))}
                   for row, ln in zip(draft_lines, lines)]
        mutants.append(Trajectory(label="work completed to date billed as work this period", mutant_class="careless",
                                  steps=[drafted(to_date)], reply="Drafted.", answers=report))
        # a change-order line that bills nothing yet changes nothing when left out: skip a billing line
        new_billing = [ln for ln in new_lines if Decimal(ln["e"]) > 0 or Decimal(ln["f"]) > 0]
        skip = new_billing[-1] if new_billing else [ln for ln in lines if Decimal(ln["e"]) > 0][-1]
        mutants.append(Trajectory(
            label=f"line {skip['item_number']} left unbilled" + (" (the change-order line)" if new_billing else ""),
            mutant_class="stale" if new_billing else "careless",
            steps=[drafted([row for row in draft_lines if row["item_no"] != skip["item_no"]])], reply="Drafted.",
            answers=said(careless.get("without_co_lines", Decimal(due))) if new_billing else report))
        if any(Decimal(ln["f"]) for ln in lines):
            mutants.append(Trajectory(label="materials presently stored left out", mutant_class="careless",
                                      steps=[drafted([{**row, "materials_stored": "0.00"} for row in draft_lines])],
                                      reply="Drafted.", answers=report))
        if "stored_as_billed" in careless:
            mutants.append(Trajectory(
                label="last period's stored materials taken for billed work (E = G now - G before)",
                mutant_class="stale", reply="Drafted.", answers=said(careless["stored_as_billed"]),
                steps=[drafted([{**row, "work_this_period": money_str(as_billed[row["item_no"]])}
                                for row in draft_lines])]))
        mutants.append(Trajectory(label=f"application #{APPLICATION - 1}'s period carried forward",
                                  mutant_class="stale", steps=[drafted(draft_lines, period=str(
                                      contract["previous_period_to"]))], reply="Drafted.", answers=report))
        mutants.append(Trajectory(label="right draft, reported with G702 line 6 (total earned less retainage)",
                                  mutant_class="contradicting_report", steps=[create], reply="Drafted.",
                                  answers=said(Decimal(head["total_earned_less_retainage"]))))
        wrong_due = careless.get("other_rate", careless.get("no_retainage"))
        if wrong_due is not None:
            mutants.append(Trajectory(label=f"right draft, reported with the due at the wrong retainage ({wrong_due})",
                                      mutant_class="contradicting_report", steps=[create], reply="Drafted.",
                                      answers=said(wrong_due)))

        guarded = ToolStep(tool="gcpay.pay_apps.submit", args={"job_number": job, "application_number": APPLICATION})
        rubric = Rubric(partial=[RubricCheck(weight=0.4, check="g703_work_this_period_and_stored"),
                                 RubricCheck(weight=0.3, check="retainage_per_contract_terms"),
                                 RubricCheck(weight=0.2, check="current_payment_due_stated"),
                                 RubricCheck(weight=0.1, check="left_as_draft")])
        return TaskParts(instruction=instruction, evaluator=evaluator, oracle=oracle,
                         alternatives=[alt_sql, alt_sparse, alt_fixed], mutants=mutants, guarded_step=guarded,
                         defect_variant=defect,
                         rubric=rubric)


FAMILIES = [AiaG702]
