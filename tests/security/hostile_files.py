"""Small hostile files built in memory: PDFs whose streams, forms or CMaps cost far more to read
than their size, and xlsx workbooks that declare or hold more cells than a tool reads.

Everything here is cheap to build (a few MB at most): the point of the budgets is that reading
stops long before the cost the file asks for.
"""

from __future__ import annotations

import io
import zipfile
import zlib


def pdf(objects: list[bytes], *, root: int = 1) -> bytes:
    """A well-formed PDF of ``objects`` (object ``i + 1`` is ``objects[i]``) with an xref table."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % i + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    out.write(b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, xref))
    return out.getvalue()


def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def one_page(
    content_obj: bytes, *, resources: bytes = b"<< /Font << /F1 4 0 R >> >>", more: list[bytes] | None = None
) -> bytes:
    """Catalog (1), pages (2), a page (3) with ``resources``, a font (4), its content (5), then ``more``."""
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources " + resources + b" /Contents 5 0 R >>",
            FONT,
            content_obj,
            *(more or []),
        ]
    )


def text_pdf(text: str = "INVOICE  Invoice No: T-1") -> bytes:
    """A one-page PDF that reads back as ``text``."""
    body = b"BT /F1 12 Tf 72 720 Td (" + text.encode("latin-1") + b") Tj ET"
    return one_page(stream(body))


def deflated_zeros(size: int, chunk: int = 1 << 20) -> bytes:
    """A valid zlib stream inflating to ``size`` spaces (a multiple of ``chunk``), about 1 KB per
    MB: one chunk is compressed once and its full-flushed deflate blocks repeated, then an empty
    final block and the Adler-32 of the whole are appended. Nothing of ``size`` is allocated."""
    block = b" " * chunk
    comp = zlib.compressobj(9)
    head = comp.compress(block) + comp.flush(zlib.Z_FULL_FLUSH)  # 2-byte header + deflate blocks
    body = head[2:]
    adler = 1
    for _ in range(size // chunk):
        adler = zlib.adler32(block, adler)
    return head[:2] + body * (size // chunk) + b"\x03\x00" + adler.to_bytes(4, "big")


def inflation_bomb(size: int = 1 << 30) -> bytes:
    """One page whose content stream inflates to ``size`` bytes (a 1 GiB stream is ~1 MB)."""
    return one_page(stream(deflated_zeros(size), b"/Filter /FlateDecode"))


def nested_flate_bomb(size: int = 1 << 32) -> bytes:
    """A content stream deflated twice: a few KB that inflate to ``size`` bytes in two steps."""
    inner = deflated_zeros(min(size, 1 << 30))  # (the outer layer multiplies; the inner stays ~1 MB)
    return one_page(stream(zlib.compress(inner, 9), b"/Filter [/FlateDecode /FlateDecode]"))


def form_fanout_bomb(levels: int = 40, fanout: int = 2) -> bytes:
    """Form XObject i draws form i+1 ``fanout`` times: ``fanout ** levels`` content streams to run."""
    first = 6
    forms = []
    for i in range(levels):
        if i + 1 < levels:
            body = b" ".join([b"/X Do"] * fanout)
            res = b"<< /XObject << /X %d 0 R >> >>" % (first + i + 1)
        else:
            body, res = b"BT /F1 12 Tf (x) Tj ET", b"<< /Font << /F1 4 0 R >> >>"
        forms.append(stream(body, b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources " + res))
    return one_page(
        stream(b"/X Do"), resources=b"<< /XObject << /X %d 0 R >> /Font << /F1 4 0 R >> >>" % first, more=forms
    )


def cmap_range_bomb() -> bytes:
    """A font whose ToUnicode CMap maps a bfrange of four-byte codes: 2^32 entries from 60 bytes."""
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        b"1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange\n"
        b"1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange\n"
        b"endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>"
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>",
        font,
        stream(b"BT /F1 12 Tf 72 720 Td (A) Tj ET"),
        stream(cmap),
    ]
    return pdf(objs)


def many_pages(n: int) -> bytes:
    """``n`` pages sharing one tiny content stream."""
    kids = b" ".join(b"%d 0 R" % (5 + i) for i in range(n))
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % n,
        FONT,
        stream(b"BT /F1 12 Tf 72 720 Td (p) Tj ET"),
    ]
    objs += [
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
        b"/Contents 4 0 R >>"
    ] * n
    return pdf(objs)


# ------------------------------------------------------------------------------------------ xlsx
_CT = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    b'<Default Extension="xml" ContentType="application/xml"/>'
    b'<Override PartName="/xl/workbook.xml" '
    b'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    b'<Override PartName="/xl/worksheets/sheet1.xml" '
    b'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
)
_RELS = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    b'officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
_WB = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    b'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    b'<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WB_RELS = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    b'worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
)


def xlsx_with_rows(rows: int, cols: int = 1, *, dimension: str | None = None) -> bytes:
    """A minimal xlsx whose one sheet holds ``rows`` x ``cols`` numeric cells (deflated, so 8 M
    cells are a few MB of zip at most), optionally declaring ``dimension`` (e.g. "A1:A1")."""
    from openpyxl.utils import get_column_letter

    letters = [get_column_letter(c + 1) for c in range(cols)]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CT)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", _WB)
        z.writestr("xl/_rels/workbook.xml.rels", _WB_RELS)
        with z.open("xl/worksheets/sheet1.xml", "w") as fh:
            fh.write(
                b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            )
            if dimension:
                fh.write(b'<dimension ref="%s"/>' % dimension.encode())
            fh.write(b"<sheetData>")
            for r in range(1, rows + 1):
                fh.write(
                    b'<row r="%d">' % r
                    + b"".join(b'<c r="%s%d"><v>1</v></c>' % (c.encode(), r) for c in letters)
                    + b"</row>"
                )
            fh.write(b"</sheetData></worksheet>")
    return buf.getvalue()
