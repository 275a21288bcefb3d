"""Workbook helpers for the Excel app: read, write and diff xlsx bytes deterministically.

Every function takes and returns bytes, so a workbook is a value the Docs/Office apps store
in their tables. Numbers are exact (Decimal in, Decimal out), formulas stay formulas
(``"=SUM(B2:B9)"``), and saving never stamps the wall clock: document properties are kept
and zip entries carry the workbook's own modified date. ``cells(content)`` is the relation
(sheet, cell, value, formula, data_type) a state diff addresses; ``read_range`` is what a
user sees, with formula results computed by a small evaluator (arithmetic, comparison,
``&``, SUM/MIN/MAX/AVERAGE/COUNT/ROUND/ABS/IF/IFERROR/AND/OR/NOT).

Budgets: :func:`check_workbook` counts a workbook's parts, unpacked bytes and cells from the
zip directory and the sheet XML (streamed, stopping at the limit) before anything parses it;
formulas are refused past Excel's own length and nesting limits; evaluation counts the cells it
visits (a range counts every cell in it) and resolves reference chains without recursion, so a
long chain or ``=SUM(A2:XFD1048576)`` is a clean :class:`XlsxError`, not a stall or a
RecursionError.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterable, Mapping
from datetime import date, datetime, time
from decimal import Decimal, DivisionByZero, InvalidOperation
from typing import Any

from openpyxl import Workbook, load_workbook
from openpyxl.utils import column_index_from_string, get_column_letter, range_boundaries
from openpyxl.utils.cell import coordinate_to_tuple
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.workbook import Workbook as WorkbookType
from openpyxl.writer.excel import ExcelWriter

from cfab.schema.models import FrozenModel

Value = None | bool | int | Decimal | str | datetime | date | time
MAX_RANGE_CELLS = 100_000
# budgets (the book's workbooks hold < 1,000 cells, < 64 KB of XML, formulas < 40 characters)
MAX_WORKBOOK_CELLS = 200_000  # cells a workbook may hold (counted from the XML before parsing)
MAX_XLSX_UNPACKED = 32 << 20  # bytes of all the zip's parts, as declared (reads stop there)
MAX_XLSX_PARTS = 1_000
MAX_WRITE_CELLS = 20_000  # cells one write may set
MAX_EVAL_CELLS = 1_000_000  # cells one read may visit computing formulas (ranges count every cell)
MAX_FORMULA_CHARS = 8_192  # Excel's own limits: 8,192 characters,
MAX_FORMULA_NESTING = 64  # 64 levels of parentheses and function calls
MAX_FORMULA_DEPTH = 200  # operator tree depth (a chain of 200 '+' terms)
_EPOCH = datetime(1980, 1, 1)
_CELL = re.compile(r"^\$?([A-Za-z]{1,3})\$?([1-9]\d{0,6})$")
_BAD_SHEET = re.compile(r"[\[\]:*?/\\]")


class XlsxError(ValueError):
    """Bad workbook bytes, an unknown sheet, a malformed range or cell, a bad formula."""


class Cell(FrozenModel):
    """One stored cell: a formula cell has ``formula`` set and ``value`` None (unless
    ``cells(..., evaluate=True)``)."""

    sheet: str
    cell: str
    value: Value = None
    formula: str | None = None
    data_type: str


# ------------------------------------------------------------------------------------------
# bytes in, bytes out
# ------------------------------------------------------------------------------------------
def _load(content: bytes, *, read_only: bool = False) -> WorkbookType:
    if not isinstance(content, (bytes, bytearray)):
        raise XlsxError(f"expected workbook bytes, got {type(content).__name__}")
    if not content:
        raise XlsxError("empty file: 0 bytes, expected an .xlsx workbook")
    check_workbook(content)
    try:
        return load_workbook(io.BytesIO(bytes(content)), data_only=False, read_only=read_only)
    except (zipfile.BadZipFile, InvalidFileException, KeyError, OSError, ValueError) as exc:
        raise XlsxError(f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from exc


_CELL_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c[\s/>]")


def check_workbook(content: bytes, *, max_cells: int = MAX_WORKBOOK_CELLS) -> int:
    """Check a workbook's size budgets without parsing it: at most :data:`MAX_XLSX_PARTS` zip
    parts and :data:`MAX_XLSX_UNPACKED` unpacked bytes (as the zip directory declares them; reading
    never goes past a declared size) and at most ``max_cells`` cells, counted by streaming the sheet
    XML and stopping at the limit. Returns the cell count; XlsxError says which budget failed."""
    try:
        with zipfile.ZipFile(io.BytesIO(bytes(content))) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_XLSX_PARTS:
                raise XlsxError(f"the workbook has {len(infos)} parts; at most {MAX_XLSX_PARTS} are read")
            unpacked = sum(i.file_size for i in infos)
            if unpacked > MAX_XLSX_UNPACKED:
                raise XlsxError(f"the workbook unpacks to {unpacked:,} bytes; at most {MAX_XLSX_UNPACKED:,} are read")
            total = 0
            for info in infos:
                if not (info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml")):
                    continue
                with archive.open(info) as fh:
                    tail = b""
                    while chunk := fh.read(1 << 20):
                        buf = tail + chunk
                        cut = buf.rfind(b"<", max(0, len(buf) - 64))  # a tag cut by the chunk end: next time
                        cut = len(buf) if cut < 0 else cut
                        total += len(_CELL_TAG.findall(buf, 0, cut))
                        tail = buf[cut:]
                        if total > max_cells:
                            break
                    total += len(_CELL_TAG.findall(tail))
                if total > max_cells:
                    raise XlsxError(f"the workbook holds more than {max_cells:,} cells, the limit for a workbook")
            return total
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, NotImplementedError, RuntimeError) as exc:
        raise XlsxError(f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from exc


def _save(wb: WorkbookType, when: date | datetime | None = None) -> bytes:
    """Serialize without touching document dates; zip entries stamped with the workbook date."""
    props = wb.properties
    if when is not None:
        stamp = when if isinstance(when, datetime) else datetime(when.year, when.month, when.day)
        props.created = props.modified = stamp
    props.created = props.created or _EPOCH
    props.modified = props.modified or props.created
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        ExcelWriter(wb, archive).save()
    stamp = props.modified
    entry_time = (max(stamp.year, 1980), stamp.month, stamp.day, 0, 0, 0)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=entry_time)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o600 << 16
            dst.writestr(entry, src.read(info.filename))
    return out.getvalue()


def _sheet(wb: WorkbookType, name: str):
    if name not in wb.sheetnames:
        raise XlsxError(f"no sheet named {name!r}; sheets are {wb.sheetnames}")
    return wb[name]


def _cell_ref(ref: str) -> str:
    m = _CELL.match(str(ref).strip())
    if not m or column_index_from_string(m.group(1).upper()) > 16384:
        raise XlsxError(f"bad cell reference {ref!r}: expected A1 style like 'B2'")
    return f"{m.group(1).upper()}{m.group(2)}"


def _store_value(value: Any) -> Any:
    """What goes into an openpyxl cell: Decimal kept exact, floats via their repr, formulas
    syntax-checked."""
    if isinstance(value, str) and value.startswith("=") and len(value) > 1:
        try:
            _Parser(value[1:]).parse()
        except _FormulaError as exc:
            raise XlsxError(f"bad formula {value!r}: {exc}") from exc
        return value
    if isinstance(value, float):
        return Decimal(repr(value))
    if value is None or isinstance(value, (bool, int, Decimal, str, datetime, date, time)):
        return value
    raise XlsxError(f"cannot write a {type(value).__name__} into a cell")


def _read_value(value: Any) -> Value:
    if isinstance(value, float):
        return Decimal(repr(value))
    return value


# ------------------------------------------------------------------------------------------
# public API
# ------------------------------------------------------------------------------------------
def list_sheets(content: bytes) -> list[str]:
    """Sheet names in workbook order (the workbook's budgets checked, its sheets not parsed)."""
    wb = _load(content, read_only=True)
    try:
        return list(wb.sheetnames)
    finally:
        wb.close()


def create_workbook(sheets: Mapping[str, Iterable[Iterable[Any]]], *, created: date | datetime | None = None) -> bytes:
    """A new workbook, one sheet per key, rows written from A1 (``"=..."`` is a formula)."""
    if not sheets:
        raise XlsxError("a workbook needs at least one sheet")
    wb = Workbook()
    wb.remove(wb.active)
    written = 0
    for name, rows in sheets.items():
        _check_sheet_name(wb, name)
        ws = wb.create_sheet(name)
        for row in rows:
            values = [_store_value(v) for v in row]
            written += len(values)
            _check_write_size(written)
            ws.append(values)
    return _save(wb, created or _EPOCH)


def _check_write_size(n: int) -> None:
    if n > MAX_WRITE_CELLS:
        raise XlsxError(f"one write may set at most {MAX_WRITE_CELLS:,} cells; split it into several")


def add_sheet(content: bytes, name: str) -> bytes:
    """The workbook with an empty sheet ``name`` appended."""
    wb = _load(content)
    _check_sheet_name(wb, name)
    wb.create_sheet(name)
    return _save(wb)


def write_cells(content: bytes, sheet: str, values: Mapping[str, Any]) -> bytes:
    """The workbook with ``values`` ({"B2": 14350.00, "C2": "=B2*0.1"}) written to ``sheet``."""
    if not values:
        raise XlsxError("write_cells needs at least one cell")
    _check_write_size(len(values))
    wb = _load(content)
    ws = _sheet(wb, sheet)
    for ref, value in values.items():
        ws[_cell_ref(ref)] = _store_value(value)
    if sum(len(w._cells) for w in wb.worksheets) > MAX_WORKBOOK_CELLS:
        raise XlsxError(f"the workbook would hold more than {MAX_WORKBOOK_CELLS:,} cells, the limit for a workbook")
    return _save(wb)


def read_range(content: bytes, sheet: str, a1_range: str, *, formulas: bool = False) -> list[list[Value]]:
    """Rows of values in ``a1_range`` ("A1:K20" or "B2"); formula cells show their computed
    result, or their formula text when ``formulas=True``."""
    wb = _load(content)
    ws = _sheet(wb, sheet)
    text = str(a1_range).strip()
    parts = text.split(":")
    if not 1 <= len(parts) <= 2:
        raise XlsxError(f"bad range {a1_range!r}: expected 'A1:C10' or 'B2'")
    first, last = _cell_ref(parts[0]), _cell_ref(parts[-1])
    min_col, min_row, max_col, max_row = range_boundaries(f"{first}:{last}")
    if min_col > max_col or min_row > max_row:
        raise XlsxError(f"bad range {a1_range!r}: the first cell must be above and left of the last")
    if (max_col - min_col + 1) * (max_row - min_row + 1) > MAX_RANGE_CELLS:
        raise XlsxError(f"range {a1_range!r} is larger than {MAX_RANGE_CELLS} cells; read it in parts")
    ev = _Evaluator(wb)
    stored = ws._cells  # read without creating cells (ws[coord] would add one per empty coordinate)
    out: list[list[Value]] = []
    for r in range(min_row, max_row + 1):
        row: list[Value] = []
        for c in range(min_col, max_col + 1):
            cell = stored.get((r, c))
            raw = None if cell is None else cell.value
            if formulas and _is_formula(raw):
                row.append(raw)
            elif _is_formula(raw):
                row.append(ev.value(ws.title, f"{get_column_letter(c)}{r}"))
            else:
                row.append(_read_value(raw))
        out.append(row)
    return out


def cells(content: bytes, *, evaluate: bool = False) -> list[Cell]:
    """Every non-empty cell, sheet by sheet in row-major order (the diffable relation)."""
    return _cells(_load(content), evaluate)


def sheets_and_cells(content: bytes, *, evaluate: bool = False) -> tuple[list[tuple[str, str]], list[Cell]]:
    """(sheet title, sheet state) in workbook order and :func:`cells`, from one parse."""
    wb = _load(content)
    return [(ws.title, ws.sheet_state) for ws in wb.worksheets], _cells(wb, evaluate, soft_budget=True)


def _cells(wb: WorkbookType, evaluate: bool, *, soft_budget: bool = False) -> list[Cell]:
    """The stored cells; with ``evaluate`` each formula cell carries its computed value. Past the
    evaluation budget a read raises, unless ``soft_budget``: then the formulas not yet computed
    carry None (deterministically: cells are computed in workbook order)."""
    ev = _Evaluator(wb) if evaluate else None
    out: list[Cell] = []
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                raw = cell.value
                if raw is None:
                    continue
                if _is_formula(raw):
                    value = None
                    if ev is not None:
                        try:
                            value = ev.value(ws.title, cell.coordinate)
                        except XlsxError:
                            if not soft_budget:
                                raise
                    out.append(Cell(sheet=ws.title, cell=cell.coordinate, value=value, formula=raw, data_type="f"))
                else:
                    out.append(
                        Cell(sheet=ws.title, cell=cell.coordinate, value=_read_value(raw), data_type=cell.data_type)
                    )
    return out


def _is_formula(raw: Any) -> bool:
    return isinstance(raw, str) and raw.startswith("=") and len(raw) > 1


def _check_sheet_name(wb: WorkbookType, name: str) -> None:
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name) > 31
        or _BAD_SHEET.search(name)
        or name.startswith("'")
        or name.endswith("'")
    ):
        raise XlsxError(f"bad sheet name {name!r}: 1-31 characters, none of []:*?/\\, no edge quotes")
    if name.lower() in (s.lower() for s in wb.sheetnames):
        raise XlsxError(f"a sheet named {name!r} already exists")


