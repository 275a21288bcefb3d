"""C_redteam_eapp_review — PM extension, RedTeam Go: an eApp held to its commitment cap and SOV lines.

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

Held-out keys: further submitted eApps, each the only one submitted on its commitment with
approved billing to date on it — past the cap or an SOV line first (hold), else clean (approve;
SC-2200-3 on job 2200 at the default inputs).

Report (typed answers, the same three on every key so the schema gives nothing away): the
``decision`` (choice ``approve`` / ``hold``), ``remaining_on_commitment`` (what was left to bill
on the commitment before this eApp; the cap itself and what is left after this eApp are the
lookalikes) and ``lines_over`` (how many SOV lines bill past what is left on them).

Wrong trajectories (admission's lookalike / stale / careless / contradicting_report / shortcut):
the review applied to the other eApp (same job, else another pick), the review on both, the
opposite action (the cap-only reviewer's approve), a reject instead, the right review with the
decision flipped / the cap reported as the remaining / lines over off by one, and the answers
without the review.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.tasks.families.pm_extension import source_ref, submitted_eapps
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask, choice_answer, count_answer
from cfab.tasks.kit.entries import evaluator, expect_changed, forbid_changed
from cfab.tasks.kit.figures import count_word, dollars, money_str
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "C_redteam_eapp_review"


def _pick(book: BookReader) -> dict[str, dict[str, Any]]:
    """The three planted / chosen eApps, by property (see the module docstring)."""
    rows = submitted_eapps(book)
    planted = [r for r in rows if r["planted_over_cap"]]
    if len(planted) != 1 or not planted[0]["over_cap"]:
        raise ValueError(
            f"{FAMILY}: expected one submitted eApp planted past its commitment cap that RedTeam "
            f"sees over the cap, got {[(r['commitment_number'], r['over_cap']) for r in planted]}"
        )
    cap = planted[0]
    line = [r for r in rows if not r["over_cap"] and r["lines_over"] > 0]
    if not line:
        raise ValueError(
            f"{FAMILY}: no submitted eApp within its cap with a line past its SOV line "
            "(the bill_po_mismatch plant is missing or over its PO's cap)"
        )
    clean = [r for r in rows if not r["over_cap"] and r["lines_over"] == 0 and r["job_number"] == cap["job_number"]]
    if not clean:
        raise ValueError(f"{FAMILY}: no clean submitted eApp on job {cap['job_number']}")
    picks = {"cap": cap, "line": line[0], "clean": clean[0]}
    for kind, r in picks.items():
        if r["submitted_on_commitment"] != 1:
            raise ValueError(
                f"{FAMILY} {kind}: {r['commitment_number']} has {r['submitted_on_commitment']} "
                "submitted eApps; the task names one"
            )
    return picks


def _kind(r: dict[str, Any]) -> str:
    """What an eApp is by property: past its commitment cap, past an SOV line, or clean."""
    return "cap" if r["over_cap"] else "line" if r["lines_over"] > 0 else "clean"


def _further(book: BookReader, picks: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The submitted eApps besides the picks that a task can name (the only one submitted on its
    commitment) and whose commitment has approved billing (what is left is not the cap itself),
    by commitment code."""
    taken = {r["eapp_id"] for r in picks.values()}
    return {
        r["commitment_number"]: r
        for r in submitted_eapps(book)
        if r["eapp_id"] not in taken and r["submitted_on_commitment"] == 1 and r["approved_billed"] > 0
    }


