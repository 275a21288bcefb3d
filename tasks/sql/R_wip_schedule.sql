-- R_wip_schedule: the month-end work-in-progress schedule of one project manager's portfolio.
--
-- Per the WIP schedule policy (SharePoint /Policies/wip_schedule_policy.md), per job: contract
-- value = original + approved owner change orders (pending ones excluded); cost to date = the
-- ERP's posted job cost (job-cost accounts, on a phase) through the month end; estimated cost to
-- complete = the ERP job master's current estimate; estimated total cost = their sum; earned
-- revenue = contract x cost / total, to the cent (a loss job: cost to date - the whole loss);
-- billed to date = revenue account 4000 on the job through the month end; over/(under) = billed
-- - earned. The family computes the columns (Decimal) from the rows below.

-- name: portfolios
-- Active jobs by project manager, PMs with three to six of them, in name order, with each
-- portfolio's planted twists.
WITH j AS (
    SELECT project_manager AS pm, job_number FROM book.jobs WHERE status = 'active'
)
SELECT pm, count(*) AS jobs,
       count(*) FILTER (WHERE EXISTS (
           SELECT 1 FROM book.change_orders co WHERE co.job_number = j.job_number AND co.co_type = 'owner'
             AND co.increases_contract AND co.status = 'pending')) AS pending_cos,
       count(*) FILTER (WHERE EXISTS (
           SELECT 1 FROM book.divergences d WHERE d.kind = 'wip_estimate_raised' AND d.entity_key = j.job_number))
           AS raised
FROM j
GROUP BY pm
HAVING count(*) BETWEEN 3 AND 6
ORDER BY pm;

-- name: jobs
-- The portfolio's jobs ($pm) at the month end ($as_of): the inputs of every column, and of the
-- careless readings (pending COs, the PM's Procore forecast the seeded workbook carries).
WITH cos AS (
    SELECT job_number,
           coalesce(sum(amount) FILTER (WHERE status = 'approved'), 0) AS approved_cos,
           coalesce(sum(amount) FILTER (WHERE status = 'pending'), 0) AS pending_cos
    FROM book.change_orders
    WHERE co_type = 'owner' AND increases_contract
    GROUP BY job_number),
cost AS (
    SELECT jl.job_number, sum(jl.debit - jl.credit) AS cost_to_date
    FROM book.journal_lines jl
    JOIN book.journal_entries je ON je.je_id = jl.je_id
    JOIN book.gl_accounts a ON a.account = jl.account
    WHERE a.is_job_cost AND jl.job_number IS NOT NULL AND je.entry_date <= $as_of
      AND EXISTS (SELECT 1 FROM book.erp_phase_map m WHERE m.cost_code = jl.cost_code)
    GROUP BY jl.job_number),
billed AS (
    SELECT jl.job_number, sum(jl.credit - jl.debit) AS billed_to_date
    FROM book.journal_lines jl
    JOIN book.journal_entries je ON je.je_id = jl.je_id
    WHERE jl.account = '4000' AND jl.job_number IS NOT NULL AND je.entry_date <= $as_of
    GROUP BY jl.job_number),
pm AS (
    SELECT job_number, sum(pm_forecast_to_complete) AS pm_forecast_all,
           sum(pm_forecast_to_complete) FILTER (WHERE include_in_erp) AS pm_forecast_erp
    FROM book.budget_lines GROUP BY job_number)
SELECT j.job_number, j.name,
       pc.original_amount + coalesce(cos.approved_cos, 0) AS contract_value,
       coalesce(cos.pending_cos, 0) AS pending_cos,
       coalesce(cost.cost_to_date, 0) AS cost_to_date,
       j.erp_est_cost_to_complete AS cost_to_complete,
       coalesce(pm.pm_forecast_all, 0) AS pm_forecast_all,
       coalesce(pm.pm_forecast_erp, 0) AS pm_forecast_erp,
       coalesce(billed.billed_to_date, 0) AS billed_to_date,
       -- the ERP's number of the job's pending change order (after its approved ones)
       lpad(CAST(1 + (SELECT count(*) FROM book.change_orders c2 WHERE c2.job_number = j.job_number
                     AND c2.co_type IN ('owner', 'internal') AND c2.status = 'approved') AS VARCHAR), 3, '0')
           AS pending_co_number,
       EXISTS (SELECT 1 FROM book.divergences d
               WHERE d.kind = 'wip_estimate_raised' AND d.entity_key = j.job_number) AS raised
FROM book.jobs j
JOIN book.prime_contracts pc ON pc.job_number = j.job_number
LEFT JOIN cos ON cos.job_number = j.job_number
LEFT JOIN cost ON cost.job_number = j.job_number
LEFT JOIN billed ON billed.job_number = j.job_number
LEFT JOIN pm ON pm.job_number = j.job_number
WHERE j.status = 'active' AND j.project_manager = $pm
ORDER BY j.job_number;

-- name: erp_job
SELECT book.system_job_id($erp, $job) AS erp_job;
