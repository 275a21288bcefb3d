"""An Excel workbook graded as state: the cells an instruction names, by what they show.

``excel.cells.computed`` is what a cell shows (its value, or its formula's result computed exactly),
so one expected entry per named cell passes whether the agent typed the number or wrote a formula
that shows it, and fails a cent off.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Literal

from cfab.grader import RowPredicate
from cfab.tasks.kit.entries import expect_added, expect_changed
from cfab.tasks.kit.figures import money_str


def expect_cells(
    workbook: str,
    sheet: str,
    shows: Mapping[str, Decimal | str | int],
    *,
    op: Literal["added", "changed"] = "added",
    what: Mapping[str, str] | None = None,
) -> list[RowPredicate]:
    """One entry per cell: ``sheet!cell`` of ``workbook`` (its file name) shows that value (an amount
    to the cent, or exact text). ``op`` "added" for cells that were empty (a new workbook, a blank
    template cell), "changed" for cells that held something. ``what`` names a cell's meaning for
    the failed check's sentence (``{"C17": "week 13 ending cash"}``)."""
    out = []
    for ref, value in shows.items():
        shown = money_str(value) if isinstance(value, Decimal) else str(value)
        label = f"{sheet}!{ref} of {workbook} shows {shown}" + (f" ({what[ref]})" if what and ref in what else "")
        where = {"workbook": workbook, "sheet": sheet, "cell": ref.upper()}
        if op == "added":
            out.append(expect_added("excel", "cells", where, assert_={"computed": shown}, label=label))
        else:  # typed or a formula: the stored columns change with what it shows
            out.append(
                expect_changed(
                    "excel",
                    "cells",
                    where,
                    assert_={"computed": shown},
                    label=label,
                    allow_columns=("value", "formula", "data_type"),
                )
            )
    return out


__all__ = ["expect_cells"]
