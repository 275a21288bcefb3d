-- smartbuild: SmarteBuild, residential estimating and job management. Finance surface:
-- Estimates with their bill of quantities (BOQ: quantity x rate per item, with re-estimates),
-- cost centres (the job budget per cost code with the forecast), the client contract's claim
-- schedule, Progress Claims against it (claims to the owner/client), Variations, and
-- subcontracts. Lodging a claim with the client is a send (guarded).

CREATE SCHEMA IF NOT EXISTS smartbuild;

-- Jobs; job_id 'SB-1042', job_no is the company job number.
CREATE TABLE smartbuild.jobs (
    job_id                VARCHAR PRIMARY KEY,
    job_no                VARCHAR NOT NULL,
    job_name              VARCHAR NOT NULL,
    client_name           VARCHAR NOT NULL,
    site_address          VARCHAR NOT NULL,
    status                VARCHAR NOT NULL,        -- Construction | Completed
    original_contract_sum DECIMAL(18,2) NOT NULL,
    contract_sum          DECIMAL(18,2) NOT NULL,  -- original + approved variations
    retention_pct         DECIMAL(9,4) NOT NULL,
    retention_step_down_pct DECIMAL(9,4),          -- retention once step_down_at_pct complete
    step_down_at_pct      DECIMAL(9,4),
    start_date            DATE NOT NULL,
    completion_date       DATE NOT NULL
);

CREATE TABLE smartbuild.suppliers (
    supplier_id           VARCHAR PRIMARY KEY,
    supplier_name         VARCHAR NOT NULL,
    supplier_type         VARCHAR NOT NULL,        -- Subcontractor | Supplier | Consultant
    trade                 VARCHAR NOT NULL,
    email                 VARCHAR,
    phone                 VARCHAR
);

-- Subcontracts and purchase orders; sc_number is the company's commitment code.
CREATE TABLE smartbuild.subcontracts (
    subcontract_id        BIGINT PRIMARY KEY,
    job_id                VARCHAR NOT NULL,
    sc_number             VARCHAR NOT NULL,        -- 'SC-1042-0'
    order_no              VARCHAR NOT NULL,        -- the number on the agreement '1042-01'
    supplier_id           VARCHAR NOT NULL,
    order_type            VARCHAR NOT NULL,        -- Subcontract | Purchase Order
    description           VARCHAR NOT NULL,
    status                VARCHAR NOT NULL,        -- Draft | Committed | Completed
    original_value        DECIMAL(18,2) NOT NULL,
    variations_value      DECIMAL(18,2) NOT NULL,
    contract_value        DECIMAL(18,2) NOT NULL,
    retention_pct         DECIMAL(9,4) NOT NULL
);

CREATE TABLE smartbuild.subcontract_items (
    subcontract_id        BIGINT NOT NULL,
    item_no               INTEGER NOT NULL,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    value                 DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (subcontract_id, item_no)
);

-- Estimates (bids); the accepted one is the job's working BOQ.
CREATE TABLE smartbuild.estimates (
    estimate_id           VARCHAR PRIMARY KEY,
    job_id                VARCHAR NOT NULL,
    estimate_name         VARCHAR NOT NULL,
    estimate_date         DATE NOT NULL,
    status                VARCHAR NOT NULL,        -- Accepted | Lost | Open
    cost_total            DECIMAL(18,2) NOT NULL,
    markup_pct            DECIMAL(9,4) NOT NULL,
    sell_total            DECIMAL(18,2) NOT NULL
);

-- The bill of quantities: one priced item per row, with the estimator's re-estimate.
CREATE TABLE smartbuild.boq_items (
    estimate_id           VARCHAR NOT NULL,
    item_no               INTEGER NOT NULL,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    quantity              DECIMAL(18,4) NOT NULL,
    unit                  VARCHAR NOT NULL,
    rate                  DECIMAL(18,4) NOT NULL,
    cost_total            DECIMAL(18,2) NOT NULL,
    reestimate_quantity   DECIMAL(18,4),
    reestimate_rate       DECIMAL(18,4),
    reestimate_total      DECIMAL(18,2),
    reestimate_status     VARCHAR NOT NULL,        -- None | Re-estimated
    reestimate_note       VARCHAR,
    reestimated_at        TIMESTAMP,
    PRIMARY KEY (estimate_id, item_no)
);

