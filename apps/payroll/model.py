"""The payroll archetype written once: its tables, and the SQL that projects the book into them.

Every vendor keeps these columns; a vendor's dialect (``cfab.apps.payroll.dialects``) only names
the tables, spells the status words and numbers the batches. The SQL below is the archetype's
own, over a ``vendor`` schema; the generator (``cfab.apps.payroll.gen``) parses it with sqlglot
and puts each vendor's pieces in:

* ``vendor.<table>``: the vendor's native table (``vendor.batches`` -> ``adp.payroll_runs``);
* ``$<word>``: a word of :class:`~cfab.apps.payroll.dialects.PayrollWords` (``$batch_released``),
  ``$system`` (the app, whose employee ids it keeps) and ``$job_system`` (whose job ids it keeps);
* ``vendor_job_id(job_number)`` and ``vendor_batch_id(book_batch_id, period_end)``: the vendor's
  job and pay-batch ids.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    """One column of an archetype table; ``words`` names the vocabulary words its values are."""

    name: str
    type: str
    required: bool = True
    note: str = ""
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    """One archetype table: its logical name, what it holds and its columns in native order."""

    name: str
    comment: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...]

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]


def _c(name: str, type_: str = "VARCHAR", required: bool = True, note: str = "", words: tuple[str, ...] = ()) -> Column:
    return Column(name, type_, required, note, words)


RATE, HOURS, MONEY = "DECIMAL(9,4)", "DECIMAL(9,2)", "DECIMAL(18,2)"

TABLES: tuple[Table, ...] = (
    Table(
        "employees",
        "Employees as this payroll system knows them (ids from the company's identity map).",
        (
            _c("employee_id", note="this system's employee id"),
            _c("first_name"),
            _c("last_name"),
            _c("trade"),
            _c("classification", note="wage-determination classification"),
            _c("level", note="journeyman | apprentice | foreman"),
            _c("apprentice_registration", required=False),
            _c("apprentice_pct", RATE, required=False, note="apprentice rate as % of journeyman"),
            _c("union_local", required=False),
            _c("base_rate", RATE, note="hourly"),
            _c("fringe_rate", RATE, note="hourly"),
            _c("hire_date", "DATE"),
            _c("status", words=("employee_active", "employee_terminated")),
        ),
        ("employee_id",),
    ),
    Table(
        "jobs",
        "Jobs labour is costed to.",
        (
            _c("job_id"),
            _c("description"),
            _c("prevailing_wage", "BOOLEAN"),
            _c("state"),
            _c("status", words=("job_active", "job_closed")),
        ),
        ("job_id",),
    ),
    Table(
        "prevailing_wage_rates",
        "Prevailing-wage rate table per job and classification (journeyman rates of the determination).",
        (
            _c("job_id"),
            _c("classification"),
            _c("determination", note="'IL20250012-mod3'"),
            _c("base_rate", RATE),
            _c("fringe_rate", RATE),
        ),
        ("job_id", "classification"),
    ),
    Table(
        "hours",
        "Approved hours imported from the field-time systems, per employee, week and job.",
        (
            _c("employee_id"),
            _c("week_ending", "DATE", note="Saturday"),
            _c("job_id"),
            _c("regular_hours", HOURS),
            _c("overtime_hours", HOURS),
            _c("source", note="'rhumbix' | 'busybusy'"),
        ),
        ("employee_id", "week_ending", "job_id"),
    ),
    Table(
        "batches",
        "Pay batches: past weeks released, the clock week open.",
        (
            _c("batch_id"),
            _c("period_start", "DATE"),
            _c("period_end", "DATE"),
            _c("check_date", "DATE"),
            _c("status", words=("batch_open", "batch_staged", "batch_released")),
            _c("bank_account", note="the funding account number"),
            _c("total_gross", MONEY, required=False),
            _c("staged_at", "TIMESTAMP", required=False),
            _c("released_at", "TIMESTAMP", required=False),
        ),
        ("batch_id",),
    ),
    Table(
        "earnings",
        "Earnings lines per batch, employee and job.",
        (
            _c("batch_id"),
            _c("employee_id"),
            _c("job_id"),
            _c("regular_hours", HOURS),
            _c("overtime_hours", HOURS),
            _c("rate", RATE),
            _c("fringe_rate", RATE),
            _c("gross_pay", MONEY),
            _c("withholding", MONEY, required=False, note="calculated at release"),
            _c("net_pay", MONEY, required=False),
        ),
        ("batch_id", "employee_id", "job_id"),
    ),
    Table(
        "remittances",
        "Union fringe-benefit remittances: one per local and work month, staged here and paid to the "
        "local's benefit funds (paying is guarded).",
        (
            _c("remittance_id", note="{label}'s remittance id"),
            _c("union_local", note="the local's code 'CARP-58'"),
            _c("period", note="the work month 'YYYY-MM'"),
            _c("hours", HOURS, note="hours worked reported to the local"),
            _c("amount", MONEY, note="contributions owed"),
            _c("status", words=("remittance_staged", "remittance_paid")),
            _c("memo", required=False),
            _c("staged_at", "TIMESTAMP", required=False),
            _c("paid_at", "TIMESTAMP", required=False),
        ),
        ("remittance_id",),
    ),
    Table(
        "calendar",
        "The pay calendar: the pay weeks ahead, each with its pay (check / direct-deposit) date.",
        (
            _c("period_start", "DATE", note="Sunday"),
            _c("period_end", "DATE", note="Saturday"),
            _c("pay_date", "DATE", note="the check / direct-deposit date"),
            _c("batch_id", note="the pay batch the week is (or will be) paid in"),
            _c("frequency", note="'Weekly'"),
        ),
        ("period_end",),
    ),
    Table(
        "payments",
        "Checks and direct deposits of released batches (one per employee per batch).",
        (
            _c("batch_id"),
            _c("employee_id"),
            _c("payment_method", words=("payment_check", "payment_direct_deposit")),
            _c("check_number", "INTEGER", required=False),
            _c("bank_account"),
            _c("pay_date", "DATE"),
            _c("gross_pay", MONEY),
            _c("net_pay", MONEY),
        ),
        ("batch_id", "employee_id"),
    ),
)

# ---------------------------------------------------------------------------------------------
# The projection of the book: one SELECT per table, in the table's column order
# ---------------------------------------------------------------------------------------------
PROJECTIONS: dict[str, tuple[str, str]] = {  # table -> (comment, SELECT)
    "employees": (
        "",
        """
