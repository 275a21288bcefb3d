"""Small helpers shared by the PayApp, Lien/CertPayroll/Tax and estimating apps: exact money
validation and sqlglot filter builders (never f-string SQL)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from cfab.apps.tooling import ToolError
from cfab.schema.sqlbuild import col, literal
from sqlglot import exp

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def money_arg(value: Any, what: str, *, allow_negative: bool = False) -> Decimal:
    """An agent-supplied amount as an exact Decimal with at most two decimals (ToolError otherwise)."""
    if value is None:
        raise ToolError(f"{what} is required", "invalid_argument")
    try:
        dec = Decimal(str(value))
    except InvalidOperation:
        raise ToolError(f"{what} must be a decimal amount, got {value!r}", "invalid_argument") from None
    if not dec.is_finite():
        raise ToolError(f"{what} must be a finite amount, got {value!r}", "invalid_argument")
    try:
        quantized = dec.quantize(CENT)
    except InvalidOperation:  # beyond 28 significant digits (e.g. 1e309): no such amount
        raise ToolError(f"{what} is out of range, got {value}", "invalid_argument") from None
    if dec != quantized:
        raise ToolError(f"{what} takes at most 2 decimal places, got {value}", "invalid_argument")
    if dec < 0 and not allow_negative:
        raise ToolError(f"{what} cannot be negative, got {value}", "invalid_argument")
    return quantized


def pct_of(amount: Decimal, pct: Decimal) -> Decimal:
    """round(amount x pct / 100, 2), half-up."""
    return (Decimal(amount) * Decimal(pct) / Decimal(100)).quantize(CENT, rounding=ROUND_HALF_UP)


def percent(part: Decimal, whole: Decimal) -> Decimal:
    """part / whole x 100 rounded half-up to 2 places (0 when whole is 0)."""
    if whole == 0:
        return Decimal("0.00")
    return (Decimal(part) * 100 / Decimal(whole)).quantize(CENT, rounding=ROUND_HALF_UP)


def date_range(column: str, start: date | None, end: date | None, type_text: str = "DATE") -> exp.Expression | None:
    """``column BETWEEN start AND end`` with either bound optional (None when neither is given)."""
    parts: list[exp.Expression] = []
    if start is not None:
        parts.append(exp.GTE(this=col(column), expression=literal(start, type_text)))
    if end is not None:
        parts.append(exp.LTE(this=col(column), expression=literal(end, type_text)))
    return exp.and_(*parts) if parts else None


def ilike(column: str, text: str | None) -> exp.Expression | None:
    """Case-insensitive substring match, or None when no text is given."""
    if not text:
        return None
    return exp.ILike(this=col(column), expression=literal(f"%{text}%"))


def all_of(parts: Iterable[exp.Expression | None]) -> exp.Expression | None:
    kept = [p for p in parts if p is not None]
    return exp.and_(*kept) if kept else None
