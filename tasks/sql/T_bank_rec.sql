-- T_bank_rec: one bank account reconciled to its GL cash account at a statement date.
--
-- Bank side: the ledger balance the bank reports at $as_of. Book side: the GL cash account's
-- posted balance through $as_of. Reconciling items (the plant registers each one,
-- seeds/bank_rec.py): outstanding checks (issued by $as_of, not paid by then), deposits in transit
-- (booked, not credited by $as_of), a deposit booked twice (never credited: a book error), bank
-- transactions the GL does not have (fees, interest, a deposited item returned NSF; a fee charged
-- twice is a bank error), a check the bank paid for another amount than the register's (a book
-- error). adjusted bank = bank + deposits in transit - outstanding checks + duplicate charges;
-- adjusted book = GL + interest - fees - returned items - duplicate deposits - check differences;
-- the two are equal.

-- name: accounts
-- Every bank account with its bank and GL cash account.
SELECT bank_account_id, bank, account_name, account_number, gl_account FROM book.bank_accounts ORDER BY 1;

-- name: rec
-- The reconciliation of $account at $as_of (DATE).
WITH a AS (SELECT * FROM book.bank_accounts WHERE bank_account_id = $account),
div AS (SELECT kind, field, entity_key FROM book.divergences
        WHERE kind IN ('bank_reconciling_item', 'book_reconciling_item', 'check_amount_mismatch')),
bank_only AS (
    SELECT d.field, t.amount FROM book.bank_transactions t JOIN div d ON d.kind = 'bank_reconciling_item'
        AND d.entity_key = t.txn_id
    WHERE t.bank_account_id = $account AND t.posted_date <= CAST($as_of AS DATE)
),
book_only AS (
    SELECT d.field, sum(l.debit - l.credit) AS amount
    FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
    JOIN div d ON d.kind = 'book_reconciling_item' AND d.entity_key = e.je_number
    WHERE l.account = (SELECT gl_account FROM a) AND e.entry_date <= CAST($as_of AS DATE)
      AND NOT EXISTS (SELECT 1 FROM book.bank_transactions t WHERE t.reference = e.je_number
                      AND t.bank_account_id = $account AND t.posted_date <= CAST($as_of AS DATE))
    GROUP BY e.je_number, d.field
),
outstanding AS (
    SELECT c.amount FROM book.checks c
    WHERE c.bank_account_id = $account AND c.status <> 'void' AND c.issue_date <= CAST($as_of AS DATE)
      AND (c.cleared_date IS NULL OR c.cleared_date > CAST($as_of AS DATE))
),
mismatch AS (
    SELECT t.amount + c.amount AS amount FROM book.checks c
    JOIN div d ON d.kind = 'check_amount_mismatch'
                 AND d.entity_key = c.bank_account_id || '|' || CAST(c.check_number AS VARCHAR)
    JOIN book.bank_transactions t ON t.bank_account_id = c.bank_account_id AND t.check_number = c.check_number
    WHERE c.bank_account_id = $account AND t.posted_date <= CAST($as_of AS DATE)
),
f AS (
    SELECT
        (SELECT ledger_balance FROM book.bank_balances WHERE bank_account_id = $account
          AND as_of_date = CAST($as_of AS DATE)) AS bank_ending,
        (SELECT coalesce(sum(l.debit - l.credit), 0) FROM book.journal_lines l JOIN book.journal_entries e USING (je_id)
          WHERE l.account = (SELECT gl_account FROM a) AND e.entry_date <= CAST($as_of AS DATE)) AS gl_balance,
        (SELECT count(*) FROM outstanding) AS outstanding_count,
        (SELECT coalesce(sum(amount), 0) FROM outstanding) AS outstanding_total,
        (SELECT coalesce(sum(amount), 0) FROM book_only WHERE field = 'deposit_in_transit') AS dit_total,
        (SELECT coalesce(sum(amount), 0) FROM book_only WHERE field = 'duplicate_deposit') AS duplicate_deposits,
        (SELECT coalesce(-sum(amount), 0) FROM bank_only WHERE field = 'fee') AS fees,
        (SELECT coalesce(-sum(amount), 0) FROM bank_only WHERE field = 'duplicate_charge') AS duplicate_charges,
        (SELECT coalesce(sum(amount), 0) FROM bank_only WHERE field = 'interest') AS interest,
        (SELECT coalesce(-sum(amount), 0) FROM bank_only WHERE field = 'returned_item') AS returned_items,
        (SELECT coalesce(-sum(amount), 0) FROM mismatch) AS check_difference
)
SELECT f.*,
       CAST(bank_ending + dit_total - outstanding_total + duplicate_charges AS DECIMAL(18, 2)) AS adjusted_bank,
       CAST(gl_balance + interest - fees - returned_items - duplicate_deposits - check_difference AS DECIMAL(18, 2))
           AS adjusted_book
