"""The policy registry: ``register_policy(name, factory)`` and ``make_policy(name, **options)``.

A factory is a callable ``(**options) -> Policy`` or a lazy ``"module:attr"`` string naming
one, imported on first use (so registering a policy never imports its dependencies, e.g.
``openai`` for ``llm``). Registered here: ``noop``, ``llm``, ``oracle`` (and ``alternative``), ``execute`` and
``do-everything`` and ``stage-payment``. Other modules register
their own (``register_policy("oracle", "cfab.tasks.oracle:OraclePolicy")``) at import time,
or the registry can be extended before the run starts; the worker processes of a run
import this package, so lazy strings registered here or in a module the ``run_one``
function imports resolve there too.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from cfab.runner.protocols import Policy

PolicyFactory = Callable[..., Policy]

_REGISTRY: dict[str, PolicyFactory | str] = {}


def register_policy(name: str, factory: PolicyFactory | str, *, replace: bool = False) -> None:
    """Register ``factory`` under ``name``; re-registering needs ``replace=True``
    (re-registering the very same factory is a no-op)."""
    if not name or not name.replace("-", "_").isidentifier():
        raise ValueError(f"bad policy name {name!r}")
    if isinstance(factory, str) and ":" not in factory:
        raise ValueError(f"lazy factory must be 'module:attr', got {factory!r}")
    current = _REGISTRY.get(name)
    if current is not None and current != factory and not replace:
        raise ValueError(f"policy {name!r} is already registered; pass replace=True")
    _REGISTRY[name] = factory


def _resolve(name: str) -> PolicyFactory:
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown policy {name!r}; known: {', '.join(available_policies())}") from None
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
        factory = obj
        _REGISTRY[name] = factory
    return factory


def make_policy(name: str, **options: Any) -> Policy:
    """Build the policy registered as ``name`` with ``options`` (the factory validates them)."""
    return _resolve(name)(**options)


def available_policies() -> list[str]:
    """Registered policy names, sorted."""
    return sorted(_REGISTRY)


register_policy("noop", "cfab.runner.policies.baselines:NoopPolicy")
register_policy("llm", "cfab.runner.policies.llm:LLMPolicy.from_options")
register_policy("oracle", "cfab.runner.policies.oracle:OraclePolicy")
register_policy("alternative", "cfab.runner.policies.oracle:OraclePolicy")
register_policy("execute", "cfab.runner.policies.oracle:ExecutePolicy")
register_policy("do-everything", "cfab.runner.policies.oracle:DoEverythingPolicy")
register_policy("stage-payment", "cfab.runner.policies.oracle:StagePaymentPolicy")

__all__ = ["PolicyFactory", "available_policies", "make_policy", "register_policy"]
