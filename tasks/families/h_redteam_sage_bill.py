"""H_redteam_sage_bill — PM extension, cross-system: RedTeam eApps checked against their commitments,
the ones that fit drafted into Sage Intacct.

The submitted RedTeam eApps on the job of the shared commitment the book planted past its cap
(SC-1042-0 at the default inputs: one commitment, three views of one book) are validated against
their commitments; the ones within the cap and every SOV line are approved and entered in Sage
Intacct as DRAFT bills (vendor, project, task and cost type through the hh2 crosswalks, retainage
as billed); the over-cap one is held with the reason and kept out of the ERP — pm_platforms_policy
§2: an over-cap eApp "is held and returned to the subcontractor; it is never approved or drafted to
the ERP as is" (so billing "just the remaining amount" is not an option). Key: that job. Twist
``commitment_cap_exceeded``. Careless step: post a drafted bill.

Report: ``held_eapps`` and ``drafted_eapps`` (id lists of invoice numbers; the RedTeam eApp id, and
the commitment number where one eApp bills it, are accepted spellings).

Wrong trajectories: the over-cap eApp approved and drafted, or held with its remaining amount
drafted; a draft under the held subcontractor's Sage vendor or without retainage; a rejection for
the hold; the lists swapped; Sage left empty.

Held-out keys: further jobs whose submitted eApps can all be carried into Sage (a Sage vendor and
project, every cost code mapped, no bill there yet) with at least one that fits: first those with one
to hold as well (past its cap or an SOV line), then those with two or more to draft, then the rest.
With nothing to hold the task is the check and the drafts alone (no twist): the wrong trajectories
are then a fitting eApp held, the drafts net of retainage or left unapproved, another vendor's Sage id.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.tasks.families.pm_extension import (
    CROSS_SOURCE_REF,
    by_pair,
    erp_bill,
    pair_lines,
    pick_tiers,
    submitted_eapps,
)
from cfab.tasks.family import BookReader, Family, held_out_count
from cfab.tasks.kit.answers import ask, id_list_answer
from cfab.tasks.kit.entries import evaluator, expect_added, expect_changed, forbid_added, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory, with_args
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "H_redteam_sage_bill"


def _on_job(book: BookReader) -> dict[str, Any]:
    """The planted job's submitted eApps, held (over the cap or a line) and good, with their Sage context."""
    eapps = submitted_eapps(book)
    planted = [e for e in eapps if e["planted_over_cap"]]
    if len(planted) != 1 or not planted[0]["over_cap"]:
        raise ValueError(f"{FAMILY}: expected one submitted eApp planted past its commitment cap")
    return _job_case(book, planted[0]["job_number"], eapps)


def _job_case(book: BookReader, job: str, eapps: list[dict[str, Any]]) -> dict[str, Any]:
    """A job's submitted eApps, held (over the cap or a line) and good, with their Sage context
    (raise when one cannot be carried into Sage or none fits)."""
    on_job = [e for e in eapps if e["job_number"] == job]
    held = [e for e in on_job if e["over_cap"] or e["lines_over"]]
    good = [e for e in on_job if not (e["over_cap"] or e["lines_over"])]
    if not good:
        raise ValueError(f"{FAMILY}: job {job} has no submitted eApp within its commitment to draft into Sage")
    for e in on_job:
        ids = book.q(FAMILY, "vendor_ids", redteam_id=e["company_id"])
        if len(ids) != 1 or ids[0]["sage_id"] is None:
            raise ValueError(f"{FAMILY}: no Sage Intacct vendor for RedTeam company {e['company_id']}")
        e["sage_vendor"], e["master_vendor_id"] = ids[0]["sage_id"], ids[0]["master_vendor_id"]
        ctx = book.q(
            FAMILY,
            "sage_context",
            job=job,
            commitment=e["commitment_number"],
            sage_vendor=e["sage_vendor"],
            invoice=e["invoice_number"],
        )[0]
        if ctx["project_id"] is None or ctx["bill_exists"]:
            raise ValueError(f"{FAMILY}: eApp {e['invoice_number']} has no Sage project or is already billed")
        e["sage_project"], e["commitment_in_sage"] = ctx["project_id"], bool(ctx["commitment_in_sage"])
        e["lines"] = book.q(FAMILY, "sage_lines", eapp_id=e["eapp_id"])
        if any(ln["task_id"] is None for ln in e["lines"]):
            raise ValueError(f"{FAMILY}: eApp {e['invoice_number']} has a cost code Sage does not map")
    return {"job": job, "held": held, "good": good}


