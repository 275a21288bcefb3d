"""The eight ERP vendors: each a dialect, examples and native tool names over the one archetype."""

from __future__ import annotations

from typing import ClassVar

from cfab.apps.erp.base import ErpApp
from cfab.apps.erp.dialects import (
    ACUMATICA,
    CMIC,
    COMPUTEREASE,
    FOUNDATION,
    INTACCT,
    QBO,
    SAGE300,
    VISTA,
    Dialect,
)
from cfab.apps.registry import register


def _names(short: str, **extra: str) -> dict[str, str]:
    return {"query": f"{short}_query", "post": f"{short}_post", **extra}


@register
class VistaErp(ErpApp):
    """Viewpoint Vista (the reference ERP)."""

    name: ClassVar[str] = "vista_erp"
    label: ClassVar[str] = "Viewpoint Vista"
    D: ClassVar[Dialect] = VISTA
    TOOL_NAMES: ClassVar[dict[str, str]] = _names("vista")
    EX_VENDOR: ClassVar[str] = "20147"
    EX_JOB: ClassVar[str] = "1042-"
    EX_NOTE: ClassVar[str] = (
        "Vista keeps vendor holds as hold codes (APVH rows against HQ hold codes): placing a "
        "hold adds one APVH row; releasing it removes that row."
    )


@register
class SageIntacct(ErpApp):
    """Sage Intacct (Construction)."""

    name: ClassVar[str] = "sage_intacct"
    label: ClassVar[str] = "Sage Intacct"
    D: ClassVar[Dialect] = INTACCT
    TOOL_NAMES: ClassVar[dict[str, str]] = _names("intacct", **{"ap_invoices.create": "intacct_create_bill"})
    EX_VENDOR: ClassVar[str] = "V1001"
    EX_JOB: ClassVar[str] = "9140"
    EX_NOTE: ClassVar[str] = "Intacct keeps the hold as the vendor's ONHOLD flag."


@register
class FoundationErp(ErpApp):
    """Foundation Software (FOUNDATION for Windows / Foundation Cloud)."""

    name: ClassVar[str] = "foundation_erp"
    label: ClassVar[str] = "Foundation Software"
    D: ClassVar[Dialect] = FOUNDATION
    TOOL_NAMES: ClassVar[dict[str, str]] = _names("foundation")
    EX_VENDOR: ClassVar[str] = "F1037"
    EX_JOB: ClassVar[str] = "1042-00"


@register
class Cmic(ErpApp):
    """CMiC Enterprise."""

    name: ClassVar[str] = "cmic"
    label: ClassVar[str] = "CMiC"
    D: ClassVar[Dialect] = CMIC
    TOOL_NAMES: ClassVar[dict[str, str]] = _names("cmic")
    EX_VENDOR: ClassVar[str] = "SUB10811"
    EX_JOB: ClassVar[str] = "001042"


@register
class AcumaticaConstruction(ErpApp):
    """Acumatica Construction Edition."""

    name: ClassVar[str] = "acumatica_construction"
    label: ClassVar[str] = "Acumatica Construction Edition"
    D: ClassVar[Dialect] = ACUMATICA
    TOOL_NAMES: ClassVar[dict[str, str]] = _names("acumatica")
    EX_VENDOR: ClassVar[str] = "AC104099"
    EX_JOB: ClassVar[str] = "J1042"


@register
class Sage300Cre(ErpApp):
    """Sage 300 Construction and Real Estate (Timberline)."""

    name: ClassVar[str] = "sage300cre"
    label: ClassVar[str] = "Sage 300 CRE"
    D: ClassVar[Dialect] = SAGE300
    TOOL_NAMES: ClassVar[dict[str, str]] = _names("sage300")
    EX_VENDOR: ClassVar[str] = "WALSHE"
    EX_JOB: ClassVar[str] = "1042-00"


@register
class Qbo(ErpApp):
    """QuickBooks Online (Advanced), used with projects as jobs."""

    name: ClassVar[str] = "qbo"
    label: ClassVar[str] = "QuickBooks Online"
    D: ClassVar[Dialect] = QBO
    TOOL_NAMES: ClassVar[dict[str, str]] = _names("qbo")
    EX_VENDOR: ClassVar[str] = "1"
    EX_JOB: ClassVar[str] = "1042"


@register
class ComputerEase(ErpApp):
    """ComputerEase construction accounting."""

    name: ClassVar[str] = "computerease"
    label: ClassVar[str] = "ComputerEase"
    D: ClassVar[Dialect] = COMPUTEREASE
    TOOL_NAMES: ClassVar[dict[str, str]] = _names("computerease")
    EX_VENDOR: ClassVar[str] = "1059"
    EX_JOB: ClassVar[str] = "1042"


ERP_APPS: dict[str, type[ErpApp]] = {
    c.name: c
    for c in (VistaErp, SageIntacct, FoundationErp, Cmic, AcumaticaConstruction, Sage300Cre, Qbo, ComputerEase)
}
