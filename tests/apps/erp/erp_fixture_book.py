"""A small hand-made Company-A book for the ERP archetype's tests (the generator's book is not
required): three jobs, four vendors known to all eight ERPs under their own ids and spellings,
SC-1042-0 (Walsh Electrical, $632,000, synced), an unsynced subcontract, a synced PO, a posted,
an unposted and a never-entered invoice, posted GL history, a closed and an open period, an
approved owner CO and an internal transfer, and a check register."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import duckdb

from cfab.schema.catalog import run_script, schema_ddl
from cfab.seeds.determinism import BuildInputs

CLOCK = date(2026, 1, 31)
D = Decimal
ERPS = ["vista_erp", "sage_intacct", "foundation_erp", "cmic", "acumatica_construction", "sage300cre", "qbo",
        "computerease"]
VENDORS = {  # vendor_key -> (legal name, {system: (id, spelling)})
    "V1000": "Walsh Electrical Contractors, LLC",
    "V1001": "JSM Supply Company",
    "V1002": "Midwest Concrete & Masonry Inc.",
    "V1003": "Walsh Electric Supply Inc.",
}
SYS_IDS = {
    "vista_erp": {"V1000": ("20147", "WALSH ELECTRICAL CONTR"), "V1001": ("20152", "JSM Supply Co"),
                  "V1002": ("20160", "Midwest Concrete & Masonry Inc."), "V1003": ("20148", "Walsh Electric Supply Inc.")},
    "sage_intacct": {k: (k, None) for k in VENDORS},
    "foundation_erp": {"V1000": ("WALSH01", None), "V1001": ("JSM01", None), "V1002": ("MIDW01", None),
                       "V1003": ("WALSH02", None)},
    "cmic": {"V1000": ("WALELE", None), "V1001": ("JSMSUP", None), "V1002": ("MIDCON", None), "V1003": ("WALSUP", None)},
    "acumatica_construction": {"V1000": ("V000101", None), "V1001": ("V000102", None), "V1002": ("V000103", None),
                               "V1003": ("V000104", None)},
    "sage300cre": {"V1000": ("WALSH", None), "V1001": ("JSM", None), "V1002": ("MIDWEST", None), "V1003": ("WALSHSUP", None)},
    "qbo": {"V1000": ("58", None), "V1001": ("59", None), "V1002": ("60", None), "V1003": ("61", None)},
    "computerease": {"V1000": ("1000", None), "V1001": ("1001", None), "V1002": ("1002", None), "V1003": ("1003", None)},
}


def _rows() -> dict[str, list[tuple]]:
    r: dict[str, list[tuple]] = {}
    r["company"] = [("A", "Company A Construction, Inc.", "36-1234567", "companyA.com", "100 Main St", "Chicago",
                     "IL", "60601", "312-555-0100")]
    r["gl_accounts"] = [("1010", "Cash - Operating", "asset", "D", False, False),
                        ("2000", "Accounts Payable", "liability", "C", False, True),
                        ("2100", "Accrued Liabilities", "liability", "C", False, False),
                        ("2110", "Retainage Payable", "liability", "C", False, False),
                        ("4000", "Contract Revenue", "revenue", "C", False, False),
                        ("5100", "Material Cost", "expense", "D", True, False),
                        ("5200", "Subcontract Cost", "expense", "D", True, False)]
    r["gl_periods"] = [("2025-11", date(2025, 11, 1), date(2025, 11, 30), "closed"),
                       ("2025-12", date(2025, 12, 1), date(2025, 12, 31), "closed"),
                       ("2026-01", date(2026, 1, 1), date(2026, 1, 31), "open")]
    r["cost_codes"] = [("26-100", "Electrical - branch wiring", "26", "S"),
                       ("26-200", "Electrical - lighting", "26", "S"),
                       ("03-300", "Cast-in-place concrete", "03", "S"),
                       ("31-200", "Earthwork - excavation and fill", "31", "S"),
                       ("05-100", "Structural steel supply", "05", "M")]
    r["erp_phase_map"] = [("26-100", "16-100-00", 3, None),
                          ("26-200", "16-100-00", 3, "lighting rolls into the legacy electrical phase"),
                          ("03-300", "03-300-00", 3, None), ("31-200", "02-200-00", 3, None),
                          ("05-100", "05-100-00", 2, None)]
    r["owners"] = [("O100", "Cook County DOT", "public", "Pat Owner", "pat@cookcounty.gov", "1 County Plz"),
                   ("O101", "Lakeview Partners LLC", "private", "Lee Park", "lee@lakeview.com", "9 Lake St")]
    job = lambda n, name, owner, etc: (n, name, owner, "active", "commercial", False, date(2025, 3, 1),  # noqa: E731
                                       date(2026, 9, 30), "Dana PM", "dana@companyA.com", "Sam Super", "1 Site Rd",
                                       "Chicago", "IL", "Cook", D(etc))
    r["jobs"] = [job("1042", "County Courthouse Renovation", "O100", "1200000.00"),
                 job("3100", "Lakeview Medical Office", "O101", "800000.00"),
                 job("9140", "North Yard Warehouse", "O101", "150000.00")]
    r["prime_contracts"] = [("1042", "CC-1042", "O100", D("2000000.00"), D("10.0000"), None, None, date(2025, 2, 15), "executed"),
                            ("3100", "LV-3100", "O101", D("1500000.00"), D("10.0000"), D("5.0000"), D("50.0000"),
                             date(2025, 5, 20), "executed"),
                            ("9140", "NY-9140", "O101", D("400000.00"), D("10.0000"), None, None, date(2025, 7, 1), "executed")]
    r["prime_sov_lines"] = [("1042", 1, "001", "Electrical", "26-100", D("1200000.00"), "original", None),
                            ("1042", 2, "002", "Concrete", "03-300", D("800000.00"), "original", None),
                            ("1042", 3, "003", "Added lighting (CO 1)", "26-200", D("25000.00"), "change_order", "PCO-1042-001"),
                            ("3100", 1, "001", "Sitework", "31-200", D("1500000.00"), "original", None),
                            ("9140", 1, "001", "Building", "05-100", D("400000.00"), "original", None)]
    r["change_events"] = [("CE-1042-001", "1042", 1, "Lighting add", "Owner requested lighting", "owner_request",
                           "out_of_scope", D("25000.00"), "closed", None),
                          ("CE-3100-002", "3100", 2, "Rock", "Rock excavation", "internal_transfer", "in_scope",
                           D("15000.00"), "closed", None),
                          ("CE-3100-004", "3100", 4, "Scope change", "Scope change", "unforeseen_condition", "in_scope",
                           D("101700.00"), "open", None)]
    r["change_orders"] = [("PCO-1042-001", "1042", "owner", 1, "CE-1042-001", None, "Owner lighting add", D("25000.00"),
                           True, "approved", date(2025, 11, 10)),
                          ("ICO-3100-001", "3100", "internal", 1, "CE-3100-002", None, "Rock excavation transfer",
                           D("15000.00"), False, "approved", date(2025, 12, 5))]
    r["change_order_lines"] = [("PCO-1042-001", 1, "26-200", D("25000.00")), ("ICO-3100-001", 1, "31-200", D("15000.00"))]
    r["budget_lines"] = [("1042", "26-100", D("1000000.00"), D("0.00"), D("1000000.00"), D("600000.00"), D("650000.00"), True),
                         ("1042", "26-200", D("0.00"), D("25000.00"), D("25000.00"), D("20000.00"), D("25000.00"), True),
                         ("1042", "03-300", D("700000.00"), D("0.00"), D("700000.00"), D("500000.00"), D("525000.00"), True),
                         ("3100", "31-200", D("1200000.00"), D("15000.00"), D("1215000.00"), D("700000.00"), D("800000.00"), True),
                         ("9140", "05-100", D("300000.00"), D("0.00"), D("300000.00"), D("100000.00"), D("150000.00"), True)]
    vend = lambda k, name, ent, mat: (k, name, None, "subcontractor", "Electrical", f"12-34567{k[-2:]}", "EIN", ent,  # noqa: E731
                                      False, mat, "1 Vendor St", "Chicago", "IL", "60601", f"{k}@v.com", "312-555-0000",
                                      "Net 30", "active")
    r["vendors"] = [vend("V1000", VENDORS["V1000"], "llc_partnership", False),
                    vend("V1001", VENDORS["V1001"], "c_corporation", True),
                    vend("V1002", VENDORS["V1002"], "s_corporation", False),
                    vend("V1003", VENDORS["V1003"], "sole_proprietor", False)]
    r["vendor_identities"] = [(k, s, ids[k][0], ids[k][1] or VENDORS[k]) for s, ids in SYS_IDS.items() for k in VENDORS]
    r["commitments"] = [("SC-1042-0", "1042", "V1000", "subcontract", "1042-01", "Electrical subcontract", "approved",
                         D("632000.00"), D("0.00"), D("632000.00"), D("10.0000"), date(2025, 3, 10), True, None),
                        ("SC-1042-1", "1042", "V1002", "subcontract", "1042-02", "Concrete subcontract", "approved",
                         D("410000.00"), D("0.00"), D("410000.00"), D("10.0000"), date(2025, 3, 12), False, None),
                        ("PO-9140-2", "9140", "V1001", "purchase_order", "9140-75", "Steel supply", "approved",
                         D("60000.00"), D("0.00"), D("60000.00"), D("0.0000"), date(2025, 8, 1), True, None)]
    r["commitment_lines"] = [("SC-1042-0", 1, "26-100", "Branch wiring", D("500000.00"), D("40.0000"), D("200000.00")),
                             ("SC-1042-0", 2, "26-200", "Lighting", D("132000.00"), D("10.0000"), D("13200.00")),
                             ("SC-1042-1", 1, "03-300", "Concrete", D("410000.00"), D("0.0000"), D("0.00")),
                             ("PO-9140-2", 1, "05-100", "Steel", D("60000.00"), D("20.0000"), D("12000.00"))]
    r["ap_invoices"] = [
        ("INV-1", "V1000", "1042", "SC-1042-0", "WE-1001", 1, date(2025, 12, 15), date(2026, 1, 14), None, None,
         D("100000.00"), D("10000.00"), D("90000.00"), "approved", "posted", True, D("90000.00"), "Pay app 1", None),
        ("INV-2", "V1000", "1042", "SC-1042-0", "WE-1002", 2, date(2026, 1, 20), date(2026, 2, 19), None, None,
         D("50000.00"), D("5000.00"), D("45000.00"), "approved", "unposted", True, D("0.00"), "Pay app 2", None),
        ("INV-3", "V1001", "9140", "PO-9140-2", "JSM-88421", None, date(2026, 1, 22), date(2026, 2, 21), None, None,
         D("14350.00"), D("0.00"), D("14350.00"), None, "not_entered", False, D("0.00"), "Steel", None)]
    r["ap_invoice_lines"] = [("INV-1", 1, 1, "26-100", "Wiring", D("100000.00"), D("10000.00")),
                             ("INV-2", 1, 1, "26-100", "Wiring", D("30000.00"), D("3000.00")),
                             ("INV-2", 2, 2, "26-200", "Lighting", D("20000.00"), D("2000.00")),
                             ("INV-3", 1, 1, "05-100", "Steel", D("14350.00"), D("0.00"))]
    r["journal_entries"] = [("JE-1", "AP", "AP-0001", date(2025, 12, 15), "2025-12", "Walsh pay app 1", "posted", "INV-1", False),
                            ("JE-2", "CD", "CD-0001", date(2025, 12, 30), "2025-12", "Check 10451", "posted", "CHK-1", False),
                            ("JE-3", "GJ", "GJ-0001", date(2026, 1, 10), "2026-01", "Revenue accrual", "posted", None, False)]
    r["journal_lines"] = [("JE-1", 1, "5200", "1042", "26-100", "V1000", D("100000.00"), D("0.00"), None),
                          ("JE-1", 2, "2110", "1042", None, "V1000", D("0.00"), D("10000.00"), None),
                          ("JE-1", 3, "2000", None, None, "V1000", D("0.00"), D("90000.00"), None),
                          ("JE-2", 1, "2000", None, None, "V1000", D("90000.00"), D("0.00"), None),
                          ("JE-2", 2, "1010", None, None, None, D("0.00"), D("90000.00"), None),
                          ("JE-3", 1, "1010", None, None, None, D("5000.00"), D("0.00"), None),
                          ("JE-3", 2, "4000", "1042", None, None, D("0.00"), D("5000.00"), None)]
    r["bank_accounts"] = [("BA-OPER", "bofa", "Operating", "000123456789", "071000505", "1010", 30)]
    r["checks"] = [("CHK-1", "BA-OPER", 10451, date(2025, 12, 30), "V1000", "Walsh Electrical Contractors, LLC",
                    D("90000.00"), "cleared", date(2026, 1, 5)),
                   ("CHK-2", "BA-OPER", 10460, date(2026, 1, 23), None, "Maria Lopez", D("2000.00"), "issued", None)]
    r["check_applications"] = [("CHK-1", "INV-1", D("90000.00"))]
    r["divergences"] = [("vendor_spelling:V1000", "vendor_spelling", "vendor", "V1000", "name", "vista_erp",
                         "C_coi_hold", "Vista vendor master abbreviates"),
                        ("vendor_spelling:V1001", "vendor_spelling", "vendor", "V1001", "name", "vista_erp",
                         "C_coi_hold", "Vista vendor master abbreviates")]
    return r


ORDER = ["company", "gl_accounts", "gl_periods", "journal_entries", "journal_lines", "cost_codes", "erp_phase_map",
         "owners", "jobs", "prime_contracts", "prime_sov_lines", "change_events", "change_orders",
         "change_order_lines", "budget_lines", "vendors", "vendor_identities", "commitments", "commitment_lines",
         "ap_invoices", "ap_invoice_lines", "bank_accounts", "checks", "check_applications", "divergences"]


def load_fixture_book(con: duckdb.DuckDBPyConnection) -> None:
    rows = _rows()
    for table in ORDER:
        data = rows[table]
        marks = ", ".join("?" for _ in data[0])
        con.executemany(f"INSERT INTO book.{table} VALUES ({marks})", [list(x) for x in data])


def build_fixture_golden(out: Path, apps: list[str], clock: date = CLOCK) -> Path:
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
