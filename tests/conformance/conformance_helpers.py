"""Shared facts and checks for the conformance suite (tests/conformance).

The lists below are typed in from docs/architecture.md and the paper's tables (reference/
cfagentbench-paper.txt: "The full 35-app inventory, by archetype", the Procore tool listing and
the money-guarded endpoints), never derived from the code under test.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

import duckdb

from cfab.schema.catalog import Catalog

# ---------------------------------------------------------------------------------- registry
ARCHETYPES: dict[str, tuple[str, ...]] = {
    "ERP": (
        "vista_erp",
        "sage_intacct",
        "foundation_erp",
        "cmic",
        "acumatica_construction",
        "sage300cre",
        "qbo",
        "computerease",
    ),
    "Bank": ("bofa_cashpro", "chase_treasury", "wells", "pnc_pinacle", "plaid"),
    "Payroll": ("foundation_payroll", "adp", "rippling"),
    "FieldTime": ("rhumbix", "busybusy"),
    "PM": ("procore", "redteam", "ingenious_build", "ressio", "smartbuild"),
    "PayApp": ("gcpay",),
    "Lien/CertPayroll/Tax": ("levelset", "lcptracker", "avalara", "track1099", "corpay"),
    "Integration/Estimating": ("hh2", "hcss_heavybid"),
    "Docs": ("box", "sharepoint"),
    "Office": ("excel", "outlook"),
}
ALL_APPS: tuple[str, ...] = tuple(a for apps in ARCHETYPES.values() for a in apps)
ARCHETYPE_OF: dict[str, str] = {a: arch for arch, apps in ARCHETYPES.items() for a in apps}

PROCORE_TOOLS: tuple[str, ...] = (
    "procore.projects.list",
    "procore.cost_codes.list",
    "procore.vendors.list",
    "procore.change_events.list",
    "procore.prime_contracts.list",
    "procore.change_orders.list",
    "procore.prime_contracts.sov",
    "procore.direct_costs.list",
    "procore.budget.get",
    "procore.daily_logs.list_manpower",
    "procore.requisitions.list",
    "procore.erp.cost_code_map",
    "procore.commitments.list",
    "procore.commitments.get",
    "procore.erp.sync_commitment",
    "procore.erp.sync_invoice",
)
PAPER_TOOLS: tuple[str, ...] = (
    *PROCORE_TOOLS,
    "vista_erp.vista_query",
    "vista_erp.vista_post",
    "sage_intacct.intacct_create_bill",
    "box.box_list",
    "box.ocr_pdf",
    "outlook.outlook_draft",
    "outlook.outlook_send",
    "gcpay.gcpay_approve",
    "lcptracker.lcp_submit",
    *(f"{b}.bank_initiate_transfer" for b in ARCHETYPES["Bank"]),
    *(f"{p}.pr_release" for p in ARCHETYPES["Payroll"]),
    "avalara.efile_submit",
    "track1099.efile_submit",
)

# Local names that are the paper's native tool names rather than resource.verb: the ERP
# "<system>_query"/"<system>_post" pair ("vista_erp exposes vista_query/vista_post ... other apps
# follow the same shape"), intacct_create_bill, box_list/ocr_pdf, outlook_draft/outlook_send and
# the Office row's "mail search/read/draft/send", gcpay_approve, lcp_submit, efile_submit,
# bank_initiate_transfer and pr_release.
PAPER_NATIVE_LOCAL = re.compile(
    r"^(?:[a-z0-9]+_(?:query|post)|intacct_create_bill|box_list|ocr_pdf|outlook_draft|outlook_send|search|read|draft|send"
    r"|gcpay_approve|gcpay_submit|lcp_submit|efile_submit|bank_initiate_transfer|pr_release)$"
)
RESOURCE_VERB_LOCAL = re.compile(r"^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+$")
GUARD_KINDS = {"payment", "payroll", "efile", "esign", "post", "send", "approve"}

# ------------------------------------------------------------------------------ app groups
# Environments for the fuzz and example-call tests: a handful of apps each ("own": the apps whose
# tools the group exercises), plus the peers their integrations read (hh2's crosswalks, the ERP
# Procore syncs to, the ERP a bank's positive-pay file is issued from).
APP_GROUPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "erp_a": (("vista_erp", "sage_intacct", "foundation_erp", "cmic"), ("hh2",)),
    "erp_b": (("acumatica_construction", "sage300cre", "qbo", "computerease"), ("hh2",)),
    "bank": (("bofa_cashpro", "chase_treasury", "wells", "pnc_pinacle", "plaid"), ("vista_erp",)),
    "payroll_field": (("foundation_payroll", "adp", "rippling", "rhumbix", "busybusy"), ("hh2",)),
    "pm": (("procore", "redteam", "ingenious_build", "ressio", "smartbuild"), ("vista_erp", "hh2")),
    "compliance": (("gcpay", "levelset", "lcptracker", "avalara", "track1099", "corpay"), ("hh2",)),
    "docs_office": (("box", "sharepoint", "excel", "outlook", "hcss_heavybid", "hh2"), ()),
}
assert sorted(a for own, _ in APP_GROUPS.values() for a in own) == sorted(ALL_APPS)


def group_apps(group: str) -> list[str]:
    own, peers = APP_GROUPS[group]
    return [*own, *peers]


# ------------------------------------------------------------------------------- arguments
def example_args(spec: Any, *, all_fields: bool) -> dict[str, Any]:
    """The tool's documented example arguments: the first example of every required field
    (and of every field with ``all_fields``)."""
    out: dict[str, Any] = {}
    for name, field in spec.args_model.model_fields.items():
        if (field.is_required() or all_fields) and field.examples:
            out[name] = field.examples[0]
    return out


# ------------------------------------------------------------------------------ result checks
_TRACEBACK = re.compile(
    r"Traceback \(most recent call last\)|File \"[^\"]+\", line \d+|^\s*\^+\s*$|LINE \d+:", re.MULTILINE
)
_PY_EXC = re.compile(
    r"\b(?:KeyError|TypeError|AttributeError|IndexError|ValueError|AssertionError|NameError|"
    r"UnboundLocalError|ZeroDivisionError|RecursionError|InvalidOperation|NotImplementedError)\b"
)


def check_result(result: Any, where: str) -> dict[str, Any]:
    """A tool result as the contract promises: a JSON-safe dict with a bool ``ok``; an error is
    one clean paragraph (no traceback, no DuckDB caret excerpt, no Python exception name) and
    never an internal failure."""
    assert isinstance(result, dict), f"{where}: result is {type(result).__name__}, not a dict"
    assert isinstance(result.get("ok"), bool), f"{where}: result has no bool 'ok': {str(result)[:300]}"
    json.dumps(result, allow_nan=False)
    if not result["ok"]:
        err = result.get("error")
        assert isinstance(err, str) and err.strip(), f"{where}: error result without a message: {result}"
        assert "\n\n" not in err.strip(), f"{where}: error is more than one paragraph: {err[:500]!r}"
        assert not _TRACEBACK.search(err), f"{where}: traceback / caret excerpt in error: {err[:500]!r}"
        assert result.get("error_type") != "internal", f"{where}: internal failure (a bug): {err[:500]}"
        assert not _PY_EXC.search(err), f"{where}: Python exception text in error: {err[:500]!r}"
    return result


# ---------------------------------------------------------------------------------- digests
def file_sha256(path: Any) -> str:
    """sha256 of a file's bytes (the golden file must never change)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def schema_fingerprint(con: duckdb.DuckDBPyConnection, catalog: Catalog, schemas: Iterable[str]) -> tuple:
    """One query: (table, count, sum of row hashes) of every table of ``schemas``."""
    wanted = {s.lower() for s in schemas}
    infos = [t for k, t in sorted(catalog.tables.items()) if t.schema.lower() in wanted]
    parts = [
        f"SELECT '{t.qualified}' AS t, count(*) AS n, coalesce(sum(hash(x))::HUGEINT, 0) AS h "
        f'FROM "{t.schema}"."{t.name}" x'
        for t in infos
    ]
    if not parts:
        return ()
    return tuple(con.execute(" UNION ALL ".join(parts) + " ORDER BY t").fetchall())