FROM f;

-- name: items
-- The registered reconciling items of $account dated on or before $as_of, for the reply.
SELECT d.kind, d.field, t.posted_date AS day, t.amount, t.description, NULL AS je_number, NULL AS check_number
FROM book.divergences d JOIN book.bank_transactions t ON t.txn_id = d.entity_key
WHERE d.kind = 'bank_reconciling_item' AND t.bank_account_id = $account AND t.posted_date <= CAST($as_of AS DATE)
UNION ALL
SELECT d.kind, d.field, e.entry_date, l.debit - l.credit, e.description, e.je_number, NULL
FROM book.divergences d JOIN book.journal_entries e ON e.je_number = d.entity_key
JOIN book.journal_lines l ON l.je_id = e.je_id AND l.account = (SELECT gl_account FROM book.bank_accounts
                                                                 WHERE bank_account_id = $account)
WHERE d.kind = 'book_reconciling_item' AND e.entry_date <= CAST($as_of AS DATE)
UNION ALL
SELECT d.kind, d.field, t.posted_date, t.amount + c.amount, c.payee_name, NULL, c.check_number
FROM book.divergences d
JOIN book.checks c ON d.entity_key = c.bank_account_id || '|' || CAST(c.check_number AS VARCHAR)
JOIN book.bank_transactions t ON t.bank_account_id = c.bank_account_id AND t.check_number = c.check_number
WHERE d.kind = 'check_amount_mismatch' AND c.bank_account_id = $account AND t.posted_date <= CAST($as_of AS DATE)
ORDER BY 1, 2, 3;

-- name: offsets
-- The non-cash side of the book errors of $account by $as_of: a duplicate deposit's credit account,
-- a mis-keyed check's debit account, the job of a returned owner deposit's receipt.
SELECT 'duplicate_deposit' AS field, l.account, NULL AS job_number
FROM book.divergences d JOIN book.journal_entries e ON e.je_number = d.entity_key
JOIN book.journal_lines l ON l.je_id = e.je_id AND l.credit > 0
JOIN book.journal_lines k ON k.je_id = e.je_id
    AND k.account = (SELECT gl_account FROM book.bank_accounts WHERE bank_account_id = $account)
WHERE d.kind = 'book_reconciling_item' AND d.field = 'duplicate_deposit' AND e.entry_date <= CAST($as_of AS DATE)
UNION ALL
SELECT 'check_difference', l.account, NULL
FROM book.divergences d
JOIN book.checks c ON d.entity_key = c.bank_account_id || '|' || CAST(c.check_number AS VARCHAR)
JOIN book.journal_entries e ON e.source_ref = c.check_id JOIN book.journal_lines l ON l.je_id = e.je_id AND l.debit > 0
WHERE d.kind = 'check_amount_mismatch' AND c.bank_account_id = $account AND c.cleared_date <= CAST($as_of AS DATE)
UNION ALL
SELECT 'returned_item', '1200', split_part(e.source_ref, ':', 2)
FROM book.divergences d JOIN book.bank_transactions t ON t.txn_id = d.entity_key AND d.field = 'returned_item'
JOIN book.bank_transactions o ON o.bank_account_id = t.bank_account_id AND o.bai_type_code = '301'
    AND o.amount = -t.amount AND o.description = 'REMOTE DEPOSIT - OWNER CHECK'
JOIN book.journal_entries e ON e.je_number = o.reference
WHERE t.bank_account_id = $account AND t.posted_date <= CAST($as_of AS DATE);

-- name: erp_job
SELECT book.system_job_id($erp, $job) AS erp_job;
