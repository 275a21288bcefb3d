-- G_sub_accrual: month-end accrual of completed-but-uninvoiced subcontract work, staged in Vista.
--
-- Per the month-end close policy (section 2): for each subcontract on the job, accrual =
-- max(0, work completed to date − approved invoices to date), where work completed to date is
-- the PM's progress on the commitment's schedule of values in Procore (sum of line work
-- completed) and approved invoices to date is the gross of every requisition with status
-- approved (synced or not). Purchase orders are not subcontract work; drafts and requisitions
-- under review are not approved invoices. One entry per job: Dr 5200 / Cr 2100, job on both
-- lines, auto-reversing next period.

-- name: jobs
SELECT p.project_number AS job_number
FROM procore.projects p
WHERE list_contains(string_split($jobs, ','), p.project_number)
  AND p.active
  AND EXISTS (SELECT 1 FROM procore.commitments c
              WHERE c.project_id = p.id AND c.commitment_type = 'WorkOrderContract')
ORDER BY p.project_number;

-- name: held_out_candidates
-- Further jobs with the same property, off the accrual anchor jobs ($jobs): an active Procore
-- project with subcontracts whose accrual (per subcontract, floored at zero) is positive, the
-- job in Vista, the period open at $entry_date, Procore agreeing with the book, and at least one
-- careless reading (a billed-ahead subcontract netted, pay requests under review or drafts
-- counted as billed, only synced approvals counted, purchase orders accrued) giving another
-- total, as on the anchor jobs.
WITH c AS (
    SELECT p.project_number AS job, c.id, c.commitment_type = 'WorkOrderContract' AS sub
    FROM procore.commitments c
    JOIN procore.projects p ON p.id = c.project_id
    WHERE p.active AND c.status <> 'Draft' AND NOT list_contains(string_split($jobs, ','), p.project_number)
), per AS (
    SELECT c.job, c.sub,
           coalesce((SELECT sum(l.work_completed) FROM procore.commitment_line_items l WHERE l.commitment_id = c.id), 0)
               AS wc,
           coalesce((SELECT sum(r.gross_amount) FROM procore.requisitions r
                     WHERE r.commitment_id = c.id AND r.status = 'approved'), 0) AS approved,
           coalesce((SELECT sum(r.gross_amount) FROM procore.requisitions r
                     WHERE r.commitment_id = c.id AND r.status = 'approved' AND r.erp_sync_status = 'synced'), 0)
               AS synced,
           coalesce((SELECT sum(r.gross_amount) FROM procore.requisitions r
                     WHERE r.commitment_id = c.id AND r.status IN ('approved', 'under_review')), 0) AS with_review,
           coalesce((SELECT sum(r.gross_amount) FROM procore.requisitions r WHERE r.commitment_id = c.id), 0)
               AS every_request
    FROM c
), job AS (
    SELECT job,
           sum(greatest(wc - approved, 0)) FILTER (WHERE sub) AS accrual,
           sum(wc - approved) FILTER (WHERE sub) AS netted,
           sum(greatest(wc - with_review, 0)) FILTER (WHERE sub) AS under_review_billed,
           sum(greatest(wc - every_request, 0)) FILTER (WHERE sub) AS drafts_billed,
           sum(greatest(wc - synced, 0)) FILTER (WHERE sub) AS synced_only,
           sum(greatest(wc - approved, 0)) AS with_purchase_orders
    FROM per GROUP BY job
), book_side AS (
    SELECT c.job_number AS job,
           sum(greatest(
               coalesce((SELECT sum(l.work_completed) FROM book.commitment_lines l
                         WHERE l.commitment_id = c.commitment_id), 0)
             - coalesce((SELECT sum(i.gross_amount) FROM book.ap_invoices i
                         WHERE i.commitment_id = c.commitment_id AND i.pm_status = 'approved'), 0), 0)) AS accrual
    FROM book.commitments c
    WHERE c.commitment_type = 'subcontract' AND c.status <> 'draft'
    GROUP BY c.job_number
)
SELECT job.job AS job_number
FROM job
JOIN book_side USING (job)
JOIN procore.projects p ON p.project_number = job.job
WHERE job.accrual > 0 AND book_side.accrual = job.accrual
  AND EXISTS (SELECT 1 FROM vista_erp.JCJM j WHERE j.Job = p.origin_id)
  AND (SELECT m.Status FROM vista_erp.GLFP m
       WHERE m.BeginDate <= CAST($entry_date AS DATE) AND m.EndDate >= CAST($entry_date AS DATE)) = 'Open'
  AND (job.netted <> job.accrual OR job.under_review_billed <> job.accrual OR job.drafts_billed <> job.accrual
       OR job.synced_only <> job.accrual OR job.with_purchase_orders <> job.accrual)
