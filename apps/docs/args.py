"""Argument models of the Docs tools (Box and SharePoint share them; each tool's docstring
carries its vendor's examples)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from cfab.apps.tooling import ToolArgs

MAX_TEXT_CHARS = 20_000  # longest text a read tool returns in one result

__all__ = [
    "MAX_TEXT_CHARS",
    "FileListArgs",
    "FileRefArgs",
    "FolderListArgs",
    "OcrArgs",
    "UploadArgs",
    "VersionListArgs",
]


class FileListArgs(ToolArgs):
    folder: str | None = Field(
        None,
        description="Folder path like '/AP/Invoices/2026-01' or a folder id; omit for every folder",
        examples=["/AP/Invoices/2026-01"],
    )
    recursive: bool = Field(True, description="Include files in sub-folders of the folder", examples=[True])
    name_contains: str | None = Field(
        None, description="Case-insensitive part of the file name", examples=["JSM-88421"]
    )
    extension: str | None = Field(None, description="File extension without the dot", examples=["pdf"])
    modified_from: date | None = Field(
        None, description="Only files modified on or after this date (ISO)", examples=["2026-01-01"]
    )
    modified_to: date | None = Field(
        None, description="Only files modified on or before this date (ISO)", examples=["2026-01-31"]
    )
    sort: Literal["path", "modified"] = Field(
        "path", description="'path' (folder then name) or 'modified' (newest first)", examples=["modified"]
    )
    limit: int = Field(100, ge=1, le=500, description="At most this many files (1-500)", examples=[100])
    offset: int = Field(0, ge=0, description="Skip this many files (paging)", examples=[0])


class FileRefArgs(ToolArgs):
    file_id: str | int | None = Field(
        None, description="The file id (from files.list); or give path", examples=["462638810532"]
    )
    path: str | None = Field(
        None,
        description="Full path of the file; or give file_id",
        examples=["/AP/Invoices/2026-01/V1001_JSM-88421.pdf"],
    )
    max_chars: int = Field(
        MAX_TEXT_CHARS, ge=1, le=200_000, description="Longest text returned for a text file", examples=[20000]
    )


class FolderListArgs(ToolArgs):
    parent: str | None = Field(
        None, description="Folder path or id whose sub-folders to list; omit for the root", examples=["/AP"]
    )
    recursive: bool = Field(
        False, description="List every folder below the parent, not only its children", examples=[False]
    )


class OcrArgs(ToolArgs):
    id: str | int | None = Field(
        None, description="The PDF's file id (from files.list); or give path", examples=["462638810532"]
    )
    path: str | None = Field(
        None, description="Full path of the PDF; or give id", examples=["/AP/Invoices/2026-01/V1001_JSM-88421.pdf"]
    )
    tables: bool = Field(
        True, description="Also lift ruled tables (slower); text and fields are read either way", examples=[True]
    )
    include_text: bool = Field(True, description="Return the full page text as well as the key fields", examples=[True])


class UploadArgs(ToolArgs):
    name: str = Field(
        ...,
        description="File name with an allowed extension: .pdf .xlsx .csv .txt .md .json",
        examples=["accrual_memo_2026-01.md"],
    )
    folder: str = Field("/", description="Folder path (created if missing) or folder id", examples=["/Reports/2026-01"])
    content: str | None = Field(
        None,
        description="The file's text (for .csv .txt .md .json); or give content_base64",
        examples=["# January accrual\n\nJob 3100: 12,500.00"],
    )
    content_base64: str | None = Field(
        None, description="The file's bytes, base64-encoded (required for .pdf/.xlsx)", examples=["JVBERi0xLjQK..."]
    )
    mime_type: str | None = Field(None, description="Optional; must match the extension", examples=["text/markdown"])
    description: str | None = Field(
        None,
        description="Optional description stored with the file",
        examples=["Subcontract accrual memo for January close"],
    )
    new_version: bool = Field(
        False,
        description="If a file of that name exists in the folder, upload these bytes "
        "as its next version (the old bytes are kept in the version history)",
        examples=[False],
    )


class VersionListArgs(ToolArgs):
    file_id: str | int | None = Field(None, description="The file id; or give path", examples=["462638810532"])
    path: str | None = Field(
        None, description="Full path of the file; or give file_id", examples=["/Reports/accrual_memo_2026-01.md"]
    )
