-- P_timecard_to_payroll: approve a job's week in the field-time app, import and stage the payroll.
-- The week is the open payroll week (the clock's); what each card deserves (approve, or leave pending
-- under the timecard policy) is read from the field-time app's own tables, what the staged batch
-- must hold is computed from the book by the payroll archetype's rule (rate never below the wage
-- determination in force on the clock date; gross = regular x rate + overtime x rate x 1.5, cents).

-- name: open_week
-- The open payroll week: the latest pay batch, not released.
SELECT batch_id, period_start, period_end AS week_ending
FROM book.payroll_batches
WHERE status = 'open'
ORDER BY period_end DESC
LIMIT 1;

-- name: jobs
-- Jobs with pending cards in the week, per field-time app, with their twists: pending cards with no
-- cost code and pending cards of workers no longer active.
WITH cards AS (
    SELECT 'rhumbix' AS app, p.job_number, t.timecard_id, t.cost_code, w.status = 'ACTIVE' AS active, t.status
    FROM rhumbix.timekeeping_entries t
    JOIN rhumbix.projects p USING (project_id)
    JOIN rhumbix.employees w USING (employee_id)
    WHERE t.work_date BETWEEN $week_ending - 6 AND $week_ending
    UNION ALL
    SELECT 'busybusy', p.job_number, t.timecard_id, t.cost_code, w.status = 'Active', t.status
    FROM busybusy.time_entries t
    JOIN busybusy.projects p USING (project_id)
    JOIN busybusy.members w USING (employee_id)
    WHERE t.work_date BETWEEN $week_ending - 6 AND $week_ending
),
pending AS (
    SELECT app, job_number,
           count(*) AS pending_cards,
           count(*) FILTER (WHERE trim(cost_code) = '') AS no_cost_code,
           count(*) FILTER (WHERE NOT active) AS inactive_worker
    FROM cards WHERE status IN ('PENDING', 'Pending')
    GROUP BY ALL
)
SELECT p.app, p.job_number, p.pending_cards, p.no_cost_code, p.inactive_worker, j.is_prevailing_wage
FROM pending p
JOIN book.jobs j USING (job_number)
WHERE j.status = 'active'
ORDER BY p.app, p.job_number;

-- name: pending_cards
-- The week's pending cards of one job in one field-time app and what the policy says of each:
-- approve, or leave pending (no cost code first, then a worker no longer active).
WITH cards AS (
    SELECT 'rhumbix' AS app, p.job_number, p.project_id, t.timecard_id, t.employee_id,
           w.first_name || ' ' || w.last_name AS worker, t.work_date, t.cost_code, t.regular_hours,
           t.overtime_hours, w.status = 'ACTIVE' AS active, t.status = 'PENDING' AS pending
    FROM rhumbix.timekeeping_entries t
    JOIN rhumbix.projects p USING (project_id)
    JOIN rhumbix.employees w USING (employee_id)
    UNION ALL
    SELECT 'busybusy', p.job_number, p.project_id, t.timecard_id, t.employee_id,
           w.first_name || ' ' || w.last_name, t.work_date, t.cost_code, t.regular_hours,
           t.overtime_hours, w.status = 'Active', t.status = 'Pending'
    FROM busybusy.time_entries t
    JOIN busybusy.projects p USING (project_id)
    JOIN busybusy.members w USING (employee_id)
)
SELECT app, job_number, project_id, timecard_id, employee_id, worker, work_date, cost_code,
       regular_hours, overtime_hours,
       CASE WHEN trim(cost_code) = '' THEN 'no_cost_code'
            WHEN NOT active THEN 'terminated_worker' END AS hold
FROM cards
WHERE app = $app AND job_number = $job_number AND pending
  AND work_date BETWEEN $week_ending - 6 AND $week_ending
ORDER BY work_date, timecard_id;