ORDER BY job.job;

-- name: subcontracts
-- One row per subcontract on the job: PM work completed to date, approved billings to date,
-- the signed difference and the accrual (floored at zero).
WITH subs AS (
    SELECT c.id, c.contract_code, c.number, c.title, c.vendor_id, c.grand_total
    FROM procore.commitments c
    JOIN procore.projects p ON p.id = c.project_id
    WHERE p.project_number = $job AND c.commitment_type = 'WorkOrderContract' AND c.status <> 'Draft'
), wc AS (
    SELECT l.commitment_id, sum(l.work_completed) AS work_completed
    FROM procore.commitment_line_items l JOIN subs ON subs.id = l.commitment_id
    GROUP BY l.commitment_id
), billed AS (
    SELECT r.commitment_id, sum(r.gross_amount) AS approved_billed
    FROM procore.requisitions r JOIN subs ON subs.id = r.commitment_id
    WHERE r.status = 'approved'
    GROUP BY r.commitment_id
)
SELECT subs.id, subs.contract_code, subs.number, subs.title, subs.grand_total,
       CAST(coalesce(wc.work_completed, 0) AS DECIMAL(18,2)) AS work_completed,
       CAST(coalesce(billed.approved_billed, 0) AS DECIMAL(18,2)) AS approved_billed,
       CAST(coalesce(wc.work_completed, 0) - coalesce(billed.approved_billed, 0) AS DECIMAL(18,2)) AS difference,
       CAST(greatest(coalesce(wc.work_completed, 0) - coalesce(billed.approved_billed, 0), 0) AS DECIMAL(18,2))
           AS accrual
FROM subs
LEFT JOIN wc ON wc.commitment_id = subs.id
LEFT JOIN billed ON billed.commitment_id = subs.id
ORDER BY subs.contract_code;

-- name: accrual
-- The job's accrual and the ERP ids the entry needs (the Vista job id is Procore's origin_id,
-- the same one hh2's job map shows), plus what a netting agent would get instead.
WITH subs AS (
    SELECT c.id
    FROM procore.commitments c
    JOIN procore.projects p ON p.id = c.project_id
    WHERE p.project_number = $job AND c.commitment_type = 'WorkOrderContract' AND c.status <> 'Draft'
), per AS (
    SELECT subs.id,
           coalesce((SELECT sum(l.work_completed) FROM procore.commitment_line_items l WHERE l.commitment_id = subs.id), 0)
         - coalesce((SELECT sum(r.gross_amount) FROM procore.requisitions r
                     WHERE r.commitment_id = subs.id AND r.status = 'approved'), 0) AS difference
    FROM subs
)
SELECT CAST(sum(greatest(difference, 0)) AS DECIMAL(18,2)) AS accrual,
       CAST(sum(difference) AS DECIMAL(18,2)) AS netted,
       count(*) FILTER (WHERE difference < 0) AS billed_ahead,
       count(*) FILTER (WHERE difference > 0) AS accruing,
       (SELECT p.origin_id FROM procore.projects p WHERE p.project_number = $job) AS erp_job,
       (SELECT m.Mth FROM vista_erp.GLFP m
        WHERE m.BeginDate <= CAST($entry_date AS DATE) AND m.EndDate >= CAST($entry_date AS DATE)) AS erp_month,
       (SELECT m.Status FROM vista_erp.GLFP m
        WHERE m.BeginDate <= CAST($entry_date AS DATE) AND m.EndDate >= CAST($entry_date AS DATE)) AS period_status
FROM per;

-- name: accounts
SELECT a.GLAcct, a.Description FROM vista_erp.GLAC a WHERE a.GLAcct IN ('5200', '2100') ORDER BY a.GLAcct;

-- name: book_check
-- The hidden book's accrual for the same job (commitment lines and approved invoices), to
-- cross-check the Procore projection.
WITH per AS (
    SELECT c.commitment_id,
           coalesce((SELECT sum(l.work_completed) FROM book.commitment_lines l WHERE l.commitment_id = c.commitment_id), 0)
         - coalesce((SELECT sum(i.gross_amount) FROM book.ap_invoices i
                     WHERE i.commitment_id = c.commitment_id AND i.pm_status = 'approved'), 0) AS difference
    FROM book.commitments c
    WHERE c.job_number = $job AND c.commitment_type = 'subcontract' AND c.status <> 'draft'
)
SELECT CAST(sum(greatest(difference, 0)) AS DECIMAL(18,2)) AS accrual FROM per;

