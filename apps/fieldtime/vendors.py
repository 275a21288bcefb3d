"""The two field time-tracking apps: constants only."""

from __future__ import annotations

from typing import ClassVar

from cfab.apps.fieldtime.base import FieldTimeApp
from cfab.apps.registry import register


@register
class Rhumbix(FieldTimeApp):
    """Rhumbix: crew timekeeping entries approved by the foreman/superintendent."""

    name: ClassVar[str] = "rhumbix"
    label: ClassVar[str] = "Rhumbix"
    T_PROJ, T_CC, T_WORK, T_CREW, T_TC = "projects", "cost_codes", "employees", "crews", "timekeeping_entries"
    PENDING, APPROVED, S_ACTIVE, S_INACTIVE = "PENDING", "APPROVED", "ACTIVE", "INACTIVE"
    EX_WORKER, EX_TIMECARD = "RX-1001", "te_3f9a0c12d4e5b6a7"
    TOOL_NAMES = {
        "timecards.list": "timekeeping.entries.list",
        "timecards.get": "timekeeping.entries.get",
        "timecards.approve": "timekeeping.entries.approve",
        "workers.list": "employees.list",
        "payroll_export.summary": "reports.payroll_export",
    }


@register
class Busybusy(FieldTimeApp):
    """busybusy: members' time entries, approved by a supervisor."""

    name: ClassVar[str] = "busybusy"
    label: ClassVar[str] = "busybusy"
    T_PROJ, T_CC, T_WORK, T_CREW, T_TC = "projects", "cost_codes", "members", "member_groups", "time_entries"
    PENDING, APPROVED, S_ACTIVE, S_INACTIVE = "Pending", "Approved", "Active", "Archived"
    EX_WORKER, EX_TIMECARD = "bb-000003e9", "1c9e2f4a-7b3d-4e8f-9a0b-c1d2e3f4a5b6"
    TOOL_NAMES = {
        "timecards.list": "time_entries.list",
        "timecards.get": "time_entries.get",
        "timecards.approve": "time_entries.approve",
        "workers.list": "members.list",
        "crews.list": "member_groups.list",
        "payroll_export.summary": "reports.time_by_cost_code",
    }
