"""Helpers of the Docs/Office app tests: the four apps and an OCR worker for process pools."""

from __future__ import annotations

DOC_APPS = ["box", "sharepoint", "excel", "outlook"]


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
