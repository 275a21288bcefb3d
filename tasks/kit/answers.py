"""Typed answers and the sentence that asks for them.

A family that asks for a report declares each answer with one of the builders below and
ends its instruction with :func:`ask`, so every instruction names its answers the same way:

    answers = [id_answer("vista_vendor_id", "the Vista vendor id you placed the hold on",
                         vista_id, aliases=[vista_name], lookalikes=[look_id])]
    instruction = f"... Place a payment hold in Vista and touch nothing else. {ask(answers)}"

Expected values come from the book (never typed in); ``lookalikes`` are the plausible wrong
values a careless agent would give (the similarly named record, the figure before the
twist) and admission checks that each one fails. Money is passed as exact decimals.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.tasks.kit.figures import money_str


def amount_answer(name: str, description: str, value: Any, *, lookalikes: Iterable[Any] = ()) -> AnswerSpec:
    """An amount to the cent (``value`` an exact decimal or its string)."""
    want = money_str(value)
    looks = sorted({money_str(v) for v in lookalikes} - {want})
    return AnswerSpec(name=name, type="amount", description=description, expected=want, lookalikes=looks)


def count_answer(name: str, description: str, value: int, *, lookalikes: Iterable[int] = ()) -> AnswerSpec:
    """A whole number."""
    looks = sorted({int(v) for v in lookalikes} - {int(value)})
    return AnswerSpec(name=name, type="count", description=description, expected=int(value), lookalikes=looks)


def id_answer(
    name: str, description: str, value: Any, *, aliases: Iterable[Any] = (), lookalikes: Iterable[Any] = ()
) -> AnswerSpec:
    """A record id; ``aliases`` are other spellings of the same record (another app's id or name)."""
    want = str(value)
    alias = [str(a) for a in aliases if str(a) != want]
    return AnswerSpec(
        name=name,
        type="id",
        description=description,
        expected=want,
        aliases={want: alias} if alias else {},
        lookalikes=[str(v) for v in dict.fromkeys(lookalikes) if str(v) != want],
    )


def id_list_answer(
    name: str,
    description: str,
    values: Iterable[Any],
    *,
    aliases: Mapping[str, Sequence[Any]] | None = None,
    lookalikes: Iterable[Any] = (),
) -> AnswerSpec:
    """A set of record ids (order does not matter); ``lookalikes`` are single ids that do not belong."""
    want = sorted(dict.fromkeys(str(v) for v in values))
    alias = {str(k): [str(a) for a in v] for k, v in (aliases or {}).items() if v}
    looks = [str(v) for v in dict.fromkeys(lookalikes) if str(v) not in want]
    return AnswerSpec(
        name=name,
        type="id_list",
        description=description,
        expected=want,
        aliases=alias,
        lookalikes=[[*want, v] for v in looks],
    )


def choice_answer(
    name: str,
    description: str,
    options: Sequence[str],
    value: str,
    *,
    aliases: Mapping[str, Sequence[str]] | None = None,
) -> AnswerSpec:
    """One of the named ``options``; ``aliases`` maps an option to other accepted wordings."""
    return AnswerSpec(
        name=name,
        type="choice",
        description=description,
        expected=value,
        options=list(options),
        aliases={k: list(v) for k, v in (aliases or {}).items()},
    )


def date_answer(
    name: str, description: str, value: dt.date | str, *, lookalikes: Iterable[dt.date | str] = ()
) -> AnswerSpec:
    """A calendar date (ISO)."""
    iso = value.isoformat() if isinstance(value, dt.date) else str(value)
    looks = [v.isoformat() if isinstance(v, dt.date) else str(v) for v in lookalikes]
    return AnswerSpec(
        name=name,
        type="date",
        description=description,
        expected=iso,
        lookalikes=[v for v in dict.fromkeys(looks) if v != iso],
    )


def ask(answers: Sequence[AnswerSpec]) -> str:
    """The instruction's closing sentence naming every answer, e.g. ``When you finish, report
    the Vista vendor id you placed the hold on (`vista_vendor_id`).``"""
    if not answers:
        return ""
    parts = []
    for a in answers:
        text = f"{a.description} (`{a.name}`"
        if a.type == "choice":
            text += ": " + " or ".join(f"`{o}`" for o in a.options)
        parts.append(text + ")")
    body = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"When you finish, report {body}."


def answers_of(answers: Sequence[AnswerSpec]) -> dict[str, Any]:
    """The oracle's answers: each spec's expected value."""
    return {a.name: a.expected for a in answers}


__all__ = [
    "amount_answer",
    "answers_of",
    "ask",
    "choice_answer",
    "count_answer",
    "date_answer",
    "id_answer",
    "id_list_answer",
]
