-- R_coi_expiry: which subcontractors on a job need a certificate-of-insurance renewal request.
-- A vendor needs one when it holds an open (approved) commitment on the job and one of its
-- current certificates (general liability, auto, workers' compensation or umbrella; the PDFs in
-- Box) expires within 30 days of today or has already expired (insurance_compliance_policy.md
-- §4). A superseded certificate needs nothing; a vendor whose commitments on the job are all
-- complete needs no request from this job.

-- name: clock
SELECT CAST(value AS DATE) AS clock FROM cfab_internal.meta WHERE key = 'clock';

-- name: job_vendors
-- Every vendor with a commitment on the job: whether one is open, its current certificates
-- expiring by today + 30 days (with their Box files), its superseded certificates, and its
-- Procore id and email.
WITH clk AS (SELECT CAST(value AS DATE) AS clock FROM cfab_internal.meta WHERE key = 'clock'),
on_job AS (
    SELECT vendor_key, bool_or(status = 'approved') AS open_commitment, list(DISTINCT commitment_id ORDER BY commitment_id) AS commitments
    FROM book.commitments WHERE job_number = $job GROUP BY vendor_key
),
certs AS (
    SELECT c.vendor_key, c.coverage_type, c.expiry_date, c.is_current, f.id AS file_id, f.name AS file_name
    FROM book.certificates_of_insurance c
    JOIN book.documents d ON d.document_id = c.document_id
    JOIN box.files f ON f.name = d.filename AND f.path_collection = d.folder AND f.item_status = 'active'
)
SELECT j.vendor_key, v.legal_name, v.email, j.open_commitment, j.commitments,
       pm.system_vendor_id AS procore_id, count(x.coverage_type) AS certificates,
       list(x.coverage_type ORDER BY x.expiry_date, x.coverage_type) FILTER (WHERE x.is_current AND x.expiry_date <= clk.clock + INTERVAL 30 DAY) AS expiring,
       list(x.expiry_date ORDER BY x.expiry_date, x.coverage_type) FILTER (WHERE x.is_current AND x.expiry_date <= clk.clock + INTERVAL 30 DAY) AS expiring_dates,
       list(x.file_id ORDER BY x.expiry_date, x.coverage_type) FILTER (WHERE x.is_current AND x.expiry_date <= clk.clock + INTERVAL 30 DAY) AS expiring_files,
       list(x.coverage_type ORDER BY x.coverage_type) FILTER (WHERE NOT x.is_current) AS superseded
FROM on_job j
CROSS JOIN clk
JOIN book.vendors v ON v.vendor_key = j.vendor_key
JOIN hh2.vendor_map pm ON pm.master_vendor_id = j.vendor_key AND pm.system = 'procore'
LEFT JOIN certs x ON x.vendor_key = j.vendor_key
GROUP BY ALL
ORDER BY j.vendor_key;

-- name: jobs
-- The jobs with at least one open commitment (candidates for a key), in job order.
SELECT DISTINCT job_number FROM book.commitments WHERE status = 'approved' ORDER BY job_number;
