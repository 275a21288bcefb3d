-- busybusy: consistency-check projections (ids resolved through hh2.employee_map / hh2.job_map).

-- entity: employee
SELECT coalesce(m.master_employee_id, w.employee_id) AS entity_key,
       w.first_name || ' ' || w.last_name AS name,
       w.classification AS classification
FROM busybusy.members w
LEFT JOIN hh2.employee_map m ON m.system = 'busybusy' AND m.system_employee_id = w.employee_id;

-- entity: job
SELECT coalesce(m.master_job_number, p.job_number) AS entity_key, p.name AS name
FROM busybusy.projects p
LEFT JOIN hh2.job_map m ON m.system = 'busybusy' AND m.system_job_id = p.job_number;
