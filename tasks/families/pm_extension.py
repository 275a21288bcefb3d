"""The PM extension: what its single-app families and their cross-system counterparts share.

The paper's §"Diversifying the project-management surface" adds four PM platforms (RedTeam Go,
INGENIOUS.BUILD, Ressio, SmarteBuild), a family on each and four cross-system tasks that carry a
platform's work into the ERP. A cross-system task starts where its single-app family does, so both
read the same cases here, with the single-app family's SQL (``tasks/sql/<that family id>.sql``):

* RedTeam: the submitted eApps with the cap and line checks (``C_redteam_eapp_review``,
  ``H_redteam_sage_bill``);
* Ressio: the waiting PO bills, their expected match item by item and its evaluator entries
  (``C_ressio_bill_match``, ``H_ressio_vista_ap``);
* SmarteBuild: the re-estimate cases, single-app and cross-system, and their entries
  (``A_smartbuild_reestimate``, ``H_smartbuild_vista_reestimate``);
* the ERP bill lines of a PM document, one per crosswalk pair (phase / task and cost type);
* :func:`pick_tiers`: held-out keys from candidate tiers (the families' planted twist is unique in
  the book, so their further keys come first from candidates with a lesser twist, then plain ones).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from cfab.grader.predicates import RowPredicate
from cfab.tasks.family import BookReader, pick_held_out
from cfab.tasks.kit.entries import expect_added, expect_changed, forbid_added, forbid_changed
from cfab.tasks.kit.figures import cents, money_str, quantity
from cfab.tasks.kit.sql import case_of, case_when, quoted
from cfab.tasks.kit.steps import step
from cfab.tasks.model import ToolStep

# the single-app families whose SQL holds the shared queries
REDTEAM, RESSIO, REESTIMATE = "C_redteam_eapp_review", "C_ressio_bill_match", "A_smartbuild_reestimate"
PAPER = "CFAgentBench paper §'Diversifying the project-management surface'"
#: The source of the four cross-system tasks.
CROSS_SOURCE_REF = f"{PAPER} (the four cross-system tasks)"


def source_ref(what: str) -> str:
    """The source of a single-app PM family: the paper's section on ``what``."""
    return f"{PAPER} ({what}); docs/families.md#the-pm-extension"


def pick_tiers(family: str, tiers: Iterable[Iterable[str]], public: Iterable[str], n: int) -> list[str]:
    """``n`` held-out keys from candidate ``tiers`` (best first): all a tier offers (in
    :func:`~cfab.tasks.family.pick_held_out` order) before any of the next; never a public key."""
    taken = set(public)
    out: list[str] = []
    for tier in tiers:
        out += pick_held_out(family, tier, taken | set(out), n - len(out))
        if len(out) >= n:
            break
    return out


# ------------------------------------------------------------------------------ RedTeam
def submitted_eapps(book: BookReader) -> list[dict[str, Any]]:
    """Every submitted eApp with the cap check and the line check, as RedTeam computes them."""
    return book.q(REDTEAM, "submitted_eapps")


# ------------------------------------------------------------------------------ Ressio
def po_bills(book: BookReader) -> list[dict[str, Any]]:
    """The PO bills waiting in Ressio on residential jobs, with whether the book planted a mismatch."""
    return book.q(RESSIO, "po_bills")


def match_items(book: BookReader, bill_id: int) -> list[dict[str, Any]]:
    """The expected match rows of a bill; every item must name its PO item."""
    items = book.q(RESSIO, "match_items", bill_id=bill_id)
    count = book.q(RESSIO, "item_count", bill_id=bill_id)[0]
    if not items or count["n"] != len(items) or count["with_po_item"] != count["n"]:
        raise ValueError(f"Ressio bill {bill_id}: every item must name a PO item ({count}, {len(items)} matched)")
    return items


def variance(items: list[dict[str, Any]]) -> Decimal:
    """What a bill's items charge past what is open on their PO items."""
    return sum((Decimal(str(i["variance"])) for i in items), Decimal("0"))


def match_status(items: list[dict[str, Any]]) -> str:
    return "Exception" if any(i["result"] == "Exception" for i in items) else "Matched"


