"""Certified payroll on the U.S. Department of Labor form WH-347.

Page 1 (landscape) is the payroll: (1) name, address and the last four digits of the SSN,
(2) withholding exemptions, (3) work classification, (4) hours each day split into overtime
(O, top) and straight time (S, bottom), (5) total hours, (6) rates of pay and fringe, (7) gross
earned on this project and on all work, (8) deductions (FICA, withholding tax, other, total)
and (9) net wages. The last page is the Statement of Compliance, signed by the company's
certifying officer. Rates, hours and gross are the submission lines verbatim, so an underpaid
line or an apprentice without a registration is on the page exactly as the book has it; the
split and the deductions are ``certified_payroll_line_details`` (they tie to the payroll
batch). A book without those rows gets the earlier layout's data: one hours figure a day and
the batch's withholding as the total deductions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import duckdb

from cfab.seeds.documents.common import Canvas, Column, Row, hours, long_date, mdy, num
from cfab.seeds.documents.sql import by_key, rows

DOC_TYPES = ("wh347",)
DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")


@dataclass(frozen=True)
class Wh347Data:
    header: Row
    lines: tuple[Row, ...]


def load(con: duckdb.DuckDBPyConnection, ids: list[str] | None) -> dict[str, Wh347Data]:
    """Every WH-347 document in ``ids`` (None: all) with its payroll lines."""
    heads = rows(con, "wh347_headers", ids=ids)
    lines = by_key(rows(con, "wh347_lines", keys=[h["submission_id"] for h in heads]), "submission_id")
    return {h["document_id"]: Wh347Data(h, tuple(lines.get(h["submission_id"], ()))) for h in heads}


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _two(top: str, bottom: str) -> str:
    """A cell of the form's two-row employee line: overtime on top, straight time below."""
    return f"{top}\n{bottom}"


def _line_cells(ln: Row) -> list[str]:
    who = f"{ln['last_name']}, {ln['first_name']}\nxxx-xx-{ln['ssn_last4']}"
    if ln.get("lcp_id"):
        who += f"  ID {ln['lcp_id']}"
    if ln.get("emp_address"):
        who += f"\n{ln['emp_address']}\n{ln['emp_city']}, {ln['emp_state']} {ln['emp_zip']}"
    cls = ln["classification"]
    if ln["level"] == "apprentice":
        reg = ln.get("apprentice_registration")
        cls += f"\nApprentice - Reg. {reg}" if reg else "\nApprentice"
    exemptions = "" if ln.get("withholding_exemptions") is None else str(ln["withholding_exemptions"])
    if ln.get("fica") is None:  # no detail row: the line's own figures and the batch's withholding
        return [
            who,
            exemptions,
            cls,
            "",
            *[hours(ln[f"hours_{d}"]) for d in DAYS],
            num(ln["total_hours"]),
            num(ln["rate_paid"]),
            num(ln["fringe_paid"]),
            num(ln["gross_this_project"]),
            "",
            "",
            "",
            num(ln.get("withholding")),
            num(ln.get("net_pay")),
        ]
    ot = sum(ln[f"ot_{d}"] for d in DAYS)
    st = sum(ln[f"st_{d}"] for d in DAYS)
    return [
        who,
        exemptions,
        cls,
        _two("O", "S"),
        *[_two(hours(ln[f"ot_{d}"]), hours(ln[f"st_{d}"])) for d in DAYS],
        _two(num(ot) if ot else "", num(st)),
        _two(num(ln["overtime_rate"]) if ot else "", num(ln["rate_paid"])),
        num(ln["fringe_paid"]),
        _two(num(ln["gross_this_project"]), num(ln["gross_all_work"])),
        num(ln["fica"]),
        _two(f"Fed {num(ln['federal_withholding'])}", f"IL {num(ln['state_withholding'])}"),
        num(ln["other_deductions"]),
        num(ln["total_deductions"]),
        num(ln["detail_net_pay"]),
    ]


