-- P_certified_payroll: WH-347 review against the wage determination and the apprentice rules.
-- Everything is read from LCPtracker's own tables in the golden file (what the agent sees), and
-- the planted exceptions are read back from the book's divergence registry for the defect variant.

-- name: cert_week
-- The week the certified payrolls under review end (the paper's 2026-01-24): the latest draft WH-347 week.
SELECT max(week_ending) AS week_ending
FROM book.certified_payrolls
WHERE status = 'draft';

-- name: cert_jobs
-- Jobs with a draft WH-347 for the week.
SELECT job_number
FROM book.certified_payrolls
WHERE week_ending = $week_ending AND status = 'draft'
ORDER BY job_number;

-- name: payroll
-- The WH-347 under review with its wage decision and line count, as LCPtracker holds it.
SELECT p.payroll_id, p.project_id, p.payroll_number, p.week_ending, p.status, p.decision_id,
       d.wd_number, d.modification, pr.project_name,
       (SELECT count(*) FROM lcptracker.payroll_lines l WHERE l.payroll_id = p.payroll_id) AS line_count
FROM lcptracker.payrolls p
JOIN lcptracker.wage_decisions d USING (decision_id)
JOIN lcptracker.projects pr ON pr.project_id = p.project_id
WHERE p.project_id = $project_id AND p.week_ending = $week_ending;

-- name: line_checks
-- Every line of one WH-347 judged by the certified payroll policy, one code per violating line in
-- the policy's order: unregistered apprentice, apprentice over ratio (on any day, per trade,
-- foremen counting as journeymen: apprentices > floor(journeymen / ratio) flags every apprentice
-- of that trade working that day), rate below the determination's base (a registered apprentice:
-- base x the apprentice's percentage), fringe below the determination's fringe. code is NULL on a
-- compliant line.
WITH pay AS (
    SELECT payroll_id, decision_id FROM lcptracker.payrolls WHERE payroll_id = $payroll_id
),
ln AS (
    SELECT l.*, e.trade, e.apprentice_percent,
           r.base_rate AS wd_base, r.fringe_rate AS wd_fringe,
           l.level = 'Apprentice' AND nullif(trim(coalesce(l.apprentice_registration, '')), '') IS NULL AS unregistered
    FROM lcptracker.payroll_lines l
    JOIN pay USING (payroll_id)
    JOIN lcptracker.employees e USING (employee_id)
    LEFT JOIN lcptracker.wage_decision_rates r ON r.decision_id = pay.decision_id
                                               AND r.classification = l.classification
),
days AS (
    SELECT line_number, trade, level, day, hours
    FROM (UNPIVOT (SELECT line_number, trade, level, hours_sun AS Sun, hours_mon AS Mon, hours_tue AS Tue,
                          hours_wed AS Wed, hours_thu AS Thu, hours_fri AS Fri, hours_sat AS Sat FROM ln)
          ON Sun, Mon, Tue, Wed, Thu, Fri, Sat INTO NAME day VALUE hours)
    WHERE hours > 0
),
crew AS (
    SELECT trade, day,
           count(*) FILTER (WHERE level <> 'Apprentice') AS journeymen,
           count(*) FILTER (WHERE level = 'Apprentice') AS apprentices
    FROM days GROUP BY trade, day
),
over AS (
    SELECT d.line_number,
           list(d.day ORDER BY list_position(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'], d.day)) AS days_over,
           min(c.journeymen) AS journeymen_on_short_day,
           max(c.apprentices) AS apprentices_on_short_day,
           any_value(a.journeymen_per_apprentice) AS journeymen_per_apprentice
    FROM days d
    JOIN crew c USING (trade, day)
    JOIN lcptracker.apprentice_ratios a ON a.trade = d.trade
    WHERE d.level = 'Apprentice' AND c.apprentices > c.journeymen // a.journeymen_per_apprentice
    GROUP BY d.line_number
),
judged AS (
    SELECT ln.*,
           CASE WHEN ln.level = 'Apprentice' AND NOT ln.unregistered
                THEN round(ln.wd_base * ln.apprentice_percent * 0.01, 4)
                ELSE ln.wd_base END AS required_rate,
           o.days_over, o.journeymen_on_short_day, o.apprentices_on_short_day, o.journeymen_per_apprentice
    FROM ln LEFT JOIN over o USING (line_number)
)
SELECT payroll_id, line_number, employee_id, employee_name, classification, level, trade,
       apprentice_registration, apprentice_percent, total_hours, rate_paid, fringe_paid, wd_base, wd_fringe,
       required_rate, days_over, journeymen_on_short_day, apprentices_on_short_day, journeymen_per_apprentice,
       CASE WHEN unregistered THEN 'unregistered_apprentice'
            WHEN days_over IS NOT NULL THEN 'apprentice_ratio'
            WHEN wd_base IS NULL THEN 'misclassification'
            WHEN rate_paid < required_rate THEN 'underpayment'
            WHEN fringe_paid < wd_fringe THEN 'fringe_shortfall'
       END AS code
FROM judged
ORDER BY line_number;

-- name: planted
-- The book's planted exceptions on one WH-347 (divergence registry): book employee and the
-- book's exception kind (the last word of the reason).
SELECT d.entity_key AS employee_id, ei.system_employee_id AS lcp_employee_id,
       regexp_extract(d.reason, ':\s*(\w+)\s*$', 1) AS kind
FROM book.divergences d
LEFT JOIN book.employee_identities ei ON ei.employee_id = d.entity_key AND ei.system = 'lcptracker'
WHERE d.kind = 'certified_payroll_exception'
  AND d.family = 'P_certified_payroll'
  AND d.divergence_id LIKE '%:' || $payroll_id
ORDER BY d.entity_key;

-- name: policy_path
-- Where the governing policy lives in SharePoint.
SELECT '/Policies/' || policy_id AS path, title FROM book.policies WHERE policy_id = $policy_id;
