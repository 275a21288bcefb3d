-- G_equipment_allocation: the month's owned-equipment cost of one fleet, allocated to the jobs by
-- equipment hours.
--
-- Per the equipment rate policy (SharePoint /Policies/equipment_rate_policy.md): owned units only
-- (a rented unit is not allocated); hours of the month ($month 'YYYY-MM') as the crews logged them
-- in the field-time app (book.equipment_hours); rates from HeavyBid's rate book
-- (book.equipment_rates), the row in effect on the work date (an ASOF join). Operating hours x
-- (Rent + EOE) go to the job (Dr 5400, the job on the line); idle hours x Rent only go to 6750
-- Equipment Idle Time (no job); Cr 5490 Equipment Cost Recovery for the total. Hours are in half
-- hours and rates in half dollars, so every product is exact to the cent.

-- name: fleets
-- Each fleet with owned operating hours in the month, the period open, and the twists its month
-- holds: idle hours on owned units, a rate revised after the 1st with the unit's operating hours on
-- both sides of it, a rented unit's hours.
WITH m AS (
    SELECT CAST($month || '-01' AS DATE) AS m0, last_day(CAST($month || '-01' AS DATE)) AS m1
), h AS (
    SELECT q.fleet, q.ownership = 'owned' AS owned, x.hour_type, x.work_date BETWEEN m.m0 AND m.m1 AS in_month
    FROM book.equipment_hours x JOIN book.equipment q USING (unit_number) CROSS JOIN m
), rc AS (
    SELECT DISTINCT q.fleet
    FROM book.equipment_rates r JOIN book.equipment q USING (unit_number) CROSS JOIN m
    WHERE q.ownership = 'owned' AND r.effective_date > m.m0 AND r.effective_date <= m.m1
      AND EXISTS (SELECT 1 FROM book.equipment_hours x
                  WHERE x.unit_number = r.unit_number AND x.hour_type = 'operating'
                    AND x.work_date >= m.m0 AND x.work_date < r.effective_date)
      AND EXISTS (SELECT 1 FROM book.equipment_hours x
                  WHERE x.unit_number = r.unit_number AND x.hour_type = 'operating'
                    AND x.work_date >= r.effective_date AND x.work_date <= m.m1)
), f AS (
    SELECT h.fleet,
           bool_or(owned AND in_month AND hour_type = 'idle') AS idle,
           bool_or(h.fleet IN (SELECT fleet FROM rc)) AS rate_change,
           bool_or(NOT owned AND in_month) AS rented,
           bool_or(owned AND in_month AND hour_type = 'operating') AS active
    FROM h GROUP BY h.fleet
)
SELECT fleet, idle, rate_change, rented, NOT (idle OR rate_change OR rented) AS clean,
       (SELECT any_value(category) FROM book.equipment q WHERE q.fleet = f.fleet) AS category,
       (SELECT any_value(field_system) FROM book.equipment q WHERE q.fleet = f.fleet) AS field_system
FROM f
WHERE active AND (SELECT g.status FROM book.gl_periods g WHERE g.period = $month) = 'open'
ORDER BY fleet;

-- name: jobs
-- The fleet's month per job, in the key's ERP ($erp): the allocation (owned operating hours at the
-- rate in effect on the work date) and what a careless reading gives: idle hours charged to the job
-- at the full rate, the rented unit allocated, every hour at the rate in effect at month end, the
-- field-time app's costing rate, the Rent rate alone, the weeks before the month counted. A job that
-- only a careless reading charges has amount 0.
WITH m AS (
    SELECT CAST($month || '-01' AS DATE) AS m0, last_day(CAST($month || '-01' AS DATE)) AS m1
), x AS (
    SELECT x.*, q.ownership = 'owned' AS owned, q.field_rate, x.work_date BETWEEN m.m0 AND m.m1 AS in_month,
           x.hour_type = 'operating' AS operating
    FROM book.equipment_hours x JOIN book.equipment q USING (unit_number) CROSS JOIN m
    WHERE q.fleet = $fleet AND x.work_date <= m.m1
), h AS (
    SELECT x.*, r.rent_rate, r.eoe_rate
    FROM x ASOF JOIN book.equipment_rates r ON r.unit_number = x.unit_number AND x.work_date >= r.effective_date
), e AS (  -- the rate in effect at month end, per unit
    SELECT DISTINCT ON (r.unit_number) r.unit_number, r.rent_rate + r.eoe_rate AS end_rate
    FROM book.equipment_rates r CROSS JOIN m
    WHERE r.effective_date <= m.m1
    ORDER BY r.unit_number, r.effective_date DESC
)
SELECT h.job_number, book.system_job_id($erp, h.job_number) AS erp_job,
       CAST(coalesce(sum(hours * (rent_rate + eoe_rate)) FILTER (owned AND in_month AND operating), 0)
            AS DECIMAL(18, 2)) AS amount,
       CAST(coalesce(sum(hours) FILTER (owned AND in_month AND operating), 0) AS DECIMAL(18, 2)) AS hours,
       CAST(coalesce(sum(hours * (rent_rate + eoe_rate)) FILTER (owned AND in_month), 0) AS DECIMAL(18, 2))
           AS with_idle,
       CAST(coalesce(sum(hours * (rent_rate + eoe_rate)) FILTER (in_month AND operating), 0) AS DECIMAL(18, 2))
           AS with_rented,
       CAST(coalesce(sum(hours * e.end_rate) FILTER (owned AND in_month AND operating), 0) AS DECIMAL(18, 2))
           AS month_end_rate,
       CAST(coalesce(sum(hours * field_rate) FILTER (owned AND in_month AND operating), 0) AS DECIMAL(18, 2))
           AS field_rate,
       CAST(coalesce(sum(hours * rent_rate) FILTER (owned AND in_month AND operating), 0) AS DECIMAL(18, 2))
           AS rent_only,
       CAST(coalesce(sum(hours * (rent_rate + eoe_rate)) FILTER (owned AND operating), 0) AS DECIMAL(18, 2))
           AS with_prior
