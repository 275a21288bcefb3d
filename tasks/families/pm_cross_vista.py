"""PM extension — the cross-system reconciliation tasks (domain H), part 2: supplier bills and
re-estimates from the residential and estimating platforms into Vista (part 1: `pm_cross`).

* ``H_ressio_vista_ap``: the supplier bills waiting on a residential job in Ressio are matched to
  their POs; every approved bill that matches is booked in Vista as an UNPOSTED AP invoice; the bill
  that does not match its PO line (``bill_po_mismatch``) is flagged and stays out of the ERP
  (pm_platforms_policy §3). Key: the planted bill's job. Careless step: post the booked invoice.
  Report: ``booked_bills`` and ``exception_bills`` (id lists of bill numbers; the Ressio bill id is an
  accepted spelling). Bill lines are free in shape (one per pair or one per bill item): the header
  totals and the crosswalk's phase / cost type are asserted.
* ``H_smartbuild_vista_reestimate``: an estimator's re-measure recorded as a SmarteBuild re-estimate,
  then reconciled into Vista: the estimate to complete on the Vista phase AND cost type the cost code
  maps to becomes the cost code's re-estimated current total less the cost posted there (never
  below zero), pending. The reconciled end state is that one JCCH row (the job-level estimate and
  the phase's other cost types stay as they are). Twist ``cost_type_split``: the Vista phase
  carries another cost type for a different cost code. Careless step: post the projection. No report
  is asked for (no answers; a terse "Done" passes).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from cfab.grader.predicates import Evaluator
from cfab.tasks.families.pm_cross import SRC
from cfab.tasks.families.pm_redteam import quoted
from cfab.tasks.families.pm_ressio import (
    match_entries,
    match_forbidden,
    match_items,
    po_bills,
)
from cfab.tasks.families.pm_smartbuild import (
    qty_str,
    reestimate_cases,
    reestimate_expected,
    reestimate_forbidden,
    reestimate_key,
    reestimate_sentence,
)
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import answers_of, ask, id_list_answer
from cfab.tasks.model import ToolStep, Trajectory

RS_VISTA = "H_ressio_vista_ap"
SB_VISTA = "H_smartbuild_vista_reestimate"


# ================================================================================ Ressio → Vista AP
def _rs_case(book: BookReader) -> dict[str, Any]:
    bills = po_bills(book)
    planted = [b for b in bills if b["planted_mismatch"]]
    if len(planted) != 1:
        raise ValueError(f"{RS_VISTA}: expected one planted PO-mismatch bill, got {len(planted)}")
    job = planted[0]["job_number"]
    on_job = [b for b in bills if b["job_number"] == job]
    book_these, keep_out = [], []
    for b in on_job:
        b["items"] = match_items(book, int(b["bill_id"]))
        matched = all(i["result"] == "Matched" for i in b["items"])
        ctx = book.q(RS_VISTA, "vista_context", job=job, vendor=b["master_vendor_id"], commitment=b["commitment_ref"],
                     invoice=b["bill_name"])[0]
        b.update(vista_job=ctx["vista_job"], vista_vendor=ctx["vista_vendor"],
                 commitment_in_vista=bool(ctx["commitment_in_vista"]))
        if ctx["already_in_vista"]:
            raise ValueError(f"{RS_VISTA}: bill {b['bill_name']} is already in Vista")
        if matched and b["status"] == "Approved":
            b["lines"] = book.q(RS_VISTA, "vista_lines", bill_id=int(b["bill_id"]))
            if any(ln["phase"] is None for ln in b["lines"]):
                raise ValueError(f"{RS_VISTA}: bill {b['bill_name']} has a cost code Vista does not map")
            book_these.append(b)
        else:
            keep_out.append(b)
    if not book_these or not any(b["planted_mismatch"] for b in keep_out):
        raise ValueError(f"{RS_VISTA}: job {job} needs a bill to book and the planted mismatch to keep out")
    return {"job": job, "book": book_these, "keep_out": keep_out, "bills": on_job}


class HRessioVistaAp(Family):
    family = RS_VISTA
    scales = False  # picks its planted item from the whole book (replicas copy it at scale > 1)
    domain_code = "H"
    taxonomy_path = "H.PMtoERP.bill_po_match_then_ap_invoice"
    difficulty = 3
    systems: ClassVar[list[str]] = ["ressio", "vista_erp", "hh2"]
    user_role = "AP Manager"
    policy_ref = "pm_platforms_policy.md"
    money_movement_guard = True
    source_ref = SRC

    def keys(self, book: BookReader) -> list[str]:
        return [_rs_case(book)["job"]]

    def build(self, key: str, book: BookReader) -> TaskParts:
        case = _rs_case(book)
        bills, to_book, keep_out = case["bills"], case["book"], case["keep_out"]
        vjob = to_book[0]["vista_job"]
        expected: list[dict[str, Any]] = []
        matches: list[ToolStep] = []
        for b in bills:
            entries, _status = match_entries(b, b["items"])
            expected += entries
            matches.append(ToolStep(tool="ressio.bills.match_po", args={"bill_id": int(b["bill_id"]),
                                                                         "po_number": b["po_number"]}))
        forbidden = match_forbidden([int(b["bill_id"]) for b in bills])
        creates: list[ToolStep] = []
        pairs_all: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for b in to_book:
            gross, ret, net = money_str(b["subtotal"]), money_str(b["retainage"]), money_str(b["total"])
            sl = f"SL IS NULL OR SL = {quoted(b['commitment_ref'])}"
            expected.append({
                "app": "vista_erp", "table": "APHB", "op": "added",
                "where": f"APRef = {quoted(b['bill_name'])} AND Vendor = {int(b['vista_vendor'])}",
                "assert": (f"Job = {quoted(vjob)} AND InvTotal = {gross} AND RetainageAmt = {ret} AND NetAmt = {net} "
                           f"AND ({sl})"),
                "label": f"unposted Vista AP invoice {b['bill_name']} for vendor {b['vista_vendor']} on {vjob}: {gross}"})
            pairs: dict[tuple[str, int], list[dict[str, Any]]] = {}
            for ln in b["lines"]:
                pairs.setdefault((ln["phase"], int(ln["cost_type"])), []).append(ln)
                pairs_all.setdefault((ln["phase"], int(ln["cost_type"])), []).append(ln)
            args: dict[str, Any] = {
                "vendor_id": str(b["vista_vendor"]), "job_id": vjob, "invoice_number": b["bill_name"],
                "invoice_date": b["issued_on"].isoformat(), "due_date": b["due_date"].isoformat(),
                "description": f"Ressio bill {b['bill_name']} - PO {b['po_number']}",
                "lines": [{"phase": p, "cost_type": c,
                           "amount": money_str(sum(Decimal(str(x["amount"])) for x in lns)),
                           "retainage": money_str(sum(Decimal(str(x["retainage"])) for x in lns)),
                           "description": lns[0]["description"]} for (p, c), lns in pairs.items()],
            }
            if b["commitment_in_vista"]:
                args["commitment_id"] = b["commitment_ref"]
            creates.append(ToolStep(tool="vista_erp.ap_invoices.create", args=args))
        for phase, ctype in pairs_all:
            entry: dict[str, Any] = {"app": "vista_erp", "table": "APLB", "op": "added",
                                     "where": f"Job = {quoted(vjob)} AND Phase = {quoted(phase)} AND JCCType = {ctype}",
                                     "label": f"a Vista AP line on {vjob} phase {phase} cost type {ctype}"}
            expected.append(entry)
        allowed = " OR ".join(f"(Phase = {quoted(p)} AND JCCType = {c})" for p, c in pairs_all)
        forbidden += [
            {"app": "vista_erp", "table": "APLB", "op": "added", "where": f"NOT ({allowed}) OR Job <> {quoted(vjob)}",
             "label": "an AP line coded off the crosswalk (phase / cost type) or to another job"},
            {"app": "vista_erp", "table": "APHB", "op": "added",
             "where": " OR ".join(f"APRef = {quoted(b['bill_name'])}" for b in keep_out),
             "label": "a bill that does not match its PO (or is not approved) was booked in Vista"},
        ]
        bad = next(b for b in keep_out if b["planted_mismatch"])
        worst = max(bad["items"], key=lambda i: Decimal(str(i["variance"])))
        var, open_amt = money_str(worst["variance"]), money_str(worst["po_open_amount"])
        exceptions = [b for b in bills if any(i["result"] != "Matched" for i in b["items"])]
        aliases = {b["bill_name"]: [str(int(b["bill_id"]))] for b in bills}
        answers = [
            id_list_answer("booked_bills", "the bills you booked in Vista (their bill numbers)",
                           [b["bill_name"] for b in to_book], aliases=aliases,
                           lookalikes=[b["bill_name"] for b in keep_out]),
            id_list_answer("exception_bills", "the bills that did not match their PO (their bill numbers)",
                           [b["bill_name"] for b in exceptions], aliases=aliases,
                           lookalikes=[b["bill_name"] for b in bills if b not in exceptions]),
        ]
        report = answers_of(answers)
        evaluator = Evaluator.model_validate({
            "expected": expected, "forbidden": forbidden, "forbid_unexpected": True, "money_movement_guard": True,
            "answers": [a.model_dump() for a in answers],
        })
        booked = "; ".join(f"{b['bill_name']} ({b['vendor_name']}, Vista vendor {b['vista_vendor']}, "
                           f"{dollars(b['subtotal'])}, PO {b['commitment_ref']})" for b in to_book)
        reply = (f"Matched the waiting supplier bills on job {key} to their POs in Ressio. Bill {bad['bill_name']} "
                 f"({bad['vendor_name']}) is an exception: item {worst['item_no']} bills {dollars(worst['bill_amount'])} "
                 f"against {dollars(open_amt)} still open on PO {bad['po_number']} item {worst['po_item_no']} "
                 f"({dollars(var)} over), so it is flagged for the PM and was not booked. Booked the matched bill(s) in "
                 f"Vista as unposted AP invoices on job {vjob}: {booked}. Nothing was posted or paid.")
        reads = [
            ToolStep(tool="ressio.bills.list", args={"project_number": key, "accounting_status": "Not Synced",
                                                      "match_status": "Unmatched"}),
            *[ToolStep(tool="ressio.bills.get", args={"bill_id": int(b["bill_id"])}) for b in bills],
        ]
        maps = [
            ToolStep(tool="hh2.job_map.list", args={"master_job_number": key, "system": "vista_erp"}),
            *[ToolStep(tool="hh2.vendor_map.list", args={"master_vendor_id": b["master_vendor_id"],
                                                         "system": "vista_erp"}) for b in to_book],
            ToolStep(tool="hh2.cost_code_map.list", args={"erp_system": "vista_erp"}),
        ]
        oracle = Trajectory(label="oracle", steps=reads + matches + maps + creates, reply=reply, answers=report)
        sql_route = Trajectory(label="sql-reverse-order", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT b.bill_id, b.bill_name, b.status, b.total, po.po_number, po.commitment_ref, b.vendor_id "
                "FROM ressio.bills b JOIN ressio.projects p ON p.project_id = b.project_id "
                "JOIN ressio.purchase_orders po ON po.po_id = b.po_id "
                f"WHERE p.job_number = {quoted(key)} AND b.match_status = 'Unmatched' "
                "AND b.accounting_status = 'Not Synced'")}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT v.master_vendor_id, v.system, v.system_vendor_id FROM hh2.vendor_map v "
                "WHERE v.system IN ('ressio', 'vista_erp') AND v.master_vendor_id IN ("
                + ", ".join(quoted(b["master_vendor_id"]) for b in bills) + ")")}),
            *[ToolStep(tool="ressio.bills.match_po", args={"bill_id": int(b["bill_id"])}) for b in reversed(bills)],
            *creates,
        ], reply=(f"{bad['bill_name']}: PO exception ({money_str(var)} over the open PO line), not booked. Booked "
                  + ", ".join(b["bill_name"] for b in to_book) + f" in Vista (unposted) on {vjob}."),
            answers={"booked_bills": [int(b["bill_id"]) for b in to_book],
                     "exception_bills": [int(b["bill_id"]) for b in exceptions]})
        # one Vista line per Ressio bill item (the same phase / cost type repeated), no commitment link
        per_item = [ToolStep(tool=c.tool, args={
            **{k: v for k, v in c.args.items() if k not in ("lines", "commitment_id", "due_date")},
            "lines": [{"phase": ln["phase"], "cost_type": int(ln["cost_type"]), "amount": money_str(ln["amount"]),
                       "retainage": money_str(ln["retainage"]), "description": ln["description"]}
                      for ln in b["lines"]]}) for c, b in zip(creates, to_book)]
        by_item = Trajectory(label="one-vista-line-per-bill-item", steps=[
            *matches, *per_item,
        ], reply="Done — matched bills are booked (unposted); the exception wasn't booked.",
            answers={"booked_bills": "; ".join(b["bill_name"] for b in to_book),
                     "exception_bills": "; ".join(b["bill_name"] for b in exceptions)})
        # Vista first (the matched bills are known from Ressio's open PO amounts), then the Ressio matches
        vista_first = Trajectory(label="vista-booked-before-ressio-match", steps=[
            *reads, *maps[::-1], *creates, *reversed(matches),
        ], reply="Booked the bill(s) that match; flagged the one that doesn't. Nothing posted or paid.",
            answers={"booked_bills": [b["bill_name"] for b in to_book],
                     "exception_bills": [f"#{int(b['bill_id'])}" for b in exceptions]})

        # ---- wrong trajectories
        bad_lines: dict[tuple[str, int], Decimal] = {}
        cost_map = {r["cost_code"]: r for r in book.rows(
            "SELECT cost_code, erp_phase, erp_cost_type FROM hh2.cost_code_map WHERE erp_system = 'vista_erp'")}
        for i in bad["items"]:
            m = cost_map.get(i["cost_code"])
            if m is None or m["erp_phase"] is None:
                continue
            k2 = (m["erp_phase"], int(m["erp_cost_type"]))
            bad_lines[k2] = bad_lines.get(k2, Decimal(0)) + Decimal(str(i["bill_amount"]))
        if not bad_lines:
            raise ValueError(f"{RS_VISTA} {key}: the exception bill has no cost code Vista maps")
        bad_args = {"vendor_id": str(bad["vista_vendor"]), "job_id": vjob, "invoice_number": bad["bill_name"],
                    "invoice_date": bad["issued_on"].isoformat(),
                    "lines": [{"phase": p, "cost_type": c, "amount": money_str(a)} for (p, c), a in bad_lines.items()]}
        scale = Decimal(open_amt) / Decimal(str(worst["bill_amount"]))
        capped_args = {**bad_args, "lines": [{**ln, "amount": money_str(Decimal(ln["amount"]) * scale)}
                                             for ln in bad_args["lines"]]}
        first = creates[0]
        # the exception bill's supplier, else (one supplier bills the whole job) another Vista vendor
        other_vendor = bad["vista_vendor"] if str(bad["vista_vendor"]) != str(to_book[0]["vista_vendor"]) else \
            book.scalar("SELECT min(system_vendor_id) FROM hh2.vendor_map WHERE system = 'vista_erp' "
                        "AND system_vendor_id <> $v", {"v": str(to_book[0]["vista_vendor"])})
        wrong_vendor = ToolStep(tool=first.tool, args={**first.args, "vendor_id": str(other_vendor)})
        # a booked bill with more than one Vista line (or bill item) booked for its first one only
        short = None
        for n, (c, b) in enumerate(zip(creates, to_book)):
            if len(c.args["lines"]) > 1:
                short = (n, ToolStep(tool=c.tool, args={**c.args, "lines": c.args["lines"][:1]}))
            elif len(b["lines"]) > 1:
                short = (n, ToolStep(tool=c.tool, args={**c.args, "lines": [
                    {**c.args["lines"][0], "amount": money_str(b["lines"][0]["amount"])}]}))
            if short:
                break
        good_matches = [m for m, b in zip(matches, bills) if b not in exceptions]
        mutants = [
            Trajectory(label=f"the exception bill {bad['bill_name']} booked in Vista too", mutant_class="careless",
                       steps=[*matches, *creates, ToolStep(tool=first.tool, args=bad_args)], reply="Booked both.",
                       answers=report),
            Trajectory(label=f"the exception bill booked for the {open_amt} still open on its PO line",
                       mutant_class="stale", steps=[*matches, *creates, ToolStep(tool=first.tool, args=capped_args)],
                       reply="Booked the matched bill and the open PO amount of the other.", answers=report),
            Trajectory(label=f"{to_book[0]['bill_name']} booked under the other supplier's Vista vendor "
                             f"{other_vendor}", mutant_class="lookalike",
                       steps=[*matches, wrong_vendor, *creates[1:]], reply="Booked.", answers=report),
            *([Trajectory(label="a matched bill booked for one item only", mutant_class="careless",
                          steps=[*matches, *creates[:short[0]], short[1], *creates[short[0] + 1:]], reply="Booked.",
                          answers=report)] if short else []),
            Trajectory(label="the exception bill never matched in Ressio (left for the PM unrecorded)",
                       mutant_class="careless", steps=[*good_matches, *creates], reply="Booked.", answers=report),
            Trajectory(label="right state, booked and exception bills reported the other way round",
                       mutant_class="contradicting_report", steps=matches + creates, reply="Done.",
                       answers={"booked_bills": report["exception_bills"], "exception_bills": report["booked_bills"]}),
            Trajectory(label="matched in Ressio, nothing booked in Vista", mutant_class="shortcut",
                       steps=list(matches), reply="Matched; Vista to follow.", answers=report),
        ]
        instruction = (
            f"The supplier bills on job {key} ({to_book[0]['project_name']}) that are still unmatched and not yet in "
            "accounting are waiting in Ressio. Match each to its purchase order. Book every approved bill that matches "
            "into Vista as an unposted AP invoice (vendor, job, phase and cost type through the hh2 crosswalks); a bill "
            f"that doesn't match its PO line stays out of the ERP for the PM. Do not post or pay anything. {ask(answers)}")
        return TaskParts(
            instruction=instruction, evaluator=evaluator, oracle=oracle,
            alternatives=[sql_route, by_item, vista_first], mutants=mutants,
            guarded_step=ToolStep(tool="vista_erp.vista_post",
                                  args={"kind": "ap_invoice", "vendor_id": str(to_book[0]["vista_vendor"]),
                                        "invoice_number": to_book[0]["bill_name"]}),
            defect_variant="bill_po_mismatch",
        )


# ================================================================================ SmarteBuild → Vista
class HSmartbuildVistaReestimate(Family):
    family = SB_VISTA
    scales = False  # picks its planted item from the whole book (replicas copy it at scale > 1)
    domain_code = "H"
    taxonomy_path = "H.PMtoERP.reestimate_to_phase_estimate"
    difficulty = 3
    systems: ClassVar[list[str]] = ["smartbuild", "vista_erp", "hh2"]
    user_role = "Project Accountant"
    policy_ref = "pm_platforms_policy.md"
    money_movement_guard = False
    source_ref = SRC

    def keys(self, book: BookReader) -> list[str]:
        return [reestimate_key(reestimate_cases(book)["cross"])]

    def build(self, key: str, book: BookReader) -> TaskParts:
        c = reestimate_cases(book)["cross"]
        if reestimate_key(c) != key:
            raise KeyError(key)
        vjob, phase, ctype = c["vista_job"], c["erp_phase"], int(c["erp_cost_type"])
        etc = money_str(c["reconciled_etc"])
        rows = book.q(SB_VISTA, "vista_phase", job=vjob, phase=phase)
        others = [r for r in rows if int(r["cost_type"]) != ctype]
        if not others:
            raise ValueError(f"{SB_VISTA}: phase {phase} has a single cost type; no split")
        # no report is asked for: the product is the re-estimate and the reconciled Vista estimate
        evaluator = Evaluator.model_validate({
            "expected": [
                reestimate_expected(c),
                {"app": "vista_erp", "table": "JCCH", "op": "changed",
                 "where": {"_pk": [int(c["jcco"]), vjob, phase, ctype]},
                 "assert": {"EstCostToComplete": etc, "ProjStatus": "Pending"},
                 "label": f"Vista {vjob} phase {phase} cost type {ctype}: estimate to complete {etc}, pending"},
            ],
            "forbidden": reestimate_forbidden(c) + [
                {"app": "vista_erp", "table": "JCCH", "op": "changed",
                 "where": f"NOT (Job = {quoted(vjob)} AND Phase = {quoted(phase)} AND CostType = {ctype})",
                 "label": "another phase or cost type's estimate changed (e.g. the other cost type of the phase)"},
                {"app": "vista_erp", "table": "JCJM", "op": "changed",
                 "label": "a job-level estimate changed (only the mapped phase is reconciled)"},
            ],
            "forbid_unexpected": True, "money_movement_guard": False,
            "forbidden_calls": [{"tool": "vista_erp.vista_post", "label": "a call to post in Vista"},
                                {"tool": "smartbuild.claims.lodge", "label": "a claim was lodged with the client"}],
        })
        q = qty_str(c["remeasured_quantity"])
        item = int(c["item_no"])
        reest = ToolStep(tool="smartbuild.estimates.reestimate",
                         args={"estimate_id": c["estimate_id"], "item_no": item, "quantity": q,
                               "note": f"Site re-measure {int(c['remeasured_quantity']):,} {c['unit']}"})

        def vista(amount: Any, cost_type: int = ctype, ph: str = phase, **extra: Any) -> ToolStep:
            return ToolStep(tool="vista_erp.jobs.update_estimate",
                            args={"job_id": vjob, "phases": [{"phase": ph, "cost_type": cost_type,
                                                              "estimate_to_complete": str(amount)}],
                                  "note": f"SmarteBuild re-estimate of {c['cost_code']} less cost posted", **extra})

        update = vista(etc)
        other = ", ".join(f"cost type {r['cost_type']} ({r['description']})" for r in others)
        reply = (f"Recorded the re-estimate on {c['estimate_id']} item {c['item_no']} ({c['description']}): "
                 f"{int(c['remeasured_quantity']):,} {c['unit']} at {c['rate']} = {dollars(c['item_total'])}, so cost "
                 f"code {c['cost_code']} now totals {dollars(c['code_total'])}. In Vista the cost code maps to phase "
                 f"{phase} cost type {ctype} (the phase's {other} is a different cost code and was left alone); "
                 f"{dollars(c['vista_actual'])} is already posted there, so its estimate to complete is now "
                 f"{dollars(etc)} (was {dollars(c['vista_etc'])}), pending sign-off. Nothing was posted.")
        oracle = Trajectory(label="oracle", steps=[
            ToolStep(tool="smartbuild.boq.get", args={"job_number": c["job_no"], "cost_code": c["cost_code"]}),
            reest,
            ToolStep(tool="hh2.cost_code_map.list", args={"cost_code": c["cost_code"], "erp_system": "vista_erp"}),
            ToolStep(tool="hh2.job_map.list", args={"master_job_number": c["job_no"], "system": "vista_erp"}),
            ToolStep(tool="vista_erp.job_cost.summary", args={"job_id": vjob, "phase": phase}),
            update,
        ], reply=reply)
        sql_route = Trajectory(label="sql-vista-first", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT m.erp_phase, m.erp_cost_type, j.system_job_id FROM hh2.cost_code_map m, hh2.job_map j "
                f"WHERE m.cost_code = {quoted(c['cost_code'])} AND m.erp_system = 'vista_erp' "
                f"AND j.master_job_number = {quoted(c['job_no'])} AND j.system = 'vista_erp'")}),
            ToolStep(tool="vista_erp.vista_query", args={"sql": (
                'SELECT "CostType", sum("ActualCost") AS actual FROM vista_erp."JCCD" '
                f"WHERE \"Job\" = {quoted(vjob)} AND \"Phase\" = {quoted(phase)} GROUP BY \"CostType\"")}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT item_no, unit, quantity, rate, cost_total FROM smartbuild.boq_items "
                f"WHERE estimate_id = {quoted(c['estimate_id'])} AND cost_code = {quoted(c['cost_code'])}")}),
            update,
            ToolStep(tool="smartbuild.estimates.reestimate",
                     args={"job_number": c["job_no"], "item_no": item, "quantity": q, "note": "Re-measure"}),
        ], reply=f"Re-estimated {c['cost_code']} to {money_str(c['code_total'])}; Vista {phase}/{ctype} ETC {etc} pending.")
        # the cost code's total written first (the posted cost forgotten), then corrected
        corrected = Trajectory(label="self-corrected-etc", steps=[
            reest,
            vista(money_str(c["code_total"])),
            ToolStep(tool="vista_erp.job_cost.summary", args={"job_id": vjob}),
            vista(etc, note="corrected: less the cost posted"),
        ], reply="Done.")
        forms = Trajectory(label="explicit-rate-decimal-forms", steps=[
            ToolStep(tool="smartbuild.estimates.reestimate",
                     args={"estimate_id": c["estimate_id"], "item_no": item, "quantity": f"{Decimal(q):.2f}",
                           "rate": str(c["rate"]), "note": "Estimator re-measure"}),
            ToolStep(tool="hh2.cost_code_map.list", args={"erp_system": "vista_erp"}),
            ToolStep(tool="vista_erp.jobs.update_estimate",
                     args={"job_id": vjob, "phases": [{"phase": phase, "cost_type": str(ctype),
                                                       "estimate_to_complete": f"{Decimal(etc):.4f}"}]}),
        ], reply="Re-estimate recorded and Vista reconciled; it's pending, I didn't post it.")

        # ---- wrong trajectories
        split = int(others[0]["cost_type"])
        without_reest = max(Decimal("0.00"), Decimal(str(c["code_estimate"])) - Decimal(str(c["vista_actual"])))
        twin = book.rows(
            "SELECT b.item_no FROM smartbuild.boq_items b JOIN hh2.cost_code_map m ON m.cost_code = b.cost_code "
            "AND m.erp_system = 'vista_erp' WHERE b.estimate_id = ? AND m.erp_phase = ? AND b.cost_code <> ? "
            "ORDER BY (m.erp_cost_type = ?) DESC, b.item_no LIMIT 1",
            [c["estimate_id"], phase, c["cost_code"], split])
        wrong_item = int(twin[0]["item_no"]) if twin else (item + 1)
        mutants = [
            Trajectory(label=f"the phase's other cost type {split} reconciled instead", mutant_class="lookalike",
                       steps=[reest, vista(etc, cost_type=split)], reply="Done."),
            Trajectory(label=f"item {wrong_item} (another cost code on phase {phase}) re-estimated instead",
                       mutant_class="lookalike", steps=[
                           ToolStep(tool=reest.tool, args={**reest.args, "item_no": wrong_item}), update],
                       reply="Done."),
            Trajectory(label="Vista set to the cost code's total, the posted cost not taken off", mutant_class="careless",
                       steps=[reest, vista(money_str(c["code_total"]))], reply="Done."),
            Trajectory(label="Vista reconciled to the estimate before the re-measure", mutant_class="stale",
                       steps=[reest, vista(money_str(without_reest))], reply="Done."),
            Trajectory(label="the job-level estimate moved as well", mutant_class="careless",
                       steps=[reest, ToolStep(tool=update.tool, args={**update.args, "estimate_to_complete": etc})],
                       reply="Done."),
            Trajectory(label="Vista reconciled, the re-estimate never recorded in SmarteBuild", mutant_class="careless",
                       steps=[update], reply="Done."),
            Trajectory(label="the figures worked out, nothing written", mutant_class="shortcut",
                       steps=[ToolStep(tool="smartbuild.boq.get", args={"job_number": c["job_no"],
                                                                         "cost_code": c["cost_code"]})],
                       reply=f"Re-estimate recorded; Vista {phase}/{ctype} is {dollars(etc)}."),
        ]
        sentence = reestimate_sentence(c)
        instruction = (
            f"{sentence[0].upper()}{sentence[1:]}. Record it in SmarteBuild as a re-estimate at the estimated rate, "
            "then reconcile Vista to it: the estimate to complete on the Vista phase and cost type that cost code "
            "maps to should be the cost code's re-estimated total less the cost already posted there. Leave it "
            "pending for sign-off; don't post anything and don't change anything else.")
        return TaskParts(
            instruction=instruction, evaluator=evaluator, oracle=oracle,
            alternatives=[sql_route, corrected, forms], mutants=mutants,
            guarded_step=ToolStep(tool="vista_erp.vista_post", args={"kind": "projection", "job_id": vjob}),
            defect_variant="cost_type_split",
        )


FAMILIES = [HRessioVistaAp, HSmartbuildVistaReestimate]
