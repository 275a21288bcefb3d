-- The book's invariants. Each query is named by a "-- name:" header and returns the rows that
-- violate it; an invariant holds when its query returns nothing. cfab.seeds.check_invariants
-- runs them all (tests assert every count is zero at scale 1 and scale 3).

-- ---------------------------------------------------------------------------------------------
-- Commitments
-- name: commitment_lines_sum_to_amount
SELECT c.commitment_id, c.amount, sum(l.amount) AS lines
FROM book.commitments c LEFT JOIN book.commitment_lines l USING (commitment_id)
GROUP BY c.commitment_id, c.amount
HAVING coalesce(sum(l.amount), 0) <> c.amount;

-- name: commitment_amount_is_original_plus_cos
SELECT commitment_id FROM book.commitments WHERE amount <> original_amount + approved_co_amount;

-- name: commitment_cos_sum
SELECT c.commitment_id, c.approved_co_amount, sum(co.amount) AS cos
FROM book.commitments c
LEFT JOIN book.change_orders co ON co.commitment_id = c.commitment_id AND co.co_type = 'commitment'
      AND co.status = 'approved'
GROUP BY c.commitment_id, c.approved_co_amount
HAVING coalesce(sum(co.amount), 0) <> c.approved_co_amount;

-- name: commitment_line_work_completed
SELECT commitment_id, line_no FROM book.commitment_lines
WHERE work_completed <> round(amount * pct_complete * 0.01, 2) OR pct_complete < 0 OR pct_complete > 100;

-- ---------------------------------------------------------------------------------------------
-- General ledger
-- name: journal_entries_balance
SELECT je_id, sum(debit) AS dr, sum(credit) AS cr FROM book.journal_lines GROUP BY je_id HAVING sum(debit) <> sum(credit);

-- name: journal_lines_one_sided
SELECT je_id, line_no FROM book.journal_lines
WHERE debit < 0 OR credit < 0 OR (debit > 0 AND credit > 0) OR (debit = 0 AND credit = 0);

-- name: journal_entry_has_lines
SELECT e.je_id FROM book.journal_entries e LEFT JOIN book.journal_lines l USING (je_id) WHERE l.je_id IS NULL;

-- name: journal_period_matches_date
SELECT je_id FROM book.journal_entries WHERE period <> strftime(entry_date, '%Y-%m');

-- name: job_cost_lines_carry_job
SELECT l.je_id, l.line_no FROM book.journal_lines l JOIN book.gl_accounts a USING (account)
WHERE a.is_job_cost AND (l.job_number IS NULL OR l.cost_code IS NULL);

-- name: ap_subledger_ties_to_gl_2000
WITH sub AS (
    SELECT coalesce(sum(i.net_amount), 0) - coalesce((SELECT sum(a.amount) FROM book.check_applications a
        JOIN book.ap_invoices p USING (invoice_id) JOIN book.checks c USING (check_id)
        WHERE p.erp_status = 'posted' AND c.status <> 'void'), 0) AS bal
    FROM book.ap_invoices i WHERE i.erp_status = 'posted'
), pending AS (  -- retainage the month-end AP import left in 2000 (no 2010 line): the month's reclass
    SELECT coalesce(sum(i.retainage_amount), 0) AS bal FROM book.ap_invoices i
    WHERE i.erp_status = 'posted' AND NOT EXISTS (
        SELECT 1 FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
        WHERE e.source_ref = i.invoice_id AND l.account = '2010')
), gl AS (SELECT coalesce(sum(credit - debit), 0) AS bal FROM book.journal_lines WHERE account = '2000')
SELECT sub.bal AS subledger, gl.bal AS gl FROM sub, pending, gl WHERE sub.bal + pending.bal <> gl.bal;

-- name: retainage_subledger_ties_to_gl_2010
WITH sub AS (SELECT coalesce(sum(retainage_amount), 0) AS bal FROM book.ap_invoices WHERE erp_status = 'posted'),
pending AS (  -- as above: the import's retainage (withheld or released) awaiting the month-end reclass
    SELECT coalesce(sum(i.retainage_amount), 0) AS bal FROM book.ap_invoices i
    WHERE i.erp_status = 'posted' AND NOT EXISTS (
        SELECT 1 FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
        WHERE e.source_ref = i.invoice_id AND l.account = '2010')
),
gl AS (SELECT coalesce(sum(credit - debit), 0) AS bal FROM book.journal_lines WHERE account = '2010')
SELECT sub.bal AS subledger, gl.bal AS gl FROM sub, pending, gl WHERE sub.bal - pending.bal <> gl.bal;

