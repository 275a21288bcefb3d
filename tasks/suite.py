"""Compiled suites: ``tasks/suites/<name>.jsonl``, one task per line in a stable order.

The committed ``executable.jsonl`` is compiled from the default book (seed 7, clock
2026-01-31, scale 1). Its header carries the build inputs and a fingerprint of the code that
shapes the book and the tasks; it is used only when both match, so an edited family, app or
generator never runs a stale task (the suite is recompiled into the cache next to the golden
file instead), and a test recompiles it and compares, so the committed file never drifts.

Splits. ``executable`` at the run's inputs is the *public* split. ``regenerated`` is the same
families compiled at :data:`REGENERATED_SEED`, a seed no published suite or result uses, with the
run's clock and scale: the contamination check (FinalityBench §VI) — a model that memorised the
public split's ids and amounts gains nothing there, so a public−regenerated gap is a signal.
Any file ``runner tasks compile --seed S --out PATH`` wrote is a split too (``load_suite_file``):
its header's inputs pick the world.

Partitions. ``held_out`` is the same families' *further* keys (``Family.held_out_keys``: about
30 % of each family's tasks, the paper's private split), compiled on demand into the cache or to
``--out``, never into the package: the wheel ships no held-out task, and ``runner serve --suite
held_out`` grades them over HTTP without sending their ground truth to the client.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import re
from collections.abc import Collection
from importlib import resources
from pathlib import Path

from cfab.seeds.determinism import BuildInputs, parse_clock
from cfab.tasks.family import BookReader, Family
from cfab.tasks.model import Task

SUITES = ("executable", "held_out")
#: Suites that are never packaged (compiled into the cache or to an explicit ``--out``).
UNSHIPPED = frozenset({"held_out"})
SUITE_HEADER = "cfab-suite"

#: The regenerated split's seed: outside every published one (the packaged suite and the
#: documented runs use seed 7; the multi-world examples 7, 11, 13, 17, 19; CI 1–12).
REGENERATED_SEED = 29
#: Named splits → the suite they compile (``regenerated`` also fixes its seed).
SPLITS = {"executable": "public", "regenerated": "regenerated", "held_out": "held_out"}


def families() -> list[Family]:
    """The families of the executable suite, in suite order."""
    from cfab.tasks.families import FAMILIES

    return [cls() for cls in FAMILIES]


def compile_suite(
    golden: str | Path,
    name: str = "executable",
    keys_from: str | Path | None = None,
    only: Collection[str] | None = None,
) -> list[Task]:
    """Build every task of the suite from the golden file (deterministic order).

    ``keys_from``: the golden file whose book picks each family's keys (default ``golden``).
    A scale-N book keeps the scale-1 universe exactly and adds replicas that carry its rows but
    not its documents, mail or positive-pay file, so a scale-N suite is the scale-1 suite's
    tasks (same keys) with every expected value computed from the scale-N book, less the
    families that are defined on the scale-1 book only (`scale_one_families`).

    ``only``: compile just these families (by name), in suite order.

    ``name="held_out"`` compiles each family's held-out keys (disjoint from its public ones)."""
    if name not in SUITES:
        raise KeyError(f"unknown suite {name!r}; suites: {', '.join(SUITES)}")
    held_out = name == "held_out"
    book = BookReader(golden)
    chooser = BookReader(keys_from) if keys_from is not None and Path(keys_from) != Path(golden) else book
    try:
        tasks: list[Task] = []
        for fam in families():
            if chooser is not book and not fam.scales:
                continue  # see scale_one_families()
            if only is not None and fam.family not in only:
                continue
            if not held_out:
                tasks.extend(fam.task(key, book) for key in fam.keys(chooser))
                continue
            public, hidden = fam.keys(chooser), fam.held_out_keys(chooser)
            overlap = sorted(set(public) & set(hidden))
            if overlap:
                raise ValueError(f"{fam.family}: held-out keys {overlap} are also public keys")
            tasks.extend(fam.task(key, book, partition="held_out") for key in hidden)
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
    from cfab.apps.world.golden import ensure_golden

    return ensure_golden(BuildInputs(seed=inputs.seed, clock=inputs.clock, scale=1))


def suite_code_fingerprint() -> str:
    """Fingerprint of the code a compiled task depends on: the book's shapers, the families
    and the grader that validates their evaluators."""
    from cfab.apps.world.golden import SHAPING_PACKAGES, code_fingerprint

    return code_fingerprint((*SHAPING_PACKAGES, "cfab.tasks", "cfab.grader"))[:16]  # cached per process


def dump_suite(tasks: list[Task], inputs: BuildInputs) -> str:
    """JSON lines: a header line with the build inputs and code fingerprint, then one task per line."""
    header = {
        SUITE_HEADER: 1,
        "seed": inputs.seed,
        "clock": inputs.clock.isoformat(),
        "scale": inputs.scale,
        "code": suite_code_fingerprint(),
        "tasks": len(tasks),
    }
    lines = [json.dumps(header, sort_keys=True)]
    lines += [
        json.dumps(t.model_dump(mode="json", by_alias=True), sort_keys=True, separators=(",", ":")) for t in tasks
    ]
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


def held_out_coverage(golden: str | Path) -> dict[str, tuple[int, int]]:
    """Per family, (public keys, held-out keys) on this book: what the held-out partition holds."""
    book = BookReader(golden)
    try:
        return {fam.family: (len(fam.keys(book)), len(fam.held_out_keys(book))) for fam in families()}
    finally:
        book.close()


