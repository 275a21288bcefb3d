"""What each task family needs is planted in the scale-1 book, and computed rather than typed."""

from __future__ import annotations

import re
import tomllib
from datetime import date, timedelta
from decimal import Decimal
from importlib import resources

import duckdb

from cfab.seeds import held_out
from cfab.seeds.vendor_bank_change import KINDS, aba_check_digit
from tests.seeds.seeds_helpers import CLOCK, one, rows

EXPIRED = ("V1000", "V1002", "V1003", "V1006", "V1007")
SYNC_JOBS = ("1042", "2014", "2041", "2200", "3100", "4012")
ACCRUAL_JOBS = ("1042", "2014", "2200", "3100", "3412", "4012")
AIA_JOBS = ("1042", "1990", "2014", "2200", "3100", "3412")
CERT_JOBS = ("1042", "2041", "2014", "2200", "1990", "3100")
ID_FORMATS = {
    "procore": r"\d{7}",
    "vista_erp": r"\d{5}",
    "sage_intacct": r"V\d{4}",
    "foundation_erp": r"F\d{4}",
    "cmic": r"SUB\d{5}",
    "acumatica_construction": r"AC\d{6}",
    "sage300cre": r"[A-Z0-9]{6}",
    "qbo": r"\d{1,3}",
    "computerease": r"\d{4}",
    "levelset": r"LS-\d{6}",
    "lcptracker": r"C\d{5}",
    "gcpay": r"GCP-\d{5}",
    "track1099": r"P\d{6}",
    "corpay": r"CPV\d{7}",
    "redteam": r"RTV\d{5}",
    "ingenious_build": r"IBV-\d{6}",
    "ressio": r"RS\d{5}",
    "smartbuild": r"SB-V\d{5}",
}


def test_coi_hold_plants(book: duckdb.DuckDBPyConnection) -> None:
    gl = dict(
        rows(
            book,
            """SELECT vendor_key, expiry_date FROM book.certificates_of_insurance
                            WHERE is_current AND coverage_type = 'general_liability'""",
        )
    )
    stale = {r[0] for r in rows(book, "SELECT entity_key FROM book.divergences WHERE kind = 'coi_status_stale'")}
    held = stale - set(EXPIRED)  # the held-out partition's plants (seeds/held_out.py)
    assert set(EXPIRED) <= stale and len(held) == held_out.COI_COUNT
    for key in sorted(stale):
        assert CLOCK - timedelta(days=60) <= gl[key] < CLOCK, key
    bad = rows(
        book,
        """SELECT c.vendor_key FROM book.certificates_of_insurance c JOIN book.vendors v USING (vendor_key)
                        WHERE c.is_current AND c.expiry_date < ? AND v.vendor_key NOT IN ?""",
        CLOCK,
        sorted(stale),
    )
    assert bad == []
    subs = {r[0] for r in rows(book, "SELECT vendor_key FROM book.vendors WHERE vendor_type = 'subcontractor'")}
    assert subs <= set(gl)
    names = dict(rows(book, "SELECT vendor_key, legal_name FROM book.vendors"))
    for key in EXPIRED:
        stem = names[key].split()[0]
        looks = [k for k, n in names.items() if k != key and n.split()[0] == stem]
        assert looks and all(gl.get(k, date.min) > CLOCK for k in looks), key
    committed = {r[0] for r in rows(book, "SELECT DISTINCT vendor_key FROM book.commitments")}
    for key in held:  # a similarly named vendor (its stem as a word, as C_coi_hold's query); no commitment
        word = re.compile(r"\b" + re.escape(names[key].split(" ")[0]) + r"\b", re.IGNORECASE)
        assert [k for k, n in names.items() if k != key and word.search(n)], key
        assert key not in committed, key


def test_vendor_identities(book: duckdb.DuckDBPyConnection) -> None:
    ids = rows(book, "SELECT vendor_key, system, system_vendor_id, spelled_name FROM book.vendor_identities")
    n_vendors = one(book, "SELECT count(*) FROM book.vendors")
    assert len(ids) == 18 * n_vendors
    for key, system, sid, _name in ids:
        assert re.fullmatch(ID_FORMATS[system], sid), (system, sid)
        if system == "sage_intacct":
            assert sid == key
    legal = dict(rows(book, "SELECT vendor_key, legal_name FROM book.vendors"))
    spelled = {(k, s): n for k, s, _i, n in ids if n != legal[k]}
    registered = {
        (r[0], r[1])
        for r in rows(
            book,
            """SELECT entity_key, apps FROM book.divergences
               WHERE kind IN ('vendor_spelling', 'levelset_trade_name')""",  # the latter R_lien_waiver_audit's
        )
    }
    assert set(spelled) == registered
    fragmented = {k for k, _s in spelled}
    assert set(EXPIRED) <= fragmented and len(fragmented) >= 5
    for key in EXPIRED:
        assert len({n for (k, s), n in spelled.items() if k == key}) >= 2
        assert all(spelled.get((key, s), legal[key]) == legal[key] for s in ("procore", "sage_intacct"))


