-- procore: projection of the book into Procore.
--
-- Ids: projects use book.system_job_id('procore', job) (the same id hh2.job_map shows);
-- vendors use book.vendor_identities (system 'procore'); every other object gets a sequential
-- integer id in its own range, ordered by the book's natural key (deterministic for a book).
-- What Procore holds: every job, the whole vendor directory, prime contracts and SOVs with the
-- PM's progress, change events and change orders, commitments with SOVs, requisitions (book
-- invoices against a commitment with a PM status), direct costs (entered non-committed
-- invoices), the budget with the PM's forecast, manpower from field time, and its copy of the
-- ERP cost code map.
-- Divergences honoured:
--   vendor_spelling       names come from book.vendor_identities (system 'procore')
--   coi_status_stale      insurance_status stays 'compliant' for the vendor although the
--                         current certificate has expired (expiration date not on file)
--   pending_change_event  the event is logged but not classified yet: scope 'tbd',
--                         event_type / change_reason 'TBD'
--   unsynced_invoice / unsynced_commitment   erp_sync_status = 'not_synced' (book erp_synced)
--   pm_forecast_vs_erp_estimate   forecast_to_complete is the PM's (book pm_forecast_to_complete)

-- ---------------------------------------------------------------------------------------------
INSERT INTO procore.projects
SELECT CAST(book.system_job_id('procore', j.job_number) AS BIGINT),
       j.job_number, j.name, j.job_number || ' - ' || j.name,
       CASE j.status WHEN 'active' THEN 'Course of Construction' ELSE 'Closeout' END,
       j.status = 'active',
       CASE j.job_type WHEN 'commercial' THEN 'Commercial' WHEN 'public' THEN 'Public Works'
                       WHEN 'residential' THEN 'Residential' WHEN 'industrial' THEN 'Industrial'
                       ELSE j.job_type END,
       j.is_prevailing_wage, j.address, j.city, j.state, j.county,
       j.start_date, j.est_completion_date, j.project_manager, j.pm_email, j.superintendent,
       o.name,
       book.system_job_id('vista_erp', j.job_number),
       true
FROM book.jobs j
JOIN book.owners o ON o.owner_id = j.owner_id
ORDER BY j.job_number;

-- ---------------------------------------------------------------------------------------------
INSERT INTO procore.cost_codes
WITH used AS (
    SELECT job_number, cost_code FROM book.budget_lines
    UNION SELECT job_number, cost_code FROM book.prime_sov_lines
    UNION SELECT c.job_number, l.cost_code FROM book.commitment_lines l JOIN book.commitments c USING (commitment_id)
    UNION SELECT i.job_number, l.cost_code FROM book.ap_invoice_lines l JOIN book.ap_invoices i USING (invoice_id)
    UNION SELECT job_number, cost_code FROM book.timecards
)
SELECT 5000000 + row_number() OVER (ORDER BY u.job_number, u.cost_code),
       p.id, cc.division,
       CASE WHEN strpos(cc.cost_code, '-') > 0 THEN substr(cc.cost_code, strpos(cc.cost_code, '-') + 1) ELSE cc.cost_code END,
       cc.cost_code, cc.description, cc.cost_type, replace(cc.cost_code, '-', '.')
FROM used u
JOIN book.cost_codes cc ON cc.cost_code = u.cost_code
JOIN procore.projects p ON p.project_number = u.job_number
ORDER BY u.job_number, u.cost_code;

