-- A_smartbuild_reestimate: record an estimator's re-measure of one BOQ item in SmarteBuild as a
-- re-estimate at the estimated rate (the priced estimate is kept), and report the cost code's new
-- current total.
--
-- The re-measured quantity given in the instruction is the quantity the PM's forecast final cost
-- for the cost code (SmarteBuild cost centre: actual to date + forecast to complete) implies at the
-- estimate's rate once the cost code's lump-sum items are set aside, to whole units: the figure the
-- site re-measure came back with.

-- name: candidates
-- Cost codes of a job's accepted estimate with exactly one measured (non lump-sum) BOQ item, cost
-- already posted, no approved budget changes, a re-measure within 5-25 % of the estimate, mapped
-- to a Vista phase and cost type that no other cost code of the job shares; with how that Vista
-- phase is split across cost types.
WITH est AS (
    SELECT e.estimate_id, e.job_id, j.job_no FROM smartbuild.estimates e JOIN smartbuild.jobs j ON j.job_id = e.job_id
    WHERE e.status = 'Accepted' AND j.job_no = $job
), items AS (
    SELECT est.job_id, est.job_no, b.* FROM smartbuild.boq_items b JOIN est USING (estimate_id)
), codes AS (
    SELECT job_id, job_no, estimate_id, cost_code, count(*) AS n_items,
           count(*) FILTER (WHERE unit <> 'LS') AS measured, count(*) FILTER (WHERE unit = 'LS') AS lump_sum,
           sum(cost_total) AS code_total,
           sum(cost_total) FILTER (WHERE unit = 'LS') AS lump_sum_total
    FROM items GROUP BY ALL
), m AS (
    SELECT cost_code, erp_phase, erp_cost_type FROM hh2.cost_code_map WHERE erp_system = 'vista_erp'
), vj AS (
    SELECT system_job_id FROM hh2.job_map WHERE system = 'vista_erp' AND master_job_number = $job
)
SELECT c.job_id, c.job_no, c.estimate_id, c.cost_code, c.n_items, c.lump_sum, c.code_total,
       coalesce(c.lump_sum_total, 0) AS lump_sum_total,
       i.item_no, i.description, i.unit, i.quantity, i.rate, i.cost_total,
       cc.forecast_final_cost, cc.actual_to_date, cc.forecast_to_complete, cc.variations,
       round((cc.forecast_final_cost - coalesce(c.lump_sum_total, 0)) / i.rate) AS remeasured_quantity,
       m.erp_phase, m.erp_cost_type, (SELECT system_job_id FROM vj) AS vista_job,
       (SELECT count(*) FROM codes o JOIN m mo ON mo.cost_code = o.cost_code
         WHERE mo.erp_phase = m.erp_phase AND mo.erp_cost_type = m.erp_cost_type) AS codes_on_phase_type,
       (SELECT count(DISTINCT h."CostType") FROM vista_erp."JCCH" h
         WHERE h."Job" = (SELECT system_job_id FROM vj) AND h."Phase" = m.erp_phase) AS cost_types_on_phase,
       (SELECT coalesce(sum(d."ActualCost"), 0) FROM vista_erp."JCCD" d
         WHERE d."Job" = (SELECT system_job_id FROM vj) AND d."Phase" = m.erp_phase
           AND d."CostType" = m.erp_cost_type) AS vista_actual,
       (SELECT h."EstCostToComplete" FROM vista_erp."JCCH" h
         WHERE h."Job" = (SELECT system_job_id FROM vj) AND h."Phase" = m.erp_phase
           AND h."CostType" = m.erp_cost_type) AS vista_etc,
       (SELECT h."JCCo" FROM vista_erp."JCCH" h
         WHERE h."Job" = (SELECT system_job_id FROM vj) AND h."Phase" = m.erp_phase
           AND h."CostType" = m.erp_cost_type) AS jcco
FROM codes c
JOIN items i ON i.estimate_id = c.estimate_id AND i.cost_code = c.cost_code AND i.unit <> 'LS'
JOIN smartbuild.cost_centres cc ON cc.job_id = c.job_id AND cc.cost_code = c.cost_code
JOIN m ON m.cost_code = c.cost_code
WHERE c.measured = 1 AND cc.actual_to_date > 0 AND cc.variations = 0
ORDER BY c.cost_code;