-- name: prepaid_premiums_capitalized_once
-- every policy of the insurance program effective by the open month's end: its premium paid to 1400 once, on its
-- effective date, at the declarations page's premium (base universe: replicas share the program)
SELECT p.policy_id FROM book.insurance_policies p
WHERE p.effective_date <= (SELECT last_day(CAST(min(period) || '-01' AS DATE)) FROM book.gl_periods WHERE status = 'open')
  AND (SELECT count(*) FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
       WHERE e.source_ref = 'PREMIUM:' || p.policy_id AND e.je_number NOT LIKE '%-R%' AND l.account = '1400'
         AND l.debit = p.premium AND e.entry_date = p.effective_date) <> 1;

-- name: prepaid_amortization_within_premium
-- posted amortization plus any return premium never exceeds the premium; a term that ended before
-- the open month is amortized to exactly its premium
WITH a AS (
    SELECT p.policy_id, p.premium, p.expiry_date, coalesce(p.return_premium, 0) AS ret,
           (SELECT coalesce(sum(l.debit), 0) FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
             WHERE e.source_ref LIKE 'PREPAID:' || p.program || ':%' AND e.je_number NOT LIKE '%-R%'
               AND l.account = '6200' AND l.memo = p.policy_number) AS amortized
    FROM book.insurance_policies p
)
SELECT * FROM a
WHERE amortized + ret > premium
   OR (expiry_date <= (SELECT CAST(min(period) || '-01' AS DATE) FROM book.gl_periods WHERE status = 'open')
       AND amortized <> premium);

-- name: ar_ties_to_gl_1200
WITH sub AS (SELECT coalesce(sum(current_payment_due), 0) AS bal FROM book.owner_pay_apps WHERE status = 'certified'),
gl AS (SELECT coalesce(sum(debit - credit), 0) AS bal FROM book.journal_lines WHERE account = '1200')
SELECT sub.bal AS subledger, gl.bal AS gl FROM sub, gl WHERE sub.bal <> gl.bal;

-- name: retainage_receivable_ties_to_gl_1210
WITH last_app AS (
    SELECT job_number, retainage FROM book.owner_pay_apps
    QUALIFY row_number() OVER (PARTITION BY job_number ORDER BY app_number DESC) = 1
), sub AS (SELECT coalesce(sum(retainage), 0) AS bal FROM last_app),
gl AS (SELECT coalesce(sum(debit - credit), 0) AS bal FROM book.journal_lines WHERE account = '1210')
SELECT sub.bal AS subledger, gl.bal AS gl FROM sub, gl WHERE sub.bal <> gl.bal;

-- name: bank_equals_gl_cash_plus_outstanding_checks
WITH gl AS (
    SELECT a.bank_account_id, b.as_of_date, b.ledger_balance,
           (SELECT coalesce(sum(l.debit - l.credit), 0) FROM book.journal_lines l
             JOIN book.journal_entries e USING (je_id)
            WHERE l.account = a.gl_account AND e.entry_date <= b.as_of_date) AS gl_cash,
           (SELECT coalesce(sum(c.amount), 0) FROM book.checks c
            WHERE c.bank_account_id = a.bank_account_id AND c.status <> 'void' AND c.issue_date <= b.as_of_date
              AND (c.cleared_date IS NULL OR c.cleared_date > b.as_of_date)) AS outstanding,
           -- T_bank_rec's registered reconciling items: bank-only transactions, GL deposits the bank
           -- has not credited (yet), checks the bank paid for another amount than the register's
           (SELECT coalesce(sum(t.amount), 0) FROM book.bank_transactions t
             JOIN book.divergences d ON d.kind = 'bank_reconciling_item' AND d.entity_key = t.txn_id
            WHERE t.bank_account_id = a.bank_account_id AND t.posted_date <= b.as_of_date) AS bank_only,
           (SELECT coalesce(sum(l.debit - l.credit), 0) FROM book.journal_lines l
             JOIN book.journal_entries e USING (je_id)
             JOIN book.divergences d ON d.kind = 'book_reconciling_item' AND d.entity_key = e.je_number
            WHERE l.account = a.gl_account AND e.entry_date <= b.as_of_date
              AND NOT EXISTS (SELECT 1 FROM book.bank_transactions t WHERE t.reference = e.je_number
                              AND t.bank_account_id = a.bank_account_id AND t.posted_date <= b.as_of_date))
               AS book_only,
           (SELECT coalesce(sum(t.amount + c.amount), 0) FROM book.checks c
             JOIN book.divergences d ON d.kind = 'check_amount_mismatch'
                 AND d.entity_key = c.bank_account_id || '|' || CAST(c.check_number AS VARCHAR)
             JOIN book.bank_transactions t ON t.bank_account_id = c.bank_account_id AND t.check_number = c.check_number
            WHERE c.bank_account_id = a.bank_account_id AND t.posted_date <= b.as_of_date) AS check_delta
    FROM book.bank_balances b JOIN book.bank_accounts a USING (bank_account_id)
)
SELECT * FROM gl WHERE ledger_balance <> gl_cash + outstanding + bank_only - book_only + check_delta;

