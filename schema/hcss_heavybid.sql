-- hcss_heavybid: HCSS HeavyBid, the estimating system. Estimates (bids) for the company's jobs,
-- their bid items (cost code, quantity, unit, unit cost) and the resources behind each item
-- (labor, material, subcontract, equipment); and the equipment setup: each unit of the fleet with
-- its effective-dated hourly Rent and EOE rates (the company's equipment rate book). Read-only to
-- agents.

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

-- Equipment setup: the company's units (owned, and rented ones the crews use), by category.
CREATE TABLE hcss_heavybid.equipment (
    equipment_code        VARCHAR PRIMARY KEY,      -- the unit number 'EX-104'
    description           VARCHAR NOT NULL,
    category              VARCHAR NOT NULL,         -- 'EXCAVATORS', 'LOADERS', ...
    ownership             VARCHAR NOT NULL,         -- Owned | Rented
    make                  VARCHAR NOT NULL,
    model                 VARCHAR NOT NULL,
    model_year            INTEGER NOT NULL,
    serial_number         VARCHAR NOT NULL,
    rental_vendor         VARCHAR,                  -- the rental house (Rented units)
    rent_unit             VARCHAR NOT NULL          -- HR: the rates are per hour
);

-- The rate book: each row in effect from its effective date until the unit's next one. Rent is the
-- ownership cost (or the rental) per hour, EOE the equipment operating expense per hour.
CREATE TABLE hcss_heavybid.equipment_rates (
    equipment_code        VARCHAR NOT NULL,
    effective_date        DATE NOT NULL,
    rent_rate             DECIMAL(18,2) NOT NULL,
    eoe_rate              DECIMAL(18,2) NOT NULL,
    total_rate            DECIMAL(18,2) NOT NULL,   -- rent_rate + eoe_rate
    note                  VARCHAR NOT NULL,
    PRIMARY KEY (equipment_code, effective_date)
);
