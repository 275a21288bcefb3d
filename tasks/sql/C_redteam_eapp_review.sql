-- C_redteam_eapp_review: review a subcontractor's submitted eApp in RedTeam Go against its
-- commitment cap (revised amount − approved billing to date) and against each schedule-of-values
-- line (scheduled value − approved billing on the line): approve it when it fits both, hold it
-- with the reason when it does not. Paying is a separate, guarded step.

-- name: submitted_eapps
-- Every submitted eApp with the cap check and the line check, computed the way RedTeam does it
-- (approved eApps only count against the cap), plus whether the book planted it as over the cap.
WITH approved AS (
    SELECT commitment_id, sum(amount_this_period) AS billed
    FROM redteam.eapps WHERE status = 'Approved'
    GROUP BY commitment_id
), line_billed AS (
    SELECT e.commitment_id, l.sov_line_no, sum(l.this_period) AS billed
    FROM redteam.eapp_lines l JOIN redteam.eapps e USING (eapp_id)
    WHERE e.status = 'Approved' AND l.sov_line_no IS NOT NULL
    GROUP BY e.commitment_id, l.sov_line_no
), lines AS (
    SELECT l.eapp_id, l.line_no, l.sov_line_no, l.cost_code, l.this_period,
           s.scheduled_value - coalesce(lb.billed, 0) AS sov_remaining
    FROM redteam.eapp_lines l
    JOIN redteam.eapps e USING (eapp_id)
    JOIN redteam.commitment_sov s ON s.commitment_id = e.commitment_id AND s.line_no = l.sov_line_no
    LEFT JOIN line_billed lb ON lb.commitment_id = e.commitment_id AND lb.sov_line_no = l.sov_line_no
), line_check AS (
    SELECT eapp_id,
           count(*) FILTER (WHERE this_period > sov_remaining) AS lines_over,
           min(line_no) FILTER (WHERE this_period > sov_remaining) AS first_over_line,
           arg_min(sov_remaining, line_no) FILTER (WHERE this_period > sov_remaining) AS first_over_open,
           arg_min(this_period - sov_remaining, line_no) FILTER (WHERE this_period > sov_remaining) AS first_over_by,
           arg_min(cost_code, line_no) FILTER (WHERE this_period > sov_remaining) AS first_over_cost_code
    FROM lines GROUP BY eapp_id
), planted AS (
    SELECT i.commitment_id, i.invoice_number
    FROM book.divergences d
    JOIN book.ap_invoices i ON d.entity_key IN (i.invoice_id, i.vendor_key || '|' || i.invoice_number)
    WHERE d.kind = 'commitment_cap_exceeded' AND d.entity = 'invoice'
)
SELECT e.eapp_id, e.app_number, e.invoice_number, e.company_id, co.company_name,
       e.amount_this_period, e.retainage_this_period, e.net_due, e.submitted_date,
       c.commitment_id, c.commitment_number, c.revised_amount AS commitment_cap,
       p.job_number, p.project_name,
       coalesce(a.billed, 0) AS approved_billed,
       c.revised_amount - coalesce(a.billed, 0) AS remaining,
       e.amount_this_period > c.revised_amount - coalesce(a.billed, 0) AS over_cap,
       e.amount_this_period - (c.revised_amount - coalesce(a.billed, 0)) AS over_by,
       coalesce(lc.lines_over, 0) AS lines_over,
       lc.first_over_line, lc.first_over_open, lc.first_over_by, lc.first_over_cost_code,
       pl.invoice_number IS NOT NULL AS planted_over_cap,
       (SELECT count(*) FROM redteam.eapps o WHERE o.commitment_id = e.commitment_id
          AND o.status = 'Submitted') AS submitted_on_commitment
FROM redteam.eapps e
JOIN redteam.commitments c USING (commitment_id)
JOIN redteam.projects p ON p.project_id = e.project_id
JOIN redteam.companies co ON co.company_id = e.company_id
LEFT JOIN approved a ON a.commitment_id = e.commitment_id
LEFT JOIN line_check lc ON lc.eapp_id = e.eapp_id
LEFT JOIN planted pl ON pl.commitment_id = c.commitment_number AND pl.invoice_number = e.invoice_number
WHERE e.status = 'Submitted'
ORDER BY c.commitment_number, e.app_number;
