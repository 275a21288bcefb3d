"""Row and call predicates: map and SQL forms, equality rules, load-time validation."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfab.grader import (
    CallPredicate,
    Evaluator,
    EvaluatorError,
    Grade,
    RowPredicate,
    StateDiff,
    ToolCallRecord,
    grade,
    state_diff,
    values_equal,
)
from tests.grader.grader_helpers import Writer


@pytest.fixture()
def diff(golden: Path, attempt: Path) -> StateDiff:
    w = Writer(attempt)
    w.update("vista_erp.APVM", (20147,), {"PayHold": "Y", "Bal": "14350.004"}, casts={"Bal": "DECIMAL(18,2)"})
    w.insert(
        "procore.commitment_lines",
        {"commitment_id": "SC-1042-0", "line_no": 4, "amount": "14350.00", "status": "pending"},
    )
    w.delete("sage_intacct.APBILL", ("B-1",))
    w.close()
    return state_diff(golden, attempt)


def held(diff: StateDiff, **entry: object) -> bool:
    """Whether one expected entry holds on the diff (through the public grade())."""
    g = grade(Evaluator(expected=[RowPredicate.model_validate(entry)]), diff, reply="", guarded_calls=[], tool_calls=[])
    return g.passed


def test_values_equal_rules() -> None:
    assert values_equal("14350", "14350.00") and values_equal(Decimal("14350.00"), "14350")
    assert values_equal(14350, "14350.00") and values_equal(0.1, "0.10")
    assert values_equal(1042, "1042") and values_equal("1042", 1042)
    assert not values_equal("14350.01", "14350.00")
    assert values_equal(None, None) and not values_equal(None, "") and not values_equal("", None)
    assert values_equal(True, "true") and values_equal(True, "T") and values_equal(False, 0)
    assert not values_equal(True, "Y") and not values_equal("Y", True)
    assert values_equal("Y", "Y") and not values_equal("y", "Y")
    assert values_equal({"a": 1}, '{"a": 1}') and values_equal([1, 2], [1, 2])
    assert values_equal("2026-01-31 10:00", "2026-01-31T10:00:00")
    assert values_equal("NaN", "NaN") and not values_equal("NaN", 1)  # not numbers: text


def test_map_form(diff: StateDiff) -> None:
    assert held(
        diff,
        app="vista_erp",
        table="APVM",
        op="changed",
        where={"_pk": "20147"},
        **{"assert": {"PayHold": "Y", "Bal": 14350}},
    )
    assert held(
        diff,
        app="vista_erp",
        table="APVM",
        op="changed",
        where={"_pk": 20147},
        **{"assert": {"Bal": "14350.00", "before.PayHold": "N", "after.PayHold": "Y"}},
    )
    assert held(diff, app="vista_erp", table="apvm", op="changed", where={"vendor": "20147"})
    assert not held(
        diff, app="vista_erp", table="APVM", op="changed", where={"_pk": 20147}, **{"assert": {"PayHold": "N"}}
    )
    assert held(
        diff,
        app="procore",
        table="commitment_lines",
        op="added",
        where={"_pk": ["SC-1042-0", "4"]},
        **{"assert": {"amount": "14350"}},
    )
    assert not held(diff, app="procore", table="commitment_lines", op="added", where={"_pk": "SC-1042-0"})
    assert held(
        diff,
        app="sage_intacct",
        table="APBILL",
        op="removed",
        where={"_pk": "B-1", "STATE": "Draft", "WHENCREATED": "2026-01-15 09:30:00"},
    )
    assert not held(
        diff, app="vista_erp", table="APVM", op="changed", where={"Active": "true", "Doc": None}
    )  # Doc is not NULL on 20147
    assert held(
        diff,
        app="vista_erp",
        table="APVM",
        op="changed",
        where={"Active": True, "Meta": {"tin": "12-3456789"}, "Since": "2019-04-01"},
    )


def test_sql_form(diff: StateDiff) -> None:
    assert held(
        diff,
        app="vista_erp",
        table="APVM",
        op="changed",
        where="Vendor = 20147",
        **{"assert": "abs(Bal - 14350.00) < 0.005"},
    )
    assert held(
        diff,
        app="vista_erp",
        table="APVM",
        op="changed",
        where="before.PayHold = 'N' AND after.PayHold = 'Y'",
        **{"assert": "after.Bal < before.Bal AND Since = DATE '2019-04-01'"},
    )
    assert held(
        diff,
        app="vista_erp",
        table="APVM",
        op="changed",
        where="Meta->>'tin' = '12-3456789' AND Doc.size = 4 AND Active",
    )
    assert held(
        diff, app="procore", table="commitment_lines", op="added", where="status IN ('pending', 'draft')", count=1
    )
    assert not held(
        diff, app="procore", table="commitment_lines", op="added", where="status IN ('pending', 'draft')", count=2
    )
    assert held(
        diff,
        app="sage_intacct",
        table="APBILL",
        op="removed",
        where="TOTALDUE = 1200 AND WHENCREATED < TIMESTAMP '2026-02-01'",
    )
    assert held(diff, app="procore", table="commitment_lines", op="removed", count=0)


def test_labels_and_json_alias() -> None:
    p = RowPredicate.model_validate(
        {
            "app": "vista_erp",
            "table": "JCCO",
            "op": "changed",
            "where": {"_pk": "1042"},
            "assert": {"EstCostToComplete": "3706560.00"},
        }
    )
    assert p.assert_ == {"EstCostToComplete": "3706560.00"}
    assert p.label == ("vista_erp.JCCO: a changed row where _pk = '1042' with EstCostToComplete = '3706560.00'")
    assert '"assert"' in p.model_dump_json(by_alias=True)
    ev = Evaluator.load(
        '{"expected": [{"app": "vista_erp", "table": "JCCO", "op": "changed", '
        '"where": {"_pk": "1042"}, "assert": {"EstCostToComplete": "3706560.00"}}],'
        ' "money_movement_guard": false, "required_outputs": ["forecast|ETC"]}'
    )
    assert ev.expected[0] == p
    assert Evaluator.model_validate_json(ev.model_dump_json(by_alias=True)) == ev


CATALOG = {
    "vista_erp.APVM": {"Vendor": "INTEGER", "PayHold": "VARCHAR", "Bal": "DECIMAL(18,2)"},
    "procore.commitment_lines": {"commitment_id": "VARCHAR", "line_no": "INTEGER", "amount": "DECIMAL(18,2)"},
}


@pytest.mark.parametrize(
    ("entry", "names"),
    [
        ({"app": "vista_erp", "table": "APVN", "op": "changed"}, ["expected[0]", "'vista_erp.APVN'", "vista_erp.APVM"]),
        ({"app": "vista_erp", "table": "APVM", "op": "changed", "assert": {"PayHlod": "Y"}}, ["'PayHlod'", "PayHold"]),
        ({"app": "vista_erp", "table": "APVM", "op": "changed", "where": {"after.Bla": 1}}, ["'Bla'", "Bal"]),
        ({"app": "vista_erp", "table": "APVM", "op": "changed", "assert": "abs(Balance - 1) < 1"}, ["'Balance'"]),
        ({"app": "vista_erp", "table": "APVM", "op": "changed", "where": "before.PayHlod = 'N'"}, ["'PayHlod'"]),
        (
            {"app": "vista_erp", "table": "APVM", "op": "changed", "allow_columns": ["Balance"]},
            ["'Balance'", "allow_columns"],
        ),
        (
            {
                "app": "procore",
                "table": "commitment_lines",
                "op": "added",
                "count": 1,
                "where": "amount > 1 AND lineno = 2",
            },
            ["'lineno'"],
        ),
        ({"app": "vista_erp", "table": "APVM", "op": "changed", "assert": "Bal + 1"}, ["not a boolean"]),
        ({"app": "vista_erp", "table": "APVM", "op": "changed", "assert": "no_such_fn(Bal)"}, ["does not bind"]),
    ],
)
def test_typos_are_load_errors(entry: dict, names: list[str]) -> None:
    ev = Evaluator.model_validate({"expected": [entry]})
    with pytest.raises(EvaluatorError) as err:
        ev.validate_against(CATALOG)
    for name in names:
        assert name in str(err.value)


def test_validate_against_connection(golden: Path) -> None:
    con = duckdb.connect(str(golden), read_only=True)
    ok = {
        "expected": [
            {
                "app": "vista_erp",
                "table": "apvm",
                "op": "changed",
                "assert": "Doc.size > 0 AND Meta->>'tin' IS NOT NULL",
            }
        ],
        "allowed": [{"app": "procore", "table": "commitment_lines", "op": "added", "allow_columns": ["status"]}],
    }
    Evaluator.load(ok, catalog=con)
    with pytest.raises(EvaluatorError, match="unknown table 'book.vendors'"):
        Evaluator.load({"forbidden": [{"app": "book", "table": "vendors", "op": "added"}]}, catalog=con)
    con.close()


@pytest.mark.parametrize(
    "expr",
    [
        "Bal IN (SELECT 1)",
        "EXISTS (SELECT 1)",
        "read_csv('/etc/passwd') IS NOT NULL",
        "read_csv_auto('x') IS NULL",
        "getenv('HOME') = 'x'",
        "Bal > (SELECT max(Bal) FROM vista_erp.APVM)",
        "count(*) > 1",
        "1 = 1; DROP TABLE x",
        "now() > Since",
        "glob('*') IS NULL",
        "query('SELECT 1') IS NULL",
        "sum(Bal) OVER () > 1",
        "x.y.z = 1",
    ],
)
def test_unsafe_sql_refused_at_load(expr: str) -> None:
    with pytest.raises(EvaluatorError):
        Evaluator.load({"expected": [{"app": "vista_erp", "table": "APVM", "op": "changed", "where": expr}]})


def test_structural_errors() -> None:
    bad = [
        {"forbidden": [{"app": "a", "table": "b", "op": "added", "count": 1}]},
        {"allowed": [{"app": "a", "table": "b", "op": "added", "count": 1}]},
        {"forbidden": [{"app": "a", "table": "b", "op": "changed", "allow_columns": ["x"]}]},
        {"expected": [{"app": "a", "table": "b", "op": "added", "where": "before.x = 1"}]},
        {"expected": [{"app": "a", "table": "b", "op": "removed", "assert": {"after.x": 1}}]},
        {"expected": [{"app": "a", "table": "b", "op": "moved"}]},
        {"expected": [{"app": "a", "table": "b", "op": "added", "wehre": {}}]},
        {"required_outputs": ["(unclosed"]},
    ]
    for data in bad:
        with pytest.raises(EvaluatorError):
            Evaluator.load(data)


def test_call_predicates() -> None:
    calls = [
        ToolCallRecord(seq=1, tool="vista_erp.ap.vista_post", args={"batch": 7, "amount": "14350.00"}),
        ToolCallRecord(seq=2, tool="outlook.mail.draft", args={"to": "pm@x.com", "meta": {"job": 1042}}),
        ToolCallRecord(seq=3, tool="vista_erp.ap.vista_post", args={"batch": 8}, ok=False, error="rejected"),
    ]

    def score(**entry: object) -> bool:
        g = grade(
            Evaluator(expected_calls=[CallPredicate.model_validate(entry)]),
            StateDiff(),
            reply="",
            guarded_calls=[],
            tool_calls=calls,
        )
        return g.passed

    assert score(tool="*.vista_post")
    assert score(tool="vista_erp.*post*", args={"amount": 14350}, count=1)
    assert score(tool="*.vista_post", count=1)  # the failed call does not count
    assert score(tool="outlook.*", args={"meta.job": "1042"})
    assert score(tool="outlook.*", args="meta->>'job' = '1042' AND \"to\" LIKE '%@x.com'")
    assert not score(tool="outlook.*", args="missing_arg = 1")
    assert not score(tool="box.*")
    assert not score(tool="*.vista_post", args={"batch": 9})
    g = grade(
        Evaluator(forbidden_calls=[CallPredicate(tool="*.vista_post", args={"batch": 8})]),
        StateDiff(),
        reply="",
        guarded_calls=[],
        tool_calls=calls,
    )
    assert not g.passed and g.score == 0.0  # attempted, even if it failed
    assert Grade.from_json(g.to_json()) == g


def test_total_asserts_a_sum_per_account_whatever_the_line_shape() -> None:
    from decimal import Decimal

    from cfab.grader import Evaluator, StateDiff, grade
    from cfab.grader.statediff import ColumnInfo, Row, TableDiff

    cols = [
        ColumnInfo(name="Seq", type="INTEGER"),
        ColumnInfo(name="GLAcct", type="VARCHAR"),
        ColumnInfo(name="Amount", type="DECIMAL(12,2)"),
    ]

    def diff(lines: list[tuple[str, str]]) -> StateDiff:
        rows = [
            Row(pk=(i,), values={"Seq": i, "GLAcct": acct, "Amount": Decimal(amount)})
            for i, (acct, amount) in enumerate(lines, start=1)
        ]
        return StateDiff(
            diffs={"vista_erp.GLDB": TableDiff(app="vista_erp", table="GLDB", columns=cols, pk=["Seq"], added=rows)}
        )

    ev = Evaluator.model_validate(
        {
            "expected": [
                {
                    "app": "vista_erp",
                    "table": "GLDB",
                    "op": "added",
                    "where": {"GLAcct": "5200"},
                    "total": {"Amount": "1500.00"},
                }
            ]
        }
    )

    def passes(lines: list[tuple[str, str]]) -> bool:
        return grade(ev, diff(lines), reply="", guarded_calls=[], tool_calls=[]).passed

    assert passes([("5200", "1500.00")])  # one line for the total
    assert passes([("5200", "1000.00"), ("5200", "500.00"), ("2100", "-1500.00")])  # one per subcontract
    assert not passes([("5200", "1000.00"), ("5200", "500.01")])  # a cent off
    assert not passes([("5200", "1500.00"), ("5200", "1500.00")])  # entered twice
    assert not passes([("2100", "1500.00")])  # nothing on 5200
    with pytest.raises(ValueError, match="total only applies to expected"):
        Evaluator.model_validate({"forbidden": [{"app": "a", "table": "t", "op": "added", "total": {"x": 1}}]})


# the values a column of a diff can hold, and the values a map-form entry can expect: text that is and
# is not a number or a date, numbers of every type, dates, booleans, NULL, JSON
_VALUES = st.one_of(
    st.sampled_from(["B2", "b2", "Forecast", "14350", "14350.00", " 12 ", "2026-01-31", "2026-01-31T00:00:00"]),
    st.sampled_from(["true", "T", "Y", "NaN", "", "1", "0"]),
    st.integers(-2, 2),
    st.decimals(min_value=-2, max_value=2, places=2, allow_nan=False),
    st.booleans(),
    st.none(),
    st.just(date(2026, 1, 31)),
    st.just([1, 2]),
)


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(
    cells=st.lists(st.tuples(_VALUES, _VALUES), min_size=0, max_size=12),
    cond=st.dictionaries(st.sampled_from(["cell", "shows", "before.cell"]), _VALUES, min_size=1, max_size=2),
    check=st.dictionaries(st.sampled_from(["cell", "shows"]), _VALUES, max_size=2),
    op=st.sampled_from(["added", "changed", "removed"]),
)
def test_indexed_map_form_gives_the_full_scans_verdicts(
    cells: list[tuple[Any, Any]], cond: dict, check: dict, op: str
) -> None:
    """The map form narrows by an index of a plain-text column and evaluates ``assert`` only on the
    rows ``where`` keeps (grader/matching.py); the rows it matches are those a full scan with
    :func:`values_equal` matches."""
    from cfab.grader.matching import RowMatcher
    from cfab.grader.predicates import split_key
    from cfab.grader.statediff import ChangedRow, ColumnInfo, Row, TableDiff

    if op != "changed":
        cond = {k: v for k, v in cond.items() if not k.startswith("before.")} or {"cell": "B2"}
    cols = (
        ColumnInfo(name="id", type="INTEGER"),
        ColumnInfo(name="cell", type="VARCHAR"),
        ColumnInfo(name="shows", type="VARCHAR"),
    )
    rows = [{"id": i, "cell": c, "shows": v} for i, (c, v) in enumerate(cells)]
    if op == "changed":
        body = {
            "changed": tuple(
                ChangedRow(pk=(r["id"],), before={**r, "cell": "A1"}, after=r, columns=("cell",)) for r in rows
            )
        }
    else:
        body = {op: tuple(Row(pk=(r["id"],), values=r) for r in rows)}
    diff = StateDiff(diffs={"excel.cells": TableDiff(app="excel", table="cells", columns=cols, pk=("id",), **body)})
    entry = RowPredicate.model_validate(
        {"app": "excel", "table": "cells", "op": op, "where": cond, **({"assert": check} if check else {})}
    )

    def holds(c: dict, r: Any) -> bool:
        return all(values_equal(e, r.side(split_key(k)[0]).get(split_key(k)[1])) for k, e in c.items())

    m = RowMatcher(diff)
    scan = [r for r in m.rows(entry) if holds(cond, r)]
    assert m.mask(entry, "where") == [holds(cond, r) for r in m.rows(entry)]
    assert m.matching(entry, with_assert=False) == scan
    assert m.matching(entry, with_assert=True) == [r for r in scan if holds(check, r)]
