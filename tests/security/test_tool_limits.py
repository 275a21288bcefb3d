"""Native tools under budgets (issue 16, root cause 4): hostile PDFs and workbooks stop early and
come back as clean tool errors.

Every case counts work, not time: a budget must stop reading after at most its limit (plus one
chunk), however much the file asks for. The one wall-clock case runs a loop no machine finishes
in its limit (2^32 iterations against half a second).
"""

from __future__ import annotations

import base64
import contextlib
import io
from pathlib import Path

import pytest

from cfab.apps import ocr, ocr_budget, xlsx
from cfab.apps.ocr import OcrError, ocr_pdf
from cfab.apps.ocr_budget import OcrLimits
from cfab.apps.world.environment import Environment
from cfab.apps.xlsx import XlsxError, create_workbook, read_range, write_cells

from . import hostile_files as hf


@pytest.fixture()
def usages(monkeypatch: pytest.MonkeyPatch) -> list[ocr_budget.OcrUsage]:
    """Every OCR budget opened during the test, to check what a refused read actually spent."""
    seen: list[ocr_budget.OcrUsage] = []
    real = ocr_budget.budget

    @contextlib.contextmanager
    def spy(limits: OcrLimits | None = None):
        with real(limits) as usage:
            seen.append(usage)
            yield usage

    monkeypatch.setattr(ocr, "budget", spy)
    return seen


def test_a_plain_pdf_reads_within_the_budget(usages) -> None:
    res = ocr_pdf(hf.text_pdf("INVOICE  Invoice No: T-77"))
    assert res.fields["invoice_number"] == "T-77" and res.pages == 1
    usage = usages[-1]
    assert usage.exceeded is None and usage.decoded_bytes < 1_000 and usage.renders == 2  # text pass + table pass


@pytest.mark.parametrize(
    "make", [lambda: hf.inflation_bomb(1 << 30), hf.nested_flate_bomb], ids=["1GiB-stream", "deflated-twice-4GiB"]
)
def test_inflation_stops_at_the_decoded_bytes_limit(make, usages) -> None:
    data = make()
    assert len(data) < 2 << 20
    with pytest.raises(OcrError, match="too costly to read.*decoded bytes"):
        ocr_pdf(data)
    limit = OcrLimits().max_decoded_bytes
    assert limit < usages[-1].decoded_bytes <= limit + (1 << 16)  # stopped within one chunk of the limit


def test_form_xobject_fanout_stops_at_the_render_limit(usages) -> None:
    with pytest.raises(OcrError, match="renders"):
        ocr_pdf(hf.form_fanout_bomb(levels=40))  # 2^40 content streams asked for
    assert usages[-1].renders == OcrLimits().max_renders + 1


def test_cmap_range_stops_at_the_entry_limit(usages) -> None:
    with pytest.raises(OcrError, match="cmap entries"):
        ocr_pdf(hf.cmap_range_bomb())  # 2^32 entries asked for
    assert usages[-1].cmap_entries == OcrLimits().max_cmap_entries + 1


def test_the_deadline_stops_what_no_counter_covers() -> None:
    # counters off for CMaps: 2^32 loop iterations cannot finish in half a second on any machine
    limits = OcrLimits(max_cmap_entries=1 << 40, max_seconds=0.5)
    with pytest.raises(OcrError, match="longer than the OCR limit of 0.5 s"):
        ocr_pdf(hf.cmap_range_bomb(), limits=limits)
    assert ocr_pdf(hf.text_pdf(), limits=limits).pages == 1  # and the thread reads normally afterwards


def test_page_and_object_counts_are_bounded() -> None:
    assert ocr_pdf(hf.many_pages(3), tables=False).pages == 3
    with pytest.raises(OcrError, match="more than the OCR limit of 200 pages"):
        ocr_pdf(hf.many_pages(201), tables=False)
    with pytest.raises(OcrError, match="objects"):
        ocr_pdf(hf.many_pages(30), limits=OcrLimits(max_objects=20))


def test_a_refused_pdf_is_not_read_twice(usages) -> None:
    data = hf.inflation_bomb(64 << 20)
    for _ in range(2):
        with pytest.raises(OcrError, match="too costly"):
            ocr_pdf(data)
    assert len(usages) == 1


def test_budget_hooks_leave_other_pdfminer_uses_alone() -> None:
    import zlib

    from pdfminer import pdftypes

    blob = zlib.compress(b"x" * (40 << 20))
    stream = pdftypes.PDFStream({"Filter": pdftypes.LITERALS_FLATE_DECODE[0]}, blob)
    assert len(stream.get_data()) == 40 << 20  # no budget active: pdfminer decodes as it always did


# ------------------------------------------------------------------------------------------ xlsx
def test_workbook_cell_count_is_checked_before_parsing() -> None:
    fine = hf.xlsx_with_rows(100, 3)
    assert xlsx.check_workbook(fine) == 300 and xlsx.list_sheets(fine) == ["Sheet1"]
    crowded = hf.xlsx_with_rows(xlsx.MAX_WORKBOOK_CELLS // 4 + 1, 4, dimension="A1:A1")  # the dimension lies
    assert len(crowded) < 1 << 20
    with pytest.raises(XlsxError, match="more than 200,000 cells"):
        xlsx.list_sheets(crowded)


def test_workbook_unpacked_size_is_checked_from_the_zip_directory() -> None:
    import zipfile

    buf = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(hf.xlsx_with_rows(1))) as src,
        zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as dst,
    ):
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith("sheet1.xml"):
                data = data.replace(b"<sheetData>", b"<sheetData>" + b" " * (40 << 20))  # 40 MB of padding
            dst.writestr(info.filename, data)
    bomb = buf.getvalue()
    assert len(bomb) < 1 << 20
    with pytest.raises(XlsxError, match="unpacks to"):
        xlsx.check_workbook(bomb)


