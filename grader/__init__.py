"""cfab.grader: state diff, predicate matching and grading.

* :func:`state_diff` — the per-table, PK-keyed diff of two DuckDB files (:class:`StateDiff`);
* :class:`Evaluator` with :class:`RowPredicate` / :class:`CallPredicate` entries, validated
  against a catalog at load time (:class:`EvaluatorError`);
* :class:`AnswerSpec` — a typed answer a task asks for, compared exactly after
  normalisation; :func:`answers_schema` is the JSON Schema every finish path offers;
* :func:`grade` — the paper's grader (guard → forbidden → expected + answers) → :class:`Grade`.
"""

from .answers import ANSWER_TYPES, AnswerError, AnswerSpec, answers_schema, check_answers
from .catalog import NON_APP_SCHEMAS, catalog_mapping
from .diff import grader_connection, state_diff
from .grade import Check, Grade, GuardedCall, ToolCallRecord, grade
from .matching import DiffRow, RowMatcher
from .predicates import CallPredicate, Evaluator, EvaluatorError, RowPredicate
from .sqlexpr import UnsafeExpression
from .statediff import ChangedRow, ColumnInfo, Row, StateDiff, TableDiff
from .values import values_equal

__all__ = [
    "ANSWER_TYPES",
    "NON_APP_SCHEMAS",
    "AnswerError",
    "AnswerSpec",
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
    "answers_schema",
    "catalog_mapping",
    "check_answers",
    "grade",
    "grader_connection",
    "state_diff",
    "values_equal",
]
