"""Docs archetype: document stores whose files are real bytes. Vendors: Box, SharePoint."""

from cfab.apps.docs.base import DocsArchetype
from cfab.apps.docs.vendors import Box, SharePoint

__all__ = ["Box", "DocsArchetype", "SharePoint"]
