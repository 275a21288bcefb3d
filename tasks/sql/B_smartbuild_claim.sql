-- B_smartbuild_claim: the next progress claim to the client in SmarteBuild, drafted from the claim
-- schedule's site progress. Per item: value to date = contract value × work % complete (to the
-- cent) + materials on site; this claim = value to date − the previous claim's value to date.
-- Retention = the contract's retention % of the value to date, or the step-down % once the value
-- to date reaches the step-down point of the contract sum (owner_billing_policy §2); amount due =
-- value to date − retention − (previous value to date − previous retention).

-- name: claim_lines
SELECT s.item_no, s.item_code, s.description, s.cost_code, s.contract_value, s.pct_complete, s.materials_on_site,
       round(s.contract_value * s.pct_complete * 0.01, 2) + s.materials_on_site AS value_to_date,
       coalesce(pl.value_to_date, 0) AS previous_value,
       round(s.contract_value * s.pct_complete * 0.01, 2) + s.materials_on_site - coalesce(pl.value_to_date, 0)
           AS this_claim
FROM smartbuild.claim_schedule s
JOIN smartbuild.jobs j ON j.job_id = s.job_id
LEFT JOIN (SELECT * FROM smartbuild.progress_claims WHERE job_id = (SELECT job_id FROM smartbuild.jobs WHERE job_no = $job)
           QUALIFY row_number() OVER (ORDER BY claim_no DESC) = 1) prev ON prev.job_id = s.job_id
LEFT JOIN smartbuild.progress_claim_lines pl ON pl.claim_id = prev.claim_id AND pl.item_no = s.item_no
WHERE j.job_no = $job
ORDER BY s.item_no;

-- name: claim_header
WITH prev AS (
    SELECT c.* FROM smartbuild.progress_claims c JOIN smartbuild.jobs j ON j.job_id = c.job_id
    WHERE j.job_no = $job
    QUALIFY row_number() OVER (ORDER BY c.claim_no DESC) = 1
), lines AS (
    SELECT sum(s.contract_value) AS contract_sum,
           sum(round(s.contract_value * s.pct_complete * 0.01, 2) + s.materials_on_site) AS to_date
    FROM smartbuild.claim_schedule s JOIN smartbuild.jobs j ON j.job_id = s.job_id
    WHERE j.job_no = $job
), pct AS (
    SELECT j.*, l.contract_sum, l.to_date,
           CASE WHEN j.step_down_at_pct IS NOT NULL AND j.retention_step_down_pct IS NOT NULL
                     AND l.contract_sum > 0 AND l.to_date * 100 >= j.step_down_at_pct * l.contract_sum
                THEN j.retention_step_down_pct ELSE j.retention_pct END AS ret_pct,
           j.step_down_at_pct IS NOT NULL AND j.retention_step_down_pct IS NOT NULL
                AND l.contract_sum > 0 AND l.to_date * 100 >= j.step_down_at_pct * l.contract_sum AS stepped_down
    FROM smartbuild.jobs j, lines l WHERE j.job_no = $job
)
SELECT p.job_id, p.job_no, p.job_name, p.client_name, p.retention_pct, p.retention_step_down_pct, p.step_down_at_pct,
       p.contract_sum, p.to_date AS value_completed_to_date, p.ret_pct, p.stepped_down,
       round(p.to_date * p.ret_pct * 0.01, 2) AS retention_to_date,
       coalesce(prev.value_completed_to_date - prev.retention_to_date, 0) AS less_previous_claims,
       p.to_date - coalesce(prev.value_completed_to_date, 0) AS this_claim,
       p.to_date - round(p.to_date * p.ret_pct * 0.01, 2)
           - coalesce(prev.value_completed_to_date - prev.retention_to_date, 0) AS amount_due,
       prev.claim_id AS previous_claim_id, prev.claim_no AS previous_claim_no, prev.period_end AS previous_period_end,
       prev.status AS previous_status, prev.retention_to_date AS previous_retention,
       prev.value_completed_to_date AS previous_to_date, prev.contract_sum AS previous_contract_sum,
       coalesce(prev.claim_no, 0) + 1 AS claim_no,
       (SELECT count(*) FROM smartbuild.progress_claims c WHERE c.job_id = p.job_id AND c.status = 'Draft') AS drafts
FROM pct p LEFT JOIN prev ON true;

-- name: jobs_with_schedule
SELECT DISTINCT j.job_no FROM smartbuild.jobs j JOIN smartbuild.claim_schedule s ON s.job_id = j.job_id
WHERE j.status = 'Construction' ORDER BY j.job_no;
