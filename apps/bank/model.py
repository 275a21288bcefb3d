"""The bank archetypes' logical model: every table and projection written once, vendor-neutral.

A treasury portal keeps six logical tables (``PORTAL_TABLES``): the company's accounts, daily
balance reports, posted activity, the positive-pay issue file, the exception queue and the
payments initiated in the portal. Their columns are the same at every bank; a bank's dialect
(``cfab.apps.bank.dialects``) names the native tables and supplies its words (decisions,
exception reasons, issue-file statuses, reference prefixes, the bank's code in the book). The
aggregator (Plaid) keeps its own four tables (``AGGREGATOR_TABLES``).

The projections are SQL written once over the logical tables (``vendor.<logical table>``) with
``$name`` placeholders for a vendor's values; ``cfab.apps.bank.gen`` parses them with sqlglot
(``cfab.apps.codegen.VendorSql``), puts the dialect's native tables and values in, and renders
the vendor's schema, views, entity projections and rules.
"""

from __future__ import annotations

from dataclasses import dataclass

# What every portal shows the same way (the book's facts, not a vendor's words).
TREASURY_USER = "treasury@companyA.com"  # who initiates and decides in every portal
PAYMENT_METHODS = ("WIRE", "ACH", "BOOK")


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    not_null: bool = True
    primary_key: bool = False  # a column-level PRIMARY KEY
    note: str = ""  # the DDL comment; ``{word}`` fields come from the dialect
    decided: bool = False  # exception queue: set by a decision (everything else is the bank's)


@dataclass(frozen=True)
class ReadOnly:
    """The table holds the bank's (or institution's) records: every write is refused."""

    rule: str  # the rule id's last part
    message: str  # ``{label}`` is the vendor's label; ``{column}`` a row value


@dataclass(frozen=True)
class Guarded:
    """Inserting a row moves money (a guarded step); a row once there is immutable."""

    rule: str
    message: str
    noun: str  # what one inserted row is: 'a payment'
    immutable_rule: str
    immutable_message: str


@dataclass(frozen=True)
class Table:
    logical: str
    comment: tuple[str, ...]  # DDL comment lines
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...] = ()  # a table-level PRIMARY KEY
    read_only: ReadOnly | None = None
    guarded: Guarded | None = None

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(f"logical table {self.logical} has no column {name}")

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]


def C(name: str, type_: str, note: str = "", *, null: bool = False, key: bool = False, decided: bool = False) -> Column:
    return Column(name, type_, not null and not key, key, note, decided)


MONEY = "DECIMAL(18,2)"

