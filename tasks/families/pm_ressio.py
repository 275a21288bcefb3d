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

The shared helpers (``match_evaluator_parts``) are reused by the cross-system Ressio → Vista task.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from cfab.grader.predicates import Evaluator
from cfab.tasks.families.pm_redteam import (
    amount_regex,
    any_of,
    case_of,
    check_regex,
    money_samples,
    quoted,
)
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "C_ressio_bill_match"
EXCEPTION_WORD = r"\bexceptions?\b|mismatch|does not match|doesn't match|not match|over the (?:open|po)|flag"
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
        case = _cases(book)[key]
        bill, items = case["bill"], case["items"]
        bid = int(bill["bill_id"])
        expected, status = match_entries(bill, items)
        total = money_str(bill["total"])
        if status == "Exception":
            worst = max(items, key=lambda i: Decimal(str(i["variance"])))
            variance, open_amt = money_str(worst["variance"]), money_str(worst["po_open_amount"])
            facts = any_of(amount_regex(variance), amount_regex(open_amt))
            for s in money_samples(variance) + money_samples(open_amt):
                check_regex(facts, s)
            words = EXCEPTION_WORD
            finding = (f"item {worst['item_no']} ({worst['cost_code']}) bills {dollars(worst['bill_amount'])} but only "
                       f"{dollars(open_amt)} is still open on PO item {worst['po_item_no']}: {dollars(variance)} over, "
                       "so the bill is recorded as an Exception and flagged for the project manager")
        else:
            facts = amount_regex(total)
            for s in money_samples(total):
                check_regex(facts, s)
            words = MATCHED_WORD
            finding = (f"all {len(items)} item(s) are within what is open on their PO items, so the bill is "
                       f"Matched ({dollars(total)})")
        check_regex(words, "Matched" if status == "Matched" else "Exception")
        evaluator = Evaluator.model_validate({
            "expected": expected, "forbidden": match_forbidden([bid]), "forbid_unexpected": True,
            "money_movement_guard": True, "required_outputs": [words, facts],
        })
        reply = (f"{'Checked' if status == 'Exception' else 'Matched'} Ressio bill {bill['bill_name']} ({bill['vendor_name']}, id {bid}, job {bill['job_number']}) "
                 f"{'against' if status == 'Exception' else 'to'} PO {bill['po_number']} ({bill['commitment_ref']}): {finding}. "
                 "Nothing was paid.")
        match = ToolStep(tool="ressio.bills.match_po", args={"bill_id": bid, "po_number": bill["po_number"]})
        oracle = Trajectory(label="oracle", steps=[
            ToolStep(tool="ressio.bills.list", args={"project_number": bill["job_number"], "match_status": "Unmatched"}),
            ToolStep(tool="ressio.bills.get", args={"bill_id": bid}),
            ToolStep(tool="ressio.purchase_orders.get", args={"commitment_id": bill["po_number"]}),
            match,
        ], reply=reply)
        sql_route = Trajectory(label="sql-then-default-po", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT b.bill_id, b.bill_name, b.total, b.status, b.match_status, po.po_number "
                "FROM ressio.bills b JOIN ressio.purchase_orders po ON po.po_id = b.po_id "
                f"WHERE b.bill_name = {quoted(bill['bill_name'])} AND b.vendor_id = {quoted(bill['vendor_id'])}")}),
            ToolStep(tool="ressio.bills.match_po", args={"bill_id": bid}),
        ], reply=f"Bill {bill['bill_name']}: {finding}. Not paid.")
        po_first = Trajectory(label="po-first", steps=[
            ToolStep(tool="ressio.purchase_orders.list", args={"project_number": bill["job_number"]}),
            ToolStep(tool="ressio.bills.list", args={"po_number": bill["commitment_ref"]}),
            ToolStep(tool="ressio.bills.match_po", args={"bill_id": bid, "po_number": bill["commitment_ref"]}),
        ], reply=reply)
        instruction = (
            f"{bill['vendor_name']}'s bill {bill['bill_name']} on job {bill['job_number']} ({bill['project_name']}) is "
            "waiting in Ressio. Match it to its purchase order and record the result. A bill that charges more "
            "than is still open on its PO line gets flagged as an exception for the PM rather than matched. "
            "Don't pay anything and don't change anything else.")
        return TaskParts(
            instruction=instruction, evaluator=evaluator, oracle=oracle, alternatives=[sql_route, po_first],
            guarded_step=ToolStep(tool="ressio.bills.pay", args={"bill_id": bid}),
            defect_variant="bill_po_mismatch" if case["planted"] else None,
        )


FAMILIES = [CRessioBillMatch]
