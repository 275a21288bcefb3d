"""The bank vendors as data: one frozen dialect per treasury portal, and the aggregator's.

A :class:`PortalDialect` holds everything one bank's treasury portal does differently from
another: its app name and label, the bank it fronts (:class:`~cfab.seeds.reference.Bank`: the
bank's code in the book and its ABA routing prefix, kept once in the book's reference data), its
native table names, its words for decisions, exception reasons, issue-file statuses and payment
status, the prefixes of the ids it issues, its BAI2 receiver id, its decision window, its native
tool names and the example ids its tool docstrings show. Nothing else in the code names a bank:
``cfab.apps.bank.gen`` renders each portal's schema, views, entity projections and write rules
from its dialect, and :class:`~cfab.apps.bank.base.TreasuryPortal` reads the same dialect at run
time, so the tables the tools read and the tables the views fill cannot drift apart.

:class:`AggregatorDialect` does the same for Plaid, a different archetype (one schema over every
bank the company uses, Items, Plaid's sign convention, Plaid Transfer).

Adding a bank: ``docs/recipes/new-bank-vendor.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from cfab.seeds.reference import BANK_OF_AMERICA, CHASE, PNC, WELLS_FARGO, Bank


@dataclass(frozen=True)
class PortalTables:
    """The native names of the portal archetype's six logical tables (``cfab.apps.bank.model``)."""

    balance_reports: str
    activity: str
    issue_file: str
    exception_queue: str
    payments: str
    accounts: str = "accounts"

    def native(self, logical: str) -> str:
        return str(getattr(self, logical))


@dataclass(frozen=True)
class DecisionWords:
    """How the portal spells an exception's decision: none yet, pay it, return it."""

    pending: str
    pay: str
    return_item: str

    def all(self) -> tuple[str, str, str]:
        return (self.pending, self.pay, self.return_item)


@dataclass(frozen=True)
class ExceptionReasons:
    """The portal's words for the book's six positive-pay exception reasons."""

    payee_mismatch: str
    amount_mismatch: str
    no_issue_record: str
    duplicate_presentment: str
    stale_dated: str  # an issued check presented more than the stale-date window after issue
    void_presented: str  # a check the issue file shows as void, presented anyway


@dataclass(frozen=True)
class IssueStatuses:
    """The portal's words for an issue-file check: outstanding, paid (cleared), void."""

    issued: str
    paid: str
    void: str


@dataclass(frozen=True)
class ReferencePrefixes:
    """The prefixes of the ids the portal issues (each followed by an upper-case hash of the book key)."""

    transaction: str  # posted activity's bank reference
    exception: str  # an exception item's id
    payment: str  # a payment's id


@dataclass(frozen=True)
class PortalDialect:
    app: str
    label: str
    description: str  # one line: what the portal is (the app class's docstring)
    bank: Bank
    tables: PortalTables
    decisions: DecisionWords
    exception_reasons: ExceptionReasons
    issue_statuses: IssueStatuses
    payment_status: str  # the status of a completed payment
    reference_prefixes: ReferencePrefixes
    decision_cutoff: str  # the time the decision window closes on the due date
    default_decision: Literal["pay", "return"]  # what the bank does with an undecided item
    bai2_receiver: str  # the receiver id in the BAI2 files it sends
    example_exception: str  # an exception id in the portal's format, for docstrings
    tool_names: dict[str, str] = field(default_factory=dict)  # archetype tool name -> native name
    example_account: str = "4451029387"
    scheduled_status: str = "Scheduled"  # a future-dated payment set up in the portal, not yet released

    @property
    def default_decision_word(self) -> str:
        return self.decisions.pay if self.default_decision == "pay" else self.decisions.return_item


@dataclass(frozen=True)
class Institution:
    """A bank as the aggregator lists it."""

    bank: Bank
    institution_id: str
    name: str


TransferNetwork = Literal["ach", "same-day-ach", "rtp", "wire"]  # the aggregator's payment networks


@dataclass(frozen=True)
class AggregatorTables:
    items: str = "items"
    accounts: str = "accounts"
    transactions: str = "transactions"
    transfers: str = "transfers"

    def native(self, logical: str) -> str:
        return str(getattr(self, logical))