def test_sync_mix(book: duckdb.DuckDBPyConnection) -> None:
    mix = {
        r[0]: r[1:]
        for r in rows(
            book,
            """
        SELECT job_number, count(*) FILTER (WHERE pm_status = 'approved' AND NOT erp_synced),
               count(*) FILTER (WHERE erp_synced AND erp_status IN ('unposted', 'posted')),
               count(*) FILTER (WHERE pm_status = 'under_review'), count(*) FILTER (WHERE pm_status = 'draft')
        FROM book.ap_invoices WHERE invoice_date > ? AND commitment_id LIKE 'SC-%' GROUP BY 1""",
            CLOCK - timedelta(days=30),
        )
    }
    for job in SYNC_JOBS:
        unsynced, synced, review, draft = mix[job]
        assert unsynced >= 2 and synced >= 1 and review >= 1 and draft >= 1, job
    unsynced_ids = {
        r[0]
        for r in rows(
            book,
            """SELECT invoice_id FROM book.ap_invoices
                                                WHERE pm_status = 'approved' AND NOT erp_synced AND commitment_id LIKE 'SC-%'""",
        )
    }
    registered = {r[0] for r in rows(book, "SELECT entity_key FROM book.divergences WHERE kind = 'unsynced_invoice'")}
    assert unsynced_ids == registered


def test_accrual_and_billed_ahead(book: duckdb.DuckDBPyConnection) -> None:
    per = rows(
        book,
        """
        WITH c AS (
            SELECT c.job_number, c.commitment_id,
                   (SELECT sum(work_completed) FROM book.commitment_lines l WHERE l.commitment_id = c.commitment_id) AS work,
                   coalesce((SELECT sum(gross_amount) FROM book.ap_invoices i
                             WHERE i.commitment_id = c.commitment_id AND i.pm_status = 'approved'), 0) AS billed
            FROM book.commitments c WHERE c.commitment_type = 'subcontract')
        SELECT job_number, sum(greatest(work - billed, 0)), count(*) FILTER (WHERE billed > work)
        FROM c WHERE job_number IN ? GROUP BY 1""",
        list(ACCRUAL_JOBS),
    )
    assert len(per) == 6 and all(accrual > 0 for _j, accrual, _n in per)
    assert sum(1 for *_x, ahead in per if ahead) >= 2


def test_aia_plants(book: duckdb.DuckDBPyConnection) -> None:
    apps = rows(
        book,
        "SELECT job_number, app_number, status, period_end FROM book.owner_pay_apps WHERE job_number IN ?",
        list(AIA_JOBS),
    )
    assert sorted(a[0] for a in apps) == sorted(AIA_JOBS)
    assert all(a[1] == 1 and a[2] == "certified" and a[3] == date(2025, 12, 31) for a in apps)
    assert one(book, "SELECT count(DISTINCT as_of) FROM book.sov_progress WHERE job_number IN ?", list(AIA_JOBS)) == 2
    crossing = rows(
        book,
        """
        SELECT a.job_number FROM book.owner_pay_apps a JOIN book.prime_contracts p USING (job_number)
        WHERE a.job_number IN ? AND a.app_number = 1 AND p.retainage_step_down_pct = 5 AND p.step_down_at_pct = 50
          AND a.total_completed_stored * 2 < a.original_contract_sum + a.net_change_orders
          AND (SELECT sum(sp.work_completed + sp.materials_stored) * 2 FROM book.sov_progress sp
               WHERE sp.job_number = a.job_number AND sp.as_of = ?)
              >= (SELECT sum(scheduled_value) FROM book.prime_sov_lines s WHERE s.job_number = a.job_number)""",
        list(AIA_JOBS),
        CLOCK,
    )
    assert crossing
    new_lines = rows(
        book,
        """SELECT s.job_number FROM book.prime_sov_lines s JOIN book.change_orders o USING (co_id)
                              WHERE s.job_number IN ? AND o.status = 'approved' AND o.approved_date > DATE '2025-12-31'""",
        list(AIA_JOBS),
    )
    assert new_lines


def test_certified_payroll_plants(book: duckdb.DuckDBPyConnection) -> None:
    subs = rows(book, "SELECT job_number, status, week_ending FROM book.certified_payrolls")
    extra = {s[0] for s in subs} - set(CERT_JOBS)  # seeds/cert_extra.py: the other prevailing-wage jobs
    assert set(CERT_JOBS) <= {s[0] for s in subs} and extra
    assert all(s[1] == "draft" and s[2] == date(2026, 1, 24) for s in subs)
    flags = rows(
        book,
        """SELECT split_part(divergence_id, ':', 3), reason FROM book.divergences
                          WHERE kind = 'certified_payroll_exception'""",
    )
    further = [r for r in flags if r[0].split("-")[1] in extra]
    assert sorted(r[0].split("-")[1] for r in further) == sorted(extra)  # one misclassified line each
    assert {r[1].rsplit(": ", 1)[1] for r in further} == {"misclassification"}
    flags = [r for r in flags if r not in further]
    codes = {r[1].rsplit(": ", 1)[1] for r in flags}
    assert codes == {"underpaid_rate", "fringe_short", "apprentice_over_ratio", "apprentice_unregistered"}
    flagged_jobs = {r[0].split("-")[1] for r in flags}
    assert len(set(CERT_JOBS) - flagged_jobs) >= 1  # some submissions are clean
    unregistered = rows(
        book,
        """SELECT l.employee_id FROM book.certified_payroll_lines l
                                 WHERE l.level = 'apprentice' AND l.apprentice_registration IS NULL""",
    )
    assert len(unregistered) == 1


