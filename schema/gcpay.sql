-- gcpay: GCPay, the owner/subcontractor pay-application portal (AIA G702/G703).
-- Contracts carry the schedule of values (SOV) including approved owner change-order lines;
-- pay applications carry the G702 certificate header (lines 1-9) and the G703 continuation
-- sheet. GCPay shows previous applications, never current progress: the PM's percent
-- complete lives in the PM platform (Procore prime contract SOV).

CREATE SCHEMA IF NOT EXISTS gcpay;

-- Prime (owner) contracts, one per job.
CREATE TABLE gcpay.contracts (
    contract_id                  VARCHAR PRIMARY KEY,      -- 'GCP-PC-1042'
    job_number                   VARCHAR NOT NULL,         -- GCPay project number ('1042')
    project_name                 VARCHAR NOT NULL,
    contract_number              VARCHAR NOT NULL,         -- owner contract number 'PC-1042'
    owner_name                   VARCHAR NOT NULL,
    contractor_name              VARCHAR NOT NULL,         -- Company A
    original_contract_sum        DECIMAL(18,2) NOT NULL,   -- G702 line 1
    approved_change_orders       DECIMAL(18,2) NOT NULL,   -- G702 line 2 (net change by approved COs)
    contract_sum_to_date         DECIMAL(18,2) NOT NULL,   -- G702 line 3 = sum of SOV scheduled values
    retainage_percent            DECIMAL(9,4) NOT NULL,    -- 10.0000
    retainage_step_down_percent  DECIMAL(9,4),             -- 5.0000 once the step-down applies
    step_down_at_percent_complete DECIMAL(9,4),            -- 50.0000 (% of contract sum completed)
    contract_date                DATE NOT NULL,
    status                       VARCHAR NOT NULL,         -- Active | Closed
    payment_terms                VARCHAR NOT NULL          -- 'Net 30': the owner pays a certified application 30 days after certification
);

-- The schedule of values (G703 columns A-C), original lines and approved owner CO lines.
CREATE TABLE gcpay.contract_items (
    contract_id                  VARCHAR NOT NULL,
    item_no                      INTEGER NOT NULL,         -- SOV line number
    item_number                  VARCHAR NOT NULL,         -- column A '001'
    description                  VARCHAR NOT NULL,         -- column B
    cost_code                    VARCHAR NOT NULL,
    scheduled_value              DECIMAL(18,2) NOT NULL,   -- column C
    source                       VARCHAR NOT NULL,         -- Original | Change Order
    change_order_number          VARCHAR,                  -- the approved owner CO that added the line
    PRIMARY KEY (contract_id, item_no)
);

-- Approved owner change orders on the prime contract (G702 change-order summary).
CREATE TABLE gcpay.change_orders (
    contract_id                  VARCHAR NOT NULL,
    change_order_number          VARCHAR NOT NULL,         -- 'PCO-1042-001'
    description                  VARCHAR NOT NULL,
    amount                       DECIMAL(18,2) NOT NULL,
    status                       VARCHAR NOT NULL,         -- Approved
    approved_date                DATE,
    PRIMARY KEY (contract_id, change_order_number)
);

-- Pay applications: the G702 Application and Certificate for Payment.
CREATE TABLE gcpay.pay_applications (
    pay_app_id                   VARCHAR PRIMARY KEY,      -- 'PA-1042-001' (drafts: hashed from job + number)
    contract_id                  VARCHAR NOT NULL,
    application_number           INTEGER NOT NULL,
    period_from                  DATE NOT NULL,
    period_to                    DATE NOT NULL,
    status                       VARCHAR NOT NULL,         -- Draft | Submitted | Approved | Certified | Paid
    original_contract_sum        DECIMAL(18,2) NOT NULL,   -- line 1
    net_change_by_change_orders  DECIMAL(18,2) NOT NULL,   -- line 2
    contract_sum_to_date         DECIMAL(18,2) NOT NULL,   -- line 3 = 1 + 2
    total_completed_stored       DECIMAL(18,2) NOT NULL,   -- line 4 = sum of G703 column G
    retainage                    DECIMAL(18,2) NOT NULL,   -- line 5 = sum of G703 column I
    total_earned_less_retainage  DECIMAL(18,2) NOT NULL,   -- line 6 = 4 - 5
    less_previous_certificates   DECIMAL(18,2) NOT NULL,   -- line 7 = line 6 of the previous application
    current_payment_due          DECIMAL(18,2) NOT NULL,   -- line 8 = 6 - 7
    balance_to_finish            DECIMAL(18,2) NOT NULL,   -- line 9 = 3 - 6 (balance to finish incl. retainage)
    submitted_date               DATE,
    certified_date               DATE,
    created_at                   TIMESTAMP NOT NULL,
    updated_at                   TIMESTAMP NOT NULL
);

-- G703 continuation sheet lines.
CREATE TABLE gcpay.pay_application_items (
    pay_app_id                   VARCHAR NOT NULL,
    item_no                      INTEGER NOT NULL,
    item_number                  VARCHAR NOT NULL,         -- A
    description                  VARCHAR NOT NULL,         -- B
    scheduled_value              DECIMAL(18,2) NOT NULL,   -- C
    from_previous_application    DECIMAL(18,2) NOT NULL,   -- D (work completed, D+E of the previous app)
    this_period                  DECIMAL(18,2) NOT NULL,   -- E
    materials_presently_stored   DECIMAL(18,2) NOT NULL,   -- F (not in D or E)
    total_completed_stored       DECIMAL(18,2) NOT NULL,   -- G = D + E + F
    percent_complete             DECIMAL(9,2) NOT NULL,    -- G / C x 100, rounded half-up to 2 places
    balance_to_finish            DECIMAL(18,2) NOT NULL,   -- H = C - G
    retainage                    DECIMAL(18,2) NOT NULL,   -- I (cumulative retainage on G)
    PRIMARY KEY (pay_app_id, item_no)
);

-- Subcontractor lien waivers collected with the owner pay applications.
CREATE TABLE gcpay.lien_waivers (
    waiver_id                    VARCHAR PRIMARY KEY,
    contract_id                  VARCHAR NOT NULL,
    pay_app_id                   VARCHAR,                  -- the owner application whose period covers the through date
    vendor_name                  VARCHAR NOT NULL,         -- as GCPay spells the subcontractor
    waiver_type                  VARCHAR NOT NULL,         -- Conditional Progress | Unconditional Progress | Conditional Final | Unconditional Final
    amount                       DECIMAL(18,2) NOT NULL,
    through_date                 DATE NOT NULL,
    status                       VARCHAR NOT NULL,         -- Requested | Received | Approved | Rejected
    signed_by                    VARCHAR,
    signed_date                  DATE
);