-- ---------------------------------------------------------------------------------------------
-- Budgets and change orders
-- name: budget_revised_is_original_plus_changes
SELECT job_number, cost_code FROM book.budget_lines WHERE revised_budget <> original_budget + approved_changes;

-- name: budget_changes_are_approved_co_lines
WITH co AS (
    SELECT o.job_number, l.cost_code, sum(l.amount) AS amt
    FROM book.change_order_lines l JOIN book.change_orders o USING (co_id)
    WHERE o.status = 'approved' AND o.co_type IN ('owner', 'internal')
    GROUP BY ALL
)
SELECT coalesce(b.job_number, co.job_number) AS job_number, coalesce(b.cost_code, co.cost_code) AS cost_code
FROM book.budget_lines b FULL OUTER JOIN co ON co.job_number = b.job_number AND co.cost_code = b.cost_code
WHERE coalesce(b.approved_changes, -1) <> coalesce(co.amt, 0);

-- name: change_order_lines_sum_to_amount
SELECT o.co_id FROM book.change_orders o LEFT JOIN book.change_order_lines l USING (co_id)
WHERE o.co_type IN ('owner', 'internal')
GROUP BY o.co_id, o.amount HAVING coalesce(sum(l.amount), 0) <> o.amount;

-- name: owner_cos_increase_contract_and_add_sov_lines
SELECT o.co_id FROM book.change_orders o
LEFT JOIN book.prime_sov_lines s ON s.co_id = o.co_id
WHERE o.co_type = 'owner' AND o.status = 'approved'
  AND (NOT o.increases_contract OR s.scheduled_value IS DISTINCT FROM o.amount)
UNION ALL
SELECT co_id FROM book.change_orders WHERE co_type IN ('internal', 'commitment') AND increases_contract;

-- name: erp_estimate_is_sum_of_erp_lines
SELECT j.job_number FROM book.jobs j
LEFT JOIN book.budget_lines b ON b.job_number = j.job_number AND b.include_in_erp
GROUP BY j.job_number, j.erp_est_cost_to_complete
HAVING coalesce(sum(b.erp_estimate), 0) <> j.erp_est_cost_to_complete;

-- name: pm_only_lines_have_no_erp_estimate
SELECT job_number, cost_code FROM book.budget_lines WHERE NOT include_in_erp AND erp_estimate <> 0;

-- ---------------------------------------------------------------------------------------------
-- Prime contracts, progress and owner pay applications
-- name: prime_sov_original_lines_sum_to_contract
SELECT p.job_number FROM book.prime_contracts p
LEFT JOIN book.prime_sov_lines s ON s.job_number = p.job_number AND s.source = 'original'
GROUP BY p.job_number, p.original_amount HAVING coalesce(sum(s.scheduled_value), 0) <> p.original_amount;

-- name: sov_progress_work_completed
SELECT p.job_number, p.line_no, p.as_of FROM book.sov_progress p
JOIN book.prime_sov_lines s USING (job_number, line_no)
WHERE p.work_completed <> round(s.scheduled_value * p.pct_complete * 0.01, 2)
   OR p.pct_complete < 0 OR p.pct_complete > 100 OR p.materials_stored < 0
   OR p.work_completed + p.materials_stored > s.scheduled_value;

