-- pnc_pinacle: projection of the book's cash tables for the accounts held at pnc.
-- Divergences honoured: payee_truncation (the issue file's payee field is payee_field_width
-- characters wide: registered checks show the name truncated to it).

-- The account type and positive-pay enrolment are the account's product (checking accounts
-- are DDAs enrolled in payee positive pay; a money market is an MMDA that issues no checks).
INSERT INTO pnc_pinacle.accounts
SELECT a.account_number, a.routing_number, a.account_name, coalesce(p.account_type, 'DDA'), 'USD',
       coalesce(p.positive_pay, 'Check + Payee'), a.payee_name_width, 'Open'
FROM book.bank_accounts a
LEFT JOIN book.bank_account_products p ON p.bank_account_id = a.bank_account_id
WHERE a.bank = 'pnc'
ORDER BY a.account_number;

-- A previous-day balance report for every business day (and every day with activity or a
-- book balance) up to the clock: the book's reported balances on their days, in between the
-- nearest earlier report rolled forward by the posted activity (available = ledger there).
INSERT INTO pnc_pinacle.balances
WITH accts AS (
    SELECT a.bank_account_id, a.account_number FROM book.bank_accounts a WHERE a.bank = 'pnc'
),
act AS (
    SELECT t.bank_account_id, t.posted_date AS day,
           sum(t.amount) AS net,
           sum(CASE WHEN t.amount > 0 THEN t.amount ELSE 0 END) AS credits,
           count(*) FILTER (WHERE t.amount > 0) AS n_credits,
           sum(CASE WHEN t.amount < 0 THEN -t.amount ELSE 0 END) AS debits,
           count(*) FILTER (WHERE t.amount < 0) AS n_debits
    FROM book.bank_transactions t JOIN accts USING (bank_account_id)
    GROUP BY t.bank_account_id, t.posted_date
),
span AS (
    SELECT x.bank_account_id, min(x.d) AS first_day,
           (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock') AS last_day
    FROM (SELECT bank_account_id, as_of_date AS d FROM book.bank_balances
          UNION ALL SELECT bank_account_id, day FROM act) x
    JOIN accts USING (bank_account_id)
    GROUP BY x.bank_account_id
),
days AS (
    SELECT s.bank_account_id, CAST(g.day AS DATE) AS day
    FROM span s, LATERAL generate_series(s.first_day, s.last_day, INTERVAL 1 DAY) AS g(day)
),
daily AS (
    SELECT d.bank_account_id, d.day, coalesce(a.net, 0) AS net, coalesce(a.credits, 0) AS credits,
           coalesce(a.n_credits, 0) AS n_credits, coalesce(a.debits, 0) AS debits,
           coalesce(a.n_debits, 0) AS n_debits,
           sum(coalesce(a.net, 0)) OVER (PARTITION BY d.bank_account_id ORDER BY d.day) AS cum,
           b.ledger_balance AS rep_ledger, b.available_balance AS rep_available
    FROM days d
    LEFT JOIN act a ON a.bank_account_id = d.bank_account_id AND a.day = d.day
    LEFT JOIN book.bank_balances b ON b.bank_account_id = d.bank_account_id AND b.as_of_date = d.day
),
anchored AS (
    SELECT d.*,
           coalesce(r.ledger_balance, f.ledger_balance) AS anchor_ledger,
           coalesce(r.cum, f.cum) AS anchor_cum
    FROM daily d
    ASOF LEFT JOIN (SELECT bank_account_id, day, rep_ledger AS ledger_balance, cum FROM daily
                    WHERE rep_ledger IS NOT NULL) r
           ON r.bank_account_id = d.bank_account_id AND d.day >= r.day
    LEFT JOIN (SELECT bank_account_id, arg_min(rep_ledger, day) AS ledger_balance, arg_min(cum, day) AS cum
               FROM daily WHERE rep_ledger IS NOT NULL GROUP BY bank_account_id) f
           ON f.bank_account_id = d.bank_account_id
)
SELECT a.account_number, x.day,
       CAST(x.closing - x.net AS DECIMAL(18,2)),
       CAST(x.closing AS DECIMAL(18,2)),
       CAST(coalesce(x.rep_available, x.closing) - x.net AS DECIMAL(18,2)),
       CAST(coalesce(x.rep_available, x.closing) AS DECIMAL(18,2)),
       CAST(x.credits AS DECIMAL(18,2)), CAST(x.n_credits AS INTEGER),
       CAST(x.debits AS DECIMAL(18,2)), CAST(x.n_debits AS INTEGER)
FROM (
    SELECT n.*, coalesce(n.rep_ledger, n.anchor_ledger + n.cum - n.anchor_cum) AS closing
    FROM anchored n
) x
JOIN accts a ON a.bank_account_id = x.bank_account_id
WHERE x.anchor_ledger IS NOT NULL
  AND (dayofweek(x.day) BETWEEN 1 AND 5 OR x.rep_ledger IS NOT NULL OR x.n_credits + x.n_debits > 0)
ORDER BY a.account_number, x.day;

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
