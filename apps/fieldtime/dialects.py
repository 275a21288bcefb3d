"""The two field time-tracking vocabularies: how each vendor names the archetype's tables, spells
its status words, makes its ids and names its tools.

A :class:`FieldTimeDialect` holds every difference between two field-time apps; everything else
(the columns, the projection from the book, the rules, the tools) is written once for the
archetype (``cfab.apps.fieldtime.model``, ``gen`` and ``base``). The model is sqlglot's
``dialects/*.py``: one frozen object per vendor, data only.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FieldTimeTables:
    """The native name of each of the archetype's tables (``cfab.apps.fieldtime.model.TABLES``)."""

    projects: str
    cost_codes: str
    workers: str
    crews: str
    timecards: str
    equipment: str
    equipment_logs: str


@dataclass(frozen=True)
class FieldTimeWords:
    """The words a vendor stores in its status columns."""

    timecard_pending: str
    timecard_approved: str
    record_active: str  # a project or worker in use
    record_inactive: str  # a closed project, a worker who left
    hours_operating: str  # an equipment log of the unit working
    hours_idle: str  # an equipment log of the unit on site, standing by

    def __post_init__(self) -> None:
        if self.timecard_pending == self.timecard_approved:
            raise ValueError(f"a pending and an approved timecard need different words: {self.timecard_pending!r}")
        if self.hours_operating == self.hours_idle:
            raise ValueError(f"operating and idle equipment hours need different words: {self.hours_idle!r}")


@dataclass(frozen=True)
class JobNumberIds:
    """Records are named by the company job number, as this system spells it (``book.system_job_id``)."""


@dataclass(frozen=True)
class HashedIds:
    """``prefix`` and the first ``length`` hex digits of md5(``namespace`` || the record's book key)."""

    prefix: str
    namespace: str
    length: int


@dataclass(frozen=True)
class UuidIds:
    """A UUID-shaped id: md5(``namespace`` || the record's book key) grouped 8-4-4-4-12."""

    namespace: str


IdFormat = JobNumberIds | HashedIds | UuidIds


@dataclass(frozen=True)
class FieldTimeExamples:
    """Ids in this vendor's format, quoted in the tool descriptions."""

    worker: str
    timecard: str
    equipment: str


@dataclass(frozen=True)
class FieldTimeDialect:
    """One field time-tracking vendor: every way it differs from the archetype's reference vocabulary."""

    app: str  # the schema and tool namespace (and the timecards' source system)
    label: str  # the product name agents read
    tables: FieldTimeTables
    words: FieldTimeWords
    project_ids: IdFormat  # book key: the job number
    crew_ids: IdFormat  # book key: job number ':' trade
    timecard_ids: IdFormat  # book key: the book's timecard id
    equipment_ids: IdFormat  # book key: the company's unit number
    equipment_log_ids: IdFormat  # book key: the book's equipment log id
    examples: FieldTimeExamples
    tool_names: dict[str, str] = field(default_factory=dict)  # archetype tool name -> native name


RHUMBIX = FieldTimeDialect(
    app="rhumbix",
    label="Rhumbix",
    tables=FieldTimeTables(
        projects="projects",
        cost_codes="cost_codes",
        workers="employees",
        crews="crews",
        timecards="timekeeping_entries",
        equipment="equipment",
        equipment_logs="equipment_entries",
    ),
    words=FieldTimeWords(
        timecard_pending="PENDING",
        timecard_approved="APPROVED",
        record_active="ACTIVE",
        record_inactive="INACTIVE",
        hours_operating="RUNNING",
        hours_idle="STANDBY",
    ),
    project_ids=JobNumberIds(),
    crew_ids=HashedIds(prefix="crew_", namespace="rhumbix:crew:", length=10),
    timecard_ids=HashedIds(prefix="te_", namespace="rhumbix:entry:", length=16),
    equipment_ids=HashedIds(prefix="eq_", namespace="rhumbix:equipment:", length=10),
    equipment_log_ids=HashedIds(prefix="ee_", namespace="rhumbix:equipment_entry:", length=16),
    examples=FieldTimeExamples(worker="RX-1001", timecard="te_3f9a0c12d4e5b6a7", equipment="eq_5b1e07c9a2"),
    tool_names={
        "timecards.list": "timekeeping.entries.list",
        "timecards.get": "timekeeping.entries.get",
        "timecards.approve": "timekeeping.entries.approve",
        "timecards.approve_many": "timekeeping.entries.bulk_approve",
        "workers.list": "employees.list",
        "payroll_export.summary": "reports.payroll_export",
        "equipment_logs.list": "equipment.entries.list",
        "equipment_logs.summary": "reports.equipment_hours",
    },
)

BUSYBUSY = FieldTimeDialect(
    app="busybusy",
    label="busybusy",
    tables=FieldTimeTables(
        projects="projects",
        cost_codes="cost_codes",
        workers="members",
        crews="member_groups",
        timecards="time_entries",
        equipment="equipment",
        equipment_logs="equipment_hours",
    ),
    words=FieldTimeWords(
        timecard_pending="Pending",
        timecard_approved="Approved",
        record_active="Active",
        record_inactive="Archived",
        hours_operating="Operating",
        hours_idle="Idle",
    ),
    project_ids=UuidIds(namespace="busybusy:project:"),
    crew_ids=UuidIds(namespace="busybusy:group:"),
    timecard_ids=UuidIds(namespace="busybusy:entry:"),
    equipment_ids=UuidIds(namespace="busybusy:equipment:"),
    equipment_log_ids=UuidIds(namespace="busybusy:equipment_hours:"),
    examples=FieldTimeExamples(
        worker="bb-000003e9",
        timecard="1c9e2f4a-7b3d-4e8f-9a0b-c1d2e3f4a5b6",
        equipment="7d0c4b2e-9f13-4a6e-8b25-3c1f0e9d7a64",
    ),
    tool_names={
        "timecards.list": "time_entries.list",
        "timecards.get": "time_entries.get",
        "timecards.approve": "time_entries.approve",
        "timecards.approve_many": "time_entries.bulk_approve",
        "workers.list": "members.list",
        "crews.list": "member_groups.list",
        "payroll_export.summary": "reports.time_by_cost_code",
        "equipment_logs.list": "equipment_hours.list",
        "equipment_logs.summary": "reports.equipment_usage",
    },
)

DIALECTS: dict[str, FieldTimeDialect] = {d.app: d for d in (RHUMBIX, BUSYBUSY)}
