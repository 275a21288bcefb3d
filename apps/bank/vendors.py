"""The four treasury portals: each one class naming its dialect (``cfab.apps.bank.dialects``)."""

from __future__ import annotations

from cfab.apps.bank.base import TreasuryPortal
from cfab.apps.bank.dialects import BANK_OF_AMERICA_CASHPRO, CHASE_ACCESS, PNC_PINACLE, WELLS_FARGO_VANTAGE
from cfab.apps.registry import register


@register
class BofaCashPro(TreasuryPortal):
    D = BANK_OF_AMERICA_CASHPRO


@register
class ChaseTreasury(TreasuryPortal):
    D = CHASE_ACCESS


@register
class WellsVantage(TreasuryPortal):
    D = WELLS_FARGO_VANTAGE


@register
class PncPinacle(TreasuryPortal):
    D = PNC_PINACLE


PORTALS: dict[str, type[TreasuryPortal]] = {c.name: c for c in (BofaCashPro, ChaseTreasury, WellsVantage, PncPinacle)}
