"""Payroll archetype: Foundation Software Payroll, ADP Workforce Now, Rippling."""

from cfab.apps.payroll.vendors import AdpWorkforceNow, FoundationPayroll, RipplingPayroll

__all__ = ["AdpWorkforceNow", "FoundationPayroll", "RipplingPayroll"]
