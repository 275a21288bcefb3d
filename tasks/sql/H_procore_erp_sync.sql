-- H_procore_erp_sync: sync the job's approved, not-yet-synced Procore requisitions to Vista.
--
-- Per the AP policy (section 4): only approved requisitions that are not yet synced are synced;
-- syncing creates the Vista AP invoice (unposted, in APHB/APLB) and locks the requisition.
-- Already-synced requisitions and drafts / ones under review are skipped. The counts the
-- controller asks for are over the month's requisitions on the job (billed from the first of the
-- clock's month through the clock).

-- name: jobs
SELECT p.project_number AS job_number
FROM procore.projects p
WHERE list_contains(string_split($jobs, ','), p.project_number)
  AND EXISTS (SELECT 1 FROM procore.requisitions r
              WHERE r.project_id = p.id AND r.status = 'approved' AND r.erp_sync_status = 'not_synced')
ORDER BY p.project_number;

-- name: held_out_jobs
-- The held-out candidates: the other jobs ($jobs are the published ones) with an approved, unsynced
-- requisition, where every such requisition is this month's and is a registered unsynced_invoice
-- divergence (what ``case`` checks: the Ressio jobs' approved bills are not), with ERP links.
SELECT p.project_number AS job_number
FROM procore.projects p
JOIN procore.requisitions r ON r.project_id = p.id AND r.status = 'approved' AND r.erp_sync_status = 'not_synced'
JOIN procore.vendors v ON v.id = r.vendor_id
JOIN procore.commitments c ON c.id = r.commitment_id
LEFT JOIN book.ap_invoices i ON i.commitment_id = c.contract_code AND i.invoice_number = r.invoice_number
LEFT JOIN book.divergences d ON d.kind = 'unsynced_invoice' AND d.entity_key = i.invoice_id
WHERE NOT list_contains(string_split($jobs, ','), p.project_number)
  AND p.origin_id IS NOT NULL
GROUP BY p.project_number
HAVING bool_and(d.divergence_id IS NOT NULL AND v.origin_id IS NOT NULL
                AND r.billing_date BETWEEN CAST($month_start AS DATE) AND CAST($clock AS DATE))
ORDER BY p.project_number;

-- name: requisitions
-- Every requisition on the job that is either this month's or still to sync, with what the
-- sync will create in Vista (vendor and job ids through Procore's ERP links; the AP lines are
-- the requisition lines plus one stored-materials line when the header carries more).
WITH lines AS (
    SELECT li.requisition_id, count(*) AS n, sum(li.work_completed_this_period) AS amount,
           sum(li.retainage) AS retainage
    FROM procore.requisition_line_items li
    GROUP BY li.requisition_id
)
SELECT r.id, r.number, r.invoice_number, r.billing_date, r.status, r.erp_sync_status, r.gross_amount,
       r.retainage_amount, r.net_amount, c.contract_code, c.number AS commitment_number,
       c.erp_sync_status AS commitment_sync_status, v.name AS vendor_name,
       CAST(v.origin_id AS INTEGER) AS erp_vendor, p.origin_id AS erp_job,
       r.status = 'approved' AND r.erp_sync_status = 'not_synced' AS to_sync,
       r.billing_date BETWEEN CAST($month_start AS DATE) AND CAST($clock AS DATE) AS this_month,
       CAST(coalesce(lines.n, 0)
            + CASE WHEN coalesce(lines.amount, 0) <> r.gross_amount OR coalesce(lines.retainage, 0) <> r.retainage_amount
                   THEN 1 ELSE 0 END AS INTEGER) AS erp_lines
FROM procore.requisitions r
JOIN procore.projects p ON p.id = r.project_id
JOIN procore.commitments c ON c.id = r.commitment_id
JOIN procore.vendors v ON v.id = r.vendor_id
LEFT JOIN lines ON lines.requisition_id = r.id
WHERE p.project_number = $job
  AND (r.billing_date BETWEEN CAST($month_start AS DATE) AND CAST($clock AS DATE)
       OR (r.status = 'approved' AND r.erp_sync_status = 'not_synced'))
ORDER BY c.contract_code, r.number, r.id;

-- name: vista_free
-- The AP invoices the sync will create must not exist in Vista yet (vendor + invoice number).
SELECT count(*) AS n
FROM vista_erp.APHB h
WHERE list_contains(string_split($keys, ','), CAST(h.Vendor AS VARCHAR) || '|' || h.APRef)
UNION ALL
SELECT count(*) FROM vista_erp.APTH h
WHERE list_contains(string_split($keys, ','), CAST(h.Vendor AS VARCHAR) || '|' || h.APRef);

-- name: book_check
-- The hidden book's approved-but-unsynced subcontract invoices on the job (the registered
-- unsynced_invoice divergences), to cross-check the Procore projection.
SELECT i.invoice_number, i.gross_amount
FROM book.ap_invoices i
JOIN book.divergences d ON d.kind = 'unsynced_invoice' AND d.entity_key = i.invoice_id
WHERE i.job_number = $job
ORDER BY i.invoice_number;

-- name: lookalikes
-- Approved, unsynced requisitions on OTHER jobs (the same vendor's first): what a careless sync
-- picks up when it filters by vendor or status and not by job.
SELECT r.id, r.number, r.invoice_number, p.project_number, CAST(v.origin_id AS INTEGER) AS erp_vendor
FROM procore.requisitions r
JOIN procore.projects p ON p.id = r.project_id
JOIN procore.vendors v ON v.id = r.vendor_id
WHERE p.project_number <> $job AND r.status = 'approved' AND r.erp_sync_status = 'not_synced'
  AND p.origin_id IS NOT NULL AND v.origin_id IS NOT NULL
ORDER BY NOT list_contains(string_split($vendors, ','), CAST(v.origin_id AS VARCHAR)), p.project_number, r.id;

-- name: phase
-- A subcontract phase on the ERP job (for a pay request entered by hand in Vista).
SELECT "Phase" AS phase FROM vista_erp."JCCH" WHERE "Job" = $erp_job AND "CostType" = 3 ORDER BY "Phase" LIMIT 1;
