"""G_equipment_allocation: compiled against the golden file, one ERP per fleet, HeavyBid's rate book
and the fleet's field-time app on every key; the twists by property (idle hours to overhead, a
rate revised mid-month, a rented unit, a clean control, a fleet with two twists); the ground truth
equal to a Python reading of the plant; the entry per job, account and side with its typed answers;
every task admitted (k=2); the over-eager policies failing; the careless readings caught (idle hours
charged to the jobs, the rented unit allocated, the month-end rate, the field-time rate); and a right
entry in another shape passing."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cfab.runner.attempt import run_attempt
from cfab.runner.policies.oracle import OraclePolicy
from cfab.tasks.families import g_equipment_allocation as G
from cfab.tasks.family import BookReader
from cfab.tasks.model import Task, ToolStep, result_of
from tests.tasks.family_helpers import (
    INPUTS,
    FamilyContract,
    answers_hold,
    assert_guarded_reports,
    failed,
    replay,
)

FAMILY = G.GEquipmentAllocation
KEYS = ["compaction", "cranes", "excavators", "loaders", "trucks"]
OVER_EAGER_KEYS = ["excavators", "cranes"]
DO_EVERYTHING_STOPPED_BY_THE_GUARD_ALONE = True  # its example-argument writes fail in these ERPs
TWISTS = {
    "cf_G_equipment_allocation_cranes": "rented_unit_excluded",
    "cf_G_equipment_allocation_excavators": "idle_to_overhead",
    "cf_G_equipment_allocation_loaders": "mid_month_rate_change",
    "cf_G_equipment_allocation_trucks": "idle_to_overhead",
}


def _t(compiled: dict[str, Task], key: str) -> Task:
    return compiled[f"cf_G_equipment_allocation_{key}"]


@pytest.fixture(scope="module")
def cases(golden: Path, compiled: dict[str, Task]) -> dict[str, G.Case]:
    book = BookReader(golden)
    try:
        return {t.key: FAMILY().case(t.key, book) for t in compiled.values()}
    finally:
        book.close()


def _stage(task: Task, lines: list[dict[str, Any]]) -> list[ToolStep]:
    """The oracle's reads, then its stage call with these lines."""
    steps = list(task.oracle.steps)
    steps[-1] = ToolStep(tool=steps[-1].tool, args={**steps[-1].args, "lines": lines})
    return steps


def test_keys_metadata_and_twists(compiled: dict[str, Task], cases: dict[str, G.Case]) -> None:
    assert_guarded_reports(compiled, "G", 3)
    assert {i: t.defect_variant for i, t in compiled.items() if t.defect_variant} == TWISTS
    erps = [t.systems[0] for t in compiled.values()]
    assert len(set(erps)) == len(erps) and set(erps) <= set(G.ERPS.values())
    assert {c.field for c in cases.values()} == {"rhumbix", "busybusy"}
    for t in compiled.values():
        c = cases[t.key]
        assert t.systems == [c.erp, "hcss_heavybid", c.field, "sharepoint"] and t.policy_ref == G.POLICY
        assert c.category in t.instruction and G.POLICY in t.instruction and c.field_label in t.instruction
        stage = t.oracle.steps[-1]
        assert stage.tool == f"{c.erp}.journal_entries.stage" and "auto_reverse" not in stage.args
        assert t.oracle.steps[0].tool == "sharepoint.files.read"
        assert {s.tool.split(".")[0] for s in t.oracle.steps} == {"sharepoint", "hcss_heavybid", c.field, c.erp}
        assert t.guarded_step.args["batch_id"] == result_of(stage.tool, "batch_id")
        names = [a.name for a in t.ground_truth.answers]
        assert names[:3] == ["total_charged_to_jobs", "total_recovered", "jobs_charged"]
        for spec in t.ground_truth.answers:
            assert f"`{spec.name}`" in t.instruction
            assert spec.lookalikes or spec.type == "id_list", spec.name
            assert all(not spec.compare(v)[0] for v in spec.lookalikes), spec.name
        assert {m.mutant_class for m in t.mutants} >= {"lookalike", "careless", "contradicting_report"}
    clean = cases["compaction"]
    assert not any(clean.flags.values()) and not clean.idle and not clean.rented and not clean.revised
    assert sum(cases["trucks"].flags.values()) == 2


