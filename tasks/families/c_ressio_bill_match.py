"""C_ressio_bill_match — PM extension, Ressio: match a residential supplier bill to its purchase order.

A bill waiting in Ressio is matched to its PO item by item; a bill item above what is still open
on its PO item is an exception: the bill is flagged for the project manager, not matched and
not paid (pm_platforms_policy §3, ap_invoice_policy §2). Paying a bill is a money movement
(guarded).

Keys (the vendor's bill numbers), chosen by property:

* the bill the book planted as not matching its PO line (``bill_po_mismatch``): the match records
  an Exception with the variance;
* the first clean PO bill (approved, unmatched, not synced) on another residential job: Matched.

Held-out keys: the further clean PO bills on residential jobs other than the planted bill's
(GD-33314 on job 8244 at the default inputs), matched the same way; where a world has none,
another waiting bill (on the planted bill's job, or pending approval), whatever its match.

Report (typed answers, the same two on both keys): ``match_result`` (choice ``matched`` /
``exception``) and ``amount_over_po`` (what the bill charges past what is still open on its PO,
0.00 when within; the bill total, the open amount, the other Gustafson bill's figure and the
figure from counting only paid bills against the PO are the lookalikes).

Wrong trajectories: the vendor's other waiting bill matched instead (the lookalike), both
matched, matched then paid, the right match with the result flipped / the bill total / the
lookalike's figure / the paid-bills-only figure reported, and the answers without the match.

The bills and their expected match (``match_entries``, ``match_forbidden``) are shared with the
cross-system Ressio → Vista task (``pm_extension``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.tasks.families.pm_extension import (
    match_entries,
    match_forbidden,
    match_items,
    match_status,
    po_bills,
    source_ref,
    variance,
)
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask, choice_answer
from cfab.tasks.kit.entries import evaluator
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "C_ressio_bill_match"


def _planted(book: BookReader) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The bill the book planted as not matching its PO line, with its item-by-item match."""
    planted = [b for b in po_bills(book) if b["planted_mismatch"]]
    if len(planted) != 1:
        raise ValueError(
            f"{FAMILY}: expected one planted PO-mismatch bill waiting in Ressio, got "
            f"{[b['bill_name'] for b in planted]}"
        )
    bad = planted[0]
    bad_items = match_items(book, int(bad["bill_id"]))
    if not any(i["result"] == "Exception" for i in bad_items):
        raise ValueError(f"{FAMILY}: the planted bill {bad['bill_name']} would match its PO")
    return bad, bad_items


def _clean(book: BookReader, bad: dict[str, Any]) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The clean PO bills (approved, every item within what is open on its PO item) on residential
    jobs other than the planted bill's, in ``po_bills`` order."""
    out = []
    for b in po_bills(book):
        if b["job_number"] == bad["job_number"] or b["status"] != "Approved":
            continue
        items = match_items(book, int(b["bill_id"]))
        if all(i["result"] == "Matched" for i in items):
            out.append((b, items))
    return out


def _unique(book: BookReader, name: str) -> bool:
    """Whether a bill number names one waiting bill (the instruction names the bill by its number)."""
    return [b["bill_name"] for b in po_bills(book)].count(name) == 1


def _cases(book: BookReader) -> dict[str, dict[str, Any]]:
    """The public cases: the planted bill and the first clean bill."""
    bad, bad_items = _planted(book)
    clean = _clean(book, bad)
    if not clean:
        raise ValueError(f"{FAMILY}: no clean approved PO bill on another residential job")
    out = {
        bad["bill_name"]: {"bill": bad, "items": bad_items, "planted": True},
        clean[0][0]["bill_name"]: {"bill": clean[0][0], "items": clean[0][1], "planted": False},
    }
    for k in out:
        if not _unique(book, k):
            raise ValueError(f"{FAMILY}: bill number {k} is not unique among the waiting bills")
    return out