def test_1099_plants(book: duckdb.DuckDBPyConnection) -> None:
    paid = rows(
        book,
        """
        SELECT v.vendor_key, v.tin, v.entity_type, v.is_attorney, v.materials_only, sum(a.amount)
        FROM book.check_applications a JOIN book.checks c USING (check_id)
        JOIN book.ap_invoices i USING (invoice_id) JOIN book.vendors v ON v.vendor_key = i.vendor_key
        WHERE c.status <> 'void' AND year(c.issue_date) = 2025 GROUP BY ALL""",
    )
    by_tin: dict[str, list[tuple]] = {}
    for row in paid:
        by_tin.setdefault(row[1], []).append(row)
    split = [v for v in by_tin.values() if len(v) == 2]
    assert len(split) == 1
    parts = [r[5] for r in split[0]]
    assert all(p < 600 for p in parts) and sum(parts) >= 600
    registered = {r[0] for r in rows(book, "SELECT entity_key FROM book.divergences WHERE kind = 'vendor_id_split'")}
    assert registered & {r[0] for r in split[0]}
    assert any(r[3] and r[2] in ("c_corporation", "s_corporation") and r[5] >= 600 for r in paid)  # attorney
    assert any(r[4] and r[5] >= 600 and r[2].startswith("llc") for r in paid)  # materials only
    assert any(r[2] in ("c_corporation", "s_corporation") and not r[3] and r[5] >= 600 for r in paid)
    assert any(r[2] in ("sole_proprietor", "individual") and len(by_tin[r[1]]) == 1 and r[5] < 600 for r in paid)
    assert any(r[2] in ("partnership", "llc_partnership", "llc_single_member") and r[5] >= 600 for r in paid)


def test_positive_pay_file(book: duckdb.DuckDBPyConnection) -> None:
    items = rows(
        book,
        """SELECT e.exception_reason, e.check_number, e.presented_amount, e.presented_payee, c.amount,
                                 c.payee_name, c.status, a.payee_name_width, e.presented_date
                          FROM book.positive_pay_exceptions e JOIN book.bank_accounts a USING (bank_account_id)
                          LEFT JOIN book.checks c USING (bank_account_id, check_number)
                          WHERE e.bank_account_id = 'BA-OPER'""",
    )
    by = {r[0]: r for r in items}
    assert len(items) == 4 and set(by) == {
        "payee_mismatch",
        "amount_mismatch",
        "no_issue_record",
        "duplicate_presentment",
    }
    _r, _n, amt, payee, c_amt, c_payee, status, width, day = by["payee_mismatch"]
    assert day == CLOCK and amt == c_amt and status == "issued" and len(c_payee) > width
    assert payee == c_payee[:width].rstrip()
    assert by["amount_mismatch"][2] != by["amount_mismatch"][4] and by["amount_mismatch"][3] == by["amount_mismatch"][5]
    assert by["no_issue_record"][4] is None
    assert by["duplicate_presentment"][6] == "cleared"
    keys = {
        r[0]: r[1]
        for r in rows(
            book,
            """SELECT entity_key, kind FROM book.divergences
                                              WHERE kind IN ('payee_truncation', 'presented_item_mismatch')
                                                AND entity_key LIKE 'BA-OPER|%'""",
        )
    }
    assert keys == {
        f"BA-OPER|{by['payee_mismatch'][1]}": "payee_truncation",
        **{
            f"BA-OPER|{by[k][1]}": "presented_item_mismatch"
            for k in ("amount_mismatch", "no_issue_record", "duplicate_presentment")
        },
    }


def test_union_fringe_agreements(book: duckdb.DuckDBPyConnection) -> None:
    """seeds/union_fringe.py: every local has an agreement and a jurisdiction; one transfer card
    moves a member mid-month to a second local of the trade (the master shows the new one); an
    apprentice tier where apprentices worked; one local's members worked outside its counties."""
    locals_ = one(book, "SELECT count(*) FROM book.union_locals")
    assert one(book, "SELECT count(*) FROM book.union_agreements") == locals_ == 8
    assert one(book, "SELECT count(DISTINCT local_code) FROM book.union_jurisdictions") == locals_
    moved = rows(
        book,
        """SELECT t.from_local, t.to_local, e.union_local, dayofweek(t.effective_date) FROM book.union_transfers t
           JOIN book.employees e USING (employee_id)""",
    )
    assert len(moved) == 1 and moved[0][1] == moved[0][2] != moved[0][0] and moved[0][3] == 0
    assert one(book, "SELECT count(*) FROM book.union_agreements WHERE apprentice_rate IS NOT NULL") == 2
    away = one(
        book,
        """SELECT count(DISTINCT e.union_local) FROM book.payroll_earnings pe
           JOIN book.payroll_batches b USING (batch_id) JOIN book.employees e USING (employee_id)
           JOIN book.jobs j ON j.job_number = pe.job_number
           LEFT JOIN book.union_jurisdictions uj ON uj.local_code = e.union_local AND uj.county = j.county
           WHERE b.period_end BETWEEN DATE '2025-12-01' AND DATE '2025-12-31' AND uj.county IS NULL
             AND e.employee_id NOT IN (SELECT employee_id FROM book.union_transfers)""",
    )
    assert away == 1


