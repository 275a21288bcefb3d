"""Scale N: the scale-1 universe is kept exactly and N-1 replicas of it are added in SQL.

A replica copies every job-, vendor- and employee-keyed row of the base universe with its keys
mapped (``replicas.py`` maps the identities; hashed ids become ``md5(id#r)[:16]``; ids that embed
a job number get the replica's job; check numbers move up by r·1,000,000; journal numbers get a
``-Rnnn`` suffix). Amounts are the base amounts, so every invariant holds by construction.
Company-wide reference data, payroll batches, bank accounts (and their products), officers and
insurance producers are shared; the positive-pay file, documents, mail, policies, the spelling
divergences and the equipment fleet (with its rate divergences) exist only in the scale-1
universe. The detail tables keyed like a replicated parent (COI details, vendor signers,
architects, WH-347 line details, employee tax profiles) follow it.
Bank balances and the G702 retainage split are derived from the loaded rows afterwards, at every
scale.
"""

from __future__ import annotations

import re
from functools import partial

import duckdb
import pyarrow as pa

from cfab.seeds.context import Ctx
from cfab.seeds.load import insert_arrow
from cfab.seeds.parallel import Step, run_steps
from cfab.seeds.payroll import employee_profile
from cfab.seeds.replicas import build_maps

RH = "substr(md5({x} || '#' || CAST({r} AS VARCHAR)), 1, 16)"  # replica hashed id
RJ = "replace({x}, {job}, {nj})"  # an id that embeds the job number (job numbers never look like years)
SUFFIX = "'-R' || printf('%03d', {r})"

