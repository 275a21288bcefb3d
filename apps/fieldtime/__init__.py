"""FieldTime archetype: Rhumbix and busybusy.

``dialects`` holds each vendor's vocabulary, ``model`` the archetype's tables and the SQL that
projects the book into them, ``gen`` renders each vendor's schema/views/entity projections/rules,
``base`` the tools (written once, reading the dialect) and ``vendors`` registers the two.
"""

from cfab.apps.fieldtime.vendors import FIELD_TIME_APPS, Busybusy, Rhumbix

__all__ = ["FIELD_TIME_APPS", "Busybusy", "Rhumbix"]
