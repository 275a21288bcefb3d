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

Held-out keys: the other jobs with an unentered PDF-only invoice (planted by
``seeds/held_out.py`` on a generated job's purchase order). Their PO's lines share one ERP task, so
they have no "PO's first line" mistake (that mutant is left out); the rest is the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.seeds import anchors
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask, id_answer
from cfab.tasks.kit.entries import allow_added, evaluator, expect_added, forbid_added, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import ToolStep, Trajectory, result_of

FAMILY = "C_invoice_code"
PM_MAILBOX = "pm@companyA.com"  # the shared project-management mailbox (outlook.mailboxes)


@dataclass(frozen=True)
class Case:
    key: str
    inv: dict[str, Any]  # the invoice on the page, its PO line and the crosswalk (query ``invoice``)
    procore_po: list[dict[str, Any]]  # the commitment in Procore
    others: list[dict[str, Any]]  # the job's other commitments and the vendor's elsewhere
    prior: list[str]  # the vendor's earlier invoices on the same PO
    other_pm: str  # another job's project manager
    mail: list[dict[str, Any]]  # the email the invoice came with
    first_line: str  # the Intacct task of the PO's first line
    number: str  # the invoice number on the page
    gross: str
    remaining: Any  # what is left on the PO line
    task_id: str  # the Intacct task and cost type the cost code maps to
    cost_type: int

    @property
    def subject(self) -> str:
        return f"Approve PO {self.inv['po_number']} - invoice {self.number}"

    @property
    def body(self) -> str:
        inv = self.inv
        return (
            f"{inv['project_manager']},\n\n{inv['vendor_name']} invoice {self.number} dated "
            f"{inv['invoice_date'].isoformat()} for {dollars(self.gross)} bills PO {inv['po_number']} on job "
            f"{self.key}, cost code {inv['cost_code']} ({inv['line_description']}). It is within the PO line's "
            f"remaining {dollars(self.remaining)}. I entered it in Sage Intacct as a DRAFT bill (task "
            f"{self.task_id}, cost type {self.cost_type}); it has not been posted. Please reply with your "
            "approval.\n\nThanks,\nAccounts Payable"
        )


class CInvoiceCode(
    Family[Case],
    family=FAMILY,
    domain_code="C",
    taxonomy_path="C.AP.invoice_extract_code_draft",
    difficulty=2,
    systems=["box", "procore", "sage_intacct", "outlook"],
    user_role="AP Specialist",
    policy_ref="ap_invoice_policy.md",
    money_movement_guard=True,
    source_ref="CFAgentBench paper, appendix 'A Worked Oracle Trajectory' (cf_C_invoice_code_9140)",
):
    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "keys", jobs=anchors.JSM_JOB)]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """The other jobs with an unentered PDF-only invoice (``seeds/held_out.py`` plants them)."""
        public = self.keys(book)
        cands = [r["job_number"] for r in book.q(FAMILY, "held_out_keys", jobs=",".join(public))]
        return pick_held_out(FAMILY, cands, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        rows = book.q(FAMILY, "invoice", job=key)
        if len(rows) != 1:
            raise ValueError(
                f"{FAMILY} {key}: expected one unentered single-line invoice with its PDF, got {len(rows)}"
            )
        inv = rows[0]
        if inv["intacct_po_vendor"] != inv["intacct_vendor"]:
            raise ValueError(f"{FAMILY} {key}: the PO's vendor is not the invoice's vendor")
        remaining = inv["po_line_amount"] - inv["po_line_billed"]
        if inv["line_amount"] > remaining:
            raise ValueError(f"{FAMILY} {key}: the invoice bills past the PO line's remaining amount ({remaining})")
        number, po_number, intacct_po = inv["invoice_number"], inv["po_number"], inv["intacct_po"]
        procore_po = book.q(FAMILY, "procore_commitment", job=key, number=po_number)
        others = book.q(FAMILY, "other_commitments", job=key, vendor=inv["vendor_key"], commitment=inv["commitment_id"])
        prior = [
            r["invoice_number"]
            for r in book.q(FAMILY, "prior_invoices", vendor=inv["intacct_vendor"], po=intacct_po, invoice=number)
        ]
        if not others or not prior:
            raise ValueError(f"{FAMILY} {key}: no lookalike commitment or earlier invoice on {po_number}")
        other_pm = next((r["pm_email"] for r in others if r["pm_email"] not in (inv["pm_email"], PM_MAILBOX)), None)
        if other_pm is None:
            raise ValueError(f"{FAMILY} {key}: no other job's project manager to route to by mistake")
        first_line = book.q(FAMILY, "po_first_line", po=intacct_po)[0]["task_id"]
        if first_line == inv["intacct_task"] and key in self.keys(book):  # the published task keeps its twist
            raise ValueError(f"{FAMILY} {key}: the PO's first line is already the right task; the twist is missing")
        return Case(
            key,
            inv,
            procore_po,
            others,
            prior,
            other_pm,
            book.q(FAMILY, "email", invoice=number),
            first_line,
            number,
            money_str(inv["gross_amount"]),
            remaining,
            inv["intacct_task"],
            int(inv["intacct_cost_type"]),
        )

    def answers(self, c: Case) -> list[AnswerSpec]:
        inv = c.inv
        return [
            id_answer("invoice_number", "the vendor's invoice number you entered", c.number, lookalikes=c.prior),
            id_answer(
                "commitment",
                "the Procore commitment (PO) number you matched the invoice to",
                inv["po_number"],
                aliases=[inv["intacct_po"], *(str(r["id"]) for r in c.procore_po)],
                lookalikes=[x for r in c.others for x in (r["number"], r["commitment_id"])],
            ),
            amount_answer(
                "bill_amount",
                "the bill's amount",
                c.gross,
                lookalikes=[c.remaining, inv["po_line_amount"], inv["po_line_billed"]],
            ),
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"An invoice from {c.inv['vendor_name']} for job {c.key} came in by email and was filed to Box; "
            "it hasn't been entered anywhere yet. Match it to its commitment in Procore, enter the bill "
            "in Sage Intacct as a draft coded to the right job and cost code, and draft an email routing "
            "it to the project manager for approval. Do not post the bill and do not send the email. "
            f"{ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        inv, number, vendor, job = c.inv, c.number, c.inv["intacct_vendor"], c.inv["intacct_job"]
        pm_email = inv["pm_email"]
        to_re = (
            "(^|,)("
            + "|".join(a.split("@")[0].replace(".", r"\.") for a in (pm_email, PM_MAILBOX))
            + r")@companyA\.com(,|$)"
        )
        number_re = "[- ]?".join(re.escape(p) for p in re.split(r"[- ]", number))
        return evaluator(
            expected=[
                expect_added(
                    "sage_intacct",
                    "APBILL",
                    {"VENDORID": vendor, "RECORDID": number},
                    count=1,
                    assert_={
                        "PROJECTID": job,
                        "TOTALENTERED": c.gross,
                        "TOTALRETAINED": money_str(inv["retainage_amount"]),
                        "WHENCREATED": inv["invoice_date"].isoformat(),
                        "STATE": "Draft",
                    },
                    label=f"one DRAFT Intacct bill {number} for {vendor} on project {job}, {c.gross}, dated "
                    f"{inv['invoice_date'].isoformat()}",
                ),
                expect_added(
                    "sage_intacct",
                    "APBILLITEM",
                    {"PROJECTID": job},
                    count=1,
                    assert_={
                        "TASKID": c.task_id,
                        "COSTTYPEID": c.cost_type,
                        "AMOUNT": money_str(inv["line_amount"]),
                        "AMOUNTRETAINED": money_str(inv["line_retainage"]),
                    },
                    label=f"its line coded to task {c.task_id} / cost type {c.cost_type} for "
                    f"{money_str(inv['line_amount'])}",
                ),
                expect_added(
                    "outlook",
                    "messages",
                    {"isDraft": True},
                    count=1,
                    assert_=(
                        f"regexp_matches(toRecipients, '{to_re}', 'i') AND "
                        f"regexp_matches(coalesce(subject, '') || ' ' || coalesce(body, ''), "
                        f"'{number_re}', 'i')"
                    ),
                    label=f"one draft email to the project manager ({pm_email} or {PM_MAILBOX}) naming {number}",
                ),
            ],
            forbidden=[
                forbid_added("sage_intacct", "APBILL", "STATE <> 'Draft'", label="a bill not left as a draft"),
                forbid_added("sage_intacct", "APBILL", f"VENDORID <> '{vendor}'", label="a bill for another vendor"),
                forbid_changed("sage_intacct", "APBILL", label="an existing bill changed"),
                forbid_added("outlook", "messages", "NOT isDraft", label="an email was sent"),
                forbid_changed("outlook", "messages", label="an existing message changed"),
            ],
            allowed=[
                allow_added(
                    "outlook",
                    "attachments",
                    f"sha256 = '{inv['pdf_sha256']}'",
                    label="the invoice PDF attached to the draft",
                )
            ],
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    def _bill(self, c: Case, phase: str | None = None, ctype: int | None = None, **extra: Any) -> ToolStep:
        inv = c.inv
        return step(
            "sage_intacct.intacct_create_bill",
            vendor_id=inv["intacct_vendor"],
            job_id=inv["intacct_job"],
            invoice_number=c.number,
            invoice_date=inv["invoice_date"].isoformat(),
            due_date=inv["due_date"].isoformat(),
            description=inv["description"],
            amount=c.gross,
            phase=phase or c.task_id,
            cost_type=c.cost_type if ctype is None else ctype,
            retainage=money_str(inv["retainage_amount"]),
            **extra,
        )

    def _linked_bill(self, c: Case) -> ToolStep:
        return self._bill(c, commitment_id=c.inv["intacct_po"])

    def _draft(self, c: Case) -> ToolStep:
        return step(
            "outlook.outlook_draft",
            to=[c.inv["pm_email"]],
            subject=c.subject,
            body=c.body,
            attachment_file_ids=[c.inv["box_file_id"]],
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        inv, number, key = c.inv, c.number, c.key
        reply = (
            f"Coded invoice {number} ({inv['vendor_name']}, {dollars(c.gross)}) to job {key}, cost code "
            f"{inv['cost_code']} (Intacct task {c.task_id}, cost type {c.cost_type}) against commitment "
            f"{inv['po_number']} (Intacct {inv['intacct_po']}; {dollars(c.remaining)} remaining on the line). "
            f"Created the DRAFT bill in Sage Intacct and drafted the approval email to {inv['project_manager']} "
            f"({inv['pm_email']}). Did not post the bill or send the email."
        )
        return trajectory(
            "oracle",
            [
                step("box.box_list", folder="/AP/Invoices/" + inv["invoice_date"].strftime("%Y-%m")),
                step("box.ocr_pdf", id=inv["box_file_id"]),
                step("procore.commitments.list", project_number=key),
                step("procore.commitments.get", commitment_id=inv["po_number"]),
                step("procore.erp.cost_code_map", cost_code=inv["cost_code"]),
                step("sage_intacct.purchase_orders.list", job_id=inv["intacct_job"], include_items=True),
                self._linked_bill(c),
                step("procore.projects.list"),
                self._draft(c),
            ],
            reply,
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        inv, number, key, po_number, intacct_po = c.inv, c.number, c.key, c.inv["po_number"], c.inv["intacct_po"]
        vendor, job, pm_email = inv["intacct_vendor"], inv["intacct_job"], inv["pm_email"]
        out = []
        if c.mail:
            mail = c.mail[0]
            out.append(
                trajectory(
                    "inbox-route",
                    [
                        step("outlook.search", query=number),
                        step("outlook.read", message_id=mail["message_id"]),
                        step("outlook.attachments.ocr", attachment_id=mail["attachment_id"]),
                        step("procore.commitments.list", project_number=key, number=po_number),
                        step("sage_intacct.vendors.list", name_contains=inv["vendor_name"].split()[-3].strip(",.")),
                        step("sage_intacct.job_cost.summary", job_id=job),
                        step("sage_intacct.purchase_orders.list", job_id=job, vendor_id=vendor, include_items=True),
                        step(
                            "outlook.outlook_draft",
                            to=PM_MAILBOX,
                            subject=f"Invoice {number} for approval - job {key}",
                            body=(
                                f"Please approve {number} ({dollars(c.gross)}, PO {po_number}). "
                                "Draft bill entered in Intacct, not posted."
                            ),
                        ),
                        step(
                            "sage_intacct.intacct_create_bill",
                            vendor_id=vendor,
                            job_id=job,
                            invoice_number=number,
                            invoice_date=inv["invoice_date"].isoformat(),
                            lines=[
                                {
                                    "phase": c.task_id,
                                    "cost_type": c.cost_type,
                                    "amount": money_str(inv["line_amount"]),
                                    "retainage": money_str(inv["line_retainage"]),
                                    "description": inv["line_description"],
                                }
                            ],
                            commitment_id=intacct_po,
                        ),
                    ],
                    f"Entered {number} as a draft Intacct bill and drafted the PM approval email; nothing posted or "
                    "sent.",
                    {
                        "invoice_number": number.replace("-", " ").lower(),
                        "commitment": intacct_po,
                        "bill_amount": dollars(c.gross),
                    },
                )
            )
        out.append(
            trajectory(
                "box-search-sql",
                [
                    step("box.files.list", name_contains=number),
                    step("box.ocr_pdf", path=inv["box_path"], tables=False),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT c.number, c.contract_code, c.grand_total, l.cost_code, l.amount "
                            "FROM procore.commitments c JOIN procore.projects p ON p.id = c.project_id "
                            "JOIN procore.commitment_line_items l ON l.commitment_id = c.id "
                            f"WHERE p.project_number = '{key}' AND c.number = '{po_number}'"
                        ),
                    ),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT cost_code, erp_phase, erp_cost_type FROM procore.erp_cost_code_mappings "
                            f"WHERE cost_code = '{inv['cost_code']}'"
                        ),
                    ),
                    step(
                        "sage_intacct.intacct_query",
                        sql=(
                            'SELECT "DOCNO", "REFERENCENO", "VENDORID" FROM '
                            'sage_intacct."PODOCUMENT" '
                            f"WHERE \"REFERENCENO\" = '{po_number}'"
                        ),
                    ),
                    self._linked_bill(c),
                    step(
                        "outlook.outlook_draft",
                        to=f"{inv['project_manager']} <{pm_email}>",
                        cc=[PM_MAILBOX],
                        subject=c.subject,
                        body=c.body,
                    ),
                ],
                "Done. I didn't post the bill or send the email.",
                {"invoice_number": number, "commitment": f"#{po_number}", "bill_amount": float(c.gross)},
            )
        )
        # self-corrected: the approval email first addressed to another job's PM, then re-addressed;
        # the bill entered without the PO link (the instruction asks for job and cost code only)
        wrong_draft = step("outlook.outlook_draft", to=c.other_pm, subject=f"Invoice {number} - approval", body=c.body)
        out.append(
            trajectory(
                "self-corrected recipient, no PO link",
                [
                    step("box.ocr_pdf", id=inv["box_file_id"], tables=True),
                    step("procore.commitments.get", commitment_id=po_number),
                    step("procore.erp.cost_code_map", cost_code=inv["cost_code"]),
                    self._bill(c),
                    wrong_draft,
                    step("procore.projects.list", project_number=key),
                    step("outlook.drafts.update", draft_id=result_of(wrong_draft.tool, "draft.id"), to=f"{pm_email}"),
                ],
                (
                    "Bill is in Intacct as a draft; approval email drafted for the PM (fixed the recipient). "
                    "Wasn't posted, wasn't sent."
                ),
                {
                    "invoice_number": number.lower(),
                    "commitment": int(c.procore_po[0]["id"]) if c.procore_po else intacct_po,
                    "bill_amount": f"USD {c.gross}",
                },
            )
        )
        return out

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        inv, number, intacct_po = c.inv, c.number, c.inv["intacct_po"]
        bill, draft, prior = self._linked_bill(c), self._draft(c), c.prior
        neighbour = next(r["number"] for r in c.others if r["job_number"] == c.key)
        first_line = [  # a held-out PO whose lines share one ERP task has no such mistake to make
            mutant(
                "lookalike",
                f"bill coded to the PO's first line ({c.first_line})",
                [self._bill(c, c.first_line, commitment_id=intacct_po), draft],
                answers=report,
            )
        ]
        return [
            *(first_line if c.first_line != c.task_id else []),
            mutant(
                "lookalike",
                "bill coded to the self-perform mapping of the phase (cost type 1)",
                [self._bill(c, c.task_id, 1 if c.cost_type != 1 else 3), draft],
                answers=report,
            ),
            mutant(
                "lookalike",
                f"approval routed to another job's PM ({c.other_pm})",
                [bill, step("outlook.outlook_draft", to=[c.other_pm], subject=c.subject, body=c.body)],
                answers=report,
            ),
            mutant(
                "careless",
                "an extra draft to the vendor besides the PM's",
                [
                    bill,
                    draft,
                    step(
                        "outlook.outlook_draft",
                        to=[inv["vendor_email"]],
                        subject=f"Invoice {number} received",
                        body="Received; it is with the PM for approval.",
                    ),
                ],
                answers=report,
            ),
            mutant(
                "careless",
                "the vendor put on payment hold as well",
                [
                    bill,
                    draft,
                    step("sage_intacct.vendors.set_payment_hold", vendor_id=inv["intacct_vendor"], on_hold=True),
                ],
                answers=report,
            ),
            mutant(
                "shortcut",
                "approval email drafted, bill never entered",
                [draft],
                "Drafted the approval email; the bill is entered.",
                report,
            ),
            mutant(
                "contradicting_report",
                f"right state, reported with the vendor's earlier invoice {prior[0]}",
                [bill, draft],
                f"Entered {prior[0]}.",
                {**report, "invoice_number": prior[0]},
            ),
            mutant(
                "contradicting_report",
                "right state, commitment reported as the job's neighbouring PO",
                [bill, draft],
                answers={**report, "commitment": neighbour},
            ),
        ]

    def guarded_step(self, c: Case) -> ToolStep:
        return step(
            "sage_intacct.intacct_post", kind="ap_invoice", vendor_id=c.inv["intacct_vendor"], invoice_number=c.number
        )

    def defect_variant(self, c: Case) -> str:
        return "pdf_only_invoice"


FAMILIES = [CInvoiceCode]
