-- R_1099nec: who gets a 2025 Form 1099-NEC, and for how much.
-- Payments are the checks the company issued in the tax year (by issue date, voids excluded),
-- aggregated by the payee's TIN (one payee set up under two vendor ids gets one form). The
-- reportable types are the policy's (form_1099_policy.md): individuals, sole proprietors,
-- single-member LLCs, partnerships and LLCs taxed as partnerships; corporations are exempt except
-- attorneys / law firms; suppliers of materials only are not reported. Threshold $600.00.

-- name: tax_year
-- The tax year in season: the calendar year before the clock (1099 season).
SELECT CAST(value AS DATE) AS clock, year(CAST(value AS DATE)) - 1 AS tax_year
FROM cfab_internal.meta WHERE key = 'clock';

-- name: by_tin
-- One row per TIN with a Track1099 payee record: its vendors and Track1099 recipients, the tax
-- year's payments, and the verdict (reportable, or why not).
WITH paid AS (
    SELECT payee_vendor_key AS vendor_key, sum(amount) AS paid, count(*) AS checks
    FROM book.checks
    WHERE payee_vendor_key IS NOT NULL AND status <> 'void'
      AND issue_date >= make_date($tax_year, 1, 1) AND issue_date < make_date($tax_year + 1, 1, 1)
    GROUP BY payee_vendor_key
),
v AS (
    SELECT v.vendor_key, v.legal_name, v.tin, v.entity_type, v.is_attorney, v.materials_only,
           coalesce(p.paid, 0) AS paid, coalesce(p.checks, 0) AS checks, r.recipient_id, r.name AS recipient_name,
           (v.is_attorney OR v.entity_type IN ('individual', 'sole_proprietor', 'llc_single_member', 'partnership',
                                               'llc_partnership')) AS reportable_type
    FROM book.vendors v
    JOIN track1099.recipients r ON r.reference_id = v.vendor_key
    LEFT JOIN paid p ON p.vendor_key = v.vendor_key
),
t AS (
    SELECT tin,
           list(vendor_key ORDER BY vendor_key) AS vendor_keys,
           list(recipient_id ORDER BY vendor_key) AS recipient_ids,
           list(recipient_name ORDER BY vendor_key) AS recipient_names,
           list(legal_name ORDER BY vendor_key) AS names,
           sum(paid) AS total, sum(checks) AS checks,
           bool_and(reportable_type) AS reportable_type,
           bool_or(materials_only) AS materials_only,
           bool_or(is_attorney) AS is_attorney,
           list(DISTINCT entity_type) AS entity_types
    FROM v GROUP BY tin
)
SELECT *,
       CASE WHEN total = 0 THEN 'no_payments'
            WHEN NOT reportable_type THEN 'corporation'
            WHEN materials_only THEN 'materials_only'
            WHEN total < 600 THEN 'under_threshold'
            ELSE 'reportable' END AS verdict
FROM t
ORDER BY tin;

-- name: vista_payments
-- The same year's payments as the ERP's check register holds them (Vista CMDT by vendor TIN),
-- for the consistency check and the SQL alternative.
SELECT m."TaxId" AS tin, list(DISTINCT m."Vendor" ORDER BY m."Vendor") AS vista_vendors, sum(c."Amount") AS total
FROM vista_erp."CMDT" c
JOIN vista_erp."APVM" m ON m."Vendor" = c."Vendor"
WHERE c."Status" <> 'Void' AND c."ActDate" >= make_date($tax_year, 1, 1) AND c."ActDate" < make_date($tax_year + 1, 1, 1)
GROUP BY m."TaxId"
ORDER BY m."TaxId";

-- name: split_payee
-- The planted twist: one payee under two vendor ids (divergence vendor_id_split).
SELECT d.entity_key AS vendor_key, v.tin
FROM book.divergences d JOIN book.vendors v ON v.vendor_key = d.entity_key
WHERE d.kind = 'vendor_id_split' AND d.family = 'R_1099nec';

-- name: payer
SELECT payer_id FROM track1099.payers;

-- name: vendor_paid
-- Each Track1099 payee record's own payments in the tax year (voids excluded) and its voided
-- checks: a per-vendor-id judgement, or a void counted, gives these figures.
SELECT r.recipient_id, v.vendor_key, v.tin,
       coalesce(sum(c.amount) FILTER (WHERE c.status <> 'void'), 0) AS paid,
       coalesce(sum(c.amount) FILTER (WHERE c.status = 'void'), 0) AS voided
FROM book.vendors v
JOIN track1099.recipients r ON r.reference_id = v.vendor_key
LEFT JOIN book.checks c ON c.payee_vendor_key = v.vendor_key
     AND c.issue_date >= make_date($tax_year, 1, 1) AND c.issue_date < make_date($tax_year + 1, 1, 1)
GROUP BY ALL
ORDER BY r.recipient_id;

-- name: notices
-- The B-notices (CP2100A) on last year's filing, each with the payee's new W-9 and the Track1099
-- payee record as it stands (still as filed): ``mismatch`` says what the W-9 corrects (the TIN,
-- or the line-1 name of a sole proprietor filed under the business name).
SELECT n.notice_id, n.vendor_key, n.mismatch, n.tax_year AS notice_year, n.filed_name, n.filed_tin,
       n.w9_name, n.w9_business_name, n.w9_tin, n.tin_type,
       r.recipient_id, r.name AS record_name, r.business_name AS record_business_name, r.tin AS record_tin,
       v.tin AS vendor_tin, v.legal_name
FROM book.tin_notices n
JOIN track1099.recipients r ON r.reference_id = n.vendor_key
JOIN book.vendors v ON v.vendor_key = n.vendor_key
ORDER BY n.notice_id;

-- name: card_paid
-- Each payee's payments by Corpay virtual card in the tax year (reported on 1099-K: not box 1).
SELECT p.vendor_key, r.recipient_id, sum(p.amount) AS card_total, count(*) AS card_count
FROM book.card_payments p
JOIN track1099.recipients r ON r.reference_id = p.vendor_key
WHERE p.payment_date >= make_date($tax_year, 1, 1) AND p.payment_date < make_date($tax_year + 1, 1, 1)
GROUP BY ALL
ORDER BY p.vendor_key;