_TABLES: dict[str, str] = {
    "owners": """SELECT o.no, o.name, b.owner_type, o.contact, o.email, o.address
        FROM book.owners b JOIN _ro o USING (owner_id)""",
    "jobs": """SELECT j.nj, j.name, o.no, b.status, b.job_type, b.is_prevailing_wage, b.start_date,
        b.est_completion_date, b.project_manager, b.pm_email, b.superintendent, j.address, b.city, b.state, b.county,
        b.erp_est_cost_to_complete
        FROM book.jobs b JOIN _rj j USING (job_number) JOIN _ro o ON o.owner_id = b.owner_id AND o.r = j.r""",
    "vendors": """SELECT v.nv, v.legal_name, v.dba_name, b.vendor_type, b.trade, v.tin, b.tin_type, b.entity_type,
        b.is_attorney, b.materials_only, v.address, v.city, v.state, v.zip, v.email, v.phone, b.payment_terms, b.status
        FROM book.vendors b JOIN _rv v USING (vendor_key)""",
    "employees": """SELECT e.ne, e.first_name, e.last_name, e.ssn4, b.trade, b.classification, b.level,
        b.apprentice_registration, b.apprentice_pct, b.union_local, b.base_rate, b.fringe_rate, b.hire_date, b.status
        FROM book.employees b JOIN _re e USING (employee_id)""",
    "prime_contracts": """SELECT j.nj, 'PC-' || j.nj, o.no, b.original_amount, b.retainage_pct,
        b.retainage_step_down_pct,
        b.step_down_at_pct, b.executed_date, b.status
        FROM book.prime_contracts b JOIN _rj j USING (job_number) JOIN _ro o ON o.owner_id = b.owner_id
        AND o.r = j.r""",
    "estimates": """SELECT {rj_est}, j.nj, j.name || ' - Bid', b.bid_date, b.status, b.total_cost, b.markup_pct,
        b.bid_total
        FROM book.estimates b JOIN _rj j USING (job_number)""",
    "estimate_items": """SELECT {rj_est_items}, b.item_no, b.cost_code, b.description, b.quantity, b.unit, b.unit_cost,
        b.total_cost FROM book.estimate_items b JOIN book.estimates e USING (estimate_id) JOIN _rj j
        ON j.job_number = e.job_number""",
    "change_events": """SELECT {rj_ce}, j.nj, b.number, b.title, b.description, b.reason, b.scope, b.amount, b.status,
        NULL
        FROM book.change_events b JOIN _rj j USING (job_number)""",
    "change_orders": """SELECT {rj_co}, j.nj, b.co_type, b.number, {rj_co_ce}, {rj_co_c}, b.description, b.amount,
        b.increases_contract, b.status, b.approved_date FROM book.change_orders b JOIN _rj j USING (job_number)""",
    "change_order_lines": """SELECT {rj_col}, b.line_no, b.cost_code, b.amount
        FROM book.change_order_lines b JOIN book.change_orders o USING (co_id) JOIN _rj j
        ON j.job_number = o.job_number""",
    "prime_sov_lines": """SELECT j.nj, b.line_no, b.item_number, b.description, b.cost_code, b.scheduled_value,
        b.source,
        {rj_sov_co} FROM book.prime_sov_lines b JOIN _rj j USING (job_number)""",
    "sov_progress": """SELECT j.nj, b.line_no, b.as_of, b.pct_complete, b.work_completed, b.materials_stored
        FROM book.sov_progress b JOIN _rj j USING (job_number)""",
    "owner_pay_apps": """SELECT j.nj, b.app_number, b.period_start, b.period_end, b.status, b.submitted_date,
        b.certified_date, b.original_contract_sum, b.net_change_orders, b.total_completed_stored, b.retainage,
        b.previous_certificates, b.current_payment_due, NULL FROM book.owner_pay_apps b
        JOIN _rj j USING (job_number)""",
    "owner_pay_app_lines": """SELECT j.nj, b.app_number, b.line_no, b.scheduled_value, b.from_previous, b.this_period,
        b.materials_stored, b.total_completed_stored, b.retainage FROM book.owner_pay_app_lines b
        JOIN _rj j USING (job_number)""",
    "budget_lines": """SELECT j.nj, b.cost_code, b.original_budget, b.approved_changes, b.revised_budget,
        b.pm_forecast_to_complete, b.erp_estimate, b.include_in_erp FROM book.budget_lines b
        JOIN _rj j USING (job_number)""",
    "funding_sources": """SELECT j.nj, {rj_fs}, b.name, b.source_type, b.amount, b.drawn_to_date
        FROM book.funding_sources b JOIN _rj j USING (job_number)""",
    "certificates_of_insurance": """SELECT {rh_coi}, v.nv, b.insurer, b.policy_number, b.coverage_type,
        b.each_occurrence,
        b.aggregate_limit, b.effective_date, b.expiry_date, b.certificate_holder, b.is_current, NULL
        FROM book.certificates_of_insurance b JOIN _rv v USING (vendor_key)""",
    "commitments": """SELECT {rj_c}, j.nj, v.nv, b.commitment_type, replace(b.number, b.job_number, j.nj),
        split_part(b.title, ' - ', 1) || ' - ' || j.name, b.status, b.original_amount, b.approved_co_amount, b.amount,
        b.retainage_pct, b.executed_date, b.erp_synced, NULL
        FROM book.commitments b JOIN _rj j USING (job_number) JOIN _rv v ON v.vendor_key = b.vendor_key
        AND v.r = j.r""",
    "commitment_lines": """SELECT {rj_cl}, b.line_no, b.cost_code, b.description, b.amount, b.pct_complete,
        b.work_completed
        FROM book.commitment_lines b JOIN book.commitments c USING (commitment_id) JOIN _rj j
        ON j.job_number = c.job_number""",
    "ap_invoices": """SELECT {rh_inv}, v.nv, j.nj, {rj_inv_c}, b.invoice_number, b.requisition_number, b.invoice_date,
        b.due_date, b.period_start, b.period_end, b.gross_amount, b.retainage_amount, b.net_amount, b.pm_status,
        b.erp_status, b.erp_synced, b.paid_amount, b.description, NULL
        FROM book.ap_invoices b JOIN _rj j USING (job_number) JOIN _rv v ON v.vendor_key = b.vendor_key
        AND v.r = j.r""",
    "ap_invoice_lines": """SELECT {rh_invl}, b.line_no, b.commitment_line_no, b.cost_code, b.description, b.amount,
        b.retainage
        FROM book.ap_invoice_lines b CROSS JOIN _reps rr""",
    "lien_waivers": """SELECT {rh_w}, v.nv, j.nj, {rh_w_inv}, b.waiver_type, b.amount, b.through_date, b.status,
        b.signer,
        b.signed_date, NULL
        FROM book.lien_waivers b JOIN _rj j USING (job_number) JOIN _rv v ON v.vendor_key = b.vendor_key
        AND v.r = j.r""",
    "checks": """SELECT {rh_chk}, b.bank_account_id, b.check_number + 1000000 * rr.r, b.issue_date, v.nv,
        coalesce(v.legal_name, e.first_name || ' ' || e.last_name, b.payee_name), b.amount, b.status, b.cleared_date
        FROM book.checks b CROSS JOIN _reps rr
        LEFT JOIN _rv v ON v.vendor_key = b.payee_vendor_key AND v.r = rr.r
        LEFT JOIN _chk_emp ce ON ce.check_id = b.check_id
        LEFT JOIN _re e ON e.employee_id = ce.employee_id AND e.r = rr.r""",
    "check_applications": """SELECT {rh_app_chk}, {rh_app_inv}, b.amount FROM book.check_applications b
        CROSS JOIN _reps rr""",
    "bank_transactions": """SELECT {rh_txn}, b.bank_account_id, b.posted_date, b.amount, b.bai_type_code, b.description,
        b.check_number + 1000000 * rr.r, b.reference || {suffix}
        FROM book.bank_transactions b CROSS JOIN _reps rr""",
    "wage_determinations": """SELECT b.determination_id || {suffix_j}, j.nj, b.wd_number, b.modification, b.county,
        b.state,
        b.effective_date FROM book.wage_determinations b JOIN _rj j USING (job_number)""",
    "wage_rates": """SELECT b.determination_id || {suffix_j}, b.classification, b.base_rate, b.fringe_rate
        FROM book.wage_rates b JOIN book.wage_determinations d USING (determination_id) JOIN _rj j
        ON j.job_number = d.job_number""",
    "timecards": """SELECT {rh_tc}, e.ne, j.nj, b.work_date, b.cost_code, b.hours_regular, b.hours_overtime,
        b.source_system, b.approved
        FROM book.timecards b JOIN _rj j USING (job_number) JOIN _re e ON e.employee_id = b.employee_id
        AND e.r = j.r""",
    "payroll_earnings": """SELECT b.batch_id, e.ne, j.nj, b.hours_regular, b.hours_overtime, b.rate_paid, b.fringe_paid,
        b.gross_pay, b.withholding, b.net_pay
        FROM book.payroll_earnings b JOIN _rj j USING (job_number) JOIN _re e ON e.employee_id = b.employee_id
        AND e.r = j.r""",
    "certified_payrolls": """SELECT {rj_cp}, j.nj, b.determination_id || {suffix_j}, b.payroll_number, b.week_ending,
        b.status, NULL FROM book.certified_payrolls b JOIN _rj j USING (job_number)""",
    "certified_payroll_lines": """SELECT {rj_cpl}, b.line_no, e.ne, b.classification, b.level,
        b.apprentice_registration,
        b.hours_sun, b.hours_mon, b.hours_tue, b.hours_wed, b.hours_thu, b.hours_fri, b.hours_sat, b.total_hours,
        b.rate_paid, b.fringe_paid, b.gross_this_project
        FROM book.certified_payroll_lines b JOIN book.certified_payrolls s USING (submission_id)
        JOIN _rj j ON j.job_number = s.job_number JOIN _re e ON e.employee_id = b.employee_id AND e.r = j.r""",
    "journal_entries": """SELECT {rh_je}, b.journal, b.je_number || {suffix}, b.entry_date, b.period, b.description,
        b.status,
        CASE WHEN b.journal IN ('AP', 'CD') THEN {rh_src}
             WHEN b.journal IN ('AR', 'CR') THEN replace(b.source_ref, ':' || ja.job_number || ':', ':' || ja.nj || ':')
             ELSE b.source_ref END, b.auto_reverse
        FROM book.journal_entries b CROSS JOIN _reps rr
        LEFT JOIN _rj ja ON b.journal IN ('AR', 'CR') AND ja.job_number = split_part(b.source_ref, ':', 2)
        AND ja.r = rr.r""",
    "journal_lines": """SELECT {rh_jl}, b.line_no, b.account, j.nj, b.cost_code, v.nv, b.debit, b.credit, b.memo
        FROM book.journal_lines b CROSS JOIN _reps rr
        LEFT JOIN _rj j ON j.job_number = b.job_number AND j.r = rr.r
        LEFT JOIN _rv v ON v.vendor_key = b.vendor_key AND v.r = rr.r""",
    "divergences": """SELECT b.divergence_id || '#R' || printf('%03d', rr.r), b.kind, b.entity,
        CASE b.entity WHEN 'vendor' THEN v.nv WHEN 'job' THEN j.nj WHEN 'invoice' THEN {rh_div}
             WHEN 'employee' THEN e.ne
             WHEN 'change_event' THEN cj.nj || '|' || split_part(b.entity_key, '|', 2)
             WHEN 'commitment' THEN {rj_div}
             WHEN 'bank_transaction' THEN {rh_div}
             WHEN 'journal_entry' THEN b.entity_key || {suffix}
             WHEN 'check' THEN split_part(b.entity_key, '|', 1) || '|'
                  || CAST(CAST(split_part(b.entity_key, '|', 2) AS INTEGER) + 1000000 * rr.r AS VARCHAR)
        END, b.field, b.apps, b.family, '[replica ' || rr.r || '] ' || b.reason
        FROM book.divergences b CROSS JOIN _reps rr
        LEFT JOIN _rv v ON b.entity = 'vendor' AND v.vendor_key = b.entity_key AND v.r = rr.r
        LEFT JOIN _rj j ON b.entity = 'job' AND j.job_number = b.entity_key AND j.r = rr.r
        LEFT JOIN _re e ON b.entity = 'employee' AND e.employee_id = b.entity_key AND e.r = rr.r
        LEFT JOIN _rj cj ON b.entity = 'change_event' AND cj.job_number = split_part(b.entity_key, '|', 1)
        AND cj.r = rr.r
        LEFT JOIN _rj jj ON b.entity = 'commitment' AND jj.job_number = split_part(b.entity_key, '-', 2) AND jj.r = rr.r
        WHERE b.kind NOT IN ('vendor_spelling', 'payee_truncation', 'presented_item_mismatch',
                             'equipment_rate_stale')""",
    # the detail tables keyed like their parents
    "coi_details": """SELECT {rh_coi}, b.producer_id, b.producer_contact, b.producer_contact_email, b.insurer_naic
        FROM book.coi_details b JOIN book.certificates_of_insurance c USING (coi_id)
        JOIN _rv v ON v.vendor_key = c.vendor_key""",
    "vendor_signers": """SELECT v.nv,
        CASE WHEN bv.entity_type IN ('individual', 'sole_proprietor')
             THEN coalesce((SELECT min(v2.legal_name) FROM _rv v2 JOIN book.vendors b2 ON b2.vendor_key = v2.vendor_key
                            WHERE v2.r = v.r AND v2.tin = v.tin AND b2.entity_type = 'individual'), v.legal_name)
             ELSE b.signer_name END,
        b.signer_title,
        CASE WHEN bv.entity_type IN ('individual', 'sole_proprietor') THEN v.email
             ELSE split_part(b.signer_email, '@', 1) || '@' || split_part(v.email, '@', 2) END
        FROM book.vendor_signers b JOIN book.vendors bv USING (vendor_key) JOIN _rv v USING (vendor_key)""",
    "prime_contract_architects": """SELECT j.nj, b.firm_name, b.address, b.city, b.state, b.zip, b.phone,
        b.contact_name, b.contact_title, b.contact_email, b.architect_project_number
        FROM book.prime_contract_architects b JOIN _rj j USING (job_number)""",
    "certified_payroll_line_details": """SELECT {rj_cpl}, b.line_no, b.st_sun, b.st_mon, b.st_tue, b.st_wed, b.st_thu,
        b.st_fri, b.st_sat, b.ot_sun, b.ot_mon, b.ot_tue, b.ot_wed, b.ot_thu, b.ot_fri, b.ot_sat, b.overtime_rate,
        b.gross_all_work, b.fica, b.federal_withholding, b.state_withholding, b.other_deductions,
        b.total_deductions, b.net_pay
        FROM book.certified_payroll_line_details b JOIN book.certified_payrolls s USING (submission_id)
        JOIN _rj j ON j.job_number = s.job_number""",
}
ORDER = (
    "owners",
    "jobs",
    "vendors",
    "employees",
    "prime_contracts",
    "estimates",
    "estimate_items",
    "change_events",
    "change_orders",
    "change_order_lines",
    "prime_sov_lines",
    "sov_progress",
    "owner_pay_apps",
    "owner_pay_app_lines",
    "budget_lines",
    "funding_sources",
    "certificates_of_insurance",
    "commitments",
    "commitment_lines",
    "ap_invoices",
    "ap_invoice_lines",
    "lien_waivers",
    "checks",
    "check_applications",
    "bank_transactions",
    "wage_determinations",
    "wage_rates",
    "timecards",
    "payroll_earnings",
    "certified_payrolls",
    "certified_payroll_lines",
    "journal_entries",
    "journal_lines",
    "divergences",
    "coi_details",
    "vendor_signers",
    "prime_contract_architects",
    "certified_payroll_line_details",
)