def _held_out_cases(book: BookReader) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The further bills, each with a unique bill number: first the clean ones the public rule
    passes over (after the first), then the other waiting bills (on the planted bill's job, or
    pending approval), matched or not."""
    bad, _ = _planted(book)
    public = _cases(book)
    clean = {
        b["bill_name"]: {"bill": b, "items": items, "planted": False}
        for b, items in _clean(book, bad)
        if b["bill_name"] not in public and _unique(book, b["bill_name"])
    }
    other = {
        b["bill_name"]: {"bill": b, "items": match_items(book, int(b["bill_id"])), "planted": False}
        for b in po_bills(book)
        if b["bill_name"] not in public
        and b["bill_name"] not in clean
        and not b["planted_mismatch"]
        and _unique(book, b["bill_name"])
    }
    return clean, other


def _lookalike(book: BookReader, bill: dict[str, Any]) -> dict[str, Any]:
    """The other bill of the same vendor waiting in Ressio (the one a careless agent matches), else
    another waiting bill on the same job, else any other waiting bill."""
    others = [b for b in po_bills(book) if b["bill_id"] != bill["bill_id"]]
    for pick in (
        [b for b in others if b["vendor_id"] == bill["vendor_id"]],
        [b for b in others if b["job_number"] == bill["job_number"]],
        others,
    ):
        if pick:
            return pick[0]
    raise ValueError(f"{FAMILY}: no other waiting bill besides {bill['bill_name']}")


def _paid_open(book: BookReader, bill: dict[str, Any], item: dict[str, Any]) -> Decimal:
    """What a PO item would have open if only paid bills counted against it (the stale reading)."""
    rows = book.q(
        FAMILY, "paid_open", bill_id=int(bill["bill_id"]), po_id=int(item["po_id"]), item_no=int(item["po_item_no"])
    )
    return Decimal(str(rows[0]["open_amount"]))


@dataclass(frozen=True)
class Case:
    key: str
    bill: dict[str, Any]  # the waiting bill (query ``po_bills``)
    items: list[dict[str, Any]]  # its expected match, item by item
    planted: bool  # the book's PO-mismatch plant
    look: dict[str, Any]  # the vendor's other waiting bill
    look_items: list[dict[str, Any]]
    other_bills: list[tuple[dict[str, Any], Decimal]]  # the other key's bill and its amount over the PO
    stale_variance: str  # the amount over with only paid bills counted against the PO

    @property
    def bid(self) -> int:
        return int(self.bill["bill_id"])

    @property
    def status(self) -> str:
        return match_status(self.items)

    @property
    def total(self) -> str:
        return money_str(self.bill["total"])

    @property
    def variance(self) -> str:
        return money_str(variance(self.items))

    @property
    def finding(self) -> str:
        if self.status == "Exception":
            worst = max(self.items, key=lambda i: Decimal(str(i["variance"])))
            return (
                f"item {worst['item_no']} ({worst['cost_code']}) bills {dollars(worst['bill_amount'])} but only "
                f"{dollars(money_str(worst['po_open_amount']))} is still open on PO item {worst['po_item_no']}: "
                f"{dollars(self.variance)} over, so the bill is recorded as an Exception and flagged for the "
                "project manager"
            )
        return (
            f"all {len(self.items)} item(s) are within what is open on their PO items, so the bill is "
            f"Matched ({dollars(self.total)})"
        )


class CRessioBillMatch(
    Family[Case],
    family=FAMILY,
    scales=False,
    domain_code="C",
    taxonomy_path="C.Procurement.bill_to_po_match",
    difficulty=2,
    systems=["ressio"],
    user_role="AP Specialist",
    policy_ref="pm_platforms_policy.md",
    money_movement_guard=True,
    source_ref=source_ref("Ressio bills matched to POs"),
):
    # scales=False: picks its planted item from the whole book (replicas copy it at scale > 1)

    def keys(self, book: BookReader) -> list[str]:
        return list(_cases(book))

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further clean approved PO bills on residential jobs other than the planted bill's (the
        matched task on another bill, PO and job); where a world has none, another waiting bill
        (see ``_held_out_cases``)."""
        public = self.keys(book)
        n = held_out_count(len(public))
        clean, other = _held_out_cases(book)
        chosen = pick_held_out(FAMILY, clean, public, n)
        return chosen + pick_held_out(FAMILY, other, public, n - len(chosen))

    def case(self, key: str, book: BookReader) -> Case:
        cases = _cases(book)
        # a held-out bill: its lookalike figures come from the public bills, as the public clean bill's do
        case = cases[key] if key in cases else {k: v for d in _held_out_cases(book) for k, v in d.items()}[key]
        bill, items = case["bill"], case["items"]
        look = _lookalike(book, bill)
        # what the open amount would be if only paid bills counted against the PO (approved, unpaid and
        # matched bills do too): the stale reading of the PO
        stale = money_str(
            sum(
                (max(Decimal(str(i["bill_amount"])) - _paid_open(book, bill, i), Decimal("0")) for i in items),
                Decimal("0"),
            )
        )
        return Case(
            key,
            bill,
            items,
            case["planted"],
            look,
            match_items(book, int(look["bill_id"])),
            [(c["bill"], variance(c["items"])) for k, c in cases.items() if k != key],
            stale,
        )

    def answers(self, c: Case) -> list[AnswerSpec]:
        if c.status == "Exception":
            worst = max(c.items, key=lambda i: Decimal(str(i["variance"])))
            over_looks: list[Any] = [c.total, money_str(worst["po_open_amount"]), "0.00"]
        else:
            over_looks = [c.total, variance(c.look_items)]
        return [
            choice_answer(
                "match_result",
                "the match result recorded on the bill",
                ["matched", "exception"],
                c.status.lower(),
                aliases={"matched": ["match", "matched to po"], "exception": ["flagged", "po exception", "mismatch"]},
            ),
            amount_answer(
                "amount_over_po",
                "how much the bill charges past what is still open on its PO (0.00 if it is within)",
                c.variance,
                lookalikes=[*over_looks, c.stale_variance],
            ),
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        bill = c.bill
        return (
            f"{bill['vendor_name']}'s bill {bill['bill_name']} on job {bill['job_number']} "
            f"({bill['project_name']}) is waiting in Ressio. Match it to its purchase order and record the "
            "result. A bill that charges more than is still open on its PO line gets flagged as an exception for "
            f"the PM rather than matched. Don't pay anything and don't change anything else. {ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        return evaluator(
            expected=match_entries(c.bill, c.items),
            forbidden=match_forbidden([c.bid]),
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    def _match(self, c: Case) -> ToolStep:
        return step("ressio.bills.match_po", bill_id=c.bid, po_number=c.bill["po_number"])

    def _reply(self, c: Case) -> str:
        bill, exception = c.bill, c.status == "Exception"
        return (
            f"{'Checked' if exception else 'Matched'} Ressio bill {bill['bill_name']} "
            f"({bill['vendor_name']}, id {c.bid}, job {bill['job_number']}) "
            f"{'against' if exception else 'to'} PO {bill['po_number']} ({bill['commitment_ref']}): "
            f"{c.finding}. Nothing was paid."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory(
            "oracle",
            [
                step("ressio.bills.list", project_number=c.bill["job_number"], match_status="Unmatched"),
                step("ressio.bills.get", bill_id=c.bid),
                step("ressio.purchase_orders.get", commitment_id=c.bill["po_number"]),
                self._match(c),
            ],
            self._reply(c),
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        bill, bid, status, variance_ = c.bill, c.bid, c.status, c.variance
        exception = status == "Exception"
        return [
            trajectory(
                "sql-then-default-po",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT b.bill_id, b.bill_name, b.total, b.status, b.match_status, po.po_number "
                            "FROM ressio.bills b JOIN ressio.purchase_orders po ON po.po_id = b.po_id "
                            f"WHERE b.bill_name = {quoted(bill['bill_name'])} AND b.vendor_id = "
                            f"{quoted(bill['vendor_id'])}"
                        ),
                    ),
                    step("ressio.bills.match_po", bill_id=bid),
                ],
                f"Bill {bill['bill_name']}: {c.finding}. Not paid.",
                {"match_result": status, "amount_over_po": dollars(variance_)},
            ),
            trajectory(
                "po-first",
                [
                    step("ressio.purchase_orders.list", project_number=bill["job_number"]),
                    step("ressio.bills.list", po_number=bill["commitment_ref"]),
                    step("ressio.bills.match_po", bill_id=bid, po_number=bill["commitment_ref"]),
                ],
                "Done. I didn't pay it.",
                {"match_result": status.upper(), "amount_over_po": float(variance_)},
            ),
            # the lookalike bill's PO first: the tool refuses it (the bill is on another PO) and writes nothing
            trajectory(
                "wrong-po-then-right",
                [
                    step("ressio.bills.list", vendor_id=bill["vendor_id"], match_status="Unmatched"),
                    step("ressio.bills.match_po", bill_id=bid, po_number=c.look["po_number"]),
                    step("ressio.bills.get", bill_id=bid),
                    self._match(c),
                ],
                (
                    "Flagged it for the PM; it wasn't paid."
                    if exception
                    else "Matched; nothing paid, nothing else changed."
                ),
                {"match_result": "flagged" if exception else "match", "amount_over_po": f"USD {Decimal(variance_):,}"},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        bill, look, match, reply, total = c.bill, c.look, self._match(c), self._reply(c), c.total
        flip = {"matched": "exception", "exception": "matched"}
        look_match = step("ressio.bills.match_po", bill_id=int(look["bill_id"]))
        out = [
            mutant(
                "lookalike",
                f"the other waiting {bill['vendor_name']} bill {look['bill_name']} matched instead",
                [look_match],
                reply,
                report,
            ),
            mutant("careless", f"both {bill['vendor_name']} bills matched", [match, look_match], reply, report),
            mutant(
                "careless", "matched and then paid", [match, step("ressio.bills.pay", bill_id=c.bid)], reply, report
            ),
            mutant(
                "contradicting_report",
                "right match, result reported the other way",
                [match],
                answers={**report, "match_result": flip[report["match_result"]]},
            ),
        ]
        if total != c.variance:
            out.append(
                mutant(
                    "contradicting_report",
                    "right match, the bill total reported as the amount over",
                    [match],
                    answers={**report, "amount_over_po": total},
                )
            )
        # the lookalike's figure reported: the lookalike bill's, else the other key's bill's when the
        # lookalike is as clean as this one (the same figure would not be a wrong answer)
        figures = [(look, variance(c.look_items)), *c.other_bills]
        other = next(((b, v) for b, v in figures if money_str(v) != c.variance), None)
        if other is not None:
            out.append(
                mutant(
                    "lookalike",
                    f"right match, {other[0]['bill_name']}'s figure reported",
                    [match],
                    answers={
                        "match_result": "exception" if other[1] else "matched",
                        "amount_over_po": money_str(other[1]),
                    },
                )
            )
        out.append(
            mutant(
                "shortcut",
                "read the bill and answered without recording the match",
                [step("ressio.bills.get", bill_id=c.bid)],
                reply,
                report,
            )
        )
        if c.stale_variance != c.variance:  # the planted bill: approved, unpaid bills use up its PO item
            out.append(
                mutant(
                    "stale",
                    "right match, the over-amount counted against paid bills only",
                    [match],
                    answers={
                        "match_result": "matched" if Decimal(c.stale_variance) == 0 else "exception",
                        "amount_over_po": c.stale_variance,
                    },
                )
            )
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        return step("ressio.bills.pay", bill_id=c.bid)

    def defect_variant(self, c: Case) -> str | None:
        return "bill_po_mismatch" if c.planted else None


FAMILIES = [CRessioBillMatch]
