"""T_positive_pay compiled against the default golden book: the CashPro day's key and metadata,
the decisions against the planted exceptions (the truncated payee paid, three returned), the
typed answers, the admission gate, and the policies and the bank's defaults that must fail; the
other three portals' days (each portal's tools and words, the stale-dated and voided twists, the
clean control) and the held-out keys drawn from the same files."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfab.seeds.pospay_days import previous_business_day
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
    replay,
)

DAY = INPUTS.clock.isoformat()
PREV = previous_business_day(INPUTS.clock).isoformat()
KEY = f"cf_T_positive_pay_{DAY}"
FAMILY = T.TPositivePay
CHASE, WELLS, PNC, CHASE_PREV = (
    f"chase_treasury_{DAY}",
    f"wells_{DAY}",
    f"pnc_pinacle_{DAY}",
    f"chase_treasury_{PREV}",
)
KEYS = [DAY, CHASE, WELLS, PNC, CHASE_PREV]
HELD_OUT = sorted([f"wells_{PREV}", f"pnc_pinacle_{PREV}"])
OVER_EAGER_KEYS = [DAY]
ACCOUNTS = {"chase_treasury": "BA-PAYR", "wells": "BA-WFMM", "pnc_pinacle": "BA-PNCEQ"}
# the findings of each file the generator plants beyond CashPro (seeds/pospay_days.py)
FINDINGS = {
    CHASE: ["amount_altered", "already_cleared", "payee_truncated"],
    WELLS: ["no_issue_record", "payee_truncated", "payee_truncated", "voided"],
    PNC: ["amount_altered", "payee_truncated"],
    CHASE_PREV: ["no_issue_record", "payee_truncated", "stale_dated"],
}


@pytest.fixture(scope="module")
def facts(golden: Path) -> dict:
    """The presented items with their decisions and the planted divergences, read once."""
    book = BookReader(golden)
    try:
        return {
            "items": book.q(T.FAMILY, "decisions", presented_date=DAY, bank_account_id="BA-OPER"),
            "planted": book.q(T.FAMILY, "planted"),
            "files": {
                key: book.q(
                    T.FAMILY,
                    "decisions",
                    presented_date=key.rsplit("_", 1)[1],
                    bank_account_id=ACCOUNTS[key.rsplit("_", 1)[0]],
                )
                for key in [*KEYS[1:], *HELD_OUT]
            },
            "held_out": FAMILY().held_out_keys(book),
        }
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
    planted = {p["entity_key"] for p in facts["planted"] if p["entity_key"].startswith("BA-OPER|")}
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


def test_keys_and_portals(compiled: dict[str, Task], facts: dict) -> None:
    """Each portal's latest file plus the stale-dated one are public; the other two files are held
    out; each task names its own portal, whose tools and words it uses."""
    assert list(compiled) == [f"cf_T_positive_pay_{k}" for k in KEYS]
    assert sorted(facts["held_out"]) == HELD_OUT
    assert compiled[KEY].systems == ["bofa_cashpro", "vista_erp", "sharepoint"]
    for key in KEYS[1:]:
        t = compiled[f"cf_T_positive_pay_{key}"]
        app = key.rsplit("_", 1)[0]
        assert t.systems == [app, "vista_erp", "sharepoint"]
        assert {s.tool.split(".")[0] for s in t.oracle.steps} == {app, "vista_erp"}
        assert "180" not in t.instruction and "void" not in t.instruction.lower()  # the policy's clauses
    assert {k: compiled[f"cf_T_positive_pay_{k}"].defect_variant for k in KEYS} == {
        DAY: "fraud_unknown_check",
        CHASE: "duplicate_presentment",
        WELLS: "voided_check_presented",
        PNC: None,
        CHASE_PREV: "stale_dated_check",
    }


def test_planted_files(facts: dict) -> None:
    """The planted files' findings; only truncations are paid; the stale check is past 180 days."""
    for key, want in FINDINGS.items():
        items = facts["files"][key]
        assert sorted(i["finding"] for i in items) == sorted(want), key
        assert all((i["decision"] == "pay") == (i["finding"] == "payee_truncated") for i in items), key
    stale = next(i for i in facts["files"][CHASE_PREV] if i["finding"] == "stale_dated")
    assert stale["days_outstanding"] > 180 and stale["issued_amount"] == stale["presented_amount"]
    assert stale["issued_payee"] == stale["presented_payee"]
    for key in HELD_OUT:
        assert facts["files"][key], key


def _decisions(t: Task) -> list[ToolStep]:
    return [s for s in t.oracle.steps if s.args.get("exception_id") and "decision" in s.args]


def test_policy_only_returns_fail_when_paid(compiled: dict[str, Task], golden: Path) -> None:
    """The stale-dated check (Chase) and the voided check (Wells) match the register's number,
    amount and payee: paying either fails on its own forbidden entry."""
    for key, finding in ((CHASE_PREV, "stale-dated"), (WELLS, "voided")):
        t = compiled[f"cf_T_positive_pay_{key}"]
        steps = [
            ToolStep(tool=s.tool, args={**s.args, "decision": "pay"}) if finding in s.args["reason"].lower() else s
            for s in _decisions(t)
        ]
        assert steps != _decisions(t)
        assert_wrong_move_fails(t, golden, steps, finding)


def test_deciding_the_other_days_file_too_fails(compiled: dict[str, Task], golden: Path) -> None:
    """The same account's other file is also due today, but the instruction asks for one day's
    file: deciding the other day's items too (correctly) is an unexpected change."""
    today, prev = compiled[f"cf_T_positive_pay_{CHASE}"], compiled[f"cf_T_positive_pay_{CHASE_PREV}"]
    out = replay(today, golden, [*_decisions(prev), *_decisions(today)], answers=today.oracle.answers)
    assert not out.grade.passed
    assert {c.kind for c in out.grade.failed_checks()} == {"unexpected"}, str(out.grade)


def test_terse_reasons_in_another_order_pass(compiled: dict[str, Task], golden: Path) -> None:
    """Right but different: the day's items decided last-first with terse reasons."""
    t = compiled[f"cf_T_positive_pay_{CHASE_PREV}"]
    steps = [ToolStep(tool=s.tool, args={**s.args, "reason": "per policy"}) for s in reversed(_decisions(t))]
    out = replay(t, golden, steps, answers=t.oracle.answers)
    assert out.grade.passed, str(out.grade)


def test_the_other_portals_defaults_fail(compiled: dict[str, Task], golden: Path) -> None:
    """Each portal's decision tool: everything returned, or everything paid (PNC's own default),
    fails on the clean control and the voided file."""
    for key in (PNC, WELLS):
        t = compiled[f"cf_T_positive_pay_{key}"]
        decide = _decisions(t)
        assert_wrong_move_fails(
            t, golden, [ToolStep(tool=s.tool, args={**s.args, "decision": "return"}) for s in decide], "returned check"
        )
        assert_wrong_move_fails(
            t, golden, [ToolStep(tool=s.tool, args={**s.args, "decision": "pay"}) for s in decide], "paid check"
        )


def test_another_portals_oracles_call_tools_cleanly(compiled: dict[str, Task], golden: Path) -> None:
    assert_oracles_call_tools_cleanly(compiled[f"cf_T_positive_pay_{WELLS}"], golden)


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
