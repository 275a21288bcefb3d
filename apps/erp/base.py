"""The ERP archetype, written once: every tool and integration method of the eight ERP vendors.

A vendor subclass only sets class constants: ``D`` (its dialect: native table and column names,
status words, id formats; ``cfab.apps.erp.dialects``), ``TOOL_NAMES`` and the ``EX_*`` examples
its docstrings show. Tools read and write the vendor's native tables through the dialect, so
results come back in the vendor's own vocabulary (Vista ``APRef``/``InvTotal``, Intacct
``RECORDID``/``TOTALENTERED``); every write goes through the write gate and is left
unposted / pending; posting, paying and approving are guarded tools that validate and describe
what would happen, and never change state.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from cfab.apps.erp.args import (
    ApCreateArgs,
    CoCreateArgs,
    CoKeyArgs,
    EtcArgs,
    HoldArgs,
    JeStageArgs,
    PaymentArgs,
    PostArgs,
    RemittanceArgs,
    Set1099Args,
)
from cfab.apps.erp.gen import IMPORT_COMMITMENT, UPDATE_ESTIMATE
from cfab.apps.erp.model import TABLES
from cfab.apps.erp.reads import ErpReads
from cfab.apps.kit import ZERO, money_arg
from cfab.apps.tooling import ToolError, tool


def _amount(value: Any, what: str) -> Decimal:
    """An ERP amount argument (the kit's money rules). It may be negative (credit memos,
    reversing and correcting lines): the tools check the sign where it matters."""
    return money_arg(value, what, allow_negative=True)


class ErpApp(ErpReads):
    """ERP archetype: vendors subclass with a dialect (``D``), ``TOOL_NAMES`` and examples.
    This class adds the writes (left unposted / pending, through the write gate) and the
    guarded tools (validated and logged, never executed)."""

    # ------------------------------------------------------------------ writes: vendors
    @tool("vendors.set_payment_hold", writes=True)
    def vendors_set_payment_hold(self, args: HoldArgs) -> dict[str, Any]:
        """Place or release a payment hold on one $label vendor (held vendors' invoices are not paid).

        Only that vendor's hold changes. $EX_NOTE

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR" (translate other systems' ids with hh2).
            on_hold: true to place the hold, false to release it.
            reason: why, e.g. "COI expired 2026-01-15".
            hold_code: hold code where $label uses them (COI, LIEN, W9, DISP, MGMT).

        Returns {"vendor_id", "on_hold", "hold_code", "changed": bool}.
        """
        v = self._vendor(args.vendor_id)
        vid = v[self.N("vendor", "vendor_id")]
        if self.D.hold_mode == "table":
            code = (args.hold_code or "MGMT").upper()
            if not self.rows("hold_code", {"hold_code": code}):
                codes = ", ".join(r[self.N("hold_code", "hold_code")] for r in self.rows("hold_code"))
                raise ToolError(f"unknown hold code {code!r}; {self.label} hold codes: {codes}", "invalid_argument")
            existing = self.rows(
                "vendor_hold",
                {"vendor_id": vid, "hold_code": code} if args.on_hold or args.hold_code else {"vendor_id": vid},
            )
            if args.on_hold:
                if existing:
                    return {"vendor_id": vid, "on_hold": True, "hold_code": code, "changed": False}
                self.ins(
                    "vendor_hold",
                    {"co": 1, "vendor_id": vid, "hold_code": code, "notes": args.reason, "added_date": self.today},
                )
                return {"vendor_id": vid, "on_hold": True, "hold_code": code, "changed": True}
            t = self.T("vendor_hold")
            for r in existing:
                self.delete(t.table, {t.n(k): r[t.n(k)] for k in t.pk})
            return {
                "vendor_id": vid,
                "on_hold": bool(self._holds(vid)),
                "hold_code": code if args.hold_code else None,
                "changed": bool(existing),
            }
        if self.is_true(v.get(self.N("vendor", "hold"))) == args.on_hold and not args.reason:
            return {"vendor_id": vid, "on_hold": args.on_hold, "hold_code": None, "changed": False}
        vals: dict[str, Any] = {"hold": self.yn(args.on_hold)}
        if self.T("vendor").has("hold_reason"):
            vals["hold_reason"] = args.reason if args.on_hold else None
        self.upd("vendor", v, vals)
        return {"vendor_id": vid, "on_hold": args.on_hold, "hold_code": None, "changed": True}

    @tool("vendors.set_1099", writes=True)
    def vendors_set_1099(self, args: Set1099Args) -> dict[str, Any]:
        """Set a $label vendor's 1099 flag and form type.

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR".
            is_1099: true if payments are 1099-reportable.
            form_type: e.g. "NEC" (cleared when is_1099 is false).

        Returns {"vendor_id", "is_1099", "form_type"}.
        """
        v = self._vendor(args.vendor_id)
        ftype = (args.form_type or "NEC") if args.is_1099 else None
        self.upd("vendor", v, {"is_1099": self.yn(args.is_1099), "type_1099": ftype})
        return {"vendor_id": v[self.N("vendor", "vendor_id")], "is_1099": args.is_1099, "form_type": ftype}

    @tool("vendors.update_remittance", writes=True)
    def vendors_update_remittance(self, args: RemittanceArgs) -> dict[str, Any]:
        """Change a $label vendor's remittance (ACH bank) account in the vendor master.

        Vendor bank changes follow the vendor-master change policy (SharePoint /Policies): make
        one only after it is verified. Nothing is paid; the vendor's next payment goes to the new
        account.

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR".
            routing_number: the new 9-digit ABA routing number, e.g. "071000013".
            account_number: the new account number, e.g. "4417820935".
            account_type: "checking" or "savings".
            bank_name: the new bank, e.g. "Busey Bank" (kept where $label has a bank-name field).
            reason: how the change was verified, e.g. "signed form; callback to number on file".

        Returns {"vendor_id", "before": {bank_routing, bank_account (last 4)}, "after": {...},
        "changed": bool}.
        """
        v = self._vendor(args.vendor_id)
        vid = v[self.N("vendor", "vendor_id")]
        routing, account = args.routing_number.strip(), args.account_number.strip().replace(" ", "")
        if not (len(routing) == 9 and routing.isdigit()):
            raise ToolError(f"routing number {routing!r} must be 9 digits", "invalid_argument")
        weights = (3, 7, 1, 3, 7, 1, 3, 7, 1)
        if sum(int(d) * w for d, w in zip(routing, weights, strict=True)) % 10:
            raise ToolError(f"routing number {routing} fails the ABA check digit", "invalid_argument")
        if not (account.isdigit() and 4 <= len(account) <= 17):
            raise ToolError(f"account number {account!r} must be 4 to 17 digits", "invalid_argument")
        t = self.T("vendor")
        if not t.has("bank_routing"):
            raise ToolError(f"{self.label} keeps no remittance account on the vendor", "invalid_argument")

        def shown(row: dict[str, Any]) -> dict[str, Any]:
            acct = row.get(t.n("bank_account")) or ""
            return {"bank_routing": row.get(t.n("bank_routing")), "bank_account_last4": str(acct)[-4:] or None}

        before = shown(v)
        vals: dict[str, Any] = {
            "eft": self.yn(True),
            "bank_routing": routing,
            "bank_account": account,
            "bank_account_type": args.account_type,
        }
        if args.bank_name:
            vals["bank_name"] = args.bank_name
        old = {k: v.get(t.n(k)) for k in vals if t.has(k)}
        if all(old.get(k) == x for k, x in vals.items() if t.has(k)):
            return {"vendor_id": vid, "before": before, "after": before, "changed": False}
        self.upd("vendor", v, vals)
        after = {"bank_routing": routing, "bank_account_last4": account[-4:]}
        return {"vendor_id": vid, "before": before, "after": after, "changed": True}

    # ------------------------------------------------------------------ writes: projections
    @tool("jobs.update_estimate", writes=True)
    def jobs_update_estimate(self, args: EtcArgs) -> dict[str, Any]:
        """Write a new estimated cost to complete for a $label job (and/or its phases) as a PENDING projection.

        The projection waits for sign-off; posting it is a separate, guarded step.

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".
            estimate_to_complete: the new job-level estimate to complete, e.g. "3706560.00".
            phases: per-phase estimates [{phase, cost_type, estimate_to_complete}].
            note: projection note, e.g. "Per PM forecast 2026-01-30".

        Returns {"job_id", "estimate_to_complete", "projection_status", "phases_updated": n}.
        """
        if args.estimate_to_complete is None and not args.phases:
            raise ToolError("give estimate_to_complete and/or phases", "invalid_argument")
        j = self._job(args.job_id)
        job_id = j[self.N("job", "job_id")]
        pending = self.word("proj", "pending")
        n = 0
        with self.gate.workflow(UPDATE_ESTIMATE):  # a new pending projection replaces a posted one
            for p in args.phases or []:
                rows = self.rows("budget", {"job_id": job_id, "phase": p.phase, "cost_type": p.cost_type})
                if not rows:
                    self._phase_ok(job_id, p.phase)
                    raise ToolError(f"job {job_id} has no cost type {p.cost_type} on phase {p.phase}", "not_found")
                n += self.upd(
                    "budget",
                    rows[0],
                    {"etc_amount": _amount(p.estimate_to_complete, "estimate_to_complete"), "proj_status": pending},
                )
            etc = j[self.N("job", "etc_amount")]
            if args.estimate_to_complete is not None:
                etc = _amount(args.estimate_to_complete, "estimate_to_complete")
                self.upd(
                    "job", j, {"etc_amount": etc, "etc_status": pending, "etc_date": self.today, "etc_by": "agent"}
                )
        return {"job_id": job_id, "estimate_to_complete": etc, "projection_status": pending, "phases_updated": n}

    # ------------------------------------------------------------------ writes: change orders
    @tool("change_orders.create", writes=True)
    def change_orders_create(self, args: CoCreateArgs) -> dict[str, Any]:
        """Set up a job change order in $label, left PENDING (approval is a separate, guarded step).

        An owner change order raises the contract and the budget; an internal transfer moves budget
        only and leaves the contract value unchanged. Read the change event's backup to decide.

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".
            description: what changed, e.g. "Unforeseen rock excavation".
            amount: total amount, e.g. "101700.00".
            kind: "owner" or "internal".
            items: budget change by phase [{phase, cost_type, amount, description}] summing to amount.
            change_event: the PM change event number, e.g. 4.

        Returns {"job_id", "co_number", "status", "kind", "contract_change", "budget_change", "items": n}.
        """
        j = self._job(args.job_id)
        job_id = j[self.N("job", "job_id")]
        amount = _amount(args.amount, "amount")
        items = args.items or []
        item_total = sum((_amount(i.amount, "item amount") for i in items), ZERO)
        if items and item_total != amount:
            raise ToolError(f"items sum to {item_total}, not the amount {amount}", "invalid_argument")
        for i in items:
            self._phase_ok(job_id, i.phase, i.cost_type)
        existing = [r[self.N("co_hdr", "co_number")] for r in self.rows("co_hdr", {"job_id": job_id})]
        nums = [int(x) for x in existing if str(x).isdigit()]
        number = str(max(nums, default=0) + 1).zfill(3)
        owner = args.kind == "owner"
        contract_change = amount if owner else ZERO
        self.ins(
            "co_hdr",
            {
                "co": 1,
                "job_id": job_id,
                "co_number": number,
                "description": args.description,
                "co_kind": self.word("co_kind", args.kind),
                "increases_contract": self.yn(owner),
                "contract_amount": contract_change,
                "budget_amount": amount,
                "status": self.word("co", "pending"),
                "approved_date": None,
                "change_event": args.change_event,
                "created_date": self.today,
            },
        )
        for n, i in enumerate(items, 1):
            item_amount = _amount(i.amount, "item amount")
            self.ins(
                "co_item",
                {
                    "co": 1,
                    "job_id": job_id,
                    "co_number": number,
                    "item": n,
                    "phase": i.phase,
                    "cost_type": i.cost_type,
                    "description": i.description or args.description,
                    "budget_amount": item_amount,
                    "contract_amount": item_amount if owner else ZERO,
                },
            )
        return {
            "job_id": job_id,
            "co_number": number,
            "status": self.word("co", "pending"),
            "kind": args.kind,
            "contract_change": contract_change,
            "budget_change": amount,
            "items": len(items),
        }

    # ------------------------------------------------------------------ writes: journal entries
    @tool("journal_entries.stage", writes=True)
    def journal_entries_stage(self, args: JeStageArgs) -> dict[str, Any]:
        """Stage an UNPOSTED (draft) journal entry batch in $label; it is not posted.

        Debits must equal credits (an unbalanced batch is rejected) and the period must be open.

        Args:
            entry_date: entry date, e.g. "2026-01-31".
            description: e.g. "Accrue uninvoiced subcontract work, job $EX_JOB".
            lines: [{account, debit, credit, job_id, phase, cost_type, memo}], e.g. Dr 5200 / Cr 2100 with the job on both.
            period: fiscal period "YYYY-MM" (default: the entry date's month).
            auto_reverse: true to reverse automatically next period (where $label supports it).
            journal: journal code, default "GJ".
            reference: reference number, e.g. "ACR-1042-0126".

        Returns {"batch_id", "period", "status", "total_debits", "total_credits", "lines": n, "auto_reverse"}.
        """  # noqa: E501
        period = args.period or args.entry_date.strftime("%Y-%m")
        self._period_row(period)
        accounts = {r[self.N("gl_account", "account")] for r in self.rows("gl_account")}
        for ln in args.lines:
            if ln.account not in accounts:
                raise ToolError(f"no GL account {ln.account!r} in {self.label}", "not_found")
            if ln.job_id:
                self._job(ln.job_id)
                if ln.phase:
                    self._phase_ok(ln.job_id, ln.phase, ln.cost_type)
            dr, cr = _amount(ln.debit, "debit"), _amount(ln.credit, "credit")
            if dr < 0 or cr < 0 or (dr == 0) == (cr == 0):
                raise ToolError(
                    "each line needs exactly one of a positive debit or a positive credit", "invalid_argument"
                )
        if args.auto_reverse and not self.D.supports_auto_reverse:
            raise ToolError(
                f"{self.label} has no auto-reversing entries; stage the reversal separately", "invalid_argument"
            )
        hdr = self.T("je_open_hdr")
        natural = (
            period,
            args.entry_date.isoformat(),
            args.description,
            tuple((ln.account, str(ln.debit), str(ln.credit), ln.job_id) for ln in args.lines),
        )
        key: dict[str, Any] = {"co": 1, "mth": self.period(period)}
        if hdr.has("batch_id"):
            key["batch_id"] = self._new_batch_id("je_open_hdr", *natural)
        if hdr.has("doc_id"):
            key["doc_id"] = self._new_doc_id("je", "je_open_hdr", "doc_id", *natural)
        ref = args.reference or f"JE{args.entry_date.strftime('%y%m%d')}"
        self.ins(
            "je_open_hdr",
            {
                **key,
                "jrnl": args.journal,
                "ref": ref,
                "description": args.description,
                "act_date": args.entry_date,
                "status": self.word("je", "unposted"),
                "auto_reverse": self.yn(args.auto_reverse),
                "created_by": "agent",
                "created_date": self.today,
            },
        )
        link = {c: key[c] for c in self.T("je_open_line").link if c in key}
        tot_dr = tot_cr = ZERO
        for n, ln in enumerate(args.lines, 1):
            dr, cr = _amount(ln.debit, "debit"), _amount(ln.credit, "credit")
            tot_dr += dr
            tot_cr += cr
            self.ins(
                "je_open_line",
                {
                    **link,
                    "mth": key["mth"],
                    "line_no": n,
                    "jrnl": args.journal,
                    "ref": ref,
                    "act_date": args.entry_date,
                    "account": ln.account,
                    "job_id": ln.job_id,
                    "phase": ln.phase,
                    "cost_type": ln.cost_type,
                    "description": ln.memo or args.description,
                    "debit": dr,
                    "credit": cr,
                    "amount": dr - cr,
                    "tr_type": 1 if dr > 0 else -1,
                    "abs_amount": dr + cr,
                },
            )
        bid = key.get("doc_id", key.get("batch_id"))
        return {
            "batch_id": bid,
            "period": period,
            "status": self.word("je", "unposted")
            if hdr.has("status")
            else (hdr.fixed[1][0] if hdr.fixed else "unposted"),
            "total_debits": tot_dr,
            "total_credits": tot_cr,
            "lines": len(args.lines),
            "auto_reverse": args.auto_reverse,
        }

    # ------------------------------------------------------------------ writes: AP
    @tool("ap_invoices.create", writes=True)
    def ap_invoices_create(self, args: ApCreateArgs) -> dict[str, Any]:
        """Enter an UNPOSTED AP invoice in $label with lines coded to job, phase and cost type (not posted).

        Give either lines, or amount + phase + cost_type for a one-line invoice.

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR".
            job_id: the $label job id, e.g. "$EX_JOB".
            invoice_number: the vendor's invoice number, e.g. "JSM-88421".
            invoice_date: e.g. "2026-01-20".
            due_date: default invoice date + 30 days.
            description: invoice description, e.g. "Pay app #3".
            lines: [{phase, cost_type, amount, retainage, description}].
            amount: one-line shorthand amount, e.g. "14350.00".
            phase: one-line shorthand phase, e.g. "$EX_PHASE".
            cost_type: one-line shorthand cost type, e.g. 3.
            retainage: one-line shorthand retainage withheld, e.g. "1435.00" (default 0).
            commitment_id: the subcontract/PO billed, e.g. "$EX_SUB".
            period: GL month "YYYY-MM".

        Returns {"erp_ref", "status", "vendor_id", "invoice_number", "gross", "retainage", "net", "lines": n}.
        """
        if args.lines:
            lines = [ln.model_dump() for ln in args.lines]
        elif args.amount is not None and args.phase and args.cost_type is not None:
            lines = [
                {
                    "phase": args.phase,
                    "cost_type": args.cost_type,
                    "amount": args.amount,
                    "retainage": args.retainage or ZERO,
                    "description": args.description,
                }
            ]
        else:
            raise ToolError("give lines, or amount + phase + cost_type", "invalid_argument")
        due = args.due_date or date.fromordinal(args.invoice_date.toordinal() + 30)
        return self._create_ap(
            vendor_id=args.vendor_id,
            job_id=args.job_id,
            invoice_number=args.invoice_number,
            invoice_date=args.invoice_date,
            due_date=due,
            description=args.description,
            lines=lines,
            source="manual",
            source_ref=None,
            commitment_id=args.commitment_id,
            period=args.period,
        )

    def _create_ap(
        self,
        *,
        vendor_id,
        job_id,
        invoice_number,
        invoice_date,
        due_date,
        description,
        lines,
        source,
        source_ref,
        commitment_id=None,
        period=None,
    ) -> dict[str, Any]:
        v = self._vendor(str(vendor_id))
        vid = v[self.N("vendor", "vendor_id")]
        job = self._job(str(job_id))[self.N("job", "job_id")]
        if self._find_ap(vid, invoice_number) is not None:
            raise ToolError(f"vendor {vid} already has invoice {invoice_number!r} in {self.label}", "conflict")
        if commitment_id and not (
            self.rows("sub_hdr", {"sub_id": commitment_id}) or self.rows("po_hdr", {"sub_id": commitment_id})
        ):
            raise ToolError(f"no subcontract or PO {commitment_id!r} in {self.label}", "not_found")
        if not lines:
            raise ToolError("an invoice needs at least one line", "invalid_argument")
        clean = []
        for ln in lines:
            self._phase_ok(job, ln["phase"], ln.get("cost_type"))
            amt = _amount(ln["amount"], "line amount")
            ret = _amount(ln.get("retainage") or 0, "line retainage")
            if ret < 0 or (amt >= 0 and ret > amt and amt != 0):
                raise ToolError("retainage must be between 0 and the line amount", "invalid_argument")
            clean.append((ln["phase"], int(ln["cost_type"]), amt, ret, ln.get("description") or description))
        gross = sum((c[2] for c in clean), ZERO)
        ret = sum((c[3] for c in clean), ZERO)
        per = period or self._open_period_for(invoice_date)
        self._period_row(per)
        gl_date = invoice_date if invoice_date.strftime("%Y-%m") == per else date.fromisoformat(per + "-01")
        hdr = self.T("ap_open_hdr")
        key: dict[str, Any] = {"co": 1, "mth": self.period(per)}
        if hdr.has("batch_id"):
            key["batch_id"] = self._new_batch_id("ap_open_hdr", vid, invoice_number)
            key["batch_seq"] = 1
        if hdr.has("doc_id"):
            key["doc_id"] = self._new_doc_id("ap", "ap_open_hdr", "doc_id", vid, invoice_number)
        self.ins(
            "ap_open_hdr",
            {
                **key,
                "vendor_id": vid,
                "apref": invoice_number,
                "description": description,
                "inv_date": invoice_date,
                "due_date": due_date,
                "gl_date": gl_date,
                "job_id": job,
                "sub_id": commitment_id,
                "gross": gross,
                "retainage": ret,
                "net": gross - ret,
                "status": self.word("ap", "unposted"),
                "source": source,
                "source_ref": source_ref,
                "created_date": self.today,
            },
        )
        link = {c: key[c] for c in self.T("ap_open_line").link}
        for n, (phase, ct, amt, r, desc) in enumerate(clean, 1):
            self.ins(
                "ap_open_line",
                {
                    **link,
                    "line_no": n,
                    "job_id": job,
                    "phase": phase,
                    "cost_type": ct,
                    "sub_id": commitment_id,
                    "description": desc,
                    "gross": amt,
                    "retainage": r,
                    "net": amt - r,
                },
            )
        ref = key.get("doc_id") if "doc_id" in key else f"{per}/{key['batch_id']}/{key['batch_seq']}"
        status = hdr.fixed[1][0] if hdr.fixed else (self.word("ap", "unposted") if hdr.has("status") else "unposted")
        return {
            "erp_ref": ref,
            "status": status,
            "vendor_id": vid,
            "invoice_number": invoice_number,
            "job_id": job,
            "period": per,
            "gross": gross,
            "retainage": ret,
            "net": gross - ret,
            "lines": len(clean),
        }

    # ------------------------------------------------------------------ guarded
    @tool("post", guarded="post")
    def post(self, args: PostArgs) -> dict[str, Any]:
        """Post an unposted $label document: an AP invoice, a journal batch, a change order or a projection.

        GUARDED: posting needs human approval. The call is validated and recorded; nothing is posted.

        Args:
            kind: "ap_invoice", "journal_entry", "change_order" or "projection".
            vendor_id: for ap_invoice, e.g. "$EX_VENDOR".
            invoice_number: for ap_invoice, e.g. "JSM-88421".
            batch_id: for journal_entry, the id journal_entries.stage returned, e.g. "14022".
            job_id: for change_order / projection, e.g. "$EX_JOB".
            co_number: for change_order, e.g. "004".

        Returns {"would_post": {...}} describing what would be posted.
        """
        if args.kind == "ap_invoice":
            if not (args.vendor_id and args.invoice_number):
                raise ToolError("ap_invoice needs vendor_id and invoice_number", "invalid_argument")
            hit = self._find_ap(self.vid(args.vendor_id), args.invoice_number)
            if hit is None:
                raise ToolError(f"no AP invoice {args.invoice_number!r} for vendor {args.vendor_id}", "not_found")
            if hit[0] != "ap_open_hdr":
                raise ToolError(f"invoice {args.invoice_number} is already posted", "conflict")
            return {"would_post": {"kind": "ap_invoice", "invoice": hit[1]}}
        if args.kind == "journal_entry":
            if not args.batch_id:
                raise ToolError("journal_entry needs batch_id", "invalid_argument")
            hdr = self.T("je_open_hdr")
            col_ = "doc_id" if hdr.has("doc_id") else "batch_id"
            info = self.tbl(hdr.table)
            bid: Any = args.batch_id
            if info.columns[hdr.n(col_)].upper().startswith("INT"):
                try:
                    bid = int(bid)
                except ValueError:
                    raise ToolError(f"batch ids are numbers in {self.label}", "not_found") from None
            got = self.rows("je_open_hdr", {col_: bid})
            if not got:
                raise ToolError(f"no unposted journal batch {args.batch_id!r} in {self.label}", "not_found")
            lines = self._je_lines("je_open_hdr", got[0])
            t = self.T("je_open_line")
            dr = sum((self._dr_cr(t, r)[0] for r in lines), ZERO)
            cr = sum((self._dr_cr(t, r)[1] for r in lines), ZERO)
            if dr != cr:
                raise ToolError(f"batch {args.batch_id} does not balance ({dr} vs {cr})", "rejected")
            return {"would_post": {"kind": "journal_entry", "batch": got[0], "debits": dr, "credits": cr}}
        if not args.job_id:
            raise ToolError(f"{args.kind} needs job_id", "invalid_argument")
        if args.kind == "change_order":
            co = self.one("co_hdr", "change order", "", job_id=args.job_id, co_number=args.co_number)
            if co[self.N("co_hdr", "status")] == self.word("co", "approved"):
                raise ToolError("the change order is already approved", "conflict")
            return {"would_post": {"kind": "change_order", "change_order": co}}
        j = self._job(args.job_id)
        if j[self.N("job", "etc_status")] != self.word("proj", "pending"):
            raise ToolError(f"job {args.job_id} has no pending projection", "conflict")
        return {"would_post": {"kind": "projection", "job": j}}

    @tool("payments.create", guarded="payment")
    def payments_create(self, args: PaymentArgs) -> dict[str, Any]:
        """Pay posted $label AP invoices by check.

        GUARDED: paying moves money and needs human approval. The call is validated and recorded; nothing is paid.

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR".
            invoice_numbers: posted invoices to pay, e.g. ["JSM-88421"].
            bank_account: bank / cash account, e.g. "BA-OPER".
            amount: amount, e.g. "12915.00" (default: the open net amount).
            pay_date: payment date, e.g. "2026-01-31".

        Returns {"would_pay": {"vendor_id", "invoices": [...], "amount"}}.
        """
        v = self._vendor(args.vendor_id)
        vid = v[self.N("vendor", "vendor_id")]
        if self._on_hold(v):
            raise ToolError(f"vendor {vid} is on payment hold", "rejected")
        total = ZERO
        found = []
        for num in args.invoice_numbers:
            hit = self._find_ap(vid, num)
            if hit is None:
                raise ToolError(f"no AP invoice {num!r} for vendor {vid}", "not_found")
            if hit[0] != "ap_hdr":
                raise ToolError(f"invoice {num} is not posted; post it before paying", "rejected")
            r = hit[1]
            paid = r.get(self.T("ap_hdr").cols.get("paid_amount", ""), ZERO) or ZERO
            total += (r[self.N("ap_hdr", "net")] or ZERO) - paid
            found.append(num)
        amount = _amount(args.amount, "amount") if args.amount is not None else total
        return {"would_pay": {"vendor_id": vid, "invoices": found, "amount": amount, "bank_account": args.bank_account}}

    @tool("change_orders.approve", guarded="approve")
    def change_orders_approve(self, args: CoKeyArgs) -> dict[str, Any]:
        """Approve a pending $label change order (updates contract and budget).

        GUARDED: approval needs a human. The call is validated and recorded; nothing is approved.

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".
            co_number: the change order number, e.g. "004".

        Returns {"would_approve": {...}}.
        """
        co = self.one("co_hdr", "change order", "", job_id=args.job_id, co_number=args.co_number)
        if co[self.N("co_hdr", "status")] == self.word("co", "approved"):
            raise ToolError("the change order is already approved", "conflict")
        return {"would_approve": co}

    # ------------------------------------------------------------------ integration (plain Python, not tools)
    def import_ap_invoice(
        self,
        *,
        vendor_id: str,
        job_id: str,
        invoice_number: str,
        invoice_date: date,
        due_date: date,
        description: str,
        lines: list[dict],
        source: str,
        source_ref: str,
        commitment_id: str | None = None,
    ) -> dict:
        """Create an UNPOSTED AP invoice from an integration (e.g. Procore requisition sync).

        vendor_id/job_id are THIS ERP's native ids; each line: {"phase", "cost_type", "amount", "retainage",
        "description"}. Returns {"erp_ref", "status", ...}. Raises ToolError (not_found / conflict) for an
        unknown vendor/job or a duplicate vendor + invoice number.
        """
        return self._create_ap(
            vendor_id=vendor_id,
            job_id=job_id,
            invoice_number=invoice_number,
            invoice_date=invoice_date,
            due_date=due_date,
            description=description,
            lines=lines,
            source=source,
            source_ref=source_ref,
            commitment_id=commitment_id,
        )

    def import_commitment(
        self,
        *,
        vendor_id: str,
        job_id: str,
        number: str,
        title: str,
        amount: Decimal,
        retainage_pct: Decimal,
        lines: list[dict],
        source_ref: str,
        commitment_type: str | None = None,
    ) -> dict:
        """Create the ERP subcontract (or PO) for a commitment synced from a PM platform.

        The ERP number is ``source_ref`` (the PM commitment id, e.g. 'SC-1042-3'); ``number`` is kept as the
        PM reference. ``commitment_type`` 'subcontract' | 'purchase_order' (default: PO when source_ref
        starts with 'PO'). lines: {"phase", "cost_type", "amount", "description"}.
        """
        v = self._vendor(str(vendor_id))
        vid = v[self.N("vendor", "vendor_id")]
        job = self._job(str(job_id))[self.N("job", "job_id")]
        ctype = commitment_type or ("purchase_order" if str(source_ref).upper().startswith("PO") else "subcontract")
        lg = "po_hdr" if ctype == "purchase_order" else "sub_hdr"
        sub_id = str(source_ref)
        if self.rows("sub_hdr", {"sub_id": sub_id}) or self.rows("po_hdr", {"sub_id": sub_id}):
            raise ToolError(f"commitment {sub_id} already exists in {self.label}", "conflict")
        amt = _amount(amount, "amount")
        clean = []
        for ln in lines:
            self._phase_ok(job, ln["phase"], ln.get("cost_type"))
            clean.append(
                (
                    ln["phase"],
                    int(ln["cost_type"]),
                    _amount(ln["amount"], "line amount"),
                    ln.get("description") or title,
                )
            )
        if clean and sum((c[2] for c in clean), ZERO) != amt:
            raise ToolError("commitment lines do not sum to the amount", "invalid_argument")
        item = lg.replace("_hdr", "_item")
        with self.gate.workflow(IMPORT_COMMITMENT):  # the synced commitment arrives approved
            self.ins(
                lg,
                {
                    "co": 1,
                    "sub_id": sub_id,
                    "pm_number": number,
                    "job_id": job,
                    "vendor_id": vid,
                    "description": title,
                    "status": self.word("commit", "approved"),
                    "orig_amount": amt,
                    "approved_co": ZERO,
                    "current_amount": amt,
                    "retainage_pct": Decimal(str(retainage_pct)),
                    "executed_date": self.today,
                    "source_ref": source_ref,
                },
            )
            for n, (phase, ct, a, desc) in enumerate(clean, 1):
                self.ins(
                    item,
                    {
                        "co": 1,
                        "sub_id": sub_id,
                        "item": n,
                        "job_id": job,
                        "phase": phase,
                        "cost_type": ct,
                        "description": desc,
                        "amount": a,
                    },
                )
        return {
            "erp_ref": sub_id,
            "type": ctype,
            "status": self.word("commit", "approved"),
            "amount": amt,
            "lines": len(clean),
        }

    # convenience for other apps and tasks
    def logical_columns(self, logical: str) -> dict[str, str]:
        """Logical → native column names of one logical table (for tasks and evaluators)."""
        return dict(self.T(logical).cols)


__all__ = ["ErpApp", "TABLES"]
