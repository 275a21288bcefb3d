"""Helpers for the compliance/payapp/estimating app tests."""

from __future__ import annotations

from cfab.apps.world.environment import Environment
from cfab.schema.catalog import content_digest


def app_digest(env: Environment) -> str:
    """Content digest of the composed apps' schemas (what a tool call could change); cheaper than
    ``env.digest()``, which also hashes the whole book."""
    return content_digest(env.con, schemas=list(env.app_names))
