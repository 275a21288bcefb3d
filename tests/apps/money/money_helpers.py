"""Shared constants and helpers of the money apps' tests."""

from __future__ import annotations

BANKS = ["bofa_cashpro", "chase_treasury", "wells", "pnc_pinacle"]
ALL_BANKS = [*BANKS, "plaid"]
PAYROLLS = ["foundation_payroll", "adp", "rippling"]
FIELD = ["rhumbix", "busybusy"]
MONEY_APPS = [*ALL_BANKS, *PAYROLLS, *FIELD]
BANK_OF = {"bofa_cashpro": "bofa", "chase_treasury": "chase", "wells": "wells", "pnc_pinacle": "pnc"}


def guard_rows(env) -> list[tuple]:
    return env.con.execute(
        "SELECT app, tool, executed, valid, reason FROM cfab_internal.guard_log ORDER BY seq"
    ).fetchall()


def table_rows(env, table: str) -> set[tuple]:
    return set(env.con.execute(f"SELECT * FROM {table}").fetchall())