SELECT ei.system_employee_id, e.first_name, e.last_name, e.trade, e.classification, e.level,
       e.apprentice_registration, e.apprentice_pct, e.union_local, e.base_rate, e.fringe_rate, e.hire_date,
       CASE e.status WHEN 'active' THEN $employee_active ELSE $employee_terminated END
FROM book.employees e
JOIN book.employee_identities ei ON ei.employee_id = e.employee_id AND ei.system = $system
ORDER BY ei.system_employee_id""",
    ),
    "jobs": (
        "",
        """
SELECT vendor_job_id(j.job_number), j.name, j.is_prevailing_wage, j.state,
       CASE j.status WHEN 'active' THEN $job_active ELSE $job_closed END
FROM book.jobs j
ORDER BY j.job_number""",
    ),
    "prevailing_wage_rates": (
        "The determination in force on the clock date, per prevailing-wage job.",
        """
SELECT vendor_job_id(d.job_number), r.classification, d.determination_id, r.base_rate, r.fringe_rate
FROM (
    SELECT wd.*, row_number() OVER (PARTITION BY wd.job_number
                                    ORDER BY wd.effective_date DESC, wd.modification DESC, wd.determination_id) AS rn
    FROM book.wage_determinations wd
    JOIN book.jobs j ON j.job_number = wd.job_number AND j.is_prevailing_wage
    WHERE wd.effective_date <= (SELECT CAST(value AS DATE) FROM cfab_internal.meta WHERE key = 'clock')
) d
JOIN book.wage_rates r ON r.determination_id = d.determination_id
WHERE d.rn = 1
ORDER BY 1, 2""",
    ),
    "hours": (
        "Approved timecards summed per employee, Sunday-Saturday week and job.",
        """
