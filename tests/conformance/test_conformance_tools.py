"""Tools as an agent sees them: every tool of every app (plus sql.query / sql.execute) says what
it does, documents each argument with an example value and says what it returns; every argument
field has a description and an example; ``env.tool_specs()`` are valid OpenAI function schemas
whose sanitized names map back through ``env.call``; and calling every tool with its documented
example arguments returns a JSON-safe dict with an ``ok`` key, never raises."""

from __future__ import annotations

import re

import duckdb
import pytest
from jsonschema import Draft202012Validator

from cfab.apps.registry import load_all
from tests.conformance.conformance_helpers import ARCHETYPES, check_result, example_args

OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
# An example value in an argument's doc line: "e.g.", a quoted literal, a number, true/false/null,
# a JSON list/object, an enumeration ("Draft, Approved or Complete") or a code list ("(COI, LIEN)").
EXAMPLE = re.compile(
    r"e\.g\.|\"[^\"]*\"|'[^']*'|\b\d+(?:\.\d+)?\b|\b(?:true|false|null)\b|\[.*\]|\{.*\}"
    r"|\b[\w-]+(?:, [\w-]+)*,? or [\w-]+|\((?:[A-Z0-9_]+, )+[A-Z0-9_]+\)",
    re.IGNORECASE,
)
PLACEHOLDER = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?")


def arg_docs(doc: str) -> dict[str, str] | None:
    """``{arg: its text}`` from the docstring's ``Args:`` section (None when there is none)."""
    m = re.search(r"^Args:\s*$", doc, re.MULTILINE)
    if not m:
        return None
    out: dict[str, str] = {}
    current = None
    for line in doc[m.end() :].splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            break
        entry = re.match(r"^ {2,4}(\w+)(?:\s*\([^)]*\))?:\s*(.*)$", line)
        if entry:
            current = entry.group(1)
            out[current] = entry.group(2)
        elif current:
            out[current] += " " + line.strip()
    return out


@pytest.fixture(scope="module")
def specs(all_env):
    return dict(all_env.tools)


@pytest.fixture(scope="module")
def descriptions(all_env):
    """The description of each tool exactly as the agent reads it (runtime facts filled in)."""
    by_sanitized = {s.sanitized: n for n, s in all_env.tools.items()}
    return {by_sanitized[e["function"]["name"]]: e["function"]["description"] for e in all_env.tool_specs()}


def test_the_sql_tools_are_offered(specs):
    assert {"sql.query", "sql.execute"} <= set(specs)
    assert len(specs) > 400


def test_docstrings_say_what_how_and_returns(specs, descriptions):
    problems: list[str] = []
    for name, spec in specs.items():
        doc = descriptions[name]
        first = doc.strip().splitlines()[0] if doc.strip() else ""
        if len(first.split()) < 3:
            problems.append(f"{name}: no one-line summary of what it does")
        if not re.search(r"\bReturns\b", doc):
            problems.append(f"{name}: does not say what it returns ('Returns ...')")
        left = PLACEHOLDER.findall(re.sub(r"\$\d", "", doc))
        if left:
            problems.append(f"{name}: unfilled placeholders {left}")
        fields = spec.args_model.model_fields
        if not fields:
            continue
        documented = arg_docs(doc)
        if documented is None:
            problems.append(f"{name}: has arguments but no 'Args:' section")
            continue
        for arg in fields:
            text = documented.get(arg)
            if text is None:
                problems.append(f"{name}: argument {arg} is not documented")
            elif not EXAMPLE.search(text):
                problems.append(f"{name}: argument {arg} has no example value ({text!r})")
        extra = set(documented) - set(fields)
        if extra:
            problems.append(f"{name}: documents arguments it does not take: {sorted(extra)}")
    assert not problems, "\n".join(problems)


def test_every_argument_field_has_description_and_example(specs):
    problems = []
    for name, spec in specs.items():
        schema = spec.parameters_schema()
        for arg, field in spec.args_model.model_fields.items():
            if not (field.description and field.description.strip()):
                problems.append(f"{name}.{arg}: no description")
            if not field.examples:
                problems.append(f"{name}.{arg}: no example")
            prop = schema["properties"].get(arg, {})
            if not prop.get("description") or not prop.get("examples"):
                problems.append(f"{name}.{arg}: description/examples missing from the JSON schema")
        for dname, d in schema.get("$defs", {}).items():
            for arg, prop in d.get("properties", {}).items():
                if not prop.get("description") or not prop.get("examples"):
                    problems.append(f"{name} ({dname}.{arg}): nested field without description/example")
        # each example is valid for its own field
        loose = Draft202012Validator({**schema, "required": []})
        for arg, field in spec.args_model.model_fields.items():
            for ex in field.examples or []:
                errs = list(loose.iter_errors({arg: ex}))
                if errs:
                    problems.append(f"{name}.{arg}: example {ex!r} violates its schema: {errs[0].message}")
    assert not problems, "\n".join(problems)


