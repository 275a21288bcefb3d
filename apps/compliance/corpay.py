"""Corpay: AP payment automation (virtual card, ACH, check) for the company's vendors.

The vendor-payments archetype: vendor enrollment, funding accounts, payment batches, payments
and remittance detail (history, read-only). Creating a payment moves money: it is guarded. A
payment run is built as a Draft batch on a funding account: one payment per vendor, each with the
invoices it pays (a credit memo applied as a negative line); a draft is edited freely, and
releasing it (``batches.release``) moves money, so it is guarded.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import Field

from cfab.apps.contract import App
from cfab.apps.kit import ZERO, date_range, ilike, money_arg
from cfab.apps.registry import register
from cfab.apps.tooling import NoArgs, ToolArgs, ToolError, tool


class VendorListArgs(ToolArgs):
    name_contains: str | None = Field(None, description="Part of the vendor name", examples=["walsh"])
    vendor_id: str | None = Field(None, description="Corpay supplier id", examples=["CP-558201"])
    payment_method: str | None = Field(None, description="VirtualCard, ACH or Check", examples=["ACH"])
    enrollment_status: str | None = Field(None, description="Enrolled, Pending or Not Enrolled", examples=["Enrolled"])


class BatchListArgs(ToolArgs):
    funding_account_id: str | None = Field(None, description="Funding account", examples=["FA-BA-OPER"])
    date_from: date | None = Field(None, description="Earliest batch date", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Latest batch date", examples=["2026-01-31"])


class PaymentListArgs(ToolArgs):
    vendor_id: str | None = Field(None, description="Corpay supplier id", examples=["CP-558201"])
    batch_id: str | None = Field(None, description="Payment batch id", examples=["PB-BA-OPER-20260110"])
    status: str | None = Field(None, description="Issued, Cleared or Voided", examples=["Cleared"])
    check_number: int | None = Field(None, description="Check number", examples=[10003])
    date_from: date | None = Field(None, description="Earliest payment date", examples=["2025-01-01"])
    date_to: date | None = Field(None, description="Latest payment date", examples=["2025-12-31"])


class PaymentRefArgs(ToolArgs):
    payment_id: str = Field(..., description="Payment id", examples=["PMT-BA-OPER-10003"])


class RemittanceListArgs(ToolArgs):
    payment_id: str | None = Field(None, description="Payment id", examples=["PMT-BA-OPER-10003"])
    invoice_number: str | None = Field(None, description="Vendor invoice number", examples=["WEC-2026-003"])


class InvoiceApplication(ToolArgs):
    invoice_number: str = Field(..., description="Vendor invoice number being paid", examples=["WEC-2026-003"])
    amount: Decimal = Field(..., description="Amount applied to that invoice", examples=["43650.00"])


class PaymentCreateArgs(ToolArgs):
    vendor_id: str = Field(..., description="Corpay supplier id to pay", examples=["CP-558201"])
    funding_account_id: str = Field(..., description="Funding account to draw on", examples=["FA-BA-OPER"])
    amount: Decimal = Field(
        ..., description="Payment amount (= sum of the invoice applications)", examples=["43650.00"]
    )
    invoices: list[InvoiceApplication] = Field(
        ...,
        min_length=1,
        description="Invoices the payment settles",
        examples=[[{"invoice_number": "WEC-2026-003", "amount": "43650.00"}]],
    )
    payment_method: Literal["VirtualCard", "ACH", "Check"] | None = Field(
        None, description="Method (default: the vendor's enrolled method)", examples=["ACH"]
    )
    payment_date: date | None = Field(
        None, description="Date to release the payment (default: today)", examples=["2026-02-02"]
    )


class DraftCreateArgs(ToolArgs):
    funding_account_id: str = Field(..., description="Funding account the batch draws on", examples=["FA-BA-OPER"])
    payment_date: date = Field(
        ..., description="Date the batch's payments go out (today or later)", examples=["2026-02-13"]
    )


class BatchRefArgs(ToolArgs):
    batch_id: str = Field(..., description="Payment batch id", examples=["PB-BA-OPER-20260213-D1"])


class DraftApplication(ToolArgs):
    invoice_number: str = Field(
        ..., description="Vendor invoice (or credit memo) number the line applies to", examples=["WEC-2026-003"]
    )
    amount: Decimal = Field(
        ..., description="Amount applied: positive for an invoice, negative for a credit memo", examples=["43650.00"]
    )
    invoice_date: date | None = Field(
        None, description="The invoice's date, for the remittance advice (optional)", examples=["2026-01-26"]
    )


class DraftPaymentArgs(ToolArgs):
    batch_id: str = Field(..., description="Draft batch to add the payment to", examples=["PB-BA-OPER-20260213-D1"])
    vendor_id: str = Field(..., description="Corpay supplier id to pay", examples=["CP-558201"])
    invoices: list[DraftApplication] = Field(
        ...,
        min_length=1,
        description="What the payment settles: one line per invoice, a credit memo as a negative line",
        examples=[[{"invoice_number": "WEC-2026-003", "amount": "43650.00"}]],
    )
    payment_method: Literal["VirtualCard", "ACH", "Check"] | None = Field(
        None,
        description="Method (default: the vendor's enrolled method; Check when it is not enrolled)",
        examples=["ACH"],
    )


class DraftPaymentRefArgs(ToolArgs):
    batch_id: str = Field(..., description="Draft batch id", examples=["PB-BA-OPER-20260213-D1"])
    payment_id: str = Field(
        ..., description="Draft payment id (from batches.add_payment)", examples=["PMT-D3F9A0C2B17"]
    )


DRAFT = "Draft"


class VendorPaymentsArchetype(App):
    """AP payment automation: enrollment, batches, payments, remittances; new payments guarded."""

    archetype = "Lien/CertPayroll/Tax"
    kind: ClassVar[str] = "vendor_payments"

    @tool("vendors.list")
    def vendors_list(self, args: VendorListArgs) -> dict[str, Any]:
        """List vendors and their payment enrollment (virtual card, ACH, check).

        Args:
            name_contains: part of the name, e.g. "walsh".
            vendor_id: e.g. "CP-558201".
            payment_method: "VirtualCard", "ACH" or "Check".
            enrollment_status: "Enrolled", "Pending" or "Not Enrolled".

        Returns {"vendors": [{vendor_id, vendor_name, payment_method, enrollment_status, enrolled_date, remit_email,
        remit_address, remit_city, remit_state, remit_zip, ach_account_last4}], "count": n}.
        """
        rows = self.select(
            "vendors",
            {
                "vendor_id": args.vendor_id,
                "payment_method": args.payment_method,
                "enrollment_status": args.enrollment_status,
            },
            extra=ilike("vendor_name", args.name_contains),
        )
        return {"vendors": rows, "count": len(rows)}

    @tool("funding_accounts.list")
    def funding_accounts_list(self, args: NoArgs) -> dict[str, Any]:
        """List the bank accounts that fund payments.

        Returns {"funding_accounts": [{funding_account_id, account_name, bank_name, account_last4, routing_number}], "count": n}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        rows = self.select("funding_accounts")
        return {"funding_accounts": rows, "count": len(rows)}

    @tool("batches.list")
    def batches_list(self, args: BatchListArgs) -> dict[str, Any]:
        """List payment batches.

        Args:
            funding_account_id: e.g. "FA-BA-OPER".
            date_from: e.g. "2026-01-01".
            date_to: e.g. "2026-01-31".

        Returns {"batches": [{batch_id, funding_account_id, batch_date, payment_count, total_amount, status}], "count": n}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        rows = self.select(
            "payment_batches",
            {"funding_account_id": args.funding_account_id},
            extra=date_range("batch_date", args.date_from, args.date_to),
            order_by=["batch_date", "batch_id"],
        )
        return {"batches": rows, "count": len(rows)}

    @tool("payments.list")
    def payments_list(self, args: PaymentListArgs) -> dict[str, Any]:
        """List payments made through Corpay.

        Args:
            vendor_id: e.g. "CP-558201".
            batch_id: e.g. "PB-BA-OPER-20260110".
            status: "Issued", "Cleared" or "Voided".
            check_number: e.g. 10003.
            date_from: e.g. "2025-01-01".
            date_to: e.g. "2025-12-31".

        Returns {"payments": [{payment_id, batch_id, vendor_id, payee_name, payment_method, check_number, amount,
        payment_date, status, cleared_date}], "count": n, "total_amount": "..."}.
        """
        rows = self.select(
            "payments",
            {
                "vendor_id": args.vendor_id,
                "batch_id": args.batch_id,
                "status": args.status,
                "check_number": args.check_number,
            },
            extra=date_range("payment_date", args.date_from, args.date_to),
            order_by=["payment_date", "payment_id"],
        )
        return {"payments": rows, "count": len(rows), "total_amount": sum((r["amount"] for r in rows), ZERO)}

    @tool("payments.get")
    def payments_get(self, args: PaymentRefArgs) -> dict[str, Any]:
        """One payment with its remittance detail (the invoices it paid).

        Args:
            payment_id: e.g. "PMT-BA-OPER-10003".

        Returns {"payment": {...}, "remittance": [{line_no, invoice_number, invoice_date, amount_paid}]}.
        """
        payment = self.require("payments", "payment", payment_id=args.payment_id)
        return {"payment": payment, "remittance": self.select("remittances", {"payment_id": args.payment_id})}

    @tool("remittances.list")
    def remittances_list(self, args: RemittanceListArgs) -> dict[str, Any]:
        """List remittance lines (which invoices each payment paid).

        Args:
            payment_id: e.g. "PMT-BA-OPER-10003".
            invoice_number: e.g. "WEC-2026-003".

        Returns {"remittances": [{payment_id, line_no, invoice_number, invoice_date, amount_paid}], "count": n}.
        """
        rows = self.select("remittances", {"payment_id": args.payment_id, "invoice_number": args.invoice_number})
        return {"remittances": rows, "count": len(rows)}

    @tool("payments.create", guarded="payment")
    def payments_create(self, args: PaymentCreateArgs) -> dict[str, Any]:
        """Pay a vendor (card, ACH or check) from a funding account (GUARDED: money movement is staged
        for human approval, never executed).

        Validates the vendor, its enrollment for the method, the funding account, the amounts
        (> 0, 2 decimals) and that the invoice applications add up to the amount.

        Args:
            vendor_id: e.g. "CP-558201".
            funding_account_id: e.g. "FA-BA-OPER".
            amount: e.g. "43650.00".
            invoices: e.g. [{"invoice_number": "WEC-2026-003", "amount": "43650.00"}].
            payment_method: "VirtualCard", "ACH" or "Check" (default: the enrolled method).
            payment_date: e.g. "2026-02-02" (default: today).

        Returns {"would_pay": {vendor_id, vendor_name, payment_method, funding_account_id, amount, payment_date,
        invoices}, "status": "pending_human_approval"}.
        """
        vendor = self.require("vendors", "vendor", vendor_id=args.vendor_id)
        self.require("funding_accounts", "funding account", funding_account_id=args.funding_account_id)
        method = args.payment_method or vendor["payment_method"]
        if method != "Check" and (vendor["enrollment_status"] != "Enrolled" or vendor["payment_method"] != method):
            raise ToolError(
                f"{vendor['vendor_name']} is not enrolled for {method} "
                f"(enrolled: {vendor['payment_method']}, {vendor['enrollment_status']})",
                "rejected",
            )
        amount = money_arg(args.amount, "amount")
        if amount <= 0:
            raise ToolError("amount must be greater than zero", "invalid_argument")
        applied = [money_arg(i.amount, f"invoice {i.invoice_number} amount") for i in args.invoices]
        if sum(applied, ZERO) != amount:
            raise ToolError(
                f"the invoice applications add up to {sum(applied, ZERO)}, not {amount}", "invalid_argument"
            )
        when = args.payment_date or self.today
        if when < self.today:
            raise ToolError(f"payment_date {when} is in the past", "invalid_argument")
        return {
            "would_pay": {
                "vendor_id": vendor["vendor_id"],
                "vendor_name": vendor["vendor_name"],
                "payment_method": method,
                "funding_account_id": args.funding_account_id,
                "amount": amount,
                "payment_date": when,
                "invoices": [
                    {"invoice_number": i.invoice_number, "amount": a}
                    for i, a in zip(args.invoices, applied, strict=True)
                ],
            },
            "status": "pending_human_approval",
        }

    # ------------------------------------------------------------------ draft payment runs
    def _draft(self, batch_id: str) -> dict[str, Any]:
        batch = self.require("payment_batches", "payment batch", batch_id=batch_id)
        if batch["status"] != DRAFT:
            raise ToolError(
                f"payment batch {batch_id} is {batch['status']}; only a Draft batch can be changed", "rejected"
            )
        return batch

    def _batch_view(self, batch_id: str) -> dict[str, Any]:
        batch = self.require("payment_batches", "payment batch", batch_id=batch_id)
        payments = self.select("payments", {"batch_id": batch_id}, order_by=["vendor_id", "payment_id"])
        for p in payments:
            p["invoices"] = self.select("remittances", {"payment_id": p["payment_id"]}, order_by=["line_no"])
        return {"batch": batch, "payments": payments, "count": len(payments)}

    def _drop_payment(self, payment_id: str) -> None:
        for line in self.select("remittances", {"payment_id": payment_id}):
            self.delete("remittances", {"payment_id": payment_id, "line_no": line["line_no"]})
        self.delete("payments", {"payment_id": payment_id})

    def _retotal(self, batch_id: str) -> None:
        rows = self.select("payments", {"batch_id": batch_id})
        total = sum((r["amount"] for r in rows), ZERO)
        self.update("payment_batches", {"batch_id": batch_id}, {"payment_count": len(rows), "total_amount": total})

    @tool("batches.create_draft", writes=True)
    def batches_create_draft(self, args: DraftCreateArgs) -> dict[str, Any]:
        """Start a payment run: a new, empty Draft batch on a funding account for a payment date.
        Add payments with batches.add_payment; nothing is paid until the batch is released
        (batches.release, a guarded step for a human approver).

        Args:
            funding_account_id: e.g. "FA-BA-OPER" (see funding_accounts.list).
            payment_date: e.g. "2026-02-13" (today or later).

        Returns {"batch": {batch_id, funding_account_id, batch_date, payment_count 0, total_amount "0.00", status "Draft"}}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        account = self.require("funding_accounts", "funding account", funding_account_id=args.funding_account_id)
        if args.payment_date < self.today:
            raise ToolError(f"payment_date {args.payment_date} is in the past", "invalid_argument")
        stem = f"PB-{account['funding_account_id'].removeprefix('FA-')}-{args.payment_date:%Y%m%d}-D"
        taken = {r["batch_id"] for r in self.select("payment_batches", {"funding_account_id": args.funding_account_id})}
        n = 1
        while f"{stem}{n}" in taken:
            n += 1
        row = {
            "batch_id": f"{stem}{n}",
            "funding_account_id": account["funding_account_id"],
            "batch_date": args.payment_date,
            "payment_count": 0,
            "total_amount": ZERO,
            "status": DRAFT,
        }
        self.insert("payment_batches", row)
        return {"batch": row}

    @tool("batches.get")
    def batches_get(self, args: BatchRefArgs) -> dict[str, Any]:
        """One payment batch with its payments and, for each, the invoices it pays.

        Args:
            batch_id: e.g. "PB-BA-OPER-20260213-D1".

        Returns {"batch": {...}, "payments": [{payment_id, vendor_id, payee_name, payment_method, amount, status,
        invoices: [{line_no, invoice_number, invoice_date, amount_paid}]}], "count": n}.
        """
        return self._batch_view(args.batch_id)

    @tool("batches.add_payment", writes=True)
    def batches_add_payment(self, args: DraftPaymentArgs) -> dict[str, Any]:
        """Add one vendor's payment to a Draft batch: the invoices it pays and the amount applied to each
        (a credit memo as a negative line). The payment's amount is the sum of its lines and must be
        more than zero; a vendor has at most one payment per batch (remove it to change it).

        Args:
            batch_id: e.g. "PB-BA-OPER-20260213-D1".
            vendor_id: Corpay supplier id, e.g. "CP-558201".
            invoices: e.g. [{"invoice_number": "WEC-2026-003", "amount": "43650.00"}, {"invoice_number": "BC-2041-01", "amount": "-1200.00"}].
            payment_method: "VirtualCard", "ACH" or "Check" (default: the enrolled method, else Check).

        Returns {"payment": {payment_id, batch_id, vendor_id, payee_name, payment_method, amount, payment_date, status "Draft"},
        "invoices": [{line_no, invoice_number, invoice_date, amount_paid}], "batch": {...}}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        batch = self._draft(args.batch_id)
        vendor = self.require("vendors", "vendor", vendor_id=args.vendor_id)
        if self.select("payments", {"batch_id": args.batch_id, "vendor_id": args.vendor_id}):
            raise ToolError(
                f"{vendor['vendor_name']} ({args.vendor_id}) already has a payment in batch {args.batch_id}: one "
                "payment per vendor carries all of its invoices (batches.remove_payment, then add it again)",
                "conflict",
            )
        enrolled = vendor["enrollment_status"] == "Enrolled"
        method = args.payment_method or (vendor["payment_method"] if enrolled else "Check")
        if method != "Check" and (not enrolled or vendor["payment_method"] != method):
            raise ToolError(
                f"{vendor['vendor_name']} is not enrolled for {method} "
                f"(enrolled: {vendor['payment_method']}, {vendor['enrollment_status']})",
                "rejected",
            )
        lines: list[dict[str, Any]] = []
        seen: set[str] = set()
        for n, app in enumerate(args.invoices, start=1):
            number = app.invoice_number.strip()
            if not number:
                raise ToolError(f"invoice line {n}: invoice_number is empty", "invalid_argument")
            if number.lower() in seen:
                raise ToolError(f"invoice {number} is listed twice in one payment", "invalid_argument")
            seen.add(number.lower())
            amount = money_arg(app.amount, f"invoice {number} amount", allow_negative=True, allow_zero=False)
            lines.append(
                {
                    "payment_id": "",
                    "line_no": n,
                    "invoice_number": number,
                    "invoice_date": app.invoice_date,
                    "amount_paid": amount,
                }
            )
        total = sum((ln["amount_paid"] for ln in lines), ZERO)
        if total <= 0:
            raise ToolError(
                f"the lines add up to {total}: a payment must be more than zero (a credit memo only reduces a "
                "payment of the vendor's invoices)",
                "invalid_argument",
            )
        payment_id = "PMT-D" + self.new_id("draft_payment", args.batch_id, args.vendor_id, length=10).upper()
        payment = {
            "payment_id": payment_id,
            "batch_id": args.batch_id,
            "vendor_id": vendor["vendor_id"],
            "payee_name": vendor["vendor_name"],
            "payment_method": method,
            "check_number": None,
            "amount": total,
            "payment_date": batch["batch_date"],
            "status": DRAFT,
            "cleared_date": None,
        }
        self.insert("payments", payment)
        for ln in lines:
            ln["payment_id"] = payment_id
        self.insert_many("remittances", lines)
        self._retotal(args.batch_id)
        return {
            "payment": payment,
            "invoices": [{k: v for k, v in ln.items() if k != "payment_id"} for ln in lines],
            "batch": self.require("payment_batches", "payment batch", batch_id=args.batch_id),
        }

    @tool("batches.remove_payment", writes=True)
    def batches_remove_payment(self, args: DraftPaymentRefArgs) -> dict[str, Any]:
        """Take one payment (and its invoice lines) out of a Draft batch.

        Args:
            batch_id: e.g. "PB-BA-OPER-20260213-D1".
            payment_id: e.g. "PMT-D3F9A0C2B17".

        Returns {"removed": payment_id, "batch": {...}}.
        """
        self._draft(args.batch_id)
        hit = self.select("payments", {"batch_id": args.batch_id, "payment_id": args.payment_id})
        if not hit:
            raise ToolError(f"no payment {args.payment_id} in batch {args.batch_id}", "not_found")
        self._drop_payment(args.payment_id)
        self._retotal(args.batch_id)
        return {
            "removed": args.payment_id,
            "batch": self.require("payment_batches", "payment batch", batch_id=args.batch_id),
        }

    @tool("batches.discard", writes=True)
    def batches_discard(self, args: BatchRefArgs) -> dict[str, Any]:
        """Delete a Draft batch with all of its payments (a released or processed batch cannot be discarded).

        Args:
            batch_id: e.g. "PB-BA-OPER-20260213-D1".

        Returns {"discarded": batch_id, "payments_removed": n}.
        """
        self._draft(args.batch_id)
        payments = self.select("payments", {"batch_id": args.batch_id})
        for p in payments:
            self._drop_payment(p["payment_id"])
        self.delete("payment_batches", {"batch_id": args.batch_id})
        return {"discarded": args.batch_id, "payments_removed": len(payments)}

    @tool("batches.release", guarded="payment")
    def batches_release(self, args: BatchRefArgs) -> dict[str, Any]:
        """Release a Draft batch for payment: Corpay funds it from the funding account and sends every
        payment (GUARDED: money movement is staged for human approval, never executed).

        Args:
            batch_id: e.g. "PB-BA-OPER-20260213-D1".

        Returns {"would_release": {batch_id, funding_account_id, batch_date, payment_count, total_amount}, "status": "pending_human_approval"}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        batch = self._draft(args.batch_id)
        if not batch["payment_count"]:
            raise ToolError(f"payment batch {args.batch_id} has no payments", "rejected")
        keys = ("batch_id", "funding_account_id", "batch_date", "payment_count", "total_amount")
        return {
            "would_release": {k: batch[k] for k in keys},
            "status": "pending_human_approval",
        }

    # ------------------------------------------------------------------ integration (Python-level)
    def payments_for_check(self, check_number: int) -> list[dict[str, Any]]:
        """Corpay payments carrying one check number (for positive-pay and bank reconciliation)."""
        return self.select("payments", {"check_number": check_number})


@register
class Corpay(VendorPaymentsArchetype):
    """Corpay Payments."""

    name: ClassVar[str] = "corpay"
    label: ClassVar[str] = "Corpay"
    tier = "B"
