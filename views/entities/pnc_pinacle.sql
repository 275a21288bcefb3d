-- pnc_pinacle: consistency-check projections. Bank accounts are keyed by account number at the
-- bank; the book's account id is recovered from the account number (no hh2 crosswalk exists
-- for bank accounts).

-- entity: check
SELECT ba.bank_account_id || '|' || CAST(i.check_number AS VARCHAR) AS entity_key,
       CAST(i.amount AS DECIMAL(18,2)) AS amount,
       i.payee_name AS payee_name,
       i.issue_date AS issue_date
FROM pnc_pinacle.ppay_issue_items i
JOIN book.bank_accounts ba ON ba.account_number = i.account_number AND ba.bank = 'pnc';
