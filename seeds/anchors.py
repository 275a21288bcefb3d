"""The paper's named facts and the per-family plants: the only hand-typed numbers in the book.

Everything here holds at every seed, clock and scale. Other amounts are computed.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

# --- amounts the paper's evaluators and listings name -------------------------------------
SC_1042_0 = "SC-1042-0"
SC_1042_0_AMOUNT = Decimal("632000.00")  # Walsh Electrical, job 1042
JSM_VENDOR = "V1001"
JSM_INVOICE = "JSM-88421"
JSM_AMOUNT = Decimal("14350.00")
JSM_COST_CODE = "31-200"
JSM_JOB = "9140"
JSM_PO_NUMBER = "9140-75"
JSM_PO_INDEX = 4  # PO-9140-4 carries PM number 9140-75
CE_3100_AMOUNT = Decimal("101700.00")  # internal cost transfer, pending in Procore
ETC_1042 = Decimal("3706560.00")  # PM forecast-to-complete over ERP lines

# --- family keys --------------------------------------------------------------------------
ETC_JOBS = ("1042", "1990", "2014", "2041", "2200", "3100", "3412", "4012")
AIA_JOBS = ("1042", "1990", "2014", "2200", "3100", "3412")
ACCRUAL_JOBS = ("1042", "2014", "2200", "3100", "3412", "4012")
SYNC_JOBS = ("1042", "2014", "2041", "2200", "3100", "4012")
CERT_JOBS = ("1042", "2041", "2014", "2200", "1990", "3100")
EXPIRED_COI_VENDORS = ("V1000", "V1002", "V1003", "V1006", "V1007")
BILLED_AHEAD_JOBS = ("2014", "3412")
CONTINGENCY_JOBS = ("1042", "2200", "3412")  # PM-only contingency line (include_in_erp false)
STEP_DOWN_JOB = "2200"  # 10% -> 5% at 50%, crosses 50% by the clock
STEP_DOWN_UNCROSSED_JOB = "3412"  # same terms, still below 50% at the clock
CO_AFTER_APP1_JOB = "1990"  # approved owner CO adds an SOV line after app #1
OWNER_CE_JOB = "2200"  # the smaller pending owner change event
OWNER_SIDE_JOBS = ("3412", "4012")  # + two generated private jobs (ingenious.build)


def anchored_jobs() -> set[str]:
    """Every job a family above anchors on (and 9140, the paper's worked invoice): a later plant
    leaves them alone."""
    return set(
        ETC_JOBS
        + AIA_JOBS
        + ACCRUAL_JOBS
        + SYNC_JOBS
        + CERT_JOBS
        + BILLED_AHEAD_JOBS
        + CONTINGENCY_JOBS
        + OWNER_SIDE_JOBS
    ) | {JSM_JOB}


@dataclass(frozen=True)
class AnchorJob:
    number: str
    name: str
    owner: str
    owner_type: str  # public|private
    job_type: str  # public|commercial|industrial|residential
    city: str
    county: str
    contract: Decimal  # target contract size (the estimate is built to approach it)
    start_months: int  # months before the clock's month that work started
    duration_months: int
    packages: tuple[str, ...]


_BUILDING = (
    "concrete",
    "steel",
    "masonry",
    "roofing",
    "glazing",
    "drywall",
    "finishes",
    "mechanical",
    "plumbing",
    "fire_protection",
    "electrical",
    "earthwork",
    "utilities",
    "paving",
    "readymix",
    "doors",
)

ANCHOR_JOBS: tuple[AnchorJob, ...] = (
    AnchorJob(
        "1042",
        "Westmont Public Library Expansion",
        "Westmont Public Library District",
        "public",
        "public",
        "Westmont",
        "DuPage",
        Decimal(9200000),
        9,
        15,
        (
            "electrical",
            "concrete",
            "steel",
            "mechanical",
            "plumbing",
            "earthwork",
            "utilities",
            "roofing",
            "masonry",
            "drywall",
            "readymix",
            "elec_gear",
        ),
    ),
    AnchorJob(
        "1990",
        "Aurora Fire Station No. 12",
        "City of Aurora",
        "public",
        "public",
        "Aurora",
        "Kane",
        Decimal(5850000),
        4,
        13,
        (
            "concrete",
            "earthwork",
            "utilities",
            "steel",
            "masonry",
            "mechanical",
            "plumbing",
            "electrical",
            "roofing",
            "readymix",
        ),
    ),
    AnchorJob(
        "2014",
        "Evanston Public Works Salt Dome and Fleet Garage",
        "City of Evanston",
        "public",
        "public",
        "Evanston",
        "Cook",
        Decimal(4200000),
        5,
        12,
        (
            "earthwork",
            "concrete",
            "steel",
            "utilities",
            "electrical",
            "mechanical",
            "plumbing",
            "roofing",
            "readymix",
            "rental",
        ),
    ),
    AnchorJob(
        "2041",
        "Joliet West Middle School Addition",
        "Joliet Public Schools District 86",
        "public",
        "public",
        "Joliet",
        "Will",
        Decimal(7500000),
        8,
        16,
        (
            "earthwork",
            "concrete",
            "masonry",
            "steel",
            "roofing",
            "mechanical",
            "plumbing",
            "electrical",
            "fire_protection",
            "drywall",
            "glazing",
            "readymix",
            "lumber",
        ),
    ),
    AnchorJob(
        "2200",
        "Yorkville Park District Maintenance Facility",
        "Yorkville Park District",
        "public",
        "public",
        "Yorkville",
        "Kendall",
        Decimal(3600000),
        5,
        9,
        (
            "earthwork",
            "concrete",
            "steel",
            "utilities",
            "roofing",
            "electrical",
            "mechanical",
            "plumbing",
            "readymix",
            "doors",
        ),
    ),
    AnchorJob(
        "3100",
        "Lake County Health Department Clinic Renovation",
        "Lake County",
        "public",
        "public",
        "Waukegan",
        "Lake",
        Decimal(8900000),
        5,
        15,
        (
            "demolition",
            "concrete",
            "steel",
            "drywall",
            "mechanical",
            "plumbing",
            "electrical",
            "fire_protection",
            "glazing",
            "finishes",
            "readymix",
            "doors",
        ),
    ),
    AnchorJob(
        "3412",
        "Prairie Point Medical Office Building",
        "Prairie Point Healthcare Partners, LLC",
        "private",
        "commercial",
        "Naperville",
        "DuPage",
        Decimal(5100000),
        4,
        13,
        (
            "earthwork",
            "concrete",
            "steel",
            "roofing",
            "glazing",
            "mechanical",
            "electrical",
            "plumbing",
            "drywall",
            "readymix",
        ),
    ),
    AnchorJob(
        "4012",
        "Eola Road Distribution Center",
        "Lakeshore Logistics Holdings, LLC",
        "private",
        "commercial",
        "Aurora",
        "DuPage",
        Decimal(11200000),
        9,
        19,
        (
            "earthwork",
            "utilities",
            "concrete",
            "steel",
            "roofing",
            "fire_protection",
            "electrical",
            "mechanical",
            "plumbing",
            "paving",
            "readymix",
            "rental",
        ),
    ),
    AnchorJob(
        "9140",
        "Batavia Food Processing Plant Expansion",
        "Heartland Provisions, Inc.",
        "private",
        "industrial",
        "Batavia",
        "Kane",
        Decimal(14500000),
        7,
        18,
        (
            "earthwork",
            "concrete",
            "steel",
            "mechanical",
            "plumbing",
            "electrical",
            "fire_protection",
            "roofing",
            "paving",
            "readymix",
            "rental",
            "elec_gear",
            "doors",
        ),
    ),
)


@dataclass(frozen=True)
class CertPlan:
    """A P_certified_payroll crew for the certified week: trade -> (foremen, journeymen, apprentices)."""

    crews: dict[str, tuple[int, int, int]]
    defect: str | None  # underpaid_rate|fringe_short|apprentice_over_ratio|apprentice_unregistered
    defect_trade: str | None


CERT_PLANS: dict[str, CertPlan] = {
    "1042": CertPlan({"Electrician": (1, 3, 1), "Laborer": (0, 3, 1)}, "underpaid_rate", "Electrician"),
    "2041": CertPlan({"Carpenter": (1, 4, 1), "Laborer": (0, 2, 0)}, None, None),
    "2014": CertPlan({"Carpenter": (1, 2, 1), "Cement Mason": (1, 3, 1)}, "apprentice_over_ratio", "Carpenter"),
    "2200": CertPlan(
        {"Ironworker": (1, 3, 1), "Operating Engineer": (0, 2, 0)}, "apprentice_unregistered", "Ironworker"
    ),
    "1990": CertPlan({"Cement Mason": (1, 3, 1), "Laborer": (0, 3, 0)}, None, None),
    "3100": CertPlan({"Plumber/Pipefitter": (1, 3, 1), "Laborer": (0, 2, 0)}, "fringe_short", "Plumber/Pipefitter"),
}
UNDERPAY_SHORTFALL = Decimal("3.2500")  # rate paid below the determination's base
FRINGE_SHORTFALL = Decimal("4.1000")  # fringe paid below the determination's fringe

# --- vendors the paper and the families name ----------------------------------------------
# vendor_key -> (legal name or None to generate, package/trade key, entity type)
ANCHOR_VENDORS: dict[str, tuple[str | None, str, str]] = {
    "V1000": ("Walsh Electrical Contractors, LLC", "electrical", "llc_partnership"),
    "V1001": ("J. S. Mitchell Mechanical, Inc.", "mechanical", "s_corporation"),
    "V1002": (None, "concrete", "c_corporation"),
    "V1003": (None, "steel", "s_corporation"),
    "V1004": (None, "drywall", "llc_partnership"),
    "V1005": (None, "earthwork", "c_corporation"),
    "V1006": (None, "roofing", "llc_partnership"),
    "V1007": (None, "fire_protection", "c_corporation"),
}
INVOICE_PREFIX = {"V1001": "JSM"}
