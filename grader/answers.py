"""Typed answers: what a task asks the agent to report, and how a given value is compared.

A report checked by a regex over free text only tests that tokens are present: "I did NOT
place a hold on vendor 13571" contains the id. A task that asks for a report therefore names
each answer in its instruction and declares it here: a name, a type, the expected value
(computed from the book) and the other spellings the apps use for it. The agent gives the
answers through its finish step (``{"vista_vendor_id": "13571"}``); the grader normalises
the given value by type and compares it exactly.

Types and what they accept (every comparison is exact; nothing is rounded):

* ``amount`` — money to the cent: a number or a string with an optional currency sign or
  code, thousands separators, a leading minus or accounting parentheses
  (``"$1,234.50"``, ``1234.5``, ``"(12.00)"``). ``1234.501`` is not ``1234.50``.
* ``count`` — a whole number: ``2``, ``"2"``, ``"two"``.
* ``id`` — a record identifier: compared case-insensitively with spaces, hyphens,
  underscores, dots, commas, ``#`` and slashes ignored (``"13,571"`` is ``13571``,
  ``"jsm 88421"`` is ``JSM-88421``), against the expected id and its declared aliases
  (the spelling another app uses for the same record).
* ``date`` — a calendar date: ISO ``2026-01-31``, ``01/31/2026`` or ``January 31, 2026``.
* ``choice`` — one of the declared options (or an option's alias), normalised like an id.
* ``id_list`` — a set of ids (a JSON array, or one string separated by ``;``, ``,`` or
  newlines; ``"none"`` or ``"n/a"`` for the empty list): every expected id present, nothing
  else. Order and duplicates do not matter.

:func:`compare` never raises: a value of the wrong shape is a failed comparison with a detail
that says what was wrong. :func:`answers_schema` is the JSON Schema of a task's answers
object, which every finish path (in-process policies, the LLM policy's ``finish`` tool, HTTP
``/finish``, MCP ``finish``) offers the agent.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import Field, model_validator

from cfab.schema.models import CfabModel

AnswerType = Literal["amount", "count", "id", "date", "choice", "id_list"]
ANSWER_TYPES: tuple[str, ...] = ("amount", "count", "id", "date", "choice", "id_list")

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
_ID_NOISE = re.compile(r"[\s\-_.,#/'\"]+")
_AMOUNT = re.compile(r"^[+-]?\d+(?:\.\d+)?$")
_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
#: Counts as words, zero to twenty: how instructions write a count and how a reply may give one.
NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)
_NUMBER_WORDS = {w: i for i, w in enumerate(NUMBER_WORDS)}
_DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%Y", "%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%Y/%m/%d")
_EMPTY_WORDS = frozenset({"", "none", "na", "nil", "nothing", "noneofthem", "empty"})
_MAX_TEXT = 10_000  # longer values are not answers; compared as wrong without parsing


class AnswerError(ValueError):
    """A given value that cannot be read as its answer's type (the message says why)."""


