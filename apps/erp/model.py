"""The ERP archetype's logical model: one vendor-neutral description of every ERP table.

Each :class:`LTable` is a logical table (vendor master, AP batch header, posted journal line,
...) with logical columns of logical types and one canonical SELECT over the book that yields
those columns with canonical values (book job numbers, book status words, 'YYYY-MM' periods).
A vendor (``cfab.apps.erp.vendors``) maps each logical table it keeps onto a native table and
each logical column onto a native column; ``cfab.apps.erp.gen`` turns the pair into the
vendor's DDL, projection views, entity projections and write rules, and the archetype base
class (``cfab.apps.erp.base``) uses the same maps at run time. So the schema a vendor's tools
write and the schema its views fill cannot drift apart.

Logical types:
  text, int, money (DECIMAL(18,2)), pct (DECIMAL(9,4)), date, ts,
  vendor (the vendor's id type), job (a job id: book.system_job_id), bool (Y/N or BOOLEAN),
  period (DATE first-of-month, 'YYYY-MM' or 'YYYYMM'), docid (the vendor's document-id format),
  status:<domain> (the vendor's status words for a canonical word).

Canonical source placeholders: ``{sys}`` (the app name), ``{clock}`` (the injected clock).
"""

from __future__ import annotations

from dataclasses import dataclass

CLOCK = "(SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock')"


@dataclass(frozen=True)
class LCol:
    name: str
    type: str
    note: str = ""


@dataclass(frozen=True)
class LTable:
    name: str
    comment: str
    cols: tuple[LCol, ...]
    source: str | None = None  # canonical SELECT (None: starts empty)
    order: str = ""  # ORDER BY of the projection (deterministic row order)
    kind: str = "state"  # state|posted|unposted: drives the generated rules

    def col(self, name: str) -> LCol:
        for c in self.cols:
            if c.name == name:
                return c
        raise KeyError(f"logical table {self.name} has no column {name}")

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.cols]


def C(name: str, type_: str, note: str = "") -> LCol:
    return LCol(name, type_, note)


# ---------------------------------------------------------------------------------------------
# Shared canonical CTEs
# ---------------------------------------------------------------------------------------------
# Every (job, ERP phase, ERP cost type) the ERP knows: budget lines kept in the ERP, synced
# commitment lines, entered AP invoice lines, job-cost journal lines and approved CO lines.
PHASES = """
WITH used AS (
    SELECT b.job_number, b.cost_code FROM book.budget_lines b WHERE b.include_in_erp
    UNION SELECT c.job_number, l.cost_code FROM book.commitment_lines l
          JOIN book.commitments c USING (commitment_id) WHERE c.erp_synced
    UNION SELECT i.job_number, l.cost_code FROM book.ap_invoice_lines l
          JOIN book.ap_invoices i USING (invoice_id) WHERE i.erp_status IN ('unposted', 'posted')
    UNION SELECT jl.job_number, jl.cost_code FROM book.journal_lines jl
          JOIN book.gl_accounts a ON a.account = jl.account
          WHERE a.is_job_cost AND jl.job_number IS NOT NULL AND jl.cost_code IS NOT NULL
    UNION SELECT co.job_number, l.cost_code FROM book.change_order_lines l
          JOIN book.change_orders co USING (co_id)
          WHERE co.co_type IN ('owner', 'internal') AND co.status = 'approved'
),
phases AS (
    SELECT u.job_number, m.erp_phase, m.erp_cost_type,
           arg_min(cc.description, u.cost_code) AS description
    FROM used u
    JOIN book.erp_phase_map m ON m.cost_code = u.cost_code
    JOIN book.cost_codes cc ON cc.cost_code = u.cost_code
    GROUP BY u.job_number, m.erp_phase, m.erp_cost_type
)"""

