"""Compiled suites: ``tasks/suites/<name>.jsonl``, one task per line in a stable order.

The committed ``executable.jsonl`` is compiled from the default book (seed 7, clock
2026-01-31, scale 1). Its header carries the build inputs and a fingerprint of the code that
shapes the book and the tasks; it is used only when both match, so an edited family, app or
generator never runs a stale task (the suite is recompiled into the cache next to the golden
file instead), and a test recompiles it and compares, so the committed file never drifts.
"""

from __future__ import annotations

import fnmatch
import json
from importlib import resources
from pathlib import Path

from cfab.seeds.determinism import BuildInputs
from cfab.tasks.family import BookReader, Family
from cfab.tasks.model import Task

SUITES = ("executable",)
SUITE_HEADER = "cfab-suite"


def families() -> list[Family]:
    """The families of the executable suite, in suite order."""
    from cfab.tasks.families import FAMILIES

    return [cls() for cls in FAMILIES]


def compile_suite(golden: str | Path, name: str = "executable", keys_from: str | Path | None = None) -> list[Task]:
    """Build every task of the suite from the golden file (deterministic order).

    ``keys_from``: the golden file whose book picks each family's keys (default ``golden``).
    A scale-N book keeps the scale-1 universe exactly and adds replicas that carry its rows but
    not its documents, mail or positive-pay file, so a scale-N suite is the scale-1 suite's
    tasks (same keys) with every expected value computed from the scale-N book, less the
    families that are defined on the scale-1 book only (`scale_one_families`)."""
    if name not in SUITES:
        raise KeyError(f"unknown suite {name!r}; suites: {', '.join(SUITES)}")
    book = BookReader(golden)
    chooser = BookReader(keys_from) if keys_from is not None and Path(keys_from) != Path(golden) else book
    try:
        tasks: list[Task] = []
        for fam in families():
            if chooser is not book and not fam.scales:
                continue  # see scale_one_families()
            for key in fam.keys(chooser):
                tasks.append(fam.task(key, book))
    finally:
        book.close()
        if chooser is not book:
            chooser.close()
    ids = [t.instance_id for t in tasks]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"duplicate instance ids: {dupes}")
    return tasks


def scale_one_families() -> list[str]:
    """Families defined on the scale-1 book only (left out of scale-N suites)."""
    return [fam.family for fam in families() if not fam.scales]


def keys_golden(inputs: BuildInputs) -> Path | None:
    """The scale-1 golden file that picks a scale-N suite's keys (None at scale 1)."""
    if inputs.scale == 1:
        return None
    from cfab.runner.golden import ensure_golden

    return ensure_golden(BuildInputs(seed=inputs.seed, clock=inputs.clock, scale=1))


def suite_code_fingerprint() -> str:
    """Fingerprint of the code a compiled task depends on: the book's shapers, the families
    and the grader that validates their evaluators."""
    from cfab.runner.golden import _SHAPING_PACKAGES, code_fingerprint

    return code_fingerprint((*_SHAPING_PACKAGES, "cfab.tasks", "cfab.grader"))[:16]  # cached per process


def dump_suite(tasks: list[Task], inputs: BuildInputs) -> str:
    """JSON lines: a header line with the build inputs and code fingerprint, then one task per line."""
    header = {SUITE_HEADER: 1, "seed": inputs.seed, "clock": inputs.clock.isoformat(), "scale": inputs.scale,
              "code": suite_code_fingerprint(), "tasks": len(tasks)}
    lines = [json.dumps(header, sort_keys=True)]
    lines += [json.dumps(t.model_dump(mode="json", by_alias=True), sort_keys=True, separators=(",", ":")) for t in tasks]
    return "\n".join(lines) + "\n"


def parse_suite(text: str, source: str = "<suite>") -> tuple[dict, list[Task]]:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise ValueError(f"{source}: empty suite file")
    header = json.loads(lines[0])
    if SUITE_HEADER not in header:
        raise ValueError(f"{source}: first line is not a suite header")
    tasks = []
    for n, line in enumerate(lines[1:], start=2):
        try:
            tasks.append(Task.model_validate_json(line))
        except Exception as exc:  # name the line
            raise ValueError(f"{source} line {n}: not a valid task: {exc}") from exc
    return header, tasks


def packaged_suite_text(name: str) -> str | None:
    ref = resources.files("cfab.tasks").joinpath("suites", f"{name}.jsonl")
    return ref.read_text(encoding="utf-8") if ref.is_file() else None


def load_suite(name: str = "executable", inputs: BuildInputs | None = None, golden: Path | None = None) -> list[Task]:
    """The suite's tasks for ``inputs``: the packaged file when it was compiled for the same
    inputs by the same code, else a fresh compile cached next to the golden file."""
    from cfab.runner.golden import ensure_golden

    inputs = inputs or BuildInputs.from_env()
    text = packaged_suite_text(name)
    if text is not None:
        header, tasks = parse_suite(text, f"tasks/suites/{name}.jsonl")
        if (header.get("seed"), header.get("clock"), header.get("scale"), header.get("code")) == (
                inputs.seed, inputs.clock.isoformat(), inputs.scale, suite_code_fingerprint()):
            return tasks
    golden = golden or ensure_golden(inputs)
    cached = golden.with_name(golden.name + f".{name}-{suite_code_fingerprint()[:10]}.jsonl")
    if cached.exists():
        return parse_suite(cached.read_text(encoding="utf-8"), str(cached))[1]
    tasks = compile_suite(golden, name, keys_from=keys_golden(inputs))
    tmp = cached.with_name(cached.name + ".tmp")
    tmp.write_text(dump_suite(tasks, inputs), encoding="utf-8")
    tmp.replace(cached)
    return tasks


def select_tasks(tasks: list[Task], patterns: str | None) -> list[Task]:
    """Filter by comma-separated glob patterns over instance ids or family names."""
    if not patterns:
        return tasks
    pats = [p.strip() for p in patterns.split(",") if p.strip()]
    return [t for t in tasks if any(fnmatch.fnmatch(t.instance_id, p) or fnmatch.fnmatch(t.family, p) for p in pats)]
