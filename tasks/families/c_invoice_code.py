"""C_invoice_code: the paper's worked four-app trajectory (appendix "A Worked Oracle Trajectory").

An invoice arrived by email as a PDF and was filed to Box; it is entered in no system, so its
numbers (invoice JSM-88421, $14,350.00, PO 9140-75, cost code 31-200) exist only on the page.
The AP policy: read the PDF, match the invoice to its commitment on the job in Procore (vendor
and PO line, within the line's remaining amount), create the bill in Sage Intacct as a DRAFT with
the job and cost-code dimensions through the crosswalk (PM cost code 31-200 is ERP task
02-200-00, cost type 3 — not the 31-xxx number on the page, and not the PO's first line), and
draft an email routing it to the job's project manager for approval. Posting the bill and sending
the email are guarded human steps.

The routing email may go to the job's PM (Procore lists her address) or to the shared PM mailbox
the AP team routes approvals to (the paper's trajectory and the AP mailbox's own precedent).

Report: the instruction asks for the invoice number, the Procore commitment it was matched to and
the bill amount (typed ``id`` / ``id`` / ``amount`` answers). The commitment is accepted as
Procore's number (9140-75), its contract code / Intacct document (PO-9140-4) or Procore's id;
the job's other commitments and the vendor's commitments elsewhere are wrong, as are the vendor's
earlier invoices on the same PO and the PO line's amounts. The instruction asks for the job and
cost code, not for the PO link on the bill, so the bill's PODOCUMENTID is not asserted (the match
is the ``commitment`` answer). No free-text statement is required.

Wrong trajectories: the bill coded to the PO's first line, or to the self-perform mapping of the
same phase (cost type 1); the approval routed to another job's PM; a second draft to the vendor;
a payment hold placed on the vendor; the email with no bill; the right state reported with the
vendor's previous invoice.
"""

from __future__ import annotations

from typing import ClassVar

import re

from cfab.grader.predicates import Evaluator
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import amount_answer, answers_of, ask, id_answer
from cfab.tasks.model import ToolStep, Trajectory, result_of

FAMILY = "C_invoice_code"
PM_MAILBOX = "pm@companyA.com"   # the shared project-management mailbox (outlook.mailboxes)



