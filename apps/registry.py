"""The app registry: every app class by name, discovered at load time.

App modules register their vendor classes with :func:`register`. :func:`load_all` imports
every module listed in ``APP_MODULES`` so the registry is complete (35 apps). A vendor defined
as data outside those modules (a test's sixth bank) joins for a while with :func:`registered`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cfab.apps.contract import App

# One module per archetype; each registers its vendor instances.
APP_MODULES: tuple[str, ...] = (
    "cfab.apps.erp",
    "cfab.apps.bank",
    "cfab.apps.payroll",
    "cfab.apps.fieldtime",
    "cfab.apps.pm",
    "cfab.apps.payapp",
    "cfab.apps.compliance",
    "cfab.apps.integration",
    "cfab.apps.docs",
    "cfab.apps.office",
)

_REGISTRY: dict[str, type[App]] = {}
_TEMPORARY: set[str] = set()  # names added by ``registered`` for the length of a ``with`` block
_loaded = False


def register(cls: type[App]) -> type[App]:
    """Class decorator: add a concrete vendor app to the registry."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no app name")
    other = _REGISTRY.get(cls.name)
    if other is not None and other is not cls:
        raise ValueError(f"app name {cls.name!r} registered twice ({other.__name__}, {cls.__name__})")
    _REGISTRY[cls.name] = cls
    return cls


@contextmanager
def registered(*classes: type[App]) -> Iterator[None]:
    """Register app classes for the duration of a ``with`` block, then remove them again (the
    modules of ``APP_MODULES`` are loaded first, so the block sees the whole registry)."""
    load_all()
    for cls in classes:
        if cls.name in _REGISTRY and _REGISTRY[cls.name] is not cls:
            raise ValueError(f"app name {cls.name!r} is already registered ({_REGISTRY[cls.name].__name__})")
    added = [cls for cls in classes if cls.name not in _REGISTRY]
    for cls in added:
        register(cls)
        _TEMPORARY.add(cls.name)
    try:
        yield
    finally:
        for cls in added:
            _REGISTRY.pop(cls.name, None)
            _TEMPORARY.discard(cls.name)


def load_all() -> dict[str, type[App]]:
    """Import every app module (once) and return the registry, sorted by name."""
    global _loaded
    if not _loaded:
        for module in APP_MODULES:
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as exc:
                if exc.name != module:  # a real import error inside an existing module
                    raise
        _loaded = True
    return dict(sorted(_REGISTRY.items()))


def app_names() -> list[str]:
    return list(load_all())


def shipped_apps() -> list[str]:
    """The apps of ``APP_MODULES``: the registry without the ones ``registered`` added for a block.
    The shared golden file holds exactly these, whatever a test has registered meanwhile."""
    return [name for name in load_all() if name not in _TEMPORARY]


def get_app(name: str) -> type[App]:
    apps = load_all()
    try:
        return apps[name]
    except KeyError:
        raise KeyError(f"unknown app {name!r}; known apps: {', '.join(apps)}") from None
