"""A staged journal entry's lines in an ERP's own vocabulary, for evaluator entries.

ERPs keep a line's side three ways: debit and credit columns (Vista, Sage Intacct's open lines…),
a transaction type with an absolute amount (``tr_type`` 1 / -1), or one signed amount. Families that
expect "Dr 6200 for the month's amortization" ask here for the line filter and the column to total,
so one expected entry holds whatever the vendor's layout.
"""

from __future__ import annotations

from decimal import Decimal

from cfab.apps.erp.dialects import Dialect
from cfab.grader.predicates import RowPredicate
from cfab.tasks.kit.entries import Where, expect_added, forbid_added
from cfab.tasks.kit.figures import money_str


def line_side(erp: Dialect, account: str, debit: bool) -> tuple[str, str]:
    """(where, total column) selecting the added ``je_open_line`` rows on ``account``'s debit
    (``debit``) or credit side, in ``erp``'s native columns."""
    line = erp.t("je_open_line")
    acct = line.n("account")
    if line.has("debit"):
        col = line.n("debit" if debit else "credit")
        return f"{acct} = '{account}' AND {col} > 0", col
    if line.has("tr_type"):
        return f"{acct} = '{account}' AND {line.n('tr_type')} = {1 if debit else -1}", line.n("abs_amount")
    col = line.n("amount")
    return f"{acct} = '{account}' AND {col} {'>' if debit else '<'} 0", col


def expect_entry(app: str, erp: Dialect, entry_date: str, label: str) -> RowPredicate:
    """Exactly one draft journal entry (``je_open_hdr``) added in ``app``, dated ``entry_date``."""
    hdr = erp.t("je_open_hdr")
    return expect_added(app, hdr.table, count=1, assert_={hdr.n("act_date"): entry_date}, label=label)


def expect_side_total(
    app: str,
    erp: Dialect,
    account: str,
    debit: bool,
    value: Decimal,
    *,
    label: str,
    where: str | None = None,
    assert_: Where = None,
) -> RowPredicate:
    """The added lines on ``account``'s debit (``debit``) or credit side (narrowed by ``where``, a SQL
    condition in the ERP's columns) total ``value``, whatever the ERP's layout (a signed amount
    column totals credits as a negative)."""
    side, col = line_side(erp, account, debit)
    line = erp.t("je_open_line")
    signed = value if debit or line.has("debit") or line.has("tr_type") else -value
    return expect_added(
        app,
        line.table,
        f"{side} AND {where}" if where else side,
        assert_=assert_,
        total={col: money_str(signed)},
        label=label,
    )


def forbid_reversing(app: str, erp: Dialect, label: str) -> list[RowPredicate]:
    """A draft entry set to reverse next period, where the ERP's entries have the flag."""
    hdr = erp.t("je_open_hdr")
    if not hdr.has("auto_reverse"):
        return []
    yes = "'Y'" if erp.bool_yn else "true"
    return [forbid_added(app, hdr.table, f"{hdr.n('auto_reverse')} = {yes}", label=label)]


def forbid_not_reversing(app: str, erp: Dialect, label: str) -> list[RowPredicate]:
    """A draft entry not set to reverse next period, where the ERP's entries have the flag (an
    accrual must reverse where the ERP supports it)."""
    hdr = erp.t("je_open_hdr")
    if not (erp.supports_auto_reverse and hdr.has("auto_reverse")):
        return []
    yes = "'Y'" if erp.bool_yn else "true"
    return [forbid_added(app, hdr.table, f"{hdr.n('auto_reverse')} IS DISTINCT FROM {yes}", label=label)]


__all__ = ["expect_entry", "expect_side_total", "forbid_not_reversing", "forbid_reversing", "line_side"]
