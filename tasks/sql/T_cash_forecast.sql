-- T_cash_forecast: the 13-week cash forecast, per the cash forecast policy (SharePoint
-- /Policies/cash_forecast_policy.md). Each query returns one input of the forecast as the book holds
-- it at the clock ($as_of); the family buckets the dated items into the policy's weeks (Decimal).

-- name: accounts
-- Every company bank account with its closing ledger balance on the as-of date (Plaid's current
-- balance, the portals' balance report) and the ids the apps know it by.
SELECT a.bank_account_id, a.bank, a.account_name, a.account_number, a.gl_account,
       b.ledger_balance,
       substr(md5('plaid:account:' || a.bank_account_id), 1, 32) AS plaid_account_id
FROM book.bank_accounts a
JOIN book.bank_balances b ON b.bank_account_id = a.bank_account_id AND b.as_of_date = $as_of
ORDER BY a.bank_account_id;

-- name: checks_in_transit
-- Checks issued and not cleared by the as-of date, per account (the ERP's check register: issued).
SELECT c.bank_account_id, count(*) AS checks, sum(c.amount) AS amount
FROM book.checks c
WHERE c.status = 'issued' AND c.issue_date <= $as_of
GROUP BY c.bank_account_id
ORDER BY c.bank_account_id;

-- name: ap_open
-- AP invoices entered in the ERP (posted or unposted) with an open balance: net less paid
-- (retainage withheld is not in it; a release invoice's net is the released retainage; a credit is
-- negative). ``held``: an invoice in dispute (held from payment at the invoice in the ERP) or of a
-- vendor on payment hold (the ERP's vendor master), which the policy leaves out until released.
SELECT i.invoice_id, i.vendor_key, i.invoice_number, i.erp_status, i.due_date,
       i.gross_amount, i.retainage_amount, i.net_amount, i.paid_amount,
       i.net_amount - i.paid_amount AS open_amount,
       EXISTS (SELECT 1 FROM book.ap_invoice_disputes d WHERE d.invoice_id = i.invoice_id)
           OR EXISTS (SELECT 1 FROM book.vendor_payment_holds h WHERE h.vendor_key = i.vendor_key) AS held
FROM book.ap_invoices i
WHERE i.erp_status IN ('posted', 'unposted') AND i.net_amount - i.paid_amount <> 0
ORDER BY i.due_date, i.invoice_id;

-- name: receipts
-- Owner pay applications certified and not yet paid: the current payment due (G702 line 8) on its
-- certification date plus the contract's terms; with this period's retainage for the careless
-- reading that forecasts the gross billed.
SELECT a.job_number, a.app_number, a.certified_date, t.terms_days, a.current_payment_due,
       a.retainage - coalesce(p.retainage, 0) AS retainage_this_period
FROM book.owner_pay_apps a
JOIN book.owner_payment_terms t USING (job_number)
LEFT JOIN book.owner_pay_apps p ON p.job_number = a.job_number AND p.app_number = a.app_number - 1
WHERE a.status = 'certified'
ORDER BY a.job_number, a.app_number;

-- name: payroll_runs
-- Released pay runs, newest first, with their total gross (what the payroll apps show).
SELECT b.batch_id, b.period_end, b.check_date, sum(e.gross_pay) AS total_gross
FROM book.payroll_batches b
JOIN book.payroll_earnings e USING (batch_id)
WHERE b.status = 'released'
GROUP BY b.batch_id, b.period_end, b.check_date
ORDER BY b.period_end DESC;

-- name: pay_dates
SELECT pay_date FROM book.payroll_calendar WHERE pay_date > $as_of ORDER BY pay_date;

-- name: schedule
-- The policy's schedules A (debt service) and B (standing disbursements), dated.
SELECT schedule, item, description, due_date, amount, forecast_line
FROM book.treasury_schedule
ORDER BY due_date, entry_id;

-- name: scheduled_payments
-- Payments set up in a bank's portal for a future value date, with the bank that holds them.
SELECT s.scheduled_id, s.bank_account_id, a.bank, s.payment_method, s.beneficiary_name, s.amount,
       s.value_date, s.memo, s.kind
FROM book.bank_scheduled_payments s
JOIN book.bank_accounts a USING (bank_account_id)
ORDER BY a.bank, s.value_date;
