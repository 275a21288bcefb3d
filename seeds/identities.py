"""How each system knows a vendor or an employee: ids in each system's own format, and the
spelling each system keeps for a vendor's name.

Ids are a bijection of the entity's ordinal (an affine permutation within the format's digit
range, widening past it), so they are unique per system at any scale and look unsequenced.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

VENDOR_SYSTEMS = (
    "procore",
    "vista_erp",
    "sage_intacct",
    "foundation_erp",
    "cmic",
    "acumatica_construction",
    "sage300cre",
    "qbo",
    "computerease",
    "levelset",
    "lcptracker",
    "gcpay",
    "track1099",
    "corpay",
    "redteam",
    "ingenious_build",
    "ressio",
    "smartbuild",
)
EMPLOYEE_SYSTEMS = ("adp", "rippling", "foundation_payroll", "lcptracker", "rhumbix", "busybusy")

# system -> (prefix, digits, multiplier coprime to 9 * 10**(digits-1), offset)
_VENDOR_FORMATS: dict[str, tuple[str, int, int, int]] = {
    "procore": ("", 7, 7919, 104729),
    "vista_erp": ("", 5, 7919, 3571),
    "foundation_erp": ("F", 4, 211, 37),
    "cmic": ("SUB", 5, 6007, 811),
    "acumatica_construction": ("AC", 6, 7727, 4099),
    "computerease": ("", 4, 173, 59),
    "levelset": ("LS-", 6, 9973, 1201),
    "lcptracker": ("C", 5, 4441, 97),
    "gcpay": ("GCP-", 5, 3217, 455),
    "track1099": ("P", 6, 6551, 2711),
    "corpay": ("CPV", 7, 1009, 55001),
    "redteam": ("RTV", 5, 2333, 613),
    "ingenious_build": ("IBV-", 6, 8191, 3001),
    "ressio": ("RS", 5, 1201, 77),
    "smartbuild": ("SB-V", 5, 5003, 301),
}
_EMPLOYEE_FORMATS: dict[str, tuple[str, int, int, int]] = {
    "adp": ("", 6, 7919, 20011),
    "rippling": ("emp_", 8, 104723, 99991),
    "foundation_payroll": ("", 4, 211, 101),
    "lcptracker": ("W", 6, 6551, 313),
    "rhumbix": ("rbx-", 6, 9973, 5501),
    "busybusy": ("bb", 7, 15013, 7001),
}


def numbered(ordinal: int, prefix: str, digits: int, mult: int, add: int) -> str:
    mod = 9 * 10 ** (digits - 1)
    if ordinal < mod:
        return f"{prefix}{10 ** (digits - 1) + (ordinal * mult + add) % mod}"
    return f"{prefix}{10**digits + ordinal}"


_SUFFIX = re.compile(r",?\s+(Inc\.|LLC|Co\.|Corporation|Company|P\.C\.)$")
_ABBREV = (
    ("ELECTRICAL", "ELEC"),
    ("ELECTRIC", "ELEC"),
    ("CONTRACTORS", "CONTR"),
    ("CONSTRUCTION", "CONST"),
    ("MECHANICAL", "MECH"),
    ("SERVICES", "SVCS"),
    ("COMPANY", "CO"),
    ("CORPORATION", "CORP"),
    ("PROTECTION", "PROT"),
    ("CONCRETE", "CONC"),
    ("EXCAVATING", "EXC"),
    ("ROOFING", "RFG"),
    ("STRUCTURAL", "STRUCT"),
    ("ERECTORS", "ERECT"),
    (" & ", " AND "),
)


def erp_spelling(name: str) -> str:
    """The ERP vendor master's abbreviated upper-case keying: ``WALSH ELEC CONTR LLC``."""
    s = name.upper().replace(",", "").replace(".", "")
    for a, b in _ABBREV:
        s = s.replace(a, b)
    return " ".join(s.split())


def short_spelling(name: str) -> str:
    """The lien-waiver service's spelling: no legal suffix (``Walsh Electrical Contractors``)."""
    return _SUFFIX.sub("", name).strip()


def plain_spelling(name: str) -> str:
    """The compliance portal's spelling: punctuation stripped (``Walsh Electrical Contractors LLC``)."""
    return " ".join(name.replace(",", "").replace(".", "").split())


SPELLERS = {"vista_erp": erp_spelling, "levelset": short_spelling, "lcptracker": plain_spelling}


class Sage300Codes:
    """Six-character upper-case vendor codes from the name (``WALSHE``), unique within the book."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def code(self, name: str) -> str:
        letters = "".join(ch for ch in name.upper() if ch.isalpha())
        words = [w for w in re.sub(r"[^A-Za-z ]", "", name).upper().split() if w]
        base = (words[0][:5] + (words[1][:1] if len(words) > 1 else "X"))[:6] if words else "VENDOR"
        base = (base + letters + "XXXXXX")[:6]
        cand, n = base, 0
        while cand in self.taken:
            n += 1
            tail = str(n)
            cand = base[: 6 - len(tail)] + tail
        self.taken.add(cand)
        return cand


def vendor_identity_rows(
    vendors: Iterable[tuple[int, str, str]], spelled: dict[tuple[str, str], str], codes: Sage300Codes
) -> list[tuple[str, str, str, str]]:
    """``(vendor_key, system, system_vendor_id, spelled_name)`` for every vendor and system.

    ``vendors`` yields (ordinal, vendor_key, legal_name); ``spelled`` overrides a spelling.
    """
    rows: list[tuple[str, str, str, str]] = []
    for ordinal, key, legal in vendors:
        for system in VENDOR_SYSTEMS:
            if system == "sage_intacct":
                sid = key
            elif system == "sage300cre":
                sid = codes.code(legal)
            elif system == "qbo":
                sid = str(ordinal + 1)
            else:
                sid = numbered(ordinal, *_VENDOR_FORMATS[system])
            rows.append((key, system, sid, spelled.get((key, system), legal)))
    return rows


def employee_identity_rows(employees: Iterable[tuple[int, str]]) -> list[tuple[str, str, str]]:
    return [
        (emp, system, numbered(ordinal, *_EMPLOYEE_FORMATS[system]))
        for ordinal, emp in employees
        for system in EMPLOYEE_SYSTEMS
    ]
