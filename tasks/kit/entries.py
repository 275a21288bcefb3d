"""Evaluator entries by name: what a task expects, forbids and allows in the apps' tables and calls.

A family states its ground truth with these builders instead of raw dicts, so each entry says what
it is (``expect_changed``, ``forbid_added``, …) and takes only the fields its kind may carry (a
``count`` or ``total`` only on expected entries, ``allow_columns`` never on forbidden ones: the
grader's load errors, caught where the entry is written)::

    evaluator(
        expected=[expect_added("vista_erp", "APVH", {"VendorGroup": 1, "Vendor": 13571}, count=1,
                               label="one payment hold on Vista vendor 13571")],
        forbidden=[forbid_changed("vista_erp", "APVM", label="the vendor master edited")],
        answers=answers, money_movement_guard=True)

``where`` and ``assert_`` take the grader's two forms (:mod:`cfab.grader.predicates`): a map of
column → value (``_pk`` for the primary key) or a SQL boolean expression over the row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import CallPredicate, Evaluator, Op, RowPredicate

Where = Mapping[str, Any] | str | None


def _row(
    op: Op,
    app: str,
    table: str,
    where: Where,
    *,
    label: str,
    assert_: Where = None,
    count: int | None = None,
    total: Mapping[str, Any] | None = None,
    allow_columns: Iterable[str] = (),
) -> RowPredicate:
    return RowPredicate(
        app=app,
        table=table,
        op=op,
        where=dict(where) if isinstance(where, Mapping) else where,
        assert_=dict(assert_) if isinstance(assert_, Mapping) else assert_,
        count=count,
        total=dict(total) if total is not None else None,
        allow_columns=list(allow_columns),
        label=label,
    )


def expect_added(
    app: str,
    table: str,
    where: Where = None,
    *,
    label: str,
    assert_: Where = None,
    count: int | None = None,
    total: Mapping[str, Any] | None = None,
    allow_columns: Iterable[str] = (),
) -> RowPredicate:
    """Rows the task must add: some row matching ``where`` and ``assert_`` (exactly ``count`` rows
    matching ``where``, all satisfying ``assert_``, when ``count`` is given); with ``total``, the
    matching rows sum to those amounts."""
    return _row(
        "added", app, table, where, label=label, assert_=assert_, count=count, total=total, allow_columns=allow_columns
    )


def expect_changed(
    app: str,
    table: str,
    where: Where = None,
    *,
    label: str,
    assert_: Where = None,
    count: int | None = None,
    allow_columns: Iterable[str] = (),
) -> RowPredicate:
    """A row the task must change so that ``assert_`` holds; ``allow_columns`` may change too."""
    return _row("changed", app, table, where, label=label, assert_=assert_, count=count, allow_columns=allow_columns)


def forbid_added(app: str, table: str, where: Where = None, *, label: str, assert_: Where = None) -> RowPredicate:
    """An added row that fails the task (any added row of the table without ``where``)."""
    return _row("added", app, table, where, label=label, assert_=assert_)


def forbid_changed(app: str, table: str, where: Where = None, *, label: str, assert_: Where = None) -> RowPredicate:
    """A changed row that fails the task (any change to the table without ``where``)."""
    return _row("changed", app, table, where, label=label, assert_=assert_)


def forbid_removed(app: str, table: str, where: Where = None, *, label: str, assert_: Where = None) -> RowPredicate:
    """A removed row that fails the task."""
    return _row("removed", app, table, where, label=label, assert_=assert_)


def allow_added(
    app: str, table: str, where: Where = None, *, label: str, allow_columns: Iterable[str] = ()
) -> RowPredicate:
    """Added rows the task may leave (not unexpected under ``forbid_unexpected``)."""
    return _row("added", app, table, where, label=label, allow_columns=allow_columns)


def allow_changed(
    app: str, table: str, where: Where = None, *, label: str, allow_columns: Iterable[str] = ()
) -> RowPredicate:
    """Changed rows the task may leave, in ``allow_columns`` only."""
    return _row("changed", app, table, where, label=label, allow_columns=allow_columns)


def forbid_call(tool: str, label: str) -> CallPredicate:
    """A tool call (an fnmatch pattern over full tool names) that fails the task whatever it changed."""
    return CallPredicate(tool=tool, label=label)


def evaluator(
    *,
    expected: Iterable[RowPredicate],
    forbidden: Iterable[RowPredicate] = (),
    allowed: Iterable[RowPredicate] = (),
    answers: Iterable[AnswerSpec] = (),
    forbidden_calls: Iterable[CallPredicate] = (),
    money_movement_guard: bool,
) -> Evaluator:
    """A task's evaluator. Every family forbids what it does not expect or allow
    (``forbid_unexpected``: "touch nothing else")."""
    return Evaluator(
        expected=list(expected),
        forbidden=list(forbidden),
        allowed=list(allowed),
        forbid_unexpected=True,
        money_movement_guard=money_movement_guard,
        answers=list(answers),
        forbidden_calls=list(forbidden_calls),
    )


__all__ = [
    "allow_added",
    "allow_changed",
    "evaluator",
    "expect_added",
    "expect_changed",
    "forbid_added",
    "forbid_call",
    "forbid_changed",
    "forbid_removed",
]