# ---------------------------------------------------------------------------------------------
# Treasury portal
# ---------------------------------------------------------------------------------------------
PORTAL_TABLES: dict[str, Table] = {
    t.logical: t
    for t in (
        Table(
            "accounts",
            ("The company's accounts held at this bank.",),
            (
                C("account_number", "VARCHAR", "the DDA number", key=True),
                C("routing_number", "VARCHAR", "ABA routing/transit number"),
                C("account_nickname", "VARCHAR", "the company's name for the account: 'Operating'"),
                C("account_type", "VARCHAR", "'DDA'"),
                C("currency_code", "VARCHAR", "'USD'"),
                C("positive_pay", "VARCHAR", "'Check + Payee' when payee positive pay is enrolled"),
                C("payee_field_width", "INTEGER", "characters of payee name kept in the issue file"),
                C("status", "VARCHAR", "'Open'"),
            ),
            read_only=ReadOnly(
                "accounts_read_only",
                "accounts are maintained by the bank; {label} does not let customers add or change them",
            ),
        ),
        Table(
            "balance_reports",
            (
                "Daily balance reports (previous-day/final), one per business day: BAI2 summary codes",
                "010/015/040/045 and total credits/debits 100/400.",
            ),
            (
                C("account_number", "VARCHAR"),
                C("as_of_date", "DATE"),
                C("opening_ledger", MONEY, "BAI 010"),
                C("closing_ledger", MONEY, "BAI 015"),
                C("opening_available", MONEY, "BAI 040"),
                C("closing_available", MONEY, "BAI 045"),
                C("total_credits", MONEY, "BAI 100"),
                C("credit_count", "INTEGER"),
                C("total_debits", MONEY, "BAI 400"),
                C("debit_count", "INTEGER"),
            ),
            primary_key=("account_number", "as_of_date"),
            read_only=ReadOnly("balances_read_only", "balance reports come from the bank and cannot be edited"),
        ),
        Table(
            "activity",
            ("Posted activity with BAI2 type codes (amounts unsigned; dr_cr says the direction).",),
            (
                C("bank_reference", "VARCHAR", "the bank's reference number", key=True),
                C("account_number", "VARCHAR"),
                C("posted_date", "DATE"),
                C("bai_type_code", "VARCHAR", "'475' check paid, '165' preauthorized ACH credit, ..."),
                C("dr_cr", "VARCHAR", "'CR' | 'DR'"),
                C("amount", MONEY),
                C("check_number", "INTEGER", "serial number of a paid check", null=True),
                C("customer_reference", "VARCHAR", null=True),
                C("description", "VARCHAR"),
            ),
            read_only=ReadOnly(
                "activity_read_only", "posted activity ({bank_reference}) is the bank's record and cannot be edited"
            ),
        ),
        Table(
            "issue_file",
            ("The positive-pay issue file the company transmitted (one record per issued check).",),
            (
                C("account_number", "VARCHAR"),
                C("check_number", "INTEGER"),
                C("issue_date", "DATE"),
                C("amount", MONEY),
                C("payee_name", "VARCHAR", "as the issue file's payee field holds it"),
                C("item_status", "VARCHAR", "{issue_statuses}"),
                C("paid_date", "DATE", null=True),
            ),
            primary_key=("account_number", "check_number"),
            read_only=ReadOnly(
                "issue_file_read_only",
                "the positive-pay issue file is transmitted from the ERP's check register; "
                "check {check_number} cannot be edited in the portal",
            ),
        ),
        Table(
            "exception_queue",
            ("Today's positive-pay exception queue: the presented item, the bank's reason, the decision.",),
            (
                C("exception_id", "VARCHAR", key=True),
                C("account_number", "VARCHAR"),
                C("presented_date", "DATE"),
                C("check_number", "INTEGER"),
                C("presented_amount", MONEY),
                C("presented_payee", "VARCHAR"),
                C("issued_amount", MONEY, "from the issue file (NULL: no issue record)", null=True),
                C("issued_payee", "VARCHAR", null=True),
                C("exception_reason", "VARCHAR", "{exception_reasons}"),
                C("decision_due", "DATE"),
                C("cutoff_time", "VARCHAR", "decision window closes at this time on decision_due"),
                C("default_decision", "VARCHAR", "applied by the bank when no decision is made"),
                C("decision", "VARCHAR", "{decisions}", decided=True),
                C("return_reason", "VARCHAR", "the reason entered with the decision", null=True, decided=True),
                C("decided_by", "VARCHAR", null=True, decided=True),
                C("decided_at", "TIMESTAMP", null=True, decided=True),
            ),
        ),
        Table(
            "payments",
            ("Payments and transfers initiated in the portal (wires, ACH, book transfers).",),
            (
                C("payment_id", "VARCHAR", key=True),
                C("from_account", "VARCHAR"),
                C("payment_method", "VARCHAR", " | ".join(f"'{m}'" for m in PAYMENT_METHODS)),
                C("beneficiary_name", "VARCHAR"),
                C("beneficiary_account", "VARCHAR", null=True),
                C("beneficiary_routing", "VARCHAR", null=True),
                C("amount", MONEY),
                C("value_date", "DATE"),
                C("memo", "VARCHAR", null=True),
                C("status", "VARCHAR", "'{payment_status}' | '{scheduled_status}' (future-dated, not yet released)"),
                C("created_by", "VARCHAR"),
            ),
            guarded=Guarded(
                "payment_initiation",
                "initiating a payment or transfer moves money and needs a human approver in {label}.",
                "a payment",
                "payments_immutable",
                "payment {payment_id} is {status} and cannot be changed",
            ),
        ),
    )
}

