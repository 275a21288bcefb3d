"""OCR for the document apps: text, tables and labelled key fields from PDF bytes alone.

``ocr_pdf(content)`` never touches the book: it reads the bytes with pdfplumber, rebuilds
reading-order lines from the glyphs (two or more spaces mark a column gap), lifts ruled
tables, guesses the document type from its wording and pulls the key fields a clerk would
read off the page by their printed labels. Amounts come back as plain decimal strings
("14350.00"), dates as ISO dates ("2026-01-12"). Unreadable input raises :class:`OcrError`.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal, InvalidOperation
from itertools import islice

import pdfplumber
from pdfminer.pdfdevice import PDFTextDevice
from pdfminer.pdfinterp import PDFPageInterpreter
from pdfminer.pdfpage import PDFPage

from cfab.apps.kit import CENT
from cfab.apps.ocr_budget import OcrBudgetExceeded, OcrLimits, budget
from cfab.schema.models import FrozenModel

DOC_TYPES = ("invoice", "coi", "lien_waiver", "pay_app", "wh347", "subcontract", "change_backup", "policy", "unknown")


class OcrError(ValueError):
    """The bytes are not a readable PDF (empty, not a PDF, truncated, encrypted, damaged)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class OcrTable(FrozenModel):
    """One ruled table: its 1-based page and its rows of cell strings."""

    page: int
    rows: list[list[str]]


class OcrResult(FrozenModel):
    """What reading a PDF yields: all text, page count, tables, labelled fields, type guess."""

    text: str
    pages: int
    tables: list[OcrTable]
    fields: dict[str, str]
    doc_type: str


# ------------------------------------------------------------------------------------------
# lines from glyphs
# ------------------------------------------------------------------------------------------
class _Glyph:
    """One run of text drawn by one string operator: baseline, left and right edges, size."""

    __slots__ = ("base", "x0", "x1", "size", "text")

    def __init__(self, base: float, x0: float, x1: float, size: float, text: str) -> None:
        self.base, self.x0, self.x1, self.size, self.text = base, x0, x1, size, text


class _GlyphDevice(PDFTextDevice):
    """A pdfminer text device that records runs of text and their positions, nothing else:
    one record per string (split at kerning moves) instead of a layout object per glyph,
    which makes a text-only read several times cheaper than pdfplumber's page layout."""

    def __init__(self, rsrcmgr) -> None:  # noqa: ANN001 - pdfminer type
        super().__init__(rsrcmgr)
        self.glyphs: list[_Glyph] = []

    def render_string_horizontal(
        self,
        seq,
        matrix,
        pos,
        font,
        fontsize,
        scaling,
        charspace,  # noqa: ANN001
        wordspace,
        rise,
        dxscale,
        ncs,
        graphicstate,
    ):
        a, b, c, d, e, f = matrix
        x, y = pos
        upright = b == 0 and c == 0 and a > 0
        needcharspace = False
        for obj in seq:
            if isinstance(obj, (int, float)):
                x -= obj * dxscale
                needcharspace = True
                continue
            if not isinstance(obj, bytes):
                continue
            start, parts = x, []
            for cid in font.decode(obj):
                if needcharspace:
                    x += charspace
                try:
                    parts.append(font.to_unichr(cid))
                except Exception:  # an unmapped glyph reads as a replacement character
                    parts.append("\ufffd")
                x += font.char_width(cid) * fontsize * scaling
                if cid == 32 and wordspace:
                    x += wordspace
                needcharspace = True
            if upright and parts:  # rotated stamps and vertical text are not fields
                self.glyphs.append(_Glyph(d * y + f, a * start + e, a * x + e, fontsize * a, "".join(parts)))
        return (x, y)


def _page_glyphs(pdf: pdfplumber.PDF, page: pdfplumber.page.Page) -> list[_Glyph]:
    device = _GlyphDevice(pdf.rsrcmgr)
    PDFPageInterpreter(pdf.rsrcmgr, device).process_page(page.page_obj)
    return device.glyphs


