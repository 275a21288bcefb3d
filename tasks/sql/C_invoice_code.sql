-- C_invoice_code: an emailed PDF invoice that exists in no system: read it, match its Procore
-- commitment, create the DRAFT bill in Sage Intacct (job / cost-code dimensions through the
-- crosswalk) and draft the routing email to the job's project manager.

-- name: keys
-- The published key: the paper's job (JSM-88421 on 9140, $jobs), when the book has its invoice.
SELECT DISTINCT i.job_number
FROM book.divergences d
JOIN book.ap_invoices i ON i.invoice_id = d.entity_key
WHERE d.family = 'C_invoice_code' AND d.kind = 'unentered_invoice'
  AND list_contains(string_split($jobs, ','), i.job_number)
ORDER BY i.job_number;

-- name: held_out_keys
-- The held-out candidates: the other jobs with exactly one unentered, single-line invoice whose PDF
-- is in Box and whose vendor's PO is in Sage Intacct (what the ``invoice`` query needs).
SELECT i.job_number
FROM book.divergences d
JOIN book.ap_invoices i ON i.invoice_id = d.entity_key
JOIN book.commitments c ON c.commitment_id = i.commitment_id
JOIN hh2.job_map ij ON ij.master_job_number = i.job_number AND ij.system = 'sage_intacct'
JOIN sage_intacct."PODOCUMENT" po ON po."REFERENCENO" = c.number AND po."PROJECTID" = ij.system_job_id
JOIN book.documents doc ON doc.document_id = i.document_id
WHERE d.family = 'C_invoice_code' AND d.kind = 'unentered_invoice'
  AND NOT list_contains(string_split($jobs, ','), i.job_number)
  AND (SELECT count(*) FROM book.ap_invoice_lines l WHERE l.invoice_id = i.invoice_id) = 1
GROUP BY i.job_number
HAVING count(*) = 1
ORDER BY i.job_number;

-- name: invoice
-- The unentered invoice on the job, its one line, the commitment it bills (Procore number, Intacct
-- document), the Intacct ids (hh2 maps), the PDF in Box and the job's project manager.
SELECT i.invoice_id, i.invoice_number, i.invoice_date, i.due_date, i.gross_amount, i.retainage_amount,
       i.net_amount, i.description, i.vendor_key, v.legal_name AS vendor_name, v.email AS vendor_email,
       l.cost_code, l.description AS line_description, l.amount AS line_amount, l.retainage AS line_retainage,
       l.commitment_line_no,
       c.commitment_id, c.number AS po_number, cl.amount AS po_line_amount,
       iv.system_vendor_id AS intacct_vendor, ij.system_job_id AS intacct_job,
       cm.erp_phase AS intacct_task, cm.erp_cost_type AS intacct_cost_type,
       po."DOCNO" AS intacct_po, po."VENDORID" AS intacct_po_vendor,
       f.id AS box_file_id, f.path_collection || '/' || f.name AS box_path, f.sha256 AS pdf_sha256,
       j.project_manager, j.pm_email,
       (SELECT coalesce(sum(bi."AMOUNT"), 0) FROM sage_intacct."APBILLITEM" bi
         WHERE bi."PODOCUMENTID" = po."DOCNO" AND bi."POLINENO" = l.commitment_line_no) AS po_line_billed
FROM book.ap_invoices i
JOIN book.ap_invoice_lines l ON l.invoice_id = i.invoice_id
JOIN book.vendors v ON v.vendor_key = i.vendor_key
JOIN book.jobs j ON j.job_number = i.job_number
JOIN book.commitments c ON c.commitment_id = i.commitment_id
JOIN book.commitment_lines cl ON cl.commitment_id = c.commitment_id AND cl.line_no = l.commitment_line_no
JOIN hh2.vendor_map iv ON iv.master_vendor_id = i.vendor_key AND iv.system = 'sage_intacct'
JOIN hh2.job_map ij ON ij.master_job_number = i.job_number AND ij.system = 'sage_intacct'
JOIN hh2.cost_code_map cm ON cm.cost_code = l.cost_code AND cm.erp_system = 'sage_intacct'
JOIN sage_intacct."PODOCUMENT" po ON po."REFERENCENO" = c.number AND po."PROJECTID" = ij.system_job_id
JOIN book.documents d ON d.document_id = i.document_id
JOIN box.files f ON f.name = d.filename AND f.path_collection = d.folder AND f.item_status = 'active'
WHERE i.job_number = $job AND i.invoice_id IN (
    SELECT entity_key FROM book.divergences WHERE family = 'C_invoice_code' AND kind = 'unentered_invoice');

-- name: email
-- The vendor's email that brought the invoice to the AP mailbox (the inbox route to the PDF).
SELECT m.id AS message_id, a.id AS attachment_id
FROM outlook.messages m
JOIN outlook.attachments a ON a.message_id = m.id
WHERE m.mailbox = 'ap@companyA.com' AND m.subject ILIKE '%' || $invoice || '%' AND a.name ILIKE '%' || $invoice || '%'
ORDER BY m.receivedDateTime DESC
LIMIT 1;

-- name: prior_invoices
-- The vendor's earlier invoices billing the same commitment in Sage Intacct (the invoice-number
-- lookalikes a careless report gives).
SELECT b."RECORDID" AS invoice_number
FROM sage_intacct."APBILL" b
WHERE b."VENDORID" = $vendor AND b."PODOCUMENTID" = $po AND b."RECORDID" <> $invoice
ORDER BY b."WHENCREATED" DESC, b."RECORDID";

-- name: other_commitments
-- The job's other commitments and the vendor's commitments on other jobs (the commitment
-- lookalikes), with the other job's project manager (the wrong approver).
SELECT c.number, c.commitment_id, c.job_number, j.pm_email
FROM book.commitments c
JOIN book.jobs j ON j.job_number = c.job_number
WHERE (c.job_number = $job OR c.vendor_key = $vendor) AND c.commitment_id <> $commitment
ORDER BY c.vendor_key = $vendor DESC, c.number DESC;

-- name: procore_commitment
-- Procore's own id for the commitment (another spelling of the same record).
SELECT c.id
FROM procore.commitments c
JOIN procore.projects p ON p.id = c.project_id
WHERE p.project_number = $job AND c.number = $number;

-- name: po_first_line
-- The Intacct task of the commitment's first line (where a careless coder puts every bill).
SELECT "TASKID" AS task_id FROM sage_intacct."PODOCUMENTENTRY" WHERE "DOCNO" = $po ORDER BY "LINE_NO" LIMIT 1;