# Entered AP invoices with their canonical numbering: doc_seq (one sequence over every entered
# invoice, so vendors that keep posted and unposted bills in one table never collide) and the
# batch coordinates of the unposted ones (one AP batch per month: BatchId = YYMM).
AP_DOCS = """
WITH docs AS (
    SELECT i.*, vi.system_vendor_id AS vendor_id,
           strftime(i.invoice_date, '%Y-%m') AS mth,
           row_number() OVER (ORDER BY i.invoice_date, i.vendor_key, i.invoice_number) AS doc_seq,
           row_number() OVER (PARTITION BY i.erp_status, strftime(i.invoice_date, '%Y-%m')
                              ORDER BY i.invoice_date, i.vendor_key, i.invoice_number) AS batch_seq,
           CAST(strftime(i.invoice_date, '%y%m') AS INTEGER) AS batch_id
    FROM book.ap_invoices i
    JOIN book.vendor_identities vi ON vi.vendor_key = i.vendor_key AND vi.system = '{sys}'
    WHERE i.erp_status IN ('unposted', 'posted')
)"""

JE_DOCS = """
WITH docs AS (
    SELECT je.*, row_number() OVER (ORDER BY je.entry_date, je.journal, je.je_number, je.je_id) AS doc_seq
    FROM book.journal_entries je
)"""

_JE_LINES = (
    JE_DOCS
    + """,
lines AS (
    SELECT d.doc_seq, d.period, d.journal, d.je_number, d.entry_date, d.auto_reverse, d.description AS je_description,
           jl.*, m.erp_phase, m.erp_cost_type, vi.system_vendor_id AS vendor_id{trans}
    FROM docs d
    JOIN book.journal_lines jl ON jl.je_id = d.je_id
    LEFT JOIN book.erp_phase_map m ON m.cost_code = jl.cost_code
    LEFT JOIN book.vendor_identities vi ON vi.vendor_key = jl.vendor_key AND vi.system = '{sys}'
)"""
)
# ``trans`` numbers every posted line in (period, doc_seq, line_no) order. A projection of a
# subset of the lines numbers its own rows in that same order (JE_LINES_UNNUMBERED), which
# gives the same numbers as ordering by ``trans`` and spares a window over every journal line.
JE_LINES = _JE_LINES.replace(
    "{trans}",
    """,
           row_number() OVER (ORDER BY d.period, d.doc_seq, jl.line_no) AS trans""",
)
JE_LINES_UNNUMBERED = _JE_LINES.replace("{trans}", "")

COMMITMENTS = """
SELECT c.commitment_id AS sub_id, c.number AS pm_number, c.job_number AS job_id, vi.system_vendor_id AS vendor_id,
       c.title AS description, c.status, c.original_amount AS orig_amount, c.approved_co_amount AS approved_co,
       c.amount AS current_amount, c.retainage_pct, c.executed_date
FROM book.commitments c
JOIN book.vendor_identities vi ON vi.vendor_key = c.vendor_key AND vi.system = '{sys}'
WHERE c.erp_synced AND c.commitment_type = '{ctype}'"""

COMMITMENT_ITEMS = """
SELECT c.commitment_id AS sub_id, l.line_no AS item, c.job_number AS job_id, m.erp_phase AS phase,
       m.erp_cost_type AS cost_type, l.description, l.amount
FROM book.commitment_lines l
JOIN book.commitments c USING (commitment_id)
JOIN book.vendor_identities vi ON vi.vendor_key = c.vendor_key AND vi.system = '{sys}'
JOIN book.erp_phase_map m ON m.cost_code = l.cost_code
WHERE c.erp_synced AND c.commitment_type = '{ctype}'"""

_AP_HDR_COLS = (
    C("co", "int"),
    C("mth", "period"),
    C("batch_id", "int"),
    C("batch_seq", "int"),
    C("doc_id", "docid"),
    C("vendor_id", "vendor"),
    C("apref", "text", "the vendor's invoice number"),
    C("description", "text"),
    C("inv_date", "date"),
    C("due_date", "date"),
    C("gl_date", "date", "GL posting date"),
    C("job_id", "job"),
    C("sub_id", "text", "commitment (subcontract/PO) the invoice bills"),
    C("gross", "money"),
    C("retainage", "money"),
    C("net", "money"),
    C("status", "status:ap"),
    C("source", "text"),
    C("source_ref", "text"),
    C("created_date", "date"),
)
_AP_HDR_POSTED = _AP_HDR_COLS + (
    C("paid_amount", "money"),
    C("pay_status", "status:pay"),
    C("pay_hold", "bool", "held from payment at the invoice (a disputed invoice)"),
    C("pay_hold_reason", "text"),
)

