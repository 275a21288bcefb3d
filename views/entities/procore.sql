-- procore: consistency-check projections. Projects, vendors and commitments carry Procore's own
-- ids; they are resolved to the book's keys through the hh2 crosswalks (job_map, vendor_map).
-- Invoices are the requisitions (direct costs carry no retainage split and are not compared).
-- A job's estimate to complete is the forecast of its ERP lines (PM-only lines such as
-- contingency are not in the ERP).

-- entity: vendor
SELECT m.master_vendor_id AS entity_key, v.name AS name
FROM procore.vendors v
JOIN hh2.vendor_map m ON m.system = 'procore' AND m.system_vendor_id = CAST(v.id AS VARCHAR);

-- entity: job
SELECT jm.master_job_number AS entity_key, p.name AS name,
       CAST(coalesce(pc.revised_contract_amount, 0) AS DECIMAL(18,2)) AS contract_amount,
       CAST(coalesce(b.ftc, 0) AS DECIMAL(18,2)) AS est_cost_to_complete
FROM procore.projects p
JOIN hh2.job_map jm ON jm.system = 'procore' AND jm.system_job_id = CAST(p.id AS VARCHAR)
LEFT JOIN procore.prime_contracts pc ON pc.project_id = p.id
LEFT JOIN (SELECT project_id, sum(forecast_to_complete) AS ftc FROM procore.budget_line_items WHERE erp_line
           GROUP BY project_id) b
       ON b.project_id = p.id;

-- entity: commitment
SELECT c.contract_code AS entity_key, jm.master_job_number AS job_number, vm.master_vendor_id AS vendor_key,
       CAST(c.grand_total AS DECIMAL(18,2)) AS amount
FROM procore.commitments c
JOIN hh2.job_map jm ON jm.system = 'procore' AND jm.system_job_id = CAST(c.project_id AS VARCHAR)
LEFT JOIN hh2.vendor_map vm ON vm.system = 'procore' AND vm.system_vendor_id = CAST(c.vendor_id AS VARCHAR);

-- entity: invoice
SELECT vm.master_vendor_id || '|' || r.invoice_number AS entity_key, jm.master_job_number AS job_number,
       CAST(r.gross_amount AS DECIMAL(18,2)) AS gross_amount,
       CAST(r.retainage_amount AS DECIMAL(18,2)) AS retainage_amount,
       CAST(r.net_amount AS DECIMAL(18,2)) AS net_amount
FROM procore.requisitions r
JOIN hh2.job_map jm ON jm.system = 'procore' AND jm.system_job_id = CAST(r.project_id AS VARCHAR)
JOIN hh2.vendor_map vm ON vm.system = 'procore' AND vm.system_vendor_id = CAST(r.vendor_id AS VARCHAR);

-- entity: change_event
SELECT p.project_number || '|' || CAST(CAST(ce.number AS INTEGER) AS VARCHAR) AS entity_key,
       CAST(ce.rom_amount AS DECIMAL(18,2)) AS amount
FROM procore.change_events ce
JOIN procore.projects p ON p.id = ce.project_id;

-- entity: cost_code
SELECT m.cost_code AS entity_key, m.description AS description, m.erp_phase AS erp_phase
FROM procore.erp_cost_code_mappings m;
