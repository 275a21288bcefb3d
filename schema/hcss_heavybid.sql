-- hcss_heavybid: HCSS HeavyBid, the estimating system. Estimates (bids) for the company's jobs,
-- their bid items (cost code, quantity, unit, unit cost) and the resources behind each item
-- (labor, material, subcontract, equipment). Read-only to agents.

CREATE SCHEMA IF NOT EXISTS hcss_heavybid;

CREATE TABLE hcss_heavybid.estimates (
    estimate_id           VARCHAR PRIMARY KEY,      -- 'EST-1042'
    estimate_code         VARCHAR NOT NULL,         -- HeavyBid estimate code 'B1042-1' (job, bid sequence)
    job_number            VARCHAR NOT NULL,
    estimate_name         VARCHAR NOT NULL,
    bid_date              DATE NOT NULL,
    status                VARCHAR NOT NULL,         -- Awarded | Lost | Open
    total_cost            DECIMAL(18,2) NOT NULL,   -- direct + indirect cost
    markup_percent        DECIMAL(9,4) NOT NULL,
    bid_total             DECIMAL(18,2) NOT NULL,
    item_count            INTEGER NOT NULL
);

CREATE TABLE hcss_heavybid.biditems (
    estimate_id           VARCHAR NOT NULL,
    biditem_code          VARCHAR NOT NULL,         -- '0010', '0020', ...
    item_no               INTEGER NOT NULL,
    cost_code             VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    quantity              DECIMAL(18,4) NOT NULL,
    units                 VARCHAR NOT NULL,
    unit_cost             DECIMAL(18,4) NOT NULL,
    total_cost            DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (estimate_id, biditem_code)
);

CREATE TABLE hcss_heavybid.resources (
    estimate_id           VARCHAR NOT NULL,
    biditem_code          VARCHAR NOT NULL,
    resource_code         VARCHAR NOT NULL,         -- 'LAB-01-500', 'MAT-31-200', 'SUB-26-100', ...
    resource_type         VARCHAR NOT NULL,         -- Labor | Material | Subcontract | Equipment | Other
    description           VARCHAR NOT NULL,
    quantity              DECIMAL(18,4) NOT NULL,
    units                 VARCHAR NOT NULL,
    unit_price            DECIMAL(18,4) NOT NULL,
    total                 DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (estimate_id, biditem_code, resource_code)
);
