-- lcptracker: LCPtracker Pro, the certified-payroll / prevailing-wage compliance portal.
-- Projects are the company's prevailing-wage jobs; contractors are the prime (Company A) and its
-- subcontractors (LCPtracker contractor ids 'C...'); payrolls are WH-347 certified payroll
-- reports with their employee lines. Compliance flags are the reviewer's findings on lines.

CREATE SCHEMA IF NOT EXISTS lcptracker;

CREATE TABLE lcptracker.projects (
    project_id            VARCHAR PRIMARY KEY,      -- LCPtracker project code = company job number '1042'
    project_name          VARCHAR NOT NULL,
    awarding_body         VARCHAR NOT NULL,         -- the public owner
    prime_contractor_id   VARCHAR NOT NULL,
    address               VARCHAR NOT NULL,
    city                  VARCHAR NOT NULL,
    county                VARCHAR NOT NULL,
    state                 VARCHAR NOT NULL,
    decision_id           VARCHAR,                  -- the wage decision in force
    start_date            DATE NOT NULL,
    status                VARCHAR NOT NULL          -- Active | Closed
);

CREATE TABLE lcptracker.contractors (
    contractor_id         VARCHAR PRIMARY KEY,      -- 'C10417'; the prime is 'C00001'
    contractor_name       VARCHAR NOT NULL,
    fein                  VARCHAR,
    trade                 VARCHAR NOT NULL,
    is_prime              BOOLEAN NOT NULL,
    address               VARCHAR,
    city                  VARCHAR,
    state                 VARCHAR
);

CREATE TABLE lcptracker.project_contractors (  -- who works on which project, and under whom
    project_id            VARCHAR NOT NULL,
    contractor_id         VARCHAR NOT NULL,
    tier                  INTEGER NOT NULL,         -- 0 prime, 1 first-tier sub
    contract_amount       DECIMAL(18,2),
    PRIMARY KEY (project_id, contractor_id)
);

CREATE TABLE lcptracker.employees (
    employee_id           VARCHAR PRIMARY KEY,      -- LCPtracker employee id 'LCP-88001'
    contractor_id         VARCHAR NOT NULL,
    first_name            VARCHAR NOT NULL,
    last_name             VARCHAR NOT NULL,
    ssn_last4             VARCHAR NOT NULL,
    trade                 VARCHAR NOT NULL,
    classification        VARCHAR NOT NULL,
    level                 VARCHAR NOT NULL,         -- Journeyman | Apprentice | Foreman
    apprentice_registration VARCHAR,
    apprentice_percent    DECIMAL(9,4),
    union_local           VARCHAR,                  -- LCPtracker's local code 'IBEW LOCAL 134'
    base_rate             DECIMAL(9,4) NOT NULL,
    fringe_rate           DECIMAL(9,4) NOT NULL,
    status                VARCHAR NOT NULL          -- Active | Terminated
);

CREATE TABLE lcptracker.wage_decisions (
    decision_id           VARCHAR PRIMARY KEY,      -- 'IL20250012-mod3'
    project_id            VARCHAR NOT NULL,
    wd_number             VARCHAR NOT NULL,         -- 'IL20250012'
    modification          INTEGER NOT NULL,
    county                VARCHAR NOT NULL,
    state                 VARCHAR NOT NULL,
    effective_date        DATE NOT NULL
);

CREATE TABLE lcptracker.wage_decision_rates (
    decision_id           VARCHAR NOT NULL,
    classification        VARCHAR NOT NULL,
    base_rate             DECIMAL(9,4) NOT NULL,    -- journeyman base hourly
    fringe_rate           DECIMAL(9,4) NOT NULL,    -- journeyman fringe hourly
    PRIMARY KEY (decision_id, classification)
);

CREATE TABLE lcptracker.apprentice_ratios (
    trade                 VARCHAR PRIMARY KEY,
    journeymen_per_apprentice INTEGER NOT NULL,     -- 3: at most one apprentice per three journeymen per day
    source                VARCHAR NOT NULL
);

-- WH-347 certified payroll reports.
CREATE TABLE lcptracker.payrolls (
    payroll_id            VARCHAR PRIMARY KEY,      -- 'CP-1042-2026-01-24'
    project_id            VARCHAR NOT NULL,
    contractor_id         VARCHAR NOT NULL,
    decision_id           VARCHAR NOT NULL,
    payroll_number        INTEGER NOT NULL,
    week_ending           DATE NOT NULL,
    is_final              BOOLEAN NOT NULL,
    status                VARCHAR NOT NULL,         -- Draft | Submitted | Accepted
    certified_by          VARCHAR,
    certified_date        DATE
);

CREATE TABLE lcptracker.payroll_lines (
    payroll_id            VARCHAR NOT NULL,
    line_number           INTEGER NOT NULL,
    employee_id           VARCHAR NOT NULL,
    employee_name         VARCHAR NOT NULL,
    classification        VARCHAR NOT NULL,
    level                 VARCHAR NOT NULL,         -- Journeyman | Apprentice
    apprentice_registration VARCHAR,
    hours_sun             DECIMAL(9,2) NOT NULL,
    hours_mon             DECIMAL(9,2) NOT NULL,
    hours_tue             DECIMAL(9,2) NOT NULL,
    hours_wed             DECIMAL(9,2) NOT NULL,
    hours_thu             DECIMAL(9,2) NOT NULL,
    hours_fri             DECIMAL(9,2) NOT NULL,
    hours_sat             DECIMAL(9,2) NOT NULL,
    total_hours           DECIMAL(9,2) NOT NULL,
    straight_time_hours   DECIMAL(9,2) NOT NULL,    -- WH-347 "S" row: the first 40 hours of the week
    overtime_hours        DECIMAL(9,2) NOT NULL,    -- WH-347 "O" row: hours over 40, paid at 1.5 x rate
    rate_paid             DECIMAL(9,4) NOT NULL,    -- hourly base (straight-time) rate paid
    fringe_paid           DECIMAL(9,4) NOT NULL,    -- hourly fringe paid (cash or plan)
    gross_this_project    DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (payroll_id, line_number)
);

-- Compliance flags the reviewer raises on payroll lines (one row per line and code).
CREATE TABLE lcptracker.compliance_flags (
    flag_id               VARCHAR PRIMARY KEY,      -- hashed from (payroll, line, code)
    payroll_id            VARCHAR NOT NULL,
    line_number           INTEGER NOT NULL,
    code                  VARCHAR NOT NULL,         -- underpayment | fringe_shortfall | apprentice_ratio | unregistered_apprentice | misclassification | other
    note                  VARCHAR NOT NULL,
    status                VARCHAR NOT NULL,         -- Open | Resolved
    created_by            VARCHAR NOT NULL,
    created_at            TIMESTAMP NOT NULL
);