-- name: g703_lines_tie_to_g702
SELECT a.job_number, a.app_number FROM book.owner_pay_apps a
LEFT JOIN book.owner_pay_app_lines l USING (job_number, app_number)
GROUP BY a.job_number, a.app_number, a.total_completed_stored, a.retainage
HAVING coalesce(sum(l.total_completed_stored), 0) <> a.total_completed_stored
    OR coalesce(sum(l.retainage), 0) <> a.retainage;

-- name: g703_line_arithmetic
SELECT job_number, app_number, line_no FROM book.owner_pay_app_lines
WHERE total_completed_stored <> from_previous + this_period + materials_stored;

-- name: g702_arithmetic
SELECT a.job_number, a.app_number FROM book.owner_pay_apps a
WHERE a.current_payment_due <> a.total_completed_stored - a.retainage - a.previous_certificates
   OR a.previous_certificates <> coalesce((SELECT sum(p.current_payment_due) FROM book.owner_pay_apps p
                                           WHERE p.job_number = a.job_number AND p.app_number < a.app_number), 0)
   OR a.original_contract_sum <> (SELECT original_amount FROM book.prime_contracts c WHERE c.job_number = a.job_number);

-- name: pay_app_line_retainage
WITH app AS (
    SELECT a.job_number, a.app_number,
           CASE WHEN c.retainage_step_down_pct IS NOT NULL
                 AND a.total_completed_stored * 100 >= c.step_down_at_pct * (a.original_contract_sum + a.net_change_orders)
                THEN c.retainage_step_down_pct ELSE c.retainage_pct END AS pct
    FROM book.owner_pay_apps a JOIN book.prime_contracts c USING (job_number)
)
SELECT l.job_number, l.app_number, l.line_no FROM book.owner_pay_app_lines l JOIN app USING (job_number, app_number)
WHERE l.retainage <> round(l.total_completed_stored * app.pct * 0.01, 2);

-- name: last_pay_app_matches_prior_month_progress
WITH last_app AS (
    SELECT * FROM book.owner_pay_apps
    QUALIFY row_number() OVER (PARTITION BY job_number ORDER BY app_number DESC) = 1
)
SELECT l.job_number, l.line_no FROM last_app a
JOIN book.owner_pay_app_lines l USING (job_number, app_number)
JOIN book.sov_progress p ON p.job_number = l.job_number AND p.line_no = l.line_no AND p.as_of = a.period_end
WHERE l.from_previous + l.this_period <> p.work_completed OR l.materials_stored <> p.materials_stored;

-- ---------------------------------------------------------------------------------------------
-- Accounts payable and cash
-- name: invoice_gross_is_sum_of_lines
SELECT i.invoice_id FROM book.ap_invoices i LEFT JOIN book.ap_invoice_lines l USING (invoice_id)
GROUP BY i.invoice_id, i.gross_amount, i.retainage_amount, i.net_amount
HAVING coalesce(sum(l.amount), 0) <> i.gross_amount OR coalesce(sum(l.retainage), 0) <> i.retainage_amount
    OR i.net_amount <> i.gross_amount - i.retainage_amount;

-- name: invoice_line_retainage_is_rate_times_work
-- (a retainage release line, no work and negative retainage, pays out retainage held earlier)
SELECT l.invoice_id, l.line_no FROM book.ap_invoice_lines l
JOIN book.ap_invoices i USING (invoice_id)
LEFT JOIN book.commitments c ON c.commitment_id = i.commitment_id
WHERE l.retainage <> round(l.amount * coalesce(c.retainage_pct, 0) * 0.01, 2)
  AND NOT (l.amount = 0 AND l.retainage < 0);

-- name: invoice_lines_reference_commitment_lines
SELECT l.invoice_id, l.line_no FROM book.ap_invoice_lines l
JOIN book.ap_invoices i USING (invoice_id)
LEFT JOIN book.commitment_lines cl ON cl.commitment_id = i.commitment_id AND cl.line_no = l.commitment_line_no
WHERE (i.commitment_id IS NULL) <> (l.commitment_line_no IS NULL)
   OR (i.commitment_id IS NOT NULL AND (cl.line_no IS NULL OR cl.cost_code <> l.cost_code));

