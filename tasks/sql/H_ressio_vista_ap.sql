-- H_ressio_vista_ap: the residential supplier bills waiting on a job in Ressio (unmatched, not yet
-- synced to accounting) matched to their POs; every approved bill that matches is booked in Vista as
-- an unposted AP invoice (vendor, job, phase and cost type through the hh2 crosswalks); a bill that
-- does not match its PO line stays out of the ERP for the PM (pm_platforms_policy §3).
-- The bills and their expected match come from tasks/sql/C_ressio_bill_match.sql.

-- name: vista_context
-- Where one Ressio bill lands in Vista.
SELECT (SELECT system_job_id FROM hh2.job_map WHERE master_job_number = $job AND system = 'vista_erp') AS vista_job,
       (SELECT system_vendor_id FROM hh2.vendor_map WHERE master_vendor_id = $vendor AND system = 'vista_erp')
           AS vista_vendor,
       (SELECT count(*) FROM vista_erp."POHD" WHERE "PO" = $commitment)
         + (SELECT count(*) FROM vista_erp."SLHD" WHERE "SL" = $commitment) AS commitment_in_vista,
       (SELECT count(*) FROM vista_erp."APHB" h JOIN hh2.vendor_map v ON v.system = 'vista_erp'
           AND v.master_vendor_id = $vendor AND CAST(h."Vendor" AS VARCHAR) = v.system_vendor_id
         WHERE h."APRef" = $invoice)
         + (SELECT count(*) FROM vista_erp."APTH" h JOIN hh2.vendor_map v ON v.system = 'vista_erp'
           AND v.master_vendor_id = $vendor AND CAST(h."Vendor" AS VARCHAR) = v.system_vendor_id
         WHERE h."APRef" = $invoice) AS already_in_vista;

-- name: vista_lines
-- One Ressio bill's items coded for Vista (phase and cost type from the hh2 cost-code map).
SELECT bi.item_no, bi.cost_code, bi.description, bi.amount, bi.retainage, m.erp_phase AS phase,
       m.erp_cost_type AS cost_type
FROM ressio.bill_items bi
LEFT JOIN hh2.cost_code_map m ON m.cost_code = bi.cost_code AND m.erp_system = 'vista_erp'
WHERE bi.bill_id = $bill_id
ORDER BY bi.item_no;
