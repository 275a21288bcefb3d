-- avalara: the company, its office and job-site locations, the jurisdiction rates there (a fixed
-- state table and deterministic county/city add-ons keyed by name), use-tax transactions for
-- supplier invoices entered in the ERP (Committed once posted), and a Filed return per state for
-- every period before the clock's month, and the exemption certificates given to suppliers. The
-- rate macros are temporary (build connection only).

CREATE OR REPLACE TEMP MACRO avalara_state_rate(st) AS coalesce(
    (SELECT r.rate FROM (VALUES ('IL', 0.062500), ('IN', 0.070000), ('WI', 0.050000), ('MI', 0.060000),
                                ('OH', 0.057500), ('IA', 0.060000), ('MO', 0.042250), ('MN', 0.068750),
                                ('KY', 0.060000), ('TX', 0.062500), ('CA', 0.072500), ('NY', 0.040000),
                                ('FL', 0.060000), ('GA', 0.040000), ('CO', 0.029000)) AS r(code, rate)
     WHERE r.code = st), 0.050000)::DECIMAL(9,6);

CREATE OR REPLACE TEMP MACRO avalara_county_rate(st, cty) AS
    (CASE hash('avalara-county:' || st || ':' || cty) % 4
          WHEN 0 THEN 0.000000 WHEN 1 THEN 0.002500 WHEN 2 THEN 0.005000 ELSE 0.007500 END)::DECIMAL(9,6);

CREATE OR REPLACE TEMP MACRO avalara_city_rate(st, cit) AS
    (CASE hash('avalara-city:' || st || ':' || cit) % 5
          WHEN 0 THEN 0.000000 WHEN 1 THEN 0.005000 WHEN 2 THEN 0.010000 WHEN 3 THEN 0.012500 ELSE 0.017500 END)::DECIMAL(9,6);

INSERT INTO avalara.companies
SELECT 'COMPANY' || upper(c.company_id), c.name, c.ein, 'US', true FROM book.company c;

INSERT INTO avalara.locations
SELECT 'HQ', 'COMPANY' || upper(c.company_id), c.name || ' - headquarters', 'Headquarters', c.address, c.city,
       NULL, c.state, 'US'
FROM book.company c;

INSERT INTO avalara.locations
SELECT j.job_number, (SELECT 'COMPANY' || upper(company_id) FROM book.company ORDER BY company_id LIMIT 1),
       j.name, 'JobSite', j.address, j.city, j.county, j.state, 'US'
FROM book.jobs j;

INSERT INTO avalara.jurisdiction_rates
SELECT s.region, 'STA', s.region || ' STATE', s.region, NULL, NULL, 'Sales and Use',
       avalara_state_rate(s.region), DATE '2024-01-01'
FROM (SELECT state AS region FROM book.jobs UNION SELECT state FROM book.company) s;

INSERT INTO avalara.jurisdiction_rates
SELECT x.state || '-CTY-' || upper(replace(x.county, ' ', '_')), 'CTY', upper(x.county) || ' COUNTY',
       x.state, x.county, NULL, 'Sales and Use', avalara_county_rate(x.state, x.county), DATE '2024-01-01'
FROM (SELECT DISTINCT state, county FROM book.jobs) x;

INSERT INTO avalara.jurisdiction_rates
SELECT x.state || '-CIT-' || upper(replace(x.city, ' ', '_')), 'CIT', upper(x.city), x.state, NULL, x.city,
       'Sales and Use', avalara_city_rate(x.state, x.city), DATE '2024-01-01'
FROM (SELECT state, city FROM book.jobs UNION SELECT state, city FROM book.company) x;

INSERT INTO avalara.transactions
SELECT 'PI-' || i.vendor_key || '-' || i.invoice_number,
       (SELECT 'COMPANY' || upper(company_id) FROM book.company ORDER BY company_id LIMIT 1),
       'PurchaseInvoice', i.invoice_date, strftime(i.invoice_date, '%Y-%m'), i.vendor_key, i.invoice_number,
       i.job_number, j.state, i.gross_amount, i.gross_amount,
       round(i.gross_amount * (avalara_state_rate(j.state) + avalara_county_rate(j.state, j.county)
                               + avalara_city_rate(j.state, j.city)), 2)::DECIMAL(18,2),
       CASE i.erp_status WHEN 'posted' THEN 'Committed' ELSE 'Saved' END
FROM book.ap_invoices i
JOIN book.vendors v ON v.vendor_key = i.vendor_key AND v.vendor_type = 'supplier'
JOIN book.jobs j ON j.job_number = i.job_number
WHERE i.erp_status IN ('unposted', 'posted');

INSERT INTO avalara.filing_returns
SELECT substr(sha256('avalara-return:' || t.company_code || ':' || t.period || ':' || t.region), 1, 12),
       t.company_code, t.period, t.region,
       CASE t.region WHEN 'IL' THEN 'ST-1' ELSE t.region || '-SUT' END,
       count(*)::INTEGER, sum(t.taxable)::DECIMAL(18,2), sum(t.tax)::DECIMAL(18,2),
       CAST(strptime(t.period || '-20', '%Y-%m-%d') + INTERVAL 1 MONTH AS DATE),
       'Filed',
       CAST(strptime(t.period || '-18', '%Y-%m-%d') + INTERVAL 1 MONTH AS DATE),
       strptime(t.period || '-18', '%Y-%m-%d') + INTERVAL 1 MONTH + INTERVAL 9 HOUR
FROM (SELECT (SELECT 'COMPANY' || upper(company_id) FROM book.company ORDER BY company_id LIMIT 1) AS company_code,
             strftime(i.invoice_date, '%Y-%m') AS period, j.state AS region, i.gross_amount AS taxable,
             round(i.gross_amount * (avalara_state_rate(j.state) + avalara_county_rate(j.state, j.county)
                                     + avalara_city_rate(j.state, j.city)), 2)::DECIMAL(18,2) AS tax
      FROM book.ap_invoices i
      JOIN book.vendors v ON v.vendor_key = i.vendor_key AND v.vendor_type = 'supplier'
      JOIN book.jobs j ON j.job_number = i.job_number
      WHERE i.erp_status = 'posted'
        AND strftime(i.invoice_date, '%Y-%m') < strftime((SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock'), '%Y-%m')) t
GROUP BY t.company_code, t.period, t.region;

INSERT INTO avalara.exemption_certificates
SELECT 'CERT-' || substr(c.certificate_id, 1, 10),
       (SELECT 'COMPANY' || upper(company_id) FROM book.company ORDER BY company_id LIMIT 1),
       c.region, c.vendor_key, v.legal_name, c.job_number, c.exempt_reason, c.exemption_number, c.signed_date,
       c.expiration_date,
       CASE WHEN c.expiration_date >= (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock')
            THEN 'Valid' ELSE 'Expired' END
FROM book.tax_exemption_certificates c JOIN book.vendors v USING (vendor_key);

DROP MACRO IF EXISTS temp.main.avalara_state_rate;
DROP MACRO IF EXISTS temp.main.avalara_county_rate;
DROP MACRO IF EXISTS temp.main.avalara_city_rate;
