"""Bank archetype: treasury portals (reality 4 — banks are portals, not CRUD).

:class:`TreasuryPortal` holds all behaviour of the bank portals (accounts, information
reporting with BAI2 downloads, positive-pay issue file and exception queue with decisions, and
a guarded transfer); each bank is a subclass that sets only its dialect ``D``
(:class:`~cfab.apps.bank.dialects.PortalDialect`: table names, status and reason words, native
tool names, ...), which the tools read. :class:`BankBase` holds what Plaid shares with them.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import Field
from sqlglot import exp

from cfab.apps.bank.bai2 import (
    CLOSING_AVAILABLE,
    CLOSING_LEDGER,
    OPENING_AVAILABLE,
    OPENING_LEDGER,
    TOTAL_CREDITS,
    TOTAL_DEBITS,
    Bai2Account,
    Bai2Detail,
    Bai2Group,
    write_bai2,
)
from cfab.apps.bank.dialects import PortalDialect
from cfab.apps.bank.model import TREASURY_USER
from cfab.apps.contract import App
from cfab.apps.kit import date_range, money_arg
from cfab.apps.tooling import ToolArgs, ToolError, tool
from cfab.schema.sqlbuild import col, literal

MAX_ROWS = 500


def aba_valid(routing: str) -> bool:
    """ABA routing number check digit (weights 3-7-1)."""
    if len(routing) != 9 or not routing.isdigit():
        return False
    d = [int(c) for c in routing]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 == 0


class BankBase(App):
    """What every bank app shares: the guarded transfer's validation."""

    archetype = "Bank"
    kind: ClassVar[str] = "bank"

    def _check_dates(self, start: date | None, end: date | None) -> None:
        if start is not None and end is not None and start > end:
            raise ToolError(f"date_from {start} is after date_to {end}")


# ---------------------------------------------------------------------------------- args
class AccountsArgs(ToolArgs):
    nickname_contains: str | None = Field(
        None, description="Case-insensitive part of the account nickname", examples=["operating"]
    )


class BalancesArgs(ToolArgs):
    account: str | None = Field(
        None, description="Account number or nickname; omit for every account", examples=["4451029387"]
    )
    as_of_date: date | None = Field(
        None, description="Balance date (ISO); default the latest reported day", examples=["2026-01-30"]
    )


class TransactionsArgs(ToolArgs):
    account: str | None = Field(
        None, description="Account number or nickname; omit for every account", examples=["Operating"]
    )
    date_from: date | None = Field(None, description="First posted date (ISO)", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Last posted date (ISO)", examples=["2026-01-31"])
    type_code: str | None = Field(None, description="BAI2 type code", examples=["475"])
    check_number: int | None = Field(None, description="Check serial number", examples=[10452])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[200])


class Bai2Args(ToolArgs):
    account: str | None = Field(
        None, description="Account number or nickname; omit for every account", examples=["4451029387"]
    )
    date_from: date | None = Field(
        None, description="First as-of date (ISO); default the latest reported day", examples=["2026-01-26"]
    )
    date_to: date | None = Field(None, description="Last as-of date (ISO); default date_from", examples=["2026-01-30"])


class StatementArgs(ToolArgs):
    account: str = Field(..., description="Account number or nickname", examples=["Operating"])
    month: str = Field(..., pattern=r"^\d{4}-\d{2}$", description="Statement month YYYY-MM", examples=["2026-01"])


class ExceptionsArgs(ToolArgs):
    status: Literal["pending", "decided", "all"] = Field(
        "pending", description="pending (no decision yet), decided, or all", examples=["pending"]
    )
    account: str | None = Field(None, description="Account number or nickname", examples=["Operating"])


