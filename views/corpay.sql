-- corpay: vendors known to Corpay (ids and spellings from book.vendor_identities system 'corpay'),
-- the bank accounts that fund payments, and the issued AP checks of those vendors as Corpay
-- payments (batched per account and issue date) with their remittance lines.
-- The enrollment method is a fixed function of the vendor key (card / ACH / check).

INSERT INTO corpay.vendors
SELECT vi.system_vendor_id, vi.spelled_name,
       CASE hash('corpay-method:' || v.vendor_key) % 3 WHEN 0 THEN 'VirtualCard' WHEN 1 THEN 'ACH' ELSE 'Check' END,
       CASE WHEN hash('corpay-method:' || v.vendor_key) % 3 = 2 THEN 'Not Enrolled' ELSE 'Enrolled' END,
       CASE WHEN hash('corpay-method:' || v.vendor_key) % 3 = 2 THEN NULL
            ELSE CAST((SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock')
                      - CAST(30 + hash('corpay-enrolled:' || v.vendor_key) % 500 AS INTEGER) * INTERVAL 1 DAY AS DATE) END,
       v.email, v.address, v.city, v.state, v.zip,
       CASE WHEN hash('corpay-method:' || v.vendor_key) % 3 = 1
            THEN lpad(CAST(hash('corpay-ach:' || v.vendor_key) % 10000 AS VARCHAR), 4, '0') END
FROM book.vendor_identities vi
JOIN book.vendors v USING (vendor_key)
WHERE vi.system = 'corpay';

INSERT INTO corpay.funding_accounts
SELECT 'FA-' || ba.bank_account_id, ba.account_name,
       CASE ba.bank WHEN 'bofa' THEN 'Bank of America' WHEN 'chase' THEN 'JPMorgan Chase' WHEN 'wells' THEN 'Wells Fargo'
                    WHEN 'pnc' THEN 'PNC Bank' ELSE ba.bank END,
       right(ba.account_number, 4), ba.routing_number
FROM book.bank_accounts ba;

INSERT INTO corpay.payment_batches
SELECT 'PB-' || c.bank_account_id || '-' || strftime(c.issue_date, '%Y%m%d'),
       'FA-' || c.bank_account_id, c.issue_date, count(*),
       sum(c.amount)::DECIMAL(18,2), 'Processed'
FROM book.checks c
JOIN book.vendor_identities vi ON vi.vendor_key = c.payee_vendor_key AND vi.system = 'corpay'
GROUP BY c.bank_account_id, c.issue_date;

INSERT INTO corpay.payments
SELECT 'PMT-' || c.bank_account_id || '-' || CAST(c.check_number AS VARCHAR),
       'PB-' || c.bank_account_id || '-' || strftime(c.issue_date, '%Y%m%d'),
       vi.system_vendor_id, c.payee_name, 'Check', c.check_number, c.amount, c.issue_date,
       CASE c.status WHEN 'cleared' THEN 'Cleared' WHEN 'void' THEN 'Voided' ELSE 'Issued' END,
       c.cleared_date
FROM book.checks c
JOIN book.vendor_identities vi ON vi.vendor_key = c.payee_vendor_key AND vi.system = 'corpay';

INSERT INTO corpay.remittances
SELECT 'PMT-' || c.bank_account_id || '-' || CAST(c.check_number AS VARCHAR),
       CAST(row_number() OVER (PARTITION BY c.check_id ORDER BY i.invoice_number, i.invoice_id) AS INTEGER),
       i.invoice_number, i.invoice_date, ca.amount
FROM book.check_applications ca
JOIN book.checks c USING (check_id)
JOIN book.ap_invoices i USING (invoice_id)
JOIN book.vendor_identities vi ON vi.vendor_key = c.payee_vendor_key AND vi.system = 'corpay';

-- Virtual-card payments (seeds/form_1099.py book.card_payments), funded from the operating
-- account and batched per day; the card processor reports them on Form 1099-K.
UPDATE corpay.vendors AS v
SET payment_method = 'VirtualCard', enrollment_status = 'Enrolled', ach_account_last4 = NULL,
    enrolled_date = coalesce(v.enrolled_date, (SELECT min(p.payment_date) FROM book.card_payments p
                                                WHERE p.vendor_key = vi.vendor_key) - INTERVAL 10 DAY)
FROM book.vendor_identities vi
WHERE vi.system = 'corpay' AND vi.system_vendor_id = v.vendor_id
  AND vi.vendor_key IN (SELECT vendor_key FROM book.card_payments);

INSERT INTO corpay.payment_batches
SELECT 'PB-VC-' || strftime(p.payment_date, '%Y%m%d'), 'FA-BA-OPER', p.payment_date, count(*),
       sum(p.amount)::DECIMAL(18,2), 'Processed'
FROM book.card_payments p
GROUP BY p.payment_date;

INSERT INTO corpay.payments
SELECT 'PMT-' || p.card_payment_id, 'PB-VC-' || strftime(p.payment_date, '%Y%m%d'), vi.system_vendor_id,
       vi.spelled_name, 'VirtualCard', NULL, p.amount, p.payment_date, 'Cleared', p.payment_date
FROM book.card_payments p
JOIN book.vendor_identities vi ON vi.vendor_key = p.vendor_key AND vi.system = 'corpay';

-- Enrollments pending verification (seeds/payment_run.py book.payment_enrollment_pending): the
-- vendor asked to be paid by ACH or virtual card to a new account Corpay has not verified yet.
UPDATE corpay.vendors AS v
SET payment_method = p.method, enrollment_status = 'Pending', enrolled_date = NULL, ach_account_last4 = NULL
FROM book.payment_enrollment_pending p
JOIN book.vendor_identities vi ON vi.vendor_key = p.vendor_key AND vi.system = 'corpay'
WHERE vi.system_vendor_id = v.vendor_id;