def guard_rows(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    return con.execute("SELECT seq, app, tool, executed, valid FROM cfab_internal.guard_log ORDER BY seq").fetchall()


# ---------------------------------------------------------------------------------- hostile values
SQL_INJECTIONS: tuple[str, ...] = (
    "'; DROP TABLE procore.commitments; --",
    "1' OR '1'='1",
    'x"; DELETE FROM vista_erp."APVM"; --',
    "1); ATTACH '/tmp/x.duckdb' AS x; --",
    "' UNION SELECT * FROM book.vendors --",
    "$$; COPY book.vendors TO '/tmp/leak.csv'; $$",
    "{number}{0}{__class__}%s%n",
    "../../../../etc/passwd",
)
HOSTILE_NUMBERS: tuple[Any, ...] = (
    -1,
    0,
    2**63,
    -(2**63) - 1,
    10**40,
    "-0.01",
    "1e309",
    "NaN",
    "nan",
    "Infinity",
    "-inf",
    "1.0000000001",
    "123456789012345678901234567890.123456789",
    "14,350.00",
    "$14350",
    " 12 ",
    "0x1F",
    Decimal("-5.555"),
)
HOSTILE_STRINGS: tuple[str, ...] = (
    "",
    " ",
    "\x00",
    "\u202e\u0645\u0631\u062d\u0628\u0627",
    "Ｖ１００１",
    "💸" * 50,
    "a" * 100_000,
    "\n\n\t\r",
    "null",
    "None",
    "true",
    "<script>alert(1)</script>",
    *SQL_INJECTIONS,
)
NESTED_JUNK: tuple[Any, ...] = (
    [],
    {},
    [[[]]],
    {"a": {"b": {"c": [1, {"d": None}]}}},
    [None, 1, "x", 2.5],
    {"$ref": "#"},
    {"__proto__": {"x": 1}},
    [["1042"] * 3] * 3,
)
