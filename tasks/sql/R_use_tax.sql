-- R_use_tax: the use tax owed on one job's material purchases of the month, for that job's
-- state's use-tax return in Avalara.
--
-- Per the use-tax policy: over the supplier invoices posted in the ERP with an invoice date in the
-- month and no purchase order (PO invoices are tax-included), an invoice owes use tax unless the
-- supplier billed sales tax on it (a "Sales tax" line) or an exemption certificate given to that
-- supplier for the job covers its date (an expired one does not). The taxable base is the
-- invoice's lines less separately stated freight; the tax is the base at the job location's
-- combined rate in Avalara (state + county + city), rounded to the cent, on that state's return.

-- name: purchases
-- The job's supplier invoices of the month ($job, $month 'YYYY-MM') entered in the ERP, each with
-- what the policy makes of it.
WITH inv AS (
    SELECT i.invoice_id, i.invoice_number, i.vendor_key, v.legal_name AS vendor, i.invoice_date, i.erp_status,
           i.commitment_id, i.gross_amount,
           coalesce(sum(l.amount) FILTER (WHERE l.description ILIKE 'freight%'), 0) AS freight,
           coalesce(sum(l.amount) FILTER (WHERE l.description ILIKE 'sales tax%'), 0) AS vendor_tax,
           bool_or(l.description ILIKE 'sales tax%') AS vendor_taxed,
           EXISTS (SELECT 1 FROM book.tax_exemption_certificates c
                   WHERE c.vendor_key = i.vendor_key AND c.job_number = i.job_number
                     AND i.invoice_date BETWEEN c.signed_date AND c.expiration_date) AS exempt,
           EXISTS (SELECT 1 FROM book.tax_exemption_certificates c
                   WHERE c.vendor_key = i.vendor_key AND c.job_number = i.job_number
                     AND i.invoice_date > c.expiration_date) AS expired_certificate
    FROM book.ap_invoices i
    JOIN book.vendors v ON v.vendor_key = i.vendor_key AND v.vendor_type = 'supplier'
    JOIN book.ap_invoice_lines l ON l.invoice_id = i.invoice_id
    WHERE i.job_number = $job AND strftime(i.invoice_date, '%Y-%m') = $month
      AND i.erp_status IN ('posted', 'unposted')
    GROUP BY ALL
)
SELECT inv.*,
       erp_status = 'posted' AND commitment_id IS NULL AS in_scope,
       CASE WHEN erp_status = 'posted' AND commitment_id IS NULL AND NOT vendor_taxed AND NOT exempt
            THEN gross_amount - freight ELSE 0 END::DECIMAL(18,2) AS taxable
FROM inv
ORDER BY invoice_date, invoice_number, invoice_id;

-- name: candidates
-- Active jobs with supplier invoices posted in the month ($month) outside a PO, with the
-- twists their month holds; clean: none of them (a plain control).
WITH p AS (
    SELECT i.job_number, i.invoice_id, i.vendor_key, i.invoice_date,
           bool_or(l.description ILIKE 'sales tax%') AS taxed,
           bool_or(l.description ILIKE 'freight%') AS freight
    FROM book.ap_invoices i
    JOIN book.vendors v ON v.vendor_key = i.vendor_key AND v.vendor_type = 'supplier'
    JOIN book.ap_invoice_lines l ON l.invoice_id = i.invoice_id
    WHERE i.erp_status = 'posted' AND i.commitment_id IS NULL AND strftime(i.invoice_date, '%Y-%m') = $month
    GROUP BY ALL
), f AS (
    SELECT p.job_number,
           bool_or(p.taxed) AS vendor_taxed,
           bool_or(p.freight) AS freight,
           bool_or(EXISTS (SELECT 1 FROM book.tax_exemption_certificates c
                           WHERE c.vendor_key = p.vendor_key AND c.job_number = p.job_number)) AS certificate,
           bool_and(p.taxed) AS all_taxed
    FROM p GROUP BY p.job_number
)
SELECT f.job_number, j.state, j.state <> (SELECT state FROM book.company LIMIT 1) AS out_of_state,
       f.vendor_taxed, f.freight, f.certificate,
       NOT (f.vendor_taxed OR f.freight OR f.certificate OR j.state <> (SELECT state FROM book.company LIMIT 1))
           AS clean
FROM f JOIN book.jobs j ON j.job_number = f.job_number AND j.status = 'active'
WHERE NOT f.all_taxed
ORDER BY f.job_number;

-- name: rate
-- The job location's combined use-tax rate in Avalara (state + county + city), and its state.
SELECT j.state, sum(r.rate)::DECIMAL(9,6) AS rate,
       sum(r.rate) FILTER (WHERE r.jurisdiction_type = 'STA')::DECIMAL(9,6) AS state_rate
FROM book.jobs j
JOIN avalara.jurisdiction_rates r ON r.region = j.state
 AND (r.jurisdiction_type = 'STA'
      OR (r.jurisdiction_type = 'CTY' AND lower(r.county) = lower(j.county))
      OR (r.jurisdiction_type = 'CIT' AND lower(r.city) = lower(j.city)))
WHERE j.job_number = $job
GROUP BY j.state;

-- name: home_rate
-- The headquarters' combined rate (what a return filed at home would use).
SELECT c.state, sum(r.rate)::DECIMAL(9,6) AS rate
FROM book.company c
JOIN avalara.jurisdiction_rates r ON r.region = c.state
 AND (r.jurisdiction_type = 'STA' OR (r.jurisdiction_type = 'CIT' AND lower(r.city) = lower(c.city)))
GROUP BY c.state;

-- name: erp_job
SELECT book.system_job_id($erp, $job) AS erp_job, book.system_job_id($erp, $other) AS other_job;
