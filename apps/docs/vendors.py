"""The two document stores: Box and SharePoint (constants, id formats and path spellings)."""

from __future__ import annotations

from typing import Any, ClassVar

from cfab.apps.docs.base import DocsArchetype, FileListArgs
from cfab.apps.docs.common import UploadContent, box_file_id, box_id, graph_id, sha1_hex, sha256_hex, sharepoint_item_id
from cfab.apps.registry import register
from cfab.apps.tooling import tool


@register
class Box(DocsArchetype):
    """Box: folders and files with numeric ids, sha1 and versions; OCR via box.ocr_pdf."""

    name: ClassVar[str] = "box"
    label: ClassVar[str] = "Box"
    tier = "A"
    T_FOLDERS = "folders"
    T_FILES = "files"
    T_VERSIONS = "file_versions"
    ACTIVE_FILTER = {"item_status": "active"}
    ROOT_ID = "0"
    EX_FILE_ID = "462638810532"
    FILE_COLS = {
        "id": "id",
        "name": "name",
        "parent_id": "parent_id",
        "parent_path": "path_collection",
        "description": "description",
        "size": "size",
        "sha1": "sha1",
        "sha256": "sha256",
        "mime": None,
        "version": "version_number",
        "created_at": "created_at",
        "modified_at": "modified_at",
        "created_by": "created_by_login",
        "modified_by": "modified_by_login",
        "content": "content",
    }
    FOLDER_COLS = {
        "id": "id",
        "name": "name",
        "parent_id": "parent_id",
        "parent_path": "path_collection",
        "created_at": "created_at",
        "modified_at": "modified_at",
        "created_by": "created_by_login",
    }
    VERSION_COLS = {
        "file_id": "file_id",
        "version": "version_number",
        "size": "size",
        "sha256": "sha256",
        "modified_at": "created_at",
        "modified_by": "modified_by_login",
        "content": "content",
    }

    # the paper's trajectory calls box_list() (and box.ocr_pdf(id=...), the archetype's own name)
    @tool("files.list", aliases=("box_list",))
    def files_list(self, args: FileListArgs) -> dict[str, Any]:
        return super().files_list(args)

    files_list.__doc__ = DocsArchetype.files_list.__doc__

    @classmethod
    def seed_file_id(cls, document_id: str) -> str:
        return box_file_id(document_id)

    @classmethod
    def fill_content_sql(cls) -> str:
        return (
            "UPDATE box.files SET content = r.content, size = r.size, sha1 = r.sha1, sha256 = r.sha256 "
            "FROM _cfab_rendered r WHERE box.files.id = r.id"
        )

    def upload_file_id(self, folder: str, name: str) -> str:
        return box_id("file", f"upload:{folder}/{name.lower()}")

    def new_folder_row(self, path: str, name: str, parent_id: str, parent_path: str) -> dict[str, Any]:
        return {
            "id": box_id("folder", path),
            "name": name,
            "parent_id": parent_id,
            "path_collection": parent_path,
            "description": None,
            "created_at": self.now,
            "modified_at": self.now,
            "created_by_login": self.AGENT_LOGIN,
            "item_status": "active",
        }

    def new_file_row(
        self, file_id: str, folder_id: str, folder: str, up: UploadContent, description: str | None, login: str
    ) -> dict[str, Any]:
        return {
            "id": file_id,
            "name": up.name,
            "parent_id": folder_id,
            "path_collection": folder,
            "extension": up.extension,
            "description": description,
            "size": len(up.content),
            "sha1": sha1_hex(up.content),
            "sha256": sha256_hex(up.content),
            "version_number": 1,
            "file_version_id": box_id("version", f"{file_id}:1"),
            "content_created_at": self.now,
            "created_at": self.now,
            "modified_at": self.now,
            "created_by_login": login,
            "modified_by_login": login,
            "item_status": "active",
            "content": up.content,
        }

    def new_version(self, row: dict[str, Any], up: UploadContent, login: str) -> tuple[dict[str, Any], dict[str, Any]]:
        n = int(row["version_number"])
        history = {
            "id": row["file_version_id"],
            "file_id": row["id"],
            "version_number": n,
            "name": row["name"],
            "size": row["size"],
            "sha1": row["sha1"],
            "sha256": row["sha256"],
            "created_at": row["modified_at"],
            "modified_by_login": row["modified_by_login"],
            "trashed_at": None,
            "content": bytes(row["content"]),
        }
        updates = {
            "version_number": n + 1,
            "file_version_id": box_id("version", f"{row['id']}:{n + 1}"),
            "size": len(up.content),
            "sha1": sha1_hex(up.content),
            "sha256": sha256_hex(up.content),
            "content": up.content,
            "modified_at": self.now,
            "modified_by_login": login,
        }
        return history, updates


