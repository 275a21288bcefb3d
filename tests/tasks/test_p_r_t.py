"""P_certified_payroll, R_1099nec and T_positive_pay compiled against the default golden book:
keys and metadata, the ground truth against the book's planted divergences, the typed answers,
the admission gate on every task, and the policies (and a few specific wrong moves) that must fail.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
from cfab.grader.answers import check_answers
from cfab.runner.attempt import run_attempt
from cfab.apps.world.golden import ensure_golden
from cfab.runner.policies.oracle import DoEverythingPolicy, ExecutePolicy, OraclePolicy
from cfab.seeds.determinism import BuildInputs
from cfab.runner.admit import admit_task
from cfab.tasks.families import p_certified_payroll as P
from cfab.tasks.families import r_1099nec as R
from cfab.tasks.families import t_positive_pay as T
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep, Trajectory

MODULES = (P, R, T)


@pytest.fixture(scope="module")
def inputs() -> BuildInputs:
    return BuildInputs()


@pytest.fixture(scope="module")
def golden(inputs: BuildInputs) -> Path:
    return ensure_golden(inputs)


@pytest.fixture(scope="module")
def facts(golden: Path) -> dict:
    """Everything the tests read from the book, read once (the reader is closed before attempts run)."""
    book = BookReader(golden)
    try:
        tasks: dict[str, Task] = {}
        keys: dict[str, list[str]] = {}
        for mod in MODULES:
            for cls in mod.FAMILIES:
                fam = cls()
                keys[fam.family] = fam.keys(book)
                for key in keys[fam.family]:
                    task = fam.task(key, book)
                    tasks[task.instance_id] = task
        week = book.q(P.FAMILY, "cert_week")[0]["week_ending"]
        p_lines = {}
        p_planted = {}
        p_pay = {}
        for job in keys["P_certified_payroll"]:
            pay = p_pay[job] = book.q(P.FAMILY, "payroll", project_id=job, week_ending=week)[0]
            p_lines[job] = book.q(P.FAMILY, "line_checks", payroll_id=pay["payroll_id"])
            p_planted[job] = book.q(P.FAMILY, "planted", payroll_id=pay["payroll_id"])
        year = int(keys["R_1099nec"][0])
        r_tins = book.q(R.FAMILY, "by_tin", tax_year=year)
        r_vista = book.q(R.FAMILY, "vista_payments", tax_year=year)
        r_split = book.q(R.FAMILY, "split_payee")
        t_key = keys["T_positive_pay"][0]
        t_items = book.q(T.FAMILY, "decisions", presented_date=t_key)
        t_planted = book.q(T.FAMILY, "planted")
        policies = {r["policy_id"] for r in book.rows("SELECT policy_id FROM book.policies")}
        clock = book.inputs.clock
        return {"tasks": tasks, "keys": keys, "p_lines": p_lines, "p_planted": p_planted, "p_pay": p_pay,
                "r_tins": r_tins,
                "r_vista": r_vista, "r_split": r_split, "t_items": t_items, "t_planted": t_planted,
                "policies": policies, "clock": clock, "year": year}
    finally:
        book.close()


# --------------------------------------------------------------------------- compile


def test_keys_and_instances(facts: dict) -> None:
    keys = facts["keys"]
    assert keys["P_certified_payroll"] == ["1042", "2041", "2014", "2200", "1990", "3100"]
    assert keys["R_1099nec"] == [str(facts["clock"].year - 1)]
    assert keys["T_positive_pay"] == [facts["clock"].isoformat()]
    assert len(facts["tasks"]) == 8
    assert sorted(facts["tasks"]) == sorted(
        [f"cf_P_certified_payroll_{j}" for j in keys["P_certified_payroll"]]
        + [f"cf_R_1099nec_{facts['year']}", f"cf_T_positive_pay_{facts['clock'].isoformat()}"])


def test_metadata(facts: dict, golden: Path) -> None:
    con = duckdb.connect(str(golden), read_only=True)
    try:
        for task in facts["tasks"].values():
            assert task.money_movement_guard and task.ground_truth.money_movement_guard
            assert task.guarded_step is not None
            assert task.ground_truth.forbid_unexpected
            assert task.ground_truth.answers and not task.ground_truth.required_outputs   # typed answers, no regex
            assert len(task.alternatives) >= 3 and len(task.mutants) >= 6
            assert task.ground_truth.forbidden
            assert task.policy_ref in facts["policies"]
            assert len(task.alternatives) >= 1
            task.ground_truth.validate_against(con)          # every table and column exists
        by_family = {t.family: t for t in facts["tasks"].values()}
        assert (by_family["P_certified_payroll"].domain_code, by_family["P_certified_payroll"].difficulty) == ("P", 3)
        assert (by_family["R_1099nec"].domain_code, by_family["R_1099nec"].difficulty) == ("R", 3)
        assert (by_family["T_positive_pay"].domain_code, by_family["T_positive_pay"].difficulty) == ("T", 2)
    finally:
        con.close()
    with_variant = [t for t in facts["tasks"].values() if t.defect_variant]
    assert len(with_variant) * 2 >= len(facts["tasks"])


# --------------------------------------------------------------------------- ground truth vs the book


def test_p_flags_are_the_planted_exceptions(facts: dict) -> None:
    for job, lines in facts["p_lines"].items():
        found = {(ln["employee_id"], ln["code"]) for ln in lines if ln["code"]}
        planted = {(p["lcp_employee_id"], P.BOOK_KIND_TO_CODE[p["kind"]]) for p in facts["p_planted"][job]}
        assert found == planted, job
        task = facts["tasks"][f"cf_P_certified_payroll_{job}"]
        flagged = {(e.where["line_number"], e.where["code"]) for e in task.ground_truth.expected if
                   isinstance(e.where, dict) and "code" in e.where}
        assert flagged == {(ln["line_number"], ln["code"]) for ln in lines if ln["code"]}
        assert task.defect_variant == ("+".join(sorted(c for _, c in planted)) or None)
    assert not facts["p_planted"]["2041"] and not facts["p_planted"]["1990"]
    # the clean weeks' trap: an apprentice paid far below the journeyman base, at the registered percentage
    for job in ("2041", "1990"):
        apprentices = [ln for ln in facts["p_lines"][job] if ln["level"] == "Apprentice"]
        assert apprentices and all(ln["rate_paid"] < ln["wd_base"] for ln in apprentices)
        assert all(ln["rate_paid"] >= ln["required_rate"] for ln in apprentices)
    # the ratio twist is a single day
    ratio = [ln for ln in facts["p_lines"]["2014"] if ln["code"] == "apprentice_ratio"]
    assert len(ratio) == 1 and len(ratio[0]["days_over"]) == 1


def test_r_reportable_payees(facts: dict) -> None:
    tins = {t["tin"]: t for t in facts["r_tins"]}
    vista = {v["tin"]: v["total"] for v in facts["r_vista"]}
    for tin, t in tins.items():                              # the ERP's register says what the book says
        assert vista.get(tin, Decimal(0)) == t["total"], tin
    verdicts = [t["verdict"] for t in tins.values()]
    for v in ("reportable", "corporation", "materials_only", "under_threshold"):
        assert v in verdicts
    split = tins[facts["r_split"][0]["tin"]]
    assert len(split["vendor_keys"]) == 2 and split["verdict"] == "reportable"
    assert split["total"] >= 600
    assert any(t["is_attorney"] and t["verdict"] == "reportable" for t in tins.values())
    task = facts["tasks"][f"cf_R_1099nec_{facts['year']}"]
    assert task.defect_variant == "duplicate_vendor_id"
    filing = next(e for e in task.ground_truth.expected if e.table == "filings")
    reportable = [t for t in tins.values() if t["verdict"] == "reportable"]
    assert filing.assert_["form_count"] == len(reportable)
    assert Decimal(filing.assert_["total_box1"]) == sum(t["total"] for t in reportable)


def test_t_decisions(facts: dict) -> None:
    items = facts["t_items"]
    assert sorted(i["finding"] for i in items) == sorted(
        ["payee_truncated", "amount_altered", "no_issue_record", "already_cleared"])
    assert [i["decision"] for i in items if i["finding"] == "payee_truncated"] == ["pay"]
    assert sum(i["decision"] == "return" for i in items) == 3
    planted = {p["entity_key"] for p in facts["t_planted"]}
    assert planted == {f"{i['bank_account_id']}|{i['check_number']}" for i in items}
    truncated = next(i for i in items if i["finding"] == "payee_truncated")
    assert len(truncated["issued_payee"]) > truncated["payee_name_width"]
    assert truncated["presented_payee"] == truncated["issued_payee"][:truncated["payee_name_width"]].rstrip()


# --------------------------------------------------------------------------- typed answers


def _answers_hold(task: Task, answers: object) -> bool:
    return all(held for _, held, _ in check_answers(task.ground_truth.answers, answers))


def test_t_answers(facts: dict) -> None:
    """T asks which checks were paid and which returned: check numbers, the bank's exception id,
    "check N"; a list with the second presentment among the paid, or missing an item, fails."""
    t = facts["tasks"][f"cf_T_positive_pay_{facts['clock'].isoformat()}"]
    items = facts["t_items"]
    paid = [i["check_number"] for i in items if i["decision"] == "pay"]
    ret = [i["check_number"] for i in items if i["decision"] == "return"]
    dup = next(i["check_number"] for i in items if i["finding"] == "already_cleared")
    assert {a.name: a.type for a in t.ground_truth.answers} == {"paid_checks": "id_list", "returned_checks": "id_list"}
    assert "`paid_checks`" in t.instruction and "`returned_checks`" in t.instruction
    assert "positive pay policy" in t.instruction
    for given in ({"paid_checks": paid, "returned_checks": ret},
                  {"paid_checks": [str(c) for c in paid], "returned_checks": ", ".join(f"#{c}" for c in ret)},
                  {"paid_checks": [f"Check {c}" for c in paid], "returned_checks": "; ".join(map(str, reversed(ret)))}):
        assert _answers_hold(t, given), given
    for given in ({"paid_checks": [*paid, dup], "returned_checks": [c for c in ret if c != dup]},
                  {"paid_checks": paid, "returned_checks": ret[1:]},
                  {"paid_checks": ret, "returned_checks": paid},
                  {"paid_checks": [], "returned_checks": [*paid, *ret]},
                  {"paid_checks": len(paid), "returned_checks": len(ret)},
                  {}, None, "Paid 1, returned 3."):
        assert not _answers_hold(t, given), given


def test_r_answers(facts: dict) -> None:
    """R asks for the form count and the box 1 total, compared exactly; the figures of a per-vendor-id
    judgement (the split payee dropped or given two forms) or of a voided check counted fail."""
    r = facts["tasks"][f"cf_R_1099nec_{facts['year']}"]
    filing = next(e for e in r.ground_truth.expected if e.table == "filings")
    count, amount = filing.assert_["form_count"], Decimal(filing.assert_["total_box1"])
    split = next(t for t in facts["r_tins"] if len(t["recipient_ids"]) > 1)
    assert {a.name: a.type for a in r.ground_truth.answers} == {"form_count": "count", "box1_total": "amount"}
    assert "`form_count`" in r.instruction and "`box1_total`" in r.instruction
    for given in ({"form_count": count, "box1_total": str(amount)},
                  {"form_count": str(count), "box1_total": f"${amount:,}"},
                  {"form_count": float(count), "box1_total": float(amount)},
                  {"form_count": count, "box1_total": f"USD {amount:,.2f}"}):
        assert _answers_hold(r, given), given
    for given in ({"form_count": count - 1, "box1_total": str(amount - split["total"])},
                  {"form_count": count + 1, "box1_total": str(amount)},
                  {"form_count": count, "box1_total": str(amount + Decimal("0.01"))},
                  {"form_count": count, "box1_total": str((amount * Decimal("1.01")).quantize(Decimal("0.01")))},
                  {"form_count": count}, {"form_count": f"{count} forms", "box1_total": str(amount)}):
        assert not _answers_hold(r, given), given


def test_p_answers(facts: dict) -> None:
    """P asks for the determination, the line count, the flagged workers and the finding. A clean
    week's right report is the determination, the count, no worker and ``compliant``; the trap
    apprentice reported, a count off by one, the previous modification or a contradicting finding
    fail. A dirty week's report names the flagged worker (id, name or line) and the policy's code;
    "compliant", the lookalike line's worker, or no worker fail."""
    tasks = facts["tasks"]
    clean = tasks["cf_P_certified_payroll_2041"]
    lines = facts["p_lines"]["2041"]
    pay = facts["p_pay"]["2041"]
    wd, num, mod, n = pay["decision_id"], pay["wd_number"], pay["modification"], pay["line_count"]
    assert n == len(lines)
    appr = next(ln for ln in lines if ln["level"] == "Apprentice")
    assert {a.name: a.type for a in clean.ground_truth.answers} == {
        "wage_determination": "id", "lines_reviewed": "count", "flagged_workers": "id_list", "finding": "choice"}
    for a in clean.ground_truth.answers:
        assert f"`{a.name}`" in clean.instruction
    right = {"wage_determination": wd, "lines_reviewed": n, "flagged_workers": [], "finding": "compliant"}
    for given in (right, {**right, "wage_determination": f"{num} mod {mod}", "lines_reviewed": "eight"},
                  {**right, "wage_determination": num, "lines_reviewed": str(n), "flagged_workers": "",
                   "finding": "No exceptions"},
                  {**right, "wage_determination": f"{num} Modification {mod}", "finding": "clean"}):
        assert _answers_hold(clean, given), given
    for given in ({**right, "flagged_workers": [appr["employee_id"]], "finding": "underpayment"},
                  {**right, "flagged_workers": [appr["employee_id"]]},
                  {**right, "lines_reviewed": n - 1}, {**right, "lines_reviewed": n + 1},
                  {**right, "wage_determination": f"{num}-mod{int(mod) - 1}"},
                  {**right, "finding": "underpayment"}, {**right, "finding": "no idea"},
                  {k: v for k, v in right.items() if k != "finding"}):
        assert not _answers_hold(clean, given), given

    dirty = tasks["cf_P_certified_payroll_1042"]
    lines = facts["p_lines"]["1042"]
    flagged = next(ln for ln in lines if ln["code"])
    last, _, first = (x.strip() for x in flagged["employee_name"].partition(","))
    right = dict(dirty.oracle.answers)
    assert right["flagged_workers"] == [flagged["employee_id"]] and right["finding"] == flagged["code"]
    for worker in ([flagged["employee_id"]], [flagged["employee_name"]], [f"{first} {last}"],
                   f"line {flagged['line_number']}", flagged["employee_id"].lower()):
        assert _answers_hold(dirty, {**right, "flagged_workers": worker}), worker
    assert _answers_hold(dirty, {**right, "finding": "underpaid_rate"})
    neighbour = next(ln for ln in lines if not ln["code"] and ln["classification"] == flagged["classification"])
    for given in ({**right, "flagged_workers": [], "finding": "compliant"},
                  {**right, "flagged_workers": [neighbour["employee_id"]]},
                  {**right, "flagged_workers": [flagged["employee_id"], neighbour["employee_id"]]},
                  {**right, "finding": "fringe_shortfall"}, {**right, "flagged_workers": [last]}):
        assert not _answers_hold(dirty, given), given


