-- ingenious_build: projection of the book into INGENIOUS.BUILD (owner/developer side).
--
-- Ids: projects book.system_job_id('ingenious_build', job) ('IB1042'); companies from
-- book.vendor_identities (system 'ingenious_build'); contracts and invoices get sequential
-- integers ordered by the book's natural key.
-- Invoices are the book's entered vendor invoices (held by the PM side, or entered in the ERP);
-- approved and paid ones are fully funded ('Allocated'; their draws are in drawn_to_date).
-- Funding draw order (the project's funding policy): equity first, then grants, then loans
-- (draw_priority 1, 2, 3; ties by source id): each invoice's net amount is funded from the
-- first source with available balance (allocation_to_project - drawn_to_date - other draft
-- allocations), spilling over to the next.
-- Divergences honoured:
--   vendor_spelling              company names from book.vendor_identities
--   pm_forecast_vs_erp_estimate  forecast_to_complete is the current forecast (book
--                                pm_forecast_to_complete); the ERP still holds its stale estimate

INSERT INTO ingenious_build.projects
WITH sov AS (SELECT job_number, sum(scheduled_value) AS amt FROM book.prime_sov_lines GROUP BY job_number)
SELECT book.system_job_id('ingenious_build', j.job_number), j.job_number, j.name, o.name,
       CASE j.status WHEN 'active' THEN 'Active' ELSE 'Closed' END,
       CASE j.job_type WHEN 'commercial' THEN 'Commercial' WHEN 'public' THEN 'Public'
                       WHEN 'residential' THEN 'Residential' WHEN 'industrial' THEN 'Industrial' ELSE j.job_type END,
       j.address, j.city, j.state, 'USD', j.start_date, j.est_completion_date,
       CAST(coalesce(sov.amt, pc.original_amount, 0) AS DECIMAL(18,2))
FROM book.jobs j
JOIN book.owners o ON o.owner_id = j.owner_id
LEFT JOIN book.prime_contracts pc ON pc.job_number = j.job_number
LEFT JOIN sov ON sov.job_number = j.job_number
ORDER BY j.job_number;

INSERT INTO ingenious_build.companies
SELECT coalesce(vi.system_vendor_id, 'IBC-' || v.vendor_key),
       coalesce(vi.spelled_name, v.legal_name),
       CASE v.vendor_type WHEN 'subcontractor' THEN 'Subcontractor' WHEN 'supplier' THEN 'Supplier'
                          WHEN 'professional' THEN 'Consultant' ELSE 'Service' END,
       v.trade, v.email, false
FROM book.vendors v
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = v.vendor_key AND vi.system = 'ingenious_build'
ORDER BY v.vendor_key;

INSERT INTO ingenious_build.contracts
SELECT 900000 + row_number() OVER (ORDER BY c.commitment_id),
       book.system_job_id('ingenious_build', c.job_number), c.commitment_id,
       coalesce(vi.system_vendor_id, 'IBC-' || c.vendor_key),
       c.title,
       CASE c.commitment_type WHEN 'purchase_order' THEN 'Purchase Order' ELSE 'Subcontract' END,
       CASE c.status WHEN 'draft' THEN 'Draft' WHEN 'closed' THEN 'Closed' ELSE 'Executed' END,
       c.original_amount, c.approved_co_amount, c.amount, c.retainage_pct, c.executed_date
FROM book.commitments c
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = c.vendor_key AND vi.system = 'ingenious_build'
ORDER BY c.commitment_id;

INSERT INTO ingenious_build.contract_sov
SELECT ct.contract_id, l.line_no, l.cost_code, l.description, l.amount, l.pct_complete
FROM book.commitment_lines l
JOIN ingenious_build.contracts ct ON ct.contract_number = l.commitment_id
ORDER BY l.commitment_id, l.line_no;

INSERT INTO ingenious_build.invoices
WITH ids AS (
    SELECT invoice_id, 950000 + row_number() OVER (ORDER BY invoice_id) AS id
    FROM book.ap_invoices
    WHERE pm_status IS NOT NULL OR erp_status <> 'not_entered'
), s AS (
    SELECT i.*, ids.id,
           CASE WHEN i.paid_amount > 0 AND i.paid_amount >= i.net_amount THEN 'Paid'
                WHEN i.pm_status = 'approved' THEN 'Approved'
                WHEN i.pm_status = 'under_review' THEN 'Submitted'
                WHEN i.pm_status = 'draft' THEN 'Draft'
                WHEN i.pm_status = 'rejected' THEN 'Rejected'
                ELSE 'Approved' END AS ib_status
    FROM ids JOIN book.ap_invoices i ON i.invoice_id = ids.invoice_id
)
SELECT s.id, book.system_job_id('ingenious_build', s.job_number), ct.contract_id,
       coalesce(vi.system_vendor_id, 'IBC-' || s.vendor_key),
       CASE WHEN s.commitment_id IS NULL THEN 'Non-Contracted' ELSE 'Contracted' END,
       s.invoice_number, s.invoice_date, s.period_start, s.period_end, s.due_date, s.description,
       s.gross_amount, s.retainage_amount, s.net_amount, s.ib_status,
       CASE WHEN s.ib_status IN ('Approved', 'Paid') THEN 'Allocated' ELSE 'Unallocated' END,
       CASE WHEN s.ib_status IN ('Approved', 'Paid') THEN CAST(s.invoice_date AS TIMESTAMP) + INTERVAL 5 DAY + INTERVAL 10 HOUR END
FROM s
LEFT JOIN ingenious_build.contracts ct ON ct.contract_number = s.commitment_id
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = s.vendor_key AND vi.system = 'ingenious_build'
ORDER BY s.id;

INSERT INTO ingenious_build.invoice_lines
WITH ids AS (
    SELECT invoice_id, 950000 + row_number() OVER (ORDER BY invoice_id) AS id
    FROM book.ap_invoices
    WHERE pm_status IS NOT NULL OR erp_status <> 'not_entered'
)
SELECT ids.id, l.line_no, l.cost_code, l.description, l.amount, l.retainage
FROM book.ap_invoice_lines l
JOIN ids ON ids.invoice_id = l.invoice_id
ORDER BY ids.id, l.line_no;

INSERT INTO ingenious_build.budget_lines
WITH committed AS (
    SELECT c.job_number, l.cost_code, sum(l.amount) AS amt
    FROM book.commitment_lines l JOIN book.commitments c USING (commitment_id)
    WHERE c.status <> 'draft'
    GROUP BY ALL
), actuals AS (
    SELECT p.project_code AS job_number, l.cost_code, sum(l.amount) AS amt
    FROM ingenious_build.invoice_lines l
    JOIN ingenious_build.invoices i ON i.invoice_id = l.invoice_id
    JOIN ingenious_build.projects p ON p.project_id = i.project_id
    WHERE i.status IN ('Approved', 'Paid')
    GROUP BY ALL
)
SELECT book.system_job_id('ingenious_build', b.job_number), b.cost_code, cc.division, cc.description,
       b.original_budget, b.approved_changes, b.revised_budget,
       CAST(coalesce(committed.amt, 0) AS DECIMAL(18,2)),
       CAST(coalesce(actuals.amt, 0) AS DECIMAL(18,2)),
       CAST(b.revised_budget - coalesce(committed.amt, 0) AS DECIMAL(18,2)),
       b.pm_forecast_to_complete,
       CAST(coalesce(actuals.amt, 0) + b.pm_forecast_to_complete AS DECIMAL(18,2)),
       'Approved',
       (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock') - INTERVAL 2 DAY + INTERVAL 9 HOUR,
       b.include_in_erp
FROM book.budget_lines b
JOIN book.cost_codes cc ON cc.cost_code = b.cost_code
LEFT JOIN committed ON committed.job_number = b.job_number AND committed.cost_code = b.cost_code
LEFT JOIN actuals ON actuals.job_number = b.job_number AND actuals.cost_code = b.cost_code
ORDER BY b.job_number, b.cost_code;

INSERT INTO ingenious_build.funding_sources
SELECT book.system_job_id('ingenious_build', f.job_number), f.source_id, f.name,
       CASE f.source_type WHEN 'loan' THEN 'Loan' WHEN 'equity' THEN 'Equity' WHEN 'grant' THEN 'Grant' ELSE f.source_type END,
       'Project Specific', f.amount, f.drawn_to_date,
       CAST(row_number() OVER (PARTITION BY f.job_number
                               ORDER BY CASE f.source_type WHEN 'equity' THEN 1 WHEN 'grant' THEN 2 ELSE 3 END,
                                        f.source_id) AS INTEGER)
FROM book.funding_sources f
ORDER BY f.job_number, f.source_id;
