-- Queries the document renderers run against the book. Each block starts with
-- "-- name: <name>" and ends at the next such line. Parameters:
--   $ids  VARCHAR[] of document ids, or NULL for every document of the type
--   $keys VARCHAR[] of entity keys (invoice ids, commitment ids, ...) picked by a header query
-- A document is tied to its source row by natural_key (the documented contract of
-- book.documents) or, equivalently, by the source row's document_id column.

-- name: documents
SELECT document_id, doc_type, natural_key, store, folder, filename, mime_type, title,
       job_number, vendor_key, created_date
FROM book.documents
WHERE $ids IS NULL OR list_contains($ids, document_id)
ORDER BY document_id;

-- name: company
SELECT * FROM book.company ORDER BY company_id LIMIT 1;

-- name: invoice_headers
SELECT d.document_id, i.*,
       coalesce(vb.spelled_name, v.legal_name) AS vendor_name, v.legal_name,
       v.address AS v_address, v.city AS v_city, v.state AS v_state, v.zip AS v_zip,
       v.email AS v_email, v.phone AS v_phone, v.payment_terms, v.vendor_type,
       j.name AS job_name, j.address AS job_address, j.city AS job_city, j.state AS job_state,
       j.project_manager,
       c.number AS commitment_number, c.commitment_type, c.retainage_pct, c.title AS commitment_title
FROM book.documents d
JOIN book.ap_invoices i ON i.invoice_id = d.natural_key OR i.document_id = d.document_id
JOIN book.vendors v ON v.vendor_key = i.vendor_key
LEFT JOIN book.vendor_identities vb ON vb.vendor_key = i.vendor_key AND vb.system = 'box'
JOIN book.jobs j ON j.job_number = i.job_number
LEFT JOIN book.commitments c ON c.commitment_id = i.commitment_id
WHERE d.doc_type = 'invoice' AND ($ids IS NULL OR list_contains($ids, d.document_id))
QUALIFY row_number() OVER (PARTITION BY d.document_id
                           ORDER BY (i.invoice_id = d.natural_key) DESC, i.invoice_id) = 1;

-- name: invoice_lines
SELECT l.*, cc.description AS cost_code_description
FROM book.ap_invoice_lines l
LEFT JOIN book.cost_codes cc ON cc.cost_code = l.cost_code
WHERE list_contains($keys, l.invoice_id)
ORDER BY l.invoice_id, l.line_no;

-- name: coi_rows
SELECT d.document_id, ci.*,
       coalesce(vb.spelled_name, vp.spelled_name, v.legal_name) AS insured_name,
       v.address AS v_address, v.city AS v_city, v.state AS v_state, v.zip AS v_zip,
       v.phone AS v_phone,
       cd.insurer_naic, cd.producer_contact, cd.producer_contact_email,
       pr.name AS producer_name, pr.address AS producer_address, pr.city AS producer_city,
       pr.state AS producer_state, pr.zip AS producer_zip, pr.phone AS producer_phone
FROM book.documents d
JOIN book.certificates_of_insurance ci ON ci.document_id = d.document_id OR ci.coi_id = d.natural_key
JOIN book.vendors v ON v.vendor_key = ci.vendor_key
LEFT JOIN book.coi_details cd ON cd.coi_id = ci.coi_id
LEFT JOIN book.insurance_producers pr ON pr.producer_id = cd.producer_id
LEFT JOIN book.vendor_identities vb ON vb.vendor_key = ci.vendor_key AND vb.system = 'box'
LEFT JOIN book.vendor_identities vp ON vp.vendor_key = ci.vendor_key AND vp.system = 'procore'
WHERE d.doc_type = 'coi' AND ($ids IS NULL OR list_contains($ids, d.document_id))
ORDER BY d.document_id, (ci.coi_id = d.natural_key) DESC,
         CASE ci.coverage_type WHEN 'general_liability' THEN 1 WHEN 'auto' THEN 2
              WHEN 'umbrella' THEN 3 WHEN 'workers_comp' THEN 4 ELSE 5 END, ci.coi_id;

-- name: waiver_headers
SELECT d.document_id, w.*,
       coalesce(vb.spelled_name, v.legal_name) AS claimant_name,
       j.name AS job_name, j.address AS job_address, j.city AS job_city, j.state AS job_state,
       o.name AS owner_name,
       i.invoice_number, i.period_start AS invoice_period_start, i.period_end AS invoice_period_end,
       vs.signer_name AS vendor_signer_name, vs.signer_title AS vendor_signer_title
