"""cfab.apps: the 35 apps as native tool surfaces over one DuckDB file.

The contract every app implements (`App`, its `AppManifest`), the tool decorator and
argument base (`tool`, `ToolArgs`, `ToolError`, `ToolSpec`), the registry (`app_names`,
`get_app`, `load_all`) and the agent-SQL guard's refusal (`SqlRefused`). Archetype packages
(`cfab.apps.erp`, `cfab.apps.bank`, …) hold the vendors.

Names are imported on first use, so importing one app module stays cheap and the archetype
packages can import each other's helpers without cycles.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__all__ = [
    "App",
    "AppContext",
    "AppManifest",
    "ToolArgs",
    "ToolError",
    "ToolResult",
    "ToolSpec",
    "tool",
    "app_names",
    "get_app",
    "load_all",
    "SqlRefused",
]

_WHERE = {
    "App": "contract",
    "AppContext": "contract",
    "AppManifest": "contract",
    "ToolArgs": "tooling",
    "ToolError": "tooling",
    "ToolResult": "tooling",
    "ToolSpec": "tooling",
    "tool": "tooling",
    "app_names": "registry",
    "get_app": "registry",
    "load_all": "registry",
    "SqlRefused": "sandbox.policy",
}

if TYPE_CHECKING:
    from cfab.apps.contract import App, AppContext, AppManifest
    from cfab.apps.registry import app_names, get_app, load_all
    from cfab.apps.sandbox.policy import SqlRefused
    from cfab.apps.tooling import ToolArgs, ToolError, ToolResult, ToolSpec, tool


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(import_module(f"cfab.apps.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'cfab.apps' has no attribute {name!r}")
