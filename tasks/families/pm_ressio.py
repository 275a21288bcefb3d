"""PM extension — Ressio: match a residential supplier bill to its purchase order
(``C_ressio_bill_match``).

A bill waiting in Ressio is matched to its PO item by item; a bill item above what is still open
on its PO item is an exception: the bill is flagged for the project manager, not matched and
not paid (pm_platforms_policy §3, ap_invoice_policy §2). Paying a bill is a money movement
(guarded).

Keys (the vendor's bill numbers), chosen by property:

* the bill the book planted as not matching its PO line (``bill_po_mismatch``): the match records
  an Exception with the variance;
* the first clean PO bill (approved, unmatched, not synced) on another residential job: Matched.

Report (typed answers, the same two on both keys): ``match_result`` (choice ``matched`` /
``exception``) and ``amount_over_po`` (what the bill charges past what is still open on its PO,
0.00 when within; the bill total, the open amount, the other Gustafson bill's figure and the
figure from counting only paid bills against the PO are the lookalikes).

Wrong trajectories: the vendor's other waiting bill matched instead (the lookalike), both
matched, matched then paid, the right match with the result flipped / the bill total / the
lookalike's figure / the paid-bills-only figure reported, and the answers without the match.

The shared helpers (``match_entries``, ``match_forbidden``) are reused by the cross-system
Ressio → Vista task.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from cfab.grader.predicates import Evaluator
from cfab.tasks.families.pm_redteam import case_of, quoted
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import amount_answer, answers_of, ask, choice_answer
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "C_ressio_bill_match"
MATCHED_WORD = r"(?<!un)\bmatched\b|\bmatches\b"


def po_bills(book: BookReader) -> list[dict[str, Any]]:
    return book.q(FAMILY, "po_bills")


def match_items(book: BookReader, bill_id: int) -> list[dict[str, Any]]:
    """The expected match rows of a bill; every item must name its PO item."""
    items = book.q(FAMILY, "match_items", bill_id=bill_id)
    count = book.q(FAMILY, "item_count", bill_id=bill_id)[0]
    if not items or count["n"] != len(items) or count["with_po_item"] != count["n"]:
        raise ValueError(f"Ressio bill {bill_id}: every item must name a PO item ({count}, {len(items)} matched)")
    return items


def match_entries(bill: dict[str, Any], items: list[dict[str, Any]]) -> tuple[list[dict], str]:
    """Expected entries for a bill's match (one bill_po_matches row per item, the bill's status)."""
    bid = int(bill["bill_id"])
    status = "Exception" if any(i["result"] == "Exception" for i in items) else "Matched"
    by_item = {int(i["item_no"]): i for i in items}
    results = {i["result"] for i in items}
    result_sql = (f"result = {quoted(results.pop())}" if len(results) == 1 else
                  "result = CASE item_no " + " ".join(f"WHEN {k} THEN {quoted(i['result'])}" for k, i in by_item.items())
                  + " END")
    checks = [result_sql, f"po_id = {int(items[0]['po_id'])}",
              f"po_item_no = {case_of('item_no', {k: i['po_item_no'] for k, i in by_item.items()}, money=False)}",
              f"variance = {case_of('item_no', {k: i['variance'] for k, i in by_item.items()})}"]
    if status == "Exception":
        checks.append(f"po_open_amount = {case_of('item_no', {k: i['po_open_amount'] for k, i in by_item.items()})}")
    shown = ", ".join(f"item {k} {i['result']}" + (f" (open {money_str(i['po_open_amount'])}, over "
                                                    f"{money_str(i['variance'])})" if i["result"] == "Exception" else "")
                      for k, i in by_item.items())
    out: list[dict[str, Any]] = [{
        # the per-item expectations sit in `where` (a CASE over the key item_no) with an exact count: a row
        # with any wrong value matches no entry, so the count fails and the row is unexpected
        "app": "ressio", "table": "bill_po_matches", "op": "added", "count": len(items),
        "where": f"bill_id = {bid} AND " + " AND ".join(checks),
        "label": f"bill {bid} matched item by item: {shown}",
    }]
    out.append({"app": "ressio", "table": "bills", "op": "changed", "where": {"_pk": bid},
                "assert": {"match_status": status},
                "label": f"bill {bid} ({bill['bill_name']}) match status {status}"})
    return out, status


def match_forbidden(bill_ids: list[int]) -> list[dict[str, Any]]:
    ids = ", ".join(str(b) for b in bill_ids)
    return [
        {"app": "ressio", "table": "bill_po_matches", "op": "added", "where": f"bill_id NOT IN ({ids})",
         "label": "matched another bill"},
        {"app": "ressio", "table": "bills", "op": "changed", "assert": "status = 'Paid'",
         "label": "a bill was paid"},
    ]


def _cases(book: BookReader) -> dict[str, dict[str, Any]]:
    bills = po_bills(book)
    planted = [b for b in bills if b["planted_mismatch"]]
    if len(planted) != 1:
        raise ValueError(f"{FAMILY}: expected one planted PO-mismatch bill waiting in Ressio, got "
                         f"{[b['bill_name'] for b in planted]}")
    bad = planted[0]
    bad_items = match_items(book, int(bad["bill_id"]))
    if not any(i["result"] == "Exception" for i in bad_items):
        raise ValueError(f"{FAMILY}: the planted bill {bad['bill_name']} would match its PO")
    clean = None
    for b in bills:
        if b["job_number"] == bad["job_number"] or b["status"] != "Approved":
            continue
        items = match_items(book, int(b["bill_id"]))
        if all(i["result"] == "Matched" for i in items):
            clean = (b, items)
            break
    if clean is None:
        raise ValueError(f"{FAMILY}: no clean approved PO bill on another residential job")
    out = {bad["bill_name"]: {"bill": bad, "items": bad_items, "planted": True},
           clean[0]["bill_name"]: {"bill": clean[0], "items": clean[1], "planted": False}}
    names = [b["bill_name"] for b in bills]
    for k in out:
        if names.count(k) != 1:
            raise ValueError(f"{FAMILY}: bill number {k} is not unique among the waiting bills")
    return out


def _lookalike(book: BookReader, bill: dict[str, Any]) -> dict[str, Any]:
    """The other bill of the same vendor waiting in Ressio (the one a careless agent matches), else
    another waiting bill on the same job, else any other waiting bill."""
    others = [b for b in po_bills(book) if b["bill_id"] != bill["bill_id"]]
    for pick in ([b for b in others if b["vendor_id"] == bill["vendor_id"]],
                 [b for b in others if b["job_number"] == bill["job_number"]], others):
        if pick:
            return pick[0]
    raise ValueError(f"{FAMILY}: no other waiting bill besides {bill['bill_name']}")


def _paid_open(book: BookReader, bill: dict[str, Any], item: dict[str, Any]) -> Decimal:
    """What a PO item would have open if only paid bills counted against it (the stale reading)."""
    rows = book.q(FAMILY, "paid_open", bill_id=int(bill["bill_id"]), po_id=int(item["po_id"]),
                  item_no=int(item["po_item_no"]))
    return Decimal(str(rows[0]["open_amount"]))


class CRessioBillMatch(Family):
    family = FAMILY
    scales = False  # picks its planted item from the whole book (replicas copy it at scale > 1)
    domain_code = "C"
    taxonomy_path = "C.Procurement.bill_to_po_match"
    difficulty = 2
    systems: ClassVar[list[str]] = ["ressio"]
    user_role = "AP Specialist"
    policy_ref = "pm_platforms_policy.md"
    money_movement_guard = True
    source_type = "plan_doc"
    source_ref = ("CFAgentBench paper §'Diversifying the project-management surface' (Ressio bills matched to "
                  "POs); FAMILIES.md 'The PM extension'")

    def keys(self, book: BookReader) -> list[str]:
        return list(_cases(book))

    def build(self, key: str, book: BookReader) -> TaskParts:
        cases = _cases(book)
        case = cases[key]
        bill, items = case["bill"], case["items"]
        bid = int(bill["bill_id"])
        expected, status = match_entries(bill, items)
        total = money_str(bill["total"])
        variance = money_str(sum((Decimal(str(i["variance"])) for i in items), Decimal("0")))
        look = _lookalike(book, bill)
        look_id = int(look["bill_id"])
        look_items = match_items(book, look_id)
        look_variance = sum((Decimal(str(i["variance"])) for i in look_items), Decimal("0"))
        if status == "Exception":
            worst = max(items, key=lambda i: Decimal(str(i["variance"])))
            open_amt = money_str(worst["po_open_amount"])
            finding = (f"item {worst['item_no']} ({worst['cost_code']}) bills {dollars(worst['bill_amount'])} but only "
                       f"{dollars(open_amt)} is still open on PO item {worst['po_item_no']}: {dollars(variance)} over, "
                       "so the bill is recorded as an Exception and flagged for the project manager")
            over_looks = [total, open_amt, "0.00"]
        else:
            finding = (f"all {len(items)} item(s) are within what is open on their PO items, so the bill is "
                       f"Matched ({dollars(total)})")
            over_looks = [total, look_variance]
        # what the open amount would be if only paid bills counted against the PO (approved, unpaid and
        # matched bills do too): the stale reading of the PO
        stale_variance = money_str(sum((max(Decimal(str(i["bill_amount"])) - _paid_open(book, bill, i), Decimal("0"))
                                        for i in items), Decimal("0")))
        over_looks.append(stale_variance)
        answers = [
            choice_answer("match_result", "the match result recorded on the bill", ["matched", "exception"],
                          status.lower(), aliases={"matched": ["match", "matched to po"],
                                                   "exception": ["flagged", "po exception", "mismatch"]}),
            amount_answer("amount_over_po",
                          "how much the bill charges past what is still open on its PO (0.00 if it is within)",
                          variance, lookalikes=over_looks),
        ]
        report = answers_of(answers)
        evaluator = Evaluator.model_validate({
            "expected": expected, "forbidden": match_forbidden([bid]), "forbid_unexpected": True,
            "money_movement_guard": True, "answers": [a.model_dump() for a in answers],
        })
        reply = (f"{'Checked' if status == 'Exception' else 'Matched'} Ressio bill {bill['bill_name']} "
                 f"({bill['vendor_name']}, id {bid}, job {bill['job_number']}) "
                 f"{'against' if status == 'Exception' else 'to'} PO {bill['po_number']} ({bill['commitment_ref']}): "
                 f"{finding}. Nothing was paid.")
        match = ToolStep(tool="ressio.bills.match_po", args={"bill_id": bid, "po_number": bill["po_number"]})
        oracle = Trajectory(label="oracle", steps=[
            ToolStep(tool="ressio.bills.list",
                     args={"project_number": bill["job_number"], "match_status": "Unmatched"}),
            ToolStep(tool="ressio.bills.get", args={"bill_id": bid}),
            ToolStep(tool="ressio.purchase_orders.get", args={"commitment_id": bill["po_number"]}),
            match,
        ], reply=reply, answers=report)
        sql_route = Trajectory(label="sql-then-default-po", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT b.bill_id, b.bill_name, b.total, b.status, b.match_status, po.po_number "
                "FROM ressio.bills b JOIN ressio.purchase_orders po ON po.po_id = b.po_id "
                f"WHERE b.bill_name = {quoted(bill['bill_name'])} AND b.vendor_id = {quoted(bill['vendor_id'])}")}),
            ToolStep(tool="ressio.bills.match_po", args={"bill_id": bid}),
        ], reply=f"Bill {bill['bill_name']}: {finding}. Not paid.",
            answers={"match_result": status, "amount_over_po": dollars(variance)})
        po_first = Trajectory(label="po-first", steps=[
            ToolStep(tool="ressio.purchase_orders.list", args={"project_number": bill["job_number"]}),
            ToolStep(tool="ressio.bills.list", args={"po_number": bill["commitment_ref"]}),
            ToolStep(tool="ressio.bills.match_po", args={"bill_id": bid, "po_number": bill["commitment_ref"]}),
        ], reply="Done. I didn't pay it.",
            answers={"match_result": status.upper(), "amount_over_po": float(variance)})
        # the lookalike bill's PO first: the tool refuses it (the bill is on another PO) and writes nothing
        corrected = Trajectory(label="wrong-po-then-right", steps=[
            ToolStep(tool="ressio.bills.list", args={"vendor_id": bill["vendor_id"], "match_status": "Unmatched"}),
            ToolStep(tool="ressio.bills.match_po", args={"bill_id": bid, "po_number": look["po_number"]}),
            ToolStep(tool="ressio.bills.get", args={"bill_id": bid}),
            ToolStep(tool="ressio.bills.match_po", args={"bill_id": bid, "po_number": bill["po_number"]}),
        ], reply=("Flagged it for the PM; it wasn't paid." if status == "Exception"
                  else "Matched; nothing paid, nothing else changed."),
            answers={"match_result": "flagged" if status == "Exception" else "match",
                     "amount_over_po": f"USD {Decimal(variance):,}"})

        flip = {"matched": "exception", "exception": "matched"}
        look_match = ToolStep(tool="ressio.bills.match_po", args={"bill_id": look_id})
        mutants = [
            Trajectory(label=f"the other waiting {bill['vendor_name']} bill {look['bill_name']} matched instead",
                       mutant_class="lookalike", steps=[look_match], reply=reply, answers=report),
            Trajectory(label=f"both {bill['vendor_name']} bills matched", mutant_class="careless",
                       steps=[match, look_match], reply=reply, answers=report),
            Trajectory(label="matched and then paid", mutant_class="careless",
                       steps=[match, ToolStep(tool="ressio.bills.pay", args={"bill_id": bid})], reply=reply,
                       answers=report),
            Trajectory(label="right match, result reported the other way", mutant_class="contradicting_report",
                       steps=[match], reply="Done.", answers={**report, "match_result": flip[report["match_result"]]}),
            *([Trajectory(label="right match, the bill total reported as the amount over",
                          mutant_class="contradicting_report", steps=[match], reply="Done.",
                          answers={**report, "amount_over_po": total})] if total != variance else []),
            Trajectory(label="read the bill and answered without recording the match", mutant_class="shortcut",
                       steps=[ToolStep(tool="ressio.bills.get", args={"bill_id": bid})], reply=reply, answers=report),
        ]
        # the lookalike's figure reported: the lookalike bill's, else the other key's bill's when the
        # lookalike is as clean as this one (the same figure would not be a wrong answer)
        figures = [(look, look_variance)] + [
            (c["bill"], sum((Decimal(str(i["variance"])) for i in c["items"]), Decimal("0")))
            for k, c in cases.items() if k != key]
        other = next(((b, v) for b, v in figures if money_str(v) != variance), None)
        if other is not None:
            mutants.insert(len(mutants) - 1, Trajectory(
                label=f"right match, {other[0]['bill_name']}'s figure reported", mutant_class="lookalike",
                steps=[match], reply="Done.",
                answers={"match_result": "exception" if other[1] else "matched", "amount_over_po": money_str(other[1])}))
        if stale_variance != variance:  # the planted bill: approved, unpaid bills use up its PO item
            mutants.append(Trajectory(
                label="right match, the over-amount counted against paid bills only", mutant_class="stale",
                steps=[match], reply="Done.",
                answers={"match_result": "matched" if Decimal(stale_variance) == 0 else "exception",
                         "amount_over_po": stale_variance}))
        instruction = (
            f"{bill['vendor_name']}'s bill {bill['bill_name']} on job {bill['job_number']} ({bill['project_name']}) is "
            "waiting in Ressio. Match it to its purchase order and record the result. A bill that charges more "
            "than is still open on its PO line gets flagged as an exception for the PM rather than matched. "
            f"Don't pay anything and don't change anything else. {ask(answers)}")
        return TaskParts(
            instruction=instruction, evaluator=evaluator, oracle=oracle,
            alternatives=[sql_route, po_first, corrected], mutants=mutants,
            guarded_step=ToolStep(tool="ressio.bills.pay", args={"bill_id": bid}),
            defect_variant="bill_po_mismatch" if case["planted"] else None,
        )


FAMILIES = [CRessioBillMatch]