FROM book.documents d
JOIN book.lien_waivers w ON w.waiver_id = d.natural_key OR w.document_id = d.document_id
JOIN book.vendors v ON v.vendor_key = w.vendor_key
LEFT JOIN book.vendor_signers vs ON vs.vendor_key = w.vendor_key
LEFT JOIN book.vendor_identities vb ON vb.vendor_key = w.vendor_key AND vb.system = 'box'
LEFT JOIN book.jobs j ON j.job_number = w.job_number
LEFT JOIN book.owners o ON o.owner_id = j.owner_id
LEFT JOIN book.ap_invoices i ON i.invoice_id = w.invoice_id
WHERE d.doc_type = 'lien_waiver' AND ($ids IS NULL OR list_contains($ids, d.document_id))
QUALIFY row_number() OVER (PARTITION BY d.document_id
                           ORDER BY (w.waiver_id = d.natural_key) DESC, w.waiver_id) = 1;

-- name: payapp_headers
SELECT d.document_id, p.*, p.job_number || '-' || p.app_number AS payapp_key,
       j.name AS job_name, j.address AS job_address, j.city AS job_city, j.state AS job_state,
       o.name AS owner_name, o.address AS owner_address, o.contact_name AS owner_contact,
       pc.contract_number, pc.executed_date AS contract_date, pc.retainage_pct AS contract_retainage_pct,
       pc.retainage_step_down_pct, pc.step_down_at_pct,
       ar.firm_name AS architect_firm, ar.address AS architect_address, ar.city AS architect_city,
       ar.state AS architect_state, ar.zip AS architect_zip, ar.contact_name AS architect_contact,
       ar.contact_title AS architect_title,
       rs.retainage_pct AS split_retainage_pct, rs.completed_work_retainage, rs.stored_material_retainage,
       (SELECT name FROM book.company_officers WHERE signs_pay_applications ORDER BY officer_id LIMIT 1) AS signer_name,
       (SELECT title FROM book.company_officers WHERE signs_pay_applications ORDER BY officer_id LIMIT 1) AS signer_title
FROM book.documents d
JOIN book.owner_pay_apps p ON p.document_id = d.document_id
                           OR d.natural_key IN (p.job_number || ':' || p.app_number,
                                                p.job_number || '-' || p.app_number)
JOIN book.jobs j ON j.job_number = p.job_number
JOIN book.owners o ON o.owner_id = j.owner_id
LEFT JOIN book.prime_contracts pc ON pc.job_number = p.job_number
LEFT JOIN book.prime_contract_architects ar ON ar.job_number = p.job_number
LEFT JOIN book.owner_pay_app_retainage rs ON rs.job_number = p.job_number AND rs.app_number = p.app_number
WHERE d.doc_type = 'pay_app' AND ($ids IS NULL OR list_contains($ids, d.document_id))
QUALIFY row_number() OVER (PARTITION BY d.document_id
                           ORDER BY (p.document_id = d.document_id) DESC, p.app_number) = 1;

-- name: payapp_lines
SELECT l.job_number || '-' || l.app_number AS payapp_key, l.*,
       s.item_number, s.description, s.cost_code
FROM book.owner_pay_app_lines l
LEFT JOIN book.prime_sov_lines s ON s.job_number = l.job_number AND s.line_no = l.line_no
WHERE list_contains($keys, l.job_number || '-' || l.app_number)
ORDER BY l.job_number, l.app_number, l.line_no;

-- name: wh347_headers
SELECT d.document_id, cp.*,
       j.name AS job_name, j.address AS job_address, j.city AS job_city, j.state AS job_state,
       j.county AS job_county, wd.wd_number, wd.modification, pc.contract_number,
       (SELECT name FROM book.company_officers WHERE signs_certified_payroll ORDER BY officer_id LIMIT 1) AS certifier_name,
       (SELECT title FROM book.company_officers WHERE signs_certified_payroll ORDER BY officer_id LIMIT 1) AS certifier_title
FROM book.documents d
JOIN book.certified_payrolls cp ON cp.submission_id = d.natural_key OR cp.document_id = d.document_id
JOIN book.jobs j ON j.job_number = cp.job_number
LEFT JOIN book.wage_determinations wd ON wd.determination_id = cp.determination_id
LEFT JOIN book.prime_contracts pc ON pc.job_number = cp.job_number
WHERE d.doc_type = 'wh347' AND ($ids IS NULL OR list_contains($ids, d.document_id))
QUALIFY row_number() OVER (PARTITION BY d.document_id
                           ORDER BY (cp.submission_id = d.natural_key) DESC, cp.submission_id) = 1;

-- name: wh347_lines
SELECT l.*, e.first_name, e.last_name, e.ssn_last4, lid.system_employee_id AS lcp_id,
       pe.withholding, pe.net_pay, pe.gross_pay AS payroll_gross,
       tp.address AS emp_address, tp.city AS emp_city, tp.state AS emp_state, tp.zip AS emp_zip,
       tp.withholding_exemptions,
       dt.* EXCLUDE (submission_id, line_no, net_pay), dt.net_pay AS detail_net_pay
