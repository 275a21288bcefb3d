"""Helpers shared by the document tests (imported by basename, so the name is unique)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from cfab.schema.catalog import schema_ddl

HERE = Path(__file__).parent


def make_fixture_book() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB holding the hand-made fixture book (schema/book.sql + fixture_book.sql)."""
    con = duckdb.connect()
    con.execute(schema_ddl("book"))
    con.execute((HERE / "fixture_book.sql").read_text(encoding="utf-8"))
    return con


def ocr_fields(content: bytes) -> dict[str, str]:
    """Worker for process pools: the labelled fields of one PDF (text pass only)."""
    from cfab.apps.ocr import ocr_pdf

    return ocr_pdf(content, tables=False).fields


def ocr_fields_many(contents: list[bytes]) -> list[dict[str, str]]:
    """``ocr_fields`` over many PDFs, on every core (fork) when there are enough of them."""
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    workers = min(4, os.cpu_count() or 1)
    if workers < 2 or len(contents) < 50:
        return [ocr_fields(c) for c in contents]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(ocr_fields, contents, chunksize=16))