class AnswerSpec(CfabModel):
    """One answer a task asks for. ``expected``, ``aliases`` and ``lookalikes`` are ground
    truth (never shown to the agent); :meth:`public` is what the agent sees."""

    name: str = Field(..., examples=["vista_vendor_id"])
    type: AnswerType
    description: str = Field(..., examples=["the Vista vendor id you placed the hold on"])
    expected: Any = Field(
        ..., description="the right value: an amount string, an int, an id, an ISO date, one option, or a list of ids"
    )
    options: list[str] = Field(default_factory=list, description="choice answers: the named options")
    aliases: dict[str, list[str]] = Field(
        default_factory=dict, description="other accepted spellings of an id or option (key: canonical value)"
    )
    lookalikes: list[Any] = Field(
        default_factory=list,
        description="plausible wrong values (the lookalike record, the stale figure); "
        "admission checks that each one fails",
    )

    @model_validator(mode="after")
    def _consistent(self) -> AnswerSpec:
        if not _NAME.match(self.name):
            raise ValueError(f"answer name {self.name!r} must be snake_case (a-z, 0-9, _)")
        if self.type == "choice":
            if len(self.options) < 2:
                raise ValueError(f"choice answer {self.name!r} needs at least two options")
            if len({_key(o) for o in self.options}) != len(self.options):
                raise ValueError(f"choice answer {self.name!r} has options that normalise alike")
        elif self.options:
            raise ValueError(f"answer {self.name!r}: options only apply to choice answers")
        try:
            canonical = self.canonical(self.expected)
        except AnswerError as e:
            raise ValueError(f"answer {self.name!r}: expected value does not parse as {self.type}: {e}") from None
        if self.type == "choice" and canonical not in {_key(o) for o in self.options}:
            raise ValueError(f"answer {self.name!r}: expected {self.expected!r} is not one of {self.options}")
        for value in self.lookalikes:
            held, _ = self.compare(value)
            if held:
                raise ValueError(f"answer {self.name!r}: lookalike {value!r} would be accepted as right")
        return self

    # ------------------------------------------------------------------ reading values
    def _alias_map(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for canonical, spellings in self.aliases.items():
            for s in [canonical, *spellings]:
                out[_key(s)] = _key(canonical)
        return out

    def canonical(self, value: Any) -> Any:
        """The comparable form of ``value`` for this answer's type (raises AnswerError)."""
        t = self.type
        if t == "amount":
            return parse_amount(value)
        if t == "count":
            return parse_count(value)
        if t == "date":
            return parse_date(value)
        if t == "id":
            key = _key(_scalar_text(value, "an id"))
            return self._alias_map().get(key, key)
        if t == "choice":
            key = _key(_scalar_text(value, "one of the options"))
            key = self._alias_map().get(key, key)
            options = {_key(o): o for o in self.options}
            if key not in options:
                raise AnswerError(f"{value!r} is not one of the options {self.options}")
            return key
        items = parse_list(value)
        aliases = self._alias_map()
        return frozenset(aliases.get(k, k) for k in (_key(_scalar_text(i, "an id")) for i in items))

    def compare(self, given: Any) -> tuple[bool, str]:
        """(held, detail) for one given value; never raises."""
        try:
            want = self.canonical(self.expected)
        except AnswerError as e:  # pragma: no cover - validated at load
            return False, f"the task's expected value is unreadable: {e}"
        try:
            got = self.canonical(given)
        except AnswerError as e:
            return False, f"{self.name}: {e}"
        except Exception as e:  # noqa: BLE001 - grading must not raise on agent input
            return False, f"{self.name}: unreadable value ({type(e).__name__})"
        if got == want:
            return True, f"{self.name} = {_show(given)}"
        if self.type == "id_list":
            missing = sorted(want - got)
            extra = sorted(got - want)
            parts = []
            if missing:
                parts.append(f"missing {', '.join(missing[:10])}")
            if extra:
                parts.append(f"not expected {', '.join(extra[:10])}")
            return False, f"{self.name}: {'; '.join(parts)}"
        return False, f"{self.name}: expected {_show(self.expected)}, got {_show(given)}"

    # ------------------------------------------------------------------ what the agent sees
    def public(self) -> dict[str, Any]:
        """Name, type, description and options: no expected value, no aliases."""
        out: dict[str, Any] = {"name": self.name, "type": self.type, "description": self.description}
        if self.options:
            out["options"] = list(self.options)
        return out

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of this answer's value (as an agent's finish step sends it)."""
        desc = self.description
        t = self.type
        if t == "amount":
            return {
                "type": ["string", "number"],
                "description": f"{desc} (an amount, to the cent)",
                "examples": ["12345.67"],
            }
        if t == "count":
            return {"type": "integer", "minimum": 0, "description": desc, "examples": [3]}
        if t == "date":
            return {
                "type": "string",
                "format": "date",
                "description": f"{desc} (YYYY-MM-DD)",
                "examples": ["2026-01-31"],
            }
        if t == "id":
            return {"type": ["string", "integer"], "description": f"{desc} (an id)"}
        if t == "choice":
            return {"type": "string", "enum": list(self.options), "description": desc}
        return {
            "type": "array",
            "items": {"type": ["string", "integer"]},
            "description": f"{desc} (a list of ids; order does not matter)",
        }


def answers_schema(specs: Sequence[AnswerSpec]) -> dict[str, Any]:
    """The JSON Schema of a task's answers object (every answer required, no others)."""
    return {
        "type": "object",
        "properties": {s.name: s.json_schema() for s in specs},
        "required": [s.name for s in specs],
        "additionalProperties": False,
    }


