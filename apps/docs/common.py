"""Pieces shared by the document apps (Box, SharePoint) and the Office apps (Excel, Outlook).

* **Ids.** Every id of a seeded record is a function of its book natural key. The view SQL
  computes them with DuckDB's ``md5_number`` (the md5 digest read as a little-endian 128-bit
  integer); :func:`md5_number` is the same function in Python, so a seed can address the rows
  its view inserted and Outlook can name the Box file of an attachment. The formulas live
  here once (``*_SQL``) and in the view files; a seed verifies that every row got its bytes.
* **Renders.** :func:`rendered` renders ``book.documents`` rows through
  ``cfab.seeds.documents`` once per book (keyed by the book's content digest), so Box,
  SharePoint, Excel and Outlook seeding the same golden file share one rendering pass.
* **Validation** of names, folder paths, content types and upload bytes, with messages an
  agent can act on.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import duckdb

from cfab.apps.tooling import ToolError

# ------------------------------------------------------------------------------------------
# ids
# ------------------------------------------------------------------------------------------
BOX_ID_BASE = 100_000_000_000
BOX_ID_SPAN = 900_000_000_000


def md5_number(text: str) -> int:
    """DuckDB's ``md5_number(text)``: the md5 digest as a little-endian unsigned integer."""
    return int.from_bytes(hashlib.md5(text.encode("utf-8")).digest(), "little")


def md5_hex(text: str) -> str:
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def box_id(kind: str, key: str) -> str:
    """A 12-digit Box id (as Box ids are: digits in a string) for a folder/file/version key."""
    return str(BOX_ID_BASE + md5_number(f"box:{kind}:{key}") % BOX_ID_SPAN)


def graph_id(kind: str, key: str) -> str:
    """A Microsoft Graph driveItem-style id: '01' + 32 upper-case hex characters."""
    return "01" + md5_hex(f"{kind}:{key}")[:32].upper()


def box_file_id(document_id: str) -> str:
    return box_id("file", document_id)


def sharepoint_item_id(document_id: str) -> str:
    return graph_id("sharepoint:file", document_id)


def excel_workbook_id(document_id: str) -> str:
    return graph_id("excel:workbook", document_id)


def linked_file_id(store: str, document_id: str) -> str | None:
    """The id the document has in the app that stores it (box / sharepoint / excel)."""
    return {"box": box_file_id, "sharepoint": sharepoint_item_id, "excel": excel_workbook_id}.get(
        store, lambda _d: None
    )(document_id)


# ------------------------------------------------------------------------------------------
# content types
# ------------------------------------------------------------------------------------------
PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv"
TXT = "text/plain"
MD = "text/markdown"
JSON_MIME = "application/json"
MIME_BY_EXT: dict[str, str] = {"pdf": PDF, "xlsx": XLSX, "csv": CSV, "txt": TXT, "md": MD, "json": JSON_MIME}
EXT_BY_MIME: dict[str, str] = {v: k for k, v in MIME_BY_EXT.items()}
TEXT_EXTENSIONS = frozenset({"csv", "txt", "md", "json"})
ALLOWED_UPLOAD_EXTENSIONS = tuple(MIME_BY_EXT)
MAX_UPLOAD_BYTES = 5 * 1024 * 1024


def extension_of(name: str) -> str:
    """Lower-case extension without the dot ('' when the name has none)."""
    base = name.rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[1].lower() if "." in base.strip(".") else ""


def mime_of(name: str) -> str:
    return MIME_BY_EXT.get(extension_of(name), "application/octet-stream")


def sha1_hex(content: bytes) -> str:
    return hashlib.sha1(content).hexdigest()


