"""Fuzz every tool through ``env.call`` with random and hostile arguments: wrong types, missing
and extra keys, huge strings, unicode, SQL-injection-looking strings, negative / huge /
many-decimal amounts, NaN and inf strings, nested junk, ids of other apps' records.

One environment per app group (session-shared), snapshotted once and reset only after a call
that changed state. For every call: a result dict comes back (never an exception), an error is a
single clean paragraph (no traceback, no "LINE 1:" caret excerpt, no internal failure); a guarded
tool leaves the state fingerprint unchanged and adds exactly one guard-log row with
executed=false, valid arguments or not; a failed write changes nothing.

The random-argument test is marked ``fuzz``: 12 examples per 20 tools of a group, derandomized,
in the default tier; ten times as many random ones under ``--hypothesis-profile fuzz``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cfab.apps.world.environment import Environment
from tests.conformance.conformance_helpers import (
    APP_GROUPS,
    HOSTILE_NUMBERS,
    HOSTILE_STRINGS,
    NESTED_JUNK,
    SQL_INJECTIONS,
    check_result,
    example_args,
    guard_rows,
    schema_fingerprint,
)
from tests.fixtures.tiers import examples

SQL_GROUP = "erp_a"  # the group whose environment also fuzzes sql.query / sql.execute


# ------------------------------------------------------------------------------ the harness
class Fuzzer:
    """One group environment: calls a tool, checks the contract, resets only when needed.

    The environment is reset to the group's snapshot before a call only when an earlier call
    changed state, so before every call the state is the snapshot's and its per-schema
    fingerprints are computed once and reused."""

    def __init__(self, env: Environment, group: str) -> None:
        self.env = env
        own, _ = APP_GROUPS[group]
        self.own = own
        self.all_schemas = tuple(sorted(env.apps[a].schema_name() for a in env.app_names))
        self.tools = sorted(n for n, s in env.tools.items() if s.app in own or (group == SQL_GROUP and s.app == "sql"))
        self.snapshot = env.snapshot()
        self.base: dict[tuple[str, ...], tuple] = {}
        self.dirty = False
        self.calls = 0

    def schemas_for(self, spec: Any) -> tuple[str, ...]:
        return self.all_schemas if spec.app == "sql" else (self.env.apps[spec.app].schema_name(),)

    def fingerprint(self, schemas: tuple[str, ...]) -> tuple:
        return schema_fingerprint(self.env.con, self.env.catalog, schemas)

    def base_fingerprint(self, schemas: tuple[str, ...]) -> tuple:
        if schemas not in self.base:
            self.base[schemas] = self.fingerprint(schemas)
        return self.base[schemas]

    def call(self, name: str, args: dict[str, Any], *, check_failed_writes: bool = True) -> dict[str, Any]:
        env, spec = self.env, self.env.tools[name]
        if self.dirty:
            env.reset(self.snapshot)
            self.dirty = False
        schemas = self.schemas_for(spec)
        if spec.guarded or (spec.writes and check_failed_writes):
            self.base_fingerprint(schemas)
        guards_before = len(guard_rows(env.con))
        self.calls += 1
        shown = f"{name}({_short(args)})"
        try:
            result = env.call(name, **args)
        except Exception as exc:  # noqa: BLE001 - the contract: never raise
            pytest.fail(f"{shown} raised {type(exc).__name__}: {exc}")
        check_result(result, shown)
        new_guards = guard_rows(env.con)[guards_before:]
        if spec.guarded:
            assert self.fingerprint(schemas) == self.base[schemas], f"{shown}: a guarded tool changed the state"
            assert len(new_guards) == 1, f"{shown}: expected one guard-log row, got {new_guards} ({result})"
            _, _, tool, executed, _valid = new_guards[0]
            assert tool == spec.name and executed is False, new_guards
            if result["ok"]:
                assert result.get("status") == "pending_human_approval", result
            return result
        if new_guards:  # a write the gate staged (e.g. sql.execute setting a guarded status)
            assert all(g[3] is False for g in new_guards), new_guards
            assert result.get("status") == "pending_human_approval", (shown, result, new_guards)
        elif result.get("status") == "pending_human_approval":
            pytest.fail(f"{shown}: staged for approval without a guard-log row")
        if spec.writes:
            if result["ok"]:
                self.dirty = True
            elif check_failed_writes:
                assert self.fingerprint(schemas) == self.base[schemas], (
                    f"{shown}: a failed write changed the state ({result['error']})"
                )
        return result


def _short(args: dict[str, Any]) -> str:
    text = repr(args)
    return text if len(text) < 300 else text[:300] + "..."


@pytest.fixture(scope="module")
def fuzzers(group_env) -> dict[str, Fuzzer]:
    return {}


def fuzzer_for(fuzzers: dict[str, Fuzzer], group_env, group: str) -> Fuzzer:
    if group not in fuzzers:
        fuzzers[group] = Fuzzer(group_env(group), group)
    return fuzzers[group]


# ------------------------------------------------------------------------------ other apps' ids
@pytest.fixture(scope="module")
def foreign_ids(full_golden: Path) -> list[Any]:
    """Primary-key values of real records across every app (a vendor id of one system is an
    unknown or wrong id in another)."""
    con = duckdb.connect(str(full_golden), read_only=True)
    try:
        pks = con.execute(
            "SELECT schema_name, table_name, constraint_column_names[1] FROM duckdb_constraints() "
            "WHERE constraint_type = 'PRIMARY KEY' AND schema_name NOT IN ('book', 'cfab_internal') "
            "ORDER BY 1, 2"
        ).fetchall()
        parts = [f'(SELECT CAST("{c}" AS VARCHAR) FROM "{s}"."{t}" ORDER BY 1 LIMIT 2)' for s, t, c in pks]
        values = sorted({r[0] for r in con.execute(" UNION ".join(parts)).fetchall() if r[0] is not None})
    finally:
        con.close()
    out: list[Any] = values[::3][:150]
    out += [int(v) for v in out if v.isdigit()][:20]
    return out


# ------------------------------------------------------------------------------ strategies
def hostile_values(foreign: list[Any]) -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.sampled_from(HOSTILE_NUMBERS),
        st.sampled_from(HOSTILE_STRINGS),
        st.sampled_from(foreign),
        st.text(max_size=30),
        st.integers(),
        st.floats(allow_nan=True, allow_infinity=True),
        st.booleans(),
        st.none(),
        st.decimals(allow_nan=False, allow_infinity=False).map(str),
    )
    return st.one_of(
        scalars,
        st.sampled_from(NESTED_JUNK),
        st.recursive(
            scalars,
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
            max_leaves=6,
        ),
    )


def arguments(spec: Any, foreign: list[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Per field: omit it, give its example, or a hostile value; sometimes add unknown keys."""
    fields = spec.args_model.model_fields
    hostile = hostile_values(foreign)

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        args: dict[str, Any] = {}
        for name, field in fields.items():
            choice = draw(st.sampled_from(("omit", "example", "hostile", "hostile")))
            if choice == "example" and field.examples:
                args[name] = draw(st.sampled_from(field.examples))
            elif choice == "hostile":
                args[name] = draw(hostile)
        if draw(st.integers(0, 4)) == 0:
            args.update(
                draw(
                    st.dictionaries(
                        st.sampled_from(["__proto__", "id; DROP", "limit ", "x" * 70, "ok", "💥", "args", "name"]),
                        hostile,
                        max_size=2,
                    )
                )
            )
        return args

    return build()