class _Line:
    """One baseline of text: its segments (x0, x1, text), split at column gaps."""

    __slots__ = ("segments",)

    def __init__(self, segments: list[tuple[float, float, str]]) -> None:
        self.segments = segments

    @property
    def text(self) -> str:
        return "  ".join(t for _, _, t in self.segments)


def _lines(glyphs: list[_Glyph]) -> list[_Line]:
    """Runs grouped into baselines (top to bottom) and segments (left to right): a gap wider
    than about four spaces starts a new segment, a smaller one is a word space."""
    groups: list[list[_Glyph]] = []
    for g in sorted(glyphs, key=lambda g: -g.base):
        if groups and abs(groups[-1][0].base - g.base) <= 2.0:
            groups[-1].append(g)
        else:
            groups.append([g])
    lines: list[_Line] = []
    for group in groups:
        group.sort(key=lambda g: g.x0)
        segments: list[list] = []  # [x0, x1, parts]
        prev: _Glyph | None = None
        for g in group:
            gap = g.x0 - prev.x1 if prev is not None else 0.0
            if prev is None or gap > max(g.size, prev.size) * 1.2:
                if g.text.isspace():
                    continue
                segments.append([g.x0, g.x1, [g.text]])
            else:
                segments[-1][1] = max(segments[-1][1], g.x1)
                parts = segments[-1][2]
                if gap > max(g.size, prev.size) * 0.15:
                    parts.append(" ")
                parts.append(g.text)
            prev = g
        segs = [(x0, x1, " ".join("".join(p).split())) for x0, x1, p in segments]
        segs = [seg for seg in segs if seg[2]]
        if segs:
            lines.append(_Line(segs))
    return lines


def _below(lines: list[_Line], label: str) -> str | None:
    """The text printed under a box label (ACORD style): the first later segment aligned
    with the label's left or right edge (within a few points)."""
    for i, line in enumerate(lines):
        for x0, x1, t in line.segments:
            if t == label:
                for nxt in lines[i + 1 : i + 6]:
                    for y0, y1, t2 in nxt.segments:
                        if abs(y0 - x0) <= 4 or abs(y1 - x1) <= 4:
                            return t2
                return None
    return None


# ------------------------------------------------------------------------------------------
# values
# ------------------------------------------------------------------------------------------
MONEY = r"(?:-\s?)?\(?-?\$\s?[\d,]*\d(?:\.\d+)?\)?"
DATE = r"\d{1,2}/\d{1,2}/\d{4}|\d{4}-\d{2}-\d{2}|[A-Z][a-z]+\.? \d{1,2}, \d{4}"
CODE = r"[A-Za-z0-9][A-Za-z0-9\-_/.#]*[A-Za-z0-9]|[A-Za-z0-9]"
TEXT = r"\S(?:.*?\S)?(?=\s{2,}|$)"
PCT = r"\d+(?:\.\d+)?\s?%"


def normalize_amount(raw: str) -> str:
    """``"$14,350.00"`` -> ``"14350.00"``; ``"($1,200)"`` / ``"-$1,200"`` -> ``"-1200.00"``."""
    s = raw.strip()
    negative = s.startswith("-") or (s.startswith("(") and s.endswith(")")) or "(" in s
    digits = re.sub(r"[^\d.]", "", s)
    try:
        value = Decimal(digits).quantize(CENT)
    except InvalidOperation:
        return s
    return str(-value if negative and value else value)


def normalize_date(raw: str) -> str:
    """US numeric, ISO or long dates -> ISO ``YYYY-MM-DD`` (unparseable text is returned as is)."""
    s = raw.strip().replace(".", "")
    for fmt in ("%m/%d/%Y", "%Y-%m-%d", "%B %d, %Y", "%b %d, %Y"):
        try:
            return datetime.strptime(s, fmt).date().isoformat()
        except ValueError:
            continue
    return raw.strip()


def normalize_pct(raw: str) -> str:
    return str(Decimal(raw.replace("%", "").strip()).quantize(CENT))


