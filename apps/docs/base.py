"""Docs archetype: a document store whose files are real bytes (reality 5, "the PDF is the
system of record").

Written once over class constants; Box and SharePoint differ only by their native table and
column names, id formats and path spelling (``vendors.py``). Every tool works on a *logical*
file record (id, name, path, folder, size, sha1, sha256, version, dates, author) mapped onto
the vendor's columns by ``FILE_COLS`` / ``FOLDER_COLS``.

Seeding: ``seed`` runs the DDL and ``views/<app>.sql`` (folders and file records from
``book.documents`` whose ``store`` is this app), then fills each file's bytes from the
renderers (``cfab.seeds.documents``, rendered once per book and shared by every app that
seeds the same golden file). Bytes live in the DuckDB file, so snapshot/reset restore them
exactly and uploads appear in the state diff (BLOBs as sha256 + size).

Reading a PDF's numbers needs OCR: ``ocr_pdf`` runs ``cfab.apps.ocr.ocr_pdf`` on the stored
bytes (never on the book). Uploads validate type, size, encoding and names; a file's bytes
are never overwritten in place: uploading a file whose name exists in the folder is refused
unless ``new_version=true``, which first copies the current bytes into the version history
(the rules in ``triggers/rules/<app>.toml`` enforce the same for any other write).
"""

from __future__ import annotations

from typing import Any, ClassVar

import duckdb
from sqlglot import exp

from cfab.apps.contract import App
from cfab.apps.docs.args import (
    FileListArgs,
    FileRefArgs,
    FolderListArgs,
    OcrArgs,
    UploadArgs,
    VersionListArgs,
)
from cfab.apps.docs.common import (
    TEXT_EXTENSIONS,
    UploadContent,
    _check_bytes,
    check_name,
    decode_upload,
    extension_of,
    join_path,
    mime_of,
    normalize_folder,
    rendered,
    sha1_hex,
    split_path,
)
from cfab.apps.kit import all_of, bounds, icontains, ieq
from cfab.apps.tooling import ToolError, tool
from cfab.schema.sqlbuild import col, literal
from cfab.seeds.determinism import BuildInputs


