-- pnc_pinacle: projection of the book's cash tables for the accounts held at pnc.
-- Divergences honoured: payee_truncation (the issue file's payee field is payee_field_width
-- characters wide: registered checks show the name truncated to it).

INSERT INTO pnc_pinacle.accounts
SELECT a.account_number, a.routing_number, a.account_name, 'DDA', 'USD', 'Check + Payee',
       a.payee_name_width, 'Open'
FROM book.bank_accounts a
WHERE a.bank = 'pnc'
ORDER BY a.account_number;

INSERT INTO pnc_pinacle.balances
WITH act AS (
    SELECT t.bank_account_id, t.posted_date,
           sum(t.amount) AS net,
           sum(CASE WHEN t.amount > 0 THEN t.amount ELSE 0 END) AS credits,
           count(*) FILTER (WHERE t.amount > 0) AS n_credits,
           sum(CASE WHEN t.amount < 0 THEN -t.amount ELSE 0 END) AS debits,
           count(*) FILTER (WHERE t.amount < 0) AS n_debits
    FROM book.bank_transactions t
    GROUP BY t.bank_account_id, t.posted_date
)
SELECT a.account_number, b.as_of_date,
       CAST(b.ledger_balance - coalesce(act.net, 0) AS DECIMAL(18,2)),
       b.ledger_balance,
       CAST(b.available_balance - coalesce(act.net, 0) AS DECIMAL(18,2)),
       b.available_balance,
       CAST(coalesce(act.credits, 0) AS DECIMAL(18,2)), CAST(coalesce(act.n_credits, 0) AS INTEGER),
       CAST(coalesce(act.debits, 0) AS DECIMAL(18,2)), CAST(coalesce(act.n_debits, 0) AS INTEGER)
FROM book.bank_balances b
JOIN book.bank_accounts a ON a.bank_account_id = b.bank_account_id AND a.bank = 'pnc'
LEFT JOIN act ON act.bank_account_id = b.bank_account_id AND act.posted_date = b.as_of_date
ORDER BY a.account_number, b.as_of_date;

INSERT INTO pnc_pinacle.activity
SELECT 'PNC' || upper(substr(md5('pnc_pinacle:txn:' || t.txn_id), 1, 12)),
       a.account_number, t.posted_date, t.bai_type_code,
       CASE WHEN t.amount >= 0 THEN 'CR' ELSE 'DR' END,
       CAST(abs(t.amount) AS DECIMAL(18,2)),
       t.check_number, t.reference, t.description
FROM book.bank_transactions t
JOIN book.bank_accounts a ON a.bank_account_id = t.bank_account_id AND a.bank = 'pnc'
ORDER BY t.txn_id;

INSERT INTO pnc_pinacle.ppay_issue_items
SELECT a.account_number, c.check_number, c.issue_date, c.amount,
       CASE WHEN d.divergence_id IS NOT NULL THEN rtrim(left(c.payee_name, a.payee_name_width)) ELSE c.payee_name END,
       CASE c.status WHEN 'cleared' THEN 'Paid' WHEN 'void' THEN 'Void' ELSE 'Issued' END,
       c.cleared_date
FROM book.checks c
JOIN book.bank_accounts a ON a.bank_account_id = c.bank_account_id AND a.bank = 'pnc'
LEFT JOIN book.divergences d
       ON d.kind = 'payee_truncation' AND d.entity = 'check'
      AND d.entity_key = c.bank_account_id || '|' || CAST(c.check_number AS VARCHAR)
ORDER BY a.account_number, c.check_number;

INSERT INTO pnc_pinacle.ppay_exception_items
SELECT 'PNC' || upper(substr(md5('pnc_pinacle:exception:' || e.exception_id), 1, 10)),
       a.account_number, e.presented_date, e.check_number, e.presented_amount, e.presented_payee,
       c.amount,
       CASE WHEN c.check_id IS NULL THEN NULL
            WHEN d.divergence_id IS NOT NULL THEN rtrim(left(c.payee_name, a.payee_name_width))
            ELSE c.payee_name END,
       CASE e.exception_reason WHEN 'payee_mismatch' THEN 'Payee Mismatch' WHEN 'amount_mismatch' THEN 'Amount Mismatch'
            WHEN 'no_issue_record' THEN 'No Issue' WHEN 'duplicate_presentment' THEN 'Duplicate'
            ELSE e.exception_reason END,
       e.decision_due, '14:00 ET', 'Pay', 'Pending', NULL, NULL, NULL
FROM book.positive_pay_exceptions e
JOIN book.bank_accounts a ON a.bank_account_id = e.bank_account_id AND a.bank = 'pnc'
LEFT JOIN book.checks c ON c.bank_account_id = e.bank_account_id AND c.check_number = e.check_number
LEFT JOIN book.divergences d
       ON d.kind = 'payee_truncation' AND d.entity = 'check'
      AND d.entity_key = c.bank_account_id || '|' || CAST(c.check_number AS VARCHAR)
ORDER BY e.exception_id;

-- Completed outgoing transfers seen in the activity (wires 495, ACH debits 455, book transfers 501/506).
INSERT INTO pnc_pinacle.funds_transfers
SELECT 'FT' || upper(substr(md5('pnc_pinacle:payment:' || t.txn_id), 1, 10)),
       a.account_number,
       CASE t.bai_type_code WHEN '495' THEN 'WIRE' WHEN '455' THEN 'ACH' ELSE 'BOOK' END,
       t.description, NULL, NULL, CAST(-t.amount AS DECIMAL(18,2)), t.posted_date, t.reference,
       'Processed', 'treasury@companyA.com'
FROM book.bank_transactions t
JOIN book.bank_accounts a ON a.bank_account_id = t.bank_account_id AND a.bank = 'pnc'
WHERE t.bai_type_code IN ('495', '455', '501', '506') AND t.amount < 0
ORDER BY t.txn_id;
