"""PM extension — RedTeam Go: eApps held to the commitment cap (``C_redteam_eapp_review``).

A subcontractor bills through RedTeam with an eApp (electronic pay application) against its
commitment's schedule of values. The accountant reviews each submitted eApp against the
commitment: what is left to bill on the commitment (revised amount − approved billing to date)
and on each SOV line (scheduled value − approved billing on the line). Within both: approve
(a review, not a payment). Past either: hold it with the reason, so it goes back to the
subcontractor (pm_platforms_policy §2, ap_invoice_policy §2). Approving for payment is a
separate, guarded money movement.

Keys (commitment codes), chosen by property from the book:

* the submitted eApp the book planted past its commitment's cap (``commitment_cap_exceeded``,
  SC-1042-0 at the default inputs): hold;
* a submitted eApp within its commitment cap whose billing on one SOV line is past what is left
  on that line (``sov_line_overbilled``): hold — a cap-only check approves it. The generator plants
  one at every seed: the residential PO bill of the ``bill_po_mismatch`` divergence (seeds/ap.py
  ``po_mismatch``), which bills past its PO line but stays within the PO's amount;
* a clean submitted eApp on the same job as the planted one (within the cap and every line):
  approve.

Report (typed answers, the same three on every key so the schema gives nothing away): the
``decision`` (choice ``approve`` / ``hold``), ``remaining_on_commitment`` (what was left to bill
on the commitment before this eApp; the cap itself and what is left after this eApp are the
lookalikes) and ``lines_over`` (how many SOV lines bill past what is left on them).

Wrong trajectories (admission's lookalike / stale / careless / contradicting_report / shortcut):
the review applied to the other eApp (same job, else another pick), the review on both, the
opposite action (the cap-only reviewer's approve), a reject instead, the right review with the
decision flipped / the cap reported as the remaining / lines over off by one, and the answers
without the review.

This module also holds the small helpers the other PM modules share (amount regexes).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from cfab.grader.predicates import Evaluator
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import amount_answer, answers_of, ask, choice_answer, count_answer
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "C_redteam_eapp_review"


# ------------------------------------------------------------------------------ shared helpers
def quoted(value: str) -> str:
    """A SQL string literal."""
    return "'" + str(value).replace("'", "''") + "'"


def case_of(key_column: str, values: dict[int, Any], *, money: bool = True) -> str:
    """A SQL CASE over ``key_column`` giving each row its expected value (one evaluator entry can then
    check many rows exactly: ``value_to_date = CASE item_no WHEN 1 THEN 120.00 ... END``)."""
    whens = " ".join(f"WHEN {int(k)} THEN {money_str(v) if money else int(v)}" for k, v in sorted(values.items()))
    return f"CASE {key_column} {whens} END"


# ------------------------------------------------------------------------------ the family
def _pick(book: BookReader) -> dict[str, dict[str, Any]]:
    """The three planted / chosen eApps, by property (see the module docstring)."""
    rows = book.q(FAMILY, "submitted_eapps")
    planted = [r for r in rows if r["planted_over_cap"]]
    if len(planted) != 1 or not planted[0]["over_cap"]:
        raise ValueError(f"{FAMILY}: expected one submitted eApp planted past its commitment cap that RedTeam "
                         f"sees over the cap, got {[(r['commitment_number'], r['over_cap']) for r in planted]}")
    cap = planted[0]
    line = [r for r in rows if not r["over_cap"] and r["lines_over"] > 0]
    if not line:
        raise ValueError(f"{FAMILY}: no submitted eApp within its cap with a line past its SOV line "
                         "(the bill_po_mismatch plant is missing or over its PO's cap)")
    clean = [r for r in rows if not r["over_cap"] and r["lines_over"] == 0 and r["job_number"] == cap["job_number"]]
    if not clean:
        raise ValueError(f"{FAMILY}: no clean submitted eApp on job {cap['job_number']}")
    picks = {"cap": cap, "line": line[0], "clean": clean[0]}
    for kind, r in picks.items():
        if r["submitted_on_commitment"] != 1:
            raise ValueError(f"{FAMILY} {kind}: {r['commitment_number']} has {r['submitted_on_commitment']} "
                             "submitted eApps; the task names one")
    return picks


def _lookalike(book: BookReader, e: dict[str, Any], picks: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The other submitted eApp a careless reviewer would touch: one on the same job, else another
    of the family's picks."""
    rows = [r for r in book.q(FAMILY, "submitted_eapps") if r["eapp_id"] != e["eapp_id"]]
    same_job = [r for r in rows if r["job_number"] == e["job_number"]]
    if same_job:
        return same_job[0]
    return next(r for r in picks.values() if r["eapp_id"] != e["eapp_id"])


