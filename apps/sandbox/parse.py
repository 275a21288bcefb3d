"""Parse and render agent SQL: the bottom of the sandbox, shared by the read guard
(`cfab.apps.sandbox.read`) and the write parser (`cfab.apps.sandbox.write`).

`parse_one_statement` parses exactly one statement with sqlglot's DuckDB dialect or refuses
with `SqlRefused` (empty, too long, NUL, unparseable, nested too deeply, more than one
statement); `render_sql` writes a tree back as DuckDB SQL without comments — the text that
is re-checked and run.
"""

from __future__ import annotations

import logging
import re

import sqlglot
from sqlglot import exp
from sqlglot.dialects.duckdb import DuckDB

from cfab.apps.sandbox.policy import MAX_SQL_CHARS, SqlRefused

__all__ = ["DIALECT", "parse_one_statement", "render_sql"]

DIALECT = "duckdb"


class _DropCommandFallback(logging.Filter):
    """Silence sqlglot's per-statement warning when it falls back to a Command node:
    agent SQL that does this is refused anyway, and the warning would flood run logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Falling back to parsing as a 'Command'" not in record.getMessage()


logging.getLogger("sqlglot").addFilter(_DropCommandFallback())


class _RenderDuckDB(DuckDB):
    """DuckDB as sqlglot writes it, plus the JSON path parts DuckDB reads but sqlglot's
    DuckDB generator does not write: recursive descent (`'$..value'`)."""

    # sqlglot 30 declares DuckDB.Generator as a class attribute (Generator = DuckDBGenerator),
    # which mypy cannot take as a base class; at run time it is that class.
    class Generator(DuckDB.Generator):  # type: ignore[valid-type, misc]
        def jsonpathrecursive_sql(self, expression: exp.Expr) -> str:
            return f"..{expression.this or ''}"


def render_sql(expression: exp.Expr) -> str:
    """The SQL text for `expression`, DuckDB dialect, comments dropped (what gets run)."""
    return expression.sql(dialect=_RenderDuckDB, comments=False)


def parse_one_statement(sql: str) -> exp.Expr:
    """Parse exactly one statement (trailing `;` and comments allowed) or refuse."""
    if not isinstance(sql, str) or not sql.strip():
        raise SqlRefused("empty SQL: send one SELECT statement")
    if len(sql) > MAX_SQL_CHARS:
        raise SqlRefused(f"SQL is too long ({len(sql)} characters, limit {MAX_SQL_CHARS})")
    if "\x00" in sql:
        raise SqlRefused("SQL contains a NUL character")
    try:
        parsed = sqlglot.parse(sql, read=DIALECT)
    except RecursionError:
        raise SqlRefused("SQL is nested too deeply") from None
    except Exception as exc:  # sqlglot ParseError/TokenError and friends
        raise SqlRefused(f"could not parse SQL: {_parse_error_text(exc)}") from None
    statements = [s for s in parsed if s is not None and not isinstance(s, exp.Semicolon)]
    if not statements:
        raise SqlRefused("empty SQL: send one SELECT statement")
    if len(statements) > 1:
        raise SqlRefused("only one statement per call")
    return statements[0]


def _parse_error_text(exc: Exception) -> str:
    """A short, plain (no ANSI, no token dump) description of a sqlglot parse error."""
    errors = getattr(exc, "errors", None) or []
    if errors and isinstance(errors[0], dict) and errors[0].get("description"):
        first = errors[0]
        text = str(first["description"])
        if first.get("line") and first.get("col"):
            text += f" (line {first['line']}, column {first['col']})"
    else:
        text = str(exc)
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    text = re.sub(r"<Token [^>]*>", "end of input", text)
    text = re.sub(r"<class '(?:[\w]+\.)*(\w+)'>", r"\1", text)
    text = " ".join(text.split())
    return text[:200] or type(exc).__name__
