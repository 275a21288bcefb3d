-- ressio: consistency-check projections, resolved through the hh2 crosswalks.

-- entity: vendor
SELECT m.master_vendor_id AS entity_key, v.vendor_name AS name
FROM ressio.vendors v
JOIN hh2.vendor_map m ON m.system = 'ressio' AND m.system_vendor_id = v.vendor_id;

-- entity: job
SELECT jm.master_job_number AS entity_key, p.project_name AS name,
       CAST(p.contract_price AS DECIMAL(18,2)) AS contract_amount
FROM ressio.projects p
JOIN hh2.job_map jm ON jm.system = 'ressio' AND jm.system_job_id = p.project_id;

-- entity: commitment
SELECT po.commitment_ref AS entity_key, jm.master_job_number AS job_number, vm.master_vendor_id AS vendor_key,
       CAST(po.total AS DECIMAL(18,2)) AS amount
FROM ressio.purchase_orders po
JOIN hh2.job_map jm ON jm.system = 'ressio' AND jm.system_job_id = po.project_id
LEFT JOIN hh2.vendor_map vm ON vm.system = 'ressio' AND vm.system_vendor_id = po.vendor_id;

-- entity: invoice
SELECT vm.master_vendor_id || '|' || b.bill_name AS entity_key, jm.master_job_number AS job_number,
       CAST(b.subtotal AS DECIMAL(18,2)) AS gross_amount,
       CAST(b.retainage AS DECIMAL(18,2)) AS retainage_amount,
       CAST(b.total AS DECIMAL(18,2)) AS net_amount
FROM ressio.bills b
JOIN hh2.job_map jm ON jm.system = 'ressio' AND jm.system_job_id = b.project_id
JOIN hh2.vendor_map vm ON vm.system = 'ressio' AND vm.system_vendor_id = b.vendor_id;
