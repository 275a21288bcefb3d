"""Bank archetype: four treasury portals and the Plaid aggregator."""

from cfab.apps.bank.plaid import Plaid
from cfab.apps.bank.vendors import BofaCashPro, ChaseTreasury, PncPinacle, WellsVantage

__all__ = ["BofaCashPro", "ChaseTreasury", "PncPinacle", "Plaid", "WellsVantage"]
