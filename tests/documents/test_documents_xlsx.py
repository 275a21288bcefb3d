"""cfab.apps.xlsx: exact numbers, formulas kept, a diffable cell relation, clear errors."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfab.apps.xlsx import Cell, XlsxError, add_sheet, cells, create_workbook, list_sheets, read_range, write_cells
from tests.fixtures.tiers import examples

BASE = create_workbook(
    {
        "Bills": [
            ["Vendor", "Amount", "Retainage", "Net"],
            ["V1001", Decimal("14350.00"), Decimal("0"), "=B2-C2"],
            ["V1000", Decimal("48500.00"), "=ROUND(B3*0.1,2)", "=B3-C3"],
            ["Total", "=SUM(B2:B3)", "=SUM(C2:C3)", "=SUM(D2:D3)"],
        ]
    },
    created=date(2026, 1, 31),
)


def test_create_read_and_evaluate() -> None:
    assert list_sheets(BASE) == ["Bills"]
    assert read_range(BASE, "Bills", "A4:D4") == [
        ["Total", Decimal("62850.00"), Decimal("4850.00"), Decimal("58000.00")]
    ]
    assert read_range(BASE, "Bills", "D3", formulas=True) == [["=B3-C3"]]
    assert create_workbook({"Bills": [["x"]]}, created=date(2026, 1, 31)) == create_workbook(
        {"Bills": [["x"]]}, created=date(2026, 1, 31)
    )


def test_write_then_cells_shows_exactly_the_changed_cell() -> None:
    before = cells(BASE)
    after_bytes = write_cells(BASE, "Bills", {"B2": Decimal("14530.55")})
    after = cells(after_bytes)
    assert [c for c in after if c not in before] == [
        Cell(sheet="Bills", cell="B2", value=Decimal("14530.55"), formula=None, data_type="n")
    ]
    assert [c for c in before if c not in after] == [
        Cell(sheet="Bills", cell="B2", value=Decimal("14350"), formula=None, data_type="n")
    ]
    assert read_range(after_bytes, "Bills", "D4") == [[Decimal("63030.55") - Decimal("4850.00")]]
    assert write_cells(BASE, "Bills", {"B2": Decimal("14530.55")}) == after_bytes  # deterministic


def test_formulas_dates_and_new_cells() -> None:
    out = write_cells(
        BASE,
        "Bills",
        {"E1": "Posted", "E2": date(2026, 1, 12), "F2": '=IF(D2>10000,"big","small")', "G2": True, "H2": 7},
    )
    got = {c.cell: c for c in cells(out) if c.cell[0] in "EFGH"}
    assert got["F2"].formula == '=IF(D2>10000,"big","small")' and got["F2"].value is None
    assert got["E2"].value == datetime(2026, 1, 12) and got["G2"].value is True and got["H2"].value == 7
    assert read_range(out, "Bills", "F2") == [["big"]]
    evaluated = {c.cell: c.value for c in cells(out, evaluate=True)}
    assert evaluated["D4"] == Decimal("58000.00")


def test_add_sheet_and_errors() -> None:
    two = add_sheet(BASE, "Notes")
    assert list_sheets(two) == ["Bills", "Notes"]
    with pytest.raises(XlsxError, match="already exists"):
        add_sheet(two, "notes")
    with pytest.raises(XlsxError, match="bad sheet name"):
        add_sheet(BASE, "a/b")
    with pytest.raises(XlsxError, match="no sheet named 'Nope'"):
        write_cells(BASE, "Nope", {"A1": 1})
    with pytest.raises(XlsxError, match="no sheet named"):
        read_range(BASE, "Nope", "A1")
    for bad in ("A1:B", "ZZZZ1", "A0", "1A", "A1:B2:C3", ""):
        with pytest.raises(XlsxError, match="bad (range|cell)"):
            read_range(BASE, "Bills", bad)
    with pytest.raises(XlsxError, match="above and left"):
        read_range(BASE, "Bills", "C3:A1")
    with pytest.raises(XlsxError, match="bad cell reference"):
        write_cells(BASE, "Bills", {"B2:B3": 1})
    with pytest.raises(XlsxError, match="bad formula"):
        write_cells(BASE, "Bills", {"A9": "=SUM(B2:B3"})
    for content in (b"", b"not a zip", BASE[:100]):
        with pytest.raises(XlsxError):
            list_sheets(content)


def test_formula_errors_are_excel_error_values() -> None:
    out = write_cells(BASE, "Bills", {"A6": "=B2/0", "A7": "=NOPE(1)", "A8": "=A8+1", "A9": "=IFERROR(B2/0,-1)"})
    assert read_range(out, "Bills", "A6:A9") == [["#DIV/0!"], ["#NAME?"], ["#CIRC!"], [Decimal("-1")]]


@pytest.mark.fuzz
@settings(max_examples=examples(25), deadline=None)
@given(
    st.decimals(
        min_value=Decimal("-9999999999.99"),
        max_value=Decimal("9999999999.99"),
        places=2,
        allow_nan=False,
        allow_infinity=False,
    )
)
def test_money_round_trips_exactly(amount: Decimal) -> None:
    out = write_cells(BASE, "Bills", {"B2": amount})
    assert read_range(out, "Bills", "B2")[0][0] == amount
    assert read_range(out, "Bills", "D2")[0][0] == amount
