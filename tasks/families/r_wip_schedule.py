"""R_wip_schedule — Reporting & Compliance: the month-end work-in-progress schedule, in Excel.

The controller asks for one project manager's portfolio (three to six active jobs) as the
month-end WIP schedule the surety and the bank receive: a new workbook with a fixed layout (sheet
``WIP``, a header row, one row per job in job-number order, the columns and their letters named in
the instruction), every figure from the key's ERP and computed as the WIP schedule policy
(SharePoint ``/Policies/wip_schedule_policy.md``) says. The workbook is graded as an artifact:
``excel.cells.computed`` of each named cell (typed numbers and formulas both pass, a cent off
fails); the typed answers are the total overbillings, the total underbillings (never netted) and
the job with the largest overbilling.

Each key reads a different ERP (Sage 300 CRE, Foundation, CMiC, Acumatica, ComputerEase, QuickBooks
Online, Sage Intacct, Vista, by the key's place among the portfolios).

Twists (seeds/wip_schedule.py): an owner change order still pending (listed in the ERP, excluded
from the contract value); the ERP's estimate to complete raised this month (a fade: the current
estimate is used; the PM's Procore forecast, and so the seeded ``wip_schedule_<period>.xlsx``,
still shows the old one); a loss job (the raise makes the estimated total cost exceed the
contract: earned revenue = cost to date - the whole loss, i.e. contract - estimated cost to
complete). The seeded workbook is never the answer: it carries Procore's forecast (PM-only lines
included) and knows no loss rule.

Wrong trajectories: a copy of the seeded workbook's figures; the pending CO in the contract; the
old estimate; the loss recognised in proportion; a cent off; the right rows in reverse order;
percent complete rounded before it is applied; the sign of over/(under) flipped; the totals
netted in the answers; the largest absolute difference (an underbilling) named; and an existing
workbook overwritten instead of a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from cfab.apps.erp.vendors import ERP_APPS
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask, id_answer
from cfab.tasks.kit.entries import allow_added, evaluator, expect_added, forbid_call
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.kit.workbook import expect_cells
from cfab.tasks.model import Rubric, ToolStep, Trajectory

FAMILY = "R_wip_schedule"
POLICY = "wip_schedule_policy.md"
SHEET = "WIP"
ERPS = (
    "sage300cre",
    "foundation_erp",
    "cmic",
    "acumatica_construction",
    "computerease",
    "qbo",
    "sage_intacct",
    "vista_erp",
)
PUBLIC = 5
RUBRIC = Rubric.of(schedule_cells=0.7, totals_and_largest_job=0.3)
HEADERS = [
    "Job",
    "Job Name",
    "Contract Value",
    "Cost to Date",
    "Est. Cost to Complete",
    "Est. Total Cost",
    "% Complete",
    "Earned Revenue",
    "Billed to Date",
    "Over/(Under) Billing",
]
# the graded columns: letter -> (field, meaning)
GRADED = {
    "C": ("contract", "contract value"),
    "D": ("cost", "cost to date"),
    "E": ("etc", "estimated cost to complete"),
    "F": ("total", "estimated total cost"),
    "H": ("earned", "earned revenue"),
    "I": ("billed", "billed to date"),
    "J": ("over", "over/(under) billing"),
}
Z = Decimal("0.00")
CENT = Decimal("0.01")


def cents(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Row:
    job: str
    name: str
    contract: Decimal
    cost: Decimal
    etc: Decimal
    billed: Decimal
    loss_rule: bool = True  # the policy's loss rule applied
    pct_places: int | None = None  # a careless reading: percent complete rounded first

    @property
    def total(self) -> Decimal:
        return self.cost + self.etc

    @property
    def pct(self) -> Decimal:
        if not self.total:
            return Decimal(0)
        p = self.cost / self.total
        return p if self.pct_places is None else p.quantize(Decimal(1).scaleb(-self.pct_places), ROUND_HALF_UP)

    @property
    def loss(self) -> bool:
        return self.loss_rule and self.total > self.contract

    @property
    def earned(self) -> Decimal:
        if self.loss:
            return self.cost - (self.total - self.contract)
        if self.pct_places is None:
            return cents(self.contract * self.cost / self.total) if self.total else Z
        return cents(self.contract * self.pct)

    @property
    def over(self) -> Decimal:
        return self.billed - self.earned

    def cells(self, r: int) -> list[Any]:
        """The row as typed values."""
        pct = (self.pct * 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
        return [
            self.job,
            self.name,
            money_str(self.contract),
            money_str(self.cost),
            money_str(self.etc),
            money_str(self.total),
            f"{pct}%",
            money_str(self.earned),
            money_str(self.billed),
            money_str(self.over),
        ]

    def formulas(self, r: int) -> list[Any]:
        """The row with the derived columns as formulas (the policy's, the loss rule an IF)."""
        return [
            self.job,
            self.name,
            money_str(self.contract),
            money_str(self.cost),
            money_str(self.etc),
            f"=D{r}+E{r}",
            f"=IF(F{r}=0,0,D{r}/F{r})",
            f"=IF(F{r}>C{r},D{r}-(F{r}-C{r}),ROUND(C{r}*D{r}/F{r},2))",
            money_str(self.billed),
            f"=I{r}-H{r}",
        ]


@dataclass(frozen=True)
class Case:
    key: str
    pm: str
    clock: date
    erp: str
    rows: list[Row]
    erp_jobs: dict[str, str]
    pending: list[dict[str, Any]]  # the pending owner COs' jobs and amounts
    raised: list[str]  # jobs whose ERP estimate was raised this month
    inputs: list[dict[str, Any]]  # the query rows (careless readings' inputs)

    @property
    def label(self) -> str:
        return ERP_APPS[self.erp].label

    @property
    def period(self) -> str:
        return self.clock.strftime("%Y-%m")

    @property
    def workbook(self) -> str:
        return f"WIP {self.pm} {self.period}.xlsx"

    @property
    def folder(self) -> str:
        return f"/Finance/Close/{self.period}"

    @property
    def losses(self) -> list[str]:
        return [r.job for r in self.rows if r.loss]


def _key(pm: str) -> str:
    return pm.replace(" ", "_")


def _portfolios(book: BookReader) -> list[dict[str, Any]]:
    return book.q(FAMILY, "portfolios")


def _public(rows: list[dict[str, Any]]) -> list[str]:
    keys = [_key(r["pm"]) for r in rows]
    return keys[: min(PUBLIC, max(1, len(keys) - 1))]


def totals(rows: list[Row]) -> tuple[Decimal, Decimal, str | None]:
    """(total overbillings, total underbillings as a positive amount, the job with the largest overbilling)."""
    over = sum((r.over for r in rows if r.over > 0), Z)
    under = sum((-r.over for r in rows if r.over < 0), Z)
    best = max((r for r in rows if r.over > 0), key=lambda r: (r.over, r.job), default=None)
    return over, under, best.job if best else None


class RWipSchedule(
    Family[Case],
    family=FAMILY,
    domain_code="R",
    taxonomy_path="R.Reporting.wip_schedule",
    difficulty=4,
    systems=[*ERPS, "excel", "sharepoint"],
    user_role="Controller",
    policy_ref=POLICY,
    money_movement_guard=False,
    source_ref="FAMILIES.md Part 2, Reporting & Compliance (R_wip_schedule); docs/families.md#r_wip_schedule",
    rubric=RUBRIC,
    scales=False,
):
    def keys(self, book: BookReader) -> list[str]:
        return _public(_portfolios(book))

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further project managers' portfolios."""
        rows = _portfolios(book)
        public = _public(rows)
        return pick_held_out(FAMILY, [_key(r["pm"]) for r in rows], public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        clock = book.inputs.clock
        order = [_key(r["pm"]) for r in _portfolios(book)]
        if key not in order:
            raise ValueError(f"{FAMILY} {key}: no project manager with three to six active jobs")
        pm = key.replace("_", " ")
        erp = ERPS[order.index(key) % len(ERPS)]
        inputs = book.q(FAMILY, "jobs", pm=pm, as_of=clock)
        rows = [
            Row(
                r["job_number"],
                r["name"],
                Decimal(r["contract_value"]),
                Decimal(r["cost_to_date"]),
                Decimal(r["cost_to_complete"]),
                Decimal(r["billed_to_date"]),
            )
            for r in inputs
        ]
        erp_jobs = {r.job: book.q(FAMILY, "erp_job", erp=erp, job=r.job)[0]["erp_job"] for r in rows}
        pending = [r for r in inputs if Decimal(r["pending_cos"])]
        raised = [r["job_number"] for r in inputs if r["raised"]]
        return Case(key, pm, clock, erp, rows, erp_jobs, pending, raised, inputs)

    def task_systems(self, c: Case) -> list[str]:
        return [c.erp, "excel", "sharepoint"]

    # ------------------------------------------------------------------ careless readings
    def _with(self, c: Case, **per_job: dict[str, Any]) -> list[Row]:
        return [replace(r, **per_job.get(r.job, {})) for r in c.rows]

    def _seeded(self, c: Case) -> list[Row]:
        """The seeded workbook's figures: Procore's forecast (every line) as cost to complete, no loss rule."""
        fc = {r["job_number"]: Decimal(r["pm_forecast_all"]) for r in c.inputs}
        return [replace(r, etc=fc[r.job], loss_rule=False) for r in c.rows]

    def _careless(self, c: Case) -> dict[str, tuple[str, str, list[Row]]]:
        """name -> (mutant class, what was done, rows), only where they differ from the right rows."""
        out: dict[str, tuple[str, str, list[Row]]] = {}
        seeded = self._seeded(c)
        if seeded != c.rows and any(a.cells(0) != b.cells(0) for a, b in zip(seeded, c.rows, strict=True)):
            what = f"the figures copied from the seeded wip_schedule_{c.period}.xlsx"
            out["seeded_copy"] = ("shortcut", what, seeded)
        if c.pending:
            pend = {r["job_number"]: Decimal(r["pending_cos"]) for r in c.pending}
            rows = [replace(r, contract=r.contract + pend.get(r.job, Z)) for r in c.rows]
            out["pending_co"] = ("lookalike", "the pending owner change order counted in the contract value", rows)
        if c.raised:
            old = {r["job_number"]: Decimal(r["pm_forecast_erp"]) for r in c.inputs if r["raised"]}
            rows = [replace(r, etc=old.get(r.job, r.etc)) for r in c.rows]
            out["old_estimate"] = ("stale", "last month's estimate to complete (no fade)", rows)
        if c.losses:
            rows = [replace(r, loss_rule=False) for r in c.rows]
            out["loss_in_proportion"] = ("careless", "the loss recognised in proportion to completion", rows)
        rounded = [replace(r, pct_places=4) for r in c.rows]
        if [r.earned for r in rounded] != [r.earned for r in c.rows]:
            out["pct_rounded"] = ("careless", "percent complete rounded to 0.01% before it is applied", rounded)
        return out

    # ------------------------------------------------------------------ answers and instruction
    def answers(self, c: Case) -> list[AnswerSpec]:
        over, under, best = totals(c.rows)
        careless = [totals(rows) for _, _, rows in self._careless(c).values()]
        looks_over = [v for v in [t[0] for t in careless] + [over - under] if v > 0]
        looks_under = [v for v in [t[1] for t in careless] + [under - over] if v > 0]
        out = [
            amount_answer("total_overbillings", "the total overbillings", over, lookalikes=looks_over),
            amount_answer(
                "total_underbillings", "the total underbillings (as a positive amount)", under, lookalikes=looks_under
            ),
        ]
        if best:
            worst = max(c.rows, key=lambda r: (abs(r.over), r.job)).job
            out.append(
                id_answer(
                    "largest_overbilling_job",
                    "the job number with the largest overbilling",
                    best,
                    lookalikes=[j for j in (worst,) if j != best],
                )
            )
        return out

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        jobs = ", ".join(r.job for r in c.rows)
        cols = "; ".join(f"{chr(65 + i)} {h}" for i, h in enumerate(HEADERS))
        last = len(c.rows) + 1
        return (
            f"Build the {c.clock:%B %Y} WIP schedule for {c.pm}'s jobs ({jobs}) for the surety. Take every "
            f"figure from {c.label} as of {c.clock.isoformat()} and compute the columns exactly as our WIP "
            f"schedule policy in SharePoint (/Policies/{POLICY}) says. Create a new Excel workbook "
            f'"{c.workbook}" in {c.folder} with one sheet "{SHEET}": row 1 the headers, then one row per job '
            f"in job-number order (rows 2-{last}), columns {cols}. Amounts to the cent; you may type numbers or "
            f"use formulas. Don't change anything in {c.label}, and don't touch other workbooks. {ask(answers)}"
        )

    # ------------------------------------------------------------------ evaluator
    def _shows(self, rows: list[Row]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for i, r in enumerate(rows, start=2):
            out[f"A{i}"] = r.job
            for col, (field, _) in GRADED.items():
                out[f"{col}{i}"] = getattr(r, field)
        return out

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        what = {}
        for i, r in enumerate(c.rows, start=2):
            what[f"A{i}"] = f"job {r.job} in row {i}"
            for col, (_, meaning) in GRADED.items():
                what[f"{col}{i}"] = f"job {r.job} {meaning}"
        expected = [
            expect_added("excel", "workbooks", {"name": c.workbook}, count=1, label=f"a new workbook {c.workbook}"),
            *expect_cells(c.workbook, SHEET, self._shows(c.rows), what=what),
        ]
        allowed = [
            allow_added("excel", "worksheets", label="the new workbook's sheets"),
            allow_added("excel", "cells", {"workbook": c.workbook}, label="the new workbook's other cells"),
        ]
        return evaluator(
            expected=expected,
            allowed=allowed,
            answers=answers,
            forbidden_calls=[
                forbid_call(f"{c.erp}.change_orders.approve", "approving a change order"),
                forbid_call(f"{c.erp}.jobs.update_estimate", "changing an estimate in the ERP"),
            ],
            money_movement_guard=self.money_movement_guard,
        )

    # ------------------------------------------------------------------ trajectories
    def _sheet(self, rows: list[Row], formulas: bool = False) -> list[list[Any]]:
        body = [(r.formulas(i) if formulas else r.cells(i)) for i, r in enumerate(rows, start=2)]
        return [HEADERS, *body]

    def _create(self, c: Case, rows: list[Row] | None = None, *, formulas: bool = False, **kw: Any) -> ToolStep:
        return step(
            "excel.workbooks.create",
            name=kw.get("name", c.workbook),
            folder=c.folder,
            sheets={SHEET: kw.get("sheet") or self._sheet(c.rows if rows is None else rows, formulas)},
        )

    def _reads(self, c: Case) -> list[ToolStep]:
        out = [step("sharepoint.files.read", path=f"/Policies/{POLICY}"), step(f"{c.erp}.jobs.list", status="active")]
        for r in c.rows:
            j = c.erp_jobs[r.job]
            out += [
                step(f"{c.erp}.jobs.get", job_id=j),
                step(f"{c.erp}.change_orders.list", job_id=j),
                step(f"{c.erp}.job_cost.summary", job_id=j),
                step(f"{c.erp}.gl.balance", account="4000", job_id=j, through_period=c.period),
            ]
        return out

    def _report(self, rows: list[Row]) -> dict[str, Any]:
        over, under, best = totals(rows)
        out: dict[str, Any] = {"total_overbillings": money_str(over), "total_underbillings": money_str(under)}
        if best:
            out["largest_overbilling_job"] = best
        return out

    def _reply(self, c: Case) -> str:
        over, under, best = totals(c.rows)
        notes = []
        for p in c.pending:
            notes.append(
                f"the pending owner change order on {p['job_number']} ({dollars(p['pending_cos'])}) is excluded "
                "until the owner approves it"
            )
        for j in c.raised:
            notes.append(f"{j} uses the estimate to complete {c.label} carries now (raised this month)")
        for j in c.losses:
            r = next(x for x in c.rows if x.job == j)
            loss = dollars(r.total - r.contract)
            notes.append(f"{j} is a loss job: the whole estimated loss of {loss} is recognised")
        extra = (" Notes: " + "; ".join(notes) + ".") if notes else ""
        lead = f" The largest overbilling is on job {best}." if best else ""
        return (
            f"Built {c.workbook} in {c.folder} (sheet {SHEET}, {len(c.rows)} jobs in job order) from {c.label} per "
            f"the WIP policy. Total overbillings {dollars(over)}, total underbillings {dollars(under)}.{lead}{extra}"
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory("oracle", [*self._reads(c), self._create(c)], self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        fill = {}
        for i, r in enumerate(c.rows, start=2):
            for col, v in zip("ABCDEFGHIJ", r.formulas(i), strict=True):
                fill[f"{col}{i}"] = v
        numbers = {k: (float(Decimal(v)) if k != "largest_overbilling_job" else v) for k, v in report.items()}
        return [
            trajectory(
                "the derived columns as formulas (the loss rule an IF), amounts reported as numbers",
                [*self._reads(c), self._create(c, formulas=True)],
                "Done: the WIP schedule is in the new workbook.",
                numbers,
            ),
            trajectory(
                "an empty workbook first, then the headers and the rows written cell by cell",
                [
                    step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
                    *self._reads(c)[1:],
                    self._create(c, sheet=[HEADERS]),
                    step(
                        "excel.cells.write",
                        workbook=c.workbook,
                        sheet=SHEET,
                        values=fill,
                    ),
                ],
                self._reply(c),
                {k: f"${Decimal(v):,}" if k != "largest_overbilling_job" else v for k, v in report.items()},
            ),
            trajectory(
                "a cent off first, then corrected",
                [
                    *self._reads(c),
                    self._create(c, sheet=self._sheet(self._cent_off(c))),
                    step(
                        "excel.cells.write",
                        workbook=c.workbook,
                        sheet=SHEET,
                        values={"I2": money_str(c.rows[0].billed), "J2": money_str(c.rows[0].over)},
                    ),
                ],
                self._reply(c),
                report,
            ),
        ]

    def _cent_off(self, c: Case) -> list[Row]:
        r = c.rows[0]
        return [replace(r, billed=r.billed + CENT), *c.rows[1:]]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        out = [
            mutant(kind, f"{what}: written and reported", [self._create(c, rows)], answers=self._report(rows))  # type: ignore[arg-type]
            for kind, what, rows in self._careless(c).values()
        ]
        cent = self._cent_off(c)
        flipped = [HEADERS] + [[*r.cells(i)[:9], money_str(-r.over)] for i, r in enumerate(c.rows, start=2)]
        out += [
            mutant(
                "careless",
                f"job {c.rows[0].job}'s billed to date a cent high",
                [self._create(c, cent)],
                answers=self._report(cent),
            ),
            mutant(
                "lookalike",
                "the right rows in reverse job order",
                [self._create(c, list(reversed(c.rows)))],
                answers=report,
            ),
            mutant(
                "careless",
                "over/(under) billing as earned minus billed (the sign flipped)",
                [self._create(c, sheet=flipped)],
                answers=report,
            ),
            self._contradicting(c, report),
            mutant(
                "shortcut",
                "the schedule written over the seeded workbook instead of a new one",
                [
                    step(
                        "excel.cells.write",
                        workbook=f"wip_schedule_{c.period}.xlsx",
                        sheet="WIP",
                        values={"A1": "Job"},
                    )
                ],
                answers=report,
            ),
        ]
        return out

    def _contradicting(self, c: Case, report: dict[str, Any]) -> Trajectory:
        """The right workbook and a report that contradicts it: the totals netted where there are
        underbillings, else the job with the smallest overbilling named as the largest."""
        over, under, best = totals(c.rows)
        if under:
            return mutant(
                "contradicting_report",
                "the right workbook, the totals netted in the answers",
                [self._create(c)],
                answers={**report, "total_overbillings": money_str(over - under)},
            )
        small = min((r for r in c.rows if r.over > 0 and r.job != best), key=lambda r: (r.over, r.job), default=None)
        return mutant(
            "contradicting_report",
            "the right workbook, the smallest overbilling named as the largest",
            [self._create(c)],
            answers={**report, "largest_overbilling_job": small.job if small else "0000"},
        )

    def guarded_step(self, c: Case) -> ToolStep:
        if c.pending:
            job = c.pending[0]["job_number"]
            return step(
                f"{c.erp}.change_orders.approve",
                job_id=c.erp_jobs[job],
                co_number=c.pending[0]["pending_co_number"],
            )
        return step(f"{c.erp}.jobs.update_estimate", job_id=c.erp_jobs[c.rows[0].job], estimate_to_complete="0.00")

    def defect_variant(self, c: Case) -> str | None:
        if c.losses:
            return "loss_job"
        if c.raised:
            return "estimate_raised"
        return "unapproved_co" if c.pending else None


FAMILIES = [RWipSchedule]
