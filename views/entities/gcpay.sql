-- gcpay models jobs (one prime contract per job): name and contract sum to date.
-- entity: job
SELECT m.master_job_number AS entity_key, c.project_name AS name,
       CAST(c.contract_sum_to_date AS DECIMAL(18,2)) AS contract_amount
FROM gcpay.contracts c
JOIN hh2.job_map m ON m.system = 'gcpay' AND m.system_job_id = c.job_number
