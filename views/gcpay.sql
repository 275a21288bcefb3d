-- gcpay: projection of the book's prime contracts, SOVs and certified owner pay applications.
-- Pay application #1 (certified) comes from book.owner_pay_apps with its G703 lines; later
-- applications do not exist until an agent drafts them. G702 lines 3, 6 and 9 are derived
-- from the book's stored lines 1, 2, 4, 5 and 7 exactly as the app derives them for drafts.

INSERT INTO gcpay.contracts
SELECT 'GCP-PC-' || pc.job_number,
       book.system_job_id('gcpay', pc.job_number),
       j.name, pc.contract_number, o.name, c.name,
       pc.original_amount,
       coalesce(sov.co_total, 0)::DECIMAL(18,2),
       (pc.original_amount + coalesce(sov.co_total, 0))::DECIMAL(18,2),
       pc.retainage_pct, pc.retainage_step_down_pct, pc.step_down_at_pct,
       pc.executed_date,
       CASE pc.status WHEN 'closed' THEN 'Closed' ELSE 'Active' END,
       'Net ' || CAST(coalesce(t.terms_days, 30) AS VARCHAR)
FROM book.prime_contracts pc
JOIN book.jobs j USING (job_number)
JOIN book.owners o ON o.owner_id = pc.owner_id
CROSS JOIN (SELECT name FROM book.company ORDER BY company_id LIMIT 1) c
LEFT JOIN (SELECT job_number, sum(scheduled_value) AS co_total
           FROM book.prime_sov_lines WHERE source = 'change_order' GROUP BY job_number) sov
       ON sov.job_number = pc.job_number
LEFT JOIN book.owner_payment_terms t ON t.job_number = pc.job_number;

INSERT INTO gcpay.contract_items
SELECT 'GCP-PC-' || s.job_number, s.line_no, s.item_number, s.description, s.cost_code, s.scheduled_value,
       CASE s.source WHEN 'change_order' THEN 'Change Order' ELSE 'Original' END,
       s.co_id
FROM book.prime_sov_lines s
JOIN book.prime_contracts pc USING (job_number);

INSERT INTO gcpay.change_orders
SELECT 'GCP-PC-' || co.job_number, co.co_id, co.description, co.amount, 'Approved', co.approved_date
FROM book.change_orders co
JOIN book.prime_contracts pc USING (job_number)
WHERE co.co_type = 'owner' AND co.status = 'approved' AND co.increases_contract;

INSERT INTO gcpay.pay_applications
SELECT 'PA-' || a.job_number || '-' || lpad(CAST(a.app_number AS VARCHAR), 3, '0'),
       'GCP-PC-' || a.job_number,
       a.app_number, a.period_start, a.period_end,
       CASE a.status WHEN 'paid' THEN 'Paid' WHEN 'certified' THEN 'Certified'
                     WHEN 'approved' THEN 'Approved' WHEN 'submitted' THEN 'Submitted' ELSE 'Draft' END,
       a.original_contract_sum,
       a.net_change_orders,
       a.original_contract_sum + a.net_change_orders,
       a.total_completed_stored,
       a.retainage,
       a.total_completed_stored - a.retainage,
       a.previous_certificates,
       a.current_payment_due,
       a.original_contract_sum + a.net_change_orders - (a.total_completed_stored - a.retainage),
       a.submitted_date, a.certified_date,
       CAST(a.submitted_date AS TIMESTAMP) + INTERVAL 9 HOUR,
       CAST(coalesce(a.certified_date, a.submitted_date) AS TIMESTAMP) + INTERVAL 9 HOUR
FROM book.owner_pay_apps a
JOIN book.prime_contracts pc USING (job_number);

INSERT INTO gcpay.pay_application_items
SELECT 'PA-' || l.job_number || '-' || lpad(CAST(l.app_number AS VARCHAR), 3, '0'),
       l.line_no, s.item_number, s.description,
       l.scheduled_value, l.from_previous, l.this_period, l.materials_stored, l.total_completed_stored,
       CASE WHEN l.scheduled_value = 0 THEN CAST(0 AS DECIMAL(9,2))
            ELSE CAST(CAST((CAST(l.total_completed_stored * 100 AS HUGEINT) * 20000 + CAST(l.scheduled_value * 100 AS HUGEINT))
                           // (2 * CAST(l.scheduled_value * 100 AS HUGEINT)) AS DECIMAL(18,0))
                      * CAST(0.01 AS DECIMAL(3,2)) AS DECIMAL(9,2)) END,
       l.scheduled_value - l.total_completed_stored,
       l.retainage
FROM book.owner_pay_app_lines l
JOIN book.owner_pay_apps a USING (job_number, app_number)
JOIN book.prime_sov_lines s ON s.job_number = l.job_number AND s.line_no = l.line_no;

INSERT INTO gcpay.lien_waivers
SELECT w.waiver_id, 'GCP-PC-' || w.job_number,
       (SELECT 'PA-' || a.job_number || '-' || lpad(CAST(a.app_number AS VARCHAR), 3, '0')
        FROM book.owner_pay_apps a
        WHERE a.job_number = w.job_number AND w.through_date BETWEEN a.period_start AND a.period_end
        ORDER BY a.app_number LIMIT 1),
       coalesce(vi.spelled_name, v.legal_name),
       CASE w.waiver_type WHEN 'conditional_progress' THEN 'Conditional Progress'
                          WHEN 'unconditional_progress' THEN 'Unconditional Progress'
                          WHEN 'conditional_final' THEN 'Conditional Final'
                          WHEN 'unconditional_final' THEN 'Unconditional Final' ELSE w.waiver_type END,
       w.amount, w.through_date,
       CASE w.status WHEN 'requested' THEN 'Requested' WHEN 'received' THEN 'Received'
                     WHEN 'approved' THEN 'Approved' WHEN 'rejected' THEN 'Rejected' ELSE w.status END,
       w.signer, w.signed_date
FROM book.lien_waivers w
JOIN book.prime_contracts pc ON pc.job_number = w.job_number
JOIN book.vendors v ON v.vendor_key = w.vendor_key
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = w.vendor_key AND vi.system = 'gcpay';
