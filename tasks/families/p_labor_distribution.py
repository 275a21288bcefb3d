"""P_labor_distribution — tie a month's payroll labor to job cost in the ERP; stage the correction.

Payroll & HR, difficulty 3, guarded (posting): "Tie <month>'s payroll labor to job cost in <ERP>
and stage one correcting entry for the differences; do not post it." The key is a closed month
(``YYYY-MM``) the plant (``seeds/labor_distribution.py``) put differences in; each key reads its
own payroll system (ADP, Rippling, Foundation Payroll) and ERP (by its place: Sage Intacct, CMiC,
Foundation, Acumatica public; Sage 300 CRE, ComputerEase held out), with hh2 for the job
crosswalk and SharePoint for the policy.

The labor distribution policy (SharePoint ``/Policies/labor_distribution_policy.md``): the month is
the released pay batches with check dates in it; gross wages by job in payroll against 5100 Direct
Labor by job on those batches' payroll journals, wherever they posted (fringe 5110 is out of
scope). A job's difference is corrected by one staged entry in the open period dated the clock:
per job a 5100 line for the difference (debit when payroll is higher) and its offset on 1090 Payroll
Clearing, both lines on the job; labor the interface posted as subcontract cost moves back from
5200 instead. Answers: ``total_variance`` (the sum of the jobs' absolute differences) and
``variance_jobs`` (the job numbers; the ERP's spelling accepted).

Every key carries the plain difference: an employee's week re-coded in payroll to another job after
the interface ran (two jobs, equal and opposite). Twists: ``closed_job_labor`` (a week coded to a
job completed before the week began: the policy, and only the policy, charges it to the employee's job of
the month, where the ERP already has it: no difference), ``labor_cost_type_misposted`` (a labor
line the interface posted to 5200 on the phase the hh2 crosswalk shares with a subcontract code:
offset 5200, not clearing), ``labor_distribution_late`` (the month's last batch distributed in the
next period: a timing difference, not booked again). The month with the plain difference only is
the clean control.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, ClassVar

from sqlglot import exp

from cfab.apps.erp.dialects import Dialect
from cfab.apps.erp.vendors import ERP_APPS
from cfab.apps.payroll.dialects import DIALECTS as PAYROLL_DIALECTS
from cfab.apps.payroll.dialects import PayrollDialect
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.schema.sqlbuild import to_sql
from cfab.tasks.family import BookReader, Family
from cfab.tasks.kit.answers import amount_answer, ask, id_list_answer
from cfab.tasks.kit.entries import evaluator, forbid_added
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.journal import expect_entry, expect_side_total, forbid_reversing, line_side
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import Rubric, ToolStep, Trajectory, result_of

FAMILY = "P_labor_distribution"
POLICY = "labor_distribution_policy.md"
LABOR, FRINGE, SUBCONTRACT, CLEARING = "5100", "5110", "5200", "1090"
CLOSED, CROSSWALK, LATE = "closed_job_labor", "labor_cost_type_misposted", "labor_distribution_late"
TWISTS = (CLOSED, CROSSWALK, LATE)
PUBLIC = 4
# (payroll system, ERP) by the key's place among the planted months: public first, then held out
APPS = (
    ("adp", "sage_intacct"),
    ("rippling", "cmic"),
    ("foundation_payroll", "foundation_erp"),
    ("adp", "acumatica_construction"),
    ("rippling", "sage300cre"),
    ("adp", "computerease"),
)
Z = Decimal("0.00")
RUBRIC = Rubric.of(correction_by_job_and_offset=0.6, variance_reported=0.3, left_unposted=0.1)


def _ptool(app: str, name: str) -> str:
    return f"{app}.{PAYROLL_DIALECTS[app].tool_names.get(name, name)}"


@dataclass(frozen=True)
class Case:
    key: str  # the month, 'YYYY-MM'
    clock: date
    payroll: str
    erp: str
    twist: str | None
    batches: list[dict[str, Any]]
    diffs: dict[str, Decimal]  # job -> payroll wages less ERP 5100, nonzero only (policy applied)
    moved: dict[str, Decimal]  # job -> labor the interface posted to 5200 (offset 5200)
    naive: dict[str, dict[str, Decimal]]  # reading -> its job differences (where it differs)
    erp_jobs: dict[str, str]  # job -> ERP id
    payroll_jobs: dict[str, str]
    recoded: tuple[str, str]  # the plain difference: (job the ERP carries it on, job payroll moved it to)
    closed: tuple[str, str] | None  # (closed job, the employee's job of the month)
    late: dict[str, Any] | None  # the batch distributed late and its journal
    policy: str

    @property
    def pd(self) -> PayrollDialect:
        return PAYROLL_DIALECTS[self.payroll]

    @property
    def D(self) -> Dialect:
        return ERP_APPS[self.erp].D

    @property
    def label(self) -> str:
        return ERP_APPS[self.erp].label

    @property
    def month(self) -> date:
        return date.fromisoformat(self.key + "-01")

    @property
    def jobs(self) -> list[str]:
        return sorted(self.diffs)

    @property
    def total(self) -> Decimal:
        return _total(self.diffs)

    @property
    def entry_date(self) -> str:
        return self.clock.isoformat()

    @property
    def description(self) -> str:
        return f"Labor distribution correction {self.month:%B %Y}"

    def offset(self, job: str) -> str:
        return SUBCONTRACT if job in self.moved else CLEARING


def _vendor_batches(book: BookReader, payroll: str, batches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The month's batches with the payroll system's own batch ids (by period end)."""
    pd = PAYROLL_DIALECTS[payroll]
    ends = [exp.cast(exp.Literal.string(b["period_end"].isoformat()), "DATE") for b in batches]
    rows = book.rows(
        to_sql(
            exp.select("batch_id", "period_end")
            .from_(exp.table_(pd.tables.batches, db=payroll))
            .where(exp.column("period_end").isin(*ends))
        )
    )
    ids = {r["period_end"]: r["batch_id"] for r in rows}
    return [{**b, "vendor_batch": ids[b["period_end"]]} for b in batches]


