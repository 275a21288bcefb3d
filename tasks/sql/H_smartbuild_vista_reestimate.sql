-- H_smartbuild_vista_reestimate: an estimator's re-measure recorded as a SmarteBuild re-estimate,
-- then reconciled into Vista: the estimate to complete of the Vista phase and cost type the cost
-- code maps to (hh2) becomes the cost code's re-estimated current total less the cost already
-- posted there (never below zero), left pending. The candidate cost codes and the re-measure come
-- from tasks/sql/A_smartbuild_reestimate.sql.

-- name: vista_phase
-- The Vista budget rows of the mapped phase (all cost types), to show the split the agent must respect.
SELECT h."JCCo" AS jcco, h."Job" AS job, h."Phase" AS phase, h."CostType" AS cost_type, h."Description" AS description,
       h."CurrEstCost" AS revised_budget, h."EstCostToComplete" AS etc, h."ProjStatus" AS status
FROM vista_erp."JCCH" h
WHERE h."Job" = $job AND h."Phase" = $phase
ORDER BY h."CostType";
