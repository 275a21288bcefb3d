-- T_payment_run: a job release in Corpay — one job's posted AP due by a cutoff, paid in the
-- week's Draft batch under the payments policy (§§2, 5, 6).
--
-- A document is in the run's scope when it is posted in the ERP, on the job, due on or before
-- the cutoff and not settled (paid <> net: a credit memo's net is negative). Each carries what
-- the policy's exclusions read: the vendor's ERP payment hold, the invoice's dispute (an
-- invoice-level hold in the ERP), the vendor's pending Corpay enrollment, a retainage-release
-- billing (no work, negative retainage), and for a subcontractor's pay request its conditional
-- progress waiver in Levelset (the largest received or approved one for the pay request, and
-- whether one is only requested). The family decides each document and each vendor's payment
-- (open balance = net - paid; credits net in the vendor's payment) from these rows.

-- name: docs
-- Every active job's in-scope documents at the cutoff ($cutoff, DATE), in job, vendor and date order.
WITH w AS (
    SELECT invoice_id,
           max(amount) FILTER (WHERE status IN ('received', 'approved')) AS waiver_amount,
           bool_or(status = 'requested') AS waiver_requested
    FROM book.lien_waivers
    WHERE waiver_type = 'conditional_progress' AND invoice_id IS NOT NULL
    GROUP BY invoice_id
)
SELECT i.job_number, i.invoice_id, i.invoice_number, i.vendor_key, v.legal_name, v.vendor_type, i.commitment_id,
       i.invoice_date, i.due_date, i.gross_amount, i.retainage_amount, i.net_amount, i.paid_amount,
       i.net_amount - i.paid_amount AS balance,
       h.vendor_key IS NOT NULL AS on_hold, h.hold_code, h.reason AS hold_reason,
       x.invoice_id IS NOT NULL AS disputed, x.reason AS dispute_reason,
       p.vendor_key IS NOT NULL AS pending,
       w.waiver_amount, coalesce(w.waiver_requested, false) AS waiver_requested
FROM book.ap_invoices i
JOIN book.vendors v ON v.vendor_key = i.vendor_key
JOIN book.jobs j ON j.job_number = i.job_number AND j.status = 'active'
LEFT JOIN book.vendor_payment_holds h ON h.vendor_key = i.vendor_key
LEFT JOIN book.ap_invoice_disputes x ON x.invoice_id = i.invoice_id
LEFT JOIN book.payment_enrollment_pending p ON p.vendor_key = i.vendor_key
LEFT JOIN w ON w.invoice_id = i.invoice_id
WHERE i.erp_status = 'posted' AND i.paid_amount <> i.net_amount AND i.due_date <= CAST($cutoff AS DATE)
ORDER BY i.job_number, i.vendor_key, i.invoice_date, i.invoice_number;

-- name: outside
-- The job's ($job) open documents a careless run takes in: posted but due after the cutoff, or
-- due by it but not yet posted (entered, unposted).
SELECT i.invoice_number, i.vendor_key, i.erp_status, i.due_date, i.net_amount - i.paid_amount AS balance
FROM book.ap_invoices i
WHERE i.job_number = $job AND i.paid_amount <> i.net_amount
  AND ((i.erp_status = 'posted' AND i.due_date > CAST($cutoff AS DATE))
       OR (i.erp_status = 'unposted' AND i.due_date <= CAST($cutoff AS DATE)))
ORDER BY i.due_date, i.invoice_number;

-- name: vendors
-- The job's ($job) vendors as the key's ERP ($erp), Corpay and Levelset know them, with Corpay's
-- enrollment.
SELECT v.vendor_key, v.legal_name, v.vendor_type,
       e.system_vendor_id AS erp_vendor_id, e.spelled_name AS erp_name,
       c.system_vendor_id AS corpay_id, c.spelled_name AS corpay_name, cv.payment_method, cv.enrollment_status,
       l.system_vendor_id AS levelset_id
FROM book.vendors v
JOIN book.vendor_identities e ON e.vendor_key = v.vendor_key AND e.system = $erp
JOIN book.vendor_identities c ON c.vendor_key = v.vendor_key AND c.system = 'corpay'
JOIN corpay.vendors cv ON cv.vendor_id = c.system_vendor_id
JOIN book.vendor_identities l ON l.vendor_key = v.vendor_key AND l.system = 'levelset'
WHERE v.vendor_key IN (SELECT vendor_key FROM book.ap_invoices WHERE job_number = $job)
ORDER BY v.vendor_key;

-- name: job
-- The job ($job) with its ids in the key's ERP ($erp) and Levelset.
SELECT j.job_number, j.name, book.system_job_id($erp, j.job_number) AS erp_job,
       book.system_job_id('levelset', j.job_number) AS levelset_job
FROM book.jobs j
WHERE j.job_number = $job;
