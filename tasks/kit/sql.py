"""SQL fragments for evaluator entries and SQL-reading trajectories, written from exact values.

Evaluator ``where`` / ``assert`` strings are DuckDB boolean expressions over one row (the grader
parses and checks them); the values in them come from the book, so they are quoted here, once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cfab.tasks.kit.figures import money_str


def quoted(value: Any) -> str:
    """A SQL string literal: ``O'Brien`` → ``'O''Brien'``."""
    return "'" + str(value).replace("'", "''") + "'"


def sql_list(values: Iterable[Any]) -> str:
    """The inside of an ``IN (…)``: integers as they are, everything else quoted."""
    return ", ".join(str(v) if isinstance(v, int) else quoted(v) for v in values)


def in_list(column: str, values: Iterable[Any]) -> str:
    """``column IN (…)`` over ``values``."""
    return f"{column} IN ({sql_list(values)})"


def case_when(key: str, whens: Iterable[tuple[str, str]], default: str | None = None) -> str:
    """``CASE key WHEN k THEN v … [ELSE d] END`` from SQL text pairs (``k``, ``v`` already literals or
    expressions)."""
    body = " ".join(f"WHEN {k} THEN {v}" for k, v in whens)
    tail = f" ELSE {default}" if default is not None else ""
    return f"CASE {key} {body}{tail} END"


def case_of(key_column: str, values: Mapping[int, Any], *, money: bool = True) -> str:
    """A CASE over an integer key giving each row its expected value, so that one evaluator entry
    checks many rows exactly: ``CASE item_no WHEN 1 THEN 120.00 … END`` (``money``: amounts to the
    cent, else whole numbers)."""
    return case_when(
        key_column, ((str(int(k)), money_str(v) if money else str(int(v))) for k, v in sorted(values.items()))
    )


__all__ = ["case_of", "case_when", "in_list", "quoted", "sql_list"]
