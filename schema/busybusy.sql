-- busybusy: busybusy, the field time-tracking app. Projects and their cost codes, workers and
-- crews, and the daily timecards the crews enter; a supervisor approves them and approved cards
-- are exported to payroll (then they are locked).

CREATE SCHEMA IF NOT EXISTS busybusy;

CREATE TABLE busybusy.projects (
    project_id          VARCHAR PRIMARY KEY,
    job_number          VARCHAR NOT NULL,      -- the company's job number as busybusy holds it
    name                VARCHAR NOT NULL,
    superintendent      VARCHAR NOT NULL,
    city                VARCHAR NOT NULL,
    state               VARCHAR NOT NULL,
    status              VARCHAR NOT NULL       -- 'Active' | 'Archived'
);

-- Cost codes enabled on each project.
CREATE TABLE busybusy.cost_codes (
    project_id          VARCHAR NOT NULL,
    cost_code           VARCHAR NOT NULL,      -- CSI MasterFormat '26-100'
    description         VARCHAR NOT NULL,
    PRIMARY KEY (project_id, cost_code)
);

-- Field workers (ids from the company's identity map).
CREATE TABLE busybusy.members (
    employee_id         VARCHAR PRIMARY KEY,
    first_name          VARCHAR NOT NULL,
    last_name           VARCHAR NOT NULL,
    trade               VARCHAR NOT NULL,
    classification      VARCHAR NOT NULL,
    level               VARCHAR NOT NULL,      -- journeyman | apprentice | foreman
    union_local         VARCHAR,
    status              VARCHAR NOT NULL       -- 'Active' | 'Archived'
);

-- Crews: one per project and trade, led by a foreman of that trade when one works there.
CREATE TABLE busybusy.member_groups (
    crew_id             VARCHAR PRIMARY KEY,
    project_id          VARCHAR NOT NULL,
    name                VARCHAR NOT NULL,
    trade               VARCHAR NOT NULL,
    foreman_employee_id VARCHAR
);

-- Daily timecards per worker, project and cost code.
CREATE TABLE busybusy.time_entries (
    timecard_id         VARCHAR PRIMARY KEY,
    employee_id         VARCHAR NOT NULL,
    project_id          VARCHAR NOT NULL,
    crew_id             VARCHAR,
    cost_code           VARCHAR NOT NULL,
    work_date           DATE NOT NULL,
    regular_hours       DECIMAL(9,2) NOT NULL,
    overtime_hours      DECIMAL(9,2) NOT NULL,
    status              VARCHAR NOT NULL,      -- 'Pending' | 'Approved'
    approved_by         VARCHAR,
    approved_at         TIMESTAMP,
    exported_to_payroll BOOLEAN NOT NULL,      -- picked up by the payroll export (then locked)
    exported_at         TIMESTAMP
);
