-- rhumbix: projection of the book's timecards whose source system is rhumbix, with the projects,
-- cost codes, workers and crews they use. Worker ids come from book.employee_identities (system
-- 'rhumbix'). Approved cards have been exported to payroll (the payroll apps hold their hours):
-- approved at 18:00 on the work day, exported by the nightly run (on the clock day: at midday).
-- No divergence is honoured here.

INSERT INTO rhumbix.projects
SELECT book.system_job_id('rhumbix', j.job_number), book.system_job_id('rhumbix', j.job_number), j.name, j.superintendent, j.city, j.state,
       CASE j.status WHEN 'active' THEN 'ACTIVE' ELSE 'INACTIVE' END
FROM book.jobs j
ORDER BY j.job_number;

INSERT INTO rhumbix.cost_codes
SELECT book.system_job_id('rhumbix', j.job_number), c.cost_code, c.description
FROM (
    SELECT job_number, cost_code FROM book.budget_lines
    WHERE cost_code IN (SELECT cost_code FROM book.cost_codes WHERE cost_type = 'L')
    UNION
    SELECT job_number, cost_code FROM book.timecards WHERE source_system = 'rhumbix'
) u
JOIN book.jobs j ON j.job_number = u.job_number
JOIN book.cost_codes c ON c.cost_code = u.cost_code
ORDER BY 1, 2;

INSERT INTO rhumbix.employees
SELECT ei.system_employee_id, e.first_name, e.last_name, e.trade, e.classification, e.level, e.union_local,
       CASE e.status WHEN 'active' THEN 'ACTIVE' ELSE 'INACTIVE' END
FROM book.employees e
JOIN book.employee_identities ei ON ei.employee_id = e.employee_id AND ei.system = 'rhumbix'
ORDER BY ei.system_employee_id;

INSERT INTO rhumbix.crews
SELECT 'crew_' || substr(md5('rhumbix:crew:' || t.job_number || ':' || e.trade), 1, 10), book.system_job_id('rhumbix', t.job_number), e.trade || ' crew - ' || t.job_number, e.trade,
       min(CASE WHEN e.level = 'foreman' THEN ei.system_employee_id END)
FROM book.timecards t
JOIN book.employees e ON e.employee_id = t.employee_id
JOIN book.employee_identities ei ON ei.employee_id = t.employee_id AND ei.system = 'rhumbix'
WHERE t.source_system = 'rhumbix'
GROUP BY t.job_number, e.trade
ORDER BY 1;

INSERT INTO rhumbix.timekeeping_entries
SELECT 'te_' || substr(md5('rhumbix:entry:' || t.timecard_id), 1, 16), ei.system_employee_id, book.system_job_id('rhumbix', t.job_number), 'crew_' || substr(md5('rhumbix:crew:' || t.job_number || ':' || e.trade), 1, 10), t.cost_code, t.work_date,
       t.hours_regular, t.hours_overtime,
       CASE WHEN t.approved THEN 'APPROVED' ELSE 'PENDING' END,
       CASE WHEN t.approved THEN j.superintendent END,
       CASE WHEN t.approved THEN least(CAST(t.work_date AS TIMESTAMP) + INTERVAL 18 HOUR,
                                       CAST(c.clock AS TIMESTAMP) + INTERVAL 12 HOUR) END,
       t.approved,
       CASE WHEN t.approved THEN least(CAST(t.work_date AS TIMESTAMP) + INTERVAL 26 HOUR,
                                       CAST(c.clock AS TIMESTAMP) + INTERVAL 13 HOUR) END
FROM book.timecards t
JOIN book.jobs j ON j.job_number = t.job_number
JOIN book.employees e ON e.employee_id = t.employee_id
JOIN book.employee_identities ei ON ei.employee_id = t.employee_id AND ei.system = 'rhumbix'
CROSS JOIN (SELECT CAST(value AS DATE) AS clock FROM cfab_internal.meta WHERE key = 'clock') c
WHERE t.source_system = 'rhumbix'
ORDER BY t.timecard_id;
