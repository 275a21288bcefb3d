"""The LLM policy: a ReAct tool loop over any OpenAI-compatible Chat Completions endpoint.

Per the paper's harness (appendix "The Agent Harness and Prompt"): the verbatim system
prompt, the task instruction as the user message, every environment tool as a
first-class function under its sanitized name plus ``finish(summary)``, temperature 0, at
most 24 steps (one step = one model call), tool results as JSON truncated to ~2,200
characters with a row-count hint.

Accounting and failure handling:

* tokens from each response's ``usage`` (estimated at 4 characters a token, and flagged,
  when a provider omits it); cost in ``Decimal`` from the price table or explicit prices;
* a :class:`~cfab.runner.cost.CostMeter` (run-wide ledger) is checked before every call:
  once spend reaches ``max_cost_usd`` the episode stops with ``stop_reason="max_cost"``;
* connection errors, timeouts, 408/409/429 and 5xx are retried with bounded exponential
  backoff, jittered from a seeded RNG; every failure is kept in ``api_errors``; when the
  API keeps failing (or fails permanently, e.g. 400 on the tool schema) the episode ends
  with ``stop_reason="api_error"`` — an infrastructure failure, not a model failure;
* malformed tool-call arguments, unknown tools and env exceptions become an error result
  fed back to the model, never a crash.

The API key is read from the environment variable named by ``api_key_env`` and is never
logged, stored in config or written to a record.
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from pydantic import Field

from cfab.runner.cost import CostMeter, Price, cost_of, resolve_price
from cfab.runner.policies.prompt import ACT, FINISH, SYSTEM_PROMPT, ToolEntry, build_tools, render_result, user_message
from cfab.runner.protocols import EnvLike, TaskLike
from cfab.runner.results.records import Episode, StopReason, ToolCallRecord
from cfab.schema.models import CfabModel

log = logging.getLogger(__name__)

RETRYABLE_STATUS = frozenset({408, 409, 429})


class LLMConfigError(ValueError):
    """The LLM policy cannot be built (missing API key, unknown price, ...)."""


class LLMConfig(CfabModel):
    """Options of the ``llm`` policy (``make_policy("llm", **options)``)."""

    model: str
    base_url: str | None = None
    api_key_env: str | None = "OPENAI_API_KEY"  # None: endpoint needs no key
    max_steps: int = Field(24, ge=1)
    temperature: float = 0.0
    max_tokens: int | None = Field(None, ge=1)
    max_cost_usd: Decimal | None = Field(None, ge=0)
    cost_ledger: str | None = None  # shared ledger file; None: per-process meter
    price_in: Decimal | None = Field(None, ge=0)  # USD per 1M input tokens
    price_out: Decimal | None = Field(None, ge=0)  # USD per 1M output tokens
    max_result_chars: int = Field(2200, ge=100)
    max_retries: int = Field(5, ge=0)  # retries after the first try, per step
    backoff_base_s: float = Field(1.0, ge=0)
    backoff_max_s: float = Field(30.0, ge=0)
    retry_seed: int = 0
    request_timeout_s: float = Field(120.0, gt=0)
    act_dispatcher: bool = False  # also expose the generic act(tool, args)
    extra_body: dict[str, Any] | None = None  # provider-specific request fields


def _api_key(env_name: str | None) -> str:
    if env_name is None:
        return "EMPTY"
    value = os.environ.get(env_name)
    if not value:
        raise LLMConfigError(
            f"environment variable {env_name} is not set (the API key is read "
            "from it); set it, or pass api_key_env=None for a keyless endpoint"
        )
    return value


class _Tally:
    """Mutable accumulators of one episode."""

    def __init__(self) -> None:
        self.steps = 0
        self.tokens_in = 0
        self.tokens_out = 0
        self.cost = Decimal(0)
        self.calls: list[ToolCallRecord] = []
        self.api_errors: list[str] = []
        self.estimated = False


class LLMPolicy:
    """ReAct tool loop; see the module docstring. ``client`` and ``sleep`` are injectable."""

    name = "llm"

    def __init__(
        self,
        config: LLMConfig,
        *,
        client: Any = None,
        meter: CostMeter | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config
        self.model: str | None = config.model
        self.price: Price = self._price(config)
        self.meter = meter or CostMeter(config.max_cost_usd, config.cost_ledger)
        self._sleep = sleep
        self._client = client if client is not None else self._make_client(config)

    @classmethod
    def from_options(cls, **options: Any) -> LLMPolicy:
        """The registry factory: ``make_policy("llm", model=..., ...)``."""
        return cls(LLMConfig(**options))

    @staticmethod
    def _price(config: LLMConfig) -> Price:
        try:
            return resolve_price(config.model, config.price_in, config.price_out)
        except ValueError as exc:
            raise LLMConfigError(str(exc)) from exc

    @staticmethod
    def _make_client(config: LLMConfig) -> Any:
        from openai import OpenAI  # optional dependency, imported on use

        return OpenAI(
            base_url=config.base_url,
            api_key=_api_key(config.api_key_env),
            max_retries=0,
            timeout=config.request_timeout_s,
        )

    # ------------------------------------------------------------------ the loop

    def run(self, task: TaskLike, env: EnvLike) -> Episode:
        """Drive the model until it finishes, stops calling tools, or a budget runs out."""
        cfg = self.config
        schema_of = getattr(task, "answers_schema", None)
        tools, entries = build_tools(
            env.tool_specs(),
            act=cfg.act_dispatcher,
            resolve=getattr(env, "resolve", None),
            answers_schema=schema_of() if callable(schema_of) else None,
        )
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": user_message(task.instruction, task.policy_ref)},
        ]
        rng = random.Random(f"{cfg.retry_seed}:{task.instance_id}")
        t = _Tally()
        reply, last_text = "", ""
        answers: dict[str, Any] = {}
        stop: StopReason = "max_steps"
        for step in range(cfg.max_steps):
            if self.meter.exhausted():
                stop, reply = "max_cost", last_text
                break
            resp = self._complete(messages, tools, rng, t, step)
            if resp is None:
                stop, reply = "api_error", last_text
                break
            t.steps += 1
            msg = resp.choices[0].message
            self._account(resp, msg, messages, tools, t)
            content = msg.content or ""
            last_text = content or last_text
            calls = list(msg.tool_calls or [])
            if not calls:
                stop, reply = "no_tool_call", content
                break
            ids = [getattr(tc, "id", None) or f"call_{step}_{i}" for i, tc in enumerate(calls)]
            named = [_name_args(tc) for tc in calls]
            messages.append(
                {
                    "role": "assistant",
                    "content": content or None,
                    "tool_calls": [
                        {"id": cid, "type": "function", "function": {"name": name, "arguments": raw or ""}}
                        for cid, (name, raw) in zip(ids, named, strict=True)
                    ],
                }
            )
            summary = None
            for cid, (name, raw) in zip(ids, named, strict=True):
                if name == FINISH:
                    args, err = _parse_args(raw)
                    if err is None:
                        summary = str(args.get("summary", ""))
                        given = args.get("answers")
                        answers = (
                            given if isinstance(given, dict) else ({} if given is None else {"_not_an_object": given})
                        )
                        break
                    result: dict[str, Any] = {"ok": False, "error": err}
                    t.calls.append(ToolCallRecord(tool=FINISH, ok=False, error=err))
                else:
                    result = self._dispatch(env, entries, name, raw, t)
                parameters = entries[name].parameters if name in entries else None
                messages.append(
                    {
                        "role": "tool",
                        "tool_call_id": cid,
                        "content": render_result(result, cfg.max_result_chars, parameters),
                    }
                )
            if summary is not None:
                stop = "finish"
                reply = "\n\n".join(p for p in (content.strip(), summary.strip()) if p)
                break
        else:
            reply = last_text
        return Episode(
            reply=reply,
            answers=answers,
            steps=t.steps,
            tool_calls=t.calls,
            tokens_in=t.tokens_in,
            tokens_out=t.tokens_out,
            cost_usd=t.cost,
            stop_reason=stop,
            api_errors=t.api_errors,
            model=cfg.model,
            usage_estimated=t.estimated,
        )

    # ------------------------------------------------------------------ pieces

    def _dispatch(
        self, env: EnvLike, entries: dict[str, ToolEntry], name: str, raw: str | None, t: _Tally
    ) -> dict[str, Any]:
        """Run one env tool call; every failure becomes an ``{"ok": False}`` result."""
        args, err = _parse_args(raw)
        target = entries[name].native if name in entries else name
        if err is None and name == ACT and self.config.act_dispatcher:
            inner = args.get("tool")
            sub = args.get("args", {})
            if not isinstance(inner, str) or not isinstance(sub, dict):
                err = 'act needs {"tool": <tool name>, "args": {<arguments>}}'
            else:
                target = entries[inner].native if inner in entries else inner
                args = sub
        elif err is None and name not in entries:
            err = f"unknown tool {name!r}; call one of the listed functions"
        if err is not None:
            t.calls.append(ToolCallRecord(tool=target, args={}, ok=False, error=err))
            return {"ok": False, "error": err}
        try:
            result = env.call(target, **args)
        except Exception as exc:  # the env should not raise; never let it crash the run
            result = {"ok": False, "error": f"tool raised {type(exc).__name__}: {exc}"}
        if not isinstance(result, dict):
            result = {"ok": True, "result": result}
        ok = result.get("ok", True) is not False
        t.calls.append(
            ToolCallRecord(tool=target, args=args, ok=ok, error=None if ok else str(result.get("error", "")))
        )
        return result

    def _complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], rng: random.Random, t: _Tally, step: int
    ) -> Any | None:
        """One model call with bounded, jittered retries; None when it kept failing."""
        cfg = self.config
        kwargs: dict[str, Any] = {
            "model": cfg.model,
            "messages": messages,
            "tools": tools,
            "temperature": cfg.temperature,
        }
        if cfg.max_tokens is not None:
            kwargs["max_tokens"] = cfg.max_tokens
        if cfg.extra_body:
            kwargs["extra_body"] = cfg.extra_body
        for attempt in range(cfg.max_retries + 1):
            retry_after: float | None = None
            try:
                resp = self._client.chat.completions.create(**kwargs)
                if getattr(resp, "choices", None):
                    return resp
                retryable, text = True, "response without choices"
            except Exception as exc:  # classified below; unknown errors are permanent
                retryable, text, retry_after = _classify(exc)
            text = self._redact(text)
            t.api_errors.append(f"step {step} try {attempt + 1}: {text}")
            log.warning("LLM API error (step %d, try %d): %s", step, attempt + 1, text)
            if not retryable or attempt == cfg.max_retries:
                return None
            delay = min(cfg.backoff_max_s, cfg.backoff_base_s * 2**attempt)
            delay *= 0.5 + 0.5 * rng.random()
            if retry_after is not None:
                delay = max(delay, min(retry_after, cfg.backoff_max_s))
            self._sleep(delay)
        return None

    def _redact(self, text: str) -> str:
        """Never let the API key reach a log or a record."""
        key = getattr(self._client, "api_key", None)
        if isinstance(key, str) and len(key) >= 8 and key in text:
            text = text.replace(key, "[redacted]")
        return text

    def _account(
        self, resp: Any, msg: Any, messages: list[dict[str, Any]], tools: list[dict[str, Any]], t: _Tally
    ) -> None:
        """Add one response's tokens and cost to the tally and the run-wide meter."""
        usage = getattr(resp, "usage", None)
        tin = getattr(usage, "prompt_tokens", None) if usage is not None else None
        tout = getattr(usage, "completion_tokens", None) if usage is not None else None
        if tin is None or tout is None:
            t.estimated = True
            sent = len(json.dumps(messages, default=str)) + len(json.dumps(tools))
            got = len(msg.content or "") + sum(
                len(name) + len(raw or "") for name, raw in map(_name_args, msg.tool_calls or [])
            )
            tin = tin if tin is not None else math.ceil(sent / 4)
            tout = tout if tout is not None else math.ceil(got / 4)
        t.tokens_in += int(tin)
        t.tokens_out += int(tout)
        cost = cost_of(int(tin), int(tout), self.price)
        t.cost += cost
        self.meter.add(cost)