def test_positive_pay_files_beyond_cashpro(book: duckdb.DuckDBPyConnection) -> None:
    """seeds/pospay_days.py: two files (the clock and the business day before, both due at the
    clock) on each of the payroll, money-market and PNC accounts, against manual checks whose
    entries credit the account's cash GL; the stale check is past 180 days, the voided one has no
    entry; every planted item has its divergence."""
    files = rows(
        book,
        """SELECT bank_account_id, presented_date, list(exception_reason ORDER BY exception_reason)
           FROM book.positive_pay_exceptions WHERE bank_account_id <> 'BA-OPER' AND decision_due = $1
           GROUP BY ALL ORDER BY ALL""",
        CLOCK,
    )
    prev = max(d for _a, d, _r in files if d < CLOCK)
    assert [(a, d == CLOCK, r) for a, d, r in files] == [
        ("BA-PAYR", False, ["no_issue_record", "payee_mismatch", "stale_dated"]),
        ("BA-PAYR", True, ["amount_mismatch", "duplicate_presentment", "payee_mismatch"]),
        ("BA-PNCEQ", False, ["no_issue_record", "payee_mismatch", "void_presented"]),
        ("BA-PNCEQ", True, ["amount_mismatch", "payee_mismatch"]),
        ("BA-WFMM", False, ["amount_mismatch", "payee_mismatch", "stale_dated"]),
        ("BA-WFMM", True, ["no_issue_record", "payee_mismatch", "payee_mismatch", "void_presented"]),
    ]
    assert prev.weekday() < 5
    stale = rows(
        book,
        """SELECT e.presented_date - c.issue_date FROM book.positive_pay_exceptions e
           JOIN book.checks c USING (bank_account_id, check_number) WHERE e.exception_reason = 'stale_dated'""",
    )
    assert len(stale) == 2 and all(days > 180 for (days,) in stale)
    manual = rows(
        book,
        """SELECT c.check_number, c.status, count(e.je_id) FROM book.checks c
           LEFT JOIN book.journal_entries e ON e.source_ref = c.check_id
           WHERE c.bank_account_id IN ('BA-WFMM', 'BA-PNCEQ') OR c.check_number >= 59001
           GROUP BY ALL""",
    )
    assert manual and all(n == (0 if status == "void" else 1) for _c, status, n in manual)
    planted = one(
        book,
        """SELECT count(*) FROM book.positive_pay_exceptions e JOIN book.divergences d
           ON d.entity_key = e.bank_account_id || '|' || CAST(e.check_number AS VARCHAR)
           AND d.family = 'T_positive_pay' WHERE e.bank_account_id <> 'BA-OPER'""",
    )
    assert planted == 18


def test_pm_extension_plants(book: duckdb.DuckDBPyConnection) -> None:
    cap = rows(
        book,
        """SELECT i.gross_amount, c.amount - coalesce((SELECT sum(p.gross_amount) FROM book.ap_invoices p
                                   WHERE p.commitment_id = c.commitment_id AND p.pm_status = 'approved'), 0)
                        FROM book.divergences d JOIN book.ap_invoices i ON i.invoice_id = d.entity_key
                        JOIN book.commitments c USING (commitment_id)
                        WHERE d.kind = 'commitment_cap_exceeded' AND c.commitment_id = 'SC-1042-0'""",
    )
    assert cap and cap[0][0] > cap[0][1]
    mismatch = rows(
        book,
        """SELECT j.job_type, c.commitment_type FROM book.divergences d
                             JOIN book.ap_invoices i ON i.invoice_id = d.entity_key
                             JOIN book.commitments c USING (commitment_id) JOIN book.jobs j ON j.job_number = i.job_number
                             WHERE d.kind = 'bill_po_mismatch'""",
    )
    assert mismatch == [("residential", "purchase_order")]
    unbooked = rows(
        book,
        """SELECT j.job_type, i.pm_status, i.erp_status FROM book.divergences d
                             JOIN book.ap_invoices i ON i.invoice_id = d.entity_key JOIN book.jobs j USING (job_number)
                             WHERE d.kind = 'unbooked_bill'""",
    )
    assert len(unbooked) >= 2 and all(r[0] == "residential" and r[2] == "not_entered" for r in unbooked)
    assert ("residential", "approved", "not_entered") in unbooked
    assert one(book, "SELECT count(DISTINCT job_number) FROM book.funding_sources") >= 3
    assert one(book, "SELECT count(*) FROM book.estimates") >= 25
    assert (
        one(
            book,
            """SELECT count(*) FROM book.commitments c JOIN book.jobs j USING (job_number)
                        WHERE j.job_type = 'residential' AND c.commitment_type = 'purchase_order'""",
        )
        >= 2
    )
    owner_ce = rows(
        book,
        """SELECT job_number FROM book.change_events
                             WHERE status = 'pending' AND scope = 'out_of_scope' AND amount < 101700""",
    )
    assert owner_ce


def test_use_tax_plants(book: duckdb.DuckDBPyConnection) -> None:
    """R_use_tax: non-PO supplier purchases posted in the clock month (ids after every hex id, each
    with its AP entry), one supplier-taxed and one freight invoice at least, and on a public job a
    valid and an expired exemption certificate for suppliers that invoiced it."""
    month = f"{CLOCK:%Y-%m}"
    planted = rows(
        book,
        """SELECT i.invoice_id, i.erp_status, i.commitment_id, i.retainage_amount,
                  (SELECT count(*) FROM book.journal_entries e WHERE e.source_ref = i.invoice_id) AS entries
           FROM book.ap_invoices i WHERE i.invoice_id LIKE 'u%'""",
    )
    assert len(planted) >= 10
    assert all(r[1] == "posted" and r[2] is None and r[3] == 0 and r[4] == 1 for r in planted)
    assert one(book, "SELECT count(*) FROM book.ap_invoices WHERE invoice_id NOT LIKE 'u%' AND invoice_id >= 'g'") == 0
    lines = {
        r[0]
        for r in rows(
            book,
            f"""SELECT CASE WHEN l.description ILIKE 'sales tax%' THEN 'tax'
                            WHEN l.description ILIKE 'freight%' THEN 'freight' END
                FROM book.ap_invoice_lines l JOIN book.ap_invoices i USING (invoice_id)
                WHERE i.invoice_id LIKE 'u%' AND strftime(i.invoice_date, '%Y-%m') = '{month}'""",
        )
    }
    assert {"tax", "freight"} <= lines
    certs = rows(
        book,
        """SELECT j.job_type, c.expiration_date >= ? AS valid,
                  EXISTS (SELECT 1 FROM book.ap_invoices i WHERE i.vendor_key = c.vendor_key
                          AND i.job_number = c.job_number AND i.invoice_id LIKE 'u%') AS invoiced
           FROM book.tax_exemption_certificates c JOIN book.jobs j USING (job_number)""",
        CLOCK,
    )
    assert certs and all(r[0] == "public" and r[2] for r in certs)
    assert {r[1] for r in certs} == {True, False}


