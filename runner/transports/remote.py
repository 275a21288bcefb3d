"""What a remote client knows about a tool, shaped like the in-process ``ToolSpec``.

Policies read ``env.tools`` (name → spec with ``writes``, ``guarded``, ``args_model``) and
``env.resolve(name).name``; the HTTP and MCP clients rebuild both from the wire (the JSON schema
of each tool's arguments keeps its field descriptions, defaults and examples), so a policy
behaves the same whichever transport it runs over.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from cfab.apps.tooling import sanitize_name


class RemoteTool:
    """One tool of a remote environment: native name, schema, write flag and guard kind."""

    def __init__(
        self,
        name: str,
        description: str,
        parameters: dict[str, Any],
        *,
        writes: bool = False,
        guarded: str | None = None,
    ) -> None:
        self.name = name
        self.sanitized = sanitize_name(name)
        self.description = description
        self.parameters = parameters
        self.writes = writes
        self.guarded = guarded

    @cached_property
    def args_model(self) -> type[BaseModel]:
        """A permissive pydantic model of the arguments (fields carry their documented examples)."""
        return model_from_schema(self.sanitized, self.parameters)

    def openai_spec(self) -> dict[str, Any]:
        """The in-process ``tool_specs()`` entry (sanitized name) with the native name attached."""
        return {
            "type": "function",
            "function": {"name": self.sanitized, "description": self.description, "parameters": self.parameters},
            "x-native-name": self.name,
        }

    def __repr__(self) -> str:
        flags = "".join([" writes" if self.writes else "", f" guarded={self.guarded}" if self.guarded else ""])
        return f"RemoteTool({self.name}{flags})"


def model_from_schema(name: str, schema: dict[str, Any]) -> type[BaseModel]:
    """A model whose fields mirror a JSON schema's properties (aliases keep the wire names)."""
    required = set(schema.get("required") or [])
    fields: dict[str, Any] = {}
    for i, (prop, sub) in enumerate((schema.get("properties") or {}).items()):
        sub = sub if isinstance(sub, dict) else {}
        kwargs: dict[str, Any] = {"alias": prop, "description": sub.get("description")}
        if sub.get("examples"):
            kwargs["examples"] = list(sub["examples"])
        default = ... if prop in required else sub.get("default")
        fields[f"f{i}"] = (Any, Field(default, **kwargs))
    return create_model(f"{name}_args", __config__=ConfigDict(extra="allow", populate_by_name=True), **fields)


class RemoteTools:
    """The tool map of a remote environment: native name → :class:`RemoteTool`, plus lookup by
    sanitized name (what the model sees) for :meth:`resolve`."""

    def __init__(self, tools: list[RemoteTool]) -> None:
        self.by_name = {t.name: t for t in tools}
        self.by_sanitized = {t.sanitized: t for t in tools}

    def resolve(self, name: str) -> RemoteTool:
        tool = self.by_name.get(name) or self.by_sanitized.get(name)
        if tool is None:
            raise KeyError(name)
        return tool

    def native(self, name: str) -> str:
        """The native name for a native or sanitized name (unknown names pass through)."""
        tool = self.by_name.get(name) or self.by_sanitized.get(name)
        return tool.name if tool is not None else name

    def specs(self) -> list[dict[str, Any]]:
        return [t.openai_spec() for t in self.by_name.values()]


def decode_result(text: str) -> dict[str, Any]:
    """A tool result dict from JSON text; anything else becomes an error result."""
    try:
        value = json.loads(text)
    except ValueError:
        return {
            "ok": False,
            "error": f"the server returned a non-JSON result: {text[:200]!r}",
            "error_type": "internal",
        }
    if not isinstance(value, dict):
        return {
            "ok": False,
            "error": f"the server returned {type(value).__name__}, not a result object",
            "error_type": "internal",
        }
    return value


class TransportError(RuntimeError):
    """The transport itself failed (server gone, protocol error): infrastructure, not an agent mistake."""