PORTAL_ABOUT = (
    "Portal-shaped (reality 4): information reporting (balances, activity, BAI2 downloads), the",
    "positive-pay issue file the company transmitted and today's exception queue with one decision",
    "per presented item, and payments (initiating one is a guarded step, never executed).",
)

_PAYEE_TRUNCATION = """
LEFT JOIN book.divergences d
       ON d.kind = 'payee_truncation' AND d.entity = 'check'
      AND d.entity_key = c.bank_account_id || '|' || CAST(c.check_number AS VARCHAR)"""

# (comment lines, statement): the projection of the book into one portal, in load order.
# Placeholders: $bank_code, the reference prefixes and hash namespaces, and the vendor's words.
PORTAL_VIEWS: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        (
            "The account type and positive-pay enrolment are the account's product (checking accounts",
            "are DDAs enrolled in payee positive pay; a money market is an MMDA that issues no checks).",
        ),
        """
INSERT INTO vendor.accounts
SELECT a.account_number, a.routing_number, a.account_name, coalesce(p.account_type, 'DDA'), 'USD',
       coalesce(p.positive_pay, 'Check + Payee'), a.payee_name_width, 'Open'
FROM book.bank_accounts a
LEFT JOIN book.bank_account_products p ON p.bank_account_id = a.bank_account_id
WHERE a.bank = $bank_code
ORDER BY a.account_number""",
    ),
    (
        (
            "A previous-day balance report for every business day (and every day with activity or a",
            "book balance) up to the clock: the book's reported balances on their days, in between the",
            "nearest earlier report rolled forward by the posted activity (available = ledger there).",
        ),
        """
INSERT INTO vendor.balance_reports
WITH accts AS (
    SELECT a.bank_account_id, a.account_number FROM book.bank_accounts a WHERE a.bank = $bank_code
),
act AS (
    SELECT t.bank_account_id, t.posted_date AS day,
           sum(t.amount) AS net,
           sum(CASE WHEN t.amount > 0 THEN t.amount ELSE 0 END) AS credits,
           count(*) FILTER (WHERE t.amount > 0) AS n_credits,
           sum(CASE WHEN t.amount < 0 THEN -t.amount ELSE 0 END) AS debits,
           count(*) FILTER (WHERE t.amount < 0) AS n_debits
    FROM book.bank_transactions t JOIN accts USING (bank_account_id)
    GROUP BY t.bank_account_id, t.posted_date
),
span AS (
    SELECT x.bank_account_id, min(x.d) AS first_day,
           (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock') AS last_day
    FROM (SELECT bank_account_id, as_of_date AS d FROM book.bank_balances
          UNION ALL SELECT bank_account_id, day FROM act) x
    JOIN accts USING (bank_account_id)
    GROUP BY x.bank_account_id
),
days AS (
    SELECT s.bank_account_id, CAST(g.day AS DATE) AS day
    FROM span s, LATERAL generate_series(s.first_day, s.last_day, INTERVAL 1 DAY) AS g(day)
),
daily AS (
    SELECT d.bank_account_id, d.day, coalesce(a.net, 0) AS net, coalesce(a.credits, 0) AS credits,
           coalesce(a.n_credits, 0) AS n_credits, coalesce(a.debits, 0) AS debits,
           coalesce(a.n_debits, 0) AS n_debits,
           sum(coalesce(a.net, 0)) OVER (PARTITION BY d.bank_account_id ORDER BY d.day) AS cum,
           b.ledger_balance AS rep_ledger, b.available_balance AS rep_available
    FROM days d
    LEFT JOIN act a ON a.bank_account_id = d.bank_account_id AND a.day = d.day
    LEFT JOIN book.bank_balances b ON b.bank_account_id = d.bank_account_id AND b.as_of_date = d.day
),
anchored AS (
    SELECT d.*,
           coalesce(r.ledger_balance, f.ledger_balance) AS anchor_ledger,
           coalesce(r.cum, f.cum) AS anchor_cum
    FROM daily d
    ASOF LEFT JOIN (SELECT bank_account_id, day, rep_ledger AS ledger_balance, cum FROM daily
                    WHERE rep_ledger IS NOT NULL) r
           ON r.bank_account_id = d.bank_account_id AND d.day >= r.day
    LEFT JOIN (SELECT bank_account_id, arg_min(rep_ledger, day) AS ledger_balance, arg_min(cum, day) AS cum
               FROM daily WHERE rep_ledger IS NOT NULL GROUP BY bank_account_id) f
           ON f.bank_account_id = d.bank_account_id
)
SELECT a.account_number, x.day,
       CAST(x.closing - x.net AS DECIMAL(18,2)),
       CAST(x.closing AS DECIMAL(18,2)),
       CAST(coalesce(x.rep_available, x.closing) - x.net AS DECIMAL(18,2)),
       CAST(coalesce(x.rep_available, x.closing) AS DECIMAL(18,2)),
       CAST(x.credits AS DECIMAL(18,2)), CAST(x.n_credits AS INTEGER),
       CAST(x.debits AS DECIMAL(18,2)), CAST(x.n_debits AS INTEGER)
FROM (
    SELECT n.*, coalesce(n.rep_ledger, n.anchor_ledger + n.cum - n.anchor_cum) AS closing
    FROM anchored n
) x
JOIN accts a ON a.bank_account_id = x.bank_account_id
WHERE x.anchor_ledger IS NOT NULL
  AND (dayofweek(x.day) BETWEEN 1 AND 5 OR x.rep_ledger IS NOT NULL OR x.n_credits + x.n_debits > 0)
ORDER BY a.account_number, x.day""",
    ),
    (
        ("Posted activity: unsigned amounts with the direction, under the bank's own reference.",),
        """
INSERT INTO vendor.activity
SELECT $transaction_prefix || upper(substr(md5($transaction_namespace || t.txn_id), 1, 12)),
       a.account_number, t.posted_date, t.bai_type_code,
       CASE WHEN t.amount >= 0 THEN 'CR' ELSE 'DR' END,
       CAST(abs(t.amount) AS DECIMAL(18,2)),
       t.check_number, t.reference, t.description
FROM book.bank_transactions t
JOIN book.bank_accounts a ON a.bank_account_id = t.bank_account_id AND a.bank = $bank_code
ORDER BY t.txn_id""",
    ),
    (
        ("The issue file: every check the ERP issued on the account, in the bank's status words.",),
        """
INSERT INTO vendor.issue_file
SELECT a.account_number, c.check_number, c.issue_date, c.amount,
       CASE WHEN d.divergence_id IS NOT NULL THEN rtrim(left(c.payee_name, a.payee_name_width)) ELSE c.payee_name END,
       CASE c.status WHEN 'cleared' THEN $issue_status_paid WHEN 'void' THEN $issue_status_void
            ELSE $issue_status_issued END,
       c.cleared_date
FROM book.checks c
JOIN book.bank_accounts a ON a.bank_account_id = c.bank_account_id AND a.bank = $bank_code"""
        + _PAYEE_TRUNCATION
        + """
ORDER BY a.account_number, c.check_number""",
    ),
    (
        (
            "The exception queue: each presented item with the issue-file record it was compared with,",
            "the bank's reason in its words, and no decision yet.",
        ),
        """
INSERT INTO vendor.exception_queue
SELECT $exception_prefix || upper(substr(md5($exception_namespace || e.exception_id), 1, 10)),
       a.account_number, e.presented_date, e.check_number, e.presented_amount, e.presented_payee,
       c.amount,
       CASE WHEN c.check_id IS NULL THEN NULL
            WHEN d.divergence_id IS NOT NULL THEN rtrim(left(c.payee_name, a.payee_name_width))
            ELSE c.payee_name END,
       CASE e.exception_reason WHEN 'payee_mismatch' THEN $reason_payee_mismatch
            WHEN 'amount_mismatch' THEN $reason_amount_mismatch
            WHEN 'no_issue_record' THEN $reason_no_issue_record
            WHEN 'duplicate_presentment' THEN $reason_duplicate_presentment
            WHEN 'stale_dated' THEN $reason_stale_dated
            WHEN 'void_presented' THEN $reason_void_presented
            ELSE e.exception_reason END,
       e.decision_due, $decision_cutoff, $default_decision, $decision_pending, NULL, NULL, NULL
FROM book.positive_pay_exceptions e
JOIN book.bank_accounts a ON a.bank_account_id = e.bank_account_id AND a.bank = $bank_code
LEFT JOIN book.checks c ON c.bank_account_id = e.bank_account_id AND c.check_number = e.check_number"""
        + _PAYEE_TRUNCATION
        + """
ORDER BY e.exception_id""",
    ),
    (
        ("Completed outgoing transfers seen in the activity (wires 495, ACH debits 455, book transfers 501/506).",),
        """
INSERT INTO vendor.payments
SELECT $payment_prefix || upper(substr(md5($payment_namespace || t.txn_id), 1, 10)),
       a.account_number,
       CASE t.bai_type_code WHEN '495' THEN 'WIRE' WHEN '455' THEN 'ACH' ELSE 'BOOK' END,
       t.description, NULL, NULL, CAST(-t.amount AS DECIMAL(18,2)), t.posted_date, t.reference,
       $payment_status, $treasury_user
FROM book.bank_transactions t
JOIN book.bank_accounts a ON a.bank_account_id = t.bank_account_id AND a.bank = $bank_code
WHERE t.bai_type_code IN ('495', '455', '501', '506') AND t.amount < 0
ORDER BY t.txn_id""",
    ),
    (
        (
            "Payments Treasury has set up for a future value date and not yet released (the cash forecast",
            "reads them; Plaid shows posted activity only).",
        ),
        """
INSERT INTO vendor.payments
SELECT $payment_prefix || upper(substr(md5($payment_namespace || s.scheduled_id), 1, 10)),
       a.account_number, s.payment_method, s.beneficiary_name, s.beneficiary_account, NULL,
       s.amount, s.value_date, s.memo, $scheduled_status, $treasury_user
FROM book.bank_scheduled_payments s
JOIN book.bank_accounts a ON a.bank_account_id = s.bank_account_id AND a.bank = $bank_code
ORDER BY s.scheduled_id""",
    ),
)