def check_answers(specs: Sequence[AnswerSpec], given: Any) -> list[tuple[str, bool, str]]:
    """(name, held, detail) per spec for a given answers mapping; never raises."""
    if not specs:
        return []
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        detail = f"answers must be an object of name → value, got {type(given).__name__}"
        return [(s.name, False, detail) for s in specs]
    lowered: dict[str, Any] = {}
    for k, v in given.items():
        lowered.setdefault(str(k).strip().lower(), v)
    out = []
    for s in specs:
        if s.name not in lowered:
            out.append((s.name, False, f"no answer {s.name!r} given ({s.description})"))
            continue
        held, detail = s.compare(lowered[s.name])
        out.append((s.name, held, detail))
    return out


# --------------------------------------------------------------------------- parsers


def _scalar_text(value: Any, what: str) -> str:
    if isinstance(value, bool) or value is None:
        raise AnswerError(f"expected {what}, got {_show(value)}")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (float, Decimal)):
        if value != value or value in (float("inf"), float("-inf")):
            raise AnswerError(f"expected {what}, got {value!r}")
        if what != "an amount" and value % 1 == 0:
            return str(int(value))  # 13571.0 is the id 13571
        return repr(value) if isinstance(value, float) else format(value, "f")
    if isinstance(value, str):
        if len(value) > _MAX_TEXT:
            raise AnswerError(f"expected {what}, got a {len(value):,}-character string")
        return value
    raise AnswerError(f"expected {what}, got a {type(value).__name__}")


def _key(text: str) -> str:
    """The comparable spelling of an id or option."""
    return _ID_NOISE.sub("", text.strip().casefold())


def parse_amount(value: Any) -> Decimal:
    """A money amount, exactly (raises AnswerError)."""
    text = repr(value) if isinstance(value, float) else _scalar_text(value, "an amount")
    s = text.strip()
    negative = False
    if s.startswith("(") and s.endswith(")"):
        negative, s = True, s[1:-1].strip()
    for code in ("usd", "us$", "$"):
        if s.casefold().startswith(code):
            s = s[len(code) :].strip()
        elif s.casefold().endswith(code):
            s = s[: -len(code)].strip()
    if s.startswith("-") and s[1:].lstrip().startswith("$"):
        s = "-" + s[1:].lstrip()[1:]
    s = s.replace(" ", "")
    if _THOUSANDS.match(s):
        s = s.replace(",", "")
    if not _AMOUNT.match(s):
        raise AnswerError(f"{_show(value)} is not an amount")
    try:
        amount = Decimal(s)
    except InvalidOperation:  # pragma: no cover - the regex admits only decimals
        raise AnswerError(f"{_show(value)} is not an amount") from None
    return -amount if negative else amount


def parse_count(value: Any) -> int:
    """A whole number (raises AnswerError)."""
    if isinstance(value, bool) or value is None:
        raise AnswerError(f"expected a count, got {_show(value)}")
    if isinstance(value, int):
        return value
    if isinstance(value, (float, Decimal)):
        if value != value or value % 1 != 0:
            raise AnswerError(f"{value!r} is not a whole number")
        return int(value)
    text = _scalar_text(value, "a count").strip().casefold()
    if text in _NUMBER_WORDS:
        return _NUMBER_WORDS[text]
    digits = text.replace(",", "") if _THOUSANDS.match(text) else text
    if re.fullmatch(r"[+-]?\d+", digits):
        return int(digits)
    raise AnswerError(f"{_show(value)} is not a whole number")


def parse_date(value: Any) -> dt.date:
    """A calendar date (raises AnswerError)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    text = _scalar_text(value, "a date").strip()
    for fmt in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise AnswerError(f"{_show(value)} is not a date (use YYYY-MM-DD)")


def parse_list(value: Any) -> list[Any]:
    """The items of an id list (raises AnswerError)."""
    if isinstance(value, str):
        if len(value) > _MAX_TEXT:
            raise AnswerError(f"expected a list of ids, got a {len(value):,}-character string")
        if _key(value) in _EMPTY_WORDS:
            return []
        return [p for p in (x.strip() for x in re.split(r"[;\n]|,(?!\d{3}(?!\d))", value)) if p]
    if isinstance(value, (list, tuple, set, frozenset)):
        if len(value) > 10_000:
            raise AnswerError(f"expected a list of ids, got {len(value):,} items")
        return list(value)
    raise AnswerError(f"expected a list of ids, got {_show(value)}")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