-- name: commitment_billing_within_cap_unless_registered
SELECT cl.commitment_id, cl.line_no, cl.amount, sum(l.amount) AS billed
FROM book.ap_invoice_lines l JOIN book.ap_invoices i USING (invoice_id)
JOIN book.commitment_lines cl ON cl.commitment_id = i.commitment_id AND cl.line_no = l.commitment_line_no
WHERE i.invoice_id NOT IN (SELECT entity_key FROM book.divergences
                           WHERE kind IN ('commitment_cap_exceeded', 'bill_po_mismatch'))
GROUP BY ALL HAVING sum(l.amount) > cl.amount;

-- name: invoice_status_combinations
SELECT invoice_id FROM book.ap_invoices
WHERE (erp_synced AND pm_status IS DISTINCT FROM 'approved')
   OR (erp_synced AND erp_status = 'not_entered')
   OR (pm_status IN ('draft', 'under_review', 'rejected') AND erp_status <> 'not_entered')
   OR (pm_status = 'approved' AND NOT erp_synced AND erp_status <> 'not_entered'
       AND invoice_id IN (SELECT entity_key FROM book.divergences WHERE kind IN ('unsynced_invoice', 'unbooked_bill')))
   OR (pm_status = 'approved' AND NOT erp_synced AND erp_status = 'not_entered'
       AND invoice_id NOT IN (SELECT entity_key FROM book.divergences WHERE kind IN ('unsynced_invoice', 'unbooked_bill')));

-- name: check_applications_sum_to_check
SELECT c.check_id FROM book.checks c LEFT JOIN book.check_applications a USING (check_id)
WHERE c.payee_vendor_key IS NOT NULL AND c.status <> 'void'
GROUP BY c.check_id, c.amount HAVING coalesce(sum(a.amount), 0) <> c.amount;

-- name: void_and_payroll_checks_have_no_applications
SELECT a.check_id FROM book.check_applications a JOIN book.checks c USING (check_id)
WHERE c.status = 'void' OR c.payee_vendor_key IS NULL;

-- name: invoice_paid_amount_is_applications
SELECT i.invoice_id FROM book.ap_invoices i
LEFT JOIN book.check_applications a USING (invoice_id)
GROUP BY i.invoice_id, i.paid_amount, i.net_amount, i.erp_status
HAVING coalesce(sum(a.amount), 0) <> i.paid_amount
    OR i.paid_amount > greatest(i.net_amount, 0) OR i.paid_amount < least(i.net_amount, 0)  -- a credit memo's is negative
    OR (i.paid_amount > 0 AND i.erp_status <> 'posted');

-- name: checks_pay_their_payee
SELECT a.check_id, a.invoice_id FROM book.check_applications a
JOIN book.checks c USING (check_id) JOIN book.ap_invoices i USING (invoice_id)
WHERE c.payee_vendor_key <> i.vendor_key OR c.issue_date < i.invoice_date;

-- name: check_status_dates
SELECT check_id FROM book.checks
WHERE (status = 'cleared') <> (cleared_date IS NOT NULL) OR cleared_date < issue_date;

-- name: check_numbers_unique_per_account
SELECT bank_account_id, check_number FROM book.checks GROUP BY ALL HAVING count(*) > 1;

-- name: invoice_numbers_unique_per_vendor
SELECT vendor_key, invoice_number FROM book.ap_invoices GROUP BY ALL HAVING count(*) > 1;

-- name: positive_pay_items_match_their_reason
SELECT e.exception_id FROM book.positive_pay_exceptions e
LEFT JOIN book.checks c ON c.bank_account_id = e.bank_account_id AND c.check_number = e.check_number
JOIN book.bank_accounts a ON a.bank_account_id = e.bank_account_id
WHERE CASE e.exception_reason
        WHEN 'no_issue_record' THEN c.check_id IS NOT NULL
        WHEN 'payee_mismatch' THEN c.status <> 'issued' OR e.presented_amount <> c.amount
                                   OR e.presented_payee <> rtrim(left(c.payee_name, a.payee_name_width))
                                   OR length(c.payee_name) <= a.payee_name_width
        WHEN 'amount_mismatch' THEN c.status <> 'issued' OR e.presented_amount = c.amount
                                    OR e.presented_payee <> c.payee_name
        WHEN 'duplicate_presentment' THEN c.status <> 'cleared' OR e.presented_amount <> c.amount
        WHEN 'stale_dated' THEN c.status <> 'issued' OR e.presented_amount <> c.amount
                                OR e.presented_payee <> c.payee_name OR e.presented_date - c.issue_date <= 180
        WHEN 'void_presented' THEN c.status <> 'void' OR e.presented_amount <> c.amount
        ELSE true END;

