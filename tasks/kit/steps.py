"""Trajectories by name: tool steps, the oracle and alternatives, and the family's wrong runs.

    read = step("procore.vendors.list", name_contains="Walsh")
    hold = step("vista_erp.vendors.set_payment_hold", vendor_id="13571", on_hold=True, hold_code="COI")
    trajectory("oracle", [read, hold], reply, report)
    mutant("lookalike", "hold on the lookalike", [with_args(hold, vendor_id="13572")], answers=report)

An argument may be a :func:`cfab.tasks.model.result_of` reference (the id an earlier call returned).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cfab.tasks.model import MutantClass, ToolStep, Trajectory


def step(tool: str, /, **args: Any) -> ToolStep:
    """One tool call: the native tool name and its arguments."""
    return ToolStep(tool=tool, args=args)


def with_args(base: ToolStep, /, **changes: Any) -> ToolStep:
    """The same call with some arguments changed or added."""
    return ToolStep(tool=base.tool, args={**base.args, **changes})


def trajectory(
    label: str, steps: Iterable[ToolStep], reply: str, answers: Mapping[str, Any] | None = None
) -> Trajectory:
    """A valid run (the ``oracle`` or an alternative): its calls, final reply and typed answers."""
    return Trajectory(label=label, steps=list(steps), reply=reply, answers=dict(answers or {}))


def mutant(
    mutant_class: MutantClass,
    label: str,
    steps: Iterable[ToolStep],
    reply: str = "Done.",
    answers: Mapping[str, Any] | None = None,
) -> Trajectory:
    """A wrong run the grader must fail, with what kind of wrong it is (see :class:`Trajectory`)."""
    return Trajectory(
        label=label, steps=list(steps), reply=reply, answers=dict(answers or {}), mutant_class=mutant_class
    )


__all__ = ["mutant", "step", "trajectory", "with_args"]