FROM book.certified_payroll_lines l
JOIN book.certified_payrolls cp ON cp.submission_id = l.submission_id
JOIN book.employees e ON e.employee_id = l.employee_id
LEFT JOIN book.employee_tax_profiles tp ON tp.employee_id = l.employee_id
LEFT JOIN book.certified_payroll_line_details dt ON dt.submission_id = l.submission_id AND dt.line_no = l.line_no
LEFT JOIN book.employee_identities lid ON lid.employee_id = l.employee_id AND lid.system = 'lcptracker'
LEFT JOIN (SELECT pe.*, b.period_end FROM book.payroll_earnings pe
           JOIN book.payroll_batches b ON b.batch_id = pe.batch_id) pe
       ON pe.employee_id = l.employee_id AND pe.job_number = cp.job_number
      AND pe.period_end = cp.week_ending
WHERE list_contains($keys, l.submission_id)
ORDER BY l.submission_id, l.line_no;

-- name: subcontract_headers
SELECT d.document_id, c.*,
       v.legal_name AS vendor_legal_name, v.address AS v_address, v.city AS v_city,
       v.state AS v_state, v.zip AS v_zip, v.trade AS v_trade, v.tin AS v_tin,
       j.name AS job_name, j.address AS job_address, j.city AS job_city, j.state AS job_state,
       j.project_manager, o.name AS owner_name,
       vs.signer_name AS vendor_signer_name, vs.signer_title AS vendor_signer_title
FROM book.documents d
JOIN book.commitments c ON c.commitment_id = d.natural_key OR c.document_id = d.document_id
JOIN book.vendors v ON v.vendor_key = c.vendor_key
LEFT JOIN book.vendor_signers vs ON vs.vendor_key = c.vendor_key
JOIN book.jobs j ON j.job_number = c.job_number
JOIN book.owners o ON o.owner_id = j.owner_id
WHERE d.doc_type = 'subcontract' AND ($ids IS NULL OR list_contains($ids, d.document_id))
QUALIFY row_number() OVER (PARTITION BY d.document_id
                           ORDER BY (c.commitment_id = d.natural_key) DESC, c.commitment_id) = 1;

-- name: subcontract_lines
SELECT l.*, cc.description AS cost_code_description
FROM book.commitment_lines l
LEFT JOIN book.cost_codes cc ON cc.cost_code = l.cost_code
WHERE list_contains($keys, l.commitment_id)
ORDER BY l.commitment_id, l.line_no;

-- name: change_headers
SELECT d.document_id, ce.*,
       j.name AS job_name, j.address AS job_address, j.city AS job_city, j.state AS job_state,
       j.project_manager, j.pm_email,
       o.name AS owner_name, o.contact_name AS owner_contact, o.address AS owner_address,
       o.email AS owner_email, pc.contract_number
FROM book.documents d
JOIN book.change_events ce ON ce.change_event_id = d.natural_key OR ce.document_id = d.document_id
JOIN book.jobs j ON j.job_number = ce.job_number
JOIN book.owners o ON o.owner_id = j.owner_id
LEFT JOIN book.prime_contracts pc ON pc.job_number = ce.job_number
WHERE d.doc_type = 'change_backup' AND ($ids IS NULL OR list_contains($ids, d.document_id))
QUALIFY row_number() OVER (PARTITION BY d.document_id
                           ORDER BY (ce.change_event_id = d.natural_key) DESC, ce.change_event_id) = 1;

-- name: change_lines
SELECT co.change_event_id, l.cost_code, cc.description AS cost_code_description,
       sum(l.amount) AS amount
FROM book.change_orders co
JOIN book.change_order_lines l ON l.co_id = co.co_id
LEFT JOIN book.cost_codes cc ON cc.cost_code = l.cost_code
WHERE list_contains($keys, co.change_event_id) AND co.co_type IN ('owner', 'internal')
  AND co.status <> 'void'
GROUP BY ALL
ORDER BY co.change_event_id, l.cost_code;

-- name: policy_rows
SELECT d.document_id, p.*
FROM book.documents d
JOIN book.policies p ON p.policy_id = d.natural_key
     OR regexp_replace(d.natural_key, '\.(md|pdf)$', '') = regexp_replace(p.policy_id, '\.md$', '')
WHERE d.doc_type = 'policy' AND ($ids IS NULL OR list_contains($ids, d.document_id));