@dataclass(frozen=True)
class AggregatorDialect:
    app: str
    label: str
    description: str
    institutions: tuple[Institution, ...]
    transfer_networks: tuple[str, ...]
    ach_networks: tuple[str, ...]  # networks whose statement description is limited
    ach_description_limit: int
    example_account: str
    tables: AggregatorTables = AggregatorTables()


# ---------------------------------------------------------------------------------------------
# The four treasury portals
# ---------------------------------------------------------------------------------------------
BANK_OF_AMERICA_CASHPRO = PortalDialect(
    app="bofa_cashpro",
    label="Bank of America CashPro",
    description="Bank of America CashPro: Information Reporting, Positive Pay, Payments.",
    bank=BANK_OF_AMERICA,
    tables=PortalTables(
        balance_reports="balance_reports",
        activity="transaction_details",
        issue_file="issue_records",
        exception_queue="exception_items",
        payments="payments",
    ),
    decisions=DecisionWords(pending="No Decision", pay="Pay", return_item="Return"),
    exception_reasons=ExceptionReasons(
        payee_mismatch="Payee Name Mismatch",
        amount_mismatch="Amount Mismatch",
        no_issue_record="Paid Not Issued",
        duplicate_presentment="Duplicate Paid",
        stale_dated="Stale Dated",
        void_presented="Paid Void",
    ),
    issue_statuses=IssueStatuses(issued="Issued", paid="Paid", void="Void"),
    payment_status="Completed",
    reference_prefixes=ReferencePrefixes(transaction="BOA", exception="PPX", payment="CPP"),
    decision_cutoff="11:00 ET",
    default_decision="return",
    bai2_receiver="COMPANYA01",
    example_exception="PPX3F9A0C12D4",
    tool_names={
        "balances.get": "information_reporting.balances",
        "transactions.list": "information_reporting.transactions",
        "statements.bai2": "information_reporting.bai2_download",
        "statements.get": "information_reporting.statements",
        "positive_pay.exceptions": "positive_pay.exceptions.list",
        "positive_pay.issued_checks": "positive_pay.issue_records.list",
        "positive_pay.decide": "positive_pay.exceptions.decision",
        "payments.list": "payments.search",
    },
    scheduled_status="Future Dated",
)

CHASE_ACCESS = PortalDialect(
    app="chase_treasury",
    label="J.P. Morgan Chase ACCESS",
    description="J.P. Morgan Chase ACCESS / Chase Connect: balances, transactions, reports, Positive Pay, Payments.",
    bank=CHASE,
    tables=PortalTables(
        balance_reports="balances",
        activity="transactions",
        issue_file="issued_checks",
        exception_queue="positive_pay_exceptions",
        payments="payments",
    ),
    decisions=DecisionWords(pending="PENDING", pay="PAY", return_item="RETURN"),
    exception_reasons=ExceptionReasons(
        payee_mismatch="PAYEE MISMATCH",
        amount_mismatch="AMOUNT MISMATCH",
        no_issue_record="NO ISSUE ITEM",
        duplicate_presentment="DUPLICATE ITEM",
        stale_dated="STALE DATED",
        void_presented="VOID ITEM",
    ),
    issue_statuses=IssueStatuses(issued="OUTSTANDING", paid="PAID", void="VOID"),
    payment_status="COMPLETED",
    reference_prefixes=ReferencePrefixes(transaction="JPM", exception="JPM", payment="ACC"),
    decision_cutoff="12:00 ET",
    default_decision="return",
    bai2_receiver="COMPANYA",
    example_exception="JPM0A17C3E9F2",
    tool_names={
        "transactions.list": "transactions.search",
        "statements.bai2": "reports.bai2",
        "statements.get": "statements.monthly",
        "positive_pay.exceptions": "positive_pay.exceptions.list",
        "positive_pay.issued_checks": "positive_pay.issued_checks.list",
        "positive_pay.decide": "positive_pay.exceptions.decide",
    },
    scheduled_status="SCHEDULED",
)

