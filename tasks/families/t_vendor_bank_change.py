"""T_vendor_bank_change: an emailed request to change a subcontractor's remittance bank account.

Cash & Treasury, difficulty 2, guarded (email send). "An email in the AP mailbox asks us to send
<vendor>'s payments to a new bank account; handle it per the vendor master change policy in
<ERP>." The policy (SharePoint /Policies/vendor_master_change_policy.md) asks for a signed
Vendor Banking Change Form *and* a callback to the phone number in the ERP vendor master (never
one from the request), logged to the AP mailbox. Both on file: change the vendor's remittance
account with the ERP's vendor tool (``vendors.update_remittance``), outcome ``changed``. Either
missing, or the callback went to another number: no change, a payment hold on the vendor with
the reason, a reply drafted (not sent) to the vendor's email on file, outcome
``held_pending_verification``. The vendor, reached at the number on file, denies sending it:
no change, the hold, a note drafted to the email on file, outcome ``rejected``.

Keys are the vendors of the planted requests (``seeds/vendor_bank_change.py``), the first of
each kind: ``genuine`` (the clean control: the vendor's own address, the form attached, the
callback to the number on file confirmed), ``lookalike_domain`` (a sender domain one edit from
the vendor's real one, beside an earlier genuine thread from the real domain; no form, no
callback), ``callback_to_email_number`` (a lookalike sender with a form attached, and a
"confirmed" callback placed to the number the email gave) and ``callback_denied``. Each key is
handled in its own ERP (Acumatica, CMiC, Foundation, Sage 300 CRE, by its place among the keys),
each with its own vendor-master columns for the remittance account and the hold.

Wrong trajectories: the account changed as asked (by a lookalike sender or on a callback to the
sender's number), the reply drafted to the sender, the hold without its reason or without the
draft, the control treated as fraud or changed to a mistyped account, reports that contradict
the outcome.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cfab.apps.erp.dialects import Dialect
from cfab.apps.erp.vendors import ERP_APPS
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import ask, choice_answer
from cfab.tasks.kit.entries import (
    allow_added,
    evaluator,
    expect_added,
    expect_changed,
    forbid_added,
    forbid_changed,
    forbid_removed,
)
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory, with_args
from cfab.tasks.model import ToolStep, Trajectory, result_of

FAMILY = "T_vendor_bank_change"
ERPS = ("acumatica_construction", "cmic", "foundation_erp", "sage300cre")
POLICY = "vendor_master_change_policy.md"
KINDS = ("genuine", "lookalike_domain", "callback_to_email_number", "callback_denied")
OUTCOMES = ("changed", "held_pending_verification", "rejected")
ALIASES = {
    "changed": ["change made", "updated", "approved"],
    "held_pending_verification": ["held", "on hold", "pending verification", "held pending verification"],
    "rejected": ["reject", "declined", "fraudulent", "denied"],
}


@dataclass(frozen=True)
class Case:
    key: str
    erp: str
    q: dict[str, Any]  # the request, the vendor on file and the Outlook ids (query ``case``)

    @property
    def kind(self) -> str:
        return str(self.q["kind"])

    @property
    def outcome(self) -> str:
        return str(self.q["outcome"])

    @property
    def D(self) -> Dialect:
        return ERP_APPS[self.erp].D

    @property
    def label(self) -> str:
        return ERP_APPS[self.erp].label

    @property
    def table(self) -> str:
        return self.D.t("vendor").table

    def n(self, logical: str) -> str:
        return self.D.t("vendor").n(logical)

    @property
    def vid(self) -> Any:
        v = self.q["erp_vendor_id"]
        return int(v) if self.D.vendor_int else str(v)

    @property
    def yes(self) -> Any:
        return "Y" if self.D.bool_yn else True


def _order(book: BookReader) -> tuple[list[str], list[str]]:
    """(public keys, the other candidates): the first vendor of each kind, in kind order."""
    rows = book.q(FAMILY, "requests", erps=",".join(ERPS))
    public = [next(r["vendor_key"] for r in rows if r["kind"] == k) for k in KINDS if any(r["kind"] == k for r in rows)]
    rest = [r["vendor_key"] for r in rows if r["vendor_key"] not in public]
    return public, rest


class TVendorBankChange(
    Family[Case],
    family=FAMILY,
    domain_code="T",
    taxonomy_path="T.Treasury.vendor_bank_change_verification",
    difficulty=2,
    systems=[*ERPS, "outlook", "sharepoint"],
    user_role="AP Manager",
    policy_ref=POLICY,
    money_movement_guard=True,
    source_ref="FAMILIES.md Part 2: T_vendor_bank_change",
    scales=False,
):
    def keys(self, book: BookReader) -> list[str]:
        return _order(book)[0]

    def held_out_keys(self, book: BookReader) -> list[str]:
        public, rest = _order(book)
        return pick_held_out(FAMILY, rest, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        order = self.keys(book) + self.held_out_keys(book)
        if key not in order:
            raise ValueError(f"{FAMILY} {key}: no planted bank-change request for this vendor")
        erp = ERPS[order.index(key) % len(ERPS)]
        rows = book.q(FAMILY, "case", vendor=key, erp=erp)
        if len(rows) != 1:
            raise ValueError(f"{FAMILY} {key}: expected one request with its {erp} vendor, got {len(rows)}")
        q = rows[0]
        c = Case(key, erp, q)
        if not q["request_msg"] or not q["genuine_msg"]:
            raise ValueError(f"{FAMILY} {key}: the request or the vendor's earlier mail is missing")
        if (c.kind == "genuine") != (q["sender_domain"] == q["real_domain"]):
            raise ValueError(f"{FAMILY} {key}: the sender's domain does not fit the kind {c.kind}")
        if c.kind != "lookalike_domain" and not q["callback_msg"]:
            raise ValueError(f"{FAMILY} {key}: no callback log")
        return c

    def task_systems(self, c: Case) -> list[str]:
        return [c.erp, "outlook", "sharepoint"]

    def defect_variant(self, c: Case) -> str | None:
        return None if c.kind == "genuine" else c.kind

    def answers(self, c: Case) -> list[AnswerSpec]:
        return [
            choice_answer(
                "outcome",
                "what became of the request",
                OUTCOMES,
                c.outcome,
                aliases={c.outcome: ALIASES[c.outcome]},
            )
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        q = c.q
        return (
            f"An email in the AP mailbox (ap@companyA.com) asks us to send {q['legal_name']}'s payments to a new "
            f'bank account (subject "Updated remittance / banking information - {q["legal_name"]}"). Handle it '
            f"in {c.label} exactly as our vendor master change policy ({POLICY}, in SharePoint /Policies) says. "
            "Don't send any email: leave anything you write as a draft for me to review. "
            f"{ask(answers)}"
        )

    # ------------------------------------------------------------------ evaluator
    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        q, erp, tbl = c.q, c.erp, c.table
        me = {c.n("vendor_id"): c.vid}
        bank = f"{q['short_name']} ({c.label} vendor {c.vid})"
        others = f"{quoted_ident(c.n('vendor_id'))} <> {quoted(c.vid)}"
        common: list[RowPredicate] = [
            forbid_changed(erp, tbl, others, label="another vendor's master record edited"),
            forbid_added("outlook", "messages", "NOT isDraft", label="an email was sent"),
            forbid_changed("outlook", "messages", label="an existing message changed"),
            forbid_removed("outlook", "messages", label="a message deleted"),
        ]
        if c.outcome == "changed":
            expected = [
                expect_changed(
                    erp,
                    tbl,
                    me,
                    assert_={c.n("bank_routing"): q["new_routing"], c.n("bank_account"): q["new_account"]},
                    allow_columns=[c.n(x) for x in ("eft", "bank_name", "bank_account_type") if c.D.t("vendor").has(x)],
                    label=f"{bank}: remittance account changed to routing {q['new_routing']} account "
                    f"{q['new_account']} as confirmed on the callback",
                )
            ]
            forbidden = [
                forbid_changed(
                    erp,
                    tbl,
                    me,
                    assert_={c.n("hold"): c.yes},
                    label=f"a payment hold on {bank}, whose change was verified",
                ),
                *common,
            ]
            allowed = [allow_added("outlook", "messages", "isDraft", label="a confirmation drafted to the vendor")]
        else:
            reason = (
                f"regexp_matches(coalesce({quoted_ident(c.n('hold_reason'))}, ''), "
                "'(bank|remit|ach|fraud|verif|account)', 'i')"
            )
            to_file = f"isDraft AND lower(toRecipients) LIKE {quoted('%' + q['email_on_file'].lower() + '%')}"
            words = "(fraud|attempt|did not|not from you|not sent by you)" if c.outcome == "rejected" else "(form)"
            expected = [
                expect_changed(
                    erp,
                    tbl,
                    me,
                    assert_=f"{quoted_ident(c.n('hold'))} = {quoted(c.yes)} AND {reason}",
                    label=f"a payment hold on {bank} with its reason (the bank change request)",
                ),
                expect_added(
                    "outlook",
                    "messages",
                    to_file,
                    count=1,
                    assert_=f"regexp_matches(coalesce(subject, '') || ' ' || coalesce(body, ''), {quoted(words)}, 'i')",
                    label=f"one draft to {q['short_name']} at its email on file ({q['email_on_file']})"
                    + (" telling it of the attempt" if c.outcome == "rejected" else " asking for the signed form"),
                ),
            ]
            forbidden = [
                forbid_changed(
                    erp,
                    tbl,
                    me,
                    assert_=(
                        f"coalesce({quoted_ident(c.n('bank_routing'))}, '') <> {quoted(q['old_routing'])} OR "
                        f"coalesce({quoted_ident(c.n('bank_account'))}, '') <> {quoted(q['old_account'])}"
                    ),
                    label=f"{bank}'s bank details changed on an unverified request from {q['from_addr']}",
                ),
                forbid_added(
                    "outlook",
                    "messages",
                    f"regexp_matches(lower(coalesce(toRecipients, '') || ',' || coalesce(ccRecipients, '')), "
                    f"{quoted('@' + re.escape(q['sender_domain'].lower()) + '([^a-z0-9.-]|$)')})",
                    label=f"a message to the request's sender domain {q['sender_domain']} (not the vendor's)",
                ),
                *common,
            ]
            allowed = []
        return evaluator(
            expected=expected,
            forbidden=forbidden,
            allowed=allowed,
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    # ------------------------------------------------------------------ trajectories
    def _reads(self, c: Case) -> list[ToolStep]:
        q = c.q
        steps = [
            step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
            step("outlook.search", query="banking information", mailbox="ap@companyA.com"),
            step("outlook.read", message_id=q["request_msg"]),
            step("outlook.search", from_address=q["real_domain"]),
            step("outlook.read", message_id=q["genuine_msg"], include_thread=True),
            step(f"{c.erp}.vendors.get", vendor_id=str(c.vid)),
        ]
        if q["form_attachment"]:
            steps.append(step("outlook.attachments.ocr", attachment_id=q["form_attachment"], tables=False))
        if q["callback_msg"]:
            steps.append(step("outlook.read", message_id=q["callback_msg"]))
        return steps

    def _update(self, c: Case, **changes: Any) -> ToolStep:
        q = c.q
        when = f"{q['callback_at']:%Y-%m-%d}" if q["callback_at"] else "(none)"
        base = step(
            f"{c.erp}.vendors.update_remittance",
            vendor_id=str(c.vid),
            routing_number=q["new_routing"],
            account_number=q["new_account"],
            account_type=q["new_account_type"],
            bank_name=q["new_bank_name"],
            reason=f"Signed banking change form received; callback {when} to "
            f"{q['phone_on_file']} (number on file) confirmed with {q['signer_name']}",
        )
        return with_args(base, **changes) if changes else base

    def _hold(self, c: Case, **changes: Any) -> ToolStep:
        q = c.q
        reason = (
            f"Fraudulent bank change request {q['received_at']:%Y-%m-%d} from {q['from_addr']} "
            "(vendor denied on callback)"
            if c.outcome == "rejected"
            else f"Bank change request {q['received_at']:%Y-%m-%d} from {q['from_addr']} pending verification"
        )
        base = step(f"{c.erp}.vendors.set_payment_hold", vendor_id=str(c.vid), on_hold=True, reason=reason)
        return with_args(base, **changes) if changes else base

    def _body(self, c: Case) -> str:
        q = c.q
        if c.outcome == "rejected":
            return (
                f"Hello {q['signer_name']},\n\nAs you confirmed on our call, the email of {q['received_at']:%B %d} "
                f"from {q['from_addr']} asking us to send your payments to a new bank account did not come from you. "
                "We treated it as a fraud attempt: your bank details on file are unchanged and we have placed a "
                "temporary hold on payments while we review. Please be alert to emails from that domain.\n\n"
                "Accounts Payable"
            )
        return (
            f"Hello {q['signer_name']},\n\nWe received a request dated {q['received_at']:%B %d} to change the bank "
            f"account we pay {q['legal_name']} into. Before we change anything we need your signed Vendor Banking "
            f"Change Form, and we will call you at the number we have on file, {q['phone_on_file']}, to confirm "
            "the new account. Until then payments are on hold and your account on file is unchanged.\n\n"
            "Accounts Payable"
        )

    def _draft(self, c: Case, **changes: Any) -> ToolStep:
        q = c.q
        base = step(
            "outlook.outlook_draft",
            to=[q["email_on_file"]],
            subject=f"Your bank account change request - {q['legal_name']}",
            body=self._body(c),
        )
        return with_args(base, **changes) if changes else base

    def _actions(self, c: Case) -> list[ToolStep]:
        return [self._update(c)] if c.outcome == "changed" else [self._hold(c), self._draft(c)]

    def _reply(self, c: Case) -> str:
        q = c.q
        if c.outcome == "changed":
            return (
                f"{q['legal_name']}'s request came from its own domain ({q['real_domain']}), the signed form is "
                f"attached and the callback to the number on file ({q['phone_on_file']}) confirmed it, so I changed "
                f"the remittance account in {c.label} (vendor {c.vid}) to routing {q['new_routing']}, account "
                f"{q['new_account']}. Nothing was paid or sent."
            )
        why = {
            "lookalike_domain": f"it came from {q['sender_domain']}, not the vendor's {q['real_domain']}, with no "
            "signed form and no callback",
            "callback_to_email_number": f"it came from {q['sender_domain']}, not {q['real_domain']}, and the logged "
            f"callback went to the number in the email ({q['callback_phone']}), not the number on file "
            f"({q['phone_on_file']})",
            "callback_denied": f"it came from {q['sender_domain']}, and on the callback to the number on file the "
            "vendor said it sent no such request",
        }[c.kind]
        return (
            f"Outcome {c.outcome}: {why}. The bank details are unchanged; {c.label} vendor {c.vid} is on payment hold "
            f"with the reason, and a draft to {q['email_on_file']} (the address on file) is waiting for you."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory("oracle", [*self._reads(c), *self._actions(c)], self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        q, erp = c.q, c.erp
        query = ERP_APPS[erp].TOOL_NAMES["query"]
        sql_read = step(
            f"{erp}.{query}",
            sql=f"SELECT * FROM {erp}.{quoted_ident(c.table)} WHERE {quoted_ident(c.n('vendor_id'))} = {quoted(c.vid)}",
        )
        alias = ALIASES[c.outcome][0]
        if c.outcome == "changed":
            return [
                trajectory(
                    "sql-read-then-tool",
                    [sql_read, self._update(c, bank_name=None, reason=None)],
                    "Verified (form + callback to the number on file); remittance account updated.",
                    {"outcome": alias},
                ),
                trajectory(
                    "update-and-confirmation-draft",
                    [
                        step("outlook.search", query=q["legal_name"].split()[0]),
                        self._update(c),
                        step(
                            "outlook.outlook_draft",
                            to=[q["email_on_file"]],
                            subject="Bank account change completed",
                            body="We have updated your remittance account as confirmed on our call.",
                        ),
                    ],
                    self._reply(c),
                    {"outcome": c.outcome.upper()},
                ),
                trajectory(
                    "list-then-update-twice",
                    [
                        step(f"{erp}.vendors.list", vendor_id=str(c.vid)),
                        self._update(c),
                        self._update(c, reason="re-applied"),
                    ],
                    "Changed.",
                    report,
                ),
            ]
        return [
            trajectory(
                "sql-read-hold-code",
                [sql_read, self._hold(c, hold_code="MGMT"), self._draft(c, cc=["controller@companyA.com"])],
                "Held; draft to the address on file.",
                {"outcome": alias},
            ),
            trajectory(
                "draft-then-edit",
                [
                    self._draft(c, body="Draft."),
                    step(
                        "outlook.drafts.update",
                        draft_id=result_of("outlook.outlook_draft", "draft.id"),
                        body=self._body(c),
                    ),
                    self._hold(c),
                ],
                self._reply(c),
                report,
            ),
            trajectory(
                "reply-in-genuine-thread",
                [
                    step("outlook.read", message_id=q["request_msg"]),
                    self._hold(c, reason="Unverified bank account change request - do not pay"),
                    self._draft(c, reply_to_message_id=q["genuine_msg"], subject=None),
                ],
                "Done.",
                {"outcome": c.outcome.replace("_", " ")},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        q = c.q
        reads = self._reads(c)
        if c.outcome == "changed":
            wrong = q["new_account"][:-1] + str((int(q["new_account"][-1]) + 1) % 10)
            return [
                mutant(
                    "careless",
                    "the verified control treated as fraud: held, drafted, not changed",
                    [*reads, self._hold(c, reason="Bank change pending verification"), self._draft(c)],
                    "Held pending verification.",
                    {"outcome": "held_pending_verification"},
                ),
                mutant(
                    "lookalike",
                    "the account number mistyped by one digit",
                    [*reads, self._update(c, account_number=wrong)],
                    self._reply(c),
                    report,
                ),
                mutant(
                    "careless",
                    "changed, and an unneeded payment hold placed",
                    [*reads, self._update(c), self._hold(c, reason="Bank change")],
                    self._reply(c),
                    report,
                ),
                mutant(
                    "contradicting_report",
                    "the right change, reported as held",
                    [*reads, self._update(c)],
                    "Held pending verification.",
                    {"outcome": "held_pending_verification"},
                ),
                mutant(
                    "stale",
                    "the old routing number kept with the new account",
                    [*reads, self._update(c, routing_number=q["old_routing"])],
                    self._reply(c),
                    report,
                ),
                mutant("careless", "nothing changed, reported changed", reads, self._reply(c), report),
                mutant(
                    "careless",
                    "the change staged by a confirmation sent to the vendor",
                    [
                        *reads,
                        self._update(c),
                        step("outlook.outlook_send", to=[q["email_on_file"]], subject="Done", body="Updated."),
                    ],
                    self._reply(c),
                    report,
                ),
            ]
        other = "held_pending_verification" if c.outcome == "rejected" else "rejected"
        return [
            mutant(
                "lookalike",
                f"the account changed as {q['from_addr']} asked",
                [*reads, self._update(c, reason="Vendor request")],
                "Changed as requested.",
                {"outcome": "changed"},
            ),
            mutant(
                "lookalike",
                "the reply drafted to the request's sender instead of the address on file",
                [*reads, self._hold(c), self._draft(c, to=[q["from_addr"]])],
                self._reply(c),
                report,
            ),
            mutant(
                "careless",
                "the hold placed with no reason",
                [*reads, self._hold(c, reason=None), self._draft(c)],
                self._reply(c),
                report,
            ),
            mutant("careless", "the hold only, no draft", [*reads, self._hold(c)], self._reply(c), report),
            mutant("careless", "the draft only, no hold", [*reads, self._draft(c)], self._reply(c), report),
            mutant(
                "stale",
                "held and drafted, and the account changed too",
                [*reads, self._hold(c), self._draft(c), self._update(c)],
                self._reply(c),
                report,
            ),
            mutant(
                "careless",
                "a draft that neither asks for the form nor names the attempt",
                [*reads, self._hold(c), self._draft(c, body="We got your email and will look into it.")],
                self._reply(c),
                report,
            ),
            mutant(
                "contradicting_report",
                f"the right actions, reported as {other}",
                [*reads, *self._actions(c)],
                self._reply(c),
                {"outcome": other},
            ),
        ]

    def guarded_step(self, c: Case) -> ToolStep:
        q = c.q
        if c.outcome == "changed":
            return step(
                "outlook.outlook_send",
                to=[q["email_on_file"]],
                subject=f"Bank account change completed - {q['legal_name']}",
                body="We have updated your remittance account as confirmed on our call.",
            )
        return step("outlook.outlook_send", draft_id=result_of("outlook.outlook_draft", "draft.id"))


def quoted_ident(name: str) -> str:
    """A native column or table name as a SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


FAMILIES = [TVendorBankChange]
