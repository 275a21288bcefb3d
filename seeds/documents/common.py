"""Shared pieces of the document renderers: the result model, formatting and a small canvas.

The canvas wraps fpdf2 with the few primitives the renderers need (baseline text, rules,
boxes, wrapped paragraphs, ruled tables) and nothing slow: ``FPDF.text`` instead of
``cell``/``table`` keeps a one-page document near a millisecond. Every PDF is stamped with
the document's own date (never the wall clock) and a fixed producer, so the same rows give
the same bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from fpdf import FPDF
from fpdf.fonts import CORE_FONTS_CHARWIDTHS
from fpdf.util import escape_parens

from cfab.schema.models import FrozenModel

Row = Mapping[str, Any]

PDF_MIME = "application/pdf"
MD_MIME = "text/markdown"
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PRODUCER = "CFAB document renderer"


class DocumentError(ValueError):
    """A document row cannot be rendered (unknown type, missing source rows)."""


class RenderedDocument(FrozenModel):
    """One rendered document: its ``book.documents`` metadata plus the bytes."""

    document_id: str
    store: str
    folder: str
    filename: str
    mime_type: str
    title: str
    content: bytes
    sha256: str
    size: int
    created: date


def make_rendered(doc: Row, content: bytes) -> RenderedDocument:
    """Wrap rendered bytes with the document row's metadata, digest and size."""
    return RenderedDocument(
        document_id=doc["document_id"],
        store=doc["store"],
        folder=doc["folder"],
        filename=doc["filename"],
        mime_type=doc["mime_type"],
        title=doc["title"],
        content=content,
        sha256=hashlib.sha256(content).hexdigest(),
        size=len(content),
        created=doc["created_date"],
    )


# ------------------------------------------------------------------------------------------
# Formatting
# ------------------------------------------------------------------------------------------
def usd(value: Decimal | int | None, *, cents: bool = True, space: bool = False) -> str:
    """``$14,350.00``; negatives ``-$1,200.00``; ``cents=False`` drops whole-dollar cents."""
    if value is None:
        return ""
    d = Decimal(value)
    body = f"{abs(d):,.2f}"
    if not cents and body.endswith(".00"):
        body = body[:-3]
    sign = "-" if d < 0 else ""
    return f"{sign}${' ' if space else ''}{body}"


def num(value: Decimal | int | None) -> str:
    """A grouped number without a currency sign (G703 and WH-347 columns): ``1,250.00``."""
    return "" if value is None else f"{Decimal(value):,.2f}"


def pct(value: Decimal | int | None, places: int = 2) -> str:
    """``10.00%``."""
    return "" if value is None else f"{Decimal(value):.{places}f}%"


def hours(value: Decimal | int | None) -> str:
    """Hours for timesheets: ``8`` / ``7.5``; zero is shown blank as on a paper form."""
    if value is None or Decimal(value) == 0:
        return ""
    return f"{Decimal(value).normalize():f}"


def mdy(value: date | None) -> str:
    """US numeric date: ``01/12/2026``."""
    return "" if value is None else value.strftime("%m/%d/%Y")


def long_date(value: date | None) -> str:
    """``January 12, 2026``."""
    return "" if value is None else f"{value.strftime('%B')} {value.day}, {value.year}"


_ASCII = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2026": "...",
        "\u2022": "-",
        "\u00a0": " ",
        "\u2212": "-",
        "\u2192": "->",
    }
)


def clean(text: object) -> str:
    """Text the PDF core fonts can encode (Latin-1); typographic punctuation is folded."""
    s = "" if text is None else str(text)
    if s.isascii():
        return s
    return s.translate(_ASCII).encode("latin-1", "replace").decode("latin-1")


# ------------------------------------------------------------------------------------------
# Canvas
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    """One table column: header text (``\\n`` breaks lines), width in points, alignment."""

    title: str
    width: float
    align: str = "L"