# ------------------------------------------------------------------------------------------
# formula evaluation
# ------------------------------------------------------------------------------------------
class _FormulaError(Exception):
    """A syntax error (at parse) or an Excel error value such as #DIV/0! (at evaluation)."""


_TOKEN = re.compile(
    r"""\s*(?:
    (?P<num>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)
  | (?P<str>"(?:[^"]|"")*")
  | (?P<ref>(?:(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)(?![\w(])
  | (?P<bool>TRUE|FALSE)(?![\w(])
  | (?P<func>[A-Za-z_][\w.]*)\s*\(
  | (?P<op><=|>=|<>|[-+*/^&=<>%(),])
)""",
    re.X | re.I,
)


class _Parser:
    """Recursive descent over Excel formula tokens into tuples (evaluated lazily)."""

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        self.nesting = 0
        if len(text) > MAX_FORMULA_CHARS:
            raise _FormulaError(f"the formula is {len(text)} characters long; Excel allows {MAX_FORMULA_CHARS}")
        pos, text = 0, text.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise _FormulaError(f"unexpected text at {text[pos : pos + 12]!r}")
            kind = m.lastgroup or "op"
            self.tokens.append((kind, m.group(kind)))
            pos = m.end()
        self.i = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if tok is None or (value is not None and tok != ("op", value)):
            raise _FormulaError(f"expected {value or 'a value'}, found {tok[1] if tok else 'end of formula'}")
        self.i += 1
        return tok

    def parse(self) -> tuple:
        node = self.binary(0)
        rest = self.peek()
        if rest is not None:
            raise _FormulaError(f"unexpected {rest[1]!r}")
        _check_depth(node)
        return node

    def enter(self) -> None:
        """One more level of parentheses, function call or sign (the parser recurses on each)."""
        self.nesting += 1
        if self.nesting > MAX_FORMULA_NESTING:
            raise _FormulaError(f"the formula nests deeper than {MAX_FORMULA_NESTING} levels")

    LEVELS = (("=", "<>", "<", ">", "<=", ">="), ("&",), ("+", "-"), ("*", "/"), ("^",))

    def binary(self, level: int) -> tuple:
        if level == len(self.LEVELS):
            return self.unary()
        node = self.binary(level + 1)
        while (tok := self.peek()) and tok[0] == "op" and tok[1] in self.LEVELS[level]:
            self.i += 1
            node = ("bin", tok[1], node, self.binary(level + 1))
        return node

    def unary(self) -> tuple:
        tok = self.peek()
        if tok in (("op", "-"), ("op", "+")):
            self.i += 1
            self.enter()
            inner = self.unary()
            self.nesting -= 1
            return ("neg", inner) if tok[1] == "-" else inner
        node = self.primary()
        while self.peek() == ("op", "%"):
            self.i += 1
            node = ("bin", "/", node, ("num", Decimal(100)))
        return node

    def primary(self) -> tuple:
        kind, text = self.take()
        if kind == "num":
            return ("num", Decimal(text))
        if kind == "str":
            return ("str", text[1:-1].replace('""', '"'))
        if kind == "bool":
            return ("bool", text.upper() == "TRUE")
        if kind == "ref":
            sheet, _, cells_ = text.rpartition("!")
            return ("ref", sheet.strip("'").replace("''", "'") or None, cells_.replace("$", "").upper())
        if kind == "func":
            self.enter()
            args: list[tuple] = []
            if self.peek() != ("op", ")"):
                args.append(self.binary(0))
                while self.peek() == ("op", ","):
                    self.i += 1
                    args.append(self.binary(0))
            self.take(")")
            self.nesting -= 1
            return ("call", text.upper(), args)
        if (kind, text) == ("op", "("):
            self.enter()
            node = self.binary(0)
            self.take(")")
            self.nesting -= 1
            return node
        raise _FormulaError(f"unexpected {text!r}")


