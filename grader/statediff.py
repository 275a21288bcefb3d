"""The StateDiff result: per app table, rows added, removed and changed between two files.

A StateDiff is a pydantic :class:`FrozenModel`. Every value in it is already normalised
(see :mod:`cfab.grader.values`), so ``StateDiff.from_json(d.to_json()) == d`` holds
exactly. Each :class:`TableDiff` keeps its column names and DuckDB types and its PK
columns, so predicates can cast values back to their types.

Rows are ordered by primary key (DuckDB's ordering of the typed key), tables by name.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from cfab.schema.models import FrozenModel

if TYPE_CHECKING:  # imported lazily: the CLI and workers should not pay for them at startup
    import polars as pl
    import pyarrow as pa

from .values import pk_key, show

LONG_COLUMNS = ("app", "table", "pk", "op", "column", "before", "after")


def _j(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class ColumnInfo(FrozenModel):
    name: str
    type: str


class Row(FrozenModel):
    """An added or removed row: its PK values and all its (normalised) values."""

    pk: tuple[Any, ...]
    values: dict[str, Any]

    @property
    def pk_key(self) -> str:
        return pk_key(self.pk)


class ChangedRow(FrozenModel):
    """A row present on both sides with some column different; full rows on both sides."""

    pk: tuple[Any, ...]
    before: dict[str, Any]
    after: dict[str, Any]
    columns: tuple[str, ...]

    @property
    def pk_key(self) -> str:
        return pk_key(self.pk)

    @property
    def changes(self) -> dict[str, tuple[Any, Any]]:
        """``{column: (before, after)}`` for the changed columns."""
        return {c: (self.before.get(c), self.after.get(c)) for c in self.columns}


class TableDiff(FrozenModel):
    """The changes of one table. Unpacks as ``added, removed, changed = table_diff``."""

    app: str
    table: str
    columns: tuple[ColumnInfo, ...] = ()
    pk: tuple[str, ...] = ()
    added: tuple[Row, ...] = ()
    removed: tuple[Row, ...] = ()
    changed: tuple[ChangedRow, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.app}.{self.table}"

    @property
    def types(self) -> dict[str, str]:
        return {c.name: c.type for c in self.columns}

    def __iter__(self) -> Iterator[Any]:  # type: ignore[override]
        return iter((self.added, self.removed, self.changed))

    def is_empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def counts(self) -> dict[str, int]:
        return {"added": len(self.added), "removed": len(self.removed), "changed": len(self.changed)}

    def long_rows(self) -> Iterator[tuple[str, str, str, str, str | None, str | None, str | None]]:
        """Rows of the long form (app, table, pk, op, column, before, after); values JSON."""
        for r in self.added:
            yield self.app, self.table, r.pk_key, "added", None, None, _j(r.values)
        for r in self.removed:
            yield self.app, self.table, r.pk_key, "removed", None, _j(r.values), None
        for c in self.changed:
            for col in c.columns:
                yield (self.app, self.table, c.pk_key, "changed", col, _j(c.before.get(col)), _j(c.after.get(col)))


class StateDiff(FrozenModel):
    """All changed app tables between two files. ``diffs`` holds non-empty tables only.

    ``mode`` records how it was computed: ``fast`` (keys from ``written_rows``) or ``full``
    (fingerprints + key-joined FULL OUTER JOIN), including a fallback from fast to full.
    """

    mode: Literal["fast", "full"] = "fast"
    diffs: dict[str, TableDiff] = {}

    # ----------------------------------------------------------------- access
    def tables(self) -> list[str]:
        return [k for k, v in self.diffs.items() if not v.is_empty()]

    def _key(self, name: str) -> str | None:
        if name in self.diffs:
            return name
        low = name.lower()
        return next((k for k in self.diffs if k.lower() == low), None)

    def __getitem__(self, name: str) -> TableDiff:
        key = self._key(name)
        if key is None:
            raise KeyError(f"no changes in {name!r} (changed tables: {self.tables()})")
        return self.diffs[key]

    def get(self, name: str) -> TableDiff:
        """The table's diff, or an empty TableDiff when it did not change."""
        key = self._key(name)
        if key is not None:
            return self.diffs[key]
        app, _, table = name.partition(".")
        return TableDiff(app=app, table=table)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._key(name) is not None

    def __len__(self) -> int:
        return len(self.tables())

    def is_empty(self) -> bool:
        return all(t.is_empty() for t in self.diffs.values())

    def only(self, schemas: list[str] | tuple[str, ...] | set[str]) -> StateDiff:
        """The same diff restricted to the given app schemas."""
        wanted = {s.lower() for s in schemas}
        return StateDiff(mode=self.mode, diffs={k: v for k, v in self.diffs.items() if v.app.lower() in wanted})

    def summary(self) -> dict[str, dict[str, int]]:
        return {k: v.counts() for k, v in self.diffs.items() if not v.is_empty()}

    # ----------------------------------------------------------------- JSON
    def to_json(self, indent: int | None = None) -> str:
        return self.model_dump_json(indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> StateDiff:
        return cls.model_validate_json(text)

    # ----------------------------------------------------------------- frames
    def long_rows(self) -> list[tuple[Any, ...]]:
        return [row for t in self.diffs.values() for row in t.long_rows()]

    def to_arrow(self) -> pa.Table:
        """Long form: one row per changed column, one row per added/removed row.

        ``pk`` is the ``written_rows`` key (JSON array of strings); ``before``/``after`` are
        JSON text (``null`` JSON for a NULL value, SQL NULL for "no such side")."""
        import pyarrow as pa

        rows = self.long_rows()
        cols = list(zip(*rows, strict=True)) if rows else [() for _ in LONG_COLUMNS]
        return pa.table(
            {name: pa.array(list(vals), type=pa.string()) for name, vals in zip(LONG_COLUMNS, cols, strict=True)}
        )

    def to_polars(self) -> pl.DataFrame:
        import polars as pl

        return pl.from_arrow(self.to_arrow())  # type: ignore[return-value]

    # ----------------------------------------------------------------- display
    def __repr__(self) -> str:
        return self.render()

    def __str__(self) -> str:
        return self.render()

    def render(self, max_rows: int = 5) -> str:
        s = self.summary()
        tot = {op: sum(v[op] for v in s.values()) for op in ("added", "removed", "changed")}
        lines = [f"StateDiff({self.mode}: {len(s)} table(s), +{tot['added']} -{tot['removed']} ~{tot['changed']})"]
        for name, t in self.diffs.items():
            if t.is_empty():
                continue
            c = t.counts()
            lines.append(f"  {name}: +{c['added']} -{c['removed']} ~{c['changed']}")
            shown = 0
            for r in t.added[:max_rows]:
                lines.append(f"    + {r.pk_key} {show(r.values, 100)}")
                shown += 1
            for r in t.removed[: max(0, max_rows - shown)]:
                lines.append(f"    - {r.pk_key} {show(r.values, 100)}")
                shown += 1
            for ch in t.changed[: max(0, max_rows - shown)]:
                parts = ", ".join(f"{col}: {show(b, 30)} → {show(a, 30)}" for col, (b, a) in ch.changes.items())
                lines.append(f"    ~ {ch.pk_key} {parts}")
                shown += 1
            rest = sum(c.values()) - shown
            if rest > 0:
                lines.append(f"    … {rest} more row(s)")
        return "\n".join(lines)

    def _repr_html_(self, max_rows: int = 50) -> str:
        esc = html.escape
        head = "".join(f"<th>{esc(c)}</th>" for c in LONG_COLUMNS)
        rows = self.long_rows()
        body = "".join(
            "<tr>" + "".join(f"<td>{'' if v is None else esc(str(v))[:200]}</td>" for v in r) + "</tr>"
            for r in rows[:max_rows]
        )
        more = f"<p>… {len(rows) - max_rows} more row(s)</p>" if len(rows) > max_rows else ""
        summary = esc(
            "; ".join(f"{k}: +{v['added']} -{v['removed']} ~{v['changed']}" for k, v in self.summary().items())
            or "no changes"
        )
        return (
            f"<div><p><b>{summary}</b></p><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>{more}</div>"
        )
