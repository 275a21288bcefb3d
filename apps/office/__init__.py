"""Office archetype: Excel (xlsx workbooks with a cell-level relation) and Outlook (mailboxes,
attachments with the documents' bytes, guarded send)."""

from cfab.apps.office.excel import Excel
from cfab.apps.office.outlook import Outlook

__all__ = ["Excel", "Outlook"]
