"""The worlds of a suite run. A *world* is a golden book and the suite compiled from it: one
run covers one world, or several (``runner --suite executable,regenerated`` compares splits;
``runner --seeds 7,11,13`` runs every task on each seed's world). :func:`resolve_world` builds
(or finds) a world's golden file and loads its tasks; ``runner``'s flags plan the worlds
(:func:`cfab.runner.cli.run.plan_worlds`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cfab.seeds.determinism import BuildInputs


@dataclass
class World:
    """One world of a run: a split label, the suite it runs (a name or a file's absolute path),
    the book inputs, and once resolved its golden file and tasks."""

    split: str
    suite: str
    inputs: BuildInputs
    file: Any = None  # a SuiteFile for --suite PATH
    golden: Path | None = None
    tasks: list[Any] = field(default_factory=list)  # selected tasks
    slots: dict[str, int] = field(default_factory=dict)  # instance id -> position in its family

    def entry(self) -> dict[str, Any]:
        return {
            "split": self.split,
            "suite": self.suite,
            "seed": self.inputs.seed,
            "clock": self.inputs.clock.isoformat(),
            "scale": self.inputs.scale,
            "tasks": len(self.tasks),
        }

    def provenance(self) -> dict[str, Any]:
        from cfab.runner.results.provenance import golden_digest, suite_fingerprint

        out = self.entry()
        out["golden_digest"] = golden_digest(self.golden) if self.golden else None
        if self.file is not None:
            out["suite_fingerprint"] = f"{self.file.path.name}:{self.file.code}:{self.inputs.key()}"
            out["suite_sha256"] = self.file.sha256
            out["suite_code_current"] = self.file.current
        else:
            out["suite_fingerprint"] = suite_fingerprint(self.suite, self.inputs)
        return out


def label(name: str) -> str:
    """The split label of a suite name or file: its stem, safe in paths and task ids."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", Path(name).name.removesuffix(".jsonl")) or "suite"


def resolve_world(world: World, select: str | None) -> None:
    """Build (or find) the world's golden file and load its suite; fills golden, tasks, slots."""
    from cfab.apps.world.golden import ensure_golden
    from cfab.tasks.suite import load_suite, select_tasks, slot_positions, split_suite

    world.golden = ensure_golden(world.inputs)  # resolved once: workers never re-hash the code or rebuild
    if world.file is not None:
        tasks = world.file.tasks
    else:
        try:
            tasks = load_suite(split_suite(world.suite), world.inputs, golden=world.golden, select=select)
        except Exception as exc:
            raise SystemExit(
                f"runner: the {world.suite} suite does not compile on world {world.split} "
                f"(seed {world.inputs.seed}, clock {world.inputs.clock.isoformat()}, scale "
                f"{world.inputs.scale}): {exc}"
            ) from None
    world.slots = slot_positions(tasks)
    world.tasks = select_tasks(tasks, select)
