-- G_retainage_reclass: the month-end reclass of subcontract retainage left in 2000 Accounts
-- Payable by the AP import, to 2010 Retainage Payable, one job at a time.
--
-- Per the AP retainage policy: an invoice's retainage is still in 2000 exactly when it is posted
-- and its AP journal entry has no 2010 line. Over the job's subcontract invoices posted in the
-- clock month with their retainage in 2000: withheld = the positive retainage (Dr 2000 / Cr 2010),
-- released = minus the negative retainage of retainage releases on finished subcontracts
-- (Dr 2010 / Cr 2000, on lines of their own). Invoices keyed in AP entry (already split at
-- posting) and entered-but-unposted invoices are not reclassified.

-- name: candidates
-- Active jobs with retainage in 2000 on subcontract invoices posted in the month ($month 'YYYY-MM'),
-- the period open.
WITH pending AS (
    SELECT i.job_number, i.retainage_amount
    FROM book.ap_invoices i
    JOIN book.commitments c ON c.commitment_id = i.commitment_id AND c.commitment_type = 'subcontract'
    WHERE i.erp_status = 'posted' AND strftime(i.invoice_date, '%Y-%m') = $month AND i.retainage_amount <> 0
      AND NOT EXISTS (SELECT 1 FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
                      WHERE e.source_ref = i.invoice_id AND l.account = '2010')
)
SELECT p.job_number,
       sum(p.retainage_amount) FILTER (WHERE p.retainage_amount > 0) IS NOT NULL AS withholds,
       sum(p.retainage_amount) FILTER (WHERE p.retainage_amount < 0) IS NOT NULL AS releases,
       -- a clean control: nothing but the import's withholding (no release, no invoice of the month
       -- already split at posting, none entered and unposted)
       NOT bool_or(p.retainage_amount < 0) AND NOT EXISTS (
           SELECT 1 FROM book.ap_invoices i
           JOIN book.commitments c ON c.commitment_id = i.commitment_id AND c.commitment_type = 'subcontract'
           WHERE i.job_number = p.job_number AND strftime(i.invoice_date, '%Y-%m') = $month
             AND i.retainage_amount <> 0 AND i.erp_status IN ('posted', 'unposted')
             AND (i.erp_status = 'unposted' OR EXISTS (
                 SELECT 1 FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
                 WHERE e.source_ref = i.invoice_id AND l.account = '2010'))) AS clean
FROM pending p
JOIN book.jobs j ON j.job_number = p.job_number AND j.status = 'active'
WHERE (SELECT g.status FROM book.gl_periods g WHERE g.period = $month) = 'open'
GROUP BY p.job_number
ORDER BY p.job_number;

-- name: invoices
-- The job's subcontract invoices of the month: posted or entered, whether their retainage is
-- still in 2000 (pending) and each careless reading's inputs.
SELECT i.invoice_id, i.invoice_number, i.commitment_id AS contract_code, v.legal_name AS vendor, i.erp_status,
       i.gross_amount, i.retainage_amount, i.net_amount,
       i.erp_status = 'posted' AND NOT EXISTS (
           SELECT 1 FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
           WHERE e.source_ref = i.invoice_id AND l.account = '2010') AS pending
FROM book.ap_invoices i
JOIN book.commitments c ON c.commitment_id = i.commitment_id AND c.commitment_type = 'subcontract'
JOIN book.vendors v ON v.vendor_key = i.vendor_key
WHERE i.job_number = $job AND strftime(i.invoice_date, '%Y-%m') = $month
  AND i.erp_status IN ('posted', 'unposted') AND i.retainage_amount <> 0
ORDER BY i.invoice_date, i.invoice_number, i.invoice_id;

-- name: reclass
-- The job's reclass: retainage withheld and released still in 2000 / 2010, and the totals a
-- careless reading gives: every posted invoice of the month (already split ones too), the
-- entered-but-unposted ones counted, the release netted or added to the withholding.
WITH inv AS (
    SELECT i.retainage_amount AS ret, i.erp_status,
           i.erp_status = 'posted' AND NOT EXISTS (
               SELECT 1 FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
               WHERE e.source_ref = i.invoice_id AND l.account = '2010') AS pending
    FROM book.ap_invoices i
    JOIN book.commitments c ON c.commitment_id = i.commitment_id AND c.commitment_type = 'subcontract'
    WHERE i.job_number = $job AND strftime(i.invoice_date, '%Y-%m') = $month
      AND i.erp_status IN ('posted', 'unposted')
)
SELECT coalesce(sum(ret) FILTER (WHERE pending AND ret > 0), 0) AS withheld,
       coalesce(-sum(ret) FILTER (WHERE pending AND ret < 0), 0) AS released,
       coalesce(sum(ret) FILTER (WHERE erp_status = 'posted' AND ret > 0), 0) AS every_posted,
       coalesce(sum(ret) FILTER (WHERE (pending OR erp_status = 'unposted') AND ret > 0), 0) AS with_unposted,
       coalesce(sum(ret) FILTER (WHERE pending), 0) AS netted,
       coalesce(sum(abs(ret)) FILTER (WHERE pending), 0) AS release_added,
       book.system_job_id($erp, $job) AS erp_job,
       (SELECT min(j2.job_number) FROM book.jobs j2 WHERE j2.status = 'active' AND j2.job_number > $job) AS next_job,
       (SELECT max(j2.job_number) FROM book.jobs j2 WHERE j2.status = 'active' AND j2.job_number < $job) AS prev_job
FROM inv;

-- name: erp_job
SELECT book.system_job_id($erp, $job) AS erp_job;
