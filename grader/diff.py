"""state_diff(before, after): the per-table, PK-keyed diff of two DuckDB files.

Both files are ATTACHed READ_ONLY to a grader connection (a reusable one per thread, or
the ``con`` given) under unique aliases and DETACHed afterwards. The caller must have
closed (after CHECKPOINT) every read-write connection to them.

Fast mode (default) reads ``cfab_internal.written_rows`` from BOTH files and diffs exactly
those (table, pk) keys: two files descended from the same golden file can differ only in
rows written in one of their histories. Rows are looked up by key (a small key relation,
cast to the PK types, semi-joined to each side), so the cost follows the number of written
rows; single-column keys use DuckDB's ART primary-key index. Without ``written_rows`` in
either file it falls back to full mode.

Full mode fingerprints every app table on both sides (``count(*)`` and
``sum(hash(row))::HUGEINT``) and diffs the tables whose fingerprints differ with a
key-joined FULL OUTER JOIN.

A row is ``changed`` when some column ``IS DISTINCT FROM`` its other side (DuckDB's typed
comparison); a row deleted and re-inserted identically is no change. Tables without a
primary key fall back to a multiset ``EXCEPT ALL`` both ways (their rows carry ``pk=()``).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import duckdb

from .catalog import TableInfo, is_app_schema, quote_ident, quote_literal, read_catalogs
from .statediff import ChangedRow, ColumnInfo, Row, StateDiff, TableDiff
from .values import finish, normalize_sql

__all__ = ["state_diff", "grader_connection"]

_local = threading.local()
_opened: list[duckdb.DuckDBPyConnection] = []  # every thread's connection, closed at exit
_opened_lock = threading.Lock()
Keys = list[tuple[str, ...]] | None  # None: diff the whole table


@atexit.register
def _close_grader_connections() -> None:
    """Close every thread's grader connection before the interpreter tears threads down: a
    connection left to a web server's worker thread would otherwise be destroyed during
    finalization, which aborts the process (exit -6) after the results were written."""
    with _opened_lock:
        while _opened:
            with contextlib.suppress(duckdb.Error):
                _opened.pop().close()


def grader_connection() -> duckdb.DuckDBPyConnection:
    """This thread's reusable in-memory grader connection (files attached per call)."""
    con = getattr(_local, "con", None)
    if con is None:
        con = duckdb.connect(config={"memory_limit": "1GB"})  # a full diff at scale 100 must not run away
        with contextlib.suppress(duckdb.Error):  # without ICU there is no zone setting to make
            con.execute("SET TimeZone = 'UTC'")  # TIMESTAMPTZ renders in UTC, whatever the host's zone
        _local.con = con
        with _opened_lock:
            _opened.append(con)
    return con


def state_diff(
    before: str | Path,
    after: str | Path,
    *,
    full: bool = False,
    schemas: Iterable[str] | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
) -> StateDiff:
    """Diff the app schemas of two DuckDB files (``before`` → ``after``)."""
    b, a = Path(before), Path(after)
    for p in (b, a):
        if not p.is_file():
            raise FileNotFoundError(f"state_diff: no such DuckDB file: {p}")
    if b.resolve() == a.resolve():
        return StateDiff(mode="full" if full else "fast")
    c = con if con is not None else grader_connection()
    tag = uuid.uuid4().hex[:12]
    aa = f"cfab_after_{tag}"
    attached: list[str] = []
    try:
        ab = _cached_before(c, b) if con is None else None
        if ab is None:
            ab = f"cfab_before_{tag}"
            c.execute(f"ATTACH {quote_literal(str(b))} AS {ab} (READ_ONLY)")
            attached.append(ab)
        c.execute(f"ATTACH {quote_literal(str(a))} AS {aa} (READ_ONLY)")
        attached.append(aa)
        return _diff(c, ab, aa, full, None if schemas is None else list(schemas))
    finally:
        for alias in attached:
            with contextlib.suppress(duckdb.Error):  # a detach failure must not mask errors
                c.execute(f"DETACH {alias}")


_KEEP_ATTACHED = 8


def _cached_before(c: duckdb.DuckDBPyConnection, path: Path) -> str | None:
    """Keep an immutable composed template attached on this thread's grader connection.

    Every attempt of a task diffs against the same read-only template, so attaching it (and
    reading its catalog) once per worker instead of once per diff halves the diff's cost. Only
    templates (``*.apps-*.duckdb``, mode read-only) qualify: nothing else in the process opens
    them, so holding them attached cannot conflict with another DuckDB instance.
    """
    st = path.stat()
    if ".apps-" not in path.name or st.st_mode & 0o222:
        return None
    cache: OrderedDict[tuple, str] = _local.__dict__.setdefault("befores", OrderedDict())
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    alias = cache.get(key)
    if alias is not None:
        cache.move_to_end(key)
        return alias
    alias = f"cfab_template_{uuid.uuid4().hex[:12]}"
    c.execute(f"ATTACH {quote_literal(str(path))} AS {alias} (READ_ONLY)")
    cache[key] = alias
    while len(cache) > _KEEP_ATTACHED:
        _, old = cache.popitem(last=False)
        _catalog_cache().pop(old, None)
        with contextlib.suppress(duckdb.Error):
            c.execute(f"DETACH {old}")
    return alias


