"""The app kit: the argument rules and SQL filter builders every archetype shares, written once.

Amounts and percentages. A tool argument that is money goes through :func:`money_arg`, a
percentage through :func:`percent_arg`; what a call site allows beyond the common rule (a
negative amount, a zero one) is a keyword it passes, never a rule of its own:

* money: a finite decimal with at most two places (``CENT``); not negative unless
  ``allow_negative=True``; zero unless ``allow_zero=False``;
* percent: a finite decimal from 0 to 100 with at most four places (``PERCENT_STEP``).

Arithmetic on book amounts: :func:`dec` (a stored value as a Decimal, NULL as 0), :func:`cents`
(half-up to the cent), :func:`pct_of` (that percent of an amount, in cents) and
:func:`percent_of` (a part as a percent of a whole, two places).

Filters, as sqlglot expressions over :mod:`cfab.schema.sqlbuild`'s ``col`` and typed
``literal`` (never f-string SQL). A column is a name (quoted) or an expression. Each builder
returns ``None`` for "no filter" when its value is not given, so the pieces combine with
:func:`all_of`:

* :func:`bounds` (``low <= column <= high``, either side optional) and :func:`date_range`
  (the same over dates);
* :func:`ilike` (a case-insensitive ``ILIKE '%text%'`` pattern: ``%`` and ``_`` in the text are
  wildcards) and :func:`icontains` (a case-insensitive substring, the text taken literally);
* :func:`ieq` (case-insensitive equality; a status or trade word is trimmed first, a file name
  is compared as given with ``trim=False``) and :func:`in_list`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from sqlglot import exp

from cfab.apps.tooling import ToolError
from cfab.schema.sqlbuild import col, literal

__all__ = [
    "CENT",
    "ZERO",
    "PERCENT_STEP",
    "money_arg",
    "percent_arg",
    "dec",
    "cents",
    "pct_of",
    "percent_of",
    "Column",
    "bounds",
    "date_range",
    "ilike",
    "icontains",
    "ieq",
    "in_list",
    "all_of",
]

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
PERCENT_STEP = Decimal("0.0001")


# ---------------------------------------------------------------------------------- arguments
def _decimal(value: Any, what: str, shape: str) -> Decimal:
    """``value`` as a finite Decimal, or a ToolError saying it must be ``shape``."""
    if value is None:
        raise ToolError(f"{what} is required")
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        number = Decimal("NaN")
    if not number.is_finite():
        raise ToolError(f"{what} must be {shape}, got {value!r}")
    return number


def money_arg(value: Any, what: str, *, allow_negative: bool = False, allow_zero: bool = True) -> Decimal:
    """An amount argument as an exact two-place Decimal, or an invalid_argument ToolError naming ``what``."""
    amount = _decimal(value, what, "a decimal amount like '12500.00'")
    try:
        quantized = amount.quantize(CENT)
    except InvalidOperation:  # beyond 28 significant digits (e.g. 1e309): no such amount
        raise ToolError(f"{what} is out of range, got {value}") from None
    if amount != quantized:
        raise ToolError(f"{what} takes at most two decimal places, got {value}")
    if amount < 0 and not allow_negative:
        raise ToolError(f"{what} cannot be negative, got {value}")
    if amount == 0 and not allow_zero:
        raise ToolError(f"{what} must be greater than zero, got {value}")
    return quantized


def percent_arg(value: Any, what: str) -> Decimal:
    """A percentage argument, 0 to 100 with at most four decimal places, or an invalid_argument ToolError."""
    pct = _decimal(value, what, "a number between 0 and 100")
    if pct < 0 or pct > 100:
        raise ToolError(f"{what} must be between 0 and 100, got {value}")
    if pct != pct.quantize(PERCENT_STEP):
        raise ToolError(f"{what} takes at most four decimal places, got {value}")
    return pct


# ---------------------------------------------------------------------------------- arithmetic
def dec(value: Any) -> Decimal:
    """A stored number as an exact Decimal (NULL counts as 0)."""
    return Decimal("0") if value is None else Decimal(str(value))


def cents(value: Any) -> Decimal:
    """Round half-up to cents."""
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def pct_of(amount: Decimal, pct: Decimal) -> Decimal:
    """``amount`` x ``pct`` / 100 in cents, half-up."""
    return cents(Decimal(amount) * Decimal(pct) / Decimal(100))


def percent_of(part: Decimal, whole: Decimal) -> Decimal:
    """``part`` / ``whole`` x 100, half-up to two places (0.00 when ``whole`` is 0)."""
    if whole == 0:
        return ZERO
    return cents(Decimal(part) * 100 / Decimal(whole))


# ---------------------------------------------------------------------------------- filters
Column = str | exp.Expr


def _ref(column: Column) -> exp.Expr:
    """The column as an expression (a fresh node each time: a sqlglot node has one parent)."""
    return col(column) if isinstance(column, str) else column.copy()


def bounds(column: Column, low: Any, high: Any, type_text: str | None = None) -> list[exp.Expr]:
    """``column >= low`` and ``column <= high``, each only when its bound is given (typed literals)."""
    parts: list[exp.Expr] = []
    if low is not None:
        parts.append(exp.GTE(this=_ref(column), expression=literal(low, type_text)))
    if high is not None:
        parts.append(exp.LTE(this=_ref(column), expression=literal(high, type_text)))
    return parts


def date_range(column: Column, start: date | None, end: date | None, type_text: str = "DATE") -> exp.Expr | None:
    """``start <= column <= end`` with either bound optional (None when neither is given)."""
    return all_of(*bounds(column, start, end, type_text))


def ilike(column: Column, text: str | None) -> exp.Expr | None:
    """``column ILIKE '%text%'``, or None when no text is given."""
    if not text:
        return None
    return exp.ILike(this=_ref(column), expression=literal(f"%{text}%"))


def icontains(column: Column, text: str | None) -> exp.Expr | None:
    """``contains(lower(column), lower(text))``: the text as a literal substring; None when not given."""
    if not text:
        return None
    return exp.func("contains", exp.Lower(this=_ref(column)), literal(text.lower()))


def ieq(column: Column, value: str | None, *, trim: bool = True) -> exp.Expr | None:
    """``lower(column) = lower(value)`` (``value`` trimmed unless ``trim=False``); None when not given."""
    if value is None:
        return None
    return exp.EQ(this=exp.Lower(this=_ref(column)), expression=literal((value.strip() if trim else value).lower()))


def in_list(column: Column, values: Iterable[Any], type_text: str | None = None) -> exp.Expr:
    """``column IN (values)`` with typed literals; FALSE for no values."""
    vals = list(values)
    if not vals:
        return exp.false()
    return exp.In(this=_ref(column), expressions=[literal(v, type_text) for v in vals])


def all_of(*parts: exp.Expr | None) -> exp.Expr | None:
    """The AND of the parts given (None ones skipped); None when there are none."""
    kept = [p for p in parts if p is not None]
    return exp.and_(*kept) if kept else None