class Canvas:
    """A US-letter page stack in points with top-down coordinates and baseline text."""

    MARGIN = 40.0

    def __init__(self, *, created: date, title: str, author: str, orientation: str = "P") -> None:
        pdf = FPDF(orientation=orientation, unit="pt", format="letter")
        pdf.set_creation_date(datetime(created.year, created.month, created.day, 12, tzinfo=UTC))
        pdf.set_producer(PRODUCER)
        pdf.set_creator(PRODUCER)
        pdf.set_title(clean(title))
        pdf.set_author(clean(author))
        pdf.set_auto_page_break(False)
        pdf.set_line_width(0.5)
        self.pdf = pdf
        self.orientation = orientation
        self.page_header: Callable[[Canvas], float] | None = None
        self.y = self.MARGIN
        self._font: tuple[str, str, float] = ("", "", 0.0)
        self._cw: dict[str, int] = {}
        # text is queued per (font, color) and written when the page is left, so a page
        # switches fonts a handful of times instead of twice per labelled field
        self._queue: dict[tuple[str, str, float, tuple[int, int, int]], list[tuple[float, float, str]]] = {}
        self.new_page()

    # geometry -------------------------------------------------------------------------
    @property
    def width(self) -> float:
        return float(self.pdf.w)

    @property
    def left(self) -> float:
        return self.MARGIN

    @property
    def right(self) -> float:
        return self.width - self.MARGIN

    @property
    def bottom(self) -> float:
        return float(self.pdf.h) - self.MARGIN

    def new_page(self, orientation: str | None = None) -> float:
        """Start a page (``"P"``/``"L"``, default: as the last one); run the page-header hook
        if set; return the first free y."""
        if orientation is not None:
            self.orientation = orientation
        self.flush()
        self.pdf.add_page(orientation=self.orientation)
        self.y = self.MARGIN
        if self.page_header is not None:
            self.y = self.page_header(self)
        return self.y

    def ensure(self, space: float) -> float:
        """Break the page when fewer than ``space`` points remain; return the current y."""
        if self.y + space > self.bottom:
            self.new_page()
        return self.y

    # text -----------------------------------------------------------------------------
    def font(self, size: float = 9, style: str = "", family: str = "Helvetica") -> None:
        """Select the font used by ``text``/``wrap``/``str_width`` (a core font)."""
        if self._font != (family, style, size):
            self._font = (family, style, size)
            self._cw = CORE_FONTS_CHARWIDTHS[family.lower() + style]

    def flush(self) -> None:
        """Write the queued text of the current page: one text object per font and color,
        glyph runs placed with relative ``Td`` moves (fewer operators for every PDF reader,
        ours included). Falls back to ``FPDF.text`` if fpdf2's internals ever change."""
        if not self._queue:
            return
        pdf = self.pdf
        height = float(pdf.pages[pdf.page].dimensions()[1])
        for (family, style, size, color), items in self._queue.items():
            pdf.set_font(family, style, size)
            try:
                font = pdf.current_font
                if font is None:  # set_font just chose one: these are not the internals we know
                    raise TypeError("fpdf2 has no current font after set_font")
                select = pdf._set_font_for_page(font, size, wrap_in_text_object=False)
                out = pdf._out
            except (AttributeError, TypeError):  # pragma: no cover - other fpdf2 versions
                pdf.set_text_color(*color)
                for x, y, t in items:
                    pdf.text(x, y, t)
                pdf.set_text_color(0)
                continue
            # text color is the fill color: always set it (a gray box may have changed it)
            ops = ["q", f"{color[0] / 255:.3f} {color[1] / 255:.3f} {color[2] / 255:.3f} rg", f"BT {select}"]
            px = py = 0
            for x, y, t in items:
                cx, cy = round(x * 100), round((height - y) * 100)
                ops.append(f"{(cx - px) / 100:.2f} {(cy - py) / 100:.2f} Td ({escape_parens(t)}) Tj")
                px, py = cx, cy
            ops.append("ET Q")
            out("\n".join(ops))
        self._queue = {}

    def str_width(self, text: str) -> float:
        """Width of ``text`` in the current core font (fpdf2's get_string_width is ~50x slower;
        ``clean`` guarantees Latin-1, which the core-font width tables cover)."""
        return sum(map(self._cw.__getitem__, text)) * self._font[2] / 1000

    def text(
        self,
        x: float,
        y: float,
        s: object,
        *,
        size: float | None = None,
        style: str | None = None,
        align: str = "L",
        family: str = "Helvetica",
        color: tuple[int, int, int] = (0, 0, 0),
    ) -> None:
        """Draw ``s`` with its baseline at ``y``; ``x`` anchors the left/right/center."""
        _, sty, sz = self._font
        self.font(size if size is not None else (sz or 9), style if style is not None else sty, family)
        t = clean(s)
        if not t:
            return
        if align == "R":
            x -= self.str_width(t)
        elif align == "C":
            x -= self.str_width(t) / 2
        self._queue.setdefault((*self._font, color), []).append((x, y, t))

    def field(self, x: float, y: float, label: str, value: object, *, width: float = 0, size: float = 9) -> None:
        """A bold label then its value on the same baseline (value at ``x + width``, or just
        after the label when it is wider)."""
        self.text(x, y, label, size=size, style="B")
        end = x + self.str_width(clean(label))
        self.text(max(end + size * 0.5, x + width), y, value, size=size, style="")

    def wrap(self, s: object, width: float) -> list[str]:
        """Greedy word wrap of ``s`` to ``width`` in the current font (each word measured once)."""
        lines: list[str] = []
        space = self.str_width(" ")
        for para in clean(s).split("\n"):
            if self.str_width(para) <= width:
                lines.append(para)
                continue
            cur, cur_w = "", 0.0
            for word in para.split(" "):
                w = self.str_width(word)
                if cur and cur_w + space + w > width:
                    lines.append(cur)
                    cur, cur_w = word, w
                elif cur:
                    cur, cur_w = f"{cur} {word}", cur_w + space + w
                else:
                    cur, cur_w = word, w
            lines.append(cur)
        return lines

    def paragraph(
        self,
        x: float,
        y: float,
        width: float,
        s: object,
        *,
        size: float = 9,
        style: str = "",
        leading: float | None = None,
    ) -> float:
        """Wrapped text, first baseline at ``y``; breaks pages; returns (and stores in
        ``self.y``) the bottom of the block, the top for whatever follows."""
        self.font(size, style)
        lead = leading or size * 1.3
        last = y - lead
        for line in self.wrap(s, width):
            base = last + lead
            if base > self.bottom:
                base = self.new_page() + size
                self.font(size, style)
            self.text(x, base, line, size=size, style=style)
            last = base
        self.y = last + size * 0.3
        return self.y

    # graphics -------------------------------------------------------------------------
    def rule(self, x1: float, y: float, x2: float, width: float = 0.5) -> None:
        self.pdf.set_line_width(width)
        self.pdf.line(x1, y, x2, y)

    def vline(self, x: float, y1: float, y2: float, width: float = 0.5) -> None:
        self.pdf.set_line_width(width)
        self.pdf.line(x, y1, x, y2)

    def box(self, x: float, y: float, w: float, h: float, *, fill: int | None = None, width: float = 0.5) -> None:
        """A rectangle; ``fill`` is a gray level (0-255) drawn without a border."""
        if fill is not None:
            self.pdf.set_fill_color(fill)
            self.pdf.rect(x, y, w, h, style="F")
        else:
            self.pdf.set_line_width(width)
            self.pdf.rect(x, y, w, h)

    def table(
        self,
        x: float,
        y: float,
        columns: Sequence[Column],
        rows: Sequence[Sequence[object]],
        *,
        size: float = 8,
        header_size: float | None = None,
        bold_rows: Sequence[int] = (),
    ) -> float:
        """A fully ruled table (pdfplumber can lift it back out); wraps cell text, breaks
        pages repeating the header, returns the y below the table."""
        hs = header_size or size
        pad, lead = 2.5, size * 1.25

        def header(top: float) -> float:
            self.font(hs, "B")
            heads = [self.wrap(c.title, c.width - 2 * pad) for c in columns]
            h = max(len(hh) for hh in heads) * hs * 1.2 + 2 * pad
            self.box(x, top, sum(c.width for c in columns), h, fill=230)
            cx = x
            for col, lines in zip(columns, heads, strict=True):
                for i, line in enumerate(lines):
                    self.text(
                        cx + col.width / 2, top + pad + hs * (0.85 + 1.2 * i), line, size=hs, style="B", align="C"
                    )
                cx += col.width
            self.pdf.set_line_width(0.4)
            self.pdf.line(x, top + h, x + total, top + h)
            return top + h

        def close(top: float, bottom: float) -> None:
            """Outer box and column rules for one page's segment of the table."""
            self.pdf.set_line_width(0.4)
            self.pdf.rect(x, top, total, bottom - top)
            cx = x
            for col in columns[:-1]:
                cx += col.width
                self.pdf.line(cx, top, cx, bottom)

        total = sum(c.width for c in columns)
        top = y
        y = header(y)
        for r, row in enumerate(rows):
            style = "B" if r in bold_rows else ""
            self.font(size, style)
            # a parsed Markdown row may hold fewer cells than the header, or more (the extra ones are dropped)
            cells = [self.wrap(v, c.width - 2 * pad) for c, v in zip(columns, row, strict=False)]
            h = max(len(c) for c in cells) * lead + 2 * pad - (lead - size)
            if y + h > self.bottom:
                close(top, y)
                top = self.new_page()
                y = header(top)
                self.font(size, style)
            cx = x
            for col, lines in zip(columns, cells, strict=False):
                for i, line in enumerate(lines):
                    base = y + pad + size * 0.8 + lead * i
                    if col.align == "R":
                        self.text(cx + col.width - pad, base, line, size=size, style=style, align="R")
                    elif col.align == "C":
                        self.text(cx + col.width / 2, base, line, size=size, style=style, align="C")
                    else:
                        self.text(cx + pad, base, line, size=size, style=style)
                cx += col.width
            y += h
            self.pdf.line(x, y, x + total, y)
        close(top, y)
        self.y = y
        return y

    def footer_all(self, left: str, *, size: float = 6.5) -> None:
        """Stamp ``left`` and "Page i of n" at the bottom of every page."""
        self.flush()
        n = self.pdf.pages_count
        for i in range(1, n + 1):
            self.pdf.page = i
            w, h = self.pdf.pages[i].dimensions()
            base = float(h) - self.MARGIN / 2
            self.text(self.left, base, left, size=size, style="")
            self.text(float(w) - self.MARGIN, base, f"Page {i} of {n}", size=size, style="", align="R")
            self.flush()
        self.pdf.page = n

    def output(self) -> bytes:
        self.flush()
        return bytes(self.pdf.output())
