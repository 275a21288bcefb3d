"""The whole-state JSON snapshot design (the paper's original), measured by the snapshot
section of ``runner bench`` next to ours: every app table serialised to canonical JSON, keyed
by primary key, and two such snapshots diffed in Python. It runs in a worker process of its own
(``python -m cfab.runner.bench.worker jsonsnap``) so its memory high-water mark is its own."""

from __future__ import annotations

import datetime as dt
import decimal
import hashlib
import json
import uuid
from typing import Any


def canon(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        # a digest, not the bytes: generous to the JSON approach (base64 would be ~4/3 the size)
        return "sha256:" + hashlib.sha256(bytes(value)).hexdigest()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, dict):
        return {str(k): canon(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [canon(v) for v in value]
    return str(value)


def json_snapshot(path: str) -> tuple[dict[str, dict[str, str]], int, int]:
    """Every app table of ``path`` as {table: {pk-json: canonical row JSON}}; rows, bytes."""
    import duckdb

    from cfab.grader.catalog import quote_ident, read_catalog

    con = duckdb.connect(path, read_only=True)
    snap: dict[str, dict[str, str]] = {}
    rows = size = 0
    try:
        for name, info in sorted(read_catalog(con).items()):
            cur = con.execute(f"SELECT * FROM {quote_ident(info.schema)}.{quote_ident(info.name)}")
            cols = [d[0] for d in cur.description]
            pk_idx = [cols.index(p) for p in info.pk if p in cols]
            table: dict[str, str] = {}
            while True:
                batch = cur.fetchmany(20_000)
                if not batch:
                    break
                for rec in batch:
                    vals = [canon(v) for v in rec]
                    text = json.dumps(dict(zip(cols, vals, strict=True)), sort_keys=True, separators=(",", ":"))
                    if pk_idx:
                        key = json.dumps([vals[i] for i in pk_idx], separators=(",", ":"))
                    else:  # no key: a multiset of rows
                        key, n = text, 0
                        while key in table:
                            n += 1
                            key = f"{text}#{n}"
                    table[key] = text
                    rows += 1
                    size += len(text)
            snap[name] = table
    finally:
        con.close()
    return snap, rows, size


def json_diff(before: dict[str, dict[str, str]], after: dict[str, dict[str, str]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for name in sorted(set(before) | set(after)):
        b, a = before.get(name, {}), after.get(name, {})
        added = sum(1 for k in a if k not in b)
        removed = sum(1 for k in b if k not in a)
        changed = sum(1 for k, v in a.items() if k in b and b[k] != v)
        if added or removed or changed:
            out[name] = {"added": added, "removed": removed, "changed": changed}
    return out
