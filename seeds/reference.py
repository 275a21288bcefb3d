"""Reference data: the company, chart of accounts, CSI cost codes and the (deliberately
non-identity) map to the ERP's legacy 16-division phases, union locals, apprentice ratio rules,
bank accounts, and the trade packages that subcontracts and purchase orders are bought in.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

COMPANY = dict(
    company_id="A",
    name="Company A Construction, Inc.",
    ein="36-4187552",
    email_domain="companyA.com",
    address="1200 Warrenville Rd, Suite 400",
    city="Naperville",
    state="IL",
    zip="60563",
    phone="(630) 555-0142",
)
DOMAIN = "companyA.com"

# account, name, type, normal balance, is_job_cost, is_control
GL_ACCOUNTS: tuple[tuple[str, str, str, str, bool, bool], ...] = (
    ("1000", "Cash - Operating", "asset", "D", False, False),
    ("1010", "Cash - Payroll", "asset", "D", False, False),
    ("1020", "Cash - Money Market Reserve", "asset", "D", False, False),
    ("1030", "Cash - Equipment Loan Account", "asset", "D", False, False),
    ("1200", "Accounts Receivable - Contracts", "asset", "D", False, True),
    ("1210", "Retainage Receivable", "asset", "D", False, True),
    ("1300", "Costs in Excess of Billings", "asset", "D", False, False),
    ("1400", "Prepaid Expenses", "asset", "D", False, False),
    ("1500", "Construction Equipment", "asset", "D", False, False),
    ("1510", "Accumulated Depreciation - Equipment", "asset", "C", False, False),
    ("2000", "Accounts Payable - Trade", "liability", "C", False, True),
    ("2010", "Retainage Payable", "liability", "C", False, True),
    ("2100", "Accrued Liabilities", "liability", "C", False, False),
    ("2200", "Payroll Withholdings Payable", "liability", "C", False, False),
    ("2210", "Union Fringe Benefits Payable", "liability", "C", False, False),
    ("2300", "Billings in Excess of Costs", "liability", "C", False, False),
    ("2500", "Line of Credit - First Midwest Bank", "liability", "C", False, False),
    ("2510", "Equipment Term Loan - PNC Bank", "liability", "C", False, False),
    ("3000", "Common Stock", "equity", "C", False, False),
    ("3100", "Retained Earnings", "equity", "C", False, False),
    ("4000", "Contract Revenue", "revenue", "C", False, False),
    ("4100", "Other Income", "revenue", "C", False, False),
    ("4110", "Interest Income", "revenue", "C", False, False),
    ("5100", "Direct Labor", "expense", "D", True, False),
    ("5110", "Labor Fringe Benefits", "expense", "D", True, False),
    ("5200", "Subcontract Cost", "expense", "D", True, False),
    ("5300", "Materials", "expense", "D", True, False),
    ("5400", "Equipment Cost", "expense", "D", True, False),
    ("5500", "Other Job Cost", "expense", "D", True, False),
    ("6000", "Office Salaries", "expense", "D", False, False),
    ("6100", "Office Rent", "expense", "D", False, False),
    ("6200", "Insurance", "expense", "D", False, False),
    ("6300", "Utilities and Telephone", "expense", "D", False, False),
    ("6400", "Professional Fees", "expense", "D", False, False),
    ("6500", "Depreciation Expense", "expense", "D", False, False),
    ("6600", "Bank Service Charges", "expense", "D", False, False),
    ("6900", "Interest Expense", "expense", "D", False, False),
    ("6910", "Interest Expense - Equipment Loan", "expense", "D", False, False),
)

COST_TYPE_ACCOUNT = {"L": "5100", "M": "5300", "S": "5200", "E": "5400", "O": "5500"}
ERP_COST_TYPE = {"L": 1, "M": 2, "S": 3, "E": 4, "O": 5}


@dataclass(frozen=True)
class CostCode:
    code: str
    description: str
    cost_type: str
    erp_phase: str
    note: str | None
    start: Decimal  # activity window as a fraction of the job's duration
    end: Decimal

    @property
    def division(self) -> str:
        return self.code.split("-")[0]


def _cc(code: str, desc: str, ct: str, phase: str, window: tuple[str, str], note: str | None = None) -> CostCode:
    return CostCode(code, desc, ct, phase, note, Decimal(window[0]), Decimal(window[1]))


_ROLLUP = "ERP keeps a single phase; rolls up with {}"
COST_CODES: tuple[CostCode, ...] = (
    _cc("01-250", "Permits, fees and professional services", "O", "01-250-00", ("0", "1")),
    _cc("01-310", "Project management and supervision", "L", "01-310-00", ("0", "1")),
    _cc("01-450", "Quality control and testing", "S", "01-450-00", ("0.05", "0.95")),
    _cc("01-500", "Temporary facilities and controls", "O", "01-500-00", ("0", "1")),
    _cc(
        "01-540",
        "Construction equipment rental",
        "E",
        "01-500-00",
        ("0", "0.9"),
        "ERP has no equipment-rental phase; posts to temporary facilities 01-500-00",
    ),
    _cc(
        "01-560",
        "Temporary barriers and enclosures",
        "M",
        "01-500-00",
        ("0", "0.7"),
        _ROLLUP.format("01-500 temporary facilities"),
    ),
    _cc("01-710", "General labor and cleanup", "L", "01-710-00", ("0", "1")),
    _cc("01-740", "Cleaning and waste management", "S", "01-740-00", ("0.05", "1")),
    _cc(
        "01-900",
        "Contingency",
        "O",
        "01-900-00",
        ("0", "1"),
        "PM-only contingency: carried in the PM budget, excluded from the ERP estimate",
    ),
    _cc(
        "02-410",
        "Selective demolition",
        "S",
        "02-220-00",
        ("0", "0.15"),
        "1995 MasterFormat: demolition sits under Division 2 site construction",
    ),
    _cc("03-100", "Concrete forming and accessories", "L", "03-100-00", ("0.06", "0.45")),
    _cc("03-200", "Concrete reinforcing", "S", "03-200-00", ("0.06", "0.45")),
    _cc("03-300", "Cast-in-place concrete", "S", "03-300-00", ("0.06", "0.5")),
    _cc(
        "03-310",
        "Concrete materials (ready-mix)",
        "M",
        "03-300-00",
        ("0.06", "0.5"),
        _ROLLUP.format("03-300 cast-in-place concrete"),
    ),
    _cc("03-350", "Concrete finishing", "L", "03-350-00", ("0.08", "0.55")),
    _cc("04-200", "Unit masonry", "S", "04-200-00", ("0.25", "0.6")),
    _cc(
        "05-050",
        "Steel erection - self-perform",
        "L",
        "05-120-00",
        ("0.18", "0.5"),
        "Self-performed ironwork shares the structural steel phase 05-120-00",
    ),
    _cc("05-120", "Structural steel framing", "S", "05-120-00", ("0.15", "0.5")),
    _cc("05-500", "Metal fabrications", "S", "05-500-00", ("0.3", "0.8")),
    _cc("06-100", "Rough carpentry", "L", "06-100-00", ("0.2", "0.75")),
    _cc("06-110", "Lumber and sheathing", "M", "06-100-00", ("0.2", "0.7"), _ROLLUP.format("06-100 rough carpentry")),
    _cc("06-200", "Finish carpentry and casework", "S", "06-200-00", ("0.65", "0.95")),
    _cc("07-200", "Thermal insulation", "S", "07-200-00", ("0.45", "0.8")),
    _cc("07-500", "Membrane roofing", "S", "07-500-00", ("0.4", "0.7")),
    _cc("07-900", "Joint sealants", "S", "07-900-00", ("0.6", "0.95")),
    _cc("08-110", "Hollow metal doors and frames", "M", "08-100-00", ("0.4", "0.85")),
    _cc("08-400", "Entrances and storefronts", "S", "08-400-00", ("0.5", "0.85")),
    _cc("08-800", "Glazing", "S", "08-800-00", ("0.45", "0.85")),
    _cc(
        "09-200",
        "Gypsum board assemblies",
        "S",
        "09-250-00",
        ("0.5", "0.85"),
        "1995 MasterFormat numbers gypsum board 09250",
    ),
    _cc("09-300", "Tiling", "S", "09-300-00", ("0.7", "0.95")),
    _cc("09-650", "Resilient flooring", "S", "09-650-00", ("0.75", "0.97")),
    _cc("09-900", "Painting and coating", "S", "09-900-00", ("0.7", "0.98")),
    _cc("10-280", "Toilet accessories", "M", "10-800-00", ("0.8", "0.98")),
    _cc("14-200", "Elevators", "S", "14-200-00", ("0.45", "0.95")),
    _cc(
        "21-100",
        "Fire suppression sprinklers",
        "S",
        "15-300-00",
        ("0.3", "0.9"),
        "Fire protection was Division 15 (15300) in the ERP's 1995 numbering",
    ),
    _cc(
        "22-010", "Plumbing - self-perform labor", "L", "15-400-00", ("0.15", "0.9"), _ROLLUP.format("22-100 plumbing")
    ),
    _cc("22-100", "Plumbing piping and fixtures", "S", "15-400-00", ("0.15", "0.92")),
    _cc("23-050", "HVAC - basic materials and methods", "S", "15-700-00", ("0.25", "0.92")),
    _cc(
        "23-300",
        "HVAC air distribution",
        "S",
        "15-700-00",
        ("0.35", "0.92"),
        "ERP carries one HVAC phase 15-700-00 for all of Division 23",
    ),
    _cc("26-050", "Electrical - power distribution", "S", "16-050-00", ("0.2", "0.95")),
    _cc(
        "26-060", "Electrical materials and gear", "M", "16-050-00", ("0.2", "0.9"), _ROLLUP.format("26-050 electrical")
    ),
    _cc("26-100", "Electrical - self-perform labor", "L", "16-100-00", ("0.15", "0.95")),
    _cc("26-500", "Lighting", "S", "16-500-00", ("0.55", "0.95")),
    _cc(
        "27-100",
        "Structured cabling",
        "S",
        "16-700-00",
        ("0.6", "0.95"),
        "Communications were part of Division 16 (16700) in the ERP",
    ),
    _cc("28-300", "Fire detection and alarm", "S", "16-720-00", ("0.6", "0.97")),
    _cc("31-100", "Site clearing", "S", "02-230-00", ("0", "0.12")),
    _cc("31-200", "Earthwork", "S", "02-200-00", ("0.02", "0.3")),
    _cc(
        "31-230",
        "Excavation and fill - self-perform",
        "L",
        "02-200-00",
        ("0.02", "0.3"),
        "Self-performed excavation shares the earthwork phase 02-200-00",
    ),
    _cc("32-120", "Asphalt paving", "S", "02-740-00", ("0.8", "1")),
    _cc("32-300", "Site improvements", "S", "02-800-00", ("0.75", "1")),
    _cc("32-900", "Landscaping", "S", "02-900-00", ("0.85", "1")),
    _cc("33-100", "Water utilities", "S", "02-510-00", ("0.05", "0.35")),
    _cc("33-300", "Sanitary sewerage", "S", "02-530-00", ("0.05", "0.35")),
    _cc("33-400", "Storm drainage", "S", "02-630-00", ("0.05", "0.4")),
)
CODES: dict[str, CostCode] = {c.code: c for c in COST_CODES}

# Trade packages: how work is bought (one commitment per package per job).
# package -> (vendor trade, commitment type, cost codes)
PACKAGES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "electrical": ("Electrical", "subcontract", ("26-050", "26-500", "27-100", "28-300")),
    "mechanical": ("Mechanical (HVAC)", "subcontract", ("23-050", "23-300")),
    "plumbing": ("Plumbing", "subcontract", ("22-100",)),
    "fire_protection": ("Fire Protection", "subcontract", ("21-100",)),
    "concrete": ("Concrete", "subcontract", ("03-200", "03-300")),
    "steel": ("Structural Steel", "subcontract", ("05-120", "05-500")),
    "masonry": ("Masonry", "subcontract", ("04-200",)),
    "drywall": ("Drywall & Acoustical", "subcontract", ("09-200", "07-200")),
    "finishes": ("Painting & Flooring", "subcontract", ("09-300", "09-650", "09-900")),
    "roofing": ("Roofing & Sheet Metal", "subcontract", ("07-500", "07-900")),
    "glazing": ("Glazing", "subcontract", ("08-400", "08-800")),
    "earthwork": ("Earthwork & Excavation", "subcontract", ("31-100", "31-200")),
    "utilities": ("Site Utilities", "subcontract", ("33-100", "33-300", "33-400")),
    "paving": ("Paving", "subcontract", ("32-120", "32-300")),
    "landscaping": ("Landscaping", "subcontract", ("32-900",)),
    "demolition": ("Demolition", "subcontract", ("02-410",)),
    "elevator": ("Elevators", "subcontract", ("14-200",)),
    "casework": ("Millwork & Casework", "subcontract", ("06-200",)),
    "readymix": ("Ready-Mix Concrete", "purchase_order", ("03-310",)),
    "lumber": ("Lumber & Building Materials", "purchase_order", ("06-110",)),
    "doors": ("Doors & Hardware", "purchase_order", ("08-110", "10-280")),
    "elec_gear": ("Electrical Supply", "purchase_order", ("26-060",)),
    "rental": ("Equipment Rental", "purchase_order", ("01-540", "01-560")),
}

# Self-performed trades: the labor cost code their time is charged to.
TRADES: dict[str, tuple[str, str]] = {  # trade -> (wage classification, labor cost code)
    "Electrician": ("Electrician", "26-100"),
    "Carpenter": ("Carpenter", "06-100"),
    "Laborer": ("Laborer - Building", "01-710"),
    "Ironworker": ("Ironworker - Structural", "05-050"),
    "Plumber/Pipefitter": ("Plumber/Pipefitter", "22-010"),
    "Operating Engineer": ("Power Equipment Operator - Group 2", "31-230"),
    "Cement Mason": ("Cement Mason", "03-350"),
}
# trade -> (local code, union name, city, journeyman scale, fringe) — Chicago-area 2025 scales
UNION_LOCALS: dict[str, tuple[str, str, str, str, str]] = {
    "Electrician": (
        "IBEW-134",
        "International Brotherhood of Electrical Workers Local 134",
        "Chicago",
        "55.5000",
        "35.1200",
    ),
    "Carpenter": ("CARP-58", "Chicago Regional Council of Carpenters Local 58", "Chicago", "52.0300", "35.4900"),
    "Laborer": ("LIUNA-2", "Laborers' International Union Local 2", "Chicago", "47.4000", "30.5300"),
    "Ironworker": ("IW-1", "Iron Workers Local 1", "Forest Park", "52.0000", "39.1200"),
    "Plumber/Pipefitter": ("UA-130", "United Association Plumbers Local 130", "Chicago", "55.7500", "31.7800"),
    "Operating Engineer": (
        "IUOE-150",
        "International Union of Operating Engineers Local 150",
        "Countryside",
        "54.1000",
        "40.1500",
    ),
    "Cement Mason": ("OPCMIA-502", "Cement Masons Local 502", "Bellwood", "51.2000", "33.2100"),
}
APPRENTICE_RATIOS: dict[str, tuple[int, str]] = {
    "Electrician": (3, "IBEW-NECA JATC standards (1 apprentice per 3 journeymen)"),
    "Carpenter": (3, "Chicago Regional Council of Carpenters apprenticeship standards"),
    "Laborer": (3, "LIUNA Chicago training fund standards"),
    "Ironworker": (4, "Iron Workers Local 1 JAC standards"),
    "Plumber/Pipefitter": (3, "UA Local 130 JAC standards"),
    "Operating Engineer": (5, "IUOE Local 150 apprenticeship standards"),
    "Cement Mason": (3, "OPCMIA Local 502 JAC standards"),
}


@dataclass(frozen=True)
class Bank:
    """A bank the company holds accounts at: the one place its book code and routing prefix live.

    ``code`` is ``book.bank_accounts.bank``; ``routing_prefix`` is the first four digits of the
    bank's ABA routing numbers (the Federal Reserve routing symbol of the district its accounts
    are held in). The bank portals' dialects (``cfab.apps.bank.dialects``) hold these objects.
    """

    code: str
    name: str
    routing_prefix: str


BANK_OF_AMERICA = Bank("bofa", "Bank of America", "0710")
CHASE = Bank("chase", "JPMorgan Chase", "0710")
WELLS_FARGO = Bank("wells", "Wells Fargo", "0719")
PNC = Bank("pnc", "PNC Bank", "0710")
BANKS: dict[str, Bank] = {b.code: b for b in (BANK_OF_AMERICA, CHASE, WELLS_FARGO, PNC)}

# bank_account_id, bank, name, gl account, payee field width, check number start
BANK_ACCOUNTS: tuple[tuple[str, str, str, str, int, int], ...] = (
    ("BA-OPER", BANK_OF_AMERICA.code, "Operating", "1000", 30, 10250),
    ("BA-PAYR", CHASE.code, "Payroll", "1010", 40, 50100),
)

# The treasury accounts (``treasury.py``): bank_account_id, bank, name, gl account, payee field width.
# They issue no checks; each has its own RNG stream, so the two above keep their numbers.
TREASURY_ACCOUNTS: tuple[tuple[str, str, str, str, int], ...] = (
    ("BA-WFMM", WELLS_FARGO.code, "Reserve Money Market", "1020", 35),
    ("BA-PNCEQ", PNC.code, "Equipment Loan Payment", "1030", 40),
)


def routing_number(prefix8: str) -> str:
    """An ABA routing number with a valid check digit."""
    w = (3, 7, 1, 3, 7, 1, 3, 7)
    s = sum(int(d) * k for d, k in zip(prefix8, w, strict=True))
    return prefix8 + str((10 - s % 10) % 10)
