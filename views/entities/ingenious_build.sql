-- ingenious_build: consistency-check projections, resolved through the hh2 crosswalks.

-- entity: vendor
SELECT m.master_vendor_id AS entity_key, c.name AS name
FROM ingenious_build.companies c
JOIN hh2.vendor_map m ON m.system = 'ingenious_build' AND m.system_vendor_id = c.company_id;

-- entity: job
SELECT jm.master_job_number AS entity_key, p.name AS name,
       CAST(p.contract_value AS DECIMAL(18,2)) AS contract_amount,
       CAST(coalesce(b.ftc, 0) AS DECIMAL(18,2)) AS est_cost_to_complete
FROM ingenious_build.projects p
JOIN hh2.job_map jm ON jm.system = 'ingenious_build' AND jm.system_job_id = p.project_id
LEFT JOIN (SELECT project_id, sum(forecast_to_complete) AS ftc FROM ingenious_build.budget_lines
           WHERE accounting_integrated GROUP BY project_id) b
       ON b.project_id = p.project_id;

-- entity: commitment
SELECT c.contract_number AS entity_key, jm.master_job_number AS job_number, vm.master_vendor_id AS vendor_key,
       CAST(c.current_value AS DECIMAL(18,2)) AS amount
FROM ingenious_build.contracts c
JOIN hh2.job_map jm ON jm.system = 'ingenious_build' AND jm.system_job_id = c.project_id
LEFT JOIN hh2.vendor_map vm ON vm.system = 'ingenious_build' AND vm.system_vendor_id = c.company_id;

-- entity: invoice
SELECT vm.master_vendor_id || '|' || i.custom_id AS entity_key, jm.master_job_number AS job_number,
       CAST(i.gross_amount AS DECIMAL(18,2)) AS gross_amount,
       CAST(i.retainage_amount AS DECIMAL(18,2)) AS retainage_amount,
       CAST(i.net_amount AS DECIMAL(18,2)) AS net_amount
FROM ingenious_build.invoices i
JOIN hh2.job_map jm ON jm.system = 'ingenious_build' AND jm.system_job_id = i.project_id
JOIN hh2.vendor_map vm ON vm.system = 'ingenious_build' AND vm.system_vendor_id = i.company_id;