AP_HDR_SELECT = (
    AP_DOCS
    + """
SELECT 1 AS co, d.mth, d.batch_id, d.batch_seq, d.doc_seq AS doc_id, d.vendor_id, d.invoice_number AS apref,
       d.description, d.invoice_date AS inv_date, d.due_date, d.invoice_date AS gl_date, d.job_number AS job_id,
       d.commitment_id AS sub_id, d.gross_amount AS gross, d.retainage_amount AS retainage, d.net_amount AS net,
       d.erp_status AS status, CASE WHEN d.erp_synced THEN 'procore' ELSE 'manual' END AS source,
       CASE WHEN d.erp_synced THEN d.invoice_id END AS source_ref, d.invoice_date AS created_date,
       d.paid_amount,
       CASE WHEN d.paid_amount = 0 THEN 'open' WHEN d.paid_amount >= d.net_amount THEN 'paid' ELSE 'partial' END AS pay_status,
       x.invoice_id IS NOT NULL AS pay_hold, 'Disputed: ' || x.reason AS pay_hold_reason
FROM docs d LEFT JOIN book.ap_invoice_disputes x ON x.invoice_id = d.invoice_id
WHERE d.erp_status = '{status}'"""  # noqa: E501
)

_AP_LINE_COLS = (
    C("co", "int"),
    C("mth", "period"),
    C("batch_id", "int"),
    C("batch_seq", "int"),
    C("doc_id", "docid"),
    C("line_no", "int"),
    C("job_id", "job"),
    C("phase", "text"),
    C("cost_type", "int"),
    C("sub_id", "text"),
    C("sub_item", "int"),
    C("description", "text"),
    C("gross", "money"),
    C("retainage", "money"),
    C("net", "money"),
)

AP_LINE_SELECT = (
    AP_DOCS
    + """
SELECT 1 AS co, d.mth, d.batch_id, d.batch_seq, d.doc_seq AS doc_id, l.line_no, d.job_number AS job_id,
       m.erp_phase AS phase, m.erp_cost_type AS cost_type, d.commitment_id AS sub_id,
       l.commitment_line_no AS sub_item, l.description, l.amount AS gross, l.retainage,
       l.amount - l.retainage AS net
FROM docs d
JOIN book.ap_invoice_lines l ON l.invoice_id = d.invoice_id
JOIN book.erp_phase_map m ON m.cost_code = l.cost_code
WHERE d.erp_status = '{status}'"""
)

_JE_HDR_COLS = (
    C("co", "int"),
    C("mth", "period"),
    C("batch_id", "int"),
    C("doc_id", "docid"),
    C("jrnl", "text"),
    C("ref", "text", "the entry's reference number"),
    C("description", "text"),
    C("act_date", "date"),
    C("status", "status:je"),
    C("auto_reverse", "bool"),
    C("created_by", "text"),
    C("created_date", "date"),
    C("source_ref", "text"),
)
_JE_LINE_COLS = (
    C("co", "int"),
    C("mth", "period"),
    C("batch_id", "int"),
    C("doc_id", "docid"),
    C("line_no", "int"),
    C("trans", "int"),
    C("jrnl", "text"),
    C("ref", "text"),
    C("act_date", "date"),
    C("account", "text"),
    C("job_id", "job"),
    C("phase", "text"),
    C("cost_type", "int"),
    C("vendor_id", "vendor"),
    C("description", "text"),
    C("debit", "money"),
    C("credit", "money"),
    C("amount", "money", "signed: debit positive, credit negative"),
    C("tr_type", "int", "1 debit, -1 credit"),
    C("abs_amount", "money", "unsigned amount"),
)

# each line table's header table (posting and closing rules cascade from header to lines)
HEADER_OF = {
    "ap_open_line": "ap_open_hdr",
    "ap_line": "ap_hdr",
    "je_open_line": "je_open_hdr",
    "je_line": "je_hdr",
    "sub_item": "sub_hdr",
    "po_item": "po_hdr",
    "co_item": "co_hdr",
    "contract_item": "contract",
}