_NORMALIZE: dict[str, Callable[[str], str]] = {
    "money": normalize_amount,
    "date": normalize_date,
    "pct": normalize_pct,
    "text": str.strip,
}

# (field, pattern with one group, kind). First matching line wins.
Spec = tuple[str, str, str]
SPECS: dict[str, list[Spec]] = {
    "invoice": [
        ("invoice_number", rf"Invoice (?:No\.?|Number|#)\s*:?\s*({CODE})", "text"),
        ("invoice_date", rf"Invoice Date\s*:?\s*({DATE})", "date"),
        ("due_date", rf"Due Date\s*:?\s*({DATE})", "date"),
        ("terms", rf"Terms\s*:\s*({TEXT})", "text"),
        (
            "po_number",
            rf"(?:PO / Commitment No\.?|P\.?O\.? (?:No\.?|Number|#)|Purchase Order (?:No\.?|#)|"
            rf"Commitment No\.?)\s*:?\s*({CODE})",
            "text",
        ),
        ("pay_request_number", r"Pay Request No\.?\s*:\s*(\d+)", "text"),
        ("job_number", rf"Job (?:No\.?|Number|#)\s*:?\s*({CODE})", "text"),
        ("project", rf"Project\s*:\s*({TEXT})", "text"),
        ("cost_code", r"Cost Codes?\s*:?\s*(\d[\w.-]*(?:,\s*\d[\w.-]*)*)", "text"),
        ("period_start", rf"Billing Period\s*:?\s*({DATE})", "date"),
        ("period_end", rf"Billing Period\s*:?\s*(?:{DATE})\s*-\s*({DATE})", "date"),
        ("subtotal", rf"\bSubtotal\s*:?\s*({MONEY})", "money"),
        ("retainage", rf"Retainage(?: Held)?(?:\s*\([^)]*\))?\s*:\s*({MONEY})", "money"),
        ("total", rf"(?:Total Amount Due|Amount Due|Balance Due|Invoice Total|Total Due)\s*:?\s*({MONEY})", "money"),
    ],
    "coi": [
        ("certificate_number", rf"CERTIFICATE NUMBER\s*:\s*({CODE})", "text"),
    ],
    "lien_waiver": [
        ("claimant", rf"Name of Claimant\s*:\s*({TEXT})", "text"),
        ("customer", rf"Name of Customer\s*:\s*({TEXT})", "text"),
        ("job", rf"Job Location\s*:\s*Job\s*#\s*({CODE})", "text"),
        ("job_location", rf"Job Location\s*:\s*({TEXT})", "text"),
        ("owner", rf"^Owner\s*:\s*({TEXT})", "text"),
        ("through_date", rf"Through Date\s*:\s*({DATE})", "date"),
        ("invoice_number", rf"Invoice / Pay Request No\.?\s*:\s*({CODE})", "text"),
        (
            "amount",
            rf"(?:Amount of Check|Progress Payment Received|Amount of Final Payment|Payment Amount)"
            rf"\s*:\s*({MONEY})",
            "money",
        ),
        ("signer", rf"Print Name\s*:\s*({TEXT})", "text"),
        ("signed_date", rf"Date of Signature\s*:\s*({DATE})", "date"),
    ],
    "pay_app": [
        ("application_number", r"APPLICATION NO\.?\s*:\s*(\d+)", "text"),
        ("period_to", rf"PERIOD TO\s*:\s*({DATE})", "date"),
        ("contract_number", rf"CONTRACT NO\.?\s*:\s*({CODE})", "text"),
        ("project", rf"PROJECT\s*:\s*({TEXT})", "text"),
        ("original_contract_sum", rf"^1\.\s*ORIGINAL CONTRACT SUM.*?({MONEY})$", "money"),
        ("net_change_orders", rf"^2\.\s*NET CHANGE BY CHANGE ORDERS.*?({MONEY})$", "money"),
        ("contract_sum_to_date", rf"^3\.\s*CONTRACT SUM TO DATE.*?({MONEY})$", "money"),
        ("total_completed_stored", rf"^4\.\s*TOTAL COMPLETED & STORED TO DATE.*?({MONEY})$", "money"),
        ("retainage", rf"^5\.\s*TOTAL RETAINAGE.*?({MONEY})$", "money"),
        ("total_earned_less_retainage", rf"^6\.\s*TOTAL EARNED LESS RETAINAGE.*?({MONEY})$", "money"),
        ("previous_certificates", rf"^7\.\s*LESS PREVIOUS CERTIFICATES.*?({MONEY})$", "money"),
        ("current_payment_due", rf"^8\.\s*CURRENT PAYMENT DUE.*?({MONEY})$", "money"),
        ("balance_to_finish", rf"^9\.\s*BALANCE TO FINISH.*?({MONEY})$", "money"),
    ],
    "wh347": [
        ("contractor", rf"NAME OF CONTRACTOR.*?:\s*({TEXT})", "text"),
        ("payroll_number", r"PAYROLL NO\.?\s*:\s*(\d+)", "text"),
        ("week_ending", rf"FOR WEEK ENDING\s*:\s*({DATE})", "date"),
        ("project", rf"PROJECT AND LOCATION\s*:\s*({TEXT})", "text"),
        ("project_number", rf"PROJECT OR CONTRACT NO\.?\s*:\s*({CODE})", "text"),
        ("wage_determination", rf"WAGE DETERMINATION\s*:\s*({TEXT})", "text"),
    ],
    "subcontract": [
        ("contract_number", rf"(?:Subcontract|Purchase Order) No\.?\s*:\s*({CODE})", "text"),
        ("commitment_id", rf"Commitment ID\s*:\s*({CODE})", "text"),
        ("executed_date", rf"Agreement Date\s*:\s*({DATE})", "date"),
        ("job_number", rf"Job No\.?\s*:\s*({CODE})", "text"),
        ("subcontractor", rf"\b(?:SUBCONTRACTOR|SUPPLIER)\s*:\s*({TEXT})", "text"),
        ("amount", rf"^(?:Subcontract Sum|Purchase Order Total)\s*:\s*({MONEY})", "money"),
        ("retainage", rf"^Retainage\s*:\s*({PCT})", "pct"),
        ("approved_change_orders", rf"Approved Change Orders\s*:\s*({MONEY})", "money"),
        ("revised_amount", rf"Revised (?:Subcontract Sum|Purchase Order Total)\s*:\s*({MONEY})", "money"),
    ],
    "change_backup": [
        ("date", rf"^Date\s*:\s*({DATE})", "date"),
        ("from", rf"^From\s*:\s*({TEXT})", "text"),
        ("project", rf"^Project\s*:\s*({TEXT})", "text"),
        ("job_number", rf"^Project\s*:\s*({CODE})", "text"),
        ("change_event", rf"Change Event\s*:\s*({CODE})", "text"),
        ("subject", rf"^Subject\s*:\s*({TEXT})", "text"),
        ("amount", rf"^Amount\s*:\s*({MONEY})", "money"),
    ],
    "policy": [
        ("effective_date", rf"Effective\s+({DATE})", "date"),
    ],
}
_COMPILED = {k: [(f, re.compile(p), kind) for f, p, kind in v] for k, v in SPECS.items()}

