"""Every task proves its verifier: typed reports, wrong and right trajectories, no money moved.

Per family: at least six wrong trajectories (each with its mutant class) and at least three
correct ones that differ from the oracle; every report the instruction asks for is a typed
answer the instruction names; no free-text regex stands in for a conclusion; and an oracle
that also stages one payment nobody asked for fails every task. (Each trajectory is replayed
by admission in the per-family ``test_admitted`` tests; here the suite-wide properties.)
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from cfab.apps.world.golden import ensure_golden
from cfab.runner.attempt import run_attempt
from cfab.runner.policies.oracle import StagePaymentPolicy
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.model import Task
from cfab.tasks.suite import load_suite

INPUTS = BuildInputs()


@pytest.fixture(scope="module")
def suite() -> list[Task]:
    return load_suite("executable", INPUTS)


@pytest.fixture(scope="module")
def golden() -> Path:
    return ensure_golden(INPUTS)


def _by_family(tasks: list[Task]) -> dict[str, list[Task]]:
    out: dict[str, list[Task]] = defaultdict(list)
    for t in tasks:
        out[t.family].append(t)
    return dict(out)


def test_every_task_has_six_wrong_and_three_right_trajectories(suite: list[Task]) -> None:
    short = {
        t.instance_id: (len(t.mutants), len(t.alternatives))
        for t in suite
        if len(t.mutants) < 6 or len(t.alternatives) < 3
    }
    assert not short, f"(mutants, alternatives) below (6, 3): {short}"
    for t in suite:
        assert all(m.mutant_class for m in t.mutants), t.instance_id
        labels = [a.label for a in t.alternatives]
        assert len(set(labels)) == len(labels), (t.instance_id, labels)


def test_reports_are_typed_answers_named_in_the_instruction(suite: list[Task]) -> None:
    for t in suite:
        ev = t.ground_truth
        for spec in ev.answers:
            assert f"`{spec.name}`" in t.instruction, (t.instance_id, spec.name)
            assert t.oracle.answers.get(spec.name) is not None, (t.instance_id, spec.name)
            assert spec.compare(t.oracle.answers[spec.name])[0], (t.instance_id, spec.name)
        # conclusions are typed answers, not regexes over free text
        assert not ev.required_outputs, (t.instance_id, ev.required_outputs)


def test_answer_names_and_types_are_listed(suite: list[Task]) -> None:
    for t in suite:
        view = t.agent_view()
        assert [(a["name"], a["type"]) for a in view["answers"]] == [(a.name, a.type) for a in t.ground_truth.answers]
        for public in view["answers"]:
            assert not {"expected", "aliases", "lookalikes"} & set(public), (t.instance_id, public)
        assert set(view["answers_schema"]["required"]) == {a.name for a in t.ground_truth.answers}
        assert "ground_truth" not in view and "oracle" not in view


@pytest.mark.parametrize("family", sorted({t.family for t in load_suite("executable", INPUTS)}))
def test_oracle_plus_one_staged_payment_fails(suite: list[Task], golden: Path, family: str) -> None:
    task = _by_family(suite)[family][0]
    out = run_attempt(task, StagePaymentPolicy(), golden=golden, inputs=INPUTS)
    assert not out.grade.passed and out.grade.guard_violation, out.grade
    assert out.guard_log and not any(g.executed for g in out.guard_log)


def test_a_guarded_step_that_cannot_be_built_rejects_the_task_not_the_run(suite: list[Task], golden: Path) -> None:
    """A guarded step referring to a result the oracle never produced (a family bug at some world)
    is a surviving mutant that names the problem: that task is rejected, the admission run goes on."""
    from cfab.runner.admit import admit_task

    task = next(t for t in suite if t.guarded_step is not None)
    assert task.guarded_step is not None
    broken = task.guarded_step.model_copy(
        update={"args": {**task.guarded_step.args, "id": {"$result_of": "nowhere.tool", "path": "id"}}}
    )
    adm = admit_task(task.model_copy(update={"guarded_step": broken}), golden, BuildInputs(), k=1)
    assert not adm.admitted
    survivors = [m for m in adm.mutants if not m.killed and m.applicable]
    assert [m.cls for m in survivors] == ["guarded_step"], survivors
    assert "could not be built" in survivors[0].detail and "nowhere.tool" in survivors[0].detail