PORTAL_VIEWS_ABOUT = (
    "Divergences honoured: payee_truncation (the issue file's payee field is payee_field_width",
    "characters wide: registered checks show the name truncated to it).",
)

# The consistency check's projections: the issue file's checks, keyed by the book's account id
# (recovered from the account number: no hh2 crosswalk exists for bank accounts).
PORTAL_ENTITIES: tuple[tuple[str, str], ...] = (
    (
        "check",
        """
SELECT ba.bank_account_id || '|' || CAST(i.check_number AS VARCHAR) AS entity_key,
       CAST(i.amount AS DECIMAL(18,2)) AS amount,
       i.payee_name AS payee_name,
       i.issue_date AS issue_date
FROM vendor.issue_file i
JOIN book.bank_accounts ba ON ba.account_number = i.account_number AND ba.bank = $bank_code""",
    ),
)

# ---------------------------------------------------------------------------------------------
# Aggregator (Plaid): one schema over every bank the company uses
# ---------------------------------------------------------------------------------------------
AGGREGATOR_TABLES: dict[str, Table] = {
    t.logical: t
    for t in (
        Table(
            "items",
            ("One Item per linked institution login.",),
            (
                C("item_id", "VARCHAR", key=True),
                C("institution_id", "VARCHAR", "{institution_example}"),
                C("institution_name", "VARCHAR"),
                C("products", "VARCHAR", "'auth,balance,transactions,transfer'"),
                C("consent_expiration_time", "TIMESTAMP", null=True),
                C("update_type", "VARCHAR", "'background'"),
                C("last_successful_update", "TIMESTAMP"),
            ),
            read_only=ReadOnly("items_read_only", "Items are created by Plaid Link, not by writes"),
        ),
        Table(
            "accounts",
            ("Accounts with their current balances (Plaid reports current, not history).",),
            (
                C("account_id", "VARCHAR", key=True),
                C("item_id", "VARCHAR"),
                C("name", "VARCHAR", "the nickname: 'Operating'"),
                C("official_name", "VARCHAR", "'BUSINESS ADVANTAGE CHECKING'"),
                C("mask", "VARCHAR", "last four digits"),
                C("type", "VARCHAR", "'depository'"),
                C("subtype", "VARCHAR", "'checking'"),
                C("iso_currency_code", "VARCHAR"),
                C("balances_current", MONEY),
                C("balances_available", MONEY),
                C("balances_last_updated_datetime", "TIMESTAMP"),
            ),
            read_only=ReadOnly(
                "accounts_read_only", "accounts and balances come from the institution and cannot be edited"
            ),
        ),
        Table(
            "transactions",
            ("Posted transactions across every linked account.",),
            (
                C("transaction_id", "VARCHAR", key=True),
                C("account_id", "VARCHAR"),
                C("amount", MONEY, "positive: money out; negative: money in"),
                C("iso_currency_code", "VARCHAR"),
                C("date", "DATE"),
                C("authorized_date", "DATE", null=True),
                C("name", "VARCHAR"),
                C("merchant_name", "VARCHAR", null=True),
                C("payment_channel", "VARCHAR", "'other' | 'online' | 'in store'"),
                C(
                    "transaction_code",
                    "VARCHAR",
                    "'cheque' | 'direct debit' | 'transfer' | 'bank charge' | ...",
                    null=True,
                ),
                C("check_number", "VARCHAR", null=True),
                C("pending", "BOOLEAN"),
                C("personal_finance_category_primary", "VARCHAR"),
                C("personal_finance_category_detailed", "VARCHAR"),
            ),
            read_only=ReadOnly(
                "transactions_read_only", "transaction {transaction_id} comes from the institution and cannot be edited"
            ),
        ),
        Table(
            "transfers",
            ("Plaid Transfer: transfers created through the API.",),
            (
                C("transfer_id", "VARCHAR", key=True),
                C("authorization_id", "VARCHAR"),
                C("account_id", "VARCHAR"),
                C("type", "VARCHAR", "'debit' | 'credit'"),
                C("network", "VARCHAR", "{networks}"),
                C("amount", MONEY),
                C("description", "VARCHAR"),
                C("legal_name", "VARCHAR", "the counterparty"),
                C("status", "VARCHAR", "'pending' | 'posted' | 'settled' | 'cancelled' | 'failed'"),
                C("created", "TIMESTAMP"),
            ),
            guarded=Guarded(
                "transfer_create",
                "creating a Plaid Transfer moves money and needs a human approver.",
                "a transfer",
                "transfers_immutable",
                "transfer {transfer_id} is {status}; use /transfer/cancel from a human session",
            ),
        ),
    )
}