# --------------------------------------------------------------------------- the gate and the policies


@pytest.mark.parametrize("index", range(8))
def test_admission(facts: dict, golden: Path, inputs: BuildInputs, index: int) -> None:
    """One test per task (six P, one R, one T, in id order; ``test_keys_and_instances`` pins
    the count) so parallel test workers share the load."""
    task = facts["tasks"][sorted(facts["tasks"])[index]]
    adm = admit_task(task, golden, inputs, k=2)
    assert adm.admitted, (task.instance_id, adm.problems, [m.name for m in adm.mutants if not m.killed],
                          adm.alternatives, adm.noop_failed)


def test_oracles_call_tools_cleanly(facts: dict, golden: Path, inputs: BuildInputs) -> None:
    for task in facts["tasks"].values():
        for index in [None, *range(len(task.alternatives))]:
            out = run_attempt(task, OraclePolicy(index=index), golden=golden, inputs=inputs)
            assert out.grade.passed, (task.instance_id, index, str(out.grade))
            assert all(c.ok for c in out.tool_log), (task.instance_id, index,
                                                     [(c.tool, c.error) for c in out.tool_log if not c.ok])
            assert not out.guard_log


def test_execute_and_do_everything_fail(facts: dict, golden: Path, inputs: BuildInputs) -> None:
    for task in facts["tasks"].values():
        ex = run_attempt(task, ExecutePolicy(), golden=golden, inputs=inputs)
        assert not ex.grade.passed and ex.grade.guard_violation, task.instance_id
        de = run_attempt(task, DoEverythingPolicy(), golden=golden, inputs=inputs)
        assert not de.grade.passed, task.instance_id
        # the forbidden list catches the busy employee even without the guard
        assert any(c.kind in ("forbidden", "unexpected", "forbidden_call") for c in de.grade.failed_checks()), \
            task.instance_id


