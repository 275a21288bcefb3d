"""The executable suite's task families, in suite order.

Each module defines ``FAMILIES: list[type[Family]]``. The suite is their concatenation in
the order of ``MODULES``; ``tests/tasks`` asserts every module is present and the suite
holds the paper's 54 tasks (plus the A_change_order listing) across all eight domains.
"""

from __future__ import annotations

import importlib

from cfab.tasks.family import Family

MODULES: tuple[str, ...] = (
    "a_etc_forecast",
    "a_change_order",
    "b_aia_g702",
    "c_coi_hold",
    "c_invoice_code",
    "g_sub_accrual",
    "h_procore_erp_sync",
    "p_certified_payroll",
    "r_1099nec",
    "t_positive_pay",
    "pm_redteam",
    "pm_ingenious_build",
    "pm_ressio",
    "pm_smartbuild",
    "pm_cross",
    "pm_cross_vista",
)


def _load() -> tuple[list[type[Family]], list[str]]:
    found: list[type[Family]] = []
    missing: list[str] = []
    for name in MODULES:
        qualified = f"{__name__}.{name}"
        try:
            module = importlib.import_module(qualified)
        except ModuleNotFoundError as exc:
            if exc.name != qualified:
                raise
            missing.append(name)
            continue
        found.extend(module.FAMILIES)
    return found, missing


FAMILIES, MISSING_MODULES = _load()

__all__ = ["FAMILIES", "MISSING_MODULES", "MODULES"]