-- ---------------------------------------------------------------------------------------------
INSERT INTO procore.vendors
WITH coi AS (
    SELECT vendor_key, min(expiry_date) AS expiry
    FROM book.certificates_of_insurance
    WHERE is_current
    GROUP BY vendor_key
)
SELECT coalesce(TRY_CAST(vi.system_vendor_id AS BIGINT),
                9000000 + CAST('0x' || substr(md5('procore-vendor:' || v.vendor_key), 1, 6) AS BIGINT)),
       coalesce(vi.spelled_name, v.legal_name),
       v.dba_name,
       v.trade,
       CASE v.vendor_type WHEN 'subcontractor' THEN 'Subcontractor' WHEN 'supplier' THEN 'Supplier'
                          WHEN 'professional' THEN 'Professional' ELSE 'Service' END,
       v.status = 'active',
       v.phone, v.email, v.address, v.city, v.state, v.zip,
       erp.system_vendor_id,
       CASE WHEN stale.divergence_id IS NOT NULL THEN 'compliant'
            WHEN coi.expiry IS NULL THEN 'missing'
            WHEN coi.expiry < (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock') THEN 'expired'
            ELSE 'compliant' END,
       CASE WHEN stale.divergence_id IS NOT NULL THEN NULL ELSE coi.expiry END
FROM book.vendors v
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = v.vendor_key AND vi.system = 'procore'
LEFT JOIN book.vendor_identities erp ON erp.vendor_key = v.vendor_key AND erp.system = 'vista_erp'
LEFT JOIN coi ON coi.vendor_key = v.vendor_key
LEFT JOIN (SELECT DISTINCT entity_key AS divergence_id FROM book.divergences
           WHERE kind = 'coi_status_stale' AND entity = 'vendor') stale
       ON stale.divergence_id = v.vendor_key
ORDER BY v.vendor_key;

-- ---------------------------------------------------------------------------------------------
INSERT INTO procore.prime_contracts
WITH sov AS (
    SELECT job_number, sum(scheduled_value) AS revised FROM book.prime_sov_lines GROUP BY job_number
), pending AS (
    SELECT job_number, sum(amount) AS amt FROM book.change_orders
    WHERE co_type = 'owner' AND status = 'pending' AND increases_contract GROUP BY job_number
)
SELECT 3000000 + row_number() OVER (ORDER BY pc.job_number),
       p.id, pc.contract_number, 'Prime Contract - ' || j.name, o.name,
       CASE pc.status WHEN 'closed' THEN 'Complete' ELSE 'Approved' END,
       true, pc.executed_date,
       pc.original_amount,
       CAST(coalesce(sov.revised, pc.original_amount) - pc.original_amount AS DECIMAL(18,2)),
       CAST(coalesce(pending.amt, 0) AS DECIMAL(18,2)),
       CAST(coalesce(sov.revised, pc.original_amount) AS DECIMAL(18,2)),
       pc.retainage_pct, pc.retainage_step_down_pct, pc.step_down_at_pct
FROM book.prime_contracts pc
JOIN book.jobs j ON j.job_number = pc.job_number
JOIN book.owners o ON o.owner_id = pc.owner_id
JOIN procore.projects p ON p.project_number = pc.job_number
LEFT JOIN sov ON sov.job_number = pc.job_number
LEFT JOIN pending ON pending.job_number = pc.job_number
ORDER BY pc.job_number;

-- ---------------------------------------------------------------------------------------------
INSERT INTO procore.prime_contract_line_items
WITH clock AS (SELECT CAST(value AS DATE) AS d FROM cfab_internal.meta WHERE key = 'clock'),
cur AS (
    SELECT sp.* FROM book.sov_progress sp, clock
    WHERE sp.as_of <= clock.d
    QUALIFY row_number() OVER (PARTITION BY sp.job_number, sp.line_no ORDER BY sp.as_of DESC) = 1
), prev AS (
    SELECT sp.* FROM book.sov_progress sp
    JOIN cur ON cur.job_number = sp.job_number AND cur.line_no = sp.line_no AND sp.as_of < cur.as_of
    QUALIFY row_number() OVER (PARTITION BY sp.job_number, sp.line_no ORDER BY sp.as_of DESC) = 1
)
SELECT pcx.id * 1000 + l.line_no, pcx.id, l.line_no, l.item_number, l.description, l.cost_code,
       l.scheduled_value, l.source,
       co.number::VARCHAR,
       coalesce(prev.pct_complete, 0), coalesce(prev.work_completed, 0),
       coalesce(cur.pct_complete, 0), coalesce(cur.work_completed, 0),
       coalesce(cur.materials_stored, 0), cur.as_of
FROM book.prime_sov_lines l
JOIN procore.projects p ON p.project_number = l.job_number
JOIN procore.prime_contracts pcx ON pcx.project_id = p.id
LEFT JOIN cur ON cur.job_number = l.job_number AND cur.line_no = l.line_no
LEFT JOIN prev ON prev.job_number = l.job_number AND prev.line_no = l.line_no
LEFT JOIN book.change_orders co ON co.co_id = l.co_id
ORDER BY l.job_number, l.line_no;

-- ---------------------------------------------------------------------------------------------
INSERT INTO procore.change_events
SELECT 4000000 + row_number() OVER (ORDER BY ce.change_event_id),
       p.id, lpad(CAST(ce.number AS VARCHAR), 3, '0'), ce.title, ce.description,
       CASE WHEN pend.divergence_id IS NOT NULL THEN 'TBD'
            ELSE CASE ce.reason WHEN 'owner_request' THEN 'Owner Request' WHEN 'design_change' THEN 'Design Change'
                                WHEN 'unforeseen_condition' THEN 'Unforeseen Condition'
                                WHEN 'internal_transfer' THEN 'Internal Transfer' WHEN 'allowance' THEN 'Allowance'
                                ELSE ce.reason END END,
       CASE WHEN pend.divergence_id IS NOT NULL THEN 'tbd' ELSE ce.scope END,
       CASE WHEN pend.divergence_id IS NOT NULL THEN 'TBD'
            WHEN ce.reason = 'internal_transfer' THEN 'Transfer'
            WHEN ce.reason = 'allowance' THEN 'Allowance'
            ELSE 'Owner Change' END,
       ce.status, ce.amount, d.filename, ce.change_event_id
FROM book.change_events ce
JOIN procore.projects p ON p.project_number = ce.job_number
LEFT JOIN book.documents d ON d.document_id = ce.document_id
LEFT JOIN (SELECT DISTINCT entity_key AS divergence_id FROM book.divergences
           WHERE kind = 'pending_change_event' AND entity = 'change_event') pend
       ON pend.divergence_id = ce.job_number || '|' || CAST(ce.number AS VARCHAR)
ORDER BY ce.change_event_id;

-- ---------------------------------------------------------------------------------------------
INSERT INTO procore.commitments
SELECT 2000000 + row_number() OVER (ORDER BY c.commitment_id),
       p.id,
       CASE c.commitment_type WHEN 'purchase_order' THEN 'PurchaseOrderContract' ELSE 'WorkOrderContract' END,
       c.number, c.commitment_id, c.title,
       coalesce(TRY_CAST(vi.system_vendor_id AS BIGINT),
                9000000 + CAST('0x' || substr(md5('procore-vendor:' || c.vendor_key), 1, 6) AS BIGINT)),
       CASE c.status WHEN 'approved' THEN 'Approved' WHEN 'draft' THEN 'Draft' WHEN 'closed' THEN 'Complete' ELSE c.status END,
       c.status <> 'draft', c.executed_date,
       c.original_amount, c.approved_co_amount, c.amount, c.retainage_pct,
       CASE WHEN c.erp_synced THEN 'synced' ELSE 'not_synced' END,
       CASE WHEN c.erp_synced THEN c.commitment_id END,
       CASE WHEN c.erp_synced THEN CAST(c.executed_date AS TIMESTAMP) + INTERVAL 1 DAY + INTERVAL 2 HOUR END,
       c.erp_synced
FROM book.commitments c
JOIN procore.projects p ON p.project_number = c.job_number
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = c.vendor_key AND vi.system = 'procore'
ORDER BY c.commitment_id;

INSERT INTO procore.commitment_line_items
SELECT pc.id * 1000 + l.line_no, pc.id, l.line_no, l.cost_code, l.description, l.amount,
       l.pct_complete, l.work_completed, pc.locked
FROM book.commitment_lines l
JOIN procore.commitments pc ON pc.contract_code = l.commitment_id
ORDER BY l.commitment_id, l.line_no;

-- ---------------------------------------------------------------------------------------------
INSERT INTO procore.change_orders
SELECT 4500000 + row_number() OVER (ORDER BY co.co_id),
       p.id,
       CASE co.co_type WHEN 'owner' THEN 'PrimeContract' WHEN 'internal' THEN 'BudgetChange'
            ELSE CASE WHEN c.commitment_type = 'purchase_order' THEN 'PurchaseOrderContract' ELSE 'WorkOrderContract' END END,
       CASE co.co_type WHEN 'owner' THEN pcx.id WHEN 'commitment' THEN pc.id END,
       lpad(CAST(co.number AS VARCHAR), 3, '0'), co.description, co.status,
       ce.id, co.amount, co.increases_contract, co.approved_date, co.co_id
FROM book.change_orders co
JOIN procore.projects p ON p.project_number = co.job_number
LEFT JOIN procore.prime_contracts pcx ON pcx.project_id = p.id
LEFT JOIN book.commitments c ON c.commitment_id = co.commitment_id
LEFT JOIN procore.commitments pc ON pc.contract_code = co.commitment_id
LEFT JOIN procore.change_events ce ON ce.origin_code = co.change_event_id
ORDER BY co.co_id;

INSERT INTO procore.change_order_line_items
SELECT pco.id, l.line_no, l.cost_code, l.amount
FROM book.change_order_lines l
JOIN procore.change_orders pco ON pco.origin_code = l.co_id
ORDER BY l.co_id, l.line_no;

-- ---------------------------------------------------------------------------------------------
-- Direct costs: entered invoices that are not against a commitment.
INSERT INTO procore.direct_costs
WITH ids AS (
    SELECT invoice_id, 6000000 + row_number() OVER (ORDER BY invoice_id) AS id
    FROM book.ap_invoices
    WHERE commitment_id IS NULL AND (pm_status IS NOT NULL OR erp_status <> 'not_entered')
)
SELECT ids.id, p.id,
       coalesce(TRY_CAST(vi.system_vendor_id AS BIGINT),
                9000000 + CAST('0x' || substr(md5('procore-vendor:' || i.vendor_key), 1, 6) AS BIGINT)),
       'Invoice', i.invoice_number, i.invoice_date, i.due_date,
       CASE i.pm_status WHEN 'draft' THEN 'draft' WHEN 'under_review' THEN 'pending'
                        WHEN 'rejected' THEN 'revise_and_resubmit' ELSE 'approved' END,
       i.description, i.gross_amount,
       CASE WHEN i.erp_status <> 'not_entered' THEN 'synced' ELSE 'not_synced' END
FROM ids
JOIN book.ap_invoices i ON i.invoice_id = ids.invoice_id
JOIN procore.projects p ON p.project_number = i.job_number
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = i.vendor_key AND vi.system = 'procore'
ORDER BY ids.id;

INSERT INTO procore.direct_cost_line_items
WITH ids AS (
    SELECT invoice_id, 6000000 + row_number() OVER (ORDER BY invoice_id) AS id
    FROM book.ap_invoices
    WHERE commitment_id IS NULL AND (pm_status IS NOT NULL OR erp_status <> 'not_entered')
)
SELECT dc.id, l.line_no, l.cost_code, l.description, l.amount
FROM book.ap_invoice_lines l
JOIN ids ON ids.invoice_id = l.invoice_id
JOIN procore.direct_costs dc ON dc.id = ids.id
ORDER BY l.invoice_id, l.line_no;

-- ---------------------------------------------------------------------------------------------
INSERT INTO procore.budget_line_items
WITH committed AS (
    SELECT c.job_number, l.cost_code, sum(l.amount) AS amt
    FROM book.commitment_lines l JOIN book.commitments c USING (commitment_id)
    WHERE c.status <> 'draft'
    GROUP BY ALL
), direct AS (
    SELECT i.job_number, l.cost_code, sum(l.amount) AS amt
    FROM book.ap_invoice_lines l JOIN book.ap_invoices i USING (invoice_id)
    WHERE i.commitment_id IS NULL AND (i.pm_status IS NOT NULL OR i.erp_status <> 'not_entered')
    GROUP BY ALL
), pending_budget AS (
    SELECT co.job_number, l.cost_code, sum(l.amount) AS amt
    FROM book.change_order_lines l JOIN book.change_orders co USING (co_id)
    WHERE co.status = 'pending' AND co.co_type IN ('owner', 'internal')
    GROUP BY ALL
), pending_cost AS (
    SELECT co.job_number, l.cost_code, sum(l.amount) AS amt
    FROM book.change_order_lines l JOIN book.change_orders co USING (co_id)
    WHERE co.status = 'pending' AND co.co_type = 'commitment'
    GROUP BY ALL
), jtd AS (
    SELECT i.job_number, l.cost_code, sum(l.amount) AS amt
    FROM book.ap_invoice_lines l JOIN book.ap_invoices i USING (invoice_id)
    WHERE i.erp_status = 'posted'
    GROUP BY ALL
), b AS (
    SELECT bl.job_number, bl.cost_code, bl.original_budget, bl.approved_changes, bl.revised_budget,
           bl.pm_forecast_to_complete, bl.include_in_erp, cc.cost_type, cc.description AS cc_description,
           CAST(coalesce(committed.amt, 0) AS DECIMAL(18,2)) AS committed_amt,
           CAST(coalesce(direct.amt, 0) AS DECIMAL(18,2)) AS direct_amt,
           CAST(coalesce(pending_budget.amt, 0) AS DECIMAL(18,2)) AS pending_budget_amt,
           CAST(coalesce(pending_cost.amt, 0) AS DECIMAL(18,2)) AS pending_cost_amt,
           CAST(coalesce(jtd.amt, 0) AS DECIMAL(18,2)) AS jtd_amt
    FROM book.budget_lines bl
    JOIN book.cost_codes cc ON cc.cost_code = bl.cost_code
    LEFT JOIN committed ON committed.job_number = bl.job_number AND committed.cost_code = bl.cost_code
    LEFT JOIN direct ON direct.job_number = bl.job_number AND direct.cost_code = bl.cost_code
    LEFT JOIN pending_budget ON pending_budget.job_number = bl.job_number AND pending_budget.cost_code = bl.cost_code
    LEFT JOIN pending_cost ON pending_cost.job_number = bl.job_number AND pending_cost.cost_code = bl.cost_code
    LEFT JOIN jtd ON jtd.job_number = bl.job_number AND jtd.cost_code = bl.cost_code
)
SELECT 7000000 + row_number() OVER (ORDER BY b.job_number, b.cost_code),
       p.id, b.cost_code, b.cost_type, b.cc_description,
       b.original_budget, b.approved_changes, b.revised_budget, b.pending_budget_amt,
       CAST(b.revised_budget + b.pending_budget_amt AS DECIMAL(18,2)),
       b.committed_amt, b.direct_amt, b.pending_cost_amt,
       CAST(b.committed_amt + b.direct_amt + b.pending_cost_amt AS DECIMAL(18,2)),
       b.jtd_amt, b.pm_forecast_to_complete,
       CAST(b.jtd_amt + b.pm_forecast_to_complete AS DECIMAL(18,2)),
       CAST(b.revised_budget + b.pending_budget_amt - b.jtd_amt - b.pm_forecast_to_complete AS DECIMAL(18,2)),
       b.include_in_erp
FROM b
JOIN procore.projects p ON p.project_number = b.job_number
ORDER BY b.job_number, b.cost_code;

-- ---------------------------------------------------------------------------------------------
INSERT INTO procore.manpower_logs
WITH crews AS (
    SELECT t.job_number, t.work_date, e.trade,
           count(DISTINCT t.employee_id) AS workers,
           sum(t.hours_regular + t.hours_overtime) AS hours,
           sum(t.hours_overtime) AS ot,
           string_agg(DISTINCT t.cost_code, ',' ORDER BY t.cost_code) AS codes,
           bool_and(t.approved) AS all_approved
    FROM book.timecards t
    JOIN book.employees e ON e.employee_id = t.employee_id
    GROUP BY t.job_number, t.work_date, e.trade
)
SELECT 8000000 + row_number() OVER (ORDER BY c.job_number, c.work_date, c.trade),
       p.id, c.work_date, (SELECT name FROM book.company LIMIT 1), c.trade,
       CAST(c.workers AS INTEGER), CAST(c.hours AS DECIMAL(9,2)), CAST(c.ot AS DECIMAL(9,2)),
       c.codes, CASE WHEN c.all_approved THEN 'approved' ELSE 'pending' END,
       c.trade || ' crew (self-performed)'
FROM crews c
JOIN procore.projects p ON p.project_number = c.job_number
ORDER BY c.job_number, c.work_date, c.trade;

-- ---------------------------------------------------------------------------------------------
-- Requisitions: book invoices against a commitment that the PM app holds (pm_status set).
INSERT INTO procore.requisitions
WITH ids AS (
    SELECT invoice_id,
           1000000 + row_number() OVER (ORDER BY commitment_id, requisition_number, invoice_id) AS id,
           row_number() OVER (PARTITION BY commitment_id ORDER BY invoice_date, invoice_id) AS seq
    FROM book.ap_invoices
    WHERE commitment_id IS NOT NULL AND pm_status IS NOT NULL
)
SELECT ids.id, pc.project_id, pc.id, pc.vendor_id,
       coalesce(i.requisition_number, CAST(ids.seq AS INTEGER)),
       i.invoice_number, i.invoice_date, i.due_date, i.period_start, i.period_end,
       i.pm_status, i.description, i.gross_amount, i.retainage_amount, i.net_amount,
       CASE WHEN i.erp_synced THEN 'synced' ELSE 'not_synced' END,
       CASE WHEN i.erp_synced THEN i.invoice_number END,
       CASE WHEN i.erp_synced THEN CAST(i.invoice_date AS TIMESTAMP) + INTERVAL 2 DAY + INTERVAL 2 HOUR END,
       i.erp_synced
FROM ids
JOIN book.ap_invoices i ON i.invoice_id = ids.invoice_id
JOIN procore.commitments pc ON pc.contract_code = i.commitment_id
ORDER BY ids.id;

INSERT INTO procore.requisition_line_items
WITH ids AS (
    SELECT invoice_id,
           1000000 + row_number() OVER (ORDER BY commitment_id, requisition_number, invoice_id) AS id
    FROM book.ap_invoices
    WHERE commitment_id IS NOT NULL AND pm_status IS NOT NULL
)
SELECT r.id, l.line_no,
       CASE WHEN l.commitment_line_no IS NOT NULL THEN r.commitment_id * 1000 + l.commitment_line_no END,
       l.cost_code, l.description, l.amount, l.retainage, r.locked
FROM book.ap_invoice_lines l
JOIN ids ON ids.invoice_id = l.invoice_id
JOIN procore.requisitions r ON r.id = ids.id
ORDER BY l.invoice_id, l.line_no;

-- ---------------------------------------------------------------------------------------------
INSERT INTO procore.erp_cost_code_mappings
SELECT m.cost_code, 'vista_erp', m.erp_phase, m.erp_cost_type, c.description, m.note
FROM book.erp_phase_map m
JOIN book.cost_codes c USING (cost_code)
ORDER BY m.cost_code;