TABLES: dict[str, LTable] = {}


def _add(t: LTable) -> None:
    TABLES[t.name] = t


_add(
    LTable(
        "vendor",
        "vendor master: ids and spellings as this ERP keeps them, 1099 settings, payment hold",
        (
            C("co", "int"),
            C("vendor_id", "vendor"),
            C("name", "text"),
            C("sort_name", "text"),
            C("vendor_type", "status:vendor_type"),
            C("tin", "text"),
            C("is_1099", "bool"),
            C("type_1099", "text"),
            C("active", "bool"),
            C("terms", "text"),
            C("address", "text"),
            C("city", "text"),
            C("state", "text"),
            C("zip", "text"),
            C("phone", "text"),
            C("email", "text"),
            C("hold", "bool"),
            C("hold_reason", "text"),
            C("eft", "bool", "remittance by ACH (electronic funds transfer)"),
            C("bank_name", "text"),
            C("bank_routing", "text", "ABA routing number of the remittance account"),
            C("bank_account", "text", "remittance account number"),
            C("bank_account_type", "text", "checking|savings"),
        ),
        """
SELECT 1 AS co, vi.system_vendor_id AS vendor_id, vi.spelled_name AS name,
       upper(left(regexp_replace(vi.spelled_name, '[^A-Za-z0-9]', '', 'g'), 15)) AS sort_name,
       v.vendor_type, v.tin,
       ((v.entity_type NOT IN ('s_corporation', 'c_corporation') OR v.is_attorney) AND NOT v.materials_only) AS is_1099,
       CASE WHEN (v.entity_type NOT IN ('s_corporation', 'c_corporation') OR v.is_attorney) AND NOT v.materials_only
            THEN 'NEC' END AS type_1099,
       v.status = 'active' AS active, v.payment_terms AS terms, v.address, v.city, v.state, v.zip, v.phone, v.email,
       h.vendor_key IS NOT NULL AS hold, h.reason AS hold_reason,
       rm.vendor_key IS NOT NULL AS eft, rm.bank_name, rm.routing_number AS bank_routing,
       rm.account_number AS bank_account, rm.account_type AS bank_account_type
FROM book.vendor_identities vi JOIN book.vendors v USING (vendor_key)
LEFT JOIN book.vendor_remittance rm USING (vendor_key)
LEFT JOIN book.vendor_payment_holds h USING (vendor_key)
WHERE vi.system = '{sys}'""",
        "vendor_id",
    )
)

_add(
    LTable(
        "hold_code",
        "payment hold codes",
        (C("co", "int"), C("hold_code", "text"), C("description", "text")),
        """
SELECT 1 AS co, h.hold_code, h.description FROM (VALUES
    ('COI', 'Certificate of insurance expired or missing'), ('LIEN', 'Lien waiver missing'),
    ('W9', 'W-9 / TIN not on file'), ('DISP', 'Disputed invoice'), ('MGMT', 'Management hold'))
    AS h(hold_code, description)""",
        "hold_code",
    )
)

_add(
    LTable(
        "vendor_hold",
        "payment holds placed on vendors (one row per vendor and hold code)",
        (
            C("co", "int"),
            C("vendor_id", "vendor"),
            C("hold_code", "text"),
            C("notes", "text"),
            C("added_date", "date"),
        ),
        """
SELECT 1 AS co, vi.system_vendor_id AS vendor_id, h.hold_code, h.reason AS notes, h.placed_date AS added_date
FROM book.vendor_payment_holds h
JOIN book.vendor_identities vi ON vi.vendor_key = h.vendor_key AND vi.system = '{sys}'""",
        "vendor_id, hold_code",
    )
)

