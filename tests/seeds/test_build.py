"""The book as a whole: determinism, invariants, shape, scale, other clocks."""

from __future__ import annotations

from datetime import date

import duckdb
import pytest

from cfab.schema import content_digest
from cfab.seeds import BuildInputs, check_invariants, invariant_queries
from tests.seeds.seeds_helpers import fresh_book, one, rows

TABLES = (
    "company",
    "gl_accounts",
    "gl_periods",
    "journal_entries",
    "journal_lines",
    "cost_codes",
    "erp_phase_map",
    "union_locals",
    "owners",
    "jobs",
    "prime_contracts",
    "prime_sov_lines",
    "sov_progress",
    "owner_pay_apps",
    "owner_pay_app_lines",
    "change_events",
    "change_orders",
    "change_order_lines",
    "budget_lines",
    "estimates",
    "estimate_items",
    "funding_sources",
    "vendors",
    "vendor_identities",
    "certificates_of_insurance",
    "commitments",
    "commitment_lines",
    "ap_invoices",
    "ap_invoice_lines",
    "lien_waivers",
    "bank_accounts",
    "checks",
    "check_applications",
    "bank_transactions",
    "bank_balances",
    "positive_pay_exceptions",
    "employees",
    "employee_identities",
    "wage_determinations",
    "wage_rates",
    "apprentice_ratio_rules",
    "timecards",
    "payroll_batches",
    "payroll_earnings",
    "certified_payrolls",
    "certified_payroll_lines",
    "documents",
    "policies",
    "emails",
    "divergences",
)


def test_every_book_table_is_filled(book: duckdb.DuckDBPyConnection) -> None:
    present = {r[0] for r in rows(book, "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'book'")}
    assert present >= set(TABLES)
    empty = [t for t in sorted(present) if one(book, f"SELECT count(*) FROM book.{t}") == 0]
    assert empty == []


def test_invariants_hold_at_scale_1(book: duckdb.DuckDBPyConnection) -> None:
    assert len(invariant_queries()) >= 30
    assert {k: v for k, v in check_invariants(book).items() if v} == {}


def test_invariants_hold_at_scale_3(book3: duckdb.DuckDBPyConnection) -> None:
    assert {k: v for k, v in check_invariants(book3).items() if v} == {}


def test_two_builds_have_the_same_content(book: duckdb.DuckDBPyConnection) -> None:
    again = fresh_book(BuildInputs())
    assert content_digest(again, schemas=["book"]) == content_digest(book, schemas=["book"])
    other = fresh_book(BuildInputs(seed=8))
    assert content_digest(other, schemas=["book"]) != content_digest(book, schemas=["book"])


def test_no_float_columns(book: duckdb.DuckDBPyConnection) -> None:
    floats = rows(
        book,
        """SELECT table_name, column_name, data_type FROM duckdb_columns()
                           WHERE schema_name = 'book' AND data_type IN ('FLOAT', 'DOUBLE', 'REAL')""",
    )
    assert floats == []


def test_scale_1_sizes(book: duckdb.DuckDBPyConnection) -> None:
    assert one(book, "SELECT count(*) FROM book.jobs WHERE status = 'active'") == 31
    assert one(book, "SELECT count(*) FROM book.jobs WHERE status = 'closed'") == 3
    assert 55 <= one(book, "SELECT count(*) FROM book.vendors") <= 70
    assert 35 <= one(book, "SELECT count(*) FROM book.vendors WHERE vendor_type = 'subcontractor'") <= 45
    assert 130 <= one(book, "SELECT count(*) FROM book.commitments") <= 175
    assert one(
        book,
        """SELECT min(n) >= 2 AND max(n) <= 8 FROM
                        (SELECT count(*) AS n FROM book.commitment_lines GROUP BY commitment_id)""",
    )
    assert 550 <= one(book, "SELECT count(*) FROM book.ap_invoices") <= 900
    assert 100 <= one(book, "SELECT count(*) FROM book.employees") <= 140
    assert one(book, "SELECT count(*) FROM book.checks") >= 300
    assert one(book, "SELECT count(DISTINCT source_system) FROM book.timecards") == 2
    assert one(book, "SELECT count(DISTINCT period) FROM book.journal_entries") == 13


def test_scale_keeps_the_scale_1_universe(book: duckdb.DuckDBPyConnection, book3: duckdb.DuckDBPyConnection) -> None:
    for table, key in (
        ("jobs", "job_number"),
        ("commitments", "commitment_id"),
        ("ap_invoices", "invoice_id"),
        ("vendors", "vendor_key"),
        ("checks", "check_id"),
        ("employees", "employee_id"),
        ("budget_lines", "job_number || cost_code"),
        ("divergences", "divergence_id"),
    ):
        base = set(rows(book, f"SELECT * FROM book.{table}"))
        scaled = set(rows(book3, f"SELECT * FROM book.{table}"))
        assert base <= scaled, table
        n1 = one(book, f"SELECT count(DISTINCT {key}) FROM book.{table}")
        n3 = one(book3, f"SELECT count(DISTINCT {key}) FROM book.{table}")
        assert n3 > 2 * n1 * 0.9 if table != "divergences" else n3 > n1, table
    assert one(book3, "SELECT count(*) FROM book.documents") == one(book, "SELECT count(*) FROM book.documents")
    pospay = "SELECT count(*) FROM book.positive_pay_exceptions"
    assert one(book3, pospay) == one(book, pospay) == 4 + 18  # CashPro's file and the six planted beyond it
    assert one(book3, "SELECT max(length(job_number)) FROM book.jobs") == 5


@pytest.mark.parametrize("clock", [date(2026, 6, 30), date(2026, 2, 1)])
def test_other_clocks_build_and_hold(clock: date) -> None:
    con = fresh_book(BuildInputs(clock=clock))
    assert {k: v for k, v in check_invariants(con).items() if v} == {}
    assert one(con, "SELECT max(period) FROM book.gl_periods WHERE status = 'open'") == f"{clock:%Y-%m}"
    assert one(con, "SELECT count(*) FROM book.gl_periods WHERE status = 'closed'") == 12
    assert one(con, "SELECT max(presented_date) FROM book.positive_pay_exceptions") == clock