-- ---------------------------------------------------------------------------------------------
-- People
-- name: earnings_arithmetic
SELECT batch_id, employee_id, job_number FROM book.payroll_earnings
WHERE gross_pay <> round(hours_regular * rate_paid + hours_overtime * rate_paid * 1.5, 2)
   OR net_pay <> gross_pay - withholding;

-- name: earnings_match_timecards
WITH tc AS (
    SELECT 'PR-' || strftime(work_date + CAST((13 - isodow(work_date)) % 7 AS INTEGER), '%Y-%m-%d') AS batch_id,
           employee_id, job_number, sum(hours_regular) AS reg, sum(hours_overtime) AS ot
    FROM book.timecards GROUP BY ALL
)
SELECT tc.* FROM tc LEFT JOIN book.payroll_earnings e USING (batch_id, employee_id, job_number)
WHERE e.hours_regular IS DISTINCT FROM tc.reg OR e.hours_overtime IS DISTINCT FROM tc.ot;

-- name: certified_payroll_matches_payroll
SELECT l.submission_id, l.line_no FROM book.certified_payroll_lines l
JOIN book.certified_payrolls s USING (submission_id)
LEFT JOIN book.payroll_earnings e ON e.batch_id = 'PR-' || strftime(s.week_ending, '%Y-%m-%d')
      AND e.employee_id = l.employee_id AND e.job_number = s.job_number
WHERE e.employee_id IS NULL OR l.total_hours <> e.hours_regular + e.hours_overtime
   OR l.rate_paid <> e.rate_paid OR l.fringe_paid <> e.fringe_paid OR l.gross_this_project <> e.gross_pay
   OR l.total_hours <> l.hours_sun + l.hours_mon + l.hours_tue + l.hours_wed + l.hours_thu + l.hours_fri + l.hours_sat;

-- name: certified_payroll_days_match_timecards
WITH d AS (
    SELECT s.submission_id, l.employee_id, s.job_number, s.week_ending - 6 + CAST(i AS INTEGER) AS work_date,
           [l.hours_sun, l.hours_mon, l.hours_tue, l.hours_wed, l.hours_thu, l.hours_fri, l.hours_sat][i + 1] AS hours
    FROM book.certified_payroll_lines l JOIN book.certified_payrolls s USING (submission_id)
    CROSS JOIN range(7) AS r(i)
)
SELECT d.* FROM d LEFT JOIN book.timecards t
  ON t.employee_id = d.employee_id AND t.job_number = d.job_number AND t.work_date = d.work_date
WHERE coalesce(t.hours_regular + t.hours_overtime, 0) <> d.hours;

-- name: system_ids_unique
SELECT system, system_vendor_id FROM book.vendor_identities GROUP BY ALL HAVING count(*) > 1
UNION ALL
SELECT system, system_employee_id FROM book.employee_identities GROUP BY ALL HAVING count(*) > 1;

-- name: every_vendor_has_every_identity
SELECT v.vendor_key FROM book.vendors v LEFT JOIN book.vendor_identities i USING (vendor_key)
GROUP BY v.vendor_key HAVING count(i.system) <> 18;

-- ---------------------------------------------------------------------------------------------
-- Estimates
-- name: estimate_arithmetic
SELECT e.estimate_id FROM book.estimates e LEFT JOIN book.estimate_items i USING (estimate_id)
GROUP BY e.estimate_id, e.total_cost, e.markup_pct, e.bid_total
HAVING coalesce(sum(i.total_cost), 0) <> e.total_cost
    OR e.bid_total <> round(e.total_cost * (1 + e.markup_pct * 0.01), 2)
UNION ALL
SELECT estimate_id FROM book.estimate_items WHERE total_cost <> round(quantity * unit_cost, 2);

