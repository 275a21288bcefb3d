"""cfab.grader: state diff, predicate matching and grading.

* :func:`state_diff` — the per-table, PK-keyed diff of two DuckDB files (:class:`StateDiff`);
* :class:`Evaluator` with :class:`RowPredicate` / :class:`CallPredicate` entries, validated
  against a catalog at load time (:class:`EvaluatorError`);
* :func:`grade` — the paper's grader (guard → forbidden → expected) → :class:`Grade`.
"""

from .catalog import NON_APP_SCHEMAS, catalog_mapping
from .diff import grader_connection, state_diff
from .grade import Check, Grade, GuardedCall, ToolCallRecord, grade
from .matching import DiffRow, RowMatcher
from .predicates import CallPredicate, Evaluator, EvaluatorError, RowPredicate
from .sqlexpr import UnsafeExpression
from .statediff import ChangedRow, ColumnInfo, Row, StateDiff, TableDiff
from .values import values_equal

__all__ = [
    "NON_APP_SCHEMAS",
    "CallPredicate",
    "ChangedRow",
    "Check",
    "ColumnInfo",
    "DiffRow",
    "Evaluator",
    "EvaluatorError",
    "Grade",
    "GuardedCall",
    "Row",
    "RowMatcher",
    "RowPredicate",
    "StateDiff",
    "TableDiff",
    "ToolCallRecord",
    "UnsafeExpression",
    "catalog_mapping",
    "grade",
    "grader_connection",
    "state_diff",
    "values_equal",
]
