"""Timing primitives for ``runner bench``: wall + CPU samples, medians, and a probe that
wraps a few internals with timers for the duration of a ``with`` block.

The probe exists so the bench can split one public call (``Environment.open``,
``env.state_diff()``, ``build_golden``) into the parts that cost the time (file copy,
connect, catalog, checkpoint, attach, reopen, …) without changing those modules: it
replaces attributes with timing wrappers and restores them on exit. It is a measurement
tool only; nothing outside the bench installs it.
"""

from __future__ import annotations

import importlib
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

Sample = tuple[float, float]  # (wall ms, cpu ms)


def now() -> Sample:
    return time.perf_counter() * 1000.0, time.process_time() * 1000.0


def since(start: Sample) -> Sample:
    w, c = now()
    return w - start[0], c - start[1]


def stats(samples: list[Sample] | list[float], unit: str = "ms") -> dict[str, Any]:
    """Median / min / max of the wall times (and the median CPU time when given pairs)."""
    if not samples:
        return {"n": 0, "median": None, "min": None, "max": None, "cpu_median": None, "unit": unit}
    if isinstance(samples[0], tuple):
        walls = [s[0] for s in samples]  # type: ignore[index]
        cpus = [s[1] for s in samples]  # type: ignore[index]
    else:
        walls, cpus = [float(s) for s in samples], []  # type: ignore[arg-type]
    return {
        "n": len(walls),
        "median": round(statistics.median(walls), 3),
        "min": round(min(walls), 3),
        "max": round(max(walls), 3),
        "cpu_median": round(statistics.median(cpus), 3) if cpus else None,
        "unit": unit,
    }


class Probe:
    """Accumulates (wall, cpu) per ``phase.part`` label while installed."""

    def __init__(self) -> None:
        self.phase = "-"
        self.acc: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        self._undo: list[tuple[Any, str, Any]] = []
        self._depth: dict[str, int] = defaultdict(int)

    # -------------------------------------------------------------- recording
    def reset(self) -> dict[str, Sample]:
        """Return what was accumulated since the last reset, and start afresh."""
        out = {k: (v[0], v[1]) for k, v in self.acc.items()}
        self.acc = defaultdict(lambda: [0.0, 0.0])
        return out

    def add(self, label: str, sample: Sample) -> None:
        slot = self.acc[label]
        slot[0] += sample[0]
        slot[1] += sample[1]

    @contextmanager
    def in_phase(self, phase: str) -> Iterator[None]:
        """Time a top-level phase (``phase``) and label the internals it calls ``phase.part``."""
        prev, self.phase = self.phase, phase
        start = now()
        try:
            yield
        finally:
            self.add(phase, since(start))
            self.phase = prev

    # -------------------------------------------------------------- wrapping
    def wrap(self, owner: Any, attr: str, part: str) -> bool:
        """Replace ``owner.attr`` (a function, method or class attribute) by a timed wrapper."""
        if isinstance(owner, str):
            try:
                owner = importlib.import_module(owner)
            except ImportError:
                return False
        original = owner.__dict__.get(attr) if isinstance(owner, type) else getattr(owner, attr, None)
        if original is None:
            return False
        probe = self
        func = original.__func__ if isinstance(original, (classmethod, staticmethod)) else original

        def timed(*args: Any, **kwargs: Any) -> Any:
            key = f"{probe.phase}.{part}"
            probe._depth[key] += 1
            start = now()
            try:
                return func(*args, **kwargs)
            finally:
                probe._depth[key] -= 1
                if probe._depth[key] == 0:  # recursion counts once
                    probe.add(key, since(start))

        timed.__wrapped__ = func  # type: ignore[attr-defined]
        if isinstance(original, classmethod):
            replacement: Any = classmethod(timed)
        elif isinstance(original, staticmethod):
            replacement = staticmethod(timed)
        else:
            replacement = timed
        setattr(owner, attr, replacement)
        self._undo.append((owner, attr, original))
        return True

    def replace(self, owner: Any, attr: str, value: Any) -> None:
        original = getattr(owner, attr)
        setattr(owner, attr, value)
        self._undo.append((owner, attr, original))

    def restore(self) -> None:
        while self._undo:
            owner, attr, original = self._undo.pop()
            setattr(owner, attr, original)


