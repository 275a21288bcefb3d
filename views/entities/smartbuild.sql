-- smartbuild: consistency-check projections, resolved through the hh2 crosswalks.

-- entity: vendor
SELECT m.master_vendor_id AS entity_key, s.supplier_name AS name
FROM smartbuild.suppliers s
JOIN hh2.vendor_map m ON m.system = 'smartbuild' AND m.system_vendor_id = s.supplier_id;

-- entity: job
SELECT jm.master_job_number AS entity_key, j.job_name AS name,
       CAST(j.contract_sum AS DECIMAL(18,2)) AS contract_amount,
       CAST(coalesce(cc.ftc, 0) AS DECIMAL(18,2)) AS est_cost_to_complete
FROM smartbuild.jobs j
JOIN hh2.job_map jm ON jm.system = 'smartbuild' AND jm.system_job_id = j.job_id
LEFT JOIN (SELECT job_id, sum(forecast_to_complete) AS ftc FROM smartbuild.cost_centres WHERE export_to_accounts
           GROUP BY job_id) cc
       ON cc.job_id = j.job_id;

-- entity: commitment
SELECT s.sc_number AS entity_key, jm.master_job_number AS job_number, vm.master_vendor_id AS vendor_key,
       CAST(s.contract_value AS DECIMAL(18,2)) AS amount
FROM smartbuild.subcontracts s
JOIN hh2.job_map jm ON jm.system = 'smartbuild' AND jm.system_job_id = s.job_id
LEFT JOIN hh2.vendor_map vm ON vm.system = 'smartbuild' AND vm.system_vendor_id = s.supplier_id;
