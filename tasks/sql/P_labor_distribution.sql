-- P_labor_distribution: tie a month's payroll labor (gross wages by job, the pay batches with check
-- dates in the month) to the ERP's direct labor (5100 by job) for those batches, under the labor
-- distribution policy (seeds/labor_distribution.py plants the differences and the policy).

-- name: plants
-- The planted months: every registered difference of the family with the month it belongs to
-- (the job kinds carry 'YYYY-MM:<batch>' in their id; a late distribution is keyed by its journal,
-- whose source is the batch).
SELECT d.kind, d.entity_key,
       coalesce(strftime(b.check_date, '%Y-%m'), split_part(d.divergence_id, ':', 3)) AS month
FROM book.divergences d
LEFT JOIN book.journal_entries e ON d.kind = 'labor_distribution_late' AND e.je_number = d.entity_key
LEFT JOIN book.payroll_batches b ON b.batch_id = e.source_ref
WHERE d.family = 'P_labor_distribution'
ORDER BY month DESC, d.kind, d.entity_key;

-- name: batches
-- The month's released pay batches ($month 'YYYY-MM'), by check date.
SELECT batch_id, period_end, check_date
FROM book.payroll_batches
WHERE status = 'released' AND strftime(check_date, '%Y-%m') = $month
ORDER BY check_date;

-- name: earnings
-- The month's earnings lines: the job as payroll codes it, whether that job was closed (completed
-- before the pay week began), hours and gross wages.
SELECT pe.batch_id, pe.employee_id, e.first_name || ' ' || e.last_name AS worker, pe.job_number,
       j.status = 'closed' AND j.est_completion_date < b.period_start AS closed_job,
       pe.hours_regular + pe.hours_overtime AS hours, pe.gross_pay
FROM book.payroll_earnings pe
JOIN book.payroll_batches b ON b.batch_id = pe.batch_id
JOIN book.employees e ON e.employee_id = pe.employee_id
JOIN book.jobs j ON j.job_number = pe.job_number
WHERE b.status = 'released' AND strftime(b.check_date, '%Y-%m') = $month
ORDER BY pe.batch_id, pe.employee_id, pe.job_number;

-- name: erp_labor
-- The ERP's labor for the month's batches, wherever it posted: per job, 5100 on the batches'
-- payroll journals (and a late labor distribution journal), 5200 posted on those journals, and the
-- naive reading: 5100 on every payroll journal dated in the month.
WITH batches AS (
    SELECT batch_id FROM book.payroll_batches
    WHERE status = 'released' AND strftime(check_date, '%Y-%m') = $month
),
lines AS (
    SELECT l.job_number, l.account, l.debit - l.credit AS amount,
           e.source_ref IN (SELECT batch_id FROM batches) AS of_month,
           e.period = $month AS in_period
    FROM book.journal_entries e
    JOIN book.journal_lines l ON l.je_id = e.je_id
    WHERE e.journal = 'PR' AND l.job_number IS NOT NULL AND l.account IN ('5100', '5200')
)
SELECT job_number,
       coalesce(sum(amount) FILTER (WHERE account = '5100' AND of_month), 0) AS labor,
       coalesce(sum(amount) FILTER (WHERE account = '5200' AND of_month), 0) AS subcontract,
       coalesce(sum(amount) FILTER (WHERE account = '5100' AND in_period), 0) AS labor_in_period
FROM lines
GROUP BY job_number
ORDER BY job_number;

-- name: job_ids
-- Each job's id in the ERP and in the payroll system (the hh2 crosswalk's spellings).
SELECT j.job_number, book.system_job_id($erp, j.job_number) AS erp_job,
       book.system_job_id($payroll_jobs, j.job_number) AS payroll_job
FROM book.jobs j
ORDER BY j.job_number;

-- name: late_journal
-- A late labor distribution journal: its batch and period.
SELECT e.je_number, e.source_ref AS batch, e.period
FROM book.journal_entries e
WHERE e.je_number = $je_number;

-- name: policy_path
SELECT folder || '/' || filename AS path
FROM book.documents
WHERE doc_type = 'policy' AND store = 'sharepoint' AND filename = $policy_id;
