-- plaid: projection of every company bank account (all banks) as Plaid Items and accounts.
-- No divergence is honoured: Plaid shows the banks' own activity; its sign convention
-- (positive = money out) is a presentation, not a disagreement.

INSERT INTO plaid.items
SELECT substr(md5('plaid:item:' || b.bank), 1, 32),
       CASE b.bank WHEN 'bofa' THEN 'ins_127989' WHEN 'chase' THEN 'ins_56' WHEN 'wells' THEN 'ins_127991'
                   WHEN 'pnc' THEN 'ins_13' ELSE 'ins_' || b.bank END,
       CASE b.bank WHEN 'bofa' THEN 'Bank of America' WHEN 'chase' THEN 'Chase' WHEN 'wells' THEN 'Wells Fargo'
                   WHEN 'pnc' THEN 'PNC' ELSE b.bank END,
       'auth,balance,transactions,transfer',
       CAST((SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock') + INTERVAL 300 DAY AS TIMESTAMP),
       'background',
       (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock') + INTERVAL 6 HOUR
FROM (SELECT DISTINCT bank FROM book.bank_accounts) b
ORDER BY b.bank;

INSERT INTO plaid.accounts
SELECT substr(md5('plaid:account:' || a.bank_account_id), 1, 32),
       substr(md5('plaid:item:' || a.bank), 1, 32),
       a.account_name,
       coalesce(p.official_name, upper(a.account_name) || ' BUSINESS CHECKING'),
       right(a.account_number, 4),
       'depository', coalesce(p.plaid_subtype, 'checking'), 'USD',
       coalesce(lb.ledger_balance, 0), coalesce(lb.available_balance, 0),
       coalesce(CAST(lb.as_of_date AS TIMESTAMP) + INTERVAL 23 HOUR,
                CAST((SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock') AS TIMESTAMP))
FROM book.bank_accounts a
LEFT JOIN (
    SELECT b.*, row_number() OVER (PARTITION BY b.bank_account_id ORDER BY b.as_of_date DESC) AS rn
    FROM book.bank_balances b
    WHERE b.as_of_date <= (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock')
) lb ON lb.bank_account_id = a.bank_account_id AND lb.rn = 1
LEFT JOIN book.bank_account_products p ON p.bank_account_id = a.bank_account_id
ORDER BY a.bank_account_id;

INSERT INTO plaid.transactions
SELECT substr(md5('plaid:txn:' || t.txn_id), 1, 32),
       substr(md5('plaid:account:' || t.bank_account_id), 1, 32),
       CAST(-t.amount AS DECIMAL(18,2)), 'USD', t.posted_date, t.posted_date,
       t.description, NULL, 'other',
       CASE WHEN t.bai_type_code = '475' THEN 'cheque'
            WHEN t.bai_type_code IN ('455', '451') THEN 'direct debit'
            WHEN t.bai_type_code IN ('698', '699') THEN 'bank charge'
            WHEN t.bai_type_code IN ('354') THEN 'interest'
            WHEN t.bai_type_code IN ('481') THEN 'bill payment'
            ELSE 'transfer' END,
       CAST(t.check_number AS VARCHAR), false,
       CASE WHEN t.bai_type_code IN ('698', '699') THEN 'BANK_FEES'
            WHEN t.bai_type_code = '354' THEN 'INCOME'
            WHEN t.bai_type_code = '481' THEN 'LOAN_PAYMENTS'
            WHEN t.amount > 0 THEN 'TRANSFER_IN' ELSE 'TRANSFER_OUT' END,
       CASE WHEN t.bai_type_code IN ('698', '699') THEN 'BANK_FEES_OTHER_BANK_FEES'
            WHEN t.bai_type_code = '354' THEN 'INCOME_INTEREST_EARNED'
            WHEN t.bai_type_code = '481' THEN 'LOAN_PAYMENTS_OTHER_PAYMENT'
            WHEN t.amount > 0 THEN 'TRANSFER_IN_DEPOSIT' ELSE 'TRANSFER_OUT_ACCOUNT_TRANSFER' END
FROM book.bank_transactions t
ORDER BY t.txn_id;
