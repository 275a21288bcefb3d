"""ERP archetype: Vista (reference), Sage Intacct, Foundation, CMiC, Acumatica, Sage 300 CRE, QBO, ComputerEase.

``model`` is the vendor-neutral logical model, ``dialects`` the eight vocabularies, ``gen`` renders
each vendor's schema/views/entity projections/rules; every tool is written once: ``args`` (argument
models), ``core`` (dialect helpers), ``reads`` and ``base`` (writes and guarded tools, `ErpApp`).
"""

from cfab.apps.erp.base import ErpApp
from cfab.apps.erp.vendors import (
    ERP_APPS,
    AcumaticaConstruction,
    Cmic,
    ComputerEase,
    FoundationErp,
    Qbo,
    Sage300Cre,
    SageIntacct,
    VistaErp,
)

__all__ = [
    "ErpApp",
    "ERP_APPS",
    "VistaErp",
    "SageIntacct",
    "FoundationErp",
    "Cmic",
    "AcumaticaConstruction",
    "Sage300Cre",
    "Qbo",
    "ComputerEase",
]
