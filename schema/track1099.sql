-- track1099: Track1099 (Avalara 1099 & W-9), information-return filing for the payer.
-- Recipients are the payees as their W-9 on file says (name, TIN, TIN type, federal tax
-- classification, address); a payee set up twice in the ERP appears twice here with one TIN.
-- Forms start empty: 1099-NEC drafts are created by the preparer and assembled into a filing.

CREATE SCHEMA IF NOT EXISTS track1099;

CREATE TABLE track1099.payers (
    payer_id              VARCHAR PRIMARY KEY,      -- 'PAYER-A'
    name                  VARCHAR NOT NULL,
    tin                   VARCHAR NOT NULL,         -- EIN
    address               VARCHAR NOT NULL,
    city                  VARCHAR NOT NULL,
    state                 VARCHAR NOT NULL,
    zip                   VARCHAR NOT NULL,
    phone                 VARCHAR NOT NULL,
    state_payer_id        VARCHAR                   -- state withholding account number
);

CREATE TABLE track1099.recipients (
    recipient_id          VARCHAR PRIMARY KEY,      -- Track1099 id (from the vendor import)
    payer_id              VARCHAR NOT NULL,
    reference_id          VARCHAR NOT NULL,         -- the payer's own vendor reference (import key)
    name                  VARCHAR NOT NULL,         -- line 1 of the W-9
    business_name         VARCHAR,                  -- line 2 (DBA)
    tin                   VARCHAR NOT NULL,
    tin_type              VARCHAR NOT NULL,         -- EIN | SSN
    federal_tax_classification VARCHAR NOT NULL,    -- Individual/sole proprietor | C Corporation | S Corporation | Partnership | LLC | ...
    llc_tax_classification VARCHAR,                 -- C | S | P for an LLC, else NULL
    exempt_payee_code     VARCHAR,                  -- W-9 box 4 ('5' corporation), NULL when none
    address               VARCHAR NOT NULL,
    city                  VARCHAR NOT NULL,
    state                 VARCHAR NOT NULL,
    zip                   VARCHAR NOT NULL,
    email                 VARCHAR,
    w9_status             VARCHAR NOT NULL,         -- On File | Requested
    w9_signed_date        DATE,
    tin_match_status      VARCHAR NOT NULL          -- Matched | Pending | Mismatch
);

CREATE TABLE track1099.forms_1099_nec (
    form_id               VARCHAR PRIMARY KEY,      -- hashed from (recipient, tax year)
    payer_id              VARCHAR NOT NULL,
    recipient_id          VARCHAR NOT NULL,
    tax_year              INTEGER NOT NULL,
    box1_nonemployee_compensation DECIMAL(18,2) NOT NULL,
    box4_federal_income_tax_withheld DECIMAL(18,2) NOT NULL,
    state_code            VARCHAR,                  -- box 6
    state_payer_number    VARCHAR,                  -- box 6
    state_income          DECIMAL(18,2),            -- box 7
    state_tax_withheld    DECIMAL(18,2),            -- box 5
    second_tin_notice     BOOLEAN NOT NULL,
    filing_id             VARCHAR,                  -- the filing the form is assembled into
    status                VARCHAR NOT NULL,         -- Draft | Submitted | Accepted | Rejected
    created_at            TIMESTAMP NOT NULL,
    updated_at            TIMESTAMP NOT NULL
);

CREATE TABLE track1099.filings (
    filing_id             VARCHAR PRIMARY KEY,      -- hashed from (payer, tax year, form type)
    payer_id              VARCHAR NOT NULL,
    tax_year              INTEGER NOT NULL,
    form_type             VARCHAR NOT NULL,         -- 1099-NEC
    form_count            INTEGER NOT NULL,
    total_box1            DECIMAL(18,2) NOT NULL,
    status                VARCHAR NOT NULL,         -- Draft | Submitted | Accepted
    created_at            TIMESTAMP NOT NULL,
    updated_at            TIMESTAMP NOT NULL
);

-- IRS notices on filed forms: the CP2100 / CP2100A (B-notice) list of name/TIN mismatches,
-- imported per payee record.
CREATE TABLE track1099.tin_notices (
    notice_id             VARCHAR PRIMARY KEY,      -- 'CP2100A-2024-001'
    recipient_id          VARCHAR NOT NULL,
    notice_type           VARCHAR NOT NULL,         -- CP2100A (first B-notice) | CP2100
    tax_year              INTEGER NOT NULL,         -- the filed forms' tax year
    notice_date           DATE NOT NULL,
    name_as_filed         VARCHAR NOT NULL,
    tin_as_filed          VARCHAR NOT NULL,
    reason                VARCHAR NOT NULL,         -- 'Name/TIN combination does not match IRS records'
    status                VARCHAR NOT NULL          -- Open | Resolved
);

-- W-9s the payees submitted through Track1099's W-9 request (newest last).
CREATE TABLE track1099.w9_submissions (
    w9_id                 VARCHAR PRIMARY KEY,
    recipient_id          VARCHAR NOT NULL,
    received_date         DATE NOT NULL,
    name                  VARCHAR NOT NULL,         -- line 1
    business_name         VARCHAR,                  -- line 2
    tin                   VARCHAR NOT NULL,
    tin_type              VARCHAR NOT NULL,
    federal_tax_classification VARCHAR NOT NULL,
    signed_date           DATE NOT NULL
);
