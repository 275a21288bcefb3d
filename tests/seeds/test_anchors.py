"""The paper's named facts hold exactly."""

from __future__ import annotations

from decimal import Decimal

import duckdb
import pytest

from cfab.seeds import BuildInputs
from tests.seeds.seeds_helpers import fresh_book, one, rows

ETC_JOBS = ("1042", "1990", "2014", "2041", "2200", "3100", "3412", "4012")


def _anchors(con: duckdb.DuckDBPyConnection) -> None:
    sc = rows(
        con,
        """SELECT c.vendor_key, v.legal_name, c.amount, c.job_number, c.commitment_type
                      FROM book.commitments c JOIN book.vendors v USING (vendor_key) WHERE commitment_id = 'SC-1042-0'""",
    )
    assert sc and sc[0][0] == "V1000" and sc[0][1].startswith("Walsh Electrical")
    assert sc[0][2] == Decimal("632000.00") and sc[0][3] == "1042" and sc[0][4] == "subcontract"
    jsm = rows(
        con,
        """SELECT i.vendor_key, i.job_number, i.gross_amount, i.pm_status, i.erp_status, c.number,
                              c.commitment_type, l.cost_code, l.commitment_line_no, i.commitment_id, i.document_id
                       FROM book.ap_invoices i JOIN book.commitments c USING (commitment_id)
                       JOIN book.ap_invoice_lines l USING (invoice_id)
                       WHERE i.invoice_number = 'JSM-88421' AND i.vendor_key = 'V1001'""",
    )
    assert len(jsm) == 1
    vendor, job, gross, pm, erp, number, ctype, code, line_no, cid, doc = jsm[0]
    assert (vendor, job, gross, pm, erp, number, ctype, code) == (
        "V1001",
        "9140",
        Decimal("14350.00"),
        None,
        "not_entered",
        "9140-75",
        "purchase_order",
        "31-200",
    )
    assert one(con, "SELECT count(*) FROM book.documents WHERE document_id = ?", doc) == 1
    line_amount, billed = rows(
        con,
        """SELECT cl.amount, sum(l.amount) FROM book.commitment_lines cl
        JOIN book.ap_invoices i ON i.commitment_id = cl.commitment_id
        JOIN book.ap_invoice_lines l ON l.invoice_id = i.invoice_id AND l.commitment_line_no = cl.line_no
        WHERE cl.commitment_id = ? AND cl.line_no = ? GROUP BY cl.amount""",
        cid,
        line_no,
    )[0]
    assert billed <= line_amount
    assert one(con, "SELECT legal_name FROM book.vendors WHERE vendor_key = 'V1001'").startswith("J. S. Mitchell")
    ce = rows(
        con,
        """SELECT amount, reason, scope, status, document_id FROM book.change_events
                      WHERE job_number = '3100' AND amount = 101700.00""",
    )
    assert len(ce) == 1 and ce[0][1:4] == ("internal_transfer", "in_scope", "pending") and ce[0][4]
    assert one(
        con,
        """SELECT sum(pm_forecast_to_complete) FROM book.budget_lines
                       WHERE job_number = '1042' AND include_in_erp""",
    ) == Decimal("3706560.00")


def test_anchors_at_default(book: duckdb.DuckDBPyConnection) -> None:
    _anchors(book)


def test_anchors_at_scale_3(book3: duckdb.DuckDBPyConnection) -> None:
    _anchors(book3)


@pytest.mark.parametrize("seed", [1, 42])
def test_anchors_at_other_seeds(seed: int) -> None:
    _anchors(fresh_book(BuildInputs(seed=seed)))


def test_etc_forecast_plants(book: duckdb.DuckDBPyConnection) -> None:
    got = rows(
        book,
        """SELECT b.job_number, sum(b.pm_forecast_to_complete) FILTER (WHERE b.include_in_erp),
                               any_value(j.erp_est_cost_to_complete), count(*) FILTER (WHERE NOT b.include_in_erp)
                        FROM book.budget_lines b JOIN book.jobs j USING (job_number)
                        WHERE b.job_number IN ? GROUP BY b.job_number""",
        list(ETC_JOBS),
    )
    assert len(got) == 8 and all(pm != erp for _j, pm, erp, _n in got)
    assert sum(1 for *_x, pm_only in got if pm_only) >= 2
    shared = one(
        book,
        """SELECT count(DISTINCT job_number) FROM (
        SELECT b.job_number FROM book.budget_lines b JOIN book.erp_phase_map m USING (cost_code)
        WHERE b.job_number IN ? AND b.include_in_erp GROUP BY b.job_number, m.erp_phase HAVING count(*) > 1)""",
        list(ETC_JOBS),
    )
    assert shared >= 2
    registered = {
        r[0] for r in rows(book, "SELECT entity_key FROM book.divergences WHERE kind = 'pm_forecast_vs_erp_estimate'")
    }
    assert registered >= set(ETC_JOBS)


def test_cost_code_map_is_not_the_identity(book: duckdb.DuckDBPyConnection) -> None:
    assert 35 <= one(book, "SELECT count(*) FROM book.cost_codes") <= 60
    assert one(book, "SELECT count(*) FROM book.erp_phase_map WHERE erp_phase <> cost_code || '-00'") >= 10
    assert (
        one(book, "SELECT count(*) FROM (SELECT erp_phase FROM book.erp_phase_map GROUP BY 1 HAVING count(*) > 1)") >= 4
    )
    assert rows(
        book, "SELECT erp_phase FROM book.erp_phase_map WHERE cost_code IN ('26-050', '31-200') ORDER BY 1"
    ) == [("02-200-00",), ("16-050-00",)]


def test_required_jobs(book: duckdb.DuckDBPyConnection) -> None:
    active = {r[0] for r in rows(book, "SELECT job_number FROM book.jobs WHERE status = 'active'")}
    assert active >= {"1042", "1990", "2014", "2041", "2200", "3100", "3412", "4012", "9140"}
    pw = {r[0] for r in rows(book, "SELECT job_number FROM book.jobs WHERE is_prevailing_wage")}
    assert pw >= {"1042", "1990", "2014", "2041", "2200", "3100"}
    with_wd = {
        r[0]
        for r in rows(
            book,
            """SELECT d.job_number FROM book.wage_determinations d
                                           JOIN book.wage_rates w USING (determination_id) GROUP BY 1 HAVING count(*) >= 7""",
        )
    }
    assert with_wd == pw
