-- ingenious_build: INGENIOUS.BUILD, the owner/developer-side project platform. Finance surface:
-- the Project Budget (Original -> Committed -> Applied Actuals ladder, with the owner's
-- estimate-to-complete forecast), Contracts with SoV / WBS lines, vendor Invoices, Funding
-- Sources (loan, equity, grant) and the funding allocation of each invoice, and the Approvals
-- workflow. Approving an invoice for payment is a money movement (guarded).

CREATE SCHEMA IF NOT EXISTS ingenious_build;

-- Projects; project_id 'IB1042', project_code is the company job number.
CREATE TABLE ingenious_build.projects (
    project_id            VARCHAR PRIMARY KEY,
    project_code          VARCHAR NOT NULL,
    name                  VARCHAR NOT NULL,
    client                VARCHAR NOT NULL,
    status                VARCHAR NOT NULL,        -- Active | Closed
    project_type          VARCHAR NOT NULL,
    address               VARCHAR NOT NULL,
    city                  VARCHAR NOT NULL,
    state                 VARCHAR NOT NULL,
    base_currency         VARCHAR NOT NULL,        -- USD
    start_date            DATE NOT NULL,
    end_date              DATE NOT NULL,
    contract_value        DECIMAL(18,2) NOT NULL   -- the client (prime) contract, current
);

-- Companies (vendors) connected to the projects.
CREATE TABLE ingenious_build.companies (
    company_id            VARCHAR PRIMARY KEY,
    name                  VARCHAR NOT NULL,
    company_type          VARCHAR NOT NULL,        -- Subcontractor | Supplier | Consultant | Service
    trade                 VARCHAR NOT NULL,
    email                 VARCHAR,
    on_system             BOOLEAN NOT NULL
);

-- Project Budget lines: the budget ladder per cost code with the owner's ETC forecast.
CREATE TABLE ingenious_build.budget_lines (
    project_id            VARCHAR NOT NULL,
    cost_code             VARCHAR NOT NULL,
    category              VARCHAR NOT NULL,        -- CSI division '26'
    description           VARCHAR NOT NULL,
    original_budget       DECIMAL(18,2) NOT NULL,
    budget_changes        DECIMAL(18,2) NOT NULL,  -- approved budget changes
    current_budget        DECIMAL(18,2) NOT NULL,
    committed             DECIMAL(18,2) NOT NULL,  -- executed contracts
    applied_actuals       DECIMAL(18,2) NOT NULL,  -- approved and paid invoices
    uncommitted           DECIMAL(18,2) NOT NULL,  -- current budget - committed
    forecast_to_complete  DECIMAL(18,2) NOT NULL,  -- the owner's estimate to complete
    estimate_at_completion DECIMAL(18,2) NOT NULL, -- applied actuals + forecast to complete
    forecast_status       VARCHAR NOT NULL,        -- Approved | Pending Approval | Draft
    forecast_updated_at   TIMESTAMP NOT NULL,
    accounting_integrated BOOLEAN NOT NULL,        -- carried in the contractor's ERP (false: contingency and other owner-only lines)
    PRIMARY KEY (project_id, cost_code)
);

-- Forecast revisions (history of the estimate-to-complete per budget line).
CREATE TABLE ingenious_build.forecast_revisions (
    revision_id           VARCHAR PRIMARY KEY,
    project_id            VARCHAR NOT NULL,
    cost_code             VARCHAR NOT NULL,
    previous_forecast     DECIMAL(18,2) NOT NULL,
    forecast_to_complete  DECIMAL(18,2) NOT NULL,
    note                  VARCHAR NOT NULL,
    status                VARCHAR NOT NULL,        -- Draft | Pending Approval | Approved
    created_at            TIMESTAMP NOT NULL
);