def _fill(sql: str) -> str:
    def rj(x: str) -> str:
        return RJ.format(x=x, job="b.job_number", nj="j.nj")

    subs = {
        "rj_est": RJ.format(x="b.estimate_id", job="b.job_number", nj="j.nj"),
        "rj_est_items": RJ.format(x="b.estimate_id", job="e.job_number", nj="j.nj"),
        "rj_ce": rj("b.change_event_id"),
        "rj_co": rj("b.co_id"),
        "rj_co_ce": rj("b.change_event_id"),
        "rj_co_c": rj("b.commitment_id"),
        "rj_col": RJ.format(x="b.co_id", job="o.job_number", nj="j.nj"),
        "rj_sov_co": rj("b.co_id"),
        "rj_fs": rj("b.source_id"),
        "rj_c": rj("b.commitment_id"),
        "rj_cl": RJ.format(x="b.commitment_id", job="c.job_number", nj="j.nj"),
        "rj_inv_c": rj("b.commitment_id"),
        "rj_cp": rj("b.submission_id"),
        "rj_cpl": RJ.format(x="b.submission_id", job="s.job_number", nj="j.nj"),
        "rj_div": RJ.format(x="b.entity_key", job="jj.job_number", nj="jj.nj"),
        "rh_coi": RH.format(x="b.coi_id", r="v.r"),
        "rh_inv": RH.format(x="b.invoice_id", r="j.r"),
        "rh_invl": RH.format(x="b.invoice_id", r="rr.r"),
        "rh_w": RH.format(x="b.waiver_id", r="j.r"),
        "rh_w_inv": RH.format(x="b.invoice_id", r="j.r"),
        "rh_chk": RH.format(x="b.check_id", r="rr.r"),
        "rh_app_chk": RH.format(x="b.check_id", r="rr.r"),
        "rh_app_inv": RH.format(x="b.invoice_id", r="rr.r"),
        "rh_txn": RH.format(x="b.txn_id", r="rr.r"),
        "rh_tc": RH.format(x="b.timecard_id", r="j.r"),
        "rh_je": RH.format(x="b.je_id", r="rr.r"),
        "rh_src": RH.format(x="b.source_ref", r="rr.r"),
        "rh_jl": RH.format(x="b.je_id", r="rr.r"),
        "rh_div": RH.format(x="b.entity_key", r="rr.r"),
        "suffix": SUFFIX.format(r="rr.r"),
        "suffix_j": SUFFIX.format(r="j.r"),
    }
    return sql.format(**subs)