def packaged_suite_text(name: str) -> str | None:
    if name in UNSHIPPED:
        return None  # never read from the package, even if a copy was put there by hand
    ref = resources.files("cfab.tasks").joinpath("suites", f"{name}.jsonl")
    return ref.read_text(encoding="utf-8") if ref.is_file() else None


def load_suite(
    name: str = "executable", inputs: BuildInputs | None = None, golden: Path | None = None, select: str | None = None
) -> list[Task]:
    """The suite's tasks for ``inputs``: the packaged file when it was compiled for the same
    inputs by the same code, else a fresh compile cached next to the golden file.

    ``select`` (the ``--tasks`` patterns): when no whole compiled suite is at hand, compile only
    the families those patterns can match (see :func:`families_for`), so a run filtered to some
    families needs only those to compile on this book. The caller still filters the result with
    :func:`select_tasks`."""
    from cfab.apps.world.golden import ensure_golden

    inputs = inputs or BuildInputs.from_env()
    text = packaged_suite_text(name)
    if text is not None:
        header, tasks = parse_suite(text, f"tasks/suites/{name}.jsonl")
        if (header.get("seed"), header.get("clock"), header.get("scale"), header.get("code")) == (
            inputs.seed,
            inputs.clock.isoformat(),
            inputs.scale,
            suite_code_fingerprint(),
        ):
            return tasks
    golden = golden or ensure_golden(inputs)
    cached = golden.with_name(golden.name + f".{name}-{suite_code_fingerprint()[:10]}.jsonl")
    if cached.exists():
        return parse_suite(cached.read_text(encoding="utf-8"), str(cached))[1]
    only = families_for(select)
    if only is not None and set(only) != {fam.family for fam in families()}:
        tag = hashlib.sha256(",".join(only).encode()).hexdigest()[:8]
        cached = golden.with_name(golden.name + f".{name}-{suite_code_fingerprint()[:10]}-only{tag}.jsonl")
        if cached.exists():
            return parse_suite(cached.read_text(encoding="utf-8"), str(cached))[1]
        tasks = compile_suite(golden, name, keys_from=keys_golden(inputs), only=only)
    else:
        tasks = compile_suite(golden, name, keys_from=keys_golden(inputs))
    tmp = cached.with_name(cached.name + ".tmp")
    tmp.write_text(dump_suite(tasks, inputs), encoding="utf-8")
    tmp.replace(cached)
    return tasks


def families_for(patterns: str | None) -> list[str] | None:
    """The families whose tasks ``select_tasks(…, patterns)`` can keep (None: all of them).

    Ids are ``cf_<family>_<key>``; keys are not known before compiling, so a pattern over ids
    names every family whose id prefix is consistent with the pattern's literal prefix."""
    if not patterns:
        return None
    pats = [p.strip() for p in patterns.split(",") if p.strip()]
    out = []
    for fam in families():
        name = fam.family
        for p in pats:
            literal = re.split(r"[*?\[]", p, maxsplit=1)[0]
            prefix = f"cf_{name}_"
            if fnmatch.fnmatch(name, p) or prefix.startswith(literal) or literal.startswith(prefix):
                out.append(name)
                break
    return out


def slot_positions(tasks: list[Task]) -> dict[str, int]:
    """Each task's position among its family's tasks, in suite order: with the family, the
    *slot* that pairs a task with its counterpart on another world, whose keys may differ."""
    seen: dict[str, int] = {}
    out = {}
    for t in tasks:
        out[t.instance_id] = seen.get(t.family, 0)
        seen[t.family] = out[t.instance_id] + 1
    return out


class SuiteFile:
    """A compiled suite file (``runner tasks compile --out PATH``): header, world and tasks."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).resolve()
        try:
            text = self.path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ValueError(f"cannot read suite file {path}: {exc.strerror or exc}") from exc
        self.header, self.tasks = parse_suite(text, str(path))
        try:
            self.inputs = BuildInputs(
                seed=int(self.header["seed"]),
                clock=parse_clock(self.header["clock"]),
                scale=int(self.header.get("scale", 1)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: suite header lacks valid seed/clock/scale: {exc}") from exc
        self.code: str | None = self.header.get("code")
        self.sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()

    @property
    def current(self) -> bool:
        """Compiled by the code that runs now (same code fingerprint)."""
        return self.code == suite_code_fingerprint()


def load_suite_file(path: str | Path) -> SuiteFile:
    """Read a compiled suite file; its header's seed, clock and scale are the world it runs on."""
    return SuiteFile(path)


def is_suite_file(name: str) -> bool:
    """``--suite`` names a file (a path or a ``.jsonl`` name) rather than a packaged suite."""
    return name.endswith(".jsonl") or "/" in name or Path(name).is_file()


def split_inputs(name: str, inputs: BuildInputs) -> BuildInputs:
    """The world a named split runs on: ``regenerated`` at :data:`REGENERATED_SEED` (the run's
    clock and scale), any other suite at ``inputs``."""
    if name == "regenerated":
        return BuildInputs(seed=REGENERATED_SEED, clock=inputs.clock, scale=inputs.scale)
    return inputs


def split_suite(name: str) -> str:
    """The packaged suite a named split compiles (``regenerated`` → ``executable``)."""
    return "executable" if name == "regenerated" else name


def select_tasks(tasks: list[Task], patterns: str | None) -> list[Task]:
    """Filter by comma-separated glob patterns over instance ids or family names."""
    if not patterns:
        return tasks
    pats = [p.strip() for p in patterns.split(",") if p.strip()]
    return [t for t in tasks if any(fnmatch.fnmatch(t.instance_id, p) or fnmatch.fnmatch(t.family, p) for p in pats)]
