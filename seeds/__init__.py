"""cfab.seeds: the deterministic Company-A book generator.

``build_book(con, inputs)`` creates the ``book`` schema in the connection's current database and
fills every table as a pure function of ``inputs`` (seed, clock, scale); ``check_invariants(con)``
runs the named invariant queries of ``invariants.sql`` and returns violating-row counts.
"""

from cfab.seeds.build import build_book, generate
from cfab.seeds.determinism import (
    CENT,
    DEFAULT_CLOCK,
    DEFAULT_SCALE,
    DEFAULT_SEED,
    RATE,
    BuildInputs,
    money,
    parse_clock,
    pct_of,
    rate,
    rng,
    split_money,
    stable_id,
    stable_int,
)
from cfab.seeds.invariants import check_invariants, invariant_queries

__all__ = [
    "CENT",
    "DEFAULT_CLOCK",
    "DEFAULT_SCALE",
    "DEFAULT_SEED",
    "RATE",
    "BuildInputs",
    "build_book",
    "check_invariants",
    "generate",
    "invariant_queries",
    "money",
    "parse_clock",
    "pct_of",
    "rate",
    "rng",
    "split_money",
    "stable_id",
    "stable_int",
]