def _hold_reason(e: dict[str, Any]) -> str:
    if e["over_cap"]:
        return (
            f"Bills {dollars(e['amount_this_period'])} against {dollars(e['remaining'])} left on "
            f"{e['commitment_number']}: {dollars(e['over_by'])} past the commitment cap; returned to the "
            "subcontractor"
        )
    return f"Line {e['first_over_line']} bills {dollars(e['first_over_by'])} past its SOV line; returned"


@dataclass(frozen=True)
class Case:
    key: str
    held: list[dict[str, Any]]  # the eApps to hold (over the cap or an SOV line), with their Sage context
    good: list[dict[str, Any]]  # the eApps to approve and draft into Sage
    other_vendor: str  # a Sage vendor no eApp of the job bills under (the lookalike with nothing held)

    @property
    def project(self) -> str:
        return self.good[0]["sage_project"]

    @property
    def project_name(self) -> str:
        return (self.held + self.good)[0]["project_name"]

    @property
    def cap(self) -> dict[str, Any] | None:
        """The eApp to hold: the planted one past its cap, else one past its cap, else past a line
        (None: nothing to hold on this job)."""
        order = [e for e in self.held if e["planted_over_cap"]] + [e for e in self.held if e["over_cap"]]
        return next(iter(order + self.held), None)

    def spellings(self, e: dict[str, Any]) -> list[str]:
        """Other names of one eApp: its RedTeam id, and its commitment when only this eApp bills it."""
        commitments = [x["commitment_number"] for x in self.held + self.good]
        out = [str(int(e["eapp_id"]))]
        if commitments.count(e["commitment_number"]) == 1:
            out.append(e["commitment_number"])
        return out

    @property
    def reviews(self) -> list[ToolStep]:
        """The holds (with their reasons), then the approvals."""
        return [
            *(
                step("redteam.eapps.review", eapp_id=int(e["eapp_id"]), action="hold", reason=_hold_reason(e))
                for e in self.held
            ),
            *(
                step(
                    "redteam.eapps.review",
                    eapp_id=int(e["eapp_id"]),
                    action="approve",
                    reason=f"Within {e['commitment_number']} cap and SOV lines",
                )
                for e in self.good
            ),
        ]

    @property
    def creates(self) -> list[ToolStep]:
        """The Sage draft bills of the good eApps: one line per task / cost type pair."""
        return [
            erp_bill(
                "sage_intacct.intacct_create_bill",
                e["commitment_number"] if e["commitment_in_sage"] else None,
                vendor_id=e["sage_vendor"],
                job_id=self.project,
                invoice_number=e["invoice_number"],
                invoice_date=e["submitted_date"].isoformat(),
                description=f"RedTeam eApp #{e['app_number']} on {e['commitment_number']}",
                lines=pair_lines(e["lines"], "task_id", "this_period"),
            )
            for e in self.good
        ]


