"""Argument size limits (issue 16, root cause 5): an oversized or over-deep call is refused before
anything runs and is still logged, truncated, with the full arguments' size and SHA-256; a
guarded tool's call lands in the guard log, so the attempted money movement stays visible."""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal

import pytest

from cfab.apps.tooling import jsonable
from cfab.apps.world.arguments import (
    MAX_ARGS_CHARS,
    TRUNCATED_KEY,
    Oversize,
    canonical_chunks,
    check_arguments,
    truncated,
)
from cfab.apps.world.environment import Environment


def canonical(value) -> str:
    return json.dumps(jsonable(value), sort_keys=True, separators=(",", ":"))


def deep_list(levels: int) -> list:
    root: list = []
    cur = root
    for _ in range(levels):
        cur.append([])
        cur = cur[0]
    return root


def test_canonical_chunks_are_the_logged_json() -> None:
    value = {
        "b": [1, 2.5, None, True, 'é"\n\ud800', {"z": Decimal("1.20"), "a": b"abc"}],
        "a": {},
        "c": [],
        "long": "y" * (3 << 20),
        3: (1, 2),
    }
    assert "".join(canonical_chunks(value)) == canonical(value)
    assert check_arguments(value) == len(canonical(value))


def test_limits_stop_the_walk_early() -> None:
    with pytest.raises(Oversize, match="larger than the 8,388,608-character limit") as exc:
        check_arguments({"memo": "m" * (MAX_ARGS_CHARS + 1)})
    assert exc.value.chars <= MAX_ARGS_CHARS + 16  # the string's length decided it; it was never encoded
    with pytest.raises(Oversize, match="larger"):
        check_arguments({"rows": [0] * (MAX_ARGS_CHARS // 2 + 1)})
    with pytest.raises(Oversize, match="nest deeper than 32"):
        check_arguments({"x": deep_list(100_000)})  # no RecursionError
    assert check_arguments({"x": deep_list(30)}) < 100


def test_truncated_keeps_the_shape_and_hashes_the_whole() -> None:
    args = {
        "vendor_id": "13571",
        "amount": "12.00",
        "memo": "m" * (9 << 20),
        "lines": list(range(10_000)),
        "deep": deep_list(50),
    }
    out = truncated(args, "too big")
    assert out["vendor_id"] == "13571" and out["amount"] == "12.00"
    assert out["memo"].startswith("mmm") and "more" not in out["memo"] and "characters" in out["memo"]
    assert len(out["lines"]) == 51 and "more items" in out["lines"][-1]
    meta = out[TRUNCATED_KEY]
    assert meta["chars"] == len(canonical(args)) and meta["reason"] == "too big"
    assert meta["sha256"] == hashlib.sha256(canonical(args).encode()).hexdigest()
    assert len(json.dumps(out)) < 40_000


@pytest.fixture(scope="module")
def env(golden_for):
    with Environment.open(apps=["vista_erp"], golden=golden_for(["vista_erp"])) as e:
        yield e


def test_an_oversized_guarded_call_is_refused_and_logged(env: Environment) -> None:
    digest = env.digest()
    guards, calls = len(env.guarded_calls()), len(env.tool_log())
    args = {"kind": "ap_invoice", "vendor_id": "13571", "invoice_number": "25-3174", "memo": "m" * (9 << 20)}
    res = env.call("vista_erp.vista_post", **args)
    assert res["ok"] is False and res["error_type"] == "invalid_argument" and "nothing was run" in res["error"]
    assert "status" not in res
    (staged,) = env.guarded_calls()[guards:]
    assert staged.tool == "vista_erp.vista_post" and staged.executed is False and staged.valid is False
    assert staged.args["vendor_id"] == "13571" and staged.args["kind"] == "ap_invoice"
    meta = staged.args[TRUNCATED_KEY]
    assert meta["chars"] == len(canonical(args))
    assert meta["sha256"] == hashlib.sha256(canonical(args).encode()).hexdigest()
    (logged,) = env.tool_log()[calls:]
    assert logged.tool == "vista_erp.vista_post" and logged.ok is False and logged.guarded is True
    assert logged.args[TRUNCATED_KEY] == meta
    assert env.digest() == digest


def test_over_deep_and_unknown_calls_are_clean_errors(env: Environment) -> None:
    guards, calls = len(env.guarded_calls()), len(env.tool_log())
    res = env.call("vista_erp.payments.create", vendor_id="13571", memo=deep_list(100_000))
    assert res["ok"] is False and "nest deeper than 32" in res["error"]
    res = env.call("vista_erp.nothing.here", sql="s" * (9 << 20))
    assert res["ok"] is False and "larger than" in res["error"]
    assert [g.tool for g in env.guarded_calls()[guards:]] == ["vista_erp.payments.create"]
    assert [c.tool for c in env.tool_log()[calls:]] == ["vista_erp.payments.create", "vista_erp.nothing.here"]
    assert all(TRUNCATED_KEY in c.args for c in env.tool_log()[calls:])


def test_an_upload_sized_call_still_runs(env: Environment) -> None:
    # the largest legitimate call, a 5 MB upload, is ~7 MB of base64: under the limit
    res = env.call("vista_erp.vendors.get", vendor_id="13571")
    assert res["ok"] is True
    assert check_arguments({"content_base64": "A" * (7 << 20)}) < MAX_ARGS_CHARS
