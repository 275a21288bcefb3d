-- track1099 models vendors (payees as the W-9 says): name and TIN.
-- entity: vendor
SELECT m.master_vendor_id AS entity_key, r.name AS name, r.tin AS tin
FROM track1099.recipients r
JOIN hh2.vendor_map m ON m.system = 'track1099' AND m.system_vendor_id = r.recipient_id
