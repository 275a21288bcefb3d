"""Helpers of the document tests: OCR workers for process pools."""

from __future__ import annotations


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
