"""Lien / CertPayroll / Tax archetype: Levelset (lien waivers), LCPtracker (certified payroll),
Avalara AvaTax (sales/use tax), Track1099 (1099-NEC) and Corpay (vendor payments)."""

from cfab.apps.compliance.avalara import AvalaraAvaTax
from cfab.apps.compliance.corpay import Corpay
from cfab.apps.compliance.lcptracker import LCPtracker
from cfab.apps.compliance.levelset import Levelset
from cfab.apps.compliance.track1099 import Track1099

__all__ = ["AvalaraAvaTax", "Corpay", "LCPtracker", "Levelset", "Track1099"]