def sha256_hex(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


# ------------------------------------------------------------------------------------------
# names and paths
# ------------------------------------------------------------------------------------------
_BAD_NAME_CHARS = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')


def check_name(name: str, what: str = "file name") -> str:
    """A single file or folder name: no separators, control characters or dot tricks."""
    if not isinstance(name, str) or not name.strip():
        raise ToolError(f"the {what} is empty", "invalid_argument")
    if name != name.strip():
        raise ToolError(f"the {what} {name!r} has leading or trailing spaces", "invalid_argument")
    if name in (".", "..") or name.startswith(".") or ".." in name:
        raise ToolError(f"the {what} {name!r} is not allowed: no leading dot and no '..'", "invalid_argument")
    bad = _BAD_NAME_CHARS.search(name)
    if bad:
        raise ToolError(
            f"the {what} {name!r} contains {bad.group(0)!r}; names cannot contain "
            '/ \\ : * ? " < > | or control characters',
            "invalid_argument",
        )
    if len(name) > 255:
        raise ToolError(f"the {what} is longer than 255 characters", "invalid_argument")
    return name


def normalize_folder(path: str | None) -> str:
    """An absolute folder path '/AP/Invoices' ('/' is the root). Relative paths are taken from
    the root; '.', '..', backslashes, empty segments and control characters are refused."""
    if path is None:
        return "/"
    text = str(path).strip()
    if text in ("", "/"):
        return "/"
    if "\\" in text:
        raise ToolError(f"folder path {path!r} uses backslashes; write it like '/AP/Invoices'", "invalid_argument")
    parts = text.strip("/").split("/")
    for part in parts:
        if part in ("", ".", ".."):
            raise ToolError(
                f"folder path {path!r} is not allowed: no empty, '.' or '..' segments "
                "(write it like '/Reports/2026-01')",
                "invalid_argument",
            )
        check_name(part, "folder name")
    return "/" + "/".join(parts)


def join_path(folder: str, name: str) -> str:
    return ("" if folder == "/" else folder) + "/" + name


def split_path(path: str) -> tuple[str, str]:
    """'/AP/Invoices' -> ('/AP', 'Invoices'); '/AP' -> ('/', 'AP')."""
    head, _, tail = path.rstrip("/").rpartition("/")
    return (head or "/"), tail


# ------------------------------------------------------------------------------------------
# upload validation
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class UploadContent:
    name: str
    extension: str
    mime_type: str
    content: bytes


def decode_upload(
    name: str,
    content: str | None,
    content_base64: str | None,
    mime_type: str | None,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
) -> UploadContent:
    """Validate an upload's name, type, encoding, size and bytes; ToolError with the reason."""
    check_name(name)
    ext = extension_of(name)
    if ext not in MIME_BY_EXT:
        raise ToolError(
            f"file type {('.' + ext) if ext else '(no extension)'} is not allowed; upload one of "
            f"{', '.join('.' + e for e in ALLOWED_UPLOAD_EXTENSIONS)}",
            "invalid_argument",
        )
    expected = MIME_BY_EXT[ext]
    if mime_type is not None and mime_type.split(";")[0].strip().lower() != expected:
        raise ToolError(
            f"mime type {mime_type!r} does not match the .{ext} extension (expected {expected!r})", "invalid_argument"
        )
    if (content is None) == (content_base64 is None):
        raise ToolError(
            "give exactly one of content (text) or content_base64 (binary files such as .pdf/.xlsx)", "invalid_argument"
        )
    if content is not None:
        if ext not in TEXT_EXTENSIONS:
            raise ToolError(
                f".{ext} is a binary type: send its bytes as content_base64, not as text content", "invalid_argument"
            )
        data = content.encode("utf-8")
    else:
        compact = re.sub(r"\s+", "", content_base64 or "")
        if len(compact) > (max_bytes * 4) // 3 + 8:
            raise ToolError(f"file is larger than the {max_bytes} byte upload limit", "invalid_argument")
        try:
            data = base64.b64decode(compact, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise ToolError(
                f"content_base64 is not valid base64 ({exc}); encode the file's bytes with "
                "standard base64 (A-Z a-z 0-9 + / and = padding)",
                "invalid_argument",
            ) from None
    if not data:
        raise ToolError("the file is empty (0 bytes)", "invalid_argument")
    if len(data) > max_bytes:
        raise ToolError(f"file is {len(data)} bytes, larger than the {max_bytes} byte upload limit", "invalid_argument")
    _check_bytes(ext, data)
    return UploadContent(name, ext, expected, data)


def _check_bytes(ext: str, data: bytes) -> None:
    if ext == "pdf":
        if not data.lstrip()[:5] == b"%PDF-":
            raise ToolError("the .pdf content is not a PDF (it does not start with %PDF-)", "invalid_argument")
        if b"%%EOF" not in data[-2048:]:
            raise ToolError("the .pdf content is truncated (no %%EOF trailer)", "invalid_argument")
        return
    if ext == "xlsx":
        from cfab.apps.xlsx import XlsxError, list_sheets

        try:
            list_sheets(data)
        except XlsxError as exc:
            raise ToolError(f"the .xlsx content is not a readable workbook: {exc}", "invalid_argument") from None
        return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolError(f"the .{ext} content is not UTF-8 text", "invalid_argument") from None
    if "\x00" in text:
        raise ToolError(f"the .{ext} content contains NUL bytes; it is not text", "invalid_argument")
    if ext == "json":
        try:
            json.loads(text)
        except ValueError as exc:
            raise ToolError(f"the .json content does not parse: {exc}", "invalid_argument") from None


# ------------------------------------------------------------------------------------------
# render cache
# ------------------------------------------------------------------------------------------
_RENDER_LOCK = threading.Lock()
_RENDERS: dict[str, Any] = {"key": None, "docs": {}, "types": set()}


def _book_key(con: duckdb.DuckDBPyConnection) -> str:
    from cfab.schema.catalog import content_digest

    return content_digest(con, schemas=["book"], exclude=())


def clear_render_cache() -> None:
    """Forget every cached render (tests that check rendering determinism call this)."""
    with _RENDER_LOCK:
        _RENDERS.update(key=None, docs={}, types=set())


def rendered(
    con: duckdb.DuckDBPyConnection, *, stores: Iterable[str] | None = None, document_ids: Iterable[str] | None = None
) -> dict[str, Any]:
    """Rendered documents (``cfab.seeds.documents.RenderedDocument``) by document_id: those
    whose store is in ``stores`` and/or whose id is in ``document_ids``. Renders of one book
    (same content digest) are computed once and shared by every app seeding it."""
    from cfab.seeds.documents import render_all, render_document

    store_list = sorted(set(stores or ()))
    ids = sorted(set(document_ids or ()))
    key = _book_key(con)
    with _RENDER_LOCK:
        if _RENDERS["key"] != key:
            _RENDERS.update(key=key, docs={}, types=set())
        docs: dict[str, Any] = _RENDERS["docs"]
        done: set[str] = _RENDERS["types"]
        wanted: list[tuple[str, str]] = []
        if store_list:
            wanted += con.execute(
                "SELECT document_id, doc_type FROM book.documents WHERE list_contains(?, store) ORDER BY document_id",
                [store_list],
            ).fetchall()
        if ids:
            wanted += con.execute(
                "SELECT document_id, doc_type FROM book.documents WHERE list_contains(?, document_id) "
                "ORDER BY document_id",
                [ids],
            ).fetchall()
        if store_list:  # whole stores: render by type (a few set-based queries per family)
            types = sorted({t for _, t in wanted} - done)
            if types:
                for doc in render_all(con, doc_types=tuple(types)):
                    docs[doc.document_id] = doc
                done.update(types)
        for doc_id, _ in wanted:  # odd ones out (e.g. a few email attachments): one by one
            if doc_id not in docs:
                docs[doc_id] = render_document(con, doc_id)
        return {d: docs[d] for d, _ in wanted}
