"""T_positive_pay compiled against the default golden book: the presented day's key and
metadata, the decisions against the planted exceptions (the truncated payee paid, three
returned), the typed answers, the admission gate, and the policies and the bank's defaults that
must fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfab.tasks.families import t_positive_pay as T
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep
from tests.tasks.family_helpers import (
    INPUTS,
    FamilyContract,
    answers_hold,
    assert_guarded_reports,
    assert_oracles_call_tools_cleanly,
    assert_wrong_move_fails,
)

DAY = INPUTS.clock.isoformat()
KEY = f"cf_T_positive_pay_{DAY}"
FAMILY = T.TPositivePay
KEYS = [DAY]
OVER_EAGER_KEYS = KEYS


@pytest.fixture(scope="module")
def facts(golden: Path) -> dict:
    """The presented items with their decisions and the planted divergences, read once."""
    book = BookReader(golden)
    try:
        return {"items": book.q(T.FAMILY, "decisions", presented_date=DAY), "planted": book.q(T.FAMILY, "planted")}
    finally:
        book.close()


def test_metadata(compiled: dict[str, Task]) -> None:
    assert_guarded_reports(compiled, "T", 2)


def test_decisions(facts: dict) -> None:
    items = facts["items"]
    assert sorted(i["finding"] for i in items) == sorted(
        ["payee_truncated", "amount_altered", "no_issue_record", "already_cleared"]
    )
    assert [i["decision"] for i in items if i["finding"] == "payee_truncated"] == ["pay"]
    assert sum(i["decision"] == "return" for i in items) == 3
    planted = {p["entity_key"] for p in facts["planted"]}
    assert planted == {f"{i['bank_account_id']}|{i['check_number']}" for i in items}
    truncated = next(i for i in items if i["finding"] == "payee_truncated")
    assert len(truncated["issued_payee"]) > truncated["payee_name_width"]
    assert truncated["presented_payee"] == truncated["issued_payee"][: truncated["payee_name_width"]].rstrip()


def test_answers(compiled: dict[str, Task], facts: dict) -> None:
    """T asks which checks were paid and which returned: check numbers, the bank's exception id,
    "check N"; a list with the second presentment among the paid, or missing an item, fails."""
    t = compiled[KEY]
    items = facts["items"]
    paid = [i["check_number"] for i in items if i["decision"] == "pay"]
    ret = [i["check_number"] for i in items if i["decision"] == "return"]
    dup = next(i["check_number"] for i in items if i["finding"] == "already_cleared")
    assert {a.name: a.type for a in t.ground_truth.answers} == {"paid_checks": "id_list", "returned_checks": "id_list"}
    assert "`paid_checks`" in t.instruction and "`returned_checks`" in t.instruction
    assert "positive pay policy" in t.instruction
    for given in (
        {"paid_checks": paid, "returned_checks": ret},
        {"paid_checks": [str(c) for c in paid], "returned_checks": ", ".join(f"#{c}" for c in ret)},
        {"paid_checks": [f"Check {c}" for c in paid], "returned_checks": "; ".join(map(str, reversed(ret)))},
    ):
        assert answers_hold(t, given), given
    for given in (
        {"paid_checks": [*paid, dup], "returned_checks": [c for c in ret if c != dup]},
        {"paid_checks": paid, "returned_checks": ret[1:]},
        {"paid_checks": ret, "returned_checks": paid},
        {"paid_checks": [], "returned_checks": [*paid, *ret]},
        {"paid_checks": len(paid), "returned_checks": len(ret)},
        {},
        None,
        "Paid 1, returned 3.",
    ):
        assert not answers_hold(t, given), given


def test_oracles_call_tools_cleanly(compiled: dict[str, Task], golden: Path) -> None:
    assert_oracles_call_tools_cleanly(compiled[KEY], golden)


def test_the_banks_defaults_fail(compiled: dict[str, Task], golden: Path) -> None:
    """The bank's default (return everything) and the naive "pay what the bank shows"."""
    t = compiled[KEY]
    decide = [s for s in t.oracle.steps if s.tool.endswith("exceptions.decision")]
    assert_wrong_move_fails(
        t, golden, [ToolStep(tool=s.tool, args={**s.args, "decision": "return"}) for s in decide], "returned check"
    )
    assert_wrong_move_fails(
        t, golden, [ToolStep(tool=s.tool, args={**s.args, "decision": "pay"}) for s in decide], "paid check"
    )


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