def test_lien_waiver_audit_plants(book: duckdb.DuckDBPyConnection) -> None:
    """R_lien_waiver_audit: the month's subcontractor payments missing their unconditional waiver are
    exactly the planted ones (never returned, short, conditional only); the trade-name subs keep theirs."""
    uncovered = rows(
        book,
        """WITH paid AS (SELECT a.invoice_id, sum(a.amount) AS amount FROM book.check_applications a
                         JOIN book.checks c USING (check_id)
                         WHERE c.status <> 'void' AND strftime(c.issue_date, '%Y-%m') = ? GROUP BY 1)
           SELECT p.invoice_id,
                  max(w.amount) FILTER (WHERE w.waiver_type LIKE 'unconditional%') AS unconditional,
                  bool_or(w.waiver_type LIKE 'conditional%') AS conditional
           FROM paid p JOIN book.ap_invoices i USING (invoice_id)
           JOIN book.vendors v ON v.vendor_key = i.vendor_key AND v.vendor_type = 'subcontractor'
           JOIN book.commitments k ON k.commitment_id = i.commitment_id AND k.commitment_type = 'subcontract'
           LEFT JOIN book.lien_waivers w ON w.invoice_id = p.invoice_id
           GROUP BY p.invoice_id, p.amount
           HAVING coalesce(max(w.amount) FILTER (WHERE w.waiver_type LIKE 'unconditional%'), 0) < p.amount""",
        CLOCK.strftime("%Y-%m"),
    )
    planted = {r[0] for r in rows(book, "SELECT entity_key FROM book.divergences WHERE kind = 'lien_waiver_missing'")}
    assert {r[0] for r in uncovered} == planted and len(planted) >= 7
    assert any(r[1] is not None for r in uncovered)  # a short waiver
    assert any(r[1] is None and r[2] for r in uncovered)  # a conditional waiver only
    respelled = rows(
        book,
        """SELECT v.legal_name, i.spelled_name, count(w.waiver_id) FROM book.divergences d
           JOIN book.vendors v ON v.vendor_key = d.entity_key
           JOIN book.vendor_identities i ON i.vendor_key = v.vendor_key AND i.system = 'levelset'
           LEFT JOIN book.lien_waivers w ON w.vendor_key = v.vendor_key
           WHERE d.kind = 'levelset_trade_name' GROUP BY ALL""",
    )
    assert respelled
    for legal, spelled, waivers in respelled:
        assert not legal.startswith(spelled) and waivers > 0


def test_wip_schedule_plants(book: duckdb.DuckDBPyConnection) -> None:
    """R_wip_schedule: pending owner COs (lines, no approval) and raised ERP estimates (job master and
    its lines together, Procore's forecast not), one twist per PM portfolio, never on an anchor job."""
    pending = rows(
        book,
        """SELECT o.co_id, o.job_number, o.amount, o.approved_date, sum(l.amount) FROM book.change_orders o
           JOIN book.change_order_lines l USING (co_id) WHERE o.status = 'pending' GROUP BY ALL""",
    )
    assert pending and all(r[3] is None and r[2] == r[4] > 0 for r in pending)
    raised = rows(
        book,
        """SELECT j.job_number, j.erp_est_cost_to_complete,
                  sum(b.pm_forecast_to_complete) FILTER (WHERE b.include_in_erp)
           FROM book.divergences d JOIN book.jobs j ON j.job_number = d.entity_key
           JOIN book.budget_lines b ON b.job_number = j.job_number
           WHERE d.kind = 'wip_estimate_raised' GROUP BY ALL""",
    )
    assert raised and all(erp > pm for _, erp, pm in raised)
    planted = [r[1] for r in pending] + [r[0] for r in raised]
    assert len(planted) == len(set(planted)) and not set(planted) & {"1042", "2014", "2200", "3100", "3412", "9140"}
    pms = rows(
        book,
        "SELECT project_manager, count(*) FROM book.jobs WHERE job_number IN ? GROUP BY ALL HAVING count(*) > 1",
        planted,
    )
    assert not pms


