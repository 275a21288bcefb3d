"""Matching evaluator entries against a StateDiff and a tool log.

:class:`RowMatcher` evaluates ``where``/``assert`` of row predicates over the rows of one
(table, op) of a diff — map forms in Python with :func:`values_equal`, SQL forms in one
DuckDB query per (entry, part, table) — caches the masks, and explains failures in plain
language (``vista_erp.APVM pk ["20147"]: PayHold expected 'Y' found 'N'``).
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from itertools import compress
from typing import Any

import duckdb

from .predicates import CallPredicate, EvaluatorError, RowPredicate, split_key
from .sqlexpr import evaluate, rewrite
from .statediff import StateDiff, TableDiff
from .values import pk_key, plain_text, show, to_text, values_equal

_MAX_LISTED = 5


@dataclass(frozen=True)
class DiffRow:
    """One row of a diff as a predicate sees it."""

    table: TableDiff
    op: str
    pk: tuple[Any, ...]
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    columns: tuple[str, ...] = ()  # changed columns

    @property
    def where(self) -> str:
        return f"{self.table.name} pk {pk_key(self.pk)}"

    def side(self, side: str | None) -> dict[str, Any]:
        if side is None:
            side = "before" if self.op == "removed" else "after"
        return (self.before if side == "before" else self.after) or {}


def diff_rows(td: TableDiff, op: str) -> list[DiffRow]:
    if op == "added":
        return [DiffRow(td, op, r.pk, None, r.values) for r in td.added]
    if op == "removed":
        return [DiffRow(td, op, r.pk, r.values, None) for r in td.removed]
    return [DiffRow(td, op, c.pk, c.before, c.after, c.columns) for c in td.changed]


def _column(td: TableDiff, name: str, context: str) -> str:
    low = name.lower()
    for c in td.columns:
        if c.name.lower() == low:
            return c.name
    raise EvaluatorError(f"{context}: unknown column {name!r} of {td.name}")


def _pk_found(row: DiffRow) -> Any:
    return row.pk[0] if len(row.pk) == 1 else list(row.pk)


def _pk_equal(expected: Any, row: DiffRow) -> bool:
    wanted = list(expected) if isinstance(expected, (list, tuple)) else [expected]
    return len(wanted) == len(row.pk) and all(values_equal(e, f) for e, f in zip(wanted, row.pk, strict=True))


class RowMatcher:
    """Evaluates row predicates against one StateDiff (masks cached per entry and part)."""

    def __init__(self, diff: StateDiff) -> None:
        self.diff = diff
        self._rows: dict[tuple[str, str], list[DiffRow]] = {}
        self._masks: dict[tuple[int, str], list[bool | None]] = {}
        self._errors: dict[tuple[int, str, int], str] = {}
        self._indexes: dict[tuple[int, str, str], tuple[dict[str, list[int]], list[int]]] = {}
        self._resolved: dict[tuple[int, int], list[tuple[str, Any, str | None, str]]] = {}

    def rows(self, p: RowPredicate) -> list[DiffRow]:
        key = (p.qualified.lower(), p.op)
        if key not in self._rows:
            self._rows[key] = diff_rows(self.diff.get(p.qualified), p.op)
        return self._rows[key]

    def mask(self, p: RowPredicate, part: str) -> list[bool | None]:
        """Per row of ``rows(p)``: does ``part`` (where/assert) hold? A missing part holds;
        None: a SQL expression raised an error on that row (e.g. a failing cast). ``assert`` is
        only ever read together with ``where`` (:meth:`matching`), so it is evaluated on the rows
        ``where`` keeps (true or errored) and is False on the others."""
        key = (id(p), part)
        if key not in self._masks:
            rows, cond = self.rows(p), p.part(part)
            keep = None if part == "where" else [i for i, x in enumerate(self.mask(p, "where")) if x is not False]
            out: list[bool | None]
            if cond is None or not rows:
                out = [True] * len(rows)
            elif isinstance(cond, dict):
                out = self._map_mask(p, cond, rows, keep)
            else:
                picked = rows if keep is None else [rows[i] for i in keep]
                got = self._sql_mask(p, part, picked, keep) if picked else []
                if keep is None:
                    out = got
                else:
                    out = [False] * len(rows)
                    for i, x in zip(keep, got, strict=True):
                        out[i] = x
            self._masks[key] = out
        return self._masks[key]

    def matching(self, p: RowPredicate, *, with_assert: bool, errors_match: bool = False) -> list[DiffRow]:
        """Rows matching ``where`` (and ``assert``). A row whose expression errored matches
        only when ``errors_match`` (forbidden entries fail closed)."""
        w = self.mask(p, "where")
        a = self.mask(p, "assert") if with_assert else w

        def ok(x: bool | None) -> bool:
            return x is True or (x is None and errors_match)

        return [r for r, x, y in zip(self.rows(p), w, a, strict=True) if ok(x) and ok(y)]

    # ------------------------------------------------------------------ map form
    def _map_mask(
        self, p: RowPredicate, cond: dict[str, Any], rows: list[DiffRow], keep: list[int] | None = None
    ) -> list[bool | None]:
        """The map form over ``rows``, narrowed first through an index on each pair of ``cond`` whose
        expected value is plain text (not a number, not an ISO date): such a value equals a string
        exactly when the two are the same text (:func:`values_equal`, rules 3, 5 and 6), so only the
        rows whose column holds that text, or holds no string at all, can match. The narrowest of
        those candidate sets is kept and each of its rows checked in full. A workbook's ninety cells
        over its thousands of rows (every one in the same workbook and sheet, each at its own cell)
        are then ninety lookups, not ninety scans, and every verdict is the one the full scan gives."""
        candidates: Iterable[int] = range(len(rows)) if keep is None else keep
        narrowest: list[int] | None = None
        for k, expected in cond.items():
            if k == "_pk" or not plain_text(expected):
                continue
            side, col = split_key(k)
            name = _column(rows[0].table, col, p.label or p.qualified)
            texts, others = self._text_index(rows, side or ("before" if p.op == "removed" else "after"), name)
            hits = texts.get(expected, ())
            if narrowest is None or len(hits) + len(others) < len(narrowest):
                narrowest = sorted({*hits, *others})
        if narrowest is not None:
            kept = None if keep is None else set(keep)
            candidates = narrowest if kept is None else [i for i in narrowest if i in kept]
        out: list[bool | None] = [False] * len(rows)
        for i in candidates:
            out[i] = self._map_failure(p, cond, rows[i]) is None
        return out

    def _text_index(self, rows: list[DiffRow], side: str, name: str) -> tuple[dict[str, list[int]], list[int]]:
        """For one list of rows: the positions of each string value of ``side``.``name``, and the
        positions whose value is not a string (NULL, a number, a date…)."""
        key = (id(rows), side, name)
        if key not in self._indexes:
            texts: dict[str, list[int]] = {}
            others: list[int] = []
            for i, r in enumerate(rows):
                v = r.side(side).get(name)
                if isinstance(v, str):
                    texts.setdefault(v, []).append(i)
                else:
                    others.append(i)
            self._indexes[key] = (texts, others)
        return self._indexes[key]

    def _map_failure(self, p: RowPredicate, cond: dict[str, Any], row: DiffRow) -> str | None:
        """None if every pair of ``cond`` holds on ``row``, else what differs."""
        for key, expected, side, name in self._pairs(p, cond, row.table):
            if key == "_pk":
                if not _pk_equal(expected, row):
                    return f"_pk expected {show(expected)} found {show(_pk_found(row))}"
                continue
            found = row.side(side).get(name)
            if not values_equal(expected, found):
                return f"{key} expected {show(expected)} found {show(found)}"
        return None

    def _pairs(self, p: RowPredicate, cond: dict[str, Any], td: TableDiff) -> list[tuple[str, Any, str | None, str]]:
        """``cond``'s pairs with each key's side and the table's own spelling of its column
        (resolved once per entry and table, not once per row)."""
        key = (id(cond), id(td))
        if key not in self._resolved:
            out: list[tuple[str, Any, str | None, str]] = []
            for k, expected in cond.items():
                if k == "_pk":
                    out.append((k, expected, None, ""))
                    continue
                side, col = split_key(k)
                out.append((k, expected, side, _column(td, col, p.label or p.qualified)))
            self._resolved[key] = out
        return self._resolved[key]

    # ------------------------------------------------------------------ SQL form
    def _sql_mask(
        self, p: RowPredicate, part: str, rows: list[DiffRow], positions: list[int] | None = None
    ) -> list[bool | None]:
        """The SQL form over ``rows``; ``positions``: their places in ``rows(p)`` when they are a
        subset (for the errors :meth:`explain` reports by place)."""
        tree = p.tree(part)
        assert tree is not None
        td = rows[0].table
        types = td.types
        aliases: dict[tuple[str, str], str] = {}

        def resolve(side: str | None, col: str) -> str:
            name = _column(td, col, p.label or p.qualified)
            s = side or ("before" if p.op == "removed" else "after")
            return aliases.setdefault((s, name), f"{s[0]}{len(aliases)}")

        sql = rewrite(tree, resolve)
        cols = [(alias, types[name]) for (_, name), alias in aliases.items()]
        data = [
            {alias: to_text(r.side(s).get(name), types[name]) for (s, name), alias in aliases.items()} for r in rows
        ]
        try:
            return list(evaluate(sql, cols, data))
        except duckdb.Error:  # isolate the rows that fail (e.g. a cast of agent-written text)
            out: list[bool | None] = []
            for i, row in enumerate(data):
                try:
                    out.append(evaluate(sql, cols, [row])[0])
                except duckdb.Error as e:
                    self._errors[(id(p), part, i if positions is None else positions[i])] = str(e).splitlines()[0]
                    out.append(None)
            return out

    def explain(self, p: RowPredicate, part: str, row: DiffRow) -> str:
        """Why ``part`` fails on ``row`` (plain language, with the values involved)."""
        cond = p.part(part)
        if isinstance(cond, dict):
            return f"{row.where}: {self._map_failure(p, cond, row)}"
        idx = next((i for i, r in enumerate(self.rows(p)) if r is row), -1)
        err = self._errors.get((id(p), part, idx))
        if err is not None:
            return f"{row.where}: {part} `{cond}` failed: {err}"
        shown = []
        for side, col in p.refs(part):
            name = _column(row.table, col, p.label or p.qualified)
            label = f"{side}.{name}" if side else name
            shown.append(f"{label} = {show(row.side(side).get(name))}")
        return f"{row.where}: {part} `{cond}` is false ({', '.join(shown)})"


# --------------------------------------------------------------------------- entries


def _check_total(p: RowPredicate, rows: list[DiffRow]) -> tuple[bool, str]:
    """Do ``rows`` sum to ``p.total`` in each named column (exactly)?"""
    if not rows:
        return False, f"{p.qualified}: no {p.op} row matches, so nothing totals " + ", ".join(
            f"{k} = {show(v)}" for k, v in (p.total or {}).items()
        )
    parts = []
    for key, want in (p.total or {}).items():
        side, col = split_key(key)
        name = _column(rows[0].table, col, p.label or p.qualified)
        got = sum((Decimal(str(v)) for r in rows if (v := r.side(side).get(name)) is not None), Decimal(0))
        if got != Decimal(str(want)):
            return False, (f"{p.qualified}: {len(rows)} matching row(s) total {name} = {got}, expected {show(want)}")
        parts.append(f"{name} = {got}")
    return True, f"{p.qualified}: {len(rows)} {p.op} row(s) total {', '.join(parts)}"


def check_expected(p: RowPredicate, m: RowMatcher) -> tuple[bool, str]:
    held, detail = _check_rows(p, m)
    if not held or not p.total:
        return held, detail
    return _check_total(p, m.matching(p, with_assert=True))


def _check_rows(p: RowPredicate, m: RowMatcher) -> tuple[bool, str]:
    rows = m.rows(p)
    cand = m.matching(p, with_assert=False)
    full = m.matching(p, with_assert=True)
    what = f"{p.op} row(s) of {p.qualified}"
    if p.count is not None:
        pks = ", ".join(pk_key(r.pk) for r in cand[:_MAX_LISTED])
        if len(cand) != p.count:
            return False, (
                f"{p.qualified}: expected exactly {p.count} {p.op} row(s) matching "
                f"where, found {len(cand)}" + (f": {pks}" if cand else "")
            )
        good = {id(r) for r in full}
        bad = [r for r in cand if id(r) not in good]
        if bad:
            return False, m.explain(p, "assert", bad[0]) + (f" (+{len(bad) - 1} more)" if len(bad) > 1 else "")
        return True, f"{p.qualified}: {len(cand)} {p.op} row(s) as expected" + (f": {pks}" if cand else "")
    if full:
        return True, f"{full[0].where}: {p.op} as expected"
    errored = [r for r, x in zip(rows, m.mask(p, "where"), strict=True) if x is None]
    if not cand and errored:
        return False, m.explain(p, "where", errored[0])
    if not cand:
        have = ", ".join(pk_key(r.pk) for r in rows[:_MAX_LISTED])
        detail = f"{p.qualified}: no {p.op} row matches where {_short(p.where)}"
        return False, detail + (f" ({len(rows)} {what}: {have})" if rows else f" (no {what})")
    return False, m.explain(p, "assert", cand[0]) + (
        f" (+{len(cand) - 1} more candidate row(s))" if len(cand) > 1 else ""
    )


def check_forbidden(p: RowPredicate, m: RowMatcher) -> tuple[bool, str]:
    """(held, detail): held means the forbidden change is absent."""
    hits = m.matching(p, with_assert=True, errors_match=True)
    if not hits:
        return True, f"{p.qualified}: no {p.op} row matches"
    listed = ", ".join(pk_key(r.pk) for r in hits[:_MAX_LISTED])
    more = f" (+{len(hits) - _MAX_LISTED} more)" if len(hits) > _MAX_LISTED else ""
    return False, f"{p.qualified}: forbidden {p.op} row(s) {listed}{more}"


def unexpected_changes(entries: list[RowPredicate], diff: StateDiff, m: RowMatcher) -> list[tuple[DiffRow, str]]:
    """Diff rows not covered by ``entries`` (same table, op, where), or changed rows with
    a changed column no covering entry names in its assert or allow_columns."""
    out: list[tuple[DiffRow, str]] = []
    for name in diff.tables():
        td = diff[name]
        for op in ("added", "removed", "changed"):
            rows = diff_rows(td, op)
            if not rows:
                continue
            covering = [p for p in entries if p.qualified.lower() == name.lower() and p.op == op]
            covers: list[list[RowPredicate]] = [[] for _ in rows]
            for p in covering:  # each entry's matching rows, found through its mask at C speed
                for i in compress(range(len(rows)), m.mask(p, "where")):
                    covers[i].append(p)
            for row, cov in zip(rows, covers, strict=True):
                if not cov:
                    cols = f": columns {', '.join(row.columns)}" if row.columns else ""
                    out.append((row, f"{row.where}: unexpected {op} row{cols}"))
                    continue
                if op == "changed":
                    named = set().union(*(p.named_columns() for p in cov))
                    extra = [c for c in row.columns if c.lower() not in named]
                    if extra:
                        changes = ", ".join(
                            f"{c} {show(row.before.get(c) if row.before else None)} → {show(row.side('after').get(c))}"
                            for c in extra
                        )
                        out.append((row, f"{row.where}: unexpected change of {changes}"))
    return out


def _short(part: dict[str, Any] | str | None) -> str:
    if part is None:
        return "(any)"
    return part if isinstance(part, str) else json.dumps(part, default=str)


# --------------------------------------------------------------------------- calls


def _arg(args: dict[str, Any], key: str) -> tuple[bool, Any]:
    if key in args:
        return True, args[key]
    low = {k.lower(): v for k, v in args.items()}
    if key.lower() in low:
        return True, low[key.lower()]
    node: Any = args
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    return True, node


def _arg_type(value: Any) -> str:
    if isinstance(value, bool):
        return "BOOLEAN"
    if isinstance(value, int):
        return "BIGINT" if -(2**63) <= value < 2**63 else "HUGEINT"
    if isinstance(value, float):
        return "DOUBLE"
    if isinstance(value, (dict, list)):
        return "JSON"
    return "VARCHAR"


def call_matches(cp: CallPredicate, tool: str, args: dict[str, Any]) -> bool:
    """Does a call of ``tool`` with ``args`` match ``cp`` (fnmatch on the name, case-
    insensitive; args as a map (dotted keys reach nested values) or a SQL expression over
    the top-level args typed by their JSON type)?"""
    if not fnmatch.fnmatchcase(tool.lower(), cp.tool.lower()):
        return False
    if cp.args is None:
        return True
    if isinstance(cp.args, dict):
        for key, expected in cp.args.items():
            found, value = _arg(args, key)
            if not found or not values_equal(expected, value):
                return False
        return True
    tree = cp.tree
    assert tree is not None
    low = {k.lower(): k for k in args}
    aliases: dict[str, str] = {}

    def resolve(side: str | None, col: str) -> str:
        if side is not None or col.lower() not in low:
            raise KeyError(col)
        return aliases.setdefault(low[col.lower()], f"c{len(aliases)}")

    try:
        sql = rewrite(tree, resolve)
    except KeyError:
        return False  # the call lacks an argument the expression needs
    cols = [(a, _arg_type(args[k])) for k, a in aliases.items()]
    row = {a: to_text(args[k], _arg_type(args[k])) for k, a in aliases.items()}
    try:
        return evaluate(sql, cols, [row])[0]
    except duckdb.Error:  # a type error in the expression for this call's args: no match
        return False
