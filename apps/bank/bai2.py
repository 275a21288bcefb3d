"""BAI2 (Cash Management Balance Reporting Specification, version 2) files: writer and parser.

A file is ``01`` file header, one ``02`` group per as-of date, in each group one ``03`` account
identifier (summary type codes with amounts in cents), its ``16`` transaction details and a
``49`` account trailer, then ``98`` group trailer and ``99`` file trailer. Control totals are
the algebraic sums of the amounts (in cents) of the records they close; record counts include
the header and trailer records they close.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

# BAI2 summary type codes written in the 03 record.
OPENING_LEDGER, CLOSING_LEDGER, OPENING_AVAILABLE, CLOSING_AVAILABLE = "010", "015", "040", "045"
TOTAL_CREDITS, TOTAL_DEBITS = "100", "400"


def cents(amount: Decimal) -> int:
    """An exact amount in integer cents (refuses sub-cent amounts)."""
    value = Decimal(amount) * 100
    if value != value.to_integral_value():
        raise ValueError(f"amount {amount} has more than two decimals")
    return int(value)


@dataclass
class Bai2Detail:
    type_code: str
    amount: Decimal  # unsigned
    bank_reference: str
    customer_reference: str | None
    text: str


@dataclass
class Bai2Account:
    account_number: str
    summaries: list[tuple[str, Decimal, int | None]] = field(default_factory=list)  # (code, amount, count)
    details: list[Bai2Detail] = field(default_factory=list)


@dataclass
class Bai2Group:
    as_of: date
    modifier: str  # 2 final previous-day, 3 interim same-day
    accounts: list[Bai2Account] = field(default_factory=list)


def _field(value: object) -> str:
    return "" if value is None else str(value).replace(",", " ").replace("/", " ")


def write_bai2(
    groups: list[Bai2Group], *, sender: str, receiver: str, created: date, created_time: str, file_id: str
) -> str:
    """Render a BAI2 file; lines are newline-separated, each record ends with '/' except text-ended 16s."""
    lines = [f"01,{sender},{receiver},{created:%y%m%d},{created_time},{file_id},,,2/"]
    file_total = 0
    for group in groups:
        group_lines = [f"02,{receiver},{sender},1,{group.as_of:%y%m%d},,USD,{group.modifier}/"]
        group_total = 0
        for acct in group.accounts:
            parts = ["03", _field(acct.account_number), "USD"]
            total = 0
            for code, amount, count in acct.summaries:
                c = cents(amount)
                total += c
                parts += [code, str(c), "" if count is None else str(count), ""]
            rec03 = ",".join(parts) + "/"
            detail_lines = []
            for d in acct.details:
                c = cents(d.amount)
                if c < 0:
                    raise ValueError("BAI2 detail amounts are unsigned")
                total += c
                text = _field(d.text).strip()
                head = f"16,{d.type_code},{c},Z,{_field(d.bank_reference)},{_field(d.customer_reference)},"
                detail_lines.append(head + text if text else head + "/")
            n_records = 2 + len(detail_lines)
            group_lines += [rec03, *detail_lines, f"49,{total},{n_records}/"]
            group_total += total
        group_lines.append(f"98,{group_total},{len(group.accounts)},{len(group_lines) + 1}/")
        lines += group_lines
        file_total += group_total
    lines.append(f"99,{file_total},{len(groups)},{len(lines) + 1}/")
    return "\n".join(lines) + "\n"


@dataclass
class ParsedAccount:
    account_number: str
    summaries: dict[str, int]
    details: list[dict[str, object]]
    control_total: int
    records: int


@dataclass
class ParsedGroup:
    as_of: str
    accounts: list[ParsedAccount]
    control_total: int
    n_accounts: int
    records: int


@dataclass
class ParsedFile:
    sender: str
    receiver: str
    groups: list[ParsedGroup]
    control_total: int
    n_groups: int
    records: int
    errors: list[str]


def parse_bai2(text: str) -> ParsedFile:
    """Parse a BAI2 file and verify every trailer's control total and record count.

    Problems are collected in ``errors`` (empty for a valid file) rather than raised.
    """
    raw = [ln for ln in text.splitlines() if ln.strip()]
    errors: list[str] = []
    if not raw or not raw[0].startswith("01,"):
        return ParsedFile("", "", [], 0, 0, 0, ["file does not start with an 01 record"])
    head = raw[0].rstrip("/").split(",")
    pf = ParsedFile(head[1], head[2], [], 0, 0, 0, errors)
    group: ParsedGroup | None = None
    acct: ParsedAccount | None = None
    g_records = a_records = 0
    g_total = a_total = 0
    for n, line in enumerate(raw[1:], start=2):
        code = line[:2]
        if code == "16":
            parts = line.split(",", 6)
            text = parts[6] if len(parts) > 6 else ""
            fields = parts[:6]
        else:
            fields = line.rstrip("/").split(",")
            text = ""
        if code == "02":
            group = ParsedGroup(fields[4], [], 0, 0, 0)
            g_records, g_total = 1, 0
        elif code == "03":
            if group is None:
                errors.append(f"line {n}: 03 outside a group")
                continue
            summaries: dict[str, int] = {}
            body = fields[3:]
            for i in range(0, len(body) - 2, 4):
                if body[i]:
                    summaries[body[i]] = int(body[i + 1]) if body[i + 1] else 0
            acct = ParsedAccount(fields[1], summaries, [], 0, 0)
            a_records, a_total = 1, sum(summaries.values())
            g_records += 1
        elif code == "16":
            if acct is None:
                errors.append(f"line {n}: 16 outside an account")
                continue
            amount = int(fields[2])
            acct.details.append(
                {
                    "type_code": fields[1],
                    "amount_cents": amount,
                    "bank_reference": fields[4],
                    "customer_reference": fields[5],
                    "text": text.rstrip("/"),
                }
            )
            a_records += 1
            a_total += amount
            g_records += 1
        elif code == "49":
            if acct is None or group is None:
                errors.append(f"line {n}: 49 without an open account")
                continue
            a_records += 1
            g_records += 1
            acct.control_total, acct.records = int(fields[1]), int(fields[2])
            if acct.control_total != a_total:
                errors.append(f"account {acct.account_number}: control total {acct.control_total} != {a_total}")
            if acct.records != a_records:
                errors.append(f"account {acct.account_number}: record count {acct.records} != {a_records}")
            group.accounts.append(acct)
            g_total += a_total
            acct = None
        elif code == "98":
            if group is None:
                errors.append(f"line {n}: 98 without a group")
                continue
            g_records += 1
            group.control_total, group.n_accounts, group.records = int(fields[1]), int(fields[2]), int(fields[3])
            if group.control_total != g_total:
                errors.append(f"group {group.as_of}: control total {group.control_total} != {g_total}")
            if group.n_accounts != len(group.accounts):
                errors.append(f"group {group.as_of}: account count {group.n_accounts} != {len(group.accounts)}")
            if group.records != g_records:
                errors.append(f"group {group.as_of}: record count {group.records} != {g_records}")
            pf.groups.append(group)
            group = None
        elif code == "99":
            pf.control_total, pf.n_groups, pf.records = int(fields[1]), int(fields[2]), int(fields[3])
            total = sum(g.control_total for g in pf.groups)
            if pf.control_total != total:
                errors.append(f"file control total {pf.control_total} != {total}")
            if pf.n_groups != len(pf.groups):
                errors.append(f"file group count {pf.n_groups} != {len(pf.groups)}")
            if pf.records != len(raw):
                errors.append(f"file record count {pf.records} != {len(raw)}")
        elif code != "88":
            errors.append(f"line {n}: unknown record type {code!r}")
    if not raw[-1].startswith("99,"):
        errors.append("file does not end with a 99 record")
    return pf