_add(
    LTable(
        "job",
        "job master: one row per job; the ERP's estimated cost to complete and its projection status",
        (
            C("co", "int"),
            C("job_id", "job"),
            C("name", "text"),
            C("status", "status:job"),
            C("contract_id", "job"),
            C("project_manager", "text"),
            C("start_date", "date"),
            C("est_completion_date", "date"),
            C("address", "text"),
            C("city", "text"),
            C("state", "text"),
            C("prevailing_wage", "bool"),
            C("etc_amount", "money"),
            C("etc_status", "status:proj"),
            C("etc_date", "date"),
            C("etc_by", "text"),
        ),
        f"""
SELECT 1 AS co, j.job_number AS job_id, j.name, j.status, j.job_number AS contract_id, j.project_manager,
       j.start_date, j.est_completion_date, j.address, j.city, j.state, j.is_prevailing_wage AS prevailing_wage,
       j.erp_est_cost_to_complete AS etc_amount, 'posted' AS etc_status,
       CAST(date_trunc('month', {CLOCK}) - INTERVAL 1 DAY AS DATE) AS etc_date, j.project_manager AS etc_by
FROM book.jobs j""",
        "job_id",
    )
)

_add(
    LTable(
        "contract",
        "prime (owner) contracts: original and current value (original + approved owner COs)",
        (
            C("co", "int"),
            C("contract_id", "job"),
            C("contract_number", "text"),
            C("description", "text"),
            C("customer", "text"),
            C("orig_amount", "money"),
            C("current_amount", "money"),
            C("retainage_pct", "pct"),
            C("start_date", "date"),
            C("status", "status:contract"),
        ),
        """
SELECT 1 AS co, pc.job_number AS contract_id, pc.contract_number, j.name AS description, o.name AS customer,
       pc.original_amount AS orig_amount,
       pc.original_amount + coalesce((SELECT sum(co.amount) FROM book.change_orders co
                                      WHERE co.job_number = pc.job_number AND co.co_type = 'owner'
                                        AND co.increases_contract AND co.status = 'approved'), 0) AS current_amount,
       pc.retainage_pct, pc.executed_date AS start_date, pc.status
FROM book.prime_contracts pc JOIN book.jobs j USING (job_number) JOIN book.owners o ON o.owner_id = pc.owner_id""",
        "contract_id",
    )
)

_add(
    LTable(
        "contract_item",
        "prime contract items (the owner schedule of values)",
        (
            C("co", "int"),
            C("contract_id", "job"),
            C("item", "text"),
            C("description", "text"),
            C("orig_amount", "money"),
            C("current_amount", "money"),
            C("retainage_pct", "pct"),
        ),
        """
SELECT 1 AS co, s.job_number AS contract_id, s.item_number AS item, s.description,
       CASE WHEN s.source = 'original' THEN s.scheduled_value ELSE 0 END AS orig_amount,
       s.scheduled_value AS current_amount, pc.retainage_pct
FROM book.prime_sov_lines s JOIN book.prime_contracts pc USING (job_number)""",
        "contract_id, item",
    )
)

_add(
    LTable(
        "job_phase",
        "phases set up on each job",
        (
            C("co", "int"),
            C("job_id", "job"),
            C("phase", "text"),
            C("description", "text"),
            C("contract_id", "job"),
            C("active", "bool"),
        ),
        PHASES
        + """
SELECT 1 AS co, job_number AS job_id, erp_phase AS phase, arg_min(description, erp_cost_type) AS description,
       job_number AS contract_id, true AS active
FROM phases GROUP BY job_number, erp_phase""",
        "job_id, phase",
    )
)

_add(
    LTable(
        "budget",
        "job cost budget per phase and cost type: original, approved changes, revised, the ERP's estimate to complete",
        (
            C("co", "int"),
            C("job_id", "job"),
            C("phase", "text"),
            C("cost_type", "int"),
            C("description", "text"),
            C("orig_budget", "money"),
            C("approved_changes", "money"),
            C("revised_budget", "money"),
            C("etc_amount", "money"),
            C("proj_status", "status:proj"),
        ),
        PHASES
        + """,
budget AS (
    SELECT b.job_number, m.erp_phase, m.erp_cost_type, sum(b.original_budget) AS orig_budget,
           sum(b.approved_changes) AS approved_changes, sum(b.revised_budget) AS revised_budget,
           sum(b.erp_estimate) AS etc_amount
    FROM book.budget_lines b JOIN book.erp_phase_map m ON m.cost_code = b.cost_code
    WHERE b.include_in_erp GROUP BY ALL
)
SELECT 1 AS co, p.job_number AS job_id, p.erp_phase AS phase, p.erp_cost_type AS cost_type, p.description,
       coalesce(b.orig_budget, 0) AS orig_budget, coalesce(b.approved_changes, 0) AS approved_changes,
       coalesce(b.revised_budget, 0) AS revised_budget, coalesce(b.etc_amount, 0) AS etc_amount,
       'posted' AS proj_status
FROM phases p LEFT JOIN budget b ON b.job_number = p.job_number AND b.erp_phase = p.erp_phase
                                 AND b.erp_cost_type = p.erp_cost_type""",
        "job_id, phase, cost_type",
    )
)