_COI_ROW = re.compile(
    rf"^(?P<ltr>[A-F])\s+(?P<type>.+?)\s+(?P<policy>\S+)\s+(?P<eff>{DATE})\s+(?P<exp>{DATE})"
    rf"\s+(?P<label>.*?)\s*(?P<limit>{MONEY})$"
)
_MONEY_END = re.compile(rf"({MONEY})\s*$")
_INSURER = re.compile(rf"INSURER ([A-F])\s*:\s*({TEXT})")


def guess_doc_type(lines: list[str]) -> str:
    """The document family from its printed wording."""
    head = "\n".join(lines[:12]).upper()
    full = "\n".join(lines).upper()
    if "WH-347" in head or ("PAYROLL" in head and "STATEMENT OF COMPLIANCE" in full):
        return "wh347"
    if "APPLICATION AND CERTIFICATE FOR PAYMENT" in head:
        return "pay_app"
    if "CERTIFICATE OF LIABILITY INSURANCE" in head:
        return "coi"
    if "WAIVER AND RELEASE" in head:
        return "lien_waiver"
    if "SUBCONTRACT AGREEMENT" in head or re.search(r"^PURCHASE ORDER$", head, re.M):
        return "subcontract"
    if re.search(r"CHANGE DIRECTIVE|OWNER DIRECTIVE|INTERNAL MEMORANDUM|CONCEALED CONDITION|CHANGE EVENT:", head):
        return "change_backup"
    if re.search(r"\bINVOICE\b", head):
        return "invoice"
    if "POLICY" in head:
        return "policy"
    return "unknown"