-- ---------------------------------------------------------------------------------------------
-- Treasury and the detail tables
-- name: internal_transfers_have_both_sides
-- An entry whose every line is on a bank account's GL cash account moves money between the
-- company's own accounts: each account's bank activity under the entry's number is its GL amount.
WITH cash AS (SELECT gl_account, bank_account_id FROM book.bank_accounts),
xfer AS (
    SELECT e.je_id, e.je_number FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
    LEFT JOIN cash c ON c.gl_account = l.account
    GROUP BY e.je_id, e.je_number HAVING count(c.gl_account) = count(*) AND count(DISTINCT l.account) >= 2
),
gl AS (
    SELECT x.je_number, c.bank_account_id, sum(l.debit - l.credit) AS amt
    FROM xfer x JOIN book.journal_lines l USING (je_id) JOIN cash c ON c.gl_account = l.account GROUP BY ALL
),
bank AS (
    SELECT t.reference, t.bank_account_id, sum(t.amount) AS amt FROM book.bank_transactions t
    WHERE t.reference IN (SELECT je_number FROM xfer) GROUP BY ALL
)
SELECT coalesce(gl.je_number, bank.reference) AS je_number, gl.amt AS gl, bank.amt AS bank
FROM gl FULL OUTER JOIN bank ON bank.reference = gl.je_number AND bank.bank_account_id = gl.bank_account_id
WHERE gl.amt IS DISTINCT FROM bank.amt;

-- name: every_bank_account_has_a_product
SELECT a.bank_account_id FROM book.bank_accounts a LEFT JOIN book.bank_account_products p USING (bank_account_id)
WHERE p.bank_account_id IS NULL;

-- name: every_certificate_has_its_details
SELECT c.coi_id FROM book.certificates_of_insurance c LEFT JOIN book.coi_details d USING (coi_id)
WHERE d.coi_id IS NULL OR NOT regexp_full_match(d.insurer_naic, '[0-9]{5}')
UNION ALL
SELECT min(c.coi_id) FROM book.certificates_of_insurance c JOIN book.coi_details d USING (coi_id)
GROUP BY c.insurer HAVING count(DISTINCT d.insurer_naic) > 1;

-- name: one_certifying_officer_each
SELECT 'certified_payroll' AS role FROM book.company_officers HAVING count(*) FILTER (WHERE signs_certified_payroll) <> 1
UNION ALL
SELECT 'pay_applications' FROM book.company_officers HAVING count(*) FILTER (WHERE signs_pay_applications) <> 1;

-- name: every_prime_contract_has_an_architect
SELECT p.job_number FROM book.prime_contracts p LEFT JOIN book.prime_contract_architects a USING (job_number)
WHERE a.job_number IS NULL;

-- name: waivers_signed_by_the_vendor_signer
SELECT w.waiver_id FROM book.lien_waivers w LEFT JOIN book.vendor_signers s USING (vendor_key)
WHERE s.vendor_key IS NULL OR (w.signer IS NOT NULL AND w.signer <> s.signer_name);

-- name: every_employee_has_a_tax_profile
SELECT e.employee_id FROM book.employees e LEFT JOIN book.employee_tax_profiles p USING (employee_id)
WHERE p.employee_id IS NULL OR p.withholding_exemptions < 0 OR p.state_allowances < 0;

-- name: wh347_details_tie_to_lines_and_payroll
WITH week AS (
    SELECT batch_id, employee_id, sum(hours_regular) AS reg, sum(hours_overtime) AS ot, sum(gross_pay) AS gross,
           sum(withholding) AS withholding, sum(net_pay) AS net
    FROM book.payroll_earnings GROUP BY ALL
)
SELECT l.submission_id, l.line_no FROM book.certified_payroll_lines l
JOIN book.certified_payrolls s USING (submission_id)
LEFT JOIN book.certified_payroll_line_details d USING (submission_id, line_no)
LEFT JOIN book.payroll_earnings e ON e.batch_id = 'PR-' || strftime(s.week_ending, '%Y-%m-%d')
      AND e.employee_id = l.employee_id AND e.job_number = s.job_number
LEFT JOIN week w ON w.batch_id = e.batch_id AND w.employee_id = l.employee_id
WHERE d.line_no IS NULL
   OR d.st_sun + d.ot_sun <> l.hours_sun OR d.st_mon + d.ot_mon <> l.hours_mon OR d.st_tue + d.ot_tue <> l.hours_tue
   OR d.st_wed + d.ot_wed <> l.hours_wed OR d.st_thu + d.ot_thu <> l.hours_thu OR d.st_fri + d.ot_fri <> l.hours_fri
   OR d.st_sat + d.ot_sat <> l.hours_sat
   OR d.st_sun + d.st_mon + d.st_tue + d.st_wed + d.st_thu + d.st_fri + d.st_sat <> e.hours_regular
   OR d.ot_sun + d.ot_mon + d.ot_tue + d.ot_wed + d.ot_thu + d.ot_fri + d.ot_sat <> e.hours_overtime
   OR d.overtime_rate <> round(l.rate_paid * 1.5, 4)
   OR d.gross_all_work <> w.gross OR d.total_deductions <> w.withholding OR d.net_pay <> w.net
   OR d.total_deductions <> d.fica + d.federal_withholding + d.state_withholding + d.other_deductions
   OR d.gross_all_work - d.total_deductions <> d.net_pay
   OR least(d.fica, d.federal_withholding, d.state_withholding, d.other_deductions) < 0;

