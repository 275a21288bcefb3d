-- corpay models vendors (Corpay's spelling) and the issued checks it paid.
-- entity: vendor
SELECT m.master_vendor_id AS entity_key, v.vendor_name AS name
FROM corpay.vendors v
JOIN hh2.vendor_map m ON m.system = 'corpay' AND m.system_vendor_id = v.vendor_id;

-- entity: check
SELECT substr(b.funding_account_id, 4) || '|' || CAST(p.check_number AS VARCHAR) AS entity_key,
       CAST(p.amount AS DECIMAL(18,2)) AS amount, p.payee_name AS payee_name, p.payment_date AS issue_date
FROM corpay.payments p
JOIN corpay.payment_batches b USING (batch_id)
WHERE p.payment_method = 'Check'
