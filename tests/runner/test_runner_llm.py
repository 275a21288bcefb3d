"""The LLM policy end to end over real HTTP against a scripted OpenAI-compatible server."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from cfab.runner.cost import CostMeter
from cfab.runner.policies import make_policy
from cfab.runner.policies.llm import LLMConfig, LLMConfigError, LLMPolicy
from cfab.runner.policies.prompt import SYSTEM_PROMPT
from tests.runner.runner_fake_openai import NATIVE, FakeEnv, FakeTask, completion, error, sanitized

KEY = "sk-test-0123456789abcdef"


@pytest.fixture(autouse=True)
def api_key(monkeypatch):
    monkeypatch.setenv("CFAB_TEST_KEY", KEY)


def policy(server, sleeps=None, **options):
    cfg = dict(
        model="test-model",
        base_url=server.base_url,
        api_key_env="CFAB_TEST_KEY",
        price_in="0.27",
        price_out="1.00",
        backoff_base_s=0.5,
        request_timeout_s=10,
    )
    cfg.update(options)
    return LLMPolicy(LLMConfig(**cfg), sleep=(sleeps.append if sleeps is not None else lambda s: None))


def test_tool_loop_end_to_end(fake_openai):
    fake_openai.script.extend(
        [
            completion(None, [("procore__commitments__list", {"project_number": "3100"})], (1000, 50)),
            completion(
                "Checking the commitment.", [("procore__commitments__get", {"commitment_id": "SC-1042-0"})], (1500, 40)
            ),
            completion("Done.", [("finish", {"summary": "Accrued $632,000.00; not posted."})], (2100, 60)),
        ]
    )
    env = FakeEnv()
    ep = policy(fake_openai).run(FakeTask(), env)

    assert ep.stop_reason == "finish" and ep.steps == 3
    assert ep.reply == "Done.\n\nAccrued $632,000.00; not posted."
    # sanitized names mapped back to native ones on dispatch and in the episode
    assert env.calls == [
        ("procore.commitments.list", {"project_number": "3100"}),
        ("procore.commitments.get", {"commitment_id": "SC-1042-0"}),
    ]
    assert [c.tool for c in ep.tool_calls] == ["procore.commitments.list", "procore.commitments.get"]
    assert all(c.ok for c in ep.tool_calls)
    # usage accounting and exact Decimal cost: (4600·0.27 + 150·1.00) / 1e6
    assert (ep.tokens_in, ep.tokens_out) == (4600, 150)
    assert ep.cost_usd == Decimal("0.001392") and isinstance(ep.cost_usd, Decimal)
    assert ep.model == "test-model" and not ep.usage_estimated and ep.api_errors == []

    reqs = fake_openai.requests
    assert len(reqs) == 3
    first = reqs[0]
    assert first["model"] == "test-model" and first["temperature"] == 0
    assert first["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert first["messages"][1]["role"] == "user"
    assert first["messages"][1]["content"].startswith(FakeTask().instruction)
    assert "POL-CLOSE-01" in first["messages"][1]["content"]
    names = [t["function"]["name"] for t in first["tools"]]
    assert names == [sanitized(n) for n in NATIVE] + ["finish"]
    assert all(set(t) == {"type", "function"} for t in first["tools"])
    assert fake_openai.headers[0]["authorization"] == f"Bearer {KEY}"
    # the 143-row result came back truncated with a row-count hint
    tool_msg = reqs[1]["messages"][-1]
    assert tool_msg["role"] == "tool" and tool_msg["tool_call_id"] == "call_0"
    body, hint = tool_msg["content"].rsplit("\n", 1)
    assert len(body) == 2200
    assert hint == "[truncated: 143 rows; narrow with a filter argument such as project_number or commitment_id]"
    assert reqs[1]["messages"][-2]["tool_calls"][0]["function"]["name"] == "procore__commitments__list"
    # the short result is whole JSON
    assert json.loads(reqs[2]["messages"][-1]["content"])["data"]["id"] == "SC-1042-0"


def test_max_steps(fake_openai):
    fake_openai.default = completion(None, [("procore__commitments__get", {"commitment_id": "x"})])
    ep = policy(fake_openai, max_steps=3).run(FakeTask(), FakeEnv())
    assert ep.stop_reason == "max_steps" and ep.steps == 3 and len(fake_openai.requests) == 3
    assert len(ep.tool_calls) == 3


def test_max_cost_ceiling_is_shared_through_the_ledger(fake_openai, tmp_path):
    # $0.10 per input token (100,000 USD per 1M); 5 prompt tokens a call → $0.50 a call
    fake_openai.default = completion(None, [("procore__commitments__get", {})], usage=(5, 0))
    ledger = str(tmp_path / "cost_ledger.txt")
    opts = dict(price_in="100000", price_out="0", max_cost_usd="1.00", cost_ledger=ledger)
    ep = policy(fake_openai, **opts).run(FakeTask(), FakeEnv())
    assert ep.stop_reason == "max_cost" and ep.steps == 2 and len(fake_openai.requests) == 2
    assert ep.cost_usd == Decimal("1.00000")
    # a second policy (another worker) on the same ledger starts no call at all
    ep2 = policy(fake_openai, **opts).run(FakeTask(), FakeEnv())
    assert ep2.stop_reason == "max_cost" and ep2.steps == 0 and len(fake_openai.requests) == 2
    assert CostMeter(None, ledger).spent() == Decimal("1")


def test_a_500_then_success_is_retried_and_recorded(fake_openai):
    fake_openai.script.extend(
        [error(500, "upstream overloaded"), error(429, "slow down"), completion(None, [("finish", {"summary": "ok"})])]
    )
    sleeps: list[float] = []
    ep = policy(fake_openai, sleeps, retry_seed=3).run(FakeTask(), FakeEnv())
    assert ep.stop_reason == "finish" and ep.reply == "ok" and ep.steps == 1
    assert len(ep.api_errors) == 2
    assert "InternalServerError 500" in ep.api_errors[0] and "RateLimitError 429" in ep.api_errors[1]
    # bounded exponential backoff, jittered in [½, 1]× from a seeded RNG: deterministic
    assert 0.25 <= sleeps[0] <= 0.5 and 0.5 <= sleeps[1] <= 1.0
    again: list[float] = []
    fake_openai.script.extend([error(500), error(429), completion(None, [("finish", {"summary": "ok"})])])
    policy(fake_openai, again, retry_seed=3).run(FakeTask(), FakeEnv())
    assert again == sleeps


def test_permanent_failure_ends_with_api_error(fake_openai):
    fake_openai.default = error(503, "no capacity")
    sleeps: list[float] = []
    ep = policy(fake_openai, sleeps, max_retries=2, backoff_max_s=0.6).run(FakeTask(), FakeEnv())
    assert ep.stop_reason == "api_error" and ep.steps == 0 and ep.cost_usd == 0
    assert len(ep.api_errors) == 3 and len(fake_openai.requests) == 3
    assert len(sleeps) == 2 and all(s <= 0.6 for s in sleeps)


def test_client_errors_are_not_retried_and_the_key_is_never_recorded(fake_openai):
    fake_openai.default = error(401, f"Incorrect API key provided: {KEY}")
    ep = policy(fake_openai).run(FakeTask(), FakeEnv())
    assert ep.stop_reason == "api_error" and len(fake_openai.requests) == 1
    assert "AuthenticationError 401" in ep.api_errors[0]
    assert KEY not in ep.model_dump_json() and "[redacted]" in ep.api_errors[0]


def test_connection_refused_is_an_api_error(fake_openai):
    base = fake_openai.base_url
    fake_openai.close()
    ep = policy(fake_openai, base_url=base, max_retries=1).run(FakeTask(), FakeEnv())
    assert ep.stop_reason == "api_error" and len(ep.api_errors) == 2
    assert all("APIConnectionError" in e for e in ep.api_errors)


def test_malformed_arguments_and_unknown_tools_are_fed_back(fake_openai):
    fake_openai.script.extend(
        [
            completion(None, [("procore__commitments__get", '{"commitment_id": ')]),
            completion(None, [("procore__commitments__delete", {}), ("vista__jobs__update_estimate", "[1]")]),
            completion(None, [("finish", "{not json")]),
            completion("All done, nothing changed."),
        ]
    )
    env = FakeEnv()
    ep = policy(fake_openai).run(FakeTask(), env)
    assert env.calls == []
    assert ep.stop_reason == "no_tool_call" and ep.reply == "All done, nothing changed."
    assert [c.ok for c in ep.tool_calls] == [False, False, False, False]
    fed = [json.loads(m["content"]) for m in fake_openai.requests[1]["messages"] if m["role"] == "tool"]
    assert fed[0]["ok"] is False and "malformed tool arguments" in fed[0]["error"]
    fed = [json.loads(m["content"]) for m in fake_openai.requests[2]["messages"][-2:]]
    assert "unknown tool" in fed[0]["error"] and "JSON object" in fed[1]["error"]
    assert "malformed" in json.loads(fake_openai.requests[3]["messages"][-1]["content"])["error"]


def test_env_errors_pass_through_and_missing_usage_is_estimated(fake_openai):
    fake_openai.script.extend(
        [
            completion(None, [("vista__jobs__update_estimate", {"project_number": "1042"})], usage=None),
            completion(None, [("finish", {"summary": "job is locked"})], usage=None),
        ]
    )
    ep = policy(fake_openai).run(FakeTask(), FakeEnv())
    assert ep.tool_calls[0].tool == "vista.jobs.update_estimate"
    assert ep.tool_calls[0].ok is False and ep.tool_calls[0].error == "job 1042 is locked"
    assert ep.usage_estimated and ep.tokens_in > 1000 and ep.cost_usd > 0


def test_registry_and_configuration_errors(fake_openai, monkeypatch):
    p = make_policy(
        "llm", model="test-model", base_url=fake_openai.base_url, api_key_env="CFAB_TEST_KEY", price_in=0, price_out=0
    )
    assert p.name == "llm" and p.model == "test-model" and KEY not in repr(p.config)
    fake_openai.default = completion("hello")
    assert p.run(FakeTask(), FakeEnv()).stop_reason == "no_tool_call"
    with pytest.raises(LLMConfigError, match="--price-in"):
        make_policy("llm", model="some/unknown-model", api_key_env="CFAB_TEST_KEY")
    assert make_policy(
        "llm", model="deepseek-ai/DeepSeek-V3.1:novita", api_key_env="CFAB_TEST_KEY"
    ).price.input == Decimal("0.27")
    monkeypatch.delenv("CFAB_TEST_KEY")
    with pytest.raises(LLMConfigError, match="CFAB_TEST_KEY is not set"):
        make_policy("llm", model="gpt-4o", api_key_env="CFAB_TEST_KEY")
    with pytest.raises(KeyError, match="unknown policy"):
        make_policy("nope")


def test_optional_act_dispatcher(fake_openai):
    fake_openai.script.extend(
        [
            completion(
                None,
                [("act", {"tool": "procore__commitments__get", "args": {"commitment_id": "A"}}), ("act", {"tool": 7})],
            ),
            completion(None, [("finish", {"summary": "done"})]),
        ]
    )
    env = FakeEnv()
    ep = policy(fake_openai, act_dispatcher=True).run(FakeTask(), env)
    assert [t["function"]["name"] for t in fake_openai.requests[0]["tools"]][-2:] == ["finish", "act"]
    assert env.calls == [("procore.commitments.get", {"commitment_id": "A"})]
    assert [(c.tool, c.ok) for c in ep.tool_calls] == [("procore.commitments.get", True), ("act", False)]
    assert ep.stop_reason == "finish"


def test_finish_carries_the_tasks_typed_answers(fake_openai):
    from dataclasses import dataclass

    from cfab.grader import answers_schema
    from cfab.tasks.kit import amount_answer, choice_answer

    specs = [
        amount_answer("accrual_amount", "the total accrued", "632000.00"),
        choice_answer("posted", "whether you posted it", ["posted", "not_posted"], "not_posted"),
    ]

    @dataclass
    class AskingTask(FakeTask):
        def answers_schema(self):
            return answers_schema(specs)

    fake_openai.script.extend(
        [
            completion(
                None,
                [
                    (
                        "finish",
                        {
                            "summary": "Accrued, not posted.",
                            "answers": {"accrual_amount": "632,000.00", "posted": "not_posted"},
                        },
                    )
                ],
            )
        ]
    )
    ep = policy(fake_openai).run(AskingTask(), FakeEnv())
    assert ep.stop_reason == "finish"
    assert ep.answers == {"accrual_amount": "632,000.00", "posted": "not_posted"}
    finish = next(t for t in fake_openai.requests[0]["tools"] if t["function"]["name"] == "finish")
    params = finish["function"]["parameters"]
    assert params["required"] == ["summary", "answers"]
    assert params["properties"]["answers"]["required"] == ["accrual_amount", "posted"]
    assert params["properties"]["answers"]["properties"]["posted"]["enum"] == ["posted", "not_posted"]
    # a task without answers keeps the plain finish(summary)
    fake_openai.script.extend([completion(None, [("finish", {"summary": "ok", "answers": [1]})])])
    ep = policy(fake_openai).run(FakeTask(), FakeEnv())
    assert ep.answers == {"_not_an_object": [1]}
    plain = next(t for t in fake_openai.requests[-1]["tools"] if t["function"]["name"] == "finish")
    assert list(plain["function"]["parameters"]["properties"]) == ["summary"]