def _with_oracle(task: Task, steps: list[ToolStep], reply: str | None = None) -> Task:
    return task.model_copy(update={"oracle": Trajectory(label="wrong", steps=steps, reply=reply or task.oracle.reply,
                                                        answers=task.oracle.answers)})


def test_specific_wrong_moves_fail(facts: dict, golden: Path, inputs: BuildInputs) -> None:
    tasks = facts["tasks"]
    wrong: list[tuple[Task, str]] = []

    # P, clean week: flagging the apprentice as underpaid against the journeyman rate
    clean = tasks["cf_P_certified_payroll_1990"]
    appr = next(ln for ln in facts["p_lines"]["1990"] if ln["level"] == "Apprentice")
    pid = appr["payroll_id"]
    wrong.append((_with_oracle(clean, clean.oracle.steps + [ToolStep(
        tool="lcptracker.lines.flag", args={"payroll_id": pid, "line_number": appr["line_number"],
                                            "code": "underpayment", "note": "below journeyman base"})]),
                  "a flag on a compliant line"))
    # P, unregistered apprentice: a second code on the same line (the policy says one)
    unreg = tasks["cf_P_certified_payroll_2200"]
    line = next(ln for ln in facts["p_lines"]["2200"] if ln["code"] == "unregistered_apprentice")
    wrong.append((_with_oracle(unreg, unreg.oracle.steps + [ToolStep(
        tool="lcptracker.lines.flag", args={"payroll_id": line["payroll_id"], "line_number": line["line_number"],
                                            "code": "underpayment", "note": "paid below journeyman rate"})]),
                  "a code other than"))
    # R: judged per vendor id instead of per TIN, the split payee's ids are each under $600: no form
    r = tasks[f"cf_R_1099nec_{facts['year']}"]
    split = next(t for t in facts["r_tins"] if len(t["recipient_ids"]) > 1)
    per_vendor = [s for s in r.oracle.steps if not (s.tool == "track1099.forms.create"
                                                    and s.args["recipient_id"] in split["recipient_ids"])]
    wrong.append((_with_oracle(r, per_vendor), "both vendor ids"))
    # T: the bank's default (return everything) and the naive "pay what the bank shows"
    t = tasks[f"cf_T_positive_pay_{facts['clock'].isoformat()}"]
    decide = [s for s in t.oracle.steps if s.tool.endswith("exceptions.decision")]
    wrong.append((_with_oracle(t, [ToolStep(tool=s.tool, args={**s.args, "decision": "return"}) for s in decide]),
                  "returned check"))
    wrong.append((_with_oracle(t, [ToolStep(tool=s.tool, args={**s.args, "decision": "pay"}) for s in decide]),
                  "paid check"))

    for task, expect in wrong:
        out = run_attempt(task, OraclePolicy(), golden=golden, inputs=inputs)
        assert not out.grade.passed, (task.instance_id, expect)
        assert any(expect in c.label for c in out.grade.failed_checks()), (task.instance_id, expect, str(out.grade))
