"""Bank archetype: four treasury portals and the Plaid aggregator, each a dialect of constants.

``model`` is the vendor-neutral logical model (tables and projections written once),
``dialects`` the vendors' vocabularies, ``gen`` renders each vendor's schema/views/entity
projections/rules; every tool is written once: ``base`` (:class:`TreasuryPortal`), ``plaid``,
``bai2`` (the BAI2 file format). ``vendors`` registers one class per portal dialect.
"""

from cfab.apps.bank.base import TreasuryPortal
from cfab.apps.bank.plaid import Plaid
from cfab.apps.bank.vendors import PORTALS, BofaCashPro, ChaseTreasury, PncPinacle, WellsVantage

__all__ = ["BofaCashPro", "ChaseTreasury", "PORTALS", "PncPinacle", "Plaid", "TreasuryPortal", "WellsVantage"]
