"""Plaid: the aggregator across every bank the company uses (Items, accounts, balances,
transactions) and Plaid Transfer (guarded)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import Field
from sqlglot import exp

from cfab.apps.bank.base import BankBase
from cfab.apps.bank.dialects import PLAID, AggregatorDialect, TransferNetwork
from cfab.apps.kit import date_range, money_arg
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool
from cfab.schema.sqlbuild import col, literal


class ItemsArgs(ToolArgs):
    institution_name: str | None = Field(
        None, description="Case-insensitive part of the institution name", examples=["chase"]
    )


class AccountsGetArgs(ToolArgs):
    item_id: str | None = Field(None, description="Only the accounts of this Item", examples=["3f2a9c0d..."])
    account_ids: list[str] | None = Field(
        None, description="Only these account ids", examples=[["b7c41e0f5a2d4c1e9f0a7b3c5d2e1f60"]]
    )


class TransactionsGetArgs(ToolArgs):
    start_date: date = Field(..., description="First date (ISO)", examples=["2026-01-01"])
    end_date: date = Field(..., description="Last date (ISO)", examples=["2026-01-31"])
    account_ids: list[str] | None = Field(
        None, description="Only these account ids", examples=[["b7c41e0f5a2d4c1e9f0a7b3c5d2e1f60"]]
    )
    count: int = Field(100, ge=1, le=500, description="Page size (Plaid's count, max 500)", examples=[100])
    offset: int = Field(0, ge=0, description="Rows to skip (Plaid's offset)", examples=[0])


class PlaidTransferArgs(ToolArgs):
    account_id: str = Field(
        ...,
        description="The linked account the transfer draws on (debit) or pays into (credit)",
        examples=["b7c41e0f5a2d4c1e9f0a7b3c5d2e1f60"],
    )
    amount: Decimal = Field(..., description="Amount in USD, at most two decimals", examples=["2500.00"])
    type: Literal["debit", "credit"] = Field(
        "credit",
        description="credit: pay out of the account; debit: pull funds from the counterparty",
        examples=["credit"],
    )
    network: TransferNetwork = Field("ach", description="Payment network", examples=["same-day-ach"])
    to_account_id: str | None = Field(
        None,
        description="Another linked account (transfer between own accounts)",
        examples=["0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f"],
    )
    legal_name: str | None = Field(
        None,
        description="Counterparty legal name (when not an own account)",
        examples=["Walsh Electrical Contractors, LLC"],
    )
    description: str = Field(
        ..., description="Statement description (max 15 characters for ACH)", examples=["PAYROLL FUND"]
    )


@register
class Plaid(BankBase):
    """Plaid: aggregated bank data across institutions, and Plaid Transfer."""

    D: ClassVar[AggregatorDialect] = PLAID
    name: ClassVar[str] = PLAID.app
    label: ClassVar[str] = PLAID.label
    kind: ClassVar[str] = "bank_aggregator"

    def _account(self, account_id: str) -> dict[str, Any]:
        rows = self.select(self.D.tables.accounts, {"account_id": account_id.strip()})
        if not rows:
            raise ToolError(
                f"INVALID_ACCOUNT_ID: no linked account {account_id!r} (list them with accounts.get)", "not_found"
            )
        return rows[0]

    @tool("items.list")
    def items_list(self, args: ItemsArgs) -> dict[str, Any]:
        """List the linked Items (one per institution login) in $label.

        Args:
            institution_name: part of the institution name, e.g. "chase".

        Returns {"items": [{item_id, institution_id, institution_name, products, consent_expiration_time,
        update_type, last_successful_update}], "count": n}.
        """
        extra = None
        if args.institution_name:
            extra = exp.ILike(this=col("institution_name"), expression=literal(f"%{args.institution_name}%"))
        rows = self.select(self.D.tables.items, extra=extra, order_by=["institution_name"])
        return {"items": rows, "count": len(rows)}

    @tool("accounts.get")
    def accounts_get(self, args: AccountsGetArgs) -> dict[str, Any]:
        """List linked accounts (Plaid /accounts/get) with cached balances.

        Args:
            item_id: only one Item's accounts, e.g. "893cb233b49eeaa0081204b66aa2fb81" (from items.list).
            account_ids: only these accounts, e.g. ["$example_account"].

        Returns {"accounts": [{account_id, item_id, name, official_name, mask, type, subtype, iso_currency_code,
        balances_current, balances_available, balances_last_updated_datetime}], "count": n}.
        """
        extra = (
            exp.In(this=col("account_id"), expressions=[literal(a) for a in args.account_ids])
            if args.account_ids
            else None
        )
        rows = self.select(self.D.tables.accounts, {"item_id": args.item_id}, extra=extra, order_by=["item_id", "name"])
        return {"accounts": rows, "count": len(rows)}

    @tool("accounts.balance.get")
    def accounts_balance_get(self, args: AccountsGetArgs) -> dict[str, Any]:
        """Real-time balances of linked accounts (Plaid /accounts/balance/get): current and available.

        Args:
            item_id: only one Item's accounts, e.g. "893cb233b49eeaa0081204b66aa2fb81" (from items.list).
            account_ids: only these accounts, e.g. ["$example_account"].

        Returns {"accounts": [{account_id, name, mask, balances: {current, available, iso_currency_code}}], "count": n}.
        """
        rows = self.accounts_get(args)["accounts"]
        out = [
            {
                "account_id": r["account_id"],
                "item_id": r["item_id"],
                "name": r["name"],
                "mask": r["mask"],
                "balances": {
                    "current": r["balances_current"],
                    "available": r["balances_available"],
                    "iso_currency_code": r["iso_currency_code"],
                    "last_updated_datetime": r["balances_last_updated_datetime"],
                },
            }
            for r in rows
        ]
        return {"accounts": out, "count": len(out)}

    @tool("transactions.get")
    def transactions_get(self, args: TransactionsGetArgs) -> dict[str, Any]:
        """Transactions of linked accounts in a date range (Plaid /transactions/get), newest first.

        Plaid's sign convention: a positive amount is money OUT of the account, a negative amount money in.

        Args:
            start_date: e.g. "2026-01-01".
            end_date: e.g. "2026-01-31".
            account_ids: only these accounts, e.g. ["$example_account"].
            count: page size, e.g. 100 (max 500).
            offset: rows to skip, e.g. 0.

        Returns {"transactions": [{transaction_id, account_id, amount, date, name, transaction_code, check_number,
        pending, personal_finance_category_primary, ...}], "total_transactions": n, "count": n}.
        """
        if args.start_date > args.end_date:
            raise ToolError("INVALID_FIELD: start_date is after end_date")
        extra = date_range("date", args.start_date, args.end_date)
        if args.account_ids:
            extra = exp.and_(extra, exp.In(this=col("account_id"), expressions=[literal(a) for a in args.account_ids]))
        rows = self.select(self.D.tables.transactions, extra=extra, order_by=["date", "transaction_id"])
        rows.sort(key=lambda r: r["date"], reverse=True)
        page = rows[args.offset : args.offset + args.count]
        return {"transactions": page, "total_transactions": len(rows), "count": len(page)}

    @tool("bank_initiate_transfer", guarded="payment")
    def bank_initiate_transfer(self, args: PlaidTransferArgs) -> dict[str, Any]:
        """Create a Plaid Transfer (authorization + transfer) from a linked account.

        This MOVES MONEY: it is never executed here; the request is validated and staged for a human approver.

        Args:
            account_id: the linked account, e.g. "$example_account".
            amount: USD, e.g. "2500.00".
            type: "credit" (pay out) or "debit" (pull in).
            network: "ach", "same-day-ach", "rtp" or "wire".
            to_account_id: another linked account for a transfer between own accounts, e.g. "0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f".
            legal_name: the counterparty, e.g. "Walsh Electrical Contractors, LLC" (when not an own account).
            description: e.g. "PAYROLL FUND" (at most 15 characters on ACH networks).

        Returns the transfer that would be created: {"would_create": {...}, "available_balance"}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        src = self._account(args.account_id)
        amount = money_arg(args.amount, "amount", allow_zero=False)
        if args.to_account_id is not None:
            if args.legal_name:
                raise ToolError("give either to_account_id or legal_name")
            dst = self._account(args.to_account_id)
            if dst["account_id"] == src["account_id"]:
                raise ToolError("account_id and to_account_id are the same account")
            counterparty = f"Company A Construction, Inc. ({dst['name']} ...{dst['mask']})"
        else:
            if not args.legal_name:
                raise ToolError("legal_name is required for a counterparty (or give to_account_id)")
            counterparty = args.legal_name
        if args.network in self.D.ach_networks and len(args.description) > self.D.ach_description_limit:
            raise ToolError(
                f"INVALID_FIELD: description must be at most {self.D.ach_description_limit} characters on ACH"
            )
        if not args.description.strip():
            raise ToolError("INVALID_FIELD: description is required")
        if args.type == "credit" and amount > src["balances_available"]:
            raise ToolError(f"NSF: available balance {src['balances_available']} is less than {amount}", "rejected")
        return {
            "would_create": {
                "transfer_id": self.new_id("transfer", src["account_id"], amount, counterparty, args.description),
                "account_id": src["account_id"],
                "type": args.type,
                "network": args.network,
                "amount": amount,
                "description": args.description,
                "legal_name": counterparty,
                "status": "pending",
            },
            "available_balance": src["balances_available"],
            "note": "Plaid Transfer requires human authorization; nothing was sent.",
        }
