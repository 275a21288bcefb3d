-- hcss_heavybid: consistency projections. A unit's hourly rate is the rate book's Rent + EOE in
-- effect at the clock (the field-time apps keep the rate keyed at setup: equipment_rate_stale).

-- entity: equipment
SELECT e.equipment_code AS entity_key, e.description AS name, r.total_rate AS hourly_rate
FROM hcss_heavybid.equipment e
JOIN hcss_heavybid.equipment_rates r ON r.equipment_code = e.equipment_code
WHERE r.effective_date = (
    SELECT max(x.effective_date) FROM hcss_heavybid.equipment_rates x
    WHERE x.equipment_code = e.equipment_code
      AND x.effective_date <= (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock')
);