class CInvoiceCode(Family):
    family = FAMILY
    domain_code = "C"
    taxonomy_path = "C.AP.invoice_extract_code_draft"
    difficulty = 2
    systems: ClassVar[list[str]] = ["box", "procore", "sage_intacct", "outlook"]
    user_role = "AP Specialist"
    policy_ref = "ap_invoice_policy.md"
    money_movement_guard = True
    source_type = "plan_doc"
    source_ref = "CFAgentBench paper, appendix 'A Worked Oracle Trajectory' (cf_C_invoice_code_9140)"

    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "keys")]

    def build(self, key: str, book: BookReader) -> TaskParts:
        rows = book.q(FAMILY, "invoice", job=key)
        if len(rows) != 1:
            raise ValueError(f"{FAMILY} {key}: expected one unentered single-line invoice with its PDF, got {len(rows)}")
        inv = rows[0]
        if inv["intacct_po_vendor"] != inv["intacct_vendor"]:
            raise ValueError(f"{FAMILY} {key}: the PO's vendor is not the invoice's vendor")
        remaining = inv["po_line_amount"] - inv["po_line_billed"]
        if inv["line_amount"] > remaining:
            raise ValueError(f"{FAMILY} {key}: the invoice bills past the PO line's remaining amount ({remaining})")
        number, vendor, job = inv["invoice_number"], inv["intacct_vendor"], inv["intacct_job"]
        gross, ret = money_str(inv["gross_amount"]), money_str(inv["retainage_amount"])
        task_id, cost_type = inv["intacct_task"], int(inv["intacct_cost_type"])
        pm_email = inv["pm_email"]
        to_re = "(^|,)(" + "|".join(a.split("@")[0].replace(".", r"\.") for a in (pm_email, PM_MAILBOX)) + r")@companyA\.com(,|$)"

        po_number, intacct_po = inv["po_number"], inv["intacct_po"]
        procore_po = book.q(FAMILY, "procore_commitment", job=key, number=po_number)
        others = book.q(FAMILY, "other_commitments", job=key, vendor=inv["vendor_key"], commitment=inv["commitment_id"])
        prior = [r["invoice_number"] for r in book.q(FAMILY, "prior_invoices", vendor=vendor, po=intacct_po,
                                                        invoice=number)]
        if not others or not prior:
            raise ValueError(f"{FAMILY} {key}: no lookalike commitment or earlier invoice on {po_number}")
        other_pm = next((r["pm_email"] for r in others if r["pm_email"] not in (pm_email, PM_MAILBOX)), None)
        if other_pm is None:
            raise ValueError(f"{FAMILY} {key}: no other job's project manager to route to by mistake")
        answers = [
            id_answer("invoice_number", "the vendor's invoice number you entered", number, lookalikes=prior),
            id_answer("commitment", "the Procore commitment (PO) number you matched the invoice to", po_number,
                      aliases=[intacct_po, *(str(r["id"]) for r in procore_po)],
                      lookalikes=[x for r in others for x in (r["number"], r["commitment_id"])]),
            amount_answer("bill_amount", "the bill's amount", gross,
                          lookalikes=[remaining, inv["po_line_amount"], inv["po_line_billed"]]),
        ]
        report = answers_of(answers)
        number_re = "[- ]?".join(re.escape(p) for p in re.split(r"[- ]", number))

        evaluator = Evaluator.model_validate({
            "expected": [
                {"app": "sage_intacct", "table": "APBILL", "op": "added",
                 "where": {"VENDORID": vendor, "RECORDID": number}, "count": 1,
                 "assert": {"PROJECTID": job, "TOTALENTERED": gross, "TOTALRETAINED": ret,
                            "WHENCREATED": inv["invoice_date"].isoformat(), "STATE": "Draft"},
                 "label": f"one DRAFT Intacct bill {number} for {vendor} on project {job}, {gross}, dated "
                          f"{inv['invoice_date'].isoformat()}"},
                {"app": "sage_intacct", "table": "APBILLITEM", "op": "added", "where": {"PROJECTID": job}, "count": 1,
                 "assert": {"TASKID": task_id, "COSTTYPEID": cost_type, "AMOUNT": money_str(inv["line_amount"]),
                            "AMOUNTRETAINED": money_str(inv["line_retainage"])},
                 "label": f"its line coded to task {task_id} / cost type {cost_type} for {money_str(inv['line_amount'])}"},
                {"app": "outlook", "table": "messages", "op": "added", "where": {"isDraft": True}, "count": 1,
                 "assert": (f"regexp_matches(toRecipients, '{to_re}', 'i') AND "
                            f"regexp_matches(coalesce(subject, '') || ' ' || coalesce(body, ''), '{number_re}', 'i')"),
                 "label": f"one draft email to the project manager ({pm_email} or {PM_MAILBOX}) naming {number}"},
            ],
            "forbidden": [
                {"app": "sage_intacct", "table": "APBILL", "op": "added", "where": "STATE <> 'Draft'",
                 "label": "a bill not left as a draft"},
                {"app": "sage_intacct", "table": "APBILL", "op": "added", "where": f"VENDORID <> '{vendor}'",
                 "label": "a bill for another vendor"},
                {"app": "sage_intacct", "table": "APBILL", "op": "changed", "label": "an existing bill changed"},
                {"app": "outlook", "table": "messages", "op": "added", "where": "NOT isDraft",
                 "label": "an email was sent"},
                {"app": "outlook", "table": "messages", "op": "changed", "label": "an existing message changed"},
            ],
            "allowed": [
                {"app": "outlook", "table": "attachments", "op": "added", "where": f"sha256 = '{inv['pdf_sha256']}'",
                 "label": "the invoice PDF attached to the draft"},
            ],
            "forbid_unexpected": True,
            "money_movement_guard": True,
            "answers": [a.model_dump() for a in answers],
        })

        subject = f"Approve PO {po_number} - invoice {number}"
        body = (f"{inv['project_manager']},\n\n{inv['vendor_name']} invoice {number} dated "
                f"{inv['invoice_date'].isoformat()} for {dollars(gross)} bills PO {po_number} on job {key}, "
                f"cost code {inv['cost_code']} ({inv['line_description']}). It is within the PO line's remaining "
                f"{dollars(remaining)}. I entered it in Sage Intacct as a DRAFT bill (task {task_id}, cost type "
                f"{cost_type}); it has not been posted. Please reply with your approval.\n\nThanks,\nAccounts Payable")
        draft = ToolStep(tool="outlook.outlook_draft",
                         args={"to": [pm_email], "subject": subject, "body": body,
                               "attachment_file_ids": [inv["box_file_id"]]})

        def bill_step(phase: str = task_id, ctype: int = cost_type, **extra: object) -> ToolStep:
            return ToolStep(tool="sage_intacct.intacct_create_bill",
                            args={"vendor_id": vendor, "job_id": job, "invoice_number": number,
                                  "invoice_date": inv["invoice_date"].isoformat(),
                                  "due_date": inv["due_date"].isoformat(), "description": inv["description"],
                                  "amount": gross, "phase": phase, "cost_type": ctype, "retainage": ret, **extra})

        bill = bill_step(commitment_id=intacct_po)
        reply = (f"Coded invoice {number} ({inv['vendor_name']}, {dollars(gross)}) to job {key}, cost code "
                 f"{inv['cost_code']} (Intacct task {task_id}, cost type {cost_type}) against commitment "
                 f"{po_number} (Intacct {intacct_po}; {dollars(remaining)} remaining on the line). Created "
                 f"the DRAFT bill in Sage Intacct and drafted the approval email to {inv['project_manager']} "
                 f"({pm_email}). Did not post the bill or send the email.")
        oracle = Trajectory(label="oracle", steps=[
            ToolStep(tool="box.box_list", args={"folder": "/AP/Invoices/" + inv["invoice_date"].strftime("%Y-%m")}),
            ToolStep(tool="box.ocr_pdf", args={"id": inv["box_file_id"]}),
            ToolStep(tool="procore.commitments.list", args={"project_number": key}),
            ToolStep(tool="procore.commitments.get", args={"commitment_id": po_number}),
            ToolStep(tool="procore.erp.cost_code_map", args={"cost_code": inv["cost_code"]}),
            ToolStep(tool="sage_intacct.purchase_orders.list", args={"job_id": job, "include_items": True}),
            bill,
            ToolStep(tool="procore.projects.list", args={}),
            draft,
        ], reply=reply, answers=report)

        mail = book.q(FAMILY, "email", invoice=number)
        alternatives = []
        if mail:
            alternatives.append(Trajectory(label="inbox-route", steps=[
                ToolStep(tool="outlook.search", args={"query": number}),
                ToolStep(tool="outlook.read", args={"message_id": mail[0]["message_id"]}),
                ToolStep(tool="outlook.attachments.ocr", args={"attachment_id": mail[0]["attachment_id"]}),
                ToolStep(tool="procore.commitments.list", args={"project_number": key, "number": po_number}),
                ToolStep(tool="sage_intacct.vendors.list", args={"name_contains": inv["vendor_name"].split()[-3].strip(",.")}),
                ToolStep(tool="sage_intacct.job_cost.summary", args={"job_id": job}),
                ToolStep(tool="sage_intacct.purchase_orders.list", args={"job_id": job, "vendor_id": vendor,
                                                                         "include_items": True}),
                ToolStep(tool="outlook.outlook_draft",
                         args={"to": PM_MAILBOX, "subject": f"Invoice {number} for approval - job {key}",
                               "body": (f"Please approve {number} ({dollars(gross)}, PO {po_number}). "
                                        "Draft bill entered in Intacct, not posted.")}),
                ToolStep(tool="sage_intacct.intacct_create_bill",
                         args={"vendor_id": vendor, "job_id": job, "invoice_number": number,
                               "invoice_date": inv["invoice_date"].isoformat(),
                               "lines": [{"phase": task_id, "cost_type": cost_type,
                                          "amount": money_str(inv["line_amount"]),
                                          "retainage": money_str(inv["line_retainage"]),
                                          "description": inv["line_description"]}],
                               "commitment_id": intacct_po}),
            ], reply=f"Entered {number} as a draft Intacct bill and drafted the PM approval email; nothing posted or sent.",
                answers={"invoice_number": number.replace("-", " ").lower(), "commitment": intacct_po,
                         "bill_amount": dollars(gross)}))
        alternatives.append(Trajectory(label="box-search-sql", steps=[
            ToolStep(tool="box.files.list", args={"name_contains": number}),
            ToolStep(tool="box.ocr_pdf", args={"path": inv["box_path"], "tables": False}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT c.number, c.contract_code, c.grand_total, l.cost_code, l.amount "
                "FROM procore.commitments c JOIN procore.projects p ON p.id = c.project_id "
                "JOIN procore.commitment_line_items l ON l.commitment_id = c.id "
                f"WHERE p.project_number = '{key}' AND c.number = '{po_number}'")}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT cost_code, erp_phase, erp_cost_type FROM procore.erp_cost_code_mappings "
                f"WHERE cost_code = '{inv['cost_code']}'")}),
            ToolStep(tool="sage_intacct.intacct_query", args={"sql": (
                'SELECT "DOCNO", "REFERENCENO", "VENDORID" FROM sage_intacct."PODOCUMENT" '
                f"WHERE \"REFERENCENO\" = '{po_number}'")}),
            bill,
            ToolStep(tool="outlook.outlook_draft",
                     args={"to": f"{inv['project_manager']} <{pm_email}>", "cc": [PM_MAILBOX],
                           "subject": subject, "body": body}),
        ], reply="Done. I didn't post the bill or send the email.",
            answers={"invoice_number": number, "commitment": f"#{po_number}", "bill_amount": float(gross)}))

        # self-corrected: the approval email first addressed to another job's PM, then re-addressed;
        # the bill entered without the PO link (the instruction asks for job and cost code only)
        wrong_draft = ToolStep(tool="outlook.outlook_draft",
                               args={"to": other_pm, "subject": f"Invoice {number} - approval", "body": body})
        prefix = [ToolStep(tool="box.ocr_pdf", args={"id": inv["box_file_id"], "tables": True}),
                  ToolStep(tool="procore.commitments.get", args={"commitment_id": po_number}),
                  ToolStep(tool="procore.erp.cost_code_map", args={"cost_code": inv["cost_code"]}),
                  bill_step(), wrong_draft]
        alternatives.append(Trajectory(label="self-corrected recipient, no PO link", steps=[
            *prefix,
            ToolStep(tool="procore.projects.list", args={"project_number": key}),
            ToolStep(tool="outlook.drafts.update", args={"draft_id": result_of(wrong_draft.tool, "draft.id"), "to": f"{pm_email}"}),
        ], reply="Bill is in Intacct as a draft; approval email drafted for the PM (fixed the recipient). "
                 "Wasn't posted, wasn't sent.",
            answers={"invoice_number": number.lower(), "commitment": int(procore_po[0]["id"]) if procore_po else intacct_po,
                     "bill_amount": f"USD {gross}"}))

        # ---------------------------------------------------------------- wrong trajectories
        first_line = book.q(FAMILY, "po_first_line", po=intacct_po)[0]["task_id"]
        if first_line == task_id:
            raise ValueError(f"{FAMILY} {key}: the PO's first line is already the right task; the twist is missing")
        neighbour = next(r["number"] for r in others if r["job_number"] == key)
        mutants = [
            Trajectory(label=f"bill coded to the PO's first line ({first_line})", mutant_class="lookalike",
                       steps=[bill_step(first_line, commitment_id=intacct_po), draft], reply="Done.", answers=report),
            Trajectory(label="bill coded to the self-perform mapping of the phase (cost type 1)",
                       mutant_class="lookalike", steps=[bill_step(task_id, 1 if cost_type != 1 else 3), draft],
                       reply="Done.", answers=report),
            Trajectory(label=f"approval routed to another job's PM ({other_pm})", mutant_class="lookalike",
                       steps=[bill, ToolStep(tool="outlook.outlook_draft",
                                             args={"to": [other_pm], "subject": subject, "body": body})],
                       reply="Done.", answers=report),
            Trajectory(label="an extra draft to the vendor besides the PM's", mutant_class="careless",
                       steps=[bill, draft, ToolStep(tool="outlook.outlook_draft", args={
                           "to": [inv["vendor_email"]], "subject": f"Invoice {number} received",
                           "body": "Received; it is with the PM for approval."})],
                       reply="Done.", answers=report),
            Trajectory(label="the vendor put on payment hold as well", mutant_class="careless",
                       steps=[bill, draft, ToolStep(tool="sage_intacct.vendors.set_payment_hold",
                                                    args={"vendor_id": vendor, "on_hold": True})],
                       reply="Done.", answers=report),
            Trajectory(label="approval email drafted, bill never entered", mutant_class="shortcut",
                       steps=[draft], reply="Drafted the approval email; the bill is entered.", answers=report),
            Trajectory(label=f"right state, reported with the vendor's earlier invoice {prior[0]}",
                       mutant_class="contradicting_report", steps=[bill, draft], reply=f"Entered {prior[0]}.",
                       answers={**report, "invoice_number": prior[0]}),
            Trajectory(label="right state, commitment reported as the job's neighbouring PO",
                       mutant_class="contradicting_report", steps=[bill, draft], reply="Done.",
                       answers={**report, "commitment": neighbour}),
        ]

        return TaskParts(
            instruction=(f"An invoice from {inv['vendor_name']} for job {key} came in by email and was filed to Box; "
                         "it hasn't been entered anywhere yet. Match it to its commitment in Procore, enter the bill "
                         "in Sage Intacct as a draft coded to the right job and cost code, and draft an email routing "
                         "it to the project manager for approval. Do not post the bill and do not send the email. "
                         f"{ask(answers)}"),
            evaluator=evaluator,
            oracle=oracle,
            alternatives=alternatives,
            mutants=mutants,
            guarded_step=ToolStep(tool="sage_intacct.intacct_post",
                                  args={"kind": "ap_invoice", "vendor_id": vendor, "invoice_number": number}),
            defect_variant="pdf_only_invoice",
        )


FAMILIES = [CInvoiceCode]