def render(doc: Row, data: Wh347Data, company: Row) -> bytes:
    """Payroll page(s) then the Statement of Compliance."""
    h, lines = data.header, data.lines
    week_end = h["week_ending"]
    days = [week_end - timedelta(days=6 - i) for i in range(7)]
    project = f"{h['job_number']} - {h['job_name']}, {h['job_city']}, {h['job_state']}"
    contract_no = h.get("contract_number") or h["job_number"]

    def page_header(cv: Canvas) -> float:
        L, R = cv.left, cv.right
        cv.text(L, 40, "U.S. Department of Labor", size=8, style="B")
        cv.text(L, 50, "Wage and Hour Division", size=7.5, style="")
        cv.text((L + R) / 2, 44, "PAYROLL", size=14, style="B", align="C")
        cv.text(
            (L + R) / 2,
            54,
            "(For Contractor's Optional Use; See Instructions at www.dol.gov/whd/forms/wh347instr.htm)",
            size=6.5,
            style="",
            align="C",
        )
        cv.text(R, 40, "Form WH-347", size=8, style="B", align="R")
        cv.text(R, 50, "OMB No.: 1235-0008", size=6.5, style="", align="R")
        cv.rule(L, 58, R, 0.8)
        cv.field(L, 72, "NAME OF CONTRACTOR [X] OR SUBCONTRACTOR [ ]:", company["name"], size=8)
        cv.field(
            L + 440,
            72,
            "ADDRESS:",
            f"{company['address']}, {company['city']}, {company['state']} {company['zip']}",
            size=8,
        )
        cv.field(L, 86, "PAYROLL NO.:", str(h["payroll_number"]), size=8)
        cv.field(L + 120, 86, "FOR WEEK ENDING:", mdy(week_end), size=8)
        cv.field(L + 300, 86, "PROJECT AND LOCATION:", project, size=8)
        cv.field(L, 100, "PROJECT OR CONTRACT NO.:", contract_no, size=8)
        wd = f"{h['wd_number']} Mod {h['modification']}" if h.get("wd_number") else ""
        cv.field(L + 300, 100, "WAGE DETERMINATION:", wd, size=8)
        return 108.0

    c = Canvas(created=doc["created_date"], title=doc["title"], author=company["name"], orientation="L")
    c.page_header = page_header
    y = page_header(c)
    day_cols = [Column(f"{d.strftime('%a')[0]}\n{d.strftime('%m/%d')}", 20, "C") for d in days]
    cols = [
        Column("(1) NAME, ADDRESS AND INDIVIDUAL IDENTIFYING NUMBER (LAST FOUR DIGITS OF SSN)", 100),
        Column("(2) NO. OF WITH-HOLDING EXEMP-TIONS", 30, "C"),
        Column("(3) WORK CLASSIFICATION", 70),
        Column("OT. OR ST.", 14, "C"),
        *day_cols,
        Column("(5) TOTAL HOURS", 30, "R"),
        Column("(6) RATE OF PAY", 36, "R"),
        Column("FRINGE BENEFITS (per hour)", 32, "R"),
        Column("(7) GROSS AMOUNT EARNED (this project / all work)", 50, "R"),
        Column("(8) FICA", 38, "R"),
        Column("(8) WITH-HOLDING TAX", 44, "R"),
        Column("(8) OTHER", 34, "R"),
        Column("(8) TOTAL DEDUCTIONS", 42, "R"),
        Column("(9) NET WAGES PAID FOR WEEK", 46, "R"),
    ]
    body = [_line_cells(ln) for ln in lines]
    days_x = c.left + sum(col.width for col in cols[:4])
    c.text(days_x + 70, y + 6, "(4) DAY AND DATE / HOURS WORKED EACH DAY", size=6, style="B", align="C")
    c.table(c.left, y + 9, cols, body, size=7, header_size=5)

    # Statement of Compliance
    c.page_header = None
    c.new_page("P")
    L, R = c.left, c.right
    c.text(L, 52, "STATEMENT OF COMPLIANCE", size=12, style="B")
    c.text(R, 52, "Form WH-347 (page 2)", size=7, style="", align="R")
    start = days[0]
    y = 80.0
    c.field(L, y, "Date:", mdy(doc["created_date"]), size=9)
    y += 20
    signer, title = h.get("certifier_name"), h.get("certifier_title")
    who = f"{signer} ({title})" if signer else "____________________ (Payroll Manager)"
    sentence = (
        f"I, {who}, do hereby state: (1) That I pay or supervise the "
        f"payment of the persons employed by {company['name']} on the {project}; that during the "
        f"payroll period commencing on the {_ordinal(start.day)} day of {start.strftime('%B')}, "
        f"{start.year}, and ending the {_ordinal(week_end.day)} day of {week_end.strftime('%B')}, "
        f"{week_end.year}, all persons employed on said project have been paid the full weekly wages "
        f"earned, that no rebates have been or will be made either directly or indirectly to or on "
        f"behalf of said {company['name']} from the full weekly wages earned by any person and that "
        f"no deductions have been made either directly or indirectly from the full wages earned by "
        f"any person, other than permissible deductions as defined in Regulations, Part 3 (29 C.F.R. "
        f"Subtitle A)."
    )
    y = c.paragraph(L, y, R - L, sentence, size=9) + 18
    for para in (
        "(2) That any payrolls otherwise under this contract required to be submitted for the above period "
        "are correct and complete; that the wage rates for laborers or mechanics contained therein are not "
        "less than the applicable wage rates contained in any wage determination incorporated into the "
        "contract; that the classifications set forth therein for each laborer or mechanic conform with "
        "the work he performed.",
        "(3) That any apprentices employed in the above period are duly registered in a bona fide "
        "apprenticeship program registered with a State apprenticeship agency recognized by the Bureau "
        "of Apprenticeship and Training, United States Department of Labor.",
        "(4) That: (a) WHERE FRINGE BENEFITS ARE PAID TO APPROVED PLANS, FUNDS, OR PROGRAMS - in addition "
        "to the basic hourly wage rates paid to each laborer or mechanic listed in the above referenced "
        "payroll, payments of fringe benefits as listed in the contract have been or will be made to "
        "appropriate programs for the benefit of such employees, except as noted in section 4(c) below.",
        "(c) EXCEPTIONS: None.",
        "REMARKS: Submitted for " + (f"week ending {long_date(week_end)}; status {str(h['status']).upper()}."),
    ):
        y = c.paragraph(L, y, R - L, para, size=9) + 18
    y += 10
    name_title = f"{signer}, {title}" if signer else "Payroll Manager, " + company["name"]
    c.field(L, y, "NAME AND TITLE:", name_title, size=9)
    c.field(L + 330, y, "SIGNATURE:", "", size=9)
    c.rule(L + 390, y + 3, R, 0.5)
    y += 26
    c.paragraph(
        L,
        y,
        R - L,
        "THE WILLFUL FALSIFICATION OF ANY OF THE ABOVE STATEMENTS MAY SUBJECT THE "
        "CONTRACTOR OR SUBCONTRACTOR TO CIVIL OR CRIMINAL PROSECUTION. SEE SECTION 1001 OF TITLE 18 "
        "AND SECTION 3729 OF TITLE 31 OF THE UNITED STATES CODE.",
        size=7.5,
        style="B",
    )
    c.footer_all(f"{company['name']} - Certified payroll {h['submission_id']}")
    return c.output()
