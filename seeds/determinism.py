"""Determinism primitives: ids from natural keys, seeded RNG streams, exact money, the clock.

Everything random in the book comes from :func:`rng` streams keyed by natural keys, so adding
an entity never perturbs another; everything time-like comes from :class:`BuildInputs.clock`
(``CFAB_CLOCK``), never from the wall clock.
"""

from __future__ import annotations

import hashlib
import os
import random
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

DEFAULT_SEED = 7
DEFAULT_CLOCK = date(2026, 1, 31)
DEFAULT_SCALE = 1

CENT = Decimal("0.01")
RATE = Decimal("0.0001")


def _digest(parts: tuple[object, ...]) -> bytes:
    text = "\x1f".join(str(p) for p in parts)
    return hashlib.sha256(text.encode("utf-8")).digest()


def stable_id(*parts: object, length: int = 12) -> str:
    """A hex id derived from a natural key: ``stable_id("invoice", "V1001", "JSM-88421")``."""
    return _digest(parts).hex()[:length]


def stable_int(*parts: object, digits: int = 8) -> int:
    """A positive integer with at most ``digits`` digits derived from a natural key."""
    return int.from_bytes(_digest(parts)[:8], "big") % (10**digits)


def rng(seed: int, *stream: object) -> random.Random:
    """An independent RNG for one stream (``rng(seed, "vendor", "V1000")``)."""
    return random.Random(int.from_bytes(_digest((seed, *stream))[:16], "big"))


def money(value: object) -> Decimal:
    """Exact money: a Decimal rounded half-up to cents. Floats are refused."""
    if isinstance(value, Decimal):  # fast path: Decimal(str(d)) == d
        return value.quantize(CENT, rounding=ROUND_HALF_UP)
    if isinstance(value, float):
        raise TypeError("money() refuses float; pass a str, int or Decimal")
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def rate(value: object) -> Decimal:
    """A rate or percentage with four decimals, rounded half-up."""
    if isinstance(value, float):
        raise TypeError("rate() refuses float; pass a str, int or Decimal")
    return Decimal(str(value)).quantize(RATE, rounding=ROUND_HALF_UP)


def pct_of(amount: Decimal, pct: Decimal) -> Decimal:
    """``round(amount * pct / 100, 2)``: retainage, work completed from percent complete."""
    return money(Decimal(amount) * Decimal(pct) / Decimal(100))


def split_money(total: Decimal, weights: list[int]) -> list[Decimal]:
    """Split ``total`` into parts proportional to ``weights`` that sum exactly to ``total``."""
    if not weights or sum(weights) <= 0:
        raise ValueError("weights must be non-empty and positive")
    total = money(total)
    parts = [money(total * w / sum(weights)) for w in weights]
    parts[-1] += total - sum(parts)
    return parts


@dataclass(frozen=True)
class BuildInputs:
    """The three inputs the book is a pure function of."""

    seed: int = DEFAULT_SEED
    clock: date = DEFAULT_CLOCK
    scale: int = DEFAULT_SCALE

    def __post_init__(self) -> None:
        if not isinstance(self.scale, int) or self.scale < 1:
            raise ValueError(f"scale must be a positive integer, got {self.scale!r}")

    @classmethod
    def from_env(
        cls, seed: int | None = None, clock: str | date | None = None, scale: int | None = None
    ) -> BuildInputs:
        """Explicit arguments win, then ``CFAB_SEED`` / ``CFAB_CLOCK``, then the defaults."""
        if seed is None:
            seed = int(os.environ.get("CFAB_SEED", DEFAULT_SEED))
        if clock is None:
            clock = os.environ.get("CFAB_CLOCK") or DEFAULT_CLOCK
        return cls(seed=int(seed), clock=parse_clock(clock), scale=int(scale or DEFAULT_SCALE))

    def key(self) -> str:
        return f"s{self.seed}-c{self.clock.isoformat()}-x{self.scale}"


def parse_clock(value: str | date) -> date:
    """Parse an ISO date (``2026-01-31``; a datetime's date part is accepted)."""
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value).strip()[:10])
    except ValueError as exc:
        raise ValueError(f"CFAB_CLOCK / --clock must be an ISO date like 2026-01-31, got {value!r}") from exc
