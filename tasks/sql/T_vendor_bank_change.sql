-- T_vendor_bank_change: an emailed request to change a subcontractor's remittance account,
-- handled by the vendor-master change policy (signed form + callback to the number on file).

-- name: requests
-- Every planted request (seeds/vendor_bank_change.py) whose vendor has a record in each of the
-- family's ERPs, by kind and vendor.
SELECT q.vendor_key, q.kind
FROM book.vendor_bank_change_requests q
WHERE (SELECT count(DISTINCT vi.system) FROM book.vendor_identities vi
       WHERE vi.vendor_key = q.vendor_key AND list_contains(string_split($erps, ','), vi.system))
      = len(string_split($erps, ','))
ORDER BY q.vendor_key;

-- name: case
-- One request: the vendor as the book and the ERP ($erp) keep it (email and phone on file, the
-- remittance account on file), the request, its form and callback, and the Outlook ids of the
-- request, the callback log and the vendor's earlier genuine mail.
SELECT q.*, v.legal_name, coalesce(v.dba_name, v.legal_name) AS short_name, v.email AS email_on_file,
       v.phone AS phone_on_file, split_part(v.email, '@', 2) AS real_domain,
       split_part(q.from_addr, '@', 2) AS sender_domain,
       rm.bank_name AS old_bank_name, rm.routing_number AS old_routing, rm.account_number AS old_account,
       vi.system_vendor_id AS erp_vendor_id,
       (SELECT 'AAMk' || substr(md5('outlook:message:' || e.message_id), 1, 32) FROM book.emails e
        WHERE e.from_addr = q.from_addr AND e.sent_at = q.received_at) AS request_msg,
       (SELECT 'AAMkAt' || substr(md5('outlook:attachment:' || e.message_id || ':1'), 1, 32) FROM book.emails e
        WHERE e.from_addr = q.from_addr AND e.sent_at = q.received_at AND e.attachment_document_ids IS NOT NULL)
           AS form_attachment,
       (SELECT 'AAMk' || substr(md5('outlook:message:' || e.message_id), 1, 32) FROM book.emails e
        WHERE e.subject = 'Callback log - ' || v.legal_name || ' banking change') AS callback_msg,
       (SELECT 'AAMk' || substr(md5('outlook:message:' || min(e.message_id)), 1, 32) FROM book.emails e
        WHERE e.from_addr = v.email AND e.subject LIKE '% - statement of account') AS genuine_msg
FROM book.vendor_bank_change_requests q
JOIN book.vendors v ON v.vendor_key = q.vendor_key
JOIN book.vendor_remittance rm ON rm.vendor_key = q.vendor_key
JOIN book.vendor_identities vi ON vi.vendor_key = q.vendor_key AND vi.system = $erp
WHERE q.vendor_key = $vendor;
