"""cfab.views: each app's projection of the book (``views/<app>.sql``), the divergence
registry (``divergences.toml`` kinds, ``book.divergences`` instances) and the consistency
check that compares every pair of apps through the crosswalks."""

from cfab.views.consistency import (
    ENTITY_FIELDS,
    ConsistencyReport,
    Difference,
    EntityQuery,
    check_consistency,
    divergence_kinds,
    load_entity_queries,
    parse_entity_file,
)

__all__ = [
    "ENTITY_FIELDS",
    "ConsistencyReport",
    "Difference",
    "EntityQuery",
    "check_consistency",
    "divergence_kinds",
    "load_entity_queries",
    "parse_entity_file",
]
