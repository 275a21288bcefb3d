-- levelset: companies known to Levelset (ids and spellings from book.vendor_identities system
-- 'levelset'), the company's jobs, the lien waivers of those companies, the open requests behind
-- requested waivers and a preliminary notice per job.

INSERT INTO levelset.companies
SELECT vi.system_vendor_id, vi.spelled_name,
       CASE v.vendor_type WHEN 'subcontractor' THEN 'Subcontractor' WHEN 'supplier' THEN 'Supplier'
                          WHEN 'professional' THEN 'Professional' ELSE 'Service' END,
       v.trade, v.email, v.phone, v.address, v.city, v.state, v.zip
FROM book.vendor_identities vi
JOIN book.vendors v USING (vendor_key)
WHERE vi.system = 'levelset';

INSERT INTO levelset.jobs
SELECT book.system_job_id('levelset', j.job_number), j.name, j.address, j.city, j.state, j.county, o.name,
       CASE o.owner_type WHEN 'public' THEN 'Public' ELSE 'Private' END,
       j.start_date,
       CASE j.status WHEN 'closed' THEN 'Closed' ELSE 'Active' END
FROM book.jobs j
JOIN book.owners o USING (owner_id);

INSERT INTO levelset.waivers
SELECT w.waiver_id, book.system_job_id('levelset', w.job_number), vi.system_vendor_id,
       CASE w.waiver_type WHEN 'conditional_progress' THEN 'Conditional Progress'
                          WHEN 'unconditional_progress' THEN 'Unconditional Progress'
                          WHEN 'conditional_final' THEN 'Conditional Final'
                          WHEN 'unconditional_final' THEN 'Unconditional Final' ELSE w.waiver_type END,
       w.amount, w.through_date, i.invoice_number,
       CASE w.status WHEN 'requested' THEN 'Requested' WHEN 'received' THEN 'Received'
                     WHEN 'approved' THEN 'Approved' WHEN 'rejected' THEN 'Rejected' ELSE w.status END,
       w.signer, w.signed_date, w.document_id
FROM book.lien_waivers w
JOIN book.vendor_identities vi ON vi.vendor_key = w.vendor_key AND vi.system = 'levelset'
LEFT JOIN book.ap_invoices i ON i.invoice_id = w.invoice_id;

INSERT INTO levelset.waiver_requests
SELECT 'WR-' || w.waiver_id, book.system_job_id('levelset', w.job_number), vi.system_vendor_id,
       CASE w.waiver_type WHEN 'conditional_progress' THEN 'Conditional Progress'
                          WHEN 'unconditional_progress' THEN 'Unconditional Progress'
                          WHEN 'conditional_final' THEN 'Conditional Final'
                          WHEN 'unconditional_final' THEN 'Unconditional Final' ELSE w.waiver_type END,
       w.amount, w.through_date, i.invoice_number,
       w.through_date + 14,
       CASE w.status WHEN 'requested' THEN 'Sent' ELSE 'Signed' END,
       w.waiver_id, NULL,
       CAST(w.through_date AS TIMESTAMP) + INTERVAL 1 DAY + INTERVAL 10 HOUR
FROM book.lien_waivers w
JOIN book.vendor_identities vi ON vi.vendor_key = w.vendor_key AND vi.system = 'levelset'
LEFT JOIN book.ap_invoices i ON i.invoice_id = w.invoice_id;

INSERT INTO levelset.notices
SELECT 'PN-' || j.job_number, book.system_job_id('levelset', j.job_number), 'Preliminary Notice', o.name,
       j.start_date + 10, j.start_date + 60, 'Delivered'
FROM book.jobs j
JOIN book.owners o USING (owner_id);