-- Cost centres: the job budget per cost code, committed and actual cost, forecast to complete.
CREATE TABLE smartbuild.cost_centres (
    job_id                VARCHAR NOT NULL,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    budget                DECIMAL(18,2) NOT NULL,  -- original
    variations            DECIMAL(18,2) NOT NULL,  -- approved changes
    revised_budget        DECIMAL(18,2) NOT NULL,
    committed             DECIMAL(18,2) NOT NULL,
    actual_to_date        DECIMAL(18,2) NOT NULL,
    forecast_to_complete  DECIMAL(18,2) NOT NULL,
    forecast_final_cost   DECIMAL(18,2) NOT NULL,  -- actual to date + forecast to complete
    export_to_accounts    BOOLEAN NOT NULL,        -- exported to the accounts system (false: contingency and other estimate-only centres)
    PRIMARY KEY (job_id, cost_code)
);

-- The client contract's claim schedule (contract items and approved variations) with progress.
CREATE TABLE smartbuild.claim_schedule (
    job_id                VARCHAR NOT NULL,
    item_no               INTEGER NOT NULL,
    item_code             VARCHAR NOT NULL,        -- '001'
    description           VARCHAR NOT NULL,
    cost_code             VARCHAR NOT NULL,
    contract_value        DECIMAL(18,2) NOT NULL,
    source                VARCHAR NOT NULL,        -- Contract | Variation
    variation_no          VARCHAR,
    pct_complete          DECIMAL(9,4) NOT NULL,   -- work complete (site progress) as of progress_date
    materials_on_site     DECIMAL(18,2) NOT NULL,  -- materials delivered and stored, not yet installed
    progress_date         DATE,
    PRIMARY KEY (job_id, item_no)
);

-- Progress claims to the client.
CREATE TABLE smartbuild.progress_claims (
    claim_id              VARCHAR PRIMARY KEY,     -- 'SB-1042-PC02'
    job_id                VARCHAR NOT NULL,
    claim_no              INTEGER NOT NULL,
    period_end            DATE NOT NULL,
    claim_date            DATE NOT NULL,
    status                VARCHAR NOT NULL,        -- Draft | Lodged | Certified | Paid
    contract_sum          DECIMAL(18,2) NOT NULL,
    value_completed_to_date DECIMAL(18,2) NOT NULL,
    retention_to_date     DECIMAL(18,2) NOT NULL,
    less_previous_claims  DECIMAL(18,2) NOT NULL,  -- earned less retention on the previous claim
    this_claim            DECIMAL(18,2) NOT NULL,  -- value completed this period
    amount_due            DECIMAL(18,2) NOT NULL,  -- completed to date - retention - previous
    certified_amount      DECIMAL(18,2),
    created_at            TIMESTAMP NOT NULL
);

CREATE TABLE smartbuild.progress_claim_lines (
    claim_id              VARCHAR NOT NULL,
    item_no               INTEGER NOT NULL,
    description           VARCHAR NOT NULL,
    contract_value        DECIMAL(18,2) NOT NULL,
    pct_complete          DECIMAL(9,4) NOT NULL,   -- work complete, cumulative
    materials_on_site     DECIMAL(18,2) NOT NULL,
    value_to_date         DECIMAL(18,2) NOT NULL,  -- work to date + materials on site
    previous_value        DECIMAL(18,2) NOT NULL,
    this_claim            DECIMAL(18,2) NOT NULL,  -- may be negative when stored materials are used up
    PRIMARY KEY (claim_id, item_no)
);

-- Variations (client change orders and internal adjustments).
CREATE TABLE smartbuild.variations (
    variation_id          VARCHAR PRIMARY KEY,     -- the company's CO id
    job_id                VARCHAR NOT NULL,
    variation_no          VARCHAR NOT NULL,        -- client 'V002', internal 'INT-001', subcontract 'SCV-001'
    variation_type        VARCHAR NOT NULL,        -- Client | Internal | Subcontract
    description           VARCHAR NOT NULL,
    amount                DECIMAL(18,2) NOT NULL,
    status                VARCHAR NOT NULL,        -- Approved | Pending | Rejected
    approved_date         DATE
);
