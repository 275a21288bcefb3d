-- redteam: projection of the book into RedTeam Go.
--
-- Ids: projects book.system_job_id('redteam', job) ('RT-1042'); companies from
-- book.vendor_identities (system 'redteam'); commitments and eApps get sequential integers
-- ordered by the book's natural key.
-- eApps are the book's pay requests against commitments that the PM side holds (pm_status set).
-- Divergences honoured:
--   vendor_spelling          company names from book.vendor_identities
--   commitment_cap_exceeded  (instance keyed by invoice id or vendor|invoice number) the
--                            subcontractor's eApp bills past the commitment cap: its
--                            amount_this_period is raised to (remaining commitment before this
--                            eApp) + 5% of the commitment amount when the book's amount would not
--                            already exceed it; the difference sits on the eApp's last line and
--                            carries the commitment's retainage.

INSERT INTO redteam.projects
WITH sov AS (SELECT job_number, sum(scheduled_value) AS amt FROM book.prime_sov_lines GROUP BY job_number)
SELECT book.system_job_id('redteam', j.job_number), j.job_number, j.name,
       CASE j.status WHEN 'active' THEN 'In Progress' ELSE 'Closed' END,
       o.name, j.project_manager, j.superintendent, j.address, j.city, j.state,
       CAST(coalesce(sov.amt, pc.original_amount, 0) AS DECIMAL(18,2)),
       j.start_date, j.est_completion_date
FROM book.jobs j
JOIN book.owners o ON o.owner_id = j.owner_id
LEFT JOIN book.prime_contracts pc ON pc.job_number = j.job_number
LEFT JOIN sov ON sov.job_number = j.job_number
ORDER BY j.job_number;

INSERT INTO redteam.companies
SELECT coalesce(vi.system_vendor_id, 'RTC-' || v.vendor_key),
       coalesce(vi.spelled_name, v.legal_name),
       CASE v.vendor_type WHEN 'subcontractor' THEN 'Subcontractor' WHEN 'supplier' THEN 'Supplier'
                          WHEN 'professional' THEN 'Professional' ELSE 'Service' END,
       v.trade, v.email, v.phone, v.city, v.state, v.status = 'active'
FROM book.vendors v
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = v.vendor_key AND vi.system = 'redteam'
ORDER BY v.vendor_key;

INSERT INTO redteam.commitments
SELECT 700000 + row_number() OVER (ORDER BY c.commitment_id),
       book.system_job_id('redteam', c.job_number), c.commitment_id, c.number,
       CASE c.commitment_type WHEN 'purchase_order' THEN 'Purchase Order' ELSE 'Subcontract' END,
       coalesce(vi.system_vendor_id, 'RTC-' || c.vendor_key),
       c.title,
       CASE c.status WHEN 'draft' THEN 'Draft' WHEN 'closed' THEN 'Closed' ELSE 'Locked' END,
       c.original_amount, c.approved_co_amount, c.amount, c.retainage_pct, c.executed_date
FROM book.commitments c
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = c.vendor_key AND vi.system = 'redteam'
ORDER BY c.commitment_id;

INSERT INTO redteam.commitment_sov
SELECT rc.commitment_id, l.line_no, l.cost_code, l.description, l.amount, l.pct_complete
FROM book.commitment_lines l
JOIN redteam.commitments rc ON rc.commitment_number = l.commitment_id
ORDER BY l.commitment_id, l.line_no;

INSERT INTO redteam.change_orders
SELECT 750000 + row_number() OVER (ORDER BY co.co_id),
       book.system_job_id('redteam', co.job_number),
       CASE co.co_type WHEN 'owner' THEN 'OCO-' WHEN 'commitment' THEN 'SCO-' ELSE 'BT-' END
           || lpad(CAST(co.number AS VARCHAR), 3, '0'),
       CASE co.co_type WHEN 'owner' THEN 'Owner' WHEN 'commitment' THEN 'Subcontract' ELSE 'Budget Transfer' END,
       rc.commitment_id, co.description, co.amount,
       CASE co.status WHEN 'approved' THEN 'Approved' WHEN 'pending' THEN 'Pending' ELSE 'Void' END,
       co.approved_date, co.co_id
FROM book.change_orders co
LEFT JOIN redteam.commitments rc ON rc.commitment_number = co.commitment_id
ORDER BY co.co_id;

