-- T_positive_pay: decide today's positive-pay exceptions against the issued-check register.
-- The decision rule is the treasury positive pay policy's, applied to the book's check register
-- (what the ERP's register holds), never to the bank's own exception reason:
--   pay    only when an issued, uncleared check has the number and the amount, and the presented
--          payee is the register's payee or that payee cut to the bank's payee field width
--          (trailing spaces trimmed);
--   return when no check with the number was issued (fraud_unknown_check), when the check already
--          cleared (a second presentment), when it was voided, or when the amount differs (altered).

-- name: today
SELECT CAST(value AS DATE) AS today FROM cfab_internal.meta WHERE key = 'clock';

-- name: exception_days
-- Days with a positive-pay exception file due for a decision today.
SELECT DISTINCT presented_date FROM book.positive_pay_exceptions
WHERE decision_due >= $today AND presented_date <= $today
ORDER BY presented_date;

-- name: decisions
SELECT x.exception_id AS book_exception_id, x.bank_account_id, a.bank, a.account_name, a.account_number,
       a.payee_name_width, x.check_number, x.presented_amount, x.presented_payee, x.presented_date,
       c.check_id, c.payee_name AS issued_payee, c.amount AS issued_amount, c.status AS issued_status,
       c.issue_date, c.cleared_date,
       CASE WHEN c.check_id IS NULL THEN 'no_issue_record'
            WHEN c.status = 'cleared' THEN 'already_cleared'
            WHEN c.status = 'void' THEN 'voided'
            WHEN c.amount <> x.presented_amount THEN 'amount_altered'
            WHEN x.presented_payee = c.payee_name THEN 'exact_match'
            WHEN x.presented_payee = rtrim(left(c.payee_name, a.payee_name_width)) THEN 'payee_truncated'
            ELSE 'payee_differs' END AS finding,
       CASE WHEN c.check_id IS NOT NULL AND c.status = 'issued' AND c.amount = x.presented_amount
                 AND (x.presented_payee = c.payee_name
                      OR x.presented_payee = rtrim(left(c.payee_name, a.payee_name_width)))
            THEN 'pay' ELSE 'return' END AS decision
FROM book.positive_pay_exceptions x
JOIN book.bank_accounts a USING (bank_account_id)
LEFT JOIN book.checks c ON c.bank_account_id = x.bank_account_id AND c.check_number = x.check_number
WHERE x.presented_date = $presented_date
ORDER BY x.bank_account_id, x.check_number;

-- name: bank_items
-- The bank portal's exception items (its own ids) for Bank of America CashPro.
SELECT exception_id, account_number, check_number, presented_date, presented_amount, decision
FROM bofa_cashpro.exception_items
WHERE presented_date = $presented_date
ORDER BY check_number;

-- name: register_range
-- The ERP register (Vista CMDT) around the presented checks: the cash account code it uses.
SELECT DISTINCT "CMAcct" AS cm_acct FROM vista_erp."CMDT" WHERE "CMRef" IN (SELECT check_number FROM book.positive_pay_exceptions WHERE presented_date = $presented_date);

-- name: planted
SELECT entity_key, kind, reason FROM book.divergences
WHERE family = 'T_positive_pay' ORDER BY entity_key;

-- name: register_vendors
-- The Vista vendor each presented check was issued to (a careless agent's payment hold lands there).
SELECT "CMRef" AS check_number, "Vendor" AS vista_vendor FROM vista_erp."CMDT"
WHERE "CMRef" IN (SELECT check_number FROM book.positive_pay_exceptions WHERE presented_date = $presented_date)
ORDER BY "CMRef";
