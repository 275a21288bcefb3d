"""FieldTime archetype: Rhumbix and busybusy."""

from cfab.apps.fieldtime.vendors import Busybusy, Rhumbix

__all__ = ["Busybusy", "Rhumbix"]
