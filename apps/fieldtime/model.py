"""The field-time archetype written once: its tables, and the SQL that projects the book into them.

Every vendor keeps these columns; a vendor's dialect (``cfab.apps.fieldtime.dialects``) only names
the tables, spells the status words and makes the ids. The SQL below is the archetype's own, over
a ``vendor`` schema; the generator (``cfab.apps.fieldtime.gen``) parses it with sqlglot and puts
each vendor's pieces in:

* ``vendor.<table>``: the vendor's native table (``vendor.timecards`` -> ``rhumbix.timekeeping_entries``);
* ``$<word>``: a word of :class:`~cfab.apps.fieldtime.dialects.FieldTimeWords` (``$timecard_approved``)
  and ``$system`` (the app: the timecards' source system, whose employee and job ids it keeps);
* ``vendor_job_number(job_number)``, ``vendor_project_id(job_number)``,
  ``vendor_crew_id(job_number || ':' || trade)``, ``vendor_timecard_id(timecard_id)``,
  ``vendor_equipment_id(unit_number)`` and ``vendor_equipment_log_id(log_id)``: the vendor's ids
  of a book record.

Each vendor projects only the timecards whose source system it is, with the projects, cost codes,
workers and crews they use, and the equipment units whose hours its jobs' crews log, with those
logs (operating or idle). Approved cards have been exported to payroll (the payroll apps hold
their hours): approved at 18:00 on the work day, exported by the nightly run (on the clock day:
at midday).
"""

from __future__ import annotations

from cfab.apps.payroll.model import Column, Table

HOURS, MONEY = "DECIMAL(9,2)", "DECIMAL(18,2)"


def _c(name: str, type_: str = "VARCHAR", required: bool = True, note: str = "", words: tuple[str, ...] = ()) -> Column:
    return Column(name, type_, required, note, words)


_STATUS = _c("status", words=("record_active", "record_inactive"))

TABLES: tuple[Table, ...] = (
    Table(
        "projects",
        "",
        (
            _c("project_id"),
            _c("job_number", note="the company's job number as {label} holds it"),
            _c("name"),
            _c("superintendent"),
            _c("city"),
            _c("state"),
            _STATUS,
        ),
        ("project_id",),
    ),
    Table(
        "cost_codes",
        "Cost codes enabled on each project.",
        (_c("project_id"), _c("cost_code", note="CSI MasterFormat '26-100'"), _c("description")),
        ("project_id", "cost_code"),
    ),
    Table(
        "workers",
        "Field workers (ids from the company's identity map).",
        (
            _c("employee_id"),
            _c("first_name"),
            _c("last_name"),
            _c("trade"),
            _c("classification"),
            _c("level", note="journeyman | apprentice | foreman"),
            _c("union_local", required=False),
            _STATUS,
        ),
        ("employee_id",),
    ),
    Table(
        "crews",
        "Crews: one per project and trade, led by a foreman of that trade when one works there.",
        (_c("crew_id"), _c("project_id"), _c("name"), _c("trade"), _c("foreman_employee_id", required=False)),
        ("crew_id",),
    ),
    Table(
        "timecards",
        "Daily timecards per worker, project and cost code.",
        (
            _c("timecard_id"),
            _c("employee_id"),
            _c("project_id"),
            _c("crew_id", required=False),
            _c("cost_code"),
            _c("work_date", "DATE"),
            _c("regular_hours", HOURS),
            _c("overtime_hours", HOURS),
            _c("status", words=("timecard_pending", "timecard_approved")),
            _c("approved_by", required=False),
            _c("approved_at", "TIMESTAMP", required=False),
            _c("exported_to_payroll", "BOOLEAN", note="picked up by the payroll export (then locked)"),
            _c("exported_at", "TIMESTAMP", required=False),
        ),
        ("timecard_id",),
    ),
    Table(
        "equipment",
        "Equipment units the crews log hours against.",
        (
            _c("equipment_id"),
            _c("equipment_number", note="the company's unit number 'EX-104'"),
            _c("name"),
            _c("make"),
            _c("model"),
            _c("model_year", "INTEGER"),
            _c("hourly_rate", MONEY, note="costing rate keyed when the unit was set up in {label}"),
            _STATUS,
        ),
        ("equipment_id",),
    ),
    Table(
        "equipment_logs",
        "Daily equipment hours per unit, project and cost code, working or standing by.",
        (
            _c("log_id"),
            _c("equipment_id"),
            _c("project_id"),
            _c("cost_code"),
            _c("work_date", "DATE"),
            _c("hour_type", words=("hours_operating", "hours_idle")),
            _c("hours", HOURS),
        ),
        ("log_id",),
    ),
)