def _map_tables(ctx: Ctx, scale: int) -> dict[str, pa.Table]:
    maps = build_maps(ctx, scale)
    ctx.notes["replica_identities"] = (maps.vendor_identities, maps.employee_identities)
    return {
        "_rj": pa.table(
            {
                "job_number": [m[0] for m in maps.jobs],
                "r": [m[1] for m in maps.jobs],
                "nj": [m[2] for m in maps.jobs],
                "name": [m[3] for m in maps.jobs],
                "address": [m[4] for m in maps.jobs],
            }
        ),
        "_ro": pa.table(
            {
                k: [m[i] for m in maps.owners]
                for i, k in enumerate(("owner_id", "r", "no", "name", "contact", "email", "address"))
            }
        ),
        "_rv": pa.table(
            {
                k: [m[i] for m in maps.vendors]
                for i, k in enumerate(
                    (
                        "vendor_key",
                        "r",
                        "nv",
                        "legal_name",
                        "dba_name",
                        "tin",
                        "address",
                        "city",
                        "state",
                        "zip",
                        "email",
                        "phone",
                    )
                )
            }
        ),
        "_re": pa.table(
            {
                k: [m[i] for m in maps.employees]
                for i, k in enumerate(("employee_id", "r", "ne", "first_name", "last_name", "ssn4"))
            }
        ),
        "_reps": pa.table({"r": list(range(1, scale))}),
        "_chk_emp": pa.table(
            {
                "check_id": list(ctx.notes["payroll_live_checks"].values()),
                "employee_id": [e for (_b, e) in ctx.notes["payroll_live_checks"]],
            }
        ),
    }


