"""The reviewed allow-list of DuckDB built-in functions agent SQL may call.

The list is data (`functions.toml` beside this module, loaded with importlib.resources):
every function name of the installed DuckDB's ``duckdb_functions()`` is either allowed in
expressions, allowed in FROM, or refused with a reason. Anything else — a function a newer
DuckDB adds, a user macro, a typo — is refused as not reviewed. Both static layers
(`cfab.apps.sandbox.read`, sqlglot, and `cfab.apps.sandbox.crosscheck`, DuckDB's parser) ask
`function_refusal`, so they agree on *what* is allowed.

``python -m cfab.apps.sandbox.functions --unreviewed`` prints the candidates a DuckDB upgrade
brings (names in ``duckdb_functions()`` the file does not mention), by function type.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.resources
import tomllib
from typing import Literal, NamedTuple

__all__ = ["FunctionPolicy", "policy", "function_refusal", "builtin_catalog", "unreviewed"]

Context = Literal["expression", "table"]


class FunctionPolicy(NamedTuple):
    """The parsed allow-list: names are lower case (operators as DuckDB spells them)."""

    duckdb_version: str
    expression: frozenset[str]
    table: frozenset[str]
    refused: dict[str, str]  # name -> reason shown to the agent
    categories: dict[str, frozenset[str]]  # "allowed.text", "refused.sql_text", ...


@functools.cache
def policy() -> FunctionPolicy:
    """Load `functions.toml` once per process."""
    text = importlib.resources.files("cfab.apps.sandbox").joinpath("functions.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    categories: dict[str, frozenset[str]] = {}
    expression: set[str] = set()
    table: set[str] = set()
    refused: dict[str, str] = {}
    for group, names in data["allowed"].items():
        categories[f"allowed.{group}"] = frozenset(n.lower() for n in names)
        expression.update(n.lower() for n in names)
    for group, names in data["allowed_table"].items():
        categories[f"allowed_table.{group}"] = frozenset(n.lower() for n in names)
        table.update(n.lower() for n in names)
    for group, entry in data["refused"].items():
        categories[f"refused.{group}"] = frozenset(n.lower() for n in entry["names"])
        for name in entry["names"]:
            refused[name.lower()] = str(entry["reason"])
    clash = (expression | table) & set(refused)
    if clash:
        raise RuntimeError(f"functions.toml allows and refuses {sorted(clash)}")
    return FunctionPolicy(
        str(data["meta"]["duckdb_version"]), frozenset(expression), frozenset(table), refused, categories
    )


def function_refusal(name: str, context: Context = "expression") -> str | None:
    """Why the built-in `name` may not be called in `context`, or None if it may.

    `context` is "expression" (SELECT list, WHERE, …) or "table" (FROM / JOIN / LATERAL)."""
    low = str(name).strip().lower()
    p = policy()
    allowed = p.expression if context == "expression" else p.table
    if low in allowed:
        return None
    if low in p.refused:
        return p.refused[low]
    if context == "table":
        shown = ", ".join(sorted(p.categories["allowed_table.generators"]))
        if low in p.expression:
            return f"it is not a table function here: in FROM use {shown} or a subquery"
        return (
            f"it is not on the reviewed list of table functions agents may call ({shown}, and "
            "the catalog functions duckdb_tables/columns/schemas/constraints)"
        )
    return "it is not on the reviewed list of built-in functions agents may call"


def builtin_catalog() -> dict[str, set[str]]:
    """Every function name of the installed DuckDB (pristine connection) -> its function types."""
    import duckdb

    con = duckdb.connect(
        ":memory:",
        config={
            "enable_external_access": False,
            "autoload_known_extensions": False,
            "autoinstall_known_extensions": False,
        },
    )
    try:
        with contextlib.suppress(duckdb.Error):
            con.execute("LOAD json")
        out: dict[str, set[str]] = {}
        listing = con.execute("SELECT DISTINCT function_name, function_type FROM duckdb_functions()").fetchall()
        for name, kind in listing:
            out.setdefault(str(name).lower(), set()).add(str(kind))
        return out
    finally:
        con.close()


def unreviewed() -> dict[str, list[str]]:
    """Built-in names the allow-list does not mention, grouped by function type."""
    p = policy()
    known = p.expression | p.table | set(p.refused)
    out: dict[str, list[str]] = {}
    for name, kinds in sorted(builtin_catalog().items()):
        if name not in known:
            for kind in sorted(kinds):
                out.setdefault(kind, []).append(name)
    return out


def _main() -> None:
    import argparse

    import duckdb

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unreviewed", action="store_true", help="list built-ins the allow-list does not name")
    args = parser.parse_args()
    p = policy()
    print(f"allow-list reviewed for DuckDB {p.duckdb_version}; installed {duckdb.__version__}")
    if args.unreviewed:
        todo = unreviewed()
        for kind, names in todo.items():
            print(f"{kind} ({len(names)}): {' '.join(names)}")
        if not todo:
            print("every built-in is reviewed")


if __name__ == "__main__":
    _main()
