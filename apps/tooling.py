"""Tools as an agent sees them.

A tool is an app method decorated with :func:`tool`. Its single parameter ``args`` is a
pydantic model (field descriptions and examples become the JSON schema); its docstring is the
prompt the agent reads (``$label``-style placeholders are filled from the app's class
constants). Results are JSON-safe. A bad argument, an unknown id or a refused write becomes a
clear error result; an agent never sees a traceback.

Example::

    class ListArgs(ToolArgs):
        project_number: str | None = Field(None, description="Job number", examples=["1042"])

    @tool("commitments.list")
    def commitments_list(self, args: ListArgs) -> dict:
        '''List commitments in $label ... Returns {"commitments": [...], "count": n}.'''
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from string import Template
from typing import Any, Literal, get_type_hints
from uuid import UUID

from pydantic import BaseModel

from cfab.schema.models import CfabModel, FrozenModel

ErrorKind = Literal["invalid_argument", "not_found", "rejected", "conflict", "unknown_tool", "internal"]
_SANITIZE = re.compile(r"[^a-zA-Z0-9_-]")


class ToolArgs(CfabModel):
    """Base for tool argument models: unknown arguments are errors."""


class NoArgs(ToolArgs):
    """A tool that takes no arguments."""


class ToolError(Exception):
    """Raised by a tool for an agent mistake; becomes ``{"ok": false, "error": ...}``."""

    def __init__(self, message: str, kind: ErrorKind = "invalid_argument") -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind


class ToolResult(FrozenModel):
    """What every tool call returns to the agent (serialized with :meth:`as_dict`)."""

    ok: bool
    data: Any = None
    error: str | None = None
    error_type: ErrorKind | None = None
    status: str | None = None  # "pending_human_approval" for guarded calls
    guard_seq: int | None = None
    message: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.model_dump(mode="json").items() if v is not None}


@dataclass(frozen=True)
class ToolMeta:
    local: str
    writes: bool
    guarded: str | None
    aliases: tuple[str, ...]


def tool(
    local: str, *, writes: bool = False, guarded: str | None = None, aliases: tuple[str, ...] = ()
) -> Callable[[Callable], Callable]:
    """Mark an app method as a tool named ``<app>.<local>``.

    ``writes``: the tool changes state (through the gate). ``guarded``: the tool moves money,
    posts, files or signs — calling it validates the arguments, records the call in the guard
    log with ``executed=false`` and returns "pending human approval"; it never changes state.
    The value is the guard kind: payment|payroll|efile|esign|post|send|approve.
    """

    def deco(fn: Callable) -> Callable:
        fn.__cfab_tool__ = ToolMeta(local, writes, guarded, tuple(aliases))  # type: ignore[attr-defined]
        return fn

    return deco


@dataclass
class ToolSpec:
    """A resolved tool of one app class (unbound: call with an app instance)."""

    name: str  # full native name: 'procore.commitments.list'
    app: str
    local: str
    method: str  # the Python method name on the app class
    args_model: type[ToolArgs]
    description: str
    writes: bool
    guarded: str | None
    aliases: tuple[str, ...] = ()
    sanitized: str = field(init=False)

    def __post_init__(self) -> None:
        self.sanitized = sanitize_name(self.name)

    def parameters_schema(self) -> dict[str, Any]:
        return clean_schema(self.args_model.model_json_schema())

    def openai_spec(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.sanitized,
                "description": self.description,
                "parameters": self.parameters_schema(),
            },
        }


def sanitize_name(name: str) -> str:
    """Map a native tool name onto the OpenAI function-name charset (``^[a-zA-Z0-9_-]{1,64}$``)."""
    out = _SANITIZE.sub("_", name.replace(".", "__"))
    if len(out) > 64:
        from cfab.seeds.determinism import stable_id

        out = out[:55] + "_" + stable_id(name, length=8)
    return out


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop pydantic's ``title`` noise; keep descriptions, examples, enums, defaults, $defs."""

    def walk(node: Any, in_props: bool = False) -> Any:
        if isinstance(node, dict):
            return {
                k: walk(v, k in ("properties", "$defs"))
                for k, v in node.items()
                if not (k == "title" and not in_props and isinstance(v, str))
            }
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    out = walk(schema)
    out.setdefault("type", "object")
    out.setdefault("properties", {})
    return out


def collect_tools(
    cls: type, app_name: str, names: dict[str, str], disabled: frozenset[str], doc_vars: dict[str, str]
) -> dict[str, ToolSpec]:
    """Tools declared on ``cls`` and its bases, renamed by ``names`` (archetype → native)."""
    specs: dict[str, ToolSpec] = {}
    seen: set[str] = set()
    for klass in cls.__mro__:
        for attr, fn in vars(klass).items():
            meta: ToolMeta | None = getattr(fn, "__cfab_tool__", None)
            if meta is None or attr in seen:
                continue
            seen.add(attr)
            if meta.local in disabled:
                continue
            local = names.get(meta.local, meta.local)
            hints = get_type_hints(fn)
            model = hints.get("args", NoArgs)
            if not (isinstance(model, type) and issubclass(model, ToolArgs)):
                raise TypeError(f"{cls.__name__}.{attr}: the args parameter must be a ToolArgs model")
            doc = inspect.cleandoc(Template(fn.__doc__ or "").safe_substitute(doc_vars))
            full = f"{app_name}.{local}"
            aliases = tuple(a if a.startswith(app_name + ".") else f"{app_name}.{a}" for a in meta.aliases)
            specs[full] = ToolSpec(full, app_name, local, attr, model, doc, meta.writes, meta.guarded, aliases)
    return dict(sorted(specs.items()))


def jsonable(value: Any) -> Any:
    """Convert DB values to JSON-safe ones: Decimal → exact str, dates → ISO, bytes → size."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, float):
        return value
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"bytes": len(bytes(value))}
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, BaseModel):
        return jsonable(value.model_dump(mode="json"))
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    return str(value)
