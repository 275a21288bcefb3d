"""The three payroll vocabularies: how each vendor names the archetype's tables, spells its status
words, numbers its pay batches and names its tools.

A :class:`PayrollDialect` holds every difference between two payroll systems; everything else
(the columns, the projection from the book, the rules, the tools) is written once for the
archetype (``cfab.apps.payroll.model``, ``gen`` and ``base``). The model is sqlglot's
``dialects/*.py``: one frozen object per vendor, data only.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PayrollTables:
    """The native name of each of the archetype's tables (``cfab.apps.payroll.model.TABLES``)."""

    employees: str
    jobs: str
    prevailing_wage_rates: str
    hours: str
    batches: str
    earnings: str
    payments: str
    remittances: str = "remittances"  # union fringe-benefit remittances per local and work month
    calendar: str = "pay_calendar"  # the pay weeks ahead and their pay dates


@dataclass(frozen=True)
class PayrollWords:
    """The words a vendor stores in its status and payment-method columns."""

    employee_active: str
    employee_terminated: str
    batch_open: str  # the clock week's batch, before it is staged
    batch_staged: str  # earnings built from approved hours, not yet released
    batch_released: str  # paid: final
    payment_check: str
    payment_direct_deposit: str
    job_active: str = "Active"
    job_closed: str = "Closed"
    remittance_staged: str = "Staged"  # a fringe remittance prepared, awaiting payment approval
    remittance_paid: str = "Paid"  # paid to the local's benefit funds: final

    def __post_init__(self) -> None:
        batch = (self.batch_open, self.batch_staged, self.batch_released)
        if len(set(batch)) != len(batch):
            raise ValueError(f"the open, staged and released batch words must differ: {batch}")
        if self.remittance_staged == self.remittance_paid:
            raise ValueError("the staged and paid remittance words must differ")


@dataclass(frozen=True)
class RemittanceIds:
    """A fringe remittance is named ``prefix`` + the work month (``%Y%m``) + ``-`` + the local code:
    ``UF202512-IBEW-134``."""

    prefix: str = "REM"

    def of(self, local: str, period: str) -> str:
        """The id of ``local``'s remittance for ``period`` ('2025-12')."""
        return f"{self.prefix}{period.replace('-', '')}-{local}"


@dataclass(frozen=True)
class DatedBatchIds:
    """A pay batch is named by a prefix and its period-end date: ``WK`` + ``%y%m%d`` -> WK260131."""

    prefix: str
    date_format: str


@dataclass(frozen=True)
class HashedBatchIds:
    """A pay batch is named by the first ``length`` hex digits of md5(``namespace`` || the book's batch id)."""

    namespace: str
    length: int


@dataclass(frozen=True)
class PayrollExamples:
    """Ids in this vendor's format, quoted in the tool descriptions."""

    employee: str
    batch: str
    job: str


@dataclass(frozen=True)
class PayrollDialect:
    """One payroll vendor: every way it differs from the archetype's reference vocabulary."""

    app: str  # the schema and tool namespace
    label: str  # the product name agents read
    tables: PayrollTables
    words: PayrollWords
    batch_ids: DatedBatchIds | HashedBatchIds
    examples: PayrollExamples
    tool_names: dict[str, str] = field(default_factory=dict)  # archetype tool name -> native name
    remittance_ids: RemittanceIds = field(default_factory=RemittanceIds)
    shares_job_ids_with: str | None = None  # the system whose job ids it keeps (book.system_job_id)

    @property
    def job_system(self) -> str:
        """The system whose spelling of job numbers this payroll keeps (itself unless it shares one)."""
        return self.shares_job_ids_with or self.app


