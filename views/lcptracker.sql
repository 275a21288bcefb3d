-- lcptracker: projection of the prevailing-wage jobs, their wage determinations, the prime and
-- its subcontractors (ids and spellings from book.vendor_identities system 'lcptracker'), the
-- employees (ids from book.employee_identities) and the WH-347 submissions with their lines,
-- exactly as the book holds them (violations included: reviewing them is the agent's task).

INSERT INTO lcptracker.contractors
SELECT 'C00001', c.name, c.ein, 'General Contractor', true, c.address, c.city, c.state
FROM book.company c;

INSERT INTO lcptracker.contractors
SELECT vi.system_vendor_id, vi.spelled_name, v.tin, v.trade, false, v.address, v.city, v.state
FROM book.vendor_identities vi
JOIN book.vendors v USING (vendor_key)
WHERE vi.system = 'lcptracker';

INSERT INTO lcptracker.projects
SELECT book.system_job_id('lcptracker', j.job_number), j.name, o.name, 'C00001', j.address, j.city, j.county, j.state,
       (SELECT wd.determination_id FROM book.wage_determinations wd WHERE wd.job_number = j.job_number
        ORDER BY wd.effective_date DESC, wd.modification DESC LIMIT 1),
       j.start_date,
       CASE j.status WHEN 'closed' THEN 'Closed' ELSE 'Active' END
FROM book.jobs j
JOIN book.owners o USING (owner_id)
WHERE j.is_prevailing_wage;

INSERT INTO lcptracker.project_contractors
SELECT book.system_job_id('lcptracker', j.job_number), 'C00001', 0, pc.original_amount
FROM book.jobs j
LEFT JOIN book.prime_contracts pc USING (job_number)
WHERE j.is_prevailing_wage;

INSERT INTO lcptracker.project_contractors
SELECT book.system_job_id('lcptracker', c.job_number), vi.system_vendor_id, 1, sum(c.amount)
FROM book.commitments c
JOIN book.jobs j ON j.job_number = c.job_number AND j.is_prevailing_wage
JOIN book.vendor_identities vi ON vi.vendor_key = c.vendor_key AND vi.system = 'lcptracker'
WHERE c.commitment_type = 'subcontract'
GROUP BY c.job_number, vi.system_vendor_id;

INSERT INTO lcptracker.employees
SELECT ei.system_employee_id, 'C00001', e.first_name, e.last_name, e.ssn_last4, e.trade, e.classification,
       CASE e.level WHEN 'apprentice' THEN 'Apprentice' WHEN 'foreman' THEN 'Foreman' ELSE 'Journeyman' END,
       e.apprentice_registration, e.apprentice_pct,
       CASE WHEN e.union_local IS NULL THEN NULL ELSE upper(replace(e.union_local, '-', ' LOCAL ')) END,
       e.base_rate, e.fringe_rate,
       CASE e.status WHEN 'terminated' THEN 'Terminated' ELSE 'Active' END
FROM book.employee_identities ei
JOIN book.employees e USING (employee_id)
WHERE ei.system = 'lcptracker';

INSERT INTO lcptracker.wage_decisions
SELECT wd.determination_id, book.system_job_id('lcptracker', wd.job_number), wd.wd_number, wd.modification,
       wd.county, wd.state, wd.effective_date
FROM book.wage_determinations wd;

INSERT INTO lcptracker.wage_decision_rates
SELECT determination_id, classification, base_rate, fringe_rate FROM book.wage_rates;

INSERT INTO lcptracker.apprentice_ratios
SELECT trade, journeymen_per_apprentice, source FROM book.apprentice_ratio_rules;

INSERT INTO lcptracker.payrolls
SELECT cp.submission_id, book.system_job_id('lcptracker', cp.job_number), 'C00001', cp.determination_id,
       cp.payroll_number, cp.week_ending, false,
       CASE cp.status WHEN 'accepted' THEN 'Accepted' WHEN 'submitted' THEN 'Submitted' ELSE 'Draft' END,
       CASE WHEN cp.status = 'draft' THEN NULL ELSE j.project_manager END,
       CASE WHEN cp.status = 'draft' THEN NULL ELSE cp.week_ending + 3 END
FROM book.certified_payrolls cp
JOIN book.jobs j USING (job_number);

INSERT INTO lcptracker.payroll_lines
SELECT l.submission_id, l.line_no, coalesce(ei.system_employee_id, l.employee_id), e.last_name || ', ' || e.first_name,
       l.classification,
       CASE l.level WHEN 'apprentice' THEN 'Apprentice' ELSE 'Journeyman' END,
       l.apprentice_registration,
       l.hours_sun, l.hours_mon, l.hours_tue, l.hours_wed, l.hours_thu, l.hours_fri, l.hours_sat,
       l.total_hours, least(l.total_hours, 40)::DECIMAL(9,2), greatest(l.total_hours - 40, 0)::DECIMAL(9,2),
       l.rate_paid, l.fringe_paid, l.gross_this_project
FROM book.certified_payroll_lines l
JOIN book.employees e USING (employee_id)
LEFT JOIN book.employee_identities ei ON ei.employee_id = l.employee_id AND ei.system = 'lcptracker';
