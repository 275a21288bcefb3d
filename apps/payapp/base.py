"""PayApp archetype: owner pay applications (AIA G702 / G703) over a contract's schedule of values.

The app keeps contracts with their SOV (original lines and approved owner change-order lines),
the applications already made (headers = G702 lines 1-9, lines = G703 columns A-I) and the lien
waivers collected with them. It does NOT know current progress: the PM's percent complete per
SOV line is read from the PM platform. An agent drafts the next application by giving, per SOV
line, the work completed this period (E), the materials presently stored (F) and the retainage
(I) it computed (or one retainage percentage); the app derives D from the previous application,
G = D + E + F, % = G / C, H = C - G and the G702 totals exactly from the lines.

Drafting the same application number again REPLACES the existing draft (its lines are rebuilt
from the new arguments); an application that has been submitted, approved or certified cannot
be redrafted. Submission and approval are guarded: validated, staged for a human, never done.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any, ClassVar

from pydantic import Field

from cfab.apps.contract import App
from cfab.apps.kit import ZERO, money_arg, pct_of, percent_of
from cfab.apps.tooling import ToolArgs, ToolError, tool


class ContractListArgs(ToolArgs):
    job_number: str | None = Field(None, description="Job (project) number", examples=["1042"])
    status: str | None = Field(None, description="Contract status: Active or Closed", examples=["Active"])


class ContractRefArgs(ToolArgs):
    job_number: str | None = Field(
        None, description="Job (project) number; give this or contract_id", examples=["1042"]
    )
    contract_id: str | None = Field(
        None, description="GCPay contract id; give this or job_number", examples=["GCP-PC-1042"]
    )


class PayAppListArgs(ToolArgs):
    job_number: str | None = Field(None, description="Job (project) number", examples=["1042"])
    contract_id: str | None = Field(None, description="GCPay contract id", examples=["GCP-PC-1042"])
    status: str | None = Field(
        None, description="Draft, Submitted, Approved, Certified or Paid", examples=["Certified"]
    )


class PayAppRefArgs(ToolArgs):
    pay_app_id: str | None = Field(
        None, description="Pay application id; or give job_number and application_number", examples=["PA-1042-001"]
    )
    job_number: str | None = Field(None, description="Job (project) number", examples=["1042"])
    application_number: int | None = Field(None, ge=1, description="Application number on the contract", examples=[1])


class DraftLineArg(ToolArgs):
    item_no: int = Field(..., ge=1, description="SOV line number (contract item_no)", examples=[3])
    work_this_period: Decimal = Field(
        ..., description="G703 column E: work completed this period, >= 0, 2 decimals", examples=["312000.00"]
    )
    materials_stored: Decimal = Field(
        Decimal(0), description="G703 column F: materials presently stored (not in D or E)", examples=["18000.00"]
    )
    retainage: Decimal | None = Field(
        None,
        description="G703 column I: retainage on this line's total completed and "
        "stored to date; omit to apply retainage_percent",
        examples=["78600.00"],
    )


class CreateDraftArgs(ToolArgs):
    job_number: str | None = Field(
        None, description="Job (project) number; give this or contract_id", examples=["1042"]
    )
    contract_id: str | None = Field(
        None, description="GCPay contract id; give this or job_number", examples=["GCP-PC-1042"]
    )
    application_number: int = Field(
        ..., ge=1, description="The application number to draft (the next one)", examples=[2]
    )
    period_to: date = Field(..., description="Period end date of the application (ISO date)", examples=["2026-01-31"])
    lines: list[DraftLineArg] = Field(
        ...,
        description="Per SOV line: work this period, materials stored and optionally retainage; SOV lines you "
        "leave out bill nothing this period",
        examples=[[{"item_no": 1, "work_this_period": "60000.00", "materials_stored": "0.00"}]],
    )
    retainage_percent: Decimal | None = Field(
        None,
        ge=0,
        le=100,
        description="Retainage % applied to each line's total completed and stored (G) where the "
        "line gives no retainage",
        examples=["10"],
    )


class UpdateLineArgs(ToolArgs):
    pay_app_id: str | None = Field(
        None, description="Draft pay application id; or job_number + application_number", examples=["PA-1042-002"]
    )
    job_number: str | None = Field(None, description="Job (project) number", examples=["1042"])
    application_number: int | None = Field(None, ge=1, description="Application number", examples=[2])
    item_no: int = Field(..., ge=1, description="SOV line number", examples=[3])
    work_this_period: Decimal | None = Field(
        None, description="New G703 column E (work this period)", examples=["312000.00"]
    )
    materials_stored: Decimal | None = Field(
        None, description="New G703 column F (materials presently stored)", examples=["0.00"]
    )
    retainage: Decimal | None = Field(
        None, description="New G703 column I (retainage to date on the line)", examples=["78600.00"]
    )


class WaiverListArgs(ToolArgs):
    job_number: str | None = Field(None, description="Job (project) number", examples=["1042"])
    pay_app_id: str | None = Field(
        None, description="Owner pay application the waiver was collected with", examples=["PA-1042-001"]
    )
    status: str | None = Field(None, description="Requested, Received, Approved or Rejected", examples=["Received"])


class PayAppArchetype(App):
    """The PayApp archetype: contracts + SOV, G702/G703 pay applications, collected waivers."""

    archetype = "PayApp"
    kind: ClassVar[str] = "payapp"

    T_CONTRACTS: ClassVar[str] = "contracts"
    T_ITEMS: ClassVar[str] = "contract_items"
    T_COS: ClassVar[str] = "change_orders"
    T_APPS: ClassVar[str] = "pay_applications"
    T_LINES: ClassVar[str] = "pay_application_items"
    T_WAIVERS: ClassVar[str] = "lien_waivers"
    DRAFT: ClassVar[str] = "Draft"
    SUBMITTED: ClassVar[str] = "Submitted"
    CONTRACT_PREFIX: ClassVar[str] = "GCP-PC-"

    # ------------------------------------------------------------------ helpers
    def pay_app_id_for(self, job_number: str, application_number: int) -> str:
        """Pay application ids are derived from the natural key (job, application number)."""
        return f"PA-{job_number}-{application_number:03d}"

    def _contract(self, job_number: str | None, contract_id: str | None) -> dict[str, Any]:
        if not job_number and not contract_id:
            raise ToolError("give job_number or contract_id", "invalid_argument")
        where = {"contract_id": contract_id, "job_number": job_number}
        rows = self.select(self.T_CONTRACTS, where)
        if not rows:
            shown = contract_id or f"job {job_number}"
            raise ToolError(f"no contract for {shown} in {self.label}", "not_found")
        return rows[0]

    def _items(self, contract_id: str) -> list[dict[str, Any]]:
        return self.select(self.T_ITEMS, {"contract_id": contract_id}, order_by=["item_no"])

    def _pay_app(
        self, pay_app_id: str | None, job_number: str | None, application_number: int | None
    ) -> dict[str, Any]:
        if pay_app_id:
            rows = self.select(self.T_APPS, {"pay_app_id": pay_app_id})
            if not rows:
                raise ToolError(f"no pay application {pay_app_id!r} in {self.label}", "not_found")
            return rows[0]
        if not job_number or application_number is None:
            raise ToolError("give pay_app_id, or job_number and application_number", "invalid_argument")
        contract = self._contract(job_number, None)
        rows = self.select(
            self.T_APPS, {"contract_id": contract["contract_id"], "application_number": application_number}
        )
        if not rows:
            raise ToolError(
                f"no pay application #{application_number} on job {job_number} in {self.label}", "not_found"
            )
        return rows[0]

    def _previous_app(self, contract_id: str, application_number: int) -> dict[str, Any] | None:
        rows = [
            r
            for r in self.select(self.T_APPS, {"contract_id": contract_id}, order_by=["application_number"])
            if r["application_number"] < application_number and r["status"] != self.DRAFT
        ]
        return rows[-1] if rows else None

    def _lines(self, pay_app_id: str) -> list[dict[str, Any]]:
        return self.select(self.T_LINES, {"pay_app_id": pay_app_id}, order_by=["item_no"])

    def _with_job(self, app: dict[str, Any]) -> dict[str, Any]:
        contract = self.select(self.T_CONTRACTS, {"contract_id": app["contract_id"]})
        out = dict(app)
        if contract:
            out["job_number"] = contract[0]["job_number"]
        return out

    @staticmethod
    def _line(item: dict[str, Any], d: Decimal, e: Decimal, f: Decimal, i: Decimal) -> dict[str, Any]:
        c = item["scheduled_value"]
        g = d + e + f
        if c >= 0 and g > c:
            raise ToolError(
                f"line {item['item_no']} ({item['item_number']}): total completed and stored {g} "
                f"would exceed the scheduled value {c}",
                "invalid_argument",
            )
        if i > g >= 0:
            raise ToolError(
                f"line {item['item_no']}: retainage {i} exceeds the total completed and stored {g}", "invalid_argument"
            )
        return {
            "item_no": item["item_no"],
            "item_number": item["item_number"],
            "description": item["description"],
            "scheduled_value": c,
            "from_previous_application": d,
            "this_period": e,
            "materials_presently_stored": f,
            "total_completed_stored": g,
            "percent_complete": percent_of(g, c),
            "balance_to_finish": c - g,
            "retainage": i,
        }

    def _totals(
        self, contract: dict[str, Any], lines: list[dict[str, Any]], previous: dict[str, Any] | None
    ) -> dict[str, Any]:
        """G702 lines 1-9 derived exactly from the contract, the lines and the previous application."""
        original = contract["original_contract_sum"]
        change = contract["approved_change_orders"]
        to_date = original + change
        completed = sum((ln["total_completed_stored"] for ln in lines), ZERO)
        retainage = sum((ln["retainage"] for ln in lines), ZERO)
        earned = completed - retainage
        prev = previous["total_earned_less_retainage"] if previous else ZERO
        return {
            "original_contract_sum": original,
            "net_change_by_change_orders": change,
            "contract_sum_to_date": to_date,
            "total_completed_stored": completed,
            "retainage": retainage,
            "total_earned_less_retainage": earned,
            "less_previous_certificates": prev,
            "current_payment_due": earned - prev,
            "balance_to_finish": to_date - earned,
        }

    def _detail(self, app: dict[str, Any]) -> dict[str, Any]:
        out = self._with_job(app)
        return {"pay_application": out, "lines": self._lines(app["pay_app_id"])}

    # ------------------------------------------------------------------ reads
    @tool("contracts.list")
    def contracts_list(self, args: ContractListArgs) -> dict[str, Any]:
        """List prime (owner) contracts in $label with their sums, retainage terms and payment terms.

        Args:
            job_number: one job, e.g. "1042".
            status: "Active" or "Closed".

        Returns {"contracts": [{contract_id, job_number, project_name, contract_number, owner_name,
        original_contract_sum, approved_change_orders, contract_sum_to_date, retainage_percent,
        retainage_step_down_percent, step_down_at_percent_complete, contract_date, status, payment_terms
        ("Net 30": the owner pays a certified application 30 days after certification)}], "count": n}.
        """
        rows = self.select(
            self.T_CONTRACTS, {"job_number": args.job_number, "status": args.status}, order_by=["job_number"]
        )
        return {"contracts": rows, "count": len(rows)}

    @tool("contracts.sov")
    def contracts_sov(self, args: ContractRefArgs) -> dict[str, Any]:
        """The schedule of values of one contract (G703 columns A-C), with its approved owner change orders.

        The SOV holds the original lines and the lines added by approved owner change orders.
        Current progress is not here: read the PM's percent complete from the PM platform.

        Args:
            job_number: the job, e.g. "1042" (or give contract_id).
            contract_id: the GCPay contract id, e.g. "GCP-PC-1042".

        Returns {"contract": {...}, "items": [{item_no, item_number, description, cost_code, scheduled_value,
        source, change_order_number}], "change_orders": [...], "count": n}.
        """
        contract = self._contract(args.job_number, args.contract_id)
        items = self._items(contract["contract_id"])
        cos = self.select(self.T_COS, {"contract_id": contract["contract_id"]}, order_by=["change_order_number"])
        return {"contract": contract, "items": items, "change_orders": cos, "count": len(items)}

    @tool("pay_apps.list")
    def pay_apps_list(self, args: PayAppListArgs) -> dict[str, Any]:
        """List pay applications (G702 headers) in $label.

        Args:
            job_number: one job, e.g. "1042".
            contract_id: one contract, e.g. "GCP-PC-1042".
            status: "Draft", "Submitted", "Approved", "Certified" or "Paid".

        Returns {"pay_applications": [{pay_app_id, contract_id, job_number, application_number, period_from,
        period_to, status, original_contract_sum, net_change_by_change_orders, contract_sum_to_date,
        total_completed_stored, retainage, total_earned_less_retainage, less_previous_certificates,
        current_payment_due, balance_to_finish, submitted_date, certified_date}], "count": n}.
        """
        contract_id = args.contract_id
        if args.job_number:
            contract = self._contract(args.job_number, args.contract_id)
            contract_id = contract["contract_id"]
        rows = self.select(
            self.T_APPS,
            {"contract_id": contract_id, "status": args.status},
            order_by=["contract_id", "application_number"],
        )
        rows = [self._with_job(r) for r in rows]
        return {"pay_applications": rows, "count": len(rows)}

    @tool("pay_apps.get")
    def pay_apps_get(self, args: PayAppRefArgs) -> dict[str, Any]:
        """One pay application: the G702 header (lines 1-9) and its G703 continuation lines.

        G703 columns: A item_number, B description, C scheduled_value, D from_previous_application,
        E this_period, F materials_presently_stored, G total_completed_stored (D+E+F),
        % percent_complete (G/C), H balance_to_finish (C-G), I retainage.

        Args:
            pay_app_id: e.g. "PA-1042-001"; or give job_number and application_number.
            job_number: e.g. "1042".
            application_number: e.g. 1.

        Returns {"pay_application": {...G702 fields...}, "lines": [{...G703 columns...}]}.
        """
        return self._detail(self._pay_app(args.pay_app_id, args.job_number, args.application_number))

    @tool("lien_waivers.list")
    def lien_waivers_list(self, args: WaiverListArgs) -> dict[str, Any]:
        """List subcontractor lien waivers collected with owner pay applications.

        Args:
            job_number: one job, e.g. "1042".
            pay_app_id: one owner application, e.g. "PA-1042-001".
            status: "Requested", "Received", "Approved" or "Rejected".

        Returns {"lien_waivers": [{waiver_id, contract_id, pay_app_id, vendor_name, waiver_type, amount,
        through_date, status, signed_by, signed_date}], "count": n}.
        """
        contract_id = self._contract(args.job_number, None)["contract_id"] if args.job_number else None
        rows = self.select(
            self.T_WAIVERS,
            {"contract_id": contract_id, "pay_app_id": args.pay_app_id, "status": args.status},
            order_by=["contract_id", "through_date", "waiver_id"],
        )
        return {"lien_waivers": rows, "count": len(rows)}

    # ------------------------------------------------------------------ writes
    @tool("pay_apps.create_draft", writes=True)
    def pay_apps_create_draft(self, args: CreateDraftArgs) -> dict[str, Any]:
        """Draft the next pay application (G702/G703) on a contract. Nothing is submitted.

        Give, per SOV line, the work completed this period (E) and materials presently stored (F),
        and either each line's retainage (I, cumulative on G) or one retainage_percent. The app
        takes D from the previous application (its D+E), derives G = D+E+F, % = G/C, H = C-G and
        the G702 totals: 3 = 1 + 2, 4 = sum G, 5 = sum I, 6 = 4 - 5, 7 = line 6 of the previous
        application, 8 = 6 - 7, 9 = 3 - 6. SOV lines you leave out bill nothing this period.
        Amounts are >= 0 with at most 2 decimals. Drafting the same application number again
        replaces the existing draft; a submitted or certified application cannot be redrafted.

        Args:
            job_number: the job, e.g. "1042" (or contract_id).
            contract_id: the contract, e.g. "GCP-PC-1042".
            application_number: the next number, e.g. 2.
            period_to: period end, e.g. "2026-01-31".
            lines: e.g. [{"item_no": 3, "work_this_period": "312000.00", "materials_stored": "0.00",
                "retainage": "78600.00"}].
            retainage_percent: e.g. "10" (used for lines without their own retainage).

        Returns {"pay_application": {...G702 fields, status "Draft"...}, "lines": [...], "replaced_draft": bool}.
        """
        contract = self._contract(args.job_number, args.contract_id)
        cid = contract["contract_id"]
        items = {i["item_no"]: i for i in self._items(cid)}
        if not items:
            raise ToolError(f"contract {cid} has no schedule of values", "rejected")
        given: dict[int, DraftLineArg] = {}
        for ln in args.lines:
            if ln.item_no not in items:
                raise ToolError(
                    f"item_no {ln.item_no} is not a line of the SOV of {cid} "
                    f"(lines: {', '.join(str(n) for n in sorted(items))})",
                    "invalid_argument",
                )
            if ln.item_no in given:
                raise ToolError(f"item_no {ln.item_no} is given twice", "invalid_argument")
            given[ln.item_no] = ln
        existing = self.select(self.T_APPS, {"contract_id": cid})
        same = [a for a in existing if a["application_number"] == args.application_number]
        if same and same[0]["status"] != self.DRAFT:
            raise ToolError(
                f"pay application #{args.application_number} on {contract['job_number']} is "
                f"{same[0]['status']} and cannot be redrafted",
                "conflict",
            )
        last_final = max((a["application_number"] for a in existing if a["status"] != self.DRAFT), default=0)
        if args.application_number != last_final + 1:
            raise ToolError(
                f"the next application on {contract['job_number']} is #{last_final + 1}, "
                f"not #{args.application_number}",
                "invalid_argument",
            )
        previous = self._previous_app(cid, args.application_number)
        if previous is not None and args.period_to <= previous["period_to"]:
            raise ToolError(
                f"period_to {args.period_to} must be after the previous application's period end "
                f"{previous['period_to']}",
                "invalid_argument",
            )
        period_from = previous["period_to"] + timedelta(days=1) if previous else contract["contract_date"]
        pct = None if args.retainage_percent is None else Decimal(args.retainage_percent)
        prev_lines = {ln["item_no"]: ln for ln in self._lines(previous["pay_app_id"])} if previous else {}
        lines = []
        for no, item in sorted(items.items()):
            arg = given.get(no)
            prev = prev_lines.get(no)
            d = (prev["from_previous_application"] + prev["this_period"]) if prev else ZERO
            e = money_arg(arg.work_this_period, f"line {no} work_this_period") if arg else ZERO
            f = money_arg(arg.materials_stored, f"line {no} materials_stored") if arg else ZERO
            if arg is not None and arg.retainage is not None:
                i = money_arg(arg.retainage, f"line {no} retainage")
            elif pct is not None:
                i = pct_of(d + e + f, pct)
            else:
                raise ToolError(
                    f"line {no} has no retainage: give retainage on the line or retainage_percent", "invalid_argument"
                )
            lines.append(self._line(item, d, e, f, i))
        pay_app_id = self.pay_app_id_for(contract["job_number"], args.application_number)
        replaced = bool(same)
        created_at = self.now
        if same:
            created_at = same[0]["created_at"]
            for old in self._lines(same[0]["pay_app_id"]):
                self.delete(self.T_LINES, {"pay_app_id": same[0]["pay_app_id"], "item_no": old["item_no"]})
            self.delete(self.T_APPS, {"pay_app_id": same[0]["pay_app_id"]})
        header = {
            "pay_app_id": pay_app_id,
            "contract_id": cid,
            "application_number": args.application_number,
            "period_from": period_from,
            "period_to": args.period_to,
            "status": self.DRAFT,
            **self._totals(contract, lines, previous),
            "submitted_date": None,
            "certified_date": None,
            "created_at": created_at,
            "updated_at": self.now,
        }
        self.insert(self.T_APPS, header)
        self.insert_many(self.T_LINES, [{"pay_app_id": pay_app_id, **ln} for ln in lines])
        out = self._detail(self.require(self.T_APPS, "pay application", pay_app_id=pay_app_id))
        out["replaced_draft"] = replaced
        return out

    @tool("pay_apps.update_line", writes=True)
    def pay_apps_update_line(self, args: UpdateLineArgs) -> dict[str, Any]:
        """Change one G703 line of a DRAFT pay application; G, %, H and the G702 totals are re-derived.

        Args:
            pay_app_id: the draft, e.g. "PA-1042-002" (or job_number + application_number).
            job_number: e.g. "1042".
            application_number: e.g. 2.
            item_no: the SOV line, e.g. 3.
            work_this_period: new column E, e.g. "312000.00".
            materials_stored: new column F, e.g. "0.00".
            retainage: new column I, e.g. "78600.00".

        Returns {"pay_application": {...updated G702 fields...}, "lines": [...]}.
        """
        app = self._pay_app(args.pay_app_id, args.job_number, args.application_number)
        if app["status"] != self.DRAFT:
            raise ToolError(
                f"pay application {app['pay_app_id']} is {app['status']}; only drafts can be edited", "rejected"
            )
        if args.work_this_period is None and args.materials_stored is None and args.retainage is None:
            raise ToolError("give at least one of work_this_period, materials_stored, retainage", "invalid_argument")
        lines = {ln["item_no"]: ln for ln in self._lines(app["pay_app_id"])}
        cur = lines.get(args.item_no)
        if cur is None:
            raise ToolError(
                f"item_no {args.item_no} is not a line of {app['pay_app_id']} "
                f"(lines: {', '.join(str(n) for n in sorted(lines))})",
                "invalid_argument",
            )
        e = (
            money_arg(args.work_this_period, "work_this_period")
            if args.work_this_period is not None
            else cur["this_period"]
        )
        f = (
            money_arg(args.materials_stored, "materials_stored")
            if args.materials_stored is not None
            else cur["materials_presently_stored"]
        )
        i = money_arg(args.retainage, "retainage") if args.retainage is not None else cur["retainage"]
        new = self._line(cur, cur["from_previous_application"], e, f, i)
        values = {k: v for k, v in new.items() if k not in ("item_no", "item_number", "description", "scheduled_value")}
        self.update(self.T_LINES, {"pay_app_id": app["pay_app_id"], "item_no": args.item_no}, values)
        lines[args.item_no] = {**cur, **values}
        contract = self.require(self.T_CONTRACTS, "contract", contract_id=app["contract_id"])
        totals = self._totals(
            contract, list(lines.values()), self._previous_app(app["contract_id"], app["application_number"])
        )
        self.update(self.T_APPS, {"pay_app_id": app["pay_app_id"]}, {**totals, "updated_at": self.now})
        return self._detail(self.require(self.T_APPS, "pay application", pay_app_id=app["pay_app_id"]))

    # ------------------------------------------------------------------ guarded
    def _check_draft(self, app: dict[str, Any]) -> list[dict[str, Any]]:
        if app["status"] != self.DRAFT:
            raise ToolError(f"pay application {app['pay_app_id']} is {app['status']}, not a draft", "rejected")
        lines = self._lines(app["pay_app_id"])
        if not lines:
            raise ToolError(f"pay application {app['pay_app_id']} has no lines", "rejected")
        return lines

    @tool("pay_apps.submit", guarded="approve", aliases=("gcpay_submit",))
    def pay_apps_submit(self, args: PayAppRefArgs) -> dict[str, Any]:
        """Submit a draft pay application to the owner (GUARDED: staged for human approval, never executed).

        Validates that the application exists, is a draft and has lines; records the request;
        nothing changes until a person approves it.

        Args:
            pay_app_id: the draft, e.g. "PA-1042-002" (or job_number + application_number).
            job_number: e.g. "1042".
            application_number: e.g. 2.

        Returns {"would_submit": {pay_app_id, job_number, application_number, current_payment_due}, "status": "pending_human_approval"}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        app = self._with_job(self._pay_app(args.pay_app_id, args.job_number, args.application_number))
        self._check_draft(app)
        return {
            "would_submit": {
                k: app.get(k)
                for k in ("pay_app_id", "job_number", "application_number", "period_to", "current_payment_due")
            },
            "status": "pending_human_approval",
        }

    @tool("pay_apps.approve", guarded="approve", aliases=("gcpay_approve",))
    def pay_apps_approve(self, args: PayAppRefArgs) -> dict[str, Any]:
        """Approve a pay application for payment (GUARDED: staged for human approval, never executed).

        Validates that the application exists and is a draft or submitted; records the request.

        Args:
            pay_app_id: e.g. "PA-1042-002" (or job_number + application_number).
            job_number: e.g. "1042".
            application_number: e.g. 2.

        Returns {"would_approve": {pay_app_id, job_number, application_number, current_payment_due}, "status": "pending_human_approval"}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        app = self._with_job(self._pay_app(args.pay_app_id, args.job_number, args.application_number))
        if app["status"] not in (self.DRAFT, self.SUBMITTED):
            raise ToolError(f"pay application {app['pay_app_id']} is {app['status']}; nothing to approve", "rejected")
        return {
            "would_approve": {
                k: app.get(k)
                for k in ("pay_app_id", "job_number", "application_number", "period_to", "current_payment_due")
            },
            "status": "pending_human_approval",
        }

    # ------------------------------------------------------------------ integration (Python-level)
    def pay_app_summary(self, job_number: str, application_number: int) -> dict[str, Any] | None:
        """G702 header of one application (for other apps, e.g. a PM billing view); None if absent."""
        contract = self.select(self.T_CONTRACTS, {"job_number": job_number})
        if not contract:
            return None
        rows = self.select(
            self.T_APPS, {"contract_id": contract[0]["contract_id"], "application_number": application_number}
        )
        return rows[0] if rows else None