def _create_maps(con: duckdb.DuckDBPyConnection, tables: dict[str, pa.Table]) -> None:
    """The replica maps as temporary tables of ``con`` (each connection has its own)."""
    for name, data in tables.items():
        con.register(f"{name}_arrow", data)
        con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM {name}_arrow")
        con.unregister(f"{name}_arrow")


def _steps(con: duckdb.DuckDBPyConnection, ctx: Ctx, scale: int) -> list[Step]:
    """One step per table of ``ORDER`` (vendors and employees bring their identities along).

    A step waits for every earlier step that writes a table it reads or references (it must see
    those replicas) and for every earlier step that reads a table it writes (that one must not
    see them), so any schedule gives the rows of the one-by-one order."""
    parents: dict[str, set[str]] = {}
    for table, text in con.execute(
        "SELECT table_name, constraint_text FROM duckdb_constraints() WHERE database_name = current_database() "
        "AND schema_name = 'book' AND constraint_type = 'FOREIGN KEY'"
    ).fetchall():
        match = re.search(r"REFERENCES\s+(?:book\.)?\"?(\w+)", text)
        if match:
            parents.setdefault(table, set()).add(match.group(1))
    extra = {"vendors": ("vendor_identities",), "employees": ("employee_identities", "employee_tax_profiles")}
    base_rows = {t: len(rows) for t, rows in ctx.tables.items()}
    steps: list[Step] = []
    seen: list[tuple[str, set[str], set[str]]] = []
    for table in ORDER:
        sql = f"INSERT INTO book.{table} {_fill(_TABLES[table])}"
        writes = {table, *extra.get(table, ())}
        reads = set(re.findall(r"book\.(\w+)", _fill(_TABLES[table]))) - writes
        needs = reads | {p for w in writes for p in parents.get(w, ())}
        after = frozenset(name for name, w, r in seen if w & needs or r & writes)
        steps.append(
            Step(
                table,
                partial(_replicate_table, table=table, sql=sql, ctx=ctx),
                after,
                weight=float(base_rows.get(table, 0) + 1),
            )
        )
        seen.append((table, writes, reads))
    return steps


