"""The executable suite's task families, in suite order.

One module per family, named by its family id (``c_coi_hold.py`` holds ``C_coi_hold``): it sets
``FAMILY = "<id>"``, defines the ``Family`` subclass named by the CamelCase of the id
(``CCoiHold``) and ends with ``FAMILIES = [CCoiHold]``; its SQL is ``tasks/sql/<id>.sql``. What
several families share sits in a module named by the concept (``pm_extension``: the PM platforms'
cases and entries that a single-app family and its cross-system counterpart both use), never in
``MODULES``. The suite is the families' concatenation in the order of ``MODULES``; ``tests/tasks``
asserts every module is present and the suite holds the paper's 54 tasks (plus the A_change_order
listing) across all eight domains.
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
    "g_retainage_reclass",
    "g_prepaid_amortization",
    "g_equipment_allocation",
    "h_procore_erp_sync",
    "p_certified_payroll",
    "p_timecard_to_payroll",
    "p_union_fringe",
    "p_labor_distribution",
    "r_1099nec",
    "r_coi_expiry",
    "r_use_tax",
    "r_lien_waiver_audit",
    "t_positive_pay",
    "t_vendor_bank_change",
    "t_bank_rec",
    "c_redteam_eapp_review",
    "a_ingenious_funding",
    "c_ressio_bill_match",
    "b_smartbuild_claim",
    "a_smartbuild_reestimate",
    "h_redteam_sage_bill",
    "h_ingenious_vista_etc",
    "h_ressio_vista_ap",
    "h_smartbuild_vista_reestimate",
    "r_wip_schedule",
    "t_cash_forecast",
    "t_payment_run",
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
