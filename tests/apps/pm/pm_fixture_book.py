"""A small hand-made Company-A book for the PM apps' tests (Procore, RedTeam Go,
INGENIOUS.BUILD, Ressio, SmarteBuild).

It holds the rows these apps read, with known answers: three jobs (commercial 1042, public 3100,
residential 9140), SC-1042-0 (Walsh Electrical, $632,000.00 = 620,000 + a 12,000 CO), pay
requests in every state (approved and synced, approved and NOT synced, under review, draft,
rejected, one on an unmapped cost code, one that bills past the commitment cap in RedTeam),
supplier bills on POs (one keyed only in Ressio and not booked, one over its PO), the pending
$101,700 change event on 3100, budgets with the PM forecast, estimates with BOQ items, funding
sources, a certified owner pay application, timecards, and the divergence rows that drive the
deliberate disagreements.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import duckdb

from cfab.schema.catalog import run_script, schema_ddl
from cfab.seeds.determinism import BuildInputs

CLOCK = date(2026, 1, 31)
D = Decimal
PM_APPS = ["procore", "redteam", "ingenious_build", "ressio", "smartbuild"]


def _vendor_rows() -> tuple[list[tuple], list[tuple]]:
    vendors = [
        ("V1000", "Walsh Electrical Contractors, LLC", None, "subcontractor", "Electrical", "36-4410001", "EIN",
         "llc_partnership", False, False, "41 W Ohio St", "Chicago", "IL", "60654", "ap@walshelectric.com",
         "312-555-0141", "Net 30", "active"),
        ("V1001", "JSM Supply Company", "JSM Supply", "supplier", "Materials", "36-4410002", "EIN", "c_corporation",
         False, True, "900 Industrial Dr", "Elk Grove Village", "IL", "60007", "billing@jsmsupply.com",
         "847-555-0122", "Net 30", "active"),
        ("V1002", "Keystone Concrete & Excavating, Inc.", None, "subcontractor", "Concrete", "36-4410003", "EIN",
         "s_corporation", False, False, "77 Quarry Rd", "Joliet", "IL", "60431", "office@keystonece.com",
         "815-555-0188", "Net 30", "active"),
        ("V1003", "Brightline Painting LLC", None, "subcontractor", "Painting", "36-4410004", "EIN",
         "llc_single_member", False, False, "15 Elm St", "Evanston", "IL", "60201", "bp@brightline.com",
         "847-555-0199", "Net 30", "active"),
        ("V1004", "Apex Plumbing & Mechanical Co.", None, "subcontractor", "Plumbing", "36-4410005", "EIN",
         "c_corporation", False, False, "310 Canal St", "Chicago", "IL", "60606", "ar@apexpm.com",
         "312-555-0177", "Net 30", "active"),
        ("V1005", "Walsh Electric Supply Inc.", None, "supplier", "Electrical supply", "36-4410006", "EIN",
         "c_corporation", False, True, "5 Dock St", "Gary", "IN", "46402", "orders@walshsupply.com",
         "219-555-0155", "Net 30", "active"),
    ]
    spell = {
        "V1000": {"procore": "Walsh Electrical", "vista_erp": "WALSH ELECTRICAL CONTR", "redteam": "Walsh Electrical Contractors",
                  "ingenious_build": "Walsh Electrical Contractors LLC", "ressio": "Walsh Electrical Contractors, LLC",
                  "smartbuild": "WALSH ELECTRICAL", "sage_intacct": "Walsh Electrical Contractors", "box": "Walsh Electrical Contractors, LLC"},
        "V1001": {"procore": "JSM Supply Co.", "vista_erp": "JSM SUPPLY CO", "redteam": "JSM Supply",
                  "ingenious_build": "JSM Supply Company", "ressio": "JSM Supply", "smartbuild": "JSM SUPPLY",
                  "sage_intacct": "JSM Supply Company", "box": "JSM Supply Company"},
        "V1002": {"procore": "Keystone Concrete", "vista_erp": "KEYSTONE CONCRETE & EXC", "redteam": "Keystone Concrete & Excavating",
                  "ingenious_build": "Keystone Concrete & Excavating, Inc.", "ressio": "Keystone Concrete",
                  "smartbuild": "KEYSTONE CONCRETE", "sage_intacct": "Keystone Concrete & Excavating", "box": "Keystone Concrete & Excavating, Inc."},
        "V1003": {"procore": "Brightline Painting", "vista_erp": "BRIGHTLINE PAINTING", "redteam": "Brightline Painting LLC",
                  "ingenious_build": "Brightline Painting LLC", "ressio": "Brightline Painting", "smartbuild": "BRIGHTLINE PAINTING",
                  "sage_intacct": "Brightline Painting LLC", "box": "Brightline Painting LLC"},
        "V1004": {"procore": "Apex Plumbing & Mechanical", "vista_erp": "APEX PLUMBING & MECH", "redteam": "Apex Plumbing",
                  "ingenious_build": "Apex Plumbing & Mechanical Co.", "ressio": "Apex Plumbing", "smartbuild": "APEX PLUMBING",
                  "sage_intacct": "Apex Plumbing & Mechanical", "box": "Apex Plumbing & Mechanical Co."},
        "V1005": {"procore": "Walsh Electric Supply", "vista_erp": "WALSH ELEC SUPPLY", "redteam": "Walsh Electric Supply",
                  "ingenious_build": "Walsh Electric Supply Inc.", "ressio": "Walsh Electric Supply", "smartbuild": "WALSH ELEC SUPPLY",
                  "sage_intacct": "Walsh Electric Supply", "box": "Walsh Electric Supply Inc."},
    }
    ids = {"procore": lambda n: str(4410287 + n), "vista_erp": lambda n: str(3010 + n),
           "redteam": lambda n: f"RT-C-{1000 + n}", "ingenious_build": lambda n: f"IB-C-{1000 + n}",
           "ressio": lambda n: f"RV-{1000 + n}", "smartbuild": lambda n: f"SUP-{1000 + n}",
           "sage_intacct": lambda n: f"V{1000 + n}", "box": lambda n: f"V{1000 + n}"}
    identities = []
    for v in vendors:
        n = int(v[0][1:]) - 1000
        for system, make in ids.items():
            identities.append((v[0], system, make(n), spell[v[0]][system]))
    return vendors, identities


def _rows() -> dict[str, list[tuple]]:
    r: dict[str, list[tuple]] = {}
    r["company"] = [("A", "Company A Construction, Inc.", "36-1234567", "companyA.com", "100 Main St",
                     "Chicago", "IL", "60601", "312-555-0100")]
    r["gl_accounts"] = [("1010", "Cash - Operating", "asset", "D", False, False),
                        ("2000", "Accounts Payable", "liability", "C", False, True),
                        ("2100", "Accrued Liabilities", "liability", "C", False, False),
                        ("2110", "Retainage Payable", "liability", "C", False, False),
                        ("4000", "Contract Revenue", "revenue", "C", False, False),
                        ("5100", "Material Cost", "expense", "D", True, False),
                        ("5200", "Subcontract Cost", "expense", "D", True, False)]
    r["gl_periods"] = [(f"2025-{m:02d}", date(2025, m, 1), date(2025, m + 1, 1) - timedelta(days=1), "closed")
                       for m in range(7, 12)]
    r["gl_periods"] += [("2025-12", date(2025, 12, 1), date(2025, 12, 31), "closed"),
                        ("2026-01", date(2026, 1, 1), date(2026, 1, 31), "open")]
    r["cost_codes"] = [
        ("01-500", "Temporary facilities and controls", "01", "O"),
        ("01-900", "Contingency", "01", "O"),
        ("03-300", "Cast-in-place concrete", "03", "S"),
        ("06-100", "Rough carpentry", "06", "M"),
        ("09-900", "Painting and coating", "09", "S"),
        ("22-100", "Plumbing piping", "22", "S"),
        ("26-100", "Electrical - power distribution", "26", "S"),
        ("26-500", "Electrical - lighting", "26", "S"),
        ("31-200", "Earthwork - excavation and fill", "31", "S"),
    ]
    # 01-900 (PM-only contingency) and 09-900 are deliberately unmapped.
    r["erp_phase_map"] = [
        ("01-500", "01-500-00", 5, None), ("03-300", "03-300-00", 3, None), ("06-100", "06-100-00", 2, None),
        ("22-100", "15-100-00", 3, "legacy 16-division plumbing phase"), ("26-100", "16-100-00", 3, None),
        ("26-500", "16-500-00", 3, "lighting kept apart from power in the ERP"), ("31-200", "02-200-00", 3, None),
    ]
    r["owners"] = [
        ("O100", "Riverside Health Partners LLC", "private", "Morgan Lee", "mlee@riversidehealth.com", "1 Health Plz"),
        ("O101", "Lakeview School District 12", "public", "Pat Owens", "powens@lsd12.org", "12 School St"),
        ("O102", "Maple Grove Homes LLC", "private", "Jamie Cruz", "jcruz@maplegrovehomes.com", "8 Maple Ave"),
    ]
    r["jobs"] = [
        ("1042", "Riverside Medical Office Building", "O100", "active", "commercial", False, date(2025, 4, 1),
         date(2026, 10, 31), "Dana Whitfield", "dana.whitfield@companyA.com", "Sam Ortiz", "1200 River Rd",
         "Chicago", "IL", "Cook", D("1050000.00")),
        ("3100", "Lakeview Elementary Addition", "O101", "active", "public", True, date(2025, 6, 1),
         date(2026, 8, 15), "Riley Chen", "riley.chen@companyA.com", "Jo Park", "12 School St", "Evanston", "IL",
         "Cook", D("700000.00")),
        ("9140", "Maple Grove Townhomes Phase 2", "O102", "active", "residential", False, date(2025, 9, 1),
         date(2026, 12, 31), "Avery Stone", "avery.stone@companyA.com", "Lou Grant", "8 Maple Ave", "Naperville",
         "IL", "DuPage", D("400000.00")),
    ]
    r["prime_contracts"] = [
        ("1042", "PC-1042", "O100", D("2400000.00"), D("10.0000"), D("5.0000"), D("50.0000"), date(2025, 3, 20), "executed"),
        ("3100", "PC-3100", "O101", D("1500000.00"), D("10.0000"), None, None, date(2025, 5, 15), "executed"),
        ("9140", "PC-9140", "O102", D("900000.00"), D("10.0000"), None, None, date(2025, 8, 20), "executed"),
    ]
    r["prime_sov_lines"] = [
        ("1042", 1, "001", "General conditions", "01-500", D("200000.00"), "original", None),
        ("1042", 2, "002", "Electrical - power distribution", "26-100", D("1300000.00"), "original", None),
        ("1042", 3, "003", "Electrical - lighting", "26-500", D("900000.00"), "original", None),
        ("1042", 4, "004", "CO 1 - exam room circuits", "26-100", D("25000.00"), "change_order", "PCO-1042-001"),
        ("3100", 1, "001", "Earthwork", "31-200", D("400000.00"), "original", None),
        ("3100", 2, "002", "Concrete", "03-300", D("650000.00"), "original", None),
        ("3100", 3, "003", "Plumbing", "22-100", D("450000.00"), "original", None),
        ("9140", 1, "001", "Framing", "06-100", D("500000.00"), "original", None),
        ("9140", 2, "002", "Painting", "09-900", D("400000.00"), "original", None),
    ]
    dec31, jan31 = date(2025, 12, 31), CLOCK
    r["sov_progress"] = [
        ("1042", 1, dec31, D("40.0000"), D("80000.00"), D("0.00")),
        ("1042", 2, dec31, D("30.0000"), D("390000.00"), D("0.00")),
        ("1042", 3, dec31, D("20.0000"), D("180000.00"), D("0.00")),
        ("1042", 4, dec31, D("0.0000"), D("0.00"), D("0.00")),
        ("1042", 1, jan31, D("50.0000"), D("100000.00"), D("0.00")),
        ("1042", 2, jan31, D("42.5000"), D("552500.00"), D("15000.00")),
        ("1042", 3, jan31, D("30.0000"), D("270000.00"), D("0.00")),
        ("1042", 4, jan31, D("40.0000"), D("10000.00"), D("0.00")),
        ("3100", 1, jan31, D("60.0000"), D("240000.00"), D("0.00")),
        ("3100", 2, jan31, D("35.0000"), D("227500.00"), D("0.00")),
        ("3100", 3, jan31, D("10.0000"), D("45000.00"), D("0.00")),
        ("9140", 1, jan31, D("25.0000"), D("125000.00"), D("0.00")),
        ("9140", 2, jan31, D("0.0000"), D("0.00"), D("0.00")),
    ]
    r["owner_pay_apps"] = [
        ("1042", 1, date(2025, 12, 1), dec31, "certified", date(2026, 1, 5), date(2026, 1, 12), D("2400000.00"),
         D("25000.00"), D("650000.00"), D("65000.00"), D("0.00"), D("585000.00"), None),
    ]
    r["owner_pay_app_lines"] = [
        ("1042", 1, 1, D("200000.00"), D("0.00"), D("80000.00"), D("0.00"), D("80000.00"), D("8000.00")),
        ("1042", 1, 2, D("1300000.00"), D("0.00"), D("390000.00"), D("0.00"), D("390000.00"), D("39000.00")),
        ("1042", 1, 3, D("900000.00"), D("0.00"), D("180000.00"), D("0.00"), D("180000.00"), D("18000.00")),
        ("1042", 1, 4, D("25000.00"), D("0.00"), D("0.00"), D("0.00"), D("0.00"), D("0.00")),
    ]
    r["change_events"] = [
        ("CE-1042-001", "1042", 1, "Added exam room circuits", "Owner requested 14 added exam room circuits",
         "owner_request", "out_of_scope", D("25000.00"), "closed", None),
        ("CE-1042-002", "1042", 2, "Lighting to power budget transfer", "Move lighting savings to power distribution",
         "internal_transfer", "in_scope", D("15000.00"), "closed", None),
        ("CE-3100-004", "3100", 4, "Unsuitable soils at new wing", "Over-excavate and replace unsuitable soils "
         "found at the new wing footprint", "unforeseen_condition", "out_of_scope", D("101700.00"), "pending",
         "DOC-CE-3100-004"),
    ]
    r["change_orders"] = [
        ("PCO-1042-001", "1042", "owner", 1, "CE-1042-001", None, "Added exam room circuits", D("25000.00"), True,
         "approved", date(2025, 11, 20)),
        ("CCO-1042-SC-1042-0-01", "1042", "commitment", 1, "CE-1042-001", "SC-1042-0", "Exam room circuits",
         D("12000.00"), False, "approved", date(2025, 11, 25)),
        ("ICO-1042-001", "1042", "internal", 1, "CE-1042-002", None, "Transfer lighting budget to power",
         D("15000.00"), False, "approved", date(2025, 12, 10)),
    ]
    r["change_order_lines"] = [
        ("PCO-1042-001", 1, "26-100", D("25000.00")),
        ("CCO-1042-SC-1042-0-01", 1, "26-100", D("12000.00")),
        ("ICO-1042-001", 1, "26-100", D("15000.00")),
        ("ICO-1042-001", 2, "26-500", D("-15000.00")),
    ]
    r["budget_lines"] = [
        ("1042", "01-500", D("180000.00"), D("0.00"), D("180000.00"), D("90000.00"), D("100000.00"), True),
        ("1042", "01-900", D("60000.00"), D("0.00"), D("60000.00"), D("45000.00"), D("0.00"), False),
        ("1042", "26-100", D("1100000.00"), D("40000.00"), D("1140000.00"), D("610000.00"), D("650000.00"), True),
        ("1042", "26-500", D("760000.00"), D("-15000.00"), D("745000.00"), D("480000.00"), D("500000.00"), True),
        ("1042", "03-300", D("100000.00"), D("0.00"), D("100000.00"), D("60000.00"), D("60000.00"), True),
        ("1042", "31-200", D("80000.00"), D("0.00"), D("80000.00"), D("0.00"), D("0.00"), True),
        ("3100", "03-300", D("560000.00"), D("0.00"), D("560000.00"), D("380000.00"), D("360000.00"), True),
        ("3100", "22-100", D("380000.00"), D("0.00"), D("380000.00"), D("300000.00"), D("280000.00"), True),
        ("3100", "31-200", D("340000.00"), D("0.00"), D("340000.00"), D("150000.00"), D("140000.00"), True),
        ("9140", "06-100", D("420000.00"), D("0.00"), D("420000.00"), D("310000.00"), D("300000.00"), True),
        ("9140", "09-900", D("330000.00"), D("0.00"), D("330000.00"), D("330000.00"), D("320000.00"), True),
    ]
    r["estimates"] = [
        ("EST-1042", "1042", "Riverside MOB - electrical and general conditions", date(2025, 2, 15), "awarded",
         D("2040000.00"), D("17.6471"), D("2400000.00")),
        ("EST-3100", "3100", "Lakeview Elementary Addition", date(2025, 4, 30), "awarded", D("1280000.00"),
         D("17.1875"), D("1500000.00")),
        ("EST-9140", "9140", "Maple Grove Townhomes Phase 2", date(2025, 7, 30), "awarded", D("750000.00"),
         D("20.0000"), D("900000.00")),
    ]
    r["estimate_items"] = [
        ("EST-1042", 1, "01-500", "General conditions", D("10.0000"), "MO", D("18000.0000"), D("180000.00")),
        ("EST-1042", 2, "26-100", "Power distribution", D("40000.0000"), "LF", D("27.5000"), D("1100000.00")),
        ("EST-1042", 3, "26-500", "Lighting fixtures installed", D("1900.0000"), "EA", D("400.0000"), D("760000.00")),
        ("EST-3100", 1, "31-200", "Mass excavation and fill", D("8500.0000"), "CY", D("40.0000"), D("340000.00")),
        ("EST-3100", 2, "03-300", "Foundations and slabs", D("1400.0000"), "CY", D("400.0000"), D("560000.00")),
        ("EST-3100", 3, "22-100", "Plumbing", D("1.0000"), "LS", D("380000.0000"), D("380000.00")),
        ("EST-9140", 1, "06-100", "Wall and floor framing", D("24000.0000"), "SF", D("17.5000"), D("420000.00")),
        ("EST-9140", 2, "09-900", "Interior painting", D("55000.0000"), "SF", D("6.0000"), D("330000.00")),
    ]
    r["funding_sources"] = [
        ("1042", "FS-1", "Sponsor equity - Riverside Health Partners", "equity", D("600000.00"), D("450000.00")),
        ("1042", "FS-2", "Construction loan - First Midwest Bank", "loan", D("2000000.00"), D("300000.00")),
        ("9140", "FS-1", "Developer equity - Maple Grove Homes", "equity", D("250000.00"), D("250000.00")),
        ("9140", "FS-2", "Construction loan - Lakeshore Savings", "loan", D("700000.00"), D("100000.00")),
        ("9140", "FS-3", "Municipal workforce housing grant", "grant", D("50000.00"), D("10000.00")),
    ]
    vendors, identities = _vendor_rows()
    r["vendors"] = vendors
    r["vendor_identities"] = identities
    r["certificates_of_insurance"] = [
        ("COI-V1000-GL", "V1000", "Zurich", "GL-1000", "general_liability", D("1000000.00"), D("2000000.00"),
         date(2025, 7, 1), date(2026, 6, 30), "Company A Construction, Inc.", True, None),
        ("COI-V1002-GL", "V1002", "Travelers", "GL-1002", "general_liability", D("1000000.00"), D("2000000.00"),
         date(2025, 1, 16), date(2026, 1, 15), "Company A Construction, Inc.", True, None),
        ("COI-V1003-GL", "V1003", "Hartford", "GL-1003", "general_liability", D("1000000.00"), D("2000000.00"),
         date(2025, 1, 11), date(2026, 1, 10), "Company A Construction, Inc.", True, None),
        ("COI-V1004-GL", "V1004", "Chubb", "GL-1004", "general_liability", D("1000000.00"), D("2000000.00"),
         date(2025, 10, 1), date(2026, 9, 30), "Company A Construction, Inc.", True, None),
    ]
    r["commitments"] = [
        ("SC-1042-0", "1042", "V1000", "subcontract", "1042-01", "Electrical - power and lighting", "approved",
         D("620000.00"), D("12000.00"), D("632000.00"), D("10.0000"), date(2025, 4, 15), True, None),
        ("SC-1042-1", "1042", "V1002", "subcontract", "1042-02", "Site concrete and excavation", "approved",
         D("180000.00"), D("0.00"), D("180000.00"), D("10.0000"), date(2025, 5, 1), False, None),
        ("PO-1042-2", "1042", "V1001", "purchase_order", "1042-03", "Lighting fixtures supply", "approved",
         D("38500.00"), D("0.00"), D("38500.00"), D("0.0000"), date(2025, 6, 1), True, None),
        ("SC-3100-0", "3100", "V1004", "subcontract", "3100-01", "Plumbing", "approved",
         D("300000.00"), D("0.00"), D("300000.00"), D("10.0000"), date(2025, 6, 20), True, None),
        ("SC-3100-1", "3100", "V1003", "subcontract", "3100-02", "Painting", "approved",
         D("40000.00"), D("0.00"), D("40000.00"), D("5.0000"), date(2025, 7, 1), True, None),
        ("PO-9140-2", "9140", "V1001", "purchase_order", "9140-75", "Framing lumber package", "approved",
         D("14350.00"), D("0.00"), D("14350.00"), D("0.0000"), date(2025, 10, 1), True, None),
        ("PO-9140-3", "9140", "V1001", "purchase_order", "9140-76", "Trim and millwork", "approved",
         D("22000.00"), D("0.00"), D("22000.00"), D("0.0000"), date(2025, 11, 1), True, None),
        ("SC-9140-1", "9140", "V1003", "subcontract", "9140-02", "Interior painting", "draft",
         D("60000.00"), D("0.00"), D("60000.00"), D("10.0000"), date(2026, 1, 20), False, None),
    ]
    r["commitment_lines"] = [
        ("SC-1042-0", 1, "26-100", "Power distribution", D("380000.00"), D("60.0000"), D("228000.00")),
        ("SC-1042-0", 2, "26-500", "Lighting", D("240000.00"), D("50.0000"), D("120000.00")),
        ("SC-1042-0", 3, "26-100", "CO 1 - exam room circuits", D("12000.00"), D("50.0000"), D("6000.00")),
        ("SC-1042-1", 1, "31-200", "Excavation", D("80000.00"), D("100.0000"), D("80000.00")),
        ("SC-1042-1", 2, "03-300", "Site concrete", D("100000.00"), D("40.0000"), D("40000.00")),
        ("PO-1042-2", 1, "26-500", "Light fixtures", D("38500.00"), D("100.0000"), D("38500.00")),
        ("SC-3100-0", 1, "22-100", "Plumbing rough-in", D("200000.00"), D("50.0000"), D("100000.00")),
        ("SC-3100-0", 2, "22-100", "Fixtures and trim", D("100000.00"), D("0.0000"), D("0.00")),
        ("SC-3100-1", 1, "09-900", "Painting", D("40000.00"), D("25.0000"), D("10000.00")),
        ("PO-9140-2", 1, "06-100", "Framing lumber", D("14350.00"), D("100.0000"), D("14350.00")),
        ("PO-9140-3", 1, "06-100", "Trim and millwork", D("22000.00"), D("0.0000"), D("0.00")),
        ("SC-9140-1", 1, "09-900", "Interior painting", D("60000.00"), D("0.0000"), D("0.00")),
    ]

    def inv(iid, vendor, job, cid, number, req, idate, gross, ret, pm, erp, synced, paid, desc, ps=None, pe=None):
        return (iid, vendor, job, cid, number, req, idate, idate + timedelta(days=30), ps, pe, D(gross), D(ret),
                D(gross) - D(ret), pm, erp, synced, D(paid), desc, None)

    r["ap_invoices"] = [
        inv("INV-WE-1001", "V1000", "1042", "SC-1042-0", "WE-1001", 1, date(2025, 10, 31), "100000.00", "10000.00",
            "approved", "posted", True, "90000.00", "Pay application #1", date(2025, 10, 1), date(2025, 10, 31)),
        inv("INV-WE-1002", "V1000", "1042", "SC-1042-0", "WE-1002", 2, date(2025, 11, 30), "120000.00", "12000.00",
            "approved", "posted", True, "108000.00", "Pay application #2", date(2025, 11, 1), date(2025, 11, 30)),
        inv("INV-WE-1003", "V1000", "1042", "SC-1042-0", "WE-1003", 3, date(2025, 12, 31), "95000.00", "9500.00",
            "approved", "unposted", True, "0.00", "Pay application #3", date(2025, 12, 1), date(2025, 12, 31)),
        inv("INV-WE-1004", "V1000", "1042", "SC-1042-0", "WE-1004", 4, date(2026, 1, 31), "60000.00", "6000.00",
            "approved", "not_entered", False, "0.00", "Pay application #4", date(2026, 1, 1), date(2026, 1, 31)),
        inv("INV-WE-1005", "V1000", "1042", "SC-1042-0", "WE-1005", 5, date(2026, 1, 31), "45000.00", "4500.00",
            "under_review", "not_entered", False, "0.00", "Pay application #5 (stored materials)",
            date(2026, 1, 1), date(2026, 1, 31)),
        inv("INV-KC-501", "V1002", "1042", "SC-1042-1", "KC-501", 1, date(2025, 12, 15), "80000.00", "8000.00",
            "approved", "not_entered", False, "0.00", "Excavation complete"),
        inv("INV-KC-502", "V1002", "1042", "SC-1042-1", "KC-502", 2, date(2026, 1, 25), "40000.00", "4000.00",
            "under_review", "not_entered", False, "0.00", "Site concrete progress"),
        inv("INV-AP-77", "V1004", "3100", "SC-3100-0", "AP-77", 1, date(2025, 12, 20), "100000.00", "10000.00",
            "approved", "posted", True, "90000.00", "Rough-in"),
        inv("INV-AP-78", "V1004", "3100", "SC-3100-0", "AP-78", 2, date(2026, 1, 28), "30000.00", "3000.00",
            "draft", "not_entered", False, "0.00", "Fixtures (draft)"),
        inv("INV-AP-80", "V1004", "3100", "SC-3100-0", "AP-80", 3, date(2026, 1, 29), "5000.00", "500.00",
            "rejected", "not_entered", False, "0.00", "Fixtures (rejected: billed ahead)"),
        inv("INV-BP-12", "V1003", "3100", "SC-3100-1", "BP-12", 1, date(2026, 1, 20), "10000.00", "500.00",
            "approved", "not_entered", False, "0.00", "Painting progress"),
        inv("INV-JSM-88007", "V1001", "1042", "PO-1042-2", "JSM-88007", None, date(2025, 7, 15), "38500.00", "0.00",
            None, "posted", False, "38500.00", "Light fixtures delivered"),
        inv("INV-JSM-88421", "V1001", "9140", "PO-9140-2", "JSM-88421", None, date(2026, 1, 22), "14350.00", "0.00",
            None, "not_entered", False, "0.00", "Framing lumber package"),
        inv("INV-JSM-88500", "V1001", "9140", "PO-9140-3", "JSM-88500", None, date(2026, 1, 26), "8200.00", "0.00",
            None, "not_entered", False, "0.00", "Trim delivery 1 of 3"),
        inv("INV-JSM-88512", "V1001", "9140", "PO-9140-3", "JSM-88512", None, date(2026, 1, 29), "24750.00", "0.00",
            None, "not_entered", False, "0.00", "Trim and millwork - full package"),
        inv("INV-BP-9", "V1003", "1042", None, "BP-9", None, date(2025, 12, 5), "2400.00", "0.00",
            None, "posted", False, "2400.00", "Touch-up painting of temporary facilities"),
    ]
    r["ap_invoice_lines"] = [
        ("INV-WE-1001", 1, 1, "26-100", "Power distribution", D("100000.00"), D("10000.00")),
        ("INV-WE-1002", 1, 1, "26-100", "Power distribution", D("70000.00"), D("7000.00")),
        ("INV-WE-1002", 2, 2, "26-500", "Lighting", D("50000.00"), D("5000.00")),
        ("INV-WE-1003", 1, 1, "26-100", "Power distribution", D("40000.00"), D("4000.00")),
        ("INV-WE-1003", 2, 2, "26-500", "Lighting", D("50000.00"), D("5000.00")),
        ("INV-WE-1003", 3, 3, "26-100", "CO 1 - exam room circuits", D("5000.00"), D("500.00")),
        ("INV-WE-1004", 1, 1, "26-100", "Power distribution", D("38000.00"), D("3800.00")),
        ("INV-WE-1004", 2, 2, "26-500", "Lighting", D("20000.00"), D("2000.00")),
        ("INV-WE-1004", 3, 3, "26-100", "CO 1 - exam room circuits", D("2000.00"), D("200.00")),
        ("INV-WE-1005", 1, 1, "26-100", "Power distribution", D("25000.00"), D("2500.00")),
        ("INV-WE-1005", 2, 2, "26-500", "Lighting", D("20000.00"), D("2000.00")),
        ("INV-KC-501", 1, 1, "31-200", "Excavation", D("80000.00"), D("8000.00")),
        ("INV-KC-502", 1, 2, "03-300", "Site concrete", D("40000.00"), D("4000.00")),
        ("INV-AP-77", 1, 1, "22-100", "Plumbing rough-in", D("100000.00"), D("10000.00")),
        ("INV-AP-78", 1, 2, "22-100", "Fixtures and trim", D("30000.00"), D("3000.00")),
        ("INV-AP-80", 1, 2, "22-100", "Fixtures and trim", D("5000.00"), D("500.00")),
        ("INV-BP-12", 1, 1, "09-900", "Painting", D("10000.00"), D("500.00")),
        ("INV-JSM-88007", 1, 1, "26-500", "Light fixtures", D("38500.00"), D("0.00")),
        ("INV-JSM-88421", 1, 1, "06-100", "Framing lumber", D("14350.00"), D("0.00")),
        ("INV-JSM-88500", 1, 1, "06-100", "Trim delivery 1", D("8200.00"), D("0.00")),
        ("INV-JSM-88512", 1, 1, "06-100", "Trim and millwork package", D("24750.00"), D("0.00")),
        ("INV-BP-9", 1, None, "01-500", "Touch-up painting", D("2400.00"), D("0.00")),
    ]
    r["employees"] = [
        ("E1001", "Maria", "Lopez", "1111", "Electrician", "Electrician", "journeyman", None, None, None,
         D("47.0000"), D("30.1200"), date(2019, 4, 1), "active"),
        ("E1002", "Tom", "Becker", "2222", "Laborer", "Laborer", "journeyman", None, None, None,
         D("36.2500"), D("25.0000"), date(2021, 8, 9), "active"),
        ("E1003", "Ahmed", "Khan", "3333", "Electrician", "Electrician", "apprentice", "IL-APP-5521", D("60.0000"),
         None, D("28.2000"), D("12.0000"), date(2024, 2, 1), "active"),
    ]
    tc = []
    for offset in range(5):
        day = date(2026, 1, 26) + timedelta(days=offset)
        tc.append((f"TC-E1001-{day}", "E1001", "1042", day, "26-100", D("8.00"), D("0.00"), "rhumbix", True))
        tc.append((f"TC-E1003-{day}", "E1003", "1042", day, "26-100", D("8.00"), D("0.00"), "rhumbix", offset < 4))
        tc.append((f"TC-E1002-{day}", "E1002", "1042", day, "01-500", D("8.00"), D("1.00"), "rhumbix", True))
    r["timecards"] = tc
    r["documents"] = [
        ("DOC-CE-3100-004", "change_backup", "CE-3100-004", "box", "/Projects/3100/Change Events",
         "CE-3100-004_geotech_memo.pdf", "application/pdf", "Geotechnical memo - unsuitable soils", "3100", None,
         date(2026, 1, 27)),
    ]

    def div(kind, entity, key, field, apps, family, reason):
        return (f"{kind}:{key}", kind, entity, key, field, apps, family, reason)

    pm_and_erp = "procore,redteam,ingenious_build,ressio,smartbuild,vista_erp,sage_intacct"
    r["divergences"] = [
        *[div("vendor_spelling", "vendor", v[0], "name", pm_and_erp, "C_coi_hold", "each system spells the vendor its own way")
          for v in vendors],
        div("coi_status_stale", "vendor", "V1002", "insurance_status", "procore,box", "C_coi_hold",
            "Procore shows the insurance as current; the certificate expired 2026-01-15"),
        div("pending_change_event", "change_event", "3100|4", "presence", "procore,vista_erp", "A_change_order",
            "logged in Procore, not yet set up in the ERP"),
        div("unsynced_invoice", "invoice", "V1000|WE-1004", "presence", "procore,vista_erp", "H_procore_erp_sync",
            "approved in Procore, not synced"),
        div("unsynced_invoice", "invoice", "V1002|KC-501", "presence", "procore,vista_erp", "H_procore_erp_sync",
            "approved in Procore, not synced"),
        div("unsynced_invoice", "invoice", "V1003|BP-12", "presence", "procore,vista_erp", "H_procore_erp_sync",
            "approved in Procore, not synced (cost code has no ERP mapping)"),
        div("unsynced_commitment", "commitment", "SC-1042-1", "presence", "procore,vista_erp", "H_procore_erp_sync",
            "approved in Procore, not synced"),
        # one instance per compared amount field (the checker matches entity, key and field)
        *[(f"commitment_cap_exceeded:V1000|WE-1005:{f}", "commitment_cap_exceeded", "invoice", "V1000|WE-1005", f,
           "redteam,procore", "PM_redteam", "the eApp bills past the remaining commitment")
          for f in ("gross_amount", "retainage_amount", "net_amount")],
        div("unentered_invoice", "invoice", "V1001|JSM-88421", "presence", "box,procore,vista_erp", "C_invoice_code",
            "emailed PDF, not entered anywhere"),
        div("bill_po_mismatch", "invoice", "V1001|JSM-88512", "amount", "ressio,vista_erp", "PM_ressio",
            "the bill is more than what is open on PO 9140-76"),
        div("unbooked_bill", "invoice", "V1001|JSM-88500", "presence", "ressio,vista_erp", "PM_ressio",
            "keyed in Ressio, not yet booked in the ERP"),
        *[div("pm_forecast_vs_erp_estimate", "job", j, "est_cost_to_complete",
              "procore,ingenious_build,smartbuild,vista_erp", "A_etc_forecast", "PM forecast newer than the ERP estimate")
          for j in ("1042", "3100", "9140")],
    ]
    return r


ORDER = ["company", "gl_accounts", "gl_periods", "cost_codes", "erp_phase_map", "owners", "jobs", "prime_contracts", "prime_sov_lines",
         "sov_progress", "owner_pay_apps", "owner_pay_app_lines", "change_events", "change_orders",
         "change_order_lines", "budget_lines", "estimates", "estimate_items", "funding_sources", "vendors",
         "vendor_identities", "certificates_of_insurance", "commitments", "commitment_lines", "ap_invoices",
         "ap_invoice_lines", "employees", "timecards", "documents", "divergences"]


def load_fixture_book(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple]]:
    """Insert the fixture rows into an existing book schema; returns them."""
    rows = _rows()
    for table in ORDER:
        data = rows[table]
        marks = ", ".join("?" for _ in data[0])
        con.executemany(f"INSERT INTO book.{table} VALUES ({marks})", [list(r) for r in data])
    return rows


def build_fixture_golden(out: Path, apps: list[str], clock: date = CLOCK) -> Path:
    """A golden file: cfab_internal + the fixture book + hh2 + ``apps`` projected."""
    from cfab.apps.registry import load_all

    registry = load_all()
    inputs = BuildInputs(clock=clock)
    con = duckdb.connect()
    try:
        con.execute(f"ATTACH '{out}' AS golden (BLOCK_SIZE 16384)")
        con.execute("USE golden")
        run_script(con, schema_ddl("cfab_internal"))
        con.executemany("INSERT INTO cfab_internal.meta VALUES (?, ?)",
                        [("seed", "7"), ("clock", clock.isoformat()), ("scale", "1"), ("apps", ",".join(apps))])
        run_script(con, schema_ddl("book"))
        load_fixture_book(con)
        for name in dict.fromkeys(["hh2", *apps]):
            registry[name].seed(con, inputs)
        con.execute("CHECKPOINT golden")
        con.execute("USE memory")
        con.execute("DETACH golden")
    finally:
        con.close()
    return out