def test_equipment_plants(book: duckdb.DuckDBPyConnection) -> None:
    """G_equipment_allocation: eight fleets of owned units logged in their jobs' field-time app, with
    the clock month's twists where the fleet carries them (idle hours, a mid-month rate revision with
    hours on both sides, a rented unit on a job no owned unit works) and none elsewhere; the field-time
    setup rate is last year's (a registered divergence per unit whose rate moved); the two accounts
    the allocation uses in the chart; nothing posted."""
    first = CLOCK.replace(day=1)
    fleets = {
        r[0]: r[1:]
        for r in rows(
            book,
            """SELECT q.fleet, count(DISTINCT q.unit_number) FILTER (WHERE q.ownership = 'owned'),
                      count(DISTINCT q.field_system),
                      coalesce(sum(h.hours) FILTER (WHERE h.hour_type = 'idle' AND q.ownership = 'owned'
                                                     AND h.work_date >= ?), 0),
                      count(DISTINCT q.unit_number) FILTER (WHERE q.ownership = 'rented')
               FROM book.equipment q JOIN book.equipment_hours h USING (unit_number) GROUP BY q.fleet""",
            first,
        )
    }
    assert len(fleets) == 8 and all(3 <= owned <= 4 and systems == 1 for owned, systems, _, _ in fleets.values())
    idle = {f for f, (_, _, hours, _) in fleets.items() if hours}
    rented = {f for f, (_, _, _, n) in fleets.items() if n}
    assert idle == {"excavators", "trucks", "aerial"} and rented == {"cranes", "aerial"}
    revised = rows(
        book,
        """SELECT q.fleet, r.unit_number, r.effective_date FROM book.equipment_rates r JOIN book.equipment q
           USING (unit_number) WHERE q.ownership = 'owned' AND r.effective_date > ?""",
        first,
    )
    assert {r[0] for r in revised} == {"loaders", "trucks", "dozers"}
    for _, unit, on in revised:
        before, after = (
            one(
                book,
                f"""SELECT count(*) FROM book.equipment_hours WHERE unit_number = ? AND hour_type = 'operating'
                    AND work_date {op} ? AND work_date >= ?""",
                unit,
                on,
                first,
            )
            for op in ("<", ">=")
        )
        assert before and after and on.weekday() < 5, unit
    shared = one(
        book,
        """SELECT count(*) FROM book.equipment_hours h JOIN book.equipment q USING (unit_number)
           WHERE q.ownership = 'rented' AND h.job_number IN (
               SELECT x.job_number FROM book.equipment_hours x JOIN book.equipment o USING (unit_number)
               WHERE o.ownership = 'owned' AND o.fleet = q.fleet AND x.work_date >= ?)""",
        first,
    )
    assert shared == 0
    stale = rows(
        book,
        """SELECT q.unit_number, q.field_rate, d.divergence_id FROM book.equipment q
           LEFT JOIN book.divergences d ON d.kind = 'equipment_rate_stale' AND d.entity_key = q.unit_number
           WHERE q.ownership = 'owned'""",
    )
    assert stale and all(d is not None for _, _, d in stale)
    accounts = dict(
        rows(book, "SELECT account, normal_balance FROM book.gl_accounts WHERE account IN ('5490', '6750')")
    )
    assert accounts == {"5490": "C", "6750": "D"}
    assert one(book, "SELECT count(*) FROM book.journal_lines WHERE account IN ('5490', '6750')") == 0


def test_cash_forecast_plants(book: duckdb.DuckDBPyConnection) -> None:
    """T_cash_forecast: the pay calendar from the first pay date after the clock, every prime contract's
    payment terms, the treasury schedules after the clock, and one payment scheduled in the forecast's
    first week at Chase, Wells Fargo and PNC (none at Bank of America), never posted at the bank."""
    cal = rows(book, "SELECT period_start, period_end, pay_date, batch_id FROM book.payroll_calendar ORDER BY 2")
    assert len(cal) == 16 and cal[0][2] > CLOCK >= cal[0][2] - timedelta(days=7)
    assert all(e - s == timedelta(days=6) and p == e + timedelta(days=5) and b == f"PR-{e}" for s, e, p, b in cal)
    assert all(b[1] - a[1] == timedelta(days=7) for a, b in zip(cal, cal[1:], strict=False))
    terms = dict(rows(book, "SELECT job_number, terms_days FROM book.owner_payment_terms"))
    contracts = {r[0] for r in rows(book, "SELECT job_number FROM book.prime_contracts")}
    assert set(terms) == contracts and set(terms.values()) <= {20, 30, 45, 60}
    sched = rows(book, "SELECT schedule, item, due_date, amount, forecast_line FROM book.treasury_schedule")
    assert sched and all(d > CLOCK and a > 0 for _, _, d, a, _ in sched)
    assert {(s, i, line) for s, i, _, _, line in sched} == {
        ("A", "pnc_installment", "debt_service"),
        ("A", "loc_interest", "debt_service"),
        ("B", "rent", "other"),
        ("B", "insurance", "other"),
        ("B", "retainer", "other"),
        ("B", "union_trust", "payroll"),
        ("B", "utilities", "other"),
        ("B", "office_salaries", "other"),
    }
    items = rows(
        book,
        """SELECT a.bank, s.kind, s.value_date, s.amount, s.memo FROM book.bank_scheduled_payments s
           JOIN book.bank_accounts a USING (bank_account_id) ORDER BY a.bank""",
    )
    friday = CLOCK + timedelta(days=(4 - CLOCK.weekday()) % 7 or 7)
    assert [(b, k) for b, k, *_ in items] == [
        ("chase", "payroll_tax"),
        ("pnc", "loan_prepayment"),
        ("wells", "reserve_transfer"),
    ]
    assert all(CLOCK < d <= friday and d.weekday() < 5 and a > 0 for _, _, d, a, _ in items)
    posted = one(book, "SELECT count(*) FROM book.bank_transactions WHERE posted_date > ?", CLOCK)
    assert posted == 0
    policy = one(book, "SELECT body FROM book.policies WHERE policy_id = 'cash_forecast_policy.md'")
    assert "Schedule A" in policy and "from the reserve into a forecast account" in policy


def test_divergences_reference_kinds_and_keys(book: duckdb.DuckDBPyConnection) -> None:
    kinds = tomllib.loads(resources.files("cfab.views").joinpath("divergences.toml").read_text())["kinds"]
    keys = {
        "vendor": "SELECT vendor_key FROM book.vendors",
        "job": "SELECT job_number FROM book.jobs",
        "invoice": "SELECT invoice_id FROM book.ap_invoices",
        "commitment": "SELECT commitment_id FROM book.commitments",
        "employee": "SELECT employee_id FROM book.employees",
        "change_event": "SELECT job_number || '|' || number FROM book.change_events",
        "check": """SELECT bank_account_id || '|' || check_number FROM book.checks
                    UNION SELECT bank_account_id || '|' || check_number FROM book.positive_pay_exceptions""",
        "bank_transaction": "SELECT txn_id FROM book.bank_transactions",
        "journal_entry": "SELECT je_number FROM book.journal_entries",
        "equipment": "SELECT unit_number FROM book.equipment",
    }
    known = {e: {r[0] for r in rows(book, sql)} for e, sql in keys.items()}
    for div_id, kind, entity, key, apps, family in rows(
        book, "SELECT divergence_id, kind, entity, entity_key, apps, family FROM book.divergences"
    ):
        spec = kinds[kind]
        assert entity == spec["entity"] and family == spec["family"], div_id
        assert set(apps.split(",")) <= set(spec["apps"]), div_id
        assert key in known[entity], div_id


