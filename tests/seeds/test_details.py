"""The book's later additions: the treasury accounts at Wells Fargo and PNC, the certificate,
WH-347 and G702 details, the signers, and every policy as a PDF too."""

from __future__ import annotations

import re
from datetime import date

import duckdb

from cfab.seeds import BuildInputs
from tests.seeds.seeds_helpers import fresh_book, one, rows

TREASURY = ("BA-WFMM", "BA-PNCEQ")
# seeds/bank_rec.py: bank transactions the GL does not have, and the deposits it plants (T_bank_rec)
RECONCILING_TXNS = (
    "SELECT entity_key FROM book.divergences WHERE kind = 'bank_reconciling_item' "
    "UNION SELECT t.txn_id FROM book.bank_transactions t JOIN book.journal_entries e ON e.je_number = t.reference "
    "WHERE e.source_ref LIKE 'BANKREC:%'"
)


def test_every_bank_has_an_account_with_thirteen_months_of_activity(book: duckdb.DuckDBPyConnection) -> None:
    assert {r[0] for r in rows(book, "SELECT DISTINCT bank FROM book.bank_accounts")} == {
        "bofa",
        "chase",
        "wells",
        "pnc",
    }
    for acct in TREASURY:
        months = one(
            book,
            "SELECT count(DISTINCT strftime(posted_date, '%Y-%m')) FROM book.bank_transactions "
            "WHERE bank_account_id = ?",
            acct,
        )
        assert months == 13, acct
        assert one(book, "SELECT count(*) FROM book.bank_balances WHERE bank_account_id = ?", acct) == 13
    codes = {
        r[0]
        for r in rows(
            book,
            "SELECT DISTINCT bai_type_code FROM book.bank_transactions "
            "WHERE bank_account_id IN ('BA-WFMM', 'BA-PNCEQ') AND txn_id NOT IN "
            f"({RECONCILING_TXNS})",
        )
    }
    assert codes == {"195", "495", "354", "481"}  # wires in/out, interest credit, loan payment
    products = dict(rows(book, "SELECT bank_account_id, account_type FROM book.bank_account_products"))
    assert products == {"BA-OPER": "DDA", "BA-PAYR": "DDA", "BA-WFMM": "MMDA", "BA-PNCEQ": "DDA"}


def test_sweeps_leave_operating_month_ends_alone(book: duckdb.DuckDBPyConnection) -> None:
    """Every operating <-> money-market wire pair nets to zero inside its month, on both sides."""
    for acct in ("BA-OPER", "BA-WFMM"):
        left = rows(
            book,
            """SELECT strftime(t.posted_date, '%Y-%m'), sum(t.amount) FROM book.bank_transactions t
                             JOIN book.journal_entries e ON e.je_number = t.reference
                             WHERE t.bank_account_id = ? AND e.description ILIKE '%sweep%'
                             GROUP BY ALL HAVING sum(t.amount) <> 0""",
            acct,
        )
        assert left == [], acct
    # a line-of-credit advance (T_payment_run's plant) is a wire from another bank: one leg here
    transfers = """bai_type_code IN ('195', '495') AND reference NOT IN
                   (SELECT je_number FROM book.journal_entries WHERE source_ref LIKE 'LOC-DRAW:%')"""
    sweeps = one(book, f"SELECT count(*) FROM book.bank_transactions WHERE bank_account_id = 'BA-OPER' AND {transfers}")
    assert sweeps >= 6 and sweeps % 2 == 0
    # both legs of every transfer carry the entry's number
    for ref, n, total in rows(
        book,
        f"SELECT reference, count(*), sum(amount) FROM book.bank_transactions WHERE {transfers} GROUP BY reference",
    ):
        assert (n, total) == (2, 0), ref


def test_treasury_gl(book: duckdb.DuckDBPyConnection) -> None:
    accounts = dict(
        rows(
            book, "SELECT account, name FROM book.gl_accounts WHERE account IN ('1020', '1030', '2510', '4110', '6910')"
        )
    )
    assert len(accounts) == 5
    loan = one(book, "SELECT sum(credit - debit) FROM book.journal_lines WHERE account = '2510'")
    opening = one(
        book,
        """SELECT sum(l.credit) FROM book.journal_lines l JOIN book.journal_entries e USING (je_id)
                           WHERE e.source_ref = 'OPENING' AND l.account = '2510'""",
    )
    assert 0 < loan < opening
    interest = one(
        book,
        f"SELECT sum(amount) FROM book.bank_transactions WHERE bai_type_code = '354' AND txn_id NOT IN ({RECONCILING_TXNS})",
    )
    unbooked = one(book, f"SELECT sum(amount) FROM book.bank_transactions WHERE txn_id IN ({RECONCILING_TXNS})")
    assert unbooked  # seeds/bank_rec.py: bank transactions the GL does not have (fees, interest, an NSF return)
    assert interest == one(book, "SELECT sum(credit - debit) FROM book.journal_lines WHERE account = '4110'") > 0
    # the new entries continue each period's general-journal numbering
    numbers = [
        r[0] for r in rows(book, "SELECT je_number FROM book.journal_entries WHERE source_ref LIKE 'TREASURY:%'")
    ]
    assert numbers and all(re.fullmatch(r"GJ\d{4}-\d{4}", n) for n in numbers)