FOUNDATION_PAYROLL = PayrollDialect(
    app="foundation_payroll",
    label="Foundation Software Payroll",
    tables=PayrollTables(
        employees="pr_employees",
        jobs="pr_jobs",
        prevailing_wage_rates="pr_prevailing_rates",
        hours="pr_time_entries",
        batches="pr_payrolls",
        earnings="pr_payroll_detail",
        payments="pr_checks",
        remittances="pr_union_remittances",
        calendar="pr_payroll_calendar",
    ),
    words=PayrollWords(
        employee_active="A",
        employee_terminated="T",
        batch_open="Open",
        batch_staged="Calculated",
        batch_released="Posted",
        payment_check="Check",
        payment_direct_deposit="Direct Deposit",
        remittance_staged="Pending Approval",
        remittance_paid="Paid",
    ),
    batch_ids=DatedBatchIds(prefix="PR", date_format="%Y%m%d"),
    examples=PayrollExamples(employee="0001", batch="PR20260131", job="1042-00"),
    tool_names={
        "hours.list": "time_entries.list",
        "batches.list": "payrolls.list",
        "earnings.list": "payroll_detail.list",
        "payments.list": "checks.list",
        "batches.stage": "payrolls.calculate",
        "hours.import": "time_entries.import",
        "remittances.list": "union_remittances.list",
        "remittances.stage": "union_remittances.create",
        "remittances.pay": "union_remittances.pay",
        "calendar.list": "payroll_calendar.list",
    },
    remittance_ids=RemittanceIds(prefix="UF"),
    shares_job_ids_with="foundation_erp",
)

ADP = PayrollDialect(
    app="adp",
    label="ADP Workforce Now",
    tables=PayrollTables(
        employees="workers",
        jobs="cost_numbers",
        prevailing_wage_rates="prevailing_wage_rates",
        hours="time_cards",
        batches="payroll_runs",
        earnings="earnings",
        payments="pay_statements",
        remittances="benefit_remittances",
    ),
    words=PayrollWords(
        employee_active="Active",
        employee_terminated="Terminated",
        batch_open="Open",
        batch_staged="Preview",
        batch_released="Processed",
        payment_check="Check",
        payment_direct_deposit="Direct Deposit",
        remittance_staged="Prepared",
        remittance_paid="Remitted",
    ),
    batch_ids=DatedBatchIds(prefix="WK", date_format="%y%m%d"),
    examples=PayrollExamples(employee="100201", batch="WK260131", job="1042"),
    tool_names={
        "employees.list": "workers.list",
        "employees.get": "workers.get",
        "hours.list": "time_cards.list",
        "batches.list": "payroll_runs.list",
        "earnings.list": "pay_data.earnings",
        "payments.list": "pay_statements.list",
        "batches.stage": "payroll_runs.preview",
        "hours.import": "time_cards.import",
        "remittances.list": "benefit_remittances.list",
        "remittances.stage": "benefit_remittances.prepare",
        "remittances.pay": "benefit_remittances.submit_payment",
        "calendar.list": "pay_calendar.list",
    },
    remittance_ids=RemittanceIds(prefix="BR"),
)

RIPPLING = PayrollDialect(
    app="rippling",
    label="Rippling Payroll",
    tables=PayrollTables(
        employees="employees",
        jobs="job_codes",
        prevailing_wage_rates="prevailing_wage_rates",
        hours="approved_hours",
        batches="pay_runs",
        earnings="pay_run_earnings",
        payments="payments",
        remittances="union_fringe_payments",
        calendar="pay_schedule_periods",
    ),
    words=PayrollWords(
        employee_active="ACTIVE",
        employee_terminated="TERMINATED",
        batch_open="UPCOMING",
        batch_staged="DRAFT",
        batch_released="PAID",
        payment_check="CHECK",
        payment_direct_deposit="DIRECT_DEPOSIT",
        remittance_staged="DRAFT",
        remittance_paid="PAID",
    ),
    batch_ids=HashedBatchIds(namespace="rippling:payrun:", length=24),
    examples=PayrollExamples(employee="5f00000000000000000003e9", batch="6a1f0c2d9e8b7a6f5e4d3c2b", job="1042"),
    tool_names={
        "hours.list": "time_entries.list",
        "batches.list": "pay_runs.list",
        "earnings.list": "pay_runs.earnings",
        "batches.stage": "pay_runs.create_draft",
        "hours.import": "time_entries.sync",
        "remittances.list": "union_fringe_payments.list",
        "remittances.stage": "union_fringe_payments.create_draft",
        "remittances.pay": "union_fringe_payments.pay",
        "calendar.list": "pay_schedules.periods",
    },
    remittance_ids=RemittanceIds(prefix="ufp_"),
)

DIALECTS: dict[str, PayrollDialect] = {d.app: d for d in (FOUNDATION_PAYROLL, ADP, RIPPLING)}
