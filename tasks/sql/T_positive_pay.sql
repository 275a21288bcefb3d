-- T_positive_pay: decide one presentment day's positive-pay exceptions on one account against the
-- issued-check register. The decision rule is the treasury positive pay policy's, applied to the
-- book's check register (what the ERP's register holds), never to the bank's own exception reason:
--   pay    only when an issued, uncleared check has the number and the amount, was presented no
--          more than 180 days after its issue date, and the presented payee is the register's
--          payee or that payee cut to the bank's payee field width (trailing spaces trimmed);
--   return when no check with the number was issued (fraud_unknown_check), when the check already
--          cleared (a second presentment), when it was voided, when it is stale-dated (presented
--          more than 180 days after issue), or when the amount differs (altered).

-- name: today
SELECT CAST(value AS DATE) AS today FROM cfab_internal.meta WHERE key = 'clock';

-- name: exception_files
-- Every account's presentment days with an exception file due for a decision today.
SELECT a.bank, x.bank_account_id, a.account_name, x.presented_date, count(*) AS items
FROM book.positive_pay_exceptions x JOIN book.bank_accounts a USING (bank_account_id)
WHERE x.decision_due >= $today AND x.presented_date <= $today
GROUP BY ALL
ORDER BY x.bank_account_id, x.presented_date;

-- name: decisions
SELECT x.exception_id AS book_exception_id, x.bank_account_id, a.bank, a.account_name, a.account_number,
       a.payee_name_width, x.check_number, x.presented_amount, x.presented_payee, x.presented_date,
       c.check_id, c.payee_name AS issued_payee, c.amount AS issued_amount, c.status AS issued_status,
       c.issue_date, c.cleared_date, x.presented_date - c.issue_date AS days_outstanding,
       CASE WHEN c.check_id IS NULL THEN 'no_issue_record'
            WHEN c.status = 'cleared' THEN 'already_cleared'
            WHEN c.status = 'void' THEN 'voided'
            WHEN x.presented_date - c.issue_date > 180 THEN 'stale_dated'
            WHEN c.amount <> x.presented_amount THEN 'amount_altered'
            WHEN x.presented_payee = c.payee_name THEN 'exact_match'
            WHEN x.presented_payee = rtrim(left(c.payee_name, a.payee_name_width)) THEN 'payee_truncated'
            ELSE 'payee_differs' END AS finding,
       CASE WHEN c.check_id IS NOT NULL AND c.status = 'issued' AND c.amount = x.presented_amount
                 AND x.presented_date - c.issue_date <= 180
                 AND (x.presented_payee = c.payee_name
                      OR x.presented_payee = rtrim(left(c.payee_name, a.payee_name_width)))
            THEN 'pay' ELSE 'return' END AS decision
FROM book.positive_pay_exceptions x
JOIN book.bank_accounts a USING (bank_account_id)
LEFT JOIN book.checks c ON c.bank_account_id = x.bank_account_id AND c.check_number = x.check_number
WHERE x.presented_date = $presented_date AND x.bank_account_id = $bank_account_id
ORDER BY x.bank_account_id, x.check_number;

-- name: bank_items
-- The four treasury portals' exception items (each portal's own ids) for one account and day.
SELECT * FROM (
    SELECT 'bofa_cashpro' AS app, exception_id, account_number, check_number, presented_date, presented_amount,
           decision FROM bofa_cashpro.exception_items
    UNION ALL
    SELECT 'chase_treasury', exception_id, account_number, check_number, presented_date, presented_amount, decision
    FROM chase_treasury.positive_pay_exceptions
    UNION ALL
    SELECT 'wells', exception_id, account_number, check_number, presented_date, presented_amount, decision
    FROM wells.arp_exceptions
    UNION ALL
    SELECT 'pnc_pinacle', exception_id, account_number, check_number, presented_date, presented_amount, decision
    FROM pnc_pinacle.ppay_exception_items
)
WHERE presented_date = $presented_date AND account_number = $account_number
ORDER BY app, check_number;

-- name: register_range
-- The ERP register (Vista CMDT) around the presented checks: the cash account code it uses.
SELECT DISTINCT "CMAcct" AS cm_acct FROM vista_erp."CMDT"
WHERE "CMAcct" = $bank_account_id
  AND "CMRef" IN (SELECT check_number FROM book.positive_pay_exceptions
                  WHERE presented_date = $presented_date AND bank_account_id = $bank_account_id);

-- name: planted
SELECT entity_key, kind, reason FROM book.divergences
WHERE family = 'T_positive_pay' ORDER BY entity_key;

-- name: register_vendors
-- The Vista vendor each presented check was issued to (a careless agent's payment hold lands there).
SELECT "CMRef" AS check_number, "Vendor" AS vista_vendor FROM vista_erp."CMDT"
WHERE "CMAcct" = $bank_account_id
  AND "CMRef" IN (SELECT check_number FROM book.positive_pay_exceptions
                  WHERE presented_date = $presented_date AND bank_account_id = $bank_account_id)
ORDER BY "CMRef";