def _replicate_table(con: duckdb.DuckDBPyConnection, *, table: str, sql: str, ctx: Ctx) -> None:
    con.execute(sql)
    if table == "vendors":
        vi, _ei = ctx.notes["replica_identities"]
        insert_arrow(
            con,
            "vendor_identities",
            pa.table(
                {
                    k: [row[i] for row in vi]
                    for i, k in enumerate(("vendor_key", "system", "system_vendor_id", "spelled_name"))
                }
            ),
        )
    if table == "employees":
        _vi, ei = ctx.notes["replica_identities"]
        insert_arrow(
            con,
            "employee_identities",
            pa.table(
                {k: [row[i] for row in ei] for i, k in enumerate(("employee_id", "system", "system_employee_id"))}
            ),
        )
        _replica_profiles(con, ctx)


def replicate(con: duckdb.DuckDBPyConnection, ctx: Ctx, scale: int, workers: int | None = None) -> None:
    """Add ``scale - 1`` replicas of the loaded scale-1 universe (see the module docstring), the
    tables' inserts spread over ``workers`` connections (default: one per core)."""
    maps = _map_tables(ctx, scale)
    run_steps(con, _steps(con, ctx, scale), workers, setup=lambda cur: _create_maps(cur, maps))
    for name in maps:
        con.execute(f"DROP TABLE IF EXISTS temp.main.{name}")