def _same_shape(c: duckdb.DuckDBPyConnection, catalog: dict[str, TableInfo], db: str) -> bool:
    """Does ``db`` have exactly the tables and columns of ``catalog`` (by count and names)?"""
    n_cols = sum(len(t.columns) for t in catalog.values())
    row = c.execute(
        "SELECT count(*), count(DISTINCT schema_name || '.' || table_name) FROM duckdb_columns() "
        "WHERE database_name = ?",
        [db],
    ).fetchone()
    return row is not None and row[0] == n_cols and row[1] == len(catalog)


def _catalog_cache() -> dict[str, dict[str, TableInfo]]:
    return _local.__dict__.setdefault("catalogs", {})


# --------------------------------------------------------------------------- driver


def _diff(c: duckdb.DuckDBPyConnection, ab: str, aa: str, full: bool, schemas: list[str] | None) -> StateDiff:
    cached = _catalog_cache()
    if ab in cached and _same_shape(c, cached[ab], aa):
        # an attempt file is a copy of its template and nothing runs DDL in an attempt:
        # one count query stands in for three catalog queries
        cats = {ab: cached[ab], aa: cached[ab]}
    else:
        cats = read_catalogs(c, [ab, aa])
        if ab.startswith("cfab_template_"):
            cached[ab] = cats[ab]
    has_log = all("cfab_internal.written_rows" in cats[db] for db in (ab, aa))
    cat_b, cat_a = ({k: v for k, v in cats[db].items() if is_app_schema(v.schema, schemas)} for db in (ab, aa))
    work = _written_keys(c, ab, aa, cat_b, cat_a) if has_log and not full else None
    mode: Literal["fast", "full"] = "fast" if work is not None else "full"
    if work is None:
        work = {name: None for name in _changed_by_fingerprint(c, ab, aa, cat_b, cat_a)}
    diffs: dict[str, TableDiff] = {}
    for name in sorted(work):
        td = _diff_table(c, ab, aa, cat_b.get(name), cat_a.get(name), work[name])
        if not td.is_empty():
            diffs[td.name] = td
    return StateDiff(mode=mode, diffs=diffs)


def _written_keys(
    c: duckdb.DuckDBPyConnection, ab: str, aa: str, cat_b: dict[str, TableInfo], cat_a: dict[str, TableInfo]
) -> dict[str, Keys]:
    """Union of both files' written (table, pk) keys, per lower-cased app table."""
    rows = c.execute(
        f"SELECT table_name, pk_key FROM {ab}.cfab_internal.written_rows UNION "
        f"SELECT table_name, pk_key FROM {aa}.cfab_internal.written_rows"
    ).fetchall()
    out: dict[str, Keys] = {}
    for table_name, key in rows:
        name = str(table_name).lower()
        info = cat_a.get(name) or cat_b.get(name)
        if info is None:  # not an app table (or outside the requested schemas)
            continue
        if name in out and out[name] is None:
            continue
        parsed = _parse_key(key, len(info.pk))
        if parsed is None:  # no PK or malformed key: diff the whole table instead
            out[name] = None
        else:
            out.setdefault(name, []).append(parsed)  # type: ignore[union-attr]
    return {k: (None if v is None else sorted(set(v))) for k, v in out.items()}


def _parse_key(key: Any, width: int) -> tuple[str, ...] | None:
    if width == 0:
        return None
    try:
        vals = json.loads(key)
    except (TypeError, ValueError):
        return None
    if not isinstance(vals, list) or len(vals) != width or any(v is None for v in vals):
        return None
    return tuple(v if isinstance(v, str) else json.dumps(v) for v in vals)


def _changed_by_fingerprint(
    c: duckdb.DuckDBPyConnection, ab: str, aa: str, cat_b: dict[str, TableInfo], cat_a: dict[str, TableInfo]
) -> list[str]:
    names = set(cat_b) | set(cat_a)
    both = sorted(
        n
        for n in names
        if n in cat_b
        and n in cat_a
        and [x.lower() for x, _ in cat_b[n].columns] == [x.lower() for x, _ in cat_a[n].columns]
    )
    fb, fa = _fingerprints(c, ab, cat_b, both), _fingerprints(c, aa, cat_a, both)
    return sorted((names - set(both)) | {n for n in both if fb.get(n) != fa.get(n)})