-- name: wip_jobs
WITH cos AS (
    SELECT job_number, sum(amount) AS approved_cos
    FROM book.change_orders
    WHERE co_type = 'owner' AND status = 'approved' AND increases_contract
    GROUP BY job_number),
cost AS (
    SELECT jl.job_number, sum(jl.debit - jl.credit) AS cost_to_date
    FROM book.journal_lines jl
    JOIN book.journal_entries je ON je.je_id = jl.je_id
    JOIN book.gl_accounts a ON a.account = jl.account
    WHERE a.is_job_cost AND a.account_type = 'expense' AND jl.job_number IS NOT NULL
      AND je.entry_date <= $as_of
    GROUP BY jl.job_number),
etc AS (
    SELECT job_number, sum(pm_forecast_to_complete) AS cost_to_complete
    FROM book.budget_lines GROUP BY job_number),
billed AS (
    SELECT job_number, arg_max(total_completed_stored, app_number) AS billed_to_date
    FROM book.owner_pay_apps WHERE period_end <= $as_of GROUP BY job_number)
SELECT j.job_number, j.name, j.project_manager,
       pc.original_amount + coalesce(cos.approved_cos, 0) AS contract_amount,
       coalesce(cost.cost_to_date, 0) AS cost_to_date,
       coalesce(etc.cost_to_complete, 0) AS cost_to_complete,
       coalesce(billed.billed_to_date, 0) AS billed_to_date
FROM book.jobs j
JOIN book.prime_contracts pc ON pc.job_number = j.job_number
LEFT JOIN cos ON cos.job_number = j.job_number
LEFT JOIN cost ON cost.job_number = j.job_number
LEFT JOIN etc ON etc.job_number = j.job_number
LEFT JOIN billed ON billed.job_number = j.job_number
WHERE j.status = 'active' AND ($job IS NULL OR j.job_number = $job)
ORDER BY j.job_number;

-- name: accrual_commitments
SELECT c.job_number, j.name AS job_name, c.commitment_id, c.number, c.commitment_type,
       coalesce(vp.spelled_name, v.legal_name) AS vendor_name, c.vendor_key, c.amount
FROM book.commitments c
JOIN book.jobs j ON j.job_number = c.job_number
JOIN book.vendors v ON v.vendor_key = c.vendor_key
LEFT JOIN book.vendor_identities vp ON vp.vendor_key = c.vendor_key AND vp.system = 'procore'
WHERE j.status = 'active' AND c.status = 'approved' AND c.commitment_type = 'subcontract'
  AND ($job IS NULL OR c.job_number = $job)
ORDER BY c.job_number, c.commitment_id;

-- name: vendor_payments
SELECT v.vendor_key, v.legal_name, v.dba_name, v.tin, v.tin_type, v.entity_type,
       v.vendor_type, v.materials_only, v.is_attorney,
       coalesce(sum(ch.amount), 0) AS payments
FROM book.vendors v
LEFT JOIN book.checks ch ON ch.payee_vendor_key = v.vendor_key AND ch.status <> 'void'
     AND year(ch.issue_date) = $year
GROUP BY ALL
ORDER BY v.vendor_key;

-- name: sov_lines
SELECT s.job_number, j.name AS job_name, pc.contract_number, s.line_no, s.item_number,
       s.description, s.cost_code, s.scheduled_value, s.source, s.co_id
FROM book.prime_sov_lines s
JOIN book.jobs j ON j.job_number = s.job_number
LEFT JOIN book.prime_contracts pc ON pc.job_number = s.job_number
WHERE j.status = 'active' AND ($job IS NULL OR s.job_number = $job)
ORDER BY s.job_number, s.line_no;

-- name: bank_change_forms
SELECT d.document_id, q.*, v.legal_name, v.address, v.city, v.state, v.zip,
       m.bank_name AS old_bank_name, m.account_number AS old_account
FROM book.documents d
JOIN book.vendor_bank_change_requests q ON q.request_id = d.natural_key
JOIN book.vendors v ON v.vendor_key = q.vendor_key
LEFT JOIN book.vendor_remittance m ON m.vendor_key = q.vendor_key
WHERE d.doc_type = 'bank_change_form' AND ($ids IS NULL OR list_contains($ids, d.document_id));

-- name: insurance_policy_rows
-- The company's own policies: a declarations page (document_id) or a cancellation endorsement
-- (cancel_document_id), with which one the document is.
SELECT d.document_id, p.* EXCLUDE (document_id), p.cancel_document_id = d.document_id AS is_cancellation
FROM book.documents d
JOIN book.insurance_policies p ON p.document_id = d.document_id OR p.cancel_document_id = d.document_id
WHERE d.doc_type = 'insurance_policy' AND ($ids IS NULL OR list_contains($ids, d.document_id))
ORDER BY d.document_id;