SELECT ei.system_employee_id,
       CAST(t.work_date + CAST(6 - dayofweek(t.work_date) AS INTEGER) AS DATE) AS week_ending,
       vendor_job_id(t.job_number),
       CAST(sum(t.hours_regular) AS DECIMAL(9,2)), CAST(sum(t.hours_overtime) AS DECIMAL(9,2)),
       min(t.source_system)
FROM book.timecards t
JOIN book.employee_identities ei ON ei.employee_id = t.employee_id AND ei.system = $system
WHERE t.approved
GROUP BY ei.system_employee_id, week_ending, t.job_number
ORDER BY 1, 2, 3""",
    ),
    "batches": (
        "Released batches carry their gross and release time; the open batch is not staged yet.",
        """
SELECT vendor_batch_id(b.batch_id, b.period_end), b.period_start, b.period_end, b.check_date,
       CASE b.status WHEN 'released' THEN $batch_released ELSE $batch_open END,
       a.account_number,
       CASE WHEN b.status = 'released' THEN
           (SELECT CAST(sum(pe.gross_pay) AS DECIMAL(18,2)) FROM book.payroll_earnings pe
            WHERE pe.batch_id = b.batch_id)
       END,
       NULL,
       CASE WHEN b.status = 'released' THEN CAST(b.check_date AS TIMESTAMP) - INTERVAL 3 DAY + INTERVAL 10 HOUR END
FROM book.payroll_batches b
JOIN book.bank_accounts a ON a.bank_account_id = b.bank_account_id
ORDER BY b.batch_id""",
    ),
    "earnings": (
        "The earnings of released batches (the open batch has none until it is staged).",
        """
SELECT vendor_batch_id(b.batch_id, b.period_end), ei.system_employee_id, vendor_job_id(pe.job_number),
       pe.hours_regular, pe.hours_overtime, pe.rate_paid, pe.fringe_paid, pe.gross_pay, pe.withholding, pe.net_pay
FROM book.payroll_earnings pe
JOIN book.payroll_batches b ON b.batch_id = pe.batch_id AND b.status = 'released'
JOIN book.employee_identities ei ON ei.employee_id = pe.employee_id AND ei.system = $system
ORDER BY 1, 2, 3""",
    ),
    "remittances": (
        "The months before the work month now due, as remitted under the collective agreements: "
        "each local's members' hours (transfer cards honoured) on jobs inside its jurisdiction, of the "
        "pay weeks ending in the month, at the agreement's rate for the level, paid on the 20th of the "
        "following month.",
        """
WITH clock AS (SELECT CAST(value AS DATE) AS d FROM cfab_internal.meta WHERE key = 'clock'),
lines AS (
    SELECT CAST(date_trunc('month', b.period_end) AS DATE) AS m,
           CASE WHEN t.employee_id IS NOT NULL AND b.period_end < t.effective_date THEN t.from_local
                ELSE e.union_local END AS union_local,
           e.level, j.county, pe.hours_regular + pe.hours_overtime AS hours
    FROM book.payroll_batches b
    JOIN book.payroll_earnings pe ON pe.batch_id = b.batch_id
    JOIN book.employees e ON e.employee_id = pe.employee_id AND e.union_local IS NOT NULL
    JOIN book.jobs j ON j.job_number = pe.job_number
    LEFT JOIN book.union_transfers t ON t.employee_id = e.employee_id
    WHERE b.status = 'released'
      AND b.period_end < (SELECT CAST(date_trunc('month', d) - INTERVAL 1 MONTH AS DATE) FROM clock)
),
per_local AS (
    SELECT l.union_local, l.m, CAST(sum(l.hours) AS DECIMAL(9,2)) AS hours,
           CAST(round(sum(l.hours * CASE WHEN l.level = 'apprentice' THEN coalesce(a.apprentice_rate, a.journeyman_rate)
                                         ELSE a.journeyman_rate END), 2) AS DECIMAL(18,2)) AS amount
    FROM lines l
    JOIN book.union_agreements a ON a.local_code = l.union_local
    JOIN book.union_jurisdictions uj ON uj.local_code = l.union_local AND uj.county = l.county
    GROUP BY l.union_local, l.m
)
SELECT vendor_remittance_id(p.union_local, p.m), p.union_local, strftime(p.m, '%Y-%m'), p.hours, p.amount,
       $remittance_paid, NULL,
       CAST(p.m + INTERVAL 1 MONTH + INTERVAL 14 DAY AS TIMESTAMP) + INTERVAL 9 HOUR,
       CAST(p.m + INTERVAL 1 MONTH + INTERVAL 19 DAY AS TIMESTAMP) + INTERVAL 10 HOUR