-- eApps ------------------------------------------------------------------------------------------
INSERT INTO redteam.eapps
WITH req AS (
    SELECT i.*, 800000 + row_number() OVER (ORDER BY i.commitment_id, i.requisition_number, i.invoice_id) AS eapp_id,
           row_number() OVER (PARTITION BY i.commitment_id ORDER BY i.invoice_date, i.invoice_id) AS seq
    FROM book.ap_invoices i
    WHERE i.commitment_id IS NOT NULL AND i.pm_status IS NOT NULL
), cap AS (
    SELECT r.invoice_id, c.amount AS cap_amount, c.retainage_pct,
           c.amount - coalesce((SELECT sum(o.gross_amount) FROM book.ap_invoices o
                                WHERE o.commitment_id = r.commitment_id AND o.invoice_id <> r.invoice_id
                                  AND o.pm_status = 'approved'), 0) AS remaining
    FROM req r
    JOIN book.commitments c ON c.commitment_id = r.commitment_id
    WHERE EXISTS (SELECT 1 FROM book.divergences d
                  WHERE d.kind = 'commitment_cap_exceeded' AND d.entity = 'invoice'
                    AND d.entity_key IN (r.invoice_id, r.vendor_key || '|' || r.invoice_number))
), adj AS (
    SELECT r.*,
           CAST(CASE WHEN cap.invoice_id IS NOT NULL AND r.gross_amount <= cap.remaining
                     THEN cap.remaining + round(cap.cap_amount * 0.05, 2) - r.gross_amount ELSE 0 END AS DECIMAL(18,2)) AS delta,
           coalesce(cap.retainage_pct, 0) AS cap_ret_pct
    FROM req r
    LEFT JOIN cap ON cap.invoice_id = r.invoice_id
)
SELECT a.eapp_id, rc.project_id, rc.commitment_id, rc.company_id,
       coalesce(a.requisition_number, CAST(a.seq AS INTEGER)),
       a.invoice_number, a.period_start, a.period_end, a.invoice_date, a.due_date,
       CAST(a.gross_amount + a.delta AS DECIMAL(18,2)),
       CAST(a.retainage_amount + round(a.delta * a.cap_ret_pct / 100, 2) AS DECIMAL(18,2)),
       CAST(a.gross_amount + a.delta - a.retainage_amount - round(a.delta * a.cap_ret_pct / 100, 2) AS DECIMAL(18,2)),
       CASE a.pm_status WHEN 'draft' THEN 'Draft' WHEN 'under_review' THEN 'Submitted'
                        WHEN 'approved' THEN 'Approved' WHEN 'rejected' THEN 'Rejected' ELSE 'Submitted' END,
       NULL, NULL,
       CASE WHEN a.paid_amount > 0 AND a.paid_amount >= a.net_amount THEN 'Paid'
            WHEN a.paid_amount > 0 THEN 'Partially Paid' ELSE 'Unpaid' END
FROM adj a
JOIN redteam.commitments rc ON rc.commitment_number = a.commitment_id
ORDER BY a.eapp_id;

INSERT INTO redteam.eapp_lines
WITH req AS (
    SELECT i.invoice_id, i.commitment_id, i.vendor_key, i.invoice_number,
           800000 + row_number() OVER (ORDER BY i.commitment_id, i.requisition_number, i.invoice_id) AS eapp_id
    FROM book.ap_invoices i
    WHERE i.commitment_id IS NOT NULL AND i.pm_status IS NOT NULL
), last_line AS (
    SELECT invoice_id, max(line_no) AS line_no FROM book.ap_invoice_lines GROUP BY invoice_id
), book_total AS (
    SELECT r.eapp_id, i.gross_amount, i.retainage_amount
    FROM req r JOIN book.ap_invoices i ON i.invoice_id = r.invoice_id
)
SELECT r.eapp_id, l.line_no, l.commitment_line_no, l.cost_code, l.description,
       CAST(l.amount + CASE WHEN l.line_no = ll.line_no THEN e.amount_this_period - bt.gross_amount ELSE 0 END AS DECIMAL(18,2)),
       CAST(l.retainage + CASE WHEN l.line_no = ll.line_no THEN e.retainage_this_period - bt.retainage_amount ELSE 0 END AS DECIMAL(18,2))
FROM book.ap_invoice_lines l
JOIN req r ON r.invoice_id = l.invoice_id
JOIN last_line ll ON ll.invoice_id = l.invoice_id
JOIN book_total bt ON bt.eapp_id = r.eapp_id
JOIN redteam.eapps e ON e.eapp_id = r.eapp_id
ORDER BY r.eapp_id, l.line_no;
