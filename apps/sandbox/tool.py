"""The SQL tool every environment carries: read-only exploration of the composed apps,
and (when a task enables it) single-statement writes that go through the write gate.

Not one of the 35 apps: it has no schema of its own and is not in the registry.
"""

from __future__ import annotations

from string import Template
from typing import Any, ClassVar

from pydantic import Field

from cfab.apps.contract import App, AppContext
from cfab.apps.tooling import ToolArgs, ToolError, ToolSpec, tool

READ_TIMEOUT_S = 5.0


class SqlQueryArgs(ToolArgs):
    sql: str = Field(
        ...,
        description="One read-only SELECT; every table qualified with its app schema.",
        examples=["SELECT Vendor, Name FROM vista_erp.APVM WHERE Name ILIKE '%walsh%'"],
    )
    max_rows: int = Field(
        100, ge=1, le=500, description="Most rows to return (the total count is reported).", examples=[50]
    )


class SqlExecuteArgs(ToolArgs):
    sql: str = Field(
        ...,
        description="Exactly one INSERT, UPDATE or DELETE on one table of your apps.",
        examples=[
            "INSERT INTO vista_erp.APVH (VendorGroup, Vendor, HoldCode, Notes, DateAdded) "
            "VALUES (1, 20147, 'COI', 'COI expired 2026-01-15', DATE '2026-01-31')"
        ],
    )


class SqlTool(App):
    """Agent SQL over the composed apps' schemas."""

    name: ClassVar[str] = "sql"
    label: ClassVar[str] = "SQL"
    kind: ClassVar[str] = "sql"

    def __init__(self, ctx: AppContext, schemas: list[str], allow_write: bool = False) -> None:
        super().__init__(ctx)
        self.schemas = list(schemas)
        self.allow_write = allow_write

    def offered(self) -> dict[str, ToolSpec]:
        specs = type(self).tools()
        if self.allow_write:
            return specs
        return {n: s for n, s in specs.items() if not s.writes}

    def describe(self, spec: ToolSpec) -> str:
        return Template(spec.description).safe_substitute(schemas=", ".join(self.schemas))

    @tool("query")
    def query(self, args: SqlQueryArgs) -> dict[str, Any]:
        """Run one read-only SQL query (DuckDB dialect) over your apps' data.

        Your apps' schemas: $schemas. Qualify every table with its schema
        (``procore.commitments``, not ``commitments``). Discover tables with
        ``SELECT table_schema, table_name FROM information_schema.tables`` and columns with
        ``SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'procore' AND table_name = 'commitments'``.
        Reads only: writes, files, ATTACH, SET and other schemas are refused.

        Args:
            sql: one SELECT, e.g. "SELECT number, vendor_name, amount FROM procore.commitments WHERE project_number = '1042'".
            max_rows: most rows to return, e.g. 50 (default 100, max 500).

        Returns {"columns": [...], "rows": [[...]], "row_count": n, "truncated": bool}; amounts are exact decimal strings.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        from cfab.apps.sandbox.exec import run_read

        outcome = run_read(self.con, args.sql, self.schemas, max_rows=args.max_rows, timeout_s=READ_TIMEOUT_S)
        data = outcome.model_dump(mode="json")
        data.pop("elapsed_ms", None)  # wall-clock: keep tool logs identical across runs and transports
        if not data.pop("ok", True) or data.get("kind") in ("refused", "timeout", "error"):
            raise ToolError(
                data.get("message") or "query failed",
                "rejected" if data.get("kind") == "refused" else "invalid_argument",
            )
        return data

    @tool("execute", writes=True)
    def execute(self, args: SqlExecuteArgs) -> dict[str, Any]:
        """Run one INSERT, UPDATE or DELETE on a table of your apps, through the same rules as the apps' own tools.

        Locked records (synced, posted, closed periods) are refused with the reason; a write that
        would post, pay, file or send is staged for human approval and not executed.
        Only literal values in INSERT; UPDATE may use expressions over the row's own columns.

        Args:
            sql: one statement, e.g. "INSERT INTO vista_erp.APVH (VendorGroup, Vendor, HoldCode, Notes, DateAdded)
                VALUES (1, 20147, 'COI', 'COI expired 2026-01-15', DATE '2026-01-31')" (a payment hold) or
                "UPDATE qbo.Vendor SET PaymentHold = true WHERE Id = 'V1001'".

        Returns {"statement": "insert", "table": "vista_erp.APVH", "rows_affected": n}.
        """
        if not self.allow_write:
            raise ToolError("sql.execute is not enabled for this task; use the apps' tools to make changes", "rejected")
        from cfab.apps.sandbox.policy import SqlRefused
        from cfab.apps.sandbox.write import parse_write

        try:
            intent = parse_write(args.sql, self.schemas)
        except SqlRefused as exc:
            raise ToolError(str(getattr(exc, "reason", exc)), "rejected") from None
        table = f"{intent.schema}.{intent.table}"
        for app in self.ctx.apps.values():
            if app.schema_name() == intent.schema:
                derived = {t.lower(): w for t, w in app.DERIVED_TABLES.items()}.get(intent.table.lower())
                if derived:
                    raise ToolError(
                        f"{table} is derived from {app.label}'s stored files and changes only with them: use {derived}",
                        "rejected",
                    )
        if intent.op == "insert":
            info = self.ctx.catalog.get(table)
            cols = intent.columns or list(info.columns)
            rows = []
            for values in intent.rows:
                if len(values) != len(cols):
                    raise ToolError(f"INSERT row has {len(values)} values for {len(cols)} columns")
                rows.append(dict(zip(cols, values, strict=True)))
            count = len(self.gate.insert_many(table, rows))
        elif intent.op == "update":
            count = self.gate.update_where(table, intent.where, intent.assignments)
        else:
            count = self.gate.delete_where(table, intent.where)
        return {"statement": intent.op, "table": table, "rows_affected": count}
