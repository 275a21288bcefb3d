"""The committed executable suite: it is exactly what the code compiles from the default book,
it has the paper's shape (54 tasks plus the A_change_order listing, eight domains, 26 guarded
tasks among the nine core families), every policy it cites is a SharePoint document, and
``load_suite`` only trusts it for the inputs and code it was compiled by."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from cfab.apps.world.golden import ensure_golden
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.suite import (
    compile_suite,
    dump_suite,
    load_suite,
    packaged_suite_text,
    parse_suite,
    select_tasks,
    suite_code_fingerprint,
)

INPUTS = BuildInputs()
CORE = {
    "A_etc_forecast": 8,
    "B_aia_g702": 6,
    "C_coi_hold": 5,
    "C_invoice_code": 1,
    "G_sub_accrual": 9,
    "H_procore_erp_sync": 6,
    "P_certified_payroll": 7,
    "R_1099nec": 5,
    "T_positive_pay": 5,
}
#: The paper's forty core tasks: each core family's keys as the paper lists them (later keys of
#: an extended family come after them).
PAPER_CORE = {"G_sub_accrual": 6, "P_certified_payroll": 6, "R_1099nec": 1, "T_positive_pay": 1}
PM_APPS = {"redteam", "ingenious_build", "ressio", "smartbuild"}


@pytest.fixture(scope="module")
def golden() -> Path:
    return ensure_golden(INPUTS)


@pytest.fixture(scope="module")
def committed() -> tuple[dict, list]:
    text = packaged_suite_text("executable")
    assert text is not None, "tasks/suites/executable.jsonl is missing: run `runner tasks compile`"
    return parse_suite(text, "executable.jsonl")


def test_committed_suite_is_what_the_code_compiles(committed: tuple[dict, list], golden: Path) -> None:
    header, _ = committed
    assert header["code"] == suite_code_fingerprint(), (
        "the code changed since tasks/suites/executable.jsonl was compiled: run `runner tasks compile`"
    )
    assert (header["seed"], header["clock"], header["scale"]) == (INPUTS.seed, INPUTS.clock.isoformat(), INPUTS.scale)
    fresh = dump_suite(compile_suite(golden, "executable"), INPUTS)
    assert fresh == packaged_suite_text("executable"), "recompiling gives a different suite: run `runner tasks compile`"


def test_shape_of_the_suite(committed: tuple[dict, list]) -> None:
    header, tasks = committed
    assert header["tasks"] == len(tasks)
    families = Counter(t.family for t in tasks)
    assert {f: families[f] for f in CORE} == CORE
    seen: Counter = Counter()
    core = []
    for t in tasks:
        if t.family in CORE and seen[t.family] < PAPER_CORE.get(t.family, CORE[t.family]):
            core.append(t)
            seen[t.family] += 1
    assert len(core) == 40 and sum(t.money_movement_guard for t in core) == 26
    pm = [t for t in tasks if set(t.systems) & PM_APPS]
    assert len(pm) == 14
    assert sum(len(t.systems) == 1 for t in pm) == 10
    assert families["A_change_order"] >= 1
    assert len(tasks) >= 55 and len({t.domain_code for t in tasks}) == 8
    ids = [t.instance_id for t in tasks]
    assert len(set(ids)) == len(ids) and all(
        i == f"cf_{t.family}_{t.key}" and t.family.startswith(f"{t.domain_code}_")
        for i, t in zip(ids, tasks, strict=False)
    )
    hashes = [t.contamination_meta.sha256 for t in tasks]
    assert len(set(hashes)) == len(hashes)
    for t in tasks:
        assert 1 <= t.difficulty <= 4 and t.instruction and t.oracle.steps, t.instance_id
        assert not t.money_movement_guard or t.guarded_step is not None, t.instance_id


def test_every_policy_cited_is_a_sharepoint_document(committed: tuple[dict, list], golden: Path) -> None:
    con = duckdb.connect(str(golden), read_only=True)
    try:
        policies = {r[0] for r in con.execute("SELECT policy_id FROM book.policies").fetchall()}
        in_sharepoint = {
            r[0]
            for r in con.execute(
                "SELECT natural_key FROM book.documents WHERE doc_type = 'policy' AND store = 'sharepoint'"
            ).fetchall()
        }
    finally:
        con.close()
    cited = {t.policy_ref for t in committed[1]}
    assert cited <= policies, cited - policies
    assert cited <= in_sharepoint, cited - in_sharepoint


def test_load_suite_trusts_the_packaged_file_only_for_its_inputs(committed: tuple[dict, list]) -> None:
    tasks = load_suite("executable", INPUTS)
    assert [t.instance_id for t in tasks] == [t.instance_id for t in committed[1]]
    assert [t.instance_id for t in select_tasks(tasks, "C_coi_hold")] == [
        t.instance_id for t in committed[1] if t.family == "C_coi_hold"
    ]
    assert select_tasks(tasks, "cf_T_*,R_1099nec") and not select_tasks(tasks, "no-such-family")


def test_suite_lines_are_canonical_json(committed: tuple[dict, list]) -> None:
    for line in packaged_suite_text("executable").splitlines()[1:]:
        assert json.dumps(json.loads(line), sort_keys=True, separators=(",", ":")) == line


def test_a_scale_two_suite_is_the_scale_one_suite_on_the_bigger_book(committed: tuple[dict, list]) -> None:
    """At scale N the keys come from the scale-1 universe (kept exactly inside the scale-N book),
    every expected value from the scale-N book; families defined on the scale-1 book only are
    left out, by name. Oracles still pass on the bigger book."""
    from cfab.runner.attempt import run_attempt
    from cfab.runner.policies.oracle import OraclePolicy
    from cfab.tasks.suite import keys_golden, scale_one_families

    inputs = BuildInputs(scale=2)
    golden2 = ensure_golden(inputs)
    tasks = compile_suite(golden2, "executable", keys_from=keys_golden(inputs))
    left_out = set(scale_one_families())
    assert left_out and all(t.family not in left_out for t in tasks)
    assert [t.instance_id for t in tasks] == [t.instance_id for t in committed[1] if t.family not in left_out]
    for wanted in ("cf_C_invoice_code_", "cf_T_positive_pay_", "cf_G_sub_accrual_1042"):
        task = next(t for t in tasks if t.instance_id.startswith(wanted))
        out = run_attempt(task, OraclePolicy(), golden=golden2, inputs=inputs)
        assert out.grade.passed, (task.instance_id, str(out.grade))


def test_tasks_list_prints_each_domains_count(committed: tuple[dict, list], capsys) -> None:
    from collections import Counter

    from cfab.runner.cli import main

    assert main(["tasks", "list"]) == 0
    out = capsys.readouterr().out
    tasks = committed[1]
    for domain, n in Counter(t.domain for t in tasks).items():
        row = next(ln for ln in out.splitlines() if ln.startswith(f"│ {domain} ") and "│ cf_" not in ln)
        assert row.split("│")[2].strip() == str(n), row
    assert f"{len(tasks)} tasks  suite fingerprint" in out


def test_tasks_list_reads_every_suite_the_runner_takes(committed: tuple[dict, list], capsys) -> None:
    """`runner tasks list --json` takes `--suite` as the runner does (several, comma-separated): one
    object per task with its split and world, the metadata a harness needs and its answers; an
    unknown suite is a clear error, not a traceback."""
    from collections import Counter

    from cfab.runner.cli import main

    assert main(["tasks", "list", "--suite", "executable,held_out", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    splits = Counter(r["split"] for r in rows)
    assert splits["public"] == len(committed[1]) and splits["held_out"] > 0 and len(splits) == 2
    for r in rows:
        assert r["partition"] == ("public" if r["split"] == "public" else "held_out"), r["instance_id"]
        assert (r["seed"], r["clock"], r["scale"]) == (7, "2026-01-31", 1)
        for field in ("instance_id", "domain", "family", "difficulty", "systems", "defect_variant"):
            assert field in r
        assert isinstance(r["money_movement_guard"], bool) and r["answers_schema"]["type"] == "object"
    with pytest.raises(SystemExit, match="unknown suite 'no_such_suite'"):
        main(["tasks", "list", "--suite", "no_such_suite"])


def test_readme_states_the_suite_and_its_domain_counts(committed: tuple[dict, list]) -> None:
    """README's suite section says how many tasks and families there are and each domain's count."""
    from collections import Counter

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    tasks = committed[1]
    families = {t.family for t in tasks}
    assert f"{len(tasks)} tasks in {len(families)} parameterized families" in readme
    for domain, n in Counter(t.domain for t in tasks).items():
        fams = len({t.family for t in tasks if t.domain == domain})
        assert f"| {domain} | {n} | {fams} |" in readme, (domain, n, fams)
