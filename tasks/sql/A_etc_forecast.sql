-- A_etc_forecast: the PM's forecast-to-complete (Procore) summed over the budget lines the ERP
-- carries, written to Vista's job estimate to complete as a pending projection.

-- name: keys
-- The jobs whose Procore forecast the ERP has not received (planted by the book generator on
-- the family's anchor jobs, $jobs).
SELECT entity_key AS job_number
FROM book.divergences
WHERE family = 'A_etc_forecast' AND kind = 'pm_forecast_vs_erp_estimate'
  AND list_contains(string_split($jobs, ','), entity_key)
ORDER BY entity_key;

-- name: held_out_candidates
-- The further jobs with the same plant (the book's held-out stale estimates, off the anchor
-- jobs $jobs) that the task can be built on: the job is in Procore and Vista (hh2 job map), the
-- ERP's estimate differs from the PM forecast over the ERP-carried lines, and Vista has another
-- job to be the lookalike.
SELECT d.entity_key AS job_number
FROM book.divergences d
JOIN hh2.job_map vj ON vj.master_job_number = d.entity_key AND vj.system = 'vista_erp'
JOIN hh2.job_map pj ON pj.master_job_number = d.entity_key AND pj.system = 'procore'
JOIN vista_erp."JCJM" jm ON jm."Job" = vj.system_job_id
WHERE d.family = 'A_etc_forecast' AND d.kind = 'pm_forecast_vs_erp_estimate'
  AND NOT list_contains(string_split($jobs, ','), d.entity_key)
  AND jm."EstCostToComplete" IS DISTINCT FROM (SELECT sum(b.pm_forecast_to_complete) FROM book.budget_lines b
                                               WHERE b.job_number = d.entity_key AND b.include_in_erp)
  AND EXISTS (SELECT 1 FROM vista_erp."JCJM" o WHERE o."JCCo" = jm."JCCo" AND o."Job" <> jm."Job")
ORDER BY d.entity_key;

-- name: job
-- One job: its ids in Procore and Vista (through the hh2 job map), the ERP's stale estimate and
-- the PM forecast summed over the ERP-carried lines (the book's include_in_erp flag), plus the
-- PM-only lines the sum leaves out.
SELECT j.job_number, j.name, j.project_manager,
       vj.system_job_id AS vista_job, pj.system_job_id AS procore_project_id,
       jm."JCCo" AS jcco, jm."EstCostToComplete" AS erp_estimate, jm."ProjStatus" AS erp_status,
       (SELECT sum(b.pm_forecast_to_complete) FROM book.budget_lines b
         WHERE b.job_number = j.job_number AND b.include_in_erp) AS forecast,
       (SELECT sum(b.pm_forecast_to_complete) FROM book.budget_lines b
         WHERE b.job_number = j.job_number) AS forecast_all_lines,
       (SELECT count(*) FROM book.budget_lines b
         WHERE b.job_number = j.job_number AND b.include_in_erp) AS erp_lines,
       (SELECT count(*) FROM book.budget_lines b
         WHERE b.job_number = j.job_number AND NOT b.include_in_erp) AS pm_only_lines,
       (SELECT string_agg(b.cost_code, ', ' ORDER BY b.cost_code) FROM book.budget_lines b
         WHERE b.job_number = j.job_number AND NOT b.include_in_erp) AS pm_only_codes,
       (SELECT coalesce(sum(b.pm_forecast_to_complete), 0) FROM book.budget_lines b
         WHERE b.job_number = j.job_number AND NOT b.include_in_erp) AS pm_only_forecast
FROM book.jobs j
JOIN hh2.job_map vj ON vj.master_job_number = j.job_number AND vj.system = 'vista_erp'
JOIN hh2.job_map pj ON pj.master_job_number = j.job_number AND pj.system = 'procore'
JOIN vista_erp."JCJM" jm ON jm."Job" = vj.system_job_id
WHERE j.job_number = $job;

-- name: procore_forecast
-- The same sum as Procore shows it: forecast_to_complete over the budget lines flagged erp_line.
SELECT sum(b.forecast_to_complete) FILTER (WHERE b.erp_line) AS forecast,
       count(*) FILTER (WHERE NOT b.erp_line) AS pm_only_lines
FROM procore.budget_line_items b
JOIN procore.projects p ON p.id = b.project_id
WHERE p.project_number = $job;

-- name: shared_phases
-- ERP phases / cost types that two or more of the job's ERP-carried cost codes roll up into
-- (the hh2 cost-code map is deliberately not one-to-one).
SELECT c.erp_phase, c.erp_cost_type, string_agg(b.cost_code, ', ' ORDER BY b.cost_code) AS cost_codes,
       sum(b.pm_forecast_to_complete) AS forecast
FROM book.budget_lines b
JOIN hh2.cost_code_map c ON c.cost_code = b.cost_code AND c.erp_system = 'vista_erp'
WHERE b.job_number = $job AND b.include_in_erp
GROUP BY c.erp_phase, c.erp_cost_type
HAVING count(*) > 1
ORDER BY c.erp_phase, c.erp_cost_type;

-- name: one_code_per_phase
-- The careless figure the phase rollup is there to catch: walking the ERP's phases and taking one
-- PM cost code's forecast per phase / cost type (the first), instead of every code that rolls up.
SELECT sum(f) AS forecast
FROM (SELECT c.erp_phase, c.erp_cost_type, arg_min(b.pm_forecast_to_complete, b.cost_code) AS f
      FROM book.budget_lines b
      JOIN hh2.cost_code_map c ON c.cost_code = b.cost_code AND c.erp_system = 'vista_erp'
      WHERE b.job_number = $job AND b.include_in_erp
      GROUP BY c.erp_phase, c.erp_cost_type);

-- name: neighbour
-- The neighbouring Vista job (the next job id after this one, else the one before): where a
-- careless agent writes the estimate instead.
SELECT "Job" AS vista_job, "EstCostToComplete" AS erp_estimate
FROM vista_erp."JCJM"
WHERE "JCCo" = $jcco AND "Job" <> $vista_job
ORDER BY ("Job" < $vista_job), CASE WHEN "Job" > $vista_job THEN "Job" END, "Job" DESC
LIMIT 1;
