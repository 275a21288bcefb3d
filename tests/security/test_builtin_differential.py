"""Every allowed built-in, by signature, with plausible arguments, against the hidden-data
markers (issue 16): whatever each call answers or fails with, no row and no error message
holds a hidden schema or table name, a hidden row's marker, a setting's value or a host
path, and the file is unchanged. The arguments include strings that *name* hidden things
('book.vendors', 'SELECT … FROM cfab_internal.meta', 'memory_limit', the file's path), so
a function that treated a value as SQL, a table, a setting or a file would show it.

Calls are built with sqlglot expression builders, one per (function, signature)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
from sqlglot import exp

from cfab.apps.sandbox.exec import connect_hardened, run_read
from cfab.apps.sandbox.functions import policy

from .conftest import ALLOWED, SECRET_MARKER, build_fixture_db, content_digest, dir_listing

HIDDEN_WORDS = ("book.vendors", "cfab_internal", "guard_log", "truth", "topsecret", "box.files")
STRINGS = ["SELECT truth FROM book.vendors", "book.vendors", "memory_limit", "{path}", "$.a"]


def _value(kind: str, text: str) -> exp.Expression:
    t = (kind or "ANY").upper()
    if t.endswith("]"):
        return exp.Array(expressions=[exp.Literal.number(1), exp.Literal.number(2)])
    if t == "LAMBDA":
        return exp.Lambda(this=exp.to_identifier("x"), expressions=[exp.to_identifier("x")])
    if t in ("BOOLEAN",):
        return exp.true()
    if t in ("DATE", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "TIME"):
        return exp.cast(exp.Literal.string("2026-01-31"), exp.DataType.build("DATE" if t == "DATE" else "TIMESTAMP"))
    if t == "INTERVAL":
        return exp.Interval(this=exp.Literal.string("1"), unit=exp.var("DAY"))
    if t == "BLOB":
        return exp.cast(exp.Literal.string(text), exp.DataType.build("BLOB"))
    if t in ("VARCHAR", "JSON", "ANY", "T", "K", "V", "") or t.startswith(("MAP", "STRUCT", "UNION")):
        return exp.Literal.string(text)
    if t in ("DOUBLE", "FLOAT", "DECIMAL"):
        return exp.Literal.number("0.5")
    return exp.Literal.number(2)


def _calls(path: str) -> list[str]:
    con = duckdb.connect(":memory:")
    rows = con.execute(
        "SELECT DISTINCT function_name, function_type, parameter_types FROM duckdb_functions() "
        "WHERE function_type IN ('scalar', 'aggregate', 'macro') ORDER BY ALL"
    ).fetchall()
    con.close()
    allowed = policy().expression
    out: list[str] = []
    for i, (name, _kind, types) in enumerate(rows):
        if name.lower() not in allowed or not name[:1].isalpha() or " " in name:
            continue  # operators are exercised through ordinary syntax elsewhere
        # one call per signature; string arguments cycle through the markers by position
        args = [_value(t, STRINGS[(i + j) % len(STRINGS)].replace("{path}", path)) for j, t in enumerate(types or [])]
        call = exp.Anonymous(this=name, expressions=args)
        query = exp.select(call.as_("v"))
        if i % 2:
            query = query.from_(exp.table_("projects", db="procore")).limit(2)
        out.append(query.sql(dialect="duckdb"))
    return out


def test_every_allowed_builtin_against_hidden_markers(tmp_path: Path) -> None:
    golden = build_fixture_db(tmp_path / "golden.duckdb")
    before, files = content_digest(golden), dir_listing(tmp_path)
    calls = _calls(str(golden))
    assert len(calls) > 1000, len(calls)
    con = connect_hardened(str(golden))
    setting_values = {
        str(v)
        for (v,) in con.execute(
            "SELECT value FROM duckdb_settings() WHERE name IN ('memory_limit', 'home_directory', 'temp_directory', "
            "'extension_directory', 'secret_directory') AND length(value) > 3"
        ).fetchall()
    }
    leaks: list[str] = []
    kinds: dict[str, int] = {}
    try:
        for sql in calls:
            out = run_read(con, sql, ALLOWED, max_rows=5, timeout_s=2.0)
            kinds[getattr(out, "kind", "ok")] = kinds.get(getattr(out, "kind", "ok"), 0) + 1
            data = out.model_dump(mode="json")
            shown = json.dumps({k: data.get(k) for k in ("rows", "message")})
            low = shown.lower()
            # the input strings are echoed back by ordinary string functions; look for
            # what a hidden read would add: the markers, hidden rows, settings and paths
            if SECRET_MARKER.lower() in low or "ground truth" in low or "seed 726" in low:
                leaks.append(f"{sql[:120]} -> {shown[:200]}")
            if any(v in shown for v in setting_values) or str(Path.home()) + "/" in shown:
                leaks.append(f"{sql[:120]} -> setting/path {shown[:200]}")
            if (
                out.ok is False
                and out.kind == "error"
                and any(w in low for w in ("book", "cfab_internal"))
                and not any(w in sql.lower() for w in ("book", "cfab_internal"))
            ):
                leaks.append(f"{sql[:120]} -> error names a hidden schema: {shown[:200]}")
        con.execute("CHECKPOINT")
    finally:
        con.close()
    assert not leaks, "\n".join(leaks[:20])
    assert kinds.get("ok", 0) > 200, kinds  # the calls really ran, not all refused
    assert content_digest(golden) == before
    assert dir_listing(tmp_path) == files