def match_entries(bill: dict[str, Any], items: list[dict[str, Any]]) -> list[RowPredicate]:
    """Expected entries for a bill's match: one bill_po_matches row per item, the bill's status."""
    bid = int(bill["bill_id"])
    status = match_status(items)
    by_item = {int(i["item_no"]): i for i in items}
    results = {i["result"] for i in items}
    result_sql = (
        f"result = {quoted(results.pop())}"
        if len(results) == 1
        else "result = " + case_when("item_no", ((str(k), quoted(i["result"])) for k, i in by_item.items()))
    )
    checks = [
        result_sql,
        f"po_id = {int(items[0]['po_id'])}",
        f"po_item_no = {case_of('item_no', {k: i['po_item_no'] for k, i in by_item.items()}, money=False)}",
        f"variance = {case_of('item_no', {k: i['variance'] for k, i in by_item.items()})}",
    ]
    if status == "Exception":
        checks.append(f"po_open_amount = {case_of('item_no', {k: i['po_open_amount'] for k, i in by_item.items()})}")
    shown = ", ".join(
        f"item {k} {i['result']}"
        + (
            f" (open {money_str(i['po_open_amount'])}, over {money_str(i['variance'])})"
            if i["result"] == "Exception"
            else ""
        )
        for k, i in by_item.items()
    )
    return [
        # the per-item expectations sit in `where` (a CASE over the key item_no) with an exact count: a row
        # with any wrong value matches no entry, so the count fails and the row is unexpected
        expect_added(
            "ressio",
            "bill_po_matches",
            f"bill_id = {bid} AND " + " AND ".join(checks),
            count=len(items),
            label=f"bill {bid} matched item by item: {shown}",
        ),
        expect_changed(
            "ressio",
            "bills",
            {"_pk": bid},
            assert_={"match_status": status},
            label=f"bill {bid} ({bill['bill_name']}) match status {status}",
        ),
    ]


def match_forbidden(bill_ids: list[int]) -> list[RowPredicate]:
    ids = ", ".join(str(b) for b in bill_ids)
    return [
        forbid_added("ressio", "bill_po_matches", f"bill_id NOT IN ({ids})", label="matched another bill"),
        forbid_changed("ressio", "bills", assert_="status = 'Paid'", label="a bill was paid"),
    ]


# ------------------------------------------------------------------------------ SmarteBuild re-estimates
def _candidates(book: BookReader, job: str) -> list[dict[str, Any]]:
    out = []
    for r in book.q(REESTIMATE, "candidates", job=job):
        q = Decimal(str(r["remeasured_quantity"]))
        change = (q / Decimal(str(r["quantity"])) - 1) * 100
        if not Decimal(5) <= abs(change) <= Decimal(25) or r["codes_on_phase_type"] != 1 or r["jcco"] is None:
            continue
        item_total = cents(q * Decimal(str(r["rate"])))
        code_total = item_total + Decimal(str(r["lump_sum_total"]))
        out.append(
            {
                **r,
                "remeasured_quantity": q,
                "change_pct": change,
                "item_total": item_total,
                "code_estimate": Decimal(str(r["code_total"])),
                "code_total": code_total,
                "reconciled_etc": max(Decimal("0.00"), code_total - Decimal(str(r["vista_actual"]))),
            }
        )
    return out


def _reestimate_jobs(book: BookReader) -> list[str]:
    return [
        r["job_no"]
        for r in book.rows(
            "SELECT j.job_no FROM smartbuild.jobs j JOIN smartbuild.estimates e ON e.job_id = j.job_id "
            "WHERE e.status = 'Accepted' AND j.status = 'Construction' ORDER BY j.job_no"
        )
    ]


def _is_single(c: dict[str, Any]) -> bool:
    """A single-app case: the cost code carries lump-sum items beside its measured one."""
    return c["lump_sum"] >= 1


def _is_cross(c: dict[str, Any]) -> bool:
    """A cross-system case: the Vista phase is split across cost types, the posted cost agreeing."""
    return c["cost_types_on_phase"] >= 2 and Decimal(str(c["vista_actual"])) == Decimal(str(c["actual_to_date"]))


_KIND = {"single": _is_single, "cross": _is_cross}


def reestimate_cases(book: BookReader) -> dict[str, dict[str, Any]]:
    """{"single": case, "cross": case}: the single-app re-estimate (a cost code with a measured item
    plus lump-sum items) and the cross-system one (a cost code whose Vista phase is split across
    cost types, its posted cost agreeing between SmarteBuild and Vista)."""
    single = cross = None
    for job in _reestimate_jobs(book):
        cands = _candidates(book, job)
        if single is None:
            single = next((c for c in cands if _is_single(c)), None)
        if cross is None:
            taken = (single["job_no"], single["cost_code"]) if single else None
            cross = next(
                (c for c in cands if _is_cross(c) and (c["job_no"], c["cost_code"]) != taken),
                None,
            )
        if single and cross:
            return {"single": single, "cross": cross}
    raise ValueError(
        f"{REESTIMATE}: no re-estimate candidates (single {single and single['cost_code']}, "
        f"cross {cross and cross['cost_code']})"
    )


