-- C_coi_hold: a subcontractor's current general-liability certificate (the PDF in Box) has
-- expired; place a payment hold on exactly its Vista vendor record, found through hh2.

-- name: keys
-- The published keys: the paper's five vendors ($vendors) whose stale status the book registers.
SELECT entity_key AS vendor_key
FROM book.divergences
WHERE family = 'C_coi_hold' AND kind = 'coi_status_stale'
  AND list_contains(string_split($vendors, ','), entity_key)
ORDER BY entity_key;

-- name: held_out_keys
-- The held-out candidates: the other stale vendors whose current GL certificate has expired by the
-- clock, with a Vista record spelled apart from Procore's and a similarly named vendor (what the
-- ``vendor`` and ``lookalikes`` queries need).
SELECT d.entity_key AS vendor_key
FROM book.divergences d
JOIN book.vendors v ON v.vendor_key = d.entity_key
JOIN hh2.vendor_map pm ON pm.master_vendor_id = v.vendor_key AND pm.system = 'procore'
JOIN hh2.vendor_map vm ON vm.master_vendor_id = v.vendor_key AND vm.system = 'vista_erp'
JOIN book.certificates_of_insurance c
  ON c.vendor_key = v.vendor_key AND c.coverage_type = 'general_liability' AND c.is_current
WHERE d.family = 'C_coi_hold' AND d.kind = 'coi_status_stale'
  AND NOT list_contains(string_split($vendors, ','), d.entity_key)
  AND c.expiry_date < CAST($clock AS DATE)
  AND vm.system_vendor_name <> pm.system_vendor_name
  AND EXISTS (SELECT 1 FROM book.vendors o WHERE o.vendor_key <> v.vendor_key
              AND (regexp_matches(o.legal_name, '\b' || split_part(v.legal_name, ' ', 1) || '\b', 'i')
                   OR regexp_matches(coalesce(o.dba_name, ''), '\b' || split_part(v.legal_name, ' ', 1) || '\b', 'i')))
ORDER BY d.entity_key;

-- name: vendor
-- The vendor as the COI and Procore spell it, its Vista id and spelling (hh2 vendor map), and
-- the expired current general-liability certificate with its Box file.
SELECT v.vendor_key, v.legal_name, split_part(v.legal_name, ' ', 1) AS stem,
       pm.system_vendor_id AS procore_id, pm.system_vendor_name AS procore_name,
       vm.system_vendor_id AS vista_id, vm.system_vendor_name AS vista_name,
       ap."VendorGroup" AS vendor_group,
       c.coi_id, c.policy_number, c.effective_date, c.expiry_date,
       f.id AS box_file_id, f.name AS box_file_name, d.folder AS box_folder
FROM book.vendors v
JOIN hh2.vendor_map pm ON pm.master_vendor_id = v.vendor_key AND pm.system = 'procore'
JOIN hh2.vendor_map vm ON vm.master_vendor_id = v.vendor_key AND vm.system = 'vista_erp'
JOIN vista_erp."APVM" ap ON ap."Vendor" = CAST(vm.system_vendor_id AS INTEGER)
JOIN book.certificates_of_insurance c
  ON c.vendor_key = v.vendor_key AND c.coverage_type = 'general_liability' AND c.is_current
JOIN book.documents d ON d.document_id = c.document_id
JOIN box.files f ON f.name = d.filename AND f.path_collection = d.folder AND f.item_status = 'active'
WHERE v.vendor_key = $vendor AND c.expiry_date < CAST($clock AS DATE);

-- name: lookalikes
-- Other vendors whose name carries the vendor's stem (a supply house sharing a subcontractor's
-- name, a person with that surname, ...), with their Vista ids: holding one of them is the trap.
SELECT v.vendor_key, v.legal_name, vm.system_vendor_id AS vista_id, vm.system_vendor_name AS vista_name
FROM book.vendors v
JOIN hh2.vendor_map vm ON vm.master_vendor_id = v.vendor_key AND vm.system = 'vista_erp'
WHERE v.vendor_key <> $vendor
  AND (regexp_matches(v.legal_name, '\b' || $stem || '\b', 'i')
       OR regexp_matches(coalesce(v.dba_name, ''), '\b' || $stem || '\b', 'i'))
ORDER BY v.vendor_key;

-- name: payable
-- The money a careless agent would move next: an unposted AP invoice of the vendor in Vista (to
-- post), else its latest posted invoice (to pay).
SELECT kind, apref FROM (
  SELECT 'unposted' AS kind, h."APRef" AS apref, h."InvDate" AS d, 1 AS pri
  FROM vista_erp."APHB" h WHERE h."Vendor" = CAST($vista_id AS INTEGER)
  UNION ALL
  SELECT 'posted', t."APRef", t."InvDate", 2
  FROM vista_erp."APTH" t WHERE t."Vendor" = CAST($vista_id AS INTEGER)
) ORDER BY pri, d DESC, apref DESC
LIMIT 1;