class IssuedArgs(ToolArgs):
    account: str | None = Field(None, description="Account number or nickname", examples=["4451029387"])
    check_number: int | None = Field(None, description="Check serial number", examples=[10452])
    date_from: date | None = Field(None, description="First issue date (ISO)", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Last issue date (ISO)", examples=["2026-01-31"])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[200])


class DecideArgs(ToolArgs):
    exception_id: str = Field(..., description="Exception item id from the exception queue", examples=["PPX3F9A0C12D4"])
    decision: Literal["pay", "return"] = Field(
        ..., description="pay (honour the item) or return (refuse it)", examples=["return"]
    )
    reason: str | None = Field(
        None, max_length=200, description="Why (kept with the decision)", examples=["amount altered: issued 4,250.00"]
    )


class PaymentsArgs(ToolArgs):
    account: str | None = Field(
        None, description="Debit account number or nickname; omit for every account", examples=["Operating"]
    )
    status: Literal["all", "completed", "scheduled"] = Field(
        "all",
        description="completed (released and sent), scheduled (future-dated, not yet released) or all",
        examples=["scheduled"],
    )
    date_from: date | None = Field(None, description="First value date (ISO)", examples=["2026-02-01"])
    date_to: date | None = Field(None, description="Last value date (ISO)", examples=["2026-04-30"])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[200])


class TransferArgs(ToolArgs):
    from_account: str = Field(..., description="Debit account: account number or nickname", examples=["Operating"])
    to_account: str | None = Field(
        None,
        description="Credit account at this bank (number or nickname) for a book "
        "transfer; omit when paying an outside payee",
        examples=["Payroll"],
    )
    payee_name: str | None = Field(
        None, description="Outside beneficiary name (wire/ACH)", examples=["Walsh Electrical Contractors"]
    )
    payee_account: str | None = Field(None, description="Outside beneficiary account number", examples=["000123456789"])
    payee_routing: str | None = Field(
        None, description="Outside beneficiary ABA routing number", examples=["071000013"]
    )
    amount: Decimal = Field(..., description="Amount in USD with at most two decimals", examples=["12500.00"])
    method: Literal["wire", "ach", "book"] | None = Field(
        None, description="wire, ach or book (default: book between own accounts, else wire)", examples=["wire"]
    )
    memo: str | None = Field(
        None, max_length=140, description="Memo / remittance text", examples=["Fund payroll 2026-01-31"]
    )
    value_date: date | None = Field(None, description="Value date (ISO); default today", examples=["2026-02-02"])


