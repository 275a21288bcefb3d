-- levelset models vendors (companies, by Levelset's spelling) and jobs.
-- entity: vendor
SELECT m.master_vendor_id AS entity_key, c.company_name AS name
FROM levelset.companies c
JOIN hh2.vendor_map m ON m.system = 'levelset' AND m.system_vendor_id = c.company_id;

-- entity: job
SELECT m.master_job_number AS entity_key, j.job_name AS name
FROM levelset.jobs j
JOIN hh2.job_map m ON m.system = 'levelset' AND m.system_job_id = j.job_id
