"""Typed answers: normalisation by type, exact comparison, and a grader that never raises.

The report cases of the verdict issue are here as answers: a contradicting conclusion fails
even when it names the same ids; a correct one in other words or another spelling passes.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfab.grader import AnswerSpec, Evaluator, StateDiff, answers_schema, check_answers, grade
from cfab.tasks.kit import amount_answer, ask, choice_answer, count_answer, date_answer, id_answer, id_list_answer
from tests.fixtures.tiers import examples

EMPTY = StateDiff(diffs={})


def _grade(specs: list[AnswerSpec], answers: Any, reply: Any = "") -> Any:
    ev = Evaluator.model_validate({"answers": [s.model_dump() for s in specs]})
    return grade(ev, EMPTY, reply=reply, answers=answers, guarded_calls=[], tool_calls=[])


HOLD_ID = id_answer(
    "vista_vendor_id",
    "the Vista vendor id you placed the hold on",
    "13571",
    aliases=["WALSH ELEC CONTR LLC"],
    lookalikes=["13572", "V1000-P"],
)
CO_KIND = choice_answer(
    "classification",
    "whether the change is an owner change order or an internal transfer",
    ["owner_change_order", "internal_transfer"],
    "internal_transfer",
    aliases={
        "internal_transfer": ["internal cost transfer", "internal reallocation of budget", "budget only"],
        "owner_change_order": ["owner change order", "owner CO"],
    },
)
DECISION = choice_answer("decision", "what you did with the pay application", ["approve", "hold"], "hold")
VIOLATIONS = id_list_answer("violating_lines", "the payroll lines you flagged", ["4"], lookalikes=["5"])
NO_FLAGS = id_list_answer("flagged_workers", "the workers you flagged", [], lookalikes=["W1"])
SYNCED = count_answer("synced", "how many requisitions you synced", 2)
SYNCED_IDS = id_list_answer("synced_invoices", "the invoice numbers you synced", ["26-9659", "55475"])
DUE = amount_answer("amount_due", "the current payment due", Decimal("731218.48"), lookalikes=["731218.50"])
PERIOD = date_answer("period_end", "the period end date", dt.date(2026, 1, 31))


@pytest.mark.parametrize(
    ("spec", "value"),
    [
        (HOLD_ID, "13571"),
        (HOLD_ID, 13571),
        (HOLD_ID, 13571.0),
        (HOLD_ID, "13,571"),
        (HOLD_ID, " 13571 "),
        (HOLD_ID, "walsh elec contr llc"),
        (HOLD_ID, "WALSH ELEC. CONTR. LLC"),
        (CO_KIND, "internal_transfer"),
        (CO_KIND, "Internal transfer"),
        (CO_KIND, "internal reallocation of budget"),
        (CO_KIND, "budget-only"),
        (DECISION, "HOLD"),
        (VIOLATIONS, ["4"]),
        (VIOLATIONS, [4]),
        (VIOLATIONS, "4"),
        (SYNCED, 2),
        (SYNCED, "2"),
        (SYNCED, "two"),
        (SYNCED, 2.0),
        (NO_FLAGS, []),
        (NO_FLAGS, "none"),
        (NO_FLAGS, "N/A"),
        (NO_FLAGS, ""),
        (SYNCED_IDS, ["55475", "26-9659"]),
        (SYNCED_IDS, "26-9659, 55475"),
        (SYNCED_IDS, ["26 9659", 55475, "55475"]),
        (DUE, "731218.48"),
        (DUE, "$731,218.48"),
        (DUE, 731218.48),
        (DUE, Decimal("731218.480")),
        (DUE, "USD 731,218.48"),
        (PERIOD, "2026-01-31"),
        (PERIOD, "01/31/2026"),
        (PERIOD, "January 31, 2026"),
        (PERIOD, dt.date(2026, 1, 31)),
    ],
)
def test_right_answers_in_any_accepted_form_pass(spec: AnswerSpec, value: Any) -> None:
    held, detail = spec.compare(value)
    assert held, detail
    assert _grade([spec], {spec.name: value}).passed


@pytest.mark.parametrize(
    ("spec", "value"),
    [
        (HOLD_ID, "13572"),
        (HOLD_ID, "V1000-P"),
        (HOLD_ID, "135710"),
        (HOLD_ID, ""),
        (HOLD_ID, True),
        (HOLD_ID, None),
        (HOLD_ID, ["13571"]),
        (HOLD_ID, {"id": "13571"}),
        (CO_KIND, "owner_change_order"),
        (CO_KIND, "owner change order"),
        (CO_KIND, "not an owner change order"),
        (CO_KIND, "both"),
        (DECISION, "approve"),
        (DECISION, "approved and held"),
        (VIOLATIONS, []),
        (VIOLATIONS, ["4", "5"]),
        (VIOLATIONS, ["5"]),
        (VIOLATIONS, "none"),
        (NO_FLAGS, "W1"),
        (NO_FLAGS, ["none of them", "W1"]),
        (SYNCED, 3),
        (SYNCED, 1),
        (SYNCED, "2.5"),
        (SYNCED, True),
        (SYNCED, "a couple"),
        (SYNCED_IDS, ["26-9659"]),
        (SYNCED_IDS, ["26-9659", "55475", "55476"]),
        (DUE, "731218.49"),
        (DUE, "731218.47"),
        (DUE, 731218.481),
        (DUE, "738530.66"),
        (DUE, "731,218"),
        (DUE, "about $731k"),
        (DUE, float("nan")),
        (DUE, "1" * 20_000),
        (PERIOD, "2026-02-01"),
        (PERIOD, "last day of January"),
    ],
)
def test_wrong_or_contradicting_answers_fail(spec: AnswerSpec, value: Any) -> None:
    held, detail = spec.compare(value)
    assert not held
    assert detail
    g = _grade([spec], {spec.name: value})
    assert not g.passed and [c.kind for c in g.failed_checks()] == ["answer"]


def test_the_issue_report_cases_as_answers() -> None:
    # "I did NOT place a hold on Vista vendor 13571": the state decides (no hold); the id alone says nothing.
    # "This is an owner change order, not an internal cost transfer" given as the choice → fails.
    assert not _grade(
        [CO_KIND],
        {"classification": "owner_change_order"},
        reply="This is an owner change order, not an internal cost transfer",
    ).passed
    # "No violations: Kessler is within the apprentice ratio" → an empty list of violating lines fails.
    assert not _grade([VIOLATIONS], {"violating_lines": []}, reply="No violations").passed
    # "Approved ... nothing was held" where the right answer is a hold → fails.
    assert not _grade([DECISION], {"decision": "approve"}, reply="Approved, nothing was held").passed
    # Correct reports in other words pass: the reply is free text, the answers are typed.
    assert _grade(
        [CO_KIND],
        {"classification": "internal reallocation of budget"},
        reply="booked as an internal reallocation of budget",
    ).passed
    assert _grade(
        [VIOLATIONS], {"violating_lines": ["4"]}, reply="All 8 other lines are OK, so I didn't flag them"
    ).passed
    assert _grade([HOLD_ID], {"vista_vendor_id": "13,571"}, reply="Held vendor 13,571").passed
    assert _grade(
        [SYNCED, SYNCED_IDS],
        {"synced": 2, "synced_invoices": ["26-9659", "55475"]},
        reply="Synced 26-9659 and 55475 (2 total)",
    ).passed


def test_missing_and_extra_answers() -> None:
    g = _grade([HOLD_ID, SYNCED], {"vista_vendor_id": "13571"})
    failed = g.failed_checks()
    assert not g.passed and len(failed) == 1 and "no answer 'synced'" in failed[0].detail
    # extra names are ignored; names match case-insensitively
    assert _grade([HOLD_ID], {"VISTA_VENDOR_ID": "13571", "notes": "anything"}).passed
    # a task that asks for no report passes a terse reply with no answers
    assert _grade([], None, reply="Done: hold placed").passed


@pytest.mark.parametrize("answers", [None, [], "13571", 13571, ["vista_vendor_id", "13571"], {"vista_vendor_id": {}}])
def test_answers_of_the_wrong_shape_fail_cleanly(answers: Any) -> None:
    g = _grade([HOLD_ID], answers)
    assert not g.passed and g.failed_checks()[0].kind == "answer" and g.failed_checks()[0].detail


@pytest.mark.parametrize("reply", [42, {"summary": "done"}, ["a"], b"bytes", 3.5])
def test_a_reply_that_is_not_text_is_a_failed_check(reply: Any) -> None:
    g = _grade([], None, reply=reply)
    assert not g.passed
    (check,) = g.failed_checks()
    assert check.kind == "reply" and type(reply).__name__ in check.detail


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | st.text(max_size=30)
    | st.decimals(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


@pytest.mark.fuzz
@settings(max_examples=examples(200), deadline=None)
@given(reply=JSON, answers=JSON, value=JSON)
def test_grade_never_raises(reply: Any, answers: Any, value: Any) -> None:
    specs = [HOLD_ID, CO_KIND, VIOLATIONS, SYNCED, DUE, PERIOD]
    for given_answers in (answers, {s.name: value for s in specs}):
        g = _grade(specs, given_answers, reply=reply)
        assert isinstance(g.passed, bool)
    results = check_answers(specs, {s.name: value for s in specs})
    assert len(results) == len(specs)


def test_spec_validation() -> None:
    with pytest.raises(ValueError, match="snake_case"):
        id_answer("Vendor Id", "x", "1")
    with pytest.raises(ValueError, match="at least two options"):
        choice_answer("c", "x", ["only"], "only")
    with pytest.raises(ValueError, match="not one of"):
        choice_answer("c", "x", ["a", "b"], "c")
    with pytest.raises(ValueError, match="would be accepted"):
        AnswerSpec(name="n", type="count", description="x", expected=2, lookalikes=["two"])
    with pytest.raises(ValueError, match="unique"):
        Evaluator.model_validate({"answers": [SYNCED.model_dump(), SYNCED.model_dump()]})


def test_schema_and_instruction_sentence() -> None:
    schema = answers_schema([HOLD_ID, CO_KIND, VIOLATIONS, SYNCED, DUE, PERIOD])
    assert schema["required"] == [
        "vista_vendor_id",
        "classification",
        "violating_lines",
        "synced",
        "amount_due",
        "period_end",
    ]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["classification"]["enum"] == ["owner_change_order", "internal_transfer"]
    assert schema["properties"]["violating_lines"]["type"] == "array"
    assert schema["properties"]["synced"]["type"] == "integer"
    public = CO_KIND.public()
    assert "expected" not in public and "aliases" not in public and public["options"]
    sentence = ask([HOLD_ID, CO_KIND])
    assert "`vista_vendor_id`" in sentence and "`owner_change_order` or `internal_transfer`" in sentence
