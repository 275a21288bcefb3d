-- H_ingenious_vista_etc: the owner's estimate-to-complete forecast in INGENIOUS.BUILD, summed over
-- the budget lines the contractor's ERP carries (accounting_integrated; owner-only lines such as
-- contingency excluded), written to Vista's job estimated cost to complete as a pending projection.

-- name: keys
-- Jobs whose ERP estimate is stale against the PM forecast (planted), that the owner funds through
-- INGENIOUS.BUILD, with owner-only budget lines first.
SELECT d.entity_key AS job_number,
       (SELECT count(*) FROM ingenious_build.budget_lines b JOIN ingenious_build.projects p USING (project_id)
         WHERE p.project_code = d.entity_key AND NOT b.accounting_integrated) AS owner_only_lines
FROM book.divergences d
WHERE d.kind = 'pm_forecast_vs_erp_estimate' AND d.entity = 'job'
  AND EXISTS (SELECT 1 FROM ingenious_build.funding_sources f JOIN ingenious_build.projects p USING (project_id)
              WHERE p.project_code = d.entity_key)
ORDER BY owner_only_lines DESC, d.entity_key;

-- name: job
SELECT p.project_id, p.project_code AS job_number, p.name,
       sum(b.forecast_to_complete) FILTER (WHERE b.accounting_integrated) AS forecast,
       sum(b.forecast_to_complete) AS forecast_all_lines,
       count(*) FILTER (WHERE NOT b.accounting_integrated) AS owner_only_lines,
       string_agg(b.cost_code, ', ' ORDER BY b.cost_code) FILTER (WHERE NOT b.accounting_integrated) AS owner_only_codes,
       coalesce(sum(b.forecast_to_complete) FILTER (WHERE NOT b.accounting_integrated), 0) AS owner_only_forecast,
       count(*) FILTER (WHERE b.accounting_integrated) AS erp_lines,
       vj.system_job_id AS vista_job, jm."JCCo" AS jcco, jm."EstCostToComplete" AS erp_estimate,
       (SELECT sum(bl.pm_forecast_to_complete) FROM book.budget_lines bl
         WHERE bl.job_number = p.project_code AND bl.include_in_erp) AS book_forecast
FROM ingenious_build.projects p
JOIN ingenious_build.budget_lines b ON b.project_id = p.project_id
JOIN hh2.job_map vj ON vj.master_job_number = p.project_code AND vj.system = 'vista_erp'
JOIN vista_erp."JCJM" jm ON jm."Job" = vj.system_job_id
WHERE p.project_code = $job
GROUP BY ALL;
