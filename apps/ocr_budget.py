"""A work budget for one OCR call: what a hostile PDF may cost before reading stops.

pdfminer decodes every stream it touches whole and in pure Python: a 2 MB upload whose
content stream is deflated zeros inflates to gigabytes, a Form XObject that draws another twice
at forty levels runs 2^40 content streams, and a ``bfrange`` of four-byte codes loops four
billion times. :func:`budget` activates an :class:`OcrLimits` for the calls made inside it on
this thread (a context variable); while it is active every stream filter counts the bytes it
produces *as it produces them* (deflate and LZW in chunks, so no single stream can overshoot),
predictors count their input, the interpreter counts content streams run and bytes parsed, and
CMaps count their entries. Past a limit :class:`OcrBudgetExceeded` is raised and the OCR call
fails cleanly. A wall-clock deadline (an asynchronous exception delivered to the reading thread)
backs the counters up for whatever pure-Python loop they do not cover.

The hooks wrap pdfminer's own functions (installed once, on import) and do exactly what the
originals do when no budget is active, so any other use of pdfminer in the process is unchanged.
"""

from __future__ import annotations

import contextvars
import ctypes
import io
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from pdfminer import cmapdb, pdfinterp, pdftypes

__all__ = ["OcrBudgetExceeded", "OcrLimits", "OcrUsage", "budget", "charge"]

_CHUNK = 1 << 16


class OcrBudgetExceeded(Exception):
    """Reading the PDF would cost more than the OCR budget allows."""


@dataclass(frozen=True)
class OcrLimits:
    """Per-call ceilings. A real invoice, COI or pay app uses well under 1% of each."""

    max_pages: int = 200
    max_objects: int = 200_000  # xref entries
    max_decoded_bytes: int = 32 << 20  # bytes all stream filters produce, summed (book PDFs: < 32 KB)
    max_predictor_bytes: int = 4 << 20  # bytes run through the (per-byte Python) predictors
    max_content_bytes: int = 4 << 20  # content-stream bytes parsed, a Form counted at every use (< 64 KB)
    max_renders: int = 5_000  # content streams run: pages and Form XObjects (< 10)
    max_cmap_entries: int = 500_000  # CMap / ToUnicode entries defined
    max_seconds: float = 20.0  # backstop for loops no counter covers


@dataclass
class OcrUsage:
    """What one call used so far (tests read it to check the budgets stop work early)."""

    limits: OcrLimits
    decoded_bytes: int = 0
    predictor_bytes: int = 0
    content_bytes: int = 0
    renders: int = 0
    cmap_entries: int = 0
    exceeded: str | None = None  # the first limit passed (sticky: later checks raise it again)

    def add(self, what: str, n: int) -> None:
        value = getattr(self, what) + n
        setattr(self, what, value)
        limit = getattr(self.limits, "max_" + what)
        if value > limit:
            self.exceeded = self.exceeded or (
                f"the PDF needs more than the OCR limit of {limit:,} {what.replace('_', ' ')}"
            )
        self.check()

    def check(self) -> None:
        if self.exceeded is not None:
            raise OcrBudgetExceeded(self.exceeded)


_ACTIVE: contextvars.ContextVar[OcrUsage | None] = contextvars.ContextVar("cfab_ocr_budget", default=None)


def charge(what: str, n: int) -> None:
    """Count ``n`` units of ``what`` against the active budget (no-op without one)."""
    usage = _ACTIVE.get()
    if usage is not None:
        usage.add(what, n)


@contextmanager
def budget(limits: OcrLimits | None = None) -> Iterator[OcrUsage]:
    """Run the body under ``limits``; raises :class:`OcrBudgetExceeded` when one is passed."""
    usage = OcrUsage(limits or OcrLimits())
    token = _ACTIVE.set(usage)
    try:
        with _deadline(usage.limits.max_seconds):
            yield usage
    finally:
        _ACTIVE.reset(token)


# ------------------------------------------------------------------------------------------
# the deadline
# ------------------------------------------------------------------------------------------
class _Timeout(BaseException):
    """Delivered asynchronously to the reading thread (a BaseException, so no broad
    ``except Exception`` inside pdfminer swallows it)."""


_SET_ASYNC_EXC = ctypes.pythonapi.PyThreadState_SetAsyncExc
_SET_ASYNC_EXC.argtypes = (ctypes.c_ulong, ctypes.py_object)


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    ident = threading.get_ident()
    lock = threading.Lock()
    state = {"done": False, "fired": False}

    def fire() -> None:
        with lock:
            if not state["done"]:
                state["fired"] = True
                _SET_ASYNC_EXC(ident, _Timeout)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        try:
            yield
        finally:
            with lock:
                state["done"] = True
            timer.cancel()
            if state["fired"]:  # clear a timeout that had not been raised yet
                _SET_ASYNC_EXC(ident, ctypes.py_object())
    except _Timeout:
        raise OcrBudgetExceeded(f"reading the PDF took longer than the OCR limit of {seconds:g} s") from None


