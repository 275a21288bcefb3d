-- hh2: the integration hub (hh2 Cloud Services) that syncs the field and PM apps with the ERPs.
-- Its mapping tables are the company's bespoke crosswalks: the only safe way to translate a
-- vendor, job, cost code, employee or union local between systems.

CREATE SCHEMA IF NOT EXISTS hh2;

CREATE TABLE hh2.vendor_map (
    master_vendor_id   VARCHAR NOT NULL,   -- the company's master vendor number, 'V1000'
    system             VARCHAR NOT NULL,   -- 'procore', 'vista_erp', 'levelset', ...
    system_vendor_id   VARCHAR NOT NULL,   -- that system's id for the vendor
    system_vendor_name VARCHAR NOT NULL,   -- that system's spelling
    last_synced        TIMESTAMP NOT NULL,
    PRIMARY KEY (master_vendor_id, system)
);

CREATE TABLE hh2.job_map (
    master_job_number  VARCHAR NOT NULL,   -- '1042'
    system             VARCHAR NOT NULL,
    system_job_id      VARCHAR NOT NULL,   -- '1042-' in Vista, a project id in Procore, ...
    job_name           VARCHAR NOT NULL,
    PRIMARY KEY (master_job_number, system)
);

CREATE TABLE hh2.cost_code_map (
    cost_code          VARCHAR NOT NULL,   -- PM cost code (CSI MasterFormat 2016) '31-200'
    erp_system         VARCHAR NOT NULL,   -- the ERP the mapping targets
    erp_phase          VARCHAR NOT NULL,   -- '02-200-00'
    erp_cost_type      INTEGER NOT NULL,   -- 1 labor 2 material 3 subcontract 4 equipment 5 other
    description        VARCHAR NOT NULL,
    note               VARCHAR,
    PRIMARY KEY (cost_code, erp_system)
);

CREATE TABLE hh2.employee_map (
    master_employee_id VARCHAR NOT NULL,   -- 'E1001'
    system             VARCHAR NOT NULL,   -- adp, rippling, foundation_payroll, lcptracker, rhumbix, busybusy
    system_employee_id VARCHAR NOT NULL,
    employee_name      VARCHAR NOT NULL,
    PRIMARY KEY (master_employee_id, system)
);

CREATE TABLE hh2.union_local_map (
    local_code         VARCHAR NOT NULL,   -- 'IBEW-134'
    system             VARCHAR NOT NULL,
    system_code        VARCHAR NOT NULL,
    trade              VARCHAR NOT NULL,
    PRIMARY KEY (local_code, system)
);

CREATE TABLE hh2.sync_log (
    sync_id            VARCHAR PRIMARY KEY,
    source_system      VARCHAR NOT NULL,
    target_system      VARCHAR NOT NULL,
    entity             VARCHAR NOT NULL,
    started_at         TIMESTAMP NOT NULL,
    records            INTEGER NOT NULL,
    status             VARCHAR NOT NULL    -- success|warning|failed
);