def _name_args(tool_call: Any) -> tuple[str, str | None]:
    """(function name, raw arguments) of one tool call; non-function calls get no name."""
    fn = getattr(tool_call, "function", None)
    if fn is None:
        return "", None
    return str(getattr(fn, "name", "") or ""), getattr(fn, "arguments", None)


def _parse_args(raw: str | None) -> tuple[dict[str, Any], str | None]:
    """Tool-call arguments as a dict, or an error message to feed back to the model."""
    if raw is None or not raw.strip():
        return {}, None
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        return {}, (
            f"malformed tool arguments (not valid JSON: {exc.msg} at char {exc.pos}); "
            "send one JSON object matching the tool's parameters"
        )
    if not isinstance(value, dict):
        return {}, "tool arguments must be a JSON object matching the tool's parameters"
    return value, None


def _classify(exc: Exception) -> tuple[bool, str, float | None]:
    """(retryable, description, Retry-After seconds) for an exception from the client."""
    import openai  # the client is openai's; its error classes classify the failure

    status = getattr(exc, "status_code", None)
    text = f"{type(exc).__name__}"
    if status is not None:
        text += f" {status}"
    message = str(getattr(exc, "message", "") or exc)[:300]
    if message:
        text += f": {message}"
    retry_after = None
    response = getattr(exc, "response", None)
    if response is not None:
        try:
            retry_after = float(response.headers.get("retry-after"))
        except (TypeError, ValueError):
            retry_after = None
    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
        return True, text, None
    if isinstance(exc, openai.APIStatusError):
        retryable = exc.status_code in RETRYABLE_STATUS or exc.status_code >= 500
        return retryable, text, retry_after
    return False, text, None
