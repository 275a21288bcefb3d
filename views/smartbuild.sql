-- smartbuild: projection of the book into SmarteBuild.
--
-- Ids: jobs book.system_job_id('smartbuild', job) ('SB-1042'); suppliers from
-- book.vendor_identities (system 'smartbuild'); estimates keep the book's estimate id;
-- subcontracts get sequential integers ordered by the commitment id; claims are
-- '<job_id>-PC<nn>'. The BOQ is the book's estimate items (no re-estimates until the estimator
-- records one); the claim schedule is the prime contract SOV with the PM's progress as of the
-- clock (work percent complete and materials on site); progress claims are the owner pay
-- applications already certified (value to date = work completed + materials stored).
-- Divergences honoured:
--   vendor_spelling              supplier names from book.vendor_identities
--   pm_forecast_vs_erp_estimate  cost centre forecast_to_complete is the current forecast (book
--                                pm_forecast_to_complete); the ERP holds its stale estimate

INSERT INTO smartbuild.jobs
WITH sov AS (SELECT job_number, sum(scheduled_value) AS amt FROM book.prime_sov_lines GROUP BY job_number)
SELECT book.system_job_id('smartbuild', j.job_number), j.job_number, j.name, o.name,
       j.address || ', ' || j.city || ', ' || j.state,
       CASE j.status WHEN 'active' THEN 'Construction' ELSE 'Completed' END,
       CAST(coalesce(pc.original_amount, 0) AS DECIMAL(18,2)),
       CAST(coalesce(sov.amt, pc.original_amount, 0) AS DECIMAL(18,2)),
       coalesce(pc.retainage_pct, 0), pc.retainage_step_down_pct, pc.step_down_at_pct,
       j.start_date, j.est_completion_date
FROM book.jobs j
JOIN book.owners o ON o.owner_id = j.owner_id
LEFT JOIN book.prime_contracts pc ON pc.job_number = j.job_number
LEFT JOIN sov ON sov.job_number = j.job_number
ORDER BY j.job_number;

INSERT INTO smartbuild.suppliers
SELECT coalesce(vi.system_vendor_id, 'SUP-' || v.vendor_key),
       coalesce(vi.spelled_name, v.legal_name),
       CASE v.vendor_type WHEN 'subcontractor' THEN 'Subcontractor' WHEN 'supplier' THEN 'Supplier' ELSE 'Consultant' END,
       v.trade, v.email, v.phone
FROM book.vendors v
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = v.vendor_key AND vi.system = 'smartbuild'
ORDER BY v.vendor_key;

INSERT INTO smartbuild.subcontracts
SELECT 600000 + row_number() OVER (ORDER BY c.commitment_id),
       book.system_job_id('smartbuild', c.job_number), c.commitment_id, c.number,
       coalesce(vi.system_vendor_id, 'SUP-' || c.vendor_key),
       CASE c.commitment_type WHEN 'purchase_order' THEN 'Purchase Order' ELSE 'Subcontract' END,
       c.title,
       CASE c.status WHEN 'draft' THEN 'Draft' WHEN 'closed' THEN 'Completed' ELSE 'Committed' END,
       c.original_amount, c.approved_co_amount, c.amount, c.retainage_pct
FROM book.commitments c
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = c.vendor_key AND vi.system = 'smartbuild'
ORDER BY c.commitment_id;

INSERT INTO smartbuild.subcontract_items
SELECT s.subcontract_id, l.line_no, l.cost_code, l.description, l.amount
FROM book.commitment_lines l
JOIN smartbuild.subcontracts s ON s.sc_number = l.commitment_id
ORDER BY l.commitment_id, l.line_no;

INSERT INTO smartbuild.estimates
SELECT e.estimate_id, book.system_job_id('smartbuild', e.job_number), e.name, e.bid_date,
       CASE e.status WHEN 'awarded' THEN 'Accepted' WHEN 'lost' THEN 'Lost' ELSE 'Open' END,
       e.total_cost, e.markup_pct, e.bid_total
FROM book.estimates e
ORDER BY e.estimate_id;

INSERT INTO smartbuild.boq_items
SELECT i.estimate_id, i.item_no, i.cost_code, i.description, i.quantity, i.unit, i.unit_cost, i.total_cost,
       NULL, NULL, NULL, 'None', NULL, NULL
FROM book.estimate_items i
ORDER BY i.estimate_id, i.item_no;

INSERT INTO smartbuild.cost_centres
WITH committed AS (
    SELECT c.job_number, l.cost_code, sum(l.amount) AS amt
    FROM book.commitment_lines l JOIN book.commitments c USING (commitment_id)
    WHERE c.status <> 'draft'
    GROUP BY ALL
), actual AS (
    SELECT i.job_number, l.cost_code, sum(l.amount) AS amt
    FROM book.ap_invoice_lines l JOIN book.ap_invoices i USING (invoice_id)
    WHERE i.erp_status = 'posted'
    GROUP BY ALL
)
SELECT book.system_job_id('smartbuild', b.job_number), b.cost_code, cc.description,
       b.original_budget, b.approved_changes, b.revised_budget,
       CAST(coalesce(committed.amt, 0) AS DECIMAL(18,2)),
       CAST(coalesce(actual.amt, 0) AS DECIMAL(18,2)),
       b.pm_forecast_to_complete,
       CAST(coalesce(actual.amt, 0) + b.pm_forecast_to_complete AS DECIMAL(18,2)),
       b.include_in_erp