def test_documents_resolve(book: duckdb.DuckDBPyConnection) -> None:
    docs = {r[0] for r in rows(book, "SELECT document_id FROM book.documents")}
    for table in (
        "ap_invoices",
        "certificates_of_insurance",
        "lien_waivers",
        "owner_pay_apps",
        "certified_payrolls",
        "commitments",
        "change_events",
    ):
        ids = {r[0] for r in rows(book, f"SELECT document_id FROM book.{table} WHERE document_id IS NOT NULL")}
        assert ids and ids <= docs, table
    attached = {
        a
        for r in rows(book, "SELECT attachment_document_ids FROM book.emails WHERE attachment_document_ids IS NOT NULL")
        for a in r[0].split(",")
    }
    assert attached and attached <= docs
    jsm = rows(
        book,
        """SELECT d.store, d.folder, e.mailbox, e.folder FROM book.ap_invoices i
                        JOIN book.documents d ON d.document_id = i.document_id
                        JOIN book.emails e ON e.attachment_document_ids LIKE '%' || d.document_id || '%'
                        WHERE i.invoice_number = 'JSM-88421'""",
    )
    assert jsm == [("box", "/AP/Invoices/2026-01", "ap@companyA.com", "Inbox")]
    assert (
        one(
            book,
            """SELECT count(*) FROM book.ap_invoices WHERE invoice_date >= DATE '2026-01-01'
                        AND document_id IS NULL""",
        )
        == 0
    )


def test_policies_and_mail(book: duckdb.DuckDBPyConnection) -> None:
    policies = {r[0]: r[1] for r in rows(book, "SELECT policy_id, body FROM book.policies")}
    assert set(policies) == {
        "change_mgmt_policy.md",
        "ap_invoice_policy.md",
        "payments_policy.md",
        "month_end_close_policy.md",
        "certified_payroll_policy.md",
        "treasury_positive_pay_policy.md",
        "form_1099_policy.md",
        "insurance_compliance_policy.md",
        "owner_billing_policy.md",
        "pm_platforms_policy.md",
        "ap_retainage_policy.md",
        "timecard_payroll_policy.md",
        "vendor_master_change_policy.md",
        "prepaid_insurance_policy.md",
        "union_fringe_remittance_policy.md",
        "use_tax_policy.md",
        "bank_reconciliation_policy.md",
        "wip_schedule_policy.md",
        "labor_distribution_policy.md",
        "equipment_rate_policy.md",
        "cash_forecast_policy.md",
    }
    assert "human" in policies["payments_policy.md"] and "truncat" in policies["treasury_positive_pay_policy.md"]
    renewal = rows(
        book,
        """SELECT c.vendor_key FROM book.emails e JOIN book.documents d
                              ON e.attachment_document_ids LIKE '%' || d.document_id || '%'
                            JOIN book.certificates_of_insurance c ON c.coi_id = d.natural_key
                            WHERE d.doc_type = 'coi'""",
    )
    assert renewal and all(r[0] not in EXPIRED for r in renewal)
    assert one(book, "SELECT count(*) FROM book.emails WHERE from_addr LIKE '%bankofamerica%'") == 1
    assert one(book, "SELECT count(DISTINCT mailbox) FROM book.emails") == 2
    assert one(book, "SELECT count(*) FROM book.emails") >= 15


def test_money_is_exact(book: duckdb.DuckDBPyConnection) -> None:
    assert one(book, "SELECT sum(net_amount) FROM book.ap_invoices") == Decimal(
        one(book, "SELECT sum(gross_amount) - sum(retainage_amount) FROM book.ap_invoices")
    )


def test_vendor_bank_change_plant(book: duckdb.DuckDBPyConnection) -> None:
    """Every kind of request is planted; a lookalike sender is one edit off the real domain; the
    forms and callback logs are where the kind says; every remittance routing number is valid."""
    reqs = rows(
        book,
        """SELECT q.kind, split_part(q.from_addr, '@', 2), split_part(v.email, '@', 2), q.form_document_id,
                  q.callback_phone, v.phone, q.phone_in_email, q.outcome
           FROM book.vendor_bank_change_requests q JOIN book.vendors v USING (vendor_key)""",
    )
    assert sorted(r[0] for r in reqs) == sorted(KINDS)
    for kind, sender, real, form, called, on_file, offered, outcome in reqs:
        assert (sender == real) == (kind == "genuine"), (kind, sender, real)
        assert (form is not None) == (kind in ("genuine", "callback_to_email_number"))
        assert (called is None) == (kind == "lookalike_domain")
        if kind == "callback_to_email_number":
            assert called == offered != on_file
        elif called:
            assert called == on_file
        assert outcome == {"genuine": "changed", "callback_denied": "rejected"}.get(kind, "held_pending_verification")
    routing = [r[0] for r in rows(book, "SELECT routing_number FROM book.vendor_remittance")]
    assert routing and all(len(x) == 9 and aba_check_digit(x[:8]) == int(x[8]) for x in routing)
    forms = one(book, "SELECT count(*) FROM book.documents WHERE doc_type = 'bank_change_form'")
    assert forms == sum(1 for r in reqs if r[3])