def _first_segment(line: str) -> str:
    return re.split(r"\s{2,}", line.strip())[0]


def _coi_fields(rich: list[_Line], fields: dict[str, str]) -> None:
    lines = [ln.text for ln in rich]
    insurers = {m.group(1): m.group(2).strip() for ln in lines for m in [_INSURER.search(ln)] if m}
    for name, label in (
        ("insured", "INSURED"),
        ("certificate_holder", "CERTIFICATE HOLDER"),
        ("producer", "PRODUCER"),
        ("date", "DATE (MM/DD/YYYY)"),
    ):
        value = _below(rich, label)
        if value:
            fields[name] = normalize_date(value) if name == "date" else value
    n = 0
    for i, ln in enumerate(lines):
        m = _COI_ROW.match(ln)
        if not m:
            continue
        n += 1
        sfx = "" if n == 1 else f"_{n}"
        fields[f"coverage{sfx}"] = m.group("type").strip()
        fields[f"insurer{sfx}"] = insurers.get(m.group("ltr"), "")
        fields[f"policy_number{sfx}"] = m.group("policy")
        fields[f"effective_date{sfx}"] = normalize_date(m.group("eff"))
        fields[f"expiry_date{sfx}"] = normalize_date(m.group("exp"))
        fields[f"each_occurrence{sfx}"] = normalize_amount(m.group("limit"))
        nxt = _MONEY_END.search(lines[i + 1]) if i + 1 < len(lines) else None
        if nxt:
            fields[f"aggregate{sfx}"] = normalize_amount(nxt.group(1))
    if n:
        fields["coverage_count"] = str(n)


def extract_fields(rich: list[_Line], doc_type: str) -> dict[str, str]:
    """Key fields by their printed labels for one document type."""
    lines = [ln.text for ln in rich]
    fields: dict[str, str] = {}
    if doc_type == "invoice" and lines:
        first = _first_segment(lines[0])
        if first.upper() != "INVOICE":
            fields["vendor_name"] = first
    if doc_type == "coi":
        _coi_fields(rich, fields)
    if doc_type == "lien_waiver":
        for ln in lines[:6]:
            m = re.search(r"\b(CONDITIONAL|UNCONDITIONAL) WAIVER AND RELEASE (?:ON|UPON) (PROGRESS|FINAL) PAYMENT", ln)
            if m:
                fields["waiver_type"] = f"{m.group(1)}_{m.group(2)}".lower()
                break
    if doc_type == "policy" and len(lines) > 1:
        fields["title"] = _first_segment(lines[1])
    for name, rx, kind in _COMPILED.get(doc_type, []):
        if name in fields:
            continue
        for ln in lines:
            m = rx.search(ln)
            if m:
                fields[name] = _NORMALIZE[kind](m.group(1))
                break
    return fields


# ------------------------------------------------------------------------------------------
# entry point
# ------------------------------------------------------------------------------------------
_CACHE: OrderedDict[tuple[str, bool], OcrResult] = OrderedDict()
_CACHE_SIZE = 256
_REFUSED: OrderedDict[str, str] = OrderedDict()  # sha256 -> why the OCR budget refused those bytes


