-- avalara models jobs as job-site locations (location code = the company job number).
-- entity: job
SELECT l.location_code AS entity_key, l.description AS name
FROM avalara.locations l
WHERE l.address_type = 'JobSite'