def test_labor_distribution_plants(book: duckdb.DuckDBPyConnection) -> None:
    """P_labor_distribution: per planted month a payroll week re-coded between two jobs of one county
    (the ERP unchanged), and the months' twists: a week coded to a closed job, a labor line posted
    as subcontract cost on a shared phase, a late labor distribution that clears 1090 to zero."""
    kinds = dict(
        rows(
            book,
            """SELECT kind, count(*) FROM book.divergences WHERE family = 'P_labor_distribution'
               GROUP BY ALL""",
        )
    )
    assert kinds["labor_recoded_after_interface"] == 6
    assert {"closed_job_labor", "labor_cost_type_misposted", "labor_distribution_late"} <= set(kinds)
    counties = rows(
        book,
        """SELECT d.entity_key, j.county, k.county FROM book.divergences d
           JOIN book.jobs j ON j.job_number = d.entity_key
           JOIN book.jobs k ON k.job_number = regexp_extract(d.reason, 'from job (\\d+)', 1)
           WHERE d.kind = 'labor_recoded_after_interface'""",
    )
    assert len(counties) == 6 and all(a == b for _, a, b in counties)
    closed = rows(
        book,
        """SELECT j.status FROM book.divergences d JOIN book.jobs j ON j.job_number = d.entity_key
           WHERE d.kind = 'closed_job_labor'""",
    )
    assert closed == [("closed",)]
    assert one(book, "SELECT sum(debit - credit) FROM book.journal_lines WHERE account = '1090'") == 0
    assert (
        one(
            book,
            """SELECT count(*) FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
           WHERE e.journal = 'PR' AND l.account = '5200' AND l.memo = 'Gross wages'""",
        )
        == kinds["labor_cost_type_misposted"]
    )


def test_payment_run_plants(book: duckdb.DuckDBPyConnection) -> None:
    """T_payment_run: a vendor on payment hold, a disputed invoice, a pending Corpay enrollment, a short
    conditional waiver, a back-charge whose cleanup invoice cancels its cost on the job, and a partial
    payment by a Corpay check funded the same day by a line-of-credit draw; never on an anchor job."""
    from cfab.seeds.payment_run import run_dates

    _pay, cutoff = run_dates(CLOCK)
    holds = rows(book, "SELECT vendor_key, hold_code FROM book.vendor_payment_holds")
    assert holds and all(code in ("W9", "MGMT") for _, code in holds) and not {v for v, _ in holds} & set(EXPIRED)
    pending = rows(book, "SELECT vendor_key, method FROM book.payment_enrollment_pending")
    assert pending and not {v for v, _ in pending} & {v for v, _ in holds}
    disputed = rows(
        book,
        """SELECT i.job_number FROM book.ap_invoice_disputes d JOIN book.ap_invoices i USING (invoice_id)
           WHERE i.erp_status = 'posted' AND i.paid_amount < i.net_amount AND i.due_date <= ?""",
        cutoff,
    )
    assert disputed
    short = rows(
        book,
        """SELECT i.job_number FROM book.lien_waivers w JOIN book.ap_invoices i USING (invoice_id)
           WHERE w.waiver_type = 'conditional_progress' AND w.status IN ('received', 'approved')
             AND i.erp_status = 'posted' AND i.paid_amount = 0 AND w.amount < i.net_amount""",
    )
    assert short
    credits = rows(
        book,
        """SELECT c.job_number, c.net_amount, (SELECT count(*) FROM book.ap_invoices x JOIN book.vendors v USING (vendor_key)
                   WHERE x.job_number = c.job_number AND x.net_amount = -c.net_amount AND v.vendor_type = 'service'
                     AND x.invoice_date <= c.invoice_date)
           FROM book.ap_invoices c WHERE c.net_amount < 0 AND c.erp_status = 'posted'""",
    )
    assert credits and all(n == 1 for _, _, n in credits)
    for job, _amount, _n in credits:  # the job's cost to date is what it was: cleanup and credit cancel
        net = one(
            book,
            """SELECT sum(l.debit - l.credit) FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
               JOIN book.ap_invoices i ON i.invoice_id = e.source_ref
               WHERE i.job_number = ? AND l.account LIKE '5%' AND i.invoice_id LIKE 'u%' AND i.commitment_id IS NULL
                 AND l.cost_code = '01-740'""",
            job,
        )
        assert net == 0
    partial = rows(
        book,
        """SELECT i.invoice_id, i.paid_amount, c.issue_date, c.cleared_date, c.bank_account_id,
                  (SELECT sum(l.credit) FROM book.journal_entries e JOIN book.journal_lines l USING (je_id)
                   WHERE e.source_ref = 'LOC-DRAW:' || c.check_id AND l.account = '2500' AND e.entry_date = c.issue_date)
           FROM book.ap_invoices i JOIN book.check_applications a USING (invoice_id) JOIN book.checks c USING (check_id)
           WHERE i.paid_amount > 0 AND i.paid_amount < i.net_amount""",
    )
    assert partial
    for _inv, paid, issued, cleared, account, draw in partial:
        assert account == "BA-OPER" and issued.replace(day=1) == CLOCK.replace(day=1) and cleared < CLOCK
        assert draw == paid
    anchors_hit = rows(
        book,
        """SELECT job_number FROM book.ap_invoices WHERE net_amount < 0 OR (paid_amount > 0 AND paid_amount < net_amount)
           UNION SELECT i.job_number FROM book.ap_invoice_disputes JOIN book.ap_invoices i USING (invoice_id)""",
    )
    assert not {r[0] for r in anchors_hit} & {*SYNC_JOBS, *ACCRUAL_JOBS, *AIA_JOBS, *CERT_JOBS, "9140"}