def _replica_profiles(con: duckdb.DuckDBPyConnection, ctx: Ctx) -> None:
    """A replica employee keeps its base's withholding elections (its pay is the base's) and gets
    a home address of its own (its own stream)."""
    base = {p["employee_id"]: p for p in ctx.rows("employee_tax_profiles")}
    rows = []
    for emp, new in con.execute("SELECT employee_id, ne FROM _re ORDER BY r, employee_id").fetchall():
        b = base[emp]
        rows.append(
            {
                **employee_profile(ctx.inputs.seed, new, b["withholding_exemptions"]),
                "employee_id": new,
                "filing_status": b["filing_status"],
                "withholding_exemptions": b["withholding_exemptions"],
                "state_allowances": b["state_allowances"],
            }
        )
    cols = (
        "employee_id",
        "address",
        "city",
        "state",
        "zip",
        "filing_status",
        "withholding_exemptions",
        "state_allowances",
    )
    insert_arrow(
        con,
        "employee_tax_profiles",
        pa.table(
            {
                c: pa.array(
                    [r[c] for r in rows], type=pa.int32() if c.endswith(("exemptions", "allowances")) else pa.string()
                )
                for c in cols
            }
        ),
    )


def derive_pay_app_retainage(con: duckdb.DuckDBPyConnection) -> None:
    """G702 lines 5a / 5b for every owner pay application, from its G703 lines: each line's
    retainage on stored material is the application's rate on column F (never more than the
    line's retainage); the rest of the line's retainage is on completed work."""
    con.execute("""
        INSERT INTO book.owner_pay_app_retainage
        WITH app AS (
            SELECT a.job_number, a.app_number,
                   CASE WHEN c.retainage_step_down_pct IS NOT NULL
                         AND a.total_completed_stored * 100
                             >= c.step_down_at_pct * (a.original_contract_sum + a.net_change_orders)
                        THEN c.retainage_step_down_pct ELSE c.retainage_pct END AS pct
            FROM book.owner_pay_apps a JOIN book.prime_contracts c USING (job_number)
        ),
        lines AS (
            SELECT l.job_number, l.app_number, l.retainage,
                   least(round(l.materials_stored * app.pct * 0.01, 2), l.retainage) AS stored
            FROM book.owner_pay_app_lines l JOIN app USING (job_number, app_number)
        )
        SELECT app.job_number, app.app_number, app.pct,
               CAST(coalesce(sum(lines.retainage - lines.stored), 0) AS DECIMAL(18,2)),
               CAST(coalesce(sum(lines.stored), 0) AS DECIMAL(18,2))
        FROM app LEFT JOIN lines USING (job_number, app_number)
        GROUP BY app.job_number, app.app_number, app.pct
        ORDER BY 1, 2""")


def derive_bank_balances(con: duckdb.DuckDBPyConnection, ctx: Ctx) -> None:
    """Ledger balance per bank account at each month end of the window and at the clock:
    the opening balances (the opening entries' debits to the account's GL cash) plus bank activity."""
    dates = sorted({ctx.tl.period_end(m) for m in ctx.tl.months} | {ctx.clock})
    values = ", ".join(f"(DATE '{d.isoformat()}')" for d in dates)
    con.execute(f"""
        INSERT INTO book.bank_balances
        WITH d(as_of) AS (VALUES {values}),
        opening AS (
            SELECT a.bank_account_id,
                   coalesce(sum(l.debit - l.credit) FILTER (WHERE e.source_ref = 'OPENING'), 0) AS amt
            FROM book.bank_accounts a
            LEFT JOIN book.journal_lines l ON l.account = a.gl_account
            LEFT JOIN book.journal_entries e ON e.je_id = l.je_id
            GROUP BY a.bank_account_id
        ),
        daily AS (
            SELECT bank_account_id, posted_date, sum(amount) AS amt FROM book.bank_transactions GROUP BY ALL
        )
        SELECT a.bank_account_id, d.as_of,
               CAST(o.amt + coalesce(sum(t.amt), 0) AS DECIMAL(18,2)),
               CAST(o.amt + coalesce(sum(t.amt), 0) AS DECIMAL(18,2))
        FROM book.bank_accounts a CROSS JOIN d JOIN opening o USING (bank_account_id)
        LEFT JOIN daily t ON t.bank_account_id = a.bank_account_id AND t.posted_date <= d.as_of
        GROUP BY a.bank_account_id, d.as_of, o.amt
        ORDER BY 1, 2""")