def test_held_out_keys(golden: Path, compiled: dict[str, Task]) -> None:
    book = BookReader(golden)
    try:
        held = FAMILY().held_out_keys(book)
        assert len(held) == 2 and not set(held) & {t.key for t in compiled.values()}
        erps = {G.ERPS[k] for k in held} | {t.systems[0] for t in compiled.values()}
        assert len(erps) == 7
    finally:
        book.close()


def _python_allocation(book: BookReader, fleet: str) -> tuple[dict[str, Decimal], Decimal]:
    """The plant's rows read the policy's way in Python: owned units, hours of the month, the rate in
    effect on the work date; operating hours x (Rent + EOE) per job, idle hours x Rent."""
    first = INPUTS.clock.replace(day=1)
    units = {
        r["unit_number"]
        for r in book.rows("SELECT unit_number FROM book.equipment WHERE fleet = ? AND ownership = 'owned'", [fleet])
    }
    rates: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in book.rows("SELECT * FROM book.equipment_rates ORDER BY effective_date"):
        rates[r["unit_number"]].append(r)
    jobs: dict[str, Decimal] = defaultdict(Decimal)
    idle = Decimal("0.00")
    for h in book.rows("SELECT * FROM book.equipment_hours WHERE work_date >= ?", [first]):
        if h["unit_number"] not in units:
            continue
        rate = [r for r in rates[h["unit_number"]] if r["effective_date"] <= h["work_date"]][-1]
        if h["hour_type"] == "operating":
            jobs[h["job_number"]] += h["hours"] * (rate["rent_rate"] + rate["eoe_rate"])
        else:
            idle += h["hours"] * rate["rent_rate"]
    return {j: x.quantize(Decimal("0.01")) for j, x in jobs.items()}, idle.quantize(Decimal("0.01"))


def test_sql_matches_a_python_reading_of_the_plant(golden: Path, cases: dict[str, G.Case]) -> None:
    book = BookReader(golden)
    try:
        for key, c in cases.items():
            jobs, idle = _python_allocation(book, key)
            assert c.amounts == jobs and c.idle == idle, key
    finally:
        book.close()


def test_twists_follow_the_data(cases: dict[str, G.Case]) -> None:
    """Each twist moves the figures off the careless reading it tempts."""
    ex = cases["excavators"]
    assert ex.idle and ex.idle_full > ex.idle and "with_idle" in ex.careless
    assert sum(ex.careless["with_idle"].values()) == ex.to_jobs + ex.idle_full
    ld = cases["loaders"]
    assert ld.revised and "month_end_rate" in ld.careless
    assert sum(ld.careless["month_end_rate"].values()) > ld.to_jobs  # the revision raised the rate
    cr = cases["cranes"]
    assert cr.rented and "with_rented" in cr.careless
    assert set(cr.careless["with_rented"]) - set(cr.amounts)  # the rented unit's job is no owned unit's
    for c in cases.values():
        assert "field_rate" in c.careless  # the field-time apps' setup rate is never the rate book's


def test_answers(compiled: dict[str, Task], cases: dict[str, G.Case]) -> None:
    t, c = _t(compiled, "cranes"), cases["cranes"]
    good = t.oracle.answers
    erp_ids = [c.erp_job[j] for j in good["jobs_charged"]]
    assert answers_hold(t, {**good, "total_recovered": f"${c.total:,}", "jobs_charged": "; ".join(erp_ids)})
    rented = next(j for j in c.careless["with_rented"] if j not in c.amounts)
    assert not answers_hold(t, {**good, "jobs_charged": [*good["jobs_charged"], rented]})
    e, ec = _t(compiled, "excavators"), cases["excavators"]
    assert not answers_hold(e, {**e.oracle.answers, "total_recovered": str(ec.to_jobs)})
    assert Decimal(e.oracle.answers["total_recovered"]) == ec.to_jobs + ec.idle