def _check(content: object) -> bytes:
    if isinstance(content, (bytearray, memoryview)):
        content = bytes(content)
    if not isinstance(content, bytes):
        raise OcrError(f"ocr_pdf expects the file's bytes, got {type(content).__name__}")
    if not content:
        raise OcrError("empty file: 0 bytes, expected a PDF")
    start = content.find(b"%PDF-", 0, 1024)
    if start < 0:
        head = content[:16].decode("latin-1", "replace")
        raise OcrError(f"not a PDF: the file does not start with a %PDF- header (starts {head!r})")
    if b"%%EOF" not in content[-2048:]:
        raise OcrError(f"truncated PDF: no %%EOF trailer in the last bytes of {len(content)} bytes")
    return content


def _check_counts(pdf: pdfplumber.PDF, limits: OcrLimits) -> None:
    """Refuse a PDF with more pages or objects than OCR reads (counted lazily, stopping at the limit)."""
    pages = sum(1 for _ in islice(PDFPage.create_pages(pdf.doc), limits.max_pages + 1))
    if pages > limits.max_pages:
        raise OcrBudgetExceeded(f"the PDF has more than the OCR limit of {limits.max_pages} pages")
    objects = 0
    for xref in pdf.doc.xrefs:
        objects += sum(1 for _ in islice(xref.get_objids(), limits.max_objects + 1 - objects))
        if objects > limits.max_objects:
            raise OcrBudgetExceeded(f"the PDF has more than the OCR limit of {limits.max_objects} objects")


def ocr_pdf(content: bytes, *, tables: bool = True, limits: OcrLimits | None = None) -> OcrResult:
    """Read a PDF's text, tables and labelled fields from its bytes (``tables=False`` skips
    the slower ruled-table pass; text and fields are the same either way).

    The read runs under an OCR budget (:class:`cfab.apps.ocr_budget.OcrLimits`: pages, objects,
    bytes inflated, content parsed, time); a PDF that needs more raises :class:`OcrError`."""
    data = _check(content)
    key = (hashlib.sha256(data).hexdigest(), tables)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    if limits is None and key[0] in _REFUSED:
        raise OcrError(_REFUSED[key[0]])
    page_lines: list[list[_Line]] = []
    found: list[OcrTable] = []
    try:
        with budget(limits) as usage, pdfplumber.open(io.BytesIO(data)) as pdf:
            _check_counts(pdf, usage.limits)
            if not pdf.pages:
                raise OcrError("the PDF has no pages")
            for number, page in enumerate(pdf.pages, start=1):
                page_lines.append(_lines(_page_glyphs(pdf, page)))
                if tables:
                    for table in page.extract_tables():
                        rows = [[" ".join((cell or "").split()) for cell in row] for row in table]
                        if rows:
                            found.append(OcrTable(page=number, rows=rows))
            usage.check()  # a budget error some library code caught and ignored still counts
    except OcrError:
        raise
    except OcrBudgetExceeded as exc:
        error = OcrError(f"too costly to read: {exc}")
        if limits is None:  # the same bytes fail the same way: do not spend the budget again
            _REFUSED[key[0]] = error.message
            if len(_REFUSED) > _CACHE_SIZE:
                _REFUSED.popitem(last=False)
        raise error from None
    except Exception as exc:  # pdfminer raises many types for damaged or encrypted files
        raise OcrError(f"unreadable PDF ({type(exc).__name__}): {exc}") from exc
    lines = [ln for page in page_lines for ln in page]
    doc_type = guess_doc_type([ln.text for ln in page_lines[0]] if page_lines else [])
    result = OcrResult(
        text="\n\n".join("\n".join(ln.text for ln in p) for p in page_lines),
        pages=len(page_lines),
        tables=found,
        fields=extract_fields(lines, doc_type),
        doc_type=doc_type,
    )
    _CACHE[key] = result
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return result