_add(
    LTable(
        "cost_detail",
        "posted job cost detail (actual cost transactions by job, phase and cost type)",
        (
            C("co", "int"),
            C("mth", "period"),
            C("trans", "int"),
            C("job_id", "job"),
            C("phase", "text"),
            C("cost_type", "int"),
            C("act_date", "date"),
            C("source", "text"),
            C("description", "text"),
            C("vendor_id", "vendor"),
            C("ref", "text"),
            C("amount", "money"),
        ),
        JE_LINES_UNNUMBERED
        + """
SELECT 1 AS co, l.period AS mth, row_number() OVER (ORDER BY l.period, l.doc_seq, l.line_no) AS trans,
       l.job_number AS job_id,
       l.erp_phase AS phase, l.erp_cost_type AS cost_type, l.entry_date AS act_date, l.journal AS source,
       coalesce(l.memo, l.je_description) AS description, l.vendor_id, l.je_number AS ref,
       l.debit - l.credit AS amount
FROM lines l JOIN book.gl_accounts a ON a.account = l.account
WHERE a.is_job_cost AND l.job_number IS NOT NULL AND l.erp_phase IS NOT NULL""",
        "trans",
        kind="posted",
    )
)  # noqa: E501

for _kind, _ctype in (("sub", "subcontract"), ("po", "purchase_order")):
    _what = "subcontracts" if _kind == "sub" else "purchase orders"
    _add(
        LTable(
            f"{_kind}_hdr",
            f"{_what} (synced commitments only)",
            (
                C("co", "int"),
                C("sub_id", "text"),
                C("pm_number", "text"),
                C("job_id", "job"),
                C("vendor_id", "vendor"),
                C("description", "text"),
                C("status", "status:commit"),
                C("orig_amount", "money"),
                C("approved_co", "money"),
                C("current_amount", "money"),
                C("retainage_pct", "pct"),
                C("executed_date", "date"),
                C("source_ref", "text"),
            ),
            "SELECT 1 AS co, s.*, s.sub_id AS source_ref FROM (" + COMMITMENTS.replace("{ctype}", _ctype) + ") s",
            "sub_id",
        )
    )
    _add(
        LTable(
            f"{_kind}_item",
            f"{_what} items by phase and cost type",
            (
                C("co", "int"),
                C("sub_id", "text"),
                C("item", "int"),
                C("job_id", "job"),
                C("phase", "text"),
                C("cost_type", "int"),
                C("description", "text"),
                C("amount", "money"),
            ),
            "SELECT 1 AS co, s.* FROM (" + COMMITMENT_ITEMS.replace("{ctype}", _ctype) + ") s",
            "sub_id, item",
        )
    )

_add(
    LTable(
        "ap_open_hdr",
        "UNPOSTED AP invoices (entered, awaiting posting)",
        _AP_HDR_COLS,
        AP_HDR_SELECT.replace("{status}", "unposted"),
        "doc_id",
        kind="unposted",
    )
)
_add(
    LTable(
        "ap_open_line",
        "lines of unposted AP invoices",
        _AP_LINE_COLS,
        AP_LINE_SELECT.replace("{status}", "unposted"),
        "doc_id, line_no",
        kind="unposted",
    )
)
_add(
    LTable(
        "ap_hdr",
        "POSTED AP invoices",
        _AP_HDR_POSTED,
        AP_HDR_SELECT.replace("{status}", "posted"),
        "doc_id",
        kind="posted",
    )
)
_add(
    LTable(
        "ap_line",
        "lines of posted AP invoices",
        _AP_LINE_COLS,
        AP_LINE_SELECT.replace("{status}", "posted"),
        "doc_id, line_no",
        kind="posted",
    )
)

