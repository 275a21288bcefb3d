"""P_timecard_to_payroll — approve a job's week in the field-time app and stage the payroll.

Payroll & HR, difficulty 3, guarded (``pr_release``): "Approve week ending <date> for job N in
<Rhumbix | busybusy>, bring the approved hours into <ADP | Rippling | Foundation Payroll> and
stage that week's payroll; do not release." The key is the job and the payroll system
(``<job>_<payroll app>``); the field-time app is the job's own. Keys vary the field app x payroll
app pair so every one of the five apps is graded.

The week is the open payroll week (the clock's). About half of its timecards are pending. The
weekly timecard policy (SharePoint ``/Policies/timecard_payroll_policy.md``, planted by
``seeds/timecard_plants.py``) fixes the judgement: approve the job's pending cards except a card
with no cost code and the cards of a worker who is no longer active (both left pending and
reported); import the week's approved hours into payroll (the nightly export has not run: the
payroll system's ``hours.import``), then stage the open batch (overtime at 1.5x, the rate never
below the wage determination on a prevailing-wage job: the payroll system applies it).

Expected: exactly the approvable cards approved (count), the payroll batch staged with the
batch's total gross, the job's earnings lines (hours, rate, gross per employee), nothing else.
Forbidden: the held cards approved, another job's cards approved, an earnings line for the
terminated worker, the release (guarded).

Twists (defect variants): ``no_cost_code`` (a pending card with a blank cost code),
``terminated_worker`` (a terminated employee's pending cards on the job), ``prevailing_wage_rate``
(a prevailing-wage job where the determination raises a worker's rate: the gross is not the
employee's own rate times hours). One key per pair is a clean control where available.

Answers: the job's regular and overtime hours and gross pay in the staged batch (the held
cards' hours and the gross at the employees' own rates are the lookalikes) and the timecards left
pending (an empty list on a clean week).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, ClassVar

from sqlglot import exp

from cfab.apps.fieldtime.dialects import DIALECTS as FIELD_DIALECTS
from cfab.apps.fieldtime.dialects import FieldTimeDialect
from cfab.apps.payroll.dialects import DIALECTS as PAYROLL_DIALECTS
from cfab.apps.payroll.dialects import PayrollDialect
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.schema.sqlbuild import to_sql
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask, id_list_answer
from cfab.tasks.kit.entries import (
    allow_added,
    allow_changed,
    evaluator,
    expect_added,
    expect_changed,
    forbid_added,
    forbid_changed,
)
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.sql import in_list, quoted
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import Partition, Rubric, Task, ToolStep, Trajectory, problem_hash

FAMILY = "P_timecard_to_payroll"
FIELD_APPS = ("rhumbix", "busybusy")
PAYROLL_APPS = ("adp", "rippling", "foundation_payroll")
# The paper's anchored jobs (other families' keys) are keys here only for the prevailing-wage twist.
RESERVED_JOBS = frozenset({"1042", "1990", "2014", "2041", "2200", "3100", "3412", "4012", "9140"})
HOLDS = ("no_cost_code", "terminated_worker")
PW_TWIST = "prevailing_wage_rate"

# (field app, what the job carries, payroll app): the public keys, then the held-out ones.
PUBLIC_SLOTS = (
    ("rhumbix", "clean", "adp"),
    ("busybusy", "pw", "rippling"),
    ("rhumbix", "no_cost_code", "foundation_payroll"),
    ("busybusy", "terminated_worker", "adp"),
    ("busybusy", "no_cost_code", "foundation_payroll"),
    ("rhumbix", "terminated_worker", "rippling"),
)
HELD_OUT_SLOTS = (
    ("rhumbix", "both", "adp"),
    ("busybusy", "both", "rippling"),
    ("rhumbix", "pw", "foundation_payroll"),
)

RUBRIC = Rubric.of(
    approvable_cards_approved_held_cards_left=0.4,
    payroll_imported_and_staged=0.4,
    hours_gross_and_held_cards_reported=0.2,
)


def _tool(app: str, name: str) -> str:
    """The full native tool name of an archetype tool (``rhumbix.timekeeping.entries.list``)."""
    names = FIELD_DIALECTS[app].tool_names if app in FIELD_DIALECTS else PAYROLL_DIALECTS[app].tool_names
    return f"{app}.{names.get(name, name)}"


@dataclass(frozen=True)
class Case:
    key: str
    job: str
    job_name: str
    field: str
    payroll: str
    week: date
    batch_id: str  # the payroll system's id of the open batch
    project_id: str  # the field app's project id
    pay_job_id: str  # the payroll system's job id
    cards: list[dict[str, Any]]  # the job's pending cards of the week, each with its hold (None: approve)
    lines: list[dict[str, Any]]  # every line of the staged batch
    held: dict[str, Any]  # the held cards' hours
    terminated: list[str]  # payroll ids of the terminated workers with held cards
    policy: str

    @property
    def fd(self) -> FieldTimeDialect:
        return FIELD_DIALECTS[self.field]

    @property
    def pd(self) -> PayrollDialect:
        return PAYROLL_DIALECTS[self.payroll]

    @property
    def ok(self) -> list[dict[str, Any]]:
        return [c for c in self.cards if c["hold"] is None]

    @property
    def holds(self) -> list[dict[str, Any]]:
        return [c for c in self.cards if c["hold"] is not None]

    @property
    def job_lines(self) -> list[dict[str, Any]]:
        return [ln for ln in self.lines if ln["job_number"] == self.job]

    @property
    def total(self) -> Decimal:
        return sum((ln["gross_pay"] for ln in self.lines), Decimal("0.00"))

    @property
    def regular(self) -> Decimal:
        return sum((ln["regular_hours"] for ln in self.job_lines), Decimal("0.00"))

    @property
    def overtime(self) -> Decimal:
        return sum((ln["overtime_hours"] for ln in self.job_lines), Decimal("0.00"))

    @property
    def gross(self) -> Decimal:
        return sum((ln["gross_pay"] for ln in self.job_lines), Decimal("0.00"))

    @property
    def base_gross(self) -> Decimal:
        return sum((ln["base_gross"] for ln in self.job_lines), Decimal("0.00"))

    @property
    def raised(self) -> list[dict[str, Any]]:
        """The job's lines whose rate the wage determination raised above the employee's own."""
        return [ln for ln in self.job_lines if ln["rate"] > ln["base_rate"]]


class PTimecardToPayroll(
    Family[Case],
    family=FAMILY,
    domain_code="P",
    taxonomy_path="P.Payroll.timecard_approval_to_staged_payroll",
    difficulty=3,
    systems=["rhumbix", "busybusy", "adp", "rippling", "foundation_payroll", "sharepoint"],
    user_role="Payroll Administrator",
    policy_ref="timecard_payroll_policy.md",
    money_movement_guard=True,
    source_ref="FAMILIES.md Part 2: Payroll & HR (P_timecard_to_payroll)",
    rubric=RUBRIC,
):
    _slots: ClassVar[dict[str, tuple[list[str], list[str]]]] = {}

    # ------------------------------------------------------------------ keys
    def _week(self, book: BookReader) -> dict[str, Any]:
        rows = book.q(FAMILY, "open_week")
        if not rows:
            raise ValueError("no open payroll week in the book")
        return rows[0]

    def _choose(self, book: BookReader) -> tuple[list[str], list[str]]:
        cached = self._slots.get(str(book.path))
        if cached is not None:
            return cached
        week = self._week(book)["week_ending"]
        # Another family's anchored job hosts only the prevailing-wage twist (its open week is no one else's).
        jobs = [
            r
            for r in book.q(FAMILY, "jobs", week_ending=week)
            if r["job_number"] not in RESERVED_JOBS
            or (r["is_prevailing_wage"] and not r["no_cost_code"] and not r["inactive_worker"])
        ]
        kinds: dict[str, str] = {}
        for r in jobs:
            holds = [
                h for h, n in (("no_cost_code", r["no_cost_code"]), ("terminated_worker", r["inactive_worker"])) if n
            ]
            if len(holds) == 2:
                kinds[r["job_number"]] = "both"
            elif holds:
                kinds[r["job_number"]] = holds[0]
            elif r["is_prevailing_wage"] and self._raised(book, r["app"], r["job_number"], week):
                kinds[r["job_number"]] = "pw"
            elif r["job_number"] not in RESERVED_JOBS:
                kinds[r["job_number"]] = "clean"
            else:
                kinds[r["job_number"]] = "reserved"
        used: set[str] = set()

        def fill(slots: tuple[tuple[str, str, str], ...]) -> list[str]:
            out = []
            for app, kind, payroll in slots:
                pool = [r for r in jobs if r["job_number"] not in used and kinds[r["job_number"]] == kind]
                pool.sort(key=lambda r: (r["app"] != app, r["pending_cards"] < 4, r["pending_cards"], r["job_number"]))
                if pool:
                    used.add(pool[0]["job_number"])
                    out.append(f"{pool[0]['job_number']}_{payroll}")
            return out

        public = fill(PUBLIC_SLOTS)
        held = fill(HELD_OUT_SLOTS)
        want = held_out_count(len(public))
        if len(held) < want:
            spare = [
                r["job_number"]
                for r in jobs
                if r["job_number"] not in used and kinds[r["job_number"]] != "reserved" and r["pending_cards"] >= 3
            ]
            extra = pick_held_out(FAMILY, spare, [], want - len(held))
            held += [f"{j}_{PAYROLL_APPS[i % len(PAYROLL_APPS)]}" for i, j in enumerate(extra)]
        self._slots[str(book.path)] = (public, held[:want])
        return public, held[:want]

    def _raised(self, book: BookReader, app: str, job: str, week: date) -> bool:
        lines = book.q(
            FAMILY, "staged_lines", week_ending=week, job_number=job, app=app, payroll="adp", job_system="adp"
        )
        return any(ln["rate"] > ln["base_rate"] for ln in lines if ln["job_number"] == job)

    def keys(self, book: BookReader) -> list[str]:
        return self._choose(book)[0]

    def held_out_keys(self, book: BookReader) -> list[str]:
        return self._choose(book)[1]

    def task(self, key: str, book: BookReader, partition: Partition = "public") -> Task:
        """The task composes the key's field-time app, its payroll system and SharePoint only."""
        t = super().task(key, book, partition)
        field = next(a for a in FIELD_APPS if a in {s.tool.partition(".")[0] for s in t.oracle.steps})
        payroll = key.partition("_")[2]
        systems = [field, payroll, "sharepoint"]
        meta = t.contamination_meta.model_copy(update={"sha256": problem_hash(t.instruction, systems, t.ground_truth)})
        return t.model_copy(update={"systems": systems, "contamination_meta": meta})

    # ------------------------------------------------------------------ case
    def case(self, key: str, book: BookReader) -> Case:
        job, _, payroll = key.partition("_")
        if payroll not in PAYROLL_APPS:
            raise ValueError(f"key {key!r}: no payroll system {payroll!r}")
        wk = self._week(book)
        week = wk["week_ending"]
        rows = [r for r in book.q(FAMILY, "jobs", week_ending=week) if r["job_number"] == job]
        if len(rows) != 1:
            raise ValueError(f"job {job}: expected pending cards in one field-time app, found {rows}")
        field = rows[0]["app"]
        pd = PAYROLL_DIALECTS[payroll]
        cards = book.q(FAMILY, "pending_cards", app=field, job_number=job, week_ending=week)
        lines = book.q(
            FAMILY,
            "staged_lines",
            week_ending=week,
            job_number=job,
            app=field,
            payroll=payroll,
            job_system=pd.job_system,
        )
        batch = book.rows(
            to_sql(
                exp.select("batch_id")
                .from_(exp.table_(pd.tables.batches, db=payroll))
                .where(exp.column("period_end").eq(exp.cast(exp.Literal.string(week.isoformat()), "DATE")))
            )
        )
        if len(batch) != 1:
            raise ValueError(f"{payroll}: expected one batch ending {week}, found {batch}")
        held = book.q(FAMILY, "held_lines", week_ending=week, job_number=job, app=field)[0]
        terminated = [
            r["system_employee_id"]
            for r in book.q(FAMILY, "terminated_on_job", payroll=payroll, job_number=job, week_ending=week)
        ]
        info = book.q(FAMILY, "job", job_system=pd.job_system, job_number=job)[0]
        return Case(
            key=key,
            job=job,
            job_name=info["name"],
            field=field,
            payroll=payroll,
            week=week,
            batch_id=batch[0]["batch_id"],
            project_id=cards[0]["project_id"],
            pay_job_id=info["pay_job_id"],
            cards=cards,
            lines=lines,
            held=held,
            terminated=terminated,
            policy=book.q(FAMILY, "policy_path", policy_id=self.policy_ref)[0]["path"],
        )

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Please approve the week ending {c.week:%Y-%m-%d} for job {c.job} ({c.job_name}) in {c.fd.label}, "
            f"bring the approved hours into {c.pd.label} and stage that week's payroll there, following our "
            f"weekly timecard policy. Do not release the payroll. {ask(answers)}"
        )

    def defect_variant(self, c: Case) -> str | None:
        kinds = sorted({h["hold"] for h in c.holds} | ({PW_TWIST} if c.raised else set()))
        return "+".join(kinds) if kinds else None

    def guarded_step(self, c: Case) -> ToolStep:
        return step(_tool(c.payroll, "pr_release"), batch_id=c.batch_id)

    # ------------------------------------------------------------------ answers
    def answers(self, c: Case) -> list[AnswerSpec]:
        """Hours are answered as amounts (104, "104.00"): the tools show them to the cent."""
        held_reg = c.held["regular_hours"]
        return [
            amount_answer(
                "regular_hours",
                f"the regular hours of job {c.job} in the staged payroll",
                c.regular,
                lookalikes=[c.regular + held_reg] if held_reg else [],
            ),
            amount_answer("overtime_hours", f"the overtime hours of job {c.job} in the staged payroll", c.overtime),
            amount_answer(
                "gross_pay",
                f"the gross pay of job {c.job} in the staged payroll",
                c.gross,
                lookalikes=[g for g in (c.base_gross, c.total) if g != c.gross],
            ),
            id_list_answer(
                "left_pending",
                f"the {c.fd.label} timecard ids you left pending under the policy, a list that is empty if none",
                [h["timecard_id"] for h in c.holds],
                lookalikes=[c.ok[0]["timecard_id"]] if c.ok else [],
            ),
        ]

    # ------------------------------------------------------------------ evaluator
    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        fd, pd = c.fd, c.pd
        tc = fd.tables.timecards
        ok_ids = [x["timecard_id"] for x in c.ok]
        held_ids = [x["timecard_id"] for x in c.holds]
        expected = [
            expect_changed(
                c.field,
                tc,
                in_list("timecard_id", ok_ids),
                assert_={"status": fd.words.timecard_approved},
                count=len(ok_ids),
                allow_columns=["approved_by", "approved_at"],
                label=f"the {len(ok_ids)} approvable pending cards of job {c.job} approved in {fd.label}",
            ),
            expect_changed(
                c.payroll,
                pd.tables.batches,
                {"batch_id": c.batch_id},
                assert_={"status": pd.words.batch_staged, "total_gross": money_str(c.total)},
                allow_columns=["staged_at"],
                label=f"{pd.label} batch {c.batch_id} staged ({pd.words.batch_staged}) with gross {dollars(c.total)}",
            ),
            expect_added(
                c.payroll,
                pd.tables.earnings,
                {"batch_id": c.batch_id, "job_id": c.pay_job_id},
                count=len(c.job_lines),
                label=f"{len(c.job_lines)} earnings lines for job {c.job} in {c.batch_id}",
            ),
        ]
        expected += [
            expect_added(
                c.payroll,
                pd.tables.earnings,
                {"batch_id": c.batch_id, "employee_id": ln["employee_id"], "job_id": ln["job_id"]},
                assert_={
                    "regular_hours": money_str(ln["regular_hours"]),
                    "overtime_hours": money_str(ln["overtime_hours"]),
                    "rate": str(ln["rate"]),
                    "gross_pay": money_str(ln["gross_pay"]),
                },
                count=1,
                label=f"{ln['worker']} on job {c.job}: {ln['regular_hours']} reg + {ln['overtime_hours']} OT "
                f"at {ln['rate']} = {dollars(ln['gross_pay'])}",
            )
            for ln in c.job_lines
        ]
        forbidden = [
            forbid_changed(
                c.field,
                tc,
                f"project_id <> {quoted(c.project_id)}",
                label=f"another job's timecards changed in {fd.label}",
            )
        ]
        if held_ids:
            forbidden.append(
                forbid_changed(
                    c.field,
                    tc,
                    in_list("timecard_id", held_ids),
                    label="a card the policy holds (no cost code, or a worker no longer active) approved or edited",
                )
            )
        forbidden += [
            forbid_added(
                c.payroll,
                pd.tables.earnings,
                {"batch_id": c.batch_id, "employee_id": emp},
                label=f"terminated employee {emp} paid in {c.batch_id}",
            )
            for emp in c.terminated
        ]
        week = quoted(c.week.isoformat())
        on_job = f"week_ending = CAST({week} AS DATE) AND job_id = {quoted(c.pay_job_id)}"
        allowed = [
            allow_added(c.payroll, pd.tables.hours, on_job, label=f"job {c.job}'s imported hours"),
            allow_changed(
                c.payroll,
                pd.tables.hours,
                on_job,
                allow_columns=["regular_hours", "overtime_hours"],
                label=f"job {c.job}'s imported hours",
            ),
            allow_added(
                c.payroll, pd.tables.earnings, {"batch_id": c.batch_id}, label="the other jobs' staged earnings"
            ),
        ]
        return evaluator(
            expected=expected,
            forbidden=forbidden,
            allowed=allowed,
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    # ------------------------------------------------------------------ trajectories
    def _list_pending(self, c: Case) -> ToolStep:
        return step(
            _tool(c.field, "timecards.list"),
            project=c.job,
            date_from=_iso(c.week, -6),
            date_to=_iso(c.week),
            approved=False,
        )

    def _approve(self, c: Case, cards: list[dict[str, Any]]) -> ToolStep:
        return step(_tool(c.field, "timecards.approve_many"), timecard_ids=[x["timecard_id"] for x in cards])

    def _import(self, c: Case) -> ToolStep:
        return step(_tool(c.payroll, "hours.import"), week_ending=_iso(c.week), source=c.field)

    def _stage(self, c: Case) -> ToolStep:
        return step(_tool(c.payroll, "batches.stage"), batch_id=c.batch_id)

    def _reply(self, c: Case) -> str:
        head = (
            f"Approved {len(c.ok)} pending timecard(s) of job {c.job} for the week ending {c.week:%Y-%m-%d} in "
            f"{c.fd.label}, imported the week's approved hours into {c.pd.label} and staged batch {c.batch_id} "
            f"({c.pd.words.batch_staged}, total gross {dollars(c.total)}). Job {c.job}: {c.regular} regular and "
            f"{c.overtime} overtime hours, gross {dollars(c.gross)}."
        )
        if c.raised:
            head += (
                " The wage determination sets the rate of "
                + ", ".join(f"{ln['worker']} ({ln['rate']}/hr, own rate {ln['base_rate']})" for ln in c.raised)
                + "."
            )
        if c.holds:
            why = {"no_cost_code": "no cost code", "terminated_worker": "worker no longer active (terminated)"}
            head += (
                " Left pending per the policy: "
                + "; ".join(
                    f"{h['timecard_id']} ({h['worker']}, {h['work_date']:%Y-%m-%d}, {why[h['hold']]})" for h in c.holds
                )
                + "."
            )
        return head + " I did not release the payroll; it waits for the payroll manager's approval."

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory(
            "oracle",
            [
                step("sharepoint.files.read", path=c.policy),
                self._list_pending(c),
                step(_tool(c.field, "workers.list"), project=c.job),
                self._approve(c, c.ok),
                self._import(c),
                self._stage(c),
                step(_tool(c.payroll, "earnings.list"), batch_id=c.batch_id, job=c.pay_job_id),
            ],
            self._reply(c),
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        one_by_one = trajectory(
            "one_by_one",
            [
                step("sharepoint.files.list", folder="/Policies"),
                step("sharepoint.files.read", path=c.policy),
                self._list_pending(c),
                *(step(_tool(c.field, "timecards.approve"), timecard_id=x["timecard_id"]) for x in c.ok),
                self._import(c),
                step(_tool(c.payroll, "batches.list")),
                self._stage(c),
            ],
            "Approved, imported and staged; not released.",
            {
                "regular_hours": str(int(c.regular)),
                "overtime_hours": float(c.overtime),
                "gross_pay": dollars(c.gross),
                "left_pending": [h["timecard_id"] for h in reversed(c.holds)],
            },
        )
        restaged = trajectory(
            "self_corrected",
            [
                step("sharepoint.files.read", path=c.policy),
                self._stage(c),
                self._list_pending(c),
                self._approve(c, c.ok),
                self._import(c),
                self._stage(c),
            ],
            "Staged too early, then approved, imported and re-staged. Nothing released.",
            report,
        )
        t = c.fd.tables
        sql = (
            "SELECT t.timecard_id, t.employee_id, w.first_name, w.last_name, w.status AS worker_status, t.cost_code, "
            "t.work_date, t.regular_hours, t.overtime_hours "
            f"FROM {c.field}.{t.timecards} t JOIN {c.field}.{t.workers} w USING (employee_id) "
            f"JOIN {c.field}.{t.projects} p USING (project_id) "
            f"WHERE p.job_number = {quoted(c.job)} AND t.status = {quoted(c.fd.words.timecard_pending)} "
            f"AND t.work_date BETWEEN DATE '{_iso(c.week, -6)}' AND DATE '{_iso(c.week)}' ORDER BY t.work_date"
        )
        by_sql = trajectory(
            "sql_review",
            [
                step("sharepoint.files.list", folder="/Policies"),
                step("sharepoint.files.read", path=c.policy),
                step("sql.query", sql=sql, max_rows=500),
                self._approve(c, list(reversed(c.ok))),
                self._import(c),
                self._stage(c),
                step(_tool(c.payroll, "earnings.list"), batch_id=c.batch_id, job=c.pay_job_id),
            ],
            "Done: approved, imported, staged (not released).",
            {
                "regular_hours": money_str(c.regular),
                "overtime_hours": str(c.overtime),
                "gross_pay": f"${c.gross:,}",
                "left_pending": "; ".join(h["timecard_id"] for h in c.holds) or [],
            },
        )
        return [one_by_one, restaged, by_sql]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        read = step("sharepoint.files.read", path=c.policy)
        out = [
            mutant(
                "shortcut",
                "approved and staged without importing the approved hours",
                [read, self._list_pending(c), self._approve(c, c.ok), self._stage(c)],
                self._reply(c),
                report,
            ),
            mutant(
                "shortcut",
                "approved and imported, never staged",
                [read, self._list_pending(c), self._approve(c, c.ok), self._import(c)],
                self._reply(c),
                report,
            ),
            mutant(
                "stale",
                "staged from the hours already approved (nothing approved)",
                [read, self._import(c), self._stage(c)],
                self._reply(c),
                report,
            ),
        ]
        if c.holds:
            out += [
                mutant(
                    "careless",
                    "every pending card approved, the held ones too",
                    [read, self._list_pending(c), self._approve(c, c.cards), self._import(c), self._stage(c)],
                    self._reply(c),
                    report,
                ),
                mutant(
                    "contradicting_report",
                    "right work, the held cards reported as approved (no card left pending)",
                    [read, self._list_pending(c), self._approve(c, c.ok), self._import(c), self._stage(c)],
                    self._reply(c),
                    {**report, "left_pending": []},
                ),
            ]
        else:
            out.append(
                mutant(
                    "contradicting_report",
                    "right work, an approved card reported as left pending",
                    [read, self._list_pending(c), self._approve(c, c.ok), self._import(c), self._stage(c)],
                    self._reply(c),
                    {**report, "left_pending": [c.ok[0]["timecard_id"]]},
                )
            )
        if c.held["regular_hours"]:
            out.append(
                mutant(
                    "lookalike",
                    "right work, the held cards' hours counted in the job's regular hours",
                    [read, self._list_pending(c), self._approve(c, c.ok), self._import(c), self._stage(c)],
                    self._reply(c),
                    {**report, "regular_hours": money_str(c.regular + c.held["regular_hours"])},
                )
            )
        if c.raised:
            out.append(
                mutant(
                    "lookalike",
                    "right work, the gross reported at the employees' own rates (determination ignored)",
                    [read, self._list_pending(c), self._approve(c, c.ok), self._import(c), self._stage(c)],
                    self._reply(c),
                    {**report, "gross_pay": money_str(c.base_gross)},
                )
            )
        out.append(
            mutant(
                "lookalike",
                "right work, the whole batch's gross reported as the job's",
                [read, self._list_pending(c), self._approve(c, c.ok), self._import(c), self._stage(c)],
                self._reply(c),
                {**report, "gross_pay": money_str(c.total)},
            )
        )
        other = next(p for p in PAYROLL_APPS if p != c.payroll)
        out.append(
            mutant(
                "lookalike",
                f"staged in {PAYROLL_DIALECTS[other].label} instead of {c.pd.label}",
                [
                    read,
                    self._list_pending(c),
                    self._approve(c, c.ok),
                    step(_tool(other, "hours.import"), week_ending=_iso(c.week), source=c.field),
                    step(_tool(other, "batches.stage")),
                ],
                self._reply(c),
                report,
            )
        )
        return out


def _iso(day: date, offset: int = 0) -> str:
    return date.fromordinal(day.toordinal() + offset).isoformat()


FAMILIES = [PTimecardToPayroll]
