"""The executable suite's task families, in suite order."""

from __future__ import annotations

from cfab.tasks.family import Family

FAMILIES: list[type[Family]] = []

__all__ = ["FAMILIES"]
