"""An Outlook draft graded as state: by its recipients and the facts it must state.

A task that asks for an email ("draft the renewal request to the vendor's contact, naming the
certificate and its expiry date; don't send it") expects one added ``outlook.messages`` row that
is a draft, addressed to the right people, whose subject or body states each fact the instruction
names. A fact is matched in the forms a person writes it, never as one spelling:

* an amount (:class:`~decimal.Decimal`) — ``$12,345.67``, ``12345.67``, ``USD 12,345.67``; a whole
  amount also as ``12,345`` or ``$12,345.00``; never inside a longer number (``112,345.67``,
  ``12,345.675``);
* a date (:class:`~datetime.date`) — ``2026-01-31``, ``01/31/2026``, ``1/31/2026``, ``January 31,
  2026``, ``Jan 31 2026``, ``31 January 2026``;
* anything else (an id, an invoice number, a name) — as a whole token, case-insensitively
  (``INV-1042`` is not found in ``INV-10425``).

The patterns are RE2 (DuckDB's ``regexp_matches``), so they carry no look-around: a boundary is
a non-word character or the end of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any

from cfab.grader import RowPredicate
from cfab.tasks.kit.entries import expect_added
from cfab.tasks.kit.sql import quoted

Fact = Decimal | date | str | int

_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def _grouped(digits: str) -> str:
    """``12345`` → ``12,?345`` (thousands separators optional, all or none is not enforced)."""
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return ",?".join(parts)


def amount_pattern(value: Decimal) -> str:
    """An RE2 pattern for an amount as people write it (see the module docstring)."""
    q = Decimal(value).quantize(Decimal("0.01"))
    sign, whole, cents = ("-" if q < 0 else ""), *format(abs(q), "f").split(".")
    number = _grouped(whole) + (f"(\\.{cents})?" if cents == "00" else f"\\.{cents}")
    neg = "(-|\\()\\s?(\\$|USD\\s?)?" if sign else "(\\$|USD\\s?)?"
    return f"(^|[^0-9.,$-]){neg}{number}([^0-9.,]|[.,][^0-9]|[.,]?$)"


def date_pattern(value: date) -> str:
    """An RE2 pattern for a date as people write it (see the module docstring)."""
    month = _MONTHS[value.month - 1]
    name = f"({month}|{month[:3]}\\.?)"
    forms = [
        value.isoformat(),
        f"0?{value.month}/0?{value.day}/{value.year}",
        f"{name}\\s+0?{value.day}(st|nd|rd|th)?,?\\s+{value.year}",
        f"0?{value.day}\\s+{name},?\\s+{value.year}",
    ]
    return f"(^|[^0-9])({'|'.join(forms)})([^0-9]|$)"


def token_pattern(value: Any) -> str:
    """An RE2 pattern for an id or name as a whole token."""
    return f"(^|[^A-Za-z0-9])({re.escape(str(value))})([^A-Za-z0-9]|$)"


def fact_pattern(fact: Fact) -> str:
    """The pattern for one fact, by its type."""
    if isinstance(fact, Decimal):
        return amount_pattern(fact)
    if isinstance(fact, date):
        return date_pattern(fact)
    return token_pattern(fact)


def states(fact: Fact, text: str = "coalesce(subject, '') || ' ' || coalesce(body, '')") -> str:
    """A SQL boolean: ``text`` states ``fact`` (case-insensitive)."""
    return f"regexp_matches({text}, {quoted(fact_pattern(fact))}, 'i')"


def addressed_to(addresses: Iterable[str], column: str = "toRecipients") -> str:
    """A SQL boolean: ``column`` holds each of ``addresses`` (exactly, as a whole address)."""
    patterns = ["(^|[^A-Za-z0-9._%+-])" + re.escape(a) + "([^A-Za-z0-9.-]|$)" for a in addresses]
    parts = [f"regexp_matches(coalesce({column}, ''), {quoted(p)}, 'i')" for p in patterns]
    return " AND ".join(parts) or "TRUE"


def expect_draft(
    to: Iterable[str],
    facts: Iterable[Fact] = (),
    *,
    label: str,
    cc: Iterable[str] = (),
    count: int | None = 1,
) -> RowPredicate:
    """One added Outlook draft (``count`` of them) to ``to`` (and ``cc``), stating every fact in its
    subject or body."""
    conditions = [addressed_to(to)]
    if cc:
        conditions.append(addressed_to(cc, "ccRecipients"))
    conditions += [states(f) for f in facts]
    return expect_added(
        "outlook", "messages", {"isDraft": True}, count=count, assert_=" AND ".join(conditions), label=label
    )


__all__ = [
    "Fact",
    "addressed_to",
    "amount_pattern",
    "date_pattern",
    "expect_draft",
    "fact_pattern",
    "states",
    "token_pattern",
]