def _check_depth(root: tuple) -> None:
    """Refuse an operator tree deeper than :data:`MAX_FORMULA_DEPTH` (walked without recursion:
    ``1+1+...`` parses in a loop but evaluates recursively, one level per operator)."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_FORMULA_DEPTH:
            raise _FormulaError(f"the formula is more than {MAX_FORMULA_DEPTH} operations deep")
        kind = node[0]
        if kind == "neg":
            stack.append((node[1], depth + 1))
        elif kind == "bin":
            stack += [(node[2], depth + 1), (node[3], depth + 1)]
        elif kind == "call":
            stack += [(arg, depth + 1) for arg in node[2]]


def _num(v: Any) -> Decimal:
    if isinstance(v, bool):
        return Decimal(int(v))
    if isinstance(v, (int, Decimal)):
        return Decimal(v)
    if v is None or v == "":
        return Decimal(0)
    if isinstance(v, str):
        try:
            return Decimal(v.strip())
        except InvalidOperation:
            raise _FormulaError("#VALUE!") from None
    raise _FormulaError("#VALUE!")


def _nums(values: list[Any]) -> list[Decimal]:
    return [Decimal(v) for v in values if isinstance(v, (int, Decimal)) and not isinstance(v, bool)]


class _Evaluator:
    """Computes formula cells on demand with memoization and cycle detection, within a budget
    of :data:`MAX_EVAL_CELLS` cell visits. A formula's references are settled first, bottom-up
    on an explicit stack, so a chain of any length evaluates without deep recursion."""

    def __init__(self, wb: WorkbookType, *, max_cells: int = MAX_EVAL_CELLS) -> None:
        self.wb = wb
        self.memo: dict[tuple[str, str], Value] = {}
        self.active: set[tuple[str, str]] = set()
        self.visited = 0
        self.max_cells = max_cells
        self._asts: dict[tuple[str, str], tuple | _FormulaError] = {}
        self._formula_cells: dict[str, list[tuple[int, int, str]]] = {}

    # ------------------------------------------------------------------ cells
    def _visit(self, n: int = 1) -> None:
        self.visited += n
        if self.visited > self.max_cells:
            raise XlsxError(
                f"computing the formulas needs more than {self.max_cells:,} cell reads (a range "
                "counts every cell in it); read a smaller range or narrow the formula's ranges"
            )

    def _raw(self, sheet: str, coord: str) -> Any:
        """A stored cell's raw value without creating the cell (openpyxl's ws[coord] would)."""
        self._visit()
        if sheet not in self.wb.sheetnames:
            raise _FormulaError("#REF!")
        row, col = coordinate_to_tuple(coord)
        cell = self.wb[sheet]._cells.get((row, col))
        return None if cell is None else cell.value

    def _ast(self, key: tuple[str, str], raw: str) -> tuple:
        ast = self._asts.get(key)
        if ast is None:
            try:
                ast = _Parser(raw[1:]).parse()
            except _FormulaError as exc:
                ast = exc
            self._asts[key] = ast
        if isinstance(ast, _FormulaError):
            raise ast
        return ast

    def _formulas_in(self, sheet: str) -> list[tuple[int, int, str]]:
        """(row, column, coordinate) of every formula cell of ``sheet``."""
        found = self._formula_cells.get(sheet)
        if found is None:
            ws = self.wb[sheet]
            found = sorted((r, c, cell.coordinate) for (r, c), cell in ws._cells.items() if _is_formula(cell.value))
            self._visit(len(ws._cells))
            self._formula_cells[sheet] = found
        return found

    def _deps(self, key: tuple[str, str], raw: str) -> list[tuple[str, str]]:
        """The formula cells a formula refers to (plain cells need no settling)."""
        try:
            ast = self._ast(key, raw)
        except _FormulaError:
            return []
        out: list[tuple[str, str]] = []
        stack = [ast]
        while stack:
            node = stack.pop()
            kind = node[0]
            if kind == "ref":
                target = node[1] or key[0]
                if target not in self.wb.sheetnames:
                    continue
                if ":" not in node[2]:
                    out.append((target, node[2]))
                    continue
                c1, r1, c2, r2 = range_boundaries(node[2])
                cells_ = self._formulas_in(target)
                self._visit(len(cells_))
                out += [(target, coord) for r, c, coord in cells_ if r1 <= r <= r2 and c1 <= c <= c2]
            elif kind == "neg":
                stack.append(node[1])
            elif kind == "bin":
                stack += [node[2], node[3]]
            elif kind == "call":
                stack += node[2]
        return out

    # ------------------------------------------------------------------ values
    def value(self, sheet: str, coord: str) -> Value:
        key = (sheet, coord)
        if key in self.memo:
            return self.memo[key]
        raw = self._raw(sheet, coord)
        if not _is_formula(raw):
            return _read_value(raw)
        if key in self.active:
            return "#CIRC!"
        self._settle(key, raw)
        return self.memo[key]

    def _settle(self, root: tuple[str, str], raw: str) -> None:
        """Compute ``root`` after every formula it depends on, deepest first (an explicit stack:
        no recursion however long the chain). A reference back into the stack is a cycle."""
        self.active.add(root)
        stack = [(root, raw, iter(self._deps(root, raw)))]
        try:
            while stack:
                key, text, pending = stack[-1]
                for dep in pending:
                    if dep in self.memo or dep in self.active:
                        continue
                    dep_raw = self._raw(*dep)
                    if _is_formula(dep_raw):
                        self.active.add(dep)
                        stack.append((dep, dep_raw, iter(self._deps(dep, dep_raw))))
                        break
                else:
                    stack.pop()
                    self.memo[key] = self._compute(key, text)
                    self.active.discard(key)
        finally:
            for key, _, _ in stack:
                self.active.discard(key)

    def _compute(self, key: tuple[str, str], raw: str) -> Value:
        try:
            result: Value = self.eval(self._ast(key, raw), key[0])
            if isinstance(result, list):
                result = result[0] if result else None
        except _FormulaError as exc:
            result = str(exc) if str(exc).startswith("#") else "#NAME?"
        except (DivisionByZero, InvalidOperation, ZeroDivisionError):
            result = "#DIV/0!"
        return result

    def eval(self, node: tuple, sheet: str) -> Any:
        kind = node[0]
        if kind in ("num", "str", "bool"):
            return node[1]
        if kind == "ref":
            target = node[1] or sheet
            if ":" not in node[2]:
                v = self.value(target, node[2])
                if isinstance(v, str) and v.startswith("#"):
                    raise _FormulaError(v)
                return v
            c1, r1, c2, r2 = range_boundaries(node[2])
            if self.visited + (c2 - c1 + 1) * (r2 - r1 + 1) > self.max_cells:
                self._visit((c2 - c1 + 1) * (r2 - r1 + 1))  # refused before walking it
            return [
                self.value(target, f"{get_column_letter(c)}{r}") for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)
            ]
        if kind == "neg":
            return -_num(self.eval(node[1], sheet))
        if kind == "bin":
            return self.binop(node[1], self.eval(node[2], sheet), self.eval(node[3], sheet))
        return self.call(node[1], node[2], sheet)

    @staticmethod
    def binop(op: str, a: Any, b: Any) -> Any:
        if op == "&":
            return f"{'' if a is None else a}{'' if b is None else b}"
        if op in ("=", "<>", "<", ">", "<=", ">="):
            if isinstance(a, str) or isinstance(b, str):
                a, b = str(a or "").lower(), str(b or "").lower()
            else:
                a, b = _num(a), _num(b)
            return {"=": a == b, "<>": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
        x, y = _num(a), _num(b)
        if op == "+":
            return x + y
        if op == "-":
            return x - y
        if op == "*":
            return x * y
        if op == "/":
            if y == 0:
                raise _FormulaError("#DIV/0!")
            return x / y
        return x**y

    def call(self, name: str, args: list[tuple], sheet: str) -> Any:
        if name == "IF":
            if not 2 <= len(args) <= 3:
                raise _FormulaError("#VALUE!")
            cond = self.eval(args[0], sheet)
            branch = args[1] if _num(cond) != 0 else (args[2] if len(args) == 3 else None)
            return False if branch is None else self.eval(branch, sheet)
        if name == "IFERROR":
            try:
                return self.eval(args[0], sheet)
            except (_FormulaError, DivisionByZero, InvalidOperation):
                return self.eval(args[1], sheet)
        direct = [self.eval(arg, sheet) for arg in args]
        flat = [x for v in direct for x in (v if isinstance(v, list) else [v])]
        errors = [v for v in flat if isinstance(v, str) and v.startswith("#")]
        if errors:
            raise _FormulaError(errors[0])
        if name in ("ROUND", "ABS", "NOT") and (not direct or any(isinstance(v, list) for v in direct)):
            raise _FormulaError("#VALUE!")
        if name == "SUM":
            return sum(_nums(flat), Decimal(0))
        if name in ("MIN", "MAX"):
            nums = _nums(flat)
            return (min(nums) if name == "MIN" else max(nums)) if nums else Decimal(0)
        if name == "AVERAGE":
            nums = _nums(flat)
            if not nums:
                raise _FormulaError("#DIV/0!")
            return sum(nums, Decimal(0)) / len(nums)
        if name == "COUNT":
            return Decimal(len(_nums(flat)))
        if name == "ROUND":
            places = int(_num(direct[1])) if len(direct) > 1 else 0
            return _num(direct[0]).quantize(Decimal(1).scaleb(-places), rounding="ROUND_HALF_UP")
        if name == "ABS":
            return abs(_num(direct[0]))
        if name == "AND":
            return all(_num(v) != 0 for v in flat)
        if name == "OR":
            return any(_num(v) != 0 for v in flat)
        if name == "NOT":
            return _num(direct[0]) == 0
        raise _FormulaError("#NAME?")
