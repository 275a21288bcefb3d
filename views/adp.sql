-- adp: projection of the book's people, time and payroll tables.
-- Employee ids come from book.employee_identities (system 'adp'); jobs are numbered as
-- book.system_job_id('adp', job) spells them. No divergence is honoured here: the payroll
-- system agrees with the book (certified-payroll exceptions live in the certified-payroll app).
-- The open (clock-week) batch has no earnings until it is staged from approved hours.

INSERT INTO adp.workers
SELECT ei.system_employee_id, e.first_name, e.last_name, e.trade, e.classification, e.level,
       e.apprentice_registration, e.apprentice_pct, e.union_local, e.base_rate, e.fringe_rate, e.hire_date,
       CASE e.status WHEN 'active' THEN 'Active' ELSE 'Terminated' END
FROM book.employees e
JOIN book.employee_identities ei ON ei.employee_id = e.employee_id AND ei.system = 'adp'
ORDER BY ei.system_employee_id;

INSERT INTO adp.cost_numbers
SELECT book.system_job_id('adp', j.job_number), j.name, j.is_prevailing_wage, j.state,
       CASE j.status WHEN 'active' THEN 'Active' ELSE 'Closed' END
FROM book.jobs j
ORDER BY j.job_number;

INSERT INTO adp.prevailing_wage_rates
SELECT book.system_job_id('adp', d.job_number), r.classification, d.determination_id, r.base_rate, r.fringe_rate
FROM (
    SELECT wd.*, row_number() OVER (PARTITION BY wd.job_number
                                    ORDER BY wd.effective_date DESC, wd.modification DESC, wd.determination_id) AS rn
    FROM book.wage_determinations wd
    JOIN book.jobs j ON j.job_number = wd.job_number AND j.is_prevailing_wage
    WHERE wd.effective_date <= (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock')
) d
JOIN book.wage_rates r ON r.determination_id = d.determination_id
WHERE d.rn = 1
ORDER BY 1, 2;

INSERT INTO adp.time_cards
SELECT ei.system_employee_id,
       CAST(t.work_date + CAST(6 - dayofweek(t.work_date) AS INTEGER) AS DATE) AS week_ending,
       book.system_job_id('adp', t.job_number),
       CAST(sum(t.hours_regular) AS DECIMAL(9,2)), CAST(sum(t.hours_overtime) AS DECIMAL(9,2)),
       min(t.source_system)
FROM book.timecards t
JOIN book.employee_identities ei ON ei.employee_id = t.employee_id AND ei.system = 'adp'
WHERE t.approved
GROUP BY ei.system_employee_id, week_ending, t.job_number
ORDER BY 1, 2, 3;

INSERT INTO adp.payroll_runs
SELECT 'WK' || strftime(b.period_end, '%y%m%d'), b.period_start, b.period_end, b.check_date,
       CASE b.status WHEN 'released' THEN 'Processed' ELSE 'Open' END,
       a.account_number,
       CASE WHEN b.status = 'released' THEN
           (SELECT CAST(sum(pe.gross_pay) AS DECIMAL(18,2)) FROM book.payroll_earnings pe WHERE pe.batch_id = b.batch_id)
       END,
       NULL,
       CASE WHEN b.status = 'released' THEN CAST(b.check_date AS TIMESTAMP) - INTERVAL 3 DAY + INTERVAL 10 HOUR END
FROM book.payroll_batches b
JOIN book.bank_accounts a ON a.bank_account_id = b.bank_account_id
ORDER BY b.batch_id;

INSERT INTO adp.earnings
SELECT 'WK' || strftime(b.period_end, '%y%m%d'), ei.system_employee_id, book.system_job_id('adp', pe.job_number),
       pe.hours_regular, pe.hours_overtime, pe.rate_paid, pe.fringe_paid, pe.gross_pay, pe.withholding, pe.net_pay
FROM book.payroll_earnings pe
JOIN book.payroll_batches b ON b.batch_id = pe.batch_id AND b.status = 'released'
JOIN book.employee_identities ei ON ei.employee_id = pe.employee_id AND ei.system = 'adp'
ORDER BY 1, 2, 3;

-- One payment per employee per released batch; a paper check when the register holds one
-- for that employee, account, date and amount, otherwise a direct deposit.
INSERT INTO adp.pay_statements
WITH per_emp AS (
    SELECT pe.batch_id, pe.employee_id, CAST(sum(pe.gross_pay) AS DECIMAL(18,2)) AS gross,
           CAST(sum(pe.net_pay) AS DECIMAL(18,2)) AS net
    FROM book.payroll_earnings pe
    GROUP BY pe.batch_id, pe.employee_id
)
SELECT 'WK' || strftime(b.period_end, '%y%m%d'), ei.system_employee_id,
       CASE WHEN c.check_id IS NOT NULL THEN 'Check' ELSE 'Direct Deposit' END,
       c.check_number, a.account_number, b.check_date, p.gross, p.net
FROM per_emp p
JOIN book.payroll_batches b ON b.batch_id = p.batch_id AND b.status = 'released'
JOIN book.bank_accounts a ON a.bank_account_id = b.bank_account_id
JOIN book.employees e ON e.employee_id = p.employee_id
JOIN book.employee_identities ei ON ei.employee_id = p.employee_id AND ei.system = 'adp'
LEFT JOIN (
    SELECT ck.*, row_number() OVER (PARTITION BY ck.bank_account_id, ck.issue_date, ck.payee_name, ck.amount
                                    ORDER BY ck.check_number) AS rn
    FROM book.checks ck
    WHERE ck.payee_vendor_key IS NULL
) c ON c.bank_account_id = b.bank_account_id AND c.issue_date = b.check_date
   AND c.payee_name = e.first_name || ' ' || e.last_name AND c.amount = p.net AND c.rn = 1
ORDER BY 1, 2;