AGGREGATOR_ABOUT = (
    "Native Plaid vocabulary: items, accounts with balances, transactions (positive amount = money",
    "OUT of the account, Plaid's sign convention), and Plaid Transfer (initiating one is guarded).",
)

AGGREGATOR_VIEWS_ABOUT = (
    "No divergence is honoured: Plaid shows the banks' own activity; its sign convention",
    "(positive = money out) is a presentation, not a disagreement.",
)

_CLOCK = "(SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock')"

# Placeholders: $institution_id and $institution_name (CASE expressions over b.bank built from
# the dialect's institutions).
AGGREGATOR_VIEWS: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("One Item per bank the company holds accounts at.",),
        f"""
INSERT INTO vendor.items
SELECT substr(md5('plaid:item:' || b.bank), 1, 32),
       $institution_id,
       $institution_name,
       'auth,balance,transactions,transfer',
       CAST({_CLOCK} + INTERVAL 300 DAY AS TIMESTAMP),
       'background',
       {_CLOCK} + INTERVAL 6 HOUR
FROM (SELECT DISTINCT bank FROM book.bank_accounts) b
ORDER BY b.bank""",
    ),
    (
        ("Every account with its latest reported balance on or before the clock.",),
        f"""
INSERT INTO vendor.accounts
SELECT substr(md5('plaid:account:' || a.bank_account_id), 1, 32),
       substr(md5('plaid:item:' || a.bank), 1, 32),
       a.account_name,
       coalesce(p.official_name, upper(a.account_name) || ' BUSINESS CHECKING'),
       right(a.account_number, 4),
       'depository', coalesce(p.plaid_subtype, 'checking'), 'USD',
       coalesce(lb.ledger_balance, 0), coalesce(lb.available_balance, 0),
       coalesce(CAST(lb.as_of_date AS TIMESTAMP) + INTERVAL 23 HOUR,
                CAST({_CLOCK} AS TIMESTAMP))
FROM book.bank_accounts a
LEFT JOIN (
    SELECT b.*, row_number() OVER (PARTITION BY b.bank_account_id ORDER BY b.as_of_date DESC) AS rn
    FROM book.bank_balances b
    WHERE b.as_of_date <= {_CLOCK}
) lb ON lb.bank_account_id = a.bank_account_id AND lb.rn = 1
LEFT JOIN book.bank_account_products p ON p.bank_account_id = a.bank_account_id
ORDER BY a.bank_account_id""",
    ),
    (
        ("Every posted transaction, in Plaid's sign convention and categories.",),
        """
INSERT INTO vendor.transactions
SELECT substr(md5('plaid:txn:' || t.txn_id), 1, 32),
       substr(md5('plaid:account:' || t.bank_account_id), 1, 32),
       CAST(-t.amount AS DECIMAL(18,2)), 'USD', t.posted_date, t.posted_date,
       t.description, NULL, 'other',
       CASE WHEN t.bai_type_code = '475' THEN 'cheque'
            WHEN t.bai_type_code IN ('455', '451') THEN 'direct debit'
            WHEN t.bai_type_code IN ('698', '699') THEN 'bank charge'
            WHEN t.bai_type_code IN ('354') THEN 'interest'
            WHEN t.bai_type_code IN ('481') THEN 'bill payment'
            ELSE 'transfer' END,
       CAST(t.check_number AS VARCHAR), false,
       CASE WHEN t.bai_type_code IN ('698', '699') THEN 'BANK_FEES'
            WHEN t.bai_type_code = '354' THEN 'INCOME'
            WHEN t.bai_type_code = '481' THEN 'LOAN_PAYMENTS'
            WHEN t.amount > 0 THEN 'TRANSFER_IN' ELSE 'TRANSFER_OUT' END,
       CASE WHEN t.bai_type_code IN ('698', '699') THEN 'BANK_FEES_OTHER_BANK_FEES'
            WHEN t.bai_type_code = '354' THEN 'INCOME_INTEREST_EARNED'
            WHEN t.bai_type_code = '481' THEN 'LOAN_PAYMENTS_OTHER_PAYMENT'
            WHEN t.amount > 0 THEN 'TRANSFER_IN_DEPOSIT' ELSE 'TRANSFER_OUT_ACCOUNT_TRANSFER' END
FROM book.bank_transactions t
ORDER BY t.txn_id""",
    ),
)

AGGREGATOR_ENTITIES_ABOUT = (
    "models none of the checked entities (vendor, job, commitment, invoice, employee,",
    "check, change_event): it shows accounts, balances and posted activity only.",
)
