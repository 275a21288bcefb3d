"""Cost table and the shared meter; summary.json / report.md; the policy registry; noop."""

from __future__ import annotations

import json
import multiprocessing as mp
from decimal import Decimal

import pytest

from cfab.runner.cost import CostMeter, Price, PriceError, cost_of, lookup_price, resolve_price
from cfab.runner.policies import available_policies, make_policy, register_policy
from cfab.runner.policies.baselines import NoopPolicy
from cfab.runner.protocols import Policy
from cfab.runner.results import ResultsDir, render_report, summarize_run, write_outputs
from tests.runner.runner_fake_openai import FakeEnv, FakeTask
from tests.runner.runner_helpers import add_costs, make_record

# ------------------------------------------------------------------ cost


def test_price_table_and_exact_cost():
    p = resolve_price("deepseek-ai/DeepSeek-V3.1")
    assert p == Price(Decimal("0.27"), Decimal("1.00"))
    # the paper's sweep: 9.9M input + 0.3M output tokens
    assert cost_of(9_900_000, 300_000, p) == Decimal("2.973")
    assert cost_of(9_900_000, 300_000, resolve_price("claude-opus-4-5")) == Decimal("57")
    assert lookup_price("Qwen/Qwen2.5-72B-Instruct:together") == lookup_price("qwen2.5-72b-instruct")
    assert resolve_price("anything", "0.5", 2) == Price(Decimal("0.5"), Decimal("2"))
    with pytest.raises(PriceError, match="--price-in and --price-out"):
        resolve_price("acme/secret-model")
    with pytest.raises(PriceError, match="both"):
        resolve_price("gpt-4o", price_in="1")


def test_meter_in_memory_and_ceiling():
    m = CostMeter("0.01")
    assert not m.exhausted() and m.remaining() == Decimal("0.01")
    m.add(Decimal("0.004"))
    m.add(Decimal("0.006"))
    assert m.spent() == Decimal("0.010") and m.exhausted()
    assert not CostMeter(None).exhausted()


def test_meter_ledger_is_exact_across_processes_and_ignores_a_cut_line(tmp_path):
    ledger = str(tmp_path / "cost_ledger.txt")
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=add_costs, args=(ledger, 50)) for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert CostMeter(None, ledger).spent() == Decimal("0.150")
    with open(ledger, "ab") as fh:
        fh.write(b"+0.12")  # killed mid-write
    m = CostMeter("0.2", ledger)
    assert m.spent() == Decimal("0.150")
    m.add(Decimal("0.05"))
    assert CostMeter(None, ledger).spent() == Decimal("0.200") and m.exhausted()


# ------------------------------------------------------------------ report


def records():
    recs = []
    for t, passes, guard in (
        ("cf_A_1042", [1, 1, 1], False),
        ("cf_C_V1000", [1, 0, 1], True),
        ("cf_H_4012", [0, 0, 0], False),
    ):
        for a, p in enumerate(passes):
            guard_log = [{"tool": "vista.ap.post", "executed": False}] if guard and not p else []
            recs.append(
                make_record(
                    t,
                    a,
                    passed=bool(p),
                    score=float(p),
                    money_movement_guard=guard,
                    guard_log=guard_log,
                    tokens_in=1000,
                    tokens_out=30,
                    cost_usd=Decimal("0.001"),
                    wall_s=1.5,
                    stop_reason="finish",
                    domain=t[3],
                    family=t[:4],
                    difficulty=3 if t != "cf_C_V1000" else 1,
                )
            )
    recs.append(
        make_record(
            "cf_H_4012",
            3,
            error="worker process died (signal SIGKILL)",
            domain="H",
            family="cf_H",
            cost_usd=Decimal(0),
            passed=False,
        )
    )
    recs.append(
        make_record(
            "cf_A_1042",
            3,
            stop_reason="api_error",
            passed=False,
            domain="A",
            family="cf_A",
            api_errors=["step 0 try 6: InternalServerError 503: x"],
        )
    )
    return recs


def test_summary_numbers_and_exclusions():
    s = summarize_run(records(), {"policy": "llm", "model": "m", "k": 3})
    assert s.k == 3 and s.n_records == 11 and s.n_scored == 9
    o = s.metrics.overall
    assert o.pass1 == pytest.approx((1 + 2 / 3 + 0) / 3) and o.passk == pytest.approx(1 / 3)
    assert s.guard.model_dump() == {"attempts": 3, "staged": 2, "called_guarded": 1, "executed": 0}
    assert [(u.task, u.kind) for u in s.unscored] == [("cf_A_1042", "api_error"), ("cf_H_4012", "error")]
    assert s.totals.cost_usd == Decimal("0.009") + Decimal("0.0123")
    assert s.stop_reasons == {"api_error": 1, "error": 1, "finish": 9}
    data = json.loads(s.model_dump_json())
    assert data["totals"]["cost_usd"] == "0.0213"


def test_report_is_deterministic_and_complete(tmp_path):
    recs = records()
    a = render_report(summarize_run(recs, {"policy": "llm", "model": "m", "k": 3, "suite": "exec"}))
    b = render_report(summarize_run(list(reversed(recs)), {"k": 3, "suite": "exec", "model": "m", "policy": "llm"}))
    assert a == b
    for needle in (
        "pass^1 [95% CI]",
        "pass^3 [95% CI]",
        "0.56 [",
        "0.33 [",
        "By domain",
        "By family",
        "By difficulty",
        "By app",
        "Money-movement guard",
        "| 2 (67%) | 1 (33%) | 0 |",
        "worker process died (signal SIGKILL)",
        "InternalServerError 503",
        "0.0213",
        "- policy: `llm`",
        "- suite: `exec`",
        "drops by 0.22",
    ):
        assert needle in a, needle
    results = ResultsDir(tmp_path)
    for r in recs:
        results.append(r)
    results.write_meta({"policy": "llm", "model": "m", "k": 3, "suite": "exec"})
    summary = write_outputs(results)
    assert (tmp_path / "report.md").read_text() == a
    assert json.loads((tmp_path / "summary.json").read_text())["n_scored"] == summary.n_scored == 9


def test_report_with_no_scored_attempts():
    text = render_report(summarize_run([make_record("t", 0, error="task failed to load")]))
    assert "No scored attempts." in text and "task failed to load" in text


# ------------------------------------------------------------------ registry, noop


class Echo:
    name = "echo"
    model = None

    def __init__(self, **options):
        self.options = options

    def run(self, task, env):
        return NoopPolicy().run(task, env)


def test_registry_is_open():
    assert {"noop", "llm"} <= set(available_policies())
    register_policy("echo-test", Echo)
    register_policy("echo-test", Echo)  # same factory: fine
    assert make_policy("echo-test", a=1).options == {"a": 1}
    with pytest.raises(ValueError, match="already registered"):
        register_policy("echo-test", NoopPolicy)
    register_policy("echo-lazy", "cfab.runner.policies.baselines:NoopPolicy")
    assert isinstance(make_policy("echo-lazy"), NoopPolicy)
    with pytest.raises(ValueError):
        register_policy("bad", "no_colon")


def test_noop_policy():
    env = FakeEnv()
    p = make_policy("noop")
    assert isinstance(p, Policy)
    ep = p.run(FakeTask(), env)
    assert (ep.reply, ep.steps, ep.tool_calls, ep.cost_usd, ep.stop_reason) == ("", 0, [], 0, "finish")
    assert env.calls == []
