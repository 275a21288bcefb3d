-- ressio: Ressio, residential builder software. Finance surface: Projects, Vendors, Purchase
-- Orders with cost items, Bills (vendor invoices and receipts) with cost items, and bill-to-PO
-- matching: a bill whose cost item exceeds what is still open on its PO item is an exception and
-- must be flagged, not matched. Bills sync to accounting (the ERP) once approved; paying a bill
-- is a money movement (guarded).

CREATE SCHEMA IF NOT EXISTS ressio;

-- Projects; project_id 'R1042', job_number is the company job number.
CREATE TABLE ressio.projects (
    project_id            VARCHAR PRIMARY KEY,
    job_number            VARCHAR NOT NULL,
    project_name          VARCHAR NOT NULL,
    status                VARCHAR NOT NULL,        -- Active | Completed
    client_name           VARCHAR NOT NULL,
    address               VARCHAR NOT NULL,
    city                  VARCHAR NOT NULL,
    state                 VARCHAR NOT NULL,
    project_manager       VARCHAR NOT NULL,
    contract_price        DECIMAL(18,2) NOT NULL
);

CREATE TABLE ressio.vendors (
    vendor_id             VARCHAR PRIMARY KEY,
    vendor_name           VARCHAR NOT NULL,
    vendor_type           VARCHAR NOT NULL,        -- Trade Partner | Supplier | Service
    trade                 VARCHAR NOT NULL,
    email                 VARCHAR,
    phone                 VARCHAR,
    payment_terms         VARCHAR NOT NULL,
    active                BOOLEAN NOT NULL
);

-- Purchase orders (material POs and trade-partner subcontracts).
CREATE TABLE ressio.purchase_orders (
    po_id                 BIGINT PRIMARY KEY,
    project_id            VARCHAR NOT NULL,
    po_number             VARCHAR NOT NULL,        -- '9140-75'
    commitment_ref        VARCHAR NOT NULL,        -- the company's commitment code 'PO-9140-2'
    vendor_id             VARCHAR NOT NULL,
    po_type               VARCHAR NOT NULL,        -- Material | Subcontract
    title                 VARCHAR NOT NULL,
    status                VARCHAR NOT NULL,        -- Draft | Approved | Closed
    issued_on             DATE NOT NULL,
    original_amount       DECIMAL(18,2) NOT NULL,
    change_orders_amount  DECIMAL(18,2) NOT NULL,
    total                 DECIMAL(18,2) NOT NULL,
    retainage_pct         DECIMAL(9,4) NOT NULL
);

CREATE TABLE ressio.po_items (
    po_id                 BIGINT NOT NULL,
    item_no               INTEGER NOT NULL,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    amount                DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (po_id, item_no)
);

-- Bills (vendor invoices). bill_name is the vendor's invoice number.
CREATE TABLE ressio.bills (
    bill_id               BIGINT PRIMARY KEY,
    bill_name             VARCHAR NOT NULL,
    project_id            VARCHAR NOT NULL,
    vendor_id             VARCHAR NOT NULL,
    po_id                 BIGINT,
    issued_on             DATE NOT NULL,
    due_date              DATE NOT NULL,
    description           VARCHAR NOT NULL,
    subtotal              DECIMAL(18,2) NOT NULL,  -- gross
    retainage             DECIMAL(18,2) NOT NULL,
    total                 DECIMAL(18,2) NOT NULL,  -- amount payable
    status                VARCHAR NOT NULL,        -- Draft | Pending Approval | Approved | Rejected | Paid
    match_status          VARCHAR NOT NULL,        -- Unmatched | Matched | Exception
    accounting_status     VARCHAR NOT NULL,        -- Synced | Not Synced (to the ERP)
    file_name             VARCHAR                  -- the attached invoice PDF
);

CREATE TABLE ressio.bill_items (
    bill_id               BIGINT NOT NULL,
    item_no               INTEGER NOT NULL,
    po_item_no            INTEGER,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    amount                DECIMAL(18,2) NOT NULL,
    retainage             DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (bill_id, item_no)
);

-- Bill-to-PO match results (one row per bill item checked).
CREATE TABLE ressio.bill_po_matches (
    bill_id               BIGINT NOT NULL,
    item_no               INTEGER NOT NULL,
    po_id                 BIGINT NOT NULL,
    po_item_no            INTEGER,
    result                VARCHAR NOT NULL,        -- Matched | Exception
    bill_amount           DECIMAL(18,2) NOT NULL,
    po_open_amount        DECIMAL(18,2) NOT NULL,  -- open on the PO item before this bill
    variance              DECIMAL(18,2) NOT NULL,  -- bill_amount - po_open_amount (when over)
    reason                VARCHAR NOT NULL,
    matched_at            TIMESTAMP NOT NULL,
    PRIMARY KEY (bill_id, item_no)
);
