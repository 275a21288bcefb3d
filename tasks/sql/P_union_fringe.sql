-- P_union_fringe: a union local's monthly fringe-benefit remittance, computed from the payroll detail
-- under the collective agreements (book.union_agreements, union_jurisdictions, union_transfers: the
-- policy's schedules, planted by seeds/union_fringe.py) and staged in the payroll system.
-- The work month is the last closed month; its pay weeks are the released batches ending in it.

-- name: work_month
-- The first day of the work month (the month before the clock's) and its last day.
SELECT CAST(date_trunc('month', CAST(value AS DATE)) - INTERVAL 1 MONTH AS DATE) AS month_start,
       CAST(date_trunc('month', CAST(value AS DATE)) - INTERVAL 1 DAY AS DATE) AS month_end
FROM cfab_internal.meta
WHERE key = 'clock';

-- name: batches
-- The work month's pay batches (released, period ending in the month).
SELECT batch_id, period_end
FROM book.payroll_batches
WHERE status = 'released' AND period_end BETWEEN $month_start AND $month_end
ORDER BY period_end;

-- name: lines
-- Every earnings line of the month's pay weeks of a union member: the local the employee belonged to
-- that week (a transfer card moves the weeks ending on or after its effective date), the local the
-- employee master shows now, the level, the job's county and whether the member's local covers it,
-- and the agreement's rate for the level.
SELECT pe.batch_id, b.period_end, pe.employee_id, e.first_name || ' ' || e.last_name AS worker, e.level,
       pe.job_number, j.county,
       CASE WHEN t.employee_id IS NOT NULL AND b.period_end < t.effective_date THEN t.from_local
            ELSE e.union_local END AS member_local,
       e.union_local AS current_local,
       pe.hours_regular AS regular_hours, pe.hours_overtime AS overtime_hours,
       pe.hours_regular + pe.hours_overtime AS hours
FROM book.payroll_earnings pe
JOIN book.payroll_batches b ON b.batch_id = pe.batch_id
JOIN book.employees e ON e.employee_id = pe.employee_id
JOIN book.jobs j ON j.job_number = pe.job_number
LEFT JOIN book.union_transfers t ON t.employee_id = e.employee_id
WHERE b.status = 'released' AND b.period_end BETWEEN $month_start AND $month_end AND e.union_local IS NOT NULL
ORDER BY b.period_end, pe.employee_id, pe.job_number;

-- name: agreements
-- Each local's agreement: rates per level and its jurisdiction (counties).
SELECT a.local_code, u.union_name, a.journeyman_rate, a.apprentice_rate,
       list(uj.county ORDER BY uj.county) AS counties
FROM book.union_agreements a
JOIN book.union_locals u USING (local_code)
JOIN book.union_jurisdictions uj USING (local_code)
GROUP BY ALL
ORDER BY a.local_code;

-- name: transfers
-- The transfer cards on file.
SELECT t.employee_id, e.first_name || ' ' || e.last_name AS worker, t.from_local, t.to_local, t.effective_date
FROM book.union_transfers t
JOIN book.employees e USING (employee_id)
ORDER BY t.effective_date, t.employee_id;

-- name: policy_path
-- Where the remittance policy is readable (SharePoint).
SELECT folder || '/' || filename AS path
FROM book.documents
WHERE doc_type = 'policy' AND store = 'sharepoint' AND filename = $policy_id;