# ------------------------------------------------------------------------------------------
# bounded filters (used only while a budget is active)
# ------------------------------------------------------------------------------------------
def _inflate(data: bytes, usage: OcrUsage, *, tolerant: bool) -> bytes:
    """zlib inflate in bounded chunks; ``tolerant``: keep what decoded before an error (pdfminer's
    decompress_corrupted)."""
    d = zlib.decompressobj()
    out: list[bytes] = []
    try:
        for start in range(0, len(data), _CHUNK):
            buf = data[start : start + _CHUNK]
            while buf:
                piece = d.decompress(buf, _CHUNK)
                usage.add("decoded_bytes", len(piece))
                out.append(piece)
                buf = d.unconsumed_tail
            if d.eof:
                break
        if not d.eof and not tolerant:
            tail = d.flush()
            usage.add("decoded_bytes", len(tail))
            out.append(tail)
            if not d.eof:
                raise zlib.error("Error -5 while decompressing data: incomplete or truncated stream")
    except zlib.error:
        if not tolerant:
            raise
    return b"".join(out)


class _ZlibShim(ModuleType):
    """What ``pdfminer.pdftypes`` sees as ``zlib``: the module, with a bounded decompress."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__("zlib")
        self.__dict__.update(attrs)

    def __getattr__(self, name: str) -> Any:
        return getattr(zlib, name)


def _decompress(data: bytes, *args: Any, **kw: Any) -> bytes:
    usage = _ACTIVE.get()
    if usage is None or args or kw:
        return zlib.decompress(data, *args, **kw)
    return _inflate(data, usage, tolerant=False)


_ORIG = {
    name: getattr(pdftypes, name)
    for name in (
        "decompress_corrupted",
        "lzwdecode",
        "rldecode",
        "ascii85decode",
        "asciihexdecode",
        "ccittfaxdecode",
        "apply_png_predictor",
        "apply_tiff_predictor",
    )
}


def _decompress_corrupted(data: bytes) -> bytes:
    usage = _ACTIVE.get()
    if usage is None:
        return _ORIG["decompress_corrupted"](data)
    return _inflate(data, usage, tolerant=True)


def _lzwdecode(data: bytes) -> bytes:
    usage = _ACTIVE.get()
    if usage is None:
        return _ORIG["lzwdecode"](data)
    from pdfminer.lzw import LZWDecoder

    out = []
    for piece in LZWDecoder(io.BytesIO(data)).run():
        usage.add("decoded_bytes", len(piece))
        out.append(piece)
    return b"".join(out)


def _rldecode(data: bytes) -> bytes:
    usage = _ACTIVE.get()
    if usage is None:
        return _ORIG["rldecode"](data)
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        length = data[i]
        i += 1
        if length == 128:
            break
        if length < 128:
            piece = data[i : i + length + 1]
            if len(piece) < length + 1:
                raise StopIteration  # what pdfminer's decoder raises on truncated data
            i += length + 1
        else:
            if i >= n:
                raise StopIteration
            piece = data[i : i + 1] * (257 - length)
            i += 1
        usage.add("decoded_bytes", len(piece))
        out += piece
    return bytes(out)


def _counted(name: str) -> Any:
    original = _ORIG[name]

    def wrapper(data: bytes, *args: Any) -> bytes:
        usage = _ACTIVE.get()
        if usage is None:
            return original(data, *args)
        if name == "ccittfaxdecode":  # image data; text extraction never needs it
            raise OcrBudgetExceeded("CCITTFax-encoded content streams are not read by OCR")
        result = original(data, *args)
        usage.add("decoded_bytes", len(result))
        return result

    return wrapper


def _predictor(name: str) -> Any:
    original = _ORIG[name]

    def wrapper(*args: Any) -> bytes:
        usage = _ACTIVE.get()
        if usage is not None:
            usage.add("predictor_bytes", len(args[-1]))
        return original(*args)

    return wrapper


# ------------------------------------------------------------------------------------------
# interpreter and CMaps
# ------------------------------------------------------------------------------------------
_EXECUTE = pdfinterp.PDFPageInterpreter.execute


def _execute(self: pdfinterp.PDFPageInterpreter, streams: Any) -> None:
    usage = _ACTIVE.get()
    if usage is not None:
        usage.add("renders", 1)
        for obj in streams:
            stream = pdftypes.stream_value(obj)
            if stream.objid is not None:
                usage.add("content_bytes", len(stream.get_data() or b""))
    return _EXECUTE(self, streams)


def _cmap_counter(cls: type, method: str) -> None:
    original = getattr(cls, method)

    def wrapper(self: Any, *args: Any) -> None:
        usage = _ACTIVE.get()
        if usage is not None:
            usage.add("cmap_entries", 1)
        return original(self, *args)

    wrapper.__wrapped__ = original  # type: ignore[attr-defined]
    setattr(cls, method, wrapper)


def _install() -> None:
    if getattr(pdftypes, "_cfab_budget_installed", False):
        return
    pdftypes.zlib = _ZlibShim(decompress=_decompress, error=zlib.error, decompressobj=zlib.decompressobj)
    pdftypes.decompress_corrupted = _decompress_corrupted
    pdftypes.lzwdecode = _lzwdecode
    pdftypes.rldecode = _rldecode
    for name in ("ascii85decode", "asciihexdecode", "ccittfaxdecode"):
        setattr(pdftypes, name, _counted(name))
    for name in ("apply_png_predictor", "apply_tiff_predictor"):
        setattr(pdftypes, name, _predictor(name))
    pdfinterp.PDFPageInterpreter.execute = _execute  # type: ignore[method-assign]
    _cmap_counter(cmapdb.FileUnicodeMap, "add_cid2unichr")
    _cmap_counter(cmapdb.FileCMap, "add_code2cid")
    pdftypes._cfab_budget_installed = True  # type: ignore[attr-defined]


_install()