-- name: cap_plant
-- Pay requests on the job that bill past their subcontract's remaining amount and are not
-- approved (the commitment_cap_exceeded divergence): they are not approved invoices.
SELECT count(*) AS n
FROM book.divergences d
JOIN book.ap_invoices i ON i.invoice_id = d.entity_key
WHERE d.kind = 'commitment_cap_exceeded' AND i.job_number = $job AND i.pm_status IS DISTINCT FROM 'approved';

-- name: variants
-- What a careless reading gives instead of the accrual (the stale / lookalike totals): netting a
-- subcontract billed ahead against the others, counting pay requests under review (or drafts) as
-- billed, counting only approved requisitions that were synced, and purchase orders as
-- subcontract work.
WITH c AS (
    SELECT c.id, c.commitment_type
    FROM procore.commitments c
    JOIN procore.projects p ON p.id = c.project_id
    WHERE p.project_number = $job AND c.status <> 'Draft'
), per AS (
    SELECT c.id, c.commitment_type = 'WorkOrderContract' AS sub,
           coalesce((SELECT sum(l.work_completed) FROM procore.commitment_line_items l WHERE l.commitment_id = c.id), 0)
               AS wc,
           coalesce((SELECT sum(r.gross_amount) FROM procore.requisitions r
                     WHERE r.commitment_id = c.id AND r.status = 'approved'), 0) AS approved,
           coalesce((SELECT sum(r.gross_amount) FROM procore.requisitions r
                     WHERE r.commitment_id = c.id AND r.status = 'approved' AND r.erp_sync_status = 'synced'), 0)
               AS synced,
           coalesce((SELECT sum(r.gross_amount) FROM procore.requisitions r
                     WHERE r.commitment_id = c.id AND r.status IN ('approved', 'under_review')), 0) AS with_review,
           coalesce((SELECT sum(r.gross_amount) FROM procore.requisitions r
                     WHERE r.commitment_id = c.id), 0) AS every_request
    FROM c
)
SELECT CAST(sum(wc - approved) FILTER (WHERE sub) AS DECIMAL(18,2)) AS netted,
       CAST(sum(greatest(wc - with_review, 0)) FILTER (WHERE sub) AS DECIMAL(18,2)) AS under_review_billed,
       CAST(sum(greatest(wc - every_request, 0)) FILTER (WHERE sub) AS DECIMAL(18,2)) AS drafts_billed,
       CAST(sum(greatest(wc - synced, 0)) FILTER (WHERE sub) AS DECIMAL(18,2)) AS synced_only,
       CAST(sum(greatest(wc - approved, 0)) AS DECIMAL(18,2)) AS with_purchase_orders
FROM per;

-- name: other_job
-- The nearest other job in Vista (the lookalike record a careless entry lands on).
SELECT p.origin_id AS erp_job, p.project_number
FROM procore.projects p
WHERE p.project_number <> $job AND p.active AND p.origin_id IS NOT NULL
  AND EXISTS (SELECT 1 FROM vista_erp.JCJM j WHERE j.Job = p.origin_id)
ORDER BY abs(CAST(p.project_number AS INTEGER) - CAST($job AS INTEGER)), p.project_number
LIMIT 1;

-- name: erp_job
-- The job's id in another ERP (the extension keys stage the accrual there).
SELECT book.system_job_id($erp, $job) AS erp_job;

-- name: period_status
-- The book's status of the GL period the entry date falls in (every ERP shows the book's periods).
SELECT status FROM book.gl_periods WHERE start_date <= CAST($entry_date AS DATE) AND end_date >= CAST($entry_date AS DATE);

-- name: erp_other_job
-- The nearest other active job, as another ERP ids it (the lookalike record a careless entry lands on).
SELECT book.system_job_id($erp, p.project_number) AS erp_job, p.project_number
FROM procore.projects p
WHERE p.project_number <> $job AND p.active
ORDER BY abs(CAST(p.project_number AS INTEGER) - CAST($job AS INTEGER)), p.project_number
LIMIT 1;

-- name: policy_path
-- Where the month-end close policy is readable (SharePoint).
SELECT folder || '/' || filename AS path
FROM book.documents
WHERE doc_type = 'policy' AND store = 'sharepoint' AND filename = 'month_end_close_policy.md';
