"""PM archetype: project-management platforms (Procore — the reference — RedTeam Go,
INGENIOUS.BUILD, Ressio, SmarteBuild).

:class:`PMApp` holds the behaviour every PM platform shares, written once over class constants
that name the vendor's native tables and columns: projects (resolved from the human job number
people use, "1042", to the platform's own id), the vendor directory, commitments with their
schedules of values (the same book commitment ``SC-1042-0`` in every platform), change orders,
pay-request arithmetic (what a commitment has billed and what is left under its cap) and the
checks a guarded approve-for-payment makes before it stages. Each platform subclass sets the
constants and adds the finance surface it is known for (ERP sync, eApps, funding, bill
matching, progress claims).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any, ClassVar

from pydantic import Field
from sqlglot import exp

from cfab.apps.contract import App
from cfab.apps.kit import all_of, cents, dec, ieq, ilike, in_list
from cfab.apps.tooling import ToolArgs, ToolError, tool
from cfab.schema.sqlbuild import col, literal

MAX_ROWS = 500


# ---------------------------------------------------------------------------------- args
class ProjectsArgs(ToolArgs):
    project_number: str | None = Field(
        None, description="Company job number (the number people use)", examples=["1042"]
    )
    status: str | None = Field(None, description="Project status word (case-insensitive)", examples=["Active"])
    name_contains: str | None = Field(
        None, description="Case-insensitive part of the project name", examples=["medical"]
    )


class VendorsArgs(ToolArgs):
    name_contains: str | None = Field(None, description="Case-insensitive part of the vendor name", examples=["walsh"])
    vendor_id: str | None = Field(None, description="This platform's vendor id", examples=["4410287"])
    trade: str | None = Field(None, description="Trade (case-insensitive)", examples=["Electrical"])


class CommitmentsArgs(ToolArgs):
    project_number: str | None = Field(None, description="Company job number", examples=["1042"])
    vendor_id: str | None = Field(None, description="This platform's vendor id", examples=["4410287"])
    status: str | None = Field(None, description="Commitment status word (case-insensitive)", examples=["Approved"])
    commitment_type: str | None = Field(
        None, description="Commitment type word (case-insensitive)", examples=["Subcontract"]
    )
    number: str | None = Field(None, description="Commitment number or company code", examples=["SC-1042-0"])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[100])


class CommitmentGetArgs(ToolArgs):
    commitment_id: str = Field(
        ...,
        description="The platform's commitment id, the company code ('SC-1042-0') or the agreement number ('1042-01')",
        examples=["SC-1042-0"],
    )


class ChangeOrdersArgs(ToolArgs):
    project_number: str | None = Field(None, description="Company job number", examples=["1042"])
    status: str | None = Field(None, description="Change order status word (case-insensitive)", examples=["Approved"])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[100])


# ---------------------------------------------------------------------------------- the archetype
class PMApp(App):
    """A project-management platform. Subclasses set the native-name constants below."""

    archetype = "PM"
    kind: ClassVar[str] = "pm"

    # projects
    T_PROJECT: ClassVar[str] = "projects"
    P_ID: ClassVar[str] = "project_id"
    P_NUMBER: ClassVar[str] = "job_number"
    P_NAME: ClassVar[str] = "name"
    P_STATUS: ClassVar[str] = "status"
    # vendors
    T_VENDOR: ClassVar[str] = "vendors"
    V_ID: ClassVar[str] = "vendor_id"
    V_NAME: ClassVar[str] = "vendor_name"
    V_TRADE: ClassVar[str] = "trade"
    V_ID_TYPE: ClassVar[str] = "VARCHAR"
    # commitments
    T_COMMIT: ClassVar[str] = "commitments"
    C_ID: ClassVar[str] = "commitment_id"
    C_PROJECT: ClassVar[str] = "project_id"
    C_VENDOR: ClassVar[str] = "vendor_id"
    C_NUMBER: ClassVar[str] = "number"  # the agreement number people see
    C_CODE: ClassVar[str] = "commitment_code"  # the company's code ('SC-1042-0')
    C_STATUS: ClassVar[str] = "status"
    C_TYPE: ClassVar[str] = "commitment_type"
    C_AMOUNT: ClassVar[str] = "amount"  # revised amount (the cap)
    C_RETAINAGE: ClassVar[str] = "retainage_pct"
    T_COMMIT_LINES: ClassVar[str] = "commitment_lines"
    CL_FK: ClassVar[str] = "commitment_id"
    CL_ORDER: ClassVar[str] = "line_no"
    CL_AMOUNT: ClassVar[str] = "amount"
    # change orders
    T_CO: ClassVar[str] = "change_orders"
    CO_PROJECT: ClassVar[str] = "project_id"
    CO_STATUS: ClassVar[str] = "status"
    CO_ORDER: ClassVar[tuple[str, ...]] = ("co_id",)
    # words and examples
    # result keys in the vendor's words (also $EX_... placeholders in the docstrings)
    EX_PROJECTS: ClassVar[str] = "projects"
    EX_VENDORS: ClassVar[str] = "vendors"
    EX_COMMITMENTS: ClassVar[str] = "commitments"
    EX_COMMITMENT: ClassVar[str] = "commitment"
    EX_CHANGE_ORDERS: ClassVar[str] = "change_orders"
    EX_PROJECT_STATUS: ClassVar[str] = "Active"
    EX_VENDOR_ID: ClassVar[str] = "V1000"
    EX_COMMITMENT_STATUS: ClassVar[str] = "Approved"
    EX_COMMITMENT_TYPE: ClassVar[str] = "Subcontract"
    EX_CO_STATUS: ClassVar[str] = "Approved"

    # ------------------------------------------------------------------ project helpers
    def _project(self, number: str) -> dict[str, Any]:
        """The project row for a company job number (or this platform's own project id)."""
        ref = str(number).strip()
        info = self.tbl(self.T_PROJECT)
        rows = self.select(self.T_PROJECT, {self.P_NUMBER: ref})
        if not rows:
            id_type = info.columns[info.column(self.P_ID)]
            if id_type.upper() in ("BIGINT", "INTEGER") and not ref.isdigit():
                rows = []
            else:
                rows = self.select(self.T_PROJECT, {self.P_ID: ref})
        if not rows:
            raise ToolError(
                f"no project {ref!r} in {self.label}; use the company job number, e.g. '1042' "
                f"(projects.list shows them)",
                "not_found",
            )
        return rows[0]

    def _project_id(self, number: str | None) -> Any:
        return None if number is None else self._project(number)[self.P_ID]

    def _projects_by_id(self) -> dict[Any, dict[str, Any]]:
        return {r[self.P_ID]: r for r in self.select(self.T_PROJECT)}

    def _vendor(self, vendor_id: Any) -> dict[str, Any]:
        ref = str(vendor_id).strip()
        if self.V_ID_TYPE.upper() in ("BIGINT", "INTEGER"):
            if not ref.isdigit():
                raise ToolError(
                    f"vendor ids in {self.label} are numbers, got {ref!r}; vendors.list finds them", "invalid_argument"
                )
            rows = self.select(self.T_VENDOR, {self.V_ID: int(ref)})
        else:
            rows = self.select(self.T_VENDOR, {self.V_ID: ref})
        if not rows:
            raise ToolError(f"no vendor with id {ref!r} in {self.label}", "not_found")
        return rows[0]

    def _vendor_key(self, vendor_id: Any) -> Any:
        """A vendor filter value of the right type (validated)."""
        return None if vendor_id is None else self._vendor(vendor_id)[self.V_ID]

    def _vendor_names(self, ids: Iterable[Any]) -> dict[Any, str]:
        wanted = {i for i in ids if i is not None}
        if not wanted:
            return {}
        info = self.tbl(self.T_VENDOR)
        rows = self.select(self.T_VENDOR, extra=in_list(self.V_ID, wanted, info.columns[info.column(self.V_ID)]))
        return {r[self.V_ID]: r[self.V_NAME] for r in rows}

    # ------------------------------------------------------------------ commitment helpers
    def _commitment(self, ref: str) -> dict[str, Any]:
        """A commitment by the platform's id, the company code or the agreement number."""
        text = str(ref).strip()
        info = self.tbl(self.T_COMMIT)
        id_type = info.columns[info.column(self.C_ID)].upper()
        rows: list[dict[str, Any]] = []
        if id_type not in ("BIGINT", "INTEGER") or text.isdigit():
            rows = self.select(self.T_COMMIT, {self.C_ID: int(text) if id_type in ("BIGINT", "INTEGER") else text})
        if not rows:
            rows = self.select(self.T_COMMIT, {self.C_CODE: text})
        if not rows and self.C_NUMBER != self.C_CODE:
            rows = self.select(self.T_COMMIT, {self.C_NUMBER: text})
        if not rows:
            raise ToolError(
                f"no commitment {text!r} in {self.label}; pass its id, its code such as 'SC-1042-0' or its number",
                "not_found",
            )
        if len(rows) > 1:
            raise ToolError(
                f"{text!r} matches {len(rows)} commitments in {self.label}; pass the id", "invalid_argument"
            )
        return rows[0]

    def _commitment_lines(self, commitment_id: Any) -> list[dict[str, Any]]:
        return self.select(self.T_COMMIT_LINES, {self.CL_FK: commitment_id}, order_by=[self.CL_ORDER])

    def _commitment_rows(self, args: CommitmentsArgs, extra: exp.Expr | None = None) -> list[dict[str, Any]]:
        where = {self.C_PROJECT: self._project_id(args.project_number), self.C_VENDOR: self._vendor_key(args.vendor_id)}
        number = None
        if args.number:
            number = exp.or_(
                exp.EQ(this=col(self.C_CODE), expression=literal(args.number.strip())),
                exp.EQ(this=col(self.C_NUMBER), expression=literal(args.number.strip())),
            )
        return self.select(
            self.T_COMMIT,
            where,
            extra=all_of(ieq(self.C_STATUS, args.status), ieq(self.C_TYPE, args.commitment_type), number, extra),
            order_by=[self.C_PROJECT, self.C_CODE],
            limit=args.limit,
        )

    def _decorate_commitments(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Add the human project number and vendor name to commitment rows."""
        projects = self._projects_by_id()
        names = self._vendor_names(r[self.C_VENDOR] for r in rows)
        out = []
        for r in rows:
            p = projects.get(r[self.C_PROJECT])
            out.append(
                {**r, "project_number": p[self.P_NUMBER] if p else None, "vendor_name": names.get(r[self.C_VENDOR])}
            )
        return out

    def _commitment_extra(self, row: dict[str, Any]) -> dict[str, Any]:
        """Platform-specific facts shown by commitments.get (billing to date, sync state, ...)."""
        return {}

    # ------------------------------------------------------------------ billing arithmetic
    def billed_against(self, rows: Iterable[Mapping[str, Any]], amount_col: str) -> Decimal:
        return sum((dec(r[amount_col]) for r in rows), Decimal("0"))

    def remaining_cap(self, cap: Decimal, billed: Decimal) -> Decimal:
        return cents(dec(cap) - dec(billed))

    # ------------------------------------------------------------------ shared tools
    @tool("projects.list")
    def projects_list(self, args: ProjectsArgs) -> dict[str, Any]:
        """List projects in $label.

        Projects are known to people by the company job number ("1042"); $label's own id is
        shown alongside and is what its other records reference.

        Args:
            project_number: company job number, e.g. "1042".
            status: status word, e.g. "$EX_PROJECT_STATUS".
            name_contains: part of the name, e.g. "medical".

        Returns {"$EX_PROJECTS": [{...native project fields...}], "count": n}.
        """
        rows = self.select(
            self.T_PROJECT,
            {self.P_NUMBER: args.project_number},
            extra=all_of(ieq(self.P_STATUS, args.status), ilike(self.P_NAME, args.name_contains)),
            order_by=[self.P_NUMBER],
        )
        return {self.EX_PROJECTS: rows, "count": len(rows)}

    @tool("vendors.list")
    def vendors_list(self, args: VendorsArgs) -> dict[str, Any]:
        """List the vendors (subcontractors and suppliers) in $label's directory, as $label spells them.

        The same company is spelled differently in other systems; match names with care and use
        the integration crosswalk (hh2) to translate ids between systems.

        Args:
            name_contains: part of the name, e.g. "walsh".
            vendor_id: $label's vendor id, e.g. "$EX_VENDOR_ID".
            trade: trade, e.g. "Electrical".

        Returns {"$EX_VENDORS": [{...native vendor fields...}], "count": n}.
        """
        where = {self.V_ID: self._vendor_key(args.vendor_id)} if args.vendor_id else {}
        rows = self.select(
            self.T_VENDOR,
            where,
            extra=all_of(ilike(self.V_NAME, args.name_contains), ieq(self.V_TRADE, args.trade)),
            order_by=[self.V_NAME],
        )
        return {self.EX_VENDORS: rows, "count": len(rows)}

    @tool("commitments.list")
    def commitments_list(self, args: CommitmentsArgs) -> dict[str, Any]:
        """List commitments (subcontracts and purchase orders) in $label.

        Args:
            project_number: company job number, e.g. "1042".
            vendor_id: $label's vendor id, e.g. "$EX_VENDOR_ID".
            status: status word, e.g. "$EX_COMMITMENT_STATUS".
            commitment_type: type word, e.g. "$EX_COMMITMENT_TYPE".
            number: the company code or the agreement number, e.g. "SC-1042-0".
            limit: most rows, e.g. 100.

        Returns {"$EX_COMMITMENTS": [{...native fields..., project_number, vendor_name}], "count": n, "truncated": bool}.
        """  # noqa: E501
        rows = self._decorate_commitments(self._commitment_rows(args))
        return {self.EX_COMMITMENTS: rows, "count": len(rows), "truncated": len(rows) >= args.limit}

    @tool("commitments.get")
    def commitments_get(self, args: CommitmentGetArgs) -> dict[str, Any]:
        """One commitment with its schedule of values (line items).

        Args:
            commitment_id: $label's id, the company code ("SC-1042-0") or the agreement number.

        Returns {"$EX_COMMITMENT": {...native fields..., project_number, vendor_name}, "line_items": [...],
        plus what $label tracks about its billing}.
        """
        row = self._commitment(args.commitment_id)
        head = self._decorate_commitments([row])[0]
        lines = self._commitment_lines(row[self.C_ID])
        return {self.EX_COMMITMENT: head, "line_items": lines, **self._commitment_extra(row)}

    @tool("change_orders.list")
    def change_orders_list(self, args: ChangeOrdersArgs) -> dict[str, Any]:
        """List change orders in $label (owner/prime, commitment and internal budget changes).

        Args:
            project_number: company job number, e.g. "1042".
            status: status word, e.g. "$EX_CO_STATUS".
            limit: most rows, e.g. 100.

        Returns {"$EX_CHANGE_ORDERS": [{...native fields...}], "count": n, "truncated": bool}.
        """
        rows = self.select(
            self.T_CO,
            {self.CO_PROJECT: self._project_id(args.project_number)},
            extra=ieq(self.CO_STATUS, args.status),
            order_by=list(self.CO_ORDER),
            limit=args.limit,
        )
        return {self.EX_CHANGE_ORDERS: rows, "count": len(rows), "truncated": len(rows) >= args.limit}
