-- lcptracker models vendors (contractors), jobs (prevailing-wage projects) and employees.
-- entity: vendor
SELECT m.master_vendor_id AS entity_key, c.contractor_name AS name, c.fein AS tin
FROM lcptracker.contractors c
JOIN hh2.vendor_map m ON m.system = 'lcptracker' AND m.system_vendor_id = c.contractor_id
WHERE NOT c.is_prime;

-- entity: job
SELECT m.master_job_number AS entity_key, p.project_name AS name
FROM lcptracker.projects p
JOIN hh2.job_map m ON m.system = 'lcptracker' AND m.system_job_id = p.project_id;

-- entity: employee
SELECT m.master_employee_id AS entity_key, e.first_name || ' ' || e.last_name AS name,
       e.classification AS classification, e.base_rate AS base_rate
FROM lcptracker.employees e
JOIN hh2.employee_map m ON m.system = 'lcptracker' AND m.system_employee_id = e.employee_id
