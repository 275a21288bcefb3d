"""The read guard for agent SQL (docs/gate.md, "The agent-SQL sandbox"): decide, before anything runs, whether a
statement from the agent's read tool may run, and rewrite catalog discovery so it only
shows the attempt's own apps.

Layers, in order (any one refuses with `SqlRefused(reason)`, reason agent-readable):

1. size and parse: sqlglot, DuckDB dialect; unparseable SQL is refused;
2. exactly one statement (trailing semicolons and comments are fine) — both in
   `cfab.apps.sandbox.parse`, which the write parser uses too;
3. an allow-list of root kinds: SELECT, UNION/INTERSECT/EXCEPT, WITH … SELECT, VALUES,
   a parenthesised query, DESCRIBE / SUMMARIZE of a query or app table; `SHOW [ALL]
   TABLES` is rewritten to a filtered information_schema query;
4. a walk of the whole tree: no DML/DDL/command/pragma/SET/ATTACH/USE/transaction/COPY/
   EXPORT/INSTALL node anywhere (CTEs and subqueries included); no banned function
   (files, network, sequences, settings, SQL-in-SQL, engine internals); value builders
   (repeat, lpad/rpad, printf/format widths, range as a value, resize) bounded by literal
   sizes (`cfab.apps.sandbox.size`); every table
   schema-qualified with an allowed schema (an in-scope CTE name excepted); no catalog
   qualification; table functions from a small allow-list only;
5. catalog discovery rewrite: information_schema.{tables, columns, schemata,
   table_constraints, key_column_usage} and duckdb_{tables, columns, schemas,
   constraints}() become `(SELECT * FROM <it> WHERE <schema col> IN (<apps>)) AS <alias>`,
   built with sqlglot expression builders;
6. render without comments (`render_sql`) and re-check that text with DuckDB's own parser
   (`cfab.apps.sandbox.crosscheck`). The rendered text is what `run_read` executes.

The write tool's parser, `parse_write`, is `cfab.apps.sandbox.write`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from sqlglot import exp

from cfab.apps.sandbox.crosscheck import crosscheck_read
from cfab.apps.sandbox.parse import DIALECT, parse_one_statement, render_sql
from cfab.apps.sandbox.policy import (
    ALLOWED_TABLE_FUNCTIONS,
    CATALOG_FUNCTIONS,
    CATALOG_VIEWS,
    SqlRefused,
    banned_function_reason,
    function_call_name,
    looks_like_file,
    normalize_allowed,
    schema_refusal,
)
from cfab.apps.sandbox.size import check_value_size

__all__ = ["CheckedRead", "check_read", "prepare_read"]

_READ_ROOTS: tuple[type[exp.Expression], ...] = (exp.Select, exp.SetOperation, exp.Values, exp.Subquery)
_FROM_ITEMS: tuple[type[exp.Expression], ...] = (exp.Table, exp.Subquery, exp.Unnest, exp.Values, exp.Lateral)
_TABLE_FUNCTION_CLASSES: tuple[type[exp.Expression], ...] = (exp.GenerateSeries, exp.Unnest)


def _classes(*names: str) -> tuple[type[exp.Expression], ...]:
    """sqlglot expression classes by name, skipping any this sqlglot version lacks."""
    return tuple(c for c in (getattr(exp, n, None) for n in names) if isinstance(c, type))


#: Node kinds refused anywhere in a read statement, with the keyword shown to the agent.
_DENIED_NODES: tuple[tuple[tuple[type[exp.Expression], ...], str], ...] = (
    (_classes("Attach"), "ATTACH"),
    (_classes("Detach"), "DETACH"),
    (_classes("Use"), "USE"),
    (_classes("Install"), "INSTALL"),
    (_classes("Pragma"), "PRAGMA"),
    (_classes("Set", "SetItem"), "SET"),
    (_classes("Copy"), "COPY"),
    (_classes("Export"), "EXPORT"),
    (_classes("Transaction", "Commit", "Rollback"), "transaction control"),
    (_classes("Analyze"), "ANALYZE"),
    (_classes("TruncateTable"), "TRUNCATE"),
    (_classes("Insert"), "INSERT"),
    (_classes("Update"), "UPDATE"),
    (_classes("Delete"), "DELETE"),
    (_classes("Merge"), "MERGE"),
    (_classes("Create"), "CREATE"),
    (_classes("Drop"), "DROP"),
    (_classes("Alter"), "ALTER"),
    (_classes("DML", "DDL"), "writing"),
    (_classes("Returning", "OnConflict"), "RETURNING/ON CONFLICT"),
    (_classes("Into"), "SELECT … INTO"),
    (_classes("Command"), "this command"),
    (_classes("Describe", "Summarize", "Show"), "DESCRIBE/SUMMARIZE/SHOW inside a query"),
    (_classes("Lock", "LockingStatement"), "FOR UPDATE / locking"),
    (
        _classes(
            "Kill",
            "Grant",
            "Revoke",
            "Cache",
            "Uncache",
            "Refresh",
            "LoadData",
            "Comment",
            "Declare",
            "Execute",
            "ExecuteSql",
            "Put",
            "Get",
            "Directory",
            "StoredProcedure",
            "UserDefinedFunction",
            "ToFile",
        ),
        "this statement",
    ),
)


class CheckedRead(NamedTuple):
    """A read statement that passed the guard: the (rewritten) tree and the SQL to run."""

    expression: exp.Expr
    sql: str


# -- root ---------------------------------------------------------------------------------
def _root_keyword(node: exp.Expr) -> str:
    if isinstance(node, exp.Command):
        return str(node.this).upper()
    if isinstance(node, exp.Column) and not node.table:
        return node.name.upper()  # e.g. CHECKPOINT parses as a bare column
    if isinstance(node, exp.Alias) and isinstance(node.this, exp.Column) and not node.this.table:
        return node.this.name.upper()  # CHECKPOINT db / DEALLOCATE p parse as "column alias"
    for classes, keyword in _DENIED_NODES:
        if classes and isinstance(node, classes):
            return keyword
    return type(node).__name__.upper()


def _check_root(root: exp.Expr, allowed: tuple[str, ...]) -> exp.Expr:
    """Return the root to check (SHOW TABLES becomes a SELECT) or refuse its kind."""
    if isinstance(root, _READ_ROOTS):
        if isinstance(root, exp.Subquery) and not isinstance(root.unnest(), _READ_ROOTS):
            raise SqlRefused("only SELECT queries can be run")
        return root
    if isinstance(root, (exp.Describe, exp.Summarize)):
        extra = [k for k, v in root.args.items() if v and k not in ("this", "table")]
        target = root.this
        if extra or not isinstance(target, (exp.Table, *_READ_ROOTS)):
            raise SqlRefused("only DESCRIBE/SUMMARIZE <app>.<table> or of a SELECT is allowed")
        return root
    if isinstance(root, exp.Show) and str(root.this).upper() in ("TABLES", "ALL TABLES"):
        if [k for k, v in root.args.items() if v and k != "this"]:
            raise SqlRefused("only plain SHOW TABLES is allowed: query information_schema.tables")
        return (
            exp.select("table_schema", "table_name", "table_type")
            .from_(exp.table_("tables", db="information_schema"))
            .order_by("table_schema", "table_name")
        )
    keyword = _root_keyword(root)
    raise SqlRefused(
        f"{keyword} is not allowed: the read tool only runs queries "
        "(SELECT, WITH … SELECT, UNION/INTERSECT/EXCEPT, VALUES, DESCRIBE, SUMMARIZE)"
    )


# -- the tree walk ------------------------------------------------------------------------
def _function_names(node: exp.Func) -> list[str]:
    """The name DuckDB will look up for `node` (empty when it renders as syntax)."""
    try:
        name = function_call_name(node)
    except Exception:
        raise SqlRefused("this statement cannot be rendered safely; simplify it") from None
    return [name] if name else []


def _check_function_name(node: exp.Func) -> None:
    """Refuse a call of anything but a reviewed, allowed built-in (functions.toml)."""
    for name in _function_names(node):
        why = banned_function_reason(name, "expression")
        if why:
            raise SqlRefused(f"function {name} is not allowed: {why}")


def _check_sizes(functions: list[exp.Func]) -> None:
    """Value-size limits (`cfab.apps.sandbox.size`), innermost call first, so a runtime size
    check built around an outer call already contains the checks of the calls inside it."""
    for node in reversed(functions):
        check_value_size(node, runtime_checks=True)


def _check_rendered_names(root: exp.Expr) -> None:
    """The allow-list again, on the re-parse of the text that will run (so a call the
    generator synthesised, not written by the agent, is checked too)."""
    for node in root.walk():
        if not isinstance(node, exp.Func):
            continue
        in_from = isinstance(node.parent, exp.Table) and node.arg_key == "this"
        in_lateral = isinstance(node.parent, exp.Lateral) and node.arg_key == "this"
        for name in _function_names(node):
            if in_from or in_lateral:
                if name in CATALOG_FUNCTIONS and not node.expressions:
                    continue
                why = banned_function_reason(name, "table")
            else:
                why = banned_function_reason(name, "expression")
            if why:
                raise SqlRefused(f"function {name} is not allowed: {why}")


def _cte_visible(table: exp.Table, name: str) -> bool:
    """True if `name` resolves to a CTE in scope at `table` (earlier siblings, self if recursive)."""
    chain: list[exp.Expr] = []
    node: exp.Expr | None = table
    while node is not None:
        chain.append(node)
        node = node.parent
    skip_owner: exp.Expr | None = None
    for idx, node in enumerate(chain):
        if isinstance(node, exp.With) and idx > 0:
            names = [c.alias_or_name.lower() for c in node.expressions]
            came_from = chain[idx - 1]
            position = next((i for i, c in enumerate(node.expressions) if c is came_from), len(names))
            visible = names[:position]
            if node.args.get("recursive") and position < len(names):
                visible.append(names[position])
            if name in visible:
                return True
            skip_owner = chain[idx + 1] if idx + 1 < len(chain) else None
        elif idx > 0 and node is not skip_owner:
            with_ = node.args.get("with_") or node.args.get("with")
            if isinstance(with_, exp.With) and name in [c.alias_or_name.lower() for c in with_.expressions]:
                return True
    return False


class _Catalog(NamedTuple):
    table: exp.Table
    source: exp.Table  # the relation inside the filtered subquery
    column: str
    alias: str
    shown: str  # how the agent wrote it, for messages


def _check_table(table: exp.Table, allowed: tuple[str, ...], catalog: list[_Catalog]) -> None:
    if table.args.get("catalog") is not None:
        raise SqlRefused(f"catalog-qualified name {table.sql(dialect=DIALECT)} is not allowed: use <app>.<table>")
    target = table.this
    schema_id = table.args.get("db")
    if schema_id is not None and not isinstance(schema_id, exp.Identifier):
        raise SqlRefused("table names must be plain identifiers")
    schema = schema_id.name if schema_id is not None else ""
    if isinstance(target, exp.Func):
        _check_table_function(table, target, schema, allowed, catalog)
        return
    if not isinstance(target, exp.Identifier):
        raise SqlRefused("table names must be plain identifiers")
    name = target.name
    if not schema:
        if _cte_visible(table, name.lower()):
            return
        if looks_like_file(name):
            raise SqlRefused(f"'{name}' looks like a file path: agents cannot read files")
        raise SqlRefused(
            f"table {name} must be schema-qualified with one of your apps: "
            f"{', '.join(allowed)} (e.g. {allowed[0] if allowed else 'app'}.{name})"
        )
    low = schema.lower()
    if low == "information_schema":
        column = CATALOG_VIEWS.get(name.lower())
        if column is None:
            raise SqlRefused(
                f"information_schema.{name} is not available: use "
                + ", ".join(f"information_schema.{v}" for v in CATALOG_VIEWS)
            )
        source = exp.Table(this=exp.to_identifier(name.lower()), db=exp.to_identifier("information_schema"))
        catalog.append(_Catalog(table, source, column, name.lower(), f"information_schema.{name}"))
        return
    if not (schema.isascii() and low in allowed):
        raise schema_refusal(schema, name, allowed)
    if looks_like_file(name):
        raise SqlRefused(f"table name {schema}.{name} looks like a file: agents cannot read files")


def _check_table_function(
    table: exp.Table, fn: exp.Func, schema: str, allowed: tuple[str, ...], catalog: list[_Catalog]
) -> None:
    names = [n.lower() for n in _function_names(fn)]
    shown = names[0] if names else type(fn).__name__.lower()
    if schema:
        raise SqlRefused(f"qualified table function {schema}.{shown} is not allowed")
    if isinstance(fn, _TABLE_FUNCTION_CLASSES) and (not names or shown in ALLOWED_TABLE_FUNCTIONS):
        return
    if shown in ALLOWED_TABLE_FUNCTIONS and banned_function_reason(shown, "table") is None:
        return
    if isinstance(fn, exp.Anonymous) and shown in CATALOG_FUNCTIONS:
        if fn.expressions:
            raise SqlRefused(f"{shown}() takes no arguments here")
        catalog.append(
            _Catalog(table, exp.Table(this=exp.Anonymous(this=shown)), CATALOG_FUNCTIONS[shown], shown, f"{shown}()")
        )
        return
    why = (
        banned_function_reason(shown, "table")
        or "only "
        + ", ".join(sorted(ALLOWED_TABLE_FUNCTIONS))
        + " and the catalog functions "
        + ", ".join(f"{f}()" for f in CATALOG_FUNCTIONS)
        + " are available"
    )
    raise SqlRefused(f"function {shown} is not allowed: {why}")


def _check_lateral(node: exp.Lateral) -> None:
    """LATERAL takes a subquery or an allowed table function, never a bare name."""
    inner = node.this
    if isinstance(inner, (exp.Subquery, exp.Select, exp.SetOperation)):
        return
    if isinstance(inner, exp.Func):
        names = _function_names(inner)
        if (names[0] if names else "") in ALLOWED_TABLE_FUNCTIONS or (
            not names and isinstance(inner, _TABLE_FUNCTION_CLASSES)
        ):
            return
        name = names[0] if names else type(inner).__name__.lower()
        raise SqlRefused(
            f"function {name} is not allowed after LATERAL: "
            f"only {', '.join(sorted(ALLOWED_TABLE_FUNCTIONS))} or a subquery"
        )
    raise SqlRefused("LATERAL must be followed by a subquery: LATERAL (SELECT … FROM <app>.<table> …)")


def _check_tree(root: exp.Expr, allowed: tuple[str, ...]) -> list[_Catalog]:
    catalog: list[_Catalog] = []
    functions: list[exp.Func] = []
    for node in list(root.walk()):
        if node is not root or not isinstance(root, (exp.Describe, exp.Summarize)):
            for classes, keyword in _DENIED_NODES:
                if classes and isinstance(node, classes):
                    kw = _root_keyword(node) if isinstance(node, exp.Command) else keyword
                    raise SqlRefused(f"{kw} is not allowed in the read tool")
        if isinstance(node, exp.Dot) and isinstance(node.expression, exp.Func):
            raise SqlRefused(
                "method-style or schema-qualified function calls are not allowed: "
                "write f(x) instead of x.f() or schema.f()"
            )
        if isinstance(node, exp.Func) and not (isinstance(node.parent, exp.Table) and node.arg_key == "this"):
            _check_function_name(node)
            functions.append(node)
        if isinstance(node, exp.Table):
            _check_table(node, allowed, catalog)
        if isinstance(node, exp.Lateral):
            _check_lateral(node)
        if isinstance(node, (exp.From, exp.Join)) and not isinstance(node.this, _FROM_ITEMS):
            raise SqlRefused("only tables, subqueries and allowed table functions can be used in FROM")
        if isinstance(node, exp.DataType) and node.this == exp.DataType.Type.USERDEFINED:
            kind = str(node.args.get("kind") or "")
            if "." in kind and kind.split(".")[-2].strip('"').lower() not in allowed:
                raise SqlRefused(f"type {kind} is not available")
    _check_sizes(functions)
    return catalog


def _rewrite_catalog(entries: list[_Catalog], allowed: tuple[str, ...]) -> None:
    """Replace each catalog relation by a subquery filtered to the allowed schemas."""
    if entries and not allowed:
        raise SqlRefused("no apps are composed in this attempt, so there is no catalog to show")
    for entry in entries:
        table = entry.table
        if not isinstance(table.parent, (exp.From, exp.Join)):
            raise SqlRefused(f"{entry.shown} can only be used in FROM or JOIN of a SELECT")
        extra = [k for k, v in table.args.items() if v and k not in ("this", "db", "alias")]
        if extra:
            raise SqlRefused(f"keep catalog queries simple: no {', '.join(extra)} on {entry.shown}")
        alias = table.args.get("alias")
        alias = (
            alias.copy() if isinstance(alias, exp.TableAlias) else exp.TableAlias(this=exp.to_identifier(entry.alias))
        )
        keep = exp.column(entry.column).isin(*(exp.Literal.string(s) for s in allowed))
        filtered = exp.select(exp.Star()).from_(entry.source).where(keep)
        table.replace(exp.Subquery(this=filtered, alias=alias))


def prepare_read(sql: str, allowed_schemas: Collection[str]) -> CheckedRead:
    """Run every static layer on `sql` and return the checked tree and the SQL to execute."""
    allowed = normalize_allowed(allowed_schemas)
    root = _check_root(parse_one_statement(sql), allowed)
    try:
        catalog = _check_tree(root, allowed)
    except RecursionError:
        raise SqlRefused("SQL is nested too deeply") from None
    _rewrite_catalog(catalog, allowed)
    try:
        text = render_sql(root)
        reparsed = parse_one_statement(text)
        again = render_sql(reparsed)
        _check_rendered_names(reparsed)
    except SqlRefused as exc:
        if exc.reason.startswith("function "):
            raise
        raise SqlRefused("this statement cannot be normalized safely; simplify it") from None
    except Exception:
        raise SqlRefused("this statement cannot be rendered safely; simplify it") from None
    if again != text:
        raise SqlRefused("this statement cannot be normalized safely; simplify it")
    crosscheck_read(text, allowed)
    return CheckedRead(root, text)


def check_read(sql: str, allowed_schemas: Collection[str]) -> exp.Expr:
    """Check one read statement; return the parsed (possibly rewritten) tree or raise SqlRefused.

    Execute `render_sql(result)` (equivalently `prepare_read(...).sql`), never the input.
    """
    return prepare_read(sql, allowed_schemas).expression
