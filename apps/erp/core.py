"""The ERP archetype's core: class constants, the dialect helpers that map logical tables and
columns to a vendor's native ones, and gated row access. Reads live in
`cfab.apps.erp.reads`, writes and guarded tools in `cfab.apps.erp.base`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any, ClassVar

from sqlglot import exp

from cfab.apps.contract import App
from cfab.apps.erp.dialects import Dialect, TMap
from cfab.apps.erp.model import HEADER_OF
from cfab.apps.tooling import ToolError
from cfab.schema.sqlbuild import col, equals_all, literal
from cfab.seeds.determinism import stable_int


class ErpCore(App):
    """ERP archetype base: class constants, dialect helpers and row access (vendors subclass
    `ErpApp` with a dialect and examples)."""

    kind: ClassVar[str] = "erp"
    archetype = "ERP"
    D: ClassVar[Dialect]
    EX_VENDOR: ClassVar[str] = "V1001"
    EX_JOB: ClassVar[str] = "1042"
    EX_PHASE: ClassVar[str] = "16-100-00"
    EX_SUB: ClassVar[str] = "SC-1042-0"
    EX_NOTE: ClassVar[str] = ""

    # ------------------------------------------------------------------ dialect helpers
    def T(self, logical: str) -> TMap:
        return self.D.t(logical)

    def has(self, logical: str) -> bool:
        return logical in self.D.tables

    def N(self, logical: str, column: str) -> str:
        return self.T(logical).n(column)

    def vid(self, value: str | int) -> Any:
        """A vendor id in this ERP's type."""
        if self.D.vendor_int:
            try:
                return int(str(value).strip())
            except ValueError:
                raise ToolError(
                    f"{self.label} vendor ids are numbers like {self.EX_VENDOR}, got {value!r}", "not_found"
                ) from None
        return str(value).strip()

    def yn(self, flag: bool | None) -> Any:
        if flag is None:
            return None
        return ("Y" if flag else "N") if self.D.bool_yn else bool(flag)

    def is_true(self, value: Any) -> bool:
        return value in (True, "Y", "y", 1)

    def period(self, canonical: str) -> Any:
        """'YYYY-MM' in this ERP's period format."""
        try:
            y, mo = (int(p) for p in canonical.split("-"))
            first = date(y, mo, 1)
        except Exception:
            raise ToolError(f"periods look like YYYY-MM, got {canonical!r}", "invalid_argument") from None
        if self.D.period == "date":
            return first
        if self.D.period == "compact":
            return f"{y:04d}{mo:02d}"
        return f"{y:04d}-{mo:02d}"

    def canon_period(self, native: Any) -> str:
        if isinstance(native, date):
            return native.strftime("%Y-%m")
        s = str(native)
        return f"{s[:4]}-{s[4:6]}" if len(s) == 6 and "-" not in s else s[:7]

    def word(self, domain: str, canonical: str) -> str:
        return self.D.word(domain, canonical)

    def _fixed(self, t: TMap, alias: str | None = None) -> exp.Expression | None:
        """The filter that picks this logical table's rows out of its native table."""
        if t.fixed:
            return exp.In(this=col(t.fixed[0], alias), expressions=[literal(w) for w in t.fixed[1]])
        hdr_name = HEADER_OF.get(t.logical)
        hdr = self.D.tables.get(hdr_name) if hdr_name else None
        if hdr is None or not hdr.fixed or not t.link:
            return None
        hinfo = self.tbl(hdr.table)
        sub = (
            exp.select(*[col(hdr.n(c)) for c in t.link])
            .from_(hinfo.table_expr())
            .where(exp.In(this=col(hdr.fixed[0]), expressions=[literal(w) for w in hdr.fixed[1]]))
        )
        lhs = (
            exp.Tuple(expressions=[col(t.n(c), alias) for c in t.link])
            if len(t.link) > 1
            else col(t.n(t.link[0]), alias)
        )
        return exp.In(this=lhs, query=sub.subquery())

    def rows(
        self,
        logical: str,
        where: dict[str, Any] | None = None,
        *,
        extra: Sequence[exp.Expr | None] | None = None,
        order: list[str] | None = None,
        limit: int | None = None,
        desc: bool = False,
    ) -> list[dict[str, Any]]:
        """Native rows of a logical table (fixed filter applied); ``where`` keys are logical columns,
        ``extra`` more predicates (None ones skipped)."""
        t = self.T(logical)
        info = self.tbl(t.table)
        q = exp.select("*").from_(info.table_expr())
        filt = {t.n(k): v for k, v in (where or {}).items() if v is not None}
        if filt:
            q = q.where(equals_all(filt, info))
        for e in [self._fixed(t), *(extra or [])]:
            if e is not None:
                q = q.where(e)
        for c in order or list(t.pk):
            q = q.order_by(exp.Ordered(this=col(t.n(c)), desc=desc))
        if limit:
            q = q.limit(limit)
        return self.query(q)

    def one(self, logical: str, what: str, hint: str = "", **where: Any) -> dict[str, Any]:
        got = self.rows(logical, where)
        if not got:
            shown = ", ".join(f"{self.N(logical, k)}={v!r}" for k, v in where.items())
            raise ToolError(f"no {what} with {shown} in {self.label}{hint}", "not_found")
        return got[0]

    def ins(self, logical: str, values: dict[str, Any]) -> dict[str, Any]:
        """Insert one row; ``values`` keys are logical columns (unmapped ones are skipped)."""
        t = self.T(logical)
        row = {t.n(k): v for k, v in values.items() if t.has(k)}
        if t.fixed:
            row[t.fixed[0]] = t.fixed[1][0]
        return self.insert(t.table, row)

    def upd(self, logical: str, row: dict[str, Any], values: dict[str, Any]) -> int:
        """Update the native row ``row`` (a dict read from the table); ``values`` keys are logical."""
        t = self.T(logical)
        key = {t.n(k): row[t.n(k)] for k in t.pk}
        vals = {t.n(k): v for k, v in values.items() if t.has(k)}
        return self.update(t.table, key, vals) if vals else 0

    # ------------------------------------------------------------------ lookups
    def _vendor(self, vendor_id: str) -> dict[str, Any]:
        return self.one(
            "vendor",
            "vendor",
            f" (vendor ids look like {self.EX_VENDOR}; translate other systems' ids with hh2.vendor_map.lookup)",
            vendor_id=self.vid(vendor_id),
        )

    def _job(self, job_id: str) -> dict[str, Any]:
        return self.one(
            "job",
            "job",
            f" ({self.label} job ids look like {self.EX_JOB!r}; see hh2.job_map.list)",
            job_id=job_id.strip(),
        )

    def _holds(self, vendor_id: Any) -> list[dict[str, Any]]:
        if self.D.hold_mode == "table":
            return self.rows("vendor_hold", {"vendor_id": vendor_id})
        return []

    def _on_hold(self, vrow: dict[str, Any]) -> bool:
        if self.D.hold_mode == "table":
            return bool(self._holds(vrow[self.N("vendor", "vendor_id")]))
        return self.is_true(vrow.get(self.N("vendor", "hold")))

    def _phase_ok(self, job_id: str, phase: str, cost_type: int | None = None) -> None:
        where = {"job_id": job_id, "phase": phase}
        if not self.rows("budget", where):
            known = sorted({r[self.N("budget", "phase")] for r in self.rows("budget", {"job_id": job_id})})[:40]
            raise ToolError(
                f"phase {phase!r} is not set up on job {job_id} in {self.label}; its phases: "
                f"{', '.join(known) or 'none'} (map PM cost codes with hh2.cost_code_map.list)",
                "not_found",
            )
        if cost_type is not None and not 1 <= int(cost_type) <= 5:
            raise ToolError(
                "cost types are 1 labor, 2 material, 3 subcontract, 4 equipment, 5 other", "invalid_argument"
            )

    def _period_row(self, canonical: str) -> dict[str, Any]:
        return self.one("fiscal_period", "fiscal period", "", mth=self.period(canonical))

    def _open_period_for(self, d: date) -> str:
        """The fiscal period of ``d`` if open, else the first open period after it (else the clock month)."""
        want = d.strftime("%Y-%m")
        periods = sorted(self.rows("fiscal_period"), key=lambda r: self.canon_period(r[self.N("fiscal_period", "mth")]))
        closed = self.word("period", "closed")
        for r in periods:
            p = self.canon_period(r[self.N("fiscal_period", "mth")])
            if p >= want and r[self.N("fiscal_period", "status")] != closed:
                return p
        return self.today.strftime("%Y-%m")

    def _new_doc_id(self, family: str, logical: str, column: str, *natural: Any) -> Any:
        """A deterministic id for a created document, in this vendor's format, free in its table."""
        fmt = self.D.docid.get(family)
        n = 900000 + stable_int(self.name, family, *natural, digits=5)
        t = self.T(logical)
        while True:
            if fmt is None or fmt.kind == "int":
                value: Any = n + (fmt.offset if fmt else 0)
            else:
                value = fmt.prefix + str(n + fmt.offset).rjust(fmt.width, "0")
            info = self.tbl(t.table)
            q = (
                exp.select("1")
                .from_(info.table_expr())
                .where(exp.EQ(this=col(t.n(column)), expression=literal(value, info.columns[t.n(column)])))
                .limit(1)
            )
            if not self.query(q):
                return value
            n += 1

    def _new_batch_id(self, logical: str, *natural: Any) -> int:
        t = self.T(logical)
        n = 10000 + stable_int(self.name, logical, *natural, digits=4)
        while self.rows(logical, {"batch_id": n}) if t.has("batch_id") else False:
            n += 1
        return n