FROM h JOIN e USING (unit_number)
GROUP BY h.job_number
ORDER BY h.job_number;

-- name: idle
-- The fleet's owned idle hours of the month: their charge to 6750 at the Rent rate in effect on the
-- work date, and the same hours at the full rate (Rent + EOE), a careless reading.
WITH m AS (
    SELECT CAST($month || '-01' AS DATE) AS m0, last_day(CAST($month || '-01' AS DATE)) AS m1
), x AS (
    SELECT x.* FROM book.equipment_hours x JOIN book.equipment q USING (unit_number) CROSS JOIN m
    WHERE q.fleet = $fleet AND q.ownership = 'owned' AND x.hour_type = 'idle'
      AND x.work_date BETWEEN m.m0 AND m.m1
), h AS (
    SELECT x.*, r.rent_rate, r.eoe_rate
    FROM x ASOF JOIN book.equipment_rates r ON r.unit_number = x.unit_number AND x.work_date >= r.effective_date
)
SELECT CAST(coalesce(sum(hours * rent_rate), 0) AS DECIMAL(18, 2)) AS amount,
       CAST(coalesce(sum(hours * (rent_rate + eoe_rate)), 0) AS DECIMAL(18, 2)) AS full_rate,
       CAST(coalesce(sum(hours), 0) AS DECIMAL(18, 2)) AS hours
FROM h;

-- name: units
-- The fleet's units with their month: owned operating and idle hours and charges per job (the
-- lines of an entry kept per unit and job), the rented units' hours, each unit's rate revisions in
-- the month.
WITH m AS (
    SELECT CAST($month || '-01' AS DATE) AS m0, last_day(CAST($month || '-01' AS DATE)) AS m1
), x AS (
    SELECT x.*, q.ownership FROM book.equipment_hours x JOIN book.equipment q USING (unit_number) CROSS JOIN m
    WHERE q.fleet = $fleet AND x.work_date BETWEEN m.m0 AND m.m1
), h AS (
    SELECT x.*, r.rent_rate, r.eoe_rate
    FROM x ASOF JOIN book.equipment_rates r ON r.unit_number = x.unit_number AND x.work_date >= r.effective_date
)
SELECT h.unit_number, h.job_number, book.system_job_id($erp, h.job_number) AS erp_job, h.ownership,
       any_value(q.description) AS description,
       CAST(coalesce(sum(hours) FILTER (hour_type = 'operating'), 0) AS DECIMAL(18, 2)) AS operating_hours,
       CAST(coalesce(sum(hours) FILTER (hour_type = 'idle'), 0) AS DECIMAL(18, 2)) AS idle_hours,
       CAST(coalesce(sum(hours * (rent_rate + eoe_rate)) FILTER (hour_type = 'operating'), 0) AS DECIMAL(18, 2))
           AS amount,
       CAST(coalesce(sum(hours * rent_rate) FILTER (hour_type = 'idle'), 0) AS DECIMAL(18, 2)) AS idle_amount,
       (SELECT list(strftime(r.effective_date, '%Y-%m-%d') ORDER BY r.effective_date) FROM book.equipment_rates r, m
         WHERE r.unit_number = h.unit_number AND r.effective_date > m.m0 AND r.effective_date <= m.m1) AS revisions
FROM h JOIN book.equipment q USING (unit_number)
GROUP BY h.unit_number, h.job_number, h.ownership
ORDER BY h.unit_number, h.job_number;
