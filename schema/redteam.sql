-- redteam: RedTeam Go, a commercial general contractor's project platform. Finance surface:
-- Commitments (subcontracts and purchase orders) with subcontractor schedules of values,
-- subcontract and owner change orders, and eApps: the electronic pay applications a
-- subcontractor submits online against its approved SOV. An eApp may never bill past the
-- commitment (the commitment cap): the accountant holds it. Approving an eApp for payment is a
-- money movement (guarded); executed ("Locked") subcontracts change only by change order.

CREATE SCHEMA IF NOT EXISTS redteam;

-- Projects; project_id 'RT-1042', job_number is the company job number.
CREATE TABLE redteam.projects (
    project_id            VARCHAR PRIMARY KEY,
    job_number            VARCHAR NOT NULL,
    project_name          VARCHAR NOT NULL,
    project_status        VARCHAR NOT NULL,        -- In Progress | Closed
    client_name           VARCHAR NOT NULL,
    project_manager       VARCHAR NOT NULL,
    superintendent        VARCHAR NOT NULL,
    address               VARCHAR NOT NULL,
    city                  VARCHAR NOT NULL,
    state                 VARCHAR NOT NULL,
    contract_amount       DECIMAL(18,2) NOT NULL,  -- current owner contract (original + approved OCOs)
    start_date            DATE NOT NULL,
    completion_date       DATE NOT NULL
);

-- Companies: subcontractors and suppliers as RedTeam spells them.
CREATE TABLE redteam.companies (
    company_id            VARCHAR PRIMARY KEY,
    company_name          VARCHAR NOT NULL,
    company_type          VARCHAR NOT NULL,        -- Subcontractor | Supplier | Professional | Service
    trade                 VARCHAR NOT NULL,
    email                 VARCHAR,
    phone                 VARCHAR,
    city                  VARCHAR,
    state                 VARCHAR,
    active                BOOLEAN NOT NULL
);

-- Commitments: subcontracts and purchase orders. commitment_number is the company's code.
CREATE TABLE redteam.commitments (
    commitment_id         BIGINT PRIMARY KEY,
    project_id            VARCHAR NOT NULL,
    commitment_number     VARCHAR NOT NULL,        -- 'SC-1042-0'
    pm_number             VARCHAR NOT NULL,        -- the number on the agreement '1042-01'
    commitment_type       VARCHAR NOT NULL,        -- Subcontract | Purchase Order
    company_id            VARCHAR NOT NULL,
    scope_description     VARCHAR NOT NULL,
    status                VARCHAR NOT NULL,        -- Draft | Locked (executed) | Closed
    original_amount       DECIMAL(18,2) NOT NULL,
    approved_co_amount    DECIMAL(18,2) NOT NULL,
    revised_amount        DECIMAL(18,2) NOT NULL,  -- the commitment cap for billing
    retainage_pct         DECIMAL(9,4) NOT NULL,
    executed_date         DATE NOT NULL
);

-- The subcontractor's approved schedule of values on a commitment.
CREATE TABLE redteam.commitment_sov (
    commitment_id         BIGINT NOT NULL,
    line_no               INTEGER NOT NULL,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    scheduled_value       DECIMAL(18,2) NOT NULL,
    pct_complete          DECIMAL(9,4) NOT NULL,   -- the GC's field progress
    PRIMARY KEY (commitment_id, line_no)
);

-- Change orders: owner (OCO), subcontract (SCO) and budget transfers.
CREATE TABLE redteam.change_orders (
    co_id                 BIGINT PRIMARY KEY,
    project_id            VARCHAR NOT NULL,
    co_number             VARCHAR NOT NULL,        -- 'OCO-002', 'SCO-001', 'BT-001'
    co_type               VARCHAR NOT NULL,        -- Owner | Subcontract | Budget Transfer
    commitment_id         BIGINT,
    description           VARCHAR NOT NULL,
    amount                DECIMAL(18,2) NOT NULL,
    status                VARCHAR NOT NULL,        -- Approved | Pending | Void
    approved_date         DATE,
    source_ref            VARCHAR NOT NULL         -- the company's CO id
);

-- eApps: subcontractor electronic pay applications against a commitment's SOV.
CREATE TABLE redteam.eapps (
    eapp_id               BIGINT PRIMARY KEY,
    project_id            VARCHAR NOT NULL,
    commitment_id         BIGINT NOT NULL,
    company_id            VARCHAR NOT NULL,
    app_number            INTEGER NOT NULL,
    invoice_number        VARCHAR NOT NULL,
    period_start          DATE,
    period_end            DATE,
    submitted_date        DATE NOT NULL,
    due_date              DATE NOT NULL,
    amount_this_period    DECIMAL(18,2) NOT NULL,  -- gross billed this period
    retainage_this_period DECIMAL(18,2) NOT NULL,
    net_due               DECIMAL(18,2) NOT NULL,
    status                VARCHAR NOT NULL,        -- Draft | Submitted | Approved | Held | Rejected
    review_reason         VARCHAR,
    reviewed_at           TIMESTAMP,
    payment_status        VARCHAR NOT NULL         -- Unpaid | Partially Paid | Paid | Approved for Payment
);

CREATE TABLE redteam.eapp_lines (
    eapp_id               BIGINT NOT NULL,
    line_no               INTEGER NOT NULL,
    sov_line_no           INTEGER,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    this_period           DECIMAL(18,2) NOT NULL,
    retainage             DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (eapp_id, line_no)
);