class _TimedModule:
    """A stand-in for a module (``shutil``) whose chosen functions are timed."""

    def __init__(self, real: Any, probe: Probe, parts: dict[str, str]) -> None:
        self._real, self._probe, self._parts = real, probe, parts

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._real, name)
        part = self._parts.get(name)
        if part is None or not callable(value):
            return value
        probe = self._probe

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = now()
            try:
                return value(*args, **kwargs)
            finally:
                probe.add(f"{probe.phase}.{part}", since(start))

        return timed


@contextmanager
def attempt_probe() -> Iterator[Probe]:
    """Install timers on the attempt path: copy, connect, catalog, checkpoint/close,
    the grader's attach/catalog/keys/table queries, reopen, workdir removal."""
    import shutil

    import cfab.apps.sandbox.exec as sqlexec
    import cfab.apps.world.environment as envmod
    import cfab.grader as grader_pkg
    import cfab.grader.diff as diffmod

    probe = Probe()
    try:
        probe.replace(envmod, "shutil", _TimedModule(shutil, probe, {"copyfile": "copy", "rmtree": "rmtree"}))
        probe.wrap(sqlexec, "connect_hardened", "connect")
        probe.wrap(envmod, "_catalog_for", "catalog")
        probe.wrap(envmod, "ensure_composed", "composed")  # per-composition templates, where present
        probe.wrap(envmod, "ensure_golden", "ensure_golden")
        probe.wrap(envmod.Environment, "_open", "env_init")
        probe.wrap(envmod.Environment, "_close_con", "checkpoint_close")
        probe.wrap(grader_pkg, "state_diff", "grader")  # env.state_diff imports it from here
        probe.wrap(diffmod, "_diff", "grader_diff")
        probe.wrap(diffmod, "read_catalogs", "grader_catalogs")
        probe.wrap(diffmod, "_written_keys", "grader_keys")
        probe.wrap(diffmod, "_changed_by_fingerprint", "grader_fingerprints")
        probe.wrap(diffmod, "_diff_table", "grader_tables")
        probe.wrap(diffmod, "_same_shape", "grader_shape_check")  # catalog reuse, where present
        probe.wrap(diffmod, "_cached_before", "grader_template_attach")
        yield probe
    finally:
        probe.restore()


class _TimedSeeds(dict):
    """``load_all()`` as ``build_golden`` sees it: each app's ``seed`` timed."""

    def __init__(self, registry: dict[str, Any], probe: Probe) -> None:
        super().__init__()
        for name, cls in registry.items():
            self[name] = _TimedApp(cls, probe)


class _TimedApp:
    def __init__(self, cls: Any, probe: Probe) -> None:
        self._cls, self._probe = cls, probe

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cls, name)

    def seed(self, *args: Any, **kwargs: Any) -> Any:
        start = now()
        try:
            return self._cls.seed(*args, **kwargs)
        finally:
            self._probe.add(f"seed.{self._cls.name}", since(start))


@contextmanager
def build_probe() -> Iterator[Probe]:
    """Install timers on ``build_golden``: book generation (Python), bulk load, replication,
    bank balances, each app's seed (DDL + views), the content digest."""
    import cfab.apps.world.golden as golden
    import cfab.seeds.build as seeds_build
    import cfab.seeds.load as seeds_load
    import cfab.seeds.scale as seeds_scale
    from cfab.apps import registry

    probe = Probe()
    probe.phase = "build"
    real_load_all: Callable[[], dict[str, Any]] = registry.load_all
    try:
        probe.wrap(seeds_build, "generate", "book_generate_python")
        probe.wrap(seeds_load, "load_rows", "book_load")
        probe.wrap(seeds_scale, "replicate", "book_replicate")
        probe.wrap(seeds_scale, "derive_bank_balances", "book_bank_balances")
        probe.wrap(golden, "content_digest", "digest")
        probe.wrap(golden, "seed_apps", "apps_seed")  # wall of all seeds (they run concurrently)
        probe.replace(registry, "load_all", lambda: _TimedSeeds(real_load_all(), probe))
        yield probe
    finally:
        probe.restore()
