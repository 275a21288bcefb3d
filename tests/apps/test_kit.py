"""The app kit (cfab.apps.kit): one set of argument rules and filter builders for every archetype."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import duckdb
import pytest
from sqlglot import exp

from cfab.apps.kit import (
    all_of,
    bounds,
    cents,
    date_range,
    dec,
    icontains,
    ieq,
    ilike,
    in_list,
    money_arg,
    pct_of,
    percent_arg,
    percent_of,
)
from cfab.apps.tooling import ToolError
from cfab.schema.sqlbuild import col, to_sql


@pytest.mark.parametrize("value", ["12500", "12500.5", "12500.50", 12500, Decimal("0.10"), "-0"])
def test_money_takes_up_to_two_places(value: object) -> None:
    assert money_arg(value, "amount") == Decimal(str(value)).quantize(Decimal("0.01"))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "amount is required"),
        ("twelve", "amount must be a decimal amount"),
        ("NaN", "amount must be a decimal amount"),
        ("Infinity", "amount must be a decimal amount"),
        ("1e309", "amount is out of range"),
        ("1.005", "amount takes at most two decimal places"),
        ("-5.00", "amount cannot be negative"),
    ],
)
def test_money_refusals_name_the_argument(value: object, message: str) -> None:
    with pytest.raises(ToolError, match=message) as info:
        money_arg(value, "amount")
    assert info.value.kind == "invalid_argument"


def test_money_sign_and_zero_are_explicit_per_call_site() -> None:
    assert money_arg("-5.00", "debit", allow_negative=True) == Decimal("-5.00")
    assert money_arg("0", "forecast") == Decimal("0.00")
    with pytest.raises(ToolError, match="amount for S1 must be greater than zero"):
        money_arg("0.00", "amount for S1", allow_zero=False)
    with pytest.raises(ToolError, match="cannot be negative"):
        money_arg("-0.01", "amount", allow_zero=False)


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("0", True),
        ("100", True),
        ("45.5", True),
        ("33.3333", True),
        ("33.33333", False),
        ("-0.01", False),
        ("100.0001", False),
        ("NaN", False),
        ("x", False),
        (None, False),
    ],
)
def test_percent_is_zero_to_a_hundred_with_four_places(value: object, ok: bool) -> None:
    if ok:
        assert percent_arg(value, "pct_complete") == Decimal(str(value))
    else:
        with pytest.raises(ToolError, match="pct_complete"):
            percent_arg(value, "pct_complete")


def test_arithmetic_is_exact_and_half_up() -> None:
    assert cents(Decimal("2.005")) == Decimal("2.01")
    assert dec(None) == 0 and dec(1.1) == Decimal("1.1")
    assert pct_of(Decimal("1000.05"), Decimal("10")) == Decimal("100.01")
    assert percent_of(Decimal("1"), Decimal("3")) == Decimal("33.33")
    assert percent_of(Decimal("5"), Decimal("0")) == Decimal("0.00")


ROWS = [
    (1, "Walsh Electric", "Approved ", date(2026, 1, 5)),
    (2, "walsh_%plumbing", "approved", date(2026, 1, 31)),
    (3, "Acme Steel", "Draft", date(2026, 2, 1)),
]


def matching(pred: exp.Expression | None) -> list[int]:
    """The ids of ROWS the predicate keeps, as DuckDB runs it."""
    con = duckdb.connect()
    con.execute("CREATE TABLE t (id INT, name VARCHAR, status VARCHAR, d DATE)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", ROWS)
    query = exp.select("id").from_("t").order_by("id")
    if pred is not None:
        query = query.where(pred)
    return [r[0] for r in con.execute(to_sql(query)).fetchall()]


def test_filters_run_in_duckdb() -> None:
    assert matching(date_range("d", date(2026, 1, 5), date(2026, 1, 31))) == [1, 2]
    assert matching(date_range("d", None, date(2026, 1, 30))) == [1]
    assert date_range("d", None, None) is None
    assert matching(all_of(*bounds("id", 2, None))) == [2, 3]
    assert matching(ilike("name", "WALSH")) == [1, 2]
    assert matching(ilike("name", "h_%p")) == [2]  # a pattern: _ and % are wildcards
    assert matching(icontains("name", "h_%p")) == [2]
    assert matching(icontains("name", "h_p")) == []  # a literal substring
    assert ilike("name", "") is None and icontains("name", None) is None
    assert matching(ieq("status", " APPROVED ")) == [2]  # the word trimmed, the column as stored
    assert matching(ieq("status", "approved ", trim=False)) == [1]
    assert matching(in_list("id", [1, 3], "INT")) == [1, 3]
    assert matching(in_list("id", [])) == []
    assert matching(all_of(None, ilike("name", "walsh"), date_range("d", date(2026, 1, 6), None))) == [2]
    assert all_of(None, None) is None


def test_an_expression_column_is_copied_not_shared() -> None:
    when = exp.cast(col("d"), "DATE")
    low, high = bounds(when, date(2026, 1, 1), date(2026, 1, 31), "DATE")
    assert low.this is not high.this and low.this is not when
    assert matching(exp.and_(low, high)) == [1, 2]
