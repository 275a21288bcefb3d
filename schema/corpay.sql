-- corpay: Corpay Payments (AP payment automation): vendor payment enrollment (virtual card,
-- ACH, check), the funding accounts, payment batches, payments and their remittance detail.
-- Payments history is the company's issued AP checks; new payments are guarded. A payment run
-- is built as a Draft batch (its Draft payments and their remittance lines are editable);
-- releasing it moves money and is guarded.

CREATE SCHEMA IF NOT EXISTS corpay;

CREATE TABLE corpay.vendors (
    vendor_id             VARCHAR PRIMARY KEY,      -- Corpay supplier id 'CP-558201'
    vendor_name           VARCHAR NOT NULL,         -- Corpay's spelling
    payment_method        VARCHAR NOT NULL,         -- VirtualCard | ACH | Check
    enrollment_status     VARCHAR NOT NULL,         -- Enrolled | Pending | Not Enrolled
    enrolled_date         DATE,
    remit_email           VARCHAR NOT NULL,
    remit_address         VARCHAR NOT NULL,
    remit_city            VARCHAR NOT NULL,
    remit_state           VARCHAR NOT NULL,
    remit_zip             VARCHAR NOT NULL,
    ach_account_last4     VARCHAR                   -- for ACH-enrolled vendors
);

CREATE TABLE corpay.funding_accounts (
    funding_account_id    VARCHAR PRIMARY KEY,      -- 'FA-' || bank account id: 'FA-BA-OPER'
    account_name          VARCHAR NOT NULL,
    bank_name             VARCHAR NOT NULL,
    account_last4         VARCHAR NOT NULL,
    routing_number        VARCHAR NOT NULL
);

CREATE TABLE corpay.payment_batches (
    batch_id              VARCHAR PRIMARY KEY,      -- 'PB-<bank account>-YYYYMMDD' (a draft: '...-D<n>')
    funding_account_id    VARCHAR NOT NULL,
    batch_date            DATE NOT NULL,
    payment_count         INTEGER NOT NULL,
    total_amount          DECIMAL(18,2) NOT NULL,
    status                VARCHAR NOT NULL          -- Draft | Pending Approval | Processed
);

CREATE TABLE corpay.payments (
    payment_id            VARCHAR PRIMARY KEY,      -- 'PMT-<bank account>-<check number>' (a draft: 'PMT-D<hash>')
    batch_id              VARCHAR NOT NULL,
    vendor_id             VARCHAR NOT NULL,
    payee_name            VARCHAR NOT NULL,         -- as printed / sent
    payment_method        VARCHAR NOT NULL,         -- Check | ACH | VirtualCard
    check_number          INTEGER,
    amount                DECIMAL(18,2) NOT NULL,
    payment_date          DATE NOT NULL,
    status                VARCHAR NOT NULL,         -- Draft | Issued | Cleared | Voided
    cleared_date          DATE
);

CREATE TABLE corpay.remittances (
    payment_id            VARCHAR NOT NULL,
    line_no               INTEGER NOT NULL,
    invoice_number        VARCHAR NOT NULL,         -- the vendor's invoice (or credit memo) number
    invoice_date          DATE,
    amount_paid           DECIMAL(18,2) NOT NULL,   -- negative for a credit memo applied
    PRIMARY KEY (payment_id, line_no)
);
