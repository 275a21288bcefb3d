"""The three payroll systems: constants only."""

from __future__ import annotations

from typing import ClassVar

from cfab.apps.payroll.base import PayrollApp
from cfab.apps.registry import register


@register
class FoundationPayroll(PayrollApp):
    """Foundation Software (FOUNDATION for Windows/Cloud) payroll: shares the ERP's job numbers."""

    name: ClassVar[str] = "foundation_payroll"
    label: ClassVar[str] = "Foundation Software Payroll"
    T_EMP, T_JOBS, T_RATES, T_HOURS = "pr_employees", "pr_jobs", "pr_prevailing_rates", "pr_time_entries"
    T_BATCH, T_EARN, T_PAY = "pr_payrolls", "pr_payroll_detail", "pr_checks"
    S_OPEN, S_STAGED, S_RELEASED, S_ACTIVE, S_TERM = "Open", "Calculated", "Posted", "A", "T"
    EX_EMPLOYEE, EX_BATCH, EX_JOB = "0001", "PR20260131", "1042-00"
    TOOL_NAMES = {
        "hours.list": "time_entries.list",
        "batches.list": "payrolls.list",
        "earnings.list": "payroll_detail.list",
        "payments.list": "checks.list",
        "batches.stage": "payrolls.calculate",
    }


@register
class AdpWorkforceNow(PayrollApp):
    """ADP Workforce Now: workers, time cards, payroll runs with preview, pay statements."""

    name: ClassVar[str] = "adp"
    label: ClassVar[str] = "ADP Workforce Now"
    T_EMP, T_JOBS, T_RATES, T_HOURS = "workers", "cost_numbers", "prevailing_wage_rates", "time_cards"
    T_BATCH, T_EARN, T_PAY = "payroll_runs", "earnings", "pay_statements"
    S_OPEN, S_STAGED, S_RELEASED, S_ACTIVE, S_TERM = "Open", "Preview", "Processed", "Active", "Terminated"
    EX_EMPLOYEE, EX_BATCH, EX_JOB = "100201", "WK260131", "1042"
    TOOL_NAMES = {
        "employees.list": "workers.list",
        "employees.get": "workers.get",
        "hours.list": "time_cards.list",
        "batches.list": "payroll_runs.list",
        "earnings.list": "pay_data.earnings",
        "payments.list": "pay_statements.list",
        "batches.stage": "payroll_runs.preview",
    }


@register
class RipplingPayroll(PayrollApp):
    """Rippling Payroll: employees (role ids), approved hours, pay runs (draft → paid), payments."""

    name: ClassVar[str] = "rippling"
    label: ClassVar[str] = "Rippling Payroll"
    T_EMP, T_JOBS, T_RATES, T_HOURS = "employees", "job_codes", "prevailing_wage_rates", "approved_hours"
    T_BATCH, T_EARN, T_PAY = "pay_runs", "pay_run_earnings", "payments"
    S_OPEN, S_STAGED, S_RELEASED, S_ACTIVE, S_TERM = "UPCOMING", "DRAFT", "PAID", "ACTIVE", "TERMINATED"
    EX_EMPLOYEE, EX_BATCH, EX_JOB = "5f00000000000000000003e9", "6a1f0c2d9e8b7a6f5e4d3c2b", "1042"
    TOOL_NAMES = {
        "hours.list": "time_entries.list",
        "batches.list": "pay_runs.list",
        "earnings.list": "pay_runs.earnings",
        "batches.stage": "pay_runs.create_draft",
    }
