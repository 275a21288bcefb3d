"""The hand-made fixture book for the Docs/Office tests and a golden file built from it exactly
as ``build_golden`` builds one (cfab_internal + book + each app's seed)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import duckdb

from cfab.schema.catalog import run_script, schema_ddl
from cfab.seeds.determinism import BuildInputs

HERE = Path(__file__).parent
CLOCK = date(2026, 1, 31)
DOC_APPS = ["box", "sharepoint", "excel", "outlook"]


def load_fixture_book(con: duckdb.DuckDBPyConnection) -> None:
    run_script(con, schema_ddl("book"))
    con.execute((HERE / "fixture_book.sql").read_text(encoding="utf-8"))


def build_fixture_golden(out: Path, apps: list[str] = DOC_APPS, clock: date = CLOCK) -> Path:
    from cfab.apps.registry import load_all

    registry = load_all()
    con = duckdb.connect()
    try:
        con.execute(f"ATTACH '{out}' AS golden (BLOCK_SIZE 16384)")
        con.execute("USE golden")
        run_script(con, schema_ddl("cfab_internal"))
        con.executemany("INSERT INTO cfab_internal.meta VALUES (?, ?)",
                        [("seed", "7"), ("clock", clock.isoformat()), ("scale", "1"), ("apps", ",".join(apps))])
        load_fixture_book(con)
        for name in apps:
            registry[name].seed(con, BuildInputs(clock=clock))
        con.execute("CHECKPOINT golden")
        con.execute("USE memory")
        con.execute("DETACH golden")
    finally:
        con.close()
    return out


def ocr_chunk(golden: str, file_ids: list[str]) -> list[tuple[str, dict | str]]:
    """Worker (spawned process): OCR Box files through the box.ocr_pdf tool of a fresh
    Environment on ``golden``; returns (file id, fields or the error)."""
    from cfab.apps.world.environment import Environment

    env = Environment.open(apps=["box"], golden=golden)
    try:
        out: list[tuple[str, dict | str]] = []
        for fid in file_ids:
            res = env.call("box.ocr_pdf", id=fid, tables=False, include_text=False)
            out.append((fid, res["data"]["fields"] if res["ok"] else res["error"]))
        return out
    finally:
        env.close()