_add(LTable("je_open_hdr", "UNPOSTED (draft) journal entry batches", _JE_HDR_COLS, kind="unposted"))
_add(LTable("je_open_line", "lines of unposted journal entry batches", _JE_LINE_COLS, kind="unposted"))
_add(
    LTable(
        "je_hdr",
        "POSTED journal entries (GL history)",
        _JE_HDR_COLS,
        JE_DOCS
        + """
SELECT 1 AS co, d.period AS mth, CAST(NULL AS INTEGER) AS batch_id, d.doc_seq AS doc_id, d.journal AS jrnl,
       d.je_number AS ref, d.description, d.entry_date AS act_date, 'posted' AS status, d.auto_reverse,
       'system' AS created_by, d.entry_date AS created_date, d.source_ref
FROM docs d""",
        "doc_id",
        kind="posted",
    )
)
_add(
    LTable(
        "je_line",
        "POSTED journal lines (GL detail)",
        _JE_LINE_COLS,
        JE_LINES
        + """
SELECT 1 AS co, l.period AS mth, CAST(NULL AS INTEGER) AS batch_id, l.doc_seq AS doc_id, l.line_no, l.trans,
       l.journal AS jrnl, l.je_number AS ref, l.entry_date AS act_date, l.account, l.job_number AS job_id,
       l.erp_phase AS phase, l.erp_cost_type AS cost_type, l.vendor_id,
       coalesce(l.memo, l.je_description) AS description,
       l.debit, l.credit, l.debit - l.credit AS amount, CASE WHEN l.debit > 0 THEN 1 ELSE -1 END AS tr_type,
       abs(l.debit - l.credit) AS abs_amount
FROM lines l""",
        "trans",
        kind="posted",
    )
)  # noqa: E501

_add(
    LTable(
        "gl_account",
        "chart of accounts",
        (
            C("co", "int"),
            C("account", "text"),
            C("description", "text"),
            C("acct_type", "status:acct_type"),
            C("normal_balance", "text"),
            C("active", "bool"),
            C("is_job_cost", "bool"),
            C("is_control", "bool"),
        ),
        """
SELECT 1 AS co, a.account, a.name AS description, a.account_type AS acct_type, a.normal_balance, true AS active,
       a.is_job_cost, a.is_control FROM book.gl_accounts a""",
        "account",
    )
)

_add(
    LTable(
        "fiscal_period",
        "fiscal periods (months) and whether they are open or closed",
        (
            C("co", "int"),
            C("mth", "period"),
            C("start_date", "date"),
            C("end_date", "date"),
            C("fiscal_year", "int"),
            C("status", "status:period"),
        ),
        """
SELECT 1 AS co, p.period AS mth, p.start_date, p.end_date, year(p.start_date) AS fiscal_year, p.status
FROM book.gl_periods p""",
        "mth",
    )
)

_CO_SRC = """
WITH cos AS (
    SELECT co.*,
           row_number() OVER (PARTITION BY co.job_number ORDER BY co.approved_date NULLS LAST, co.co_id) AS seq
    FROM book.change_orders co
    WHERE co.co_type IN ('owner', 'internal') AND co.status IN ('approved', 'pending')
)"""
_add(
    LTable(
        "co_hdr",
        "job change orders: owner COs (contract and budget) and internal transfers (budget only)",
        (
            C("co", "int"),
            C("job_id", "job"),
            C("co_number", "text"),
            C("description", "text"),
            C("co_kind", "status:co_kind"),
            C("increases_contract", "bool"),
            C("contract_amount", "money"),
            C("budget_amount", "money"),
            C("status", "status:co"),
            C("approved_date", "date"),
            C("change_event", "int"),
            C("created_date", "date"),
            C("source_ref", "text"),
        ),
        _CO_SRC
        + """
SELECT 1 AS co, c.job_number AS job_id, lpad(CAST(c.seq AS VARCHAR), 3, '0') AS co_number, c.description,
       c.co_type AS co_kind, c.increases_contract,
       CASE WHEN c.increases_contract THEN c.amount ELSE 0 END AS contract_amount, c.amount AS budget_amount,
       c.status, c.approved_date, ce.number AS change_event, c.approved_date AS created_date, c.co_id AS source_ref
FROM cos c LEFT JOIN book.change_events ce ON ce.change_event_id = c.change_event_id""",
        "job_id, co_number",
    )
)

