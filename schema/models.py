"""The one pydantic base for every edge of the system (task specs, tool arguments and
results, diffs, run logs): unknown fields are errors, results are frozen."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class CfabModel(BaseModel):
    """Base for inputs: unknown fields are rejected, values validated on assignment."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, populate_by_name=True)


class FrozenModel(BaseModel):
    """Base for results: immutable and hashable once built."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
