-- track1099: the payer (Company A) and every payee with a Track1099 record (ids and names from
-- book.vendor_identities system 'track1099'), as the W-9 on file says. Forms and filings start
-- empty: building them is the preparer's task.

INSERT INTO track1099.payers
SELECT 'PAYER-' || c.company_id, c.name, c.ein, c.address, c.city, c.state, c.zip, c.phone,
       c.state || '-' || replace(c.ein, '-', '')
FROM book.company c;

INSERT INTO track1099.recipients
SELECT vi.system_vendor_id,
       (SELECT 'PAYER-' || company_id FROM book.company ORDER BY company_id LIMIT 1),
       v.vendor_key,
       vi.spelled_name,
       v.dba_name,
       v.tin, v.tin_type,
       CASE v.entity_type
            WHEN 'individual' THEN 'Individual/sole proprietor or single-member LLC'
            WHEN 'sole_proprietor' THEN 'Individual/sole proprietor or single-member LLC'
            WHEN 'llc_single_member' THEN 'Individual/sole proprietor or single-member LLC'
            WHEN 'partnership' THEN 'Partnership'
            WHEN 'llc_partnership' THEN 'Limited liability company'
            WHEN 's_corporation' THEN 'S Corporation'
            WHEN 'c_corporation' THEN 'C Corporation'
            ELSE v.entity_type END,
       CASE v.entity_type WHEN 'llc_partnership' THEN 'P' END,
       CASE WHEN v.entity_type IN ('c_corporation', 's_corporation') AND NOT v.is_attorney THEN '5' END,
       v.address, v.city, v.state, v.zip, v.email,
       'On File',
       CAST((SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock') - INTERVAL 400 DAY
           + CAST(hash('w9:' || v.vendor_key) % 300 AS INTEGER) * INTERVAL 1 DAY AS DATE),
       'Matched'
FROM book.vendor_identities vi
JOIN book.vendors v USING (vendor_key)
WHERE vi.system = 'track1099';

-- B-notices (seeds/form_1099.py): the payee record still carries the name / TIN as filed, with
-- the TIN match failed, until it is corrected from the new W-9.
INSERT INTO track1099.tin_notices
SELECT n.notice_id, r.recipient_id, n.notice_type, n.tax_year, n.notice_date,
       CASE n.mismatch WHEN 'name' THEN n.filed_name ELSE r.name END, n.filed_tin,
       'Name/TIN combination does not match IRS records', 'Open'
FROM book.tin_notices n
JOIN track1099.recipients r ON r.reference_id = n.vendor_key;

INSERT INTO track1099.w9_submissions
SELECT 'W9-' || n.notice_id, r.recipient_id, n.w9_received_date, n.w9_name, n.w9_business_name, n.w9_tin,
       n.tin_type, r.federal_tax_classification, n.w9_received_date - INTERVAL 3 DAY
FROM book.tin_notices n
JOIN track1099.recipients r ON r.reference_id = n.vendor_key;

UPDATE track1099.recipients AS r
SET name = CASE n.mismatch WHEN 'name' THEN n.filed_name ELSE r.name END,
    business_name = CASE n.mismatch WHEN 'name' THEN NULL ELSE r.business_name END,
    tin = n.filed_tin,
    tin_match_status = 'Mismatch'
FROM book.tin_notices n
WHERE r.reference_id = n.vendor_key;
