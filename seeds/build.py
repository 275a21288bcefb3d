"""``build_book``: the Company-A book as a pure function of (seed, clock, scale).

Order: reference data → vendors → jobs, estimates, changes, owner billing, budgets →
commitments → AP → people, time, payroll → cash → ledger → treasury → documents, policies, mail.
The scale-1 universe is generated in Python and bulk-loaded; scale N replicates it in SQL
(``scale.py``); bank balances and the G702 retainage split are derived from the loaded rows last.
Later additions (treasury accounts, signers, certificate and WH-347 details) run after the rows
they read and draw from their own RNG streams, so every earlier row is unchanged.
"""

from __future__ import annotations

import duckdb

from cfab.schema import schema_ddl
from cfab.seeds import (
    bank_rec,
    billing,
    budgets,
    cash,
    cash_forecast,
    cert_extra,
    changes,
    commitments,
    docmeta,
    equipment,
    form_1099,
    insurance,
    invoices,
    jobs,
    labor_distribution,
    ledger,
    lien_waivers,
    load,
    mail,
    payment_run,
    payroll,
    people,
    policies,
    pospay_days,
    prepaid,
    retainage,
    scale,
    signers,
    timecard_plants,
    treasury,
    union_fringe,
    use_tax,
    vendor_bank_change,
    vendors,
    wip_schedule,
)
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import BuildInputs
from cfab.seeds.reference import COMPANY, COST_CODES, ERP_COST_TYPE, GL_ACCOUNTS
from cfab.seeds.timeline import month_end, period_of


def build_reference(ctx: Ctx) -> None:
    ctx.add("company", **COMPANY)
    ledger.add_gl_accounts(ctx, GL_ACCOUNTS)
    for m in ctx.tl.months:
        ctx.add(
            "gl_periods",
            period=period_of(m),
            start_date=m,
            end_date=month_end(m),
            status="open" if period_of(m) == ctx.tl.open_period else "closed",
        )
    for cc in COST_CODES:
        ctx.add(
            "cost_codes", cost_code=cc.code, description=cc.description, division=cc.division, cost_type=cc.cost_type
        )
        ctx.add(
            "erp_phase_map",
            cost_code=cc.code,
            erp_phase=cc.erp_phase,
            erp_cost_type=ERP_COST_TYPE[cc.cost_type],
            note=cc.note,
        )


def generate(inputs: BuildInputs) -> Ctx:
    """The scale-1 universe as rows (no database needed)."""
    ctx = Ctx.create(inputs)
    build_reference(ctx)
    cash.build_bank_accounts(ctx)
    treasury.build_accounts(ctx)
    vendors.build_vendors(ctx)
    insurance.build_identities(ctx)
    insurance.build_cois(ctx)
    insurance.build_coi_details(ctx)
    signers.build_vendor_signers(ctx)
    jobs.build_jobs(ctx)
    jobs.build_estimates(ctx)
    changes.build_changes(ctx)
    billing.tune_schedules(ctx)
    billing.build_billing(ctx)
    budgets.build_budgets(ctx)
    commitments.build_commitments(ctx)
    invoices.build_ap(ctx)
    commitments.write_commitments(ctx)
    people.build_people(ctx)
    payroll.build_timecards(ctx)
    payroll.build_payroll(ctx)
    payroll.build_certified_payrolls(ctx)
    payroll.build_employee_profiles(ctx)
    payroll.build_certified_payroll_details(ctx)
    cash.build_checks(ctx)
    cash.build_positive_pay(ctx)
    cash.build_lien_waivers(ctx)
    lien_waivers.build_lien_waiver_audit(ctx)
    ledger.build_ledger(ctx)
    treasury.build_treasury(ctx)
    signers.build_officers(ctx)
    signers.build_architects(ctx)
    policies.build_policies(ctx)
    mail.build_emails(ctx)
    docmeta.build_documents(ctx)
    timecard_plants.build_timecard_plants(ctx)
    cert_extra.build_extra_certified_payrolls(ctx)
    form_1099.build_1099_plants(ctx)
    pospay_days.build_exception_days(ctx)
    retainage.build_retainage_reclass(ctx)
    vendor_bank_change.build_vendor_bank_change(ctx)
    prepaid.build_prepaid(ctx)
    union_fringe.build_union_fringe(ctx)
    use_tax.build_use_tax(ctx)
    bank_rec.build_bank_rec(ctx)
    wip_schedule.build_wip_schedule(ctx)
    labor_distribution.build_labor_distribution(ctx)
    equipment.build_equipment(ctx)
    cash_forecast.build_cash_forecast(ctx)
    payment_run.build_payment_run(ctx)
    return ctx


def build_book(con: duckdb.DuckDBPyConnection, inputs: BuildInputs) -> None:
    """Create the ``book`` schema in the connection's current database and fill every table.

    Deterministic: two builds with the same ``inputs`` have the same content digest. At scale N
    the scale-1 universe is kept exactly (same keys, same amounts) and N-1 replicas are added
    with non-colliding keys; only the scale-1 universe has ``book.documents`` rows.
    """
    con.execute(schema_ddl("book"))
    ctx = generate(inputs)
    load.load_rows(con, ctx.tables)
    if inputs.scale > 1:
        scale.replicate(con, ctx, inputs.scale)
    scale.derive_bank_balances(con, ctx)
    scale.derive_pay_app_retainage(con)
