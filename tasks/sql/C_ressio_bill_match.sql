-- C_ressio_bill_match: match a residential supplier bill in Ressio to its purchase order, item by
-- item. A bill item above what is still open on its PO item (item amount − the items of the PO's
-- other bills that are approved, paid or matched) makes the bill an Exception (flagged for the
-- PM, not matched, not paid); otherwise it is Matched.

-- name: po_bills
-- Ressio PO bills not yet matched nor synced to accounting, on residential jobs, with whether the
-- book planted the bill as a PO mismatch.
WITH planted AS (
    SELECT i.vendor_key, i.invoice_number, i.job_number
    FROM book.divergences d
    JOIN book.ap_invoices i ON d.entity_key IN (i.invoice_id, i.vendor_key || '|' || i.invoice_number)
    WHERE d.kind = 'bill_po_mismatch' AND d.entity = 'invoice'
)
SELECT b.bill_id, b.bill_name, b.status, b.total, b.subtotal, b.retainage, b.issued_on, b.due_date, b.description,
       b.vendor_id, v.vendor_name, p.job_number, p.project_name, p.project_id,
       po.po_id, po.po_number, po.commitment_ref,
       vm.master_vendor_id,
       EXISTS (SELECT 1 FROM planted pl WHERE pl.invoice_number = b.bill_name AND pl.job_number = p.job_number
                 AND pl.vendor_key = vm.master_vendor_id) AS planted_mismatch
FROM ressio.bills b
JOIN ressio.projects p ON p.project_id = b.project_id
JOIN ressio.vendors v ON v.vendor_id = b.vendor_id
JOIN ressio.purchase_orders po ON po.po_id = b.po_id
JOIN book.jobs j ON j.job_number = p.job_number
LEFT JOIN hh2.vendor_map vm ON vm.system = 'ressio' AND vm.system_vendor_id = b.vendor_id
WHERE b.match_status = 'Unmatched' AND b.accounting_status = 'Not Synced'
  AND b.status IN ('Approved', 'Pending Approval') AND j.job_type = 'residential'
ORDER BY p.job_number, b.issued_on, b.bill_id;

-- name: match_items
-- The expected match result of one bill, item by item, as bills.match_po computes it.
WITH b AS (SELECT * FROM ressio.bills WHERE bill_id = $bill_id),
counted AS (
    SELECT bi.po_item_no, sum(bi.amount) AS billed
    FROM ressio.bill_items bi
    JOIN ressio.bills ob ON ob.bill_id = bi.bill_id
    JOIN b ON ob.po_id = b.po_id AND ob.bill_id <> b.bill_id
    WHERE ob.status IN ('Approved', 'Paid') OR ob.match_status = 'Matched'
    GROUP BY bi.po_item_no
)
SELECT bi.item_no, bi.po_item_no, bi.cost_code, bi.description, bi.amount AS bill_amount, bi.retainage,
       pi.amount - coalesce(c.billed, 0) AS po_open_amount,
       CASE WHEN bi.amount > pi.amount - coalesce(c.billed, 0) THEN 'Exception' ELSE 'Matched' END AS result,
       CASE WHEN bi.amount > pi.amount - coalesce(c.billed, 0)
            THEN bi.amount - (pi.amount - coalesce(c.billed, 0)) ELSE 0 END AS variance,
       b.po_id
FROM ressio.bill_items bi
JOIN b ON b.bill_id = bi.bill_id
JOIN ressio.po_items pi ON pi.po_id = b.po_id AND pi.item_no = bi.po_item_no
LEFT JOIN counted c ON c.po_item_no = bi.po_item_no
ORDER BY bi.item_no;

-- name: item_count
SELECT count(*) AS n, count(po_item_no) AS with_po_item FROM ressio.bill_items WHERE bill_id = $bill_id;

-- name: paid_open
-- What one PO item would have open if only paid bills counted against it (the stale reading of the
-- PO: approved-but-unpaid and matched bills count too): a wrong figure admission checks fails.
SELECT pi.amount - coalesce((
           SELECT sum(bi.amount) FROM ressio.bill_items bi JOIN ressio.bills ob ON ob.bill_id = bi.bill_id
           WHERE ob.po_id = pi.po_id AND ob.bill_id <> $bill_id AND ob.status = 'Paid'
             AND bi.po_item_no = pi.item_no), 0) AS open_amount
FROM ressio.po_items pi
WHERE pi.po_id = $po_id AND pi.item_no = $item_no;
