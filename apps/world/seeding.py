"""Seeding every app's schema from the book, several apps at once.

An app's seed reads only the book (and ``cfab_internal.meta``) and writes only its own schema,
so the apps are independent steps for :func:`cfab.seeds.parallel.run_steps`: each runs on a
cursor of the build connection, and which worker seeds which app, and when, cannot change any
table's content or row order (every row comes from the app's own ordered statements). The
heaviest seeds start first so the workers finish together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb

from cfab.seeds.determinism import BuildInputs
from cfab.seeds.parallel import Step, run_steps

#: Seconds each seed took at scale 100 (one connection, before the seeds ran concurrently):
#: only the schedule depends on it, never the content. Apps not listed weigh 1.
SEED_SECONDS: dict[str, float] = {
    "excel": 22,
    "foundation_erp": 14,
    "acumatica_construction": 12,
    "cmic": 10,
    "qbo": 10,
    "sage300cre": 10,
    "computerease": 9,
    "vista_erp": 9,
    "sage_intacct": 8,
    "rippling": 6,
    "adp": 6,
    "foundation_payroll": 6,
    "box": 6,
    "ressio": 5,
    "procore": 4,
    "busybusy": 4,
    "smartbuild": 3,
    "gcpay": 3,
    "ingenious_build": 2,
    "rhumbix": 2,
    "redteam": 2,
}


def seed_apps(
    con: duckdb.DuckDBPyConnection, apps: Sequence[Any], inputs: BuildInputs, workers: int | None = None
) -> None:
    """``app.seed(cursor, inputs)`` for every app, ``workers`` at a time (default: one per core)."""

    def step(app: Any) -> Step:
        return Step(app.name, lambda cur: app.seed(cur, inputs), weight=SEED_SECONDS.get(app.name, 1.0))

    run_steps(con, [step(app) for app in apps], workers)
