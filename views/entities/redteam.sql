-- redteam: consistency-check projections, resolved through the hh2 crosswalks.

-- entity: vendor
SELECT m.master_vendor_id AS entity_key, c.company_name AS name
FROM redteam.companies c
JOIN hh2.vendor_map m ON m.system = 'redteam' AND m.system_vendor_id = c.company_id;

-- entity: job
SELECT jm.master_job_number AS entity_key, p.project_name AS name,
       CAST(p.contract_amount AS DECIMAL(18,2)) AS contract_amount
FROM redteam.projects p
JOIN hh2.job_map jm ON jm.system = 'redteam' AND jm.system_job_id = p.project_id;

-- entity: commitment
SELECT c.commitment_number AS entity_key, jm.master_job_number AS job_number, vm.master_vendor_id AS vendor_key,
       CAST(c.revised_amount AS DECIMAL(18,2)) AS amount
FROM redteam.commitments c
JOIN hh2.job_map jm ON jm.system = 'redteam' AND jm.system_job_id = c.project_id
LEFT JOIN hh2.vendor_map vm ON vm.system = 'redteam' AND vm.system_vendor_id = c.company_id;

-- entity: invoice
SELECT vm.master_vendor_id || '|' || e.invoice_number AS entity_key, jm.master_job_number AS job_number,
       CAST(e.amount_this_period AS DECIMAL(18,2)) AS gross_amount,
       CAST(e.retainage_this_period AS DECIMAL(18,2)) AS retainage_amount,
       CAST(e.net_due AS DECIMAL(18,2)) AS net_amount
FROM redteam.eapps e
JOIN hh2.job_map jm ON jm.system = 'redteam' AND jm.system_job_id = e.project_id
JOIN hh2.vendor_map vm ON vm.system = 'redteam' AND vm.system_vendor_id = e.company_id;
