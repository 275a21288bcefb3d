-- hh2: projection of the book's identity tables into the integration hub's crosswalks.

INSERT INTO hh2.vendor_map
SELECT vi.vendor_key, vi.system, vi.system_vendor_id, vi.spelled_name,
       (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock') - INTERVAL 1 DAY + INTERVAL 2 HOUR
FROM book.vendor_identities vi;

INSERT INTO hh2.job_map
SELECT j.job_number, s.system, book.system_job_id(s.system, j.job_number), j.name
FROM book.jobs j
CROSS JOIN (VALUES ('procore'), ('vista_erp'), ('sage_intacct'), ('foundation_erp'), ('cmic'),
                   ('acumatica_construction'), ('sage300cre'), ('qbo'), ('computerease'),
                   ('redteam'), ('ingenious_build'), ('ressio'), ('smartbuild'),
                   ('rhumbix'), ('busybusy'), ('lcptracker'), ('gcpay'), ('levelset')) AS s(system);

INSERT INTO hh2.cost_code_map
SELECT m.cost_code, e.erp, m.erp_phase, m.erp_cost_type, c.description, m.note
FROM book.erp_phase_map m
JOIN book.cost_codes c USING (cost_code)
CROSS JOIN (VALUES ('vista_erp'), ('sage_intacct'), ('foundation_erp'), ('cmic'), ('acumatica_construction'),
                   ('sage300cre'), ('qbo'), ('computerease')) AS e(erp);

INSERT INTO hh2.employee_map
SELECT ei.employee_id, ei.system, ei.system_employee_id, e.first_name || ' ' || e.last_name
FROM book.employee_identities ei
JOIN book.employees e USING (employee_id);

INSERT INTO hh2.union_local_map
SELECT u.local_code, s.system,
       CASE s.system WHEN 'lcptracker' THEN upper(replace(u.local_code, '-', ' LOCAL ')) ELSE u.local_code END,
       u.trade
FROM book.union_locals u
CROSS JOIN (VALUES ('vista_erp'), ('adp'), ('foundation_payroll'), ('lcptracker')) AS s(system);

INSERT INTO hh2.sync_log
SELECT 'SYNC-' || lpad(CAST(row_number() OVER (ORDER BY s.source, s.entity) AS VARCHAR), 4, '0'),
       s.source, 'vista_erp', s.entity,
       (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock') - INTERVAL 1 DAY + INTERVAL 2 HOUR,
       s.records, 'success'
FROM (
    SELECT 'procore' AS source, 'vendors' AS entity, (SELECT count(*) FROM book.vendors) AS records
    UNION ALL SELECT 'procore', 'commitments', (SELECT count(*) FROM book.commitments WHERE erp_synced)
    UNION ALL SELECT 'procore', 'requisitions', (SELECT count(*) FROM book.ap_invoices WHERE erp_synced)
    UNION ALL SELECT source_system, 'timecards', count(*) FROM book.timecards GROUP BY source_system
) AS s;
