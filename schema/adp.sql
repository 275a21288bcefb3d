-- adp: ADP Workforce Now. Employees, prevailing-wage rate tables per job, hours imported from the
-- field-time systems (approved timecards per employee/week/job), pay batches, earnings lines and
-- the checks / direct deposits of released batches. Releasing payroll is guarded.

CREATE SCHEMA IF NOT EXISTS adp;

-- Employees as this payroll system knows them (ids from the company's identity map).
CREATE TABLE adp.workers (
    employee_id         VARCHAR PRIMARY KEY,   -- this system's employee id
    first_name          VARCHAR NOT NULL,
    last_name           VARCHAR NOT NULL,
    trade               VARCHAR NOT NULL,
    classification      VARCHAR NOT NULL,      -- wage-determination classification
    level               VARCHAR NOT NULL,      -- journeyman | apprentice | foreman
    apprentice_registration VARCHAR,
    apprentice_pct      DECIMAL(9,4),          -- apprentice rate as % of journeyman
    union_local         VARCHAR,
    base_rate           DECIMAL(9,4) NOT NULL, -- hourly
    fringe_rate         DECIMAL(9,4) NOT NULL, -- hourly
    hire_date           DATE NOT NULL,
    status              VARCHAR NOT NULL       -- 'Active' | 'Terminated'
);

-- Jobs labour is costed to.
CREATE TABLE adp.cost_numbers (
    job_id              VARCHAR PRIMARY KEY,
    description         VARCHAR NOT NULL,
    prevailing_wage     BOOLEAN NOT NULL,
    state               VARCHAR NOT NULL,
    status              VARCHAR NOT NULL       -- 'Active' | 'Closed'
);

-- Prevailing-wage rate table per job and classification (journeyman rates of the determination).
CREATE TABLE adp.prevailing_wage_rates (
    job_id              VARCHAR NOT NULL,
    classification      VARCHAR NOT NULL,
    determination       VARCHAR NOT NULL,      -- 'IL20250012-mod3'
    base_rate           DECIMAL(9,4) NOT NULL,
    fringe_rate         DECIMAL(9,4) NOT NULL,
    PRIMARY KEY (job_id, classification)
);

-- Approved hours imported from the field-time systems, per employee, week and job.
CREATE TABLE adp.time_cards (
    employee_id         VARCHAR NOT NULL,
    week_ending         DATE NOT NULL,         -- Saturday
    job_id              VARCHAR NOT NULL,
    regular_hours       DECIMAL(9,2) NOT NULL,
    overtime_hours      DECIMAL(9,2) NOT NULL,
    source              VARCHAR NOT NULL,      -- 'rhumbix' | 'busybusy'
    PRIMARY KEY (employee_id, week_ending, job_id)
);

-- Pay batches: past weeks released, the clock week open.
CREATE TABLE adp.payroll_runs (
    batch_id            VARCHAR PRIMARY KEY,
    period_start        DATE NOT NULL,
    period_end          DATE NOT NULL,
    check_date          DATE NOT NULL,
    status              VARCHAR NOT NULL,      -- 'Open' | 'Preview' | 'Processed'
    bank_account        VARCHAR NOT NULL,      -- the funding account number
    total_gross         DECIMAL(18,2),
    staged_at           TIMESTAMP,
    released_at         TIMESTAMP
);

-- Earnings lines per batch, employee and job.
CREATE TABLE adp.earnings (
    batch_id            VARCHAR NOT NULL,
    employee_id         VARCHAR NOT NULL,
    job_id              VARCHAR NOT NULL,
    regular_hours       DECIMAL(9,2) NOT NULL,
    overtime_hours      DECIMAL(9,2) NOT NULL,
    rate                DECIMAL(9,4) NOT NULL,
    fringe_rate         DECIMAL(9,4) NOT NULL,
    gross_pay           DECIMAL(18,2) NOT NULL,
    withholding         DECIMAL(18,2),         -- calculated at release
    net_pay             DECIMAL(18,2),
    PRIMARY KEY (batch_id, employee_id, job_id)
);

-- Checks and direct deposits of released batches (one per employee per batch).
CREATE TABLE adp.pay_statements (
    batch_id            VARCHAR NOT NULL,
    employee_id         VARCHAR NOT NULL,
    payment_method      VARCHAR NOT NULL,      -- 'Check' | 'Direct Deposit'
    check_number        INTEGER,
    bank_account        VARCHAR NOT NULL,
    pay_date            DATE NOT NULL,
    gross_pay           DECIMAL(18,2) NOT NULL,
    net_pay             DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (batch_id, employee_id)
);