-- name: staged_lines
-- The staged batch's lines once the job's approvable cards are approved and imported: every
-- approved card of the week (the other jobs' as they are) plus the job's approvable pending ones,
-- summed per employee and job, at the payroll rate (the employee's, never below the determination
-- in force on the clock date on a prevailing-wage job: a registered apprentice's floor is the
-- journeyman rate x the apprentice percentage), with the payroll system's employee and job ids.
-- base_gross: the same hours at the employee's own rate (what ignoring the determination gives).
WITH clock AS (SELECT CAST(value AS DATE) AS clock FROM cfab_internal.meta WHERE key = 'clock'),
det AS (
    SELECT wd.*, row_number() OVER (PARTITION BY wd.job_number
                                    ORDER BY wd.effective_date DESC, wd.modification DESC, wd.determination_id) AS rn
    FROM book.wage_determinations wd
    JOIN book.jobs j ON j.job_number = wd.job_number AND j.is_prevailing_wage
    WHERE wd.effective_date <= (SELECT clock FROM clock)
),
wd AS (
    SELECT d.job_number, r.classification, r.base_rate, r.fringe_rate
    FROM det d JOIN book.wage_rates r ON r.determination_id = d.determination_id
    WHERE d.rn = 1
),
hrs AS (
    SELECT t.employee_id, t.job_number,
           CAST(sum(t.hours_regular) AS DECIMAL(9,2)) AS regular_hours,
           CAST(sum(t.hours_overtime) AS DECIMAL(9,2)) AS overtime_hours
    FROM book.timecards t
    JOIN book.employees e USING (employee_id)
    WHERE t.work_date BETWEEN $week_ending - 6 AND $week_ending
      AND (t.approved OR (t.job_number = $job_number AND t.source_system = $app
                          AND trim(t.cost_code) <> '' AND e.status = 'active'))
    GROUP BY ALL
),
rated AS (
    SELECT h.*, e.first_name || ' ' || e.last_name AS worker, e.base_rate, wd.base_rate AS wd_rate,
           CASE WHEN wd.base_rate IS NULL THEN CAST(e.base_rate AS DECIMAL(9,4))
                ELSE greatest(CAST(e.base_rate AS DECIMAL(9,4)), CAST(round(
                    CASE WHEN e.level = 'apprentice' AND nullif(e.apprentice_registration, '') IS NOT NULL
                              AND e.apprentice_pct IS NOT NULL
                         THEN wd.base_rate * e.apprentice_pct / 100 ELSE wd.base_rate END, 4) AS DECIMAL(9,4)))
           END AS rate
    FROM hrs h
    JOIN book.employees e USING (employee_id)
    JOIN book.jobs j USING (job_number)
    LEFT JOIN wd ON j.is_prevailing_wage AND wd.job_number = h.job_number AND wd.classification = e.classification
)
SELECT ei.system_employee_id AS employee_id, book.system_job_id($job_system, r.job_number) AS job_id,
       r.employee_id AS book_employee_id, r.job_number, r.worker, r.regular_hours, r.overtime_hours,
       r.rate, r.base_rate, r.wd_rate,
       CAST(round(r.regular_hours * r.rate + r.overtime_hours * r.rate * 1.5, 2) AS DECIMAL(18,2)) AS gross_pay,
       CAST(round(r.regular_hours * r.base_rate + r.overtime_hours * r.base_rate * 1.5, 2) AS DECIMAL(18,2))
           AS base_gross
FROM rated r
JOIN book.employee_identities ei ON ei.employee_id = r.employee_id AND ei.system = $payroll
ORDER BY r.job_number, ei.system_employee_id;

-- name: held_lines
-- What the held cards would add to the job (the lookalike totals): hours and gross at the payroll
-- rate of each held worker on the job.
SELECT CAST(coalesce(sum(t.hours_regular), 0) AS DECIMAL(9,2)) AS regular_hours,
       CAST(coalesce(sum(t.hours_overtime), 0) AS DECIMAL(9,2)) AS overtime_hours
FROM book.timecards t
JOIN book.employees e USING (employee_id)
WHERE t.work_date BETWEEN $week_ending - 6 AND $week_ending
  AND t.job_number = $job_number AND t.source_system = $app AND NOT t.approved
  AND (trim(t.cost_code) = '' OR e.status <> 'active');

-- name: employee_id
-- A book employee's id in one system.
SELECT system_employee_id FROM book.employee_identities WHERE employee_id = $employee_id AND system = $system;

-- name: policy_path
-- Where the governing policy lives in SharePoint.
SELECT '/Policies/' || policy_id AS path, title FROM book.policies WHERE policy_id = $policy_id;

-- name: terminated_on_job
-- The payroll system's ids of the workers no longer active with cards on the job in the week.
SELECT DISTINCT ei.system_employee_id
FROM book.timecards t
JOIN book.employees e USING (employee_id)
JOIN book.employee_identities ei ON ei.employee_id = t.employee_id AND ei.system = $payroll
WHERE e.status <> 'active' AND t.job_number = $job_number AND t.work_date BETWEEN $week_ending - 6 AND $week_ending
ORDER BY 1;

-- name: job
-- The job's name and how the payroll system spells its number.
SELECT name, book.system_job_id($job_system, job_number) AS pay_job_id FROM book.jobs WHERE job_number = $job_number;
