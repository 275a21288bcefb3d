"""A staged journal entry in an ERP's own vocabulary, for evaluator entries and guarded steps.

ERPs keep a line's side three ways: debit and credit columns (Vista, Sage Intacct's open lines…),
a transaction type with an absolute amount (``tr_type`` 1 / -1), or one signed amount. Families that
expect "Dr 6200 for the month's amortization" ask here for the line filter and the column to total
(``line_side``) and the total as that column holds it (``side_total``), or for the whole expected
entry (``expect_side_total``), so one expected entry holds whatever the vendor's layout;
``expect_entry`` is the one draft header the task stages, ``forbid_reversing`` refuses an entry set
to reverse and ``forbid_not_reversing`` one that is not (where the ERP has the flag), and
``post_step`` is the guarded call that would post the staged batch. ``ErpEntry`` gives a family's
case (its ``erp`` and ``clock``) the ERP's label and dialect and the entry date.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from cfab.apps.erp.dialects import Dialect
from cfab.apps.erp.vendors import ERP_APPS
from cfab.grader.predicates import RowPredicate
from cfab.tasks.kit.entries import Where, expect_added, forbid_added
from cfab.tasks.kit.figures import money_str
from cfab.tasks.kit.steps import step
from cfab.tasks.model import ToolStep, result_of


class ErpEntry:
    """What a case staged as one journal entry in an ERP reads off its ``erp`` (the app) and its
    ``clock`` (the entry is dated the clock): mixed into the family's case dataclass."""

    erp: str
    clock: date

    @property
    def label(self) -> str:
        return ERP_APPS[self.erp].label

    @property
    def D(self) -> Dialect:
        return ERP_APPS[self.erp].D

    @property
    def entry_date(self) -> str:
        return self.clock.isoformat()


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


def side_total(erp: Dialect, value: Decimal, debit: bool) -> str:
    """``value`` as the total column of :func:`line_side` holds it: negative on the credit side of an
    ERP that keeps one signed amount, as it is otherwise."""
    line = erp.t("je_open_line")
    return money_str(value if debit or line.has("debit") or line.has("tr_type") else -value)


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
    return expect_added(
        app,
        erp.t("je_open_line").table,
        f"{side} AND {where}" if where else side,
        assert_=assert_,
        total={col: side_total(erp, value, debit)},
        label=label,
    )


def _reversal_flag(app: str, erp: Dialect, condition: str, label: str) -> list[RowPredicate]:
    hdr = erp.t("je_open_hdr")
    if not hdr.has("auto_reverse"):
        return []
    yes = "'Y'" if erp.bool_yn else "true"
    return [forbid_added(app, hdr.table, f"{hdr.n('auto_reverse')} {condition} {yes}", label=label)]


def forbid_reversing(app: str, erp: Dialect, label: str) -> list[RowPredicate]:
    """A draft entry set to reverse next period, where the ERP's entries have the flag."""
    return _reversal_flag(app, erp, "=", label)


def forbid_not_reversing(app: str, erp: Dialect, label: str) -> list[RowPredicate]:
    """A draft entry not set to reverse next period, where the ERP's entries have the flag (an
    accrual must reverse where the ERP supports it)."""
    return _reversal_flag(app, erp, "IS DISTINCT FROM", label) if erp.supports_auto_reverse else []


def post_step(app: str) -> ToolStep:
    """The guarded call that would post the batch ``journal_entries.stage`` returned, in ``app``."""
    post = ERP_APPS[app].TOOL_NAMES["post"]
    return step(f"{app}.{post}", kind="journal_entry", batch_id=result_of(f"{app}.journal_entries.stage", "batch_id"))


__all__ = [
    "ErpEntry",
    "expect_entry",
    "expect_side_total",
    "forbid_not_reversing",
    "forbid_reversing",
    "line_side",
    "post_step",
    "side_total",
]