def reestimate_candidates(book: BookReader, which: str) -> list[dict[str, Any]]:
    """Every ``which`` ("single" or "cross") re-estimate case of the book, by job and cost code
    (the held-out keys come from these; the public key is the first case :func:`reestimate_cases`
    names)."""
    return [c for job in _reestimate_jobs(book) for c in _candidates(book, job) if _KIND[which](c)]


def reestimate_key(case: dict[str, Any]) -> str:
    return f"{case['job_no']}-{case['cost_code']}"


def reestimate_case(book: BookReader, which: str, key: str) -> dict[str, Any]:
    """The ``which`` ("single" or "cross") re-estimate case ``key`` names: the public one, or a
    further case of the same kind (a held-out key)."""
    case = reestimate_cases(book)[which]
    if reestimate_key(case) == key:
        return case
    for job in _reestimate_jobs(book):
        if key.startswith(f"{job}-"):
            found = [c for c in _candidates(book, job) if _KIND[which](c) and reestimate_key(c) == key]
            if found:
                return found[0]
    raise KeyError(key)


def reestimate_expected(case: dict[str, Any]) -> RowPredicate:
    return expect_changed(
        "smartbuild",
        "boq_items",
        {"_pk": [case["estimate_id"], int(case["item_no"])]},
        assert_={
            "reestimate_quantity": quantity(case["remeasured_quantity"]),
            "reestimate_rate": str(case["rate"]),
            "reestimate_total": money_str(case["item_total"]),
            "reestimate_status": "Re-estimated",
        },
        allow_columns=["reestimate_note", "reestimated_at"],
        label=f"BOQ item {case['item_no']} of {case['estimate_id']} re-estimated: "
        f"{quantity(case['remeasured_quantity'])} {case['unit']} x {case['rate']} = "
        f"{money_str(case['item_total'])}",
    )


def reestimate_forbidden(case: dict[str, Any]) -> list[RowPredicate]:
    return [
        forbid_changed(
            "smartbuild",
            "boq_items",
            f"NOT (estimate_id = {quoted(case['estimate_id'])} AND item_no = {int(case['item_no'])})",
            label="another BOQ item was re-estimated (e.g. the cost code's lump-sum item)",
        )
    ]


def reestimate_sentence(case: dict[str, Any]) -> str:
    """What the estimator's re-measure came back with, as the instruction's first sentence."""
    text = (
        f"the estimator's site re-measure for {case['description']} (cost code {case['cost_code']}) on job "
        f"{case['job_no']} came back at {int(case['remeasured_quantity']):,} {case['unit']} (the estimate carries "
        f"{int(case['quantity']):,} {case['unit']})"
    )
    return text[0].upper() + text[1:]


# ------------------------------------------------------------------------------ ERP bill lines
def erp_bill(tool: str, commitment: str | None, **args: Any) -> ToolStep:
    """A PM document entered in the ERP as a bill with ``tool``, linked to its commitment only where the
    ERP carries that commitment (``commitment`` None: no link)."""
    return step(tool, **args, **({"commitment_id": commitment} if commitment is not None else {}))


def by_pair(lines: list[dict[str, Any]], phase: str) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """A PM document's lines by the crosswalk pair they map to (``phase`` names the phase / task column)."""
    pairs: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for ln in lines:
        pairs.setdefault((ln[phase], int(ln["cost_type"])), []).append(ln)
    return pairs


def pair_lines(lines: list[dict[str, Any]], phase: str, amount: str) -> list[dict[str, Any]]:
    """The ERP bill lines of a PM document: one per crosswalk pair, its ``amount`` and retainage summed."""
    return [
        {
            "phase": p,
            "cost_type": c,
            "amount": money_str(sum(Decimal(str(x[amount])) for x in lns)),
            "retainage": money_str(sum(Decimal(str(x["retainage"])) for x in lns)),
            "description": lns[0]["description"],
        }
        for (p, c), lns in by_pair(lines, phase).items()
    ]
