"""How a task writes a figure: exact decimals as evaluators and tool arguments take them
(``money_str``), as people read them in an instruction or reply (``dollars``), and counts in words.

Every amount is an exact decimal (the book's DECIMAL columns arrive as ``Decimal``); a float never
reaches these helpers except where an alternative trajectory passes one on purpose.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from cfab.grader.answers import NUMBER_WORDS

CENT = Decimal("0.01")


def money_str(value: Any) -> str:
    """An amount as evaluators and oracle arguments write it: ``"14350.00"``."""
    return str(Decimal(str(value)).quantize(CENT))


def dollars(value: Any) -> str:
    """An amount as people write it in an instruction or reply: ``$14,350.00``."""
    return f"${Decimal(str(value)).quantize(CENT):,}"


def cents(value: Any) -> Decimal:
    """``value`` rounded half-up to the cent, as the apps round a computed amount."""
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def percent(value: Any) -> str:
    """A percentage without trailing zeros: ``"10"``, ``"7.5"``."""
    return f"{Decimal(str(value)).normalize():f}"


def quantity(value: Any) -> str:
    """A quantity as a tool argument: ``"1250"`` for a whole number, else without trailing zeros."""
    d = Decimal(str(value))
    return str(d.quantize(Decimal(1))) if d == d.to_integral_value() else str(d.normalize())


def count_word(n: int) -> str | int:
    """A count as a person may spell it in an answer: ``"three"`` (zero to twenty), else the number."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else n


__all__ = ["CENT", "cents", "count_word", "dollars", "money_str", "percent", "quantity"]
