"""Procore: the reference PM app, with the sixteen native tools of the paper's appendix A.

Fourteen reads and two ERP-boundary writes (``procore.erp.sync_commitment`` and
``procore.erp.sync_invoice``): a sync creates the record in the connected ERP (Viewpoint
Vista, app ``vista_erp``), unposted, through the ERP's integration methods, then flips
Procore's sync status and locks the Procore record. Status sync is not money movement, so the
two writes are permitted; posting in the ERP stays a separate, guarded step there.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import Field

from cfab.apps.kit import all_of, cents, date_range, dec, ieq, in_list
from cfab.apps.pm.base import MAX_ROWS, CommitmentGetArgs, CommitmentsArgs, PMApp
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool

SYNCED = "synced"
NOT_SYNCED = "not_synced"
SYNC_WORKFLOW = "procore.erp.sync"  # triggers/rules/procore.toml: rules excepted while a sync tool writes


# ---------------------------------------------------------------------------------- args
class ProcoreCommitmentsArgs(CommitmentsArgs):
    erp_sync_status: Literal["synced", "not_synced"] | None = Field(
        None, description="ERP sync status: synced or not_synced", examples=["not_synced"]
    )


class CostCodesArgs(ToolArgs):
    project_number: str | None = Field(None, description="Company job number", examples=["1042"])
    division: str | None = Field(None, description="CSI division", examples=["26"])
    full_code: str | None = Field(None, description="Full cost code", examples=["26-100"])


class ChangeEventsArgs(ToolArgs):
    project_number: str | None = Field(None, description="Company job number", examples=["3100"])
    status: Literal["open", "pending", "closed"] | None = Field(
        None, description="open, pending or closed", examples=["pending"]
    )
    scope: Literal["in_scope", "out_of_scope", "tbd"] | None = Field(
        None, description="in_scope, out_of_scope or tbd", examples=["tbd"]
    )


class PrimeContractsArgs(ToolArgs):
    project_number: str | None = Field(None, description="Company job number", examples=["1042"])


class PrimeSovArgs(ToolArgs):
    project_number: str | None = Field(
        None, description="Company job number (the project's prime contract)", examples=["1042"]
    )
    prime_contract_id: int | None = Field(
        None, description="Procore prime contract id (instead of project_number)", examples=[3000001]
    )


class DirectCostsArgs(ToolArgs):
    project_number: str | None = Field(None, description="Company job number", examples=["1042"])
    vendor_id: str | None = Field(None, description="Procore vendor id", examples=["4410287"])
    status: str | None = Field(
        None, description="draft, pending, revise_and_resubmit or approved", examples=["approved"]
    )
    date_from: date | None = Field(None, description="First direct cost date (ISO)", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Last direct cost date (ISO)", examples=["2026-01-31"])
    include_lines: bool = Field(False, description="Include the cost-coded line items", examples=[True])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[100])


class BudgetArgs(ToolArgs):
    project_number: str = Field(..., description="Company job number", examples=["1042"])
    cost_code: str | None = Field(None, description="One full cost code", examples=["26-100"])


class ManpowerArgs(ToolArgs):
    project_number: str = Field(..., description="Company job number", examples=["1042"])
    date_from: date | None = Field(None, description="First log date (ISO)", examples=["2026-01-19"])
    date_to: date | None = Field(None, description="Last log date (ISO)", examples=["2026-01-24"])
    trade: str | None = Field(None, description="Trade (case-insensitive)", examples=["Electrician"])


class RequisitionsArgs(ToolArgs):
    project_number: str | None = Field(None, description="Company job number", examples=["1042"])
    commitment_id: str | None = Field(None, description="Commitment id, company code or number", examples=["SC-1042-0"])
    vendor_id: str | None = Field(None, description="Procore vendor id", examples=["4410287"])
    status: Literal["draft", "under_review", "approved", "rejected"] | None = Field(
        None, description="draft, under_review, approved or rejected", examples=["approved"]
    )
    erp_sync_status: Literal["synced", "not_synced"] | None = Field(
        None, description="synced or not_synced", examples=["not_synced"]
    )
    date_from: date | None = Field(None, description="First billing date (ISO)", examples=["2026-01-01"])
    date_to: date | None = Field(None, description="Last billing date (ISO)", examples=["2026-01-31"])
    include_lines: bool = Field(False, description="Include the line items", examples=[True])
    limit: int = Field(MAX_ROWS, ge=1, le=5000, description="Most rows to return", examples=[100])


class CostCodeMapArgs(ToolArgs):
    cost_code: str | None = Field(None, description="Full cost code", examples=["31-200"])


class SyncCommitmentArgs(ToolArgs):
    commitment_id: str = Field(..., description="Procore commitment id, company code or number", examples=["SC-1042-1"])


class SyncInvoiceArgs(ToolArgs):
    requisition_id: int = Field(..., description="Procore requisition (subcontractor invoice) id", examples=[1000003])


# ---------------------------------------------------------------------------------- the app
@register
class Procore(PMApp):
    """Procore: projects, financials (commitments, requisitions, budget, change management) and the ERP sync."""

    name: ClassVar[str] = "procore"
    label: ClassVar[str] = "Procore"
    tier = "A"

    ERP_APP: ClassVar[str] = "vista_erp"
    ERP_LABEL: ClassVar[str] = "Viewpoint Vista"

    T_PROJECT = "projects"
    P_ID = "id"
    P_NUMBER = "project_number"
    P_NAME = "name"
    P_STATUS = "stage"
    T_VENDOR = "vendors"
    V_ID = "id"
    V_NAME = "name"
    V_TRADE = "trade_name"
    V_ID_TYPE = "BIGINT"
    T_COMMIT = "commitments"
    C_ID = "id"
    C_PROJECT = "project_id"
    C_VENDOR = "vendor_id"
    C_NUMBER = "number"
    C_CODE = "contract_code"
    C_STATUS = "status"
    C_TYPE = "commitment_type"
    C_AMOUNT = "grand_total"
    C_RETAINAGE = "retainage_percent"
    T_COMMIT_LINES = "commitment_line_items"
    CL_FK = "commitment_id"
    CL_ORDER = "position"
    T_CO = "change_orders"
    CO_PROJECT = "project_id"
    CO_STATUS = "status"
    CO_ORDER = ("project_id", "contract_type", "number")
    EX_PROJECT_STATUS = "Course of Construction"
    EX_VENDOR_ID = "4410287"
    EX_COMMITMENT_STATUS = "Approved"
    EX_COMMITMENT_TYPE = "WorkOrderContract"
    EX_CO_STATUS = "approved"

    TYPE_WORDS: ClassVar[dict[str, str]] = {
        "subcontract": "WorkOrderContract",
        "purchase_order": "PurchaseOrderContract",
        "purchase order": "PurchaseOrderContract",
        "po": "PurchaseOrderContract",
    }

    # ------------------------------------------------------------------ helpers
    def _erp(self, what: str) -> Any:
        app = self.ctx.apps.get(self.ERP_APP)
        if app is None:
            raise ToolError(
                f"{what} needs the connected ERP ({self.ERP_LABEL}, app {self.ERP_APP}) in this "
                f"environment, and it is not connected; nothing was synced",
                "rejected",
            )
        return app

    def _erp_lines(self, lines: list[dict[str, Any]], amount_col: str, what: str) -> list[dict[str, Any]]:
        """Translate Procore line items to ERP phase / cost type through Procore's own mapping."""
        codes = sorted({r["cost_code"] for r in lines})
        maps = {r["cost_code"]: r for r in self.select("erp_cost_code_mappings", extra=in_list("cost_code", codes))}
        missing = [c for c in codes if c not in maps]
        if missing:
            raise ToolError(
                f"{what}: cost code(s) {', '.join(missing)} have no ERP mapping in Procore's ERP cost code "
                f"map, so the ERP cannot receive them; map them first (nothing was synced)",
                "rejected",
            )
        out = []
        for r in lines:
            m = maps[r["cost_code"]]
            out.append(
                {
                    "phase": m["erp_phase"],
                    "cost_type": int(m["erp_cost_type"]),
                    "amount": dec(r[amount_col]),
                    "description": r["description"],
                    "cost_code": r["cost_code"],
                }
            )
        return out

    def _commitment_extra(self, row: dict[str, Any]) -> dict[str, Any]:
        reqs = self.select("requisitions", {"commitment_id": row["id"]}, order_by=["number"])
        approved = [r for r in reqs if r["status"] == "approved"]
        billed = sum((dec(r["gross_amount"]) for r in approved), Decimal("0"))
        return {
            "requisitions": [
                {
                    k: r[k]
                    for k in (
                        "id",
                        "number",
                        "invoice_number",
                        "status",
                        "gross_amount",
                        "retainage_amount",
                        "net_amount",
                        "erp_sync_status",
                    )
                }
                for r in reqs
            ],
            "billed_to_date_approved": cents(billed),
            "remaining_to_bill": cents(dec(row["grand_total"]) - billed),
        }

    def _with_lines(
        self, rows: list[dict[str, Any]], table: str, fk: str, key: str = "line_items"
    ) -> list[dict[str, Any]]:
        if not rows:
            return rows
        lines = self.select(table, extra=in_list(fk, [r["id"] for r in rows], "BIGINT"), order_by=[fk, "position"])
        by: dict[Any, list] = {}
        for ln in lines:
            by.setdefault(ln[fk], []).append(ln)
        return [{**r, key: by.get(r["id"], [])} for r in rows]

    # ------------------------------------------------------------------ reads
    @tool("commitments.list")
    def commitments_list(self, args: ProcoreCommitmentsArgs) -> dict[str, Any]:
        """List commitments (subcontracts = WorkOrderContract, purchase orders = PurchaseOrderContract).

        A commitment synced to the ERP is locked in Procore (erp_sync_status "synced", locked true).

        Args:
            project_number: company job number, e.g. "1042" (not Procore's internal project id).
            vendor_id: Procore vendor id, e.g. "4410287".
            status: Draft, Approved or Complete.
            commitment_type: WorkOrderContract or PurchaseOrderContract (also "subcontract" / "purchase_order").
            number: company code "SC-1042-0" or commitment number "1042-01".
            erp_sync_status: "synced" or "not_synced".
            limit: most rows, e.g. 100.

        Returns {"commitments": [{id, project_id, commitment_type, number, contract_code, title, vendor_id, status,
        executed, contract_date, original_amount, approved_change_orders, grand_total, retainage_percent,
        erp_sync_status, erp_ref, synced_at, locked, project_number, vendor_name}], "count": n, "truncated": bool}.
        """
        ctype = args.commitment_type
        if ctype is not None:
            ctype = self.TYPE_WORDS.get(ctype.strip().lower(), ctype)
        rows = self._commitment_rows(
            args.model_copy(update={"commitment_type": ctype}), extra=ieq("erp_sync_status", args.erp_sync_status)
        )
        rows = self._decorate_commitments(rows)
        return {"commitments": rows, "count": len(rows), "truncated": len(rows) >= args.limit}

    @tool("commitments.get")
    def commitments_get(self, args: CommitmentGetArgs) -> dict[str, Any]:
        """One commitment with its schedule of values and its requisitions.

        Args:
            commitment_id: Procore id (e.g. "2000001"), company code "SC-1042-0" or number "1042-01".

        Returns {"commitment": {...}, "line_items": [{id, position, cost_code, description, amount, percent_complete,
        work_completed, locked}], "requisitions": [{id, number, invoice_number, status, gross_amount, retainage_amount,
        net_amount, erp_sync_status}], "billed_to_date_approved": "...", "remaining_to_bill": "..."}.
        """
        return PMApp.commitments_get(self, args)

    @tool("cost_codes.list")
    def cost_codes_list(self, args: CostCodesArgs) -> dict[str, Any]:
        """List a project's cost codes (CSI MasterFormat: division, code, full_code "26-100", name).

        Args:
            project_number: company job number, e.g. "1042".
            division: CSI division, e.g. "26".
            full_code: one code, e.g. "26-100".

        Returns {"cost_codes": [{id, project_id, division, code, full_code, name, cost_type, sortable_code}], "count": n}.
        """  # noqa: E501
        rows = self.select(
            "cost_codes",
            {
                "project_id": self._project_id(args.project_number),
                "division": args.division,
                "full_code": args.full_code,
            },
            order_by=["project_id", "full_code"],
        )
        return {"cost_codes": rows, "count": len(rows)}

    @tool("change_events.list")
    def change_events_list(self, args: ChangeEventsArgs) -> dict[str, Any]:
        """List change events (potential changes with a rough-order-of-magnitude amount).

        A change event's scope says whether the owner pays (out_of_scope), the company absorbs it
        (in_scope) or it is not yet decided (tbd); its backup document (attachment_filename) is in
        the document store.

        Args:
            project_number: company job number, e.g. "3100".
            status: open, pending or closed.
            scope: in_scope, out_of_scope or tbd.

        Returns {"change_events": [{id, project_id, number, title, description, change_reason, scope, event_type,
        status, rom_amount, attachment_filename, origin_code}], "count": n}.
        """
        rows = self.select(
            "change_events",
            {"project_id": self._project_id(args.project_number), "status": args.status, "scope": args.scope},
            order_by=["project_id", "number"],
        )
        return {"change_events": rows, "count": len(rows)}

    @tool("prime_contracts.list")
    def prime_contracts_list(self, args: PrimeContractsArgs) -> dict[str, Any]:
        """List prime (owner) contracts with original, approved-change and revised amounts.

        Args:
            project_number: company job number, e.g. "1042".

        Returns {"prime_contracts": [{id, project_id, number, title, owner_name, status, executed, contract_date,
        original_contract_amount, approved_change_orders, pending_change_orders, revised_contract_amount,
        retainage_percent, retainage_step_down_percent, step_down_at_percent_complete}], "count": n}.
        """
        rows = self.select(
            "prime_contracts", {"project_id": self._project_id(args.project_number)}, order_by=["project_id"]
        )
        return {"prime_contracts": rows, "count": len(rows)}

    @tool("prime_contracts.sov")
    def prime_contracts_sov(self, args: PrimeSovArgs) -> dict[str, Any]:
        """The prime contract's schedule of values with the PM's percent complete (the owner billing basis).

        previous_* columns are as of the previous billing period end; percent_complete,
        work_completed and materials_presently_stored are cumulative as of progress_date.

        Args:
            project_number: company job number, e.g. "1042".
            prime_contract_id: Procore prime contract id instead, e.g. 3000001.

        Returns {"prime_contract": {...}, "line_items": [{id, position, item_number, description, cost_code, amount,
        source, change_order_number, previous_percent_complete, previous_work_completed, percent_complete,
        work_completed, materials_presently_stored, progress_date}], "totals": {scheduled_value, work_completed,
        materials_presently_stored, previous_work_completed}}.
        """
        if args.prime_contract_id is not None:
            pcs = self.select("prime_contracts", {"id": args.prime_contract_id})
        elif args.project_number is not None:
            pcs = self.select("prime_contracts", {"project_id": self._project_id(args.project_number)})
        else:
            raise ToolError("give project_number (e.g. '1042') or prime_contract_id")
        if not pcs:
            raise ToolError("no prime contract found for that project in Procore", "not_found")
        pc = pcs[0]
        lines = self.select("prime_contract_line_items", {"prime_contract_id": pc["id"]}, order_by=["position"])
        totals = {
            k: cents(sum((dec(r[c]) for r in lines), Decimal("0")))
            for k, c in (
                ("scheduled_value", "amount"),
                ("work_completed", "work_completed"),
                ("materials_presently_stored", "materials_presently_stored"),
                ("previous_work_completed", "previous_work_completed"),
            )
        }
        return {"prime_contract": pc, "line_items": lines, "totals": totals}

    @tool("direct_costs.list")
    def direct_costs_list(self, args: DirectCostsArgs) -> dict[str, Any]:
        """List direct costs: non-committed costs (invoices not against a commitment) coded to the budget.

        Args:
            project_number: company job number, e.g. "1042".
            vendor_id: Procore vendor id, e.g. "4410287".
            status: draft, pending, revise_and_resubmit or approved.
            date_from: first direct cost date, e.g. "2026-01-01".
            date_to: last direct cost date, e.g. "2026-01-31".
            include_lines: true to include line items (cost code, amount).
            limit: most rows, e.g. 100.

        Returns {"direct_costs": [{id, project_id, vendor_id, direct_cost_type, invoice_number, direct_cost_date,
        due_date, status, description, grand_total, erp_sync_status[, line_items]}], "count": n, "truncated": bool}.
        """
        rows = self.select(
            "direct_costs",
            {"project_id": self._project_id(args.project_number), "vendor_id": self._vendor_key(args.vendor_id)},
            extra=all_of(ieq("status", args.status), date_range("direct_cost_date", args.date_from, args.date_to)),
            order_by=["project_id", "direct_cost_date", "id"],
            limit=args.limit,
        )
        if args.include_lines:
            rows = self._with_lines(rows, "direct_cost_line_items", "direct_cost_id")
        return {"direct_costs": rows, "count": len(rows), "truncated": len(rows) >= args.limit}

    @tool("budget.get")
    def budget_get(self, args: BudgetArgs) -> dict[str, Any]:
        """The project budget by cost code: the budget ladder, committed and direct costs, and the PM's forecast.

        forecast_to_complete is the PM's current cost-to-complete per cost code; erp_line is false
        for PM-only lines (e.g. contingency) that the ERP does not carry.

        Args:
            project_number: company job number, e.g. "1042".
            cost_code: one full cost code, e.g. "26-100".

        Returns {"project": {id, project_number, name, origin_id}, "line_items": [{id, cost_code, cost_type,
        description, original_budget_amount, approved_cos, revised_budget, pending_budget_changes, projected_budget,
        committed_costs, direct_costs, pending_cost_changes, projected_costs, job_to_date_costs,
        forecast_to_complete, estimated_cost_at_completion, projected_over_under, erp_line}], "totals": {...,
        forecast_to_complete_erp_lines (the lines the ERP carries)},
        "count": n}.
        """
        project = self._project(args.project_number)
        rows = self.select(
            "budget_line_items", {"project_id": project["id"], "cost_code": args.cost_code}, order_by=["cost_code"]
        )
        money_cols = [
            "original_budget_amount",
            "approved_cos",
            "revised_budget",
            "pending_budget_changes",
            "projected_budget",
            "committed_costs",
            "direct_costs",
            "pending_cost_changes",
            "projected_costs",
            "job_to_date_costs",
            "forecast_to_complete",
            "estimated_cost_at_completion",
            "projected_over_under",
        ]
        totals = {c: cents(sum((dec(r[c]) for r in rows), Decimal("0"))) for c in money_cols}
        totals["forecast_to_complete_erp_lines"] = cents(
            sum((dec(r["forecast_to_complete"]) for r in rows if r["erp_line"]), Decimal("0"))
        )
        head = {k: project[k] for k in ("id", "project_number", "name", "origin_id")}
        return {"project": head, "line_items": rows, "totals": totals, "count": len(rows)}

    @tool("daily_logs.list_manpower")
    def daily_logs_list_manpower(self, args: ManpowerArgs) -> dict[str, Any]:
        """List daily-log manpower entries (crew size and hours per day and trade) for a project.

        Args:
            project_number: company job number, e.g. "1042".
            date_from: first log date, e.g. "2026-01-19".
            date_to: last log date, e.g. "2026-01-24".
            trade: trade, e.g. "Electrician".

        Returns {"manpower_logs": [{id, project_id, date, company_name, trade, num_workers, num_hours, overtime_hours,
        cost_codes, status, notes}], "count": n, "total_hours": "..."}.
        """
        rows = self.select(
            "manpower_logs",
            {"project_id": self._project_id(args.project_number)},
            extra=all_of(date_range("date", args.date_from, args.date_to), ieq("trade", args.trade)),
            order_by=["date", "trade"],
        )
        total = cents(sum((dec(r["num_hours"]) for r in rows), Decimal("0")))
        return {"manpower_logs": rows, "count": len(rows), "total_hours": total}

    @tool("requisitions.list")
    def requisitions_list(self, args: RequisitionsArgs) -> dict[str, Any]:
        """List requisitions (subcontractor invoices / pay applications against commitments).

        status is the review state (draft, under_review, approved, rejected); erp_sync_status says
        whether the invoice has been sent to the ERP (a synced requisition is locked).

        Args:
            project_number: company job number, e.g. "1042".
            commitment_id: commitment id, company code "SC-1042-0" or number.
            vendor_id: Procore vendor id, e.g. "4410287".
            status: draft, under_review, approved or rejected.
            erp_sync_status: synced or not_synced.
            date_from: first billing date, e.g. "2026-01-01".
            date_to: last billing date, e.g. "2026-01-31".
            include_lines: true to include line items (cost code, work completed this period, retainage).
            limit: most rows, e.g. 100.

        Returns {"requisitions": [{id, project_id, commitment_id, vendor_id, number, invoice_number, billing_date,
        due_date, period_start, period_end, status, description, gross_amount, retainage_amount, net_amount,
        erp_sync_status, erp_ref, synced_at, locked, commitment_number, contract_code[, line_items]}], "count": n, "truncated": bool}.
        """  # noqa: E501
        commitment = self._commitment(args.commitment_id)["id"] if args.commitment_id else None
        rows = self.select(
            "requisitions",
            {
                "project_id": self._project_id(args.project_number),
                "commitment_id": commitment,
                "vendor_id": self._vendor_key(args.vendor_id),
                "status": args.status,
                "erp_sync_status": args.erp_sync_status,
            },
            extra=date_range("billing_date", args.date_from, args.date_to),
            order_by=["project_id", "commitment_id", "number"],
            limit=args.limit,
        )
        if rows:
            cms = {
                c["id"]: c
                for c in self.select("commitments", extra=in_list("id", {r["commitment_id"] for r in rows}, "BIGINT"))
            }
            rows = [
                {
                    **r,
                    "commitment_number": cms[r["commitment_id"]]["number"],
                    "contract_code": cms[r["commitment_id"]]["contract_code"],
                }
                for r in rows
            ]
        if args.include_lines:
            rows = self._with_lines(rows, "requisition_line_items", "requisition_id")
        return {"requisitions": rows, "count": len(rows), "truncated": len(rows) >= args.limit}

    @tool("erp.cost_code_map")
    def erp_cost_code_map(self, args: CostCodeMapArgs) -> dict[str, Any]:
        """Procore's cost code -> ERP phase / cost type map used by the ERP sync (not one-to-one).

        Args:
            cost_code: one full cost code, e.g. "31-200".

        Returns {"mappings": [{cost_code, erp_system, erp_phase, erp_cost_type, description, note}], "count": n}.
        """
        rows = self.select("erp_cost_code_mappings", {"cost_code": args.cost_code}, order_by=["cost_code"])
        return {"mappings": rows, "count": len(rows)}

    # ------------------------------------------------------------------ ERP-boundary writes
    @tool("erp.sync_commitment", writes=True)
    def erp_sync_commitment(self, args: SyncCommitmentArgs) -> dict[str, Any]:
        """Sync ONE approved commitment to the ERP: creates the ERP subcontract / purchase order, then locks it here.

        The commitment must be Approved and not yet synced. Vendor, job and cost codes are
        translated with Procore's own links (vendor origin_id, project origin_id, the ERP cost code
        map). Nothing is posted or paid. After the sync the commitment is locked in Procore.

        Args:
            commitment_id: Procore id, company code "SC-1042-1" or number "1042-02".

        Returns {"commitment_id", "contract_code", "number", "erp_system", "erp_ref", "grand_total",
        "erp_sync_status": "synced", "locked": true}.
        """
        row = self._commitment(args.commitment_id)
        what = f"commitment {row['contract_code']} ({row['number']})"
        if row["erp_sync_status"] == SYNCED:
            raise ToolError(
                f"{what} is already synced to the ERP (ERP ref {row['erp_ref']}); nothing to do", "conflict"
            )
        if row["status"] != "Approved":
            raise ToolError(
                f"{what} is {row['status']}; only Approved commitments can be synced to the ERP", "rejected"
            )
        erp = self._erp("procore.erp.sync_commitment")
        project = self.select("projects", {"id": row["project_id"]})[0]
        vendor = self.select("vendors", {"id": row["vendor_id"]})[0]
        if not vendor["origin_id"]:
            raise ToolError(
                f"{what}: vendor {vendor['name']} is not linked to an ERP vendor (no origin_id)", "rejected"
            )
        if not project["origin_id"]:
            raise ToolError(f"{what}: project {project['project_number']} is not linked to an ERP job", "rejected")
        lines = self._commitment_lines(row["id"])
        erp_lines = [{k: v for k, v in ln.items() if k != "cost_code"} for ln in self._erp_lines(lines, "amount", what)]
        ctype = "purchase_order" if row["commitment_type"] == "PurchaseOrderContract" else "subcontract"
        result = erp.import_commitment(
            vendor_id=vendor["origin_id"],
            job_id=project["origin_id"],
            number=row["number"],
            title=row["title"],
            amount=dec(row["grand_total"]),
            retainage_pct=dec(row["retainage_percent"]),
            lines=erp_lines,
            source_ref=row["contract_code"],
            commitment_type=ctype,
        )
        erp_ref = str((result or {}).get("erp_ref") or row["contract_code"])
        with self.gate.workflow(SYNC_WORKFLOW):  # the one way a commitment becomes synced and locked
            self.update(
                "commitments",
                {"id": row["id"]},
                {"erp_sync_status": SYNCED, "erp_ref": erp_ref, "synced_at": self.now, "locked": True},
            )
            for ln in lines:
                self.update("commitment_line_items", {"id": ln["id"]}, {"locked": True})
        return {
            "commitment_id": row["id"],
            "contract_code": row["contract_code"],
            "number": row["number"],
            "erp_system": self.ERP_APP,
            "erp_ref": erp_ref,
            "erp_result": result,
            "grand_total": row["grand_total"],
            "erp_sync_status": SYNCED,
            "locked": True,
        }

    @tool("erp.sync_invoice", writes=True)
    def erp_sync_invoice(self, args: SyncInvoiceArgs) -> dict[str, Any]:
        """Sync ONE approved, not-yet-synced requisition to the ERP as an AP invoice (left unposted), then lock it here.

        Only requisitions with status "approved" and erp_sync_status "not_synced" can be synced;
        others are refused. Vendor, job and cost codes are translated with Procore's own links
        (vendor origin_id, project origin_id, the ERP cost code map). The ERP invoice is created
        unposted: posting it is a separate, guarded step in the ERP. Nothing is paid.

        Args:
            requisition_id: Procore requisition id, e.g. 1000003 (requisitions.list shows them).

        Returns {"requisition_id", "number", "invoice_number", "contract_code", "erp_system", "erp_ref",
        "erp_status", "gross_amount", "retainage_amount", "net_amount", "erp_sync_status": "synced", "locked": true}.
        """
        rows = self.select("requisitions", {"id": args.requisition_id})
        if not rows:
            raise ToolError(f"no requisition with id {args.requisition_id} in Procore", "not_found")
        req = rows[0]
        commitment = self.select("commitments", {"id": req["commitment_id"]})[0]
        what = (
            f"requisition #{req['number']} (invoice {req['invoice_number']}) on commitment "
            f"{commitment['contract_code']}"
        )
        if req["erp_sync_status"] == SYNCED:
            raise ToolError(
                f"{what} is already synced to the ERP (ERP ref {req['erp_ref']}); it was skipped", "conflict"
            )
        if req["status"] != "approved":
            raise ToolError(
                f"{what} is {req['status']}, not approved; only approved requisitions can be synced", "rejected"
            )
        erp = self._erp("procore.erp.sync_invoice")
        project = self.select("projects", {"id": req["project_id"]})[0]
        vendor = self.select("vendors", {"id": req["vendor_id"]})[0]
        if not vendor["origin_id"]:
            raise ToolError(
                f"{what}: vendor {vendor['name']} is not linked to an ERP vendor (no origin_id)", "rejected"
            )
        if not project["origin_id"]:
            raise ToolError(f"{what}: project {project['project_number']} is not linked to an ERP job", "rejected")
        lines = self.select("requisition_line_items", {"requisition_id": req["id"]}, order_by=["position"])
        if not lines:
            raise ToolError(f"{what} has no line items to sync", "rejected")
        mapped = self._erp_lines(lines, "work_completed_this_period", what)
        erp_lines = []
        for src, m in zip(lines, mapped, strict=True):
            erp_lines.append(
                {
                    "phase": m["phase"],
                    "cost_type": m["cost_type"],
                    "amount": dec(src["work_completed_this_period"]),
                    "retainage": dec(src["retainage"]),
                    "description": src["description"],
                }
            )
        gap = cents(dec(req["gross_amount"]) - sum((ln["amount"] for ln in erp_lines), Decimal("0")))
        ret_gap = cents(dec(req["retainage_amount"]) - sum((ln["retainage"] for ln in erp_lines), Decimal("0")))
        if gap or ret_gap:  # stored materials billed on the header only: carry them on the first line's phase
            erp_lines.append(
                {
                    "phase": erp_lines[0]["phase"],
                    "cost_type": erp_lines[0]["cost_type"],
                    "amount": gap,
                    "retainage": ret_gap,
                    "description": "Materials presently stored",
                }
            )
        description = req["description"] or f"{commitment['number']} pay application #{req['number']}"
        warnings = []
        linked = commitment["erp_ref"] if commitment["erp_sync_status"] == SYNCED else None
        if linked is None:
            warnings.append(
                f"commitment {commitment['contract_code']} is not synced to the ERP: the AP invoice is "
                f"created without a subcontract / PO link"
            )
        result = erp.import_ap_invoice(
            vendor_id=vendor["origin_id"],
            job_id=project["origin_id"],
            invoice_number=req["invoice_number"],
            invoice_date=req["billing_date"],
            due_date=req["due_date"],
            description=description,
            lines=erp_lines,
            source="procore",
            source_ref=f"procore:requisition:{req['id']}",
            commitment_id=linked,
        )
        result = result or {}
        erp_ref = str(result.get("erp_ref") or req["invoice_number"])
        with self.gate.workflow(SYNC_WORKFLOW):  # the one way a requisition becomes synced and locked
            self.update(
                "requisitions",
                {"id": req["id"]},
                {"erp_sync_status": SYNCED, "erp_ref": erp_ref, "synced_at": self.now, "locked": True},
            )
            for ln in lines:
                self.update(
                    "requisition_line_items",
                    {"requisition_id": req["id"], "position": ln["position"]},
                    {"locked": True},
                )
        return {
            "requisition_id": req["id"],
            "number": req["number"],
            "invoice_number": req["invoice_number"],
            "contract_code": commitment["contract_code"],
            "erp_system": self.ERP_APP,
            "erp_ref": erp_ref,
            "erp_status": result.get("status"),
            "erp_result": result,
            "gross_amount": req["gross_amount"],
            "retainage_amount": req["retainage_amount"],
            "net_amount": req["net_amount"],
            "erp_sync_status": SYNCED,
            "locked": True,
            "warnings": warnings,
        }