-- name: g702_retainage_split
WITH app AS (
    SELECT a.job_number, a.app_number, a.retainage,
           CASE WHEN c.retainage_step_down_pct IS NOT NULL
                 AND a.total_completed_stored * 100 >= c.step_down_at_pct * (a.original_contract_sum + a.net_change_orders)
                THEN c.retainage_step_down_pct ELSE c.retainage_pct END AS pct
    FROM book.owner_pay_apps a JOIN book.prime_contracts c USING (job_number)
),
stored AS (
    SELECT l.job_number, l.app_number, sum(least(round(l.materials_stored * app.pct * 0.01, 2), l.retainage)) AS amt
    FROM book.owner_pay_app_lines l JOIN app USING (job_number, app_number) GROUP BY ALL
)
SELECT app.job_number, app.app_number FROM app
LEFT JOIN book.owner_pay_app_retainage r USING (job_number, app_number)
LEFT JOIN stored s USING (job_number, app_number)
WHERE r.job_number IS NULL OR r.retainage_pct <> app.pct
   OR r.completed_work_retainage + r.stored_material_retainage <> app.retainage
   OR r.stored_material_retainage <> coalesce(s.amt, 0) OR r.completed_work_retainage < 0;

-- ---------------------------------------------------------------------------------------------
-- Union fringe agreements (seeds/union_fringe.py)
-- name: union_agreement_per_local
SELECT u.local_code FROM book.union_locals u
LEFT JOIN book.union_agreements a USING (local_code)
LEFT JOIN (SELECT DISTINCT local_code FROM book.union_jurisdictions) j USING (local_code)
WHERE a.local_code IS NULL OR j.local_code IS NULL;

-- name: union_apprentice_tier_below_journeyman
SELECT local_code FROM book.union_agreements
WHERE apprentice_rate IS NOT NULL AND (apprentice_rate <= 0 OR apprentice_rate >= journeyman_rate);

-- name: union_transfer_lands_in_master
SELECT t.employee_id FROM book.union_transfers t JOIN book.employees e USING (employee_id)
WHERE e.union_local <> t.to_local OR t.from_local = t.to_local OR dayofweek(t.effective_date) <> 0;

-- ---------------------------------------------------------------------------------------------
-- Equipment fleet, rate book and hours (seeds/equipment.py)
-- name: equipment_hours_rated
-- every logged hour falls on or after the unit's first rate-book row (the rate in effect exists)
SELECT h.log_id FROM book.equipment_hours h
WHERE NOT EXISTS (SELECT 1 FROM book.equipment_rates r
                  WHERE r.unit_number = h.unit_number AND r.effective_date <= h.work_date);

-- name: equipment_hours_in_half_hours_within_a_day
SELECT unit_number, work_date FROM book.equipment_hours
GROUP BY ALL
HAVING sum(hours) > 24 OR bool_or(hours <= 0 OR hours * 2 <> round(hours * 2))
    OR bool_or(hour_type NOT IN ('operating', 'idle'));

-- name: equipment_rates_in_half_dollars
SELECT unit_number, effective_date FROM book.equipment_rates
WHERE rent_rate <= 0 OR eoe_rate <= 0 OR rent_rate * 2 <> round(rent_rate * 2) OR eoe_rate * 2 <> round(eoe_rate * 2);

-- name: equipment_hours_in_the_jobs_field_app
-- a unit's hours are logged in its field-time app, on jobs whose crews keep their time there
SELECT h.log_id FROM book.equipment_hours h JOIN book.equipment q USING (unit_number)
WHERE EXISTS (SELECT 1 FROM book.timecards t WHERE t.job_number = h.job_number AND t.source_system <> q.field_system);
