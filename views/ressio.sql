-- ressio: projection of the book into Ressio (residential).
--
-- Ids: projects book.system_job_id('ressio', job) ('R1042'); vendors from
-- book.vendor_identities (system 'ressio'); purchase orders and bills get sequential integers
-- ordered by the book's natural key. Every book commitment is a Ressio PO (subcontracts are
-- trade-partner POs); its number is the PM number ('9140-75'), commitment_ref the company code.
-- Bills: the book's entered invoices (held by the PM side or entered in the ERP), plus bills
-- that were keyed into Ressio only (registered divergences, below; an instance is keyed by the
-- invoice id or vendor|invoice number). Approved and paid PO bills already booked in the ERP are
-- Matched; the rest are Unmatched until bills.match_po runs (approved ones still count against
-- their PO's open amount).
-- Divergences honoured:
--   vendor_spelling    vendor names from book.vendor_identities
--   bill_po_mismatch   the bill is in Ressio (status Pending Approval, Unmatched) although no
--                      other system has entered it; its amount exceeds what is open on its PO
--   unbooked_bill      the bill is in Ressio (Pending Approval, Unmatched) but not yet booked in
--                      the ERP (accounting_status 'Not Synced')

INSERT INTO ressio.projects
WITH sov AS (SELECT job_number, sum(scheduled_value) AS amt FROM book.prime_sov_lines GROUP BY job_number)
SELECT book.system_job_id('ressio', j.job_number), j.job_number, j.name,
       CASE j.status WHEN 'active' THEN 'Active' ELSE 'Completed' END,
       o.name, j.address, j.city, j.state, j.project_manager,
       CAST(coalesce(sov.amt, pc.original_amount, 0) AS DECIMAL(18,2))
FROM book.jobs j
JOIN book.owners o ON o.owner_id = j.owner_id
LEFT JOIN book.prime_contracts pc ON pc.job_number = j.job_number
LEFT JOIN sov ON sov.job_number = j.job_number
ORDER BY j.job_number;

INSERT INTO ressio.vendors
SELECT coalesce(vi.system_vendor_id, 'RV-' || v.vendor_key),
       coalesce(vi.spelled_name, v.legal_name),
       CASE v.vendor_type WHEN 'subcontractor' THEN 'Trade Partner' WHEN 'supplier' THEN 'Supplier' ELSE 'Service' END,
       v.trade, v.email, v.phone, v.payment_terms, v.status = 'active'
FROM book.vendors v
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = v.vendor_key AND vi.system = 'ressio'
ORDER BY v.vendor_key;

INSERT INTO ressio.purchase_orders
SELECT 400000 + row_number() OVER (ORDER BY c.commitment_id),
       book.system_job_id('ressio', c.job_number), c.number, c.commitment_id,
       coalesce(vi.system_vendor_id, 'RV-' || c.vendor_key),
       CASE c.commitment_type WHEN 'purchase_order' THEN 'Material' ELSE 'Subcontract' END,
       c.title,
       CASE c.status WHEN 'draft' THEN 'Draft' WHEN 'closed' THEN 'Closed' ELSE 'Approved' END,
       c.executed_date, c.original_amount, c.approved_co_amount, c.amount, c.retainage_pct
FROM book.commitments c
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = c.vendor_key AND vi.system = 'ressio'
ORDER BY c.commitment_id;

INSERT INTO ressio.po_items
SELECT po.po_id, l.line_no, l.cost_code, l.description, l.amount
FROM book.commitment_lines l
JOIN ressio.purchase_orders po ON po.commitment_ref = l.commitment_id
ORDER BY l.commitment_id, l.line_no;

INSERT INTO ressio.bills
WITH only_here AS (
    SELECT DISTINCT i.invoice_id FROM book.ap_invoices i
    JOIN book.divergences d ON d.kind IN ('bill_po_mismatch', 'unbooked_bill') AND d.entity = 'invoice'
     AND d.entity_key IN (i.invoice_id, i.vendor_key || '|' || i.invoice_number)
), ids AS (
    SELECT i.invoice_id, 500000 + row_number() OVER (ORDER BY i.invoice_id) AS id,
           oh.invoice_id IS NOT NULL AS only_here
    FROM book.ap_invoices i
    LEFT JOIN only_here oh ON oh.invoice_id = i.invoice_id
    WHERE i.pm_status IS NOT NULL OR i.erp_status <> 'not_entered' OR oh.invoice_id IS NOT NULL
), s AS (
    SELECT i.*, ids.id, ids.only_here,
           CASE WHEN i.paid_amount > 0 AND i.paid_amount >= i.net_amount THEN 'Paid'
                WHEN i.pm_status = 'approved' THEN 'Approved'
                WHEN i.pm_status = 'under_review' THEN 'Pending Approval'
                WHEN i.pm_status = 'draft' THEN 'Draft'
                WHEN i.pm_status = 'rejected' THEN 'Rejected'
                WHEN i.erp_status <> 'not_entered' THEN 'Approved'
                ELSE 'Pending Approval' END AS r_status
    FROM ids JOIN book.ap_invoices i ON i.invoice_id = ids.invoice_id
)
SELECT s.id, s.invoice_number, book.system_job_id('ressio', s.job_number),
       coalesce(vi.system_vendor_id, 'RV-' || s.vendor_key), po.po_id,
       s.invoice_date, s.due_date, s.description,
       s.gross_amount, s.retainage_amount, s.net_amount, s.r_status,
       CASE WHEN po.po_id IS NOT NULL AND s.r_status IN ('Approved', 'Paid') AND s.erp_status <> 'not_entered'
                 AND NOT s.only_here THEN 'Matched'
            ELSE 'Unmatched' END,
       CASE WHEN s.erp_status <> 'not_entered' THEN 'Synced' ELSE 'Not Synced' END,
       d.filename
FROM s
LEFT JOIN ressio.purchase_orders po ON po.commitment_ref = s.commitment_id
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = s.vendor_key AND vi.system = 'ressio'
LEFT JOIN book.documents d ON d.document_id = s.document_id
ORDER BY s.id;

INSERT INTO ressio.bill_items
WITH only_here AS (
    SELECT DISTINCT i.invoice_id FROM book.ap_invoices i
    JOIN book.divergences d ON d.kind IN ('bill_po_mismatch', 'unbooked_bill') AND d.entity = 'invoice'
     AND d.entity_key IN (i.invoice_id, i.vendor_key || '|' || i.invoice_number)
), ids AS (
    SELECT i.invoice_id, 500000 + row_number() OVER (ORDER BY i.invoice_id) AS id
    FROM book.ap_invoices i
    LEFT JOIN only_here oh ON oh.invoice_id = i.invoice_id
    WHERE i.pm_status IS NOT NULL OR i.erp_status <> 'not_entered' OR oh.invoice_id IS NOT NULL
)
SELECT ids.id, l.line_no, l.commitment_line_no, l.cost_code, l.description, l.amount, l.retainage
FROM book.ap_invoice_lines l
JOIN ids ON ids.invoice_id = l.invoice_id
ORDER BY ids.id, l.line_no;
