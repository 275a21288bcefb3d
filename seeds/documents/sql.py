"""Named queries over the book, kept in ``queries.sql`` and loaded as package data."""

from __future__ import annotations

import importlib.resources
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, TypeVar

import duckdb

_NAME = re.compile(r"^--\s*name:\s*(\w+)\s*$", re.M)
_Row = TypeVar("_Row", bound=Mapping[str, Any])


@lru_cache(maxsize=1)
def queries() -> dict[str, str]:
    """Every ``-- name: x`` block of queries.sql, by name."""
    text = importlib.resources.files("cfab.seeds.documents").joinpath("queries.sql").read_text("utf-8")
    parts = _NAME.split(text)
    return {parts[i]: parts[i + 1].strip().rstrip(";") for i in range(1, len(parts), 2)}


def _params(sql: str, params: dict[str, Any]) -> dict[str, Any]:
    """Only the parameters the statement names (DuckDB rejects unused named parameters)."""
    return {k: v for k, v in params.items() if f"${k}" in sql}


def rows(con: duckdb.DuckDBPyConnection, name: str, **params: Any) -> list[dict[str, Any]]:
    """Run query ``name`` and return its rows as dicts (DECIMAL -> Decimal, DATE -> date)."""
    sql = queries()[name]
    cur = con.execute(sql, _params(sql, params))
    cols = [c[0] for c in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def by_key(items: Iterable[_Row], key: str) -> dict[str, list[_Row]]:
    """Group rows by one column, keeping query order within each group."""
    out: dict[str, list[_Row]] = defaultdict(list)
    for item in items:
        out[item[key]].append(item)
    return out
