-- R_lien_waiver_audit: the subcontractor payments of a month on one job whose unconditional lien
-- waiver Levelset does not hold, one waiver request each.
--
-- A payment is a subcontractor pay request (an invoice on a subcontract, from a vendor whose type
-- is subcontractor) applied on a check issued in the month ($month 'YYYY-MM'), not void; its
-- amount is what those checks applied to it. Per the payments policy (§2) it needs an
-- unconditional waiver through the pay request's period end for the amount paid: a waiver of
-- that pay request (Levelset's payment reference = the invoice number) that is unconditional
-- (progress or final), received or approved, for at least the amount paid. Otherwise it is
-- missing: no waiver at all, an unconditional one for less than the payment ('short'), or only a
-- conditional one ('conditional'). Levelset files a waiver under the vendor's Levelset company,
-- whatever Levelset calls it ('respelled': its Levelset name is not its legal name, nor that name
-- without the legal suffix).

-- name: payments
-- Every subcontractor payment of the month on the job ($job), with the key's ERP ($erp) ids, the
-- Levelset company, the through date and the waivers on file for the pay request.
WITH applied AS (
    SELECT a.invoice_id, sum(a.amount) AS amount,
           list(DISTINCT c.check_number ORDER BY c.check_number) AS check_numbers,
           min(c.issue_date) AS paid_on, bool_and(c.status = 'cleared') AS cleared
    FROM book.check_applications a
    JOIN book.checks c USING (check_id)
    WHERE c.status <> 'void' AND strftime(c.issue_date, '%Y-%m') = $month
    GROUP BY a.invoice_id
),
on_file AS (
    SELECT w.invoice_id,
           max(w.amount) FILTER (WHERE w.waiver_type IN ('unconditional_progress', 'unconditional_final')
                                   AND w.status IN ('received', 'approved')) AS unconditional_amount,
           bool_or(w.waiver_type IN ('conditional_progress', 'conditional_final')
                   AND w.status IN ('received', 'approved')) AS conditional
    FROM book.lien_waivers w
    GROUP BY w.invoice_id
)
SELECT i.invoice_id, i.vendor_key, v.legal_name, i.invoice_number, i.period_end AS through_date, i.gross_amount,
       p.amount, p.check_numbers, p.paid_on, p.cleared,
       erp.system_vendor_id AS erp_vendor_id, erp.spelled_name AS erp_vendor_name,
       ls.system_vendor_id AS company_id, ls.spelled_name AS company_name,
       book.system_job_id($erp, i.job_number) AS erp_job,
       book.system_job_id('levelset', i.job_number) AS levelset_job,
       f.unconditional_amount, coalesce(f.conditional, false) AS conditional_on_file,
       coalesce(f.unconditional_amount >= p.amount, false) AS covered,
       CASE WHEN coalesce(f.unconditional_amount >= p.amount, false) THEN NULL
            WHEN f.unconditional_amount IS NOT NULL THEN 'short'
            WHEN f.conditional THEN 'conditional'
            ELSE 'none' END AS missing,
       NOT starts_with(v.legal_name, ls.spelled_name) AS respelled
FROM applied p
JOIN book.ap_invoices i USING (invoice_id)
JOIN book.commitments k ON k.commitment_id = i.commitment_id AND k.commitment_type = 'subcontract'
JOIN book.vendors v ON v.vendor_key = i.vendor_key AND v.vendor_type = 'subcontractor'
JOIN book.vendor_identities erp ON erp.vendor_key = i.vendor_key AND erp.system = $erp
JOIN book.vendor_identities ls ON ls.vendor_key = i.vendor_key AND ls.system = 'levelset'
LEFT JOIN on_file f ON f.invoice_id = i.invoice_id
WHERE i.job_number = $job
ORDER BY i.vendor_key, i.period_end, i.invoice_number;

-- name: candidates
-- Active jobs with a subcontractor payment of the month missing its unconditional waiver, and
-- what else the job's payments hold: a short waiver, a conditional-only one, a covered payment to
-- a subcontractor Levelset spells its own way.
WITH applied AS (
    SELECT a.invoice_id, sum(a.amount) AS amount
    FROM book.check_applications a
    JOIN book.checks c USING (check_id)
    WHERE c.status <> 'void' AND strftime(c.issue_date, '%Y-%m') = $month
    GROUP BY a.invoice_id
),
on_file AS (
    SELECT w.invoice_id,
           max(w.amount) FILTER (WHERE w.waiver_type IN ('unconditional_progress', 'unconditional_final')
                                   AND w.status IN ('received', 'approved')) AS unconditional_amount,
           bool_or(w.waiver_type IN ('conditional_progress', 'conditional_final')
                   AND w.status IN ('received', 'approved')) AS conditional
    FROM book.lien_waivers w
    GROUP BY w.invoice_id
),
pay AS (
    SELECT i.job_number, coalesce(f.unconditional_amount >= p.amount, false) AS covered,
           f.unconditional_amount IS NOT NULL AND f.unconditional_amount < p.amount AS short,
           f.unconditional_amount IS NULL AND coalesce(f.conditional, false) AS conditional,
           NOT starts_with(v.legal_name, ls.spelled_name) AS respelled
    FROM applied p
    JOIN book.ap_invoices i USING (invoice_id)
    JOIN book.commitments k ON k.commitment_id = i.commitment_id AND k.commitment_type = 'subcontract'
    JOIN book.vendors v ON v.vendor_key = i.vendor_key AND v.vendor_type = 'subcontractor'
    JOIN book.vendor_identities ls ON ls.vendor_key = i.vendor_key AND ls.system = 'levelset'
    LEFT JOIN on_file f ON f.invoice_id = i.invoice_id
)
SELECT p.job_number,
       count(*) FILTER (WHERE NOT p.covered) AS missing,
       bool_or(p.short) AS short,
       bool_or(p.conditional) AS conditional,
       bool_or(p.covered AND p.respelled) AS identity,
       NOT bool_or(p.short OR p.conditional OR p.respelled) AS clean
FROM pay p
JOIN book.jobs j ON j.job_number = p.job_number AND j.status = 'active'
GROUP BY p.job_number
HAVING count(*) FILTER (WHERE NOT p.covered) > 0
ORDER BY p.job_number;