WELLS_FARGO_VANTAGE = PortalDialect(
    app="wells",
    label="Wells Fargo Vantage",
    description="Wells Fargo Vantage: previous-day reporting, ARP positive pay, Payment Manager.",
    bank=WELLS_FARGO,
    tables=PortalTables(
        balance_reports="previous_day_balances",
        activity="previous_day_detail",
        issue_file="arp_issue_records",
        exception_queue="arp_exceptions",
        payments="payment_manager",
    ),
    decisions=DecisionWords(pending="Decision Required", pay="Pay", return_item="Return"),
    exception_reasons=ExceptionReasons(
        payee_mismatch="Payee Name Does Not Match",
        amount_mismatch="Issue Amount Does Not Match",
        no_issue_record="No Issue Record",
        duplicate_presentment="Duplicate Check",
        stale_dated="Stale Dated Check",
        void_presented="Voided Check Presented",
    ),
    issue_statuses=IssueStatuses(issued="Outstanding", paid="Paid", void="Voided"),
    payment_status="Completed",
    reference_prefixes=ReferencePrefixes(transaction="WF", exception="ARP", payment="PM"),
    decision_cutoff="13:00 ET",
    default_decision="return",
    bai2_receiver="COMPANYA",
    example_exception="ARP5D20B7A91C",
    tool_names={
        "balances.get": "reporting.previous_day_balances",
        "transactions.list": "reporting.previous_day_detail",
        "statements.bai2": "reporting.bai2_file",
        "statements.get": "reporting.account_statement",
        "positive_pay.exceptions": "arp.exceptions.list",
        "positive_pay.issued_checks": "arp.issue_records.list",
        "positive_pay.decide": "arp.exceptions.decision",
        "payments.list": "payment_manager.payments",
    },
    scheduled_status="Scheduled",
)

PNC_PINACLE = PortalDialect(
    app="pnc_pinacle",
    label="PNC PINACLE",
    description="PNC PINACLE: Information Reporting, Positive Pay, Funds Transfer.",
    bank=PNC,
    tables=PortalTables(
        balance_reports="balances",
        activity="activity",
        issue_file="ppay_issue_items",
        exception_queue="ppay_exception_items",
        payments="funds_transfers",
    ),
    decisions=DecisionWords(pending="Pending", pay="Pay", return_item="Return"),
    exception_reasons=ExceptionReasons(
        payee_mismatch="Payee Mismatch",
        amount_mismatch="Amount Mismatch",
        no_issue_record="No Issue",
        duplicate_presentment="Duplicate",
        stale_dated="Stale Date",
        void_presented="Void Item",
    ),
    issue_statuses=IssueStatuses(issued="Issued", paid="Paid", void="Void"),
    payment_status="Processed",
    reference_prefixes=ReferencePrefixes(transaction="PNC", exception="PNC", payment="FT"),
    decision_cutoff="14:00 ET",
    default_decision="pay",
    bai2_receiver="COMPANYA",
    example_exception="PNC9E41D0B377",
    tool_names={
        "balances.get": "information_reporting.balances",
        "transactions.list": "information_reporting.activity",
        "statements.bai2": "information_reporting.bai2_export",
        "statements.get": "information_reporting.statement",
        "positive_pay.exceptions": "positive_pay.exception_items",
        "positive_pay.issued_checks": "positive_pay.issue_items",
        "positive_pay.decide": "positive_pay.decision",
        "payments.list": "funds_transfer.list",
    },
    scheduled_status="Warehoused",
)

# The portals whose files are committed (``python -m cfab.apps.bank.gen`` writes them, the
# staleness test in tests/apps/bank checks them). A portal is registered by its class in
# ``cfab.apps.bank.vendors``.
DIALECTS: dict[str, PortalDialect] = {
    d.app: d for d in (BANK_OF_AMERICA_CASHPRO, CHASE_ACCESS, WELLS_FARGO_VANTAGE, PNC_PINACLE)
}

# ---------------------------------------------------------------------------------------------
# The aggregator
# ---------------------------------------------------------------------------------------------
PLAID = AggregatorDialect(
    app="plaid",
    label="Plaid",
    description="Plaid: aggregated bank data across institutions, and Plaid Transfer.",
    institutions=(
        Institution(BANK_OF_AMERICA, "ins_127989", "Bank of America"),
        Institution(CHASE, "ins_56", "Chase"),
        Institution(WELLS_FARGO, "ins_127991", "Wells Fargo"),
        Institution(PNC, "ins_13", "PNC"),
    ),
    transfer_networks=get_args(TransferNetwork),
    ach_networks=("ach", "same-day-ach"),
    ach_description_limit=15,
    example_account="b7c41e0f5a2d4c1e9f0a7b3c5d2e1f60",
)