# ------------------------------------------------------------------------------------------
# the archetype
# ------------------------------------------------------------------------------------------
class DocsArchetype(App):
    """A cloud document store: folders, files with bytes, versions, OCR, validated uploads."""

    archetype = "Docs"
    kind: ClassVar[str] = "docs"

    T_FOLDERS: ClassVar[str] = "folders"
    T_FILES: ClassVar[str] = "files"
    T_VERSIONS: ClassVar[str] = "file_versions"
    FOLDER_FILTER: ClassVar[dict[str, Any]] = {}
    FILE_FILTER: ClassVar[dict[str, Any]] = {}
    ACTIVE_FILTER: ClassVar[dict[str, Any]] = {}
    ROOT_ID: ClassVar[str] = "0"
    AGENT_LOGIN: ClassVar[str] = "agent@companyA.com"
    # logical -> native column names (None: the vendor has no such column)
    FILE_COLS: ClassVar[dict[str, str | None]] = {}
    FOLDER_COLS: ClassVar[dict[str, str | None]] = {}
    VERSION_COLS: ClassVar[dict[str, str]] = {}
    EX_FILE_ID: ClassVar[str] = "462638810532"

    # ------------------------------------------------------------------ vendor hooks
    def native_path(self, path: str) -> str:
        """The vendor's spelling of a logical folder path stored as a parent path."""
        return path

    def logical_path(self, native: str | None) -> str:
        return native or "/"

    def upload_file_id(self, folder: str, name: str) -> str:
        raise NotImplementedError

    def new_folder_row(self, path: str, name: str, parent_id: str, parent_path: str) -> dict[str, Any]:
        raise NotImplementedError

    def new_file_row(
        self, file_id: str, folder_id: str, folder: str, up: UploadContent, description: str | None, login: str
    ) -> dict[str, Any]:
        raise NotImplementedError

    def new_version(self, row: dict[str, Any], up: UploadContent, login: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """(history row preserving ``row``'s current bytes, updates making ``up`` current)."""
        raise NotImplementedError

    def record_extra(self, row: dict[str, Any]) -> dict[str, Any]:
        """Vendor fields added to a file record (e.g. SharePoint's webUrl)."""
        return {}

    @classmethod
    def fill_content_sql(cls) -> str:
        """UPDATE statement setting bytes and hashes from the registered ``_cfab_rendered``
        relation (columns id, content, size, sha1, sha256)."""
        raise NotImplementedError

    @classmethod
    def seed_file_id(cls, document_id: str) -> str:
        raise NotImplementedError

    # ------------------------------------------------------------------ seed
    @classmethod
    def seed(cls, con: duckdb.DuckDBPyConnection, inputs: BuildInputs) -> None:
        """DDL + view SQL (folders and file records from book.documents), then the bytes."""
        super().seed(con, inputs)
        cls.fill_content(con)

    @classmethod
    def fill_content(cls, con: duckdb.DuckDBPyConnection) -> None:
        import pyarrow as pa

        docs = rendered(con, stores=[cls.name])
        ids, contents, sizes, sha1s, sha256s = [], [], [], [], []
        for doc_id, doc in sorted(docs.items()):
            ids.append(cls.seed_file_id(doc_id))
            contents.append(doc.content)
            sizes.append(len(doc.content))
            sha1s.append(sha1_hex(doc.content))
            sha256s.append(doc.sha256)
        table = pa.table(
            {
                "id": pa.array(ids, pa.string()),
                "content": pa.array(contents, pa.binary()),
                "size": pa.array(sizes, pa.int64()),
                "sha1": pa.array(sha1s, pa.string()),
                "sha256": pa.array(sha256s, pa.string()),
            }
        )
        con.register("_cfab_rendered", table)
        try:
            con.execute(cls.fill_content_sql())
        finally:
            con.unregister("_cfab_rendered")
        content = cls.FILE_COLS["content"]
        filt = " AND ".join(f"\"{k}\" = '{v}'" for k, v in cls.FILE_FILTER.items()) or "true"
        row = con.execute(
            f'SELECT count(*) FROM "{cls.name}"."{cls.T_FILES}" WHERE "{content}" IS NULL AND {filt}'
        ).fetchone()
        assert row is not None  # count(*) returns one row
        missing = row[0]
        if missing:
            raise RuntimeError(f"{cls.name}: {missing} file record(s) got no rendered bytes")

    # ------------------------------------------------------------------ column helpers
    def _fc(self, logical: str) -> str:
        name = self.FILE_COLS.get(logical)
        if name is None:
            raise KeyError(logical)
        return name

    def _folder_c(self, logical: str) -> str:
        name = self.FOLDER_COLS.get(logical)
        if name is None:
            raise KeyError(logical)
        return name

    @staticmethod
    def _opt(row: dict[str, Any], cols: dict[str, str | None], logical: str) -> Any:
        """``row``'s value of a column this vendor may not have (None when its name is None)."""
        name = cols[logical]
        return None if name is None else row.get(name)

    def _file_columns(self, with_content: bool = False) -> list[str]:
        content = self.FILE_COLS["content"]
        return [c for c in self.tbl(self.T_FILES).columns if with_content or c != content]

    def _file_rows(
        self,
        where: dict[str, Any] | None = None,
        extra: exp.Expr | None = None,
        with_content: bool = False,
        order_by: list[str] | None = None,
    ) -> list[dict[str, Any]]:
        filters = {**self.FILE_FILTER, **self.ACTIVE_FILTER, **(where or {})}
        return self.select(
            self.T_FILES,
            filters,
            extra=extra,
            columns=self._file_columns(with_content),
            order_by=order_by or [self._fc("parent_path"), self._fc("name"), self._fc("id")],
        )

    def _folder_rows(self, where: dict[str, Any] | None = None, extra: exp.Expr | None = None) -> list[dict[str, Any]]:
        filters = {**self.FOLDER_FILTER, **self.ACTIVE_FILTER, **(where or {})}
        return self.select(
            self.T_FOLDERS,
            filters,
            extra=extra,
            columns=[c for c in self.tbl(self.T_FOLDERS).columns if c != self.FILE_COLS.get("content")],
            order_by=[self._folder_c("parent_path"), self._folder_c("name")],
        )

    def _folder_path(self, row: dict[str, Any]) -> str:
        if row[self._folder_c("id")] == self.ROOT_ID:
            return "/"
        return join_path(self.logical_path(row[self._folder_c("parent_path")]), row[self._folder_c("name")])

    def record(self, row: dict[str, Any]) -> dict[str, Any]:
        """The logical file record an agent sees (no bytes)."""
        fc, fc_, opt = self.FILE_COLS, self._fc, self._opt
        folder = self.logical_path(row[fc_("parent_path")])
        name = row[fc_("name")]
        mime_col = fc.get("mime")
        mime = row[mime_col] if mime_col else mime_of(name)
        sha1 = opt(row, fc, "sha1")
        sha256 = opt(row, fc, "sha256")
        out = {
            "id": row[fc_("id")],
            "name": name,
            "path": join_path(folder, name),
            "folder": folder,
            "folder_id": row[fc_("parent_id")],
            "extension": extension_of(name),
            "mime_type": mime,
            "size": opt(row, fc, "size"),
            "sha1": sha1.lower() if sha1 else None,
            "sha256": sha256.lower() if sha256 else None,
            "version": opt(row, fc, "version"),
            "description": opt(row, fc, "description"),
            "created_at": opt(row, fc, "created_at"),
            "modified_at": opt(row, fc, "modified_at"),
            "created_by": opt(row, fc, "created_by"),
            "modified_by": opt(row, fc, "modified_by"),
        }
        out.update(self.record_extra(row))
        return out

    # ------------------------------------------------------------------ lookups
    def _folder_by_id(self, folder_id: str) -> dict[str, Any] | None:
        rows = self._folder_rows({self._folder_c("id"): folder_id})
        return rows[0] if rows else None

    def _folder_by_path(self, path: str) -> dict[str, Any] | None:
        if path == "/":
            return self._folder_by_id(self.ROOT_ID)
        parent, name = split_path(path)
        pred = ieq(self._folder_c("name"), name, trim=False)
        rows = self._folder_rows({self._folder_c("parent_path"): self.native_path(parent)}, extra=pred)
        return rows[0] if rows else None

    def _resolve_folder(self, ref: str | None) -> tuple[str, dict[str, Any]]:
        """(logical path, folder row) for a folder path or id; ToolError if there is none."""
        if ref is None or str(ref).strip() in ("", "/"):
            row = self._folder_by_id(self.ROOT_ID)
            if row is None:
                raise ToolError(f"{self.label} has no root folder", "not_found")
            return "/", row
        text = str(ref).strip()
        if not text.startswith("/"):
            row = self._folder_by_id(text)
            if row is not None:
                return self._folder_path(row), row
        path = normalize_folder(text)
        row = self._folder_by_path(path)
        if row is None:
            raise ToolError(
                f"no folder {path!r} in {self.label}; list folders with {self.name}.folders.list", "not_found"
            )
        return path, row

    def _file(self, file_id: str | int | None, path: str | None, *, with_content: bool = False) -> dict[str, Any]:
        if file_id is None and not path:
            raise ToolError("give the file id (from files.list) or its full path", "invalid_argument")
        if file_id is not None:
            rows = self._file_rows({self._fc("id"): str(file_id).strip()}, with_content=with_content)
            if not rows:
                raise ToolError(
                    f"no file with id {str(file_id)!r} in {self.label}; find ids with {self.name}.files.list",
                    "not_found",
                )
            return rows[0]
        text = str(path).strip()
        folder, name = split_path(text if text.startswith("/") else "/" + text)
        folder = normalize_folder(folder)
        pred = ieq(self._fc("name"), name, trim=False)
        rows = self._file_rows(
            {self._fc("parent_path"): self.native_path(folder)}, extra=pred, with_content=with_content
        )
        if not rows:
            raise ToolError(f"no file {join_path(folder, name)!r} in {self.label}", "not_found")
        return rows[0]

    def _under(self, column: str, path: str, include_self: bool = True) -> exp.Expr | None:
        """Rows whose parent path is ``path`` or below it (None: everything, for the root)."""
        if path == "/":
            return None
        native = self.native_path(path)
        below = exp.func("starts_with", col(column), literal(native + "/"))
        if not include_self:
            return below
        return exp.or_(exp.EQ(this=col(column), expression=literal(native)), below)

    # ------------------------------------------------------------------ tools
    @tool("files.list")
    def files_list(self, args: FileListArgs) -> dict[str, Any]:
        """List files in $label (metadata only, never bytes).

        Filter by folder, name, extension and modified date; page with limit/offset.

        Args:
            folder: folder path or id, e.g. "/AP/Invoices/2026-01" (omit for all folders).
            recursive: include sub-folders, e.g. true (default).
            name_contains: part of the file name, e.g. "JSM-88421".
            extension: e.g. "pdf".
            modified_from: e.g. "2026-01-01".
            modified_to: e.g. "2026-01-31".
            sort: "path" (default) or "modified" (newest first).
            limit: e.g. 100 (max 500).
            offset: e.g. 0.

        Returns {"files": [{id, name, path, folder, folder_id, extension, mime_type, size, sha1, sha256,
        version, description, created_at, modified_at, created_by, modified_by}], "count": n (returned),
        "total": N (matching)}. Read a PDF's contents with $app.ocr_pdf(id=...).
        """
        parts: list[exp.Expr | None] = []
        if args.folder is not None:
            path, row = self._resolve_folder(args.folder)
            if args.recursive:
                under = self._under(self._fc("parent_path"), path)
                if under is not None:
                    parts.append(under)
            else:
                parts.append(exp.EQ(this=col(self._fc("parent_id")), expression=literal(row[self._folder_c("id")])))
        parts.append(icontains(self._fc("name"), args.name_contains))
        if args.extension:
            ext = args.extension.lower().lstrip(".")
            parts.append(exp.func("ends_with", exp.Lower(this=col(self._fc("name"))), literal("." + ext)))
        parts += bounds(exp.cast(col(self._fc("modified_at")), "DATE"), args.modified_from, args.modified_to, "DATE")
        rows = self._file_rows(extra=all_of(*parts))
        if args.sort == "modified":
            rows.sort(key=lambda r: r[self._fc("id")])
            rows.sort(key=lambda r: r[self._fc("modified_at")], reverse=True)
        page = rows[args.offset : args.offset + args.limit]
        return {"files": [self.record(r) for r in page], "count": len(page), "total": len(rows)}

    @tool("files.read")
    def files_read(self, args: FileRefArgs) -> dict[str, Any]:
        """Read one file of $label: its metadata, plus the text of a text file (.md .txt .csv .json).

        A PDF's text is not returned here: read it with $app.ocr_pdf (text, tables and key fields).
        An .xlsx returns its sheet names.

        Args:
            file_id: e.g. "$EX_FILE_ID" (or give path).
            path: e.g. "/Policies/change_mgmt_policy.md".
            max_chars: longest text returned, e.g. 20000.

        Returns {"file": {...record...}, "text": "..." | null, "truncated": bool, "sheets": [...] (xlsx),
        "hint": "..." (PDF and other binary files)}.
        """
        row = self._file(args.file_id, args.path, with_content=True)
        rec = self.record(row)
        content = bytes(row[self._fc("content")] or b"")
        ext = rec["extension"]
        out: dict[str, Any] = {"file": rec, "text": None, "truncated": False}
        if ext in TEXT_EXTENSIONS or rec["mime_type"].startswith("text/"):
            text = content.decode("utf-8", errors="replace")
            out["text"] = text[: args.max_chars]
            out["truncated"] = len(text) > args.max_chars
        elif ext == "pdf" or content[:5] == b"%PDF-":
            out["hint"] = (
                f"This is a PDF ({rec['size']} bytes). Its numbers exist only on the page: call "
                f'{self.name}.ocr_pdf(id="{rec["id"]}") for its text, tables and key fields.'
            )
        elif ext == "xlsx":
            from cfab.apps.xlsx import XlsxError, list_sheets

            try:
                out["sheets"] = list_sheets(content)
                out["hint"] = "An Excel workbook: the sheet names are listed; the Excel app reads and writes cells."
            except XlsxError as exc:
                out["hint"] = f"The workbook could not be opened: {exc}"
        else:
            out["hint"] = f"A binary file ({rec['mime_type']}, {rec['size']} bytes)."
        return out

    @tool("folders.list")
    def folders_list(self, args: FolderListArgs) -> dict[str, Any]:
        """List folders of $label with how many files and sub-folders each holds.

        Args:
            parent: folder path or id, e.g. "/AP" (omit for the top level).
            recursive: every folder below the parent, e.g. false (default: children only).

        Returns {"folders": [{id, name, path, parent_id, file_count, folder_count, modified_at}], "count": n}.
        """
        path, parent = self._resolve_folder(args.parent)
        parent_id = parent[self._folder_c("id")]
        if args.recursive:
            extra = self._under(self._folder_c("parent_path"), path)
            rows = [r for r in self._folder_rows(extra=extra) if r[self._folder_c("id")] != self.ROOT_ID]
        else:
            rows = self._folder_rows({self._folder_c("parent_id"): parent_id})
        file_counts = self._child_counts(self.T_FILES, self._fc("parent_id"), self.FILE_FILTER)
        folder_counts = self._child_counts(self.T_FOLDERS, self._folder_c("parent_id"), self.FOLDER_FILTER)
        out = []
        for r in rows:
            fid = r[self._folder_c("id")]
            out.append(
                {
                    "id": fid,
                    "name": r[self._folder_c("name")],
                    "path": self._folder_path(r),
                    "parent_id": r[self._folder_c("parent_id")],
                    "file_count": file_counts.get(fid, 0),
                    "folder_count": folder_counts.get(fid, 0),
                    "modified_at": r[self._folder_c("modified_at")],
                }
            )
        out.sort(key=lambda f: f["path"])
        return {"folder": path, "folders": out, "count": len(out)}

    def _child_counts(self, table: str, parent_col: str, filters: dict[str, Any]) -> dict[str, int]:
        info = self.tbl(table)
        q = exp.select(col(parent_col), exp.alias_(exp.Count(this=exp.Star()), "n")).from_(info.table_expr())
        for k, v in {**filters, **self.ACTIVE_FILTER}.items():
            q = q.where(exp.EQ(this=col(k), expression=literal(v)))
        q = q.group_by(col(parent_col))
        return {r[parent_col]: int(r["n"]) for r in self.query(q)}

    @tool("ocr_pdf")
    def ocr_pdf(self, args: OcrArgs) -> dict[str, Any]:
        """OCR a PDF stored in $label: read its text, ruled tables and labelled key fields from the
        file's bytes with pdfplumber (invoice number, dates, PO, cost code, totals; COI coverages and
        expiry dates; waiver amounts; G702 lines; ...).

        Args:
            id: the PDF's file id, e.g. "$EX_FILE_ID" (or give path).
            path: e.g. "/AP/Invoices/2026-01/V1001_JSM-88421.pdf".
            tables: also lift ruled tables, e.g. true (slower; default true).
            include_text: return the full text too, e.g. true.

        Returns {"file": {id, name, path, size, sha256}, "doc_type": "invoice|coi|lien_waiver|pay_app|wh347|
        subcontract|change_backup|policy|unknown", "pages": n, "fields": {"invoice_number": "JSM-88421",
        "total": "14350.00", ...}, "tables": [{"page": 1, "rows": [[...]]}], "text": "..."}. Amounts are
        plain decimal strings, dates ISO.
        """
        row = self._file(args.id, args.path, with_content=True)
        rec = self.record(row)
        content = bytes(row[self._fc("content")] or b"")
        if rec["extension"] != "pdf" and content[:5] != b"%PDF-":
            raise ToolError(
                f"{rec['name']} is not a PDF ({rec['mime_type']}); read it with {self.name}.files.read",
                "invalid_argument",
            )
        return ocr_result(content, rec, tables=args.tables, include_text=args.include_text)

    @tool("files.upload", writes=True)
    def files_upload(self, args: UploadArgs) -> dict[str, Any]:
        """Upload a file to $label (a report, crosswalk, memo or workbook you produced).

        Allowed types: .pdf .xlsx .csv .txt .md .json, at most 5 MB. Send text as content, binary
        files as content_base64. Missing folders are created. A name that already exists in the
        folder is refused unless new_version is true (the old bytes stay in the version history).

        Args:
            name: e.g. "accrual_memo_2026-01.md".
            folder: e.g. "/Reports/2026-01" (path or folder id; default the root).
            content: text, e.g. "# January accrual ...".
            content_base64: base64 bytes, e.g. "JVBERi0xLjQK...".
            mime_type: optional, e.g. "text/markdown".
            description: optional, e.g. "Subcontract accrual memo".
            new_version: e.g. false.

        Returns {"file": {...record...}, "created": true|false (false: a new version of an existing file),
        "created_folders": ["/Reports/2026-01"], "version": n}.
        """
        up = decode_upload(args.name, args.content, args.content_base64, args.mime_type)
        return self._store(args.folder, up, description=args.description, new_version=args.new_version)

    @tool("files.versions")
    def files_versions(self, args: VersionListArgs) -> dict[str, Any]:
        """List a file's versions in $label: the current one and every earlier one kept in the history.

        Args:
            file_id: e.g. "$EX_FILE_ID" (or give path).
            path: e.g. "/Reports/accrual_memo_2026-01.md".

        Returns {"file": {...record...}, "versions": [{version, size, sha256, modified_at, modified_by,
        current}], "count": n}.
        """
        row = self._file(args.file_id, args.path)
        rec = self.record(row)
        vc = self.VERSION_COLS
        history = self.select(
            self.T_VERSIONS,
            {vc["file_id"]: rec["id"]},
            columns=[c for c in self.tbl(self.T_VERSIONS).columns if c != vc["content"]],
            order_by=[vc["modified_at"]],
        )
        versions = [
            {
                "version": h[vc["version"]],
                "size": h[vc["size"]],
                "sha256": str(h[vc["sha256"]]).lower(),
                "modified_at": h[vc["modified_at"]],
                "modified_by": h[vc["modified_by"]],
                "current": False,
            }
            for h in history
        ]
        versions.append(
            {
                "version": rec["version"],
                "size": rec["size"],
                "sha256": rec["sha256"],
                "modified_at": rec["modified_at"],
                "modified_by": rec["modified_by"],
                "current": True,
            }
        )
        return {"file": rec, "versions": versions, "count": len(versions)}

    # ------------------------------------------------------------------ writing
    def _ensure_folder(self, path: str, created: list[str]) -> dict[str, Any]:
        """The folder at ``path``, creating it (and missing ancestors) as the agent."""
        row = self._folder_by_path(path)
        if row is not None:
            return row
        parent_path, name = split_path(path)
        check_name(name, "folder name")
        parent = self._ensure_folder(parent_path, created)
        clash = self._file_rows(
            {self._fc("parent_path"): self.native_path(parent_path)}, extra=ieq(self._fc("name"), name, trim=False)
        )
        if clash:
            raise ToolError(f"cannot create folder {path!r}: a file of that name exists there", "conflict")
        new = self.new_folder_row(path, name, parent[self._folder_c("id")], parent_path)
        self.insert(self.T_FOLDERS, new)
        created.append(path)
        return new

    def _store(
        self,
        folder_ref: str | None,
        up: UploadContent,
        *,
        description: str | None = None,
        new_version: bool = False,
        login: str | None = None,
    ) -> dict[str, Any]:
        login = login or self.AGENT_LOGIN
        created: list[str] = []
        text = "/" if folder_ref is None else str(folder_ref).strip()
        if text and not text.startswith("/") and self._folder_by_id(text) is not None:
            path, folder = self._resolve_folder(text)
        else:
            path = normalize_folder(text)
            folder = self._ensure_folder(path, created)
        folder_id = folder[self._folder_c("id")]
        same = ieq(self._fc("name"), up.name, trim=False)
        existing = self._file_rows({self._fc("parent_id"): folder_id}, extra=same, with_content=True)
        if self._folder_rows(
            {self._folder_c("parent_id"): folder_id}, extra=ieq(self._folder_c("name"), up.name, trim=False)
        ):
            raise ToolError(f"{join_path(path, up.name)!r} is a folder in {self.label}", "conflict")
        if existing:
            row = existing[0]
            if not new_version:
                raise ToolError(
                    f"a file named {row[self._fc('name')]!r} already exists in {path} (id {row[self._fc('id')]}); "
                    "choose another name, or pass new_version=true to upload these bytes as its next version",
                    "conflict",
                )
            history, updates = self.new_version(row, up, login)
            self.gate.insert(self.tbl(self.T_VERSIONS).qualified, history)
            self.update(self.T_FILES, {self._fc("id"): row[self._fc("id")]}, updates)
            after = self._file_rows({self._fc("id"): row[self._fc("id")]})[0]
            return {
                "file": self.record(after),
                "created": False,
                "created_folders": created,
                "version": after[self._fc("version")],
            }
        file_id = self.upload_file_id(path, up.name)
        if self._file_rows({self._fc("id"): file_id}):
            raise ToolError(f"a file with id {file_id} already exists in {self.label}", "conflict")
        row = self.new_file_row(file_id, folder_id, path, up, description, login)
        self.insert(self.T_FILES, row)
        after = self._file_rows({self._fc("id"): file_id})[0]
        return {
            "file": self.record(after),
            "created": True,
            "created_folders": created,
            "version": after[self._fc("version")],
        }

    # ------------------------------------------------------------------ integration (Python-level)
    def file_record(self, file_id: str) -> dict[str, Any] | None:
        """The logical record of a file (no bytes), or None."""
        rows = self._file_rows({self._fc("id"): str(file_id)})
        return self.record(rows[0]) if rows else None

    def file_bytes(self, file_id: str) -> tuple[dict[str, Any], bytes]:
        """(record, bytes) of a file; ToolError not_found if there is none (Outlook attaches these)."""
        row = self._file(file_id, None, with_content=True)
        return self.record(row), bytes(row[self._fc("content")] or b"")

    def find_file(self, path: str) -> dict[str, Any] | None:
        """The record of the file at a full path, or None."""
        try:
            return self.record(self._file(None, path))
        except ToolError:
            return None

    def store_file(
        self,
        folder: str,
        name: str,
        content: bytes,
        *,
        description: str | None = None,
        new_version: bool = False,
        login: str | None = None,
    ) -> dict[str, Any]:
        """Store bytes another app produced (validated like an upload); returns files.upload's result."""
        check_name(name)
        ext = extension_of(name)
        up = UploadContent(name, ext, mime_of(name), bytes(content))
        if ext not in ("pdf", "xlsx", "csv", "txt", "md", "json"):
            raise ToolError(f"file type .{ext} is not allowed", "invalid_argument")
        _check_bytes(ext, up.content)
        return self._store(folder, up, description=description, new_version=new_version, login=login)


def ocr_result(
    content: bytes, rec: dict[str, Any], *, tables: bool = True, include_text: bool = True
) -> dict[str, Any]:
    """Run ``cfab.apps.ocr.ocr_pdf`` on stored bytes and shape the tool result."""
    from cfab.apps.ocr import OcrError
    from cfab.apps.ocr import ocr_pdf as run_ocr

    try:
        res = run_ocr(content, tables=tables)
    except OcrError as exc:
        raise ToolError(f"cannot read {rec.get('name')}: {exc.message}", "invalid_argument") from None
    out: dict[str, Any] = {
        "file": {k: rec.get(k) for k in ("id", "name", "path", "size", "sha256")},
        "doc_type": res.doc_type,
        "pages": res.pages,
        "fields": dict(res.fields),
    }
    if tables:
        out["tables"] = [t.model_dump() for t in res.tables]
    if include_text:
        out["text"] = res.text
    return out