def _lookalike(book: BookReader, e: dict[str, Any], picks: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The other submitted eApp a careless reviewer would touch: one on the same job, else another
    of the family's picks."""
    rows = [r for r in submitted_eapps(book) if r["eapp_id"] != e["eapp_id"]]
    same_job = [r for r in rows if r["job_number"] == e["job_number"]]
    if same_job:
        return same_job[0]
    return next(r for r in picks.values() if r["eapp_id"] != e["eapp_id"])


@dataclass(frozen=True)
class Case:
    kind: str  # "cap" (over the commitment cap), "line" (over an SOV line) or "clean"
    e: dict[str, Any]  # the eApp with its cap and line checks (query ``submitted_eapps``)
    look: dict[str, Any]  # the other submitted eApp a careless reviewer touches

    @property
    def eid(self) -> int:
        return int(self.e["eapp_id"])

    @property
    def hold(self) -> bool:
        return self.kind in ("cap", "line")

    @property
    def remaining(self) -> str:
        return money_str(self.e["remaining"])

    @property
    def reason(self) -> str | None:
        """The hold's reason (None when the eApp is approved)."""
        e, code, remaining = self.e, self.e["commitment_number"], self.remaining
        amount = money_str(e["amount_this_period"])
        if self.kind == "cap":
            return (
                f"Bills {dollars(amount)} against {dollars(remaining)} left on {code} (cap "
                f"{dollars(e['commitment_cap'])}, approved to date {dollars(e['approved_billed'])}): "
                f"{dollars(money_str(e['over_by']))} past the commitment cap. Returned to the subcontractor for a "
                "revised eApp."
            )
        if self.kind == "line":
            return (
                f"Line {e['first_over_line']} ({e['first_over_cost_code']}) bills past its schedule-of-values "
                f"line: {dollars(money_str(e['first_over_open']))} left on the line, "
                f"{dollars(money_str(e['first_over_by']))} over. Within the commitment total ({dollars(remaining)} "
                "left) but not within the line; returned for a revised eApp."
            )
        return None

    @property
    def finding(self) -> str:
        e, code, remaining = self.e, self.e["commitment_number"], self.remaining
        amount = money_str(e["amount_this_period"])
        if self.kind == "cap":
            return (
                f"it bills {dollars(amount)} but only {dollars(remaining)} is left on {code} "
                f"({dollars(e['commitment_cap'])} less {dollars(e['approved_billed'])} approved), "
                f"{dollars(money_str(e['over_by']))} past the commitment cap"
            )
        if self.kind == "line":
            return (
                f"it is within the {dollars(remaining)} left on {code}, but line {e['first_over_line']} "
                f"({e['first_over_cost_code']}) bills {dollars(money_str(e['first_over_by']))} more than the "
                f"{dollars(money_str(e['first_over_open']))} left on that schedule-of-values line"
            )
        return (
            f"it bills {dollars(amount)} against {dollars(remaining)} left on {code} and stays within "
            "every schedule-of-values line"
        )

    @property
    def review_args(self) -> dict[str, Any]:
        args: dict[str, Any] = {"eapp_id": self.eid, "action": "hold" if self.hold else "approve"}
        if self.hold:
            args["reason"] = self.reason
        return args


class CRedteamEappReview(
    Family[Case],
    family=FAMILY,
    scales=False,
    domain_code="C",
    taxonomy_path="C.Subcontract.eapp_commitment_cap_review",
    difficulty=2,
    systems=["redteam"],
    user_role="AP Manager",
    policy_ref="pm_platforms_policy.md",
    money_movement_guard=True,
    source_ref=source_ref("RedTeam commitment-cap eApps"),
):
    # scales=False: picks its planted item from the whole book (replicas copy it at scale > 1)

    def keys(self, book: BookReader) -> list[str]:
        picks = _pick(book)
        return [picks[k]["commitment_number"] for k in ("cap", "line", "clean")]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further submitted eApps (see ``_further``): those past the cap or an SOV line first, then
        clean ones (approve) — the same review on another commitment."""
        public = self.keys(book)
        n = held_out_count(len(public))
        further = _further(book, _pick(book))
        hold = [k for k, r in further.items() if _kind(r) != "clean"]
        chosen = pick_held_out(FAMILY, hold, public, n)
        clean = [k for k in further if k not in hold]
        return chosen + pick_held_out(FAMILY, clean, public, n - len(chosen))

    def case(self, key: str, book: BookReader) -> Case:
        picks = _pick(book)
        kind = next((k for k, r in picks.items() if r["commitment_number"] == key), None)
        if kind is None:  # a held-out key
            e = _further(book, picks)[key]
            return Case(_kind(e), e, _lookalike(book, e, picks))
        return Case(kind, picks[kind], _lookalike(book, picks[kind], picks))

    def answers(self, c: Case) -> list[AnswerSpec]:
        # the decision, what was left on the commitment before this eApp, how many SOV lines it bills past
        # what is left on them (the same three answers on every key: the schema gives nothing away).
        # Lookalikes: the cap itself (approved billing not netted), what is left after this eApp, the open
        # amount of the line that is over.
        e = c.e
        remaining_looks = [e["commitment_cap"], Decimal(str(e["remaining"])) - Decimal(str(e["amount_this_period"]))]
        if e["first_over_open"] is not None:
            remaining_looks.append(e["first_over_open"])
        return [
            choice_answer(
                "decision",
                "whether you approved or held the eApp",
                ["approve", "hold"],
                "hold" if c.hold else "approve",
                aliases={"approve": ["approved"], "hold": ["held", "on hold", "put on hold"]},
            ),
            amount_answer(
                "remaining_on_commitment",
                "what was left to bill on the commitment before this eApp",
                c.remaining,
                lookalikes=remaining_looks,
            ),
            count_answer(
                "lines_over",
                "how many of its schedule-of-values lines bill past what is left on them",
                int(e["lines_over"]),
            ),
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        e = c.e
        return (
            f"{e['company_name']} submitted pay application #{e['app_number']} (invoice {e['invoice_number']}) "
            f"through RedTeam on commitment {e['commitment_number']}, job {e['job_number']} ({e['project_name']}). "
            "Review it against the commitment: approve it if it stays within what is left to bill on the "
            "commitment and on each of its schedule-of-values lines; if it doesn't, hold it with the reason so it "
            f"goes back to the subcontractor. Do not approve anything for payment, and don't change anything "
            f"else. {ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        eid, e = c.eid, c.e
        if c.hold:
            wrong = forbid_changed(
                "redteam",
                "eapps",
                {"_pk": eid},
                assert_="status IN ('Approved', 'Rejected')",
                label=(
                    "approved (or rejected instead of held) an eApp that bills past the "
                    + ("commitment cap" if c.kind == "cap" else "schedule-of-values line")
                ),
            )
        else:
            wrong = forbid_changed(
                "redteam",
                "eapps",
                {"_pk": eid},
                assert_="status IN ('Held', 'Rejected')",
                label="held or rejected an eApp that is within its commitment and every line",
            )
        return evaluator(
            expected=[
                expect_changed(
                    "redteam",
                    "eapps",
                    {"_pk": eid},
                    assert_=(
                        "status = 'Held' AND review_reason IS NOT NULL AND length(trim(review_reason)) > 0"
                        if c.hold
                        else {"status": "Approved"}
                    ),
                    allow_columns=["reviewed_at", "review_reason"],
                    label=f"RedTeam eApp {eid} ({e['commitment_number']}, invoice {e['invoice_number']}) "
                    f"{'Held' if c.hold else 'Approved'}" + (" with the reason" if c.hold else ""),
                )
            ],
            forbidden=[
                forbid_changed("redteam", "eapps", f"eapp_id <> {eid}", label="another eApp was reviewed or changed"),
                forbid_changed(
                    "redteam",
                    "eapps",
                    {"_pk": eid},
                    assert_="payment_status IS DISTINCT FROM before.payment_status",
                    label="the eApp's payment status changed",
                ),
                wrong,
            ],
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    def _review(self, c: Case) -> ToolStep:
        return step("redteam.eapps.review", **c.review_args)

    def _reply(self, c: Case) -> str:
        e = c.e
        return (
            f"{'Held' if c.hold else 'Approved'} {e['company_name']}'s eApp #{e['app_number']} (invoice "
            f"{e['invoice_number']}, RedTeam id {c.eid}) on {e['commitment_number']}, job {e['job_number']}: "
            f"{c.finding}."
            + (f" Reason recorded: {c.reason}" if c.hold else " The review is recorded as approved.")
            + " Nothing was approved for payment and nothing else was changed."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        code = c.e["commitment_number"]
        return trajectory(
            "oracle",
            [
                step("redteam.eapps.list", project_number=c.e["job_number"], status="Submitted"),
                step("redteam.commitments.sov", commitment_id=code),
                step("redteam.eapps.get", eapp_id=c.eid),
                self._review(c),
            ],
            self._reply(c),
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        e, eid, hold, review = c.e, c.eid, c.hold, self._review(c)
        code, job, remaining, lines_over = e["commitment_number"], e["job_number"], c.remaining, int(e["lines_over"])
        verdict = "Held" if hold else "Approved"
        # held first with a terse reason, then the reason rewritten (a held eApp can be reviewed again); or held
        # by mistake, then approved once the line check came back clean
        first_reason = "over" if hold else "checking the SOV lines"
        return [
            trajectory(
                "sql-cap-check",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT e.eapp_id, e.app_number, e.invoice_number, e.amount_this_period, e.status, "
                            "c.revised_amount, (SELECT coalesce(sum(a.amount_this_period), 0) FROM redteam.eapps a "
                            "WHERE a.commitment_id = e.commitment_id AND a.status = 'Approved') AS approved_to_date "
                            "FROM redteam.eapps e JOIN redteam.commitments c ON c.commitment_id = e.commitment_id "
                            f"WHERE c.commitment_number = {quoted(code)} ORDER BY e.app_number"
                        ),
                    ),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT l.line_no, l.sov_line_no, l.this_period, s.scheduled_value, "
                            "(SELECT coalesce(sum(al.this_period), 0) FROM redteam.eapp_lines al JOIN redteam.eapps a "
                            "ON a.eapp_id = al.eapp_id WHERE a.commitment_id = e.commitment_id AND a.status = "
                            "'Approved' "
                            "AND al.sov_line_no = l.sov_line_no) AS line_billed "
                            "FROM redteam.eapp_lines l JOIN redteam.eapps e ON e.eapp_id = l.eapp_id "
                            "JOIN redteam.commitment_sov s ON s.commitment_id = e.commitment_id AND s.line_no = "
                            "l.sov_line_no "
                            f"WHERE l.eapp_id = {eid} ORDER BY l.line_no"
                        ),
                    ),
                    step(
                        "redteam.eapps.review",
                        **{
                            **c.review_args,
                            "reason": "Over the remaining amount; see cap check"
                            if hold
                            else "Within commitment cap and SOV lines",
                        },
                    ),
                ],
                f"eApp {e['invoice_number']} on {code}: {verdict.lower()} — {c.finding}. Not approved for payment.",
                {"decision": verdict, "remaining_on_commitment": dollars(remaining), "lines_over": lines_over},
            ),
            trajectory(
                "commitment-first",
                [
                    step("redteam.commitments.list", project_number=job),
                    step("redteam.commitments.get", commitment_id=code),
                    step("redteam.eapps.list", commitment_id=code, status="Submitted"),
                    step("redteam.eapps.get", eapp_id=eid),
                    review,
                ],
                "Done; I didn't approve anything for payment.",
                {
                    "decision": "on hold" if hold else "approve",
                    "remaining_on_commitment": float(remaining),
                    "lines_over": str(lines_over),
                },
            ),
            trajectory(
                "self-corrected-review",
                [
                    step("redteam.eapps.get", eapp_id=eid),
                    step("redteam.eapps.review", eapp_id=eid, action="hold", reason=first_reason),
                    step("redteam.commitments.sov", commitment_id=code),
                    review,
                ],
                f"{verdict} it; the figures are in the answers. It wasn't approved for payment.",
                {
                    "decision": "held" if hold else "APPROVED",
                    "remaining_on_commitment": f"{Decimal(remaining):,}",
                    "lines_over": count_word(lines_over),
                },
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        e, eid, hold, look, review, reply = c.e, c.eid, c.hold, c.look, self._review(c), self._reply(c)
        lines_over = int(e["lines_over"])
        wrong_action = "approve" if hold else "hold"
        flip = {"hold": "approve", "approve": "hold"}
        wrong_args: dict[str, Any] = {"eapp_id": eid, "action": wrong_action}
        if wrong_action == "hold":
            wrong_args["reason"] = "Over the commitment cap"
        look_args = {**c.review_args, "eapp_id": int(look["eapp_id"])}
        if look_args["action"] == "hold" and not look_args.get("reason"):
            look_args["reason"] = "Over the commitment cap"
        out = [
            mutant(
                "lookalike",
                f"the review applied to the other eApp {int(look['eapp_id'])} ({look['commitment_number']})",
                [step("redteam.eapps.review", **look_args)],
                reply,
                report,
            ),
            mutant(
                "careless",
                "the review on both this eApp and the other one",
                [review, step("redteam.eapps.review", **look_args)],
                reply,
                report,
            ),
            mutant(
                "stale" if hold else "careless",
                f"{wrong_action} instead of {c.review_args['action']}, reported as such",
                [step("redteam.eapps.review", **wrong_args)],
                f"{wrong_action}d.",
                {
                    **report,
                    "decision": flip[report["decision"]],
                    "remaining_on_commitment": money_str(e["commitment_cap"]),
                },
            ),
            mutant(
                "careless",
                "rejected instead of " + ("held" if hold else "approved"),
                [step("redteam.eapps.review", eapp_id=eid, action="reject", reason=c.reason or "Rejected")],
                "Rejected it.",
                report,
            ),
            mutant(
                "contradicting_report",
                "right review, decision reported the other way",
                [review],
                answers={**report, "decision": flip[report["decision"]]},
            ),
        ]
        if money_str(e["commitment_cap"]) != c.remaining:  # else nothing is approved yet
            out.append(
                mutant(
                    "stale",
                    "right review, remaining reported as the commitment cap (approved billing not netted)",
                    [review],
                    answers={**report, "remaining_on_commitment": dollars(e["commitment_cap"])},
                )
            )
        out += [
            mutant(
                "contradicting_report",
                "right review, lines over off by one",
                [review],
                answers={**report, "lines_over": lines_over + 1},
            ),
            mutant(
                "shortcut",
                "read the eApp and answered without recording the review",
                [step("redteam.eapps.get", eapp_id=eid)],
                reply,
                report,
            ),
        ]
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        return step("redteam.eapps.approve_for_payment", eapp_id=c.eid)

    def defect_variant(self, c: Case) -> str | None:
        return {"cap": "commitment_cap_exceeded", "line": "sov_line_overbilled"}.get(c.kind)


FAMILIES = [CRedteamEappReview]