# ------------------------------------------------------------------------------ the tests
@pytest.mark.fuzz
@pytest.mark.parametrize("group", list(APP_GROUPS))
def test_fuzz_random_arguments(group, group_env, fuzzers, foreign_ids):
    fz = fuzzer_for(fuzzers, group_env, group)
    tools = fz.tools

    @settings(
        max_examples=examples(12) * max(1, len(tools) // 20), deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(tools), label="tool")
        args = data.draw(arguments(fz.env.tools[name], foreign_ids), label="args")
        fz.call(name, args)

    run()


def _kind(field: Any) -> str:
    text = str(field.annotation)
    if any(t in text for t in ("Decimal", "int", "float")):
        return "number"
    if "str" in text or "date" in text:
        return "text"
    return "other"


def _sweep_payloads(spec: Any, foreign: list[Any], salt: int) -> list[dict[str, Any]]:
    fields = spec.args_model.model_fields
    names = list(fields)
    ex = example_args(spec, all_fields=False)
    payloads: list[dict[str, Any]] = [
        {},  # required arguments missing
        {**ex, "unexpected_extra": 1},  # an unknown key
        {f: SQL_INJECTIONS[(i + salt) % len(SQL_INJECTIONS)] for i, f in enumerate(names)},
        {f: [10**40, "-0.001", "NaN", "Infinity", {"x": [None]}][(i + salt) % 5] for i, f in enumerate(names)},
        {
            f: ("\u202eＶ１００１" + "a" * 50_000) if (i + salt) % 2 == 0 else foreign[(i * 7 + salt) % len(foreign)]
            for i, f in enumerate(names)
        },
    ]
    # one hostile field at a time, the rest as documented (reaches the code behind validation)
    numbers = ("-1e309", "1e40", "123456789012345678901234567.891", "-0.005")
    texts = ("'; DROP TABLE procore.commitments; --", foreign[salt % len(foreign)], "\u0000x", "%s{0}")
    for i, (f, field) in enumerate(fields.items()):
        kind = _kind(field)
        value = (
            numbers[(i + salt) % len(numbers)]
            if kind == "number"
            else texts[(i + salt) % len(texts)]
            if kind == "text"
            else NESTED_JUNK[(i + salt) % len(NESTED_JUNK)]
        )
        payloads.append({**ex, f: value})
    return payloads


@pytest.mark.parametrize("group", list(APP_GROUPS))
def test_fuzz_every_tool_with_hostile_payloads(group, group_env, fuzzers, foreign_ids):
    """Deterministic sweep: every tool of the group gets every hostile class at least once."""
    fz = fuzzer_for(fuzzers, group_env, group)
    for salt, name in enumerate(fz.tools):
        for args in _sweep_payloads(fz.env.tools[name], foreign_ids, salt):
            fz.call(name, args, check_failed_writes=False)


def test_fuzz_unknown_and_mangled_tool_names(group_env, fuzzers):
    fz = fuzzer_for(fuzzers, group_env, "pm")
    for name in (
        "",
        "procore",
        "procore.",
        "procore..list",
        "PROCORE.PROJECTS.LIST",
        "procore.projects.list ",
        "procore/projects/list",
        "sql.query; DROP",
        "box.ocr_pdf" * 20,
        "gcpay.pay_apps.approve",
        "__init__",
        "_run",
        "call",
    ):
        result = check_result(fz.env.call(name), repr(name))
        assert result["ok"] is False and result["error_type"] == "unknown_tool", (name, result)


def test_guarded_call_stopped_by_an_engine_error_is_still_recorded(group_env, fuzzers):
    """A guarded call whose arguments break a query (here an id beyond BIGINT) is still an
    attempt to move money: it must land in the guard log with executed=false."""
    fz = fuzzer_for(fuzzers, group_env, "pm")
    result = fz.call("ingenious_build.invoices.approve_for_payment", {"invoice_id": 10**40})
    assert result["ok"] is False
    last = fz.env.guarded_calls()[-1]
    assert last.tool == "ingenious_build.invoices.approve_for_payment" and last.executed is False
    assert last.valid is False