-- Contracts (the project's vendor contracts); contract_number is the company's code.
CREATE TABLE ingenious_build.contracts (
    contract_id           BIGINT PRIMARY KEY,
    project_id            VARCHAR NOT NULL,
    contract_number       VARCHAR NOT NULL,        -- 'SC-1042-0'
    company_id            VARCHAR NOT NULL,
    title                 VARCHAR NOT NULL,
    contract_type         VARCHAR NOT NULL,        -- Subcontract | Purchase Order
    status                VARCHAR NOT NULL,        -- Draft | Executed | Closed
    original_value        DECIMAL(18,2) NOT NULL,
    approved_change_orders DECIMAL(18,2) NOT NULL,
    current_value         DECIMAL(18,2) NOT NULL,
    retainage_pct         DECIMAL(9,4) NOT NULL,
    executed_date         DATE NOT NULL
);

CREATE TABLE ingenious_build.contract_sov (
    contract_id           BIGINT NOT NULL,
    line_no               INTEGER NOT NULL,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    scheduled_value       DECIMAL(18,2) NOT NULL,
    percent_complete      DECIMAL(9,4) NOT NULL,
    PRIMARY KEY (contract_id, line_no)
);

-- Vendor invoices (contracted: against a contract's SoV; non-contracted otherwise).
CREATE TABLE ingenious_build.invoices (
    invoice_id            BIGINT PRIMARY KEY,
    project_id            VARCHAR NOT NULL,
    contract_id           BIGINT,
    company_id            VARCHAR NOT NULL,
    invoice_type          VARCHAR NOT NULL,        -- Contracted | Non-Contracted
    custom_id             VARCHAR NOT NULL,        -- the vendor's invoice number
    invoice_date          DATE NOT NULL,
    start_date            DATE,
    end_date              DATE,
    due_date              DATE NOT NULL,
    description           VARCHAR NOT NULL,
    gross_amount          DECIMAL(18,2) NOT NULL,
    retainage_amount      DECIMAL(18,2) NOT NULL,
    net_amount            DECIMAL(18,2) NOT NULL,  -- the amount to fund and pay
    status                VARCHAR NOT NULL,        -- Draft | Submitted | Pending Approval | Approved | Rejected | Paid
    funding_status        VARCHAR NOT NULL,        -- Unallocated | Draft Allocation | Allocated
    approved_at           TIMESTAMP
);

CREATE TABLE ingenious_build.invoice_lines (
    invoice_id            BIGINT NOT NULL,
    line_no               INTEGER NOT NULL,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    amount                DECIMAL(18,2) NOT NULL,
    retainage             DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (invoice_id, line_no)
);

-- Funding sources per project, with the project's draw order (draw_priority 1 is drawn first).
CREATE TABLE ingenious_build.funding_sources (
    project_id            VARCHAR NOT NULL,
    funding_source_id     VARCHAR NOT NULL,
    name                  VARCHAR NOT NULL,
    source_type           VARCHAR NOT NULL,        -- Loan | Equity | Grant
    funding_method        VARCHAR NOT NULL,        -- Project Specific
    allocation_to_project DECIMAL(18,2) NOT NULL,
    drawn_to_date         DECIMAL(18,2) NOT NULL,
    draw_priority         INTEGER NOT NULL,
    PRIMARY KEY (project_id, funding_source_id)
);

-- The funding applied to an invoice (one row per invoice and source).
CREATE TABLE ingenious_build.invoice_funding (
    invoice_id            BIGINT NOT NULL,
    funding_source_id     VARCHAR NOT NULL,
    project_id            VARCHAR NOT NULL,
    amount                DECIMAL(18,2) NOT NULL,
    percent               DECIMAL(9,4) NOT NULL,
    status                VARCHAR NOT NULL,        -- Draft | Approved
    allocated_at          TIMESTAMP NOT NULL,
    PRIMARY KEY (invoice_id, funding_source_id)
);

-- Approvals workflow: a request routes one object to its approver.
CREATE TABLE ingenious_build.approval_requests (
    approval_id           VARCHAR PRIMARY KEY,
    project_id            VARCHAR NOT NULL,
    object_type           VARCHAR NOT NULL,        -- Invoice | Forecast
    object_id             VARCHAR NOT NULL,
    step                  INTEGER NOT NULL,
    approver_role         VARCHAR NOT NULL,        -- Project Manager | Owner's Representative
    status                VARCHAR NOT NULL,        -- Pending | Approved | Rejected
    submitted_at          TIMESTAMP NOT NULL,
    note                  VARCHAR NOT NULL
);
