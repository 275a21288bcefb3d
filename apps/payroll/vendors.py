"""The three payroll systems: each is its dialect (``cfab.apps.payroll.dialects``), registered."""

from __future__ import annotations

from typing import ClassVar

from cfab.apps.payroll.base import PayrollApp
from cfab.apps.payroll.dialects import ADP, FOUNDATION_PAYROLL, RIPPLING, PayrollDialect
from cfab.apps.registry import register


@register
class FoundationPayroll(PayrollApp):
    """Foundation Software (FOUNDATION for Windows/Cloud) payroll: shares the ERP's job numbers."""

    D: ClassVar[PayrollDialect] = FOUNDATION_PAYROLL


@register
class AdpWorkforceNow(PayrollApp):
    """ADP Workforce Now: workers, time cards, payroll runs with preview, pay statements."""

    D: ClassVar[PayrollDialect] = ADP


@register
class RipplingPayroll(PayrollApp):
    """Rippling Payroll: employees (role ids), approved hours, pay runs (draft → paid), payments."""

    D: ClassVar[PayrollDialect] = RIPPLING


PAYROLL_APPS: dict[str, type[PayrollApp]] = {c.name: c for c in (FoundationPayroll, AdpWorkforceNow, RipplingPayroll)}
