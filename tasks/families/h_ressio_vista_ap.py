"""H_ressio_vista_ap — PM extension, cross-system: Ressio supplier bills matched to their POs, the
matched ones booked in Vista.

The supplier bills waiting on a residential job in Ressio are matched to their POs; every approved
bill that matches is booked in Vista as an UNPOSTED AP invoice; the bill that does not match its PO
line (``bill_po_mismatch``) is flagged and stays out of the ERP (pm_platforms_policy §3). Key: the
planted bill's job. Careless step: post the booked invoice. Report: ``booked_bills`` and
``exception_bills`` (id lists of bill numbers; the Ressio bill id is an accepted spelling). Bill
lines are free in shape (one per pair or one per bill item): the header totals and the crosswalk's
phase / cost type are asserted.

Wrong trajectories: the exception bill booked too, or booked for what is still open on its PO line;
a matched bill booked under the other supplier's Vista vendor, or for one item only; the exception
bill never matched in Ressio; the lists swapped; Vista left empty.

Held-out keys: further residential jobs with waiting bills, every one Vista can take (a Vista vendor,
each cost code mapped, not yet in Vista) and at least one approved that matches: first those with a
bill to keep out as well, then those with two or more to book, then the rest. Without an exception
bill the task is the match and the booking alone (no twist): the wrong trajectories are then a bill
booked net of retainage, under another vendor, for one item, unmatched in Ressio, or an unapproved
bill booked.
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
    match_entries,
    match_forbidden,
    match_items,
    pair_lines,
    pick_tiers,
    po_bills,
)
from cfab.tasks.family import BookReader, Family, held_out_count
from cfab.tasks.kit.answers import ask, id_list_answer
from cfab.tasks.kit.entries import evaluator, expect_added, forbid_added
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory, with_args
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "H_ressio_vista_ap"


def _on_job(book: BookReader) -> dict[str, Any]:
    """The planted bill's job: its waiting bills with their match and Vista context, split into those to
    book (approved and matched) and those to keep out."""
    bills = po_bills(book)
    planted = [b for b in bills if b["planted_mismatch"]]
    if len(planted) != 1:
        raise ValueError(f"{FAMILY}: expected one planted PO-mismatch bill, got {len(planted)}")
    on_job = _job_case(book, planted[0]["job_number"], bills)
    if not any(b["planted_mismatch"] for b in on_job["keep_out"]):
        raise ValueError(f"{FAMILY}: job {on_job['job']} needs the planted mismatch to keep out")
    return on_job


def _job_case(book: BookReader, job: str, bills: list[dict[str, Any]]) -> dict[str, Any]:
    """A job's waiting bills with their match and Vista context, split into those to book (approved
    and matched) and those to keep out (raise when Vista cannot take one or none is to book)."""
    on_job = [dict(b) for b in bills if b["job_number"] == job]
    book_these, keep_out = [], []
    for b in on_job:
        b["items"] = match_items(book, int(b["bill_id"]))
        matched = all(i["result"] == "Matched" for i in b["items"])
        ctx = book.q(
            FAMILY,
            "vista_context",
            job=job,
            vendor=b["master_vendor_id"],
            commitment=b["commitment_ref"],
            invoice=b["bill_name"],
        )[0]
        b.update(
            vista_job=ctx["vista_job"],
            vista_vendor=ctx["vista_vendor"],
            commitment_in_vista=bool(ctx["commitment_in_vista"]),
        )
        if ctx["already_in_vista"]:
            raise ValueError(f"{FAMILY}: bill {b['bill_name']} is already in Vista")
        if matched and b["status"] == "Approved":
            b["lines"] = book.q(FAMILY, "vista_lines", bill_id=int(b["bill_id"]))
            if any(ln["phase"] is None for ln in b["lines"]):
                raise ValueError(f"{FAMILY}: bill {b['bill_name']} has a cost code Vista does not map")
            book_these.append(b)
        else:
            keep_out.append(b)
    if not book_these:
        raise ValueError(f"{FAMILY}: job {job} has no approved bill that matches its PO to book")
    return {"job": job, "book": book_these, "keep_out": keep_out, "bills": on_job}


@dataclass(frozen=True)
class Case:
    key: str
    bills: list[dict[str, Any]]  # the job's waiting bills, with their match and Vista context
    to_book: list[dict[str, Any]]  # approved and matched: booked in Vista
    keep_out: list[dict[str, Any]]  # the rest (the planted mismatch among them)
    cost_map: dict[str, dict[str, Any]]  # the hh2 crosswalk to Vista phases, by cost code
    other_vendor: Any  # a Vista vendor other than the first booked bill's

    @property
    def vjob(self) -> str:
        return self.to_book[0]["vista_job"]

    @property
    def bad(self) -> dict[str, Any] | None:
        """The bill that does not match its PO: the planted one, else any exception (None: none)."""
        planted = [b for b in self.keep_out if b["planted_mismatch"]]
        return next(iter(planted + self.exceptions), None)

    @property
    def worst(self) -> dict[str, Any]:
        assert self.bad is not None
        return max(self.bad["items"], key=lambda i: Decimal(str(i["variance"])))

    @property
    def exceptions(self) -> list[dict[str, Any]]:
        return [b for b in self.bills if any(i["result"] != "Matched" for i in b["items"])]

    @property
    def matches(self) -> list[ToolStep]:
        return [step("ressio.bills.match_po", bill_id=int(b["bill_id"]), po_number=b["po_number"]) for b in self.bills]

    @property
    def creates(self) -> list[ToolStep]:
        """The Vista AP invoices of the bills to book: one line per phase / cost type pair."""
        return [
            erp_bill(
                "vista_erp.ap_invoices.create",
                b["commitment_ref"] if b["commitment_in_vista"] else None,
                vendor_id=str(b["vista_vendor"]),
                job_id=self.vjob,
                invoice_number=b["bill_name"],
                invoice_date=b["issued_on"].isoformat(),
                due_date=b["due_date"].isoformat(),
                description=f"Ressio bill {b['bill_name']} - PO {b['po_number']}",
                lines=pair_lines(b["lines"], "phase", "amount"),
            )
            for b in self.to_book
        ]


class HRessioVistaAp(
    Family[Case],
    family=FAMILY,
    scales=False,
    domain_code="H",
    taxonomy_path="H.PMtoERP.bill_po_match_then_ap_invoice",
    difficulty=3,
    systems=["ressio", "vista_erp", "hh2"],
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
        bills = po_bills(book)
        cases = []
        for job in sorted({b["job_number"] for b in bills} - set(public)):
            try:
                case = _job_case(book, job, bills)
            except ValueError:
                continue  # a bill Vista cannot take, or none to book
            if all(b["vista_vendor"] is not None for b in case["bills"]):
                cases.append(case)
        tiers = [
            [c["job"] for c in cases if c["keep_out"]],
            [c["job"] for c in cases if len(c["book"]) >= 2],
            [c["job"] for c in cases],
        ]
        return pick_tiers(FAMILY, tiers, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        on_job = _on_job(book)
        if on_job["job"] != key:
            on_job = _job_case(book, key, po_bills(book))  # a held-out key
        cost_map = {
            r["cost_code"]: r
            for r in book.rows(
                "SELECT cost_code, erp_phase, erp_cost_type FROM hh2.cost_code_map WHERE erp_system = 'vista_erp'"
            )
        }
        bad = next((b for b in on_job["keep_out"] if b["planted_mismatch"]), None)
        first_vendor = str(on_job["book"][0]["vista_vendor"])
        # the exception bill's supplier, else another supplier of the job, else (one supplier bills the whole
        # job) another Vista vendor
        look = bad or next((b for b in on_job["bills"] if str(b["vista_vendor"]) != first_vendor), None)
        other_vendor = (
            look["vista_vendor"]
            if look is not None and str(look["vista_vendor"]) != first_vendor
            else book.scalar(
                "SELECT min(system_vendor_id) FROM hh2.vendor_map WHERE system = 'vista_erp' AND system_vendor_id <> "
                "$v",
                {"v": first_vendor},
            )
        )
        return Case(key, on_job["bills"], on_job["book"], on_job["keep_out"], cost_map, other_vendor)

    def answers(self, c: Case) -> list[AnswerSpec]:
        aliases = {b["bill_name"]: [str(int(b["bill_id"]))] for b in c.bills}
        return [
            id_list_answer(
                "booked_bills",
                "the bills you booked in Vista (their bill numbers)",
                [b["bill_name"] for b in c.to_book],
                aliases=aliases,
                lookalikes=[b["bill_name"] for b in c.keep_out],
            ),
            id_list_answer(
                "exception_bills",
                "the bills that did not match their PO (their bill numbers)",
                [b["bill_name"] for b in c.exceptions],
                aliases=aliases,
                lookalikes=[b["bill_name"] for b in c.bills if b not in c.exceptions],
            ),
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"The supplier bills on job {c.key} ({c.to_book[0]['project_name']}) that are still unmatched and not "
            "yet in accounting are waiting in Ressio. Match each to its purchase order. Book every approved bill "
            "that matches into Vista as an unposted AP invoice (vendor, job, phase and cost type through the hh2 "
            "crosswalks); a bill that doesn't match its PO line stays out of the ERP for the PM. Do not post or "
            f"pay anything. {ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        vjob = c.vjob
        expected: list[RowPredicate] = [e for b in c.bills for e in match_entries(b, b["items"])]
        for b in c.to_book:
            gross, ret, net = money_str(b["subtotal"]), money_str(b["retainage"]), money_str(b["total"])
            sl = f"SL IS NULL OR SL = {quoted(b['commitment_ref'])}"
            expected.append(
                expect_added(
                    "vista_erp",
                    "APHB",
                    f"APRef = {quoted(b['bill_name'])} AND Vendor = {int(b['vista_vendor'])}",
                    assert_=(
                        f"Job = {quoted(vjob)} AND InvTotal = {gross} AND RetainageAmt = {ret} AND NetAmt = {net} "
                        f"AND ({sl})"
                    ),
                    label=f"unposted Vista AP invoice {b['bill_name']} for vendor {b['vista_vendor']} on {vjob}: "
                    f"{gross}",
                )
            )
        pairs = by_pair([ln for b in c.to_book for ln in b["lines"]], "phase")
        expected += [
            expect_added(
                "vista_erp",
                "APLB",
                f"Job = {quoted(vjob)} AND Phase = {quoted(phase)} AND JCCType = {ctype}",
                label=f"a Vista AP line on {vjob} phase {phase} cost type {ctype}",
            )
            for phase, ctype in pairs
        ]
        allowed = " OR ".join(f"(Phase = {quoted(p)} AND JCCType = {ct})" for p, ct in pairs)
        forbidden = [
            *match_forbidden([int(b["bill_id"]) for b in c.bills]),
            forbid_added(
                "vista_erp",
                "APLB",
                f"NOT ({allowed}) OR Job <> {quoted(vjob)}",
                label="an AP line coded off the crosswalk (phase / cost type) or to another job",
            ),
        ]
        if c.keep_out:
            forbidden.append(
                forbid_added(
                    "vista_erp",
                    "APHB",
                    " OR ".join(f"APRef = {quoted(b['bill_name'])}" for b in c.keep_out),
                    label="a bill that does not match its PO (or is not approved) was booked in Vista",
                )
            )
        return evaluator(
            expected=expected, forbidden=forbidden, answers=answers, money_movement_guard=self.money_movement_guard
        )

    def _reads(self, c: Case) -> list[ToolStep]:
        return [
            step("ressio.bills.list", project_number=c.key, accounting_status="Not Synced", match_status="Unmatched"),
            *(step("ressio.bills.get", bill_id=int(b["bill_id"])) for b in c.bills),
        ]

    def _maps(self, c: Case) -> list[ToolStep]:
        return [
            step("hh2.job_map.list", master_job_number=c.key, system="vista_erp"),
            *(
                step("hh2.vendor_map.list", master_vendor_id=b["master_vendor_id"], system="vista_erp")
                for b in c.to_book
            ),
            step("hh2.cost_code_map.list", erp_system="vista_erp"),
        ]

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        bad = c.bad
        booked = "; ".join(
            f"{b['bill_name']} ({b['vendor_name']}, Vista vendor {b['vista_vendor']}, "
            f"{dollars(b['subtotal'])}, PO {b['commitment_ref']})"
            for b in c.to_book
        )
        if bad is None:
            waiting = "".join(
                f" Bill {b['bill_name']} ({b['vendor_name']}) matches but is not approved yet, so it was not booked."
                for b in c.keep_out
            )
            reply = (
                f"Matched the waiting supplier bills on job {c.key} to their POs in Ressio: every item is within "
                f"what is still open on its PO line.{waiting} Booked the approved bill(s) in Vista as unposted AP "
                f"invoices on job {c.vjob}: {booked}. Nothing was posted or paid."
            )
            return trajectory("oracle", self._reads(c) + c.matches + self._maps(c) + c.creates, reply, report)
        worst = c.worst
        reply = (
            f"Matched the waiting supplier bills on job {c.key} to their POs in Ressio. Bill {bad['bill_name']} "
            f"({bad['vendor_name']}) is an exception: item {worst['item_no']} bills "
            f"{dollars(worst['bill_amount'])} against {dollars(money_str(worst['po_open_amount']))} still "
            f"open on PO {bad['po_number']} item {worst['po_item_no']} "
            f"({dollars(money_str(worst['variance']))} over), so it is flagged for the PM and was not booked. "
            f"Booked the matched bill(s) in Vista as unposted AP invoices on job {c.vjob}: {booked}. Nothing was "
            "posted or paid."
        )
        return trajectory("oracle", self._reads(c) + c.matches + self._maps(c) + c.creates, reply, report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        key, bills, to_book, exceptions = c.key, c.bills, c.to_book, c.exceptions
        matches, creates = c.matches, c.creates
        # one Vista line per Ressio bill item (the same phase / cost type repeated), no commitment link
        per_item = [
            step(
                cr.tool,
                **{k: v for k, v in cr.args.items() if k not in ("lines", "commitment_id", "due_date")},
                lines=[
                    {
                        "phase": ln["phase"],
                        "cost_type": int(ln["cost_type"]),
                        "amount": money_str(ln["amount"]),
                        "retainage": money_str(ln["retainage"]),
                        "description": ln["description"],
                    }
                    for ln in b["lines"]
                ],
            )
            for cr, b in zip(creates, to_book, strict=True)
        ]
        return [
            trajectory(
                "sql-reverse-order",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT b.bill_id, b.bill_name, b.status, b.total, po.po_number, po.commitment_ref, "
                            "b.vendor_id "
                            "FROM ressio.bills b JOIN ressio.projects p ON p.project_id = b.project_id "
                            "JOIN ressio.purchase_orders po ON po.po_id = b.po_id "
                            f"WHERE p.job_number = {quoted(key)} AND b.match_status = 'Unmatched' "
                            "AND b.accounting_status = 'Not Synced'"
                        ),
                    ),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT v.master_vendor_id, v.system, v.system_vendor_id FROM hh2.vendor_map v "
                            "WHERE v.system IN ('ressio', 'vista_erp') AND v.master_vendor_id IN ("
                            + ", ".join(quoted(b["master_vendor_id"]) for b in bills)
                            + ")"
                        ),
                    ),
                    *(step("ressio.bills.match_po", bill_id=int(b["bill_id"])) for b in reversed(bills)),
                    *creates,
                ],
                (
                    (
                        f"{c.bad['bill_name']}: PO exception ({money_str(c.worst['variance'])} over the open PO "
                        "line), not booked. Booked "
                        if c.bad is not None
                        else "Every bill matches its PO. Booked "
                    )
                    + ", ".join(b["bill_name"] for b in to_book)
                    + f" in Vista (unposted) on {c.vjob}."
                ),
                {
                    "booked_bills": [int(b["bill_id"]) for b in to_book],
                    "exception_bills": [int(b["bill_id"]) for b in exceptions],
                },
            ),
            trajectory(
                "one-vista-line-per-bill-item",
                [*matches, *per_item],
                "Done — matched bills are booked (unposted); the exception wasn't booked.",
                {
                    "booked_bills": "; ".join(b["bill_name"] for b in to_book),
                    "exception_bills": "; ".join(b["bill_name"] for b in exceptions) or "none",
                },
            ),
            # Vista first (the matched bills are known from Ressio's open PO amounts), then the Ressio matches
            trajectory(
                "vista-booked-before-ressio-match",
                [*self._reads(c), *self._maps(c)[::-1], *creates, *reversed(matches)],
                "Booked the bill(s) that match; flagged the one that doesn't. Nothing posted or paid.",
                {
                    "booked_bills": [b["bill_name"] for b in to_book],
                    "exception_bills": [f"#{int(b['bill_id'])}" for b in exceptions],
                },
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        if c.bad is None:
            return self._all_matched_mutants(c, report)
        bad, worst, to_book, matches, creates = c.bad, c.worst, c.to_book, c.matches, c.creates
        bad_lines: dict[tuple[str, int], Decimal] = {}
        for i in bad["items"]:
            m = c.cost_map.get(i["cost_code"])
            if m is None or m["erp_phase"] is None:
                continue
            k2 = (m["erp_phase"], int(m["erp_cost_type"]))
            bad_lines[k2] = bad_lines.get(k2, Decimal(0)) + Decimal(str(i["bill_amount"]))
        if not bad_lines:
            raise ValueError(f"{FAMILY} {c.key}: the exception bill has no cost code Vista maps")
        open_amt = money_str(worst["po_open_amount"])
        bad_args = {
            "vendor_id": str(bad["vista_vendor"]),
            "job_id": c.vjob,
            "invoice_number": bad["bill_name"],
            "invoice_date": bad["issued_on"].isoformat(),
            "lines": [{"phase": p, "cost_type": ct, "amount": money_str(a)} for (p, ct), a in bad_lines.items()],
        }
        scale = Decimal(open_amt) / Decimal(str(worst["bill_amount"]))
        capped_args = {
            **bad_args,
            "lines": [{**ln, "amount": money_str(Decimal(ln["amount"]) * scale)} for ln in bad_args["lines"]],
        }
        first = creates[0]
        short = _short(creates, to_book)
        good_matches = [m for m, b in zip(matches, c.bills, strict=True) if b not in c.exceptions]
        out = [
            mutant(
                "careless",
                f"the exception bill {bad['bill_name']} booked in Vista too",
                [*matches, *creates, step(first.tool, **bad_args)],
                "Booked both.",
                report,
            ),
            mutant(
                "stale",
                f"the exception bill booked for the {open_amt} still open on its PO line",
                [*matches, *creates, step(first.tool, **capped_args)],
                "Booked the matched bill and the open PO amount of the other.",
                report,
            ),
            mutant(
                "lookalike",
                f"{to_book[0]['bill_name']} booked under the other supplier's Vista vendor {c.other_vendor}",
                [*matches, with_args(first, vendor_id=str(c.other_vendor)), *creates[1:]],
                "Booked.",
                report,
            ),
        ]
        if short:
            out.append(
                mutant(
                    "careless",
                    "a matched bill booked for one item only",
                    [*matches, *creates[: short[0]], short[1], *creates[short[0] + 1 :]],
                    "Booked.",
                    report,
                )
            )
        out += [
            mutant(
                "careless",
                "the exception bill never matched in Ressio (left for the PM unrecorded)",
                [*good_matches, *creates],
                "Booked.",
                report,
            ),
            mutant(
                "contradicting_report",
                "right state, booked and exception bills reported the other way round",
                matches + creates,
                answers={"booked_bills": report["exception_bills"], "exception_bills": report["booked_bills"]},
            ),
            mutant(
                "shortcut",
                "matched in Ressio, nothing booked in Vista",
                list(matches),
                "Matched; Vista to follow.",
                report,
            ),
        ]
        return out

    def _all_matched_mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        """The wrong trajectories of a job whose waiting bills all match their POs (a held-out key)."""
        to_book, matches, creates = c.to_book, c.matches, c.creates
        first = creates[0]
        out = []
        for b in c.keep_out:  # a bill that matches but is not approved yet
            lines = [
                {"phase": m["erp_phase"], "cost_type": int(m["erp_cost_type"]), "amount": money_str(i["bill_amount"])}
                for i in b["items"]
                if (m := c.cost_map.get(i["cost_code"])) is not None and m["erp_phase"] is not None
            ]
            if lines:
                unapproved = {
                    "vendor_id": str(b["vista_vendor"]),
                    "job_id": c.vjob,
                    "invoice_number": b["bill_name"],
                    "invoice_date": b["issued_on"].isoformat(),
                    "lines": lines,
                }
                out.append(
                    mutant(
                        "careless",
                        f"the unapproved bill {b['bill_name']} booked in Vista too",
                        [*matches, *creates, step(first.tool, **unapproved)],
                        "Booked every matched bill.",
                        report,
                    )
                )
                break
        retained = next(
            (n for n, cr in enumerate(creates) if any(Decimal(ln["retainage"]) > 0 for ln in cr.args["lines"])), None
        )
        if retained is not None:
            cr = creates[retained]
            net = with_args(
                cr,
                lines=[
                    {**ln, "amount": money_str(Decimal(ln["amount"]) - Decimal(ln["retainage"]))}
                    for ln in cr.args["lines"]
                ],
            )
            out.append(
                mutant(
                    "careless",
                    f"{to_book[retained]['bill_name']} booked net of its retainage",
                    [*matches, *creates[:retained], net, *creates[retained + 1 :]],
                    "Booked.",
                    report,
                )
            )
        out.append(
            mutant(
                "lookalike",
                f"{to_book[0]['bill_name']} booked under another Vista vendor {c.other_vendor}",
                [*matches, with_args(first, vendor_id=str(c.other_vendor)), *creates[1:]],
                "Booked.",
                report,
            )
        )
        short = _short(creates, to_book)
        if short:
            out.append(
                mutant(
                    "careless",
                    "a matched bill booked for one item only",
                    [*matches, *creates[: short[0]], short[1], *creates[short[0] + 1 :]],
                    "Booked.",
                    report,
                )
            )
        return [
            *out,
            mutant(
                "careless",
                f"{to_book[0]['bill_name']} booked in Vista but never matched in Ressio",
                [m for m in matches if int(m.args["bill_id"]) != int(to_book[0]["bill_id"])] + creates,
                "Booked.",
                report,
            ),
            mutant(
                "contradicting_report",
                "right state, the booked bills reported as the exceptions",
                matches + creates,
                answers={"booked_bills": "none", "exception_bills": report["booked_bills"]},
            ),
            mutant(
                "shortcut",
                "matched in Ressio, nothing booked in Vista",
                list(matches),
                "Matched; Vista to follow.",
                report,
            ),
        ]

    def guarded_step(self, c: Case) -> ToolStep:
        first = c.to_book[0]
        return step(
            "vista_erp.vista_post",
            kind="ap_invoice",
            vendor_id=str(first["vista_vendor"]),
            invoice_number=first["bill_name"],
        )

    def defect_variant(self, c: Case) -> str | None:
        return "bill_po_mismatch" if c.bad is not None else None


def _short(creates: list[ToolStep], to_book: list[dict[str, Any]]) -> tuple[int, ToolStep] | None:
    """A booked bill with more than one Vista line (or bill item) booked for its first one only."""
    for n, (cr, b) in enumerate(zip(creates, to_book, strict=True)):
        if len(cr.args["lines"]) > 1:
            return n, with_args(cr, lines=cr.args["lines"][:1])
        if len(b["lines"]) > 1:
            return n, with_args(cr, lines=[{**cr.args["lines"][0], "amount": money_str(b["lines"][0]["amount"])}])
    return None


FAMILIES = [HRessioVistaAp]
