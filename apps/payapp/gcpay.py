"""GCPay: the pay-application portal (AIA G702/G703 owner pay applications)."""

from __future__ import annotations

from typing import ClassVar

from cfab.apps.payapp.base import PayAppArchetype
from cfab.apps.registry import register


@register
class GCPay(PayAppArchetype):
    """GCPay: prime contracts with SOVs, owner pay applications, collected lien waivers."""

    name: ClassVar[str] = "gcpay"
    label: ClassVar[str] = "GCPay"
    kind: ClassVar[str] = "payapp"
    tier = "A"