def test_formula_evaluation_counts_the_cells_it_visits() -> None:
    book = create_workbook({"S": [["=SUM(A2:XFD1048576)", 1], [2, 3]]})
    with pytest.raises(XlsxError, match="more than 1,000,000 cell reads"):
        read_range(book, "S", "A1")  # 17 billion cells asked for: refused before walking them
    assert read_range(book, "S", "A1", formulas=True) == [["=SUM(A2:XFD1048576)"]]
    ok = create_workbook({"S": [["=SUM(A2:C400)"], *[[1, 2, 3]] * 399]})
    assert read_range(ok, "S", "A1") == [[xlsx.Decimal(399 * 6)]]


def test_a_long_reference_chain_evaluates_without_recursion() -> None:
    n = 5_000  # A1 = A2 + 1, A2 = A3 + 1, ... (recursive evaluation died near 200)
    rows = [[f"=A{r + 1}+1"] for r in range(1, n)] + [[1]]
    book = create_workbook({"S": rows})
    assert read_range(book, "S", "A1") == [[xlsx.Decimal(n)]]
    cyclic = create_workbook({"S": [[f"=A{r % 3000 + 1}+1"] for r in range(1, 3001)]})  # A3000 -> A1
    assert read_range(cyclic, "S", "A1") == [["#CIRC!"]]


@pytest.mark.parametrize(
    "formula,message",
    [
        ("=" + "(" * 100 + "1" + ")" * 100, "nests deeper than 64"),
        ("=" + "SUM(" * 100 + "1" + ")" * 100, "nests deeper than 64"),
        ("=" + "-" * 100 + "1", "nests deeper than 64"),
        ("=" + "+".join(["1"] * 300), "more than 200 operations deep"),
        ("=" + "1+" * 5000 + "1", "characters long"),
    ],
)
def test_formula_nesting_is_refused_at_write(formula: str, message: str) -> None:
    book = create_workbook({"S": [[1]]})
    with pytest.raises(XlsxError, match=message):
        write_cells(book, "S", {"B1": formula})


def test_a_stored_overdeep_formula_reads_as_an_error_value() -> None:
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.title = "S"
    wb.active["A1"] = "=" + "(" * 2000 + "1" + ")" * 2000  # written around the checks
    wb.active["A2"] = "=" + "+".join(["1"] * 3000)
    buf = io.BytesIO()
    wb.save(buf)
    assert read_range(buf.getvalue(), "S", "A1:A2") == [["#NAME?"], ["#NAME?"]]


def test_one_write_sets_a_bounded_number_of_cells() -> None:
    with pytest.raises(XlsxError, match="at most 20,000 cells"):
        create_workbook({"S": [[1] * 100] * 201})
    book = create_workbook({"S": [[1]]})
    with pytest.raises(XlsxError, match="at most 20,000 cells"):
        write_cells(book, "S", {f"A{r}": r for r in range(1, 20_002)})


# ------------------------------------------------------------------------------------------ tools
@pytest.fixture(scope="module")
def docs_env(golden_for) -> Environment:
    env = Environment.open(apps=["box", "excel"], golden=golden_for(["box", "excel"]))
    yield env
    env.close()


def test_box_ocr_of_an_uploaded_inflation_bomb_is_a_clean_tool_error(docs_env: Environment) -> None:
    bomb = hf.inflation_bomb(1 << 30)
    up = docs_env.call(
        "box.files.upload", name="bomb.pdf", folder="/Uploads", content_base64=base64.b64encode(bomb).decode()
    )
    assert up["ok"], up
    res = docs_env.call("box.ocr_pdf", id=up["data"]["file"]["id"])
    assert res["ok"] is False and res["error_type"] == "invalid_argument", res
    assert "too costly to read" in res["error"] and "decoded bytes" in res["error"]


def test_box_upload_of_a_crowded_xlsx_is_refused_by_counting(docs_env: Environment) -> None:
    crowded = hf.xlsx_with_rows(50_001, 4)
    res = docs_env.call(
        "box.files.upload", name="crowded.xlsx", folder="/Uploads", content_base64=base64.b64encode(crowded).decode()
    )
    assert res["ok"] is False and res["error_type"] == "invalid_argument"
    assert "more than 200,000 cells" in res["error"]


def test_excel_range_read_of_a_whole_sheet_formula_is_a_clean_tool_error(docs_env: Environment) -> None:
    made = docs_env.call(
        "excel.workbooks.create", name="Probe.xlsx", folder="/Probe", sheets={"S": [["=SUM(A2:XFD1048576)"], [5]]}
    )
    assert made["ok"], made
    res = docs_env.call("excel.range.read", workbook=made["data"]["workbook"]["id"], sheet="S", range="A1")
    assert res["ok"] is False and res["error_type"] == "invalid_argument" and "cell reads" in res["error"]
    whole = docs_env.call("excel.range.read", workbook=made["data"]["workbook"]["id"], sheet="S", range="A1:XFD1048576")
    assert whole["ok"] is False and "more than 5000 cells" in whole["error"]
    deep = docs_env.call(
        "excel.cells.write",
        workbook=made["data"]["workbook"]["id"],
        sheet="S",
        values={"B1": "=" + "(" * 500 + "1" + ")" * 500},
    )
    assert deep["ok"] is False and deep["error_type"] == "invalid_argument" and "nests deeper" in deep["error"]


def test_hostile_files_stay_small() -> None:
    # the builders themselves must not allocate what the files ask for
    assert len(hf.inflation_bomb(1 << 30)) < 2 << 20 and len(hf.nested_flate_bomb()) < 64 << 10
    assert Path(hf.__file__).stat().st_size < 64 << 10
