-- foundation_payroll: consistency-check projections (employee ids resolved through hh2.employee_map).

-- entity: employee
SELECT coalesce(m.master_employee_id, e.employee_id) AS entity_key,
       e.first_name || ' ' || e.last_name AS name,
       e.classification AS classification,
       e.base_rate AS base_rate
FROM foundation_payroll.pr_employees e
LEFT JOIN hh2.employee_map m ON m.system = 'foundation_payroll' AND m.system_employee_id = e.employee_id;

-- entity: job
SELECT coalesce(m.master_job_number, j.job_id) AS entity_key, j.description AS name
FROM foundation_payroll.pr_jobs j
LEFT JOIN hh2.job_map m ON m.system = 'foundation_erp' AND m.system_job_id = j.job_id;

-- entity: check
SELECT ba.bank_account_id || '|' || CAST(p.check_number AS VARCHAR) AS entity_key,
       CAST(p.net_pay AS DECIMAL(18,2)) AS amount,
       e.first_name || ' ' || e.last_name AS payee_name,
       p.pay_date AS issue_date
FROM foundation_payroll.pr_checks p
JOIN foundation_payroll.pr_employees e ON e.employee_id = p.employee_id
JOIN book.bank_accounts ba ON ba.account_number = p.bank_account
WHERE p.check_number IS NOT NULL;
