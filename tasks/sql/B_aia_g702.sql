-- B_aia_g702: owner pay application #2 (AIA G702/G703) drafted in GCPay.
--
-- Every expected value comes from the golden app tables an agent reads: the GCPay contract
-- (SOV, retainage terms) and its last certified application, and Procore's prime-contract SOV
-- with the PM's cumulative percent complete (work completed to date and materials presently
-- stored). Per the owner billing policy: D = previous D + E, E = work completed to date − D,
-- F = materials presently stored, G = D + E + F; retainage I = round(G × rate / 100, 2) with the
-- step-down rate on every line once the application's G reaches the step-down percentage of
-- the contract sum to date.

-- name: jobs
-- The family's jobs that carry a prime contract in GCPay with a certified application #1,
-- no application #2 yet, and the PM's progress in Procore.
SELECT c.job_number
FROM gcpay.contracts c
WHERE list_contains(string_split($jobs, ','), c.job_number)
  AND c.status = 'Active'
  AND EXISTS (SELECT 1 FROM gcpay.pay_applications p
              WHERE p.contract_id = c.contract_id AND p.application_number = 1 AND p.status <> 'Draft')
  AND NOT EXISTS (SELECT 1 FROM gcpay.pay_applications p
                  WHERE p.contract_id = c.contract_id AND p.application_number >= 2)
  AND EXISTS (SELECT 1 FROM procore.prime_contract_line_items li
              JOIN procore.prime_contracts pc ON pc.id = li.prime_contract_id
              JOIN procore.projects pr ON pr.id = pc.project_id
              WHERE pr.project_number = c.job_number)
ORDER BY c.job_number;

