"""The ERP archetype's read tools: vendors, jobs, job cost, contracts, commitments, AP, GL,
change orders, checks and the SQL tool, answered in the vendor's own vocabulary."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlglot import exp

from cfab.apps.erp.args import (
    AccountsArgs,
    ApGetArgs,
    ApListArgs,
    BalanceArgs,
    CheckListArgs,
    CoListArgs,
    CommitIdArgs,
    CommitListArgs,
    ContractArgs,
    JeListArgs,
    JobCostArgs,
    JobIdArgs,
    JobListArgs,
    PeriodsArgs,
    QueryArgs,
    VendorIdArgs,
    VendorListArgs,
)
from cfab.apps.erp.core import ErpCore
from cfab.apps.erp.dialects import TMap
from cfab.apps.kit import ZERO, bounds, ilike
from cfab.apps.tooling import ToolError, tool
from cfab.schema.sqlbuild import col, equals_all, literal


class ErpReads(ErpCore):
    """Read tools of every ERP vendor."""

    # ------------------------------------------------------------------ reads: vendors
    @tool("vendors.list")
    def vendors_list(self, args: VendorListArgs) -> dict[str, Any]:
        """List vendors in the $label vendor master (ids and spellings as $label keeps them).

        Other systems spell and number vendors differently; translate with hh2's vendor map.

        Args:
            name_contains: part of the name, e.g. "walsh".
            vendor_id: a $label vendor id, e.g. "$EX_VENDOR".
            status: "active" or "inactive".
            on_hold: true for vendors with a payment hold.

        Returns {"vendors": [<vendor master row in $label's columns> + on_hold], "count": n}.
        """
        where: dict[str, Any] = {"vendor_id": self.vid(args.vendor_id) if args.vendor_id else None}
        extra = [ilike(self.N("vendor", "name"), args.name_contains)]
        if args.status:
            where["active"] = self.yn(args.status == "active")
        out = []
        for r in self.rows("vendor", where, extra=extra):
            r["on_hold"] = self._on_hold(r)
            if args.on_hold is None or r["on_hold"] == args.on_hold:
                out.append(r)
        return {"vendors": out, "count": len(out)}

    @tool("vendors.get")
    def vendors_get(self, args: VendorIdArgs) -> dict[str, Any]:
        """Get one $label vendor: master record, 1099 settings and payment holds.

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR".

        Returns {"vendor": {...}, "on_hold": bool, "holds": [...], "hold_codes": [...]}.
        """
        v = self._vendor(args.vendor_id)
        holds = self._holds(v[self.N("vendor", "vendor_id")])
        codes = self.rows("hold_code") if self.has("hold_code") else []
        return {"vendor": v, "on_hold": self._on_hold(v), "holds": holds, "hold_codes": codes}

    # ------------------------------------------------------------------ reads: jobs and job cost
    @tool("jobs.list")
    def jobs_list(self, args: JobListArgs) -> dict[str, Any]:
        """List $label jobs with contract value and the ERP's estimated cost to complete.

        Args:
            status: "active" or "closed".
            name_contains: part of the job name, e.g. "library".

        Returns {"jobs": [<job row> + contract_amount], "count": n}.
        """
        where = {"status": self.word("job", args.status) if args.status else None}
        extra = [ilike(self.N("job", "name"), args.name_contains)]
        contracts = {r[self.N("contract", "contract_id")]: r for r in self.rows("contract")}
        out = []
        for r in self.rows("job", where, extra=extra):
            c = contracts.get(r[self.N("job", "contract_id")])
            r["contract_amount"] = c[self.N("contract", "current_amount")] if c else None
            out.append(r)
        return {"jobs": out, "count": len(out)}

    @tool("jobs.get")
    def jobs_get(self, args: JobIdArgs) -> dict[str, Any]:
        """Get one $label job: master record (incl. estimated cost to complete and projection status) and contract.

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".

        Returns {"job": {...}, "contract": {...} | null, "budget_total": {"original", "revised", "estimate_to_complete"}}.
        """  # noqa: E501
        j = self._job(args.job_id)
        c = self.rows("contract", {"contract_id": j[self.N("job", "contract_id")]})
        b = self.rows("budget", {"job_id": j[self.N("job", "job_id")]})
        tot = {
            "original": sum((r[self.N("budget", "orig_budget")] or ZERO for r in b), ZERO),
            "revised": sum((r[self.N("budget", "revised_budget")] or ZERO for r in b), ZERO),
            "estimate_to_complete": sum((r[self.N("budget", "etc_amount")] or ZERO for r in b), ZERO),
        }
        return {"job": j, "contract": c[0] if c else None, "budget_total": tot}

    def _sum_by_phase(self, logical: str, job_id: str, amount: str, extra_where: dict | None = None) -> dict:
        t = self.T(logical)
        info = self.tbl(t.table)
        q = (
            exp.select(col(t.n("phase")), col(t.n("cost_type")), exp.func("sum", col(t.n(amount))).as_("amt"))
            .from_(info.table_expr())
            .where(equals_all({t.n("job_id"): job_id, **(extra_where or {})}, info))
            .group_by(col(t.n("phase")), col(t.n("cost_type")))
        )
        f = self._fixed(t)
        if f is not None:
            q = q.where(f)
        return {(r[t.n("phase")], r[t.n("cost_type")]): r["amt"] for r in self.query(q)}

    @tool("job_cost.summary")
    def job_cost_summary(self, args: JobCostArgs) -> dict[str, Any]:
        """Job cost by phase and cost type in $label: budget ladder, committed, actual, estimate to complete.

        Committed = subcontract and PO items on the phase; actual = posted job cost.

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".
            phase: only this phase, e.g. "$EX_PHASE".

        Returns {"job_id", "lines": [{phase, cost_type, description, original_budget, approved_changes,
        revised_budget, committed, actual_to_date, estimate_to_complete, projection_status}], "totals": {...}}.
        """
        j = self._job(args.job_id)
        job_id = j[self.N("job", "job_id")]
        committed: dict = {}
        for lg in ("sub_item", "po_item"):
            for k, v in self._sum_by_phase(lg, job_id, "amount").items():
                committed[k] = committed.get(k, ZERO) + v
        actual = self._sum_by_phase("cost_detail", job_id, "amount")
        b = self.T("budget")
        lines = []
        for r in self.rows("budget", {"job_id": job_id, "phase": args.phase}):
            k = (r[b.n("phase")], r[b.n("cost_type")])
            lines.append(
                {
                    "phase": k[0],
                    "cost_type": k[1],
                    "description": r.get(b.cols.get("description", ""), None),
                    "original_budget": r[b.n("orig_budget")],
                    "approved_changes": r[b.n("approved_changes")],
                    "revised_budget": r[b.n("revised_budget")],
                    "committed": committed.get(k, ZERO),
                    "actual_to_date": actual.get(k, ZERO),
                    "estimate_to_complete": r[b.n("etc_amount")],
                    "projection_status": r[b.n("proj_status")],
                }
            )
        keys = (
            "original_budget",
            "approved_changes",
            "revised_budget",
            "committed",
            "actual_to_date",
            "estimate_to_complete",
        )
        totals = {k: sum((ln[k] or ZERO for ln in lines), ZERO) for k in keys}
        return {
            "job_id": job_id,
            "lines": lines,
            "count": len(lines),
            "totals": totals,
            "job_estimate_to_complete": j[self.N("job", "etc_amount")],
        }

    @tool("contracts.get")
    def contracts_get(self, args: ContractArgs) -> dict[str, Any]:
        """Get the prime (owner) contract of a $label job and its items (schedule of values).

        Args:
            job_id: the $label job id, e.g. "$EX_JOB".

        Returns {"contract": {...}, "items": [...], "count": n}.
        """
        j = self._job(args.job_id)
        cid = j[self.N("job", "contract_id")]
        c = self.rows("contract", {"contract_id": cid})
        if not c:
            raise ToolError(f"job {args.job_id} has no prime contract in {self.label}", "not_found")
        items = self.rows("contract_item", {"contract_id": cid})
        return {"contract": c[0], "items": items, "count": len(items)}

    # ------------------------------------------------------------------ reads: commitments
    def _commitments(self, logical: str, args: CommitListArgs) -> list[dict[str, Any]]:
        where = {
            "job_id": args.job_id,
            "vendor_id": self.vid(args.vendor_id) if args.vendor_id else None,
            "status": self.word("commit", args.status) if args.status else None,
        }
        out = self.rows(logical, where)
        if args.include_items:
            item = logical.replace("_hdr", "_item")
            for r in out:
                r["items"] = self.rows(item, {"sub_id": r[self.N(logical, "sub_id")]})
        return out

    @tool("subcontracts.list")
    def subcontracts_list(self, args: CommitListArgs) -> dict[str, Any]:
        """List $label subcontracts (only commitments synced from the PM system are here).

        Args:
            job_id: a $label job id, e.g. "$EX_JOB".
            vendor_id: a $label vendor id, e.g. "$EX_VENDOR".
            status: "approved", "draft" or "closed".
            include_items: true to include each subcontract's items.

        Returns {"subcontracts": [...], "count": n}.
        """
        out = self._commitments("sub_hdr", args)
        return {"subcontracts": out, "count": len(out)}

    @tool("subcontracts.get")
    def subcontracts_get(self, args: CommitIdArgs) -> dict[str, Any]:
        """Get one $label subcontract (or purchase order) with its items.

        Args:
            subcontract_id: the subcontract / PO number, e.g. "$EX_SUB".

        Returns {"subcontract": {...}, "items": [...], "type": "subcontract"|"purchase_order"}.
        """
        for lg, kind in (("sub_hdr", "subcontract"), ("po_hdr", "purchase_order")):
            got = self.rows(lg, {"sub_id": args.subcontract_id.strip()})
            if got:
                items = self.rows(lg.replace("_hdr", "_item"), {"sub_id": args.subcontract_id.strip()})
                return {"subcontract": got[0], "items": items, "type": kind}
        raise ToolError(
            f"no subcontract or PO {args.subcontract_id!r} in {self.label} (commitments not yet synced "
            "from the PM system are not here)",
            "not_found",
        )

    @tool("purchase_orders.list")
    def purchase_orders_list(self, args: CommitListArgs) -> dict[str, Any]:
        """List $label purchase orders.

        Args:
            job_id: a $label job id, e.g. "$EX_JOB".
            vendor_id: a $label vendor id, e.g. "$EX_VENDOR".
            status: "approved", "draft" or "closed".
            include_items: true to include each PO's items.

        Returns {"purchase_orders": [...], "count": n}.
        """
        out = self._commitments("po_hdr", args)
        return {"purchase_orders": out, "count": len(out)}

    # ------------------------------------------------------------------ reads: AP
    def _ap_rows(self, status: str | None, where: dict[str, Any], extra_fn=None) -> list[dict[str, Any]]:
        out = []
        for lg, st in (("ap_open_hdr", "unposted"), ("ap_hdr", "posted")):
            if status and status != st:
                continue
            extra = extra_fn(lg) if extra_fn else []
            for r in self.rows(lg, where, extra=extra):
                r["posting_status"] = st
                out.append(r)
        return out

    def _find_ap(self, vendor_id: Any, apref: str) -> tuple[str, dict[str, Any]] | None:
        for lg in ("ap_open_hdr", "ap_hdr"):
            got = self.rows(lg, {"vendor_id": vendor_id, "apref": apref})
            if got:
                return lg, got[0]
        return None

    def _ap_lines(self, hdr_logical: str, row: dict[str, Any]) -> list[dict[str, Any]]:
        line = {"ap_open_hdr": "ap_open_line", "ap_hdr": "ap_line"}[hdr_logical]
        t = self.T(line)
        return self.rows(line, {c: row[self.N(hdr_logical, c)] for c in t.link}, order=["line_no"])

    @tool("ap_invoices.list")
    def ap_invoices_list(self, args: ApListArgs) -> dict[str, Any]:
        """List $label AP invoices: unposted (entered, awaiting post) and posted.

        Invoices approved in the PM system but not yet synced, and invoices never entered, are not here.

        Args:
            job_id: a $label job id, e.g. "$EX_JOB".
            vendor_id: a $label vendor id, e.g. "$EX_VENDOR".
            status: "unposted" or "posted".
            invoice_number: the vendor's invoice number, e.g. "JSM-88421".
            date_from: invoice date on or after, e.g. "2026-01-01".
            date_to: invoice date on or before, e.g. "2026-01-31".

        Returns {"invoices": [<header row> + posting_status], "count": n}.
        """
        where = {
            "job_id": args.job_id,
            "vendor_id": self.vid(args.vendor_id) if args.vendor_id else None,
            "apref": args.invoice_number,
        }

        def extra(lg: str) -> list[exp.Expr]:
            return bounds(self.N(lg, "inv_date"), args.date_from, args.date_to, "DATE")

        rows = self._ap_rows(args.status, where, extra)
        return {"invoices": rows, "count": len(rows)}

    @tool("ap_invoices.get")
    def ap_invoices_get(self, args: ApGetArgs) -> dict[str, Any]:
        """Get one $label AP invoice (unposted or posted) with its distribution lines.

        Args:
            vendor_id: the $label vendor id, e.g. "$EX_VENDOR".
            invoice_number: the vendor's invoice number, e.g. "JSM-88421".

        Returns {"invoice": {...}, "lines": [...], "posting_status": "unposted"|"posted"}.
        """
        hit = self._find_ap(self.vid(args.vendor_id), args.invoice_number)
        if hit is None:
            raise ToolError(
                f"no AP invoice {args.invoice_number!r} for vendor {args.vendor_id} in {self.label}", "not_found"
            )
        lg, row = hit
        return {
            "invoice": row,
            "lines": self._ap_lines(lg, row),
            "posting_status": "unposted" if lg == "ap_open_hdr" else "posted",
        }

    # ------------------------------------------------------------------ reads: GL
    def _je_lines(self, hdr_logical: str, row: dict[str, Any]) -> list[dict[str, Any]]:
        line = {"je_open_hdr": "je_open_line", "je_hdr": "je_line"}[hdr_logical]
        t = self.T(line)
        return self.rows(
            line, {c: row[self.N(hdr_logical, c)] for c in t.link}, order=["line_no"] if t.has("line_no") else ["trans"]
        )

    def _je_lines_of(self, hdr_logical: str, heads: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
        """The lines of each of ``heads`` (in its order), read in one query per 500 entries rather
        than one per entry: a month's journal is hundreds of entries."""
        line = {"je_open_hdr": "je_open_line", "je_hdr": "je_line"}[hdr_logical]
        t = self.T(line)
        keys = [tuple(h[self.N(hdr_logical, c)] for c in t.link) for h in heads]
        found: dict[tuple[Any, ...], list[dict[str, Any]]] = {k: [] for k in keys}
        lhs: exp.Expr = exp.Tuple(expressions=[col(t.n(c)) for c in t.link]) if len(t.link) > 1 else col(t.n(t.link[0]))
        order = [*t.link, "line_no" if t.has("line_no") else "trans"]
        for start in range(0, len(keys), 500):
            chunk = list(dict.fromkeys(keys[start : start + 500]))
            values = [exp.Tuple(expressions=[literal(v) for v in k]) if len(k) > 1 else literal(k[0]) for k in chunk]
            for r in self.rows(line, extra=[exp.In(this=lhs, expressions=values)], order=order):
                found[tuple(_get_ci(r, t.n(c)) for c in t.link)].append(r)
        return [found[k] for k in keys]

    @tool("journal_entries.list")
    def journal_entries_list(self, args: JeListArgs) -> dict[str, Any]:
        """List $label journal entries: unposted (draft) batches and posted GL entries.

        Args:
            period: fiscal period "YYYY-MM", e.g. "2026-01".
            status: "unposted" or "posted".
            job_id: only entries with a line on this job, e.g. "$EX_JOB".
            include_lines: true to include lines.
            limit: most entries per status (newest first), e.g. 50.

        Returns {"entries": [<header row> + posting_status (+ lines)], "count": n}.
        """
        out = []
        for lg, st in (("je_open_hdr", "unposted"), ("je_hdr", "posted")):
            if args.status and args.status != st:
                continue
            t = self.T(lg)
            extra: list[exp.Expr] = []
            if args.period:
                p = self._period_row(args.period)
                extra += bounds(
                    t.n("act_date"),
                    p[self.N("fiscal_period", "start_date")],
                    p[self.N("fiscal_period", "end_date")],
                    "DATE",
                )
            if args.job_id:
                line = self.T(lg.replace("_hdr", "_line"))
                linfo = self.tbl(line.table)
                sub = (
                    exp.select(*[col(line.n(c)) for c in line.link])
                    .from_(linfo.table_expr())
                    .where(exp.EQ(this=col(line.n("job_id")), expression=literal(args.job_id)))
                )
                lhs = (
                    exp.Tuple(expressions=[col(t.n(c)) for c in line.link])
                    if len(line.link) > 1
                    else col(t.n(line.link[0]))
                )
                extra.append(exp.In(this=lhs, query=sub.subquery()))
            heads = self.rows(lg, extra=extra, order=["act_date"], desc=True, limit=args.limit)
            lines = self._je_lines_of(lg, heads) if args.include_lines else None
            for i, r in enumerate(heads):
                r["posting_status"] = st
                if lines is not None:
                    r["lines"] = lines[i]
                out.append(r)
        return {"entries": out, "count": len(out)}

    @tool("gl.accounts")
    def gl_accounts(self, args: AccountsArgs) -> dict[str, Any]:
        """List the $label chart of accounts.

        Args:
            account_type: "asset", "liability", "equity", "revenue" or "expense".

        Returns {"accounts": [...], "count": n}.
        """
        acct_type = self.word("acct_type", args.account_type) if args.account_type else None
        rows = self.rows("gl_account", {"acct_type": acct_type})
        return {"accounts": rows, "count": len(rows)}

    @tool("gl.periods")
    def gl_periods(self, args: PeriodsArgs) -> dict[str, Any]:
        """List $label fiscal periods and whether each is open or closed (closed periods reject entries).

        Args:
            status: "open" or "closed".

        Returns {"periods": [...], "count": n}.
        """
        rows = self.rows("fiscal_period", {"status": self.word("period", args.status) if args.status else None})
        return {"periods": rows, "count": len(rows)}

    @tool("gl.balance")
    def gl_balance(self, args: BalanceArgs) -> dict[str, Any]:
        """Posted balance of a $label GL account (debits minus credits), optionally through a period and for a job.

        Args:
            account: GL account, e.g. "2100".
            through_period: through fiscal period "YYYY-MM", e.g. "2025-12".
            job_id: only lines on this job, e.g. "$EX_JOB".

        Returns {"account", "through_period", "job_id", "debits", "credits", "balance", "lines": n}.
        """
        self.one("gl_account", "GL account", "", account=args.account)
        t = self.T("je_line")
        extra: list[exp.Expr] = []
        if args.through_period:
            end = self._period_row(args.through_period)[self.N("fiscal_period", "end_date")]
            extra = bounds(t.n("act_date"), None, end, "DATE")
        debits = credits = ZERO
        rows = self.rows("je_line", {"account": args.account, "job_id": args.job_id}, extra=extra)
        for r in rows:
            dr, cr = self._dr_cr(t, r)
            debits += dr
            credits += cr
        return {
            "account": args.account,
            "through_period": args.through_period,
            "job_id": args.job_id,
            "debits": debits,
            "credits": credits,
            "balance": debits - credits,
            "lines": len(rows),
        }

    def _dr_cr(self, t: TMap, r: dict[str, Any]) -> tuple[Decimal, Decimal]:
        if self.D.je_amounts == "dc":
            return r[t.n("debit")] or ZERO, r[t.n("credit")] or ZERO
        if self.D.je_amounts == "signed":
            a = r[t.n("amount")] or ZERO
            return (a, ZERO) if a >= 0 else (ZERO, -a)
        a = r[t.n("abs_amount")] or ZERO
        return (a, ZERO) if r[t.n("tr_type")] == 1 else (ZERO, a)

    @tool("change_orders.list")
    def change_orders_list(self, args: CoListArgs) -> dict[str, Any]:
        """List $label job change orders (owner COs and internal budget transfers) with their items.

        Args:
            job_id: a $label job id, e.g. "$EX_JOB".
            status: "pending" or "approved".

        Returns {"change_orders": [<header> + items], "count": n}.
        """
        status = self.word("co", args.status) if args.status else None
        rows = self.rows("co_hdr", {"job_id": args.job_id, "status": status})
        link = self.T("co_item").link
        for r in rows:
            r["items"] = self.rows("co_item", {c: r[self.N("co_hdr", c)] for c in link})
        return {"change_orders": rows, "count": len(rows)}

    @tool("checks.list")
    def checks_list(self, args: CheckListArgs) -> dict[str, Any]:
        """List the $label issued-check register (check number, date, payee as printed, amount, status).

        Args:
            bank_account: bank / cash account code, e.g. "BA-OPER".
            check_from: lowest check number, e.g. 10450.
            check_to: highest check number, e.g. 10500.
            date_from: issued on or after, e.g. "2026-01-01".
            date_to: issued on or before, e.g. "2026-01-31".
            payee_contains: part of the payee name, e.g. "walsh".
            vendor_id: a $label vendor id, e.g. "$EX_VENDOR".
            status: "issued", "cleared" or "void".
            limit: most checks, e.g. 100.

        Returns {"checks": [...], "count": n}.
        """
        t = self.T("check")
        extra = [
            *bounds(t.n("check_number"), args.check_from, args.check_to),
            *bounds(t.n("issue_date"), args.date_from, args.date_to, "DATE"),
            ilike(t.n("payee_name"), args.payee_contains),
        ]
        where = {
            "bank_acct": args.bank_account,
            "vendor_id": self.vid(args.vendor_id) if args.vendor_id else None,
            "status": self.word("check", args.status) if args.status else None,
        }
        rows = self.rows("check", where, extra=extra, order=["bank_acct", "check_number"], limit=args.limit)
        return {"checks": rows, "count": len(rows)}

    @tool("query")
    def sql_query(self, args: QueryArgs) -> dict[str, Any]:
        """Run one read-only SQL SELECT over the $label schema ($schema); qualify every table, e.g. $schema.<table>.

        Discover tables with SELECT table_name FROM information_schema.tables WHERE table_schema = '$schema'.

        Args:
            sql: one SELECT, e.g. "SELECT * FROM $schema.<table> LIMIT 5".
            max_rows: most rows, e.g. 50.

        Returns {"columns": [...], "rows": [[...]], "row_count": n, "truncated": bool}.
        """
        from cfab.apps.sandbox.exec import run_read

        outcome = run_read(self.con, args.sql, [self.schema_name()], max_rows=args.max_rows)
        data = outcome.model_dump(mode="json")
        if not data.pop("ok", True):
            raise ToolError(
                data.get("message") or "query failed",
                "rejected" if data.get("kind") == "refused" else "invalid_argument",
            )
        return {k: data[k] for k in ("columns", "rows", "row_count", "truncated") if k in data}


def _get_ci(row: dict[str, Any], name: str) -> Any:
    """``row[name]``, matching the column's spelling without regard to case."""
    if name in row:
        return row[name]
    return next(v for k, v in row.items() if k.lower() == name.lower())