def _total(diffs: dict[str, Decimal]) -> Decimal:
    return sum((abs(v) for v in diffs.values()), Z)


def _plants(book: BookReader) -> dict[str, dict[str, list[str]]]:
    """Planted month -> kind -> job numbers (or batch ids), most recent month first."""
    out: dict[str, dict[str, list[str]]] = {}
    for r in book.q(FAMILY, "plants"):
        out.setdefault(r["month"], defaultdict(list))[r["kind"]].append(r["entity_key"])
    return dict(sorted(out.items(), reverse=True))


def _months(book: BookReader) -> list[str]:
    return [m for m, kinds in _plants(book).items() if kinds.get("labor_recoded_after_interface")]


def _twist(kinds: dict[str, list[str]]) -> str | None:
    return next((t for t in TWISTS if kinds.get(t)), None)


class PLaborDistribution(
    Family[Case],
    family=FAMILY,
    domain_code="P",
    taxonomy_path="P.Payroll.labor_distribution",
    difficulty=3,
    systems=[
        "adp",
        "rippling",
        "foundation_payroll",
        "sage_intacct",
        "cmic",
        "foundation_erp",
        "acumatica_construction",
        "sage300cre",
        "computerease",
        "hh2",
        "sharepoint",
    ],
    user_role="Payroll Accountant",
    policy_ref=POLICY,
    money_movement_guard=True,
    source_ref="FAMILIES.md Part 2: Payroll & HR (P_labor_distribution)",
    scales=False,
    rubric=RUBRIC,
):
    _cache: ClassVar[dict[str, list[str]]] = {}

    def _all(self, book: BookReader) -> list[str]:
        key = str(book.path)
        if key not in self._cache:
            self._cache[key] = _months(book)
        return self._cache[key]

    def keys(self, book: BookReader) -> list[str]:
        return self._all(book)[:PUBLIC]

    def held_out_keys(self, book: BookReader) -> list[str]:
        return self._all(book)[PUBLIC : len(APPS)]

    def task_systems(self, c: Case) -> list[str]:
        return [c.payroll, c.erp, "hh2", "sharepoint"]

    # ------------------------------------------------------------------ case
    def case(self, key: str, book: BookReader) -> Case:
        months = self._all(book)
        if key not in months[: len(APPS)]:
            raise ValueError(f"{FAMILY} {key}: no planted labor difference in that month")
        payroll, erp = APPS[months.index(key)]
        kinds = _plants(book)[key]
        twist = _twist(kinds)
        earnings = book.q(FAMILY, "earnings", month=key)
        erp_rows = {r["job_number"]: r for r in book.q(FAMILY, "erp_labor", month=key)}
        # payroll by job, hours coded to a closed job charged to the employee's job of the month
        hours: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
        for e in earnings:
            if not e["closed_job"]:
                hours[(e["employee_id"], e["job_number"])] += e["hours"]
        raw: dict[str, Decimal] = defaultdict(Decimal)
        policy: dict[str, Decimal] = defaultdict(Decimal)
        closed = None
        for e in earnings:
            raw[e["job_number"]] += e["gross_pay"]
            job = e["job_number"]
            if e["closed_job"]:
                worked = [(h, j) for (emp, j), h in hours.items() if emp == e["employee_id"]]
                if worked:
                    job = max(worked)[1]
                    closed = (e["job_number"], job)
            policy[job] += e["gross_pay"]
        jobs = sorted(set(raw) | set(erp_rows))

        def diff(pay: dict[str, Decimal], col: str) -> dict[str, Decimal]:
            out = {j: pay.get(j, Z) - Decimal(erp_rows[j][col] if j in erp_rows else 0) for j in jobs}
            return {j: v for j, v in out.items() if v}

        diffs = diff(policy, "labor")
        moved = {j: Decimal(r["subcontract"]) for j, r in erp_rows.items() if r["subcontract"]}
        naive = {"closed_job_kept": diff(raw, "labor"), "by_period": diff(policy, "labor_in_period")}
        naive = {k: v for k, v in naive.items() if v != diffs}
        recoded_to = kinds["labor_recoded_after_interface"][0]
        recoded_from = next(j for j, v in diffs.items() if v < 0 and j not in moved)
        late = None
        if kinds.get(LATE):
            late = book.q(FAMILY, "late_journal", je_number=kinds[LATE][0])[0]
        ids = book.q(FAMILY, "job_ids", erp=erp, payroll_jobs=PAYROLL_DIALECTS[payroll].job_system)
        return Case(
            key=key,
            clock=book.inputs.clock,
            payroll=payroll,
            erp=erp,
            twist=twist,
            batches=_vendor_batches(book, payroll, book.q(FAMILY, "batches", month=key)),
            diffs=diffs,
            moved={j: v for j, v in moved.items() if j in diffs},
            naive=naive,
            erp_jobs={r["job_number"]: r["erp_job"] for r in ids},
            payroll_jobs={r["job_number"]: r["payroll_job"] for r in ids},
            recoded=(recoded_from, recoded_to),
            closed=closed,
            late=late,
            policy=book.q(FAMILY, "policy_path", policy_id=POLICY)[0]["path"],
        )

    def defect_variant(self, c: Case) -> str | None:
        return c.twist

    def guarded_step(self, c: Case) -> ToolStep:
        post = ERP_APPS[c.erp].TOOL_NAMES["post"]
        return step(
            f"{c.erp}.{post}", kind="journal_entry", batch_id=result_of(f"{c.erp}.journal_entries.stage", "batch_id")
        )

    # ------------------------------------------------------------------ answers
    def answers(self, c: Case) -> list[AnswerSpec]:
        looks = [_total(d) for d in c.naive.values()]
        looks += [sum(c.diffs.values(), Z), sum((v for v in c.diffs.values() if v > 0), Z)]
        job_looks = sorted({j for d in c.naive.values() for j in d} - set(c.diffs))
        return [
            amount_answer(
                "total_variance",
                f"the total variance between payroll labor and the ERP's job cost for {c.month:%B %Y}: the sum of "
                "the jobs' differences regardless of sign, in dollars",
                c.total,
                lookalikes=[v for v in dict.fromkeys(looks) if v != c.total],
            ),
            id_list_answer(
                "variance_jobs",
                "the job numbers with a difference",
                c.jobs,
                aliases={j: [c.erp_jobs[j]] for j in c.jobs if c.erp_jobs[j] != j},
                lookalikes=job_looks,
            ),
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Please tie {c.month:%B %Y}'s payroll labor to job cost: compare the gross wages by job of the pay "
            f"batches paid in {c.month:%B %Y} in {c.pd.label} with the direct labor {c.label} carries in job cost "
            f"for them, following our labor distribution policy in SharePoint (/Policies/{POLICY}). Stage one "
            f"draft journal entry in {c.label} dated {c.entry_date} that corrects each job's difference. Do not "
            f"post it, and don't change anything else. {ask(answers)}"
        )

    # ------------------------------------------------------------------ evaluator
    def _side(self, c: Case, account: str, debit: bool, job: str) -> tuple[str, str]:
        where, col = line_side(c.D, account, debit)
        line = c.D.t("je_open_line")
        return f"{where} AND {line.n('job_id')} = {quoted(c.erp_jobs[job])}", col

    def _total_entry(self, c: Case, account: str, debit: bool, job: str, value: Decimal) -> RowPredicate:
        return expect_side_total(
            c.erp,
            c.D,
            account,
            debit,
            value,
            where=f"{c.D.t('je_open_line').n('job_id')} = {quoted(c.erp_jobs[job])}",
            label=f"{'Dr' if debit else 'Cr'} {account} {money_str(value)} on job {c.erp_jobs[job]}",
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        line = c.D.t("je_open_line")
        job_col, acct_col = line.n("job_id"), line.n("account")
        expected = [
            expect_entry(c.erp, c.D, c.entry_date, f"one draft journal entry in {c.label} dated {c.entry_date}")
        ]
        forbidden = [
            forbid_added(
                c.erp,
                line.table,
                f"{job_col} IS NULL OR {job_col} NOT IN ({', '.join(quoted(c.erp_jobs[j]) for j in c.jobs)})",
                label="a line without a job or on a job with no difference",
            ),
            forbid_added(
                c.erp,
                line.table,
                f"{acct_col} NOT IN ({', '.join(quoted(a) for a in sorted({LABOR, *map(c.offset, c.jobs)}))})",
                label="a line on an account other than 5100 and the offset the policy names",
            ),
        ]
        for j in c.jobs:
            v = c.diffs[j]
            up = v > 0
            expected.append(self._total_entry(c, LABOR, up, j, abs(v)))
            expected.append(self._total_entry(c, c.offset(j), not up, j, abs(v)))
            for account, side in ((LABOR, not up), (c.offset(j), up)):
                where, _ = self._side(c, account, side, j)
                forbidden.append(
                    forbid_added(c.erp, line.table, where, label=f"{account} on the wrong side for job {j}")
                )
            if c.offset(j) != CLEARING:
                where, _ = line_side(c.D, CLEARING, not up)
                forbidden.append(
                    forbid_added(
                        c.erp,
                        line.table,
                        f"{where} AND {job_col} = {quoted(c.erp_jobs[j])}",
                        label=f"job {j}'s labor in 5200 offset through clearing",
                    )
                )
        forbidden += forbid_reversing(c.erp, c.D, "a correction set to reverse next period")
        return evaluator(
            expected=expected, forbidden=forbidden, answers=answers, money_movement_guard=self.money_movement_guard
        )

    # ------------------------------------------------------------------ trajectories
    def _lines(
        self,
        c: Case,
        diffs: dict[str, Decimal] | None = None,
        *,
        offset: dict[str, str] | None = None,
        offset_job: bool = True,
    ) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for j, v in sorted((diffs if diffs is not None else c.diffs).items()):
            amount = money_str(abs(v))
            dr, cr = ("debit", "credit") if v > 0 else ("credit", "debit")
            acct = (offset or {}).get(j, c.offset(j))
            memo = f"Labor distribution {c.key}, job {j}"
            out.append({"account": LABOR, dr: amount, "job_id": c.erp_jobs[j], "memo": memo})
            out.append({"account": acct, cr: amount, **({"job_id": c.erp_jobs[j]} if offset_job else {}), "memo": memo})
        return out

    def _stage(self, c: Case, lines: list[dict[str, Any]] | None = None, **extra: Any) -> ToolStep:
        return step(
            f"{c.erp}.journal_entries.stage",
            entry_date=c.entry_date,
            description=c.description,
            lines=lines if lines is not None else self._lines(c),
            **extra,
        )

    def _reads(self, c: Case) -> list[ToolStep]:
        periods = [c.key] + ([c.late["period"]] if c.late else [])
        return [
            step("sharepoint.files.read", path=c.policy),
            step(_ptool(c.payroll, "batches.list"), status=c.pd.words.batch_released),
            *(step(_ptool(c.payroll, "earnings.list"), batch_id=b["vendor_batch"]) for b in c.batches),
            step("hh2.job_map.list", system=c.erp),
            step(f"{c.erp}.jobs.list"),
            *(step(f"{c.erp}.journal_entries.list", period=p, include_lines=True, limit=500) for p in periods),
            step(f"{c.erp}.gl.periods", status="open"),
        ]

    def _report(self, c: Case, diffs: dict[str, Decimal] | None = None) -> dict[str, Any]:
        d = c.diffs if diffs is None else diffs
        return {"total_variance": money_str(_total(d)), "variance_jobs": sorted(d)}

    def _reply(self, c: Case) -> str:
        parts = [
            f"job {j} {'+' if v > 0 else '-'}{dollars(abs(v))} (offset {c.offset(j)})"
            for j, v in sorted(c.diffs.items())
        ]
        text = (
            f"Tied {c.month:%B %Y}'s payroll labor ({len(c.batches)} batches paid in the month) to {LABOR} in "
            f"{c.label}. Differences: {'; '.join(parts)}; total {dollars(c.total)}. "
        )
        if c.closed:
            text += (
                f"Hours coded to closed job {c.closed[0]} belong to job {c.closed[1]}, the employee's job of the "
                "month, where the ERP already carries them: no difference. "
            )
        if c.late:
            text += (
                f"Batch {c.late['batch']}'s labor was distributed in {c.late['period']} ({c.late['je_number']}): "
                "a timing difference, not booked again. "
            )
        return text + f"Staged one draft entry dated {c.entry_date}; nothing was posted."

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory("oracle", [*self._reads(c), self._stage(c, reference=f"LD-{c.key}")], self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        s, t = c.payroll, c.pd.tables
        pay_sql = (
            f"SELECT x.job_id, sum(x.gross_pay) AS wages FROM {s}.{t.earnings} x "
            f"JOIN {s}.{t.batches} b USING (batch_id) "
            f"WHERE b.check_date BETWEEN DATE '{c.month.isoformat()}' AND last_day(DATE '{c.month.isoformat()}') "
            "GROUP BY ALL ORDER BY 1"
        )
        floats = [
            {k: (float(Decimal(v)) if k in ("debit", "credit") else v) for k, v in ln.items()}
            for ln in reversed(self._lines(c))
        ]
        unbalanced = self._lines(c)
        first = next(i for i, ln in enumerate(unbalanced) if "debit" in ln)
        unbalanced[first] = {**unbalanced[first], "debit": money_str(Decimal(unbalanced[first]["debit"]) + 1)}
        spelled = {
            "total_variance": f"${c.total:,}",
            "variance_jobs": ", ".join(c.erp_jobs[j] for j in c.jobs),
        }
        return [
            trajectory(
                "sql reads, lines reversed, amounts as numbers",
                [
                    step("sharepoint.files.read", path=c.policy),
                    step("sql.query", sql=pay_sql, max_rows=500),
                    step("hh2.job_map.list", system=c.erp),
                    *(
                        step(f"{c.erp}.journal_entries.list", period=p, include_lines=True, limit=500)
                        for p in [c.key] + ([c.late["period"]] if c.late else [])
                    ),
                    self._stage(c, floats),
                ],
                "Correction staged; not posted.",
                spelled,
            ),
            trajectory(
                "each job's 5100 difference in two lines, reads in another order",
                [*reversed(self._reads(c)), self._stage(c, _split(self._lines(c)))],
                self._reply(c),
                report,
            ),
            trajectory(
                "rejected unbalanced stage, then corrected",
                [*self._reads(c), self._stage(c, unbalanced), self._stage(c)],
                self._reply(c),
                {"total_variance": float(c.total), "variance_jobs": list(reversed(c.jobs))},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        reads = self._reads(c)
        j_from, j_to = c.recoded
        out = [
            mutant(
                "shortcut", "the differences worked out and reported, nothing staged", reads, self._reply(c), report
            ),
            mutant(
                "careless",
                "the ERP made to match the wrong way round (signs reversed)",
                [*reads, self._stage(c, self._lines(c, {j: -v for j, v in c.diffs.items()}))],
                answers=report,
            ),
            mutant(
                "careless",
                "the clearing offsets without the job",
                [*reads, self._stage(c, self._lines(c, offset_job=False))],
                answers=report,
            ),
            mutant(
                "lookalike",
                "offset to 2100 Accrued Liabilities instead of the policy's accounts",
                [*reads, self._stage(c, self._lines(c, offset=dict.fromkeys(c.diffs, "2100")))],
                answers=report,
            ),
            mutant("careless", "the correction staged twice", [*reads, self._stage(c), self._stage(c)], answers=report),
            mutant(
                "careless",
                f"the re-coded week left out (job {j_from} and {j_to} untouched)",
                [*reads, self._stage(c, self._lines(c, {j: v for j, v in c.diffs.items() if j not in c.recoded}))]
                if set(c.diffs) - set(c.recoded)
                else reads,
                answers=self._report(c, {j: v for j, v in c.diffs.items() if j not in c.recoded}),
            ),
            mutant(
                "contradicting_report",
                "the right entry, the net variance reported",
                [*reads, self._stage(c)],
                answers={**report, "total_variance": money_str(sum(c.diffs.values(), Z) or c.total / 2)},
            ),
        ]
        if c.D.supports_auto_reverse:
            out.append(
                mutant(
                    "careless",
                    "an auto-reversing correction",
                    [*reads, self._stage(c, auto_reverse=True)],
                    answers=report,
                )
            )
        for reading, diffs in c.naive.items():
            what = {
                "closed_job_kept": "the closed job's hours left on the closed job (the policy's clause ignored)",
                "by_period": "the ERP read by period: the late-distributed batch booked again",
            }[reading]
            out.append(
                mutant(
                    "stale",
                    what,
                    [*reads, self._stage(c, self._lines(c, diffs, offset=dict.fromkeys(diffs, CLEARING)))],
                    answers=self._report(c, diffs),
                )
            )
        if c.moved:
            out.append(
                mutant(
                    "stale",
                    "labor posted to 5200 offset through clearing (5200 left overstated)",
                    [*reads, self._stage(c, self._lines(c, offset=dict.fromkeys(c.diffs, CLEARING)))],
                    answers=report,
                )
            )
        return out


def _split(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same entry with every 5100 line cut in two (a cent-exact split)."""
    out: list[dict[str, Any]] = []
    for ln in lines:
        side = "debit" if "debit" in ln else "credit"
        amount = Decimal(ln[side])
        if ln["account"] != LABOR or amount < Decimal("0.02"):
            out.append(ln)
            continue
        half = (amount / 2).quantize(Decimal("0.01"))
        out += [{**ln, side: money_str(half)}, {**ln, side: money_str(amount - half)}]
    return out


FAMILIES = [PLaborDistribution]
