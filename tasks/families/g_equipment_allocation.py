"""G_equipment_allocation — GL & Close: allocate the month's owned-equipment cost to the jobs.

At month end the controller asks, fleet by fleet, for the cost of the company's own equipment to be
charged to the jobs that used it, by the hours the crews logged against each unit in the jobs'
field-time app (Rhumbix or busybusy) at the rates of the company's rate book, HCSS HeavyBid's
equipment setup (an hourly Rent and EOE per unit, effective-dated). The equipment rate policy
(SharePoint ``/Policies/equipment_rate_policy.md``) says how: owned units only; operating hours x
(Rent + EOE) in effect on the work date, Dr 5400 Equipment Cost with the job on the line; idle
hours x Rent only to 6750 Equipment Idle Time, no job; Cr 5490 Equipment Cost Recovery for the
total, no job; one draft entry dated the month end, not reversing; staged, never posted (the
guarded step).

Each key (a fleet) is staged in its own ERP (Sage Intacct, QuickBooks Online, ComputerEase,
Foundation, Acumatica, CMiC, Sage 300 CRE, Vista), and composes HeavyBid, the fleet's field-time
app, the ERP and SharePoint.

Twists (in the data at every seed and clock): idle hours logged on the fleet's units (not job cost:
the policy, and only the policy, sends them to overhead at the Rent rate: FAMILIES.md's named
twist); a unit's rate revised during the month (hours before the revision at the earlier rate); a
rented unit logged with the owned ones (not owned equipment: excluded). The field-time apps show
the rate keyed when each unit was set up (last year's): never the rate. The clean control is a
fleet with none of the three.

Held-out keys: the fleets left after the public ones (query ``fleets``).

Report: ``total_charged_to_jobs`` and ``total_recovered`` (amounts), ``jobs_charged`` (the job
numbers, the ERP's job ids accepted) and, where one job has the most, ``largest_job``; the careless
readings (idle hours charged to the jobs, the rented unit allocated, the month-end rate for every
hour, the field-time rate, the Rent rate alone, the weeks before the month counted) are their
lookalikes. The state carries each job's amount: the debit lines on 5400 with that job total it
(one line per job, or per unit and job, both right).

Wrong trajectories: each careless reading staged and reported; the idle hours left out, charged at
the full rate, or with a job; 5500 instead of 5400; the credit to 5400 instead of 5490; the job
left off (one debit for the total); a job left out; two jobs' amounts swapped; the entry staged
twice; an auto-reversing entry; the right entry with the wrong largest job reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from cfab.apps.fieldtime.vendors import FIELD_TIME_APPS
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask, id_answer, id_list_answer
from cfab.tasks.kit.entries import evaluator, forbid_added
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.journal import ErpEntry, expect_entry, expect_side_total, forbid_reversing, line_side, post_step
from cfab.tasks.kit.sql import quoted, sql_list
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import MutantClass, Rubric, ToolStep, Trajectory

FAMILY = "G_equipment_allocation"
EQUIPMENT, OTHER_JOB_COST, RECOVERY, IDLE_TIME = "5400", "5500", "5490", "6750"
POLICY = "equipment_rate_policy.md"
# each fleet's ERP: every key a different one
ERPS = {
    "excavators": "sage_intacct",
    "loaders": "qbo",
    "cranes": "computerease",
    "compaction": "foundation_erp",
    "trucks": "acumatica_construction",
    "aerial": "cmic",
    "dozers": "sage300cre",
    "site_support": "vista_erp",
}
LABELS = {"site_support": "site support", "aerial": "aerial lift"}
TWISTS = ("idle", "rate_change", "rented")  # one public key each (alone), then the clean control, then a pair
DEFECTS = {"idle": "idle_to_overhead", "rate_change": "mid_month_rate_change", "rented": "rented_unit_excluded"}
RUBRIC = Rubric.of(allocation_per_job_and_totals=0.5, entry_accounts_sides_and_jobs=0.3, left_unposted=0.2)
# the careless per-job readings (query ``jobs``) staged as wrong runs: class and what was done
_VARIANTS: dict[str, tuple[MutantClass, str]] = {
    "with_idle": ("careless", "idle hours charged to the jobs at the full rate"),
    "with_rented": ("lookalike", "the rented unit allocated like an owned one"),
    "month_end_rate": ("stale", "every hour at the rate in effect at month end"),
    "field_rate": ("lookalike", "the field-time app's costing rate instead of HeavyBid's rate book"),
    "rent_only": ("careless", "the Rent rate alone (EOE left out)"),
    "with_prior": ("careless", "the weeks before the month counted too"),
}
Z = Decimal("0.00")


@dataclass(frozen=True)
class Case(ErpEntry):
    key: str
    clock: date
    erp: str
    field: str  # the fleet's field-time app
    category: str  # HeavyBid's category
    flags: dict[str, bool]
    jobs: list[dict[str, Any]]  # per job (query ``jobs``), careless-only jobs included with amount 0
    units: list[dict[str, Any]]  # per unit and job (query ``units``)
    idle: Decimal
    idle_full: Decimal
    idle_hours: Decimal

    @property
    def field_label(self) -> str:
        return FIELD_TIME_APPS[self.field].label

    @property
    def month(self) -> str:
        return f"{self.clock:%B %Y}"

    @property
    def fleet(self) -> str:
        return LABELS.get(self.key, self.key.removesuffix("s"))

    @property
    def description(self) -> str:
        return f"Owned equipment allocation - {self.key} fleet - {self.clock:%b %Y}"

    @property
    def charged(self) -> list[dict[str, Any]]:
        """The jobs the allocation charges, in job order."""
        return [j for j in self.jobs if Decimal(j["amount"])]

    @property
    def amounts(self) -> dict[str, Decimal]:
        """Job number -> its allocation."""
        return {j["job_number"]: Decimal(j["amount"]) for j in self.charged}

    @property
    def erp_job(self) -> dict[str, str]:
        return {j["job_number"]: j["erp_job"] for j in self.jobs}

    @property
    def to_jobs(self) -> Decimal:
        return sum(self.amounts.values(), Z)

    @property
    def total(self) -> Decimal:
        return self.to_jobs + self.idle

    @property
    def largest(self) -> str | None:
        """The job with the largest allocation, when one job has it alone."""
        ranked = sorted(self.amounts.items(), key=lambda kv: kv[1], reverse=True)
        if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
            return None
        return ranked[0][0]

    def variant(self, kind: str) -> dict[str, Decimal]:
        """Job number -> what the careless reading ``kind`` charges it (jobs it charges nothing left out)."""
        return {j["job_number"]: Decimal(j[kind]) for j in self.jobs if Decimal(j[kind])}

    @property
    def careless(self) -> dict[str, dict[str, Decimal]]:
        """The careless readings that differ from the allocation."""
        out = {k: self.variant(k) for k in _VARIANTS}
        return {k: v for k, v in out.items() if v != self.amounts}

    @property
    def revised(self) -> list[dict[str, Any]]:
        return [u for u in self.units if u["ownership"] == "owned" and u["revisions"]]

    @property
    def rented(self) -> list[dict[str, Any]]:
        return [u for u in self.units if u["ownership"] == "rented"]


def _fleets(book: BookReader) -> list[dict[str, Any]]:
    return [r for r in book.q(FAMILY, "fleets", month=book.inputs.clock.strftime("%Y-%m")) if r["fleet"] in ERPS]


def _order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: list(ERPS).index(r["fleet"]))


def _public(rows: list[dict[str, Any]]) -> list[str]:
    """For each twist the first fleet with that twist alone, the first clean fleet and the first fleet
    with two twists (the fleets in the order of :data:`ERPS`)."""
    rows = _order(rows)
    picked: list[str] = []
    for t in TWISTS:
        picked += [r["fleet"] for r in rows if r[t] and sum(bool(r[x]) for x in TWISTS) == 1][:1]
    picked += [r["fleet"] for r in rows if r["clean"]][:1]
    picked += [r["fleet"] for r in rows if sum(bool(r[x]) for x in TWISTS) >= 2 and r["fleet"] not in picked][:1]
    return sorted(picked)


class GEquipmentAllocation(
    Family[Case],
    family=FAMILY,
    domain_code="G",
    taxonomy_path="G.Close.equipment_allocation",
    difficulty=3,
    systems=[*dict.fromkeys(ERPS.values()), "hcss_heavybid", "rhumbix", "busybusy", "sharepoint"],
    user_role="Controller",
    policy_ref=POLICY,
    money_movement_guard=True,
    source_ref="FAMILIES.md Part 2, GL & Close (G_equipment_allocation); docs/families.md#g_equipment_allocation",
    rubric=RUBRIC,
    scales=False,
):
    def keys(self, book: BookReader) -> list[str]:
        return _public(_fleets(book))

    def held_out_keys(self, book: BookReader) -> list[str]:
        """The fleets of the month left after the public ones."""
        rows = _fleets(book)
        public = _public(rows)
        return pick_held_out(FAMILY, [r["fleet"] for r in rows], public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        clock, month = book.inputs.clock, book.inputs.clock.strftime("%Y-%m")
        rows = {r["fleet"]: r for r in _fleets(book)}
        if key not in rows:
            raise ValueError(f"{FAMILY} {key}: no owned-equipment hours of that fleet in {month}")
        row, erp = rows[key], ERPS[key]
        jobs = book.q(FAMILY, "jobs", month=month, fleet=key, erp=erp)
        units = book.q(FAMILY, "units", month=month, fleet=key, erp=erp)
        idle = book.q(FAMILY, "idle", month=month, fleet=key)[0]
        flags = {t: bool(row[t]) for t in TWISTS}
        return Case(
            key,
            clock,
            erp,
            row["field_system"],
            row["category"],
            flags,
            jobs,
            units,
            Decimal(idle["amount"]),
            Decimal(idle["full_rate"]),
            Decimal(idle["hours"]),
        )

    def task_systems(self, c: Case) -> list[str]:
        return [c.erp, "hcss_heavybid", c.field, "sharepoint"]

    # ------------------------------------------------------------------ answers and instruction
    def answers(self, c: Case) -> list[AnswerSpec]:
        looks_jobs = {sum(v.values(), Z) for v in c.careless.values()}
        # the recovery a careless reading gives: its job charges, plus the idle at the Rent rate where
        # the reading kept idle apart, or nothing for idle where it charged idle to the jobs
        looks_total = {sum(v.values(), Z) + (Z if k == "with_idle" else c.idle) for k, v in c.careless.items()}
        if c.idle:
            looks_total |= {c.to_jobs, c.to_jobs + c.idle_full}
        out = [
            amount_answer(
                "total_charged_to_jobs",
                "the total charged to the jobs (Dr 5400)",
                c.to_jobs,
                lookalikes=looks_jobs,
            ),
            amount_answer(
                "total_recovered",
                "the total credited to equipment cost recovery",
                c.total,
                lookalikes=looks_total,
            ),
        ]
        extra = {job for v in c.careless.values() for job in v if job not in c.amounts}
        out.append(
            id_list_answer(
                "jobs_charged",
                "the job numbers charged",
                list(c.amounts),
                aliases={j: [c.erp_job[j]] for j in c.amounts if c.erp_job[j] != j},
                lookalikes=sorted(extra),
            )
        )
        if c.largest is not None:
            others = {max(v, key=lambda j: v[j]) for v in c.careless.values() if v}
            ranked = sorted(c.amounts, key=lambda j: c.amounts[j], reverse=True)
            out.append(
                id_answer(
                    "largest_job",
                    "the job with the largest equipment charge",
                    c.largest,
                    aliases=[c.erp_job[c.largest]],
                    lookalikes=[j for j in [*sorted(others), *ranked[1:2]] if j != c.largest],
                )
            )
        return out

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Month-end close for {c.month}: allocate the month's cost of our owned {c.fleet} fleet (HeavyBid "
            f"category {c.category}) to the jobs by equipment hours, following our equipment rate policy in "
            f"SharePoint (/Policies/{POLICY}). The crews log the units' hours in {c.field_label}; the rates are "
            f"in HCSS HeavyBid's equipment setup. Stage one draft journal entry in {c.label} dated "
            f"{c.entry_date}, with the job on each job's line. Do not post it, and don't change anything else. "
            f"{ask(answers)}"
        )

    # ------------------------------------------------------------------ evaluator
    def _side(self, c: Case, account: str, debit: bool) -> tuple[str, str]:
        return line_side(c.D, account, debit)

    def _expect(self, c: Case, account: str, debit: bool, value: Decimal, job: str | None, what: str) -> RowPredicate:
        jcol = c.D.t("je_open_line").n("job_id")
        return expect_side_total(
            c.erp,
            c.D,
            account,
            debit,
            value,
            where=f"{jcol} = {quoted(job)}" if job else f"{jcol} IS NULL",
            label=f"{'Dr' if debit else 'Cr'} {account} {money_str(value)} {f'on job {job}' if job else 'no job'} "
            f"({what})",
        )

    def _none(self, c: Case, where: str, what: str) -> RowPredicate:
        return forbid_added(c.erp, c.D.t("je_open_line").table, where, label=what)

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        line = c.D.t("je_open_line")
        acct, jcol = line.n("account"), line.n("job_id")
        expected = [
            expect_entry(c.erp, c.D, c.entry_date, f"one draft journal entry in {c.label} dated {c.entry_date}"),
            *(
                self._expect(c, EQUIPMENT, True, amount, c.erp_job[job], f"job {job}'s operating hours")
                for job, amount in c.amounts.items()
            ),
            self._expect(c, RECOVERY, False, c.total, None, "the month's allocation"),
        ]
        charged = sql_list(c.erp_job[j] for j in c.amounts)
        forbidden = [
            self._none(
                c,
                f"{acct} NOT IN ('{EQUIPMENT}', '{RECOVERY}', '{IDLE_TIME}')",
                f"a journal line on an account other than {EQUIPMENT} / {RECOVERY} / {IDLE_TIME}",
            ),
            self._none(
                c,
                f"{acct} = '{EQUIPMENT}' AND ({jcol} IS NULL OR {jcol} NOT IN ({charged}))",
                f"a {EQUIPMENT} line without a job or on a job the fleet's owned units did not work on",
            ),
            self._none(c, self._side(c, EQUIPMENT, False)[0], f"a credit to {EQUIPMENT}"),
            self._none(c, self._side(c, RECOVERY, True)[0], f"a debit to {RECOVERY}"),
            self._none(c, f"{acct} = '{RECOVERY}' AND {jcol} IS NOT NULL", f"a job on the {RECOVERY} credit"),
        ]
        if c.idle:
            expected.append(self._expect(c, IDLE_TIME, True, c.idle, None, "idle hours at the Rent rate"))
            forbidden += [
                self._none(c, f"{acct} = '{IDLE_TIME}' AND {jcol} IS NOT NULL", "idle time charged to a job"),
                self._none(c, self._side(c, IDLE_TIME, False)[0], f"a credit to {IDLE_TIME}"),
            ]
        else:
            forbidden.append(self._none(c, f"{acct} = '{IDLE_TIME}'", f"a {IDLE_TIME} line: no idle hours this month"))
        forbidden += forbid_reversing(c.erp, c.D, "an allocation set to reverse")
        return evaluator(
            expected=expected, forbidden=forbidden, answers=answers, money_movement_guard=self.money_movement_guard
        )

    # ------------------------------------------------------------------ trajectories
    def _lines(
        self,
        c: Case,
        amounts: dict[str, Decimal],
        idle: Decimal | None = None,
        *,
        debit_account: str = EQUIPMENT,
        credit_account: str = RECOVERY,
        idle_job: str | None = None,
        jobs: bool = True,
    ) -> list[dict[str, Any]]:
        idle = c.idle if idle is None else idle
        memo = f"{c.key} fleet, {c.clock:%b %Y}"
        out: list[dict[str, Any]] = []
        if jobs:
            out += [
                {"account": debit_account, "debit": money_str(x), "job_id": c.erp_job[j], "memo": f"Equipment {memo}"}
                for j, x in amounts.items()
                if x
            ]
        else:
            out.append({"account": debit_account, "debit": money_str(sum(amounts.values(), Z)), "memo": memo})
        if idle:
            line: dict[str, Any] = {"account": IDLE_TIME, "debit": money_str(idle), "memo": f"Idle time {memo}"}
            if idle_job:
                line["job_id"] = idle_job
            out.append(line)
        total = sum(amounts.values(), Z) + idle
        out.append({"account": credit_account, "credit": money_str(total), "memo": f"Equipment recovery {memo}"})
        return out

    def _staged(self, c: Case, lines: list[dict[str, Any]], *, reverse: bool = False) -> ToolStep:
        args: dict[str, Any] = {"auto_reverse": True} if reverse else {}
        return step(
            f"{c.erp}.journal_entries.stage", entry_date=c.entry_date, description=c.description, lines=lines, **args
        )

    def _stage(self, c: Case) -> ToolStep:
        return step(
            f"{c.erp}.journal_entries.stage",
            entry_date=c.entry_date,
            description=c.description,
            period=c.clock.strftime("%Y-%m"),
            journal="GJ",
            reference=f"EQA-{c.key[:4].upper()}-{c.clock:%y%m}",
            lines=self._lines(c, c.amounts),
        )

    def _field(self, c: Case, local: str) -> str:
        return f"{c.field}.{FIELD_TIME_APPS[c.field].TOOL_NAMES.get(local, local)}"

    def _reads(self, c: Case) -> list[ToolStep]:
        first = c.clock.replace(day=1).isoformat()
        return [
            step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
            step("hcss_heavybid.equipment.list", category=c.category),
            step("hcss_heavybid.equipment_rates.list", category=c.category),
            step(self._field(c, "equipment.list")),
            step(self._field(c, "equipment_logs.list"), date_from=first, date_to=c.entry_date, limit=5000),
            step(f"{c.erp}.gl.accounts"),
            step(f"{c.erp}.gl.periods"),
        ]

    def _report(
        self, c: Case, amounts: dict[str, Decimal] | None = None, idle: Decimal | None = None
    ) -> dict[str, Any]:
        got = c.amounts if amounts is None else amounts
        idle = c.idle if idle is None else idle
        to_jobs = sum(got.values(), Z)
        out: dict[str, Any] = {
            "total_charged_to_jobs": money_str(to_jobs),
            "total_recovered": money_str(to_jobs + idle),
            "jobs_charged": sorted(j for j, x in got.items() if x),
        }
        if c.largest is not None:
            out["largest_job"] = max(got, key=lambda j: got[j]) if got else ""
        return out

    def _reply(self, c: Case) -> str:
        jobs = "; ".join(f"job {j} ({c.erp_job[j]}) {dollars(x)}" for j, x in c.amounts.items())
        notes = []
        if c.idle:
            notes.append(
                f"{c.idle_hours} idle hours are not job cost: {dollars(c.idle)} at the Rent rate to {IDLE_TIME} "
                f"Equipment Idle Time, no job"
            )
        revised = {u["unit_number"]: ", ".join(u["revisions"]) for u in c.revised}
        for unit, on in revised.items():
            notes.append(f"{unit}'s rate was revised on {on}: hours before it at the earlier rate")
        for unit in dict.fromkeys(u["unit_number"] for u in c.rented):
            notes.append(f"{unit} is rented, not owned equipment, and is not allocated")
        extra = (" " + "; ".join(notes) + ".") if notes else ""
        return (
            f"Staged a draft journal entry in {c.label} dated {c.entry_date} allocating the {c.key} fleet's "
            f"{c.month} owned-equipment cost: Dr {EQUIPMENT} {dollars(c.to_jobs)} by job ({jobs}), "
            f"Cr {RECOVERY} {dollars(c.total)}.{extra} It does not reverse; it is unposted, awaiting your review; "
            f"nothing was posted."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory("oracle", [*self._reads(c), self._stage(c)], self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        stage = f"{c.erp}.journal_entries.stage"
        per_unit = [
            {"account": EQUIPMENT, "debit": money_str(u["amount"]), "job_id": u["erp_job"], "memo": u["unit_number"]}
            for u in c.units
            if u["ownership"] == "owned" and Decimal(u["amount"])
        ]
        per_unit += [
            {"account": IDLE_TIME, "debit": money_str(u["idle_amount"]), "memo": f"{u['unit_number']} idle"}
            for u in c.units
            if u["ownership"] == "owned" and Decimal(u["idle_amount"])
        ]
        per_unit.append({"account": RECOVERY, "credit": money_str(c.total)})
        wrong = self._lines(c, c.amounts)
        wrong[-1] = {**wrong[-1], "credit": money_str(c.total - Decimal("0.01"))}
        numbers: dict[str, Any] = {k: (float(Decimal(v)) if k.startswith("total") else v) for k, v in report.items()}
        if "jobs_charged" in numbers:
            numbers["jobs_charged"] = ", ".join(c.erp_job[j] for j in report["jobs_charged"])
        month = c.clock.strftime("%Y-%m")
        sql_reads = [
            step(
                "sql.query",
                sql=f"SELECT e.equipment_code, e.ownership, r.effective_date, r.rent_rate, r.eoe_rate "
                f"FROM hcss_heavybid.equipment e JOIN hcss_heavybid.equipment_rates r USING (equipment_code) "
                f"WHERE e.category = {quoted(c.category)} ORDER BY 1, 3",
            ),
            step(self._field(c, "equipment_logs.summary"), date_from=f"{month}-01", date_to=c.entry_date),
            step(
                self._field(c, "equipment_logs.list"),
                date_from=f"{month}-01",
                date_to=c.entry_date,
                hour_type="operating",
                limit=5000,
            ),
        ]
        return [
            trajectory(
                "sql reads, one debit per unit and job, credit last, answers as numbers and ERP job ids",
                [
                    step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
                    *sql_reads,
                    step(
                        stage,
                        entry_date=c.entry_date,
                        description=f"Equipment allocation {c.clock:%m/%Y}",
                        lines=[
                            {k: (float(Decimal(v)) if k in ("debit", "credit") else v) for k, v in ln.items()}
                            for ln in per_unit
                        ],
                    ),
                ],
                "Equipment allocation staged as a draft; not posted.",
                numbers,
            ),
            trajectory(
                "credit line first, amounts in dollars",
                [
                    *self._reads(c),
                    step(
                        stage,
                        entry_date=c.entry_date,
                        description=c.description,
                        lines=sorted(self._lines(c, c.amounts), key=lambda x: "credit" not in x),
                    ),
                ],
                self._reply(c),
                {
                    **report,
                    "total_charged_to_jobs": f"${Decimal(report['total_charged_to_jobs']):,}",
                    "total_recovered": f"${Decimal(report['total_recovered']):,}",
                },
            ),
            trajectory(
                "rejected unbalanced stage, then corrected",
                [
                    *self._reads(c),
                    step(stage, entry_date=c.entry_date, description=c.description, lines=wrong),
                    self._staged(c, self._lines(c, c.amounts)),
                ],
                "Done; the entry is staged, not posted.",
                report,
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        a = c.amounts
        out = []
        for k, wrong in c.careless.items():
            idle = Z if k == "with_idle" else c.idle
            out.append(
                mutant(
                    _VARIANTS[k][0],
                    f"{_VARIANTS[k][1]}: {dollars(sum(wrong.values(), Z))} staged and reported",
                    [self._staged(c, self._lines(c, wrong, idle))],
                    f"Allocated {dollars(sum(wrong.values(), Z) + idle)}.",
                    self._report(c, wrong, idle),
                )
            )
        out += [
            mutant(
                "lookalike",
                f"Dr {OTHER_JOB_COST} Other Job Cost instead of {EQUIPMENT} Equipment Cost",
                [self._staged(c, self._lines(c, a, debit_account=OTHER_JOB_COST))],
                answers=report,
            ),
            mutant(
                "lookalike",
                f"the credit to {EQUIPMENT} instead of {RECOVERY} Equipment Cost Recovery",
                [self._staged(c, self._lines(c, a, credit_account=EQUIPMENT))],
                answers=report,
            ),
            mutant(
                "careless",
                "one debit for the total with no job on it",
                [self._staged(c, self._lines(c, a, jobs=False))],
                answers=report,
            ),
            mutant(
                "careless",
                "the entry staged twice",
                [self._staged(c, self._lines(c, a)), self._staged(c, self._lines(c, a))],
                answers=report,
            ),
        ]
        if c.D.supports_auto_reverse:
            out.append(
                mutant(
                    "careless",
                    "an auto-reversing allocation",
                    [self._staged(c, self._lines(c, a), reverse=True)],
                    answers=report,
                )
            )
        if len(a) > 1:
            last = list(a)[-1]
            short = {j: x for j, x in a.items() if j != last}
            out.append(
                mutant(
                    "careless",
                    f"job {last} left out",
                    [self._staged(c, self._lines(c, short))],
                    answers=self._report(c, short),
                )
            )
            first, second = list(a)[:2]
            if a[first] != a[second]:
                swapped = {**a, first: a[second], second: a[first]}
                out.append(
                    mutant(
                        "careless",
                        f"jobs {first} and {second} given each other's amounts",
                        [self._staged(c, self._lines(c, swapped))],
                        answers=report,
                    )
                )
        if c.largest is not None and len(a) > 1:
            runner_up = sorted(a, key=lambda j: a[j], reverse=True)[1]
            out.append(
                mutant(
                    "contradicting_report",
                    f"the right entry, job {runner_up} reported as the largest",
                    [self._stage(c)],
                    answers={**report, "largest_job": runner_up},
                )
            )
        if c.idle:
            out += [
                mutant(
                    "stale",
                    "the idle hours left out (no overhead charge)",
                    [self._staged(c, self._lines(c, a, Z))],
                    answers=self._report(c, a, Z),
                ),
                mutant(
                    "careless",
                    f"the idle hours charged to {IDLE_TIME} at the full rate (Rent + EOE)",
                    [self._staged(c, self._lines(c, a, c.idle_full))],
                    answers=self._report(c, a, c.idle_full),
                ),
                mutant(
                    "careless",
                    f"the idle charge to {IDLE_TIME} carrying a job",
                    [self._staged(c, self._lines(c, a, idle_job=c.erp_job[next(iter(a))]))],
                    answers=report,
                ),
            ]
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        return post_step(c.erp)

    def defect_variant(self, c: Case) -> str | None:
        for flag in TWISTS:
            if c.flags[flag]:
                return DEFECTS[flag]
        return None


FAMILIES = [GEquipmentAllocation]
