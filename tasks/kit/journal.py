"""A staged journal entry's lines in an ERP's own vocabulary, for evaluator entries.

ERPs keep a line's side three ways: debit and credit columns (Vista, Sage Intacct's open lines…),
a transaction type with an absolute amount (``tr_type`` 1 / -1), or one signed amount. Families that
expect "Dr 6200 for the month's amortization" ask here for the line filter and the column to total,
so one expected entry holds whatever the vendor's layout.
"""

from __future__ import annotations

from cfab.apps.erp.dialects import Dialect


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


__all__ = ["line_side"]
