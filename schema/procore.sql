-- procore: Procore (the reference PM platform), in the vocabulary of its REST API
-- (/rest/v1.0/projects, /cost_codes, /vendors, /prime_contracts, /change_events,
-- /change_orders, /direct_costs, /budget_line_items, /manpower_logs, /work_order_contracts and
-- /purchase_order_contracts (commitments), /requisitions, ERP integration).
-- Ids are Procore's integers; a project is known to people by its project_number ('1042').
-- Objects synced to the connected ERP (Viewpoint Vista) carry erp_sync_status = 'synced' and
-- are locked: triggers/rules/procore.toml rejects any change to them.

CREATE SCHEMA IF NOT EXISTS procore;

-- Projects (one per company job). origin_id is the connected ERP's job id ('1042-' in Vista).
CREATE TABLE procore.projects (
    id                    BIGINT PRIMARY KEY,
    project_number        VARCHAR NOT NULL,        -- '1042'
    name                  VARCHAR NOT NULL,
    display_name          VARCHAR NOT NULL,        -- '1042 - <name>'
    stage                 VARCHAR NOT NULL,        -- Course of Construction | Closeout
    active                BOOLEAN NOT NULL,
    project_type          VARCHAR NOT NULL,        -- Commercial | Public Works | Residential | Industrial
    prevailing_wage       BOOLEAN NOT NULL,
    address               VARCHAR NOT NULL,
    city                  VARCHAR NOT NULL,
    state_code            VARCHAR NOT NULL,
    county                VARCHAR NOT NULL,
    start_date            DATE NOT NULL,
    completion_date       DATE NOT NULL,
    project_manager       VARCHAR NOT NULL,
    project_manager_email VARCHAR NOT NULL,
    superintendent        VARCHAR NOT NULL,
    owner_name            VARCHAR NOT NULL,
    origin_id             VARCHAR,                 -- ERP job id (Vista JCJM.Job)
    erp_integrated        BOOLEAN NOT NULL
);