FROM per_local p
WHERE p.hours > 0
ORDER BY p.m, p.union_local""",
    ),
    "calendar": (
        "The company's weekly pay calendar from the first pay date after the clock.",
        """
SELECT c.period_start, c.period_end, c.pay_date, vendor_batch_id(c.batch_id, c.period_end), c.frequency
FROM book.payroll_calendar c
ORDER BY c.period_end""",
    ),
    "payments": (
        "One payment per employee per released batch; a paper check when the register holds one "
        "for that employee, account, date and amount, otherwise a direct deposit.",
        """
WITH per_emp AS (
    SELECT pe.batch_id, pe.employee_id, CAST(sum(pe.gross_pay) AS DECIMAL(18,2)) AS gross,
           CAST(sum(pe.net_pay) AS DECIMAL(18,2)) AS net
    FROM book.payroll_earnings pe
    GROUP BY pe.batch_id, pe.employee_id
)
SELECT vendor_batch_id(b.batch_id, b.period_end), ei.system_employee_id,
       CASE WHEN c.check_id IS NOT NULL THEN $payment_check ELSE $payment_direct_deposit END,
       c.check_number, a.account_number, b.check_date, p.gross, p.net
FROM per_emp p
JOIN book.payroll_batches b ON b.batch_id = p.batch_id AND b.status = 'released'
JOIN book.bank_accounts a ON a.bank_account_id = b.bank_account_id
JOIN book.employees e ON e.employee_id = p.employee_id
JOIN book.employee_identities ei ON ei.employee_id = p.employee_id AND ei.system = $system
LEFT JOIN (
    SELECT ck.*, row_number() OVER (PARTITION BY ck.bank_account_id, ck.issue_date, ck.payee_name, ck.amount
                                    ORDER BY ck.check_number) AS rn
    FROM book.checks ck
    WHERE ck.payee_vendor_key IS NULL
) c ON c.bank_account_id = b.bank_account_id AND c.issue_date = b.check_date
   AND c.payee_name = e.first_name || ' ' || e.last_name AND c.amount = p.net AND c.rn = 1
ORDER BY 1, 2""",
    ),
}

# ---------------------------------------------------------------------------------------------
# Entity projections for the consistency check (views/consistency.py)
# ---------------------------------------------------------------------------------------------
ENTITIES: tuple[tuple[str, str], ...] = (  # (entity, SELECT)
    (
        "employee",
        """
SELECT coalesce(m.master_employee_id, e.employee_id) AS entity_key,
       e.first_name || ' ' || e.last_name AS name,
       e.classification AS classification,
       e.base_rate AS base_rate
FROM vendor.employees e
LEFT JOIN hh2.employee_map m ON m.system = $system AND m.system_employee_id = e.employee_id""",
    ),
    (
        "job",
        """
SELECT coalesce(m.master_job_number, j.job_id) AS entity_key, j.description AS name
FROM vendor.jobs j
LEFT JOIN hh2.job_map m ON m.system = $job_system AND m.system_job_id = j.job_id""",
    ),
    (
        "check",
        """
SELECT ba.bank_account_id || '|' || CAST(p.check_number AS VARCHAR) AS entity_key,
       CAST(p.net_pay AS DECIMAL(18,2)) AS amount,
       e.first_name || ' ' || e.last_name AS payee_name,
       p.pay_date AS issue_date
FROM vendor.payments p
JOIN vendor.employees e ON e.employee_id = p.employee_id
JOIN book.bank_accounts ba ON ba.account_number = p.bank_account
WHERE p.check_number IS NOT NULL""",
    ),
)
