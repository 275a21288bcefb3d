-- A_change_order: classify a pending Procore change event from its backup document (owner
-- change order vs internal cost transfer) and set it up, pending, as a Vista job change order.

-- name: keys
-- The pending change events the book plants for this family (the paper's internal transfer on
-- 3100 and the smaller owner change event); the other open events are ordinary noise.
SELECT e.job_number
FROM book.change_events e
JOIN book.divergences d
  ON d.family = 'A_change_order' AND d.kind = 'pending_change_event'
 AND d.entity_key = e.job_number || '|' || e.number
WHERE e.status = 'pending'
ORDER BY e.job_number;

-- name: held_out_candidates
-- The further change events with the same plant: logged in Procore (scope still TBD), not yet a
-- change order in the ERP (registered pending_change_event) and still open — the owner changes
-- the book leaves open on other jobs — one per job, with their backup in Box and the job in
-- Vista.
SELECT e.job_number
FROM book.change_events e
JOIN book.divergences d
  ON d.family = 'A_change_order' AND d.kind = 'pending_change_event'
 AND d.entity_key = e.job_number || '|' || e.number
JOIN book.documents doc ON doc.document_id = e.document_id
JOIN box.files f ON f.name = doc.filename AND f.path_collection = doc.folder AND f.item_status = 'active'
JOIN hh2.job_map vj ON vj.master_job_number = e.job_number AND vj.system = 'vista_erp'
JOIN vista_erp."JCJM" jm ON jm."Job" = vj.system_job_id
JOIN hh2.job_map pj ON pj.master_job_number = e.job_number AND pj.system = 'procore'
JOIN procore.change_events pce
  ON pce.project_id = CAST(pj.system_job_id AS BIGINT) AND pce.origin_code = e.change_event_id
WHERE e.status <> 'closed'
  AND (SELECT count(*) FROM book.change_events o WHERE o.job_number = e.job_number AND o.status <> 'closed') = 1
ORDER BY e.job_number;

-- name: event
-- The job's pending (not closed) change event, its class (the book's scope: in_scope = internal cost transfer,
-- out_of_scope = owner change order), its ids in Vista, Procore and Box, and the next Vista ACO.
SELECT e.change_event_id, e.number, e.title, e.description, e.reason, e.scope, e.amount,
       e.scope = 'out_of_scope' AS is_owner,
       j.name AS job_name,
       vj.system_job_id AS vista_job,
       jm."JCCo" AS jcco, jm."Contract" AS vista_contract,
       cm."ContractAmt" AS contract_amount,
       pce.id AS procore_change_event_id, pce.scope AS procore_scope, pce.attachment_filename,
       f.id AS box_file_id, f.path_collection || '/' || f.name AS box_path,
       lpad(CAST(coalesce((SELECT max(TRY_CAST(h."ACO" AS INTEGER)) FROM vista_erp."JCOH" h
                           WHERE h."Job" = vj.system_job_id), 0) + 1 AS VARCHAR), 3, '0') AS next_aco
FROM book.change_events e
JOIN book.jobs j ON j.job_number = e.job_number
JOIN hh2.job_map vj ON vj.master_job_number = e.job_number AND vj.system = 'vista_erp'
JOIN vista_erp."JCJM" jm ON jm."Job" = vj.system_job_id
JOIN vista_erp."JCCM" cm ON cm."JCCo" = jm."JCCo" AND cm."Contract" = jm."Contract"
JOIN hh2.job_map pj ON pj.master_job_number = e.job_number AND pj.system = 'procore'
JOIN procore.change_events pce ON pce.project_id = CAST(pj.system_job_id AS BIGINT) AND pce.origin_code = e.change_event_id
JOIN book.documents d ON d.document_id = e.document_id
JOIN box.files f ON f.name = d.filename AND f.path_collection = d.folder AND f.item_status = 'active'
WHERE e.job_number = $job AND e.status <> 'closed';

-- name: item_phase
-- The Vista phase / cost type a PM cost code maps to on the job (hh2 cost-code map), if the job
-- carries it.
SELECT c.erp_phase, c.erp_cost_type
FROM hh2.cost_code_map c
JOIN vista_erp."JCCH" h ON h."Phase" = c.erp_phase AND h."CostType" = c.erp_cost_type
WHERE c.cost_code = $cost_code AND c.erp_system = 'vista_erp' AND h."Job" = $vista_job;

-- name: neighbour
-- The neighbouring Vista job (the next job id after this one, else the one before): where a
-- careless agent sets the change order up instead.
SELECT "Job" AS vista_job
FROM vista_erp."JCJM"
WHERE "JCCo" = $jcco AND "Job" <> $vista_job
ORDER BY ("Job" < $vista_job), CASE WHEN "Job" > $vista_job THEN "Job" END, "Job" DESC
LIMIT 1;
