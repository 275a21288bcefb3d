"""The four treasury portals: constants only (tables, words, native tool names)."""

from __future__ import annotations

from typing import ClassVar

from cfab.apps.bank.base import TreasuryPortal
from cfab.apps.registry import register


@register
class BofaCashPro(TreasuryPortal):
    """Bank of America CashPro: Information Reporting, Positive Pay, Payments."""

    name: ClassVar[str] = "bofa_cashpro"
    label: ClassVar[str] = "Bank of America CashPro"
    BANK = "bofa"
    T_ACCOUNTS, T_BALANCES, T_TXNS = "accounts", "balance_reports", "transaction_details"
    T_ISSUED, T_EXC, T_XFER = "issue_records", "exception_items", "payments"
    PENDING, PAY, RETURN = "No Decision", "Pay", "Return"
    CUSTOMER_ID = "COMPANYA01"
    EX_EXCEPTION = "PPX3F9A0C12D4"
    TOOL_NAMES = {
        "balances.get": "information_reporting.balances",
        "transactions.list": "information_reporting.transactions",
        "statements.bai2": "information_reporting.bai2_download",
        "positive_pay.exceptions": "positive_pay.exceptions.list",
        "positive_pay.issued_checks": "positive_pay.issue_records.list",
        "positive_pay.decide": "positive_pay.exceptions.decision",
    }


@register
class ChaseTreasury(TreasuryPortal):
    """J.P. Morgan Chase ACCESS / Chase Connect: balances, transactions, reports, Positive Pay, Payments."""

    name: ClassVar[str] = "chase_treasury"
    label: ClassVar[str] = "J.P. Morgan Chase ACCESS"
    BANK = "chase"
    T_ACCOUNTS, T_BALANCES, T_TXNS = "accounts", "balances", "transactions"
    T_ISSUED, T_EXC, T_XFER = "issued_checks", "positive_pay_exceptions", "payments"
    PENDING, PAY, RETURN = "PENDING", "PAY", "RETURN"
    CUSTOMER_ID = "COMPANYA"
    EX_EXCEPTION = "JPM0A17C3E9F2"
    TOOL_NAMES = {
        "transactions.list": "transactions.search",
        "statements.bai2": "reports.bai2",
        "positive_pay.exceptions": "positive_pay.exceptions.list",
        "positive_pay.issued_checks": "positive_pay.issued_checks.list",
        "positive_pay.decide": "positive_pay.exceptions.decide",
    }


@register
class WellsVantage(TreasuryPortal):
    """Wells Fargo Vantage: previous-day reporting, ARP positive pay, Payment Manager."""

    name: ClassVar[str] = "wells"
    label: ClassVar[str] = "Wells Fargo Vantage"
    BANK = "wells"
    T_ACCOUNTS, T_BALANCES, T_TXNS = "accounts", "previous_day_balances", "previous_day_detail"
    T_ISSUED, T_EXC, T_XFER = "arp_issue_records", "arp_exceptions", "payment_manager"
    PENDING, PAY, RETURN = "Decision Required", "Pay", "Return"
    CUSTOMER_ID = "COMPANYA"
    EX_EXCEPTION = "ARP5D20B7A91C"
    TOOL_NAMES = {
        "balances.get": "reporting.previous_day_balances",
        "transactions.list": "reporting.previous_day_detail",
        "statements.bai2": "reporting.bai2_file",
        "positive_pay.exceptions": "arp.exceptions.list",
        "positive_pay.issued_checks": "arp.issue_records.list",
        "positive_pay.decide": "arp.exceptions.decision",
    }


@register
class PncPinacle(TreasuryPortal):
    """PNC PINACLE: Information Reporting, Positive Pay, Funds Transfer."""

    name: ClassVar[str] = "pnc_pinacle"
    label: ClassVar[str] = "PNC PINACLE"
    BANK = "pnc"
    T_ACCOUNTS, T_BALANCES, T_TXNS = "accounts", "balances", "activity"
    T_ISSUED, T_EXC, T_XFER = "ppay_issue_items", "ppay_exception_items", "funds_transfers"
    PENDING, PAY, RETURN = "Pending", "Pay", "Return"
    CUSTOMER_ID = "COMPANYA"
    EX_EXCEPTION = "PNC9E41D0B377"
    TOOL_NAMES = {
        "balances.get": "information_reporting.balances",
        "transactions.list": "information_reporting.activity",
        "statements.bai2": "information_reporting.bai2_export",
        "positive_pay.exceptions": "positive_pay.exception_items",
        "positive_pay.issued_checks": "positive_pay.issue_items",
        "positive_pay.decide": "positive_pay.decision",
    }