-- Project cost codes (the company's CSI list, per project).
CREATE TABLE procore.cost_codes (
    id                    BIGINT PRIMARY KEY,
    project_id            BIGINT NOT NULL,
    division              VARCHAR NOT NULL,        -- '31'
    code                  VARCHAR NOT NULL,        -- '200'
    full_code             VARCHAR NOT NULL,        -- '31-200'
    name                  VARCHAR NOT NULL,
    cost_type             VARCHAR NOT NULL,        -- L | M | S | E | O
    sortable_code         VARCHAR NOT NULL
);

-- The company directory: vendors as Procore spells them; origin_id = the ERP vendor id.
CREATE TABLE procore.vendors (
    id                    BIGINT PRIMARY KEY,
    name                  VARCHAR NOT NULL,
    abbreviated_name      VARCHAR,
    trade_name            VARCHAR NOT NULL,
    vendor_type           VARCHAR NOT NULL,        -- Subcontractor | Supplier | Professional | Service
    is_active             BOOLEAN NOT NULL,
    business_phone        VARCHAR,
    email_address         VARCHAR,
    address               VARCHAR,
    city                  VARCHAR,
    state_code            VARCHAR,
    zip                   VARCHAR,
    origin_id             VARCHAR,                 -- ERP vendor id (Vista APVM.Vendor)
    insurance_status      VARCHAR NOT NULL,        -- compliant | expired | missing
    insurance_expiration_date DATE
);

-- Prime contracts (owner contracts), one per project.
CREATE TABLE procore.prime_contracts (
    id                    BIGINT PRIMARY KEY,
    project_id            BIGINT NOT NULL,
    number                VARCHAR NOT NULL,
    title                 VARCHAR NOT NULL,
    owner_name            VARCHAR NOT NULL,
    status                VARCHAR NOT NULL,        -- Approved | Complete
    executed              BOOLEAN NOT NULL,
    contract_date         DATE NOT NULL,
    original_contract_amount DECIMAL(18,2) NOT NULL,
    approved_change_orders DECIMAL(18,2) NOT NULL,
    pending_change_orders DECIMAL(18,2) NOT NULL,
    revised_contract_amount DECIMAL(18,2) NOT NULL,
    retainage_percent     DECIMAL(9,4) NOT NULL,
    retainage_step_down_percent DECIMAL(9,4),
    step_down_at_percent_complete DECIMAL(9,4)
);

-- Prime contract schedule of values with the PM's percent complete (the owner billing basis).
CREATE TABLE procore.prime_contract_line_items (
    id                    BIGINT PRIMARY KEY,
    prime_contract_id     BIGINT NOT NULL,
    position              INTEGER NOT NULL,
    item_number           VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    cost_code             VARCHAR NOT NULL,        -- full code
    amount                DECIMAL(18,2) NOT NULL,  -- scheduled value
    source                VARCHAR NOT NULL,        -- original | change_order
    change_order_number   VARCHAR,
    previous_percent_complete DECIMAL(9,4) NOT NULL,  -- as of the previous billing period end
    previous_work_completed DECIMAL(18,2) NOT NULL,
    percent_complete      DECIMAL(9,4) NOT NULL,   -- cumulative, as of progress_date
    work_completed        DECIMAL(18,2) NOT NULL,  -- cumulative
    materials_presently_stored DECIMAL(18,2) NOT NULL,
    progress_date         DATE
);

-- Change events (potential changes: ROM amount, scope in/out of the owner contract).
CREATE TABLE procore.change_events (
    id                    BIGINT PRIMARY KEY,
    project_id            BIGINT NOT NULL,
    number                VARCHAR NOT NULL,        -- '004'
    title                 VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    change_reason         VARCHAR NOT NULL,        -- Owner Request | Design Change | Unforeseen Condition | Internal Transfer | Allowance
    scope                 VARCHAR NOT NULL,        -- out_of_scope | in_scope
    event_type            VARCHAR NOT NULL,        -- Owner Change | Transfer | Allowance
    status                VARCHAR NOT NULL,        -- open | pending | closed
    rom_amount            DECIMAL(18,2) NOT NULL,
    attachment_filename   VARCHAR,                 -- the backup document, filed in the document store
    origin_code           VARCHAR NOT NULL         -- the company's change event id 'CE-3100-004'
);

-- Change orders: prime contract (owner) COs, commitment COs and internal budget changes.
CREATE TABLE procore.change_orders (
    id                    BIGINT PRIMARY KEY,
    project_id            BIGINT NOT NULL,
    contract_type         VARCHAR NOT NULL,        -- PrimeContract | WorkOrderContract | PurchaseOrderContract | BudgetChange
    contract_id           BIGINT,
    number                VARCHAR NOT NULL,
    title                 VARCHAR NOT NULL,
    status                VARCHAR NOT NULL,        -- approved | pending | void
    change_event_id       BIGINT,
    grand_total           DECIMAL(18,2) NOT NULL,
    increases_contract    BOOLEAN NOT NULL,
    approved_date         DATE,
    origin_code           VARCHAR NOT NULL         -- the company's CO id 'PCO-1042-002'
);

CREATE TABLE procore.change_order_line_items (
    change_order_id       BIGINT NOT NULL,
    position              INTEGER NOT NULL,
    cost_code             VARCHAR NOT NULL,
    amount                DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (change_order_id, position)
);

-- Direct costs: non-committed costs (supplier invoices, expenses) coded to the budget.
CREATE TABLE procore.direct_costs (
    id                    BIGINT PRIMARY KEY,
    project_id            BIGINT NOT NULL,
    vendor_id             BIGINT NOT NULL,
    direct_cost_type      VARCHAR NOT NULL,        -- Invoice | Expense
    invoice_number        VARCHAR NOT NULL,
    direct_cost_date      DATE NOT NULL,
    due_date              DATE NOT NULL,
    status                VARCHAR NOT NULL,        -- draft | pending | approved
    description           VARCHAR NOT NULL,
    grand_total           DECIMAL(18,2) NOT NULL,
    erp_sync_status       VARCHAR NOT NULL         -- synced | not_synced
);

CREATE TABLE procore.direct_cost_line_items (
    direct_cost_id        BIGINT NOT NULL,
    position              INTEGER NOT NULL,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    amount                DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (direct_cost_id, position)
);

-- Budget line items: the budget ladder per project and cost code, with the PM's forecast.
CREATE TABLE procore.budget_line_items (
    id                    BIGINT PRIMARY KEY,
    project_id            BIGINT NOT NULL,
    cost_code             VARCHAR NOT NULL,        -- full code
    cost_type             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    original_budget_amount DECIMAL(18,2) NOT NULL,
    approved_cos          DECIMAL(18,2) NOT NULL,
    revised_budget        DECIMAL(18,2) NOT NULL,
    pending_budget_changes DECIMAL(18,2) NOT NULL,
    projected_budget      DECIMAL(18,2) NOT NULL,
    committed_costs       DECIMAL(18,2) NOT NULL,
    direct_costs          DECIMAL(18,2) NOT NULL,
    pending_cost_changes  DECIMAL(18,2) NOT NULL,
    projected_costs       DECIMAL(18,2) NOT NULL,  -- committed + direct + pending cost changes
    job_to_date_costs     DECIMAL(18,2) NOT NULL,  -- posted costs reported back by the ERP
    forecast_to_complete  DECIMAL(18,2) NOT NULL,  -- the PM's cost-to-complete forecast
    estimated_cost_at_completion DECIMAL(18,2) NOT NULL,  -- job to date + forecast to complete
    projected_over_under  DECIMAL(18,2) NOT NULL,  -- projected budget - estimated cost at completion
    erp_line              BOOLEAN NOT NULL         -- false for PM-only lines (e.g. contingency)
);

-- Daily log manpower entries (self-performed crews from field time).
CREATE TABLE procore.manpower_logs (
    id                    BIGINT PRIMARY KEY,
    project_id            BIGINT NOT NULL,
    date                  DATE NOT NULL,
    company_name          VARCHAR NOT NULL,
    trade                 VARCHAR NOT NULL,
    num_workers           INTEGER NOT NULL,
    num_hours             DECIMAL(9,2) NOT NULL,   -- regular + overtime hours of the crew
    overtime_hours        DECIMAL(9,2) NOT NULL,
    cost_codes            VARCHAR NOT NULL,        -- codes worked, comma separated
    status                VARCHAR NOT NULL,        -- approved | pending
    notes                 VARCHAR NOT NULL
);

-- Commitments: subcontracts (WorkOrderContract) and purchase orders (PurchaseOrderContract).
CREATE TABLE procore.commitments (
    id                    BIGINT PRIMARY KEY,
    project_id            BIGINT NOT NULL,
    commitment_type       VARCHAR NOT NULL,        -- WorkOrderContract | PurchaseOrderContract
    number                VARCHAR NOT NULL,        -- '1042-01', '9140-75'
    contract_code         VARCHAR NOT NULL,        -- the company's commitment code 'SC-1042-0'
    title                 VARCHAR NOT NULL,
    vendor_id             BIGINT NOT NULL,
    status                VARCHAR NOT NULL,        -- Draft | Approved | Complete
    executed              BOOLEAN NOT NULL,
    contract_date         DATE NOT NULL,
    original_amount       DECIMAL(18,2) NOT NULL,
    approved_change_orders DECIMAL(18,2) NOT NULL,
    grand_total           DECIMAL(18,2) NOT NULL,  -- revised contract amount
    retainage_percent     DECIMAL(9,4) NOT NULL,
    erp_sync_status       VARCHAR NOT NULL,        -- synced | not_synced
    erp_ref               VARCHAR,                 -- the ERP's subcontract / PO id once synced
    synced_at             TIMESTAMP,
    locked                BOOLEAN NOT NULL
);

-- Commitment schedule of values with the PM's progress.
CREATE TABLE procore.commitment_line_items (
    id                    BIGINT PRIMARY KEY,
    commitment_id         BIGINT NOT NULL,
    position              INTEGER NOT NULL,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    amount                DECIMAL(18,2) NOT NULL,
    percent_complete      DECIMAL(9,4) NOT NULL,
    work_completed        DECIMAL(18,2) NOT NULL,  -- to date, from percent complete
    locked                BOOLEAN NOT NULL
);

-- Requisitions (subcontractor invoices / pay applications against commitments).
CREATE TABLE procore.requisitions (
    id                    BIGINT PRIMARY KEY,
    project_id            BIGINT NOT NULL,
    commitment_id         BIGINT NOT NULL,
    vendor_id             BIGINT NOT NULL,
    number                INTEGER NOT NULL,        -- pay request sequence on the commitment
    invoice_number        VARCHAR NOT NULL,        -- the subcontractor's invoice number
    billing_date          DATE NOT NULL,
    due_date              DATE NOT NULL,
    period_start          DATE,
    period_end            DATE,
    status                VARCHAR NOT NULL,        -- draft | under_review | approved | rejected
    description           VARCHAR NOT NULL,
    gross_amount          DECIMAL(18,2) NOT NULL,  -- work completed this period + stored materials
    retainage_amount      DECIMAL(18,2) NOT NULL,
    net_amount            DECIMAL(18,2) NOT NULL,  -- current payment due
    erp_sync_status       VARCHAR NOT NULL,        -- synced | not_synced
    erp_ref               VARCHAR,                 -- the ERP's AP reference once synced
    synced_at             TIMESTAMP,
    locked                BOOLEAN NOT NULL
);

CREATE TABLE procore.requisition_line_items (
    requisition_id        BIGINT NOT NULL,
    position              INTEGER NOT NULL,
    commitment_line_item_id BIGINT,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    work_completed_this_period DECIMAL(18,2) NOT NULL,
    retainage             DECIMAL(18,2) NOT NULL,
    locked                BOOLEAN NOT NULL,
    PRIMARY KEY (requisition_id, position)
);

-- Procore's own copy of the cost code -> ERP phase / cost type map used by the ERP sync.
CREATE TABLE procore.erp_cost_code_mappings (
    cost_code             VARCHAR PRIMARY KEY,     -- full code '31-200'
    erp_system            VARCHAR NOT NULL,        -- 'vista_erp'
    erp_phase             VARCHAR NOT NULL,        -- '02-200-00'
    erp_cost_type         INTEGER NOT NULL,        -- 1 labor 2 material 3 subcontract 4 equipment 5 other
    description           VARCHAR NOT NULL,
    note                  VARCHAR
);
