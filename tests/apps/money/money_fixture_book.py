"""A small hand-made Company-A book for the money apps' tests (banks, payroll, field time).

It holds exactly the rows these apps read, with known answers: a prevailing-wage job and a
private job, five employees, three weeks of timecards (the clock week open), two released
payroll batches, accounts at every bank, checks, activity, balances that agree with the
activity, and a positive-pay exception file with one item of each reason.
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


def _rows() -> dict[str, list[tuple]]:
    rows: dict[str, list[tuple]] = {}
    rows["company"] = [("A", "Company A Construction, Inc.", "36-1234567", "companyA.com", "100 Main St",
                        "Chicago", "IL", "60601", "312-555-0100")]
    rows["gl_accounts"] = [("1010", "Cash - Operating", "asset", "D", False, False),
                           ("1020", "Cash - Payroll", "asset", "D", False, False)]
    rows["owners"] = [("O100", "Cook County DOT", "public", "Pat Owner", "pat@cookcounty.gov", "1 County Plz"),
                      ("O101", "Lakeview Partners LLC", "private", "Lee Park", "lee@lakeview.com", "9 Lake St")]
    rows["jobs"] = [
        ("1042", "County Courthouse Renovation", "O100", "active", "public", True, date(2025, 3, 1),
         date(2026, 9, 30), "Dana PM", "dana@companyA.com", "Sam Super", "50 W Washington", "Chicago", "IL",
         "Cook", D("1200000.00")),
        ("3100", "Lakeview Medical Office", "O101", "active", "commercial", False, date(2025, 6, 1),
         date(2026, 12, 31), "Riley PM", "riley@companyA.com", "Jo Super", "9 Lake St", "Chicago", "IL",
         "Cook", D("800000.00")),
    ]
    rows["cost_codes"] = [("26-100", "Electrical - branch wiring", "26", "L"),
                          ("03-300", "Cast-in-place concrete", "03", "L"),
                          ("31-200", "Earthwork - excavation and fill", "31", "L")]
    rows["union_locals"] = [("IBEW-134", "International Brotherhood of Electrical Workers", "Electrician",
                             "Chicago", D("30.1200")),
                            ("LIUNA-2", "Laborers' International Union", "Laborer", "Chicago", D("25.0000"))]
    rows["employees"] = [
        ("E1001", "Maria", "Lopez", "1111", "Electrician", "Electrician", "journeyman", None, None, "IBEW-134",
         D("47.0000"), D("30.1200"), date(2019, 4, 1), "active"),
        ("E1002", "Tom", "Becker", "2222", "Electrician", "Electrician", "apprentice", "IL-APP-5521",
         D("60.0000"), "IBEW-134", D("26.5000"), D("12.0000"), date(2024, 2, 1), "active"),
        ("E1003", "Ahmed", "Khan", "3333", "Laborer", "Laborer", "journeyman", None, None, "LIUNA-2",
         D("36.2500"), D("25.0000"), date(2021, 8, 9), "active"),
        ("E1004", "Grace", "Okafor", "4444", "Carpenter", "Carpenter", "foreman", None, None, None,
         D("52.1000"), D("28.0000"), date(2016, 1, 4), "active"),
        ("E1005", "Luis", "Ortega", "5555", "Laborer", "Laborer", "journeyman", None, None, "LIUNA-2",
         D("41.0000"), D("25.0000"), date(2022, 5, 2), "active"),
    ]
    ident = []
    for i, e in enumerate(["E1001", "E1002", "E1003", "E1004", "E1005"]):
        n = int(e[1:])
        ident += [(e, "adp", f"{100200 + n}"), (e, "rippling", f"5f{n:022x}"),
                  (e, "foundation_payroll", f"{n - 1000:04d}"), (e, "rhumbix", f"RX-{n}"),
                  (e, "busybusy", f"bb-{n:08x}"), (e, "lcptracker", f"LCP{n}")]
    rows["employee_identities"] = ident
    rows["wage_determinations"] = [("IL20250012-mod3", "1042", "IL20250012", 3, "Cook", "IL", date(2025, 1, 3))]
    rows["wage_rates"] = [("IL20250012-mod3", "Electrician", D("48.5000"), D("30.1200")),
                          ("IL20250012-mod3", "Laborer", D("38.0000"), D("25.0000")),
                          ("IL20250012-mod3", "Carpenter", D("50.0000"), D("28.0000"))]
    # timecards: three weeks (ending 01-17, 01-24, 01-31); Mon-Fri
    tc = []
    plan = [("E1001", "1042", "26-100", "rhumbix"), ("E1002", "1042", "26-100", "rhumbix"),
            ("E1003", "1042", "31-200", "rhumbix"), ("E1004", "3100", "03-300", "busybusy"),
            ("E1005", "3100", "03-300", "busybusy"), ("E1003", "3100", "31-200", "busybusy")]
    for week_end in (date(2026, 1, 17), date(2026, 1, 24), date(2026, 1, 31)):
        for day in range(1, 6):
            wd = week_end - timedelta(days=6) + timedelta(days=day)
            for k, (emp, job, cc, src) in enumerate(plan):
                if emp == "E1003" and job == "3100" and day != 5:
                    continue                               # E1003 helps on 3100 on Fridays only
                if emp == "E1003" and job == "1042" and day == 5:
                    continue
                reg = D("8.00")
                ot = D("2.00") if (emp == "E1001" and day in (2, 4)) or (emp == "E1004" and day == 5) else D("0.00")
                if emp == "E1005" and day == 3:
                    reg, ot = D("7.50"), D("0.00")
                approved = not (week_end == CLOCK and day == 5 and emp in ("E1002", "E1005"))
                tc.append((f"TC-{emp}-{job}-{wd:%Y%m%d}", emp, job, wd, cc, reg, ot, src, approved))
    rows["timecards"] = tc
    rows["bank_accounts"] = [
        ("BA-OPER", "bofa", "Operating", "4451029387", "026009593", "1010", 30),
        ("BA-PAY", "bofa", "Payroll", "4451029395", "026009593", "1020", 30),
        ("BA-CHASE", "chase", "Receipts", "783104455", "021000021", "1010", 20),
        ("BA-WELLS", "wells", "Equipment", "2090187766", "121000248", "1010", 25),
        ("BA-PNC", "pnc", "Disbursement", "1029384756", "043000096", "1010", 35),
    ]
    rows["payroll_batches"] = [
        ("PR-2026-01-17", date(2026, 1, 11), date(2026, 1, 17), date(2026, 1, 23), "released", "BA-PAY"),
        ("PR-2026-01-24", date(2026, 1, 18), date(2026, 1, 24), date(2026, 1, 30), "released", "BA-PAY"),
        ("PR-2026-01-31", date(2026, 1, 25), date(2026, 1, 31), date(2026, 2, 6), "open", "BA-PAY"),
    ]
    earn = []
    for bid, _s, _e, _c, status, _b in rows["payroll_batches"]:
        if status != "released":
            continue
        earn.append((bid, "E1001", "1042", D("40.00"), D("4.00"), D("48.5000"), D("30.1200"), D("2231.00"),
                     D("446.20"), D("1784.80")))
        earn.append((bid, "E1004", "3100", D("40.00"), D("2.00"), D("52.1000"), D("28.0000"), D("2240.30"),
                     D("448.06"), D("1792.24")))
    # the book also carries the open week's expected earnings; payroll apps show none until staged
    earn.append(("PR-2026-01-31", "E1001", "1042", D("40.00"), D("4.00"), D("48.5000"), D("30.1200"), D("2231.00"),
                 D("446.20"), D("1784.80")))
    rows["payroll_earnings"] = earn
    checks = [
        ("CK-1", "BA-OPER", 10451, date(2026, 1, 20), "V1000", "Walsh Electrical Contractors, LLC", D("18250.00"),
         "cleared", date(2026, 1, 26)),
        ("CK-2", "BA-OPER", 10452, date(2026, 1, 27), "V1003", "Midwest Concrete & Masonry Incorporated",
         D("4250.00"), "issued", None),
        ("CK-3", "BA-OPER", 10453, date(2026, 1, 27), "V1006", "Acme Rebar Supply Co", D("1300.50"), "issued", None),
        ("CK-4", "BA-OPER", 10454, date(2026, 1, 28), "V1007", "Great Lakes Excavating and Grading Corp",
         D("9900.00"), "issued", None),
        ("CK-5", "BA-PAY", 5001, date(2026, 1, 23), None, "Maria Lopez", D("1784.80"), "cleared", date(2026, 1, 26)),
        ("CK-6", "BA-CHASE", 300, date(2026, 1, 15), "V1002", "North Shore Plumbing & Heating LLC", D("7700.00"),
         "issued", None),
        ("CK-7", "BA-WELLS", 880, date(2026, 1, 10), "V1001", "JSM Supply", D("14350.00"), "void", None),
        ("CK-8", "BA-PNC", 2201, date(2026, 1, 22), "V1004", "Prairie Steel Erectors", D("52000.00"), "issued", None),
    ]
    rows["checks"] = checks
    tx = [
        ("T1", "BA-OPER", date(2026, 1, 26), D("-18250.00"), "475", "CHECK 10451", 10451, None),
        ("T2", "BA-OPER", date(2026, 1, 26), D("250000.00"), "165", "ACH CREDIT COOK COUNTY DOT", None, "PAYAPP-1042-1"),
        ("T3", "BA-OPER", date(2026, 1, 27), D("-35000.00"), "495", "WIRE OUT PRAIRIE STEEL", None, "WIRE-0127"),
        ("T4", "BA-OPER", date(2026, 1, 27), D("-45.00"), "699", "WIRE FEE", None, None),
        ("T5", "BA-OPER", date(2026, 1, 29), D("12500.75"), "195", "INCOMING WIRE LAKEVIEW", None, "INV-3100-7"),
        ("T6", "BA-PAY", date(2026, 1, 26), D("-1784.80"), "475", "CHECK 5001", 5001, None),
        ("T7", "BA-PAY", date(2026, 1, 23), D("3577.04"), "506", "BOOK TRANSFER FROM OPERATING", None, None),
        ("T8", "BA-CHASE", date(2026, 1, 28), D("98000.00"), "165", "ACH CREDIT LAKEVIEW PARTNERS", None, None),
        ("T9", "BA-PNC", date(2026, 1, 29), D("-120.00"), "699", "ACCOUNT ANALYSIS FEE", None, None),
        ("T10", "BA-WELLS", date(2026, 1, 27), D("-2500.00"), "455", "ACH DEBIT CAT FINANCIAL", None, "LEASE-44"),
    ]
    rows["bank_transactions"] = tx
    bal = []
    start = {"BA-OPER": D("500000.00"), "BA-PAY": D("10000.00"), "BA-CHASE": D("150000.00"),
             "BA-WELLS": D("20000.00"), "BA-PNC": D("75000.00")}
    for acct, opening in start.items():
        running = opening
        for offset in range(0, 8):                        # 2026-01-23 .. 2026-01-30
            day = date(2026, 1, 23) + timedelta(days=offset)
            running += sum((t[3] for t in tx if t[1] == acct and t[2] == day), D("0"))
            hold = D("12500.75") if (acct == "BA-OPER" and day == date(2026, 1, 29)) else D("0")
            bal.append((acct, day, running, running - hold))
    rows["bank_balances"] = bal
    rows["positive_pay_exceptions"] = [
        ("PPE-1", "BA-OPER", CLOCK, 10452, D("4250.00"), "Midwest Concrete & Masonry Incorporated",
         "payee_mismatch", CLOCK),
        ("PPE-2", "BA-OPER", CLOCK, 10453, D("7300.50"), "Acme Rebar Supply Co", "amount_mismatch", CLOCK),
        ("PPE-3", "BA-OPER", CLOCK, 10499, D("2875.00"), "Quick Cash Services", "no_issue_record", CLOCK),
        ("PPE-4", "BA-OPER", CLOCK, 10451, D("18250.00"), "Walsh Electrical Contractors, LLC",
         "duplicate_presentment", CLOCK),
        ("PPE-5", "BA-CHASE", CLOCK, 300, D("7700.00"), "North Shore Plumbing & Heating LLC", "payee_mismatch", CLOCK),
        ("PPE-6", "BA-PNC", date(2026, 1, 29), 2202, D("990.00"), "R. Smith", "no_issue_record", date(2026, 1, 30)),
        ("PPE-7", "BA-WELLS", CLOCK, 881, D("14350.00"), "JSM Supply", "no_issue_record", CLOCK),
        ("PPE-8", "BA-PNC", CLOCK, 2201, D("52000.00"), "Prairie Steel Erectors", "amount_mismatch", CLOCK),
    ]
    rows["divergences"] = [
        ("payee_truncation:BA-OPER|10452", "payee_truncation", "check", "BA-OPER|10452", "payee_name",
         "bofa_cashpro", "T_positive_pay", "payee longer than the 30-character issue-file field"),
        ("payee_truncation:BA-OPER|10454", "payee_truncation", "check", "BA-OPER|10454", "payee_name",
         "bofa_cashpro", "T_positive_pay", "payee longer than the 30-character issue-file field"),
        ("payee_truncation:BA-OPER|10451", "payee_truncation", "check", "BA-OPER|10451", "payee_name",
         "bofa_cashpro", "T_positive_pay", "payee longer than the 30-character issue-file field"),
        ("payee_truncation:BA-CHASE|300", "payee_truncation", "check", "BA-CHASE|300", "payee_name",
         "chase_treasury", "T_positive_pay", "payee longer than the 20-character issue-file field"),
    ]
    return rows


ORDER = ["company", "gl_accounts", "owners", "jobs", "cost_codes", "union_locals", "employees",
         "employee_identities", "wage_determinations", "wage_rates", "timecards", "bank_accounts",
         "payroll_batches", "payroll_earnings", "checks", "bank_transactions", "bank_balances",
         "positive_pay_exceptions", "divergences"]


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
