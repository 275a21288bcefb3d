-- bofa_cashpro: Bank of America CashPro, the treasury portal of the company's accounts at bofa.
-- Portal-shaped (reality 4): information reporting (balances, activity, BAI2 downloads), the
-- positive-pay issue file the company transmitted and today's exception queue with one decision
-- per presented item, and payments (initiating one is a guarded step, never executed).

CREATE SCHEMA IF NOT EXISTS bofa_cashpro;

-- The company's accounts held at this bank.
CREATE TABLE bofa_cashpro.accounts (
    account_number      VARCHAR PRIMARY KEY,   -- the DDA number
    routing_number      VARCHAR NOT NULL,      -- ABA routing/transit number
    account_nickname    VARCHAR NOT NULL,      -- the company's name for the account: 'Operating'
    account_type        VARCHAR NOT NULL,      -- 'DDA'
    currency_code       VARCHAR NOT NULL,      -- 'USD'
    positive_pay        VARCHAR NOT NULL,      -- 'Check + Payee' when payee positive pay is enrolled
    payee_field_width   INTEGER NOT NULL,      -- characters of payee name kept in the issue file
    status              VARCHAR NOT NULL       -- 'Open'
);

-- Daily balance reports (previous-day/final), one per business day: BAI2 summary codes
-- 010/015/040/045 and total credits/debits 100/400.
CREATE TABLE bofa_cashpro.balance_reports (
    account_number      VARCHAR NOT NULL,
    as_of_date          DATE NOT NULL,
    opening_ledger      DECIMAL(18,2) NOT NULL,   -- BAI 010
    closing_ledger      DECIMAL(18,2) NOT NULL,   -- BAI 015
    opening_available   DECIMAL(18,2) NOT NULL,   -- BAI 040
    closing_available   DECIMAL(18,2) NOT NULL,   -- BAI 045
    total_credits       DECIMAL(18,2) NOT NULL,   -- BAI 100
    credit_count        INTEGER NOT NULL,
    total_debits        DECIMAL(18,2) NOT NULL,   -- BAI 400
    debit_count         INTEGER NOT NULL,
    PRIMARY KEY (account_number, as_of_date)
);

-- Posted activity with BAI2 type codes (amounts unsigned; dr_cr says the direction).
CREATE TABLE bofa_cashpro.transaction_details (
    bank_reference      VARCHAR PRIMARY KEY,   -- the bank's reference number
    account_number      VARCHAR NOT NULL,
    posted_date         DATE NOT NULL,
    bai_type_code       VARCHAR NOT NULL,      -- '475' check paid, '165' preauthorized ACH credit, ...
    dr_cr               VARCHAR NOT NULL,      -- 'CR' | 'DR'
    amount              DECIMAL(18,2) NOT NULL,
    check_number        INTEGER,               -- serial number of a paid check
    customer_reference  VARCHAR,
    description         VARCHAR NOT NULL
);

-- The positive-pay issue file the company transmitted (one record per issued check).
CREATE TABLE bofa_cashpro.issue_records (
    account_number      VARCHAR NOT NULL,
    check_number        INTEGER NOT NULL,
    issue_date          DATE NOT NULL,
    amount              DECIMAL(18,2) NOT NULL,
    payee_name          VARCHAR NOT NULL,      -- as the issue file's payee field holds it
    item_status         VARCHAR NOT NULL,      -- 'Issued' | 'Paid' | 'Void'
    paid_date           DATE,
    PRIMARY KEY (account_number, check_number)
);

-- Today's positive-pay exception queue: the presented item, the bank's reason, the decision.
CREATE TABLE bofa_cashpro.exception_items (
    exception_id        VARCHAR PRIMARY KEY,
    account_number      VARCHAR NOT NULL,
    presented_date      DATE NOT NULL,
    check_number        INTEGER NOT NULL,
    presented_amount    DECIMAL(18,2) NOT NULL,
    presented_payee     VARCHAR NOT NULL,
    issued_amount       DECIMAL(18,2),         -- from the issue file (NULL: no issue record)
    issued_payee        VARCHAR,
    exception_reason    VARCHAR NOT NULL,      -- 'Payee Name Mismatch' | 'Amount Mismatch' | 'Paid Not Issued' | 'Duplicate Paid'
    decision_due        DATE NOT NULL,
    cutoff_time         VARCHAR NOT NULL,      -- decision window closes at this time on decision_due
    default_decision    VARCHAR NOT NULL,      -- applied by the bank when no decision is made
    decision            VARCHAR NOT NULL,      -- 'No Decision' until decided, then 'Pay' | 'Return'
    return_reason       VARCHAR,               -- the reason entered with the decision
    decided_by          VARCHAR,
    decided_at          TIMESTAMP
);

-- Payments and transfers initiated in the portal (wires, ACH, book transfers).
CREATE TABLE bofa_cashpro.payments (
    payment_id          VARCHAR PRIMARY KEY,
    from_account        VARCHAR NOT NULL,
    payment_method      VARCHAR NOT NULL,      -- 'WIRE' | 'ACH' | 'BOOK'
    beneficiary_name    VARCHAR NOT NULL,
    beneficiary_account VARCHAR,
    beneficiary_routing VARCHAR,
    amount              DECIMAL(18,2) NOT NULL,
    value_date          DATE NOT NULL,
    memo                VARCHAR,
    status              VARCHAR NOT NULL,      -- 'Completed'
    created_by          VARCHAR NOT NULL
);
