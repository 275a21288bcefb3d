"""Integration / Estimating archetype: hh2 (crosswalks and sync) and HCSS HeavyBid (estimates)."""

from cfab.apps.integration.hcss_heavybid import HcssHeavyBid  # noqa: F401  (registers hcss_heavybid)
from cfab.apps.integration.hh2 import Hh2

__all__ = ["Hh2"]
