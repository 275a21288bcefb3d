"""The form 1099 plants (seeds/form_1099.py): B-notices whose W-9 corrects a TIN keyed with two
digits transposed or a sole proprietor's line-1 name, and virtual-card payments — on payees
reportable on their checks alone, each B-notice a registered Track1099 divergence."""

from __future__ import annotations

from decimal import Decimal

import duckdb

REPORTABLE = ("individual", "sole_proprietor", "llc_single_member", "partnership", "llc_partnership")


def rows(book: duckdb.DuckDBPyConnection, sql: str) -> list[tuple]:
    return book.execute(sql).fetchall()


def _checks_paid(book: duckdb.DuckDBPyConnection, vendor_key: str) -> Decimal:
    return rows(
        book,
        f"""SELECT coalesce(sum(amount), 0) FROM book.checks WHERE payee_vendor_key = '{vendor_key}'
            AND status <> 'void' AND year(issue_date) = (SELECT max(tax_year) + 1 FROM book.tin_notices)""",
    )[0][0]


def test_bnotices(book: duckdb.DuckDBPyConnection) -> None:
    notices = rows(
        book,
        """SELECT n.vendor_key, n.mismatch, n.filed_tin, n.w9_tin, v.tin, n.filed_name, n.w9_name, n.w9_business_name,
                  v.entity_type, v.legal_name, v.dba_name
           FROM book.tin_notices n JOIN book.vendors v USING (vendor_key)""",
    )
    assert {n[1] for n in notices} >= {"tin"}
    for key, mismatch, filed, w9, tin, filed_name, w9_name, business, entity, legal, dba in notices:
        assert w9 == tin and entity in REPORTABLE and _checks_paid(book, key) >= 600
        if mismatch == "tin":
            assert filed != tin and sorted(filed) == sorted(tin)
        else:
            assert filed == tin and entity == "sole_proprietor"
            assert (filed_name, w9_name, business) == (dba, legal, dba)
    registered = rows(book, "SELECT count(*) FROM book.divergences WHERE kind LIKE 'bnotice_%' AND apps = 'track1099'")
    assert registered[0][0] == len(notices)


def test_card_payments(book: duckdb.DuckDBPyConnection) -> None:
    cards = rows(book, "SELECT vendor_key, amount FROM book.card_payments")
    assert cards and all(a > 0 for _, a in cards)
    for key in {k for k, _ in cards}:
        assert _checks_paid(book, key) >= 600
    overlap = rows(book, "SELECT count(*) FROM book.card_payments JOIN book.tin_notices USING (vendor_key)")
    assert overlap[0][0] == 0
