"""Payroll archetype: Foundation Software Payroll, ADP Workforce Now, Rippling.

``dialects`` holds each vendor's vocabulary, ``model`` the archetype's tables and the SQL that
projects the book into them, ``gen`` renders each vendor's schema/views/entity projections/rules,
``base`` the tools (written once, reading the dialect) and ``vendors`` registers the three.
"""

from cfab.apps.payroll.vendors import PAYROLL_APPS, AdpWorkforceNow, FoundationPayroll, RipplingPayroll

__all__ = ["PAYROLL_APPS", "AdpWorkforceNow", "FoundationPayroll", "RipplingPayroll"]
