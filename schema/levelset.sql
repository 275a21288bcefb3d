-- levelset: Levelset (a Procore company), lien-waiver exchange and lien notices.
-- Companies are the subcontractors and suppliers (Levelset ids 'LS-...', Levelset's spellings);
-- waivers are the collected lien waivers; waiver requests are the asks the GC sends a vendor for
-- a payment; notices are the preliminary / intent notices on the company's jobs.

CREATE SCHEMA IF NOT EXISTS levelset;

CREATE TABLE levelset.companies (
    company_id            VARCHAR PRIMARY KEY,      -- 'LS-20417'
    company_name          VARCHAR NOT NULL,         -- Levelset's spelling
    role                  VARCHAR NOT NULL,         -- Subcontractor | Supplier | Professional | Service
    trade                 VARCHAR NOT NULL,
    email                 VARCHAR NOT NULL,
    phone                 VARCHAR NOT NULL,
    address               VARCHAR NOT NULL,
    city                  VARCHAR NOT NULL,
    state                 VARCHAR NOT NULL,
    zip                   VARCHAR NOT NULL
);

CREATE TABLE levelset.jobs (
    job_id                VARCHAR PRIMARY KEY,      -- Levelset job number = company job number '1042'
    job_name              VARCHAR NOT NULL,
    job_address           VARCHAR NOT NULL,
    city                  VARCHAR NOT NULL,
    state                 VARCHAR NOT NULL,
    county                VARCHAR NOT NULL,
    owner_name            VARCHAR NOT NULL,
    project_type          VARCHAR NOT NULL,         -- Public | Private
    first_furnished_date  DATE NOT NULL,
    status                VARCHAR NOT NULL          -- Active | Closed
);

CREATE TABLE levelset.waivers (
    waiver_id             VARCHAR PRIMARY KEY,
    job_id                VARCHAR NOT NULL,
    company_id            VARCHAR NOT NULL,
    waiver_type           VARCHAR NOT NULL,         -- Conditional Progress | Unconditional Progress | Conditional Final | Unconditional Final
    amount                DECIMAL(18,2) NOT NULL,
    through_date          DATE NOT NULL,
    payment_reference     VARCHAR,                  -- the vendor's invoice number the waiver covers
    status                VARCHAR NOT NULL,         -- Requested | Received | Approved | Rejected
    signer_name           VARCHAR,
    signed_date           DATE,
    document_id           VARCHAR
);

CREATE TABLE levelset.waiver_requests (
    request_id            VARCHAR PRIMARY KEY,      -- hashed from (company, job, type, through date, amount)
    job_id                VARCHAR NOT NULL,
    company_id            VARCHAR NOT NULL,
    waiver_type           VARCHAR NOT NULL,
    amount                DECIMAL(18,2) NOT NULL,
    through_date          DATE NOT NULL,
    payment_reference     VARCHAR,
    due_date              DATE NOT NULL,
    status                VARCHAR NOT NULL,         -- Draft | Sent | Signed | Cancelled
    waiver_id             VARCHAR,                  -- the waiver received for it
    note                  VARCHAR,
    created_at            TIMESTAMP NOT NULL
);

CREATE TABLE levelset.notices (
    notice_id             VARCHAR PRIMARY KEY,
    job_id                VARCHAR NOT NULL,
    notice_type           VARCHAR NOT NULL,         -- Preliminary Notice | Notice of Intent to Lien | Notice of Completion
    recipient             VARCHAR NOT NULL,
    sent_date             DATE NOT NULL,
    deadline_date         DATE NOT NULL,
    status                VARCHAR NOT NULL          -- Delivered | Scheduled
);