_add(
    LTable(
        "co_item",
        "change order items: budget change per phase/cost type and the contract change",
        (
            C("co", "int"),
            C("job_id", "job"),
            C("co_number", "text"),
            C("item", "int"),
            C("phase", "text"),
            C("cost_type", "int"),
            C("description", "text"),
            C("budget_amount", "money"),
            C("contract_amount", "money"),
        ),
        _CO_SRC
        + """
SELECT 1 AS co, c.job_number AS job_id, lpad(CAST(c.seq AS VARCHAR), 3, '0') AS co_number, l.line_no AS item,
       m.erp_phase AS phase, m.erp_cost_type AS cost_type, cc.description, l.amount AS budget_amount,
       CASE WHEN c.increases_contract THEN l.amount ELSE 0 END AS contract_amount
FROM cos c JOIN book.change_order_lines l ON l.co_id = c.co_id
JOIN book.erp_phase_map m ON m.cost_code = l.cost_code JOIN book.cost_codes cc ON cc.cost_code = l.cost_code""",
        "job_id, co_number, item",
    )
)

_add(
    LTable(
        "check",
        "the issued-check register (AP and payroll checks as printed)",
        (
            C("co", "int"),
            C("bank_acct", "text"),
            C("check_number", "int"),
            C("mth", "period"),
            C("issue_date", "date"),
            C("vendor_id", "vendor"),
            C("payee_name", "text"),
            C("amount", "money"),
            C("status", "status:check"),
            C("cleared_date", "date"),
            C("check_kind", "text"),
        ),
        """
SELECT 1 AS co, k.bank_account_id AS bank_acct, k.check_number, strftime(k.issue_date, '%Y-%m') AS mth,
       k.issue_date, vi.system_vendor_id AS vendor_id, k.payee_name, k.amount, k.status, k.cleared_date,
       CASE WHEN k.payee_vendor_key IS NULL THEN 'PR' ELSE 'AP' END AS check_kind
FROM book.checks k
LEFT JOIN book.vendor_identities vi ON vi.vendor_key = k.payee_vendor_key AND vi.system = '{sys}'""",
        "bank_acct, check_number",
        kind="posted",
    )
)

_add(
    LTable(
        "check_detail",
        "which AP invoices each check paid",
        (
            C("co", "int"),
            C("bank_acct", "text"),
            C("check_number", "int"),
            C("vendor_id", "vendor"),
            C("apref", "text"),
            C("amount", "money"),
        ),
        """
SELECT 1 AS co, k.bank_account_id AS bank_acct, k.check_number, vi.system_vendor_id AS vendor_id,
       i.invoice_number AS apref, a.amount
FROM book.check_applications a
JOIN book.checks k USING (check_id)
JOIN book.ap_invoices i USING (invoice_id)
JOIN book.vendor_identities vi ON vi.vendor_key = i.vendor_key AND vi.system = '{sys}'
WHERE i.erp_status IN ('unposted', 'posted')""",
        "bank_acct, check_number, apref",
        kind="posted",
    )
)

# Canonical status words per domain (the vendor maps each to its own word).
STATUS_DOMAINS: dict[str, tuple[str, ...]] = {
    "vendor_type": ("subcontractor", "supplier", "professional", "service"),
    "job": ("active", "closed"),
    "proj": ("posted", "pending"),
    "contract": ("executed", "closed"),
    "commit": ("approved", "draft", "closed"),
    "ap": ("unposted", "posted"),
    "pay": ("open", "partial", "paid"),
    "je": ("unposted", "posted"),
    "acct_type": ("asset", "liability", "equity", "revenue", "expense"),
    "period": ("open", "closed"),
    "co_kind": ("owner", "internal"),
    "co": ("pending", "approved"),
    "check": ("issued", "cleared", "void"),
}
