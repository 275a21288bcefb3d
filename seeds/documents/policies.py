"""Company policy documents: the markdown of ``book.policies`` as .md bytes or as a PDF.

A document row whose mime type / filename is markdown gets the body verbatim (UTF-8);
otherwise the markdown is typeset: headings, paragraphs, bullet and numbered lists, simple
pipe tables; inline ``**bold**``, ``*em*`` and backticks are reduced to plain text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import duckdb

from cfab.seeds.documents.common import MD_MIME, Canvas, Column, Row, long_date
from cfab.seeds.documents.sql import rows

DOC_TYPES = ("policy",)
_INLINE = re.compile(r"(\*\*|__|`|(?<![\w*])\*(?!\s))")
_NUMBERED = re.compile(r"^(\d+)[.)]\s+(.*)$")


@dataclass(frozen=True)
class PolicyData:
    policy: Row


def load(con: duckdb.DuckDBPyConnection, ids: list[str] | None) -> dict[str, PolicyData]:
    """Every policy document in ``ids`` (None: all)."""
    return {r["document_id"]: PolicyData(r) for r in rows(con, "policy_rows", ids=ids)}


def is_markdown(doc: Row) -> bool:
    return doc["mime_type"] == MD_MIME or str(doc["filename"]).lower().endswith(".md")


def plain(text: str) -> str:
    """Strip inline markdown markers."""
    return _INLINE.sub("", text).strip()


def render(doc: Row, data: PolicyData, company: Row) -> bytes:
    """Markdown bytes for a .md document, else a typeset PDF."""
    p = data.policy
    if is_markdown(doc):
        body = p["body"] if p["body"].endswith("\n") else p["body"] + "\n"
        return body.encode("utf-8")
    c = Canvas(created=doc["created_date"], title=p["title"], author=company["name"])
    L, R = c.left, c.right
    c.text(L, 50, company["name"], size=9, style="B")
    c.text(R, 50, f"Effective {long_date(p['effective_date'])}", size=8, style="", align="R")
    c.rule(L, 56, R, 0.8)
    y = 80.0
    c.y = y
    table: list[list[str]] = []

    def flush_table() -> None:
        nonlocal table
        if table:
            head, body = table[0], [r for r in table[1:] if not all(set(x) <= set("-: ") for x in r)]
            w = (R - L) / max(len(head), 1)
            c.table(L, c.ensure(40), [Column(plain(x), w) for x in head], [[plain(x) for x in r] for r in body], size=8)
            c.y += 10
            table = []

    for raw in p["body"].splitlines():
        line = raw.rstrip()
        if line.startswith("|"):
            table.append([x.strip() for x in line.strip("|").split("|")])
            continue
        flush_table()
        if not line.strip():
            c.y += 4
            continue
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            size = {1: 15, 2: 12, 3: 10.5}.get(level, 10)
            y = c.ensure(size * 3) + (size if level > 1 else size * 0.5)
            c.paragraph(L, y, R - L, plain(line.lstrip("#")), size=size, style="B")
            c.y += 2
            continue
        stripped = line.lstrip()
        indent = 12 * ((len(line) - len(stripped)) // 2)
        num = _NUMBERED.match(stripped)
        if stripped[:2] in ("- ", "* ", "+ "):
            marker, text = "-", stripped[2:]
        elif num:
            marker, text = f"{num.group(1)}.", num.group(2)
        else:
            c.paragraph(L + indent, c.ensure(12) + 10, R - L - indent, plain(stripped), size=9.5)
            continue
        y = c.ensure(12) + 10
        c.text(L + indent + 6, y, marker, size=9.5, style="")
        c.paragraph(L + indent + 20, y, R - L - indent - 20, plain(text), size=9.5)
    flush_table()
    c.footer_all(f"{company['name']} - {p['title']} ({p['policy_id']})")
    return c.output()