@register
class SharePoint(DocsArchetype):
    """SharePoint Online: one site, its document library, driveItems with webUrls and versions."""

    name: ClassVar[str] = "sharepoint"
    label: ClassVar[str] = "SharePoint"
    tier = "A"
    T_FOLDERS = "driveItems"
    T_FILES = "driveItems"
    T_VERSIONS = "driveItemVersions"
    FOLDER_FILTER = {"item_type": "folder"}
    FILE_FILTER = {"item_type": "file"}
    ROOT_ID = graph_id("sharepoint:folder", "/")
    PATH_PREFIX: ClassVar[str] = "/drive/root:"
    EX_FILE_ID = "01A5C1651BFEAD7E1121C977E07E625496"
    FILE_COLS = {
        "id": "id",
        "name": "name",
        "parent_id": "parentReference_id",
        "parent_path": "parentReference_path",
        "description": "description",
        "size": "size",
        "sha1": "file_sha1Hash",
        "sha256": "file_sha256Hash",
        "mime": "file_mimeType",
        "version": "version_label",
        "created_at": "createdDateTime",
        "modified_at": "lastModifiedDateTime",
        "created_by": "createdBy_email",
        "modified_by": "lastModifiedBy_email",
        "content": "content",
    }
    FOLDER_COLS = {
        "id": "id",
        "name": "name",
        "parent_id": "parentReference_id",
        "parent_path": "parentReference_path",
        "created_at": "createdDateTime",
        "modified_at": "lastModifiedDateTime",
        "created_by": "createdBy_email",
    }
    VERSION_COLS = {
        "file_id": "item_id",
        "version": "id",
        "size": "size",
        "sha256": "file_sha256Hash",
        "modified_at": "lastModifiedDateTime",
        "modified_by": "lastModifiedBy_email",
        "content": "content",
    }

    def native_path(self, path: str) -> str:
        return self.PATH_PREFIX + ("" if path == "/" else path)

    def logical_path(self, native: str | None) -> str:
        if not native:
            return "/"
        rest = native[len(self.PATH_PREFIX) :] if native.startswith(self.PATH_PREFIX) else native
        return rest or "/"

    def record_extra(self, row: dict[str, Any]) -> dict[str, Any]:
        return {"webUrl": row.get("webUrl")}

    @classmethod
    def seed_file_id(cls, document_id: str) -> str:
        return sharepoint_item_id(document_id)

    @classmethod
    def fill_content_sql(cls) -> str:
        return (
            "UPDATE sharepoint.driveItems SET content = r.content, size = r.size, "
            "file_sha1Hash = upper(r.sha1), file_sha256Hash = upper(r.sha256) "
            "FROM _cfab_rendered r WHERE sharepoint.driveItems.id = r.id"
        )

    def _drive(self) -> dict[str, Any]:
        return self.select("drives", order_by=["id"], limit=1)[0]

    def _url(self, path: str) -> str:
        return self._drive()["webUrl"] + ("" if path == "/" else path).replace(" ", "%20")

    def upload_file_id(self, folder: str, name: str) -> str:
        return graph_id("sharepoint:upload", f"{folder}/{name.lower()}")

    def new_folder_row(self, path: str, name: str, parent_id: str, parent_path: str) -> dict[str, Any]:
        item_id = graph_id("sharepoint:folder", path)
        return {
            "id": item_id,
            "drive_id": self._drive()["id"],
            "name": name,
            "item_type": "folder",
            "parentReference_id": parent_id,
            "parentReference_path": self.native_path(parent_path),
            "webUrl": self._url(path),
            "description": None,
            "size": None,
            "file_mimeType": None,
            "file_sha1Hash": None,
            "file_sha256Hash": None,
            "version_label": None,
            "eTag": f'"{{{item_id[2:]}}},1"',
            "createdDateTime": self.now,
            "lastModifiedDateTime": self.now,
            "createdBy_email": self.AGENT_LOGIN,
            "lastModifiedBy_email": self.AGENT_LOGIN,
            "content": None,
        }

    def new_file_row(
        self, file_id: str, folder_id: str, folder: str, up: UploadContent, description: str | None, login: str
    ) -> dict[str, Any]:
        path = ("" if folder == "/" else folder) + "/" + up.name
        return {
            "id": file_id,
            "drive_id": self._drive()["id"],
            "name": up.name,
            "item_type": "file",
            "parentReference_id": folder_id,
            "parentReference_path": self.native_path(folder),
            "webUrl": self._url(path),
            "description": description,
            "size": len(up.content),
            "file_mimeType": up.mime_type,
            "file_sha1Hash": sha1_hex(up.content).upper(),
            "file_sha256Hash": sha256_hex(up.content).upper(),
            "version_label": "1.0",
            "eTag": f'"{{{file_id[2:]}}},1"',
            "createdDateTime": self.now,
            "lastModifiedDateTime": self.now,
            "createdBy_email": login,
            "lastModifiedBy_email": login,
            "content": up.content,
        }

    def new_version(self, row: dict[str, Any], up: UploadContent, login: str) -> tuple[dict[str, Any], dict[str, Any]]:
        label = row["version_label"] or "1.0"
        n = int(label.split(".")[0]) + 1
        history = {
            "item_id": row["id"],
            "id": label,
            "size": row["size"],
            "file_sha256Hash": row["file_sha256Hash"],
            "lastModifiedDateTime": row["lastModifiedDateTime"],
            "lastModifiedBy_email": row["lastModifiedBy_email"],
            "content": bytes(row["content"]),
        }
        updates = {
            "version_label": f"{n}.0",
            "size": len(up.content),
            "file_mimeType": up.mime_type,
            "file_sha1Hash": sha1_hex(up.content).upper(),
            "file_sha256Hash": sha256_hex(up.content).upper(),
            "eTag": f'"{{{row["id"][2:]}}},{n}"',
            "content": up.content,
            "lastModifiedDateTime": self.now,
            "lastModifiedBy_email": login,
        }
        return history, updates
