"""The family kit: what every task family writes with, written and tested once.

* :mod:`~cfab.tasks.kit.answers` — typed answers and the sentence that asks for them (``ask``);
* :mod:`~cfab.tasks.kit.entries` — evaluator entries by name (``expect_changed``, ``forbid_added``,
  ``allow_added``, ``forbid_call``) and the ``evaluator`` that holds them;
* :mod:`~cfab.tasks.kit.steps` — tool steps and trajectories (``step``, ``with_args``,
  ``trajectory``, ``mutant``);
* :mod:`~cfab.tasks.kit.figures` — amounts, percentages, quantities and counts as tasks write them;
* :mod:`~cfab.tasks.kit.sql` — SQL literals, lists and CASE expressions for entries and SQL reads;
* :mod:`~cfab.tasks.kit.journal` — a staged journal entry's debit or credit lines in each ERP's
  columns (``line_side``, ``side_total``, ``expect_side_total``), the one draft header
  (``expect_entry``), a reversing or non-reversing entry forbidden (``forbid_reversing``,
  ``forbid_not_reversing``), the guarded post of the staged batch (``post_step``) and a case's ERP
  label, dialect and entry date (``ErpEntry``);
* :mod:`~cfab.tasks.kit.mail` — an Outlook draft graded by its recipients and the facts it states
  (``expect_draft``, ``states``);
* :mod:`~cfab.tasks.kit.workbook` — an Excel workbook graded by what its named cells show
  (``expect_cells``).

Families import from here (``from cfab.tasks.kit import amount_answer, expect_changed, step``).
"""

from __future__ import annotations

from cfab.tasks.kit.answers import (
    amount_answer,
    answers_of,
    ask,
    choice_answer,
    count_answer,
    date_answer,
    id_answer,
    id_list_answer,
)
from cfab.tasks.kit.entries import (
    allow_added,
    allow_changed,
    evaluator,
    expect_added,
    expect_changed,
    forbid_added,
    forbid_call,
    forbid_changed,
    forbid_removed,
)
from cfab.tasks.kit.figures import CENT, cents, count_word, dollars, money_str, percent, quantity
from cfab.tasks.kit.journal import (
    ErpEntry,
    expect_entry,
    expect_side_total,
    forbid_not_reversing,
    forbid_reversing,
    line_side,
    post_step,
    side_total,
)
from cfab.tasks.kit.mail import addressed_to, expect_draft, fact_pattern, states
from cfab.tasks.kit.sql import case_of, case_when, in_list, quoted, sql_list
from cfab.tasks.kit.steps import mutant, step, trajectory, with_args
from cfab.tasks.kit.workbook import expect_cells

__all__ = [
    "CENT",
    "ErpEntry",
    "addressed_to",
    "allow_added",
    "allow_changed",
    "amount_answer",
    "answers_of",
    "ask",
    "case_of",
    "case_when",
    "cents",
    "choice_answer",
    "count_answer",
    "count_word",
    "date_answer",
    "dollars",
    "evaluator",
    "expect_added",
    "expect_cells",
    "expect_changed",
    "expect_draft",
    "expect_entry",
    "expect_side_total",
    "fact_pattern",
    "forbid_added",
    "forbid_call",
    "forbid_changed",
    "forbid_removed",
    "forbid_not_reversing",
    "forbid_reversing",
    "id_answer",
    "id_list_answer",
    "in_list",
    "line_side",
    "money_str",
    "mutant",
    "percent",
    "post_step",
    "quantity",
    "quoted",
    "side_total",
    "sql_list",
    "states",
    "step",
    "trajectory",
    "with_args",
]