FROM book.budget_lines b
JOIN book.cost_codes cc ON cc.cost_code = b.cost_code
LEFT JOIN committed ON committed.job_number = b.job_number AND committed.cost_code = b.cost_code
LEFT JOIN actual ON actual.job_number = b.job_number AND actual.cost_code = b.cost_code
ORDER BY b.job_number, b.cost_code;

INSERT INTO smartbuild.claim_schedule
WITH cur AS (
    SELECT sp.* FROM book.sov_progress sp
    WHERE sp.as_of <= (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock')
    QUALIFY row_number() OVER (PARTITION BY sp.job_number, sp.line_no ORDER BY sp.as_of DESC) = 1
)
SELECT book.system_job_id('smartbuild', l.job_number), l.line_no, l.item_number, l.description, l.cost_code,
       l.scheduled_value,
       CASE l.source WHEN 'change_order' THEN 'Variation' ELSE 'Contract' END,
       CASE WHEN co.co_id IS NOT NULL THEN 'V' || lpad(CAST(co.number AS VARCHAR), 3, '0') END,
       coalesce(cur.pct_complete, 0), coalesce(cur.materials_stored, 0), cur.as_of
FROM book.prime_sov_lines l
LEFT JOIN cur ON cur.job_number = l.job_number AND cur.line_no = l.line_no
LEFT JOIN book.change_orders co ON co.co_id = l.co_id
ORDER BY l.job_number, l.line_no;

INSERT INTO smartbuild.progress_claims
SELECT book.system_job_id('smartbuild', a.job_number) || '-PC' || lpad(CAST(a.app_number AS VARCHAR), 2, '0'),
       book.system_job_id('smartbuild', a.job_number), a.app_number, a.period_end, a.submitted_date,
       CASE a.status WHEN 'paid' THEN 'Paid' ELSE 'Certified' END,
       CAST(a.original_contract_sum + a.net_change_orders AS DECIMAL(18,2)),
       a.total_completed_stored, a.retainage, a.previous_certificates,
       CAST(a.total_completed_stored - coalesce(lag(a.total_completed_stored)
            OVER (PARTITION BY a.job_number ORDER BY a.app_number), 0) AS DECIMAL(18,2)),
       a.current_payment_due, a.current_payment_due,
       CAST(a.submitted_date AS TIMESTAMP) + INTERVAL 9 HOUR
FROM book.owner_pay_apps a
ORDER BY a.job_number, a.app_number;

INSERT INTO smartbuild.progress_claim_lines
SELECT book.system_job_id('smartbuild', pl.job_number) || '-PC' || lpad(CAST(pl.app_number AS VARCHAR), 2, '0'),
       pl.line_no, coalesce(s.description, 'Line ' || CAST(pl.line_no AS VARCHAR)), pl.scheduled_value,
       CAST(CASE WHEN pl.scheduled_value = 0 THEN 0
                 ELSE round((pl.total_completed_stored - pl.materials_stored) * 100 / pl.scheduled_value, 4) END
            AS DECIMAL(9,4)),
       pl.materials_stored,
       pl.total_completed_stored,
       CAST(coalesce(lag(pl.total_completed_stored) OVER (PARTITION BY pl.job_number, pl.line_no
                                                          ORDER BY pl.app_number), 0) AS DECIMAL(18,2)),
       CAST(pl.total_completed_stored - coalesce(lag(pl.total_completed_stored)
            OVER (PARTITION BY pl.job_number, pl.line_no ORDER BY pl.app_number), 0) AS DECIMAL(18,2))
FROM book.owner_pay_app_lines pl
LEFT JOIN book.prime_sov_lines s ON s.job_number = pl.job_number AND s.line_no = pl.line_no
ORDER BY pl.job_number, pl.app_number, pl.line_no;

INSERT INTO smartbuild.variations
SELECT co.co_id, book.system_job_id('smartbuild', co.job_number),
       CASE co.co_type WHEN 'owner' THEN 'V' WHEN 'internal' THEN 'INT-' ELSE 'SCV-' END
           || lpad(CAST(co.number AS VARCHAR), 3, '0'),
       CASE co.co_type WHEN 'owner' THEN 'Client' WHEN 'internal' THEN 'Internal' ELSE 'Subcontract' END,
       co.description, co.amount,
       CASE co.status WHEN 'approved' THEN 'Approved' WHEN 'pending' THEN 'Pending' ELSE 'Rejected' END,
       co.approved_date
FROM book.change_orders co
ORDER BY co.co_id;
