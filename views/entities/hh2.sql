-- hh2 models cost codes (its crosswalk) for every ERP; compare the Vista mapping.
-- entity: cost_code
-- scope: all_cost_codes
SELECT cost_code AS entity_key, description, erp_phase
FROM hh2.cost_code_map
WHERE erp_system = 'vista_erp';