def test_coi_details(book: duckdb.DuckDBPyConnection) -> None:
    assert one(book, "SELECT count(*) FROM book.certificates_of_insurance") == one(
        book, "SELECT count(*) FROM book.coi_details"
    )
    naic = rows(
        book,
        """SELECT c.insurer, min(d.insurer_naic), max(d.insurer_naic) FROM book.coi_details d
                         JOIN book.certificates_of_insurance c USING (coi_id) GROUP BY 1""",
    )
    assert naic and all(lo == hi and re.fullmatch(r"\d{5}", lo) for _i, lo, hi in naic)
    # one broker per insured, across its certificates
    assert (
        one(
            book,
            """SELECT max(n) FROM (SELECT count(DISTINCT d.producer_id) AS n FROM book.coi_details d
                        JOIN book.certificates_of_insurance c USING (coi_id) GROUP BY c.vendor_key)""",
        )
        == 1
    )
    assert one(book, "SELECT count(DISTINCT producer_id) FROM book.coi_details") >= 5


def test_wh347_details(book: duckdb.DuckDBPyConnection) -> None:
    lines = one(book, "SELECT count(*) FROM book.certified_payroll_lines")
    assert lines == one(book, "SELECT count(*) FROM book.certified_payroll_line_details") > 0
    # job 1990's crews worked four overtime hours on the Saturday of the review week
    sat = rows(
        book,
        """SELECT d.st_sat, d.ot_sat FROM book.certified_payroll_line_details d
                        JOIN book.certified_payrolls s USING (submission_id) WHERE s.job_number = '1990'""",
    )
    assert sat and all(st == 0 and ot == 4 for st, ot in sat)
    assert (
        one(
            book,
            """SELECT count(*) FROM book.certified_payroll_line_details
                        WHERE fica = 0 OR federal_withholding = 0 OR state_withholding = 0 OR other_deductions = 0""",
        )
        == 0
    )
    assert one(book, "SELECT count(*) FROM book.employee_tax_profiles") == one(
        book, "SELECT count(*) FROM book.employees"
    )


def test_signers(book: duckdb.DuckDBPyConnection) -> None:
    assert rows(book, "SELECT title FROM book.company_officers WHERE signs_certified_payroll") == [("Controller",)]
    # the mailbox's controller is the officer
    name = one(book, "SELECT name FROM book.company_officers WHERE officer_id = 'controller'")
    assert one(book, "SELECT count(*) FROM book.emails WHERE body LIKE '%' || ? || '%'", name) >= 1
    assert one(book, "SELECT count(*) FROM book.prime_contract_architects") == one(
        book, "SELECT count(*) FROM book.prime_contracts"
    )
    assert (
        one(
            book,
            """SELECT count(*) FROM book.lien_waivers w JOIN book.vendor_signers s USING (vendor_key)
                        WHERE w.signer IS NOT NULL AND w.signer <> s.signer_name""",
        )
        == 0
    )
    # the split payee's sole proprietorship is signed by the person behind the shared SSN
    assert (
        one(
            book,
            """SELECT count(*) FROM book.vendors v JOIN book.vendor_signers s USING (vendor_key)
                        JOIN book.vendors p ON p.tin = v.tin AND p.entity_type = 'individual'
                        WHERE v.entity_type = 'sole_proprietor' AND s.signer_name <> p.legal_name""",
        )
        == 0
    )


def test_g702_retainage_split(book: duckdb.DuckDBPyConnection) -> None:
    assert one(book, "SELECT count(*) FROM book.owner_pay_app_retainage") == one(
        book, "SELECT count(*) FROM book.owner_pay_apps"
    )
    assert one(book, "SELECT count(*) FROM book.owner_pay_app_retainage WHERE stored_material_retainage > 0") > 0


def test_policies_are_markdown_and_pdf(book: duckdb.DuckDBPyConnection) -> None:
    docs = rows(
        book, "SELECT natural_key, filename, mime_type, store, folder FROM book.documents WHERE doc_type = 'policy'"
    )
    n = one(book, "SELECT count(*) FROM book.policies")
    assert len(docs) == 2 * n
    pdfs = {
        k
        for k, f, m, s, folder in docs
        if m == "application/pdf" and f == k and s == "sharepoint" and folder == "/Policies"
    }
    assert pdfs == {p.removesuffix(".md") + ".pdf" for (p,) in rows(book, "SELECT policy_id FROM book.policies")}


def test_details_at_scale_3(book: duckdb.DuckDBPyConnection, book3: duckdb.DuckDBPyConnection) -> None:
    for table in (
        "coi_details",
        "vendor_signers",
        "prime_contract_architects",
        "certified_payroll_line_details",
        "employee_tax_profiles",
        "owner_pay_app_retainage",
    ):
        assert one(book3, f"SELECT count(*) FROM book.{table}") == 3 * one(
            book, f"SELECT count(*) FROM book.{table}"
        ), table
    for table in ("bank_account_products", "company_officers", "insurance_producers"):
        assert one(book3, f"SELECT count(*) FROM book.{table}") == one(book, f"SELECT count(*) FROM book.{table}"), (
            table
        )
    # replica individuals sign for themselves
    assert (
        one(
            book3,
            """SELECT count(*) FROM book.vendors v JOIN book.vendor_signers s USING (vendor_key)
                         WHERE v.entity_type = 'individual' AND s.signer_name <> v.legal_name""",
        )
        == 0
    )


def test_a_mid_month_clock_never_splits_a_sweep() -> None:
    con = fresh_book(BuildInputs(clock=date(2026, 3, 17)))
    open_legs = one(
        con,
        """SELECT count(*) FROM book.bank_transactions t JOIN book.journal_entries e
                            ON e.je_number = t.reference WHERE e.description ILIKE '%sweep%' AND e.period = '2026-03'""",
    )
    assert open_legs == 0
