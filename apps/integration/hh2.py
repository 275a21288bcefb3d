"""hh2 Cloud Services: the integration hub and its bespoke crosswalks (vendor, job, cost code,
employee and union-local maps). Read-only to agents: mappings are read, never guessed."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field
from sqlglot import exp

from cfab.apps.contract import App
from cfab.apps.kit import ilike
from cfab.apps.registry import register
from cfab.apps.tooling import ToolArgs, ToolError, tool
from cfab.schema.sqlbuild import col, literal


class VendorMapArgs(ToolArgs):
    master_vendor_id: str | None = Field(None, description="Master vendor number", examples=["V1000"])
    system: str | None = Field(None, description="System (app) name", examples=["vista_erp"])
    name_contains: str | None = Field(
        None, description="Case-insensitive part of any system's spelling", examples=["walsh"]
    )


class VendorLookupArgs(ToolArgs):
    system: str = Field(..., description="The system whose id you have", examples=["procore"])
    system_vendor_id: str = Field(..., description="That system's vendor id", examples=["4410287"])


class JobMapArgs(ToolArgs):
    master_job_number: str | None = Field(None, description="Company job number", examples=["1042"])
    system: str | None = Field(None, description="System (app) name", examples=["vista_erp"])


class CostCodeMapArgs(ToolArgs):
    cost_code: str | None = Field(None, description="PM cost code (CSI MasterFormat)", examples=["31-200"])
    erp_system: str | None = Field(None, description="Target ERP", examples=["vista_erp"])


class EmployeeMapArgs(ToolArgs):
    master_employee_id: str | None = Field(None, description="Master employee id", examples=["E1001"])
    system: str | None = Field(None, description="System (app) name", examples=["lcptracker"])


class SystemArgs(ToolArgs):
    system: str | None = Field(None, description="System (app) name", examples=["lcptracker"])


@register
class Hh2(App):
    """hh2: crosswalks between the PM, field, payroll, compliance and ERP systems."""

    name: ClassVar[str] = "hh2"
    label: ClassVar[str] = "hh2 Cloud Services"
    kind: ClassVar[str] = "integration"
    archetype = "Integration/Estimating"

    @tool("vendor_map.list")
    def vendor_map_list(self, args: VendorMapArgs) -> dict[str, Any]:
        """List vendor crosswalk rows: how each system identifies and spells a vendor.

        The same subcontractor has different ids and spellings in Procore, the ERP, Levelset
        and LCPtracker; this map is the only safe way to translate between them.

        Args:
            master_vendor_id: master vendor number, e.g. "V1000".
            system: one system, e.g. "vista_erp".
            name_contains: part of any spelling, e.g. "walsh" (matches every system's spelling
                of a vendor, then returns all of that vendor's rows).

        Returns {"rows": [{master_vendor_id, system, system_vendor_id, system_vendor_name, last_synced}], "count": n}.
        """
        extra = None
        like = ilike("system_vendor_name", args.name_contains)
        if like is not None:
            sub = exp.select(col("master_vendor_id")).from_(self.tbl("vendor_map").table_expr()).where(like)
            extra = exp.In(this=col("master_vendor_id"), query=sub.subquery())
        rows = self.select(
            "vendor_map",
            {"master_vendor_id": args.master_vendor_id, "system": args.system},
            extra=extra,
            order_by=["master_vendor_id", "system"],
        )
        return {"rows": rows, "count": len(rows)}

    @tool("vendor_map.lookup")
    def vendor_map_lookup(self, args: VendorLookupArgs) -> dict[str, Any]:
        """Translate one system's vendor id into the master id and every other system's id.

        Args:
            system: the system whose id you have, e.g. "procore".
            system_vendor_id: that system's vendor id, e.g. "4410287".

        Returns {"master_vendor_id": "V1000", "ids": {"vista_erp": {"id": ..., "name": ...}, ...}}.
        """
        hit = self.select("vendor_map", {"system": args.system, "system_vendor_id": args.system_vendor_id})
        if not hit:
            raise ToolError(
                f"no vendor with {args.system} id {args.system_vendor_id!r} in the hh2 vendor map", "not_found"
            )
        master = hit[0]["master_vendor_id"]
        rows = self.select("vendor_map", {"master_vendor_id": master})
        return {
            "master_vendor_id": master,
            "ids": {r["system"]: {"id": r["system_vendor_id"], "name": r["system_vendor_name"]} for r in rows},
        }

    @tool("job_map.list")
    def job_map_list(self, args: JobMapArgs) -> dict[str, Any]:
        """List job crosswalk rows: how each system numbers a job.

        Args:
            master_job_number: company job number, e.g. "1042".
            system: one system, e.g. "vista_erp" (Vista jobs look like "1042-").

        Returns {"rows": [{master_job_number, system, system_job_id, job_name}], "count": n}.
        """
        rows = self.select(
            "job_map",
            {"master_job_number": args.master_job_number, "system": args.system},
            order_by=["master_job_number", "system"],
        )
        return {"rows": rows, "count": len(rows)}

    @tool("cost_code_map.list")
    def cost_code_map_list(self, args: CostCodeMapArgs) -> dict[str, Any]:
        """List the PM cost code → ERP phase / cost type map (deliberately not one-to-one).

        Args:
            cost_code: PM cost code, e.g. "31-200".
            erp_system: target ERP, e.g. "vista_erp".

        Returns {"rows": [{cost_code, erp_system, erp_phase, erp_cost_type, description, note}], "count": n}.
        """
        rows = self.select(
            "cost_code_map",
            {"cost_code": args.cost_code, "erp_system": args.erp_system},
            order_by=["cost_code", "erp_system"],
        )
        return {"rows": rows, "count": len(rows)}

    @tool("employee_map.list")
    def employee_map_list(self, args: EmployeeMapArgs) -> dict[str, Any]:
        """List employee crosswalk rows between payroll, field-time and certified-payroll systems.

        Args:
            master_employee_id: master employee id, e.g. "E1001".
            system: one system, e.g. "lcptracker".

        Returns {"rows": [{master_employee_id, system, system_employee_id, employee_name}], "count": n}.
        """
        rows = self.select(
            "employee_map",
            {"master_employee_id": args.master_employee_id, "system": args.system},
            order_by=["master_employee_id", "system"],
        )
        return {"rows": rows, "count": len(rows)}

    @tool("union_local_map.list")
    def union_local_map_list(self, args: SystemArgs) -> dict[str, Any]:
        """List union-local crosswalk rows (each system's code for a local).

        Args:
            system: one system, e.g. "lcptracker".

        Returns {"rows": [{local_code, system, system_code, trade}], "count": n}.
        """
        rows = self.select("union_local_map", {"system": args.system}, order_by=["local_code", "system"])
        return {"rows": rows, "count": len(rows)}

    @tool("sync_log.list")
    def sync_log_list(self, args: SystemArgs) -> dict[str, Any]:
        """List recent sync runs between systems (source, target, entity, records, status).

        Args:
            system: only runs whose source or target is this system, e.g. "procore".

        Returns {"rows": [{sync_id, source_system, target_system, entity, started_at, records, status}], "count": n}.
        """
        extra = None
        if args.system:
            extra = exp.or_(
                exp.EQ(this=col("source_system"), expression=literal(args.system)),
                exp.EQ(this=col("target_system"), expression=literal(args.system)),
            )
        rows = self.select("sync_log", extra=extra, order_by=["sync_id"])
        return {"rows": rows, "count": len(rows)}