def _fingerprints(
    c: duckdb.DuckDBPyConnection, db: str, cat: dict[str, TableInfo], names: list[str], batch: int = 200
) -> dict[str, tuple[int, int | None]]:
    out: dict[str, tuple[int, int | None]] = {}
    for i in range(0, len(names), batch):
        parts = [
            f"SELECT {quote_literal(n)} AS t, count(*) AS n, "
            f"sum(hash(__cfab_row))::HUGEINT AS h FROM {_ref(db, cat[n])} __cfab_row"
            for n in names[i : i + batch]
        ]
        if parts:
            for t, n, h in c.execute(" UNION ALL ".join(parts)).fetchall():
                out[t] = (n, h)
    return out


# --------------------------------------------------------------------------- one table


def _ref(db: str, info: TableInfo) -> str:
    return f"{db}.{quote_ident(info.schema)}.{quote_ident(info.name)}"


def _side(db: str, info: TableInfo | None, columns: tuple[tuple[str, str], ...]) -> str:
    """A relation with exactly ``columns`` for one side (empty if the table is missing)."""
    if info is None:
        sel = ", ".join(f"CAST(NULL AS {t}) AS {quote_ident(n)}" for n, t in columns)
        return f"(SELECT {sel} WHERE false)"
    have = {n.lower(): n for n, _ in info.columns}
    if [n.lower() for n, _ in columns] == [n.lower() for n, _ in info.columns]:
        return _ref(db, info)
    sel = ", ".join(
        (quote_ident(have[n.lower()]) if n.lower() in have else f"CAST(NULL AS {t})") + f" AS {quote_ident(n)}"
        for n, t in columns
    )
    return f"(SELECT {sel} FROM {_ref(db, info)})"


def _diff_table(
    c: duckdb.DuckDBPyConnection, ab: str, aa: str, tb: TableInfo | None, ta: TableInfo | None, keys: Keys
) -> TableDiff:
    info = ta or tb
    assert info is not None
    cols, pk = info.columns, info.pk
    base: dict[str, Any] = dict(
        app=info.schema, table=info.name, pk=pk, columns=tuple(ColumnInfo(name=n, type=t) for n, t in cols)
    )
    rel_b, rel_a = _side(ab, tb, cols), _side(aa, ta, cols)
    if not pk:
        return _diff_multiset(c, rel_b, rel_a, cols, base)
    if keys is not None and not keys:
        return TableDiff(**base)
    try:
        return _diff_keyed(c, rel_b, rel_a, cols, pk, keys, base)
    except duckdb.ConversionException:
        if keys is None:
            raise
        return _diff_keyed(c, rel_b, rel_a, cols, pk, None, base)  # unparseable key: whole table


_OR_KEYS_MAX = 64


def _key_filter(keys: list[tuple[str, ...]], pk: tuple[str, ...], types: dict[str, str]) -> str:
    """Restrict ``__r`` to the keys: an IN list (ART index scan) for one-column keys; for
    composite keys, an OR of per-key conjunctions (zone maps skip row groups; DuckDB uses the
    PK index only for single-column predicates) or, for many keys, a semi-join against a
    small cast key relation."""
    q = quote_ident
    if len(pk) == 1:
        t = types[pk[0]]
        values = ", ".join(f"CAST({quote_literal(k[0])} AS {t})" for k in keys)
        return f"WHERE __r.{q(pk[0])} IN ({values})"
    if len(keys) <= _OR_KEYS_MAX:
        terms = [
            " AND ".join(f"__r.{q(p)} = CAST({quote_literal(v)} AS {types[p]})" for p, v in zip(pk, k, strict=True))
            for k in keys
        ]
        return "WHERE " + " OR ".join(f"({t})" for t in terms)
    names = [f"__k{i}" for i in range(len(pk))]
    rows = ", ".join("(" + ", ".join(quote_literal(v) for v in k) + ")" for k in keys)
    casts = ", ".join(f"CAST({n} AS {types[p]}) AS {n}" for n, p in zip(names, pk, strict=True))
    on = " AND ".join(f"__r.{q(p)} = __k.{n}" for n, p in zip(names, pk, strict=True))
    return f"SEMI JOIN (SELECT {casts} FROM (VALUES {rows}) __v({', '.join(names)})) __k ON {on}"


def _same(x: Any, y: Any) -> bool:
    """Equality of two pre-``finish`` normalised values (NULL = NULL, NaN = NaN), which is
    DuckDB's ``IS NOT DISTINCT FROM`` on the typed values."""
    if x is None or y is None:
        return x is None and y is None
    if isinstance(x, float) and isinstance(y, float) and x != x and y != y:
        return True
    return bool(x == y) and type(x) is type(y)


