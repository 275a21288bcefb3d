"""The family kit (cfab.tasks.kit) and the Family template: each helper once, on its own.

Figures are exact (no float on the way), SQL literals quote what the book holds, evaluator entries
take only the fields their kind may carry and bind against a catalog, trajectories keep what they
are given, and a family's named steps compose into one task. The answer builders are tested with
the grader's typed answers (tests/grader/test_grader_answers.py).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import CallPredicate, Evaluator, EvaluatorError, RowPredicate
from cfab.tasks.family import Family, TaskParts
from cfab.tasks.kit import (
    allow_added,
    allow_changed,
    amount_answer,
    ask,
    case_of,
    case_when,
    cents,
    count_word,
    dollars,
    evaluator,
    expect_added,
    expect_changed,
    forbid_added,
    forbid_call,
    forbid_changed,
    forbid_removed,
    in_list,
    money_str,
    mutant,
    percent,
    quantity,
    quoted,
    sql_list,
    step,
    trajectory,
    with_args,
)
from cfab.tasks.model import Task, ToolStep, Trajectory

CATALOG = {
    "vista_erp.APVH": {"VendorGroup": "INTEGER", "Vendor": "INTEGER", "HoldCode": "VARCHAR"},
    "vista_erp.APVM": {"Vendor": "INTEGER", "Name": "VARCHAR"},
    "ressio.bill_po_matches": {
        "bill_id": "INTEGER",
        "item_no": "INTEGER",
        "result": "VARCHAR",
        "variance": "DECIMAL(18,2)",
    },
    "vista_erp.GLDB": {"GLAcct": "VARCHAR", "Job": "VARCHAR", "Amount": "DECIMAL(18,2)"},
}


# ------------------------------------------------------------------------------ figures
@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Decimal("14350"), "14350.00"),
        ("14350.5", "14350.50"),
        (0, "0.00"),
        (Decimal("-12.345"), "-12.34"),
        (Decimal("0.125"), "0.12"),
    ],
)
def test_money_str_is_the_exact_cent(value: Any, text: str) -> None:
    assert money_str(value) == text


def test_dollars_and_cents() -> None:
    assert dollars(Decimal("1234567.8")) == "$1,234,567.80"
    assert dollars("0") == "$0.00"
    assert cents(Decimal("0.125")) == Decimal("0.13")  # half-up, as the apps round
    assert cents("2.675") == Decimal("2.68")  # from the decimal text, not a float


def test_percent_quantity_and_count_words() -> None:
    assert (percent(Decimal("10.00")), percent("7.50"), percent(Decimal("5"))) == ("10", "7.5", "5")
    assert (quantity(Decimal("1250.000")), quantity("12.50"), quantity(3)) == ("1250", "12.5", "3")
    assert (count_word(0), count_word(3), count_word(20), count_word(21), count_word(-1)) == (
        "zero",
        "three",
        "twenty",
        21,
        -1,
    )


# ------------------------------------------------------------------------------ SQL fragments
def test_sql_literals() -> None:
    assert quoted("O'Brien") == "'O''Brien'"
    assert quoted(42) == "'42'"
    assert sql_list([1, "a", "b'c"]) == "1, 'a', 'b''c'"
    assert in_list("recipient_id", ["R1", "R2"]) == "recipient_id IN ('R1', 'R2')"


def test_case_expressions() -> None:
    assert (
        case_when("item_no", [("1", "'Matched'"), ("2", "'Exception'")])
        == "CASE item_no WHEN 1 THEN 'Matched' WHEN 2 THEN 'Exception' END"
    )
    assert case_when("k", [("'a'", "x = 1")], "false") == "CASE k WHEN 'a' THEN x = 1 ELSE false END"
    # integer keys in order, amounts to the cent (or whole numbers)
    assert case_of("item_no", {2: Decimal("5"), 1: "120"}) == "CASE item_no WHEN 1 THEN 120.00 WHEN 2 THEN 5.00 END"
    assert case_of("item_no", {1: 7}, money=False) == "CASE item_no WHEN 1 THEN 7 END"


# ------------------------------------------------------------------------------ evaluator entries
def test_entries_carry_their_op_and_fields() -> None:
    hold = expect_added("vista_erp", "APVH", {"VendorGroup": 1, "Vendor": 13571}, count=1, label="one hold")
    assert (hold.op, hold.where, hold.count, hold.label) == (
        "added",
        {"VendorGroup": 1, "Vendor": 13571},
        1,
        "one hold",
    )
    change = expect_changed(
        "vista_erp", "APVM", {"_pk": 13571}, assert_={"Name": "X"}, allow_columns=("Name",), label="renamed"
    )
    assert (change.op, change.assert_, change.allow_columns) == ("changed", {"Name": "X"}, ["Name"])
    total = expect_added("vista_erp", "GLDB", "GLAcct = '5200'", total={"Amount": "10.00"}, label="Dr 5200")
    assert total.total == {"Amount": "10.00"}
    assert forbid_removed("vista_erp", "APVH", label="released").op == "removed"
    assert allow_changed("vista_erp", "APVM", allow_columns=["Name"], label="the name").allow_columns == ["Name"]
    assert all(isinstance(e, RowPredicate) for e in (hold, change, total))
    call = forbid_call("vista_erp.vista_post", "posting")
    assert isinstance(call, CallPredicate) and (call.tool, call.label) == ("vista_erp.vista_post", "posting")


def test_forbidden_and_allowed_entries_take_no_expected_only_fields() -> None:
    with pytest.raises(TypeError):
        forbid_added("vista_erp", "APVH", count=1, label="x")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        allow_added("vista_erp", "APVH", assert_="Vendor = 1", label="x")  # type: ignore[call-arg]


def test_entries_check_their_sql_when_written() -> None:
    with pytest.raises(ValueError):
        forbid_changed("vista_erp", "APVM", "Vendor = (SELECT 1)", label="a subquery is not a row predicate")
    with pytest.raises(ValueError):  # an added row has no before side
        expect_added("vista_erp", "APVH", assert_="before.Vendor = 1", label="x")


def test_evaluator_forbids_the_unexpected_and_binds_against_a_catalog() -> None:
    answers = [amount_answer("accrual_amount", "the accrual amount", Decimal("10"), lookalikes=["12"])]
    matched = (
        f"bill_id = 7 AND result = {case_when('item_no', [('1', quoted('Matched'))])} "
        f"AND variance = {case_of('item_no', {1: 0})}"
    )
    ev = evaluator(
        expected=[
            expect_added(
                "vista_erp",
                "GLDB",
                "GLAcct = '5200'",
                assert_={"Job": "1042-"},
                total={"Amount": "10.00"},
                label="Dr 5200",
            ),
            expect_added("ressio", "bill_po_matches", matched, count=1, label="matched"),
        ],
        forbidden=[
            forbid_added("vista_erp", "APVH", in_list("Vendor", [13572, 13573]), label="the lookalikes"),
            forbid_changed("vista_erp", "APVM", label="the vendor master"),
        ],
        allowed=[allow_added("vista_erp", "APVH", {"Vendor": 13571}, label="a hold on the vendor")],
        answers=answers,
        forbidden_calls=[forbid_call("vista_erp.vista_post", "posting")],
        money_movement_guard=True,
    )
    assert isinstance(ev, Evaluator)
    assert ev.forbid_unexpected and ev.money_movement_guard
    assert [a.name for a in ev.answers] == ["accrual_amount"]
    assert ev.validate_against(CATALOG) is ev
    dumped = ev.model_dump(mode="json", by_alias=True)
    assert dumped["expected"][0]["assert"] == {"Job": "1042-"}
    bad = evaluator(
        expected=[expect_added("vista_erp", "APVH", "Vendorr = 1", label="a typo")], money_movement_guard=False
    )
    with pytest.raises(EvaluatorError, match="Vendorr"):
        bad.validate_against(CATALOG)


# ------------------------------------------------------------------------------ steps and trajectories
def test_steps_and_trajectories() -> None:
    hold = step("vista_erp.vendors.set_payment_hold", vendor_id="13571", on_hold=True)
    assert hold == ToolStep(tool="vista_erp.vendors.set_payment_hold", args={"vendor_id": "13571", "on_hold": True})
    other = with_args(hold, vendor_id="13572", hold_code="COI")
    assert other.args == {"vendor_id": "13572", "on_hold": True, "hold_code": "COI"}
    assert hold.args["vendor_id"] == "13571"  # the original is left as it was
    assert step("procore.projects.list").args == {}
    ok = trajectory("oracle", (s for s in [hold]), "Held.", {"vista_vendor_id": "13571"})
    assert (ok.label, ok.steps, ok.reply, ok.answers, ok.mutant_class) == (
        "oracle",
        [hold],
        "Held.",
        {"vista_vendor_id": "13571"},
        None,
    )
    wrong = mutant("lookalike", "the other vendor held", [other])
    assert (wrong.mutant_class, wrong.reply, wrong.answers) == ("lookalike", "Done.", {})


# ------------------------------------------------------------------------------ the Family template
class _Toy(
    Family[dict],
    family="C_toy_hold",
    domain_code="C",
    taxonomy_path="C.Toy.hold",
    difficulty=1,
    systems=["vista_erp"],
    user_role="AP Manager",
    policy_ref="ap_invoice_policy.md",
    money_movement_guard=True,
    source_ref="a test",
):
    calls: list[str] = []

    def keys(self, book: Any) -> list[str]:
        return ["13571"]

    def case(self, key: str, book: Any) -> dict:
        self.calls.append("case")
        return {"vendor": key, "look": "13572"}

    def answers(self, c: dict) -> list[AnswerSpec]:
        return [amount_answer("held_amount", "the amount held", "10", lookalikes=["11"])]

    def instruction(self, c: dict, answers: list[AnswerSpec]) -> str:
        return f"Hold vendor {c['vendor']}. {ask(answers)}"

    def evaluator(self, c: dict, answers: list[AnswerSpec]) -> Evaluator:
        return evaluator(
            expected=[expect_added("vista_erp", "APVH", {"Vendor": int(c["vendor"])}, count=1, label="the hold")],
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    def _hold(self, vendor: str) -> ToolStep:
        return step("vista_erp.vendors.set_payment_hold", vendor_id=vendor, on_hold=True)

    def oracle(self, c: dict, report: dict[str, Any]) -> Trajectory:
        return trajectory("oracle", [self._hold(c["vendor"])], "Held.", report)

    def mutants(self, c: dict, report: dict[str, Any]) -> list[Trajectory]:
        return [mutant("lookalike", "the lookalike held", [self._hold(c["look"])], answers=report)]

    def guarded_step(self, c: dict) -> ToolStep:
        return step("vista_erp.payments.create", vendor_id=c["vendor"])


def test_family_card_is_set_by_class_keywords() -> None:
    assert (_Toy.family, _Toy.domain_code, _Toy.systems, _Toy.scales, _Toy.rubric, _Toy.sql_write) == (
        "C_toy_hold",
        "C",
        ["vista_erp"],
        True,
        None,
        False,
    )
    with pytest.raises(TypeError, match="taxonomy_path"):

        class _Half(Family[dict], family="C_half", domain_code="C"):  # type: ignore[call-arg]
            pass


def test_build_composes_the_named_steps_into_one_task() -> None:
    fam = _Toy()
    parts = fam.build("13571", book=None)  # type: ignore[arg-type]
    assert isinstance(parts, TaskParts)
    assert fam.calls == ["case"]  # the book is read once per task
    assert parts.instruction == "Hold vendor 13571. When you finish, report the amount held (`held_amount`)."
    assert parts.oracle.answers == {"held_amount": "10.00"}  # the report: the answers' expected values
    assert parts.mutants[0].answers == parts.oracle.answers
    assert (parts.alternatives, parts.defect_variant, parts.rubric) == ([], None, None)
    task = fam.task("13571", book=None)  # type: ignore[arg-type]
    assert isinstance(task, Task)
    assert (task.instance_id, task.family, task.domain, task.money_movement_guard) == (
        "cf_C_toy_hold_13571",
        "C_toy_hold",
        "AP & Procurement",
        True,
    )
    assert task.guarded_step == step("vista_erp.payments.create", vendor_id="13571")


def _says(fact: Any, text: str) -> bool:
    """What the grader decides: DuckDB (RE2) runs the pattern over the text."""
    from cfab.tasks.kit.mail import states

    return _sql_bool(f"SELECT {states(fact, 'x')} FROM (SELECT ? AS x)", text)


def _sql_bool(sql: str, text: str) -> bool:
    import duckdb

    con = duckdb.connect()
    try:
        row = con.execute(sql, [text]).fetchone()
    finally:
        con.close()
    assert row is not None
    return bool(row[0])


@pytest.mark.parametrize(
    ("fact", "text", "found"),
    [
        (Decimal("12345.67"), "Please remit $12,345.67 by Friday.", True),
        (Decimal("12345.67"), "amount 12345.67", True),
        (Decimal("12345.67"), "USD 12,345.67.", True),
        (Decimal("12345.67"), "total $112,345.67", False),
        (Decimal("12345.67"), "total 12,345.675", False),
        (Decimal("12345.67"), "total 12,345.6", False),
        (Decimal("12345.00"), "a retainage of $12,345 is held", True),
        (Decimal("12345.00"), "a retainage of $12,345.00, held", True),
        (Decimal("12345.00"), "a retainage of $12,345.50 is held", False),
        (Decimal("12345.00"), "a balance of 12,345,678.00", False),
        (Decimal("-250.00"), "a credit of -$250.00 applies", True),
        (Decimal("250.00"), "a credit of -$250.00 applies", False),
        (date(2026, 1, 31), "expires 2026-01-31", True),
        (date(2026, 1, 31), "expires 01/31/2026.", True),
        (date(2026, 2, 3), "expires 2/3/2026", True),
        (date(2026, 1, 31), "expires January 31, 2026", True),
        (date(2026, 1, 31), "expires Jan. 31 2026", True),
        (date(2026, 1, 31), "expires 31 January 2026", True),
        (date(2026, 1, 31), "expires 2026-01-30", False),
        (date(2026, 1, 3), "expires 01/31/2026", False),
        ("INV-1042", "re: inv-1042 (Walsh)", True),
        ("INV-1042", "re: INV-10425", False),
        ("V1003", "vendor XV1003", False),
    ],
)
def test_draft_facts_match_the_ways_people_write_them(fact: Any, text: str, found: bool) -> None:
    assert _says(fact, text) is found


def test_a_draft_entry_names_its_recipients_and_facts() -> None:
    from cfab.tasks.kit import addressed_to, expect_cells, expect_draft

    entry = expect_draft(["ap@walsh.com"], [Decimal("980.00"), "INV-7"], label="the hold notice")
    assert entry.op == "added" and entry.count == 1 and entry.where == {"isDraft": True}
    for to, found in (("AP@walsh.com; pm@companyA.com", True), ("xap@walsh.com", False), ("ap@walsh.com.evil", False)):
        assert _sql_bool(f"SELECT {addressed_to(['ap@walsh.com'], 'x')} FROM (SELECT ? AS x)", to) is found, to
    (cell,) = expect_cells("Forecast.xlsx", "Weeks", {"c17": Decimal("48211.5")}, op="changed")
    assert cell.where == {"workbook": "Forecast.xlsx", "sheet": "Weeks", "cell": "C17"}
    assert cell.assert_ == {"computed": "48211.50"} and set(cell.allow_columns) == {"value", "formula", "data_type"}


# --------------------------------------------------------------------------------------- journal entries
def test_a_staged_entry_in_each_erps_columns() -> None:
    """The one draft header, each side's lines and total as the ERP keeps them, the reversing flag
    where there is one, and the guarded post of the staged batch."""
    from dataclasses import dataclass

    from cfab.apps.erp.vendors import ERP_APPS
    from cfab.tasks.kit import ErpEntry, expect_entry, forbid_reversing, line_side, post_step, side_total
    from cfab.tasks.model import result_of

    for app, cls in ERP_APPS.items():
        d, line = cls.D, cls.D.t("je_open_line")
        head = expect_entry(app, d, "2026-01-31", f"one draft journal entry in {cls.label} dated 2026-01-31")
        assert (head.app, head.table, head.count) == (app, d.t("je_open_hdr").table, 1)
        assert head.assert_ == {d.t("je_open_hdr").n("act_date"): "2026-01-31"} and cls.label in head.label
        where, col = line_side(d, "5490", False)
        assert line.n("account") in where and "'5490'" in where
        signed = not (line.has("debit") or line.has("tr_type"))
        assert side_total(d, Decimal("12.50"), False) == ("-12.50" if signed else "12.50")
        assert side_total(d, Decimal("12.50"), True) == "12.50"
        reversing = forbid_reversing(app, d, "set to reverse")
        assert len(reversing) == int(d.t("je_open_hdr").has("auto_reverse"))
        post = post_step(app)
        assert post.tool == f"{app}.{cls.TOOL_NAMES['post']}" and post.args["kind"] == "journal_entry"
        assert post.args["batch_id"] == result_of(f"{app}.journal_entries.stage", "batch_id")

    @dataclass(frozen=True)
    class Staged(ErpEntry):
        erp: str
        clock: date

    c = Staged("qbo", date(2026, 1, 31))
    assert (c.label, c.D, c.entry_date) == (ERP_APPS["qbo"].label, ERP_APPS["qbo"].D, "2026-01-31")
