-- hcss_heavybid: projection of book.estimates and book.estimate_items. Each bid item carries one
-- resource of the cost code's cost type (the book prices items, not crews). The equipment setup is
-- book.equipment with its rate book, book.equipment_rates.

INSERT INTO hcss_heavybid.estimates
SELECT e.estimate_id,
       'B' || book.system_job_id('hcss_heavybid', e.job_number) || '-'
           || CAST(row_number() OVER (PARTITION BY e.job_number ORDER BY e.bid_date, e.estimate_id) AS VARCHAR),
       book.system_job_id('hcss_heavybid', e.job_number), e.name, e.bid_date,
       CASE e.status WHEN 'awarded' THEN 'Awarded' WHEN 'lost' THEN 'Lost' ELSE 'Open' END,
       e.total_cost, e.markup_pct, e.bid_total,
       (SELECT count(*) FROM book.estimate_items i WHERE i.estimate_id = e.estimate_id)::INTEGER
FROM book.estimates e;

INSERT INTO hcss_heavybid.biditems
SELECT i.estimate_id, lpad(CAST(i.item_no * 10 AS VARCHAR), 4, '0'), i.item_no, i.cost_code, i.description,
       i.quantity, i.unit, i.unit_cost, i.total_cost
FROM book.estimate_items i;

INSERT INTO hcss_heavybid.resources
SELECT i.estimate_id, lpad(CAST(i.item_no * 10 AS VARCHAR), 4, '0'),
       CASE coalesce(c.cost_type, 'O') WHEN 'L' THEN 'LAB' WHEN 'M' THEN 'MAT' WHEN 'S' THEN 'SUB'
                                       WHEN 'E' THEN 'EQP' ELSE 'OTH' END || '-' || i.cost_code,
       CASE coalesce(c.cost_type, 'O') WHEN 'L' THEN 'Labor' WHEN 'M' THEN 'Material' WHEN 'S' THEN 'Subcontract'
                                       WHEN 'E' THEN 'Equipment' ELSE 'Other' END,
       coalesce(c.description, i.description), i.quantity, i.unit, i.unit_cost, i.total_cost
FROM book.estimate_items i
LEFT JOIN book.cost_codes c USING (cost_code);

INSERT INTO hcss_heavybid.equipment
SELECT q.unit_number, q.description, q.category,
       CASE q.ownership WHEN 'rented' THEN 'Rented' ELSE 'Owned' END,
       q.make, q.model, q.model_year, q.serial_number, v.legal_name, 'HR'
FROM book.equipment q
LEFT JOIN book.vendors v ON v.vendor_key = q.rental_vendor_key
ORDER BY q.unit_number;

INSERT INTO hcss_heavybid.equipment_rates
SELECT r.unit_number, r.effective_date, r.rent_rate, r.eoe_rate, r.rent_rate + r.eoe_rate, r.note
FROM book.equipment_rates r
ORDER BY r.unit_number, r.effective_date;
