-- G_prepaid_amortization: the month's amortization of prepaid insurance (1400 Prepaid Expenses to
-- 6200 Insurance), one insurance program at a time.
--
-- Per the prepaid insurance policy (SharePoint /Policies/prepaid_insurance_policy.md): the
-- declarations page's premium governs (the register's proposal figure may be stale); monthly
-- amount = premium / 12 rounded half-up to the cent; a whole month in force = the monthly amount;
-- a month bound mid-month or cancelled mid-month = monthly x days in force / days in the month,
-- rounded half-up (days from the effective date through the month end; from the 1st through the
-- day before the cancellation date); an expired policy nothing; the twelfth month of a term the
-- remaining balance. Amounts are computed in integer cents so the rounding is exact.

-- name: programs
-- Each program of the register with a policy in force in the month ($month 'YYYY-MM'), the period
-- open, and the twists its month holds.
WITH m AS (
    SELECT CAST($month || '-01' AS DATE) AS m0, last_day(CAST($month || '-01' AS DATE)) + 1 AS m1
), p AS (
    SELECT p.*, m.m0, m.m1 FROM book.insurance_policies p, m
    WHERE p.effective_date < m.m1 AND coalesce(p.cancelled_date, p.expiry_date) > m.m0
)
SELECT program,
       bool_or(effective_date > m0) AS bound_mid_month,
       bool_or(cancelled_date IS NOT NULL AND cancelled_date < m1) AS cancelled,
       bool_or(scheduled_premium <> premium) AS stale_register,
       NOT bool_or(effective_date > m0 OR (cancelled_date IS NOT NULL AND cancelled_date < m1)
                   OR scheduled_premium <> premium) AS clean
FROM p
WHERE (SELECT g.status FROM book.gl_periods g WHERE g.period = $month) = 'open'
GROUP BY program
ORDER BY program;

-- name: policies
-- The program's policies in force in the month: the amortization by the convention and what a
-- careless reading gives (the full monthly amount, the register's premium, a daily premium / 365
-- convention, last month's posted line), with its declarations page (and cancellation
-- endorsement) in Box.
WITH m AS (
    SELECT CAST($month || '-01' AS DATE) AS m0, last_day(CAST($month || '-01' AS DATE)) + 1 AS m1,
           day(last_day(CAST($month || '-01' AS DATE))) AS dim
), p AS (
    SELECT p.*, m.m0, m.m1, m.dim,
           CAST(round(p.premium * 100) AS BIGINT) AS pc,
           CAST(round(p.scheduled_premium * 100) AS BIGINT) AS sc,
           datediff('day', greatest(p.effective_date, m.m0), least(coalesce(p.cancelled_date, p.expiry_date), m.m1)) AS days,
           (SELECT coalesce(sum(l.debit), 0) FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
             WHERE e.source_ref LIKE 'PREPAID:' || p.program || ':%' AND l.account = '6200'
               AND l.memo = p.policy_number AND e.entry_date < m.m0) AS amortized,
           (SELECT sum(l.debit) FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
             WHERE e.source_ref = 'PREPAID:' || p.program || ':' || strftime(m.m0 - INTERVAL 1 MONTH, '%Y-%m')
               AND l.account = '6200' AND l.memo = p.policy_number) AS prior_month
    FROM book.insurance_policies p, m
    WHERE p.program = $program AND p.effective_date < m.m1 AND coalesce(p.cancelled_date, p.expiry_date) > m.m0
), c AS (
    SELECT *,
           (pc * 2 + 12) // 24 AS mc,  -- monthly, half-up
           (sc * 2 + 12) // 24 AS msc
    FROM p
)
SELECT policy_id, coverage, coverage_name, policy_number, insurer, effective_date, expiry_date, cancelled_date,
       premium, scheduled_premium, return_premium, days, dim, amortized, prior_month,
       CAST(mc * 0.01 AS DECIMAL(18, 2)) AS monthly,
       CASE WHEN cancelled_date IS NULL AND expiry_date <= m1 AND effective_date < m0 THEN premium - amortized
            WHEN days = dim THEN CAST(mc * 0.01 AS DECIMAL(18, 2))
            ELSE CAST((mc * days * 2 + dim) // (2 * dim) * 0.01 AS DECIMAL(18, 2)) END AS amount,
       CASE WHEN days = dim THEN CAST(msc * 0.01 AS DECIMAL(18, 2))
            ELSE CAST((msc * days * 2 + dim) // (2 * dim) * 0.01 AS DECIMAL(18, 2)) END AS register_amount,
       CAST((pc * days * 2 + 365) // 730 * 0.01 AS DECIMAL(18, 2)) AS daily_amount,
       '/Insurance/Policies/' || (SELECT d.filename FROM book.documents d WHERE d.document_id = c.document_id) AS pdf,
       '/Insurance/Policies/' || (SELECT d.filename FROM book.documents d WHERE d.document_id = c.cancel_document_id)
           AS cancel_pdf
FROM c
ORDER BY effective_date, policy_number;

-- name: prior
-- Last month's posted amortization entry of the program, line by line (the entry a careless close
-- copies), with the expired policies it still carried.
SELECT l.memo AS policy_number, l.debit AS amount,
       p.expiry_date <= CAST($month || '-01' AS DATE) AS expired
FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
LEFT JOIN book.insurance_policies p ON p.policy_number = l.memo
WHERE e.source_ref = 'PREPAID:' || $program || ':' || strftime(CAST($month || '-01' AS DATE) - INTERVAL 1 MONTH, '%Y-%m')
  AND l.account = '6200'
ORDER BY l.line_no;
