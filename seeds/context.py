"""The build context: inputs, calendar, the rows being accumulated per book table, the
divergence registry, and cross-module indexes (jobs, vendors, commitments, …)."""

from __future__ import annotations

import random
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from cfab.seeds.determinism import BuildInputs, rng, stable_int
from cfab.seeds.timeline import Timeline

if TYPE_CHECKING:
    from cfab.seeds.jobs import JobPlan
    from cfab.seeds.vendors import VendorPlan

Row = dict[str, Any]


def divergence_kinds() -> dict[str, dict[str, Any]]:
    """The registered divergence kinds (``views/divergences.toml``)."""
    text = resources.files("cfab.views").joinpath("divergences.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)["kinds"]


@dataclass
class Ctx:
    inputs: BuildInputs
    tl: Timeline
    tables: dict[str, list[Row]] = field(default_factory=lambda: defaultdict(list))
    kinds: dict[str, dict[str, Any]] = field(default_factory=divergence_kinds)
    jobs: dict[str, JobPlan] = field(default_factory=dict)
    vendors: dict[str, VendorPlan] = field(default_factory=dict)
    # indexes filled as modules run
    commitments: dict[str, Row] = field(default_factory=dict)
    commitment_lines: dict[str, list[Row]] = field(default_factory=dict)
    invoices: dict[str, Row] = field(default_factory=dict)
    invoice_lines: dict[str, list[Row]] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)  # named plants for later modules

    @classmethod
    def create(cls, inputs: BuildInputs) -> Ctx:
        return cls(inputs=inputs, tl=Timeline.from_clock(inputs.clock))

    @property
    def clock(self):
        return self.inputs.clock

    def rng(self, *stream: object) -> random.Random:
        return rng(self.inputs.seed, *stream)

    def draw(self, *stream: object) -> int:
        """A cheap seeded 15-digit integer for one-off choices (no Random object)."""
        return stable_int(self.inputs.seed, *stream, digits=15)

    def add(self, table: str, **row: Any) -> Row:
        self.tables[table].append(row)
        return row

    def rows(self, table: str) -> list[Row]:
        return self.tables[table]

    def diverge(
        self,
        kind: str,
        entity_key: str,
        *,
        reason: str,
        apps: list[str] | None = None,
        suffix: str | None = None,
        field_name: str | None = None,
    ) -> Row:
        """Register one instance of a divergence kind (``views/divergences.toml``)."""
        spec = self.kinds[kind]
        chosen = apps if apps is not None else list(spec["apps"])
        stray = set(chosen) - set(spec["apps"])
        if stray:
            raise ValueError(f"divergence {kind}: apps {sorted(stray)} not in the kind's apps")
        div_id = f"{kind}:{entity_key}" + (f":{suffix}" if suffix else "")
        return self.add(
            "divergences",
            divergence_id=div_id,
            kind=kind,
            entity=spec["entity"],
            entity_key=entity_key,
            field=field_name or spec["field"],
            apps=",".join(chosen),
            family=spec["family"],
            reason=reason,
        )
