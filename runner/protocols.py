"""The interfaces the runner codes against: an environment, a task and a policy.

These are structural (``typing.Protocol``): the Environment and the task classes written
elsewhere satisfy them without importing this module.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from cfab.runner.results.records import Episode


@runtime_checkable
class EnvLike(Protocol):
    """An environment composed for one task attempt."""

    def tool_specs(self) -> list[dict[str, Any]]:
        """OpenAI Chat Completions ``tools`` entries, one per tool, with sanitized names:
        ``{"type": "function", "function": {"name", "description", "parameters"}}``.
        The LLM policy records native names in its episode when an entry carries
        ``"x-native-name"`` (top level or inside ``function``; stripped before sending) or
        when the env has ``resolve(name)`` returning an object with a ``.name`` (the native
        name), as ``cfab.apps.world.environment.Environment`` does."""
        ...

    def call(self, name: str, /, **args: Any) -> dict[str, Any]:
        """Run one tool by native or sanitized name. Always returns a JSON-safe dict;
        agent errors are ``{"ok": False, "error": "..."}``, never exceptions."""
        ...


class TaskLike(Protocol):
    """The task fields a policy may read."""

    instance_id: str
    instruction: str
    systems: list[str]
    domain: str
    family: str
    difficulty: int
    money_movement_guard: bool
    policy_ref: str | None


@runtime_checkable
class Policy(Protocol):
    """Something that runs a task in an environment and returns an :class:`Episode`."""

    name: str
    model: str | None

    def run(self, task: TaskLike, env: EnvLike) -> Episode:
        """Drive the agent to completion; never raise for agent or API errors."""
        ...