# ---------------------------------------------------------------------------------- portal
class TreasuryPortal(BankBase):
    """A bank's treasury portal. A bank is a subclass that sets its dialect ``D``; its app name,
    label and native tool names come from the dialect."""

    D: ClassVar[PortalDialect]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        d = cls.__dict__.get("D")
        if d is not None:
            cls.name, cls.label, cls.TOOL_NAMES = d.app, d.label, dict(d.tool_names)
            if cls.__dict__.get("__doc__") is None:
                cls.__doc__ = d.description

    @classmethod
    def doc_vars(cls) -> dict[str, str]:
        """Docstring placeholders: the App's (with the dialect's example ids) plus the pending-decision word."""
        return {
            **super().doc_vars(),
            "pending_decision": cls.D.decisions.pending,
            "scheduled_status": cls.D.scheduled_status,
        }

    # ------------------------------------------------------------------ helpers
    def _account(self, ref: str | None) -> dict[str, Any] | None:
        """The account row for an account number or nickname (None when ref is None)."""
        if ref is None:
            return None
        ref = ref.strip()
        rows = self.select(self.D.tables.accounts, {"account_number": ref})
        if not rows:
            rows = [r for r in self.select(self.D.tables.accounts) if r["account_nickname"].lower() == ref.lower()]
        if not rows:
            known = ", ".join(
                f"{r['account_number']} ({r['account_nickname']})" for r in self.select(self.D.tables.accounts)
            )
            raise ToolError(f"no account {ref!r} in {self.label}; accounts: {known or 'none'}", "not_found")
        return rows[0]

    def _account_filter(self, ref: str | None) -> str | None:
        acct = self._account(ref)
        return acct["account_number"] if acct else None

    # ------------------------------------------------------------------ integration (peer apps)
    def issue_record(self, account_number: str, check_number: int) -> dict[str, Any] | None:
        """The issue-file record of one check at this bank (None when the bank has none)."""
        rows = self.select(self.D.tables.issue_file, {"account_number": account_number, "check_number": check_number})
        return rows[0] if rows else None

    def exception_queue(self, pending_only: bool = True) -> list[dict[str, Any]]:
        """Today's positive-pay exception items (pending ones by default), as the tool lists them."""
        return self.positive_pay_exceptions(ExceptionsArgs(status="pending" if pending_only else "all"))["exceptions"]

    # ------------------------------------------------------------------ reads
    @tool("accounts.list")
    def accounts_list(self, args: AccountsArgs) -> dict[str, Any]:
        """List the company's accounts held at $label.

        Args:
            nickname_contains: part of the nickname, e.g. "operating".

        Returns {"accounts": [{account_number, routing_number, account_nickname, account_type, currency_code,
        positive_pay, payee_field_width, status}], "count": n}.
        """
        extra = None
        if args.nickname_contains:
            extra = exp.ILike(this=col("account_nickname"), expression=literal(f"%{args.nickname_contains}%"))
        rows = self.select(self.D.tables.accounts, extra=extra)
        return {"accounts": rows, "count": len(rows)}

    @tool("balances.get")
    def balances_get(self, args: BalancesArgs) -> dict[str, Any]:
        """Get ledger and available balances as of a day from $label's balance reporting.

        Args:
            account: account number or nickname, e.g. "$example_account" (omit for every account).
            as_of_date: the balance day, e.g. "2026-01-30" (default: the latest reported day, per account).

        Returns {"balances": [{account_number, as_of_date, opening_ledger, closing_ledger, opening_available,
        closing_available, total_credits, credit_count, total_debits, debit_count}], "count": n}; amounts are
        exact decimal strings.
        """
        acct = self._account_filter(args.account)
        rows = self.select(
            self.D.tables.balance_reports,
            {"account_number": acct, "as_of_date": args.as_of_date},
            extra=exp.LTE(this=col("as_of_date"), expression=literal(self.today, "DATE")),
            order_by=["account_number", "as_of_date"],
        )
        if args.as_of_date is None:
            latest: dict[str, Any] = {}
            for r in rows:
                latest[r["account_number"]] = r
            rows = list(latest.values())
        if not rows and args.as_of_date is not None:
            raise ToolError(
                f"no balance report for {args.as_of_date} in {self.label}" + (f" for account {acct}" if acct else ""),
                "not_found",
            )
        return {"balances": rows, "count": len(rows)}

    @tool("transactions.list")
    def transactions_list(self, args: TransactionsArgs) -> dict[str, Any]:
        """Search posted account activity in $label (BAI2 type codes; amounts unsigned with dr_cr).

        Args:
            account: account number or nickname, e.g. "Operating".
            date_from: first posted date, e.g. "2026-01-01".
            date_to: last posted date, e.g. "2026-01-31".
            type_code: BAI2 type code, e.g. "475" (check paid), "165" (ACH credit), "495" (outgoing wire).
            check_number: a check serial number, e.g. 10452.
            limit: most rows to return, e.g. 200 (default 500).

        Returns {"transactions": [{bank_reference, account_number, posted_date, bai_type_code, dr_cr, amount,
        check_number, customer_reference, description}], "count": n, "truncated": bool}.
        """
        self._check_dates(args.date_from, args.date_to)
        acct = self._account_filter(args.account)
        rows = self.select(
            self.D.tables.activity,
            {"account_number": acct, "bai_type_code": args.type_code, "check_number": args.check_number},
            extra=date_range("posted_date", args.date_from, args.date_to),
            order_by=["posted_date", "account_number", "bank_reference"],
            limit=args.limit + 1,
        )
        return {
            "transactions": rows[: args.limit],
            "count": min(len(rows), args.limit),
            "truncated": len(rows) > args.limit,
        }

    @tool("statements.bai2")
    def statements_bai2(self, args: Bai2Args) -> dict[str, Any]:
        """Download a BAI2 previous-day report from $label for a date range.

        One 02 group per as-of date; per account an 03 record with summary codes 010 (opening ledger),
        015 (closing ledger), 040 (opening available), 045 (closing available), 100/400 (total credits and
        debits with counts), 16 detail records (type code, amount in cents, bank and customer reference,
        text) and a 49 trailer; 98 and 99 trailers carry control totals (cents) and record counts.

        Args:
            account: account number or nickname, e.g. "$example_account" (omit for every account).
            date_from: first as-of date, e.g. "2026-01-26" (default: the latest reported day).
            date_to: last as-of date, e.g. "2026-01-30" (default: date_from).

        Returns {"filename": "...bai", "format": "BAI2", "groups": n, "accounts": n, "transactions": n,
        "content": "01,...\\n...99,...\\n"}.
        """
        acct = self._account_filter(args.account)
        start = args.date_from
        if start is None:
            latest = self.con.execute(
                exp.select(exp.func("max", col("as_of_date")))
                .from_(self.tbl(self.D.tables.balance_reports).table_expr())
                .where(exp.LTE(this=col("as_of_date"), expression=literal(self.today, "DATE")))
                .sql("duckdb")
            ).fetchone()
            start = (latest[0] if latest else None) or self.today
        end = args.date_to or start
        self._check_dates(start, end)
        if (end - start).days > 366:
            raise ToolError("a BAI2 download covers at most 366 days")
        accounts = {r["account_number"]: r for r in self.select(self.D.tables.accounts, {"account_number": acct})}
        balances = self.select(
            self.D.tables.balance_reports, {"account_number": acct}, extra=date_range("as_of_date", start, end)
        )
        txns = self.select(
            self.D.tables.activity,
            {"account_number": acct},
            extra=date_range("posted_date", start, end),
            order_by=["posted_date", "account_number", "bank_reference"],
        )
        by_day: dict[date, dict[str, Bai2Account]] = {}
        for b in balances:
            a = by_day.setdefault(b["as_of_date"], {}).setdefault(b["account_number"], Bai2Account(b["account_number"]))
            a.summaries = [
                (OPENING_LEDGER, b["opening_ledger"], None),
                (CLOSING_LEDGER, b["closing_ledger"], None),
                (OPENING_AVAILABLE, b["opening_available"], None),
                (CLOSING_AVAILABLE, b["closing_available"], None),
                (TOTAL_CREDITS, b["total_credits"], b["credit_count"]),
                (TOTAL_DEBITS, b["total_debits"], b["debit_count"]),
            ]
        for t in txns:
            a = by_day.setdefault(t["posted_date"], {}).setdefault(
                t["account_number"], Bai2Account(t["account_number"])
            )
            cust = t["customer_reference"] if t["check_number"] is None else str(t["check_number"])
            a.details.append(Bai2Detail(t["bai_type_code"], t["amount"], t["bank_reference"], cust, t["description"]))
        groups = [
            Bai2Group(day, "2" if day < self.today else "3", [by_day[day][n] for n in sorted(by_day[day])])
            for day in sorted(by_day)
        ]
        sender = next(iter(accounts.values()))["routing_number"] if accounts else "000000000"
        file_id = str(int(self.new_id("bai2", acct or "*", start, end), 16) % 10**8)
        content = write_bai2(
            groups,
            sender=sender,
            receiver=self.D.bai2_receiver,
            created=self.today,
            created_time=f"{self.now:%H%M}",
            file_id=file_id,
        )
        name = f"{self.name}_{acct or 'all'}_{start:%Y%m%d}_{end:%Y%m%d}.bai"
        return {
            "filename": name,
            "format": "BAI2",
            "groups": len(groups),
            "accounts": len({a for g in groups for a in (x.account_number for x in g.accounts)}),
            "transactions": len(txns),
            "content": content,
        }

    @tool("statements.get")
    def statements_get(self, args: StatementArgs) -> dict[str, Any]:
        """Get one account's monthly statement from $label: opening and closing ledger balance, credit and
        debit totals and every transaction posted in the month.

        The current month's statement is an interim one: it runs through today (statement_end) and says so.

        Args:
            account: account number or nickname, e.g. "$example_account".
            month: the statement month "YYYY-MM", e.g. "2026-01".

        Returns {"account_number", "account_nickname", "month", "statement_start", "statement_end", "interim",
        "opening_balance", "closing_balance", "total_credits", "credit_count", "total_debits", "debit_count",
        "transactions": [{bank_reference, posted_date, bai_type_code, dr_cr, amount, check_number,
        customer_reference, description}], "count": n}; amounts are exact decimal strings, unsigned with dr_cr.
        """
        acct = self._account(args.account)
        assert acct is not None
        year, mon = (int(x) for x in args.month.split("-"))
        if not 1 <= mon <= 12:
            raise ToolError(f"month {args.month!r} is not YYYY-MM")
        start = date(year, mon, 1)
        if start > self.today:
            raise ToolError(f"no statement for {args.month}: the month has not started", "not_found")
        following = date(year + mon // 12, mon % 12 + 1, 1)
        end = min(following - timedelta(days=1), self.today)
        number = acct["account_number"]
        reports = self.select(
            self.D.tables.balance_reports,
            {"account_number": number},
            extra=exp.LTE(this=col("as_of_date"), expression=literal(end, "DATE")),
            order_by=["as_of_date"],
        )
        if not reports:
            raise ToolError(f"no statement for {args.month} on account {number} in {self.label}", "not_found")
        txns = self.select(
            self.D.tables.activity,
            {"account_number": number},
            extra=date_range("posted_date", start, end),
            order_by=["posted_date", "bank_reference"],
        )
        credits = [t["amount"] for t in txns if t["dr_cr"] == "CR"]
        debits = [t["amount"] for t in txns if t["dr_cr"] == "DR"]
        closing = reports[-1]["closing_ledger"]
        zero = Decimal("0.00")
        opening = closing - sum(credits, zero) + sum(debits, zero)
        return {
            "account_number": number,
            "account_nickname": acct["account_nickname"],
            "month": args.month,
            "statement_start": start,
            "statement_end": end,
            "interim": end < following - timedelta(days=1),
            "opening_balance": opening,
            "closing_balance": closing,
            "total_credits": sum(credits, zero),
            "credit_count": len(credits),
            "total_debits": sum(debits, zero),
            "debit_count": len(debits),
            "transactions": [{k: v for k, v in t.items() if k != "account_number"} for t in txns],
            "count": len(txns),
        }

    @tool("positive_pay.exceptions")
    def positive_pay_exceptions(self, args: ExceptionsArgs) -> dict[str, Any]:
        """List the positive-pay exception queue in $label: presented items that did not match the issue file.

        Each item shows the presented check (number, amount, payee), the issue-file record it was compared
        with (issued_amount / issued_payee; null when no check with that number was issued), the bank's
        exception_reason, the decision deadline and the current decision ('$pending_decision' until you decide).

        Args:
            status: "pending" (default), "decided" or "all".
            account: account number or nickname, e.g. "Operating".

        Returns {"exceptions": [{exception_id, account_number, presented_date, check_number, presented_amount,
        presented_payee, issued_amount, issued_payee, exception_reason, decision_due, cutoff_time,
        default_decision, decision, return_reason, decided_by, decided_at}], "count": n}.
        """
        acct = self._account_filter(args.account)
        extra: exp.Expr | None = None
        if args.status == "pending":
            extra = exp.EQ(this=col("decision"), expression=literal(self.D.decisions.pending))
        elif args.status == "decided":
            extra = exp.NEQ(this=col("decision"), expression=literal(self.D.decisions.pending))
        rows = self.select(
            self.D.tables.exception_queue,
            {"account_number": acct},
            extra=extra,
            order_by=["account_number", "check_number", "exception_id"],
        )
        return {"exceptions": rows, "count": len(rows)}

    @tool("positive_pay.issued_checks")
    def positive_pay_issued_checks(self, args: IssuedArgs) -> dict[str, Any]:
        """List the positive-pay issue file $label holds (the checks the company reported as issued).

        The payee is as the bank's issue-file payee field holds it (it may be cut to the account's
        payee_field_width).

        Args:
            account: account number or nickname, e.g. "$example_account".
            check_number: one check, e.g. 10452.
            date_from: first issue date, e.g. "2026-01-01".
            date_to: last issue date, e.g. "2026-01-31".
            limit: most rows to return, e.g. 200 (default 500).

        Returns {"issued_checks": [{account_number, check_number, issue_date, amount, payee_name, item_status,
        paid_date}], "count": n, "truncated": bool}.
        """
        self._check_dates(args.date_from, args.date_to)
        acct = self._account_filter(args.account)
        rows = self.select(
            self.D.tables.issue_file,
            {"account_number": acct, "check_number": args.check_number},
            extra=date_range("issue_date", args.date_from, args.date_to),
            order_by=["account_number", "check_number"],
            limit=args.limit + 1,
        )
        return {
            "issued_checks": rows[: args.limit],
            "count": min(len(rows), args.limit),
            "truncated": len(rows) > args.limit,
        }

    @tool("payments.list")
    def payments_list(self, args: PaymentsArgs) -> dict[str, Any]:
        """List the payments and transfers initiated in $label: wires, ACH and book transfers, completed
        ones and future-dated ones Treasury has set up that are not released yet (status '$scheduled_status').

        Args:
            account: debit account number or nickname, e.g. "Operating" (omit for every account).
            status: "scheduled" (future-dated, not yet released), "completed" or "all" (default).
            date_from: first value date, e.g. "2026-02-01".
            date_to: last value date, e.g. "2026-04-30".
            limit: most rows to return, e.g. 200 (default 500).

        Returns {"payments": [{payment_id, from_account, payment_method, beneficiary_name, beneficiary_account,
        beneficiary_routing, amount, value_date, memo, status, created_by}], "count": n, "truncated": bool}.
        """
        self._check_dates(args.date_from, args.date_to)
        acct = self._account_filter(args.account)
        word = {"completed": self.D.payment_status, "scheduled": self.D.scheduled_status}.get(args.status)
        rows = self.select(
            self.D.tables.payments,
            {"from_account": acct, "status": word},
            extra=date_range("value_date", args.date_from, args.date_to),
            order_by=["value_date", "from_account", "payment_id"],
            limit=args.limit + 1,
        )
        return {
            "payments": rows[: args.limit],
            "count": min(len(rows), args.limit),
            "truncated": len(rows) > args.limit,
        }

    # ------------------------------------------------------------------ writes
    @tool("positive_pay.decide", writes=True)
    def positive_pay_decide(self, args: DecideArgs) -> dict[str, Any]:
        """Decide one positive-pay exception in $label: pay it or return it.

        A decision can be changed until the item's decision window closes (decision_due); after that
        it is final.

        Args:
            exception_id: the item, e.g. "$example_exception".
            decision: "pay" or "return".
            reason: why, e.g. "amount altered: issued 4,250.00" (kept with the decision).

        Returns {"exception_id", "check_number", "decision", "return_reason", "decided_at", "previous_decision"}.
        """
        item = self.require(
            self.D.tables.exception_queue, "positive-pay exception", exception_id=args.exception_id.strip()
        )
        word = self.D.decisions.pay if args.decision == "pay" else self.D.decisions.return_item
        self.update(
            self.D.tables.exception_queue,
            {"exception_id": item["exception_id"]},
            {"decision": word, "return_reason": args.reason, "decided_by": TREASURY_USER, "decided_at": self.now},
        )
        return {
            "exception_id": item["exception_id"],
            "check_number": item["check_number"],
            "decision": word,
            "return_reason": args.reason,
            "decided_at": self.now,
            "previous_decision": item["decision"],
        }

    @tool("bank_initiate_transfer", guarded="payment")
    def bank_initiate_transfer(self, args: TransferArgs) -> dict[str, Any]:
        """Initiate a wire, ACH or book transfer from a company account at $label.

        This MOVES MONEY: it is never executed here; the request is validated and staged for a human
        approver (dual control).

        Args:
            from_account: debit account number or nickname, e.g. "Operating".
            to_account: credit account at this bank for a book transfer, e.g. "Payroll".
            payee_name: outside beneficiary, e.g. "Walsh Electrical Contractors" (with payee_account and
                payee_routing instead of to_account).
            payee_account: beneficiary account number, e.g. "000123456789".
            payee_routing: beneficiary ABA routing number, e.g. "071000013".
            amount: USD amount, e.g. "12500.00".
            method: "wire", "ach" or "book".
            memo: remittance text, e.g. "Fund payroll 2026-01-31".
            value_date: e.g. "2026-02-02" (default today).

        Returns a description of the transfer that would be initiated: {"would_initiate": {...}, "available_balance"}.
        """
        src = self._account(args.from_account)
        assert src is not None
        amount = money_arg(args.amount, "amount", allow_zero=False)
        value_date = args.value_date or self.today
        if value_date < self.today:
            raise ToolError(f"value_date {value_date} is in the past")
        if args.to_account is not None:
            if args.payee_name or args.payee_account or args.payee_routing:
                raise ToolError("give either to_account (own account) or payee_name/payee_account/payee_routing")
            dst = self._account(args.to_account)
            assert dst is not None
            if dst["account_number"] == src["account_number"]:
                raise ToolError("from_account and to_account are the same account")
            method = args.method or "book"
            beneficiary = {
                "name": f"Company A - {dst['account_nickname']}",
                "account": dst["account_number"],
                "routing": dst["routing_number"],
            }
        else:
            if not (args.payee_name and args.payee_account and args.payee_routing):
                raise ToolError(
                    "an outside payment needs payee_name, payee_account and payee_routing "
                    "(or give to_account for a transfer between own accounts)"
                )
            if not aba_valid(args.payee_routing):
                raise ToolError(f"payee_routing {args.payee_routing!r} is not a valid ABA routing number")
            if args.method == "book":
                raise ToolError("a book transfer goes between accounts at this bank; use wire or ach for a payee")
            method = args.method or "wire"
            beneficiary = {"name": args.payee_name, "account": args.payee_account, "routing": args.payee_routing}
        bal = self.select(
            self.D.tables.balance_reports,
            {"account_number": src["account_number"]},
            extra=exp.LTE(this=col("as_of_date"), expression=literal(self.today, "DATE")),
            order_by=["as_of_date"],
        )
        available = bal[-1]["closing_available"] if bal else None
        return {
            "would_initiate": {
                "payment_id": self.new_id(
                    "payment", src["account_number"], beneficiary["account"], amount, value_date, args.memo or ""
                ),
                "from_account": src["account_number"],
                "method": method.upper(),
                "beneficiary": beneficiary,
                "amount": amount,
                "value_date": value_date,
                "memo": args.memo,
            },
            "available_balance": available,
            "note": f"{self.label} holds this for approval; nothing was sent.",
        }
