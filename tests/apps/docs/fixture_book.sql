-- A small hand-made Company-A book for the Docs/Office app tests (run after schema/book.sql).
-- Copied from tests/documents/fixture_book.sql (the renderers' fixture), plus book.emails.
-- It carries the paper's worked invoice (JSM-88421, V1001, PO 9140-75, 31-200, $14,350.00)
-- and one row for every defect the renderers must show faithfully.

INSERT INTO book.company VALUES ('A', 'Company A Construction, Inc.', '36-1234567', 'companyA.com',
    '1200 W Lake St', 'Chicago', 'IL', '60607', '(312) 555-0100');

INSERT INTO book.gl_accounts VALUES
    ('2100', 'Accrued Liabilities', 'liability', 'C', false, false),
    ('2000', 'Accounts Payable', 'liability', 'C', false, true),
    ('5200', 'Subcontract Cost', 'expense', 'D', true, false);
INSERT INTO book.gl_periods VALUES ('2025-12', '2025-12-01', '2025-12-31', 'closed'),
    ('2026-01', '2026-01-01', '2026-01-31', 'open');
INSERT INTO book.journal_entries VALUES
    ('je1', 'AP', 'AP-0001', '2025-12-15', '2025-12', 'Walsh pay request 2', 'posted', NULL, false),
    ('je2', 'AP', 'AP-0002', '2025-12-20', '2025-12', 'JSM materials', 'posted', NULL, false);
INSERT INTO book.journal_lines VALUES
    ('je1', 1, '5200', '1042', '26-100', 'V1000', 210000.00, 0, 'SC-1042-0 #2'),
    ('je1', 2, '2000', NULL, NULL, 'V1000', 0, 210000.00, NULL),
    ('je2', 1, '5200', '9140', '31-200', 'V1001', 41250.00, 0, 'PO 9140-75'),
    ('je2', 2, '2000', NULL, NULL, 'V1001', 0, 41250.00, NULL);

INSERT INTO book.cost_codes VALUES
    ('01-500', 'General conditions - temporary facilities', '01', 'O'),
    ('03-300', 'Cast-in-place concrete', '03', 'S'),
    ('09-200', 'Gypsum board assemblies', '09', 'S'),
    ('26-100', 'Electrical - power distribution', '26', 'S'),
    ('26-500', 'Electrical - lighting', '26', 'S'),
    ('31-200', 'Earthwork - excavation and fill', '31', 'M');

INSERT INTO book.owners VALUES
    ('O100', 'Riverside Health System', 'private', 'Dana Whitfield', 'dwhitfield@riversidehealth.org',
     '4400 N Riverside Dr, Chicago, IL 60641'),
    ('O101', 'City of Springfield', 'public', 'Marcus Lee', 'mlee@springfield.gov',
     '300 S 7th St, Springfield, IL 62701');

INSERT INTO book.jobs VALUES
    ('9140', 'Riverside Clinic Expansion', 'O100', 'active', 'commercial', false, '2025-03-01', '2026-09-30',
     'Priya Natarajan', 'pm@companyA.com', 'Tom Brady', '4400 N Riverside Dr', 'Chicago', 'IL', 'Cook', 410000.00),
    ('1042', 'Springfield Public Library', 'O101', 'active', 'public', true, '2025-02-03', '2026-11-20',
     'Alex Romero', 'aromero@companyA.com', 'Gina Ortiz', '326 S 7th St', 'Springfield', 'IL', 'Sangamon', 1250000.00),
    ('3100', 'Northgate Office Renovation', 'O100', 'active', 'commercial', false, '2025-06-02', '2026-06-30',
     'Priya Natarajan', 'pm@companyA.com', 'Sam Cole', '900 Northgate Pkwy', 'Wheeling', 'IL', 'Cook', 800000.00);

INSERT INTO book.prime_contracts VALUES
    ('9140', 'PC-9140', 'O100', 2400000.00, 10, NULL, NULL, '2025-02-15', 'executed'),
    ('1042', 'PC-1042', 'O101', 4800000.00, 10, 5, 50, '2025-01-20', 'executed'),
    ('3100', 'PC-3100', 'O100', 1500000.00, 10, NULL, NULL, '2025-05-20', 'executed');

INSERT INTO book.prime_sov_lines VALUES
    ('1042', 1, '001', 'General conditions', '01-500', 600000.00, 'original', NULL),
    ('1042', 2, '002', 'Concrete foundations and slabs', '03-300', 1800000.00, 'original', NULL),
    ('1042', 3, '003', 'Electrical power and lighting', '26-100', 2400000.00, 'original', NULL),
    ('1042', 4, '004', 'Owner CO #1 - added reading room lighting', '26-500', 120000.00, 'change_order', 'PCO-1042-001'),
    ('9140', 1, '001', 'General conditions', '01-500', 400000.00, 'original', NULL),
    ('9140', 2, '002', 'Site earthwork', '31-200', 2000000.00, 'original', NULL);

INSERT INTO book.owner_pay_apps VALUES
    ('1042', 1, '2025-12-01', '2025-12-31', 'certified', '2025-12-31', '2026-01-08',
     4800000.00, 120000.00, 1476000.00, 147600.00, 0.00, 1328400.00, 'doc-payapp-1042-1');
INSERT INTO book.owner_pay_app_lines VALUES
    ('1042', 1, 1, 600000.00, 0, 180000.00, 0, 180000.00, 18000.00),
    ('1042', 1, 2, 1800000.00, 0, 810000.00, 0, 810000.00, 81000.00),
    ('1042', 1, 3, 2400000.00, 0, 450000.00, 24000.00, 474000.00, 47400.00),
    ('1042', 1, 4, 120000.00, 0, 12000.00, 0, 12000.00, 1200.00);

INSERT INTO book.change_events VALUES
    ('CE-3100-004', '3100', 4, 'Add data room cooling and power', 'Owner added a server room on level 2 with dedicated cooling and 208V power.',
     'owner_request', 'out_of_scope', 101700.00, 'open', 'doc-ce-3100-004'),
    ('CE-3100-005', '3100', 5, 'Relocate corridor ceiling grid', 'Ceiling grid in corridor B must be lowered 4 inches to clear ductwork.',
     'owner_request', 'in_scope', 18400.00, 'open', 'doc-ce-3100-005');
INSERT INTO book.change_orders VALUES
    ('PCO-1042-001', '1042', 'owner', 1, NULL, NULL, 'Added reading room lighting', 120000.00, true, 'approved', '2025-11-15'),
    ('ICO-3100-005', '3100', 'internal', 1, 'CE-3100-005', NULL, 'Corridor ceiling transfer', 18400.00, false, 'pending', NULL);
INSERT INTO book.change_order_lines VALUES
    ('ICO-3100-005', 1, '09-200', 18400.00);

INSERT INTO book.budget_lines VALUES
    ('1042', '26-100', 2100000.00, 0, 2100000.00, 1650000.00, 1700000.00, true),
    ('9140', '31-200', 1700000.00, 0, 1700000.00, 1200000.00, 1300000.00, true),
    ('3100', '09-200', 900000.00, 0, 900000.00, 880000.00, 880000.00, true);

INSERT INTO book.vendors VALUES
    ('V1000', 'Walsh Electrical Contractors, LLC', NULL, 'subcontractor', 'Electrical', '36-4455667', 'EIN',
     'llc_partnership', false, false, '2250 S Halsted St', 'Chicago', 'IL', '60608', 'billing@walshelectric.com',
     '(312) 555-0142', 'Net 30', 'active'),
    ('V1001', 'Jackson Site & Materials, Inc.', 'JSM', 'supplier', 'Earthwork materials', '36-9988776', 'EIN',
     'c_corporation', false, true, '7100 W 87th St', 'Bridgeview', 'IL', '60455', 'ar@jsmaterials.com',
     '(708) 555-0199', 'Net 30', 'active'),
    ('V1002', 'Prairie Drywall Company', NULL, 'subcontractor', 'Drywall', '412-55-6789', 'SSN',
     'sole_proprietor', false, false, '55 Industrial Dr', 'Joliet', 'IL', '60431', 'office@prairiedrywall.com',
     '(815) 555-0123', 'Net 30', 'active');
INSERT INTO book.vendor_identities VALUES
    ('V1000', 'box', 'BOX-V1000', 'Walsh Electrical'),
    ('V1000', 'procore', '5501', 'Walsh Electrical Contractors'),
    ('V1001', 'box', 'BOX-V1001', 'Jackson Site and Materials'),
    ('V1002', 'procore', '5503', 'Prairie Drywall Co.');

INSERT INTO book.certificates_of_insurance VALUES
    ('COI-V1000-GL-2025', 'V1000', 'Travelers Casualty and Surety Co', 'CGL-7731902', 'general_liability',
     1000000.00, 2000000.00, '2025-03-01', '2026-03-01', 'Company A Construction, Inc.', true, 'doc-coi-v1000'),
    ('COI-V1000-AU-2025', 'V1000', 'Travelers Casualty and Surety Co', 'BA-7731903', 'auto',
     1000000.00, 1000000.00, '2025-03-01', '2026-03-01', 'Company A Construction, Inc.', true, 'doc-coi-v1000'),
    ('COI-V1002-GL-2024', 'V1002', 'Zurich American Insurance Co', 'GLO-5521-88', 'general_liability',
     1000000.00, 2000000.00, '2024-12-15', '2025-12-15', 'Company A Construction, Inc.', true, 'doc-coi-v1002');

INSERT INTO book.commitments VALUES
    ('SC-1042-0', '1042', 'V1000', 'subcontract', '1042-01', 'Electrical subcontract', 'approved',
     632000.00, 0, 632000.00, 10, '2025-02-20', true, 'doc-sc-1042-0'),
    ('PO-9140-75', '9140', 'V1001', 'purchase_order', '9140-75', 'Structural fill and aggregate', 'approved',
     55600.00, 0, 55600.00, 0, '2025-09-02', true, NULL),
    ('SC-3100-2', '3100', 'V1002', 'subcontract', '3100-02', 'Drywall and ceilings', 'approved',
     240000.00, 0, 240000.00, 10, '2025-06-20', false, 'doc-sc-3100-2');
INSERT INTO book.commitment_lines VALUES
    ('SC-1042-0', 1, '26-100', 'Power distribution and feeders', 412000.00, 50, 206000.00),
    ('SC-1042-0', 2, '26-500', 'Lighting and controls', 220000.00, 20, 44000.00),
    ('PO-9140-75', 1, '31-200', 'Structural fill, delivered', 55600.00, 100, 55600.00),
    ('SC-3100-2', 1, '09-200', 'Gypsum board assemblies', 240000.00, 30, 72000.00);

INSERT INTO book.ap_invoices VALUES
    ('inv-jsm-88421', 'V1001', '9140', 'PO-9140-75', 'JSM-88421', NULL, '2026-01-12', '2026-02-11',
     '2026-01-01', '2026-01-10', 14350.00, 0.00, 14350.00, NULL, 'not_entered', false, 0.00,
     'Structural fill delivered to site, tickets 4410-4436', 'doc-inv-jsm-88421'),
    ('inv-walsh-3', 'V1000', '1042', 'SC-1042-0', 'WEC-2026-003', 3, '2026-01-05', '2026-02-04',
     '2025-12-01', '2025-12-31', 48500.00, 4850.00, 43650.00, 'approved', 'unposted', true, 0.00,
     'Pay request #3 - feeders and lighting rough-in', 'doc-inv-walsh-3'),
    ('inv-prd-5521', 'V1002', '3100', 'SC-3100-2', 'PD-5521', 2, '2026-01-20', '2026-02-19',
     '2026-01-01', '2026-01-15', 98000.00, 9800.00, 88200.00, 'under_review', 'not_entered', false, 0.00,
     'Drywall progress billing', 'doc-inv-prd-5521');
INSERT INTO book.ap_invoice_lines VALUES
    ('inv-jsm-88421', 1, 1, '31-200', 'Structural fill CA-6, 1,025 tons @ $14.00', 14350.00, 0.00),
    ('inv-walsh-3', 1, 1, '26-100', 'Feeders - level 1 and 2', 30500.00, 3050.00),
    ('inv-walsh-3', 2, 2, '26-500', 'Lighting rough-in', 18000.00, 1800.00),
    ('inv-prd-5521', 1, 1, '09-200', 'Gypsum board - levels 1-2 (billed past SOV line)', 98000.00, 9800.00);

INSERT INTO book.lien_waivers VALUES
    ('LW-V1000-3', 'V1000', '1042', 'inv-walsh-3', 'conditional_progress', 43650.00, '2025-11-30', 'received',
     'Kevin Walsh', '2026-01-06', 'doc-lw-v1000-3'),
    ('LW-V1000-2', 'V1000', '1042', NULL, 'unconditional_final', 210000.00, '2025-11-30', 'approved',
     'Kevin Walsh', '2025-12-22', 'doc-lw-v1000-2'),
    ('LW-V1002-2', 'V1002', '3100', 'inv-prd-5521', 'conditional_progress', 88200.00, '2026-01-15', 'requested',
     NULL, NULL, 'doc-lw-v1002-2');

INSERT INTO book.bank_accounts VALUES ('BA-OPER', 'bofa', 'Operating', '000123456789', '026009593', '2000', 40);
INSERT INTO book.checks VALUES
    ('chk-1', 'BA-OPER', 10001, '2025-06-10', 'V1002', 'Prairie Drywall Company', 12500.00, 'cleared', '2025-06-14'),
    ('chk-2', 'BA-OPER', 10002, '2025-11-10', 'V1000', 'Walsh Electrical Contractors, LLC', 210000.00, 'cleared', '2025-11-15'),
    ('chk-3', 'BA-OPER', 10003, '2026-01-10', 'V1000', 'Walsh Electrical Contractors, LLC', 5000.00, 'issued', NULL),
    ('chk-4', 'BA-OPER', 10004, '2025-08-01', 'V1002', 'Prairie Drywall Company', 700.00, 'void', NULL);

INSERT INTO book.employees VALUES
    ('E1001', 'Luis', 'Alvarez', '4821', 'Electrician', 'Electrician', 'journeyman', NULL, NULL, NULL, 48.5000, 31.2000, '2019-04-01', 'active'),
    ('E1002', 'Jordan', 'Baker', '1177', 'Electrician', 'Electrician', 'apprentice', NULL, 50.0000, NULL, 24.2500, 15.6000, '2024-08-12', 'active');
INSERT INTO book.employee_identities VALUES ('E1001', 'lcptracker', 'LCP-88001'), ('E1002', 'lcptracker', 'LCP-88002');
INSERT INTO book.wage_determinations VALUES ('IL20250012-mod3', '1042', 'IL20250012', 3, 'Sangamon', 'IL', '2025-06-01');
INSERT INTO book.wage_rates VALUES ('IL20250012-mod3', 'Electrician', 48.5000, 31.2000);
INSERT INTO book.payroll_batches VALUES ('PR-2026-01-24', '2026-01-18', '2026-01-24', '2026-01-28', 'released', 'BA-OPER');
INSERT INTO book.payroll_earnings VALUES
    ('PR-2026-01-24', 'E1001', '1042', 40, 0, 48.5000, 31.2000, 1940.00, 512.18, 1427.82),
    ('PR-2026-01-24', 'E1002', '1042', 32, 0, 24.2500, 15.6000, 776.00, 180.40, 595.60);
INSERT INTO book.certified_payrolls VALUES ('CP-1042-2026-01-24', '1042', 'IL20250012-mod3', 3, '2026-01-24', 'submitted', 'doc-wh347-1042-0124');
INSERT INTO book.certified_payroll_lines VALUES
    ('CP-1042-2026-01-24', 1, 'E1001', 'Electrician', 'journeyman', NULL, 0, 8, 8, 8, 8, 8, 0, 40, 48.5000, 31.2000, 1940.00),
    ('CP-1042-2026-01-24', 2, 'E1002', 'Electrician', 'apprentice', NULL, 0, 8, 8, 8, 8, 0, 0, 32, 24.2500, 15.6000, 776.00);

INSERT INTO book.policies VALUES
    ('change_mgmt_policy.md', 'Change Management Policy',
     '# Change Management Policy' || chr(10) || chr(10) ||
     '## 1. Classification' || chr(10) ||
     'A change is an **owner change order** when the work is outside the contract scope; the contract sum and the budget increase.' || chr(10) ||
     '- Internal transfers move budget between cost codes only.' || chr(10) ||
     '- Never approve a change order in the ERP without PM sign-off.' || chr(10) || chr(10) ||
     '| Class | Contract | Budget |' || chr(10) || '|---|---|---|' || chr(10) ||
     '| Owner | increases | increases |' || chr(10) || '| Internal | unchanged | transfer |' || chr(10),
     '2025-01-01');

INSERT INTO book.documents VALUES
    ('doc-inv-jsm-88421', 'invoice', 'inv-jsm-88421', 'box', '/AP/Invoices/2026-01', 'JSM-88421.pdf', 'application/pdf',
     'Jackson Site and Materials invoice JSM-88421', '9140', 'V1001', '2026-01-12'),
    ('doc-inv-walsh-3', 'invoice', 'inv-walsh-3', 'box', '/AP/Invoices/2026-01', 'WEC-2026-003.pdf', 'application/pdf',
     'Walsh Electrical pay request 3', '1042', 'V1000', '2026-01-05'),
    ('doc-inv-prd-5521', 'invoice', 'inv-prd-5521', 'box', '/AP/Invoices/2026-01', 'PD-5521.pdf', 'application/pdf',
     'Prairie Drywall invoice PD-5521', '3100', 'V1002', '2026-01-20'),
    ('doc-coi-v1000', 'coi', 'COI-V1000-GL-2025', 'box', '/Compliance/COI/V1000', 'COI-Walsh-2025.pdf', 'application/pdf',
     'Walsh Electrical certificate of insurance', NULL, 'V1000', '2025-02-26'),
    ('doc-coi-v1002', 'coi', 'COI-V1002-GL-2024', 'box', '/Compliance/COI/V1002', 'COI-Prairie-2024.pdf', 'application/pdf',
     'Prairie Drywall certificate of insurance', NULL, 'V1002', '2024-12-10'),
    ('doc-lw-v1000-3', 'lien_waiver', 'LW-V1000-3', 'box', '/AP/Lien Waivers/1042', 'LW-Walsh-3.pdf', 'application/pdf',
     'Walsh conditional progress waiver 3', '1042', 'V1000', '2026-01-06'),
    ('doc-lw-v1000-2', 'lien_waiver', 'LW-V1000-2', 'box', '/AP/Lien Waivers/1042', 'LW-Walsh-2.pdf', 'application/pdf',
     'Walsh unconditional waiver', '1042', 'V1000', '2025-12-22'),
    ('doc-lw-v1002-2', 'lien_waiver', 'LW-V1002-2', 'box', '/AP/Lien Waivers/3100', 'LW-Prairie-2.pdf', 'application/pdf',
     'Prairie conditional progress waiver 2 (requested)', '3100', 'V1002', '2026-01-20'),
    ('doc-payapp-1042-1', 'pay_app', '1042-1', 'sharepoint', '/Billing/1042', 'PayApp-1042-01.pdf', 'application/pdf',
     'Job 1042 owner pay application 1', '1042', NULL, '2025-12-31'),
    ('doc-wh347-1042-0124', 'wh347', 'CP-1042-2026-01-24', 'sharepoint', '/Payroll/Certified/1042', 'WH347-1042-2026-01-24.pdf',
     'application/pdf', 'Job 1042 certified payroll week ending 2026-01-24', '1042', NULL, '2026-01-27'),
    ('doc-sc-1042-0', 'subcontract', 'SC-1042-0', 'box', '/Contracts/1042', 'SC-1042-0 Walsh Electrical.pdf', 'application/pdf',
     'Subcontract SC-1042-0 Walsh Electrical', '1042', 'V1000', '2025-02-20'),
    ('doc-sc-3100-2', 'subcontract', 'SC-3100-2', 'box', '/Contracts/3100', 'SC-3100-2 Prairie Drywall.pdf', 'application/pdf',
     'Subcontract SC-3100-2 Prairie Drywall', '3100', 'V1002', '2025-06-20'),
    ('doc-ce-3100-004', 'change_backup', 'CE-3100-004', 'box', '/Projects/3100/Change Events', 'CE-3100-004 backup.pdf',
     'application/pdf', 'CE-3100-004 backup', '3100', NULL, '2026-01-22'),
    ('doc-ce-3100-005', 'change_backup', 'CE-3100-005', 'box', '/Projects/3100/Change Events', 'CE-3100-005 backup.pdf',
     'application/pdf', 'CE-3100-005 backup', '3100', NULL, '2026-01-23'),
    ('doc-policy-change-pdf', 'policy', 'change_mgmt_policy.md', 'sharepoint', '/Policies', 'Change Management Policy.pdf',
     'application/pdf', 'Change Management Policy', NULL, NULL, '2025-01-01'),
    ('doc-policy-change-md', 'policy', 'change_mgmt_policy.md', 'sharepoint', '/Policies', 'change_mgmt_policy.md',
     'text/markdown', 'Change Management Policy', NULL, NULL, '2025-01-01'),
    ('doc-wb-wip', 'workbook', 'wip_schedule', 'excel', '/Close/2026-01', 'WIP 2026-01.xlsx',
     'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'WIP schedule January 2026', NULL, NULL, '2026-01-31'),
    ('doc-wb-accrual', 'workbook', 'accrual_schedule', 'excel', '/Close/2026-01', 'Sub accrual 2026-01.xlsx',
     'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Accrual schedule January 2026', NULL, NULL, '2026-01-31'),
    ('doc-wb-1099', 'workbook', 'vendor_1099', 'excel', '/Tax/1099', '1099 vendors 2025.xlsx',
     'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', '1099 vendor review 2025', NULL, NULL, '2026-01-31'),
    ('doc-wb-sov', 'workbook', 'sov_export', 'excel', '/Billing', 'SOV export.xlsx',
     'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Prime SOV export', NULL, NULL, '2026-01-31');

-- Mail: the AP and PM mailboxes (attachments are book.documents ids).
INSERT INTO book.emails VALUES
    ('m-jsm-1', 't-jsm', 'ap@companyA.com', 'Inbox', 'ar@jsmaterials.com', 'ap@companyA.com', NULL,
     'Invoice JSM-88421 - PO 9140-75', 'Hello,' || chr(10) || chr(10) ||
     'Please find attached our invoice JSM-88421 for structural fill on your project 9140 (PO 9140-75).' || chr(10) ||
     'Thank you,' || chr(10) || 'Accounts Receivable, Jackson Site & Materials', '2026-01-13 09:14:00', 'doc-inv-jsm-88421'),
    ('m-coi-1', 't-coi', 'ap@companyA.com', 'Sent', 'ap@companyA.com', 'billing@walshelectric.com', NULL,
     'Certificate of insurance expiring', 'Please send a renewed certificate.', '2026-01-10 08:40:00', NULL),
    ('m-coi-2', 't-coi', 'ap@companyA.com', 'Inbox', 'billing@walshelectric.com', 'ap@companyA.com', NULL,
     'RE: Certificate of insurance expiring', 'Renewed certificate attached.', '2026-01-23 14:21:00', 'doc-coi-v1000'),
    ('m-payapp-1', 't-payapp', 'pm@companyA.com', 'Inbox', 'owner@cityofspringfield.gov', 'pm@companyA.com',
     'controller@companyA.com', 'Pay Application #2 - status?',
     'When should we expect Pay Application #2 for the period ending January 31, 2026?', '2026-01-30 10:02:00', NULL),
    ('m-ppay-1', 't-ppay', 'ap@companyA.com', 'Inbox', 'cashpro.alerts@bankofamerica.com', 'ap@companyA.com', NULL,
     'Positive Pay: 3 exception items require a decision',
     'Account ending 6789 has 3 check exception items presented 01/31/2026. Decisions are due by 3:00 PM CT.',
     '2026-01-31 07:30:00', NULL),
    ('m-cp-1', 't-cp', 'ap@companyA.com', 'Inbox', 'payroll@companyA.com', 'ap@companyA.com', NULL,
     'Certified payroll and WIP for review', 'WH-347 for 1042 and the WIP workbook attached.',
     '2026-01-28 15:30:00', 'doc-wh347-1042-0124,doc-wb-wip'),
    ('m-draft-1', 't-draft', 'ap@companyA.com', 'Drafts', 'ap@companyA.com', 'pm@companyA.com', NULL,
     'Walsh pay request #3', 'Draft: routing Walsh pay request #3 for approval.', '2026-01-29 11:00:00', NULL);