class CRedteamEappReview(Family):
    family = FAMILY
    scales = False  # picks its planted item from the whole book (replicas copy it at scale > 1)
    domain_code = "C"
    taxonomy_path = "C.Subcontract.eapp_commitment_cap_review"
    difficulty = 2
    systems: ClassVar[list[str]] = ["redteam"]
    user_role = "AP Manager"
    policy_ref = "pm_platforms_policy.md"
    money_movement_guard = True
    source_type = "plan_doc"
    source_ref = ("CFAgentBench paper §'Diversifying the project-management surface' (RedTeam commitment-cap "
                  "eApps); FAMILIES.md 'The PM extension'")

    def keys(self, book: BookReader) -> list[str]:
        picks = _pick(book)
        return [picks[k]["commitment_number"] for k in ("cap", "line", "clean")]

    def build(self, key: str, book: BookReader) -> TaskParts:
        picks = _pick(book)
        kind = next(k for k, r in picks.items() if r["commitment_number"] == key)
        e = picks[kind]
        eid = int(e["eapp_id"])
        code, job = e["commitment_number"], e["job_number"]
        amount, remaining = money_str(e["amount_this_period"]), money_str(e["remaining"])
        hold = kind in ("cap", "line")
        look = _lookalike(book, e, picks)
        look_id = int(look["eapp_id"])

        if kind == "cap":
            over = money_str(e["over_by"])
            reason = (f"Bills {dollars(amount)} against {dollars(remaining)} left on {code} (cap "
                      f"{dollars(e['commitment_cap'])}, approved to date {dollars(e['approved_billed'])}): "
                      f"{dollars(over)} past the commitment cap. Returned to the subcontractor for a revised eApp.")
            finding = (f"it bills {dollars(amount)} but only {dollars(remaining)} is left on {code} "
                       f"({dollars(e['commitment_cap'])} less {dollars(e['approved_billed'])} approved), "
                       f"{dollars(over)} past the commitment cap")
        elif kind == "line":
            over = money_str(e["first_over_by"])
            open_amt = money_str(e["first_over_open"])
            reason = (f"Line {e['first_over_line']} ({e['first_over_cost_code']}) bills past its schedule-of-values "
                      f"line: {dollars(open_amt)} left on the line, {dollars(over)} over. Within the commitment "
                      f"total ({dollars(remaining)} left) but not within the line; returned for a revised eApp.")
            finding = (f"it is within the {dollars(remaining)} left on {code}, but line {e['first_over_line']} "
                       f"({e['first_over_cost_code']}) bills {dollars(over)} more than the {dollars(open_amt)} left "
                       "on that schedule-of-values line")
        else:
            reason = None
            finding = (f"it bills {dollars(amount)} against {dollars(remaining)} left on {code} and stays within "
                       "every schedule-of-values line")

        # the report: the decision, what was left on the commitment before this eApp, how many SOV lines
        # it bills past what is left on them (the same three answers on every key: the schema gives
        # nothing away). Lookalikes: the cap itself (approved billing not netted), what is left after
        # this eApp, the open amount of the line that is over.
        lines_over = int(e["lines_over"])
        remaining_looks = [e["commitment_cap"], Decimal(str(e["remaining"])) - Decimal(str(e["amount_this_period"]))]
        if e["first_over_open"] is not None:
            remaining_looks.append(e["first_over_open"])
        answers = [
            choice_answer("decision", "whether you approved or held the eApp", ["approve", "hold"],
                          "hold" if hold else "approve",
                          aliases={"approve": ["approved"], "hold": ["held", "on hold", "put on hold"]}),
            amount_answer("remaining_on_commitment",
                          "what was left to bill on the commitment before this eApp", remaining,
                          lookalikes=remaining_looks),
            count_answer("lines_over", "how many of its schedule-of-values lines bill past what is left on them",
                         lines_over),
        ]
        report = answers_of(answers)

        status = "Held" if hold else "Approved"
        expected = [{
            "app": "redteam", "table": "eapps", "op": "changed", "where": {"_pk": eid},
            "assert": ("status = 'Held' AND review_reason IS NOT NULL AND length(trim(review_reason)) > 0"
                       if hold else {"status": "Approved"}),
            "allow_columns": ["reviewed_at", "review_reason"],
            "label": f"RedTeam eApp {eid} ({code}, invoice {e['invoice_number']}) {status}"
                     + (" with the reason" if hold else ""),
        }]
        forbidden = [
            {"app": "redteam", "table": "eapps", "op": "changed", "where": f"eapp_id <> {eid}",
             "label": "another eApp was reviewed or changed"},
            {"app": "redteam", "table": "eapps", "op": "changed", "where": {"_pk": eid},
             "assert": "payment_status IS DISTINCT FROM before.payment_status",
             "label": "the eApp's payment status changed"},
        ]
        if hold:
            forbidden.append({"app": "redteam", "table": "eapps", "op": "changed", "where": {"_pk": eid},
                              "assert": "status IN ('Approved', 'Rejected')",
                              "label": ("approved (or rejected instead of held) an eApp that bills past the "
                                        + ("commitment cap" if kind == "cap" else "schedule-of-values line"))})
        else:
            forbidden.append({"app": "redteam", "table": "eapps", "op": "changed", "where": {"_pk": eid},
                              "assert": "status IN ('Held', 'Rejected')",
                              "label": "held or rejected an eApp that is within its commitment and every line"})
        evaluator = Evaluator.model_validate({
            "expected": expected, "forbidden": forbidden, "forbid_unexpected": True,
            "money_movement_guard": True,
            "answers": [a.model_dump() for a in answers],
        })

        verdict = "Held" if hold else "Approved"
        reply = (f"{verdict} {e['company_name']}'s eApp #{e['app_number']} (invoice {e['invoice_number']}, RedTeam id "
                 f"{eid}) on {code}, job {job}: {finding}."
                 + (f" Reason recorded: {reason}" if hold else " The review is recorded as approved.")
                 + " Nothing was approved for payment and nothing else was changed.")
        review_args: dict[str, Any] = {"eapp_id": eid, "action": "hold" if hold else "approve"}
        if hold:
            review_args["reason"] = reason
        review = ToolStep(tool="redteam.eapps.review", args=review_args)
        oracle = Trajectory(label="oracle", steps=[
            ToolStep(tool="redteam.eapps.list", args={"project_number": job, "status": "Submitted"}),
            ToolStep(tool="redteam.commitments.sov", args={"commitment_id": code}),
            ToolStep(tool="redteam.eapps.get", args={"eapp_id": eid}),
            review,
        ], reply=reply, answers=report)
        sql_route = Trajectory(label="sql-cap-check", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT e.eapp_id, e.app_number, e.invoice_number, e.amount_this_period, e.status, "
                "c.revised_amount, (SELECT coalesce(sum(a.amount_this_period), 0) FROM redteam.eapps a "
                "WHERE a.commitment_id = e.commitment_id AND a.status = 'Approved') AS approved_to_date "
                "FROM redteam.eapps e JOIN redteam.commitments c ON c.commitment_id = e.commitment_id "
                f"WHERE c.commitment_number = {quoted(code)} ORDER BY e.app_number")}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT l.line_no, l.sov_line_no, l.this_period, s.scheduled_value, "
                "(SELECT coalesce(sum(al.this_period), 0) FROM redteam.eapp_lines al JOIN redteam.eapps a "
                "ON a.eapp_id = al.eapp_id WHERE a.commitment_id = e.commitment_id AND a.status = 'Approved' "
                "AND al.sov_line_no = l.sov_line_no) AS line_billed "
                "FROM redteam.eapp_lines l JOIN redteam.eapps e ON e.eapp_id = l.eapp_id "
                "JOIN redteam.commitment_sov s ON s.commitment_id = e.commitment_id AND s.line_no = l.sov_line_no "
                f"WHERE l.eapp_id = {eid} ORDER BY l.line_no")}),
            ToolStep(tool="redteam.eapps.review",
                     args={**review_args, **({"reason": "Over the remaining amount; see cap check"}
                                             if hold else {"reason": "Within commitment cap and SOV lines"})}),
        ], reply=(f"eApp {e['invoice_number']} on {code}: {verdict.lower()} — {finding}. "
                  "Not approved for payment."),
            answers={"decision": "Held" if hold else "Approved", "remaining_on_commitment": dollars(remaining),
                     "lines_over": lines_over})
        by_commitment = Trajectory(label="commitment-first", steps=[
            ToolStep(tool="redteam.commitments.list", args={"project_number": job}),
            ToolStep(tool="redteam.commitments.get", args={"commitment_id": code}),
            ToolStep(tool="redteam.eapps.list", args={"commitment_id": code, "status": "Submitted"}),
            ToolStep(tool="redteam.eapps.get", args={"eapp_id": eid}),
            review,
        ], reply="Done; I didn't approve anything for payment.",
            answers={"decision": "on hold" if hold else "approve", "remaining_on_commitment": float(remaining),
                     "lines_over": str(lines_over)})
        if hold:
            # held first with a terse reason, then the reason rewritten (a held eApp can be reviewed again)
            corrected_steps = [
                ToolStep(tool="redteam.eapps.get", args={"eapp_id": eid}),
                ToolStep(tool="redteam.eapps.review", args={"eapp_id": eid, "action": "hold", "reason": "over"}),
                ToolStep(tool="redteam.commitments.sov", args={"commitment_id": code}),
                review,
            ]
        else:
            # held by mistake, then approved once the line check came back clean
            corrected_steps = [
                ToolStep(tool="redteam.eapps.get", args={"eapp_id": eid}),
                ToolStep(tool="redteam.eapps.review",
                         args={"eapp_id": eid, "action": "hold", "reason": "checking the SOV lines"}),
                ToolStep(tool="redteam.commitments.sov", args={"commitment_id": code}),
                review,
            ]
        corrected = Trajectory(label="self-corrected-review", steps=corrected_steps,
                               reply=f"{verdict} it; the figures are in the answers. It wasn't approved for payment.",
                               answers={"decision": "held" if hold else "APPROVED",
                                        "remaining_on_commitment": f"{Decimal(remaining):,}",
                                        "lines_over": ["zero", "one", "two", "three"][lines_over]
                                        if lines_over < 4 else lines_over})

        # wrong trajectories: each is wrong per the instruction
        wrong_action = "approve" if hold else "hold"
        flip = {"hold": "approve", "approve": "hold"}
        wrong_args: dict[str, Any] = {"eapp_id": eid, "action": wrong_action}
        if wrong_action == "hold":
            wrong_args["reason"] = "Over the commitment cap"
        look_args = {**review_args, "eapp_id": look_id}
        if look_args["action"] == "hold" and not look_args.get("reason"):
            look_args["reason"] = "Over the commitment cap"
        mutants = [
            Trajectory(label=f"the review applied to the other eApp {look_id} ({look['commitment_number']})",
                       mutant_class="lookalike",
                       steps=[ToolStep(tool="redteam.eapps.review", args=look_args)], reply=reply, answers=report),
            Trajectory(label="the review on both this eApp and the other one", mutant_class="careless",
                       steps=[review, ToolStep(tool="redteam.eapps.review", args=look_args)], reply=reply,
                       answers=report),
            Trajectory(label=f"{wrong_action} instead of {review_args['action']}, reported as such",
                       mutant_class="stale" if hold else "careless",
                       steps=[ToolStep(tool="redteam.eapps.review", args=wrong_args)], reply=f"{wrong_action}d.",
                       answers={**report, "decision": flip[report["decision"]],
                                "remaining_on_commitment": money_str(e["commitment_cap"])}),
            Trajectory(label="rejected instead of " + ("held" if hold else "approved"), mutant_class="careless",
                       steps=[ToolStep(tool="redteam.eapps.review",
                                       args={"eapp_id": eid, "action": "reject", "reason": reason or "Rejected"})],
                       reply="Rejected it.", answers=report),
            Trajectory(label="right review, decision reported the other way", mutant_class="contradicting_report",
                       steps=[review], reply="Done.", answers={**report, "decision": flip[report["decision"]]}),
            *([Trajectory(label="right review, remaining reported as the commitment cap (approved billing not netted)",
                          mutant_class="stale", steps=[review], reply="Done.",
                          answers={**report, "remaining_on_commitment": dollars(e["commitment_cap"])})]
              if money_str(e["commitment_cap"]) != money_str(e["remaining"]) else []),  # nothing approved yet
            Trajectory(label="right review, lines over off by one", mutant_class="contradicting_report",
                       steps=[review], reply="Done.", answers={**report, "lines_over": lines_over + 1}),
            Trajectory(label="read the eApp and answered without recording the review", mutant_class="shortcut",
                       steps=[ToolStep(tool="redteam.eapps.get", args={"eapp_id": eid})], reply=reply,
                       answers=report),
        ]

        instruction = (
            f"{e['company_name']} submitted pay application #{e['app_number']} (invoice {e['invoice_number']}) "
            f"through RedTeam on commitment {code}, job {job} ({e['project_name']}). Review it against the "
            "commitment: approve it if it stays within what is left to bill on the commitment and on each of its "
            "schedule-of-values lines; if it doesn't, hold it with the reason so it goes back to the "
            f"subcontractor. Do not approve anything for payment, and don't change anything else. {ask(answers)}")
        return TaskParts(
            instruction=instruction, evaluator=evaluator, oracle=oracle,
            alternatives=[sql_route, by_commitment, corrected],
            mutants=mutants,
            guarded_step=ToolStep(tool="redteam.eapps.approve_for_payment", args={"eapp_id": eid}),
            defect_variant={"cap": "commitment_cap_exceeded", "line": "sov_line_overbilled"}.get(kind),
        )


FAMILIES = [CRedteamEappReview]
