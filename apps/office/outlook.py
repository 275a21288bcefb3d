"""Outlook: shared mailboxes with realistic threads; search, read, OCR attachments, draft; the
send is guarded (validated and staged for a human, never executed).

Attachments hold the same bytes as the document's file in Box / SharePoint / Excel and name
that file (linked_app, linked_file_id). A draft can attach files by their Box file id,
SharePoint item id, Excel workbook id (or full path) or an existing Outlook attachment id;
the bytes are copied from the app that stores them (which must be composed in the task).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, ClassVar, Literal

import duckdb
from pydantic import Field
from sqlglot import exp

from cfab.apps.contract import App
from cfab.apps.docs.base import ocr_result
from cfab.apps.docs.common import md5_hex, mime_of, rendered, sha256_hex
from cfab.apps.kit import all_of, bounds, icontains
from cfab.apps.registry import register
from cfab.apps.tooling import NoArgs, ToolArgs, ToolError, tool
from cfab.schema.sqlbuild import col, literal
from cfab.seeds.determinism import BuildInputs

_EMAIL = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$"
)
_NAMED = re.compile(r"^\s*(?:\"?([^\"<]*)\"?\s*)?<([^>]+)>\s*$")
_TERMS = re.compile(r'"([^"]+)"|(\S+)')
FOLDER_ALIASES = {
    "inbox": "inbox",
    "sent": "sentitems",
    "sent items": "sentitems",
    "sentitems": "sentitems",
    "drafts": "drafts",
    "draft": "drafts",
}
Recipients = list[str] | str


def message_key(message_id: str) -> str:
    """The Outlook id of a book email (views/outlook.sql computes the same)."""
    return "AAMk" + md5_hex(f"outlook:message:{message_id}")[:32]


def attachment_key(message_id: str, n: int) -> str:
    return "AAMkAt" + md5_hex(f"outlook:attachment:{message_id}:{n}")[:32]


def parse_recipients(value: Recipients | None, what: str, *, required: bool = False) -> list[str]:
    """Addresses from a list or a comma/semicolon separated string; 'Name <a@b.com>' accepted."""
    if value is None:
        items: list[str] = []
    elif isinstance(value, str):
        items = [v for v in re.split(r"[,;]", value)]
    else:
        items = list(value)
    out: list[str] = []
    for raw in items:
        text = str(raw).strip()
        if not text:
            continue
        m = _NAMED.match(text)
        addr = (m.group(2) if m else text).strip()
        if not _EMAIL.match(addr):
            raise ToolError(
                f"{what}: {text!r} is not a well-formed email address (like pm@companyA.com)", "invalid_argument"
            )
        out.append(addr)
    if required and not out:
        raise ToolError(f"{what}: give at least one recipient address", "invalid_argument")
    return out


def preview(body: str) -> str:
    return " ".join(body.split())[:255]


# ------------------------------------------------------------------------------------------
# arguments
# ------------------------------------------------------------------------------------------
class SearchArgs(ToolArgs):
    query: str | None = Field(
        None,
        description="Words that must all appear in the subject, body or sender (case-insensitive; quote a phrase)",
        examples=["JSM-88421"],
    )
    mailbox: str | None = Field(
        None, description="Mailbox address; omit for every mailbox", examples=["ap@companyA.com"]
    )
    folder: str | None = Field(None, description="Inbox, Sent Items or Drafts", examples=["Inbox"])
    from_address: str | None = Field(None, description="Part of the sender's address", examples=["jsmitchell"])
    date_from: date | None = Field(
        None, description="Received (or, for drafts, created) on or after (ISO date)", examples=["2026-01-01"]
    )
    date_to: date | None = Field(
        None, description="Received (or created) on or before (ISO date)", examples=["2026-01-31"]
    )
    has_attachment: bool | None = Field(
        None, description="Only messages with (true) or without (false) attachments", examples=[True]
    )
    unread_only: bool = Field(False, description="Only unread messages", examples=[False])
    limit: int = Field(50, ge=1, le=200, description="At most this many messages (newest first)", examples=[50])
    offset: int = Field(0, ge=0, description="Skip this many (paging)", examples=[0])


class ReadArgs(ToolArgs):
    message_id: str = Field(
        ..., description="Message id from outlook.search", examples=["AAMk69e64251955c0d1e2f3a4b5c6d7e8f90"]
    )
    include_thread: bool = Field(
        False, description="Also list the other messages of the conversation", examples=[False]
    )


class AttachmentOcrArgs(ToolArgs):
    attachment_id: str = Field(
        ..., description="Attachment id from outlook.read", examples=["AAMkAt0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6"]
    )
    tables: bool = Field(True, description="Also lift ruled tables (slower)", examples=[True])
    include_text: bool = Field(True, description="Return the full page text too", examples=[True])


class DraftArgs(ToolArgs):
    to: Recipients = Field(
        ..., description="Recipient address(es): a list or a comma-separated string", examples=[["pm@companyA.com"]]
    )
    subject: str | None = Field(
        None,
        description="Subject (optional when replying: 'RE: <original>')",
        examples=["Approve PO 9140-75 invoice JSM-88421"],
    )
    body: str = Field(..., description="Plain-text body", examples=["Please approve invoice JSM-88421 ($14,350.00)."])
    cc: Recipients | None = Field(None, description="Cc address(es)", examples=[["controller@companyA.com"]])
    bcc: Recipients | None = Field(None, description="Bcc address(es)", examples=[[]])
    attachment_file_ids: list[str] | None = Field(
        None,
        description="Files to attach: Box file ids, SharePoint item ids, Excel workbook ids, full paths, or "
        "Outlook attachment ids",
        examples=[["462638810532"]],
    )
    mailbox: str | None = Field(
        None,
        description="Mailbox the draft is saved in and sent from (default: the AP mailbox)",
        examples=["ap@companyA.com"],
    )
    reply_to_message_id: str | None = Field(
        None,
        description="Message this draft replies to (same conversation)",
        examples=["AAMk69e64251955c0d1e2f3a4b5c6d7e8f90"],
    )
    importance: Literal["low", "normal", "high"] = Field(
        "normal", description="low, normal or high", examples=["normal"]
    )


class DraftUpdateArgs(ToolArgs):
    draft_id: str = Field(..., description="The draft's message id", examples=["AAMk0f1e2d3c4b5a69788796a5b4c3d2e1f0"])
    to: Recipients | None = Field(None, description="New recipient list (replaces)", examples=[["pm@companyA.com"]])
    cc: Recipients | None = Field(None, description="New cc list (replaces; [] clears)", examples=[[]])
    bcc: Recipients | None = Field(None, description="New bcc list (replaces; [] clears)", examples=[[]])
    subject: str | None = Field(None, description="New subject", examples=["Approve PO 9140-75"])
    body: str | None = Field(None, description="New body", examples=["Updated: please approve by Friday."])
    add_attachment_file_ids: list[str] | None = Field(
        None, description="Files to attach (as in outlook_draft)", examples=[["462638810532"]]
    )
    remove_attachment_ids: list[str] | None = Field(
        None,
        description="Attachment ids of this draft to remove",
        examples=[["AAMkAt0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6"]],
    )
    importance: Literal["low", "normal", "high"] | None = Field(
        None, description="low, normal or high", examples=["high"]
    )


class SendArgs(ToolArgs):
    draft_id: str | None = Field(
        None,
        description="The draft to send; or give to/subject/body for a new message",
        examples=["AAMk0f1e2d3c4b5a69788796a5b4c3d2e1f0"],
    )
    to: Recipients | None = Field(None, description="Recipients of a new message", examples=[["pm@companyA.com"]])
    subject: str | None = Field(None, description="Subject of a new message", examples=["Approve PO 9140-75"])
    body: str | None = Field(None, description="Body of a new message", examples=["Please approve."])
    cc: Recipients | None = Field(None, description="Cc of a new message", examples=[[]])
    attachment_file_ids: list[str] | None = Field(
        None, description="Files to attach to a new message", examples=[["462638810532"]]
    )
    mailbox: str | None = Field(None, description="Mailbox to send a new message from", examples=["ap@companyA.com"])


# ------------------------------------------------------------------------------------------
# the app
# ------------------------------------------------------------------------------------------
@register
class Outlook(App):
    """Outlook: mailboxes, threads, attachments with the documents' bytes; guarded send."""

    name: ClassVar[str] = "outlook"
    label: ClassVar[str] = "Outlook"
    kind: ClassVar[str] = "office"
    archetype = "Office"
    tier = "A"
    FILE_APPS: ClassVar[tuple[str, ...]] = ("box", "sharepoint", "excel")

    # ------------------------------------------------------------------ seed
    @classmethod
    def seed(cls, con: duckdb.DuckDBPyConnection, inputs: BuildInputs) -> None:
        """DDL + view (mailboxes, folders, messages, attachment records), then attachment bytes."""
        import pyarrow as pa

        super().seed(con, inputs)
        pairs: list[tuple[str, str]] = []
        for message_id, ids in con.execute(
            "SELECT message_id, attachment_document_ids FROM book.emails "
            "WHERE coalesce(trim(attachment_document_ids), '') <> '' ORDER BY message_id"
        ).fetchall():
            for n, doc_id in enumerate(ids.split(","), start=1):
                pairs.append((attachment_key(message_id, n), doc_id.strip()))
        if not pairs:
            return
        docs = rendered(con, document_ids={d for _, d in pairs})
        found = [(att, docs[d]) for att, d in pairs if d in docs]
        con.register(
            "_cfab_att",
            pa.table(
                {
                    "id": pa.array([a for a, _ in found], pa.string()),
                    "content": pa.array([d.content for _, d in found], pa.binary()),
                    "size": pa.array([d.size for _, d in found], pa.int64()),
                    "sha256": pa.array([d.sha256 for _, d in found], pa.string()),
                }
            ),
        )
        try:
            con.execute(
                "UPDATE outlook.attachments SET contentBytes = r.content, size = r.size, sha256 = r.sha256 "
                "FROM _cfab_att r WHERE outlook.attachments.id = r.id"
            )
        finally:
            con.unregister("_cfab_att")
        row = con.execute("SELECT count(*) FROM outlook.attachments WHERE contentBytes IS NULL").fetchone()
        assert row is not None  # count(*) returns one row
        missing = row[0]
        if missing:
            raise RuntimeError(f"outlook: {missing} attachment(s) got no rendered bytes")

    # ------------------------------------------------------------------ helpers
    _MSG_COLS = [
        "id",
        "mailbox",
        "parentFolderId",
        "conversationId",
        "internetMessageId",
        "inReplyToId",
        "subject",
        "bodyPreview",
        "from_address",
        "toRecipients",
        "ccRecipients",
        "bccRecipients",
        "importance",
        "sentDateTime",
        "receivedDateTime",
        "createdDateTime",
        "lastModifiedDateTime",
        "isRead",
        "isDraft",
        "hasAttachments",
    ]
    _ATT_COLS = [
        "id",
        "message_id",
        "name",
        "contentType",
        "size",
        "sha256",
        "isInline",
        "linked_app",
        "linked_file_id",
    ]

    def _folders(self) -> dict[str, dict[str, Any]]:
        return {f["id"]: f for f in self.select("mailFolders")}

    def _folder_id(self, mailbox: str, well_known: str) -> str:
        rows = self.select("mailFolders", {"mailbox": mailbox, "wellKnownName": well_known})
        if not rows:
            raise ToolError(f"mailbox {mailbox} has no {well_known} folder", "not_found")
        return rows[0]["id"]

    def _mailbox(self, mailbox: str | None) -> str:
        boxes = [m["id"] for m in self.select("mailboxes")]
        if not boxes:
            raise ToolError("Outlook has no mailboxes", "not_found")
        if mailbox is None:
            return next((b for b in boxes if b.lower().startswith("ap@")), boxes[0])
        for b in boxes:
            if b.lower() == mailbox.strip().lower():
                return b
        raise ToolError(f"no mailbox {mailbox!r}; mailboxes are {boxes}", "not_found")

    def _summary(self, m: dict[str, Any], folders: dict[str, dict[str, Any]]) -> dict[str, Any]:
        folder = folders.get(m["parentFolderId"], {})
        return {
            "id": m["id"],
            "mailbox": m["mailbox"],
            "folder": folder.get("displayName"),
            "conversationId": m["conversationId"],
            "subject": m["subject"],
            "from": m["from_address"],
            "to": _split(m["toRecipients"]),
            "cc": _split(m["ccRecipients"]),
            "receivedDateTime": m["receivedDateTime"],
            "sentDateTime": m["sentDateTime"],
            "lastModifiedDateTime": m["lastModifiedDateTime"],
            "isRead": m["isRead"],
            "isDraft": m["isDraft"],
            "hasAttachments": m["hasAttachments"],
            "importance": m["importance"],
            "bodyPreview": m["bodyPreview"],
        }

    def _message(self, message_id: str, *, body: bool = True) -> dict[str, Any]:
        cols = self._MSG_COLS + (["body"] if body else [])
        rows = self.select("messages", {"id": str(message_id).strip()}, columns=cols)
        if not rows:
            raise ToolError(f"no message {message_id!r} in Outlook; find ids with outlook.search", "not_found")
        return rows[0]

    def _attachments(self, message_id: str) -> list[dict[str, Any]]:
        return self.select("attachments", {"message_id": message_id}, columns=self._ATT_COLS, order_by=["id"])

    def _draft(self, draft_id: str) -> dict[str, Any]:
        m = self._message(draft_id)
        if not m["isDraft"]:
            raise ToolError(
                f"message {draft_id} is not a draft (it was sent or received); it cannot be edited or sent again",
                "rejected",
            )
        return m

    def _file(self, ref: str) -> dict[str, Any]:
        """Bytes and provenance of a file to attach: an Outlook attachment id, or a file of a
        composed Box / SharePoint / Excel app (by id or full path)."""
        ref = str(ref).strip()
        rows = self.select("attachments", {"id": ref}, columns=self._ATT_COLS + ["contentBytes"])
        if rows:
            a = rows[0]
            return {
                "name": a["name"],
                "contentType": a["contentType"],
                "content": bytes(a["contentBytes"]),
                "linked_app": a["linked_app"],
                "linked_file_id": a["linked_file_id"],
            }
        searched = ["Outlook attachments"]
        for app_name in self.FILE_APPS:
            app = self.ctx.apps.get(app_name)
            if app is None:
                continue
            searched.append(app.label)
            try:
                if app_name == "excel":
                    rec, content = app.workbook_bytes(ref)  # type: ignore[attr-defined]
                    return {
                        "name": rec["name"],
                        "contentType": mime_of(rec["name"]),
                        "content": content,
                        "linked_app": "excel",
                        "linked_file_id": rec["id"],
                    }
                rec = app.find_file(ref) if ref.startswith("/") else app.file_record(ref)  # type: ignore[attr-defined]
                if rec is None:
                    continue
                rec, content = app.file_bytes(rec["id"])  # type: ignore[attr-defined]
                return {
                    "name": rec["name"],
                    "contentType": rec["mime_type"],
                    "content": content,
                    "linked_app": app_name,
                    "linked_file_id": rec["id"],
                }
            except ToolError:
                continue
        raise ToolError(
            f"no file {ref!r} to attach; searched {', '.join(searched)} (a Box file id, SharePoint item "
            "id, Excel workbook id or full path, or an Outlook attachment id)",
            "not_found",
        )

    def _attach(self, message_id: str, refs: list[str], start: int) -> list[dict[str, Any]]:
        out = []
        for i, ref in enumerate(refs, start=start):
            f = self._file(ref)
            row = {
                "id": "AAMkAt" + self.new_id("attachment", message_id, i, ref, length=32),
                "message_id": message_id,
                "name": f["name"],
                "contentType": f["contentType"],
                "size": len(f["content"]),
                "sha256": sha256_hex(f["content"]),
                "isInline": False,
                "linked_app": f["linked_app"],
                "linked_file_id": f["linked_file_id"],
                "contentBytes": f["content"],
            }
            self.insert("attachments", row)
            out.append({k: row[k] for k in self._ATT_COLS})
        return out

    @staticmethod
    def _importance(value: str) -> str:
        v = value.strip().lower()
        if v not in ("low", "normal", "high"):
            raise ToolError("importance must be low, normal or high", "invalid_argument")
        return v

    # ------------------------------------------------------------------ tools
    @tool("mailboxes.list")
    def mailboxes_list(self, args: NoArgs) -> dict[str, Any]:
        """List the mailboxes you can open and their folders with message counts.

        Returns {"mailboxes": [{id: "ap@companyA.com", displayName, folders: [{id, displayName, wellKnownName,
        total, unread}]}], "count": n}.
        """
        counts = {
            (r["parentFolderId"]): r
            for r in self.query(
                exp.select(
                    "parentFolderId",
                    exp.alias_(exp.Count(this=exp.Star()), "total"),
                    exp.alias_(exp.func("count_if", exp.Not(this=col("isRead"))), "unread"),
                )
                .from_(self.tbl("messages").table_expr())
                .group_by("parentFolderId")
            )
        }
        out = []
        for m in self.select("mailboxes"):
            folders = []
            for f in self.select("mailFolders", {"mailbox": m["id"]}, order_by=["wellKnownName"]):
                c = counts.get(f["id"], {})
                folders.append(
                    {
                        "id": f["id"],
                        "displayName": f["displayName"],
                        "wellKnownName": f["wellKnownName"],
                        "total": int(c.get("total", 0)),
                        "unread": int(c.get("unread", 0)),
                    }
                )
            out.append({"id": m["id"], "displayName": m["displayName"], "folders": folders})
        return {"mailboxes": out, "count": len(out)}

    @tool("search")
    def search(self, args: SearchArgs) -> dict[str, Any]:
        """Search messages by words in the subject, body or sender, folder, dates and attachments.

        Args:
            query: words that must all appear, e.g. "JSM-88421" or "\\"pay application\\" Aurora".
            mailbox: e.g. "ap@companyA.com" (omit for all).
            folder: "Inbox", "Sent Items" or "Drafts".
            from_address: part of the sender address, e.g. "bankofamerica".
            date_from: e.g. "2026-01-01".
            date_to: e.g. "2026-01-31".
            has_attachment: e.g. true.
            unread_only: e.g. false.
            limit: e.g. 50 (newest first).
            offset: e.g. 0.

        Returns {"messages": [{id, mailbox, folder, conversationId, subject, from, to, cc, receivedDateTime,
        sentDateTime, isRead, isDraft, hasAttachments, importance, bodyPreview}], "count": n, "total": N}.
        """
        parts: list[exp.Expr | None] = []
        folders = self._folders()
        if args.mailbox:
            parts.append(exp.EQ(this=col("mailbox"), expression=literal(self._mailbox(args.mailbox))))
        if args.folder:
            wk = FOLDER_ALIASES.get(args.folder.strip().lower())
            if wk is None:
                raise ToolError(f"unknown folder {args.folder!r}: use Inbox, Sent Items or Drafts", "invalid_argument")
            ids = [f for f, row in folders.items() if row["wellKnownName"] == wk]
            parts.append(exp.In(this=col("parentFolderId"), expressions=[literal(i) for i in ids] or [exp.Null()]))
        haystack = exp.Lower(this=exp.func("concat_ws", literal(" "), col("subject"), col("body"), col("from_address")))
        for phrase, word in _TERMS.findall(args.query or ""):
            parts.append(exp.func("contains", haystack, literal((phrase or word).lower())))
        parts.append(icontains("from_address", args.from_address))
        when = exp.cast(exp.func("coalesce", col("receivedDateTime"), col("createdDateTime")), "DATE")
        parts += bounds(when, args.date_from, args.date_to, "DATE")
        if args.has_attachment is not None:
            parts.append(exp.EQ(this=col("hasAttachments"), expression=exp.Boolean(this=args.has_attachment)))
        if args.unread_only:
            parts.append(exp.Not(this=col("isRead")))
        rows = self.select("messages", extra=all_of(*parts), columns=self._MSG_COLS, order_by=["id"])
        rows.sort(key=lambda m: m["receivedDateTime"] or m["createdDateTime"], reverse=True)
        page = rows[args.offset : args.offset + args.limit]
        return {"messages": [self._summary(m, folders) for m in page], "count": len(page), "total": len(rows)}

    @tool("read")
    def read(self, args: ReadArgs) -> dict[str, Any]:
        """Read one message: headers, full body and its attachments (names, ids, sizes, and the id of the
        same file in Box / SharePoint / Excel). Reading does not change the message.

        Args:
            message_id: e.g. "AAMk69e64251955c0d1e2f3a4b5c6d7e8f90".
            include_thread: also list the conversation's other messages, e.g. false.

        Returns {"message": {id, mailbox, folder, conversationId, subject, from, to, cc, bcc, body, receivedDateTime,
        sentDateTime, isRead, isDraft, hasAttachments, internetMessageId, inReplyToId}, "attachments": [{id, name,
        contentType, size, sha256, linked_app, linked_file_id}], "thread": [...] (if asked)}. OCR a PDF attachment
        with outlook.attachments.ocr.
        """
        m = self._message(args.message_id)
        folders = self._folders()
        msg = self._summary(m, folders)
        msg.update(
            {
                "bcc": _split(m["bccRecipients"]),
                "body": m["body"],
                "internetMessageId": m["internetMessageId"],
                "inReplyToId": m["inReplyToId"],
            }
        )
        msg.pop("bodyPreview", None)
        out: dict[str, Any] = {"message": msg, "attachments": self._attachments(m["id"])}
        if args.include_thread:
            others = self.select(
                "messages",
                {"conversationId": m["conversationId"]},
                columns=self._MSG_COLS,
                order_by=["createdDateTime", "id"],
            )
            out["thread"] = [self._summary(o, folders) for o in others if o["id"] != m["id"]]
        return out

    @tool("attachments.ocr")
    def attachments_ocr(self, args: AttachmentOcrArgs) -> dict[str, Any]:
        """OCR a PDF attachment: its text, ruled tables and labelled key fields (invoice number, PO, cost
        code, totals, COI expiry dates, ...) read from the attachment's bytes with pdfplumber.

        Args:
            attachment_id: e.g. "AAMkAt0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6" (from outlook.read).
            tables: also lift ruled tables, e.g. true.
            include_text: return the full text too, e.g. true.

        Returns {"file": {id, name, size, sha256}, "doc_type": "invoice|coi|...", "pages": n, "fields": {...},
        "tables": [...], "text": "...", "linked_app": "box", "linked_file_id": "462638810532"}.
        """
        rows = self.select("attachments", {"id": args.attachment_id.strip()}, columns=self._ATT_COLS + ["contentBytes"])
        if not rows:
            raise ToolError(
                f"no attachment {args.attachment_id!r}; list a message's attachments with outlook.read", "not_found"
            )
        a = rows[0]
        content = bytes(a["contentBytes"] or b"")
        if not (a["contentType"] == "application/pdf" or content[:5] == b"%PDF-"):
            raise ToolError(f"attachment {a['name']} is not a PDF ({a['contentType']})", "invalid_argument")
        rec = {"id": a["id"], "name": a["name"], "size": a["size"], "sha256": a["sha256"]}
        out = ocr_result(content, rec, tables=args.tables, include_text=args.include_text)
        out.update({"linked_app": a["linked_app"], "linked_file_id": a["linked_file_id"]})
        return out

    @tool("outlook_draft", writes=True, aliases=("drafts.create",))
    def outlook_draft(self, args: DraftArgs) -> dict[str, Any]:
        """Save a new draft in the mailbox's Drafts folder (drafts are not sent: sending is outlook.outlook_send,
        which is guarded).

        Args:
            to: e.g. ["pm@companyA.com"].
            subject: e.g. "Approve PO 9140-75 invoice JSM-88421" (optional when replying).
            body: e.g. "Please approve invoice JSM-88421 for $14,350.00 ...".
            cc: e.g. ["controller@companyA.com"].
            bcc: e.g. [].
            attachment_file_ids: e.g. ["462638810532"] (Box file id; SharePoint / Excel ids, full paths and Outlook
                attachment ids work too).
            mailbox: e.g. "ap@companyA.com" (default the AP mailbox).
            reply_to_message_id: e.g. "AAMk69e64251955c0d1e2f3a4b5c6d7e8f90" to reply in that conversation.
            importance: "low", "normal" or "high".

        Returns {"draft": {id, mailbox, folder: "Drafts", conversationId, subject, from, to, cc, isDraft: true,
        hasAttachments, ...}, "attachments": [{id, name, size, sha256, linked_app, linked_file_id}]}.
        """
        mailbox = self._mailbox(args.mailbox)
        to = parse_recipients(args.to, "to", required=True)
        cc = parse_recipients(args.cc, "cc")
        bcc = parse_recipients(args.bcc, "bcc")
        importance = self._importance(args.importance)
        reply = self._message(args.reply_to_message_id) if args.reply_to_message_id else None
        subject = args.subject
        if subject is None:
            if reply is None:
                raise ToolError("subject is required (it may be omitted only when replying)", "invalid_argument")
            subject = reply["subject"] if reply["subject"].lower().startswith("re:") else "RE: " + reply["subject"]
        k = 1
        while True:
            draft_id = "AAMk" + self.new_id("draft", mailbox, subject, ",".join(to), args.body, k, length=32)
            if not self.select("messages", {"id": draft_id}, columns=["id"]):
                break
            k += 1
        conversation = reply["conversationId"] if reply else "AAQk" + self.new_id("thread", draft_id, length=32)
        row = {
            "id": draft_id,
            "mailbox": mailbox,
            "parentFolderId": self._folder_id(mailbox, "drafts"),
            "conversationId": conversation,
            "internetMessageId": None,
            "inReplyToId": reply["id"] if reply else None,
            "subject": subject,
            "body": args.body,
            "bodyPreview": preview(args.body),
            "from_address": mailbox,
            "toRecipients": ",".join(to),
            "ccRecipients": ",".join(cc) or None,
            "bccRecipients": ",".join(bcc) or None,
            "importance": importance,
            "sentDateTime": None,
            "receivedDateTime": None,
            "createdDateTime": self.now,
            "lastModifiedDateTime": self.now,
            "isRead": True,
            "isDraft": True,
            "hasAttachments": bool(args.attachment_file_ids),
        }
        self.insert("messages", row)
        attachments = self._attach(draft_id, list(args.attachment_file_ids or []), 1)
        return {"draft": self._summary(row, self._folders()), "attachments": attachments}

    @tool("drafts.update", writes=True)
    def drafts_update(self, args: DraftUpdateArgs) -> dict[str, Any]:
        """Change a draft: recipients, subject, body, importance, attachments (add / remove). Sent and received
        messages cannot be changed.

        Args:
            draft_id: e.g. "AAMk0f1e2d3c4b5a69788796a5b4c3d2e1f0".
            to: replaces the recipients, e.g. ["pm@companyA.com"].
            cc: replaces cc, e.g. [] to clear.
            bcc: replaces bcc, e.g. [] to clear it.
            subject: e.g. "Approve PO 9140-75".
            body: e.g. "Updated: please approve by Friday.".
            add_attachment_file_ids: e.g. ["462638810532"].
            remove_attachment_ids: e.g. ["AAMkAt0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6"].
            importance: e.g. "high".

        Returns {"draft": {...}, "attachments": [...all of the draft's attachments...], "changed": ["subject", ...]}.
        """
        m = self._draft(args.draft_id)
        values: dict[str, Any] = {}
        if args.to is not None:
            values["toRecipients"] = ",".join(parse_recipients(args.to, "to", required=True))
        if args.cc is not None:
            values["ccRecipients"] = ",".join(parse_recipients(args.cc, "cc")) or None
        if args.bcc is not None:
            values["bccRecipients"] = ",".join(parse_recipients(args.bcc, "bcc")) or None
        if args.subject is not None:
            values["subject"] = args.subject
        if args.body is not None:
            values["body"] = args.body
            values["bodyPreview"] = preview(args.body)
        if args.importance is not None:
            values["importance"] = self._importance(args.importance)
        existing = self._attachments(m["id"])
        for att_id in args.remove_attachment_ids or []:
            if att_id not in {a["id"] for a in existing}:
                raise ToolError(f"draft {m['id']} has no attachment {att_id!r}", "not_found")
            self.delete("attachments", {"id": att_id})
        if args.add_attachment_file_ids:
            self._attach(m["id"], list(args.add_attachment_file_ids), len(existing) + 1)
        attachments = self._attachments(m["id"])
        changed = sorted(k for k in values if k != "bodyPreview")
        if args.remove_attachment_ids or args.add_attachment_file_ids:
            changed.append("attachments")
        if not changed:
            raise ToolError("nothing to change: give at least one field", "invalid_argument")
        values["hasAttachments"] = bool(attachments)
        values["lastModifiedDateTime"] = self.now
        self.update("messages", {"id": m["id"]}, values)
        after = self._message(m["id"])
        return {"draft": self._summary(after, self._folders()), "attachments": attachments, "changed": changed}

    @tool("outlook_send", guarded="send", aliases=("send",))
    def outlook_send(self, args: SendArgs) -> dict[str, Any]:
        """Send a draft or a new message (GUARDED: validated and staged for human approval, never sent).

        Validates that the draft exists and is a draft (or that a new message has recipients, a subject and
        a body), that every address is well-formed and that every attachment resolves; records the request;
        nothing is sent and nothing changes.

        Args:
            draft_id: the draft to send, e.g. "AAMk0f1e2d3c4b5a69788796a5b4c3d2e1f0".
            to: for a new message, e.g. ["pm@companyA.com"].
            subject: for a new message, e.g. "Approve PO 9140-75".
            body: for a new message, e.g. "Please approve.".
            cc: for a new message, e.g. [].
            attachment_file_ids: for a new message, e.g. ["462638810532"].
            mailbox: for a new message, e.g. "ap@companyA.com".

        Returns {"would_send": {draft_id, from, to, cc, subject, attachments: [names]}, "status": "pending_human_approval"}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        if args.draft_id:
            extra = [k for k in ("to", "subject", "body", "cc", "attachment_file_ids", "mailbox") if getattr(args, k)]
            if extra:
                raise ToolError(
                    f"give a draft_id OR a new message, not both (also got {', '.join(extra)}); edit the "
                    "draft with outlook.drafts.update first",
                    "invalid_argument",
                )
            m = self._draft(args.draft_id)
            to = parse_recipients(m["toRecipients"], "to", required=True)
            cc = parse_recipients(m["ccRecipients"], "cc")
            parse_recipients(m["bccRecipients"], "bcc")
            if not m["subject"].strip():
                raise ToolError(f"draft {m['id']} has no subject", "invalid_argument")
            names = [a["name"] for a in self._attachments(m["id"])]
            return {
                "would_send": {
                    "draft_id": m["id"],
                    "from": m["mailbox"],
                    "to": to,
                    "cc": cc,
                    "subject": m["subject"],
                    "attachments": names,
                },
                "status": "pending_human_approval",
            }
        mailbox = self._mailbox(args.mailbox)
        to = parse_recipients(args.to, "to", required=True)
        cc = parse_recipients(args.cc, "cc")
        if not (args.subject or "").strip():
            raise ToolError("subject is required to send a new message", "invalid_argument")
        if not (args.body or "").strip():
            raise ToolError("body is required to send a new message", "invalid_argument")
        names = [self._file(ref)["name"] for ref in args.attachment_file_ids or []]
        return {
            "would_send": {
                "draft_id": None,
                "from": mailbox,
                "to": to,
                "cc": cc,
                "subject": args.subject,
                "attachments": names,
            },
            "status": "pending_human_approval",
        }

    # ------------------------------------------------------------------ integration (Python-level)
    def attachment_bytes(self, attachment_id: str) -> tuple[dict[str, Any], bytes]:
        """(attachment record, bytes) of one attachment; ToolError not_found if absent."""
        rows = self.select("attachments", {"id": attachment_id}, columns=self._ATT_COLS + ["contentBytes"])
        if not rows:
            raise ToolError(f"no attachment {attachment_id!r}", "not_found")
        a = rows[0]
        return {k: a[k] for k in self._ATT_COLS}, bytes(a["contentBytes"] or b"")

    def drafts(self, mailbox: str | None = None) -> list[dict[str, Any]]:
        """Every draft (optionally of one mailbox), oldest first, with its body."""
        where = {"isDraft": True, "mailbox": self._mailbox(mailbox) if mailbox else None}
        return self.select("messages", where, columns=self._MSG_COLS + ["body"], order_by=["createdDateTime", "id"])


def _split(value: str | None) -> list[str]:
    return [v for v in (value or "").split(",") if v]