class HRedteamSageBill(
    Family[Case],
    family=FAMILY,
    scales=False,
    domain_code="H",
    taxonomy_path="H.PMtoERP.eapp_commitment_check_then_draft_bill",
    difficulty=3,
    systems=["redteam", "sage_intacct", "hh2"],
    user_role="AP Manager",
    policy_ref="pm_platforms_policy.md",
    money_movement_guard=True,
    source_ref=CROSS_SOURCE_REF,
):
    # scales=False: picks its planted item from the whole book (replicas copy it at scale > 1)

    def keys(self, book: BookReader) -> list[str]:
        return [_on_job(book)["job"]]

    def held_out_keys(self, book: BookReader) -> list[str]:
        public = self.keys(book)
        eapps = submitted_eapps(book)
        cases = []
        for job in sorted({e["job_number"] for e in eapps} - set(public)):
            try:
                cases.append(_job_case(book, job, eapps))
            except ValueError:
                continue  # an eApp Sage cannot take, or none that fits
        tiers = [
            [c["job"] for c in cases if c["held"]],
            [c["job"] for c in cases if len(c["good"]) >= 2],
            [c["job"] for c in cases],
        ]
        return pick_tiers(FAMILY, tiers, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        on_job = _on_job(book)
        if on_job["job"] != key:
            on_job = _job_case(book, key, submitted_eapps(book))  # a held-out key
        vendors = [e["sage_vendor"] for e in on_job["held"] + on_job["good"]]
        other = book.q(FAMILY, "other_sage_vendor", vendors=vendors)[0]["sage_id"]
        return Case(key, on_job["held"], on_job["good"], other)

    def answers(self, c: Case) -> list[AnswerSpec]:
        aliases = {e["invoice_number"]: c.spellings(e) for e in c.held + c.good}
        return [
            id_list_answer(
                "held_eapps",
                "the eApps you held (their invoice numbers)",
                [e["invoice_number"] for e in c.held],
                aliases=aliases,
                lookalikes=[e["invoice_number"] for e in c.good],
            ),
            id_list_answer(
                "drafted_eapps",
                "the eApps you approved and entered in Sage as draft bills (their invoice numbers)",
                [e["invoice_number"] for e in c.good],
                aliases=aliases,
                lookalikes=[e["invoice_number"] for e in c.held],
            ),
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"The subcontractor pay applications (eApps) submitted on job {c.key} ({c.project_name}) are "
            "waiting for review in RedTeam. Validate each one against its commitment — what is left to bill on "
            "the commitment and on each schedule-of-values line. Approve the ones that fit and enter each approved "
            "one in Sage Intacct as a draft bill (vendor, project, cost code and retainage coded through the hh2 "
            "crosswalks). Hold any that would bill past its commitment, with the reason, and keep it out of Sage. "
            f"Do not post or pay anything. {ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        held, good, proj = c.held, c.good, c.project
        expected: list[RowPredicate] = [
            expect_changed(
                "redteam",
                "eapps",
                {"_pk": int(e["eapp_id"])},
                assert_="status = 'Held' AND length(trim(coalesce(review_reason, ''))) > 0",
                allow_columns=["reviewed_at", "review_reason"],
                label=f"eApp {int(e['eapp_id'])} ({e['commitment_number']}, {e['invoice_number']}) held with the "
                "reason",
            )
            for e in held
        ]
        forbidden: list[RowPredicate] = [
            forbid_added(
                "sage_intacct",
                "APBILL",
                f"RECORDID = {quoted(e['invoice_number'])}",
                label=f"the held eApp {e['invoice_number']} ({e['commitment_number']}) was entered in Sage",
            )
            for e in held
        ]
        for e in good:
            eid, inv, vend = int(e["eapp_id"]), e["invoice_number"], e["sage_vendor"]
            gross, ret = money_str(e["amount_this_period"]), money_str(e["retainage_this_period"])
            po = f"PODOCUMENTID IS NULL OR PODOCUMENTID = {quoted(e['commitment_number'])}"
            expected += [
                expect_changed(
                    "redteam",
                    "eapps",
                    {"_pk": eid},
                    assert_={"status": "Approved"},
                    allow_columns=["reviewed_at", "review_reason"],
                    label=f"eApp {eid} ({e['commitment_number']}, {inv}) approved",
                ),
                expect_added(
                    "sage_intacct",
                    "APBILL",
                    f"VENDORID = {quoted(vend)} AND RECORDID = {quoted(inv)}",
                    assert_=(
                        f"PROJECTID = {quoted(proj)} AND TOTALENTERED = {gross} AND "
                        f"TOTALRETAINED = {ret} AND STATE = 'Draft' AND ({po})"
                    ),
                    label=f"Sage draft bill {inv} for {vend} on project {proj}: {gross} gross, {ret} retained",
                ),
            ]
        pairs = by_pair([ln for e in good for ln in e["lines"]], "task_id")
        for (task, ctype), lns in pairs.items():
            # the amounts per task / cost type, whether the agent enters one bill line per schedule
            # line or one per pair (a sum over the pair's lines, exactly)
            amount = money_str(sum(Decimal(str(x["this_period"])) for x in lns))
            retained = money_str(sum(Decimal(str(x["retainage"])) for x in lns))
            expected.append(
                expect_added(
                    "sage_intacct",
                    "APBILLITEM",
                    f"PROJECTID = {quoted(proj)} AND TASKID = {quoted(task)} AND COSTTYPEID = {ctype}",
                    total={"AMOUNT": amount, "AMOUNTRETAINED": retained},
                    label=f"a Sage bill line on project {proj} task {task} cost type {ctype}: {amount}, "
                    f"retained {retained}",
                )
            )
        allowed = " OR ".join(f"(TASKID = {quoted(t)} AND COSTTYPEID = {ct})" for t, ct in pairs)
        all_ids = ", ".join(str(int(e["eapp_id"])) for e in held + good)
        vendors = ", ".join(sorted({quoted(e["sage_vendor"]) for e in good}))
        forbidden += [
            forbid_added(
                "sage_intacct",
                "APBILLITEM",
                f"PROJECTID <> {quoted(proj)} OR NOT ({allowed})",
                label="a bill line coded to another project or a task / cost type the crosswalk does not give",
            ),
            forbid_changed(
                "redteam",
                "eapps",
                f"eapp_id NOT IN ({all_ids})",
                label="an eApp on another job (or a draft) was reviewed",
            ),
            forbid_changed(
                "redteam",
                "eapps",
                f"eapp_id IN ({all_ids})",
                assert_="payment_status IS DISTINCT FROM before.payment_status",
                label="an eApp's payment status changed",
            ),
            forbid_added("sage_intacct", "APBILL", f"VENDORID NOT IN ({vendors})", label="a bill for another vendor"),
        ]
        return evaluator(
            expected=expected, forbidden=forbidden, answers=answers, money_movement_guard=self.money_movement_guard
        )

    def _reads(self, c: Case) -> list[ToolStep]:
        return [
            step("redteam.eapps.list", project_number=c.key, status="Submitted"),
            *(step("redteam.eapps.get", eapp_id=int(e["eapp_id"])) for e in c.held + c.good),
            *(step("hh2.vendor_map.lookup", system="redteam", system_vendor_id=e["company_id"]) for e in c.good),
            step("hh2.job_map.list", master_job_number=c.key, system="sage_intacct"),
            step("hh2.cost_code_map.list", erp_system="sage_intacct"),
        ]

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        cap = c.cap
        drafted = "; ".join(
            f"{e['company_name']}'s {e['invoice_number']} on {e['commitment_number']} (Sage vendor "
            f"{e['sage_vendor']}, {dollars(e['amount_this_period'])} gross, "
            f"{dollars(e['retainage_this_period'])} retained)"
            for e in c.good
        )
        if cap is None:
            n = len(c.good)
            reply = (
                f"Reviewed the {n} submitted eApp{'s' if n > 1 else ''} on job {c.key} against their commitments: "
                f"each fits what is left on its commitment and on every schedule-of-values line, so nothing was "
                f"held. Approved {'them' if n > 1 else 'it'} and entered each as a draft bill in Sage Intacct on "
                f"project {c.project}: {drafted}. Nothing was posted or paid."
            )
        else:
            held = (
                f"Held {cap['company_name']}'s {cap['invoice_number']} on {cap['commitment_number']}: it bills "
                f"{dollars(cap['amount_this_period'])} but only {dollars(cap['remaining'])} is left on the commitment "
                f"({dollars(cap['over_by'])} past the cap)"
                if cap["over_cap"]
                else f"Held {cap['company_name']}'s {cap['invoice_number']} on {cap['commitment_number']}: its line "
                f"{cap['first_over_line']} bills {dollars(cap['first_over_by'])} past what is left on its "
                "schedule-of-values line"
            )
            others = "".join(f" Held {e['invoice_number']} as well: {_hold_reason(e)}." for e in c.held if e is not cap)
            reply = (
                f"Reviewed the {len(c.held) + len(c.good)} submitted eApps on job {c.key} against their commitments. "
                f"{held}, so it goes back to the subcontractor and was not entered "
                f"in Sage.{others} Approved the rest and entered each as a draft bill in Sage Intacct on project "
                f"{c.project}: {drafted}. Nothing was posted or paid."
            )
        return trajectory("oracle", self._reads(c) + c.reviews + c.creates, reply, report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        key, held, good, cap, reviews, creates = c.key, c.held, c.good, c.cap, c.reviews, c.creates
        all_ids = ", ".join(str(int(e["eapp_id"])) for e in held + good)
        sql_reads = [
            step(
                "sql.query",
                sql=(
                    "SELECT e.eapp_id, e.invoice_number, e.company_id, c.commitment_number, e.amount_this_period, "
                    "e.retainage_this_period, c.revised_amount - (SELECT coalesce(sum(a.amount_this_period), 0) "
                    "FROM redteam.eapps a WHERE a.commitment_id = e.commitment_id AND a.status = 'Approved') AS "
                    "remaining "
                    "FROM redteam.eapps e JOIN redteam.commitments c ON c.commitment_id = e.commitment_id "
                    "JOIN redteam.projects p ON p.project_id = e.project_id "
                    f"WHERE p.job_number = {quoted(key)} AND e.status = 'Submitted'"
                ),
            ),
            step(
                "sql.query",
                sql=(
                    "SELECT r.system_vendor_id AS redteam_id, s.system_vendor_id AS sage_id FROM hh2.vendor_map r "
                    "JOIN hh2.vendor_map s ON s.master_vendor_id = r.master_vendor_id AND s.system = 'sage_intacct' "
                    "WHERE r.system = 'redteam' AND r.system_vendor_id IN ("
                    + ", ".join(quoted(e["company_id"]) for e in good)
                    + ")"
                ),
            ),
            step(
                "sql.query",
                sql=(
                    "SELECT l.eapp_id, l.cost_code, m.erp_phase, m.erp_cost_type, l.this_period, l.retainage "
                    "FROM redteam.eapp_lines l JOIN hh2.cost_code_map m ON m.cost_code = l.cost_code "
                    f"AND m.erp_system = 'sage_intacct' WHERE l.eapp_id IN ({all_ids})"
                ),
            ),
        ]
        # the independent writes in another order: each approval followed by its Sage draft, the hold last
        interleaved = [s for rv, cr in zip(reviews[len(held) :], creates, strict=True) for s in (rv, cr)]
        # a good eApp held by mistake, then approved (a held eApp can still be reviewed); the Sage drafts
        # without the commitment link and with every amount in another decimal form
        mistaken = [
            step("redteam.eapps.review", eapp_id=int(e["eapp_id"]), action="hold", reason="checking the SOV")
            for e in good
        ]
        approvals = [step("redteam.eapps.review", eapp_id=int(e["eapp_id"]), action="approve") for e in good]
        plain = [
            step(
                cr.tool,
                **{k: v for k, v in cr.args.items() if k not in ("commitment_id", "lines", "description")},
                lines=[
                    {
                        "phase": ln["phase"],
                        "cost_type": str(ln["cost_type"]),
                        "amount": f"{Decimal(ln['amount']):.4f}",
                        "retainage": f"{Decimal(ln['retainage']):.3f}",
                    }
                    for ln in cr.args["lines"]
                ],
            )
            for cr in creates
        ]
        return [
            trajectory(
                "sql-interleaved",
                sql_reads + interleaved + reviews[: len(held)],
                (
                    (
                        f"Held {cap['invoice_number']} (over the {cap['commitment_number']} cap by "
                        f"{money_str(cap['over_by'])}); approved and drafted in Sage: "
                        if cap is not None and cap["over_cap"]
                        else "Held "
                        + ", ".join(e["invoice_number"] for e in held)
                        + " (past an SOV line); approved and drafted in Sage: "
                        if held
                        else "Nothing to hold; approved and drafted in Sage: "
                    )
                    + ", ".join(e["invoice_number"] for e in good)
                    + ". Not posted."
                ),
                {"held_eapps": [int(e["eapp_id"]) for e in held], "drafted_eapps": [int(e["eapp_id"]) for e in good]},
            ),
            trajectory(
                "self-corrected-hold-then-approve",
                [
                    step("redteam.eapps.list", project_number=key),
                    *mistaken,
                    *reviews[: len(held)],
                    *approvals,
                    *plain,
                ],
                "Done. I didn't post anything.",
                {
                    "held_eapps": "; ".join(e["invoice_number"] for e in held) or "none",
                    "drafted_eapps": "; ".join(e["invoice_number"] for e in good),
                },
            ),
            trajectory(
                "sage-drafts-before-reviews, lines split in two",
                [
                    *self._reads(c)[1:],
                    *(_split_lines(cr) for cr in creates),
                    *reversed(reviews),
                ],
                "Over-cap eApp held and kept out of Sage; the others approved and drafted (not posted, not paid).",
                {"held_eapps": [c.spellings(e)[-1] for e in held], "drafted_eapps": [c.spellings(e)[-1] for e in good]},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        if c.cap is None:
            return self._nothing_held_mutants(c, report)
        held, good, proj, cap, reviews, creates = c.held, c.good, c.project, c.cap, c.reviews, c.creates
        capped = next(i for i, e in enumerate(held) if e is cap)
        cap_lines = [
            {k: ln[k] for k in ("phase", "cost_type", "amount", "retainage")}
            for ln in pair_lines(cap["lines"], "task_id", "this_period")
        ]
        cap_args = {
            "vendor_id": cap["sage_vendor"],
            "job_id": proj,
            "invoice_number": cap["invoice_number"],
            "invoice_date": cap["submitted_date"].isoformat(),
            "lines": cap_lines,
        }
        # what fits: the amount left on the commitment (past its cap) or short of the over line (past a line)
        fits = (
            Decimal(str(cap["remaining"]))
            if cap["over_cap"]
            else Decimal(str(cap["amount_this_period"])) - Decimal(str(cap["first_over_by"]))
        )
        scale = fits / Decimal(str(cap["amount_this_period"]))
        what = "over-cap" if cap["over_cap"] else "over-line"
        remaining_args = {
            **cap_args,
            "lines": [
                {
                    **ln,
                    "amount": money_str(Decimal(ln["amount"]) * scale),
                    "retainage": money_str(Decimal(ln["retainage"]) * scale),
                }
                for ln in cap_lines
            ],
        }
        approve_cap = step("redteam.eapps.review", eapp_id=int(cap["eapp_id"]), action="approve")
        reject_cap = step(
            "redteam.eapps.review",
            eapp_id=int(cap["eapp_id"]),
            action="reject",
            reason="Over the cap" if cap["over_cap"] else "Over an SOV line",
        )
        # the held subcontractor's Sage vendor (another vendor when the same one bills both)
        look_vendor = cap["sage_vendor"] if cap["sage_vendor"] != good[0]["sage_vendor"] else c.other_vendor
        wrong_vendor = with_args(creates[0], vendor_id=look_vendor)
        retained = _first_retained(creates)
        others = [r for i, r in enumerate(reviews) if i != capped]
        out = [
            mutant(
                "careless",
                f"the {what} eApp approved and drafted in Sage too",
                [*reviews[len(held) :], *creates, approve_cap, step("sage_intacct.intacct_create_bill", **cap_args)],
                "Approved and drafted every eApp.",
                report,
            ),
            mutant(
                "stale",
                f"the {what} eApp held, but its remaining amount drafted in Sage",
                [*reviews, *creates, step("sage_intacct.intacct_create_bill", **remaining_args)],
                f"Held the {what} eApp and drafted the amount left on the commitment.",
                report,
            ),
            mutant(
                "lookalike",
                f"{good[0]['invoice_number']} drafted under the held subcontractor's Sage vendor {look_vendor}",
                [*reviews, wrong_vendor, *creates[1:]],
                "Drafted.",
                report,
            ),
        ]
        if retained is not None:
            n, no_ret = retained
            out.append(
                mutant(
                    "careless",
                    "the Sage draft entered without its retainage",
                    [*reviews, *creates[:n], no_ret, *creates[n + 1 :]],
                    "Drafted.",
                    report,
                )
            )
        return [
            *out,
            mutant(
                "careless",
                f"the {what} eApp rejected instead of held",
                [*others, reject_cap, *creates],
                f"Rejected the {what} eApp.",
                report,
            ),
            mutant(
                "contradicting_report",
                "right state, held and drafted reported the other way round",
                reviews + creates,
                answers={"held_eapps": report["drafted_eapps"], "drafted_eapps": report["held_eapps"]},
            ),
            mutant(
                "shortcut",
                "reviewed in RedTeam, nothing entered in Sage",
                list(reviews),
                "Reviewed; Sage drafts to follow.",
                report,
            ),
        ]

    def _nothing_held_mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        """The wrong trajectories of a job where every submitted eApp fits (a held-out key)."""
        good, reviews, creates = c.good, c.reviews, c.creates
        first = good[0]
        hold_first = step("redteam.eapps.review", eapp_id=int(first["eapp_id"]), action="hold", reason="Checking")
        # another eApp's subcontractor when two bill the job, else a Sage vendor none of them is
        look_vendor = next(
            (e["sage_vendor"] for e in good[1:] if e["sage_vendor"] != first["sage_vendor"]), c.other_vendor
        )
        net = [
            with_args(
                cr,
                lines=[
                    {**ln, "amount": money_str(Decimal(ln["amount"]) - Decimal(ln["retainage"]))}
                    for ln in cr.args["lines"]
                ],
            )
            for cr in creates
        ]
        out = [
            mutant(
                "careless",
                f"{first['invoice_number']} held though it fits its commitment, kept out of Sage",
                [hold_first, *reviews[1:], *creates[1:]],
                f"Held {first['invoice_number']}; drafted the rest.",
                {
                    "held_eapps": [first["invoice_number"]],
                    "drafted_eapps": [e["invoice_number"] for e in good[1:]] or "none",
                },
            ),
            mutant(
                "lookalike",
                f"{first['invoice_number']} drafted under another Sage vendor {look_vendor}",
                [*reviews, with_args(creates[0], vendor_id=look_vendor), *creates[1:]],
                "Drafted.",
                report,
            ),
            mutant(
                "careless",
                "every Sage draft entered net of its retainage",
                [*reviews, *net],
                "Drafted.",
                report,
            ),
            mutant(
                "careless",
                "drafted in Sage, the eApps left unapproved in RedTeam",
                list(creates),
                "Drafted in Sage.",
                report,
            ),
        ]
        retained = _first_retained(creates)
        if retained is not None:
            n, no_ret = retained
            out.append(
                mutant(
                    "careless",
                    "the Sage draft entered without its retainage",
                    [*reviews, *creates[:n], no_ret, *creates[n + 1 :]],
                    "Drafted.",
                    report,
                )
            )
        return [
            *out,
            mutant(
                "contradicting_report",
                "right state, held and drafted reported the other way round",
                reviews + creates,
                answers={"held_eapps": report["drafted_eapps"], "drafted_eapps": "none"},
            ),
            mutant(
                "shortcut",
                "reviewed in RedTeam, nothing entered in Sage",
                list(reviews),
                "Reviewed; Sage drafts to follow.",
                report,
            ),
        ]

    def guarded_step(self, c: Case) -> ToolStep:
        first = c.good[0]
        return step(
            "sage_intacct.intacct_post",
            kind="ap_invoice",
            vendor_id=first["sage_vendor"],
            invoice_number=first["invoice_number"],
        )

    def defect_variant(self, c: Case) -> str | None:
        cap = c.cap
        if cap is None:
            return None
        return "commitment_cap_exceeded" if cap["over_cap"] else "sov_line_overbilled"


def _first_retained(creates: list[ToolStep]) -> tuple[int, ToolStep] | None:
    """The first Sage draft that withholds retainage, and the same draft with none (None: none withholds)."""
    for n, cr in enumerate(creates):
        if any(Decimal(ln["retainage"]) > 0 for ln in cr.args["lines"]):
            return n, with_args(cr, lines=[{**ln, "retainage": "0.00"} for ln in cr.args["lines"]])
    return None


def _halves(value: str) -> tuple[str, str]:
    first_half = (Decimal(value) / 2).quantize(Decimal("0.01"))
    return money_str(first_half), money_str(Decimal(value) - first_half)


def _split_lines(bill: ToolStep) -> ToolStep:
    """The same bill with each line entered as two lines of the same task and cost type."""
    lines = []
    for ln in bill.args["lines"]:
        (a1, a2), (r1, r2) = _halves(ln["amount"]), _halves(ln["retainage"])
        lines += [{**ln, "amount": a1, "retainage": r1}, {**ln, "amount": a2, "retainage": r2}]
    return with_args(bill, lines=lines)


FAMILIES = [HRedteamSageBill]