def test_tool_specs_are_openai_function_schemas(all_env, specs):
    entries = all_env.tool_specs()
    assert len(entries) == len(specs)
    names = [e["function"]["name"] for e in entries]
    assert len(names) == len(set(names)), "sanitized tool names collide"
    for e in entries:
        assert e["type"] == "function"
        fn = e["function"]
        assert set(fn) >= {"name", "description", "parameters"}
        assert OPENAI_NAME.fullmatch(fn["name"]), fn["name"]
        assert fn["description"].strip()
        params = fn["parameters"]
        Draft202012Validator.check_schema(params)
        assert params["type"] == "object"
        assert isinstance(params.get("properties"), dict)
        assert set(params.get("required", [])) <= set(params["properties"])
        assert params.get("additionalProperties") is False, f"{fn['name']}: unknown arguments are not refused"


def test_sanitized_names_map_back(all_env, specs):
    for name, spec in specs.items():
        assert all_env.resolve(spec.sanitized) is all_env.resolve(name)
        for alias in spec.aliases:
            assert all_env.resolve(alias) is spec
    # and a call by sanitized name is logged under the native name
    spec = specs["procore.projects.list"]
    result = all_env.call(spec.sanitized)
    assert result["ok"] is True
    assert all_env.tool_log()[-1].tool == "procore.projects.list"


def test_unknown_tool_is_an_error_result(all_env):
    result = check_result(all_env.call("procore.projects.delete_everything"), "unknown tool")
    assert result["ok"] is False and result["error_type"] == "unknown_tool"


@pytest.mark.parametrize("all_fields", [False, True], ids=["required_examples", "all_examples"])
def test_every_tool_accepts_its_documented_examples(all_env, specs, all_fields):
    """Each tool called with its fields' documented examples returns a clean result (an error
    result is fine: examples need not name records of this book) and never raises. Required-only
    calls go by native name, all-field calls by sanitized name."""
    failures = []
    guarded_before = len(all_env.guarded_calls())
    n_guarded = 0
    for name, spec in specs.items():
        args = example_args(spec, all_fields=all_fields)
        try:
            result = all_env.call(spec.sanitized if all_fields else name, **args)
            check_result(result, f"{name}({args})")
        except AssertionError as exc:
            failures.append(str(exc).splitlines()[0])
            continue
        except Exception as exc:  # noqa: BLE001 - the contract says never
            failures.append(f"{name}({args}) raised {type(exc).__name__}: {exc}")
            continue
        if result["ok"] is False:
            assert not result["error"].startswith(f"invalid arguments for {name}"), (
                f"{name}: its own documented examples fail validation: {result['error']}"
            )
        if spec.guarded:
            n_guarded += 1
            assert result.get("status") in (None, "pending_human_approval")
            if result["ok"]:
                assert result["status"] == "pending_human_approval"
    assert not failures, "\n".join(failures)
    calls = all_env.guarded_calls()[guarded_before:]
    assert len(calls) == n_guarded and all(c.executed is False for c in calls)


def _shape(value: object) -> str:
    return re.sub(r"[A-Za-z]", "A", re.sub(r"\d", "9", str(value)))


@pytest.mark.parametrize("app", ARCHETYPES["ERP"])
def test_erp_example_ids_have_the_shape_of_real_ids(full_golden, app):
    """The ids an ERP's docstrings and not-found hints show ("vendor ids look like ...") have the
    format of that ERP's real ids, so an agent is not taught another system's id format."""
    cls = load_all()[app]
    con = duckdb.connect(str(full_golden), read_only=True)
    try:

        def shapes(logical: str, column: str) -> set[str]:
            t = cls.D.t(logical)
            rows = con.execute(f'SELECT DISTINCT "{t.n(column)}" FROM "{app}"."{t.table}"').fetchall()
            return {_shape(r[0]) for r in rows if r[0] is not None}

        for example, logical, column in (
            (cls.EX_VENDOR, "vendor", "vendor_id"),
            (cls.EX_JOB, "job", "job_id"),
            (cls.EX_SUB, "sub_hdr", "sub_id"),
            (cls.EX_PHASE, "job_phase", "phase"),
        ):
            real = shapes(logical, column)
            assert _shape(example) in real, f"{app}: example {column} {example!r} looks like none of {sorted(real)[:5]}"
    finally:
        con.close()