def test_oracles_call_tools_cleanly(golden: Path, compiled: dict[str, Task]) -> None:
    """The oracle's and every alternative's calls succeed, but the one unbalanced stage the
    self-correcting alternative makes on purpose (the gate refuses it, nothing is written)."""
    t = _t(compiled, "trucks")
    for index in [None, *range(len(t.alternatives))]:
        out = run_attempt(t, OraclePolicy(index=index), golden=golden, inputs=INPUTS)
        assert out.grade.passed and not out.guard_log, (index, str(out.grade))
        refused = [c.error or "" for c in out.tool_log if not c.ok]
        if index is not None and "unbalanced" in t.alternatives[index].label:
            assert len(refused) == 1 and "does not balance" in refused[0], refused
        else:
            assert not refused, (index, refused)


def test_the_policy_states_the_idle_clause(compiled: dict[str, Task], golden: Path) -> None:
    out = run_attempt(_t(compiled, "excavators"), OraclePolicy(), golden=golden, inputs=INPUTS)
    assert out.grade.passed and all(c.ok for c in out.tool_log)
    policy = " ".join(str(out.tool_log[0].result["data"]["text"]).split())
    assert "Idle hours are not job cost" in policy and "Rent rate only" in policy and "Rented" in policy


def _careless_lines(c: G.Case, kind: str, *, idle: bool) -> list[dict[str, Any]]:
    wrong = c.careless[kind]
    lines: list[dict[str, Any]] = [
        {"account": G.EQUIPMENT, "debit": str(x), "job_id": c.erp_job[j]} for j, x in wrong.items()
    ]
    total = sum(wrong.values(), Decimal("0.00"))
    if idle and c.idle:
        lines.append({"account": G.IDLE_TIME, "debit": str(c.idle)})
        total += c.idle
    return [*lines, {"account": G.RECOVERY, "credit": str(total)}]


@pytest.mark.parametrize(
    "key, kind", [("excavators", "with_idle"), ("cranes", "with_rented"), ("loaders", "month_end_rate")]
)
def test_careless_readings_fail(compiled: dict[str, Task], cases: dict[str, G.Case], golden: Path, key, kind) -> None:
    """Idle hours charged to the jobs, the rented unit allocated, every hour at the month-end rate: the
    job lines are wrong (and the answers from them)."""
    t, c = _t(compiled, key), cases[key]
    lines = _careless_lines(c, kind, idle=kind != "with_idle")
    out = replay(t, golden, _stage(t, lines), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "expected"), key


def test_idle_hours_on_the_job_fail(compiled: dict[str, Task], cases: dict[str, G.Case], golden: Path) -> None:
    """The policy-only clause: the idle charge to 6750 with the job on it is forbidden."""
    t, c = _t(compiled, "trucks"), cases["trucks"]
    lines = [dict(ln) for ln in t.oracle.steps[-1].args["lines"]]
    for ln in lines:
        if ln["account"] == G.IDLE_TIME:
            ln["job_id"] = c.erp_job[next(iter(c.amounts))]
    out = replay(t, golden, _stage(t, lines), answers=t.oracle.answers)
    assert not out.grade.passed and failed(out, "forbidden")


def test_right_but_different_passes(compiled: dict[str, Task], cases: dict[str, G.Case], golden: Path) -> None:
    """A line per unit and job, amounts as numbers, no memo, reference or period, credit first."""
    for key in ("trucks", "compaction"):
        t, c = _t(compiled, key), cases[key]
        lines: list[dict[str, Any]] = [{"account": G.RECOVERY, "credit": float(c.total)}]
        for u in c.units:
            if u["ownership"] == "owned" and Decimal(u["amount"]):
                lines.append({"account": G.EQUIPMENT, "debit": float(u["amount"]), "job_id": u["erp_job"]})
        if c.idle:
            lines.append({"account": G.IDLE_TIME, "debit": float(c.idle)})
        steps = _stage(t, lines)
        steps[-1] = ToolStep(
            tool=steps[-1].tool,
            args={k: v for k, v in steps[-1].args.items() if k not in ("reference", "period", "journal")},
        )
        out = replay(t, golden, steps, reply="Staged the allocation as a draft; not posted.", answers=t.oracle.answers)
        assert out.grade.passed, (key, str(out.grade))


class TestContract(FamilyContract):
    """The admission gate on every task, the over-eager policies, exact amounts, the JSON round trip."""
