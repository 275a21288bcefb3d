"""The book's invariants: named SQL queries (``invariants.sql``), each returning violating rows."""

from __future__ import annotations

import re
from importlib import resources

import duckdb

_HEADER = re.compile(r"^--\s*name:\s*(\S+)\s*$")


def invariant_queries() -> dict[str, str]:
    """name -> SELECT returning the rows that violate the invariant (none when it holds)."""
    text = resources.files("cfab.seeds").joinpath("invariants.sql").read_text(encoding="utf-8")
    out: dict[str, str] = {}
    name: str | None = None
    body: list[str] = []
    for line in text.splitlines() + ["-- name: _end"]:
        m = _HEADER.match(line.strip())
        if m:
            if name is not None:
                sql = "\n".join(body).strip().rstrip(";").strip()
                if name in out:
                    raise ValueError(f"invariants.sql: duplicate invariant {name!r}")
                out[name] = sql
            name, body = m.group(1), []
        elif name is not None and not line.strip().startswith("--"):
            body.append(line)
    out.pop("_end", None)
    return out


def check_invariants(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Run every invariant on ``con``'s current database: name -> number of violating rows."""
    out: dict[str, int] = {}
    for name, sql in invariant_queries().items():
        try:
            row = con.execute(f"SELECT count(*) FROM ({sql}) AS v").fetchone()
        except duckdb.Error as exc:
            raise RuntimeError(f"invariant {name} failed to run: {exc}") from exc
        assert row is not None  # count(*) returns one row
        out[name] = int(row[0])
    return out
