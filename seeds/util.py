"""Small exact-decimal helpers shared by the generator modules."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from cfab.seeds.determinism import money


def round_to(value: Decimal, step: int | str) -> Decimal:
    """Round half-up to a multiple of ``step`` dollars, as money: ``round_to(12345.6, 50) == 12350.00``."""
    s = Decimal(step)
    return money((Decimal(value) / s).quantize(Decimal(1), rounding=ROUND_HALF_UP) * s)


def frac(num: int, den: int) -> Decimal:
    """An exact fraction as a Decimal (no floats): ``frac(3, 100) == Decimal('0.03')``."""
    return Decimal(num) / Decimal(den)
