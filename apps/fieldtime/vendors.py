"""The two field time-tracking apps: each is its dialect (``cfab.apps.fieldtime.dialects``), registered."""

from __future__ import annotations

from typing import ClassVar

from cfab.apps.fieldtime.base import FieldTimeApp
from cfab.apps.fieldtime.dialects import BUSYBUSY, RHUMBIX, FieldTimeDialect
from cfab.apps.registry import register


@register
class Rhumbix(FieldTimeApp):
    """Rhumbix: crew timekeeping entries approved by the foreman/superintendent."""

    D: ClassVar[FieldTimeDialect] = RHUMBIX


@register
class Busybusy(FieldTimeApp):
    """busybusy: members' time entries, approved by a supervisor."""

    D: ClassVar[FieldTimeDialect] = BUSYBUSY


FIELD_TIME_APPS: dict[str, type[FieldTimeApp]] = {c.name: c for c in (Rhumbix, Busybusy)}