def _diff_keyed(
    c: duckdb.DuckDBPyConnection,
    rel_b: str,
    rel_a: str,
    cols: tuple[tuple[str, str], ...],
    pk: tuple[str, ...],
    keys: Keys,
    base: dict[str, Any],
) -> TableDiff:
    q = quote_ident
    n = len(cols)
    names = [name for name, _ in cols]
    pk_idx = [next(i for i, nm in enumerate(names) if nm.lower() == p.lower()) for p in pk]
    pairs: list[tuple[tuple[Any, ...] | None, tuple[Any, ...] | None]] = []
    if keys is not None:  # fast: look both sides up by key, pair them in PK order
        flt = _key_filter(keys, pk, dict(cols))
        proj = ", ".join(
            [normalize_sql(f"__r.{q(nm)}", t) for nm, t in cols] + [f"__r.{q(p)} AS __o{i}" for i, p in enumerate(pk)]
        )
        order = ", ".join([f"__o{i}" for i in range(len(pk))] + ["__side"])
        sql = (
            f"SELECT 0 AS __side, {proj} FROM {rel_b} __r {flt} UNION ALL "
            f"SELECT 1 AS __side, {proj} FROM {rel_a} __r {flt} ORDER BY {order}"
        )
        cur: dict[tuple[Any, ...], list[Any]] = {}
        for rec in c.execute(sql).fetchall():
            slot = cur.setdefault(tuple(rec[1 + n :]), [None, None])
            if slot[0] is None and slot[1] is None:
                pairs.append(slot)  # type: ignore[arg-type]
            slot[rec[0]] = tuple(rec[1 : 1 + n])
    else:  # full: key-joined FULL OUTER JOIN, rows that differ somewhere
        join = " AND ".join(f"__b.{q(p)} = __a.{q(p)}" for p in pk)
        dist = " OR ".join(f"(__b.{q(nm)} IS DISTINCT FROM __a.{q(nm)})" for nm, _ in cols)
        sel = (
            [f"__b.{q(pk[0])} IS NULL", f"__a.{q(pk[0])} IS NULL"]
            + [normalize_sql(f"__b.{q(nm)}", t) for nm, t in cols]
            + [normalize_sql(f"__a.{q(nm)}", t) for nm, t in cols]
        )
        order = ", ".join(f"coalesce(__b.{q(p)}, __a.{q(p)})" for p in pk)
        sql = (
            f"SELECT {', '.join(sel)} FROM {rel_b} __b FULL OUTER JOIN {rel_a} __a ON {join} "
            f"WHERE __b.{q(pk[0])} IS NULL OR __a.{q(pk[0])} IS NULL OR {dist} "
            f"ORDER BY {order}"
        )
        for rec in c.execute(sql).fetchall():
            pairs.append((None if rec[0] else tuple(rec[2 : 2 + n]), None if rec[1] else tuple(rec[2 + n : 2 + 2 * n])))
    added: list[Row] = []
    removed: list[Row] = []
    changed: list[ChangedRow] = []

    def done(raw: tuple[Any, ...]) -> dict[str, Any]:
        return {names[j]: finish(raw[j], cols[j][1]) for j in range(n)}

    for braw, araw in pairs:
        if braw is None and araw is not None:
            av = done(araw)
            added.append(Row(pk=tuple(av[names[i]] for i in pk_idx), values=av))
        elif araw is None and braw is not None:
            bv = done(braw)
            removed.append(Row(pk=tuple(bv[names[i]] for i in pk_idx), values=bv))
        elif braw is not None and araw is not None:
            diff_cols = tuple(names[j] for j in range(n) if not _same(braw[j], araw[j]))
            if diff_cols:
                av = done(araw)
                changed.append(
                    ChangedRow(pk=tuple(av[names[i]] for i in pk_idx), before=done(braw), after=av, columns=diff_cols)
                )
    return TableDiff(**base, added=tuple(added), removed=tuple(removed), changed=tuple(changed))


def _diff_multiset(
    c: duckdb.DuckDBPyConnection, rel_b: str, rel_a: str, cols: tuple[tuple[str, str], ...], base: dict[str, Any]
) -> TableDiff:
    names = [n for n, _ in cols]
    sel = ", ".join(normalize_sql(quote_ident(n), t) for n, t in cols)

    def rows(x: str, y: str) -> tuple[Row, ...]:
        sql = f"SELECT {sel} FROM (SELECT * FROM {x} EXCEPT ALL SELECT * FROM {y})"
        out = [
            Row(pk=(), values={names[j]: finish(v, cols[j][1]) for j, v in enumerate(rec)})
            for rec in c.execute(sql).fetchall()
        ]
        return tuple(sorted(out, key=lambda r: json.dumps(r.values, sort_keys=True, default=str)))

    return TableDiff(**base, added=rows(rel_a, rel_b), removed=rows(rel_b, rel_a))