-- name: held_out_candidates
-- Further jobs with the same property, off the AIA anchor jobs ($jobs): an active GCPay prime
-- contract whose last application is certified (or paid) for a period before the clock, no
-- draft open, every SOV line carried in Procore with the PM's progress at the clock, no line's
-- progress going backwards, something to bill this period, and Procore agreeing with the book.
-- The application to draft is the one after the last certified one.
WITH c AS (
    SELECT c.contract_id, c.job_number, prev.pay_app_id AS prev_id, prev.period_to AS prev_period_to
    FROM gcpay.contracts c
    JOIN gcpay.pay_applications prev ON prev.contract_id = c.contract_id AND prev.status <> 'Draft'
    WHERE c.status = 'Active' AND NOT list_contains(string_split($jobs, ','), c.job_number)
    QUALIFY row_number() OVER (PARTITION BY c.contract_id ORDER BY prev.application_number DESC) = 1
), pm AS (
    SELECT pr.project_number AS job_number, li.item_number, li.work_completed, li.materials_presently_stored
    FROM procore.prime_contract_line_items li
    JOIN procore.prime_contracts pc ON pc.id = li.prime_contract_id
    JOIN procore.projects pr ON pr.id = pc.project_id
), lines AS (
    SELECT c.job_number, i.item_no, pm.item_number IS NOT NULL AS carried,
           pm.work_completed - coalesce(l.from_previous_application + l.this_period, 0) AS e,
           pm.materials_presently_stored AS f,
           pm.work_completed + pm.materials_presently_stored AS g
    FROM c
    JOIN gcpay.contract_items i ON i.contract_id = c.contract_id
    LEFT JOIN pm ON pm.job_number = c.job_number AND pm.item_number = i.item_number
    LEFT JOIN gcpay.pay_application_items l ON l.pay_app_id = c.prev_id AND l.item_no = i.item_no
)
SELECT c.job_number
FROM c JOIN lines USING (job_number)
WHERE c.prev_period_to < (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock')
  AND NOT EXISTS (SELECT 1 FROM gcpay.pay_applications p WHERE p.contract_id = c.contract_id AND p.status = 'Draft')
GROUP BY c.job_number
HAVING bool_and(lines.carried) AND min(lines.e) >= 0 AND min(lines.f) >= 0 AND sum(lines.e) > 0
   AND sum(lines.g) = (SELECT sum(p.work_completed + p.materials_stored) FROM book.sov_progress p
                       WHERE p.job_number = c.job_number
                         AND p.as_of = (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock'))
ORDER BY c.job_number;

-- name: open_draft
SELECT count(*) AS n
FROM gcpay.pay_applications p JOIN gcpay.contracts c ON c.contract_id = p.contract_id
WHERE c.job_number = $job AND p.status = 'Draft';

-- name: contract
SELECT c.contract_id, c.job_number, c.project_name, c.original_contract_sum, c.approved_change_orders,
       c.contract_sum_to_date, c.retainage_percent, c.retainage_step_down_percent,
       c.step_down_at_percent_complete,
       prev.pay_app_id AS previous_pay_app_id, prev.application_number AS previous_application_number,
       prev.period_to AS previous_period_to, prev.net_change_by_change_orders AS previous_net_change,
       prev.total_earned_less_retainage AS previous_earned
FROM gcpay.contracts c
JOIN gcpay.pay_applications prev ON prev.contract_id = c.contract_id
WHERE c.job_number = $job AND prev.status <> 'Draft'
QUALIFY row_number() OVER (ORDER BY prev.application_number DESC) = 1;

-- name: g703
-- One row per SOV line of the GCPay contract: the draft's G703 columns.
WITH c AS (
    SELECT c.contract_id, c.contract_sum_to_date, c.retainage_percent, c.retainage_step_down_percent,
           c.step_down_at_percent_complete, prev.pay_app_id AS prev_id
    FROM gcpay.contracts c
    JOIN gcpay.pay_applications prev ON prev.contract_id = c.contract_id
    WHERE c.job_number = $job AND prev.status <> 'Draft'
    QUALIFY row_number() OVER (ORDER BY prev.application_number DESC) = 1
), pm AS (
    SELECT li.item_number, li.work_completed, li.materials_presently_stored
    FROM procore.prime_contract_line_items li
    JOIN procore.prime_contracts pc ON pc.id = li.prime_contract_id
    JOIN procore.projects pr ON pr.id = pc.project_id
    WHERE pr.project_number = $job
), prev AS (
    SELECT l.item_no, l.from_previous_application + l.this_period AS d
    FROM gcpay.pay_application_items l JOIN c ON l.pay_app_id = c.prev_id
), lines AS (
    SELECT i.item_no, i.item_number, i.description, i.source, i.change_order_number, i.scheduled_value,
           CAST(coalesce(prev.d, 0) AS DECIMAL(18,2)) AS d,
           CAST(pm.work_completed - coalesce(prev.d, 0) AS DECIMAL(18,2)) AS e,
           CAST(pm.materials_presently_stored AS DECIMAL(18,2)) AS f,
           CAST(pm.work_completed + pm.materials_presently_stored AS DECIMAL(18,2)) AS g,
           prev.item_no IS NULL AS new_since_previous
    FROM gcpay.contract_items i
    JOIN c ON c.contract_id = i.contract_id
    JOIN pm ON pm.item_number = i.item_number
    LEFT JOIN prev ON prev.item_no = i.item_no
), rate AS (
    SELECT CASE WHEN c.retainage_step_down_percent IS NOT NULL
                 AND (SELECT sum(g) FROM lines) * 100 >= c.step_down_at_percent_complete * c.contract_sum_to_date
                THEN c.retainage_step_down_percent ELSE c.retainage_percent END AS pct,
           c.retainage_step_down_percent IS NOT NULL AS has_step_down,
           c.retainage_step_down_percent IS NOT NULL
             AND (SELECT sum(g) FROM lines) * 100 >= c.step_down_at_percent_complete * c.contract_sum_to_date
             AS stepped_down
    FROM c
)
SELECT lines.*, rate.pct AS retainage_pct, rate.has_step_down, rate.stepped_down,
       CAST(round(lines.g * rate.pct * 0.01, 2) AS DECIMAL(18,2)) AS i
FROM lines CROSS JOIN rate
ORDER BY lines.item_no;

-- name: g702
-- The draft's G702 lines 1-9, derived from the G703 lines exactly as GCPay derives them.
WITH c AS (
    SELECT c.contract_id, c.original_contract_sum, c.approved_change_orders, c.contract_sum_to_date,
           c.retainage_percent, c.retainage_step_down_percent, c.step_down_at_percent_complete,
           prev.pay_app_id AS prev_id, prev.total_earned_less_retainage AS prev_earned
    FROM gcpay.contracts c
    JOIN gcpay.pay_applications prev ON prev.contract_id = c.contract_id
    WHERE c.job_number = $job AND prev.status <> 'Draft'
    QUALIFY row_number() OVER (ORDER BY prev.application_number DESC) = 1
), pm AS (
    SELECT li.item_number, li.work_completed, li.materials_presently_stored
    FROM procore.prime_contract_line_items li
    JOIN procore.prime_contracts pc ON pc.id = li.prime_contract_id
    JOIN procore.projects pr ON pr.id = pc.project_id
    WHERE pr.project_number = $job
), lines AS (
    SELECT CAST(pm.work_completed + pm.materials_presently_stored AS DECIMAL(18,2)) AS g
    FROM gcpay.contract_items i
    JOIN c ON c.contract_id = i.contract_id
    JOIN pm ON pm.item_number = i.item_number
), rate AS (
    SELECT CASE WHEN c.retainage_step_down_percent IS NOT NULL
                 AND (SELECT sum(g) FROM lines) * 100 >= c.step_down_at_percent_complete * c.contract_sum_to_date
                THEN c.retainage_step_down_percent ELSE c.retainage_percent END AS pct
    FROM c
), t AS (
    SELECT sum(lines.g) AS completed, sum(CAST(round(lines.g * rate.pct * 0.01, 2) AS DECIMAL(18,2))) AS retainage
    FROM lines CROSS JOIN rate
)
SELECT c.original_contract_sum, c.approved_change_orders AS net_change_by_change_orders,
       c.original_contract_sum + c.approved_change_orders AS contract_sum_to_date,
       CAST(t.completed AS DECIMAL(18,2)) AS total_completed_stored,
       CAST(t.retainage AS DECIMAL(18,2)) AS retainage,
       CAST(t.completed - t.retainage AS DECIMAL(18,2)) AS total_earned_less_retainage,
       c.prev_earned AS less_previous_certificates,
       CAST(t.completed - t.retainage - c.prev_earned AS DECIMAL(18,2)) AS current_payment_due,
       CAST(c.original_contract_sum + c.approved_change_orders - (t.completed - t.retainage) AS DECIMAL(18,2))
           AS balance_to_finish,
       rate.pct AS retainage_pct
FROM c CROSS JOIN t CROSS JOIN rate;

-- name: book_check
-- The hidden book's view of the same application (the PM's progress at the clock), to
-- cross-check the app tables: work completed + stored at the clock per SOV line.
SELECT sum(p.work_completed + p.materials_stored) AS completed_stored
FROM book.sov_progress p
WHERE p.job_number = $job AND p.as_of = (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock');

-- name: previous_stored
-- Materials presently stored per SOV line on the last certified application (a careless
-- continuation sheet treats them as billed work: E = G now − G before).
WITH c AS (
    SELECT prev.pay_app_id AS prev_id
    FROM gcpay.contracts c
    JOIN gcpay.pay_applications prev ON prev.contract_id = c.contract_id
    WHERE c.job_number = $job AND prev.status <> 'Draft'
    QUALIFY row_number() OVER (ORDER BY prev.application_number DESC) = 1
)
SELECT l.item_no, CAST(l.materials_presently_stored AS DECIMAL(18,2)) AS f
FROM gcpay.pay_application_items l JOIN c ON l.pay_app_id = c.prev_id
ORDER BY l.item_no;
