-- A_ingenious_funding: fund a vendor invoice in INGENIOUS.BUILD from the project's funding sources
-- in the project's draw order (equity first, then grants, then loans; a source with nothing left
-- is skipped and an invoice spills over to the next source), then route it for approval.

-- name: candidates
-- Per project that has funding sources: its submitted, unallocated invoices (earliest first).
SELECT i.invoice_id, i.custom_id, i.invoice_date, i.net_amount, i.gross_amount, i.status, i.funding_status,
       i.project_id, p.project_code AS job_number, p.name AS project_name, c.name AS company_name,
       ct.contract_number,
       row_number() OVER (PARTITION BY i.project_id ORDER BY i.invoice_date, i.invoice_id) AS seq
FROM ingenious_build.invoices i
JOIN ingenious_build.projects p ON p.project_id = i.project_id
JOIN ingenious_build.companies c ON c.company_id = i.company_id
LEFT JOIN ingenious_build.contracts ct ON ct.contract_id = i.contract_id
WHERE i.status = 'Submitted' AND i.funding_status = 'Unallocated'
  AND EXISTS (SELECT 1 FROM ingenious_build.funding_sources f WHERE f.project_id = i.project_id)
ORDER BY p.project_code, seq;

-- name: sources
-- A project's funding sources in draw order, with what is left to allocate (less other invoices'
-- draft allocations, as INGENIOUS.BUILD computes it).
SELECT f.funding_source_id, f.name, f.source_type, f.draw_priority, f.allocation_to_project, f.drawn_to_date,
       f.allocation_to_project - f.drawn_to_date
         - coalesce((SELECT sum(d.amount) FROM ingenious_build.invoice_funding d
                     WHERE d.project_id = f.project_id AND d.funding_source_id = f.funding_source_id
                       AND d.status = 'Draft'), 0) AS available
FROM ingenious_build.funding_sources f
WHERE f.project_id = $project_id
ORDER BY f.draw_priority, f.funding_source_id;

-- name: open_invoices
-- Every invoice whose funding can still change (Draft, Submitted or Rejected, unallocated) on a project
-- with funding sources: where the family looks for the lookalike invoice a careless agent funds.
SELECT i.invoice_id, i.custom_id, i.net_amount, i.status, i.project_id, p.project_code AS job_number,
       i.company_id, c.name AS company_name
FROM ingenious_build.invoices i
JOIN ingenious_build.projects p ON p.project_id = i.project_id
JOIN ingenious_build.companies c ON c.company_id = i.company_id
WHERE i.status IN ('Draft', 'Submitted', 'Rejected') AND i.funding_status = 'Unallocated'
  AND EXISTS (SELECT 1 FROM ingenious_build.funding_sources f WHERE f.project_id = i.project_id)
ORDER BY p.project_code, i.invoice_date, i.invoice_id;

-- name: budget_line
-- One budget line of a project (the careless mutant re-forecasts it, an unrequested change).
SELECT cost_code, forecast_to_complete
FROM ingenious_build.budget_lines WHERE project_id = $project_id
ORDER BY cost_code LIMIT 1;

-- name: open_candidates
-- Every open (submitted or draft), unallocated invoice on a project with funding sources: both can
-- be allocated and routed for approval (held-out keys beyond each project's earliest submitted one).
SELECT i.invoice_id, i.custom_id, i.invoice_date, i.net_amount, i.gross_amount, i.status, i.funding_status,
       i.project_id, p.project_code AS job_number, p.name AS project_name, c.name AS company_name,
       ct.contract_number,
       row_number() OVER (PARTITION BY i.project_id ORDER BY i.invoice_date, i.invoice_id) AS seq
FROM ingenious_build.invoices i
JOIN ingenious_build.projects p ON p.project_id = i.project_id
JOIN ingenious_build.companies c ON c.company_id = i.company_id
LEFT JOIN ingenious_build.contracts ct ON ct.contract_id = i.contract_id
WHERE i.status IN ('Submitted', 'Draft') AND i.funding_status = 'Unallocated'
  AND EXISTS (SELECT 1 FROM ingenious_build.funding_sources f WHERE f.project_id = i.project_id)
ORDER BY p.project_code, seq;