# ---------------------------------------------------------------------------------------------
# The projection of the book: one SELECT per table, in the table's column order
# ---------------------------------------------------------------------------------------------
PROJECTIONS: dict[str, tuple[str, str]] = {  # table -> (comment, SELECT)
    "projects": (
        "",
        """
SELECT vendor_project_id(j.job_number), vendor_job_number(j.job_number), j.name, j.superintendent, j.city, j.state,
       CASE j.status WHEN 'active' THEN $record_active ELSE $record_inactive END
FROM book.jobs j
ORDER BY j.job_number""",
    ),
    "cost_codes": (
        "The labour cost codes of each job's budget and every cost code its timecards use.",
        """
SELECT vendor_project_id(j.job_number), c.cost_code, c.description
FROM (
    SELECT job_number, cost_code FROM book.budget_lines
    WHERE cost_code IN (SELECT cost_code FROM book.cost_codes WHERE cost_type = 'L')
    UNION
    SELECT job_number, cost_code FROM book.timecards WHERE source_system = $system
) u
JOIN book.jobs j ON j.job_number = u.job_number
JOIN book.cost_codes c ON c.cost_code = u.cost_code
ORDER BY 1, 2""",
    ),
    "workers": (
        "",
        """
SELECT ei.system_employee_id, e.first_name, e.last_name, e.trade, e.classification, e.level, e.union_local,
       CASE e.status WHEN 'active' THEN $record_active ELSE $record_inactive END
FROM book.employees e
JOIN book.employee_identities ei ON ei.employee_id = e.employee_id AND ei.system = $system
ORDER BY ei.system_employee_id""",
    ),
    "crews": (
        "",
        """
SELECT vendor_crew_id(t.job_number || ':' || e.trade), vendor_project_id(t.job_number),
       e.trade || ' crew - ' || t.job_number, e.trade,
       min(CASE WHEN e.level = 'foreman' THEN ei.system_employee_id END)
FROM book.timecards t
JOIN book.employees e ON e.employee_id = t.employee_id
JOIN book.employee_identities ei ON ei.employee_id = t.employee_id AND ei.system = $system
WHERE t.source_system = $system
GROUP BY t.job_number, e.trade
ORDER BY 1""",
    ),
    "timecards": (
        "Approved at 18:00 on the work day and exported by the nightly run; on the clock day, at midday.",
        """
SELECT vendor_timecard_id(t.timecard_id), ei.system_employee_id, vendor_project_id(t.job_number),
       vendor_crew_id(t.job_number || ':' || e.trade), t.cost_code, t.work_date,
       t.hours_regular, t.hours_overtime,
       CASE WHEN t.approved THEN $timecard_approved ELSE $timecard_pending END,
       CASE WHEN t.approved THEN j.superintendent END,
       CASE WHEN t.approved THEN least(CAST(t.work_date AS TIMESTAMP) + INTERVAL 18 HOUR,
                                       CAST(c.clock AS TIMESTAMP) + INTERVAL 12 HOUR) END,
       t.approved,
       CASE WHEN t.approved THEN least(CAST(t.work_date AS TIMESTAMP) + INTERVAL 26 HOUR,
                                       CAST(c.clock AS TIMESTAMP) + INTERVAL 13 HOUR) END
FROM book.timecards t
JOIN book.jobs j ON j.job_number = t.job_number
JOIN book.employees e ON e.employee_id = t.employee_id
JOIN book.employee_identities ei ON ei.employee_id = t.employee_id AND ei.system = $system
CROSS JOIN (SELECT CAST(value AS DATE) AS clock FROM cfab_internal.meta WHERE key = 'clock') c
WHERE t.source_system = $system
ORDER BY t.timecard_id""",
    ),
    "equipment": (
        "The units whose hours the crews of this app's jobs log (owned and rented alike).",
        """
SELECT vendor_equipment_id(q.unit_number), q.unit_number, q.description, q.make, q.model, q.model_year, q.field_rate,
       $record_active
FROM book.equipment q
WHERE q.field_system = $system
ORDER BY q.unit_number""",
    ),
    "equipment_logs": (
        "",
        """
SELECT vendor_equipment_log_id(h.log_id), vendor_equipment_id(h.unit_number), vendor_project_id(h.job_number),
       h.cost_code, h.work_date, CASE h.hour_type WHEN 'idle' THEN $hours_idle ELSE $hours_operating END, h.hours
FROM book.equipment_hours h
JOIN book.equipment q ON q.unit_number = h.unit_number
WHERE q.field_system = $system
ORDER BY h.log_id""",
    ),
}

# ---------------------------------------------------------------------------------------------
# Entity projections for the consistency check (views/consistency.py)
# ---------------------------------------------------------------------------------------------
ENTITIES: tuple[tuple[str, str], ...] = (  # (entity, SELECT)
    (
        "employee",
        """
SELECT coalesce(m.master_employee_id, w.employee_id) AS entity_key,
       w.first_name || ' ' || w.last_name AS name,
       w.classification AS classification
FROM vendor.workers w
LEFT JOIN hh2.employee_map m ON m.system = $system AND m.system_employee_id = w.employee_id""",
    ),
    (
        "job",
        """
SELECT coalesce(m.master_job_number, p.job_number) AS entity_key, p.name AS name
FROM vendor.projects p
LEFT JOIN hh2.job_map m ON m.system = $system AND m.system_job_id = p.job_number""",
    ),
    (
        "equipment",
        """
SELECT e.equipment_number AS entity_key, e.name AS name, e.hourly_rate AS hourly_rate
FROM vendor.equipment e""",
    ),
)
