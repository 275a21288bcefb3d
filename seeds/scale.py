"""Scale N: replicas of the scale-1 universe (placeholder) and the derived bank balances."""

from __future__ import annotations

import duckdb

from cfab.seeds.context import Ctx


def replicate(con: duckdb.DuckDBPyConnection, ctx: Ctx, scale: int) -> None:
    raise NotImplementedError


def derive_bank_balances(con: duckdb.DuckDBPyConnection, ctx: Ctx) -> None:
    """Ledger balance per bank account at each month end of the window and at the clock:
    the opening balance (the opening entry's debit to the account's GL cash) plus bank activity."""
    dates = sorted({ctx.tl.period_end(m) for m in ctx.tl.months} | {ctx.clock})
    values = ", ".join(f"(DATE '{d.isoformat()}')" for d in dates)
    con.execute(f"""
        INSERT INTO book.bank_balances
        WITH d(as_of) AS (VALUES {values}),
        opening AS (
            SELECT a.bank_account_id, coalesce(sum(l.debit - l.credit), 0) AS amt
            FROM book.bank_accounts a
            LEFT JOIN book.journal_lines l ON l.account = a.gl_account
             AND l.je_id IN (SELECT je_id FROM book.journal_entries WHERE source_ref = 'OPENING')
            GROUP BY a.bank_account_id
        )
        SELECT a.bank_account_id, d.as_of,
               CAST(o.amt + coalesce((SELECT sum(t.amount) FROM book.bank_transactions t
                                      WHERE t.bank_account_id = a.bank_account_id AND t.posted_date <= d.as_of), 0)
                    AS DECIMAL(18,2)),
               CAST(o.amt + coalesce((SELECT sum(t.amount) FROM book.bank_transactions t
                                      WHERE t.bank_account_id = a.bank_account_id AND t.posted_date <= d.as_of), 0)
                    AS DECIMAL(18,2))
        FROM book.bank_accounts a CROSS JOIN d JOIN opening o USING (bank_account_id)
        ORDER BY 1, 2""")
