-- H_redteam_sage_bill: the submitted RedTeam eApps on the job of the planted over-cap eApp,
-- validated against their shared commitments (cap and SOV lines, as C_redteam_eapp_review computes them), the good ones approved and
-- entered in Sage Intacct as draft bills (vendor, project, task and cost type through the hh2
-- crosswalks, retainage as billed), the one past its cap held and kept out of the ERP.

-- name: vendor_ids
-- A RedTeam company's master vendor and its Sage Intacct id (hh2 vendor map).
SELECT r.master_vendor_id, s.system_vendor_id AS sage_id, s.system_vendor_name AS sage_name
FROM hh2.vendor_map r
LEFT JOIN hh2.vendor_map s ON s.master_vendor_id = r.master_vendor_id AND s.system = 'sage_intacct'
WHERE r.system = 'redteam' AND r.system_vendor_id = $redteam_id;

-- name: sage_lines
-- One eApp's lines coded for Sage Intacct: task (ERP phase) and cost type from the hh2 cost-code map.
SELECT l.line_no, l.sov_line_no, l.cost_code, l.description, l.this_period, l.retainage,
       m.erp_phase AS task_id, m.erp_cost_type AS cost_type
FROM redteam.eapp_lines l
LEFT JOIN hh2.cost_code_map m ON m.cost_code = l.cost_code AND m.erp_system = 'sage_intacct'
WHERE l.eapp_id = $eapp_id
ORDER BY l.line_no;

-- name: sage_context
-- Where one eApp lands in Sage Intacct: the project id, whether the commitment is there, and whether
-- the bill already exists.
SELECT (SELECT system_job_id FROM hh2.job_map WHERE master_job_number = $job AND system = 'sage_intacct') AS project_id,
       (SELECT count(*) FROM sage_intacct."PODOCUMENT" WHERE "DOCNO" = $commitment) AS commitment_in_sage,
       (SELECT count(*) FROM sage_intacct."APBILL" WHERE "VENDORID" = $sage_vendor AND "RECORDID" = $invoice)
           AS bill_exists;

-- name: other_sage_vendor
-- A Sage Intacct vendor none of a job's eApps bills under (the wrong vendor of a lookalike draft).
SELECT min(system_vendor_id) AS sage_id FROM hh2.vendor_map
WHERE system = 'sage_intacct' AND system_vendor_id NOT IN (SELECT unnest($vendors));
